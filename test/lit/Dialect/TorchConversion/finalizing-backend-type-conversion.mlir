// RUN: torch2mlir-opt %s -torch-finalizing-backend-type-conversion -split-input-file -verify-diagnostics | FileCheck %s

// After a complete conversion the materializations cancel out and are
// removed, as are unused ones.

// CHECK-LABEL: func.func @clean(
// CHECK-SAME: %[[A:.*]]: tensor<2xf32>, %[[X:.*]]: i64)
// CHECK-NOT: torch_c
// CHECK: %[[E:.*]] = math.exp %[[A]] : tensor<2xf32>
// CHECK-NOT: torch_c
// CHECK: return %[[E]], %[[X]] : tensor<2xf32>, i64
func.func @clean(%a: tensor<2xf32>, %x: i64) -> (tensor<2xf32>, i64) {
  %0 = torch_c.from_builtin_tensor %a : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %1 = torch_c.to_builtin_tensor %0 : !torch.vtensor<[2],f32> -> tensor<2xf32>
  %2 = math.exp %1 : tensor<2xf32>
  %3 = torch_c.from_i64 %x
  %4 = torch_c.to_i64 %3
  %c = arith.constant 1.0 : f64
  %5 = torch_c.from_f64 %c
  return %2, %4 : tensor<2xf32>, i64
}

// -----

// Chains of pairs.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[A:.*]]: tensor<3xi1>)
// CHECK-NEXT: return %[[A]] : tensor<3xi1>
func.func @chain(%a: tensor<3xi1>) -> tensor<3xi1> {
  %0 = torch_c.from_builtin_tensor %a : tensor<3xi1> -> !torch.vtensor<[3],i1>
  %1 = torch_c.to_builtin_tensor %0 : !torch.vtensor<[3],i1> -> tensor<3xi1>
  %2 = torch_c.from_builtin_tensor %1 : tensor<3xi1> -> !torch.vtensor<[3],i1>
  %3 = torch_c.to_builtin_tensor %2 : !torch.vtensor<[3],i1> -> tensor<3xi1>
  return %3 : tensor<3xi1>
}

// -----

// An op left unconverted keeps a torch value alive: the error names that op.
func.func @leftover_op(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = torch_c.from_builtin_tensor %a : tensor<2xf32> -> !torch.vtensor<[2],f32>
  // expected-error @+1 {{'torch.aten.relu' was not lowered to the backend: no lowering for this op (or its operands) yet}}
  %1 = torch.aten.relu %0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %2 = torch_c.to_builtin_tensor %1 : !torch.vtensor<[2],f32> -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// -----

// No torch op is left, but a non-torch op still uses a torch value (here a
// signature that was not converted): the error points at that user.
func.func @leftover_user(%a: tensor<2xf32>) -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{could not finalize the backend type conversion: a torch-typed value is still produced or used}}
  %0 = torch_c.from_builtin_tensor %a : tensor<2xf32> -> !torch.vtensor<[2],f32>
  // expected-note @+1 {{by 'func.return', which was not converted to the backend}}
  return %0 : !torch.vtensor<[2],f32>
}

// -----

func.func @leftover_return(%x: i64) -> !torch.int {
  // expected-error @+1 {{could not finalize the backend type conversion}}
  %0 = torch_c.from_i64 %x
  // expected-note @+1 {{by 'func.return', which was not converted to the backend}}
  return %0 : !torch.int
}
