// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// mm = linalg.matmul into a zero-filled [M, N].

// CHECK-LABEL: func.func @mm(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>, %[[B:.*]]: !torch.vtensor<[3,4],f32>)
// CHECK-DAG: %[[TB:.*]] = torch_c.to_builtin_tensor %[[B]] : !torch.vtensor<[3,4],f32> -> tensor<3x4xf32>
// CHECK-DAG: %[[TA:.*]] = torch_c.to_builtin_tensor %[[A]] : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[TA]], %[[TB]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[FILL]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: %[[R:.*]] = torch_c.from_builtin_tensor %[[MM]] : tensor<2x4xf32> -> !torch.vtensor<[2,4],f32>
// CHECK: return %[[R]] : !torch.vtensor<[2,4],f32>
func.func @mm(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// Dynamic M comes from the lhs, dynamic N from the rhs.
// CHECK-LABEL: func.func @mm_dynamic(
// CHECK-DAG: %[[TB:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[3,?],f32> -> tensor<3x?xf32>
// CHECK-DAG: %[[TA:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?,3],f32> -> tensor<?x3xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[TA]], %[[C0]] : tensor<?x3xf32>
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[TB]], %[[C1]] : tensor<3x?xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<?x?xf32>)
// CHECK: linalg.matmul ins(%[[TA]], %[[TB]] : tensor<?x3xf32>, tensor<3x?xf32>) outs(%[[FILL]] : tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @mm_dynamic(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[3,?],f32>) -> !torch.vtensor<[?,?],f32> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[?,3],f32>, !torch.vtensor<[3,?],f32> -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

// Integer matmul accumulates into an integer zero.
// CHECK-LABEL: func.func @mm_int(
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: linalg.fill ins(%[[ZERO]] : i64) outs(%{{.*}} : tensor<2x4xi64>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xi64>, tensor<3x4xi64>) outs(%{{.*}} : tensor<2x4xi64>) -> tensor<2x4xi64>
// CHECK: torch_c.from_builtin_tensor %{{.*}} : tensor<2x4xi64> -> !torch.vtensor<[2,4],si64>
func.func @mm_int(%a: !torch.vtensor<[2,3],si64>, %b: !torch.vtensor<[3,4],si64>) -> !torch.vtensor<[2,4],si64> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],si64>, !torch.vtensor<[3,4],si64> -> !torch.vtensor<[2,4],si64>
  return %0 : !torch.vtensor<[2,4],si64>
}
