// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// Linear resize of the last dim from sizes (scale 3/4, half_pixel): the
// source coordinates (y + 0.5) / scale - 0.5 in float64, the weights of
// the two neighbors (clamped to the edge) as a [3, 4] matrix, then one
// matmul along the dim. Dim 2 keeps its size: left as is.
// CHECK-LABEL: func.func @resize_sizes_linear
// CHECK-DAG: %[[SCALE:.*]] = torch.vtensor.literal(dense<7.500000e-01> : tensor<f64>)
// CHECK: %[[Y:.*]] = torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[3],si64>
// CHECK: %[[YF:.*]] = torch.aten.to.dtype %[[Y]], {{.*}} -> !torch.vtensor<[3],f64>
// CHECK: %[[SHIFTED:.*]] = torch.aten.add.Tensor %[[YF]]
// CHECK: torch.aten.div.Tensor %[[SHIFTED]], %[[SCALE]]
// CHECK: torch.aten.floor
// CHECK: torch.aten.clamp
// CHECK: %[[HITS:.*]] = torch.aten.eq.Tensor {{.*}} : !torch.vtensor<[3,1],f64>, !torch.vtensor<[1,4],f64> -> !torch.vtensor<[3,4],i1>
// CHECK: torch.aten.where.self %[[HITS]]
// CHECK: %[[W:.*]] = torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[3,4],f64>
// CHECK: %[[WT:.*]] = torch.aten.permute %[[W]], {{.*}} -> !torch.vtensor<[4,3],f64>
// CHECK: %[[WF:.*]] = torch.aten.to.dtype %[[WT]], {{.*}} -> !torch.vtensor<[4,3],f32>
// CHECK: %[[R:.*]] = torch.aten.matmul %arg0, %[[WF]] : !torch.vtensor<[1,1,2,4],f32>, !torch.vtensor<[4,3],f32> -> !torch.vtensor<[1,1,2,3],f32>
// CHECK: return %[[R]]
func.func @resize_sizes_linear(%x: !torch.vtensor<[1,1,2,4],f32>, %sizes: !torch.vtensor<[2],si64>) -> !torch.vtensor<[1,1,2,3],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %none = torch.constant.none
  %0 = torch.operator "onnx.Resize"(%x, %none, %none, %sizes) {torch.onnx.axes = [2 : si64, 3 : si64], torch.onnx.mode = "linear"} : (!torch.vtensor<[1,1,2,4],f32>, !torch.none, !torch.none, !torch.vtensor<[2],si64>) -> !torch.vtensor<[1,1,2,3],f32>
  return %0 : !torch.vtensor<[1,1,2,3],f32>
}

// -----

// Nearest resize from run-time scales: each scale is read from the scales
// tensor; dim 2 is moved last for its matmul and back.
// CHECK-LABEL: func.func @resize_scales_nearest
// CHECK: %[[S2:.*]] = torch.aten.select.int %arg1, %int0, %int0
// CHECK: torch.aten.to.dtype %[[S2]], {{.*}} -> !torch.vtensor<[],f64>
// CHECK: %[[S3:.*]] = torch.aten.select.int %arg1, %int0, %int1
// CHECK: torch.aten.gt.Tensor
// CHECK: torch.aten.logical_or
// CHECK: %[[MOVED:.*]] = torch.aten.permute %arg0, {{.*}} -> !torch.vtensor<[1,1,2,2],f32>
// CHECK: %[[P:.*]] = torch.aten.matmul %[[MOVED]], {{.*}} -> !torch.vtensor<[1,1,2,4],f32>
// CHECK: %[[BACK:.*]] = torch.aten.permute %[[P]], {{.*}} -> !torch.vtensor<[1,1,4,2],f32>
// CHECK: torch.aten.to.dtype %[[S3]]
// CHECK: torch.aten.matmul %[[BACK]], {{.*}} -> !torch.vtensor<[1,1,4,6],f32>
func.func @resize_scales_nearest(%x: !torch.vtensor<[1,1,2,2],f32>, %scales: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,1,4,6],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %none = torch.constant.none
  %0 = torch.operator "onnx.Resize"(%x, %none, %scales) {torch.onnx.axes = [2 : si64, 3 : si64], torch.onnx.mode = "nearest"} : (!torch.vtensor<[1,1,2,2],f32>, !torch.none, !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,1,4,6],f32>
  return %0 : !torch.vtensor<[1,1,4,6],f32>
}

// -----

// tf_crop_and_resize: the roi bounds are read at run time and positions
// outside the input take extrapolation_value.
// CHECK-LABEL: func.func @resize_crop
// CHECK: %[[E:.*]] = torch.vtensor.literal(dense<1.000000e+01> : tensor<f32>)
// CHECK: torch.aten.select.int %arg1, %int0, %int0
// CHECK: torch.aten.select.int %arg1, %int0, %int1
// CHECK: %[[OUTSIDE:.*]] = torch.aten.logical_or {{.*}} -> !torch.vtensor<[3],i1>
// CHECK: %[[R:.*]] = torch.aten.matmul
// CHECK: %[[MASK:.*]] = torch.aten.view %[[OUTSIDE]], {{.*}} -> !torch.vtensor<[1,3],i1>
// CHECK: torch.aten.where.self %[[MASK]], %[[E]], %[[R]]
func.func @resize_crop(%x: !torch.vtensor<[1,4],f32>, %roi: !torch.vtensor<[2],f32>, %sizes: !torch.vtensor<[1],si64>) -> !torch.vtensor<[1,3],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %none = torch.constant.none
  %0 = torch.operator "onnx.Resize"(%x, %roi, %none, %sizes) {torch.onnx.axes = [1 : si64], torch.onnx.coordinate_transformation_mode = "tf_crop_and_resize", torch.onnx.extrapolation_value = 1.000000e+01 : f32, torch.onnx.mode = "linear"} : (!torch.vtensor<[1,4],f32>, !torch.vtensor<[2],f32>, !torch.none, !torch.vtensor<[1],si64>) -> !torch.vtensor<[1,3],f32>
  return %0 : !torch.vtensor<[1,3],f32>
}

// -----

func.func @resize_tf_half_pixel_for_nn(%x: !torch.vtensor<[1,2],f32>, %scales: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,4],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %none = torch.constant.none
  // expected-error @+1 {{unsupported coordinate_transformation_mode 'tf_half_pixel_for_nn'}}
  %0 = torch.operator "onnx.Resize"(%x, %none, %scales) {torch.onnx.coordinate_transformation_mode = "tf_half_pixel_for_nn"} : (!torch.vtensor<[1,2],f32>, !torch.none, !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,4],f32>
  return %0 : !torch.vtensor<[1,4],f32>
}

// -----

func.func @resize_dynamic_result(%x: !torch.vtensor<[1,2],f32>, %scales: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,?],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %none = torch.constant.none
  // expected-error @+1 {{unsupported: an input or result without static sizes}}
  %0 = torch.operator "onnx.Resize"(%x, %none, %scales) : (!torch.vtensor<[1,2],f32>, !torch.none, !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,?],f32>
  return %0 : !torch.vtensor<[1,?],f32>
}

// -----

func.func @resize_nearest_antialias(%x: !torch.vtensor<[1,4],f32>, %scales: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,2],f32> attributes {torch.onnx_meta.opset_version = 19 : si64} {
  %none = torch.constant.none
  // expected-error @+1 {{antialias=1 needs mode linear or cubic}}
  %0 = torch.operator "onnx.Resize"(%x, %none, %scales) {torch.onnx.antialias = 1 : si64} : (!torch.vtensor<[1,4],f32>, !torch.none, !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,2],f32>
  return %0 : !torch.vtensor<[1,2],f32>
}

// -----

// GridSample (2-D, border padding): the W weights [N, P, W] from grid
// entry 0 contract X with a bmm, the H weights from grid entry 1 with a
// multiply and a sum; positions outside the input are clamped.
// CHECK-LABEL: func.func @grid_sample
// CHECK: %[[GRID:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[1,10,2],f32>
// CHECK: %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,6,4],f32>
// CHECK: torch.aten.select.int %[[GRID]], %int2, %int0 : {{.*}} -> !torch.vtensor<[1,10],f32>
// CHECK: torch.aten.clamp
// CHECK: %[[WX:.*]] = torch.aten.permute {{.*}} -> !torch.vtensor<[1,4,10],f32>
// CHECK: %[[T:.*]] = torch.aten.bmm %[[X]], %[[WX]] : {{.*}} -> !torch.vtensor<[1,6,10],f32>
// CHECK: %[[SPLIT:.*]] = torch.aten.view %[[T]], {{.*}} -> !torch.vtensor<[1,2,3,10],f32>
// CHECK: torch.aten.select.int %[[GRID]], %int2, %int1
// CHECK: %[[P:.*]] = torch.aten.mul.Tensor %[[SPLIT]], {{.*}} : !torch.vtensor<[1,2,3,10],f32>, !torch.vtensor<[1,1,3,10],f32> -> !torch.vtensor<[1,2,3,10],f32>
// CHECK: %[[S:.*]] = torch.aten.sum.dim_IntList %[[P]], {{.*}} -> !torch.vtensor<[1,2,10],f32>
// CHECK: torch.aten.view %[[S]], {{.*}} -> !torch.vtensor<[1,2,2,5],f32>
func.func @grid_sample(%x: !torch.vtensor<[1,2,3,4],f32>, %grid: !torch.vtensor<[1,2,5,2],f32>) -> !torch.vtensor<[1,2,2,5],f32> attributes {torch.onnx_meta.opset_version = 16 : si64} {
  %0 = torch.operator "onnx.GridSample"(%x, %grid) {torch.onnx.padding_mode = "border"} : (!torch.vtensor<[1,2,3,4],f32>, !torch.vtensor<[1,2,5,2],f32>) -> !torch.vtensor<[1,2,2,5],f32>
  return %0 : !torch.vtensor<[1,2,2,5],f32>
}

// -----

func.func @grid_sample_1d(%x: !torch.vtensor<[1,2,4],f32>, %grid: !torch.vtensor<[1,5,1],f32>) -> !torch.vtensor<[1,2,5],f32> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  // expected-error @+1 {{expects X [N, C, H, W] or [N, C, D, H, W] and a matching grid}}
  %0 = torch.operator "onnx.GridSample"(%x, %grid) : (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,5,1],f32>) -> !torch.vtensor<[1,2,5],f32>
  return %0 : !torch.vtensor<[1,2,5],f32>
}

// -----

// AffineGrid, align_corners: the homogeneous coordinates [x, y, 1] of the
// 2x3 grid (x fastest; -1 to 1 through the corner pixels) as a literal,
// times theta^T.
// CHECK-LABEL: func.func @affine_grid_2d_align_corners
// CHECK: %[[BASE:.*]] = torch.vtensor.literal(dense<{{\[}}[-1.000000e+00, -1.000000e+00, 1.000000e+00], [0.000000e+00, -1.000000e+00, 1.000000e+00], [1.000000e+00, -1.000000e+00, 1.000000e+00], [-1.000000e+00, 1.000000e+00, 1.000000e+00], [0.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<6x3xf32>)
// CHECK: %[[T:.*]] = torch.aten.transpose.int %arg0, %int1, %int2 : {{.*}} -> !torch.vtensor<[2,3,2],f32>
// CHECK: %[[GRID:.*]] = torch.aten.matmul %[[BASE]], %[[T]] : {{.*}} -> !torch.vtensor<[2,6,2],f32>
// CHECK: torch.aten.view %[[GRID]], {{.*}} -> !torch.vtensor<[2,2,3,2],f32>
func.func @affine_grid_2d_align_corners(%theta: !torch.vtensor<[2,2,3],f32>, %size: !torch.vtensor<[4],si64>) -> !torch.vtensor<[2,2,3,2],f32> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  %0 = torch.operator "onnx.AffineGrid"(%theta, %size) {torch.onnx.align_corners = 1 : si64} : (!torch.vtensor<[2,2,3],f32>, !torch.vtensor<[4],si64>) -> !torch.vtensor<[2,2,3,2],f32>
  return %0 : !torch.vtensor<[2,2,3,2],f32>
}

// -----

// Without align_corners, pixel centers: a size of 2 gives -0.5 and 0.5, a
// size of 1 gives 0.
// CHECK-LABEL: func.func @affine_grid_2d_centers
// CHECK: torch.vtensor.literal(dense<{{\[}}[-5.000000e-01, 0.000000e+00, 1.000000e+00], [5.000000e-01, 0.000000e+00, 1.000000e+00]]> : tensor<2x3xf32>)
func.func @affine_grid_2d_centers(%theta: !torch.vtensor<[1,2,3],f32>, %size: !torch.vtensor<[4],si64>) -> !torch.vtensor<[1,1,2,2],f32> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  %0 = torch.operator "onnx.AffineGrid"(%theta, %size) : (!torch.vtensor<[1,2,3],f32>, !torch.vtensor<[4],si64>) -> !torch.vtensor<[1,1,2,2],f32>
  return %0 : !torch.vtensor<[1,1,2,2],f32>
}

// -----

func.func @affine_grid_bad_theta(%theta: !torch.vtensor<[1,2,4],f32>, %size: !torch.vtensor<[4],si64>) -> !torch.vtensor<[1,1,2,2],f32> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  // expected-error @+1 {{theta must be [N, 2, 3] or [N, 3, 4]}}
  %0 = torch.operator "onnx.AffineGrid"(%theta, %size) : (!torch.vtensor<[1,2,4],f32>, !torch.vtensor<[4],si64>) -> !torch.vtensor<[1,1,2,2],f32>
  return %0 : !torch.vtensor<[1,1,2,2],f32>
}

// -----

// Upsample-9: Resize of every dim by the run-time scales, asymmetric
// coordinates and floor nearest mode.
// CHECK-LABEL: func.func @upsample_nearest
// CHECK: torch.aten.select.int %arg1, %int0, %int0
// CHECK: torch.aten.floor
// CHECK: torch.aten.matmul {{.*}} -> !torch.vtensor<[1,1,4,6],f32>
func.func @upsample_nearest(%x: !torch.vtensor<[1,1,2,2],f32>, %scales: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,1,4,6],f32> attributes {torch.onnx_meta.opset_version = 9 : si64} {
  %0 = torch.operator "onnx.Upsample"(%x, %scales) {torch.onnx.mode = "nearest"} : (!torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,1,4,6],f32>
  return %0 : !torch.vtensor<[1,1,4,6],f32>
}

// -----

// Upsample-7 reads its scales from the attribute: unit scales are skipped.
// CHECK-LABEL: func.func @upsample_7
// CHECK-NOT: torch.aten.select.int
// CHECK-COUNT-2: torch.aten.matmul
// CHECK-NOT: torch.aten.matmul
func.func @upsample_7(%x: !torch.vtensor<[1,1,2,2],f32>) -> !torch.vtensor<[1,1,4,6],f32> attributes {torch.onnx_meta.opset_version = 7 : si64} {
  %0 = torch.operator "onnx.Upsample"(%x) {torch.onnx.scales = [1.0 : f32, 1.0 : f32, 2.0 : f32, 3.0 : f32]} : (!torch.vtensor<[1,1,2,2],f32>) -> !torch.vtensor<[1,1,4,6],f32>
  return %0 : !torch.vtensor<[1,1,4,6],f32>
}

// -----

func.func @upsample_cubic(%x: !torch.vtensor<[1,1,2,2],f32>, %scales: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,1,4,6],f32> attributes {torch.onnx_meta.opset_version = 9 : si64} {
  // expected-error @+1 {{'onnx.Upsample' (opset 9) could not be lowered to the torch dialect: unsupported mode 'cubic' (expects nearest or linear)}}
  %0 = torch.operator "onnx.Upsample"(%x, %scales) {torch.onnx.mode = "cubic"} : (!torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,1,4,6],f32>
  return %0 : !torch.vtensor<[1,1,4,6],f32>
}
