// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="legal-ops=aten.split_with_sizes" -split-input-file | FileCheck %s --check-prefix=LEGAL

// split_with_sizes, unpacked: one slice.Tensor per part, at the running
// offset along dim (a part of size 0 is an empty slice).

// CHECK-LABEL: func.func @split(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[6,7],f32>)
// CHECK-DAG: %[[DIM:.*]] = torch.constant.int -1
// CHECK-DAG: %[[C0:.*]] = torch.constant.int 0
// CHECK-DAG: %[[C1:.*]] = torch.constant.int 1
// CHECK-DAG: %[[C3:.*]] = torch.constant.int 3
// CHECK-DAG: %[[C7:.*]] = torch.constant.int 7
// CHECK: %[[A:.*]] = torch.aten.slice.Tensor %[[X]], %[[DIM]], %[[C0]], %[[C3]], %[[C1]] : !torch.vtensor<[6,7],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[6,3],f32>
// CHECK: %[[B:.*]] = torch.aten.slice.Tensor %[[X]], %[[DIM]], %[[C3]], %[[C3]], %[[C1]] : {{.*}} -> !torch.vtensor<[6,0],f32>
// CHECK: %[[C:.*]] = torch.aten.slice.Tensor %[[X]], %[[DIM]], %[[C3]], %[[C7]], %[[C1]] : {{.*}} -> !torch.vtensor<[6,4],f32>
// CHECK-NOT: split_with_sizes
// CHECK-NOT: ListUnpack
// CHECK: return %[[A]], %[[B]], %[[C]]
// LEGAL-LABEL: func.func @split(
// LEGAL: torch.aten.split_with_sizes
// LEGAL: torch.prim.ListUnpack
func.func @split(%x: !torch.vtensor<[6,7],f32>) -> (!torch.vtensor<[6,3],f32>, !torch.vtensor<[6,0],f32>, !torch.vtensor<[6,4],f32>) {
  %int3 = torch.constant.int 3
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %m1 = torch.constant.int -1
  %sizes = torch.prim.ListConstruct %int3, %int0, %int4 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.split_with_sizes %x, %sizes, %m1 : !torch.vtensor<[6,7],f32>, !torch.list<int>, !torch.int -> !torch.list<vtensor>
  %1:3 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[6,3],f32>, !torch.vtensor<[6,0],f32>, !torch.vtensor<[6,4],f32>
  return %1#0, %1#1, %1#2 : !torch.vtensor<[6,3],f32>, !torch.vtensor<[6,0],f32>, !torch.vtensor<[6,4],f32>
}

// -----

// Sizes known at run time only stay as they are.
// CHECK-LABEL: func.func @split_symbolic(
// CHECK: torch.aten.split_with_sizes
// CHECK: torch.prim.ListUnpack
func.func @split_symbolic(%x: !torch.vtensor<[?],f32>, %n: !torch.int) -> (!torch.vtensor<[?],f32>, !torch.vtensor<[2],f32>) {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %sizes = torch.prim.ListConstruct %n, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.split_with_sizes %x, %sizes, %int0 : !torch.vtensor<[?],f32>, !torch.list<int>, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[?],f32>, !torch.vtensor<[2],f32>
  return %1#0, %1#1 : !torch.vtensor<[?],f32>, !torch.vtensor<[2],f32>
}
