// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// conv2d is convolution with transposed = false and output_padding = [0, 0];
// the other operands pass through.

// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[1,3,8,8],f32>, %[[W:.*]]: !torch.vtensor<[4,3,3,3],f32>, %[[B:.*]]: !torch.vtensor<[4],f32>)
// CHECK-DAG: %[[STRIDE:.*]] = torch.prim.ListConstruct %int2, %int2 :
// CHECK-DAG: %[[PAD:.*]] = torch.prim.ListConstruct %int1, %int1 :
// CHECK-DAG: %[[DIL:.*]] = torch.prim.ListConstruct %int1, %int2 :
// CHECK-DAG: %[[OUTPAD:.*]] = torch.prim.ListConstruct %int0, %int0 :
// CHECK: %[[R:.*]] = torch.aten.convolution %[[X]], %[[W]], %[[B]], %[[STRIDE]], %[[PAD]], %[[DIL]], %false, %[[OUTPAD]], %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4,3],f32>
// CHECK: return %[[R]]
// CHECK-NOT: torch.aten.conv2d
func.func @conv2d(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,4,3],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d %x, %w, %b, %s, %p, %d, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4,3],f32>
  return %0 : !torch.vtensor<[1,4,4,3],f32>
}

// -----

// No bias, groups = 2.
// CHECK-LABEL: func.func @conv2d_groups(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[1,4,5,5],f32>, %[[W:.*]]: !torch.vtensor<[6,2,3,3],f32>)
// CHECK: torch.aten.convolution %[[X]], %[[W]], %none, %{{.*}}, %{{.*}}, %{{.*}}, %false, %{{.*}}, %int2 :
// CHECK-SAME: -> !torch.vtensor<[1,6,3,3],f32>
func.func @conv2d_groups(%x: !torch.vtensor<[1,4,5,5],f32>, %w: !torch.vtensor<[6,2,3,3],f32>) -> !torch.vtensor<[1,6,3,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d %x, %w, %none, %s, %p, %s, %int2 : !torch.vtensor<[1,4,5,5],f32>, !torch.vtensor<[6,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[1,6,3,3],f32>
  return %0 : !torch.vtensor<[1,6,3,3],f32>
}

