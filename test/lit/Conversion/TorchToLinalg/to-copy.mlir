// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// _to_copy is an elementwise dtype cast with PyTorch's conversion rules.

// float -> int64 truncates toward zero.
// CHECK-LABEL: func.func @f32_to_si64(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xi64>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: i64):
// CHECK-NEXT: %[[R:.*]] = arith.fptosi %[[X]] : f32 to i64
// CHECK-NEXT: linalg.yield %[[R]] : i64
// CHECK: torch_c.from_builtin_tensor %{{.*}} : tensor<4xi64> -> !torch.vtensor<[4],si64>
func.func @f32_to_si64(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],si64> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int4 = torch.constant.int 4
  %0 = torch.aten._to_copy %a, %int4, %none, %none, %none, %false, %none : !torch.vtensor<[4],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// -----

// bool -> float: true is 1.0 (zero-extended).
// CHECK-LABEL: func.func @bool_to_f32(
// CHECK: ^bb0(%[[X:.*]]: i1, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.uitofp %[[X]] : i1 to f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @bool_to_f32(%a: !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int6 = torch.constant.int 6
  %0 = torch.aten._to_copy %a, %int6, %none, %none, %none, %false, %none : !torch.vtensor<[4],i1>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// CHECK-LABEL: func.func @f64_to_f32(
// CHECK: ^bb0(%[[X:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @f64_to_f32(%a: !torch.vtensor<[4],f64>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int6 = torch.constant.int 6
  %0 = torch.aten._to_copy %a, %int6, %none, %none, %none, %false, %none : !torch.vtensor<[4],f64>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// float -> bool is `!= 0` (NaN is true).
// CHECK-LABEL: func.func @f32_to_bool(
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.*]] = arith.cmpf une, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @f32_to_bool(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],i1> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int11 = torch.constant.int 11
  %0 = torch.aten._to_copy %a, %int11, %none, %none, %none, %false, %none : !torch.vtensor<[4],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],i1>
  return %0 : !torch.vtensor<[4],i1>
}

// -----

// Integer widening follows the source signedness.
// CHECK-LABEL: func.func @int_widening(
// CHECK: ^bb0(%[[X:.*]]: i8, %{{.*}}: i64):
// CHECK-NEXT: %[[R:.*]] = arith.extui %[[X]] : i8 to i64
// CHECK: ^bb0(%[[Y:.*]]: i32, %{{.*}}: i64):
// CHECK-NEXT: %[[S:.*]] = arith.extsi %[[Y]] : i32 to i64
func.func @int_widening(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],si32>) -> (!torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int4 = torch.constant.int 4
  %0 = torch.aten._to_copy %a, %int4, %none, %none, %none, %false, %none : !torch.vtensor<[4],ui8>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],si64>
  %1 = torch.aten._to_copy %b, %int4, %none, %none, %none, %false, %none : !torch.vtensor<[4],si32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],si64>
  return %0, %1 : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>
}

// -----

// Same dtype: a plain copy.
// CHECK-LABEL: func.func @same_dtype(
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[X]] : f32
func.func @same_dtype(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.aten._to_copy %a, %none, %none, %none, %none, %false, %none : !torch.vtensor<[4],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
