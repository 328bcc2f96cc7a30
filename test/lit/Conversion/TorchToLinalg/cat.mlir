// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// cat: each input inserted at its offset along `dim`.

// CHECK-LABEL: func.func @cat_dim1(
// CHECK-DAG: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK-DAG: %[[B:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,5],f32> -> tensor<2x5xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x8xf32>
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][0, 3] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x8xf32>
// CHECK: torch_c.from_builtin_tensor %[[I1]] : tensor<2x8xf32> -> !torch.vtensor<[2,8],f32>
func.func @cat_dim1(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[2,5],f32>) -> !torch.vtensor<[2,8],f32> {
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,5],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %l, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[2,8],f32>
  return %0 : !torch.vtensor<[2,8],f32>
}

// -----

// Negative dim, three inputs.
// CHECK-LABEL: func.func @cat_negative_dim(
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0] [1, 2, 1] [1, 1, 1] : tensor<1x2x1xf32> into tensor<1x2x4xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1] [1, 2, 2] [1, 1, 1] : tensor<1x2x2xf32> into tensor<1x2x4xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 3] [1, 2, 1] [1, 1, 1] : tensor<1x2x1xf32> into tensor<1x2x4xf32>
func.func @cat_negative_dim(%a: !torch.vtensor<[1,2,1],f32>, %b: !torch.vtensor<[1,2,2],f32>) -> !torch.vtensor<[1,2,4],f32> {
  %int-1 = torch.constant.int -1
  %l = torch.prim.ListConstruct %a, %b, %a : (!torch.vtensor<[1,2,1],f32>, !torch.vtensor<[1,2,2],f32>, !torch.vtensor<[1,2,1],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %l, %int-1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[1,2,4],f32>
  return %0 : !torch.vtensor<[1,2,4],f32>
}

// -----

// Inputs of another dtype are cast to the result dtype first.
// CHECK-LABEL: func.func @cat_promote(
// CHECK-DAG: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,3],si64> -> tensor<1x3xi64>
// CHECK-DAG: %[[B:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[CAST:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<1x3xi64>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: linalg.yield %[[XF]] : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[CAST]] into %[[EMPTY]][0, 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<3x3xf32>
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][1, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<3x3xf32>
// CHECK: torch_c.from_builtin_tensor %[[I1]]
func.func @cat_promote(%a: !torch.vtensor<[1,3],si64>, %b: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,3],f32> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[1,3],si64>, !torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[3,3],f32>
  return %0 : !torch.vtensor<[3,3],f32>
}

// -----

// Legacy empty 1-D inputs are skipped, as in PyTorch.
// CHECK-LABEL: func.func @cat_skip_empty(
// CHECK: %[[B:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[I:.*]] = tensor.insert_slice %[[B]] into %[[EMPTY]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x3xf32>
// CHECK-NOT: tensor.insert_slice
// CHECK: torch_c.from_builtin_tensor %[[I]]
func.func @cat_skip_empty(%a: !torch.vtensor<[0],f32>, %b: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[0],f32>, !torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// A dynamic cat: the second part goes at the first part's run-time size,
// and the result's size along dim 0 is the sum of the parts'.
// CHECK-LABEL: func.func @cat_dynamic(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?,3],f32> -> tensor<?x3xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x3xf32>
// CHECK: %[[SUM:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[SUM]]) : tensor<?x3xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [%{{.*}}, 3] [1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %[[I0]][%[[N]], 0] [%{{.*}}, 3] [1, 1]
func.func @cat_dynamic(%a: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %a : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}

// -----

// Parts that are empty along the dim add nothing (an insert at their
// offset, the end of the result, would be out of bounds).
// CHECK-LABEL: func.func @cat_empty_parts(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<5x3xf32>
// CHECK: %[[R:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [5, 3] [1, 1]
// CHECK-NOT: tensor.insert_slice
// CHECK: torch_c.from_builtin_tensor %[[R]]
func.func @cat_empty_parts(%a: !torch.vtensor<[5,3],f32>, %b: !torch.vtensor<[0,3],f32>) -> !torch.vtensor<[5,3],f32> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[5,3],f32>, !torch.vtensor<[0,3],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[5,3],f32>
  return %0 : !torch.vtensor<[5,3],f32>
}

// -----

// Every part empty: so is the result.
// CHECK-LABEL: func.func @cat_all_empty(
// CHECK: %[[R:.*]] = tensor.empty() : tensor<0x3xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]]
func.func @cat_all_empty(%a: !torch.vtensor<[0,3],f32>) -> !torch.vtensor<[0,3],f32> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %a : (!torch.vtensor<[0,3],f32>, !torch.vtensor<[0,3],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[0,3],f32>
  return %0 : !torch.vtensor<[0,3],f32>
}
