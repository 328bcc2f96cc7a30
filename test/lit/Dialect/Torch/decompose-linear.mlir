// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// linear(x, w, b) = matmul(x, t(w)) + b, and t/matmul decompose further.

// CHECK-LABEL: func.func @linear_bias(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[4,3],f32>, %[[W:.*]]: !torch.vtensor<[5,3],f32>, %[[B:.*]]: !torch.vtensor<[5],f32>)
// CHECK-DAG: %int1 = torch.constant.int 1
// CHECK-DAG: %int0 = torch.constant.int 0
// CHECK: %[[PERM:.*]] = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[WT:.*]] = torch.aten.permute %[[W]], %[[PERM]] : !torch.vtensor<[5,3],f32>, !torch.list<int> -> !torch.vtensor<[3,5],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %[[X]], %[[WT]] : !torch.vtensor<[4,3],f32>, !torch.vtensor<[3,5],f32> -> !torch.vtensor<[4,5],f32>
// CHECK: %[[ADD:.*]] = torch.aten.add.Tensor %[[MM]], %[[B]], %int1 : !torch.vtensor<[4,5],f32>, !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[4,5],f32>
// CHECK: return %[[ADD]]
// CHECK-NOT: torch.aten.linear
func.func @linear_bias(%x: !torch.vtensor<[4,3],f32>, %w: !torch.vtensor<[5,3],f32>, %b: !torch.vtensor<[5],f32>) -> !torch.vtensor<[4,5],f32> {
  %0 = torch.aten.linear %x, %w, %b : !torch.vtensor<[4,3],f32>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}

// -----

// Without bias there is no add.
// CHECK-LABEL: func.func @linear_no_bias(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[4,3],f32>, %[[W:.*]]: !torch.vtensor<[5,3],f32>)
// CHECK: %[[WT:.*]] = torch.aten.permute %[[W]], %{{.*}} : !torch.vtensor<[5,3],f32>, !torch.list<int> -> !torch.vtensor<[3,5],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %[[X]], %[[WT]] : !torch.vtensor<[4,3],f32>, !torch.vtensor<[3,5],f32> -> !torch.vtensor<[4,5],f32>
// CHECK-NOT: torch.aten.add
// CHECK: return %[[MM]]
func.func @linear_no_bias(%x: !torch.vtensor<[4,3],f32>, %w: !torch.vtensor<[5,3],f32>) -> !torch.vtensor<[4,5],f32> {
  %none = torch.constant.none
  %0 = torch.aten.linear %x, %w, %none : !torch.vtensor<[4,3],f32>, !torch.vtensor<[5,3],f32>, !torch.none -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}

// -----

// A 3-D input goes through a 2-D mm: view to [2*4, 3], mm, view back.
// CHECK-LABEL: func.func @linear_3d(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[2,4,3],f32>, %[[W:.*]]: !torch.vtensor<[5,3],f32>, %[[B:.*]]: !torch.vtensor<[5],f32>)
// CHECK: %[[WT:.*]] = torch.aten.permute %[[W]], %{{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK: %[[FLAT_SIZES:.*]] = torch.prim.ListConstruct %int8, %int3 :
// CHECK: %[[FLAT:.*]] = torch.aten.view %[[X]], %[[FLAT_SIZES]] : !torch.vtensor<[2,4,3],f32>, !torch.list<int> -> !torch.vtensor<[8,3],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %[[FLAT]], %[[WT]] : !torch.vtensor<[8,3],f32>, !torch.vtensor<[3,5],f32> -> !torch.vtensor<[8,5],f32>
// CHECK: %[[SIZES:.*]] = torch.prim.ListConstruct %int2, %int4, %int5 :
// CHECK: %[[VIEW:.*]] = torch.aten.view %[[MM]], %[[SIZES]] : !torch.vtensor<[8,5],f32>, !torch.list<int> -> !torch.vtensor<[2,4,5],f32>
// CHECK: %[[ADD:.*]] = torch.aten.add.Tensor %[[VIEW]], %[[B]], %int1 : !torch.vtensor<[2,4,5],f32>, !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[2,4,5],f32>
// CHECK: return %[[ADD]]
func.func @linear_3d(%x: !torch.vtensor<[2,4,3],f32>, %w: !torch.vtensor<[5,3],f32>, %b: !torch.vtensor<[5],f32>) -> !torch.vtensor<[2,4,5],f32> {
  %0 = torch.aten.linear %x, %w, %b : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor<[2,4,5],f32>
  return %0 : !torch.vtensor<[2,4,5],f32>
}

// -----

// Not decomposed without a known weight rank.
// CHECK-LABEL: func.func @linear_unranked_weight(
// CHECK: torch.aten.linear
func.func @linear_unranked_weight(%x: !torch.vtensor<[4,3],f32>, %w: !torch.vtensor<*,f32>) -> !torch.vtensor<[4,5],f32> {
  %none = torch.constant.none
  %0 = torch.aten.linear %x, %w, %none : !torch.vtensor<[4,3],f32>, !torch.vtensor<*,f32>, !torch.none -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}
