// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// softmax.int / log_softmax.int without a dtype are _softmax /
// _log_softmax with half_to_float = false.

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK: %[[R:.*]] = torch.aten._softmax %[[A]], %int-1, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3],f32>
// CHECK: return %[[R]]
// CHECK-NOT: torch.aten.softmax.int
func.func @softmax(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int-1 = torch.constant.int -1
  %none = torch.constant.none
  %0 = torch.aten.softmax.int %a, %int-1, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// CHECK-LABEL: func.func @log_softmax(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK: %[[R:.*]] = torch.aten._log_softmax %[[A]], %int1, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3],f32>
// CHECK: return %[[R]]
// CHECK-NOT: torch.aten.log_softmax.int
func.func @log_softmax(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.log_softmax.int %a, %int1, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// A dtype argument that changes the dtype: kept.
// CHECK-LABEL: func.func @softmax_to_f64(
// CHECK: torch.aten.softmax.int %{{.*}}, %int1, %int7 : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,3],f64>
// CHECK-NOT: torch.aten._softmax
func.func @softmax_to_f64(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f64> {
  %int1 = torch.constant.int 1
  %int7 = torch.constant.int 7
  %0 = torch.aten.softmax.int %a, %int1, %int7 : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,3],f64>
  return %0 : !torch.vtensor<[2,3],f64>
}
