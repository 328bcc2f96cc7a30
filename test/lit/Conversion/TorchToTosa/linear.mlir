// RUN: torch2mlir-opt %s -convert-torch-to-tosa -split-input-file -verify-diagnostics | FileCheck %s

// matmul with batch dims on the lhs and a 2-D rhs: the batch joins M, one
// rank-3 tosa.matmul.
// CHECK-LABEL: func.func @matmul_batched_lhs(
// CHECK: %[[L:.*]] = tosa.reshape %{{.*}} : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<1x6x4xf32>
// CHECK: %[[R:.*]] = tosa.reshape %{{.*}} : (tensor<4x5xf32>, !tosa.shape<3>) -> tensor<1x4x5xf32>
// CHECK: %[[M:.*]] = tosa.matmul %[[L]], %[[R]], %{{.*}}, %{{.*}} : (tensor<1x6x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x5xf32>
// CHECK: tosa.reshape %[[M]], %{{.*}} -> tensor<2x3x5xf32>
func.func @matmul_batched_lhs(%a: !torch.vtensor<[2,3,4],f32>, %b: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[2,3,5],f32> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor<[2,3,5],f32>
  return %0 : !torch.vtensor<[2,3,5],f32>
}

// -----

// f16 accumulates in f32 and rounds once.
// CHECK-LABEL: func.func @mm_f16(
// CHECK: tosa.matmul {{.*}} -> tensor<1x2x4xf32>
// CHECK: tosa.cast %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf16>
func.func @mm_f16(%a: !torch.vtensor<[2,3],f16>, %b: !torch.vtensor<[3,4],f16>) -> !torch.vtensor<[2,4],f16> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f16>, !torch.vtensor<[3,4],f16> -> !torch.vtensor<[2,4],f16>
  return %0 : !torch.vtensor<[2,4],f16>
}

// -----

// Broadcast batch dims do not fit TOSA's matmul: refused with the reason.
func.func @matmul_broadcast_batch(%a: !torch.vtensor<[2,3,4],f32>, %b: !torch.vtensor<[1,4,5],f32>) -> !torch.vtensor<[2,3,5],f32> {
  // expected-error @+1 {{'torch.aten.matmul' could not be lowered to TOSA: unsupported: operands of rank < 2, of different dtypes, or with broadcast batch dims}}
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[1,4,5],f32> -> !torch.vtensor<[2,3,5],f32>
  return %0 : !torch.vtensor<[2,3,5],f32>
}

// -----

// A 2-D convolution: NCHW -> NHWC, OIHW -> OHWI, back to NCHW. Stride 2
// over 8 rows with padding 1 reads rows -1..7: the bottom pad shrinks to
// 0 so the window count is exact (TOSA requires it).
// CHECK-LABEL: func.func @conv2d_stride2(
// CHECK: %[[X:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x8x8x2xf32>
// CHECK: %[[W:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x2x3x3xf32>) -> tensor<4x3x3x2xf32>
// CHECK: %[[C:.*]] = tosa.conv2d %[[X]], %[[W]], %{{.*}}, %{{.*}}, %{{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: tosa.transpose %[[C]] {perms = array<i32: 0, 3, 1, 2>}
func.func @conv2d_stride2(%x: !torch.vtensor<[1,2,8,8],f32>, %w: !torch.vtensor<[4,2,3,3],f32>) -> !torch.vtensor<[1,4,4,4],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %o = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %d, %false, %o, %int1 : !torch.vtensor<[1,2,8,8],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4,4],f32>
  return %0 : !torch.vtensor<[1,4,4,4],f32>
}

// -----

// Depthwise (groups = channels): [C*M, 1, KH, KW] -> [KH, KW, C, M].
// CHECK-LABEL: func.func @depthwise(
// CHECK: %[[W:.*]] = tosa.reshape %{{.*}} : (tensor<6x1x3x3xf32>, !tosa.shape<4>) -> tensor<3x2x3x3xf32>
// CHECK: %[[WT:.*]] = tosa.transpose %[[W]] {perms = array<i32: 2, 3, 0, 1>} : (tensor<3x2x3x3xf32>) -> tensor<3x3x3x2xf32>
// CHECK: tosa.depthwise_conv2d %{{.*}}, %[[WT]], {{.*}} -> tensor<1x5x5x6xf32>
func.func @depthwise(%x: !torch.vtensor<[1,3,5,5],f32>, %w: !torch.vtensor<[6,1,3,3],f32>, %b: !torch.vtensor<[6],f32>) -> !torch.vtensor<[1,6,5,5],f32> {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %o = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %s, %s, %s, %false, %o, %int3 : !torch.vtensor<[1,3,5,5],f32>, !torch.vtensor<[6,1,3,3],f32>, !torch.vtensor<[6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,6,5,5],f32>
  return %0 : !torch.vtensor<[1,6,5,5],f32>
}

// -----

// Transposed convolution has no TOSA lowering here yet: refused.
func.func @transposed(%x: !torch.vtensor<[1,2,4,4],f32>, %w: !torch.vtensor<[2,3,3,3],f32>) -> !torch.vtensor<[1,3,6,6],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %o = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.convolution' could not be lowered to TOSA: unsupported: transposed convolution (TOSA backend)}}
  %0 = torch.aten.convolution %x, %w, %none, %s, %o, %s, %true, %o, %int1 : !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[2,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,6,6],f32>
  return %0 : !torch.vtensor<[1,3,6,6],f32>
}

// -----

// int8 mm: tosa.matmul with explicit zero points (the builder without them
// read quantization info plain integers lack, and crashed), i32
// accumulation, cast back to the result's int8 (wrapping, as eager).
// CHECK-LABEL: func.func @mm_i8(
// CHECK: %[[ZP:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK: %[[P:.*]] = tosa.matmul %{{.*}}, %{{.*}}, %[[ZP]], %[[ZP]] : (tensor<1x3x4xi8>, tensor<1x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x2xi32>
// CHECK: tosa.cast %{{.*}} : (tensor<3x2xi32>) -> tensor<3x2xi8>
func.func @mm_i8(%a: !torch.vtensor<[3,4],si8>, %b: !torch.vtensor<[4,2],si8>) -> !torch.vtensor<[3,2],si8> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[3,4],si8>, !torch.vtensor<[4,2],si8> -> !torch.vtensor<[3,2],si8>
  return %0 : !torch.vtensor<[3,2],si8>
}

// -----

// groups = 2 (not depthwise): one tosa.conv2d per group on its half of the
// channels and features, concatenated on the NHWC channel dim.
// CHECK-LABEL: func.func @conv_groups2(
// CHECK: %[[C0:.*]] = tosa.conv2d {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: %[[C1:.*]] = tosa.conv2d {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: tosa.concat %[[C0]], %[[C1]] {axis = 3 : i32} : (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) -> tensor<1x3x3x4xf32>
func.func @conv_groups2(%x: !torch.vtensor<[1,4,5,5],f32>, %w: !torch.vtensor<[4,2,3,3],f32>) -> !torch.vtensor<[1,4,3,3],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %o = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %false, %o, %int2 : !torch.vtensor<[1,4,5,5],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,3,3],f32>
  return %0 : !torch.vtensor<[1,4,3,3],f32>
}

// -----

// TOSA 1.0 has no zero-size tensors: refused with the way out (it was an
// assertion in a shape product).
func.func @mm_empty(%a: !torch.vtensor<[0,5],f32>, %b: !torch.vtensor<[5,10],f32>) -> !torch.vtensor<[0,10],f32> {
  // expected-error @+1 {{'torch.aten.mm' could not be lowered to TOSA: unsupported: a result with no elements (TOSA 1.0 has no zero-size tensors). Way out: backend="linalg-on-tensors"}}
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[0,5],f32>, !torch.vtensor<[5,10],f32> -> !torch.vtensor<[0,10],f32>
  return %0 : !torch.vtensor<[0,10],f32>
}
