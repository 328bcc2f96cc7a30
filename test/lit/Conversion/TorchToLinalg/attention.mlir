// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// scaled_dot_product_attention kept whole (isFusableAttention), fused: one
// scf.forall over (batch x heads, blocks of query rows). A task multiplies
// its query block by k read transposed in place, scales and masks each row
// of scores (the causal mask compares the key column with the query row,
// the bool mask [2,1,1,10] is indexed by the batch coordinate n / 4), takes
// the row's softmax in three loops, then multiplies by v.
// CHECK: #[[QMAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #[[KMAP:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @causal_and_bool_mask(
// CHECK: %[[MASK:.*]] = torch_c.to_builtin_tensor %arg3 : !torch.vtensor<[2,1,1,10],i1> -> tensor<2x1x1x10xi1>
// CHECK: %[[Q:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x4x6x16xf32> into tensor<8x6x16xf32>
// CHECK: %[[K:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x4x10x16xf32> into tensor<8x10x16xf32>
// CHECK: %[[V:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x4x10x8xf32> into tensor<8x10x8xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[N:.*]], %[[BLOCK:.*]]) in (8, %{{.*}}) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<8x6x8xf32>)
// CHECK: %[[FIRST:.*]] = arith.muli %[[BLOCK]], %{{.*}} : index
// CHECK: %[[QB:.*]] = tensor.extract_slice %[[Q]][%[[N]], %[[FIRST]], 0] [1, 6, 16] [1, 1, 1] : tensor<8x6x16xf32> to tensor<6x16xf32>
// CHECK: %[[KB:.*]] = tensor.extract_slice %[[K]][%[[N]], 0, 0] [1, 10, 16] [1, 1, 1] : tensor<8x10x16xf32> to tensor<10x16xf32>
// CHECK: %[[VB:.*]] = tensor.extract_slice %[[V]][%[[N]], 0, 0] [1, 10, 8] [1, 1, 1] : tensor<8x10x8xf32> to tensor<10x8xf32>
// CHECK: %[[S:.*]] = linalg.matmul indexing_maps = [#[[QMAP]], #[[KMAP]], #{{.*}}] ins(%[[QB]], %[[KB]] : tensor<6x16xf32>, tensor<10x16xf32>)
// CHECK: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[MINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[HEADS:.*]] = arith.constant 4 : index
// CHECK: %[[REST:.*]] = arith.divui %[[N]], %[[HEADS]] : index
// CHECK: %[[B:.*]] = arith.remui %[[REST]], %{{.*}} : index
// CHECK: %[[P:.*]] = scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[S]]) -> (tensor<6x10xf32>)
// CHECK: %[[QROW:.*]] = arith.addi %[[FIRST]], %[[ROW]] : index
// CHECK: scf.for %[[J:[^ ]*]] = 
// CHECK: %[[X:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[J]]] : tensor<6x10xf32>
// CHECK-NEXT: %[[XS:.*]] = arith.mulf %[[X]], %[[SCALE]] : f32
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpi sle, %[[J]], %[[QROW]] : index
// CHECK-NEXT: %[[CAUSAL:.*]] = arith.select %[[KEEP]], %[[XS]], %[[MINF]] : f32
// CHECK-NEXT: %[[M:.*]] = tensor.extract %[[MASK]][%[[B]], %{{.*}}, %{{.*}}, %[[J]]] : tensor<2x1x1x10xi1>
// CHECK-NEXT: %[[MASKED:.*]] = arith.select %[[M]], %[[CAUSAL]], %[[MINF]] : f32
// CHECK-NEXT: arith.maximumf %[[MASKED]], %{{.*}} fastmath<reassoc> : f32
// CHECK-NEXT: tensor.insert %[[MASKED]]
// CHECK: math.exp
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: arith.divf
// CHECK: %[[O:.*]] = linalg.matmul ins(%[[P]], %[[VB]] : tensor<6x10xf32>, tensor<10x8xf32>)
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

// Long keys, a float mask [L, S] and an explicit scale, rank 3: blocks of
// 16384 / 1500 -> 8 query rows; 20 rows leave a last block of 4, so the
// block's rows are min(8, L - first). The mask is indexed by the query row.
// CHECK-LABEL: func.func @partial_blocks(
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK: scf.forall (%[[N:.*]], %[[BLOCK:.*]]) in (3, %[[BLOCKS]])
// CHECK: %[[FIRST:.*]] = arith.muli %[[BLOCK]], %[[EIGHT:.*]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[FIRST]] : index
// CHECK: %[[ROWS:.*]] = arith.minsi %[[EIGHT]], %[[LEFT]] : index
// CHECK: tensor.extract_slice %{{.*}}[%[[N]], %[[FIRST]], 0] [1, %[[ROWS]], 32] [1, 1, 1] : tensor<3x20x32xf32> to tensor<?x32xf32>
// CHECK: arith.constant 3.000000e-01 : f32
// CHECK: %[[QROW:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
// CHECK: %[[M:.*]] = tensor.extract %{{.*}}[%[[QROW]], %{{.*}}] : tensor<20x1500xf32>
// CHECK-NEXT: arith.addf %{{.*}}, %[[M]] : f32
// CHECK: tensor.parallel_insert_slice %{{.*}} [1, %[[ROWS]], 32] [1, 1, 1] : tensor<?x32xf32> into tensor<3x20x32xf32>
// CHECK-NOT: tensor.expand_shape
func.func @partial_blocks(%q: !torch.vtensor<[3,20,32],f32>, %k: !torch.vtensor<[3,1500,32],f32>, %v: !torch.vtensor<[3,1500,32],f32>, %m: !torch.vtensor<[20,1500],f32>) -> !torch.vtensor<[3,20,32],f32> {
  %f0 = torch.constant.float 0.000000e+00
  %scale = torch.constant.float 3.000000e-01
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %f0, %false, %scale, %false : !torch.vtensor<[3,20,32],f32>, !torch.vtensor<[3,1500,32],f32>, !torch.vtensor<[3,1500,32],f32>, !torch.vtensor<[20,1500],f32>, !torch.float, !torch.bool, !torch.float, !torch.bool -> !torch.vtensor<[3,20,32],f32>
  return %0 : !torch.vtensor<[3,20,32],f32>
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
