// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dropout_eval(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK-NOT: torch.aten.dropout
// CHECK: return %[[A]]
func.func @dropout_eval(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %p = torch.constant.float 5.000000e-01
  %false = torch.constant.bool false
  %0 = torch.aten.dropout %a, %p, %false : !torch.vtensor<[2,3],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Training-mode dropout is random: kept.
// CHECK-LABEL: func.func @dropout_train(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK: %[[R:.*]] = torch.aten.dropout %[[A]], %{{.*}}, %true : !torch.vtensor<[2,3],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,3],f32>
// CHECK: return %[[R]]
func.func @dropout_train(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %p = torch.constant.float 5.000000e-01
  %true = torch.constant.bool true
  %0 = torch.aten.dropout %a, %p, %true : !torch.vtensor<[2,3],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// A `train` flag known only at run time: kept.
// CHECK-LABEL: func.func @dropout_unknown_mode(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>, %[[T:.*]]: !torch.bool)
// CHECK: torch.aten.dropout %[[A]], %{{.*}}, %[[T]]
func.func @dropout_unknown_mode(%a: !torch.vtensor<[2,3],f32>, %t: !torch.bool) -> !torch.vtensor<[2,3],f32> {
  %p = torch.constant.float 5.000000e-01
  %0 = torch.aten.dropout %a, %p, %t : !torch.vtensor<[2,3],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
