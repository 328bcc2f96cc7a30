// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-distinct-results))' | FileCheck %s

// The second use of a repeated result becomes a copy; the first stays.
// CHECK-LABEL: func.func @twice
// CHECK-SAME:    (%[[ARG:.*]]: tensor<f32>)
// CHECK:         %[[SUM:.*]] = arith.addf
// CHECK:         %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[T:.*]]) : tensor<f32>
// CHECK:         return %[[T]], %[[COPY]]
func.func @twice(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = arith.addf %arg0, %arg0 : tensor<f32>
  return %0, %0 : tensor<f32>, tensor<f32>
}

// -----

// Three uses, dynamic shape, and a distinct result in between: one copy per
// repeat, the distinct result is left alone.
// CHECK-LABEL: func.func @thrice_dynamic
// CHECK-SAME:    (%[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<?x4xf32>)
// CHECK:         %[[C1:.*]] = bufferization.alloc_tensor() copy(%[[A]]) : tensor<?x4xf32>
// CHECK:         %[[C2:.*]] = bufferization.alloc_tensor() copy(%[[A]]) : tensor<?x4xf32>
// CHECK:         return %[[A]], %[[B]], %[[C1]], %[[C2]]
func.func @thrice_dynamic(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>)
    -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  return %a, %b, %a, %a : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// Distinct results and non-tensor results: nothing to do.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK:         return %arg0, %arg1, %arg2, %arg2 : tensor<2xf32>, tensor<2xf32>, i64, i64
func.func @distinct(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: i64) -> (tensor<2xf32>, tensor<2xf32>, i64, i64) {
  return %a, %b, %c, %c : tensor<2xf32>, tensor<2xf32>, i64, i64
}

// -----

// A returned tensor.empty that is also the init of another returned result
// (a layer norm of no rows: its statistics fold to that empty) gets an
// empty of its own, so the two results do not share a buffer; one used
// only by the return stays.
// CHECK-LABEL: func.func @returned_init
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<0x1xf32>
// CHECK:         %[[R:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[INIT]] : tensor<0x1xf32>)
// CHECK:         %[[OWN:.*]] = tensor.empty() : tensor<0x1xf32>
// CHECK:         %[[OWN2:.*]] = tensor.empty() : tensor<0x1xf32>
// CHECK:         return %[[R]], %[[OWN]], %[[OWN2]], %[[ALONE:.*]] :
func.func @returned_init(%x: f32) -> (tensor<0x1xf32>, tensor<0x1xf32>, tensor<0x1xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<0x1xf32>
  %alone = tensor.empty() : tensor<2xf32>
  %r = linalg.fill ins(%x : f32) outs(%e : tensor<0x1xf32>) -> tensor<0x1xf32>
  return %r, %e, %e, %alone : tensor<0x1xf32>, tensor<0x1xf32>, tensor<0x1xf32>, tensor<2xf32>
}
