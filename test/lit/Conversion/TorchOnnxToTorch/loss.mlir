// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// NLL with weights and ignore_index, mean reduction: sum(loss * w) / sum(w).
// CHECK-LABEL: func.func @nll_weight_ii
// CHECK: %[[ZERO:.*]] = torch.vtensor.literal(dense<0.000000e+00> : tensor<f32>)
// CHECK: %[[FIRST:.*]] = torch.vtensor.literal(dense<0> : tensor<i64>)
// CHECK: %[[IGNORED:.*]] = torch.aten.eq.Scalar %arg1, %int1
// CHECK: %[[CLASSES:.*]] = torch.aten.where.self %[[IGNORED]], %[[FIRST]], %arg1
// CHECK: %[[INDEX:.*]] = torch.aten.unsqueeze %[[CLASSES]], %int1 : {{.*}} -> !torch.vtensor<[3,1,2],si64>
// CHECK: %[[PICKED:.*]] = torch.aten.gather %arg0, %int1, %[[INDEX]]
// CHECK: %[[SQUEEZED:.*]] = torch.aten.squeeze.dim %[[PICKED]], %int1
// CHECK: %[[LOSS:.*]] = torch.aten.neg %[[SQUEEZED]]
// CHECK: %[[SELECTED:.*]] = torch.aten.index_select %arg2, %int0
// CHECK: %[[W:.*]] = torch.aten.view %[[SELECTED]]
// CHECK: %[[WEIGHTS:.*]] = torch.aten.where.self %[[IGNORED]], %[[ZERO]], %[[W]]
// CHECK: %[[WEIGHTED:.*]] = torch.aten.mul.Tensor %[[LOSS]], %[[WEIGHTS]]
// CHECK-DAG: %[[WSUM:.*]] = torch.aten.sum %[[WEIGHTS]]
// CHECK-DAG: %[[LSUM:.*]] = torch.aten.sum %[[WEIGHTED]]
// CHECK: torch.aten.div.Tensor %[[LSUM]], %[[WSUM]]
func.func @nll_weight_ii(%x: !torch.vtensor<[3,5,2],f32>, %t: !torch.vtensor<[3,2],si64>, %w: !torch.vtensor<[5],f32>) -> !torch.vtensor<[],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.NegativeLogLikelihoodLoss"(%x, %t, %w) {torch.onnx.ignore_index = 1 : si64, torch.onnx.reduction = "mean"} : (!torch.vtensor<[3,5,2],f32>, !torch.vtensor<[3,2],si64>, !torch.vtensor<[5],f32>) -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// SoftmaxCrossEntropyLoss without weights, reduction none, with log_prob.
// CHECK-LABEL: func.func @sce_none_log_prob
// CHECK: %[[LOGP:.*]] = torch.aten.log_softmax.int %arg0, %int1
// CHECK: %[[INDEX:.*]] = torch.aten.unsqueeze %arg1, %int1
// CHECK: %[[PICKED:.*]] = torch.aten.gather %[[LOGP]], %int1, %[[INDEX]]
// CHECK: %[[SQUEEZED:.*]] = torch.aten.squeeze.dim %[[PICKED]], %int1
// CHECK: %[[LOSS:.*]] = torch.aten.neg %[[SQUEEZED]]
// CHECK-NOT: torch.aten.sum
// CHECK: return %[[LOSS]], %[[LOGP]]
func.func @sce_none_log_prob(%x: !torch.vtensor<[3,5],f32>, %t: !torch.vtensor<[3],si64>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3,5],f32>) attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0:2 = torch.operator "onnx.SoftmaxCrossEntropyLoss"(%x, %t) {torch.onnx.reduction = "none"} : (!torch.vtensor<[3,5],f32>, !torch.vtensor<[3],si64>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3,5],f32>)
  return %0#0, %0#1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3,5],f32>
}

// -----

func.func @nll_bad_reduction(%x: !torch.vtensor<[3,5],f32>, %t: !torch.vtensor<[3],si64>) -> !torch.vtensor<[],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  // expected-error @+1 {{unsupported reduction 'max'}}
  %0 = torch.operator "onnx.NegativeLogLikelihoodLoss"(%x, %t) {torch.onnx.reduction = "max"} : (!torch.vtensor<[3,5],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}
