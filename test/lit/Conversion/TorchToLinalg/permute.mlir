// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// permute = linalg.transpose with the same permutation.

// CHECK-LABEL: func.func @permute(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3,4],f32> -> tensor<2x3x4xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[A]] : tensor<2x3x4xf32>) outs(%[[EMPTY]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK: torch_c.from_builtin_tensor %[[T]] : tensor<4x2x3xf32> -> !torch.vtensor<[4,2,3],f32>
func.func @permute(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[4,2,3],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %int2, %int0, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.permute %a, %l : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[4,2,3],f32>
  return %0 : !torch.vtensor<[4,2,3],f32>
}

// -----

// Negative dims; a dynamic result size is the size of the input dim it
// comes from.
// CHECK-LABEL: func.func @permute_negative_dynamic(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?,3],f32> -> tensor<?x3xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[DIM:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x3xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<3x?xf32>
// CHECK: linalg.transpose ins(%[[A]] : tensor<?x3xf32>) outs(%[[EMPTY]] : tensor<3x?xf32>) permutation = [1, 0]
func.func @permute_negative_dynamic(%a: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[3,?],f32> {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %int-1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.permute %a, %l : !torch.vtensor<[?,3],f32>, !torch.list<int> -> !torch.vtensor<[3,?],f32>
  return %0 : !torch.vtensor<[3,?],f32>
}

// -----

// The identity permutation is no op.
// CHECK-LABEL: func.func @permute_identity(
// CHECK-SAME: %[[ARG:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK-NOT: linalg.transpose
// CHECK: return %[[ARG]]
func.func @permute_identity(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.permute %a, %l : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
