// RUN: torch2mlir-opt %s -torch-narrow-si64 -split-input-file | FileCheck %s

// Token ids read by an embedding of 100 rows: the argument must hold
// [0, 99] (the runtime checks it), so it and the gather's indices are si32
// and the gather is in bounds.
// CHECK-LABEL: func.func @embedding_ids(
// CHECK-SAME: %arg0: !torch.vtensor<[2,8],si32> {torch2mlir.value_range = array<i64: 0, 99>}
// CHECK: torch.aten.embedding %{{.*}}, %arg0, {{.*}} {torch2mlir.indices_in_bounds} : !torch.vtensor<[100,4],f32>, !torch.vtensor<[2,8],si32>
func.func @embedding_ids(%ids: !torch.vtensor<[2,8],si64>, %w: !torch.vtensor<[100,4],f32>) -> !torch.vtensor<[2,8,4],f32> {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten.embedding %w, %ids, %int-1, %false, %false : !torch.vtensor<[100,4],f32>, !torch.vtensor<[2,8],si64>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,8,4],f32>
  return %0 : !torch.vtensor<[2,8,4],f32>
}

// -----

// Positions: arange(0, 32) + 0 viewed as [1, 32]: [0, 31] all the way, so
// the comparison and the returned positions are si32 (the function result
// too: the runtime widens it).
// CHECK-LABEL: func.func @positions(
// CHECK-SAME: -> (!torch.vtensor<[1,32],i1>, !torch.vtensor<[1,32],si32>)
// CHECK: %[[ZERO:.*]] = torch.vtensor.literal(dense<0> : tensor<i32>) : !torch.vtensor<[],si32>
// CHECK: %[[A:.*]] = torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[32],si32>
// CHECK: %[[B:.*]] = torch.aten.add.Tensor %[[A]], %[[ZERO]], %{{.*}} -> !torch.vtensor<[32],si32>
// CHECK: %[[C:.*]] = torch.aten.view %[[B]], {{.*}} -> !torch.vtensor<[1,32],si32>
// CHECK: torch.aten.ge.Scalar %[[C]], {{.*}} : !torch.vtensor<[1,32],si32>, !torch.int -> !torch.vtensor<[1,32],i1>
func.func @positions() -> (!torch.vtensor<[1,32],i1>, !torch.vtensor<[1,32],si64>) {
  %zero = torch.vtensor.literal(dense<0> : tensor<i64>) : !torch.vtensor<[],si64>
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int32 = torch.constant.int 32
  %none = torch.constant.none
  %0 = torch.aten.arange.start_step %int0, %int32, %int1, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[32],si64>
  %1 = torch.aten.add.Tensor %0, %zero, %int1 : !torch.vtensor<[32],si64>, !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[32],si64>
  %list = torch.prim.ListConstruct %int1, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.aten.view %1, %list : !torch.vtensor<[32],si64>, !torch.list<int> -> !torch.vtensor<[1,32],si64>
  %3 = torch.aten.ge.Scalar %2, %int0 : !torch.vtensor<[1,32],si64>, !torch.int -> !torch.vtensor<[1,32],i1>
  return %3, %2 : !torch.vtensor<[1,32],i1>, !torch.vtensor<[1,32],si64>
}

// -----

// Arithmetic on arguments: a + b fits in si32 when both hold 31-bit
// values, so that is the range assumed (and checked at each call); a
// product with 2^40 fits for no argument range and stays si64, for the
// backend to refuse, and so does the literal.
// CHECK-LABEL: func.func @arithmetic(
// CHECK-SAME: %arg0: !torch.vtensor<[4],si32> {torch2mlir.value_range = array<i64: -1073741824, 1073741823>}
// CHECK: torch.vtensor.literal(dense<1099511627776> : tensor<4xi64>) : !torch.vtensor<[4],si64>
// CHECK: torch.aten.add.Tensor %arg0, %arg1, %{{.*}} : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si32>, !torch.int -> !torch.vtensor<[4],si32>
// CHECK: torch.aten.mul.Tensor %arg0, %{{.*}} : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
func.func @arithmetic(%a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>) {
  %int1 = torch.constant.int 1
  %big = torch.vtensor.literal(dense<1099511627776> : tensor<4xi64>) : !torch.vtensor<[4],si64>
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>, !torch.int -> !torch.vtensor<[4],si64>
  %1 = torch.aten.mul.Tensor %a, %big : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %0, %1 : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>
}

// -----

// gather along dim 1 with indices sliced from a buffer: the requirement
// [0, 511] reaches the buffer argument through the slice; a cumsum of 16
// ones is [1, 16]; a float cast to int64 can be anything and stays si64;
// a value whose bits are read (view.dtype) stays si64.
// CHECK-LABEL: func.func @requirements(
// CHECK-SAME: %arg0: !torch.vtensor<[1,512],si32> {torch2mlir.value_range = array<i64: 0, 511>}
// CHECK: torch.aten.gather {{.*}} {torch2mlir.indices_in_bounds} : !torch.vtensor<[1,512],f32>, !torch.int, !torch.vtensor<[1,32],si32>, !torch.bool -> !torch.vtensor<[1,32],f32>
// CHECK: torch.aten.cumsum {{.*}} -> !torch.vtensor<[16],si32>
// CHECK: torch.aten._to_copy {{.*}} -> !torch.vtensor<[16],si64>
// CHECK: torch.aten.full {{.*}} -> !torch.vtensor<[2],si64>
// CHECK: torch.aten.view.dtype
func.func @requirements(%pos: !torch.vtensor<[1,512],si64>, %x: !torch.vtensor<[1,512],f32>, %f: !torch.vtensor<[16],f32>) -> (!torch.vtensor<[1,32],f32>, !torch.vtensor<[16],si64>, !torch.vtensor<[16],si64>, !torch.vtensor<[2],f64>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int7 = torch.constant.int 7
  %int16 = torch.constant.int 16
  %int32 = torch.constant.int 32
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.aten.slice.Tensor %pos, %int1, %int0, %int32, %int1 : !torch.vtensor<[1,512],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[1,32],si64>
  %1 = torch.aten.gather %x, %int1, %0, %false : !torch.vtensor<[1,512],f32>, !torch.int, !torch.vtensor<[1,32],si64>, !torch.bool -> !torch.vtensor<[1,32],f32>
  %sizes = torch.prim.ListConstruct %int16 : (!torch.int) -> !torch.list<int>
  %ones = torch.aten.full %sizes, %int1, %int4, %none, %none, %none : !torch.list<int>, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[16],si64>
  %2 = torch.aten.cumsum %ones, %int0, %none : !torch.vtensor<[16],si64>, !torch.int, !torch.none -> !torch.vtensor<[16],si64>
  %3 = torch.aten._to_copy %f, %int4, %none, %none, %none, %false, %none : !torch.vtensor<[16],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[16],si64>
  %two = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %4 = torch.aten.full %two, %int1, %int4, %none, %none, %none : !torch.list<int>, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2],si64>
  %5 = torch.aten.view.dtype %4, %int7 : !torch.vtensor<[2],si64>, !torch.int -> !torch.vtensor<[2],f64>
  return %1, %2, %3, %5 : !torch.vtensor<[1,32],f32>, !torch.vtensor<[16],si64>, !torch.vtensor<[16],si64>, !torch.vtensor<[2],f64>
}

// -----

// An int32 index argument keeps its type; its range is still required (and
// checked at run time), which proves the index_select in bounds.
// CHECK-LABEL: func.func @si32_index(
// CHECK-SAME: %arg1: !torch.vtensor<[3],si32> {torch2mlir.value_range = array<i64: 0, 4>}
// CHECK: torch.aten.index_select {{.*}} {torch2mlir.indices_in_bounds}
func.func @si32_index(%a: !torch.vtensor<[5,2],f32>, %i: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3,2],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.index_select %a, %int0, %i : !torch.vtensor<[5,2],f32>, !torch.int, !torch.vtensor<[3],si32> -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// index.Tensor's indices may be negative: the argument must hold [-6, 5]
// for a dim of 6, and the op is in bounds.
// CHECK-LABEL: func.func @index_tensor_ids(
// CHECK-SAME: %arg1: !torch.vtensor<[4],si32> {torch2mlir.value_range = array<i64: -6, 5>}
// CHECK: torch.aten.index.Tensor %arg0, %{{.*}} {torch2mlir.indices_in_bounds}
func.func @index_tensor_ids(%x: !torch.vtensor<[6,3],f32>, %i: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4,3],f32> {
  %list = torch.prim.ListConstruct %i : (!torch.vtensor<[4],si64>) -> !torch.list<optional<vtensor>>
  %0 = torch.aten.index.Tensor %x, %list : !torch.vtensor<[6,3],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

// fmod by a constant stays within (-|c|, |c|); the product of 4 bools is
// in [0, 1]; a floor division by a nonzero constant shrinks the range. A
// product of eight values does not fit even for 8-bit arguments, and stays
// si64.
// CHECK-LABEL: func.func @more_transfers(
// CHECK: torch.aten.fmod.Scalar {{.*}} -> !torch.vtensor<[8],si32>
// CHECK: torch.aten.prod.dim_int {{.*}} -> !torch.vtensor<[],si32>
// CHECK: torch.aten.div.Tensor_mode {{.*}} -> !torch.vtensor<[8],si32>
// CHECK: torch.aten.prod.dim_int {{.*}} -> !torch.vtensor<[],si64>
func.func @more_transfers(%x: !torch.vtensor<[8],si64>, %b: !torch.vtensor<[4],i1>) -> (!torch.vtensor<[8],si64>, !torch.vtensor<[],si64>, !torch.vtensor<[8],si64>, !torch.vtensor<[],si64>) {
  %int7 = torch.constant.int 7
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %floor = torch.constant.str "floor"
  %four = torch.vtensor.literal(dense<4> : tensor<si64>) : !torch.vtensor<[],si64>
  %0 = torch.aten.fmod.Scalar %x, %int7 : !torch.vtensor<[8],si64>, !torch.int -> !torch.vtensor<[8],si64>
  %1 = torch.aten.prod.dim_int %b, %int0, %false, %int4 : !torch.vtensor<[4],i1>, !torch.int, !torch.bool, !torch.int -> !torch.vtensor<[],si64>
  %2 = torch.aten.div.Tensor_mode %x, %four, %floor : !torch.vtensor<[8],si64>, !torch.vtensor<[],si64>, !torch.str -> !torch.vtensor<[8],si64>
  %3 = torch.aten.prod.dim_int %x, %int0, %false, %none : !torch.vtensor<[8],si64>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[],si64>
  return %0, %1, %2, %3 : !torch.vtensor<[8],si64>, !torch.vtensor<[],si64>, !torch.vtensor<[8],si64>, !torch.vtensor<[],si64>
}

// -----

// x^3 of an argument fits in int32 for values of 11 bits at most: the
// argument takes [-1024, 1023] (the widest such range, checked at each
// call), and the power narrows.
// CHECK-LABEL: func.func @cube(
// CHECK-SAME: %arg0: !torch.vtensor<[4],si32> {torch2mlir.value_range = array<i64: -1024, 1023>}
// CHECK: torch.aten.pow.Tensor_Scalar {{.*}} -> !torch.vtensor<[4],si32>
func.func @cube(%x: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.pow.Tensor_Scalar %x, %int3 : !torch.vtensor<[4],si64>, !torch.int -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// -----

// uint8 without wraparound: the maximum of two ui8 arguments and its xor
// with a literal holding 200 stay in [0, 255], so they are si16 (the
// literal's 200 zero-extended, not -56); the arguments take [0, 255] as
// their value range (the runtime passes them as int16) and the ui8 result
// comes back as si16.
// CHECK-LABEL: func.func @uint8_no_wrap(
// CHECK-SAME: %arg0: !torch.vtensor<[4],si16> {torch2mlir.value_range = array<i64: 0, 255>}
// CHECK-SAME: %arg1: !torch.vtensor<[4],si16> {torch2mlir.value_range = array<i64: 0, 255>}
// CHECK-SAME: -> (!torch.vtensor<[4],si16>, !torch.vtensor<[4],i1>)
// CHECK: torch.vtensor.literal(dense<200> : tensor<4xi16>) : !torch.vtensor<[4],si16>
// CHECK: torch.aten.maximum %arg0, %arg1 : !torch.vtensor<[4],si16>, !torch.vtensor<[4],si16> -> !torch.vtensor<[4],si16>
// CHECK: torch.aten.bitwise_xor.Tensor {{.*}} -> !torch.vtensor<[4],si16>
// CHECK: torch.aten.gt.Tensor %arg0, %arg1 : !torch.vtensor<[4],si16>, !torch.vtensor<[4],si16> -> !torch.vtensor<[4],i1>
func.func @uint8_no_wrap(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],ui8>) -> (!torch.vtensor<[4],ui8>, !torch.vtensor<[4],i1>) {
  %lit = torch.vtensor.literal(dense<200> : tensor<4xi8>) : !torch.vtensor<[4],ui8>
  %0 = torch.aten.maximum %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],ui8>
  %1 = torch.aten.bitwise_xor.Tensor %0, %lit : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],ui8>
  %2 = torch.aten.gt.Tensor %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],i1>
  return %1, %2 : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],i1>
}

// -----

// uint8 that may wrap: a + b can reach 510, which ui8 holds as its value
// modulo 256, and bitwise_not has no range rule: both stay ui8 (for the
// backend to refuse), while their operands, which cannot wrap, are si16.
// An argument whose bits are read (view.dtype) keeps its type.
// CHECK-LABEL: func.func @uint8_may_wrap(
// CHECK-SAME: %arg0: !torch.vtensor<[4],si16> {torch2mlir.value_range = array<i64: 0, 255>}
// CHECK-SAME: %arg1: !torch.vtensor<[4],si16> {torch2mlir.value_range = array<i64: 0, 255>}
// CHECK-SAME: %arg2: !torch.vtensor<[4],ui8>)
// CHECK: torch.aten.add.Tensor %arg0, %arg1, %{{.*}} -> !torch.vtensor<[4],ui8>
// CHECK: torch.aten.bitwise_not %arg0 : !torch.vtensor<[4],si16> -> !torch.vtensor<[4],ui8>
// CHECK: torch.aten.view.dtype %arg2, {{.*}} : !torch.vtensor<[4],ui8>, !torch.int -> !torch.vtensor<[4],si8>
func.func @uint8_may_wrap(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],ui8>, %c: !torch.vtensor<[4],ui8>) -> (!torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8>, !torch.vtensor<[4],si8>) {
  %int1 = torch.constant.int 1
  %int_si8 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8>, !torch.int -> !torch.vtensor<[4],ui8>
  %1 = torch.aten.bitwise_not %a : !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],ui8>
  %2 = torch.aten.view.dtype %c, %int_si8 : !torch.vtensor<[4],ui8>, !torch.int -> !torch.vtensor<[4],si8>
  return %0, %1, %2 : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8>, !torch.vtensor<[4],si8>
}
