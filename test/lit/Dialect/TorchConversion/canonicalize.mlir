// RUN: torch2mlir-opt %s -canonicalize -split-input-file | FileCheck %s

// to(from(x)) and from(to(x)) fold to x.

// CHECK-LABEL: func.func @from_to(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK-NEXT: return %[[A]] : !torch.vtensor<[2,3],f32>
func.func @from_to(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
  %1 = torch_c.from_builtin_tensor %0 : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
  return %1 : !torch.vtensor<[2,3],f32>
}

// -----

// CHECK-LABEL: func.func @to_from(
// CHECK-SAME: %[[A:.*]]: tensor<?x3xi64>)
// CHECK-NEXT: return %[[A]] : tensor<?x3xi64>
func.func @to_from(%a: tensor<?x3xi64>) -> tensor<?x3xi64> {
  %0 = torch_c.from_builtin_tensor %a : tensor<?x3xi64> -> !torch.vtensor<[?,3],si64>
  %1 = torch_c.to_builtin_tensor %0 : !torch.vtensor<[?,3],si64> -> tensor<?x3xi64>
  return %1 : tensor<?x3xi64>
}

// -----

// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[I:.*]]: !torch.int, %[[F:.*]]: !torch.float, %[[B:.*]]: !torch.bool, %[[X:.*]]: i64, %[[Y:.*]]: f64, %[[Z:.*]]: i1)
// CHECK-NEXT: return %[[I]], %[[F]], %[[B]], %[[X]], %[[Y]], %[[Z]] :
func.func @scalars(%i: !torch.int, %f: !torch.float, %b: !torch.bool, %x: i64, %y: f64, %z: i1) -> (!torch.int, !torch.float, !torch.bool, i64, f64, i1) {
  %0 = torch_c.to_i64 %i
  %1 = torch_c.from_i64 %0
  %2 = torch_c.to_f64 %f
  %3 = torch_c.from_f64 %2
  %4 = torch_c.to_i1 %b
  %5 = torch_c.from_i1 %4
  %6 = torch_c.from_i64 %x
  %7 = torch_c.to_i64 %6
  %8 = torch_c.from_f64 %y
  %9 = torch_c.to_f64 %8
  %10 = torch_c.from_i1 %z
  %11 = torch_c.to_i1 %10
  return %1, %3, %5, %7, %9, %11 : !torch.int, !torch.float, !torch.bool, i64, f64, i1
}

// -----

// ui8 -> i8 -> si8 is a reinterpretation, not an identity: kept.
// CHECK-LABEL: func.func @signedness_change(
// CHECK: %[[T:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[4],ui8> -> tensor<4xi8>
// CHECK: %[[V:.*]] = torch_c.from_builtin_tensor %[[T]] : tensor<4xi8> -> !torch.vtensor<[4],si8>
// CHECK: return %[[V]]
func.func @signedness_change(%a: !torch.vtensor<[4],ui8>) -> !torch.vtensor<[4],si8> {
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[4],ui8> -> tensor<4xi8>
  %1 = torch_c.from_builtin_tensor %0 : tensor<4xi8> -> !torch.vtensor<[4],si8>
  return %1 : !torch.vtensor<[4],si8>
}

// -----

// Unpaired materializations stay; unused ones are dead.
// CHECK-LABEL: func.func @unpaired(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK: %[[T:.*]] = torch_c.to_builtin_tensor %[[A]] : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[V:.*]] = torch_c.from_builtin_tensor %[[E]] : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
// CHECK-NOT: torch_c
// CHECK: return %[[T]], %[[V]]
func.func @unpaired(%a: !torch.vtensor<[2,3],f32>) -> (tensor<2x3xf32>, !torch.vtensor<[2,3],f32>) {
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
  %1 = tensor.empty() : tensor<2x3xf32>
  %2 = torch_c.from_builtin_tensor %1 : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
  %int = torch.constant.int 3
  %3 = torch_c.to_i64 %int
  return %0, %2 : tensor<2x3xf32>, !torch.vtensor<[2,3],f32>
}
