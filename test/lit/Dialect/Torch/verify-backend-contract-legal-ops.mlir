// RUN: torch2mlir-opt %s -torch-verify-backend-contract="legal-ops=aten.linear,torch.aten.matmul" -split-input-file -verify-diagnostics | FileCheck %s

// A backend that lowers an op itself names it in legal-ops (with or
// without the `torch.` prefix); the contract then accepts it. Others
// outside the core op set are still reported.

// CHECK-LABEL: func.func @kept(
// CHECK: torch.aten.linear
// CHECK: torch.aten.matmul
func.func @kept(%a: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[4,3],f32>, %m: !torch.vtensor<[3,5],f32>) -> (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,5],f32>) {
  %none = torch.constant.none
  %0 = torch.aten.linear %a, %w, %none : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>, !torch.none -> !torch.vtensor<[2,4],f32>
  %1 = torch.aten.matmul %a, %m : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,5],f32> -> !torch.vtensor<[2,5],f32>
  return %0, %1 : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,5],f32>
}

// -----

func.func @not_kept(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,2],f32> {
  // expected-error @+1 {{'torch.aten.t' is not in the backend contract's core op set}}
  %0 = torch.aten.t %a : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}
