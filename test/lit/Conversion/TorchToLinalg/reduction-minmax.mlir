// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// amax over dims (-1, 1) with keepdim: a NaN-propagating max from -inf
// that may treat -0.0 and +0.0 alike (nsz), expanded back to the kept rank.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[KEPT:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @amax_keepdim(
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%[[EMPTY]] : tensor<3xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]]], iterator_types = ["parallel", "reduction", "reduction"]} {{.*}} outs(%[[INIT]] : tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[X]], %[[ACC]] fastmath<nsz> : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: tensor.expand_shape %[[MAX]] {{\[\[}}0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
func.func @amax_keepdim(%a: !torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[3,1,1],f32> {
  %m1 = torch.constant.int -1
  %i1 = torch.constant.int 1
  %true = torch.constant.bool true
  %d = torch.prim.ListConstruct %m1, %i1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.amax %a, %d, %true : !torch.vtensor<[3,4,5],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3,1,1],f32>
  return %0 : !torch.vtensor<[3,1,1],f32>
}

// -----

// An empty dim list reduces everything; amin of int64 starts at INT64_MAX.
// CHECK-LABEL: func.func @amin_all_i64(
// CHECK: %[[MAXI:.*]] = arith.constant 9223372036854775807 : i64
// CHECK: linalg.fill ins(%[[MAXI]] : i64) outs(%{{.*}} : tensor<i64>)
// CHECK: iterator_types = ["reduction", "reduction"]
// CHECK: arith.minsi
func.func @amin_all_i64(%a: !torch.vtensor<[3,4],si64>) -> !torch.vtensor<[],si64> {
  %false = torch.constant.bool false
  %d = torch.prim.ListConstruct  : () -> !torch.list<int>
  %0 = torch.aten.amin %a, %d, %false : !torch.vtensor<[3,4],si64>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// -----

func.func @amax_bad_dim(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %i2 = torch.constant.int 2
  %false = torch.constant.bool false
  %d = torch.prim.ListConstruct %i2 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.amax' could not be lowered to linalg-on-tensors: dim out of range}}
  %0 = torch.aten.amax %a, %d, %false : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// prod accumulates in the result dtype (int32 input, int64 result).
// CHECK-LABEL: func.func @prod_widens(
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: linalg.fill ins(%[[ONE]] : i64)
// CHECK: ^bb0(%[[X:.*]]: i32, %[[ACC:.*]]: i64):
// CHECK-NEXT: %[[XW:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK-NEXT: arith.muli %[[XW]], %[[ACC]] : i64
func.func @prod_widens(%a: !torch.vtensor<[3,4],si32>) -> !torch.vtensor<[3],si64> {
  %i1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.prod.dim_int %a, %i1, %false, %none : !torch.vtensor<[3,4],si32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3],si64>
  return %0 : !torch.vtensor<[3],si64>
}

// -----

// prod of float32 with dtype=torch.bool: each element becomes x != 0 and
// the bools multiply (arith.muli on i1 is the logical and), from true.
// CHECK-LABEL: func.func @prod_bool(
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: linalg.fill ins(%[[TRUE]] : i1)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: i1):
// CHECK: %[[NZ:.*]] = arith.cmpf une, %[[X]], %{{.*}} : f32
// CHECK: arith.muli %[[NZ]], %[[ACC]] : i1
func.func @prod_bool(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],i1> {
  %i1 = torch.constant.int 1
  %false = torch.constant.bool false
  %int11 = torch.constant.int 11
  %0 = torch.aten.prod.dim_int %a, %i1, %false, %int11 : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool, !torch.int -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}

// -----

// argmax along the last dim with keepdim, in two vectorizable passes: the
// largest value (maximumf, which propagates NaN; nsz: either zero, as the
// index pass compares with oeq), then per row an scf.for that carries the
// smallest index holding it (equal to it, or NaN: when the largest is NaN no
// number equals it) in a register and reads the row's largest value once.
// CHECK-LABEL: func.func @argmax_keepdim(
// CHECK: %[[VALS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK: %[[NONE:.*]] = arith.constant 9223372036854775807 : i64
// CHECK: %[[IDXS:.*]] = linalg.fill ins(%[[NONE]] : i64) outs(%{{.*}} : tensor<3xi64>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[IN:.*]] : tensor<3x4xf32>) outs(%[[VALS]] : tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[X]], %[[ACC]] fastmath<nsz> : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK: %[[LEN:.*]] = tensor.dim %[[IN]], %{{.*}} : tensor<3x4xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[MAX]] : tensor<3xf32>) outs(%[[IDXS]] : tensor<3xi64>)
// CHECK-NEXT: ^bb0(%[[BEST:.*]]: f32, %[[INIT:.*]]: i64):
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[FIRST:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[LEN]] step %{{.*}} iter_args(%[[BESTI:.*]] = %[[INIT]]) -> (i64)
// CHECK: %[[X2:.*]] = tensor.extract %[[IN]][%[[ROW]], %[[J]]] : tensor<3x4xf32>
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[X2]], %[[BEST]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X2]], %[[X2]] : f32
// CHECK: %[[HOLDS:.*]] = arith.ori %[[EQ]], %[[NAN]] : i1
// CHECK: %[[JW:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK: %[[CAND:.*]] = arith.select %[[HOLDS]], %[[JW]], %{{.*}} : i64
// CHECK: %[[MIN:.*]] = arith.minsi %[[CAND]], %[[BESTI]] : i64
// CHECK-NEXT: scf.yield %[[MIN]] : i64
// CHECK: linalg.yield %[[FIRST]] : i64
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xi64> into tensor<3x1xi64>
func.func @argmax_keepdim(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,1],si64> {
  %i1 = torch.constant.int 1
  %true = torch.constant.bool true
  %0 = torch.aten.argmax %a, %i1, %true : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3,1],si64>
  return %0 : !torch.vtensor<[3,1],si64>
}

// -----

// argmin along a dim that is not the last: the index pass is a reduction
// generic over the input and the smallest values (one reduction loop per
// position of the other dims), uint8 compared unsigned.
// CHECK-LABEL: func.func @argmin_dim0(
// CHECK: arith.minui
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<3x4xi8>, tensor<4xi8>) outs(%{{.*}} : tensor<4xi64>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i8, %[[BEST:.*]]: i8, %[[BESTI:.*]]: i64):
// CHECK: %[[POS:.*]] = linalg.index 0 : index
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[X]], %[[BEST]] : i8
// CHECK: %[[CAND:.*]] = arith.select %[[EQ]], %{{.*}}, %{{.*}} : i64
// CHECK: arith.minsi %[[CAND]], %[[BESTI]] : i64
func.func @argmin_dim0(%a: !torch.vtensor<[3,4],ui8>) -> !torch.vtensor<[4],si64> {
  %i0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.aten.argmin %a, %i0, %false : !torch.vtensor<[3,4],ui8>, !torch.int, !torch.bool -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// -----

// dim=None: the index is the row-major position in the flattened tensor;
// a signed integer's smallest value comes from minsi.
// CHECK-LABEL: func.func @argmin_flattened(
// CHECK: arith.minsi
// CHECK: iterator_types = ["reduction", "reduction"]
// CHECK: %[[I0:.*]] = linalg.index 0 : index
// CHECK: %[[I0W:.*]] = arith.index_cast %[[I0]] : index to i64
// CHECK: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK: arith.muli %[[I0W]], %[[FOUR]] : i64
// CHECK: linalg.index 1 : index
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i64
// CHECK: arith.minsi
func.func @argmin_flattened(%a: !torch.vtensor<[3,4],si64>) -> !torch.vtensor<[],si64> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.aten.argmin %a, %none, %false : !torch.vtensor<[3,4],si64>, !torch.none, !torch.bool -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// -----

func.func @argmax_flattened_dynamic(%a: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[],si64> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.argmax' could not be lowered to linalg-on-tensors: unsupported: dim=None over a dynamic shape}}
  %0 = torch.aten.argmax %a, %none, %false : !torch.vtensor<[?,4],f32>, !torch.none, !torch.bool -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// -----

// any.dim over a float tensor: x != 0 (unordered, so NaN counts), or-ed
// from false; keepdim expands the result back.
// CHECK-LABEL: func.func @any_dim_f32(
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: linalg.fill ins(%[[FALSE]] : i1) outs(%{{.*}} : tensor<3xi1>)
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: i1):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[NZ:.*]] = arith.cmpf une, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[OR:.*]] = arith.ori %[[NZ]], %[[ACC]] : i1
// CHECK-NEXT: linalg.yield %[[OR]] : i1
// CHECK: tensor.expand_shape {{.*}} : tensor<3xi1> into tensor<3x1xi1>
func.func @any_dim_f32(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,1],i1> {
  %m1 = torch.constant.int -1
  %true = torch.constant.bool true
  %0 = torch.aten.any.dim %a, %m1, %true : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3,1],i1>
  return %0 : !torch.vtensor<[3,1],i1>
}

// -----

// any of a uint8 tensor is uint8, as in PyTorch: the i1 result widens.
// CHECK-LABEL: func.func @any_all_ui8(
// CHECK: iterator_types = ["reduction", "reduction"]
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i8
// CHECK: linalg.generic
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: -> tensor<i8>
func.func @any_all_ui8(%a: !torch.vtensor<[2,5],ui8>) -> !torch.vtensor<[],ui8> {
  %0 = torch.aten.any %a : !torch.vtensor<[2,5],ui8> -> !torch.vtensor<[],ui8>
  return %0 : !torch.vtensor<[],ui8>
}

// -----

func.func @any_dims_dynamic(%a: !torch.vtensor<[3,4],i1>, %d: !torch.int) -> !torch.vtensor<[3],i1> {
  %false = torch.constant.bool false
  %l = torch.prim.ListConstruct %d : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.any.dims' could not be lowered to linalg-on-tensors: dim must be a constant}}
  %0 = torch.aten.any.dims %a, %l, %false : !torch.vtensor<[3,4],i1>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}

// -----

// cumsum of a bool mask into int64 along the last dim: the input is
// widened first, then each row is one iteration of an scf.forall whose
// scalar loop walks the row, carrying the sum and writing the result's row
// in place.
// CHECK-LABEL: func.func @cumsum_bool_i64(
// CHECK: %[[WIDE:.*]] = linalg.generic
// CHECK: arith.extui %{{.*}} : i1 to i64
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x9xi64>
// CHECK: scf.forall (%[[R:.*]]) in (2) shared_outs(%[[SHARED:.*]] = %[[EMPTY]]) -> (tensor<2x9xi64>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[SHARED]][%[[R]], 0] [1, 9] [1, 1] : tensor<2x9xi64> to tensor<9xi64>
// CHECK: %[[N:.*]] = tensor.dim %[[WIDE]], %{{.*}} : tensor<2x9xi64>
// CHECK: %[[SCAN:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}, %[[OUT:.*]] = %[[ROW]]) -> (i64, tensor<9xi64>)
// CHECK: %[[X:.*]] = tensor.extract %[[WIDE]][%[[R]], %[[I]]] : tensor<2x9xi64>
// CHECK: %[[NEXT:.*]] = arith.addi %[[X]], %[[SUM]] : i64
// CHECK: %[[INS:.*]] = tensor.insert %[[NEXT]] into %[[OUT]][%[[I]]] : tensor<9xi64>
// CHECK: scf.yield %[[NEXT]], %[[INS]]
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice %[[SCAN]]#1 into %[[SHARED]][%[[R]], 0] [1, 9] [1, 1]
func.func @cumsum_bool_i64(%a: !torch.vtensor<[2,9],i1>) -> !torch.vtensor<[2,9],si64> {
  %i1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.cumsum %a, %i1, %none : !torch.vtensor<[2,9],i1>, !torch.int, !torch.none -> !torch.vtensor<[2,9],si64>
  return %0 : !torch.vtensor<[2,9],si64>
}

// -----

// float32 along the last dim of a 1-D input: one row ([n] -> [1, n]), the
// sum carried in f64 and each output rounded to f32.
// CHECK-LABEL: func.func @cumsum_f32_1d(
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 5] : tensor<5xf32> into tensor<1x5xf32>
// CHECK: scf.forall (%{{.*}}) in (1)
// CHECK: scf.for {{.*}} -> (f64, tensor<5xf32>)
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.addf %{{.*}} : f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x5xf32> into tensor<5xf32>
func.func @cumsum_f32_1d(%a: !torch.vtensor<[5],f32>) -> !torch.vtensor<[5],f32> {
  %i0 = torch.constant.int 0
  %none = torch.constant.none
  %0 = torch.aten.cumsum %a, %i0, %none : !torch.vtensor<[5],f32>, !torch.int, !torch.none -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}

// -----

// Along an outer dim: an scf.for over dim 0 adds each [1,9] slice (a
// contiguous row) to the running sum in place and inserts it.
// CHECK-LABEL: func.func @cumsum_outer_dim(
// CHECK: tensor.dim %{{.*}}, %{{.*}} : tensor<2x9xi32>
// CHECK-NOT: scf.forall
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<1x9xi32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SUM:.*]] = %[[ZERO]], %[[OUT:.*]] = %{{.*}}) -> (tensor<1x9xi32>, tensor<2x9xi32>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [1, 9] [1, 1] : tensor<2x9xi32> to tensor<1x9xi32>
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[SLICE]] : tensor<1x9xi32>) outs(%[[SUM]] : tensor<1x9xi32>)
// CHECK: arith.addi
// CHECK: %[[INS:.*]] = tensor.insert_slice %[[NEXT]] into %[[OUT]][%[[I]], 0] [1, 9] [1, 1]
// CHECK: scf.yield %[[NEXT]], %[[INS]]
func.func @cumsum_outer_dim(%a: !torch.vtensor<[2,9],si32>) -> !torch.vtensor<[2,9],si32> {
  %i0 = torch.constant.int 0
  %none = torch.constant.none
  %0 = torch.aten.cumsum %a, %i0, %none : !torch.vtensor<[2,9],si32>, !torch.int, !torch.none -> !torch.vtensor<[2,9],si32>
  return %0 : !torch.vtensor<[2,9],si32>
}

// -----

func.func @cumsum_dynamic_dim(%a: !torch.vtensor<[4],f32>, %d: !torch.int) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten.cumsum' could not be lowered to linalg-on-tensors: dim must be a constant}}
  %0 = torch.aten.cumsum %a, %d, %none : !torch.vtensor<[4],f32>, !torch.int, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// A float amin: minimumf from +inf, nsz as amax's.
// CHECK-LABEL: func.func @amin_f32(
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.minimumf %{{.*}}, %{{.*}} fastmath<nsz> : f32
func.func @amin_f32(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %m1 = torch.constant.int -1
  %false = torch.constant.bool false
  %d = torch.prim.ListConstruct %m1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.amin %a, %d, %false : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
