// RUN: torch2mlir-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(refbackend-tile-loops))' | FileCheck %s

// x.sum(0) of [1024, 4096]: the reduction is the outer loop, so the column
// loop is split into 4 tiles of 1024 columns (each at least 1024 wide and
// 2^16 iterations); each tile sums its columns over all rows.
// CHECK-LABEL: func.func @sum_dim0
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         %[[R:.*]] = scf.forall (%[[T:.*]]) = (0) to (4096) step (1024) shared_outs(%[[OUT:.*]] = %[[FILL]]) -> (tensor<4096xf64>)
// CHECK:           %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, %[[T]]] [1024, 1024] [1, 1] : tensor<1024x4096xf32> to tensor<1024x1024xf32>
// CHECK:           %[[ACC:.*]] = tensor.extract_slice %[[OUT]][%[[T]]] [1024] [1] : tensor<4096xf64> to tensor<1024xf64>
// CHECK:           %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[IN]] : tensor<1024x1024xf32>) outs(%[[ACC]] : tensor<1024xf64>)
// CHECK:           tensor.parallel_insert_slice %[[SUM]] into %[[OUT]][%[[T]]] [1024] [1]
// CHECK:         return %[[R]]
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
func.func @sum_dim0(%x: tensor<1024x4096xf32>) -> tensor<4096xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4096xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<4096xf64>) -> tensor<4096xf64>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<1024x4096xf32>) outs(%f : tensor<4096xf64>) {
  ^bb0(%a: f32, %acc: f64):
    %w = arith.extf %a : f32 to f64
    %r = arith.addf %w, %acc : f64
    linalg.yield %r : f64
  } -> tensor<4096xf64>
  return %s : tensor<4096xf64>
}

// -----

// Not tiled: an outer parallel loop (split at the top level already), too
// little work ([16, 2048]: 2^15 iterations), a tiled dim narrower than
// 2 x 1024 ([65536, 1536]) and a dynamic size.
// CHECK-LABEL: func.func @not_tiled
// CHECK-NOT:     scf.forall
// CHECK:         return
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
#in3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out3 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @not_tiled(%a: tensor<64x1024x2048xf32>, %b: tensor<16x2048xf32>,
                     %c: tensor<65536x1536xf32>, %d: tensor<?x4096xf32>)
    -> (tensor<64x2048xf32>, tensor<2048xf32>, tensor<1536xf32>, tensor<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x2048xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
  %r0 = linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a : tensor<64x1024x2048xf32>) outs(%f0 : tensor<64x2048xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64x2048xf32>
  %e1 = tensor.empty() : tensor<2048xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2048xf32>) -> tensor<2048xf32>
  %r1 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%b : tensor<16x2048xf32>) outs(%f1 : tensor<2048xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2048xf32>
  %e2 = tensor.empty() : tensor<1536xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1536xf32>) -> tensor<1536xf32>
  %r2 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%c : tensor<65536x1536xf32>) outs(%f2 : tensor<1536xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1536xf32>
  %e3 = tensor.empty() : tensor<4096xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4096xf32>) -> tensor<4096xf32>
  %r3 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%d : tensor<?x4096xf32>) outs(%f3 : tensor<4096xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  return %r0, %r1, %r2, %r3 : tensor<64x2048xf32>, tensor<2048xf32>, tensor<1536xf32>, tensor<4096xf32>
}

// -----

// x.t() + y with x [4096, 1024]: x's contiguous dim is the outer loop d0.
// d0 and the inner loop d1 are tiled by 64: each tile reads 64 rows of 64
// elements of x.
// CHECK-LABEL: func.func @transposed_read
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (1024, 4096) step (64, 64)
// CHECK:   tensor.extract_slice %{{.*}}[%[[J]], %[[I]]] [64, 64] [1, 1] : tensor<4096x1024xf32> to tensor<64x64xf32>
// CHECK:   linalg.generic
// CHECK:   tensor.parallel_insert_slice %{{.*}}[%[[I]], %[[J]]] [64, 64] [1, 1]
#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_read(%x: tensor<4096x1024xf32>, %y: tensor<1024x4096xf32>) -> tensor<1024x4096xf32> {
  %e = tensor.empty() : tensor<1024x4096xf32>
  %s = linalg.generic {indexing_maps = [#t, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4096x1024xf32>, tensor<1024x4096xf32>) outs(%e : tensor<1024x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1024x4096xf32>
  return %s : tensor<1024x4096xf32>
}

// -----

// Not tiled: a transposed read of a small tensor, and a permutation that
// keeps the last dim innermost ([B, S, H, D] -> [B, H, S, D]).
// CHECK-LABEL: func.func @not_transposed
// CHECK-NOT: scf.forall
// CHECK: return
#p = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_transposed(%x: tensor<64x100xf32>, %h: tensor<8x128x12x64xf32>) -> (tensor<100x64xf32>, tensor<8x12x128x64xf32>) {
  %e = tensor.empty() : tensor<100x64xf32>
  %s = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x100xf32>) outs(%e : tensor<100x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<100x64xf32>
  %e2 = tensor.empty() : tensor<8x12x128x64xf32>
  %p2 = linalg.generic {indexing_maps = [#p, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%h : tensor<8x128x12x64xf32>) outs(%e2 : tensor<8x12x128x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x12x128x64xf32>
  return %s, %p2 : tensor<100x64xf32>, tensor<8x12x128x64xf32>
}
