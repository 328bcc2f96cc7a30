// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// No padding, no bias: a zero-filled linalg.conv_2d_nchw_fchw.
// CHECK-LABEL: func.func @conv_no_padding(
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[4,3,3,3],f32> -> tensor<4x3x3x3xf32>
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,3,8,8],f32> -> tensor<1x3x8x8xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x6x6xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<1x4x6x6xf32>)
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%[[FILL]] : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
// CHECK: torch_c.from_builtin_tensor %[[CONV]] : tensor<1x4x6x6xf32> -> !torch.vtensor<[1,4,6,6],f32>
func.func @conv_no_padding(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,3],f32>) -> !torch.vtensor<[1,4,6,6],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %false, %p, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,6,6],f32>
  return %0 : !torch.vtensor<[1,4,6,6],f32>
}

// -----

// Padding [1, 2] -> tensor.pad with zeros; the bias initializes the
// accumulator, broadcast along dim 1; stride 2 and dilation 1.
// CHECK: #[[CHANNEL:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_padding_bias(
// CHECK-DAG: %[[BIAS:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[4],f32> -> tensor<4xf32>
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[4,3,3,3],f32> -> tensor<4x3x3x3xf32>
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,3,8,8],f32> -> tensor<1x3x8x8xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 0, 1, 2] high[0, 0, 1, 2] {
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: } : tensor<1x3x8x8xf32> to tensor<1x3x10x12xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x4x5xf32>
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[CHANNEL]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[BIAS]] : tensor<4xf32>) outs(%[[EMPTY]] : tensor<1x4x4x5xf32>)
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %[[W]] : tensor<1x3x10x12xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
// CHECK: torch_c.from_builtin_tensor %[[CONV]]
func.func @conv_padding_bias(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,4,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %s, %p, %d, %false, %op, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4,5],f32>
  return %0 : !torch.vtensor<[1,4,4,5],f32>
}

// -----

// Dilation [2, 1]; single-element lists apply to both spatial dims.
// CHECK-LABEL: func.func @conv_dilation(
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x7x7xf32>, tensor<1x1x3x3xf32>) outs(%{{.*}} : tensor<1x1x3x5xf32>)
func.func @conv_dilation(%x: !torch.vtensor<[1,1,7,7],f32>, %w: !torch.vtensor<[1,1,3,3],f32>) -> !torch.vtensor<[1,1,3,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %d, %false, %p, %int1 : !torch.vtensor<[1,1,7,7],f32>, !torch.vtensor<[1,1,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,1,3,5],f32>
  return %0 : !torch.vtensor<[1,1,3,5],f32>
}

// -----

// groups = 2: the channel dims are split into (groups, channels per group).
// CHECK-LABEL: func.func @conv_groups(
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[6,2,3,3],f32> -> tensor<6x2x3x3xf32>
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,4,5,5],f32> -> tensor<2x4x5x5xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x6x3x3xf32>)
// CHECK: %[[GX:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 2, 2, 5, 5] : tensor<2x4x5x5xf32> into tensor<2x2x2x5x5xf32>
// CHECK: %[[GW:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
// CHECK: %[[GI:.*]] = tensor.expand_shape %[[FILL]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 2, 3, 3, 3] : tensor<2x6x3x3xf32> into tensor<2x2x3x3x3xf32>
// CHECK: %[[CONV:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[GX]], %[[GW]] : tensor<2x2x2x5x5xf32>, tensor<2x3x2x3x3xf32>) outs(%[[GI]] : tensor<2x2x3x3x3xf32>) -> tensor<2x2x3x3x3xf32>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[CONV]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<2x2x3x3x3xf32> into tensor<2x6x3x3xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x6x3x3xf32> -> !torch.vtensor<[2,6,3,3],f32>
func.func @conv_groups(%x: !torch.vtensor<[2,4,5,5],f32>, %w: !torch.vtensor<[6,2,3,3],f32>) -> !torch.vtensor<[2,6,3,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %false, %p, %int2 : !torch.vtensor<[2,4,5,5],f32>, !torch.vtensor<[6,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,6,3,3],f32>
  return %0 : !torch.vtensor<[2,6,3,3],f32>
}

// -----

// A result size that is not the convolution's is reported, not lowered.
func.func @conv_wrong_size(%x: !torch.vtensor<[1,4,5,5],f32>, %w: !torch.vtensor<[2,4,3,3],f32>) -> !torch.vtensor<[1,2,4,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.convolution' could not be lowered to linalg-on-tensors: result size does not match the convolution}}
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %false, %p, %int1 : !torch.vtensor<[1,4,5,5],f32>, !torch.vtensor<[2,4,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,4,3],f32>
  return %0 : !torch.vtensor<[1,2,4,3],f32>
}

// -----

// An ungrouped 3-D convolution: padded input, bias accumulator, and
// linalg.conv_3d_ncdhw_fcdhw (the RefBackend's 3-D GEMM kernel).
// CHECK-LABEL: func.func @conv3d(
// CHECK: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 0, 1] high[0, 0, 1, 0, 1]
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<1x4x3x2x4xf32>)
// CHECK: linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[2, 1, 1]> : tensor<3xi64>} ins(%[[PADDED]], %{{.*}} : tensor<1x2x6x4x6xf32>, tensor<4x2x2x3x3xf32>) outs(%[[INIT]] : tensor<1x4x3x2x4xf32>)
func.func @conv3d(%x: !torch.vtensor<[1,2,4,4,4],f32>, %w: !torch.vtensor<[4,2,2,3,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,3,2,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int0, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %s, %p, %d, %false, %op, %int1 : !torch.vtensor<[1,2,4,4,4],f32>, !torch.vtensor<[4,2,2,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,3,2,4],f32>
  return %0 : !torch.vtensor<[1,4,3,2,4],f32>
}

// -----

// A dynamic batch of a 3-D convolution: linalg.conv_3d_ncdhw_fcdhw of the
// run-time batch, read from the padded input.
// CHECK-LABEL: func.func @conv3d_dynamic_batch(
// CHECK: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 0, 1] high[0, 0, 1, 0, 1]
// CHECK: } : tensor<?x2x4x4x4xf32> to tensor<?x2x6x4x6xf32>
// CHECK-NOT: scf.for
// CHECK: %[[N:.*]] = tensor.dim %[[PADDED]], %c0
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x4x3x2x4xf32>
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?x4x3x2x4xf32>)
// CHECK: linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[2, 1, 1]> : tensor<3xi64>} ins(%[[PADDED]], %{{.*}} : tensor<?x2x6x4x6xf32>, tensor<4x2x2x3x3xf32>) outs(%[[BIAS]] : tensor<?x4x3x2x4xf32>)
func.func @conv3d_dynamic_batch(%x: !torch.vtensor<[?,2,4,4,4],f32>, %w: !torch.vtensor<[4,2,2,3,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[?,4,3,2,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int0, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %s, %p, %d, %false, %op, %int1 : !torch.vtensor<[?,2,4,4,4],f32>, !torch.vtensor<[4,2,2,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[?,4,3,2,4],f32>
  return %0 : !torch.vtensor<[?,4,3,2,4],f32>
}

// -----

// A dynamic depth: the output depth is (D - 2) / 1 + 1 at run time.
// CHECK-LABEL: func.func @conv3d_dynamic_depth(
// CHECK: %[[X:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[1,2,?,4,4],f32> -> tensor<1x2x?x4x4xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %c2
// CHECK: %[[MINUS:.*]] = arith.subi %[[D]], %c2
// CHECK: %[[DIV:.*]] = arith.divui %[[MINUS]], %c1
// CHECK: %[[OD:.*]] = arith.addi %[[DIV]], %c1
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[OD]]) : tensor<1x4x?x2x2xf32>
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<1x4x?x2x2xf32>)
// CHECK: linalg.conv_3d_ncdhw_fcdhw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x?x4x4xf32>, tensor<4x2x2x3x3xf32>) outs(%[[ZEROS]] : tensor<1x4x?x2x2xf32>)
func.func @conv3d_dynamic_depth(%x: !torch.vtensor<[1,2,?,4,4],f32>, %w: !torch.vtensor<[4,2,2,3,3],f32>) -> !torch.vtensor<[1,4,?,2,2],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %false, %p, %int1 : !torch.vtensor<[1,2,?,4,4],f32>, !torch.vtensor<[4,2,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,?,2,2],f32>
  return %0 : !torch.vtensor<[1,4,?,2,2],f32>
}

// -----

// A grouped f16 convolution of dynamic batch and height: the general
// convolution accumulates in f32 into the bias of the run-time sizes
// (batch, and (H + 2 - 3) / 2 + 1), then rounds once.
// CHECK-LABEL: func.func @conv2d_f16_grouped_dynamic_height(
// CHECK: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: } : tensor<?x4x?x6xf16> to tensor<?x4x?x8xf16>
// CHECK: %[[SOURCE:.*]] = tensor.expand_shape %[[PADDED]] {{\[}}[0], [1, 2], [3], [4]] output_shape [%{{.*}}, 2, 2, %{{.*}}, 8] : tensor<?x4x?x8xf16> into tensor<?x2x2x?x8xf16>
// CHECK: %[[N:.*]] = tensor.dim %[[PADDED]], %c0
// CHECK: %[[H:.*]] = tensor.dim %[[PADDED]], %c2
// CHECK: %[[MINUS:.*]] = arith.subi %[[H]], %c3
// CHECK: %[[DIV:.*]] = arith.divui %[[MINUS]], %c2
// CHECK: %[[OH:.*]] = arith.addi %[[DIV]], %c1
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]], %[[OH]]) : tensor<?x2x3x?x3xf32>
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?x2x3x?x3xf32>)
// CHECK: arith.extf
// CHECK: %[[CONV:.*]] = linalg.generic {{.*}} ins(%[[SOURCE]], %{{.*}} : tensor<?x2x2x?x8xf16>, tensor<2x3x2x3x3xf16>) outs(%[[BIAS]] : tensor<?x2x3x?x3xf32>)
// CHECK: tensor.collapse_shape %[[CONV]] {{\[}}[0], [1, 2], [3], [4]] : tensor<?x2x3x?x3xf32> into tensor<?x6x?x3xf32>
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @conv2d_f16_grouped_dynamic_height(%x: !torch.vtensor<[?,4,?,6],f16>, %w: !torch.vtensor<[6,2,3,3],f16>, %b: !torch.vtensor<[6],f16>) -> !torch.vtensor<[?,6,?,3],f16> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %s, %p, %d, %false, %p, %int2 : !torch.vtensor<[?,4,?,6],f16>, !torch.vtensor<[6,2,3,3],f16>, !torch.vtensor<[6],f16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[?,6,?,3],f16>
  return %0 : !torch.vtensor<[?,6,?,3],f16>
}

// -----

// A transposed integer convolution takes a dynamic batch only (one sample
// at a time); a dynamic spatial size is refused with the way out.
func.func @transposed_int_dynamic_width(%x: !torch.vtensor<[1,2,4,?],si32>, %w: !torch.vtensor<[2,3,2,2],si32>) -> !torch.vtensor<[1,3,5,?],si32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.convolution' could not be lowered to linalg-on-tensors: unsupported: dynamic spatial sizes of a transposed integer convolution (export with static spatial sizes)}}
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %true, %p, %int1 : !torch.vtensor<[1,2,4,?],si32>, !torch.vtensor<[2,3,2,2],si32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,5,?],si32>
  return %0 : !torch.vtensor<[1,3,5,?],si32>
}

// -----

// A transposed convolution of a dynamic height: the GEMM's columns take
// the run-time pixel count, the output height is (h - 1) * 2 - 2 + 3 + 1
// = 2h (stride 2, padding 1, kernel 3, output_padding 1), and each tap
// adds max(0, min(h - 1, (2h - 1 - shift) floordiv 2) - first + 1)
// columns, read from a full-rank slice of them at tap index 0.
// CHECK-LABEL: func.func @transposed_dynamic_height(
// CHECK: %[[IN:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[1,2,?,4],f32> -> tensor<1x2x?x4xf32>
// CHECK: %[[H:.*]] = tensor.dim %[[IN]], %c2
// CHECK: %[[H2:.*]] = arith.muli %[[H]], %c2
// CHECK: %[[OH:.*]] = arith.addi %[[H2]], %c0
// CHECK: linalg.batch_matmul {{.*}} -> tensor<1x27x?xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2, 3], [4, 5, 6]] output_shape [1, 3, 3, 3, 1, %[[H]], 4] : tensor<1x27x?xf32> into tensor<1x3x3x3x1x?x4xf32>
// CHECK: tensor.empty(%[[OH]]) : tensor<1x1x3x?x8xf32>
// CHECK: %[[HI:.*]] = arith.minsi
// CHECK: %[[COUNT:.*]] = arith.maxsi %{{.*}}, %c0
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0, 1, 1] [1, 3, 1, 1, 1, %[[COUNT]], 3] [1, 1, 1, 1, 1, 1, 1] : tensor<1x3x3x3x1x?x4xf32> to tensor<1x3x1x1x1x?x3xf32>
// CHECK: tensor.insert_slice
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] : tensor<1x1x3x?x8xf32> into tensor<1x3x?x8xf32>
func.func @transposed_dynamic_height(%x: !torch.vtensor<[1,2,?,4],f32>, %w: !torch.vtensor<[2,3,3,3],f32>) -> !torch.vtensor<[1,3,?,8],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %d, %true, %op, %int1 : !torch.vtensor<[1,2,?,4],f32>, !torch.vtensor<[2,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,?,8],f32>
  return %0 : !torch.vtensor<[1,3,?,8],f32>
}
