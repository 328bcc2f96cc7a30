// RUN: torch2mlir-opt %s -split-input-file -verify-diagnostics

func.func @to_shape_mismatch(%a: !torch.vtensor<[2],f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'torch_c.to_builtin_tensor' op type mismatch: '!torch.vtensor<[2],f32>' corresponds to 'tensor<2xf32>', not 'tensor<3xf32>'}}
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[2],f32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Builtin tensors are signless.
func.func @to_signed_builtin(%a: !torch.vtensor<[2],si64>) -> tensor<2xsi64> {
  // expected-error @+1 {{'!torch.vtensor<[2],si64>' corresponds to 'tensor<2xi64>', not 'tensor<2xsi64>'}}
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[2],si64> -> tensor<2xsi64>
  return %0 : tensor<2xsi64>
}

// -----

func.func @to_unranked(%a: !torch.vtensor<*,f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'torch_c.to_builtin_tensor' op needs a !torch.vtensor with known rank and dtype, got '!torch.vtensor<*,f32>'}}
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<*,f32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @to_unknown_dtype(%a: !torch.vtensor<[2],unk>) -> tensor<2xf32> {
  // expected-error @+1 {{needs a !torch.vtensor with known rank and dtype, got '!torch.vtensor<[2],unk>'}}
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[2],unk> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @from_dtype_mismatch(%a: tensor<2xf64>) -> !torch.vtensor<[2],f32> {
  // expected-error @+1 {{'torch_c.from_builtin_tensor' op type mismatch: '!torch.vtensor<[2],f32>' corresponds to 'tensor<2xf32>', not 'tensor<2xf64>'}}
  %0 = torch_c.from_builtin_tensor %a : tensor<2xf64> -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// Static and dynamic sizes must agree exactly.
func.func @from_dynamic_mismatch(%a: tensor<2xf32>) -> !torch.vtensor<[?],f32> {
  // expected-error @+1 {{'!torch.vtensor<[?],f32>' corresponds to 'tensor<?xf32>', not 'tensor<2xf32>'}}
  %0 = torch_c.from_builtin_tensor %a : tensor<2xf32> -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

func.func @from_width_mismatch(%a: tensor<2xi64>) -> !torch.vtensor<[2],ui8> {
  // expected-error @+1 {{'!torch.vtensor<[2],ui8>' corresponds to 'tensor<2xi8>', not 'tensor<2xi64>'}}
  %0 = torch_c.from_builtin_tensor %a : tensor<2xi64> -> !torch.vtensor<[2],ui8>
  return %0 : !torch.vtensor<[2],ui8>
}

// -----

func.func @to_nonvalue(%a: !torch.tensor<[2],f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'torch_c.to_builtin_tensor' op operand #0 must be torch value tensor, but got '!torch.tensor<[2],f32>'}}
  %0 = torch_c.to_builtin_tensor %a : !torch.tensor<[2],f32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// expected-note @+1 {{prior use here}}
func.func @from_i64_wrong_type(%a: i32) -> !torch.int {
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'i64' vs 'i32'}}
  %0 = torch_c.from_i64 %a
  return %0 : !torch.int
}
