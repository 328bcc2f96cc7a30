// RUN: torch2mlir-opt %s -convert-torch-to-tosa -split-input-file -verify-diagnostics | FileCheck %s

// atan2 of a broadcast operand: tiled to the result shape first (the
// formula applies abs to it); the ratio of the smaller over the larger
// magnitude is reduced at tan(pi/8), the odd polynomial evaluated, then the
// octant (|y| > |x|), the quadrant (x's sign bit, -0 included) and y's sign
// placed.
// CHECK-LABEL: func.func @atan2_broadcast(
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[3,4],f32> -> tensor<3x4xf32>
// CHECK-DAG: %[[Y1:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[1,4],f32> -> tensor<1x4xf32>
// CHECK: %[[Y:.*]] = tosa.tile %[[Y1]], %{{.*}} : (tensor<1x4xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
// CHECK: %[[AY:.*]] = tosa.abs %[[Y]]
// CHECK: %[[AX:.*]] = tosa.abs %[[X]]
// CHECK: %[[HI:.*]] = tosa.maximum %[[AX]], %[[AY]]
// CHECK: %[[LO:.*]] = tosa.minimum %[[AX]], %[[AY]]
// CHECK: dense<0.414213568>
// CHECK: dense<0.0805374458>
// CHECK: dense<-0.138776854>
// CHECK: dense<0.199777111>
// CHECK: dense<-0.333329499>
// CHECK: tosa.equal %[[HI]]
// CHECK: tosa.equal %[[LO]]
// CHECK: tosa.greater %[[AY]], %[[AX]]
// CHECK: tosa.reciprocal %[[X]]
// CHECK: tosa.negate
// CHECK: %[[R:.*]] = tosa.select
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<3x4xf32>
func.func @atan2_broadcast(%y: !torch.vtensor<[1,4],f32>, %x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %0 = torch.aten.atan2 %y, %x : !torch.vtensor<[1,4],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

// log1p in f32 for f16 (Goldberg's form: log(u) * x / (u - 1)), x where
// u = 1 + x rounds to 1, u where it is infinite.
// CHECK-LABEL: func.func @log1p_f16(
// CHECK: %[[X:.*]] = tosa.cast %{{.*}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[U:.*]] = tosa.add %{{.*}}, %[[X]]
// CHECK: %[[D:.*]] = tosa.sub %[[U]]
// CHECK: %[[LOG:.*]] = tosa.log %[[U]]
// CHECK: %[[P:.*]] = tosa.mul %[[LOG]]
// CHECK: %[[TINY:.*]] = tosa.equal %[[D]]
// CHECK: %[[S:.*]] = tosa.select %[[TINY]], %[[X]], %[[P]]
// CHECK: %[[INF:.*]] = tosa.equal %[[U]]
// CHECK: %[[R:.*]] = tosa.select %[[INF]], %[[U]], %[[S]]
// CHECK: tosa.cast %[[R]] : (tensor<4xf32>) -> tensor<4xf16>
func.func @log1p_f16(%x: !torch.vtensor<[4],f16>) -> !torch.vtensor<[4],f16> {
  %0 = torch.aten.log1p %x : !torch.vtensor<[4],f16> -> !torch.vtensor<[4],f16>
  return %0 : !torch.vtensor<[4],f16>
}

// -----

// Rounding an integer is the integer; isnan of one is false.
// CHECK-LABEL: func.func @round_isnan_int(
// CHECK: %[[F:.*]] = "tosa.const"() <{values = dense<false> : tensor<4xi1>}>
// CHECK: %[[B:.*]] = torch_c.from_builtin_tensor %[[F]]
// CHECK: return %arg0, %[[B]]
func.func @round_isnan_int(%x: !torch.vtensor<[4],si32>) -> (!torch.vtensor<[4],si32>, !torch.vtensor<[4],i1>) {
  %0 = torch.aten.round %x : !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  %1 = torch.aten.isnan %x : !torch.vtensor<[4],si32> -> !torch.vtensor<[4],i1>
  return %0, %1 : !torch.vtensor<[4],si32>, !torch.vtensor<[4],i1>
}

// -----

// Integer remainder by a constant: x - floor(x / 3) * 3, the floored
// quotient tosa.intdiv's, minus one where inexact and of other signs.
// CHECK-LABEL: func.func @remainder_int_constant(
// CHECK: %[[X:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<3> : tensor<1xi32>}>
// CHECK: %[[Q:.*]] = tosa.intdiv %[[X]], %[[C]]
// CHECK: %[[QC:.*]] = tosa.mul %[[Q]], %[[C]]
// CHECK: %[[EXACT:.*]] = tosa.equal %[[QC]], %[[X]]
// CHECK: %[[INEXACT:.*]] = tosa.logical_not %[[EXACT]]
// CHECK: %[[SIGNS:.*]] = tosa.logical_xor
// CHECK: %[[DOWN:.*]] = tosa.sub %[[Q]]
// CHECK: %[[ADJUST:.*]] = tosa.logical_and %[[INEXACT]], %[[SIGNS]]
// CHECK: %[[F:.*]] = tosa.select %[[ADJUST]], %[[DOWN]], %[[Q]]
// CHECK: %[[FC:.*]] = tosa.mul %[[F]], %[[C]]
// CHECK: tosa.sub %[[X]], %[[FC]]
func.func @remainder_int_constant(%x: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.remainder.Scalar %x, %int3 : !torch.vtensor<[4],si32>, !torch.int -> !torch.vtensor<[4],si32>
  return %0 : !torch.vtensor<[4],si32>
}

// -----

// PyTorch raises on an integer division by zero; TOSA cannot check at run
// time, so only constant divisors lower.
func.func @fmod_int_tensor_divisor(%x: !torch.vtensor<[4],si32>, %y: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  // expected-error @+1 {{'torch.aten.fmod.Tensor' could not be lowered to TOSA: unsupported: an integer divisor that is not a constant}}
  %0 = torch.aten.fmod.Tensor %x, %y : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %0 : !torch.vtensor<[4],si32>
}

// -----

func.func @fmod_int_by_zero(%x: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %int0 = torch.constant.int 0
  // expected-error @+1 {{'torch.aten.fmod.Scalar' could not be lowered to TOSA: integer division by zero (PyTorch raises ZeroDivisionError)}}
  %0 = torch.aten.fmod.Scalar %x, %int0 : !torch.vtensor<[4],si32>, !torch.int -> !torch.vtensor<[4],si32>
  return %0 : !torch.vtensor<[4],si32>
}

// -----

// TOSA's pow is defined for positive bases only.
func.func @pow_scalar_negative_base(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %base = torch.constant.float -2.000000e+00
  // expected-error @+1 {{'torch.aten.pow.Scalar' could not be lowered to TOSA: unsupported: a base that is not a positive constant}}
  %0 = torch.aten.pow.Scalar %base, %x : !torch.float, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
