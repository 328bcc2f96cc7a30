// RUN: torch2mlir-opt %s -convert-torch-to-tosa -split-input-file -verify-diagnostics | FileCheck %s

// add.Tensor with alpha: other * alpha (a rank-equal constant), then add;
// the lower-rank operand is reshaped to the result's rank.
// CHECK-LABEL: func.func @add_alpha_broadcast(
// CHECK-DAG: %[[A:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK-DAG: %[[B:.*]] = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[3],f32> -> tensor<3xf32>
// CHECK: %[[B2:.*]] = tosa.reshape %[[B]], %{{.*}} : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK: %[[TWO:.*]] = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1xf32>}>
// CHECK: %[[SCALED:.*]] = tosa.mul %[[B2]], %[[TWO]], %{{.*}} : (tensor<1x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x3xf32>
// CHECK: tosa.add %[[A]], %[[SCALED]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
func.func @add_alpha_broadcast(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.aten.add.Tensor %a, %b, %int2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// 16-bit floats compute in f32 and round once (a divisor of 65536 would be
// inf in f16).
// CHECK-LABEL: func.func @div_f16_by_scalar(
// CHECK: %[[X:.*]] = tosa.cast %{{.*}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[D:.*]] = "tosa.const"() <{values = dense<6.553600e+04> : tensor<1xf32>}>
// CHECK: %[[R:.*]] = tosa.reciprocal %[[D]]
// CHECK: %[[Q:.*]] = tosa.mul %[[X]], %[[R]]
// CHECK: tosa.cast %[[Q]] : (tensor<4xf32>) -> tensor<4xf16>
func.func @div_f16_by_scalar(%a: !torch.vtensor<[4],f16>) -> !torch.vtensor<[4],f16> {
  %int65536 = torch.constant.int 65536
  %0 = torch.aten.div.Scalar %a, %int65536 : !torch.vtensor<[4],f16>, !torch.int -> !torch.vtensor<[4],f16>
  return %0 : !torch.vtensor<[4],f16>
}

// -----

// The exponents PyTorch special-cases: -0.5 is rsqrt (the sign of -0.0
// gives -inf, as in PyTorch), 2 a product.
// CHECK-LABEL: func.func @pow_special(
// CHECK: tosa.rsqrt %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: tosa.pow
// CHECK: tosa.mul %[[X:.*]], %[[X]],
func.func @pow_special(%a: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
  %half = torch.constant.float -5.000000e-01
  %two = torch.constant.float 2.000000e+00
  %0 = torch.aten.pow.Tensor_Scalar %a, %half : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  %1 = torch.aten.pow.Tensor_Scalar %a, %two : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}

// -----

// Float to int truncates toward zero (TOSA's cast rounds to nearest).
// CHECK-LABEL: func.func @float_to_int(
// CHECK: %[[NEG:.*]] = tosa.greater %{{.*}}, %[[X:.*]] : (tensor<1xf32>, tensor<3xf32>) -> tensor<3xi1>
// CHECK-DAG: %[[C:.*]] = tosa.ceil %[[X]]
// CHECK-DAG: %[[F:.*]] = tosa.floor %[[X]]
// CHECK: %[[T:.*]] = tosa.select %[[NEG]], %[[C]], %[[F]]
// CHECK: tosa.cast %[[T]] : (tensor<3xf32>) -> tensor<3xi32>
func.func @float_to_int(%a: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],si32> {
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.to.dtype %a, %int3, %false, %false, %none : !torch.vtensor<[3],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}

// -----

// Bool equality is xor's negation (TOSA compares numbers only).
// CHECK-LABEL: func.func @bool_eq(
// CHECK: %[[X:.*]] = tosa.logical_xor
// CHECK: tosa.logical_not %[[X]]
func.func @bool_eq(%a: !torch.vtensor<[3],i1>, %b: !torch.vtensor<[3],i1>) -> !torch.vtensor<[3],i1> {
  %0 = torch.aten.eq.Tensor %a, %b : !torch.vtensor<[3],i1>, !torch.vtensor<[3],i1> -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}

// -----

// What TOSA 1.0 has no tensors of is refused, naming the dtype.
func.func @i64_result(%a: !torch.vtensor<[3],si64>, %b: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3],si64> {
  %int1 = torch.constant.int 1
  // expected-error @+1 {{'torch.aten.add.Tensor' could not be lowered to TOSA: unsupported: a result of dtype si64 (TOSA 1.0 has f32, f16, bf16, si8, si16, si32 and bool tensors)}}
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor<[3],si64>
  return %0 : !torch.vtensor<[3],si64>
}

// -----

// An unsigned operand would compare as signed: refused.
func.func @unsigned_compare(%a: !torch.vtensor<[3],ui8>, %b: !torch.vtensor<[3],ui8>) -> !torch.vtensor<[3],i1> {
  // expected-error @+1 {{'torch.aten.gt.Tensor' could not be lowered to TOSA: unsupported: an unsigned operand (TOSA 1.0's integers are signed)}}
  %0 = torch.aten.gt.Tensor %a, %b : !torch.vtensor<[3],ui8>, !torch.vtensor<[3],ui8> -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}

// -----

// An integer to a constant power: square and multiply (x^3 = x * x^2).
// CHECK-LABEL: func.func @pow_int_cube(
// CHECK: %[[X:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[SQ:.*]] = tosa.mul %[[X]], %[[X]], %{{.*}} : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
// CHECK: tosa.mul %[[X]], %[[SQ]]
func.func @pow_int_cube(%x: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.pow.Tensor_Scalar %x, %int3 : !torch.vtensor<[4],si32>, !torch.int -> !torch.vtensor<[4],si32>
  return %0 : !torch.vtensor<[4],si32>
}

// -----

// A power of integers by a tensor exponent has no TOSA form.
func.func @pow_int_tensor(%x: !torch.vtensor<[4],si32>, %y: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  // expected-error @+1 {{'torch.aten.pow.Tensor_Tensor' could not be lowered to TOSA: unsupported: a non-float result (TOSA has no true division, nor integer powers but by constant exponents in [0, 64])}}
  %0 = torch.aten.pow.Tensor_Tensor %x, %y : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %0 : !torch.vtensor<[4],si32>
}
