// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// reflection_pad1d: each output reads the input at its position minus the
// padding before, mirrored about the first and last element.
// CHECK-LABEL: func.func @reflection_pad1d(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,4],f32> -> tensor<2x4xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<2x7xf32>)
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[COL:.*]] = linalg.index 1 : index
// CHECK: %[[SHIFTED:.*]] = arith.subi %[[COL]], %c2 : index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[SHIFTED]], %c0 : index
// CHECK: %[[FLIPPED:.*]] = arith.subi %c0, %[[SHIFTED]] : index
// CHECK: %[[LOW:.*]] = arith.select %[[NEG]], %[[FLIPPED]], %[[SHIFTED]] : index
// CHECK: %[[OVER:.*]] = arith.cmpi sgt, %[[LOW]], %c3 : index
// CHECK: %[[MIRROR:.*]] = arith.subi %c6, %[[LOW]] : index
// CHECK: %[[IDX:.*]] = arith.select %[[OVER]], %[[MIRROR]], %[[LOW]] : index
// CHECK: tensor.extract %[[A]][%[[ROW]], %[[IDX]]] : tensor<2x4xf32>
func.func @reflection_pad1d(%a: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,7],f32> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reflection_pad1d %a, %p : !torch.vtensor<[2,4],f32>, !torch.list<int> -> !torch.vtensor<[2,7],f32>
  return %0 : !torch.vtensor<[2,7],f32>
}

// -----

// max_pool2d_with_indices: one generic with the window as reduction loops
// and two accumulators, the max (from -inf) and its flat index (from -1:
// the first in-bounds element is always taken, then larger ones or NaN).
// CHECK-LABEL: func.func @max_pool_indices(
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[VALS:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<1x1x2x2xf32>)
// CHECK: %[[IDXS:.*]] = linalg.fill ins(%c-1_i64 : i64) outs(%{{.*}} : tensor<1x1x2x2xi64>)
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<2x2xi8>
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[WINDOW]] : tensor<2x2xi8>) outs(%[[VALS]], %[[IDXS]] : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
// CHECK: ^bb0(%{{.*}}: i8, %[[BEST:.*]]: f32, %[[BESTIDX:.*]]: i64):
// CHECK: %[[V:.*]] = tensor.extract
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[BEST]] : f32
// CHECK: %[[BETTER:.*]] = arith.ori %[[GT]], %[[NAN]] : i1
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[BESTIDX]], %{{.*}} : i64
// CHECK: %[[TAKE0:.*]] = arith.ori %[[FIRST]], %[[BETTER]] : i1
// CHECK: %[[TAKE:.*]] = arith.andi %{{.*}}, %[[TAKE0]] : i1
// CHECK: %[[FLAT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[NV:.*]] = arith.select %[[TAKE]], %[[V]], %[[BEST]] : f32
// CHECK: %[[NI:.*]] = arith.select %[[TAKE]], %[[FLAT]], %[[BESTIDX]] : i64
// CHECK: linalg.yield %[[NV]], %[[NI]] : f32, i64
func.func @max_pool_indices(%a: !torch.vtensor<[1,1,4,4],f32>) -> (!torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>) {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0:2 = torch.aten.max_pool2d_with_indices %a, %k, %k, %p, %d, %false : !torch.vtensor<[1,1,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>
  return %0#0, %0#1 : !torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>
}

// -----

// avg_pool1d of integers: the window sum, then a truncating division
// (arith.divsi) by the clipped window size.
// CHECK-LABEL: func.func @avg_pool1d_int(
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x3x6xi64>, tensor<2xi8>) outs(%{{.*}} : tensor<2x3x3xi64>)
// CHECK: arith.addi
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3x3xi64>)
// CHECK: ^bb0(%[[S:.*]]: i64, %{{.*}}: i64):
// CHECK: %[[COUNT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[AVG:.*]] = arith.divsi %[[S]], %[[COUNT]] : i64
// CHECK: linalg.yield %[[AVG]] : i64
func.func @avg_pool1d_int(%a: !torch.vtensor<[2,3,6],si64>) -> !torch.vtensor<[2,3,3],si64> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool1d %a, %k, %k, %p, %false, %true : !torch.vtensor<[2,3,6],si64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<[2,3,3],si64>
  return %0 : !torch.vtensor<[2,3,3],si64>
}

// -----

// A grouped 1-D convolution is the grouped 2-D one of height 1: the input
// [N, C, L] and weight [F, C/G, K] gain a unit dim, linalg.conv_2d_ngchw_gfchw
// runs with stride [1, 2], and the result loses the unit dim again.
// CHECK-LABEL: func.func @conv1d_grouped(
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,4,8],f32> -> tensor<1x4x8xf32>
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[6,2,3],f32> -> tensor<6x2x3xf32>
// CHECK-DAG: %[[X2:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 4, 1, 8] : tensor<1x4x8xf32> into tensor<1x4x1x8xf32>
// CHECK-DAG: %[[W2:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2, 3]] output_shape [6, 2, 1, 3] : tensor<6x2x3xf32> into tensor<6x2x1x3xf32>
// CHECK: %[[GX:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 1, 8]
// CHECK: %[[GW:.*]] = tensor.expand_shape %[[W2]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 1, 3]
// CHECK: %[[CONV:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%[[GX]], %[[GW]] : tensor<1x2x2x1x8xf32>, tensor<2x3x2x1x3xf32>) outs(%{{.*}} : tensor<1x2x3x1x3xf32>)
// CHECK: %[[MERGED:.*]] = tensor.collapse_shape %[[CONV]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x1x3xf32> into tensor<1x6x1x3xf32>
// CHECK: tensor.collapse_shape %[[MERGED]] {{\[\[}}0], [1], [2, 3]] : tensor<1x6x1x3xf32> into tensor<1x6x3xf32>
func.func @conv1d_grouped(%x: !torch.vtensor<[1,4,8],f32>, %w: !torch.vtensor<[6,2,3],f32>) -> !torch.vtensor<[1,6,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %d, %false, %p, %int2 : !torch.vtensor<[1,4,8],f32>, !torch.vtensor<[6,2,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,6,3],f32>
  return %0 : !torch.vtensor<[1,6,3],f32>
}

// -----

// A transposed convolution is a GEMM into columns (the weight transposed
// to [G, F*K, C] times the input [G, C, N*I]), then col2im: each tap's
// columns added, in kernel order, into the outputs i * stride + k it
// reaches (here stride 2: offsets 0, 1, 2, step 2). No zero of a spread or
// padded input is ever multiplied by the weight.
// CHECK-DAG: #[[COLS:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d0, d3)>
// CHECK-LABEL: func.func @conv_transpose1d(
// CHECK: %[[LHS:.*]] = linalg.transpose ins(%{{.*}} : tensor<1x2x3xf32>) outs(%{{.*}} : tensor<1x3x2xf32>) permutation = [0, 2, 1]
// CHECK: %[[GEMM:.*]] = linalg.batch_matmul ins(%[[LHS]], %{{.*}} : tensor<1x3x2xf32>, tensor<1x2x3xf32>) outs(%{{.*}} : tensor<1x3x3xf32>)
// CHECK: %[[C:.*]] = tensor.expand_shape %[[GEMM]] {{\[}}[0], [1, 2], [3, 4]] output_shape [1, 1, 3, 1, 3]
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[C]][0, 0, 0, 0, 0] [1, 1, 1, 1, 3] [1, 1, 1, 1, 1]
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[ZERO]][0, 0, 0, 0] [1, 1, 1, 3] [1, 1, 1, 2]
// CHECK: %[[A0:.*]] = linalg.generic {indexing_maps = [#[[COLS]], #{{.*}}]{{.*}} ins(%[[T0]] : tensor<1x1x1x3xf32>) outs(%[[W0]] : tensor<1x1x1x3xf32>)
// CHECK: arith.addf
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[A0]] into %[[ZERO]][0, 0, 0, 0] [1, 1, 1, 3] [1, 1, 1, 2]
// CHECK: tensor.extract_slice %[[C]][0, 0, 1, 0, 0] [1, 1, 1, 1, 3]
// CHECK: %[[R1:.*]] = tensor.insert_slice %{{.*}} into %[[R0]][0, 0, 0, 1] [1, 1, 1, 3] [1, 1, 1, 2]
// CHECK: tensor.extract_slice %[[C]][0, 0, 2, 0, 0] [1, 1, 1, 1, 3]
// CHECK: %[[R2:.*]] = tensor.insert_slice %{{.*}} into %[[R1]][0, 0, 0, 2] [1, 1, 1, 3] [1, 1, 1, 2]
// CHECK: tensor.collapse_shape %[[R2]] {{\[}}[0], [1, 2], [3]] : tensor<1x1x1x7xf32> into tensor<1x1x7xf32>
func.func @conv_transpose1d(%x: !torch.vtensor<[1,2,3],f32>, %w: !torch.vtensor<[2,1,3],f32>) -> !torch.vtensor<[1,1,7],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %true = torch.constant.bool true
  %s = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %d, %true, %p, %int1 : !torch.vtensor<[1,2,3],f32>, !torch.vtensor<[2,1,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,1,7],f32>
  return %0 : !torch.vtensor<[1,1,7],f32>
}

// -----

// Padding 4 and dilation 3 crop the taps (o = i - 4 + 3k, stride 1, three
// inputs, four outputs): tap 0 reaches outputs -4..-2 (none: skipped), tap
// 1 inputs 1..2 at outputs 0..1, tap 2 inputs 0..1 at outputs 2..3, tap 3
// outputs 5.. (none). The bias is added after the taps.
// CHECK-LABEL: func.func @conv_transpose1d_cropped(
// CHECK: %[[C:.*]] = tensor.expand_shape %{{.*}} output_shape [1, 1, 4, 1, 3]
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK-NOT: tensor.extract_slice %[[C]][0, 0, 0,
// CHECK: tensor.extract_slice %[[C]][0, 0, 1, 0, 1] [1, 1, 1, 1, 2]
// CHECK: %[[R0:.*]] = tensor.insert_slice %{{.*}} into %[[ZERO]][0, 0, 0, 0] [1, 1, 1, 2] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[C]][0, 0, 2, 0, 0] [1, 1, 1, 1, 2]
// CHECK: %[[R1:.*]] = tensor.insert_slice %{{.*}} into %[[R0]][0, 0, 0, 2] [1, 1, 1, 2] [1, 1, 1, 1]
// CHECK-NOT: tensor.extract_slice %[[C]]
// CHECK: linalg.generic {{.*}} ins(%[[R1]], %{{.*}} : tensor<1x1x1x4xf32>, tensor<1x1xf32>)
// CHECK: arith.addf
func.func @conv_transpose1d_cropped(%x: !torch.vtensor<[1,1,3],f32>, %w: !torch.vtensor<[1,1,4],f32>, %b: !torch.vtensor<[1],f32>) -> !torch.vtensor<[1,1,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %true = torch.constant.bool true
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %s, %p, %d, %true, %op, %int1 : !torch.vtensor<[1,1,3],f32>, !torch.vtensor<[1,1,4],f32>, !torch.vtensor<[1],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,1,4],f32>
  return %0 : !torch.vtensor<[1,1,4],f32>
}

// -----

// f16, grouped, batch 2: the GEMM accumulates in f32 and rounds once at
// the end (oneDNN's kernel, which eager runs for f16 on CPUs that have it),
// the input's batch moves inside the columns ([G, C, N*I]). A 1x1 kernel of
// stride 1 tiles the output: col2im is one transpose of the columns (no
// zero fill, no additions), rounded on the way.
// CHECK-DAG: #[[COLS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d2, d4, d6, d0, d3, d5)>
// CHECK-DAG: #[[ID7:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5, d6)>
// CHECK-LABEL: func.func @conv_transpose2d_f16_grouped(
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x2x1xf16>) outs(%{{.*}} : tensor<2x1x2xf16>) permutation = [0, 2, 1]
// CHECK: %[[MOVED:.*]] = linalg.transpose ins(%{{.*}} : tensor<2x2x2x4xf16>) outs(%{{.*}} : tensor<2x2x2x4xf16>) permutation = [1, 2, 0, 3]
// CHECK: %[[RHS:.*]] = tensor.collapse_shape %[[MOVED]] {{\[}}[0], [1], [2, 3]] : tensor<2x2x2x4xf16> into tensor<2x2x8xf16>
// CHECK: %[[GEMM:.*]] = linalg.batch_matmul ins(%{{.*}}, %[[RHS]] : tensor<2x1x2xf16>, tensor<2x2x8xf16>) outs(%{{.*}} : tensor<2x1x8xf32>)
// CHECK: %[[COLUMNS:.*]] = tensor.expand_shape %[[GEMM]] {{.*}} : tensor<2x1x8xf32> into tensor<2x1x1x1x2x2x2xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[TILED:.*]] = linalg.generic {indexing_maps = [#[[COLS]], #[[ID7]]], {{.*}} ins(%[[COLUMNS]] : tensor<2x1x1x1x2x2x2xf32>) outs(%{{.*}} : tensor<2x2x1x2x1x2x1xf16>)
// CHECK-NEXT: ^bb0(%[[C:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[C]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
// CHECK: %[[UNTILED:.*]] = tensor.collapse_shape %[[TILED]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] : tensor<2x2x1x2x1x2x1xf16> into tensor<2x2x1x2x2xf16>
// CHECK: tensor.collapse_shape %[[UNTILED]] {{.*}} : tensor<2x2x1x2x2xf16> into tensor<2x2x2x2xf16>
func.func @conv_transpose2d_f16_grouped(%x: !torch.vtensor<[2,4,2,2],f16>, %w: !torch.vtensor<[4,1,1,1],f16>) -> !torch.vtensor<[2,2,2,2],f16> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %true = torch.constant.bool true
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %true, %p, %int2 : !torch.vtensor<[2,4,2,2],f16>, !torch.vtensor<[4,1,1,1],f16>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,2,2,2],f16>
  return %0 : !torch.vtensor<[2,2,2,2],f16>
}

// -----

// Kernel 2 = stride 2 (a U-Net decoder's upsampling), with a bias: one
// generic writes out viewed [N, G, F, I0, K0, I1, K1] from the columns
// [G, F, K0, K1, N, I0, I1], the bias added; out position o = i * 2 + k.
// CHECK-DAG: #[[COLS2:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d2, d4, d6, d0, d3, d5)>
// CHECK-DAG: #[[BIAS2:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d2)>
// CHECK-LABEL: func.func @conv_transpose2d_tiles(
// CHECK: %[[GEMM:.*]] = linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x12x2xf32>, tensor<1x2x9xf32>) outs(%{{.*}} : tensor<1x12x9xf32>)
// CHECK: %[[COLUMNS:.*]] = tensor.expand_shape %[[GEMM]] {{.*}} : tensor<1x12x9xf32> into tensor<1x3x2x2x1x3x3xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[TILED:.*]] = linalg.generic {indexing_maps = [#[[COLS2]], #[[BIAS2]], #{{.*}}], {{.*}} ins(%[[COLUMNS]], %{{.*}} : tensor<1x3x2x2x1x3x3xf32>, tensor<1x3xf32>) outs(%{{.*}} : tensor<1x1x3x3x2x3x2xf32>)
// CHECK-NEXT: ^bb0(%[[C:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[C]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
// CHECK-NOT: linalg.generic
// CHECK: tensor.collapse_shape %[[TILED]] {{\[}}[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x3x3x2x3x2xf32> into tensor<1x1x3x6x6xf32>
func.func @conv_transpose2d_tiles(%x: !torch.vtensor<[1,2,3,3],f32>, %w: !torch.vtensor<[2,3,2,2],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[1,3,6,6],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %s, %p, %d, %true, %p, %int1 : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,3,2,2],f32>, !torch.vtensor<[3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,6,6],f32>
  return %0 : !torch.vtensor<[1,3,6,6],f32>
}

// -----

// Kernel 2 = stride 2 with an output padding of 1: the last row and
// column receive no column (only the bias), so the taps do not tile the
// output and col2im adds them into a zero-filled output.
// CHECK-LABEL: func.func @conv_transpose2d_output_padding(
// CHECK: linalg.batch_matmul
// CHECK: linalg.fill
// CHECK-COUNT-4: arith.addf %{{.*}}, %{{.*}} : f32
func.func @conv_transpose2d_output_padding(%x: !torch.vtensor<[1,2,3,3],f32>, %w: !torch.vtensor<[2,3,2,2],f32>) -> !torch.vtensor<[1,3,7,7],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %true = torch.constant.bool true
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %d, %true, %op, %int1 : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,3,2,2],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,7,7],f32>
  return %0 : !torch.vtensor<[1,3,7,7],f32>
}

// -----

// An integer transposed convolution keeps the general form: the input
// spread by the stride (zeros between) and padded by dilation * (K - 1) -
// padding, the weight flipped with its channel dims swapped, then one
// generic.
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, -d3 + 1)>
// CHECK-LABEL: func.func @conv_transpose1d_dilated_int(
// CHECK: %[[SPREAD:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x9xi64>)
// CHECK: %[[J:.*]] = arith.subi %{{.*}}, %c2 : index
// CHECK: %[[Q:.*]] = arith.divsi %[[J]], %c2{{.*}} : index
// CHECK: %[[R:.*]] = arith.remsi %[[J]], %c2{{.*}} : index
// CHECK: tensor.extract
// CHECK: arith.select %{{.*}}, %{{.*}}, %c0_i64{{.*}} : i64
// CHECK: %[[FLIPPED:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], #{{.*}}]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}}, %[[FLIPPED]] : tensor<1x1x2x9xi64>, tensor<1x1x2x2xi64>) outs(%{{.*}} : tensor<1x1x1x7xi64>)
func.func @conv_transpose1d_dilated_int(%x: !torch.vtensor<[1,2,3],si64>, %w: !torch.vtensor<[2,1,2],si64>) -> !torch.vtensor<[1,1,7],si64> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %true = torch.constant.bool true
  %s = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %d, %true, %p, %int1 : !torch.vtensor<[1,2,3],si64>, !torch.vtensor<[2,1,2],si64>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,1,7],si64>
  return %0 : !torch.vtensor<[1,1,7],si64>
}

// -----

// A grouped 3-D convolution has no named linalg op: one generic over
// [N, G, F/G, O...] reducing over (C/G, K...), input read at o * stride + k.
// CHECK-DAG: #[[X3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d6, d3 + d7, d4 + d8, d5 + d9)>
// CHECK-LABEL: func.func @conv3d_grouped(
// CHECK: linalg.generic {indexing_maps = [#[[X3]], #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x2x1x3x3x3xf32>, tensor<2x1x1x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x1x2x2x2xf32>)
func.func @conv3d_grouped(%x: !torch.vtensor<[1,2,3,3,3],f32>, %w: !torch.vtensor<[2,1,2,2,2],f32>) -> !torch.vtensor<[1,2,2,2,2],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %s, %p, %s, %false, %p, %int2 : !torch.vtensor<[1,2,3,3,3],f32>, !torch.vtensor<[2,1,2,2,2],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,2,2,2],f32>
  return %0 : !torch.vtensor<[1,2,2,2,2],f32>
}

// -----

// upsample_nearest2d: the source rows and columns are constant vectors
// computed with PyTorch's nearest_idx (2x: o >> 1; else floor(o * in/out)).
// CHECK-LABEL: func.func @upsample_nearest(
// CHECK: %[[ROWS:.*]] = arith.constant dense<[0, 0, 1, 1]> : tensor<4xindex>
// CHECK: %[[COLS:.*]] = arith.constant dense<[0, 0, 1, 2]> : tensor<4xindex>
// CHECK: linalg.generic {{.*}} ins(%[[ROWS]], %[[COLS]] : tensor<4xindex>, tensor<4xindex>) outs(%{{.*}} : tensor<1x1x4x4xf32>)
// CHECK: ^bb0(%[[H:.*]]: index, %[[W:.*]]: index, %{{.*}}: f32):
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %[[H]], %[[W]]] : tensor<1x1x2x3xf32>
func.func @upsample_nearest(%a: !torch.vtensor<[1,1,2,3],f32>) -> !torch.vtensor<[1,1,4,4],f32> {
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %size = torch.prim.ListConstruct %int4, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.upsample_nearest2d.vec %a, %size, %none : !torch.vtensor<[1,1,2,3],f32>, !torch.list<int>, !torch.none -> !torch.vtensor<[1,1,4,4],f32>
  return %0 : !torch.vtensor<[1,1,4,4],f32>
}

// -----

// Adaptive average pooling, 5 -> 3 (windows [0,2), [1,4), [3,5)): the
// window loop runs to the largest window (3); elements past a window's end
// are not added; the sum is divided by the window's size.
// CHECK-LABEL: func.func @adaptive(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<3xi8>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: %[[START:.*]] = arith.divui
// CHECK: %[[END:.*]] = arith.divui
// CHECK: %[[POS:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[POS]], %[[END]] : index
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.sitofp
// CHECK: arith.divf
func.func @adaptive(%a: !torch.vtensor<[1,5],f32>) -> !torch.vtensor<[1,3],f32> {
  %int3 = torch.constant.int 3
  %size = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.adaptive_avg_pool1d %a, %size : !torch.vtensor<[1,5],f32>, !torch.list<int> -> !torch.vtensor<[1,3],f32>
  return %0 : !torch.vtensor<[1,3],f32>
}

// -----

// A dynamic batch read at a static result batch is checked when the
// program runs (the windows run over the static size).
// CHECK-LABEL: func.func @max_pool_indices_dynamic_batch(
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x1x4x4xf32>
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[N]], %c1 : index
// CHECK: cf.assert %[[OK]], "the pooling input's run-time size in dim 0 is not 1, the size of its static result there"
func.func @max_pool_indices_dynamic_batch(%a: !torch.vtensor<[?,1,4,4],f32>) -> (!torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>) {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0:2 = torch.aten.max_pool2d_with_indices %a, %k, %k, %p, %d, %false : !torch.vtensor<[?,1,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>
  return %0#0, %0#1 : !torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>
}

// -----

// A dynamic height: its output size is floor(h * 2.0) in double, and its
// source indices and weights are computed at run time, one linalg.generic
// over the output rows (area_pixel_compute_source_index with scale 1/2, a
// copy where the output size equals the input's); the static width keeps
// its constant tables.
// CHECK-LABEL: func.func @upsample_bilinear_dynamic(
// CHECK: %[[H:.*]] = tensor.dim %{{.*}}, %c2 : tensor<1x2x?x4xf32>
// CHECK: %[[SCALED:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: %[[FLOOR:.*]] = math.floor %[[SCALED]] : f64
// CHECK: %[[OH:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[COPY:.*]] = arith.cmpi eq, %[[OH]], %[[H]] : index
// CHECK: %[[ROWS:.*]]:4 = linalg.generic {{.*}} outs(%{{.*}} : tensor<?xindex>, tensor<?xindex>, tensor<?xf32>, tensor<?xf32>)
// CHECK: math.floor %{{.*}} : f32
// CHECK: arith.select %[[COPY]]
// CHECK: arith.constant dense<[0, 0, 0, 1, 1, 2, 2, 3]> : tensor<8xindex>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[OH]]) : tensor<1x2x?x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[ROWS]]#0, %[[ROWS]]#1, %[[ROWS]]#2, %[[ROWS]]#3, {{.*}} outs(%[[INIT]] : tensor<1x2x?x8xf32>)
func.func @upsample_bilinear_dynamic(%x: !torch.vtensor<[1,2,?,4],f32>) -> !torch.vtensor<[1,2,?,8],f32> {
  %false = torch.constant.bool false
  %none = torch.constant.none
  %f2 = torch.constant.float 2.000000e+00
  %s = torch.prim.ListConstruct %f2, %f2 : (!torch.float, !torch.float) -> !torch.list<float>
  %0 = torch.aten.upsample_bilinear2d.vec %x, %none, %false, %s : !torch.vtensor<[1,2,?,4],f32>, !torch.none, !torch.bool, !torch.list<float> -> !torch.vtensor<[1,2,?,8],f32>
  return %0 : !torch.vtensor<[1,2,?,8],f32>
}
