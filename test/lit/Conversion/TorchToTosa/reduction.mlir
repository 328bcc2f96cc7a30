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

// -----

// cumsum over a dim of 3: two steps (shifts 1 and 2) of pad-in-front,
// slice, add; each float add's rounding error (TwoSum) is carried in a
// second term, shifted and added alike, and added back at the end.
// CHECK-LABEL: func.func @cumsum_f32(
// CHECK: %[[X:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[P1:.*]] = tosa.pad %[[X]], %{{.*}} : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x4xf32>
// CHECK: %[[S1:.*]] = tosa.slice %[[P1]], {{.*}} -> tensor<2x3xf32>
// CHECK: %[[SUM1:.*]] = tosa.add %[[X]], %[[S1]]
// CHECK: %[[B1:.*]] = tosa.sub %[[SUM1]], %[[X]]
// CHECK: %[[A1:.*]] = tosa.sub %[[SUM1]], %[[B1]]
// CHECK: %[[EB1:.*]] = tosa.sub %[[S1]], %[[B1]]
// CHECK: %[[EA1:.*]] = tosa.sub %[[X]], %[[A1]]
// CHECK: %[[E1:.*]] = tosa.add %[[EA1]], %[[EB1]]
// CHECK: %[[P2:.*]] = tosa.pad %[[SUM1]], {{.*}} -> tensor<2x5xf32>
// CHECK: %[[S2:.*]] = tosa.slice %[[P2]]
// CHECK: %[[SUM2:.*]] = tosa.add %[[SUM1]], %[[S2]]
// CHECK: %[[E2:.*]] = tosa.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[PE:.*]] = tosa.pad %[[E1]]
// CHECK: %[[SE:.*]] = tosa.slice %[[PE]]
// CHECK: %[[ACC:.*]] = tosa.add %[[E1]], %[[SE]]
// CHECK: %[[ERR:.*]] = tosa.add %[[ACC]], %[[E2]]
// CHECK: %[[R:.*]] = tosa.add %[[SUM2]], %[[ERR]]
// CHECK: torch_c.from_builtin_tensor %[[R]]
func.func @cumsum_f32(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.cumsum %x, %int1, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// An integer product (reduce_product takes floats): padded with ones to 4,
// then halves multiplied: 4 -> 2 -> 1.
// CHECK-LABEL: func.func @prod_int(
// CHECK: %[[ONE:.*]] = "tosa.const"() <{values = dense<1> : tensor<1xi32>}>
// CHECK: %[[P:.*]] = tosa.pad %{{.*}}, %{{.*}}, %[[ONE]] : (tensor<2x3xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<2x4xi32>
// CHECK: %[[L:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<2x2xi32>
// CHECK: %[[H:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<2x2xi32>
// CHECK: %[[M:.*]] = tosa.mul %[[L]], %[[H]]
// CHECK: tosa.slice %[[M]], {{.*}} -> tensor<2x1xi32>
// CHECK: tosa.mul {{.*}} -> tensor<2x1xi32>
// CHECK-NOT: tosa.reduce_product
func.func @prod_int(%x: !torch.vtensor<[2,3],si32>) -> !torch.vtensor<[2],si32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.prod.dim_int %x, %int1, %false, %none : !torch.vtensor<[2,3],si32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[2],si32>
  return %0 : !torch.vtensor<[2],si32>
}

// -----

// any.dim: reduce_any of x != 0.
// CHECK-LABEL: func.func @any_dim(
// CHECK: %[[EQ:.*]] = tosa.equal
// CHECK: %[[NZ:.*]] = tosa.logical_not %[[EQ]]
// CHECK: tosa.reduce_any %[[NZ]] {axis = 1 : i32} : (tensor<2x3xi1>) -> tensor<2x1xi1>
func.func @any_dim(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,1],i1> {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %0 = torch.aten.any.dim %x, %int1, %true : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,1],i1>
  return %0 : !torch.vtensor<[2,1],i1>
}

// -----

// argmax of si32 (tosa.argmax has no si32 form): the first position
// where x equals its maximum, a reduce_min over the iota (the size where
// not equal).
// CHECK-LABEL: func.func @argmax_si32(
// CHECK: %[[X:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[MAX:.*]] = tosa.reduce_max %[[X]] {axis = 1 : i32}
// CHECK: %[[EQ:.*]] = tosa.equal %[[X]], %[[MAX]]
// CHECK: %[[IOTA:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi32>}>
// CHECK: %[[N:.*]] = "tosa.const"() <{values = dense<3> : tensor<1x1xi32>}>
// CHECK: %[[C:.*]] = tosa.select %[[EQ]], %[[IOTA]], %[[N]]
// CHECK: tosa.reduce_min %[[C]] {axis = 1 : i32}
// CHECK-NOT: tosa.argmax
func.func @argmax_si32(%x: !torch.vtensor<[2,3],si32>) -> !torch.vtensor<[2],si32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten.argmax %x, %int1, %false : !torch.vtensor<[2,3],si32>, !torch.int, !torch.bool -> !torch.vtensor<[2],si32>
  return %0 : !torch.vtensor<[2],si32>
}
