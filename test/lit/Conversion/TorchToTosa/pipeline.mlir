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
  // expected-error @+1 {{'torch.aten.tan' was not lowered to the backend: no lowering for this op}}
  %0 = torch.aten.tan %x : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
