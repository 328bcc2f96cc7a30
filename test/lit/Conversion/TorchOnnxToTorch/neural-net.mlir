// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// Conv with symmetric pads: one aten.convolution carrying them.
// CHECK-LABEL: func.func @conv_symmetric
// CHECK-NOT: aten.constant_pad_nd
// CHECK-DAG: %[[STRIDE:.*]] = torch.prim.ListConstruct %int2, %int2
// CHECK-DAG: %[[OUTPAD:.*]] = torch.prim.ListConstruct %int0, %int0
// CHECK: torch.aten.convolution %arg0, %arg1, %arg2, %[[STRIDE]], %[[PAD:.*]], %[[DIL:.*]], %false, %[[OUTPAD]], %int1 :{{.*}} -> !torch.vtensor<[1,4,4,4],f32>
func.func @conv_symmetric(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,4,4],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.operator "onnx.Conv"(%x, %w, %b) {torch.onnx.pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,4,4],f32>
  return %0 : !torch.vtensor<[1,4,4,4],f32>
}

// -----

// auto_pad=SAME_UPPER with stride 2 on 8 pixels, kernel 4: 2 pixels of
// padding in total, 1 before and 1 after... and SAME_LOWER with an odd
// total puts the extra pixel first: an explicit pad, last dim first.
// CHECK-LABEL: func.func @conv_same_lower_odd
// CHECK: %[[ZERO:.*]] = torch.constant.float 0.000000e+00
// CHECK: %[[PADS:.*]] = torch.prim.ListConstruct %int1, %int0, %int1, %int0
// CHECK: %[[PADDED:.*]] = torch.aten.constant_pad_nd %arg0, %[[PADS]], %[[ZERO]] : {{.*}} -> !torch.vtensor<[1,1,6,6],f32>
// CHECK: torch.aten.convolution %[[PADDED]], %arg1
func.func @conv_same_lower_odd(%x: !torch.vtensor<[1,1,5,5],f32>, %w: !torch.vtensor<[1,1,2,2],f32>) -> !torch.vtensor<[1,1,5,5],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.Conv"(%x, %w) {torch.onnx.auto_pad = "SAME_LOWER"} : (!torch.vtensor<[1,1,5,5],f32>, !torch.vtensor<[1,1,2,2],f32>) -> !torch.vtensor<[1,1,5,5],f32>
  return %0 : !torch.vtensor<[1,1,5,5],f32>
}

// -----

// 1-D convolution runs as 2-D over a unit height.
// CHECK-LABEL: func.func @conv1d
// CHECK: torch.aten.unsqueeze %arg0, %int2 {{.*}} -> !torch.vtensor<[1,2,1,7],f32>
// CHECK: torch.aten.convolution {{.*}} -> !torch.vtensor<[1,3,1,5],f32>
// CHECK: torch.aten.squeeze.dim {{.*}} -> !torch.vtensor<[1,3,5],f32>
func.func @conv1d(%x: !torch.vtensor<[1,2,7],f32>, %w: !torch.vtensor<[3,2,3],f32>) -> !torch.vtensor<[1,3,5],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.operator "onnx.Conv"(%x, %w) : (!torch.vtensor<[1,2,7],f32>, !torch.vtensor<[3,2,3],f32>) -> !torch.vtensor<[1,3,5],f32>
  return %0 : !torch.vtensor<[1,3,5],f32>
}

// -----

func.func @conv3d(%x: !torch.vtensor<[1,1,4,4,4],f32>, %w: !torch.vtensor<[1,1,2,2,2],f32>) -> !torch.vtensor<[1,1,3,3,3],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  // expected-error @+1 {{'onnx.Conv' (opset 17) could not be lowered to the torch dialect: unsupported: only 1-D and 2-D convolution}}
  %0 = torch.operator "onnx.Conv"(%x, %w) : (!torch.vtensor<[1,1,4,4,4],f32>, !torch.vtensor<[1,1,2,2,2],f32>) -> !torch.vtensor<[1,1,3,3,3],f32>
  return %0 : !torch.vtensor<[1,1,3,3,3],f32>
}

// -----

// MaxPool with asymmetric pads: padded with -inf first; ceil_mode passes on.
// CHECK-LABEL: func.func @maxpool_asymmetric
// CHECK: %[[NEGINF:.*]] = torch.constant.float 0xFFF0000000000000
// CHECK: %[[PADS:.*]] = torch.prim.ListConstruct %int0, %int1, %int0, %int1
// CHECK: torch.aten.constant_pad_nd %arg0, %[[PADS]], %[[NEGINF]]
// CHECK: torch.aten.max_pool2d_with_indices {{.*}}, %true : {{.*}} -> !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[1,1,3,3],si64>
func.func @maxpool_asymmetric(%x: !torch.vtensor<[1,1,5,5],f32>) -> !torch.vtensor<[1,1,3,3],f32> attributes {torch.onnx_meta.opset_version = 12 : si64} {
  %0 = torch.operator "onnx.MaxPool"(%x) {torch.onnx.ceil_mode = 1 : si64, torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.pads = [0 : si64, 0 : si64, 1 : si64, 1 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,5,5],f32>) -> !torch.vtensor<[1,1,3,3],f32>
  return %0 : !torch.vtensor<[1,1,3,3],f32>
}

// -----

// AveragePool with asymmetric pads that do not count: the mean over the
// padded input divided by the same mean of a padded mask of ones.
// CHECK-LABEL: func.func @avgpool_asymmetric_excluding_pads
// CHECK: %[[PADDED:.*]] = torch.aten.constant_pad_nd %arg0
// CHECK: %[[ONES:.*]] = torch.aten.full {{.*}} -> !torch.vtensor<[1,1,5,5],f32>
// CHECK: %[[MASK:.*]] = torch.aten.constant_pad_nd %[[ONES]], {{.*}} -> !torch.vtensor<[1,1,6,6],f32>
// CHECK: %[[MEAN:.*]] = torch.aten.avg_pool2d %[[PADDED]], {{.*}}, %true, %none : {{.*}} -> !torch.vtensor<[1,1,3,3],f32>
// CHECK: %[[COUNT:.*]] = torch.aten.avg_pool2d %[[MASK]], {{.*}}, %true, %none : {{.*}} -> !torch.vtensor<[1,1,3,3],f32>
// CHECK: torch.aten.div.Tensor %[[MEAN]], %[[COUNT]]
func.func @avgpool_asymmetric_excluding_pads(%x: !torch.vtensor<[1,1,5,5],f32>) -> !torch.vtensor<[1,1,3,3],f32> attributes {torch.onnx_meta.opset_version = 12 : si64} {
  %0 = torch.operator "onnx.AveragePool"(%x) {torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.pads = [0 : si64, 0 : si64, 1 : si64, 1 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,5,5],f32>) -> !torch.vtensor<[1,1,3,3],f32>
  return %0 : !torch.vtensor<[1,1,3,3],f32>
}

// -----

// 1-D MaxPool: [N, C, L] viewed as [N, C, 1, L], pooled with a unit kernel
// height, viewed back.
// CHECK-LABEL: func.func @maxpool_1d
// CHECK: %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,3,1,32],f32>
// CHECK: %[[KERNEL:.*]] = torch.prim.ListConstruct %int1, %int2
// CHECK: %[[POOL:.*]], %{{.*}} = torch.aten.max_pool2d_with_indices %[[X]], %[[KERNEL]], {{.*}} -> !torch.vtensor<[1,3,1,31],f32>
// CHECK: torch.aten.view %[[POOL]], {{.*}} -> !torch.vtensor<[1,3,31],f32>
func.func @maxpool_1d(%x: !torch.vtensor<[1,3,32],f32>) -> !torch.vtensor<[1,3,31],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.MaxPool"(%x) {torch.onnx.kernel_shape = [2 : si64]} : (!torch.vtensor<[1,3,32],f32>) -> !torch.vtensor<[1,3,31],f32>
  return %0 : !torch.vtensor<[1,3,31],f32>
}

// -----

// 1-D AveragePool with asymmetric pads not counted: the mask of ones is
// [1, 1, 1, L] too.
// CHECK-LABEL: func.func @avgpool_1d_excluding_pads
// CHECK: torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,2,1,5],f32>
// CHECK: torch.aten.full {{.*}} -> !torch.vtensor<[1,1,1,5],f32>
// CHECK: %[[MEAN:.*]] = torch.aten.avg_pool2d {{.*}} -> !torch.vtensor<[1,2,1,3],f32>
// CHECK: %[[COUNT:.*]] = torch.aten.avg_pool2d {{.*}} -> !torch.vtensor<[1,1,1,3],f32>
// CHECK: %[[DIV:.*]] = torch.aten.div.Tensor %[[MEAN]], %[[COUNT]]
// CHECK: torch.aten.view %[[DIV]], {{.*}} -> !torch.vtensor<[1,2,3],f32>
func.func @avgpool_1d_excluding_pads(%x: !torch.vtensor<[1,2,5],f32>) -> !torch.vtensor<[1,2,3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.AveragePool"(%x) {torch.onnx.kernel_shape = [2 : si64], torch.onnx.pads = [0 : si64, 1 : si64], torch.onnx.strides = [2 : si64]} : (!torch.vtensor<[1,2,5],f32>) -> !torch.vtensor<[1,2,3],f32>
  return %0 : !torch.vtensor<[1,2,3],f32>
}

// -----

// 3-D MaxPool: aten.max_pool3d_with_indices.
// CHECK-LABEL: func.func @maxpool_3d
// CHECK: torch.aten.max_pool3d_with_indices %arg0, {{.*}} -> !torch.vtensor<[1,1,3,3,3],f32>, !torch.vtensor<[1,1,3,3,3],si64>
func.func @maxpool_3d(%x: !torch.vtensor<[1,1,4,4,4],f32>) -> !torch.vtensor<[1,1,3,3,3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.MaxPool"(%x) {torch.onnx.kernel_shape = [2 : si64, 2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,4,4,4],f32>) -> !torch.vtensor<[1,1,3,3,3],f32>
  return %0 : !torch.vtensor<[1,1,3,3,3],f32>
}

// -----

// MaxPool of si8 with asymmetric pads: padded with the lowest si8.
// CHECK-LABEL: func.func @maxpool_si8_asymmetric
// CHECK: %[[LOWEST:.*]] = torch.constant.int -128
// CHECK: torch.aten.constant_pad_nd %arg0, {{.*}}, %[[LOWEST]]
// CHECK: torch.aten.max_pool2d_with_indices
func.func @maxpool_si8_asymmetric(%x: !torch.vtensor<[1,1,5,5],si8>) -> !torch.vtensor<[1,1,3,3],si8> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.MaxPool"(%x) {torch.onnx.ceil_mode = 1 : si64, torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.pads = [0 : si64, 0 : si64, 1 : si64, 1 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,5,5],si8>) -> !torch.vtensor<[1,1,3,3],si8>
  return %0 : !torch.vtensor<[1,1,3,3],si8>
}

// -----

// The Indices of MaxPool with symmetric pads: ATen's per-plane index plus
// (n * C + c) * H * W.
// CHECK-LABEL: func.func @maxpool_indices
// CHECK: %[[VALUES:.*]], %[[PLANE:.*]] = torch.aten.max_pool2d_with_indices %arg0
// CHECK: %[[ARANGE:.*]] = torch.aten.arange.start_step %int0, %int6
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Scalar %[[ARANGE]], %int16
// CHECK: %[[OFFSETS:.*]] = torch.aten.view %[[SCALED]], {{.*}} -> !torch.vtensor<[2,3,1,1],si64>
// CHECK: %[[INDICES:.*]] = torch.aten.add.Tensor %[[PLANE]], %[[OFFSETS]]
// CHECK: return %[[VALUES]], %[[INDICES]]
func.func @maxpool_indices(%x: !torch.vtensor<[2,3,4,4],f32>) -> (!torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,3,4,4],si64>) attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0:2 = torch.operator "onnx.MaxPool"(%x) {torch.onnx.kernel_shape = [3 : si64, 3 : si64], torch.onnx.pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64]} : (!torch.vtensor<[2,3,4,4],f32>) -> (!torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,3,4,4],si64>)
  return %0#0, %0#1 : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,3,4,4],si64>
}

// -----

// The Indices with storage_order=1 (column-major): h + w * H from ATen's
// h * W + w.
// CHECK-LABEL: func.func @maxpool_indices_column_major
// CHECK: %{{.*}}, %[[PLANE:.*]] = torch.aten.max_pool2d_with_indices %arg0
// CHECK: %[[H:.*]] = torch.aten.div.Tensor_mode %[[PLANE]], {{.*}}, %str
// CHECK: %[[ROWS:.*]] = torch.aten.div.Tensor_mode %[[PLANE]], {{.*}}, %str
// CHECK: %[[ROWSW:.*]] = torch.aten.mul.Scalar %[[ROWS]], %int5
// CHECK: %[[W:.*]] = torch.aten.sub.Tensor %[[PLANE]], %[[ROWSW]], %int1
// CHECK: %[[WH:.*]] = torch.aten.mul.Scalar %[[W]], %int4
// CHECK: torch.aten.add.Tensor %[[H]], %[[WH]], %int1
func.func @maxpool_indices_column_major(%x: !torch.vtensor<[1,1,4,5],f32>) -> (!torch.vtensor<[1,1,3,4],f32>, !torch.vtensor<[1,1,3,4],si64>) attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0:2 = torch.operator "onnx.MaxPool"(%x) {torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.storage_order = 1 : si64} : (!torch.vtensor<[1,1,4,5],f32>) -> (!torch.vtensor<[1,1,3,4],f32>, !torch.vtensor<[1,1,3,4],si64>)
  return %0#0, %0#1 : !torch.vtensor<[1,1,3,4],f32>, !torch.vtensor<[1,1,3,4],si64>
}

// -----

func.func @maxpool_bool(%x: !torch.vtensor<[1,1,4,4],i1>) -> !torch.vtensor<[1,1,3,3],i1> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{'onnx.MaxPool' (opset 22) could not be lowered to the torch dialect: unsupported: MaxPool of this dtype}}
  %0 = torch.operator "onnx.MaxPool"(%x) {torch.onnx.kernel_shape = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,4,4],i1>) -> !torch.vtensor<[1,1,3,3],i1>
  return %0 : !torch.vtensor<[1,1,3,3],i1>
}

// -----

// AveragePool with dilations: window sums and counts are convolutions with
// a kernel of ones over [N*C, 1, H, W]; ceil_mode pads one more row and
// column, which the count mask leaves at 0.
// CHECK-LABEL: func.func @avgpool_dilations
// CHECK: %[[FLAT:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,1,4,4],f32>
// CHECK: %[[PADDED:.*]] = torch.aten.constant_pad_nd %[[FLAT]], {{.*}} -> !torch.vtensor<[2,1,5,5],f32>
// CHECK: %[[ONES:.*]] = torch.aten.full {{.*}} -> !torch.vtensor<[1,1,4,4],f32>
// CHECK: %[[MASK:.*]] = torch.aten.constant_pad_nd %[[ONES]], {{.*}} -> !torch.vtensor<[1,1,5,5],f32>
// CHECK: %[[KERNEL:.*]] = torch.aten.full {{.*}} -> !torch.vtensor<[1,1,2,2],f32>
// CHECK: %[[SUM:.*]] = torch.aten.convolution %[[PADDED]], %[[KERNEL]], {{.*}} -> !torch.vtensor<[2,1,2,2],f32>
// CHECK: %[[COUNT:.*]] = torch.aten.convolution %[[MASK]], %[[KERNEL]], {{.*}} -> !torch.vtensor<[1,1,2,2],f32>
// CHECK: %[[MEAN:.*]] = torch.aten.div.Tensor %[[SUM]], %[[COUNT]]
// CHECK: torch.aten.view %[[MEAN]], {{.*}} -> !torch.vtensor<[1,2,2,2],f32>
func.func @avgpool_dilations(%x: !torch.vtensor<[1,2,4,4],f32>) -> !torch.vtensor<[1,2,2,2],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.AveragePool"(%x) {torch.onnx.ceil_mode = 1 : si64, torch.onnx.dilations = [2 : si64, 2 : si64], torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,2,4,4],f32>) -> !torch.vtensor<[1,2,2,2],f32>
  return %0 : !torch.vtensor<[1,2,2,2],f32>
}

// -----

func.func @avgpool_int(%x: !torch.vtensor<[1,1,4,4],si32>) -> !torch.vtensor<[1,1,3,3],si32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{unsupported: AveragePool of a non-float dtype}}
  %0 = torch.operator "onnx.AveragePool"(%x) {torch.onnx.kernel_shape = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,4,4],si32>) -> !torch.vtensor<[1,1,3,3],si32>
  return %0 : !torch.vtensor<[1,1,3,3],si32>
}

// -----

// Gemm: transB permutes B, alpha and beta scale.
// CHECK-LABEL: func.func @gemm
// CHECK-DAG: %[[BETA:.*]] = torch.constant.float 2.000000e+00
// CHECK-DAG: %[[ALPHA:.*]] = torch.constant.float 5.000000e-01
// CHECK: %[[BT:.*]] = torch.aten.permute %arg1, {{.*}} -> !torch.vtensor<[3,4],f32>
// CHECK: %[[MM:.*]] = torch.aten.mm %arg0, %[[BT]]
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Scalar %[[MM]], %[[ALPHA]]
// CHECK: %[[C:.*]] = torch.aten.mul.Scalar %arg2, %[[BETA]]
// CHECK: torch.aten.add.Tensor %[[SCALED]], %[[C]], %int1
func.func @gemm(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4,3],f32>, %c: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Gemm"(%a, %b, %c) {torch.onnx.alpha = 5.000000e-01 : f32, torch.onnx.beta = 2.000000e+00 : f32, torch.onnx.transB = 1 : si64} : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// Softmax before opset 13 normalizes over the 2-D coercion at `axis`.
// CHECK-LABEL: func.func @softmax_opset11
// CHECK: torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,12],f32>
// CHECK: torch.aten.softmax.int {{.*}}, %int1, %none : {{.*}} -> !torch.vtensor<[2,12],f32>
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[2,3,4],f32>
func.func @softmax_opset11(%x: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,3,4],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.Softmax"(%x) : (!torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}

// CHECK-LABEL: func.func @softmax_opset13
// CHECK: torch.aten.softmax.int %arg0, %int1, %none : {{.*}} -> !torch.vtensor<[2,3,4],f32>
func.func @softmax_opset13(%x: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,3,4],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Softmax"(%x) {torch.onnx.axis = 1 : si64} : (!torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}

// -----

// LRN: the window sum over channels is `size` slices of the padded squares.
// CHECK-LABEL: func.func @lrn
// CHECK-DAG: %[[BETA:.*]] = torch.constant.float 7.500000e-01
// CHECK-DAG: %[[SCALE:.*]] = torch.constant.float 3.3333333333333335E-5
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor %arg0, %arg0
// CHECK: %[[PADDED:.*]] = torch.aten.constant_pad_nd %[[SQ]], {{.*}} -> !torch.vtensor<[1,6,2,2],f32>
// CHECK: torch.aten.slice.Tensor %[[PADDED]], %int1, %int0, %int4, %int1
// CHECK: torch.aten.slice.Tensor %[[PADDED]], %int1, %int1, %int5, %int1
// CHECK: torch.aten.slice.Tensor %[[PADDED]], %int1, %int2, %int6, %int1
// CHECK: torch.aten.mul.Scalar {{.*}}, %[[SCALE]]
// CHECK: %[[DENOM:.*]] = torch.aten.pow.Tensor_Scalar {{.*}}, %[[BETA]]
// CHECK: torch.aten.div.Tensor %arg0, %[[DENOM]]
func.func @lrn(%x: !torch.vtensor<[1,4,2,2],f32>) -> !torch.vtensor<[1,4,2,2],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.LRN"(%x) {torch.onnx.size = 3 : si64} : (!torch.vtensor<[1,4,2,2],f32>) -> !torch.vtensor<[1,4,2,2],f32>
  return %0 : !torch.vtensor<[1,4,2,2],f32>
}

// -----

// ConvTranspose with stride 2 along H and 2 groups: zeros between the
// rows ([.., 3, 1, 3, 1] padded to [.., 3, 2, 3, 1]), padded by
// kernel - 1 (plus what the output length needs), convolved by the weight
// with swapped channels and reversed spatial dims.
// CHECK-LABEL: func.func @conv_transpose
// CHECK-DAG: %[[REVW:.*]] = torch.vtensor.literal(dense<[1, 0]> : tensor<2xi64>)
// CHECK-DAG: %[[REVH:.*]] = torch.vtensor.literal(dense<[2, 1, 0]> : tensor<3xi64>)
// CHECK: %[[SPLIT:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,2,3,1,3,1],f32>
// CHECK: %[[SPREAD:.*]] = torch.aten.constant_pad_nd %[[SPLIT]], {{.*}} -> !torch.vtensor<[1,2,3,2,3,1],f32>
// CHECK: %[[GRID:.*]] = torch.aten.view %[[SPREAD]], {{.*}} -> !torch.vtensor<[1,2,6,3],f32>
// CHECK: %[[PADDED:.*]] = torch.aten.constant_pad_nd %[[GRID]], {{.*}} -> !torch.vtensor<[1,2,9,5],f32>
// CHECK: torch.aten.permute {{.*}} -> !torch.vtensor<[2,1,1,3,2],f32>
// CHECK: %[[FH:.*]] = torch.aten.index_select {{.*}}, %int2, %[[REVH]]
// CHECK: %[[FW:.*]] = torch.aten.index_select %[[FH]], %int3, %[[REVW]]
// CHECK: torch.aten.convolution %[[PADDED]], %[[FW]], %none, {{.*}}, %int2 : {{.*}} -> !torch.vtensor<[1,2,7,4],f32>
func.func @conv_transpose(%x: !torch.vtensor<[1,2,3,3],f32>, %w: !torch.vtensor<[2,1,3,2],f32>) -> !torch.vtensor<[1,2,7,4],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.ConvTranspose"(%x, %w) {torch.onnx.group = 2 : si64, torch.onnx.strides = [2 : si64, 1 : si64]} : (!torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,1,3,2],f32>) -> !torch.vtensor<[1,2,7,4],f32>
  return %0 : !torch.vtensor<[1,2,7,4],f32>
}

// -----

// 3-D ConvTranspose with stride 2: zeros after each element along every
// spatial dim ([.., 2, 1, 2, 1, 2, 1] padded to [.., 2, 2, 2, 2, 2, 2]).
// CHECK-LABEL: func.func @conv_transpose_3d
// CHECK: %[[SPLIT:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,1,2,1,2,1,2,1],f32>
// CHECK: %[[SPREAD:.*]] = torch.aten.constant_pad_nd %[[SPLIT]], {{.*}} -> !torch.vtensor<[1,1,2,2,2,2,2,2],f32>
// CHECK: %[[GRID:.*]] = torch.aten.view %[[SPREAD]], {{.*}} -> !torch.vtensor<[1,1,4,4,4],f32>
// CHECK: torch.aten.constant_pad_nd %[[GRID]], {{.*}} -> !torch.vtensor<[1,1,5,5,5],f32>
// CHECK: torch.aten.convolution {{.*}} -> !torch.vtensor<[1,1,4,4,4],f32>
func.func @conv_transpose_3d(%x: !torch.vtensor<[1,1,2,2,2],f32>, %w: !torch.vtensor<[1,1,2,2,2],f32>) -> !torch.vtensor<[1,1,4,4,4],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.ConvTranspose"(%x, %w) {torch.onnx.strides = [2 : si64, 2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,2,2,2],f32>, !torch.vtensor<[1,1,2,2,2],f32>) -> !torch.vtensor<[1,1,4,4,4],f32>
  return %0 : !torch.vtensor<[1,1,4,4,4],f32>
}

// -----

// LpPool 1-D (p = 3) over a unit height: the window sums of |x|^3 (the
// average times the window size), then the cube root.
// CHECK-LABEL: func.func @lp_pool_1d
// CHECK-DAG: %[[THIRD:.*]] = torch.constant.float 0.33333333333333331
// CHECK-DAG: %[[P:.*]] = torch.constant.float 3.000000e+00
// CHECK: %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,3,1,8],f32>
// CHECK: %[[A:.*]] = torch.aten.abs %[[X]]
// CHECK: %[[POW:.*]] = torch.aten.pow.Tensor_Scalar %[[A]], %[[P]]
// CHECK: %[[MEAN:.*]] = torch.aten.avg_pool2d %[[POW]], {{.*}} -> !torch.vtensor<[1,3,1,7],f32>
// CHECK: %[[SUM:.*]] = torch.aten.mul.Scalar %[[MEAN]], %int2
// CHECK: %[[ROOT:.*]] = torch.aten.pow.Tensor_Scalar %[[SUM]], %[[THIRD]]
// CHECK: torch.aten.view %[[ROOT]], {{.*}} -> !torch.vtensor<[1,3,7],f32>
func.func @lp_pool_1d(%x: !torch.vtensor<[1,3,8],f32>) -> !torch.vtensor<[1,3,7],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.LpPool"(%x) {torch.onnx.kernel_shape = [2 : si64], torch.onnx.p = 3 : si64} : (!torch.vtensor<[1,3,8],f32>) -> !torch.vtensor<[1,3,7],f32>
  return %0 : !torch.vtensor<[1,3,7],f32>
}

// -----

// LpPool with dilations: |x|^2 over the input viewed as [N*C, 1, H, W],
// summed over each window by a dilated convolution with a kernel of ones,
// then the square root.
// CHECK-LABEL: func.func @lp_pool_dilations
// CHECK-DAG: %[[HALF:.*]] = torch.constant.float 5.000000e-01
// CHECK-DAG: %[[P:.*]] = torch.constant.float 2.000000e+00
// CHECK: %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,1,4,4],f32>
// CHECK: %[[A:.*]] = torch.aten.abs %[[X]]
// CHECK: %[[POW:.*]] = torch.aten.pow.Tensor_Scalar %[[A]], %[[P]]
// CHECK: %[[PAD:.*]] = torch.aten.constant_pad_nd %[[POW]]
// CHECK: %[[ONES:.*]] = torch.aten.full {{.*}} -> !torch.vtensor<[1,1,2,2],f32>
// CHECK: %[[DIL:.*]] = torch.prim.ListConstruct %int2, %int2
// CHECK: %[[SUM:.*]] = torch.aten.convolution %[[PAD]], %[[ONES]], %none, %{{.*}}, %{{.*}}, %[[DIL]], {{.*}} -> !torch.vtensor<[1,1,2,2],f32>
// CHECK: %[[ROOT:.*]] = torch.aten.pow.Tensor_Scalar %[[SUM]], %[[HALF]]
// CHECK: torch.aten.view %[[ROOT]], {{.*}} -> !torch.vtensor<[1,1,2,2],f32>
func.func @lp_pool_dilations(%x: !torch.vtensor<[1,1,4,4],f32>) -> !torch.vtensor<[1,1,2,2],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.LpPool"(%x) {torch.onnx.dilations = [2 : si64, 2 : si64], torch.onnx.kernel_shape = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,1,4,4],f32>) -> !torch.vtensor<[1,1,2,2],f32>
  return %0 : !torch.vtensor<[1,1,2,2],f32>
}

// -----

// LpPool 3-D: the same window sums over [N*C, 1, D, H, W].
// CHECK-LABEL: func.func @lp_pool_3d
// CHECK: %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,1,4,4,4],f32>
// CHECK: %[[A:.*]] = torch.aten.abs %[[X]]
// CHECK: %[[POW:.*]] = torch.aten.pow.Tensor_Scalar %[[A]]
// CHECK: %[[PAD:.*]] = torch.aten.constant_pad_nd %[[POW]]
// CHECK: %[[ONES:.*]] = torch.aten.full {{.*}} -> !torch.vtensor<[1,1,2,2,2],f32>
// CHECK: %[[SUM:.*]] = torch.aten.convolution %[[PAD]], %[[ONES]], {{.*}} -> !torch.vtensor<[2,1,3,3,3],f32>
// CHECK: %[[ROOT:.*]] = torch.aten.pow.Tensor_Scalar %[[SUM]]
// CHECK: torch.aten.view %[[ROOT]], {{.*}} -> !torch.vtensor<[1,2,3,3,3],f32>
func.func @lp_pool_3d(%x: !torch.vtensor<[1,2,4,4,4],f32>) -> !torch.vtensor<[1,2,3,3,3],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.LpPool"(%x) {torch.onnx.kernel_shape = [2 : si64, 2 : si64, 2 : si64]} : (!torch.vtensor<[1,2,4,4,4],f32>) -> !torch.vtensor<[1,2,3,3,3],f32>
  return %0 : !torch.vtensor<[1,2,3,3,3],f32>
}

// -----

func.func @lp_pool_3d_dynamic(%x: !torch.vtensor<[1,2,?,4,4],f32>) -> !torch.vtensor<[1,2,3,3,3],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  // expected-error @+1 {{unsupported: 3-D or dilated LpPool with dynamic spatial sizes}}
  %0 = torch.operator "onnx.LpPool"(%x) {torch.onnx.kernel_shape = [2 : si64, 2 : si64, 2 : si64]} : (!torch.vtensor<[1,2,?,4,4],f32>) -> !torch.vtensor<[1,2,3,3,3],f32>
  return %0 : !torch.vtensor<[1,2,3,3,3],f32>
}

// -----

// CausalConvWithState (k = 2, no past state): the input left-padded with
// k - 1 zeros; output = sum over taps j of padded[.., j : j + L] *
// weight[:, 0, j], then SiLU; present_state = the last k - 1 positions.
// CHECK-LABEL: func.func @causal_conv_silu
// CHECK: %[[PADDED:.*]] = torch.aten.constant_pad_nd %arg0, {{.*}} -> !torch.vtensor<[1,2,6],f32>
// CHECK: %[[TAPS:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[1,2,2],f32>
// CHECK: %[[W0:.*]] = torch.aten.slice.Tensor %[[PADDED]], %int2, %int0, %int5, %int1
// CHECK: %[[T0:.*]] = torch.aten.slice.Tensor %[[TAPS]], %int2, %int0, %int1, %int1
// CHECK: %[[P0:.*]] = torch.aten.mul.Tensor %[[W0]], %[[T0]]
// CHECK: %[[W1:.*]] = torch.aten.slice.Tensor %[[PADDED]], %int2, %int1, %int6, %int1
// CHECK: %[[T1:.*]] = torch.aten.slice.Tensor %[[TAPS]], %int2, %int1, %int2, %int1
// CHECK: %[[P1:.*]] = torch.aten.mul.Tensor %[[W1]], %[[T1]]
// CHECK: %[[SUM:.*]] = torch.aten.add.Tensor %[[P0]], %[[P1]], %int1
// CHECK: %[[OUT:.*]] = torch.aten.silu %[[SUM]]
// CHECK: %[[STATE:.*]] = torch.aten.slice.Tensor %[[PADDED]], %int2, %int5, %int6, %int1 : {{.*}} -> !torch.vtensor<[1,2,1],f32>
// CHECK: return %[[OUT]], %[[STATE]]
func.func @causal_conv_silu(%x: !torch.vtensor<[1,2,5],f32>, %w: !torch.vtensor<[2,1,2],f32>) -> (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[1,2,1],f32>) attributes {torch.onnx_meta.opset_version = 27 : si64} {
  %0:2 = torch.operator "onnx.CausalConvWithState"(%x, %w) {torch.onnx.activation = "silu"} : (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[2,1,2],f32>) -> (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[1,2,1],f32>)
  return %0#0, %0#1 : !torch.vtensor<[1,2,5],f32>, !torch.vtensor<[1,2,1],f32>
}

// -----

// A past state is prepended instead of zeros.
// CHECK-LABEL: func.func @causal_conv_past_state
// CHECK: %[[PARTS:.*]] = torch.prim.ListConstruct %arg2, %arg0
// CHECK: torch.aten.cat %[[PARTS]], %int2 : {{.*}} -> !torch.vtensor<[1,2,7],f32>
func.func @causal_conv_past_state(%x: !torch.vtensor<[1,2,5],f32>, %w: !torch.vtensor<[2,1,3],f32>, %past: !torch.vtensor<[1,2,2],f32>) -> !torch.vtensor<[1,2,5],f32> attributes {torch.onnx_meta.opset_version = 27 : si64} {
  %none = torch.constant.none
  %0:2 = torch.operator "onnx.CausalConvWithState"(%x, %w, %none, %past) : (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[2,1,3],f32>, !torch.none, !torch.vtensor<[1,2,2],f32>) -> (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[1,2,2],f32>)
  return %0#0 : !torch.vtensor<[1,2,5],f32>
}

// -----

func.func @causal_conv_bad_activation(%x: !torch.vtensor<[1,2,5],f32>, %w: !torch.vtensor<[2,1,2],f32>) -> !torch.vtensor<[1,2,5],f32> attributes {torch.onnx_meta.opset_version = 27 : si64} {
  // expected-error @+1 {{unsupported activation 'gelu'}}
  %0:2 = torch.operator "onnx.CausalConvWithState"(%x, %w) {torch.onnx.activation = "gelu"} : (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[2,1,2],f32>) -> (!torch.vtensor<[1,2,5],f32>, !torch.vtensor<[1,2,1],f32>)
  return %0#0 : !torch.vtensor<[1,2,5],f32>
}

// -----

// BatchNormalization training_mode=1: Y normalized with the batch's mean
// and biased variance over every dim but the channels; the running
// statistics are input * momentum + batch * (1 - momentum).
// CHECK-LABEL: func.func @batchnorm_training
// CHECK-DAG: %[[KEEP:.*]] = torch.constant.float 7.500000e-01
// CHECK-DAG: %[[TAKE:.*]] = torch.constant.float 2.500000e-01
// CHECK-DAG: %[[EPS:.*]] = torch.constant.float 1.000000e-02
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int0, %int2, %int3 :
// CHECK: %[[MEAN:.*]] = torch.aten.mean.dim %arg0, %[[DIMS]], %false, %none : {{.*}} -> !torch.vtensor<[3],f32>
// CHECK: %[[VAR:.*]] = torch.aten.var.correction %arg0, %[[DIMS]], %int0, %false : {{.*}} -> !torch.vtensor<[3],f32>
// CHECK: %[[Y:.*]] = torch.aten.batch_norm %arg0, %arg1, %arg2, %[[MEAN]], %[[VAR]], %false, %[[KEEP]], %[[EPS]], %false :
// CHECK: %[[RM:.*]] = torch.aten.mul.Scalar %arg3, %[[KEEP]]
// CHECK: %[[RUNNING_MEAN:.*]] = torch.aten.add.Tensor %[[RM]], %[[MEAN]], %[[TAKE]]
// CHECK: %[[RV:.*]] = torch.aten.mul.Scalar %arg4, %[[KEEP]]
// CHECK: %[[RUNNING_VAR:.*]] = torch.aten.add.Tensor %[[RV]], %[[VAR]], %[[TAKE]]
// CHECK: return %[[Y]], %[[RUNNING_MEAN]], %[[RUNNING_VAR]]
func.func @batchnorm_training(%x: !torch.vtensor<[2,3,4,5],f32>, %s: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>, %m: !torch.vtensor<[3],f32>, %v: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,3,4,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) attributes {torch.onnx_meta.opset_version = 15 : si64} {
  %0:3 = torch.operator "onnx.BatchNormalization"(%x, %s, %b, %m, %v) {torch.onnx.epsilon = 1.000000e-02 : f64, torch.onnx.momentum = 7.500000e-01 : f64, torch.onnx.training_mode = 1 : si64} : (!torch.vtensor<[2,3,4,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,3,4,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>)
  return %0#0, %0#1, %0#2 : !torch.vtensor<[2,3,4,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
}

// -----

// training_mode=1 with Y only: no running statistics; a rank-2 input
// reduces over the batch only.
// CHECK-LABEL: func.func @batchnorm_training_y_only
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int0 :
// CHECK: torch.aten.var.correction %arg0, %[[DIMS]], %int0, %false
// CHECK-NOT: torch.aten.mul.Scalar
// CHECK: torch.aten.batch_norm
// CHECK-NOT: torch.aten.mul.Scalar
func.func @batchnorm_training_y_only(%x: !torch.vtensor<[8,3],f32>, %s: !torch.vtensor<[3],f32>) -> !torch.vtensor<[8,3],f32> attributes {torch.onnx_meta.opset_version = 15 : si64} {
  %0 = torch.operator "onnx.BatchNormalization"(%x, %s, %s, %s, %s) {torch.onnx.training_mode = 1 : si64} : (!torch.vtensor<[8,3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) -> !torch.vtensor<[8,3],f32>
  return %0 : !torch.vtensor<[8,3],f32>
}

// -----

func.func @batchnorm_training_int(%x: !torch.vtensor<[2,3],si32>, %s: !torch.vtensor<[3],si32>) -> !torch.vtensor<[2,3],si32> attributes {torch.onnx_meta.opset_version = 15 : si64} {
  // expected-error @+1 {{'onnx.BatchNormalization' (opset 15) could not be lowered to the torch dialect: training_mode=1 needs a float input of known rank (>= 2)}}
  %0 = torch.operator "onnx.BatchNormalization"(%x, %s, %s, %s, %s) {torch.onnx.training_mode = 1 : si64} : (!torch.vtensor<[2,3],si32>, !torch.vtensor<[3],si32>, !torch.vtensor<[3],si32>, !torch.vtensor<[3],si32>, !torch.vtensor<[3],si32>) -> !torch.vtensor<[2,3],si32>
  return %0 : !torch.vtensor<[2,3],si32>
}
