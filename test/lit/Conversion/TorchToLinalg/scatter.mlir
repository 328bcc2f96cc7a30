// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// scatter_add along dim 0: writes only collide within a column (the line
// along dim), so an scf.forall over the index's other positions takes each
// column of the result as a 1-d slice and runs a loop over the index's
// column in order; each step reads the position that the index names and
// adds src there.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-DAG: %[[SRC:[^ ]+]] = torch_c.to_builtin_tensor %arg2
// CHECK-DAG: %[[INDEX:[^ ]+]] = torch_c.to_builtin_tensor %arg1
// CHECK-DAG: %[[SELF:[^ ]+]] = torch_c.to_builtin_tensor %arg0
// CHECK: scf.forall (%[[J:[^ ]+]]) in (4) shared_outs(%[[OUT:[^ ]+]] = %[[SELF]]) -> (tensor<3x4xf32>)
// CHECK: %[[LINE:[^ ]+]] = tensor.extract_slice %[[OUT]][%{{.*}}, %[[J]]] [3, 1] [1, 1] : tensor<3x4xf32> to tensor<3xf32>
// CHECK: %[[LOOP:[^ ]+]] = scf.for %[[I:[^ ]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:[^ ]+]] = %[[LINE]]) -> (tensor<3xf32>)
// CHECK: %[[IDX:[^ ]+]] = tensor.extract %[[INDEX]][%[[I]], %[[J]]] : tensor<2x4xi64>
// CHECK: %[[POS:[^ ]+]] = arith.index_cast %[[IDX]] : i64 to index
// CHECK: %[[OK:[^ ]+]] = arith.cmpi ult, %[[POS]], %{{.*}} : index
// CHECK: cf.assert %[[OK]], "torch.aten.scatter_add: an index is out of range for dim 0 of self, which eager PyTorch refuses; indices must be in [0, size)"
// CHECK: %[[ROW:[^ ]+]] = arith.select %[[OK]], %[[POS]], %{{.*}} : index
// CHECK: %[[V:[^ ]+]] = tensor.extract %[[SRC]][%[[I]], %[[J]]] : tensor<2x4xf32>
// CHECK: %[[OLD:[^ ]+]] = tensor.extract %[[ACC]][%[[ROW]]] : tensor<3xf32>
// CHECK: %[[SUM:[^ ]+]] = arith.addf %[[OLD]], %[[V]] : f32
// CHECK: %[[NEW:[^ ]+]] = tensor.insert %[[SUM]] into %[[ACC]][%[[ROW]]] : tensor<3xf32>
// CHECK: scf.yield %[[NEW]] : tensor<3xf32>
// CHECK: tensor.parallel_insert_slice %[[LOOP]] into %[[OUT]][%{{.*}}, %[[J]]] [3, 1] [1, 1] : tensor<3xf32> into tensor<3x4xf32>
func.func @scatter_add(%x: !torch.vtensor<[3,4],f32>, %i: !torch.vtensor<[2,4],si64>, %s: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.scatter_add %x, %int0, %i, %s : !torch.vtensor<[3,4],f32>, !torch.int, !torch.vtensor<[2,4],si64>, !torch.vtensor<[2,4],f32> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}


// -----

// scatter_reduce "mean" without self on int64: the written positions
// start at 0, a second tensor counts the values, and the sums are floor
// divided by max(count, 1).
// CHECK-LABEL: func.func @scatter_reduce_mean_int(
// CHECK: scf.for
// CHECK: tensor.insert %{{.*}} into
// CHECK: linalg.fill
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} -> (tensor<5xi64>, tensor<5xi64>)
// CHECK: arith.addi
// CHECK: tensor.insert
// CHECK: arith.addi
// CHECK: tensor.insert
// CHECK: linalg.generic {{.*}} ins(%[[LOOP]]#0, %[[LOOP]]#1 : tensor<5xi64>, tensor<5xi64>)
// CHECK: %[[D:[^ ]+]] = arith.maxsi
// CHECK: arith.floordivsi %{{.*}}, %[[D]] : i64
func.func @scatter_reduce_mean_int(%x: !torch.vtensor<[5],si64>, %i: !torch.vtensor<[3],si64>, %s: !torch.vtensor<[3],si64>) -> !torch.vtensor<[5],si64> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "mean"
  %false = torch.constant.bool false
  %0 = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[5],si64>, !torch.int, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.str, !torch.bool -> !torch.vtensor<[5],si64>
  return %0 : !torch.vtensor<[5],si64>
}


// -----

// scatter_reduce "mean" on complex64: complex.add accumulates values and
// counts; a position nothing was written to divides by 1 (its count equals
// complex 0), the others by their count, with complex.div.
// CHECK-LABEL: func.func @scatter_reduce_mean_complex(
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} -> (tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>)
// CHECK: complex.add
// CHECK: complex.add
// CHECK: linalg.generic {{.*}} ins(%[[LOOP]]#0, %[[LOOP]]#1 : tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>)
// CHECK: ^bb0(%[[SUM:[^ ]+]]: complex<f32>, %[[COUNT:[^ ]+]]: complex<f32>,
// CHECK: %[[NONE:[^ ]+]] = complex.eq %[[COUNT]], %{{.*}} : complex<f32>
// CHECK: %[[D:[^ ]+]] = arith.select %[[NONE]], %{{.*}}, %[[COUNT]] : complex<f32>
// CHECK: complex.div %[[SUM]], %[[D]] : complex<f32>
func.func @scatter_reduce_mean_complex(%x: !torch.vtensor<[5],complex<f32>>, %i: !torch.vtensor<[3],si64>, %s: !torch.vtensor<[3],complex<f32>>) -> !torch.vtensor<[5],complex<f32>> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "mean"
  %true = torch.constant.bool true
  %0 = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %true : !torch.vtensor<[5],complex<f32>>, !torch.int, !torch.vtensor<[3],si64>, !torch.vtensor<[3],complex<f32>>, !torch.str, !torch.bool -> !torch.vtensor<[5],complex<f32>>
  return %0 : !torch.vtensor<[5],complex<f32>>
}


// -----

// scatter(reduce="multiply") on complex128: complex.mul in the line loop.
// CHECK-LABEL: func.func @scatter_multiply_complex(
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: complex.mul %{{.*}}, %{{.*}} : complex<f64>
func.func @scatter_multiply_complex(%x: !torch.vtensor<[3,4],complex<f64>>, %i: !torch.vtensor<[2,4],si64>, %s: !torch.vtensor<[2,4],complex<f64>>) -> !torch.vtensor<[3,4],complex<f64>> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "multiply"
  %0 = torch.aten.scatter.reduce %x, %int0, %i, %s, %str : !torch.vtensor<[3,4],complex<f64>>, !torch.int, !torch.vtensor<[2,4],si64>, !torch.vtensor<[2,4],complex<f64>>, !torch.str -> !torch.vtensor<[3,4],complex<f64>>
  return %0 : !torch.vtensor<[3,4],complex<f64>>
}


// -----

func.func @scatter_reduce_amax_complex(%x: !torch.vtensor<[5],complex<f32>>, %i: !torch.vtensor<[3],si64>, %s: !torch.vtensor<[3],complex<f32>>) -> !torch.vtensor<[5],complex<f32>> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "amax"
  %true = torch.constant.bool true
  // expected-error @+1 {{'torch.aten.scatter_reduce.two' could not be lowered to linalg-on-tensors: complex numbers have no order: amax and amin of a complex tensor are undefined (eager refuses them too)}}
  %0 = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %true : !torch.vtensor<[5],complex<f32>>, !torch.int, !torch.vtensor<[3],si64>, !torch.vtensor<[3],complex<f32>>, !torch.str, !torch.bool -> !torch.vtensor<[5],complex<f32>>
  return %0 : !torch.vtensor<[5],complex<f32>>
}


// -----

func.func @scatter_reduce_bad(%x: !torch.vtensor<[5],f32>, %i: !torch.vtensor<[3],si64>, %s: !torch.vtensor<[3],f32>) -> !torch.vtensor<[5],f32> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "median"
  %true = torch.constant.bool true
  // expected-error @+1 {{'torch.aten.scatter_reduce.two' could not be lowered to linalg-on-tensors: unsupported: this reduce (scatter_reduce takes a constant "sum", "prod", "mean", "amax" or "amin"; scatter "add" or "multiply")}}
  %0 = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %true : !torch.vtensor<[5],f32>, !torch.int, !torch.vtensor<[3],si64>, !torch.vtensor<[3],f32>, !torch.str, !torch.bool -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}


// -----

// index_put with a None entry and accumulate: the loops run over the
// indexed view (self dim 0, then the index's dim); a negative index wraps.
// CHECK-LABEL: func.func @index_put_accumulate(
// CHECK: scf.for %[[I:[^ ]+]] = {{.*}} -> (tensor<4x3xf32>)
// CHECK: scf.for %[[J:[^ ]+]] = {{.*}} -> (tensor<4x3xf32>)
// CHECK: %[[IDX:[^ ]+]] = tensor.extract %{{.*}}[%[[J]]] : tensor<2xi64>
// CHECK: %[[POS:[^ ]+]] = arith.index_cast %[[IDX]] : i64 to index
// CHECK: %[[NEG:[^ ]+]] = arith.cmpi slt, %[[POS]], %{{.*}} : index
// CHECK: %[[WRAPPED:[^ ]+]] = arith.addi %[[POS]], %{{.*}} : index
// CHECK: %[[WRAP:[^ ]+]] = arith.select %[[NEG]], %[[WRAPPED]], %[[POS]] : index
// CHECK: %[[OK:[^ ]+]] = arith.cmpi ult, %[[WRAP]], %{{.*}} : index
// CHECK: cf.assert %[[OK]], "torch.aten.index_put: an index is out of range for dim 1 of self, which eager PyTorch refuses; indices must be in [-size, size)"
// CHECK: %[[COL:[^ ]+]] = arith.select %[[OK]], %[[WRAP]], %{{.*}} : index
// CHECK: tensor.extract %{{.*}}[%[[J]]] : tensor<3xf32>
// CHECK: tensor.extract %{{.*}}[%[[I]], %[[COL]]] : tensor<4x3xf32>
// CHECK: arith.addf
// CHECK: tensor.insert %{{.*}} into %{{.*}}[%[[I]], %[[COL]]] : tensor<4x3xf32>
func.func @index_put_accumulate(%x: !torch.vtensor<[4,3],f32>, %i: !torch.vtensor<[2],si64>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[4,3],f32> {
  %true = torch.constant.bool true
  %none = torch.constant.none
  %list = torch.prim.ListConstruct %none, %i : (!torch.none, !torch.vtensor<[2],si64>) -> !torch.list<optional<vtensor>>
  %0 = torch.aten.index_put %x, %list, %v, %true : !torch.vtensor<[4,3],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3],f32>, !torch.bool -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}


// -----

// index_put with a bool mask: its set positions, in order, take the
// values; a counter carried with the result says which.
// CHECK-LABEL: func.func @index_put_mask(
// CHECK: scf.for %[[I:[^ ]+]] = {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{.*}}, %[[COUNT:[^ ]+]] = %{{.*}}) -> (tensor<4xf32>, index)
// CHECK: %[[SET:[^ ]+]] = tensor.extract %{{.*}}[%[[I]]] : tensor<4xi1>
// CHECK: scf.if %[[SET]] -> (tensor<4xf32>, index)
// CHECK: %[[V:[^ ]+]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: %[[NEW:[^ ]+]] = tensor.insert %[[V]] into %[[ACC]][%[[I]]]
// CHECK: %[[NEXT:[^ ]+]] = arith.addi %[[COUNT]], %{{.*}} : index
// CHECK: scf.yield %[[NEW]], %[[NEXT]]
// CHECK: } else {
// CHECK: scf.yield %[[ACC]], %[[COUNT]]
func.func @index_put_mask(%x: !torch.vtensor<[4],f32>, %m: !torch.vtensor<[4],i1>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[4],f32> {
  %false = torch.constant.bool false
  %list = torch.prim.ListConstruct %m : (!torch.vtensor<[4],i1>) -> !torch.list<optional<vtensor>>
  %0 = torch.aten.index_put %x, %list, %v, %false : !torch.vtensor<[4],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}


// -----

func.func @index_put_mask_and_index(%x: !torch.vtensor<[4,3],f32>, %m: !torch.vtensor<[4],i1>, %i: !torch.vtensor<[1],si64>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[4,3],f32> {
  %false = torch.constant.bool false
  %list = torch.prim.ListConstruct %m, %i : (!torch.vtensor<[4],i1>, !torch.vtensor<[1],si64>) -> !torch.list<optional<vtensor>>
  // expected-error @+1 {{'torch.aten.index_put' could not be lowered to linalg-on-tensors: unsupported: a bool mask with other index tensors}}
  %0 = torch.aten.index_put %x, %list, %v, %false : !torch.vtensor<[4,3],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}


// -----

// slice_scatter: insert_slice at the wrapped, clamped start with the step
// as stride.
// CHECK-LABEL: func.func @slice_scatter(
// CHECK-DAG: %[[SRC:[^ ]+]] = torch_c.to_builtin_tensor %arg1
// CHECK-DAG: %[[SELF:[^ ]+]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[START:[^ ]+]] = arith.minsi
// CHECK: tensor.insert_slice %[[SRC]] into %[[SELF]][%[[START]], 0] [2, 3] [2, 1] : tensor<2x3xf32> into tensor<6x3xf32>
func.func @slice_scatter(%x: !torch.vtensor<[6,3],f32>, %s: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[6,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-5 = torch.constant.int -5
  %none = torch.constant.none
  %0 = torch.aten.slice_scatter %x, %s, %int0, %int-5, %none, %int2 : !torch.vtensor<[6,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int, !torch.int, !torch.none, !torch.int -> !torch.vtensor<[6,3],f32>
  return %0 : !torch.vtensor<[6,3],f32>
}


// -----

// select_scatter: a rank-reducing insert_slice at the wrapped index.
// CHECK-LABEL: func.func @select_scatter(
// CHECK: %[[AT:[^ ]+]] = arith.select
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, %[[AT]]] [3, 1] [1, 1] : tensor<3xi32> into tensor<3x4xi32>
func.func @select_scatter(%x: !torch.vtensor<[3,4],si32>, %s: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3,4],si32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %0 = torch.aten.select_scatter %x, %s, %int1, %int-1 : !torch.vtensor<[3,4],si32>, !torch.vtensor<[3],si32>, !torch.int, !torch.int -> !torch.vtensor<[3,4],si32>
  return %0 : !torch.vtensor<[3,4],si32>
}


// -----

// nonzero: one loop nest counts the nonzero elements (NaN is nonzero),
// a second writes their positions as rows.
// CHECK-LABEL: func.func @nonzero(
// CHECK: %[[COUNT:[^ ]+]] = scf.for
// CHECK: arith.cmpf une
// CHECK: %[[ROWS:[^ ]+]] = tensor.empty(%[[COUNT]]) : tensor<?x2xi64>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ROWS]], %{{.*}} = %{{.*}}) -> (tensor<?x2xi64>, index)
// CHECK: scf.if
// CHECK: arith.index_cast %{{.*}} : index to i64
// CHECK: tensor.insert
func.func @nonzero(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[?,2],si64> {
  %0 = torch.aten.nonzero %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[?,2],si64>
  return %0 : !torch.vtensor<[?,2],si64>
}

// -----

// diagonal_scatter(offset 1): a loop over src writes src[k] at [k, k + 1].
// CHECK-LABEL: func.func @diagonal_scatter(
// CHECK-DAG: %[[SRC:.*]] = torch_c.to_builtin_tensor %arg1
// CHECK-DAG: %[[SELF:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: scf.for %[[K:[^ ]+]] = {{.*}} iter_args(%[[ACC:[^ ]+]] = %[[SELF]]) -> (tensor<3x4xf32>)
// CHECK: %[[ROW:[^ ]+]] = arith.addi %[[K]], %c0{{.*}} : index
// CHECK: %[[COL:[^ ]+]] = arith.addi %[[K]], %c1{{.*}} : index
// CHECK: %[[V:[^ ]+]] = tensor.extract %[[SRC]][%[[K]]] : tensor<3xf32>
// CHECK: tensor.insert %[[V]] into %[[ACC]][%[[ROW]], %[[COL]]] : tensor<3x4xf32>
func.func @diagonal_scatter(%x: !torch.vtensor<[3,4],f32>, %s: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3,4],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %0 = torch.aten.diagonal_scatter %x, %s, %int1, %int0, %int1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

// Off the scatter dim the index writes self at its own position: an index
// wider than self (5 > 4 along dim 1) is refused, as PyTorch refuses it.
func.func @scatter_add_index_wider_than_self(%x: !torch.vtensor<[3,4],f32>, %i: !torch.vtensor<[2,5],si64>, %s: !torch.vtensor<[2,5],f32>) -> !torch.vtensor<[3,4],f32> {
  %int0 = torch.constant.int 0
  // expected-error @+1 {{'torch.aten.scatter_add' could not be lowered to linalg-on-tensors: torch.aten.scatter_add: the index is larger than self along dim 1, which eager PyTorch refuses; index.size(d) <= self.size(d) must hold}}
  %0 = torch.aten.scatter_add %x, %int0, %i, %s : !torch.vtensor<[3,4],f32>, !torch.int, !torch.vtensor<[2,5],si64>, !torch.vtensor<[2,5],f32> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

// The index also reads src at its own position, along every dim (src
// [2, 3] is narrower than the index [2, 4]); a dynamic src size is checked
// at run time.
// CHECK-LABEL: func.func @scatter_add_src_sizes(
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : index
// CHECK: cf.assert %[[FITS]], "torch.aten.scatter_add: the index is larger than src along dim 1, which eager PyTorch refuses; index.size(d) <= src.size(d) must hold"
func.func @scatter_add_src_sizes(%x: !torch.vtensor<[3,4],f32>, %i: !torch.vtensor<[2,4],si64>, %s: !torch.vtensor<[2,?],f32>) -> !torch.vtensor<[3,4],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.scatter_add %x, %int0, %i, %s : !torch.vtensor<[3,4],f32>, !torch.int, !torch.vtensor<[2,4],si64>, !torch.vtensor<[2,?],f32> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}
