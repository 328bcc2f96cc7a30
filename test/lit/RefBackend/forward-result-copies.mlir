// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-forward-result-copies))' | FileCheck %s

// A result that is a reshaped view of an allocation: the allocation becomes
// the out-parameter, collapsed and expanded to its shape; the copy goes.
// CHECK-LABEL: func.func @reshaped_result
// CHECK-SAME:    (%[[IN:.*]]: memref<8x4xf32>, %[[OUT:.*]]: memref<2x4x4xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1, 2]] : memref<2x4x4xf32> into memref<32xf32>
// CHECK:         %[[BUF:.*]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [8, 4] : memref<32xf32> into memref<8x4xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[IN]] : memref<8x4xf32>) outs(%[[BUF]] : memref<8x4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reshaped_result(%in: memref<8x4xf32>, %out: memref<2x4x4xf32>) {
  %buf = memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<8x4xf32>) outs(%buf : memref<8x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  %flat = memref.collapse_shape %buf [[0, 1]] : memref<8x4xf32> into memref<32xf32>
  %view = memref.expand_shape %flat [[0, 1, 2]] output_shape [2, 4, 4] : memref<32xf32> into memref<2x4x4xf32>
  memref.copy %view, %out : memref<2x4x4xf32> to memref<2x4x4xf32>
  return
}

// -----

// The allocation copied as is (hoisting kept it, e.g. for a second use):
// the out-parameter itself replaces it; a 1-D out-parameter is not
// collapsed.
// CHECK-LABEL: func.func @same_shape
// CHECK-SAME:    (%[[IN:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         memref.copy %[[IN]], %[[OUT]]
// CHECK-NEXT:    return
func.func @same_shape(%in: memref<16xf32>, %out: memref<16xf32>) {
  %buf = memref.alloc() : memref<16xf32>
  memref.copy %in, %buf : memref<16xf32> to memref<16xf32>
  memref.copy %buf, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Views of an argument, allocations in a loop, dynamic shapes and
// out-parameters with other uses keep their copies.
// CHECK-LABEL: func.func @kept
// CHECK:         memref.copy %{{.*}}, %arg1
// CHECK:         memref.copy %{{.*}}, %arg2
// CHECK:         memref.copy %{{.*}}, %arg3
// CHECK:         memref.copy %{{.*}}, %arg4
func.func @kept(%in: memref<8x4xf32>, %out0: memref<32xf32>, %out1: memref<4xf32>,
                %out2: memref<?xf32>, %out3: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 1.0 : f32
  // A view of an argument.
  %flat = memref.collapse_shape %in [[0, 1]] : memref<8x4xf32> into memref<32xf32>
  memref.copy %flat, %out0 : memref<32xf32> to memref<32xf32>
  // An allocation inside a loop: a fresh buffer per iteration.
  %init = memref.alloc() : memref<4xf32>
  %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init) -> memref<4xf32> {
    %b = memref.alloc() : memref<4xf32>
    linalg.fill ins(%cst : f32) outs(%b : memref<4xf32>)
    scf.yield %b : memref<4xf32>
  }
  memref.copy %last, %out1 : memref<4xf32> to memref<4xf32>
  // A dynamic shape.
  %d = memref.alloc(%c4) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<?xf32>)
  memref.copy %d, %out2 : memref<?xf32> to memref<?xf32>
  // The out-parameter is read before it is written.
  %e = memref.alloc() : memref<4xf32>
  memref.copy %out3, %e : memref<4xf32> to memref<4xf32>
  memref.copy %e, %out3 : memref<4xf32> to memref<4xf32>
  return
}
