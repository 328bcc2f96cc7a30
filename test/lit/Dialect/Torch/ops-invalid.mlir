// RUN: torch2mlir-opt %s -split-input-file -verify-diagnostics

// torch.vtensor.literal: the payload must match the result type.

func.func @literal_shape() -> !torch.vtensor<[3],f32> {
  // expected-error @+1 {{'torch.vtensor.literal' op literal shape [2] does not match the result sizes [3]}}
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

func.func @literal_rank() -> !torch.vtensor<[2,1],f32> {
  // expected-error @+1 {{literal shape [2] does not match the result sizes [2, 1]}}
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2,1],f32>
  return %0 : !torch.vtensor<[2,1],f32>
}

// -----

func.func @literal_element_type() -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{'torch.vtensor.literal' op literal element type 'f64' does not match the result dtype 'f32'}}
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf64>) : !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// Signless payloads must have the dtype's width.
func.func @literal_width() -> !torch.vtensor<[2],si64> {
  // expected-error @+1 {{literal element type 'i32' does not match the result dtype 'si64'}}
  %0 = torch.vtensor.literal(dense<[1, 2]> : tensor<2xi32>) : !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}

// -----

// Signedness may not change.
func.func @literal_signedness() -> !torch.vtensor<[2],si8> {
  // expected-error @+1 {{literal element type 'ui8' does not match the result dtype 'si8'}}
  %0 = torch.vtensor.literal(dense<[1, 2]> : tensor<2xui8>) : !torch.vtensor<[2],si8>
  return %0 : !torch.vtensor<[2],si8>
}

// -----

func.func @literal_unranked() -> !torch.vtensor<*,f32> {
  // expected-error @+1 {{result type must have known sizes and dtype, got '!torch.vtensor<*,f32>'}}
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<*,f32>
  return %0 : !torch.vtensor<*,f32>
}

// -----

func.func @literal_unknown_dtype() -> !torch.vtensor<[2],unk> {
  // expected-error @+1 {{result type must have known sizes and dtype, got '!torch.vtensor<[2],unk>'}}
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2],unk>
  return %0 : !torch.vtensor<[2],unk>
}

// -----

// torch.prim.ListConstruct: every element must have (or refine) the list's
// element type.

func.func @list_int_float(%a: !torch.int, %b: !torch.float) -> !torch.list<int> {
  // expected-error @+1 {{'torch.prim.ListConstruct' op element #1 of type '!torch.float' is not a valid element of '!torch.list<int>'}}
  %0 = torch.prim.ListConstruct %a, %b : (!torch.int, !torch.float) -> !torch.list<int>
  return %0 : !torch.list<int>
}

// -----

func.func @list_dtype(%a: !torch.vtensor<[2],f32>, %b: !torch.vtensor<[2],f64>) -> !torch.list<vtensor<[2],f32>> {
  // expected-error @+1 {{element #1 of type '!torch.vtensor<[2],f64>' is not a valid element of '!torch.list<vtensor<[2],f32>>'}}
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f64>) -> !torch.list<vtensor<[2],f32>>
  return %0 : !torch.list<vtensor<[2],f32>>
}

// -----

func.func @list_sizes(%a: !torch.vtensor<[3],f32>) -> !torch.list<vtensor<[2],f32>> {
  // expected-error @+1 {{element #0 of type '!torch.vtensor<[3],f32>' is not a valid element}}
  %0 = torch.prim.ListConstruct %a : (!torch.vtensor<[3],f32>) -> !torch.list<vtensor<[2],f32>>
  return %0 : !torch.list<vtensor<[2],f32>>
}

// -----

// A less precise element does not refine the element type.
func.func @list_unranked_element(%a: !torch.vtensor<*,f32>) -> !torch.list<vtensor<[2],f32>> {
  // expected-error @+1 {{element #0 of type '!torch.vtensor<*,f32>' is not a valid element}}
  %0 = torch.prim.ListConstruct %a : (!torch.vtensor<*,f32>) -> !torch.list<vtensor<[2],f32>>
  return %0 : !torch.list<vtensor<[2],f32>>
}

// -----

func.func @list_value_semantics(%a: !torch.vtensor<[2],f32>, %b: !torch.tensor<[2],f32>) -> !torch.list<vtensor> {
  // expected-error @+1 {{element #1 of type '!torch.tensor<[2],f32>' is not a valid element of '!torch.list<vtensor>'}}
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2],f32>, !torch.tensor<[2],f32>) -> !torch.list<vtensor>
  return %0 : !torch.list<vtensor>
}

// -----

func.func @list_none_not_optional(%a: !torch.none) -> !torch.list<int> {
  // expected-error @+1 {{element #0 of type '!torch.none' is not a valid element of '!torch.list<int>'}}
  %0 = torch.prim.ListConstruct %a : (!torch.none) -> !torch.list<int>
  return %0 : !torch.list<int>
}
