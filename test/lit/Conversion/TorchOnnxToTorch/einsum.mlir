// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// Batched matmul: both operands over the labels b, i, k, j (output labels
// first), multiplied with broadcasting, j summed.
// CHECK-LABEL: func.func @einsum_bmm
// CHECK: %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[5,2,1,3],f64>
// CHECK: %[[YT:.*]] = torch.aten.permute %arg1, {{.*}} -> !torch.vtensor<[5,4,3],f64>
// CHECK: %[[Y:.*]] = torch.aten.view %[[YT]], {{.*}} -> !torch.vtensor<[5,1,4,3],f64>
// CHECK: %[[P:.*]] = torch.aten.mul.Tensor %[[X]], %[[Y]] : {{.*}} -> !torch.vtensor<[5,2,4,3],f64>
// CHECK: torch.aten.sum.dim_IntList %[[P]], {{.*}} -> !torch.vtensor<[5,2,4],f64>
func.func @einsum_bmm(%x: !torch.vtensor<[5,2,3],f64>, %y: !torch.vtensor<[5,3,4],f64>) -> !torch.vtensor<[5,2,4],f64> attributes {torch.onnx_meta.opset_version = 12 : si64} {
  %0 = torch.operator "onnx.Einsum"(%x, %y) {torch.onnx.equation = "bij, bjk -> bik"} : (!torch.vtensor<[5,2,3],f64>, !torch.vtensor<[5,3,4],f64>) -> !torch.vtensor<[5,2,4],f64>
  return %0 : !torch.vtensor<[5,2,4],f64>
}

// -----

// A repeated label takes the diagonal (an ellipsis before it).
// CHECK-LABEL: func.func @einsum_diagonal
// CHECK: %[[EYE:.*]] = torch.vtensor.literal(dense<{{\[\[}}true, false, false, false, false]
// CHECK: %[[MASK:.*]] = torch.aten.view %[[EYE]], {{.*}} -> !torch.vtensor<[1,5,5],i1>
// CHECK: %[[M:.*]] = torch.aten.where.self %[[MASK]], %arg0
// CHECK: torch.aten.sum.dim_IntList %[[M]], {{.*}} -> !torch.vtensor<[3,5],f32>
func.func @einsum_diagonal(%x: !torch.vtensor<[3,5,5],f32>) -> !torch.vtensor<[3,5],f32> attributes {torch.onnx_meta.opset_version = 12 : si64} {
  %0 = torch.operator "onnx.Einsum"(%x) {torch.onnx.equation = "...ii ->...i"} : (!torch.vtensor<[3,5,5],f32>) -> !torch.vtensor<[3,5],f32>
  return %0 : !torch.vtensor<[3,5],f32>
}

// -----

// Without "->" the output is the labels that appear once, sorted: none
// for an inner product.
// CHECK-LABEL: func.func @einsum_inner
// CHECK: %[[P:.*]] = torch.aten.mul.Tensor %arg0, %arg1
// CHECK: torch.aten.sum.dim_IntList %[[P]], {{.*}} -> !torch.vtensor<[],f32>
func.func @einsum_inner(%x: !torch.vtensor<[5],f32>, %y: !torch.vtensor<[5],f32>) -> !torch.vtensor<[],f32> attributes {torch.onnx_meta.opset_version = 12 : si64} {
  %0 = torch.operator "onnx.Einsum"(%x, %y) {torch.onnx.equation = "i,i"} : (!torch.vtensor<[5],f32>, !torch.vtensor<[5],f32>) -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

func.func @einsum_terms(%x: !torch.vtensor<[5],f32>) -> !torch.vtensor<[],f32> attributes {torch.onnx_meta.opset_version = 12 : si64} {
  // expected-error @+1 {{the equation has 2 operand terms for 1 operands}}
  %0 = torch.operator "onnx.Einsum"(%x) {torch.onnx.equation = "i,i->"} : (!torch.vtensor<[5],f32>) -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}
