// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-private-inits))' | FileCheck %s
// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-private-inits),one-shot-bufferize{bufferize-function-boundaries})' | FileCheck %s --check-prefix=BUF

// Two matmuls start from one CSE'd zero fill: the second gets its own empty
// and fill right before it; the first keeps the original.
// CHECK-LABEL: func.func @two_writers
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x4xf32>)
// CHECK:         %[[M1:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[F]] : tensor<4x4xf32>)
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK:         %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<4x4xf32>)
// CHECK:         linalg.matmul ins(%[[M1]], %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[F2]] : tensor<4x4xf32>)
// After bufferization: no copy of a filled buffer.
// BUF-LABEL: func.func @two_writers
// BUF-NOT:     memref.copy
// BUF:         return
func.func @two_writers(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%m1, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

// -----

// A reader of the filled value keeps the original: the one writer gets a
// clone, dynamic sizes included.
// CHECK-LABEL: func.func @reader_and_writer
// CHECK-SAME:    (%[[A:.*]]: tensor<?x4xf32>, %[[N:.*]]: index)
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x4xf32>)
// CHECK:         %[[E2:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK:         %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<?x4xf32>)
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<?x4xf32>) outs(%[[F2]] : tensor<?x4xf32>)
// CHECK:         return %[[F]], %[[G]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reader_and_writer(%a: tensor<?x4xf32>, %n: index) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x4xf32>) outs(%f : tensor<?x4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  return %f, %g : tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// A fill with one use, and a fill used only as an input, are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-2: linalg.fill
// CHECK-NOT:     linalg.fill
func.func @left_alone(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %g = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.matmul ins(%g, %g : tensor<4x4xf32>, tensor<4x4xf32>) outs(%m : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s, %g : tensor<4x4xf32>, tensor<4x4xf32>
}
