// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @bitwise
// CHECK: torch.aten.bitwise_and.Tensor %arg0, %arg1 : {{.*}} -> !torch.vtensor<[2,3],si16>
// CHECK: torch.aten.bitwise_or.Tensor %arg0, %arg1
// CHECK: torch.aten.bitwise_xor.Tensor %arg0, %arg1
// CHECK: torch.aten.bitwise_not %arg0
func.func @bitwise(%a: !torch.vtensor<[2,3],si16>, %b: !torch.vtensor<[3],si16>) -> (!torch.vtensor<[2,3],si16>, !torch.vtensor<[2,3],si16>, !torch.vtensor<[2,3],si16>, !torch.vtensor<[2,3],si16>) attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.BitwiseAnd"(%a, %b) : (!torch.vtensor<[2,3],si16>, !torch.vtensor<[3],si16>) -> !torch.vtensor<[2,3],si16>
  %1 = torch.operator "onnx.BitwiseOr"(%a, %b) : (!torch.vtensor<[2,3],si16>, !torch.vtensor<[3],si16>) -> !torch.vtensor<[2,3],si16>
  %2 = torch.operator "onnx.BitwiseXor"(%a, %b) : (!torch.vtensor<[2,3],si16>, !torch.vtensor<[3],si16>) -> !torch.vtensor<[2,3],si16>
  %3 = torch.operator "onnx.BitwiseNot"(%a) : (!torch.vtensor<[2,3],si16>) -> !torch.vtensor<[2,3],si16>
  return %0, %1, %2, %3 : !torch.vtensor<[2,3],si16>, !torch.vtensor<[2,3],si16>, !torch.vtensor<[2,3],si16>, !torch.vtensor<[2,3],si16>
}

// -----

// A left shift by an amount outside [0, 8) gives 0.
// CHECK-LABEL: func.func @shift_left
// CHECK: %[[ZERO:.*]] = torch.vtensor.literal(dense<0> : tensor<i8>)
// CHECK: %[[GE:.*]] = torch.aten.ge.Scalar %arg1, %int0
// CHECK: %[[LT:.*]] = torch.aten.lt.Scalar %arg1, %int8
// CHECK: %[[VALID:.*]] = torch.aten.logical_and %[[GE]], %[[LT]]
// CHECK: %[[AMOUNT:.*]] = torch.aten.where.self %[[VALID]], %arg1, %[[ZERO]]
// CHECK: %[[SHIFTED:.*]] = torch.aten.bitwise_left_shift.Tensor %arg0, %[[AMOUNT]]
// CHECK: torch.aten.where.self %[[VALID]], %[[SHIFTED]], %[[ZERO]]
func.func @shift_left(%x: !torch.vtensor<[3],si8>, %y: !torch.vtensor<[3],si8>) -> !torch.vtensor<[3],si8> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.BitShift"(%x, %y) {torch.onnx.direction = "LEFT"} : (!torch.vtensor<[3],si8>, !torch.vtensor<[3],si8>) -> !torch.vtensor<[3],si8>
  return %0 : !torch.vtensor<[3],si8>
}

// -----

// A signed right shift by an amount outside [0, 32) fills with the sign:
// the arithmetic shift by 31.
// CHECK-LABEL: func.func @shift_right_signed
// CHECK: %[[MAX:.*]] = torch.vtensor.literal(dense<31> : tensor<i32>)
// CHECK: %[[VALID:.*]] = torch.aten.logical_and
// CHECK: %[[AMOUNT:.*]] = torch.aten.where.self %[[VALID]], %arg1, %[[MAX]]
// CHECK: %[[SHIFTED:.*]] = torch.aten.bitwise_right_shift.Tensor %arg0, %[[AMOUNT]]
// CHECK: return %[[SHIFTED]]
func.func @shift_right_signed(%x: !torch.vtensor<[3],si32>, %y: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.BitShift"(%x, %y) {torch.onnx.direction = "RIGHT"} : (!torch.vtensor<[3],si32>, !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}

// -----

func.func @shift_bad_direction(%x: !torch.vtensor<[3],si32>, %y: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  // expected-error @+1 {{direction must be LEFT or RIGHT}}
  %0 = torch.operator "onnx.BitShift"(%x, %y) {torch.onnx.direction = "UP"} : (!torch.vtensor<[3],si32>, !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}

// -----

// CHECK-LABEL: func.func @inverse_trigonometry
// CHECK: torch.aten.asin %arg0
// CHECK: torch.aten.acos %arg0
// CHECK: torch.aten.atan %arg0
func.func @inverse_trigonometry(%x: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) attributes {torch.onnx_meta.opset_version = 7 : si64} {
  %0 = torch.operator "onnx.Asin"(%x) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  %1 = torch.operator "onnx.Acos"(%x) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  %2 = torch.operator "onnx.Atan"(%x) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0, %1, %2 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
}
