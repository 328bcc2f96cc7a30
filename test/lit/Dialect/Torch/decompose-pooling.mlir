// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// max_pool2d_with_indices whose indices are unused is max_pool2d.
// CHECK-LABEL: func.func @max_pool_unused_indices(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[1,3,8,8],f32>)
// CHECK-DAG: %[[K:.*]] = torch.prim.ListConstruct %int2, %int2 :
// CHECK-DAG: %[[P:.*]] = torch.prim.ListConstruct %int0, %int0 :
// CHECK-DAG: %[[D:.*]] = torch.prim.ListConstruct %int1, %int1 :
// CHECK: %[[R:.*]] = torch.aten.max_pool2d %[[A]], %[[K]], %[[K]], %[[P]], %[[D]], %false : !torch.vtensor<[1,3,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,3,4,4],f32>
// CHECK: return %[[R]]
// CHECK-NOT: max_pool2d_with_indices
func.func @max_pool_unused_indices(%a: !torch.vtensor<[1,3,8,8],f32>) -> !torch.vtensor<[1,3,4,4],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %0:2 = torch.aten.max_pool2d_with_indices %a, %k, %k, %p, %d, %false : !torch.vtensor<[1,3,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,3,4,4],f32>, !torch.vtensor<[1,3,4,4],si64>
  return %0#0 : !torch.vtensor<[1,3,4,4],f32>
}

// -----

// Used indices: kept.
// CHECK-LABEL: func.func @max_pool_used_indices(
// CHECK: %[[V:.*]], %[[I:.*]] = torch.aten.max_pool2d_with_indices
// CHECK: return %[[V]], %[[I]]
// CHECK-NOT: torch.aten.max_pool2d %
func.func @max_pool_used_indices(%a: !torch.vtensor<[1,3,8,8],f32>) -> (!torch.vtensor<[1,3,4,4],f32>, !torch.vtensor<[1,3,4,4],si64>) {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %0:2 = torch.aten.max_pool2d_with_indices %a, %k, %k, %p, %d, %false : !torch.vtensor<[1,3,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,3,4,4],f32>, !torch.vtensor<[1,3,4,4],si64>
  return %0#0, %0#1 : !torch.vtensor<[1,3,4,4],f32>, !torch.vtensor<[1,3,4,4],si64>
}
