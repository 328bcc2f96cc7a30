// RUN: torch2mlir-opt %s -split-input-file -verify-diagnostics

// The generated ATen ops check their operand kinds and their syntax.

func.func @mm_int_operand(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %int1 = torch.constant.int 1
  // expected-error @+1 {{'torch.aten.mm' op operand #1 must be any torch tensor type, but got '!torch.int'}}
  %0 = torch.aten.mm %a, %int1 : !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

func.func @add_int_bool(%a: !torch.bool) -> !torch.int {
  %int1 = torch.constant.int 1
  // expected-error @+1 {{'torch.aten.add.int' op operand #1 must be torch int}}
  %0 = torch.aten.add.int %int1, %a : !torch.int, !torch.bool -> !torch.int
  return %0 : !torch.int
}

// -----

func.func @relu_builtin_tensor(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'torch.aten.relu' op operand #0 must be any torch tensor type, but got 'tensor<2xf32>'}}
  %0 = torch.aten.relu %a : tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @missing_operand(%a: !torch.vtensor<[2,2],f32>) -> !torch.vtensor<[2,2],f32> {
  // expected-error @+1 {{expected 2 operands}}
  %0 = torch.aten.mm %a : !torch.vtensor<[2,2],f32> -> !torch.vtensor<[2,2],f32>
  return %0 : !torch.vtensor<[2,2],f32>
}

// -----

func.func @missing_result_type(%a: !torch.vtensor<[2,2],f32>) {
  // expected-error @+1 {{expected '->'}}
  %0 = torch.aten.mm %a, %a : !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>
  return
}

// -----

// (The parser reports this at the token after the value.)
func.func @float_as_int() -> !torch.int {
  // expected-error @+2 {{floating point value not valid for specified type}}
  %0 = torch.constant.int 1.5
  return %0 : !torch.int
}

// -----

func.func @unknown_torch_op(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{custom op 'torch.aten.not_an_aten_op' is unknown}}
  %0 = torch.aten.not_an_aten_op %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return
}
