// RUN: torch2mlir-opt %s -torch-lower-to-backend-contract -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch-lower-to-backend-contract="legal-ops=aten.linear" -split-input-file | FileCheck %s --check-prefix=LEGAL

// canonicalize, decompose, canonicalize, CSE, verify: a small MLP in the
// backend contract.

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[4,3],f32>, %[[W:.*]]: !torch.vtensor<[5,3],f32>, %[[B:.*]]: !torch.vtensor<[5],f32>) -> !torch.vtensor<[4,5],f32>
// CHECK-DAG: %int1 = torch.constant.int 1
// CHECK-DAG: %int0 = torch.constant.int 0
// CHECK: %[[P:.*]] = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[WT:.*]] = torch.aten.permute %[[W]], %[[P]] : !torch.vtensor<[5,3],f32>, !torch.list<int> -> !torch.vtensor<[3,5],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %[[X]], %[[WT]] : !torch.vtensor<[4,3],f32>, !torch.vtensor<[3,5],f32> -> !torch.vtensor<[4,5],f32>
// CHECK: %[[ADD:.*]] = torch.aten.add.Tensor %[[MM]], %[[B]], %int1 : !torch.vtensor<[4,5],f32>, !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[4,5],f32>
// CHECK: %[[RELU:.*]] = torch.aten.relu %[[ADD]] : !torch.vtensor<[4,5],f32> -> !torch.vtensor<[4,5],f32>
// CHECK-NEXT: return %[[RELU]] : !torch.vtensor<[4,5],f32>
// CHECK-NOT: torch.aten.linear
// CHECK-NOT: torch.aten.detach
// LEGAL-LABEL: func.func @mlp(
// LEGAL: %[[LIN:.*]] = torch.aten.linear %{{.*}}, %{{.*}}, %{{.*}} : !torch.vtensor<[4,3],f32>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor<[4,5],f32>
// LEGAL: torch.aten.relu %[[LIN]]
// LEGAL-NOT: torch.aten.mm
func.func @mlp(%x: !torch.vtensor<[4,3],f32>, %w: !torch.vtensor<[5,3],f32>, %b: !torch.vtensor<[5],f32>) -> !torch.vtensor<[4,5],f32> {
  %int1 = torch.constant.int 1
  %int1_0 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.linear %x, %w, %b : !torch.vtensor<[4,3],f32>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor<[4,5],f32>
  %1 = torch.aten.relu %0 : !torch.vtensor<[4,5],f32> -> !torch.vtensor<[4,5],f32>
  %2 = torch.aten.detach %1 : !torch.vtensor<[4,5],f32> -> !torch.vtensor<[4,5],f32>
  return %2 : !torch.vtensor<[4,5],f32>
}

// -----

// A small CNN head: conv2d, eval batch_norm, relu, global average pooling,
// flatten, linear.
// CHECK-LABEL: func.func @cnn(
// CHECK: torch.aten.convolution %{{.*}} -> !torch.vtensor<[1,4,8,8],f32>
// CHECK: %[[BN:.*]], %{{.*}}, %{{.*}} = torch.aten._native_batch_norm_legit_no_training
// CHECK: %[[RELU:.*]] = torch.aten.relu %[[BN]]
// CHECK: %[[POOL:.*]] = torch.aten.avg_pool2d %[[RELU]], %{{.*}} -> !torch.vtensor<[1,4,1,1],f32>
// CHECK: %[[FLAT:.*]] = torch.aten.view %[[POOL]], %{{.*}} : !torch.vtensor<[1,4,1,1],f32>, !torch.list<int> -> !torch.vtensor<[1,4],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %[[FLAT]], %{{.*}} : !torch.vtensor<[1,4],f32>, !torch.vtensor<[4,2],f32> -> !torch.vtensor<[1,2],f32>
// CHECK: torch.aten.add.Tensor %[[MM]]
// CHECK-NOT: torch.aten.conv2d
// CHECK-NOT: torch.aten.batch_norm
// CHECK-NOT: adaptive_avg_pool2d
// CHECK-NOT: torch.aten.flatten
// CHECK-NOT: torch.aten.linear
func.func @cnn(%x: !torch.vtensor<[1,3,8,8],f32>, %cw: !torch.vtensor<[4,3,3,3],f32>, %cb: !torch.vtensor<[4],f32>, %m: !torch.vtensor<[4],f32>, %v: !torch.vtensor<[4],f32>, %lw: !torch.vtensor<[2,4],f32>, %lb: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,2],f32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d %x, %cw, %cb, %ones, %ones, %ones, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,8,8],f32>
  %1 = torch.aten.batch_norm %0, %cb, %cb, %m, %v, %false, %mom, %eps, %false : !torch.vtensor<[1,4,8,8],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,4,8,8],f32>
  %2 = torch.aten.relu %1 : !torch.vtensor<[1,4,8,8],f32> -> !torch.vtensor<[1,4,8,8],f32>
  %3 = torch.aten.adaptive_avg_pool2d %2, %ones : !torch.vtensor<[1,4,8,8],f32>, !torch.list<int> -> !torch.vtensor<[1,4,1,1],f32>
  %4 = torch.aten.flatten.using_ints %3, %int1, %int-1 : !torch.vtensor<[1,4,1,1],f32>, !torch.int, !torch.int -> !torch.vtensor<[1,4],f32>
  %5 = torch.aten.linear %4, %lw, %lb : !torch.vtensor<[1,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2],f32> -> !torch.vtensor<[1,2],f32>
  return %5 : !torch.vtensor<[1,2],f32>
}
