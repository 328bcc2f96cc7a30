// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// BitCast: the same bits read as the dtype `to` names (aten.view.dtype
// with the ATen code of the result's dtype).
// CHECK-LABEL: func.func @f32_to_si32
// CHECK: %[[INT3:.*]] = torch.constant.int 3
// CHECK: %[[R:.*]] = torch.aten.view.dtype %arg0, %[[INT3]] : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],si32>
// CHECK: return %[[R]]
func.func @f32_to_si32(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],si32> attributes {torch.onnx_meta.opset_version = 26 : si64} {
  %0 = torch.operator "onnx.BitCast"(%x) {torch.onnx.to = 6 : si64} : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],si32>
  return %0 : !torch.vtensor<[2,3],si32>
}

// -----

// A bool takes a byte: bool -> uint8 is a BitCast of equal widths.
// CHECK-LABEL: func.func @bool_to_ui8
// CHECK: %[[INT0:.*]] = torch.constant.int 0
// CHECK: torch.aten.view.dtype %arg0, %[[INT0]] : !torch.vtensor<[],i1>, !torch.int -> !torch.vtensor<[],ui8>
func.func @bool_to_ui8(%x: !torch.vtensor<[],i1>) -> !torch.vtensor<[],ui8> attributes {torch.onnx_meta.opset_version = 26 : si64} {
  %0 = torch.operator "onnx.BitCast"(%x) {torch.onnx.to = 2 : si64} : (!torch.vtensor<[],i1>) -> !torch.vtensor<[],ui8>
  return %0 : !torch.vtensor<[],ui8>
}

// -----

// To the input's own dtype: the input.
// CHECK-LABEL: func.func @same_dtype
// CHECK-NOT: torch.aten.view.dtype
// CHECK: return %arg0
func.func @same_dtype(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> attributes {torch.onnx_meta.opset_version = 26 : si64} {
  %0 = torch.operator "onnx.BitCast"(%x) {torch.onnx.to = 1 : si64} : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

func.func @different_widths(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f16> attributes {torch.onnx_meta.opset_version = 26 : si64} {
  // expected-error @+1 {{'onnx.BitCast' (opset 26) could not be lowered to the torch dialect: the input and result dtypes must have the same bit width}}
  %0 = torch.operator "onnx.BitCast"(%x) {torch.onnx.to = 10 : si64} : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f16>
  return %0 : !torch.vtensor<[4],f16>
}
