// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// scaled_dot_product_attention kept whole (isFusableAttention), fused: one
// scf.forall over (batch x heads, blocks of query rows), each task a loop
// over blocks of keys with an online softmax. A step multiplies the query
// block by a block of k read transposed in place; row by row it scales and
// masks the scores (the causal mask compares the key with the query row,
// the bool mask [2,1,1,10] is indexed by the batch coordinate n / 4),
// raises the running max, rescales the running sum and output row by
// exp(old max - new max), stores exp(x - max); then it adds the block of
// exps @ v to the output. The output rows are divided by their sums at the
// end (0 where the sum is 0: no key kept). A causal task stops at the key
// of its last query row: min(10, first + 6).
// CHECK: #[[QMAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #[[KMAP:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @causal_and_bool_mask(
// CHECK: %[[MASK:.*]] = torch_c.to_builtin_tensor %arg3 : !torch.vtensor<[2,1,1,10],i1> -> tensor<2x1x1x10xi1>
// CHECK: %[[Q:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x4x6x16xf32> into tensor<8x6x16xf32>
// CHECK: %[[K:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x4x10x16xf32> into tensor<8x10x16xf32>
// CHECK: %[[V:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x4x10x8xf32> into tensor<8x10x8xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[N:.*]], %[[BLOCK:.*]]) in (8, %{{.*}}) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<8x6x8xf32>)
// CHECK: %[[FIRST:.*]] = arith.muli %[[BLOCK]], %{{.*}} : index
// CHECK: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[MINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[HEADS:.*]] = arith.constant 4 : index
// CHECK: %[[REST:.*]] = arith.divui %[[N]], %[[HEADS]] : index
// CHECK: %[[B:.*]] = arith.remui %[[REST]], %{{.*}} : index
// CHECK: %[[QB:.*]] = tensor.extract_slice %[[Q]][%[[N]], %[[FIRST]], 0] [1, 6, 16] [1, 1, 1] : tensor<8x6x16xf32> to tensor<6x16xf32>
// CHECK: %[[LAST:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
// CHECK: %[[KEYEND:.*]] = arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK: %[[MAXES:.*]] = linalg.fill ins(%[[MINF]] : f32) outs(%{{.*}} : tensor<6xf32>)
// CHECK: %[[STEPS:.*]]:3 = scf.for %[[KS:[^ ]*]] = %{{.*}} to %[[KEYEND]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[M:.*]] = %[[MAXES]], %[[L:.*]] = %{{.*}}) -> (tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>)
// CHECK: %[[KB:.*]] = tensor.extract_slice %[[K]][%[[N]], %[[KS]], 0] [1, %{{.*}}, 16] [1, 1, 1] : tensor<8x10x16xf32> to tensor<?x16xf32>
// CHECK: %[[VB:.*]] = tensor.extract_slice %[[V]][%[[N]], %[[KS]], 0] [1, %{{.*}}, 8] [1, 1, 1] : tensor<8x10x8xf32> to tensor<?x8xf32>
// CHECK: %[[S:.*]] = linalg.matmul indexing_maps = [#[[QMAP]], #[[KMAP]], #{{.*}}] ins(%[[QB]], %[[KB]] : tensor<6x16xf32>, tensor<?x16xf32>)
// CHECK: %[[ROWS:.*]]:4 = scf.for %[[ROW:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %[[S]], %{{.*}} = %[[ACC]], %{{.*}} = %[[M]], %{{.*}} = %[[L]])
// CHECK: %[[QROW:.*]] = arith.addi %[[FIRST]], %[[ROW]] : index
// CHECK: scf.for %[[J:[^ ]*]] = 
// CHECK: %[[X:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[J]]] : tensor<6x?xf32>
// CHECK-NEXT: %[[KEY:.*]] = arith.addi %[[KS]], %[[J]] : index
// CHECK-NEXT: %[[XS:.*]] = arith.mulf %[[X]], %[[SCALE]] : f32
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpi sle, %[[KEY]], %[[QROW]] : index
// CHECK-NEXT: %[[CAUSAL:.*]] = arith.select %[[KEEP]], %[[XS]], %[[MINF]] : f32
// CHECK-NEXT: %[[MK:.*]] = tensor.extract %[[MASK]][%[[B]], %{{.*}}, %{{.*}}, %[[KEY]]] : tensor<2x1x1x10xi1>
// CHECK-NEXT: %[[MASKED:.*]] = arith.select %[[MK]], %[[CAUSAL]], %[[MINF]] : f32
// CHECK-NEXT: arith.maximumf %[[MASKED]], %{{.*}} fastmath<reassoc> : f32
// CHECK-NEXT: tensor.insert %[[MASKED]]
// CHECK: %[[OLDMAX:.*]] = tensor.extract %{{.*}}[%[[ROW]]] : tensor<6xf32>
// CHECK-NEXT: %[[NEWMAX:.*]] = arith.maximumf %[[OLDMAX]], %{{.*}} : f32
// CHECK-NEXT: %[[NONE:.*]] = arith.cmpf oeq, %[[NEWMAX]], %[[MINF]] : f32
// CHECK-NEXT: %[[SHIFT:.*]] = arith.select %[[NONE]], %{{.*}}, %[[NEWMAX]] : f32
// CHECK-NEXT: arith.subf %[[OLDMAX]], %[[SHIFT]] : f32
// CHECK: %[[RESCALE:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.subf %{{.*}}, %[[SHIFT]] : f32
// CHECK: math.exp
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: %[[OLDSUM:.*]] = tensor.extract %{{.*}}[%[[ROW]]] : tensor<6xf32>
// CHECK-NEXT: %[[SCALEDSUM:.*]] = arith.mulf %[[OLDSUM]], %[[RESCALE]] : f32
// CHECK-NEXT: arith.addf %[[SCALEDSUM]], %{{.*}} : f32
// CHECK: arith.mulf %{{.*}}, %[[RESCALE]] : f32
// CHECK: %[[ACCNOW:.*]] = linalg.matmul ins(%[[ROWS]]#0, %[[VB]] : tensor<6x?xf32>, tensor<?x8xf32>) outs(%[[ROWS]]#1 : tensor<6x8xf32>)
// CHECK: scf.yield %[[ACCNOW]], %[[ROWS]]#2, %[[ROWS]]#3
// CHECK: %[[O:.*]] = linalg.generic {{.*}} ins(%[[STEPS]]#0, %[[STEPS]]#2 : tensor<6x8xf32>, tensor<6xf32>)
// CHECK: arith.cmpf oeq
// CHECK-NEXT: arith.divf
// CHECK-NEXT: arith.select
// CHECK: tensor.parallel_insert_slice %[[O]] into %[[OUT]][%[[N]], %[[FIRST]], 0] [1, 6, 8] [1, 1, 1] : tensor<6x8xf32> into tensor<8x6x8xf32>
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1], [2], [3]] output_shape [2, 4, 6, 8] : tensor<8x6x8xf32> into tensor<2x4x6x8xf32>
func.func @causal_and_bool_mask(%q: !torch.vtensor<[2,4,6,16],f32>, %k: !torch.vtensor<[2,4,10,16],f32>, %v: !torch.vtensor<[2,4,10,8],f32>, %m: !torch.vtensor<[2,1,1,10],i1>) -> !torch.vtensor<[2,4,6,8],f32> {
  %none = torch.constant.none
  %f0 = torch.constant.float 0.000000e+00
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %f0, %true, %none, %false : !torch.vtensor<[2,4,6,16],f32>, !torch.vtensor<[2,4,10,16],f32>, !torch.vtensor<[2,4,10,8],f32>, !torch.vtensor<[2,1,1,10],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,6,8],f32>
  return %0 : !torch.vtensor<[2,4,6,8],f32>
}

// -----

// Long keys, a float mask [L, S] and an explicit scale, rank 3: steps of
// 512 keys (1500 = 512 + 512 + 476: min(512, 1500 - start) keys each), so
// blocks of 16384 / 512 -> 32 query rows; 40 rows leave a last block of 8,
// so the block's rows are min(32, L - first). The mask is indexed by the
// query row and the key.
// CHECK-LABEL: func.func @partial_blocks(
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK: scf.forall (%[[N:.*]], %[[BLOCK:.*]]) in (3, %[[BLOCKS]])
// CHECK: %[[FIRST:.*]] = arith.muli %[[BLOCK]], %[[THIRTYTWO:.*]] : index
// CHECK: arith.constant 3.000000e-01 : f32
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[FIRST]] : index
// CHECK: %[[ROWS:.*]] = arith.minsi %[[THIRTYTWO]], %[[LEFT]] : index
// CHECK: tensor.extract_slice %{{.*}}[%[[N]], %[[FIRST]], 0] [1, %[[ROWS]], 32] [1, 1, 1] : tensor<3x40x32xf32> to tensor<?x32xf32>
// CHECK: scf.for %[[KS:[^ ]*]] = %{{.*}} to %{{.*}} step %[[STEP:[^ ]*]] iter_args
// CHECK: %[[KEYSLEFT:.*]] = arith.subi %{{.*}}, %[[KS]] : index
// CHECK: %[[KEYS:.*]] = arith.minsi %[[STEP]], %[[KEYSLEFT]] : index
// CHECK: tensor.extract_slice %{{.*}}[%[[N]], %[[KS]], 0] [1, %[[KEYS]], 32] [1, 1, 1] : tensor<3x1500x32xf32> to tensor<?x32xf32>
// CHECK: %[[QROW:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
// CHECK: %[[KEY:.*]] = arith.addi %[[KS]], %{{.*}} : index
// CHECK: %[[M:.*]] = tensor.extract %{{.*}}[%[[QROW]], %[[KEY]]] : tensor<40x1500xf32>
// CHECK-NEXT: arith.addf %{{.*}}, %[[M]] : f32
// CHECK: tensor.parallel_insert_slice %{{.*}} [1, %[[ROWS]], 32] [1, 1, 1] : tensor<?x32xf32> into tensor<3x40x32xf32>
// CHECK-NOT: tensor.expand_shape
func.func @partial_blocks(%q: !torch.vtensor<[3,40,32],f32>, %k: !torch.vtensor<[3,1500,32],f32>, %v: !torch.vtensor<[3,1500,32],f32>, %m: !torch.vtensor<[40,1500],f32>) -> !torch.vtensor<[3,40,32],f32> {
  %f0 = torch.constant.float 0.000000e+00
  %scale = torch.constant.float 3.000000e-01
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %f0, %false, %scale, %false : !torch.vtensor<[3,40,32],f32>, !torch.vtensor<[3,1500,32],f32>, !torch.vtensor<[3,1500,32],f32>, !torch.vtensor<[40,1500],f32>, !torch.float, !torch.bool, !torch.float, !torch.bool -> !torch.vtensor<[3,40,32],f32>
  return %0 : !torch.vtensor<[3,40,32],f32>
}

// -----

// An attention the fused lowering does not take (float64; the contract
// decomposes it unless told to keep it) names the way out.
func.func @float64(%q: !torch.vtensor<[1,2,4,8],f64>) -> !torch.vtensor<[1,2,4,8],f64> {
  %none = torch.constant.none
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.scaled_dot_product_attention' could not be lowered to linalg-on-tensors: unsupported: this attention is not one the fused lowering takes (float32, known batch and head sizes, no dropout, constant flags); way out: leave aten.scaled_dot_product_attention out of the backend's legal ops so that it decomposes}}
  %0 = torch.aten.scaled_dot_product_attention %q, %q, %q, %none, %f0, %false, %none, %false : !torch.vtensor<[1,2,4,8],f64>, !torch.vtensor<[1,2,4,8],f64>, !torch.vtensor<[1,2,4,8],f64>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f64>
  return %0 : !torch.vtensor<[1,2,4,8],f64>
}
