// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @bmm(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[5,2,3],f32>, %[[B:.*]]: !torch.vtensor<[5,3,4],f32>)
// CHECK-DAG: %[[TB:.*]] = torch_c.to_builtin_tensor %[[B]] : !torch.vtensor<[5,3,4],f32> -> tensor<5x3x4xf32>
// CHECK-DAG: %[[TA:.*]] = torch_c.to_builtin_tensor %[[A]] : !torch.vtensor<[5,2,3],f32> -> tensor<5x2x3xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<5x2x4xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<5x2x4xf32>) -> tensor<5x2x4xf32>
// CHECK: %[[BMM:.*]] = linalg.batch_matmul ins(%[[TA]], %[[TB]] : tensor<5x2x3xf32>, tensor<5x3x4xf32>) outs(%[[FILL]] : tensor<5x2x4xf32>) -> tensor<5x2x4xf32>
// CHECK: %[[R:.*]] = torch_c.from_builtin_tensor %[[BMM]] : tensor<5x2x4xf32> -> !torch.vtensor<[5,2,4],f32>
// CHECK: return %[[R]]
func.func @bmm(%a: !torch.vtensor<[5,2,3],f32>, %b: !torch.vtensor<[5,3,4],f32>) -> !torch.vtensor<[5,2,4],f32> {
  %0 = torch.aten.bmm %a, %b : !torch.vtensor<[5,2,3],f32>, !torch.vtensor<[5,3,4],f32> -> !torch.vtensor<[5,2,4],f32>
  return %0 : !torch.vtensor<[5,2,4],f32>
}

// -----

// Dynamic batch and M from the lhs, N from the rhs.
// CHECK-LABEL: func.func @bmm_dynamic(
// CHECK-DAG: %[[TB:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?,3,?],f32> -> tensor<?x3x?xf32>
// CHECK-DAG: %[[TA:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?,?,3],f32> -> tensor<?x?x3xf32>
// CHECK-DAG: %[[D0:.*]] = tensor.dim %[[TA]], %c0 : tensor<?x?x3xf32>
// CHECK-DAG: %[[D1:.*]] = tensor.dim %[[TA]], %c1 : tensor<?x?x3xf32>
// CHECK-DAG: %[[D2:.*]] = tensor.dim %[[TB]], %c2 : tensor<?x3x?xf32>
// CHECK: tensor.empty(%[[D0]], %[[D1]], %[[D2]]) : tensor<?x?x?xf32>
// CHECK: linalg.batch_matmul ins(%[[TA]], %[[TB]] : tensor<?x?x3xf32>, tensor<?x3x?xf32>) outs(%{{.*}} : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
func.func @bmm_dynamic(%a: !torch.vtensor<[?,?,3],f32>, %b: !torch.vtensor<[?,3,?],f32>) -> !torch.vtensor<[?,?,?],f32> {
  %0 = torch.aten.bmm %a, %b : !torch.vtensor<[?,?,3],f32>, !torch.vtensor<[?,3,?],f32> -> !torch.vtensor<[?,?,?],f32>
  return %0 : !torch.vtensor<[?,?,?],f32>
}
