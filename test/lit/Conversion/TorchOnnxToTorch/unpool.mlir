// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// MaxUnpool: X scattered into zeros of the default output [1, 1, 4, 4] at
// the flat Indices; the larger output (output_shape, known only at run
// time, and the result type) pads that with zeros at the end.
// CHECK-LABEL: func.func @maxunpool_output_shape
// CHECK: %[[I:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[4],f32>
// CHECK: %[[Z:.*]] = torch.aten.zeros {{.*}} -> !torch.vtensor<[16],f32>
// CHECK: %[[S:.*]] = torch.aten.scatter.src %[[Z]], %int0, %[[I]], %[[X]] : {{.*}} -> !torch.vtensor<[16],f32>
// CHECK: %[[V:.*]] = torch.aten.view %[[S]], {{.*}} -> !torch.vtensor<[1,1,4,4],f32>
// CHECK: %[[PADS:.*]] = torch.prim.ListConstruct %int0, %int1, %int0, %int1
// CHECK: %[[R:.*]] = torch.aten.constant_pad_nd %[[V]], %[[PADS]], %{{.*}} -> !torch.vtensor<[1,1,5,5],f32>
// CHECK: return %[[R]]
func.func @maxunpool_output_shape(%x: !torch.vtensor<[1,1,2,2],f32>, %i: !torch.vtensor<[1,1,2,2],si64>, %s: !torch.vtensor<[4],si64>) -> !torch.vtensor<[1,1,5,5],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.MaxUnpool"(%x, %i, %s) {torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>, !torch.vtensor<[4],si64>) -> !torch.vtensor<[1,1,5,5],f32>
  return %0 : !torch.vtensor<[1,1,5,5],f32>
}

// -----

// pads shrink the default output: (3 - 1) * 2 - 1 - 0 + 2 = 5 per dim.
// CHECK-LABEL: func.func @maxunpool_pads
// CHECK: torch.aten.scatter.src {{.*}} -> !torch.vtensor<[50],f32>
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[2,1,5,5],f32>
func.func @maxunpool_pads(%x: !torch.vtensor<[2,1,3,3],f32>, %i: !torch.vtensor<[2,1,3,3],si64>) -> !torch.vtensor<[2,1,5,5],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.MaxUnpool"(%x, %i) {torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.pads = [1 : si64, 1 : si64, 0 : si64, 0 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[2,1,3,3],f32>, !torch.vtensor<[2,1,3,3],si64>) -> !torch.vtensor<[2,1,5,5],f32>
  return %0 : !torch.vtensor<[2,1,5,5],f32>
}

// -----

func.func @maxunpool_small_output(%x: !torch.vtensor<[1,1,2,2],f32>, %i: !torch.vtensor<[1,1,2,2],si64>) -> !torch.vtensor<[1,1,3,3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{'onnx.MaxUnpool' (opset 22) could not be lowered to the torch dialect: unsupported: an output smaller than the default unpooled size, or with other N or C}}
  %0 = torch.operator "onnx.MaxUnpool"(%x, %i) {torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>) -> !torch.vtensor<[1,1,3,3],f32>
  return %0 : !torch.vtensor<[1,1,3,3],f32>
}

// -----

// Col2Im with block_shape known at run time: the tap and block numbers
// are unravelled (last dim first) by its values, clamped to at least 1;
// the blocks along dim 1 number (6 - 1 * (b - 1) - 1) / 1 + 1 (pads 1 + 0
// around 5), along dim 0 (4 - 1 * (b - 1) - 1) / 2 + 1 (stride 2).
// CHECK-LABEL: func.func @col2im_runtime_block
// CHECK-DAG: %[[FLOOR:.*]] = torch.constant.str "floor"
// CHECK-DAG: %[[TAPS:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[4,1],si64>
// CHECK-DAG: %[[BLOCKS:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[1,10],si64>
// CHECK: %[[B1:.*]] = torch.aten.select.int %arg2, %int0, %int1 : {{.*}} -> !torch.vtensor<[],si64>
// CHECK: %[[B1C:.*]] = torch.aten.clamp %[[B1]], %int1, %none
// CHECK: %[[N1:.*]] = torch.aten.mul.Scalar %[[B1C]], %int-1
// CHECK: %[[N1A:.*]] = torch.aten.add.Scalar %[[N1]], %int6, %int1
// CHECK: %[[N1B:.*]] = torch.aten.div.Scalar_mode %[[N1A]], %int1, %[[FLOOR]]
// CHECK: torch.aten.remainder.Tensor %[[TAPS]], %[[B1C]] : !torch.vtensor<[4,1],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[4,1],si64>
// CHECK: torch.aten.div.Tensor_mode %[[TAPS]], %[[B1C]], %[[FLOOR]]
// Dim 1 starts 1 before the image (pads_begin), dim 0 strides by 2.
// CHECK: %[[P1:.*]] = torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[4,10],si64>
// CHECK: %[[Q1:.*]] = torch.aten.sub.Scalar %[[P1]], %int1, %int1
// CHECK: torch.aten.lt.Scalar %[[Q1]], %int5
// CHECK: torch.aten.select.int %arg2, %int0, %int0
// CHECK: torch.aten.div.Scalar_mode %{{.*}}, %int2, %[[FLOOR]]
// CHECK: torch.aten.mul.Scalar %{{.*}}, %int2 : !torch.vtensor<[1,10],si64>
// CHECK: %[[P0:.*]] = torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[4,10],si64>
// CHECK: torch.aten.lt.Scalar %[[P0]], %int4
// CHECK: torch.aten.logical_and
// CHECK: %[[VALID:.*]] = torch.aten.logical_and
// CHECK: %[[ROW:.*]] = torch.aten.mul.Scalar %[[P0]], %int5
// CHECK: %[[FLAT:.*]] = torch.aten.add.Tensor %[[Q1]], %[[ROW]], %int1
// Dropped taps go to slot 20, past the 4 x 5 image.
// CHECK: %[[INDEX:.*]] = torch.aten.where.ScalarOther %[[VALID]], %[[FLAT]], %int20
// CHECK: %[[SUM:.*]] = torch.aten.scatter_add %{{.*}}, %int2, %{{.*}}, %{{.*}} : !torch.vtensor<[1,1,21],f32>, !torch.int, !torch.vtensor<[1,1,40],si64>, !torch.vtensor<[1,1,40],f32> -> !torch.vtensor<[1,1,21],f32>
// CHECK: %[[IMAGE:.*]] = torch.aten.slice.Tensor %[[SUM]], %int2, %int0, %int20, %int1
// CHECK: torch.aten.view %[[IMAGE]], {{.*}} -> !torch.vtensor<[1,1,4,5],f32>
func.func @col2im_runtime_block(%x: !torch.vtensor<[1,4,10],f32>, %img: !torch.vtensor<[2],si64>, %blk: !torch.vtensor<[2],si64>) -> !torch.vtensor<[1,1,4,5],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.Col2Im"(%x, %img, %blk) {torch.onnx.strides = [2 : si64, 1 : si64], torch.onnx.pads = [0 : si64, 1 : si64, 0 : si64, 0 : si64]} : (!torch.vtensor<[1,4,10],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[1,1,4,5],f32>
  return %0 : !torch.vtensor<[1,1,4,5],f32>
}

// -----

// A constant block_shape: literal block sizes, no clamps; dilations scale
// the taps.
// CHECK-LABEL: func.func @col2im_constant_block
// CHECK-NOT: torch.aten.clamp
// CHECK: torch.vtensor.literal(dense<3> : tensor<i64>) : !torch.vtensor<[],si64>
// CHECK: torch.aten.mul.Scalar %{{.*}}, %int2 : !torch.vtensor<[9,1],si64>
// CHECK: torch.aten.scatter_add {{.*}} -> !torch.vtensor<[2,3,50],f32>
func.func @col2im_constant_block(%x: !torch.vtensor<[2,27,1],f32>, %img: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,3,7,7],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %blk = torch.vtensor.literal(dense<3> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %0 = torch.operator "onnx.Col2Im"(%x, %img, %blk) {torch.onnx.dilations = [2 : si64, 2 : si64], torch.onnx.strides = [3 : si64, 3 : si64]} : (!torch.vtensor<[2,27,1],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,3,7,7],f32>
  return %0 : !torch.vtensor<[2,3,7,7],f32>
}

// -----

func.func @col2im_block_mismatch(%x: !torch.vtensor<[1,4,16],f32>, %img: !torch.vtensor<[2],si64>) -> !torch.vtensor<[1,1,5,5],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %blk = torch.vtensor.literal(dense<[1, 4]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  // expected-error @+1 {{'onnx.Col2Im' (opset 18) could not be lowered to the torch dialect: the input sizes do not match block_shape and the number of blocks}}
  %0 = torch.operator "onnx.Col2Im"(%x, %img, %blk) : (!torch.vtensor<[1,4,16],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[1,1,5,5],f32>
  return %0 : !torch.vtensor<[1,1,5,5],f32>
}

// -----

func.func @col2im_dynamic(%x: !torch.vtensor<[?,4,16],f32>, %img: !torch.vtensor<[2],si64>, %blk: !torch.vtensor<[2],si64>) -> !torch.vtensor<[?,1,5,5],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  // expected-error @+1 {{'onnx.Col2Im' (opset 18) could not be lowered to the torch dialect: needs static input and result sizes and known dtypes}}
  %0 = torch.operator "onnx.Col2Im"(%x, %img, %blk) : (!torch.vtensor<[?,4,16],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[?,1,5,5],f32>
  return %0 : !torch.vtensor<[?,1,5,5],f32>
}
