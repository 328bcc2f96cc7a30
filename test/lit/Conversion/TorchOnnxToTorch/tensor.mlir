// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// Split-18 with num_outputs and an uneven dim: parts of ceil(7/3) = 3.
// CHECK-LABEL: func.func @split_num_outputs
// CHECK: torch.aten.slice.Tensor %arg0, %int1, %int0, %int3, %int1 : {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK: torch.aten.slice.Tensor %arg0, %int1, %int3, %int6, %int1 : {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK: torch.aten.slice.Tensor %arg0, %int1, %int6, %int7, %int1 : {{.*}} -> !torch.vtensor<[2,1],f32>
func.func @split_num_outputs(%x: !torch.vtensor<[2,7],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,1],f32>) attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0:3 = torch.operator "onnx.Split"(%x) {torch.onnx.axis = 1 : si64, torch.onnx.num_outputs = 3 : si64} : (!torch.vtensor<[2,7],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,1],f32>)
  return %0#0, %0#1, %0#2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,1],f32>
}

// -----

// Split-13 with split sizes computed at run time: the static output sizes.
// CHECK-LABEL: func.func @split_runtime_sizes
// CHECK: torch.aten.slice.Tensor %arg0, %int0, %int0, %int2, %int1 : {{.*}} -> !torch.vtensor<[2],f32>
// CHECK: torch.aten.slice.Tensor %arg0, %int0, %int2, %int6, %int1 : {{.*}} -> !torch.vtensor<[4],f32>
func.func @split_runtime_sizes(%x: !torch.vtensor<[6],f32>, %s: !torch.vtensor<[2],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>) attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0:2 = torch.operator "onnx.Split"(%x, %s) : (!torch.vtensor<[6],f32>, !torch.vtensor<[2],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>)
  return %0#0, %0#1 : !torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>
}

// -----

func.func @split_dynamic(%x: !torch.vtensor<[?],f32>, %s: !torch.vtensor<[2],si64>) -> (!torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>) attributes {torch.onnx_meta.opset_version = 13 : si64} {
  // expected-error @+1 {{unsupported: split sizes computed at run time}}
  %0:2 = torch.operator "onnx.Split"(%x, %s) : (!torch.vtensor<[?],f32>, !torch.vtensor<[2],si64>) -> (!torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>)
  return %0#0, %0#1 : !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>
}

// -----

// Trilu lower with k computed at run time.
// CHECK-LABEL: func.func @tril_runtime_k
// CHECK: %[[ZERO:.*]] = torch.vtensor.literal(dense<0> : tensor<i64>) : !torch.vtensor<[],si64>
// CHECK: %[[ROWS:.*]] = torch.aten.arange.start_step %int0, %int4, %int1, %int4
// CHECK: %[[ROW:.*]] = torch.aten.view %[[ROWS]], {{.*}} -> !torch.vtensor<[4,1],si64>
// CHECK: %[[COLS:.*]] = torch.aten.arange.start_step %int0, %int5, %int1, %int4
// CHECK: %[[COL:.*]] = torch.aten.view %[[COLS]], {{.*}} -> !torch.vtensor<[1,5],si64>
// CHECK: %[[DIFF:.*]] = torch.aten.sub.Tensor %[[COL]], %[[ROW]], %int1 : {{.*}} -> !torch.vtensor<[4,5],si64>
// CHECK: %[[KEEP:.*]] = torch.aten.le.Tensor %[[DIFF]], %arg1
// CHECK: torch.aten.where.self %[[KEEP]], %arg0, %[[ZERO]]
func.func @tril_runtime_k(%x: !torch.vtensor<[4,5],si64>, %k: !torch.vtensor<[],si64>) -> !torch.vtensor<[4,5],si64> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %0 = torch.operator "onnx.Trilu"(%x, %k) {torch.onnx.upper = 0 : si64} : (!torch.vtensor<[4,5],si64>, !torch.vtensor<[],si64>) -> !torch.vtensor<[4,5],si64>
  return %0 : !torch.vtensor<[4,5],si64>
}

// -----

// Tile: repeats = result / input sizes = [2, 1], by view + expand + view.
// CHECK-LABEL: func.func @tile
// CHECK: %[[V:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,2,1,3],f32>
// CHECK: %[[E:.*]] = torch.aten.expand %[[V]], {{.*}} -> !torch.vtensor<[2,2,1,3],f32>
// CHECK: torch.aten.view %[[E]], {{.*}} -> !torch.vtensor<[4,3],f32>
func.func @tile(%x: !torch.vtensor<[2,3],f32>, %r: !torch.vtensor<[2],si64>) -> !torch.vtensor<[4,3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Tile"(%x, %r) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

// Pad with constant pads and value: aten.constant_pad_nd, last dim first.
// CHECK-LABEL: func.func @pad_constant
// CHECK: %[[VALUE:.*]] = torch.constant.float 1.2000000476837158
// CHECK: %[[PADS:.*]] = torch.prim.ListConstruct %int3, %int4, %int1, %int2, %int0, %int0, %int0, %int0
// CHECK: torch.aten.constant_pad_nd %arg0, %[[PADS]], %[[VALUE]]
func.func @pad_constant(%x: !torch.vtensor<[1,3,4,5],f32>) -> !torch.vtensor<[1,3,7,12],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %pads = torch.vtensor.literal(dense<[0, 0, 1, 3, 0, 0, 2, 4]> : tensor<8xsi64>) : !torch.vtensor<[8],si64>
  %value = torch.vtensor.literal(dense<1.2> : tensor<f32>) : !torch.vtensor<[],f32>
  %0 = torch.operator "onnx.Pad"(%x, %pads, %value) : (!torch.vtensor<[1,3,4,5],f32>, !torch.vtensor<[8],si64>, !torch.vtensor<[],f32>) -> !torch.vtensor<[1,3,7,12],f32>
  return %0 : !torch.vtensor<[1,3,7,12],f32>
}

// -----

// Edge padding with pads computed at run time: clamped source indices.
// CHECK-LABEL: func.func @pad_edge_runtime
// CHECK: %[[BEGIN0:.*]] = torch.aten.select.int %arg1, %int0, %int0
// CHECK: %[[POS0:.*]] = torch.aten.arange.start_step %int0, %int2
// CHECK: %[[SRC0:.*]] = torch.aten.sub.Tensor %[[POS0]], %[[BEGIN0]]
// CHECK: %[[IDX0:.*]] = torch.aten.clamp %[[SRC0]], %int0, %int1
// CHECK: %[[ROWS:.*]] = torch.aten.index_select %arg0, %int0, %[[IDX0]]
// CHECK: %[[BEGIN1:.*]] = torch.aten.select.int %arg1, %int0, %int1
// CHECK: %[[POS1:.*]] = torch.aten.arange.start_step %int0, %int6
// CHECK: %[[SRC1:.*]] = torch.aten.sub.Tensor %[[POS1]], %[[BEGIN1]]
// CHECK: %[[IDX1:.*]] = torch.aten.clamp %[[SRC1]], %int0, %int2
// CHECK: torch.aten.index_select %[[ROWS]], %int1, %[[IDX1]] : {{.*}} -> !torch.vtensor<[2,6],si32>
func.func @pad_edge_runtime(%x: !torch.vtensor<[2,3],si32>, %pads: !torch.vtensor<[4],si64>) -> !torch.vtensor<[2,6],si32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %0 = torch.operator "onnx.Pad"(%x, %pads) {torch.onnx.mode = "edge"} : (!torch.vtensor<[2,3],si32>, !torch.vtensor<[4],si64>) -> !torch.vtensor<[2,6],si32>
  return %0 : !torch.vtensor<[2,6],si32>
}

// -----

func.func @pad_runtime_axes(%x: !torch.vtensor<[2,3],f32>, %pads: !torch.vtensor<[2],si64>, %axes: !torch.vtensor<[1],si64>) -> !torch.vtensor<[2,6],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %none = torch.constant.none
  // expected-error @+1 {{unsupported: axes computed at run time}}
  %0 = torch.operator "onnx.Pad"(%x, %pads, %none, %axes) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2],si64>, !torch.none, !torch.vtensor<[1],si64>) -> !torch.vtensor<[2,6],f32>
  return %0 : !torch.vtensor<[2,6],f32>
}

// -----

// Range: start + arange(n) * delta, n from the static result size.
// CHECK-LABEL: func.func @range
// CHECK: %[[STEPS:.*]] = torch.aten.arange.start_step %int0, %int2
// CHECK: %[[F:.*]] = torch.aten.to.dtype %[[STEPS]]
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Tensor %[[F]], %arg2
// CHECK: torch.aten.add.Tensor %[[SCALED]], %arg0
func.func @range(%start: !torch.vtensor<[],f32>, %limit: !torch.vtensor<[],f32>, %delta: !torch.vtensor<[],f32>) -> !torch.vtensor<[2],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.Range"(%start, %limit, %delta) : (!torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// Literal bounds give the size of a dynamic result: ceil((10 - 1) / 3) = 3.
// CHECK-LABEL: func.func @range_literal
// CHECK: torch.aten.arange.start_step %int0, %int3, {{.*}} -> !torch.vtensor<[3],si64>
// CHECK: torch.tensor_static_info_cast %{{.*}} : !torch.vtensor<[3],si64> to !torch.vtensor<[?],si64>
func.func @range_literal(%x: !torch.vtensor<[],si64>) -> !torch.vtensor<[?],si64> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %start = torch.vtensor.literal(dense<1> : tensor<si64>) : !torch.vtensor<[],si64>
  %limit = torch.vtensor.literal(dense<10> : tensor<si64>) : !torch.vtensor<[],si64>
  %delta = torch.vtensor.literal(dense<3> : tensor<si64>) : !torch.vtensor<[],si64>
  %0 = torch.operator "onnx.Range"(%start, %limit, %delta) : (!torch.vtensor<[],si64>, !torch.vtensor<[],si64>, !torch.vtensor<[],si64>) -> !torch.vtensor<[?],si64>
  return %0 : !torch.vtensor<[?],si64>
}

// -----

// CHECK-LABEL: func.func @size
// CHECK: %[[N:.*]] = torch.vtensor.literal(dense<60> : tensor<i64>) : !torch.vtensor<[],si64>
// CHECK: return %[[N]]
func.func @size(%x: !torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[],si64> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.Size"(%x) : (!torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// -----

// OptionalHasElement: false with no input (omitted, or an empty name
// imported as none), true with a plain tensor.
// CHECK-LABEL: func.func @optional_has_element
// CHECK-DAG: %[[F:.*]] = torch.vtensor.literal(dense<false> : tensor<i1>) : !torch.vtensor<[],i1>
// CHECK-DAG: %[[T:.*]] = torch.vtensor.literal(dense<true> : tensor<i1>) : !torch.vtensor<[],i1>
// CHECK: return %[[F]], %[[F]], %[[T]]
func.func @optional_has_element(%x: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[],i1>, !torch.vtensor<[],i1>, !torch.vtensor<[],i1>) attributes {torch.onnx_meta.opset_version = 28 : si64} {
  %none = torch.constant.none
  %0 = torch.operator "onnx.OptionalHasElement"() : () -> !torch.vtensor<[],i1>
  %1 = torch.operator "onnx.OptionalHasElement"(%none) : (!torch.none) -> !torch.vtensor<[],i1>
  %2 = torch.operator "onnx.OptionalHasElement"(%x) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[],i1>
  return %0, %1, %2 : !torch.vtensor<[],i1>, !torch.vtensor<[],i1>, !torch.vtensor<[],i1>
}

// -----

// OptionalGetElement of a plain tensor: the tensor itself.
// CHECK-LABEL: func.func @optional_get_element
// CHECK-NOT: onnx.OptionalGetElement
// CHECK: return %arg0
func.func @optional_get_element(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> attributes {torch.onnx_meta.opset_version = 28 : si64} {
  %0 = torch.operator "onnx.OptionalGetElement"(%x) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

func.func @optional_get_element_none() -> !torch.vtensor<[4],f32> attributes {torch.onnx_meta.opset_version = 28 : si64} {
  // expected-error @+1 {{unsupported: OptionalGetElement of an optional or sequence value, or of no input}}
  %0 = torch.operator "onnx.OptionalGetElement"() : () -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// Hardmax: arange(n) == argmax(keepdim), as x's dtype.
// CHECK-LABEL: func.func @hardmax
// CHECK: %[[ARGMAX:.*]] = torch.aten.argmax %arg0, %int1, %true : {{.*}} -> !torch.vtensor<[3,1],si64>
// CHECK: %[[POSITIONS:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[1,4],si64>
// CHECK: %[[IS_MAX:.*]] = torch.aten.eq.Tensor %[[POSITIONS]], %[[ARGMAX]] : {{.*}} -> !torch.vtensor<[3,4],i1>
// CHECK: torch.aten.to.dtype %[[IS_MAX]], %int6
func.func @hardmax(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Hardmax"(%x) {torch.onnx.axis = 1 : si64} : (!torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

func.func @hardmax_coerced(%x: !torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[3,4,5],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  // expected-error @+1 {{unsupported: the 2-D coercion of opset < 13 at an axis other than the last}}
  %0 = torch.operator "onnx.Hardmax"(%x) : (!torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[3,4,5],f32>
  return %0 : !torch.vtensor<[3,4,5],f32>
}

// -----

// EyeLike with k=1 and dtype float: (col - row) == 1.
// CHECK-LABEL: func.func @eyelike
// CHECK: %[[DIFF:.*]] = torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[4,5],si64>
// CHECK: %[[ON:.*]] = torch.aten.eq.Scalar %[[DIFF]], %int1
// CHECK: torch.aten.to.dtype %[[ON]], %int6, {{.*}} -> !torch.vtensor<[4,5],f32>
func.func @eyelike(%x: !torch.vtensor<[4,5],si32>) -> !torch.vtensor<[4,5],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.EyeLike"(%x) {torch.onnx.dtype = 1 : si64, torch.onnx.k = 1 : si64} : (!torch.vtensor<[4,5],si32>) -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}

// -----

// DepthToSpace CRD: [N, C/4, 2, 2, H, W] permuted to [N, C/4, H, 2, W, 2].
// CHECK-LABEL: func.func @depth_to_space_crd
// CHECK: %[[SPLIT:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,2,2,2,2,3],f32>
// CHECK: %[[PERM:.*]] = torch.prim.ListConstruct %int0, %int1, %int4, %int2, %int5, %int3
// CHECK: %[[T:.*]] = torch.aten.permute %[[SPLIT]], %[[PERM]]
// CHECK: torch.aten.view %[[T]], {{.*}} -> !torch.vtensor<[1,2,4,6],f32>
func.func @depth_to_space_crd(%x: !torch.vtensor<[1,8,2,3],f32>) -> !torch.vtensor<[1,2,4,6],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.DepthToSpace"(%x) {torch.onnx.blocksize = 2 : si64, torch.onnx.mode = "CRD"} : (!torch.vtensor<[1,8,2,3],f32>) -> !torch.vtensor<[1,2,4,6],f32>
  return %0 : !torch.vtensor<[1,2,4,6],f32>
}

// -----

// OneHot: depth 10 from the result; negative indices wrap.
// CHECK-LABEL: func.func @onehot
// CHECK: %[[NEG:.*]] = torch.aten.lt.Scalar %arg0, %int0
// CHECK: %[[WRAPPED:.*]] = torch.aten.add.Scalar %arg0, %int10
// CHECK: %[[INDEX:.*]] = torch.aten.where.self %[[NEG]], %[[WRAPPED]], %arg0
// CHECK: %[[COLUMN:.*]] = torch.aten.unsqueeze %[[INDEX]], %int1
// CHECK: %[[POSITIONS:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[1,10],si64>
// CHECK: %[[IS_ON:.*]] = torch.aten.eq.Tensor %[[POSITIONS]], %[[COLUMN]]
// CHECK: %[[OFF:.*]] = torch.aten.select.int %arg2, %int0, %int0
// CHECK: %[[ON:.*]] = torch.aten.select.int %arg2, %int0, %int1
// CHECK: torch.aten.where.self %[[IS_ON]], %[[ON]], %[[OFF]]
func.func @onehot(%i: !torch.vtensor<[3],si64>, %d: !torch.vtensor<[],f32>, %v: !torch.vtensor<[2],f32>) -> !torch.vtensor<[3,10],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.OneHot"(%i, %d, %v) {torch.onnx.axis = 1 : si64} : (!torch.vtensor<[3],si64>, !torch.vtensor<[],f32>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[3,10],f32>
  return %0 : !torch.vtensor<[3,10],f32>
}

// -----

// HannWindow: a constant of the result's length, sin^2(pi n / 4).
// CHECK-LABEL: func.func @hann_window
// CHECK: %[[W:.*]] = torch.vtensor.literal(dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 5.000000e-01]> : tensor<4xf32>)
// CHECK: return %[[W]]
func.func @hann_window(%size: !torch.vtensor<[],si32>) -> !torch.vtensor<[4],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.operator "onnx.HannWindow"(%size) : (!torch.vtensor<[],si32>) -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

func.func @blackman_window_size(%x: !torch.vtensor<[],si64>) -> !torch.vtensor<[4],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %size = torch.vtensor.literal(dense<5> : tensor<si64>) : !torch.vtensor<[],si64>
  // expected-error @+1 {{size does not match the result}}
  %0 = torch.operator "onnx.BlackmanWindow"(%size) : (!torch.vtensor<[],si64>) -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// A one-sided DFT of a real signal along dim 1: the real and imaginary
// parts are matmuls by constant [4, 3] cosine and (negated) sine matrices
// along the moved axis, concatenated on the last dim.
// CHECK-LABEL: func.func @dft_rfft
// CHECK-DAG: %[[SIN:.*]] = torch.vtensor.literal(dense<{{\[\[}}-0.000000e+00, -0.000000e+00, -0.000000e+00], [-0.000000e+00, -1.000000e+00, {{.*}} : tensor<4x3xf32>)
// CHECK-DAG: %[[COS:.*]] = torch.vtensor.literal(dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, {{.*}} : tensor<4x3xf32>)
// CHECK: %[[RE:.*]] = torch.aten.select.int %arg0, %int3, %int0 : {{.*}} -> !torch.vtensor<[1,4,3],f32>
// CHECK: %[[M:.*]] = torch.aten.permute %[[RE]], {{.*}} -> !torch.vtensor<[1,3,4],f32>
// CHECK: torch.aten.matmul %[[M]], %[[COS]] : {{.*}} -> !torch.vtensor<[1,3,3],f32>
// CHECK: torch.aten.matmul {{.*}}, %[[SIN]]
// CHECK: torch.aten.cat {{.*}}, %int3 : {{.*}} -> !torch.vtensor<[1,3,3,2],f32>
func.func @dft_rfft(%x: !torch.vtensor<[1,4,3,1],f32>) -> !torch.vtensor<[1,3,3,2],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %0 = torch.operator "onnx.DFT"(%x) {torch.onnx.axis = 1 : si64, torch.onnx.onesided = 1 : si64} : (!torch.vtensor<[1,4,3,1],f32>) -> !torch.vtensor<[1,3,3,2],f32>
  return %0 : !torch.vtensor<[1,3,3,2],f32>
}

// -----

func.func @dft_no_axis_fits(%x: !torch.vtensor<[1,4,3,1],f32>) -> !torch.vtensor<[1,5,3,2],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  // expected-error @+1 {{no axis gives the result sizes}}
  %0 = torch.operator "onnx.DFT"(%x) {torch.onnx.axis = 1 : si64} : (!torch.vtensor<[1,4,3,1],f32>) -> !torch.vtensor<[1,5,3,2],f32>
  return %0 : !torch.vtensor<[1,5,3,2],f32>
}

// -----

// STFT: one strided conv1d of the signal with 2K filters (K = 3 bins of a
// 4-point frame: real parts, then imaginary), times the window; the
// run-time frame_step must be the 2 the result sizes ((8 - 4) / 2 + 1 = 3
// frames) were built for.
// CHECK-LABEL: func.func @stft_runtime_step
// CHECK: %[[BASIS:.*]] = torch.vtensor.literal(dense<{{\[\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]], {{.*}}) : !torch.vtensor<[6,1,4],f32>
// CHECK: %[[EQ:.*]] = torch.aten.eq.Scalar %arg1, %int2
// CHECK: %[[HOLDS:.*]] = torch.aten.item %[[EQ]]
// CHECK: torch.runtime.assert %[[HOLDS]], "this STFT node's frame_step at run time is not 2
// CHECK: %[[W:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[1,1,4],f32>
// CHECK: %[[KERNEL:.*]] = torch.aten.mul.Tensor %[[BASIS]], %[[W]]
// CHECK: %[[SIGNAL:.*]] = torch.aten.permute %arg0, {{.*}} -> !torch.vtensor<[2,1,8],f32>
// CHECK: torch.aten.convolution %[[SIGNAL]], %[[KERNEL]], {{.*}} -> !torch.vtensor<[2,6,3],f32>
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[2,2,3,3],f32>
// CHECK: torch.aten.permute {{.*}} -> !torch.vtensor<[2,3,3,2],f32>
func.func @stft_runtime_step(%x: !torch.vtensor<[2,8,1],f32>, %step: !torch.vtensor<[],si64>, %w: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,3,3,2],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.operator "onnx.STFT"(%x, %step, %w) : (!torch.vtensor<[2,8,1],f32>, !torch.vtensor<[],si64>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,3,3,2],f32>
  return %0 : !torch.vtensor<[2,3,3,2],f32>
}

// -----

// Without a window or constant frame_length, a frame count of 1 fits many
// steps: the lowering refuses rather than guess.
func.func @stft_ambiguous(%x: !torch.vtensor<[1,8,2],f32>, %step: !torch.vtensor<[],si64>, %n: !torch.vtensor<[],si64>) -> !torch.vtensor<[1,1,3,2],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %none = torch.constant.none
  // expected-error @+1 {{more than one value that gives the result sizes (make them constants)}}
  %0 = torch.operator "onnx.STFT"(%x, %step, %none, %n) : (!torch.vtensor<[1,8,2],f32>, !torch.vtensor<[],si64>, !torch.none, !torch.vtensor<[],si64>) -> !torch.vtensor<[1,1,3,2],f32>
  return %0 : !torch.vtensor<[1,1,3,2],f32>
}

// -----

// Compress along an axis: the positions of the first K trues (K = 2, the
// static result size) are, for k < K, the number of elements whose
// running count of trues is <= k; index_select takes those slices.
// CHECK-LABEL: func.func @compress_axis
// CHECK: %[[MASK:.*]] = torch.aten.to.dtype %arg1, %int4
// CHECK: %[[COUNT:.*]] = torch.aten.cumsum %[[MASK]], %int0, %int4
// CHECK: %[[ROW:.*]] = torch.aten.view %[[COUNT]], {{.*}} -> !torch.vtensor<[1,3],si64>
// CHECK: %[[K:.*]] = torch.aten.arange.start_step %int0, %int2, %int1
// CHECK: %[[COL:.*]] = torch.aten.view %[[K]], {{.*}} -> !torch.vtensor<[2,1],si64>
// CHECK: %[[LE:.*]] = torch.aten.le.Tensor %[[ROW]], %[[COL]] : {{.*}} -> !torch.vtensor<[2,3],i1>
// CHECK: %[[LEI:.*]] = torch.aten.to.dtype %[[LE]], %int4
// CHECK: %[[POS:.*]] = torch.aten.sum.dim_IntList %[[LEI]], {{.*}} -> !torch.vtensor<[2],si64>
// CHECK: torch.aten.index_select %arg0, %int0, %[[POS]] : {{.*}} -> !torch.vtensor<[2,2],f32>
func.func @compress_axis(%x: !torch.vtensor<[3,2],f32>, %c: !torch.vtensor<[3],i1>) -> !torch.vtensor<[2,2],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.Compress"(%x, %c) {torch.onnx.axis = 0 : si64} : (!torch.vtensor<[3,2],f32>, !torch.vtensor<[3],i1>) -> !torch.vtensor<[2,2],f32>
  return %0 : !torch.vtensor<[2,2],f32>
}

// -----

// Without an axis, Compress selects from the flattened input.
// CHECK-LABEL: func.func @compress_flat
// CHECK: %[[FLAT:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[6],f32>
// CHECK: torch.aten.index_select %[[FLAT]], %int0, %{{.*}} -> !torch.vtensor<[3],f32>
func.func @compress_flat(%x: !torch.vtensor<[3,2],f32>, %c: !torch.vtensor<[5],i1>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.Compress"(%x, %c) : (!torch.vtensor<[3,2],f32>, !torch.vtensor<[5],i1>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// The number of selected slices must be static.
func.func @compress_dynamic(%x: !torch.vtensor<[3,2],f32>, %c: !torch.vtensor<[3],i1>) -> !torch.vtensor<[?,2],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  // expected-error @+1 {{needs static sizes and a 1-D condition}}
  %0 = torch.operator "onnx.Compress"(%x, %c) {torch.onnx.axis = 0 : si64} : (!torch.vtensor<[3,2],f32>, !torch.vtensor<[3],i1>) -> !torch.vtensor<[?,2],f32>
  return %0 : !torch.vtensor<[?,2],f32>
}

// -----

// NonZero: the flat positions of the K = 4 trues, unraveled with floor
// divisions by the strides (3, 1): row = p // 3, column = p - (p // 3) * 3.
// CHECK-LABEL: func.func @nonzero
// CHECK: %[[THREE:.*]] = torch.vtensor.literal(dense<3> : tensor<i64>)
// CHECK: %[[POS:.*]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[ROW:.*]] = torch.aten.div.Tensor_mode %[[POS]], %[[THREE]], %str
// CHECK: %[[Q:.*]] = torch.aten.div.Tensor_mode %[[POS]], %[[THREE]], %str
// CHECK: %[[QM:.*]] = torch.aten.mul.Scalar %[[Q]], %int3
// CHECK: %[[COL:.*]] = torch.aten.sub.Tensor %[[POS]], %[[QM]], %int1
// CHECK: %[[ROW2:.*]] = torch.aten.view %[[ROW]], {{.*}} -> !torch.vtensor<[1,4],si64>
// CHECK: %[[COL2:.*]] = torch.aten.view %[[COL]], {{.*}} -> !torch.vtensor<[1,4],si64>
// CHECK: %[[ROWS:.*]] = torch.prim.ListConstruct %[[ROW2]], %[[COL2]]
// CHECK: torch.aten.cat %[[ROWS]], %int0 : {{.*}} -> !torch.vtensor<[2,4],si64>
func.func @nonzero(%x: !torch.vtensor<[2,3],i1>) -> !torch.vtensor<[2,4],si64> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.NonZero"(%x) : (!torch.vtensor<[2,3],i1>) -> !torch.vtensor<[2,4],si64>
  return %0 : !torch.vtensor<[2,4],si64>
}

// -----

func.func @nonzero_dynamic(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,?],si64> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  // expected-error @+1 {{unsupported: dynamic input or result sizes (the number of nonzeros must be static)}}
  %0 = torch.operator "onnx.NonZero"(%x) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,?],si64>
  return %0 : !torch.vtensor<[2,?],si64>
}
