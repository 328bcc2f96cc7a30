// RUN: torch2mlir-opt %s -torch-verify-linalg-on-tensors-backend-contract -split-input-file -verify-diagnostics | FileCheck %s

// func, linalg, tensor, arith, math, scf and cf ops on builtin types pass.
// CHECK-LABEL: func.func @valid(
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: scf.for
func.func @valid(%a: tensor<2xf32>, %n: index) -> tensor<2xf32> {
  %0 = tensor.empty() : tensor<2xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<2xf32>) outs(%0 : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %2 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %1) -> (tensor<2xf32>) {
    scf.yield %t : tensor<2xf32>
  }
  return %2 : tensor<2xf32>
}

// -----

// expected-error @+1 {{function 'torch_op' still has torch types in its signature}}
func.func @torch_op(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{'torch.aten.relu' is not supported by the linalg-on-tensors backend (no lowering for it)}}
  %0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  // expected-error @+1 {{'func.return' still uses torch types after conversion}}
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// expected-error @+1 {{function 'materialization' still has torch types in its signature}}
func.func @materialization(%a: tensor<2xf32>) -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{'torch_c.from_builtin_tensor' is not supported by the linalg-on-tensors backend}}
  %0 = torch_c.from_builtin_tensor %a : tensor<2xf32> -> !torch.vtensor<[2],f32>
  // expected-error @+1 {{'func.return' still uses torch types after conversion}}
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// Buffers belong to a later stage.
func.func @memref_op() -> memref<2xf32> {
  // expected-error @+1 {{'memref.alloc' is not supported by the linalg-on-tensors backend}}
  %0 = memref.alloc() : memref<2xf32>
  return %0 : memref<2xf32>
}

// -----

func.func @torch_constant() -> i64 {
  // expected-error @+1 {{'torch.constant.int' is not supported by the linalg-on-tensors backend}}
  %0 = torch.constant.int 1
  %1 = arith.constant 1 : i64
  return %1 : i64
}

// -----

// A torch type in a signature breaks the contract even with no op using it.
// expected-error @+1 {{function 'torch_signature' still has torch types in its signature '(!torch.int) -> ()'}}
func.func @torch_signature(%a: !torch.int) {
  return
}
