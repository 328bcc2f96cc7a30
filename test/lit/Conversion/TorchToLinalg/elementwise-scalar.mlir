// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// Tensor-scalar ops: the scalar is converted to the result dtype once,
// outside the generic.

// CHECK-LABEL: func.func @add_scalar_int_to_float(
// CHECK: %[[S64:.*]] = torch_c.to_i64 %int3
// CHECK: %[[S:.*]] = arith.sitofp %[[S64]] : i64 to f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[X]], %[[S]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @add_scalar_int_to_float(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %0 = torch.aten.add.Scalar %a, %int3, %int1 : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Scalars are truncated to a narrower integer dtype; alpha multiplies the
// scalar: a - 3 * 2.
// CHECK-LABEL: func.func @sub_scalar_alpha_int(
// CHECK-DAG: %[[ALPHA64:.*]] = torch_c.to_i64 %int2
// CHECK-DAG: %[[S64:.*]] = torch_c.to_i64 %int3
// CHECK-DAG: %[[S:.*]] = arith.trunci %[[S64]] : i64 to i32
// CHECK-DAG: %[[ALPHA:.*]] = arith.trunci %[[ALPHA64]] : i64 to i32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3xi32>) outs(%{{.*}} : tensor<2x3xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[SCALED:.*]] = arith.muli %[[S]], %[[ALPHA]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.subi %[[X]], %[[SCALED]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @sub_scalar_alpha_int(%a: !torch.vtensor<[2,3],si32>) -> !torch.vtensor<[2,3],si32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %0 = torch.aten.sub.Scalar %a, %int3, %int2 : !torch.vtensor<[2,3],si32>, !torch.int, !torch.int -> !torch.vtensor<[2,3],si32>
  return %0 : !torch.vtensor<[2,3],si32>
}

// -----

// An f64 scalar with an f64 tensor needs no cast.
// CHECK-LABEL: func.func @mul_scalar_f64(
// CHECK: %[[S:.*]] = torch_c.to_f64 %float
// CHECK-NOT: arith.truncf
// CHECK: ^bb0(%[[X:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[X]], %[[S]] : f64
// CHECK-NEXT: linalg.yield %[[R]] : f64
func.func @mul_scalar_f64(%a: !torch.vtensor<[2,3],f64>) -> !torch.vtensor<[2,3],f64> {
  %f = torch.constant.float 0.5
  %0 = torch.aten.mul.Scalar %a, %f : !torch.vtensor<[2,3],f64>, !torch.float -> !torch.vtensor<[2,3],f64>
  return %0 : !torch.vtensor<[2,3],f64>
}

// -----

// CHECK-LABEL: func.func @div_scalar(
// CHECK: %[[S64:.*]] = torch_c.to_i64 %int4
// CHECK: %[[S:.*]] = arith.sitofp %[[S64]] : i64 to f32
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[X]], %[[S]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @div_scalar(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int4 = torch.constant.int 4
  %0 = torch.aten.div.Scalar %a, %int4 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// A run-time scalar operand.
// CHECK-LABEL: func.func @mul_scalar_runtime(
// CHECK-SAME: %{{.*}}: !torch.vtensor<[4],f32>, %[[F:.*]]: !torch.float)
// CHECK: %[[S64:.*]] = torch_c.to_f64 %[[F]]
// CHECK: %[[S:.*]] = arith.truncf %[[S64]] : f64 to f32
// CHECK: arith.mulf %{{.*}}, %[[S]] : f32
func.func @mul_scalar_runtime(%a: !torch.vtensor<[4],f32>, %f: !torch.float) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.mul.Scalar %a, %f : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// f16 and bf16 compute in f32 with the scalar kept in f32 (PyTorch's opmath
// type): 65536 would round to inf in f16.
// CHECK-LABEL: func.func @div_scalar_f16(
// CHECK: %[[S64:.*]] = torch_c.to_i64 %int65536
// CHECK: %[[S:.*]] = arith.sitofp %[[S64]] : i64 to f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf16>) outs(%{{.*}} : tensor<4xf16>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[XW:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[XW]], %[[S]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[Q]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @div_scalar_f16(%a: !torch.vtensor<[4],f16>) -> !torch.vtensor<[4],f16> {
  %int65536 = torch.constant.int 65536
  %0 = torch.aten.div.Scalar %a, %int65536 : !torch.vtensor<[4],f16>, !torch.int -> !torch.vtensor<[4],f16>
  return %0 : !torch.vtensor<[4],f16>
}

// -----

// A bf16 tensor-tensor add with alpha: alpha is applied in f32 too.
// CHECK-LABEL: func.func @add_alpha_bf16(
// CHECK: ^bb0(%[[X:.*]]: bf16, %[[Y:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT: %[[XW:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[YW:.*]] = arith.extf %[[Y]] : bf16 to f32
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[YW]], %{{.*}} : f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[XW]], %[[SCALED]] : f32
// CHECK-NEXT: arith.truncf %[[SUM]] : f32 to bf16
func.func @add_alpha_bf16(%a: !torch.vtensor<[4],bf16>, %b: !torch.vtensor<[4],bf16>) -> !torch.vtensor<[4],bf16> {
  %alpha = torch.constant.float 3.000000e-01
  %0 = torch.aten.add.Tensor %a, %b, %alpha : !torch.vtensor<[4],bf16>, !torch.vtensor<[4],bf16>, !torch.float -> !torch.vtensor<[4],bf16>
  return %0 : !torch.vtensor<[4],bf16>
}
