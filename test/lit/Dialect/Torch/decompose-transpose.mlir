// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// t and transpose.int become permute.

// CHECK-LABEL: func.func @t_2d(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK: %[[P:.*]] = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[R:.*]] = torch.aten.permute %[[A]], %[[P]] : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[3,2],f32>
// CHECK: return %[[R]]
func.func @t_2d(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,2],f32> {
  %0 = torch.aten.t %a : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// t of a 1-D tensor is the tensor.
// CHECK-LABEL: func.func @t_1d(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[4],f32>)
// CHECK-NEXT: return %[[A]]
func.func @t_1d(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.t %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// Negative dims count from the end: transpose(x, 0, -1) on rank 3 swaps 0
// and 2.
// CHECK-LABEL: func.func @transpose_negative(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3,4],f32>)
// CHECK: %[[P:.*]] = torch.prim.ListConstruct %int2, %int1, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[R:.*]] = torch.aten.permute %[[A]], %[[P]] : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[4,3,2],f32>
// CHECK: return %[[R]]
func.func @transpose_negative(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[4,3,2],f32> {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %0 = torch.aten.transpose.int %a, %int0, %int-1 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[4,3,2],f32>
  return %0 : !torch.vtensor<[4,3,2],f32>
}

// -----

// CHECK-LABEL: func.func @transpose_last_two(
// CHECK: %[[P:.*]] = torch.prim.ListConstruct %int0, %int2, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.permute %{{.*}}, %[[P]] : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[2,4,3],f32>
func.func @transpose_last_two(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,4,3],f32> {
  %int-2 = torch.constant.int -2
  %int-1 = torch.constant.int -1
  %0 = torch.aten.transpose.int %a, %int-1, %int-2 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,4,3],f32>
  return %0 : !torch.vtensor<[2,4,3],f32>
}

// -----

// Out-of-range and non-constant dims: not decomposed.
// CHECK-LABEL: func.func @transpose_out_of_range(
// CHECK: torch.aten.transpose.int
// CHECK-NOT: torch.aten.permute
func.func @transpose_out_of_range(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,4,3],f32> {
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %0 = torch.aten.transpose.int %a, %int-1, %int3 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,4,3],f32>
  return %0 : !torch.vtensor<[2,4,3],f32>
}

// -----

// CHECK-LABEL: func.func @transpose_dynamic_dim(
// CHECK: torch.aten.transpose.int
// CHECK-NOT: torch.aten.permute
func.func @transpose_dynamic_dim(%a: !torch.vtensor<[2,3,4],f32>, %d: !torch.int) -> !torch.vtensor<[2,4,3],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.aten.transpose.int %a, %int-1, %d : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,4,3],f32>
  return %0 : !torch.vtensor<[2,4,3],f32>
}
