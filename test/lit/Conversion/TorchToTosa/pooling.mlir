// RUN: torch2mlir-opt %s -convert-torch-to-tosa -split-input-file -verify-diagnostics | FileCheck %s

// max_pool2d_with_indices whose indices are unused: tosa.max_pool2d on
// NHWC, ceil_mode's partial last window as bottom/right padding.
// CHECK-LABEL: func.func @max_pool_ceil(
// CHECK: %[[X:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>}
// CHECK: %[[P:.*]] = tosa.max_pool2d %[[X]] {kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x5x5x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK: tosa.transpose %[[P]] {perms = array<i32: 0, 3, 1, 2>}
func.func @max_pool_ceil(%a: !torch.vtensor<[1,3,5,5],f32>) -> !torch.vtensor<[1,3,3,3],f32> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0:2 = torch.aten.max_pool2d_with_indices %a, %k, %k, %p, %d, %true : !torch.vtensor<[1,3,5,5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,3,3,3],f32>, !torch.vtensor<[1,3,3,3],si64>
  return %0#0 : !torch.vtensor<[1,3,3,3],f32>
}

// -----

// The indices of a max pooling have no TOSA form: refused when used.
func.func @max_pool_indices_used(%a: !torch.vtensor<[1,3,4,4],f32>) -> !torch.vtensor<[1,3,2,2],si64> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.max_pool2d_with_indices' could not be lowered to TOSA: unsupported: the indices of a max pooling (TOSA has no argmax window)}}
  %0:2 = torch.aten.max_pool2d_with_indices %a, %k, %k, %p, %d, %false : !torch.vtensor<[1,3,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,3,2,2],f32>, !torch.vtensor<[1,3,2,2],si64>
  return %0#1 : !torch.vtensor<[1,3,2,2],si64>
}

// -----

// avg_pool2d counting the padding (PyTorch's default): the input is padded
// with zeros explicitly (TOSA's average excludes its own padding).
// CHECK-LABEL: func.func @avg_pool_count_pad(
// CHECK: tosa.pad %{{.*}} : (tensor<3x4x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<3x6x6xf32>
// CHECK: tosa.avg_pool2d %{{.*}} {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
func.func @avg_pool_count_pad(%a: !torch.vtensor<[1,3,4,4],f32>) -> !torch.vtensor<[1,3,4,4],f32> {
  %int3 = torch.constant.int 3
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool2d %a, %k, %s, %s, %false, %true, %none : !torch.vtensor<[1,3,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,3,4,4],f32>
  return %0 : !torch.vtensor<[1,3,4,4],f32>
}

// -----

// A dilated max pooling (kernel 2, stride 2, dilation 2 over 8x8 -> 2x2;
// tosa.max_pool2d has no dilation): one slice per kernel offset (0 and 2
// in each dim; no padding needed here, -inf otherwise), each kept every
// 2nd row and column through a 6-D reshape, then the maximum.
// CHECK-LABEL: func.func @max_pool_dilated(
// CHECK-NOT: tosa.pad
// CHECK: tosa.slice %{{.*}} : (tensor<1x3x8x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x4x4xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<1x3x2x2x2x2xf32>
// CHECK: tosa.slice {{.*}} -> tensor<1x3x2x1x2x1xf32>
// CHECK-COUNT-3: tosa.maximum
// CHECK-NOT: tosa.max_pool2d
func.func @max_pool_dilated(%a: !torch.vtensor<[1,3,8,8],f32>) -> !torch.vtensor<[1,3,2,2],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.max_pool2d %a, %k, %k, %p, %k, %false : !torch.vtensor<[1,3,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,3,2,2],f32>
  return %0 : !torch.vtensor<[1,3,2,2],f32>
}

// -----

// An adaptive average pooling whose output size does not divide the
// input's (7 -> 3 rows): per spatial dim, that dim moved last and
// multiplied by the averaging matrix (rows 0-2, 2-4, 4-6: thirds), then
// moved back; the width (4 -> 4) is kept.
// CHECK-LABEL: func.func @adaptive_avg_pool_uneven(
// CHECK: %[[T:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x7x4xf32>) -> tensor<1x2x4x7xf32>
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0.333333343, 0.000000e+00, 0.000000e+00], [0.333333343, 0.000000e+00, 0.000000e+00], [0.333333343, 0.333333343, 0.000000e+00]
// CHECK: tosa.matmul %{{.*}}, %{{.*}} : (tensor<1x8x7xf32>, tensor<1x7x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x3xf32>
// CHECK: tosa.transpose %{{.*}} {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x4x3xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NOT: tosa.avg_pool2d
func.func @adaptive_avg_pool_uneven(%a: !torch.vtensor<[1,2,7,4],f32>) -> !torch.vtensor<[1,2,3,4],f32> {
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %size = torch.prim.ListConstruct %int3, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten._adaptive_avg_pool2d %a, %size : !torch.vtensor<[1,2,7,4],f32>, !torch.list<int> -> !torch.vtensor<[1,2,3,4],f32>
  return %0 : !torch.vtensor<[1,2,3,4],f32>
}
