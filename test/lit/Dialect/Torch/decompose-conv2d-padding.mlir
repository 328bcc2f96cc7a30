// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -cse -split-input-file | FileCheck %s

// conv2d.padding with a string padding ("same" or "valid") is convolution
// with explicit symmetric padding. (-cse merges the equal int lists.)

// conv2d.padding with padding="same": dilation * (kernel - 1) / 2 on each
// side, per spatial dim (here a 3x5 kernel: [1, 2]).
// CHECK-LABEL: func.func @conv2d_same(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[1,3,8,8],f32>, %[[W:.*]]: !torch.vtensor<[4,3,3,5],f32>)
// CHECK-DAG: %[[PAD:.*]] = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK-DAG: %[[OUTPAD:.*]] = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.convolution %[[X]], %[[W]], %none, %{{.*}}, %[[PAD]], %{{.*}}, %false, %[[OUTPAD]], %int1 : {{.*}} -> !torch.vtensor<[1,4,8,8],f32>
// CHECK-NOT: torch.aten.conv2d.padding
func.func @conv2d_same(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,5],f32>) -> !torch.vtensor<[1,4,8,8],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %same = torch.constant.str "same"
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d.padding %x, %w, %none, %s, %same, %s, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,5],f32>, !torch.none, !torch.list<int>, !torch.str, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,8,8],f32>
  return %0 : !torch.vtensor<[1,4,8,8],f32>
}

// -----

// Dilation 2 with a 3x3 kernel: padding 2 on each side.
// CHECK-LABEL: func.func @conv2d_same_dilated(
// CHECK: %[[PAD:.*]] = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.convolution %{{.*}}, %{{.*}}, %none, %{{.*}}, %[[PAD]],
func.func @conv2d_same_dilated(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,3],f32>) -> !torch.vtensor<[1,4,8,8],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %same = torch.constant.str "same"
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d.padding %x, %w, %none, %s, %same, %d, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.str, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,8,8],f32>
  return %0 : !torch.vtensor<[1,4,8,8],f32>
}

// -----

// padding="valid" is no padding.
// CHECK-LABEL: func.func @conv2d_valid(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[1,3,8,8],f32>, %[[W:.*]]: !torch.vtensor<[4,3,3,3],f32>, %[[B:.*]]: !torch.vtensor<[4],f32>)
// CHECK-DAG: %[[ONES:.*]] = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK-DAG: %[[ZEROS:.*]] = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.convolution %[[X]], %[[W]], %[[B]], %[[ONES]], %[[ZEROS]], %[[ONES]], %false, %[[ZEROS]], %int1 : {{.*}} -> !torch.vtensor<[1,4,6,6],f32>
func.func @conv2d_valid(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,6,6],f32> {
  %int1 = torch.constant.int 1
  %valid = torch.constant.str "valid"
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d.padding %x, %w, %b, %s, %valid, %s, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.str, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,6,6],f32>
  return %0 : !torch.vtensor<[1,4,6,6],f32>
}

// -----

// An even kernel needs asymmetric padding for "same": kept.
// CHECK-LABEL: func.func @conv2d_same_even_kernel(
// CHECK: torch.aten.conv2d.padding
// CHECK-NOT: torch.aten.convolution
func.func @conv2d_same_even_kernel(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,2,2],f32>) -> !torch.vtensor<[1,4,8,8],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %same = torch.constant.str "same"
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d.padding %x, %w, %none, %s, %same, %s, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,2,2],f32>, !torch.none, !torch.list<int>, !torch.str, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,8,8],f32>
  return %0 : !torch.vtensor<[1,4,8,8],f32>
}
