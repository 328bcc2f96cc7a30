// RUN: torch2mlir-opt %s -convert-torch-to-arith -split-input-file -verify-diagnostics | FileCheck %s

// aten.size.int: a constant for a static size (negative dims count from the
// end), tensor.dim for a dynamic one; aten.dim: the rank.

// CHECK-LABEL: func.func @size(
// CHECK-SAME: %[[T:.*]]: !torch.vtensor<[2,?,4],f32>)
// CHECK: %[[B:.*]] = torch_c.to_builtin_tensor %[[T]] : !torch.vtensor<[2,?,4],f32> -> tensor<2x?x4xf32>
// CHECK: %[[S0:.*]] = arith.constant 2 : i64
// CHECK: %[[R0:.*]] = torch_c.from_i64 %[[S0]]
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[DIM:.*]] = tensor.dim %[[B]], %[[C1]] : tensor<2x?x4xf32>
// CHECK: %[[S1:.*]] = arith.index_cast %[[DIM]] : index to i64
// CHECK: %[[R1:.*]] = torch_c.from_i64 %[[S1]]
// CHECK: %[[S2:.*]] = arith.constant 4 : i64
// CHECK: %[[R2:.*]] = torch_c.from_i64 %[[S2]]
// CHECK: %[[RANK:.*]] = arith.constant 3 : i64
// CHECK: %[[R3:.*]] = torch_c.from_i64 %[[RANK]]
// CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]]
func.func @size(%t: !torch.vtensor<[2,?,4],f32>) -> (!torch.int, !torch.int, !torch.int, !torch.int) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %0 = torch.aten.size.int %t, %int0 : !torch.vtensor<[2,?,4],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %t, %int1 : !torch.vtensor<[2,?,4],f32>, !torch.int -> !torch.int
  %2 = torch.aten.size.int %t, %int-1 : !torch.vtensor<[2,?,4],f32>, !torch.int -> !torch.int
  %3 = torch.aten.dim %t : !torch.vtensor<[2,?,4],f32> -> !torch.int
  return %0, %1, %2, %3 : !torch.int, !torch.int, !torch.int, !torch.int
}

// -----

// A rank-0 tensor has dim 0.
// CHECK-LABEL: func.func @dim_rank0(
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: torch_c.from_i64 %[[Z]]
func.func @dim_rank0(%t: !torch.vtensor<[],f32>) -> !torch.int {
  %0 = torch.aten.dim %t : !torch.vtensor<[],f32> -> !torch.int
  return %0 : !torch.int
}

// -----

// Unknown rank, or a run-time dim: these ops are illegal after the pass,
// so the conversion fails.
func.func @dim_unknown_rank(%t: !torch.vtensor<*,f32>) -> !torch.int {
  // expected-error @+1 {{failed to legalize operation 'torch.aten.dim' that was explicitly marked illegal}}
  %0 = torch.aten.dim %t : !torch.vtensor<*,f32> -> !torch.int
  return %0 : !torch.int
}

// -----

func.func @size_runtime_dim(%u: !torch.vtensor<[2],f32>, %d: !torch.int) -> !torch.int {
  // expected-error @+1 {{failed to legalize operation 'torch.aten.size.int' that was explicitly marked illegal}}
  %0 = torch.aten.size.int %u, %d : !torch.vtensor<[2],f32>, !torch.int -> !torch.int
  return %0 : !torch.int
}
