// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// sum.dim_IntList: a reduction generic into a zero-filled tensor of the kept
// dims, reshaped to the keepdim result. A float sum accumulates one step
// wider (f32 in f64, f16/bf16 in f32) and is rounded once at the end.

// CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #[[KEPT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @sum_keepdim(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3,4],f32> -> tensor<2x3x4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf64>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%[[EMPTY]] : tensor<2x4xf64>) -> tensor<2x4xf64>
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[A]] : tensor<2x3x4xf32>) outs(%[[FILL]] : tensor<2x4xf64>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[XW:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[XW]], %[[ACC]] fastmath<reassoc> : f64
// CHECK-NEXT: linalg.yield %[[ADD]] : f64
// CHECK: %[[ROUND:.*]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[SUM]] : tensor<2x4xf64>) outs(%{{.*}} : tensor<2x4xf32>) {
// CHECK-NEXT: ^bb0(%[[S:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK-NEXT: linalg.yield %[[T]] : f32
// CHECK: %[[R:.*]] = tensor.expand_shape %[[ROUND]] {{\[\[}}0], [1, 2]] output_shape [2, 1, 4] : tensor<2x4xf32> into tensor<2x1x4xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x1x4xf32> -> !torch.vtensor<[2,1,4],f32>
func.func @sum_keepdim(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,1,4],f32> {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %l, %true, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2,1,4],f32>
  return %0 : !torch.vtensor<[2,1,4],f32>
}

// -----

// Several dims, one negative, without keepdim: no reshape.
// CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #[[KEPT:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @sum_no_keepdim(
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]]], iterator_types = ["reduction", "parallel", "reduction"]} ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3xf64>)
// CHECK: %[[ROUND:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf64>) outs(%{{.*}} : tensor<3xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK: torch_c.from_builtin_tensor %[[ROUND]] : tensor<3xf32> -> !torch.vtensor<[3],f32>
func.func @sum_no_keepdim(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[3],f32> {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int0, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %l, %false, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// dim = None reduces everything; an int32 input accumulates in the int64
// result dtype.
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @sum_all_int(
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<i64>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%[[EMPTY]] : tensor<i64>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[SCALAR]]], iterator_types = ["reduction", "reduction"]} ins(%{{.*}} : tensor<2x3xi32>) outs(%[[FILL]] : tensor<i64>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[ACC:.*]]: i64):
// CHECK-NEXT: %[[XW:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK-NEXT: %[[ADD:.*]] = arith.addi %[[XW]], %[[ACC]] : i64
// CHECK-NEXT: linalg.yield %[[ADD]] : i64
func.func @sum_all_int(%a: !torch.vtensor<[2,3],si32>) -> !torch.vtensor<[],si64> {
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.sum.dim_IntList %a, %none, %false, %none : !torch.vtensor<[2,3],si32>, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// -----

// A dynamic kept dim sizes the accumulator.
// CHECK-LABEL: func.func @sum_dynamic(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[3,?],f32> -> tensor<3x?xf32>
// CHECK: %[[DIM:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<3x?xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?xf64>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[A]] : tensor<3x?xf32>) outs(%{{.*}} : tensor<?xf64>)
// CHECK: %[[SDIM:.*]] = tensor.dim %[[SUM]], %{{.*}} : tensor<?xf64>
// CHECK: tensor.empty(%[[SDIM]]) : tensor<?xf32>
func.func @sum_dynamic(%a: !torch.vtensor<[3,?],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %l, %false, %none : !torch.vtensor<[3,?],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// A float32 sum over the trailing dims (static; the rows may be dynamic):
// the trailing dims collapse into one row; an scf.forall over the rows
// sums each in chunks of 512, float32 partial sums within a chunk
// (reassociable: vectorized), the chunks' total in float64, rounded once.
// CHECK-LABEL: func.func @sum_rows(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?,3,700],f32> -> tensor<?x3x700xf32>
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0], [1, 2]] : tensor<?x3x700xf32> into tensor<?x2100xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[I:.*]]) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<?xf32>)
// CHECK: %[[CELL:.*]] = tensor.extract_slice %[[OUT]][%[[I]]] [1] [1] : tensor<?xf32> to tensor<1xf32>
// CHECK: %[[CHUNK:.*]] = arith.constant 512 : index
// CHECK: %[[TOTAL:.*]] = scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[CHUNK]] iter_args(%[[T:.*]] = %{{.*}}) -> (f64)
// CHECK: %[[END:.*]] = arith.minsi
// CHECK: %[[PART:.*]] = scf.for %[[J:.*]] = %[[C]] to %[[END]] step %{{.*}} iter_args(%[[P:.*]] = %{{.*}}) -> (f32)
// CHECK-NEXT: %[[X:.*]] = tensor.extract %[[ROWS]][%[[I]], %[[J]]] : tensor<?x2100xf32>
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[X]], %[[P]] fastmath<reassoc> : f32
// CHECK-NEXT: scf.yield %[[ADD]] : f32
// CHECK: %[[WIDE:.*]] = arith.extf %[[PART]] : f32 to f64
// CHECK: %[[NEXT:.*]] = arith.addf %[[T]], %[[WIDE]] : f64
// CHECK: scf.yield %[[NEXT]] : f64
// CHECK: %[[ROUNDED:.*]] = arith.truncf %[[TOTAL]] : f64 to f32
// CHECK: %[[SET:.*]] = tensor.insert %[[ROUNDED]] into %[[CELL]]
// CHECK: tensor.parallel_insert_slice %[[SET]] into %[[OUT]][%[[I]]] [1] [1] : tensor<1xf32> into tensor<?xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<?xf32> -> !torch.vtensor<[?],f32>
func.func @sum_rows(%a: !torch.vtensor<[?,3,700],f32>) -> !torch.vtensor<[?],f32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int-1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %l, %false, %none : !torch.vtensor<[?,3,700],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// f16 accumulates in f32 (PyTorch's opmath) and f64 in f64, without a
// rounding step; an int input to a float result is converted to the result
// dtype first, then widened.
// CHECK-LABEL: func.func @sum_f16(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf16>) outs(%{{.*}} : tensor<f32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[XW:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: arith.addf %[[XW]], %[[ACC]] fastmath<reassoc> : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @sum_f16(%a: !torch.vtensor<[8],f16>) -> !torch.vtensor<[],f16> {
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.sum.dim_IntList %a, %none, %false, %none : !torch.vtensor<[8],f16>, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[],f16>
  return %0 : !torch.vtensor<[],f16>
}

// CHECK-LABEL: func.func @sum_f64(
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf64>) outs(%{{.*}} : tensor<f64>)
// CHECK-NOT: arith.truncf
// CHECK: torch_c.from_builtin_tensor %[[SUM]] : tensor<f64>
func.func @sum_f64(%a: !torch.vtensor<[8],f64>) -> !torch.vtensor<[],f64> {
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.sum.dim_IntList %a, %none, %false, %none : !torch.vtensor<[8],f64>, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[],f64>
  return %0 : !torch.vtensor<[],f64>
}

// CHECK-LABEL: func.func @sum_int_to_float(
// CHECK: ^bb0(%[[X:.*]]: i64, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: %[[XW:.*]] = arith.extf %[[XF]] : f32 to f64
// CHECK-NEXT: arith.addf %[[XW]], %[[ACC]] fastmath<reassoc> : f64
func.func @sum_int_to_float(%a: !torch.vtensor<[8],si64>) -> !torch.vtensor<[],f32> {
  %false = torch.constant.bool false
  %none = torch.constant.none
  %int6 = torch.constant.int 6
  %0 = torch.aten.sum.dim_IntList %a, %none, %false, %int6 : !torch.vtensor<[8],si64>, !torch.none, !torch.bool, !torch.int -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// keepdim over every dim of a static input, declared with dynamic sizes:
// each of them is 1 (one element), so the reshape gives them as constants.
// CHECK-LABEL: func.func @keepdim_all_dynamic_result(
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[SHAPE:.*]] = tensor.from_elements %[[ONE]], %[[ONE]] : tensor<2xindex>
// CHECK: tensor.reshape %{{.*}}(%[[SHAPE]]) : (tensor<1xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @keepdim_all_dynamic_result(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[?,?],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %dims, %true, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

// A float32 sum over consecutive dims before the last (static, more than 64
// elements): the reduced block (256 * 3 = 768) is cut into 12 chunks of 64;
// one generic adds each chunk in float32 with the columns (the dims after)
// innermost, a second adds the 12 chunk sums per column in float64, then
// one rounding.
// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #[[PART:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #[[COLS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @sum_columns(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,256,3,4],f32> -> tensor<2x256x3x4xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0], [1, 2], [3]] : tensor<2x256x3x4xf32> into tensor<2x768x4xf32>
// CHECK: %[[CHUNKS:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0], [1, 2], [3]] output_shape [2, 12, 64, 4] : tensor<2x768x4xf32> into tensor<2x12x64x4xf32>
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[PART]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%[[CHUNKS]] : tensor<2x12x64x4xf32>) outs(%{{.*}} : tensor<2x12x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[X]], %[[ACC]] fastmath<reassoc> : f32
// CHECK: %[[T:.*]] = linalg.generic {indexing_maps = [#[[ID3]], #[[COLS]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[P]] : tensor<2x12x4xf32>) outs(%{{.*}} : tensor<2x4xf64>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %[[TACC:.*]]: f64):
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[S]] : f32 to f64
// CHECK-NEXT: arith.addf %[[W]], %[[TACC]] : f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: torch_c.from_builtin_tensor %{{.*}} : tensor<2x4xf32> -> !torch.vtensor<[2,4],f32>
func.func @sum_columns(%a: !torch.vtensor<[2,256,3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %l, %false, %none : !torch.vtensor<[2,256,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// Along the first dim (1000 = 20 chunks of 50, the largest divisor up to
// 64), keepdim: the chunks come from expanding the leading dim.
// CHECK-LABEL: func.func @sum_leading_dim(
// CHECK: %[[CHUNKS:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [1, 20, 50, 16] : tensor<1000x16xf32> into tensor<1x20x50x16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[CHUNKS]] : tensor<1x20x50x16xf32>) outs(%{{.*}} : tensor<1x20x16xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x16xf64>)
// CHECK: torch_c.from_builtin_tensor %{{.*}} : tensor<1x16xf32> -> !torch.vtensor<[1,16],f32>
func.func @sum_leading_dim(%a: !torch.vtensor<[1000,16],f32>) -> !torch.vtensor<[1,16],f32> {
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %l, %true, %none : !torch.vtensor<[1000,16],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[1,16],f32>
  return %0 : !torch.vtensor<[1,16],f32>
}

// -----

// 1031 (a prime) has no divisor from 8 to 64: one reduction in float64.
// CHECK-LABEL: func.func @sum_columns_prime(
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<1031x16xf32>) outs(%{{.*}} : tensor<16xf64>)
func.func @sum_columns_prime(%a: !torch.vtensor<[1031,16],f32>) -> !torch.vtensor<[16],f32> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %l, %false, %none : !torch.vtensor<[1031,16],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[16],f32>
  return %0 : !torch.vtensor<[16],f32>
}

// -----

// A 0-d tensor takes dim 0 or -1 (as eager does): a sum over no dims, its
// one element widened and rounded back.
// CHECK-LABEL: func.func @sum_0d(
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = []} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<f64>)
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @sum_0d(%x: !torch.vtensor<[],f32>) -> !torch.vtensor<[],f32> {
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %x, %dims, %true, %none : !torch.vtensor<[],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// Any other dim of a 0-d tensor is out of range.
func.func @sum_0d_out_of_range(%x: !torch.vtensor<[],f32>) -> !torch.vtensor<[],f32> {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.sum.dim_IntList' could not be lowered to linalg-on-tensors: dim out of range}}
  %0 = torch.aten.sum.dim_IntList %x, %dims, %true, %none : !torch.vtensor<[],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}
