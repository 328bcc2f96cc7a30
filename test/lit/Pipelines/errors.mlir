// RUN: torch2mlir-opt %s -torch-backend-to-linalg-on-tensors-backend-pipeline -split-input-file -verify-diagnostics
// RUN: not torch2mlir-opt %s -torch-backend-to-linalg-on-tensors-backend-pipeline -split-input-file 2>&1 | FileCheck %s
// RUN: not torch2mlir-opt %s -torch-lower-to-backend-contract -split-input-file 2>&1 | FileCheck %s --check-prefix=CONTRACT

// An op that TorchToLinalg owns but cannot lower stops the pipeline with
// an error naming it.
// CHECK: error: 'torch.aten.convolution' could not be lowered to linalg-on-tensors
func.func @dynamic_weight_conv(%x: !torch.vtensor<[?,4,5,5],f32>, %w: !torch.vtensor<[2,4,?,3],f32>) -> !torch.vtensor<[?,2,3,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.convolution' could not be lowered to linalg-on-tensors}}
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %false, %p, %int1 : !torch.vtensor<[?,4,5,5],f32>, !torch.vtensor<[2,4,?,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[?,2,3,3],f32>
  return %0 : !torch.vtensor<[?,2,3,3],f32>
}

// -----

// An op nobody lowers is left behind, and the backend type conversion
// cannot be finalized: the error names the op.
// CHECK: error: 'torch.operator' was not lowered to the backend
func.func @unknown_op(%a: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  // expected-error @+1 {{'torch.operator' was not lowered to the backend}}
  %0 = torch.operator "aten.sin"(%a) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// With -torch-lower-to-backend-contract, unknown ops are stopped earlier by
// the backend contract verifier (the CONTRACT run).
// CONTRACT: error: unsupported op 'aten.sin': torch2mlir has no lowering for it
// CONTRACT: error: unsupported op 'aten.cos': torch2mlir has no lowering for it
func.func @unknown_op_contract(%a: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  // expected-error @+1 {{'torch.operator' was not lowered to the backend}}
  %0 = torch.operator "aten.cos"(%a) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
