// RUN: torch2mlir-opt %s -convert-torch-to-tosa -split-input-file -verify-diagnostics | FileCheck %s

// A long float sum runs in blocks of 256, then over the block sums
// (TOSA's reduce_sum adds in sequence).
// CHECK-LABEL: func.func @sum_long(
// CHECK: %[[B:.*]] = tosa.reshape %{{.*}} : (tensor<4096xf32>, !tosa.shape<2>) -> tensor<16x256xf32>
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[B]] {axis = 1 : i32} : (tensor<16x256xf32>) -> tensor<16x1xf32>
// CHECK: %[[R:.*]] = tosa.reshape %[[S]], %{{.*}} -> tensor<16xf32>
// CHECK: tosa.reduce_sum %[[R]] {axis = 0 : i32} : (tensor<16xf32>) -> tensor<1xf32>
func.func @sum_long(%a: !torch.vtensor<[4096],f32>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.aten.sum.dim_IntList %a, %none, %false, %none : !torch.vtensor<[4096],f32>, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// softmax: exp(x - max) * reciprocal(sum), f16 computed in f32.
// CHECK-LABEL: func.func @softmax_f16(
// CHECK: %[[X:.*]] = tosa.cast %{{.*}} : (tensor<2x8xf16>) -> tensor<2x8xf32>
// CHECK: %[[M:.*]] = tosa.reduce_max %[[X]] {axis = 1 : i32}
// CHECK: %[[D:.*]] = tosa.sub %[[X]], %[[M]]
// CHECK: %[[E:.*]] = tosa.exp %[[D]]
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 1 : i32}
// CHECK: %[[I:.*]] = tosa.reciprocal %[[S]]
// CHECK: %[[P:.*]] = tosa.mul %[[E]], %[[I]]
// CHECK: tosa.cast %[[P]] : (tensor<2x8xf32>) -> tensor<2x8xf16>
func.func @softmax_f16(%a: !torch.vtensor<[2,8],f16>) -> !torch.vtensor<[2,8],f16> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int1, %false : !torch.vtensor<[2,8],f16>, !torch.int, !torch.bool -> !torch.vtensor<[2,8],f16>
  return %0 : !torch.vtensor<[2,8],f16>
}

// -----

// A 0-d input has one dim to name and nothing to reduce (it aborted).
// CHECK-LABEL: func.func @mean_0d(
// CHECK-NOT: tosa.reduce_sum
// CHECK: return
func.func @mean_0d(%a: !torch.vtensor<[],f32>) -> !torch.vtensor<[],f32> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %d = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.mean.dim %a, %d, %false, %none : !torch.vtensor<[],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// The saved statistics of inference batch norm are empty: TOSA has no
// empty tensors, so a use of them is refused.
func.func @batch_norm_stats_used(%x: !torch.vtensor<[1,2,3,3],f32>, %m: !torch.vtensor<[2],f32>, %v: !torch.vtensor<[2],f32>) -> !torch.vtensor<[0],f32> {
  %none = torch.constant.none
  %float = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  // expected-error @+1 {{'torch.aten._native_batch_norm_legit_no_training' could not be lowered to TOSA: unsupported: a use of the (empty) saved statistics}}
  %0:3 = torch.aten._native_batch_norm_legit_no_training %x, %none, %none, %m, %v, %float, %eps : !torch.vtensor<[1,2,3,3],f32>, !torch.none, !torch.none, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.float, !torch.float -> !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %0#1 : !torch.vtensor<[0],f32>
}

// -----

// prod over dim 1: tosa.reduce_product (floats only; f16 multiplies in f32).
// CHECK-LABEL: func.func @prod_f16(
// CHECK: %[[W:.*]] = tosa.cast %{{.*}} : (tensor<2x3xf16>) -> tensor<2x3xf32>
// CHECK: %[[P:.*]] = tosa.reduce_product %[[W]] {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK: tosa.cast %[[P]] : (tensor<2x1xf32>) -> tensor<2x1xf16>
func.func @prod_f16(%a: !torch.vtensor<[2,3],f16>) -> !torch.vtensor<[2],f16> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.prod.dim_int %a, %int1, %false, %none : !torch.vtensor<[2,3],f16>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[2],f16>
  return %0 : !torch.vtensor<[2],f16>
}

// -----

func.func @prod_i32(%a: !torch.vtensor<[2,3],si32>) -> !torch.vtensor<[2],si32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten.prod.dim_int' could not be lowered to TOSA: unsupported: an integer product (TOSA 1.0's reduce_product takes floats)}}
  %0 = torch.aten.prod.dim_int %a, %int1, %false, %none : !torch.vtensor<[2,3],si32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[2],si32>
  return %0 : !torch.vtensor<[2],si32>
}

// -----

// argmin of floats: the argmax of -x.
// CHECK-LABEL: func.func @argmin_f32(
// CHECK: %[[N:.*]] = tosa.negate %{{.*}}
// CHECK: tosa.argmax %[[N]] {axis = 1 : i32
func.func @argmin_f32(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2],si32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten.argmin %a, %int1, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2],si32>
  return %0 : !torch.vtensor<[2],si32>
}
