// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// Reshape: 0 copies the input size, -1 stays for aten.view to infer.
// CHECK-LABEL: func.func @reshape_zero_and_minus_one
// CHECK: %[[SIZES:.*]] = torch.prim.ListConstruct %int2, %int-1
// CHECK: torch.aten.view %arg0, %[[SIZES]] : {{.*}} -> !torch.vtensor<[2,12],f32>
func.func @reshape_zero_and_minus_one(%x: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,12],f32> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %shape = torch.vtensor.literal(dense<[0, -1]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %0 = torch.operator "onnx.Reshape"(%x, %shape) : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,12],f32>
  return %0 : !torch.vtensor<[2,12],f32>
}

// -----

// A shape computed at run time: the static result sizes stand in.
// CHECK-LABEL: func.func @reshape_runtime_shape
// CHECK: %[[SIZES:.*]] = torch.prim.ListConstruct %int6, %int4
// CHECK: torch.aten.view %arg0, %[[SIZES]]
func.func @reshape_runtime_shape(%x: !torch.vtensor<[2,3,4],f32>, %s: !torch.vtensor<[2],si64>) -> !torch.vtensor<[6,4],f32> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %0 = torch.operator "onnx.Reshape"(%x, %s) : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[6,4],f32>
  return %0 : !torch.vtensor<[6,4],f32>
}

// -----

func.func @reshape_runtime_shape_dynamic(%x: !torch.vtensor<[2,3,4],f32>, %s: !torch.vtensor<[2],si64>) -> !torch.vtensor<[?,4],f32> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  // expected-error @+1 {{unsupported: the shape must be a constant (or the result sizes static)}}
  %0 = torch.operator "onnx.Reshape"(%x, %s) : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}

// -----

// Unsqueeze-13 takes axes as an input; with a dynamic dim one op per axis,
// inserted in ascending order of the normalized axes.
// CHECK-LABEL: func.func @unsqueeze_dynamic
// CHECK: %[[A:.*]] = torch.aten.unsqueeze %arg0, %int0 : {{.*}} -> !torch.vtensor<[1,?],f32>
// CHECK: torch.aten.unsqueeze %[[A]], %int2 : {{.*}} -> !torch.vtensor<[1,?,1],f32>
func.func @unsqueeze_dynamic(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[1,?,1],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %axes = torch.vtensor.literal(dense<[-1, 0]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %0 = torch.operator "onnx.Unsqueeze"(%x, %axes) : (!torch.vtensor<[?],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[1,?,1],f32>
  return %0 : !torch.vtensor<[1,?,1],f32>
}

// Squeeze-11 takes axes as an attribute; removed in descending order.
// CHECK-LABEL: func.func @squeeze_dynamic_opset11
// CHECK: %[[A:.*]] = torch.aten.squeeze.dim %arg0, %int2 : {{.*}} -> !torch.vtensor<[1,?],f32>
// CHECK: torch.aten.squeeze.dim %[[A]], %int0 : {{.*}} -> !torch.vtensor<[?],f32>
func.func @squeeze_dynamic_opset11(%x: !torch.vtensor<[1,?,1],f32>) -> !torch.vtensor<[?],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.Squeeze"(%x) {torch.onnx.axes = [0 : si64, -1 : si64]} : (!torch.vtensor<[1,?,1],f32>) -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// Slice: out-of-range bounds clamp (INT64_MAX end), negative starts count
// from the end; one aten.slice.Tensor per axis.
// CHECK-LABEL: func.func @slice_clamped
// CHECK: %[[A:.*]] = torch.aten.slice.Tensor %arg0, %int1, %int2, %int5, %int2 : {{.*}} -> !torch.vtensor<[3,2],f32>
// CHECK: torch.aten.slice.Tensor %[[A]], %int0, %int0, %int3, %int1 : {{.*}} -> !torch.vtensor<[3,2],f32>
func.func @slice_clamped(%x: !torch.vtensor<[3,5],f32>) -> !torch.vtensor<[3,2],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %starts = torch.vtensor.literal(dense<[-3, -10]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %ends = torch.vtensor.literal(dense<[9223372036854775807, 100]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %axes = torch.vtensor.literal(dense<[1, 0]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %steps = torch.vtensor.literal(dense<[2, 1]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %0 = torch.operator "onnx.Slice"(%x, %starts, %ends, %axes, %steps) : (!torch.vtensor<[3,5],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// A constant negative step: index_select of start + step * arange(n), the
// start (-1) wrapped to 4 and clamped to [0, 4] because the step is < 0.
// CHECK-LABEL: func.func @slice_negative_step
// CHECK: torch.aten.select.int
// CHECK: torch.aten.select.int
// CHECK: %[[STEP:[0-9]+]] = torch.aten.select.int
// CHECK: %[[AR:.*]] = torch.aten.arange.start_step %int0, %int5, %int1
// CHECK: %[[DOWN:.*]] = torch.aten.clamp %{{.*}}, %int0, %int4
// CHECK: %[[NEG:.*]] = torch.aten.lt.Scalar %[[STEP]], %int0
// CHECK: %[[START:.*]] = torch.aten.where.self %[[NEG]], %[[DOWN]], %{{.*}}
// CHECK: %[[MUL:.*]] = torch.aten.mul.Tensor %[[AR]], %[[STEP]]
// CHECK: %[[IDX:.*]] = torch.aten.add.Tensor %[[MUL]], %[[START]], %int1
// CHECK: torch.aten.index_select %arg0, %int0, %[[IDX]] : {{.*}} -> !torch.vtensor<[5],f32>
func.func @slice_negative_step(%x: !torch.vtensor<[5],f32>) -> !torch.vtensor<[5],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %s = torch.vtensor.literal(dense<[-1]> : tensor<1xi64>) : !torch.vtensor<[1],si64>
  %e = torch.vtensor.literal(dense<[-100]> : tensor<1xi64>) : !torch.vtensor<[1],si64>
  %a = torch.vtensor.literal(dense<[0]> : tensor<1xi64>) : !torch.vtensor<[1],si64>
  %0 = torch.operator "onnx.Slice"(%x, %s, %e, %a, %s) : (!torch.vtensor<[5],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}

// -----

// Starts, axes and steps computed at run time: every dim picks its entry
// of axes (wrapped) with a mask; start = sum(mask * starts), step =
// sum(mask * steps) + 1 - sum(mask); one index_select per dim, of the
// static result size.
// CHECK-LABEL: func.func @slice_runtime
// CHECK: %[[AXES:.*]] = torch.aten.where.self
// CHECK: %[[M0:.*]] = torch.aten.eq.Scalar %[[AXES]], %int0
// CHECK: %[[M0I:.*]] = torch.aten.to.dtype %[[M0]], %int4
// CHECK: torch.aten.mul.Tensor %[[M0I]], %arg1
// CHECK: torch.aten.rsub.Scalar
// CHECK: torch.aten.arange.start_step %int0, %int4, %int1
// CHECK: %[[R0:.*]] = torch.aten.index_select %arg0, %int0, %{{.*}} : {{.*}} -> !torch.vtensor<[4,6],f32>
// CHECK: torch.aten.eq.Scalar %[[AXES]], %int1
// CHECK: torch.aten.arange.start_step %int0, %int2, %int1
// CHECK: torch.aten.index_select %[[R0]], %int1, %{{.*}} : {{.*}} -> !torch.vtensor<[4,2],f32>
func.func @slice_runtime(%x: !torch.vtensor<[4,6],f32>, %starts: !torch.vtensor<[1],si64>, %ends: !torch.vtensor<[1],si64>, %axes: !torch.vtensor<[1],si64>, %steps: !torch.vtensor<[1],si64>) -> !torch.vtensor<[4,2],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Slice"(%x, %starts, %ends, %axes, %steps) : (!torch.vtensor<[4,6],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[4,2],f32>
  return %0 : !torch.vtensor<[4,2],f32>
}

// -----

// Run-time bounds need static input and result sizes.
func.func @slice_runtime_dynamic(%x: !torch.vtensor<[?,6],f32>, %starts: !torch.vtensor<[1],si64>, %ends: !torch.vtensor<[1],si64>) -> !torch.vtensor<[?,2],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  // expected-error @+1 {{unsupported: starts/ends/axes/steps computed at run time with dynamic input, result or starts sizes}}
  %0 = torch.operator "onnx.Slice"(%x, %starts, %ends) : (!torch.vtensor<[?,6],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[?,2],f32>
  return %0 : !torch.vtensor<[?,2],f32>
}

// -----

// Gather with a scalar index is select (negative index wrapped); with an
// index tensor, index_select of the flattened indices, viewed to the result.
// CHECK-LABEL: func.func @gather_scalar
// CHECK: torch.aten.select.int %arg0, %int1, %int3 : {{.*}} -> !torch.vtensor<[2],f32>
func.func @gather_scalar(%x: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %i = torch.vtensor.literal(dense<-1> : tensor<i64>) : !torch.vtensor<[],si64>
  %0 = torch.operator "onnx.Gather"(%x, %i) {torch.onnx.axis = 1 : si64} : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[],si64>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// CHECK-LABEL: func.func @gather_tensor
// CHECK: %[[IDX:.*]] = torch.vtensor.literal(dense<[3, 0, 1, 3]> : tensor<4xi64>) : !torch.vtensor<[4],si64>
// CHECK: %[[SEL:.*]] = torch.aten.index_select %arg0, %int0, %[[IDX]] : {{.*}} -> !torch.vtensor<[4,3],f32>
// CHECK: torch.aten.view %[[SEL]], {{.*}} -> !torch.vtensor<[2,2,3],f32>
func.func @gather_tensor(%x: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[2,2,3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %i = torch.vtensor.literal(dense<[[-1, 0], [1, 3]]> : tensor<2x2xi64>) : !torch.vtensor<[2,2],si64>
  %0 = torch.operator "onnx.Gather"(%x, %i) : (!torch.vtensor<[4,3],f32>, !torch.vtensor<[2,2],si64>) -> !torch.vtensor<[2,2,3],f32>
  return %0 : !torch.vtensor<[2,2,3],f32>
}

// -----

// Constant forms: a tensor value, and value_ints.
// CHECK-LABEL: func.func @constants
// CHECK: torch.vtensor.literal(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
// CHECK: torch.vtensor.literal(dense<[4, 5, 6]> : tensor<3xi64>) : !torch.vtensor<[3],si64>
func.func @constants() -> (!torch.vtensor<[2],f32>, !torch.vtensor<[3],si64>) attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> !torch.vtensor<[2],f32>
  %1 = torch.operator "onnx.Constant"() {torch.onnx.value_ints = [4 : si64, 5 : si64, 6 : si64]} : () -> !torch.vtensor<[3],si64>
  return %0, %1 : !torch.vtensor<[2],f32>, !torch.vtensor<[3],si64>
}

// -----

// Shape-15 with start/end of a static tensor is a literal.
// CHECK-LABEL: func.func @shape_start_end
// CHECK: torch.vtensor.literal(dense<[3, 4]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
func.func @shape_start_end(%x: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2],si64> attributes {torch.onnx_meta.opset_version = 15 : si64} {
  %0 = torch.operator "onnx.Shape"(%x) {torch.onnx.start = -2 : si64} : (!torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}

// -----

// Indices computed at run time: flattened, negative ones wrapped, then
// index_select and a view to the result.
// CHECK-LABEL: func.func @gather_runtime
// CHECK: %[[FLAT:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[NEG:.*]] = torch.aten.lt.Scalar %[[FLAT]], %int0 : {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: %[[UP:.*]] = torch.aten.add.Scalar %[[FLAT]], %int5, %int1
// CHECK: %[[IDX:.*]] = torch.aten.where.self %[[NEG]], %[[UP]], %[[FLAT]]
// CHECK: %[[SEL:.*]] = torch.aten.index_select %arg0, %int1, %[[IDX]] : {{.*}} -> !torch.vtensor<[3,4],f32>
// CHECK: torch.aten.view %[[SEL]], {{.*}} -> !torch.vtensor<[3,2,2],f32>
func.func @gather_runtime(%x: !torch.vtensor<[3,5],f32>, %i: !torch.vtensor<[2,2],si64>) -> !torch.vtensor<[3,2,2],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Gather"(%x, %i) {torch.onnx.axis = 1 : si64} : (!torch.vtensor<[3,5],f32>, !torch.vtensor<[2,2],si64>) -> !torch.vtensor<[3,2,2],f32>
  return %0 : !torch.vtensor<[3,2,2],f32>
}

// -----

// CenterCropPad: dim 0 cropped 20 -> 10 from (20 - 10) / 2 = 5; dim 1
// padded 8 -> 11, the odd pixel on the right (pads listed last dim first).
// CHECK-LABEL: func.func @center_crop_pad
// CHECK: %[[CROP:.*]] = torch.aten.slice.Tensor %arg0, %int0, %int5, %int15, %int1 : {{.*}} -> !torch.vtensor<[10,8,3],f32>
// CHECK: %[[PADS:.*]] = torch.prim.ListConstruct %int0, %int0, %int1, %int2, %int0, %int0
// CHECK: torch.aten.constant_pad_nd %[[CROP]], %[[PADS]], %{{.*}} : {{.*}} -> !torch.vtensor<[10,11,3],f32>
func.func @center_crop_pad(%x: !torch.vtensor<[20,8,3],f32>, %shape: !torch.vtensor<[3],si64>) -> !torch.vtensor<[10,11,3],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.CenterCropPad"(%x, %shape) : (!torch.vtensor<[20,8,3],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[10,11,3],f32>
  return %0 : !torch.vtensor<[10,11,3],f32>
}

// -----

// A dim outside `axes` must keep its size.
func.func @center_crop_pad_not_in_axes(%x: !torch.vtensor<[20,8],f32>, %shape: !torch.vtensor<[1],si64>) -> !torch.vtensor<[10,4],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  // expected-error @+1 {{the result size of a dim not in 'axes' differs from the input's}}
  %0 = torch.operator "onnx.CenterCropPad"(%x, %shape) {torch.onnx.axes = [0 : si64]} : (!torch.vtensor<[20,8],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[10,4],f32>
  return %0 : !torch.vtensor<[10,4],f32>
}

// -----

// ReverseSequence (time axis 0, batch axis 1): gather along time of
// where(t < lens[b], lens[b] - 1 - t, t), computed on [T, B, 1] and
// expanded over the feature dim.
// CHECK-LABEL: func.func @reverse_sequence
// CHECK: %[[LENS:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[1,3,1],si64>
// CHECK: %[[T:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[4,1,1],si64>
// CHECK: %[[LAST:.*]] = torch.aten.sub.Scalar %[[LENS]], %int1, %int1
// CHECK: %[[REV:.*]] = torch.aten.sub.Tensor %[[LAST]], %[[T]], %int1 : {{.*}} -> !torch.vtensor<[4,3,1],si64>
// CHECK: %[[IN:.*]] = torch.aten.lt.Tensor %[[T]], %[[LENS]]
// CHECK: %[[IDX:.*]] = torch.aten.where.self %[[IN]], %[[REV]], %[[T]]
// CHECK: %[[FULL:.*]] = torch.aten.expand %[[IDX]]
// CHECK: torch.aten.gather %arg0, %int0, %[[FULL]], %false : {{.*}} -> !torch.vtensor<[4,3,2],f32>
func.func @reverse_sequence(%x: !torch.vtensor<[4,3,2],f32>, %lens: !torch.vtensor<[3],si64>) -> !torch.vtensor<[4,3,2],f32> attributes {torch.onnx_meta.opset_version = 10 : si64} {
  %0 = torch.operator "onnx.ReverseSequence"(%x, %lens) {torch.onnx.batch_axis = 1 : si64, torch.onnx.time_axis = 0 : si64} : (!torch.vtensor<[4,3,2],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[4,3,2],f32>
  return %0 : !torch.vtensor<[4,3,2],f32>
}

// -----

func.func @reverse_sequence_same_axes(%x: !torch.vtensor<[4,3],f32>, %lens: !torch.vtensor<[3],si64>) -> !torch.vtensor<[4,3],f32> attributes {torch.onnx_meta.opset_version = 10 : si64} {
  // expected-error @+1 {{batch_axis and time_axis must be 0 and 1 (or 1 and 0)}}
  %0 = torch.operator "onnx.ReverseSequence"(%x, %lens) {torch.onnx.batch_axis = 0 : si64, torch.onnx.time_axis = 0 : si64} : (!torch.vtensor<[4,3],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}
