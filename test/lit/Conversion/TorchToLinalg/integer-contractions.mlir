// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// _int_mm: linalg.matmul of the int8 operands into a zero-filled int32
// accumulator (linalg.matmul sign-extends its inputs).
// CHECK-LABEL: func.func @int_mm(
// CHECK-DAG: %[[B:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[6,5],si8> -> tensor<6x5xi8>
// CHECK-DAG: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[4,6],si8> -> tensor<4x6xi8>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.*}} : tensor<4x5xi32>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<4x6xi8>, tensor<6x5xi8>) outs(%[[FILL]] : tensor<4x5xi32>)
func.func @int_mm(%a: !torch.vtensor<[4,6],si8>, %b: !torch.vtensor<[6,5],si8>) -> !torch.vtensor<[4,5],si32> {
  %0 = torch.aten._int_mm %a, %b : !torch.vtensor<[4,6],si8>, !torch.vtensor<[6,5],si8> -> !torch.vtensor<[4,5],si32>
  return %0 : !torch.vtensor<[4,5],si32>
}

// -----

// A transposed weight (a quantized linear's) is read in place through the
// matmul's indexing maps.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @int_mm_transposed_weight(
// CHECK: linalg.matmul indexing_maps = [#[[LHS]], #[[RHS]], #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<4x6xi8>, tensor<5x6xi8>) outs(%{{.*}} : tensor<4x5xi32>)
func.func @int_mm_transposed_weight(%a: !torch.vtensor<[4,6],si8>, %w: !torch.vtensor<[5,6],si8>) -> !torch.vtensor<[4,5],si32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.aten.permute %w, %dims : !torch.vtensor<[5,6],si8>, !torch.list<int> -> !torch.vtensor<[6,5],si8>
  %0 = torch.aten._int_mm %a, %t : !torch.vtensor<[4,6],si8>, !torch.vtensor<[6,5],si8> -> !torch.vtensor<[4,5],si32>
  return %0 : !torch.vtensor<[4,5],si32>
}

// -----

// uint8 operands are not _int_mm's: refused with the reason.
func.func @int_mm_uint8(%a: !torch.vtensor<[4,6],ui8>, %b: !torch.vtensor<[6,5],si8>) -> !torch.vtensor<[4,5],si32> {
  // expected-error @+1 {{needs 2-D int8 operands and an int32 result}}
  %0 = torch.aten._int_mm %a, %b : !torch.vtensor<[4,6],ui8>, !torch.vtensor<[6,5],si8> -> !torch.vtensor<[4,5],si32>
  return %0 : !torch.vtensor<[4,5],si32>
}

// -----

// int_conv2d: the input padded with its zero point (padded positions then
// contribute 0), then linalg.conv_2d_nchw_fchw_q with the input's zero point
// and the weight's (0).
// CHECK-LABEL: func.func @int_conv2d(
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[4,3,3,3],si8> -> tensor<4x3x3x3xi8>
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,3,8,8],si8> -> tensor<1x3x8x8xi8>
// CHECK: %[[PADVALUE:.*]] = arith.constant -5 : i8
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[PADVALUE]] : i8
// CHECK: } : tensor<1x3x8x8xi8> to tensor<1x3x10x10xi8>
// CHECK-DAG: %[[XZ:.*]] = arith.constant -5 : i32
// CHECK-DAG: %[[WZ:.*]] = arith.constant 0 : i32
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %[[W]], %[[XZ]], %[[WZ]] : tensor<1x3x10x10xi8>, tensor<4x3x3x3xi8>, i32, i32) outs(%[[FILL]] : tensor<1x4x4x4xi32>)
func.func @int_conv2d(%x: !torch.vtensor<[1,3,8,8],si8>, %w: !torch.vtensor<[4,3,3,3],si8>) -> !torch.vtensor<[1,4,4,4],si32> {
  %zp = torch.constant.int -5
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %stride = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dil = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.torch2mlir.int_conv2d %x, %zp, %w, %stride, %pad, %dil : !torch.vtensor<[1,3,8,8],si8>, !torch.int, !torch.vtensor<[4,3,3,3],si8>, !torch.list<int>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[1,4,4,4],si32>
  return %0 : !torch.vtensor<[1,4,4,4],si32>
}

// -----

// A zero point outside int8 has no int8 padding value.
func.func @int_conv2d_bad_zero_point(%x: !torch.vtensor<[1,3,8,8],si8>, %w: !torch.vtensor<[4,3,3,3],si8>) -> !torch.vtensor<[1,4,6,6],si32> {
  %zp = torch.constant.int 200
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %stride = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{the zero point is not an int8}}
  %0 = torch.torch2mlir.int_conv2d %x, %zp, %w, %stride, %pad, %stride : !torch.vtensor<[1,3,8,8],si8>, !torch.int, !torch.vtensor<[4,3,3,3],si8>, !torch.list<int>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[1,4,6,6],si32>
  return %0 : !torch.vtensor<[1,4,6,6],si32>
}

// -----

// A result size that is not the convolution's is refused.
func.func @int_conv2d_bad_size(%x: !torch.vtensor<[1,3,8,8],si8>, %w: !torch.vtensor<[4,3,3,3],si8>) -> !torch.vtensor<[1,4,7,7],si32> {
  %zp = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %stride = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{result size does not match the convolution}}
  %0 = torch.torch2mlir.int_conv2d %x, %zp, %w, %stride, %pad, %stride : !torch.vtensor<[1,3,8,8],si8>, !torch.int, !torch.vtensor<[4,3,3,3],si8>, !torch.list<int>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[1,4,7,7],si32>
  return %0 : !torch.vtensor<[1,4,7,7],si32>
}
