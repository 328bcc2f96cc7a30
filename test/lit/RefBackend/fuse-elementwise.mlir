// RUN: torch2mlir-opt %s -split-input-file -refbackend-fuse-elementwise | FileCheck %s

// A chain of elementwise generics becomes one loop nest.
// CHECK-LABEL: func.func @chain(
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A producer with two users stays: fusing it would compute exp twice.
// CHECK-LABEL: func.func @shared_producer(
// CHECK-COUNT-3: linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @shared_producer(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.negf %x : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.mulf %x, %x : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A linear layer on a 3-d input: the matmul between the reshapes stays a
// named linalg.matmul (upstream linalg-fuse-elementwise-ops would turn it
// into a generic to move the reshapes, and the BLAS kernel would be lost);
// the bias broadcast still fuses into nothing else.
// CHECK-LABEL: func.func @linear_3d(
// CHECK: tensor.collapse_shape
// CHECK: linalg.matmul
// CHECK: tensor.expand_shape
#bias = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhsT = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @linear_3d(%x: tensor<1x128x256xf32>, %w: tensor<64x256xf32>, %b: tensor<64xf32>) -> tensor<1x128x64xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x128x256xf32> into tensor<128x256xf32>
  %e = tensor.empty() : tensor<128x64xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<64xf32>) outs(%e : tensor<128x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<128x64xf32>
  %m = linalg.matmul indexing_maps = [#lhs, #rhsT, #out] ins(%c, %w : tensor<128x256xf32>, tensor<64x256xf32>) outs(%init : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 128, 64] : tensor<128x64xf32> into tensor<1x128x64xf32>
  return %r : tensor<1x128x64xf32>
}

// -----

// Fused bodies stop growing at max-body-size ops (fusion copies the
// producer's body, so an unbounded chain costs the square of its length):
// with 4, a chain of four 2-op generics fuses in pairs.
// RUN: torch2mlir-opt %s -split-input-file -refbackend-fuse-elementwise="max-body-size=4" | FileCheck %s --check-prefix=CAPPED
// CAPPED-LABEL: func.func @long_chain(
// CAPPED-COUNT-2: linalg.generic
// CAPPED-NOT: linalg.generic
// CAPPED: return
#id1 = affine_map<(d0) -> (d0)>
func.func @long_chain(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sin %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %3 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%2 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.cos %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// A linalg.transpose (and a linalg.broadcast) feeding an elementwise op is
// generalized and fused: the consumer reads the operand through the
// permuted (or projected) map; nothing is materialized.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose_broadcast_add(
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.broadcast
// CHECK: linalg.generic {indexing_maps = [#[[T]], #[[B]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<8x4xf32>, tensor<8xf32>)
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
func.func @transpose_broadcast_add(%x: tensor<8x4xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<4x8xf32>
  %bb = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e2 : tensor<4x8xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%t, %bb : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e3 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// A producer read through a broadcast (a [4] vector over [4, 8]) is fused
// only when its body is cheap: a division or a math function stays a loop
// of its own, run once per element of the vector, not once per element of
// the consumer (softmax's 1 / sum, log_softmax's log(sum)); a negation
// fuses. Read without a broadcast, the division fuses too.
// CHECK-LABEL: func.func @broadcast_producers(
// CHECK: %[[INV:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK: %[[LOG:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.log
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[INV]], %[[LOG]], %{{.*}} : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: arith.negf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return
// CHECK-LABEL: func.func @same_shape_division(
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0) -> (d0)>
func.func @broadcast_producers(%x: tensor<4x8xf32>, %s: tensor<4xf32>, %t: tensor<4xf32>, %u: tensor<4xf32>) -> tensor<4x8xf32> {
  %ev = tensor.empty() : tensor<4xf32>
  %inv = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%ev : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %log = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%ev : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.log %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %neg = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%u : tensor<4xf32>) outs(%ev : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %inv, %log, %neg : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %i: f32, %l: f32, %n: f32, %o: f32):
    %p = arith.mulf %a, %i : f32
    %q = arith.subf %p, %l : f32
    %r = arith.addf %q, %n : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @same_shape_division(%x: tensor<4x8xf32>, %s: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %inv = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %inv : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %i: f32, %o: f32):
    %p = arith.mulf %a, %i : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
