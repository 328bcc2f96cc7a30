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
