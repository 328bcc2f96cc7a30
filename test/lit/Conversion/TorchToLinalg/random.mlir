// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// rand: one key per op, element i from SplitMix64(key + (i + 1) * gamma);
// the top 24 bits scaled by 2^-24 give a float in [0, 1).
// CHECK-LABEL: func.func @rand(
// CHECK:         %[[KEY:.*]] = torch_c.random_key
// CHECK:         linalg.generic
// CHECK:           %[[I:.*]] = linalg.index 0
// CHECK:           %[[J:.*]] = linalg.index 1
// CHECK:           arith.index_cast
// CHECK:           %[[X:.*]] = arith.addi %[[KEY]],
// CHECK-COUNT-2:   arith.muli
// CHECK:           %[[TOP:.*]] = arith.shrui %{{.*}}, %c40_i64
// CHECK:           %[[F:.*]] = arith.uitofp %[[TOP]] : i64 to f32
// CHECK:           %[[U:.*]] = arith.mulf %[[F]], %{{.*}} : f32
// CHECK:           linalg.yield %[[U]] : f32
func.func @rand() -> !torch.vtensor<[2,3],f32> {
  %i2 = torch.constant.int 2
  %i3 = torch.constant.int 3
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %i2, %i3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.rand %s, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Two random ops draw two keys (no CSE of the key); f64 uses 53 bits; a
// dynamic size comes from the size list.
// CHECK-LABEL: func.func @rand_twice_dynamic(
// CHECK:         torch_c.random_key
// CHECK:         tensor.empty(%{{.*}}) : tensor<?xf64>
// CHECK:         arith.shrui %{{.*}}, %c11_i64
// CHECK:         torch_c.random_key
func.func @rand_twice_dynamic(%n: !torch.int) -> (!torch.vtensor<[?],f64>, !torch.vtensor<[?],f64>) {
  %none = torch.constant.none
  %int7 = torch.constant.int 7
  %s = torch.prim.ListConstruct %n : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.rand %s, %int7, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?],f64>
  %1 = torch.aten.rand %s, %int7, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?],f64>
  return %0, %1 : !torch.vtensor<[?],f64>, !torch.vtensor<[?],f64>
}

// -----

// randn: Box-Muller of the counters 2i and 2i+1, computed in f32 and
// narrowed for f16.
// CHECK-LABEL: func.func @randn_f16(
// CHECK:         torch_c.random_key
// CHECK:         linalg.generic
// CHECK:           arith.shli
// CHECK:           math.log
// CHECK:           math.sqrt
// CHECK:           math.cos
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @randn_f16() -> !torch.vtensor<[8],f16> {
  %i8 = torch.constant.int 8
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %i8 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.randn %s, %int5, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[8],f16>
  return %0 : !torch.vtensor<[8],f16>
}

// -----

// A random factory of an integer dtype is not something PyTorch defines.
func.func @rand_int() -> !torch.vtensor<[2],si64> {
  %i2 = torch.constant.int 2
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %i2 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.rand' could not be lowered to linalg-on-tensors: unsupported: a random factory of a non-float dtype}}
  %0 = torch.aten.rand %s, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}

// -----

// randperm: identity, then a Fisher-Yates scf.for of extract/insert swaps.
// CHECK-LABEL: func.func @randperm(
// CHECK:         %[[ID:.*]] = linalg.generic
// CHECK:         torch_c.random_key
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %[[ID]]) -> (tensor<10xi64>)
// CHECK:           arith.remui
// CHECK-COUNT-2:   tensor.extract
// CHECK-COUNT-2:   tensor.insert
// CHECK:           scf.yield
func.func @randperm() -> !torch.vtensor<[10],si64> {
  %i10 = torch.constant.int 10
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %0 = torch.aten.randperm %i10, %int4, %none, %none, %none : !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[10],si64>
  return %0 : !torch.vtensor<[10],si64>
}

// -----

// native_dropout in training: one generic yields the scaled output and the
// bool mask (uniform < 1 - p).
// CHECK-LABEL: func.func @native_dropout(
// CHECK:         torch_c.random_key
// CHECK:         %[[R:.*]]:2 = linalg.generic
// CHECK:           arith.cmpf olt
// CHECK:           arith.ori
// CHECK:           arith.uitofp %{{.*}} : i1 to f32
// CHECK:           linalg.yield %{{.*}}, %{{.*}} : f32, i1
// CHECK:         -> (tensor<4x?xf32>, tensor<4x?xi1>)
func.func @native_dropout(%x: !torch.vtensor<[4,?],f32>) -> (!torch.vtensor<[4,?],f32>, !torch.vtensor<[4,?],i1>) {
  %p = torch.constant.float 2.500000e-01
  %true = torch.constant.bool true
  %0:2 = torch.aten.native_dropout %x, %p, %true : !torch.vtensor<[4,?],f32>, !torch.float, !torch.bool -> !torch.vtensor<[4,?],f32>, !torch.vtensor<[4,?],i1>
  return %0#0, %0#1 : !torch.vtensor<[4,?],f32>, !torch.vtensor<[4,?],i1>
}
