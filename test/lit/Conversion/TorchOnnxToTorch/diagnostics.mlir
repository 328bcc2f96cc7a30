// RUN: not torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file 2>&1 | FileCheck %s

// The error names the op, the opset, the ONNX node (the importer's NameLoc),
// the reason and the way out.

// CHECK: error: loc("{{[a-z0-9]*}}"): 'onnx.BatchNormalization' (opset 7, node 'bn0') could not be lowered to the torch dialect: unsupported: spatial=0; convert the model to another opset (--opset-version) or report the op
func.func @batchnorm_not_spatial(%x: !torch.vtensor<[1,2],f32>, %s: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,2],f32> attributes {torch.onnx_meta.opset_version = 7 : si64} {
  %0 = torch.operator "onnx.BatchNormalization"(%x, %s, %s, %s, %s) {torch.onnx.spatial = 0 : si64} : (!torch.vtensor<[1,2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,2],f32> loc("bn0")
  return %0 : !torch.vtensor<[1,2],f32>
}

// -----

// An op without any lowering.
// CHECK: error: loc("{{[a-z0-9]*}}"): 'onnx.NoSuchOp' (opset 17, node 'n1') could not be lowered to the torch dialect: no lowering for this op
func.func @unknown(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.operator "onnx.NoSuchOp"(%x) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> loc("n1")
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// An op whose lowerings all start at a later opset (GreaterOrEqual-12).
// CHECK: error: loc("{{[a-z0-9]*}}"): 'onnx.GreaterOrEqual' (opset 11, node 'ge') could not be lowered to the torch dialect: no lowering for this opset version
func.func @too_old(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],i1> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.GreaterOrEqual"(%x, %x) : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],i1> loc("ge")
  return %0 : !torch.vtensor<[2],i1>
}

// -----

// A recurrence over a dynamic sequence length cannot be unrolled.
// CHECK: error: loc("{{[a-z0-9]*}}"): 'onnx.LSTM' (opset 22, node 'lstm0') could not be lowered to the torch dialect: unsupported: X has dynamic sizes; the recurrence is unrolled over time and needs a static sequence length and batch size; convert the model to another opset (--opset-version) or report the op
func.func @lstm_dynamic_sequence(%x: !torch.vtensor<[?,1,2],f32>, %w: !torch.vtensor<[1,12,2],f32>, %r: !torch.vtensor<[1,12,3],f32>) -> !torch.vtensor<[1,1,3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0:2 = torch.operator "onnx.LSTM"(%x, %w, %r) {torch.onnx.hidden_size = 3 : si64} : (!torch.vtensor<[?,1,2],f32>, !torch.vtensor<[1,12,2],f32>, !torch.vtensor<[1,12,3],f32>) -> (!torch.vtensor, !torch.vtensor<[1,1,3],f32>) loc("lstm0")
  return %0#1 : !torch.vtensor<[1,1,3],f32>
}

// -----

// Custom domains are left alone (no error from this pass).
// CHECK-NOT: error
// CHECK: func.func @custom_domain
// CHECK: torch.operator "com.example.Foo"
func.func @custom_domain(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.operator "com.example.Foo"(%x) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}
