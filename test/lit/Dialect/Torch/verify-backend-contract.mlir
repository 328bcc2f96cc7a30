// RUN: torch2mlir-opt %s -torch-verify-backend-contract -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not torch2mlir-opt %s -torch-verify-backend-contract -split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// A module in the backend contract passes unchanged.
// CHECK-LABEL: func.func @valid(
// CHECK: torch.aten.relu %{{.*}} : !torch.vtensor<[2,?],f32> -> !torch.vtensor<[2,?],f32>
func.func @valid(%a: !torch.vtensor<[2,?],f32>, %i: !torch.int) -> !torch.vtensor<[2,?],f32> {
  %0 = torch.aten.relu %a : !torch.vtensor<[2,?],f32> -> !torch.vtensor<[2,?],f32>
  %1 = torch.aten.size.int %0, %i : !torch.vtensor<[2,?],f32>, !torch.int -> !torch.int
  %2 = torch.vtensor.literal(dense<1.0> : tensor<2x1xf32>) : !torch.vtensor<[2,1],f32>
  %int1 = torch.constant.int 1
  %3 = torch.aten.add.Tensor %0, %2, %int1 : !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,1],f32>, !torch.int -> !torch.vtensor<[2,?],f32>
  return %3 : !torch.vtensor<[2,?],f32>
}

// -----

// Lists and optionals are containers: the tensors put in them are checked
// where they are produced, so a list of unranked tensors is accepted.
// CHECK-LABEL: func.func @containers(
// CHECK-SAME: !torch.list<vtensor>, %{{.*}}: !torch.optional<vtensor>)
// CHECK: torch.prim.ListConstruct %{{.*}} : (!torch.vtensor<[2],f32>) -> !torch.list<vtensor>
func.func @containers(%a: !torch.vtensor<[2],f32>, %l: !torch.list<vtensor>, %o: !torch.optional<vtensor>) -> !torch.list<vtensor> {
  %0 = torch.prim.ListConstruct %a : (!torch.vtensor<[2],f32>) -> !torch.list<vtensor>
  return %0 : !torch.list<vtensor>
}

// -----

// An op without a definition is reported by name.
// ERR: error: unsupported op 'aten.sin': torch2mlir has no lowering for it
func.func @unknown_op(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{unsupported op 'aten.sin'}}
  %0 = torch.operator "aten.sin"(%a) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// ERR: error: 'torch.aten.relu' produces a tensor of unknown rank ('!torch.vtensor<*,f32>'); the backend contract needs every tensor to be a !torch.vtensor of known rank and dtype
func.func @unknown_rank(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<*,f32> {
  // expected-error @+1 {{'torch.aten.relu' produces a tensor of unknown rank}}
  %0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<*,f32>
  return %0 : !torch.vtensor<*,f32>
}

// -----

// ERR: error: 'torch.aten.relu' produces a tensor of unknown dtype ('!torch.vtensor<[2],unk>')
func.func @unknown_dtype(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],unk> {
  // expected-error @+1 {{'torch.aten.relu' produces a tensor of unknown dtype}}
  %0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],unk>
  return %0 : !torch.vtensor<[2],unk>
}

// -----

// Non-value tensors are reported where they are produced, including as
// block arguments.
// ERR-DAG: error: 'func.func' has an argument that is a tensor without value semantics (!torch.tensor) ('!torch.tensor<[2],f32>')
// ERR-DAG: error: 'torch.aten.relu' produces a tensor without value semantics (!torch.tensor)
// expected-error @+1 {{'func.func' has an argument that is a tensor without value semantics}}
func.func @nonvalue(%a: !torch.tensor<[2],f32>) -> !torch.tensor<[2],f32> {
  // expected-error @+1 {{'torch.aten.relu' produces a tensor without value semantics}}
  %0 = torch.aten.relu %a : !torch.tensor<[2],f32> -> !torch.tensor<[2],f32>
  return %0 : !torch.tensor<[2],f32>
}

// -----

// ERR: error: 'func.func' has an argument that is a tensor of unknown rank ('!torch.vtensor')
// expected-error @+1 {{'func.func' has an argument that is a tensor of unknown rank}}
func.func @unranked_argument(%a: !torch.vtensor) -> !torch.vtensor {
  return %a : !torch.vtensor
}

// -----

// An op outside the core op set that no decomposition rewrote (aten.linear
// decomposes only with known types) is reported by name, with the way out.
// ERR: error: 'torch.aten.linear' is not in the backend contract's core op set and the backend does not lower it itself; torch-decompose-complex-ops could not rewrite it
// ERR-SAME: Way out: rewrite this line of the model with supported ops, or decompose the op before import
func.func @non_core(%a: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[2,4],f32> {
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten.linear' is not in the backend contract's core op set}}
  %0 = torch.aten.linear %a, %w, %none : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>, !torch.none -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// From ONNX, the way out names the ONNX model.
// ERR: error: 'torch.aten.native_group_norm' is not in the backend contract's core op set
// ERR-SAME: Way out: express this node of the model with supported ONNX ops
func.func @non_core_onnx(%a: !torch.vtensor<[2,6,4],f32>) -> !torch.vtensor<[2,6,4],f32> attributes {torch.onnx_meta.ir_version = 8 : si64} {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %int4 = torch.constant.int 4
  %eps = torch.constant.float 1.000000e-05
  // expected-error @+1 {{'torch.aten.native_group_norm' is not in the backend contract's core op set}}
  %0:3 = torch.aten.native_group_norm %a, %none, %none, %int2, %int6, %int4, %int4, %eps : !torch.vtensor<[2,6,4],f32>, !torch.none, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>
  return %0#0 : !torch.vtensor<[2,6,4],f32>
}
