// RUN: torch2mlir-opt %s -torch-backend-to-tosa-backend-pipeline -split-input-file -verify-diagnostics | FileCheck %s

// The pipeline's module declares its target and passes tosa-validate.
// CHECK: module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [bf16]>}
// CHECK-LABEL: func.func @mlp(%arg0: tensor<2x4xf32>, %arg1: tensor<3x4xf32>) -> tensor<2x3xf32>
// CHECK: tosa.matmul
// CHECK: tosa.tanh
// CHECK-NOT: torch
func.func @mlp(%x: !torch.vtensor<[2,4],f32>, %w: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,3],f32> {
  %none = torch.constant.none
  %0 = torch.aten.linear %x, %w, %none : !torch.vtensor<[2,4],f32>, !torch.vtensor<[3,4],f32>, !torch.none -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.tanh %0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  return %1 : !torch.vtensor<[2,3],f32>
}

// -----

// An op without a TOSA lowering is named by the contract verifier.
func.func @no_lowering(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  // expected-error @+1 {{'torch.aten.hardsigmoid' was not lowered to the backend: no lowering for this op}}
  %0 = torch.aten.hardsigmoid %x : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// int64 token ids through the whole pipeline: narrowed to i32 with the
// range the runtime checks, gathered in bounds, validated TOSA.
// CHECK-LABEL: func.func @token_ids(
// CHECK-SAME: %arg0: tensor<2x3xi32> {torch2mlir.value_range = array<i64: 0, 9>}
// CHECK: tosa.gather %{{.*}} : (tensor<1x10x4xf32>, tensor<1x6xi32>) -> tensor<1x6x4xf32>
func.func @token_ids(%ids: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[2,3,4],f32> {
  %w = torch.vtensor.literal(dense<1.0> : tensor<10x4xf32>) : !torch.vtensor<[10,4],f32>
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten.embedding %w, %ids, %int-1, %false, %false : !torch.vtensor<[10,4],f32>, !torch.vtensor<[2,3],si64>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}
