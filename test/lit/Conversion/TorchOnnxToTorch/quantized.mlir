// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// MatMulInteger of int8 operands without zero points: aten._int_mm alone.
// CHECK-LABEL: func.func @matmulinteger_int8
// CHECK: %[[MM:.*]] = torch.aten._int_mm %arg0, %arg1 : !torch.vtensor<[4,8],si8>, !torch.vtensor<[8,3],si8> -> !torch.vtensor<[4,3],si32>
// CHECK-NEXT: return %[[MM]]
func.func @matmulinteger_int8(%a: !torch.vtensor<[4,8],si8>, %b: !torch.vtensor<[8,3],si8>) -> !torch.vtensor<[4,3],si32> attributes {torch.onnx_meta.opset_version = 10 : si64} {
  %0 = torch.operator "onnx.MatMulInteger"(%a, %b) : (!torch.vtensor<[4,8],si8>, !torch.vtensor<[8,3],si8>) -> !torch.vtensor<[4,3],si32>
  return %0 : !torch.vtensor<[4,3],si32>
}

// -----

// A uint8 operand moves to int8 (minus 128, in int16), and so does its
// (run-time) zero point; the product then loses za' times b's column sums.
// CHECK-LABEL: func.func @matmulinteger_uint8
// CHECK: %[[WIDE:.*]] = torch.aten.to.dtype %arg0, {{.*}} -> !torch.vtensor<[4,8],si16>
// CHECK: %[[MOVED:.*]] = torch.aten.sub.Scalar %[[WIDE]], %{{.*}}, %{{.*}} : !torch.vtensor<[4,8],si16>
// CHECK: %[[A8:.*]] = torch.aten.to.dtype %[[MOVED]], {{.*}} -> !torch.vtensor<[4,8],si8>
// CHECK: %[[MM:.*]] = torch.aten._int_mm %[[A8]], %arg1
// CHECK: %[[ZA:.*]] = torch.aten.to.dtype %arg2, {{.*}} -> !torch.vtensor<[],si32>
// CHECK: %[[ZA2:.*]] = torch.aten.sub.Scalar %[[ZA]]
// CHECK: %[[COLS:.*]] = torch.aten.sum.dim_IntList %{{.*}} : !torch.vtensor<[8,3],si32>, !torch.list<int>, !torch.bool, !torch.int -> !torch.vtensor<[1,3],si32>
// CHECK: %[[CORR:.*]] = torch.aten.mul.Tensor %[[ZA2]], %[[COLS]] : !torch.vtensor<[],si32>, !torch.vtensor<[1,3],si32> -> !torch.vtensor<[1,3],si32>
// CHECK: torch.aten.sub.Tensor %[[MM]], %[[CORR]], %{{.*}} : !torch.vtensor<[4,3],si32>, !torch.vtensor<[1,3],si32>, !torch.int -> !torch.vtensor<[4,3],si32>
func.func @matmulinteger_uint8(%a: !torch.vtensor<[4,8],ui8>, %b: !torch.vtensor<[8,3],si8>, %za: !torch.vtensor<[],ui8>) -> !torch.vtensor<[4,3],si32> attributes {torch.onnx_meta.opset_version = 10 : si64} {
  %0 = torch.operator "onnx.MatMulInteger"(%a, %b, %za) : (!torch.vtensor<[4,8],ui8>, !torch.vtensor<[8,3],si8>, !torch.vtensor<[],ui8>) -> !torch.vtensor<[4,3],si32>
  return %0 : !torch.vtensor<[4,3],si32>
}

// -----

// A literal input zero point goes into int_conv2d (7 - 128 = -121), which
// pads with it; a symmetric int8 weight needs no other term.
// CHECK-LABEL: func.func @convinteger_literal_zero
// CHECK: %[[ZERO:.*]] = torch.constant.int -121
// CHECK: %[[X8:.*]] = torch.aten.to.dtype %{{.*}} -> !torch.vtensor<[1,2,5,5],si8>
// CHECK: %[[CONV:.*]] = torch.torch2mlir.int_conv2d %[[X8]], %[[ZERO]], %arg1, {{.*}} -> !torch.vtensor<[1,3,5,5],si32>
// CHECK-NEXT: return %[[CONV]]
func.func @convinteger_literal_zero(%x: !torch.vtensor<[1,2,5,5],ui8>, %w: !torch.vtensor<[3,2,3,3],si8>) -> !torch.vtensor<[1,3,5,5],si32> attributes {torch.onnx_meta.opset_version = 10 : si64} {
  %zx = torch.vtensor.literal(dense<7> : tensor<ui8>) : !torch.vtensor<[],ui8>
  %0 = torch.operator "onnx.ConvInteger"(%x, %w, %zx) {torch.onnx.pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64]} : (!torch.vtensor<[1,2,5,5],ui8>, !torch.vtensor<[3,2,3,3],si8>, !torch.vtensor<[],ui8>) -> !torch.vtensor<[1,3,5,5],si32>
  return %0 : !torch.vtensor<[1,3,5,5],si32>
}

// -----

// The importer's uint8 literals are signless bytes: dense<-56> is 200, so
// the moved zero point is 200 - 128 = 72.
// CHECK-LABEL: func.func @convinteger_signless_literal
// CHECK: torch.constant.int 72
// CHECK: torch.torch2mlir.int_conv2d
func.func @convinteger_signless_literal(%x: !torch.vtensor<[1,2,5,5],ui8>, %w: !torch.vtensor<[3,2,3,3],si8>) -> !torch.vtensor<[1,3,3,3],si32> attributes {torch.onnx_meta.opset_version = 10 : si64} {
  %zx = torch.vtensor.literal(dense<-56> : tensor<i8>) : !torch.vtensor<[],ui8>
  %0 = torch.operator "onnx.ConvInteger"(%x, %w, %zx) : (!torch.vtensor<[1,2,5,5],ui8>, !torch.vtensor<[3,2,3,3],si8>, !torch.vtensor<[],ui8>) -> !torch.vtensor<[1,3,3,3],si32>
  return %0 : !torch.vtensor<[1,3,3,3],si32>
}

// -----

// Run-time zero points: x8 padded with 0 minus zx' times the convolution of
// an image of ones; a per-channel weight zero point takes out the window
// sums (the convolution by a kernel of ones), viewed per channel.
// CHECK-LABEL: func.func @convinteger_runtime_zero_points
// CHECK: %[[KERNEL:.*]] = torch.aten.ones {{.*}} -> !torch.vtensor<[1,2,3,3],si8>
// CHECK: %[[IMAGE:.*]] = torch.aten.ones {{.*}} -> !torch.vtensor<[1,2,5,5],si8>
// CHECK: torch.torch2mlir.int_conv2d %[[IMAGE]], %{{.*}} -> !torch.vtensor<[1,3,3,3],si32>
// CHECK: torch.torch2mlir.int_conv2d {{.*}} -> !torch.vtensor<[1,3,3,3],si32>
// CHECK: torch.torch2mlir.int_conv2d %[[IMAGE]], %{{.*}}, %[[KERNEL]], {{.*}} -> !torch.vtensor<[1,1,3,3],si32>
// CHECK: torch.torch2mlir.int_conv2d %{{.*}}, %{{.*}}, %[[KERNEL]], {{.*}} -> !torch.vtensor<[1,1,3,3],si32>
// CHECK: torch.aten.view %{{.*}} : !torch.vtensor<[3],si32>, !torch.list<int> -> !torch.vtensor<[1,3,1,1],si32>
// CHECK: %[[RESULT:.*]] = torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[1,3,3,3],si32>
// CHECK-NEXT: return %[[RESULT]]
func.func @convinteger_runtime_zero_points(%x: !torch.vtensor<[1,2,5,5],ui8>, %w: !torch.vtensor<[3,2,3,3],ui8>, %zx: !torch.vtensor<[],ui8>, %zw: !torch.vtensor<[3],ui8>) -> !torch.vtensor<[1,3,3,3],si32> attributes {torch.onnx_meta.opset_version = 10 : si64} {
  %0 = torch.operator "onnx.ConvInteger"(%x, %w, %zx, %zw) : (!torch.vtensor<[1,2,5,5],ui8>, !torch.vtensor<[3,2,3,3],ui8>, !torch.vtensor<[],ui8>, !torch.vtensor<[3],ui8>) -> !torch.vtensor<[1,3,3,3],si32>
  return %0 : !torch.vtensor<[1,3,3,3],si32>
}

// -----

// No int8 form of a grouped convolution: refused with the reason.
func.func @convinteger_grouped(%x: !torch.vtensor<[1,2,5,5],ui8>, %w: !torch.vtensor<[2,1,3,3],si8>) -> !torch.vtensor<[1,2,3,3],si32> attributes {torch.onnx_meta.opset_version = 10 : si64} {
  // expected-error @+1 {{unsupported: a grouped integer convolution or asymmetric padding}}
  %0 = torch.operator "onnx.ConvInteger"(%x, %w) {torch.onnx.group = 2 : si64} : (!torch.vtensor<[1,2,5,5],ui8>, !torch.vtensor<[2,1,3,3],si8>) -> !torch.vtensor<[1,2,3,3],si32>
  return %0 : !torch.vtensor<[1,2,3,3],si32>
}

// -----

// QLinearMatMul of 2-D operands: the int8 product, then the requantization
// in float64 (times a_scale * b_scale / y_scale, plus y_zp, rounded half to
// even, saturated).
// CHECK-LABEL: func.func @qlinearmatmul
// CHECK: torch.aten._int_mm
// CHECK: torch.aten.div.Tensor {{.*}} -> !torch.vtensor<[1],f32>
// CHECK: torch.aten.floor {{.*}} -> !torch.vtensor<[2,3],f64>
// CHECK: torch.aten.clamp {{.*}} -> !torch.vtensor<[2,3],f64>
// CHECK: torch.aten.to.dtype {{.*}} -> !torch.vtensor<[2,3],ui8>
// CHECK-NOT: torch.aten.matmul
func.func @qlinearmatmul(%a: !torch.vtensor<[2,4],ui8>, %as: !torch.vtensor<[1],f32>, %az: !torch.vtensor<[1],ui8>, %b: !torch.vtensor<[4,3],ui8>, %bs: !torch.vtensor<[1],f32>, %bz: !torch.vtensor<[1],ui8>, %ys: !torch.vtensor<[1],f32>, %yz: !torch.vtensor<[1],ui8>) -> !torch.vtensor<[2,3],ui8> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (!torch.vtensor<[2,4],ui8>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],ui8>, !torch.vtensor<[4,3],ui8>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],ui8>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],ui8>) -> !torch.vtensor<[2,3],ui8>
  return %0 : !torch.vtensor<[2,3],ui8>
}

// -----

// A batched b has no int8 kernel: exact float64 matmul of the centered
// operands.
// CHECK-LABEL: func.func @qlinearmatmul_batched
// CHECK-NOT: torch.aten._int_mm
// CHECK: torch.aten.matmul {{.*}} -> !torch.vtensor<[2,2,3],f64>
func.func @qlinearmatmul_batched(%a: !torch.vtensor<[2,2,4],si8>, %as: !torch.vtensor<[1],f32>, %az: !torch.vtensor<[1],si8>, %b: !torch.vtensor<[2,4,3],si8>, %bs: !torch.vtensor<[1],f32>, %bz: !torch.vtensor<[1],si8>, %ys: !torch.vtensor<[1],f32>, %yz: !torch.vtensor<[1],si8>) -> !torch.vtensor<[2,2,3],si8> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (!torch.vtensor<[2,2,4],si8>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],si8>, !torch.vtensor<[2,4,3],si8>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],si8>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],si8>) -> !torch.vtensor<[2,2,3],si8>
  return %0 : !torch.vtensor<[2,2,3],si8>
}

// -----

// QDQ: DequantizeLinear -> Conv becomes the integer convolution of the
// integers, rescaled by x_scale * w_scale (per output channel, viewed along
// dim 1), plus the bias; no float convolution remains.
// CHECK-LABEL: func.func @qdq_conv
// CHECK: %[[CONV:.*]] = torch.torch2mlir.int_conv2d
// CHECK: %[[SCALE:.*]] = torch.aten.mul.Tensor %{{.*}}, %{{.*}} : !torch.vtensor<[4],f32>, !torch.vtensor<[],f32> -> !torch.vtensor<[4],f32>
// CHECK: %[[CHANNELS:.*]] = torch.aten.view %[[SCALE]], {{.*}} -> !torch.vtensor<[1,4,1,1],f32>
// CHECK: %[[FLOAT:.*]] = torch.aten.to.dtype %[[CONV]], {{.*}} -> !torch.vtensor<[1,4,3,3],f32>
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Tensor %[[FLOAT]], %[[CHANNELS]]
// CHECK: torch.aten.add.Tensor %[[SCALED]], %{{.*}}, %{{.*}} : !torch.vtensor<[1,4,3,3],f32>, !torch.vtensor<[1,4,1,1],f32>
// CHECK-NOT: torch.aten.convolution
func.func @qdq_conv(%xq: !torch.vtensor<[1,2,5,5],ui8>, %wq: !torch.vtensor<[4,2,3,3],si8>, %bias: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,3,3],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %xs = torch.vtensor.literal(dense<0.5> : tensor<f32>) : !torch.vtensor<[],f32>
  %xz = torch.vtensor.literal(dense<3> : tensor<i8>) : !torch.vtensor<[],ui8>
  %ws = torch.vtensor.literal(dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %x = torch.operator "onnx.DequantizeLinear"(%xq, %xs, %xz) : (!torch.vtensor<[1,2,5,5],ui8>, !torch.vtensor<[],f32>, !torch.vtensor<[],ui8>) -> !torch.vtensor<[1,2,5,5],f32>
  %w = torch.operator "onnx.DequantizeLinear"(%wq, %ws) {torch.onnx.axis = 0 : si64} : (!torch.vtensor<[4,2,3,3],si8>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[4,2,3,3],f32>
  %0 = torch.operator "onnx.Conv"(%x, %w, %bias) : (!torch.vtensor<[1,2,5,5],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,3,3],f32>
  return %0 : !torch.vtensor<[1,4,3,3],f32>
}

// -----

// A weight dequantized along another axis than its output channels keeps
// the float path.
// CHECK-LABEL: func.func @qdq_conv_wrong_axis
// CHECK: torch.aten.convolution
// CHECK-NOT: int_conv2d
func.func @qdq_conv_wrong_axis(%xq: !torch.vtensor<[1,2,5,5],ui8>, %wq: !torch.vtensor<[4,2,3,3],si8>) -> !torch.vtensor<[1,4,3,3],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %xs = torch.vtensor.literal(dense<0.5> : tensor<f32>) : !torch.vtensor<[],f32>
  %ws = torch.vtensor.literal(dense<[0.1, 0.2]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %x = torch.operator "onnx.DequantizeLinear"(%xq, %xs) : (!torch.vtensor<[1,2,5,5],ui8>, !torch.vtensor<[],f32>) -> !torch.vtensor<[1,2,5,5],f32>
  %w = torch.operator "onnx.DequantizeLinear"(%wq, %ws) {torch.onnx.axis = 1 : si64} : (!torch.vtensor<[4,2,3,3],si8>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[4,2,3,3],f32>
  %0 = torch.operator "onnx.Conv"(%x, %w) : (!torch.vtensor<[1,2,5,5],f32>, !torch.vtensor<[4,2,3,3],f32>) -> !torch.vtensor<[1,4,3,3],f32>
  return %0 : !torch.vtensor<[1,4,3,3],f32>
}
