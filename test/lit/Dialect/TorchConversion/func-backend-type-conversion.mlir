// RUN: torch2mlir-opt %s -torch-func-backend-type-conversion -split-input-file | FileCheck %s

// Signatures, calls and returns get builtin types; bodies are bridged with
// torch_c materializations.

// CHECK-LABEL: func.func @signature(
// CHECK-SAME: %[[A:.*]]: tensor<2x?xf32>, %[[I:.*]]: i64, %[[F:.*]]: f64, %[[B:.*]]: i1, %[[U:.*]]: tensor<3xi8>)
// CHECK-SAME: -> (tensor<2x?xf32>, i64, f64, i1, tensor<3xi8>)
// CHECK-NEXT: return %[[A]], %[[I]], %[[F]], %[[B]], %[[U]] : tensor<2x?xf32>, i64, f64, i1, tensor<3xi8>
func.func @signature(%a: !torch.vtensor<[2,?],f32>, %i: !torch.int, %f: !torch.float, %b: !torch.bool, %u: !torch.vtensor<[3],ui8>) -> (!torch.vtensor<[2,?],f32>, !torch.int, !torch.float, !torch.bool, !torch.vtensor<[3],ui8>) {
  return %a, %i, %f, %b, %u : !torch.vtensor<[2,?],f32>, !torch.int, !torch.float, !torch.bool, !torch.vtensor<[3],ui8>
}

// -----

// CHECK-LABEL: func.func @body(
// CHECK-SAME: %[[ARG:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[V:.*]] = torch_c.from_builtin_tensor %[[ARG]] : tensor<2xf32> -> !torch.vtensor<[2],f32>
// CHECK: %[[R:.*]] = torch.aten.relu %[[V]] : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
// CHECK: %[[T:.*]] = torch_c.to_builtin_tensor %[[R]] : !torch.vtensor<[2],f32> -> tensor<2xf32>
// CHECK: return %[[T]] : tensor<2xf32>
func.func @body(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[ARG:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[R:.*]] = call @body(%[[ARG]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: return %[[R]] : tensor<2xf32>
func.func @caller(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = call @body(%a) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// Declarations are converted too.
// CHECK-LABEL: func.func private @declaration(tensor<4xi64>, f64) -> i64
func.func private @declaration(!torch.vtensor<[4],si64>, !torch.float) -> !torch.int

// -----

// Types without a builtin counterpart are left alone.
// CHECK-LABEL: func.func @unconvertible(
// CHECK-SAME: %{{.*}}: !torch.vtensor<*,f32>, %{{.*}}: !torch.list<int>, %{{.*}}: !torch.none, %{{.*}}: !torch.vtensor<[2],unk>)
// CHECK-SAME: -> !torch.vtensor<*,f32>
func.func @unconvertible(%a: !torch.vtensor<*,f32>, %l: !torch.list<int>, %n: !torch.none, %u: !torch.vtensor<[2],unk>) -> !torch.vtensor<*,f32> {
  return %a : !torch.vtensor<*,f32>
}
