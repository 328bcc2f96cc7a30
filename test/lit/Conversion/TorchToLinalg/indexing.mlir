// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// index_select along dim 0: one check of every index up front (an
// or-reduction, then a top-level assert), then an scf.forall over the index
// that moves each row with one slice (a memcpy after bufferization). An
// index outside [0, 5) fails the check and reads row 0 instead.
// CHECK-LABEL: func.func @index_select(
// CHECK: %[[INDEX:.*]] = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[?],si64> -> tensor<?xi64>
// CHECK: %[[INPUT:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[5,3],f32> -> tensor<5x3xf32>
// CHECK: %[[ROWS:.*]] = tensor.dim %[[INPUT]], %{{.*}} : tensor<5x3xf32>
// CHECK: %[[ANY:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[INDEX]] : tensor<?xi64>) outs(%{{.*}} : tensor<i1>)
// CHECK: arith.cmpi ult, %{{.*}}, %[[ROWS]] : index
// CHECK: arith.ori
// CHECK: %[[FLAG:.*]] = tensor.extract %[[ANY]][] : tensor<i1>
// CHECK: %[[OK:.*]] = arith.xori %[[FLAG]], %{{.*}} : i1
// CHECK: cf.assert %[[OK]], "torch.aten.index_select: an index is out of range for dim 0, which eager PyTorch refuses; indices must be in [0, size)"
// CHECK: %[[N:.*]] = tensor.dim %[[INDEX]], %{{.*}} : tensor<?xi64>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
// CHECK: scf.forall (%[[I:.*]]) in (%[[N]]) shared_outs(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<?x3xf32>)
// CHECK: %[[IDX:.*]] = tensor.extract %[[INDEX]][%[[I]]] : tensor<?xi64>
// CHECK: %[[POS:.*]] = arith.index_cast %[[IDX]] : i64 to index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[POS]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.select %[[IN]], %[[POS]], %{{.*}} : index
// CHECK-NOT: cf.assert
// CHECK: %[[SLAB:.*]] = tensor.extract_slice %[[INPUT]][%[[ROW]], 0] [1, 3] [1, 1] : tensor<5x3xf32> to tensor<3xf32>
// CHECK: tensor.parallel_insert_slice %[[SLAB]] into %[[OUT]][%[[I]], 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<?x3xf32>
func.func @index_select(%a: !torch.vtensor<[5,3],f32>, %i: !torch.vtensor<[?],si64>) -> !torch.vtensor<[?,3],f32> {
  %i0 = torch.constant.int 0
  %0 = torch.aten.index_select %a, %i0, %i : !torch.vtensor<[5,3],f32>, !torch.int, !torch.vtensor<[?],si64> -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}

// -----

// index_select along the last dim (no trailing slab): a generic over the
// result that reads the index per element, checked up front, with no
// assert in the loop.
// CHECK-LABEL: func.func @index_select_last_dim(
// CHECK: cf.assert
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK-NOT: cf.assert
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<5x3xf32>
// CHECK: linalg.yield
func.func @index_select_last_dim(%a: !torch.vtensor<[5,3],f32>, %i: !torch.vtensor<[4],si64>) -> !torch.vtensor<[5,4],f32> {
  %i1 = torch.constant.int 1
  %0 = torch.aten.index_select %a, %i1, %i : !torch.vtensor<[5,3],f32>, !torch.int, !torch.vtensor<[4],si64> -> !torch.vtensor<[5,4],f32>
  return %0 : !torch.vtensor<[5,4],f32>
}

// -----

func.func @index_select_2d_index(%a: !torch.vtensor<[5,3],f32>, %i: !torch.vtensor<[2,2],si64>) -> !torch.vtensor<[4,3],f32> {
  %i0 = torch.constant.int 0
  // expected-error @+1 {{'torch.aten.index_select' could not be lowered to linalg-on-tensors: index must be a 0-d or 1-d integer tensor}}
  %0 = torch.aten.index_select %a, %i0, %i : !torch.vtensor<[5,3],f32>, !torch.int, !torch.vtensor<[2,2],si64> -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

// gather along the last dim (given as -1): the result has the index's
// shape; the other positions are the loop's.
// CHECK-LABEL: func.func @gather(
// CHECK: %[[INDEX:.*]] = torch_c.to_builtin_tensor %arg1
// CHECK: %[[INPUT:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: tensor.empty() : tensor<3x6xf32>
// CHECK: ins(%[[INDEX]] : tensor<3x6xi64>)
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[POS:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[POS]], %{{.*}} : index
// CHECK-NEXT: cf.assert %[[OK]], "torch.aten.gather: an index is out of range for dim 1, {{.*}}"
// CHECK: %[[COL:.*]] = arith.select %[[OK]], %[[POS]], %{{.*}} : index
// CHECK-NEXT: tensor.extract %[[INPUT]][%[[ROW]], %[[COL]]] : tensor<3x4xf32>
func.func @gather(%a: !torch.vtensor<[3,4],f32>, %i: !torch.vtensor<[3,6],si64>) -> !torch.vtensor<[3,6],f32> {
  %m1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten.gather %a, %m1, %i, %false : !torch.vtensor<[3,4],f32>, !torch.int, !torch.vtensor<[3,6],si64>, !torch.bool -> !torch.vtensor<[3,6],f32>
  return %0 : !torch.vtensor<[3,6],f32>
}

// -----

func.func @gather_rank_mismatch(%a: !torch.vtensor<[3,4],f32>, %i: !torch.vtensor<[6],si64>) -> !torch.vtensor<[6],f32> {
  %i0 = torch.constant.int 0
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.gather' could not be lowered to linalg-on-tensors: index must be an integer tensor of the input's rank}}
  %0 = torch.aten.gather %a, %i0, %i, %false : !torch.vtensor<[3,4],f32>, !torch.int, !torch.vtensor<[6],si64>, !torch.bool -> !torch.vtensor<[6],f32>
  return %0 : !torch.vtensor<[6],f32>
}

// -----

// embedding: result[i, j, :] = weight[indices[i, j], :], one row copy per
// index, over a 2-d forall, after one check of the indices.
// CHECK-LABEL: func.func @embedding(
// CHECK: %[[IDS:.*]] = torch_c.to_builtin_tensor %arg1
// CHECK: %[[W:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: iterator_types = ["reduction", "reduction"]} ins(%[[IDS]] : tensor<2x5xi64>)
// CHECK: cf.assert %{{.*}}, "torch.aten.embedding: an index is out of range for dim 0, {{.*}}"
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (2, 5) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<2x5x4xf32>)
// CHECK: tensor.extract %[[IDS]][%[[I]], %[[J]]] : tensor<2x5xi64>
// CHECK-NOT: cf.assert
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[W]][%{{.*}}, 0] [1, 4] [1, 1] : tensor<10x4xf32> to tensor<4xf32>
// CHECK: tensor.parallel_insert_slice %[[ROW]] into %[[OUT]][%[[I]], %[[J]], 0] [1, 1, 4] [1, 1, 1] : tensor<4xf32> into tensor<2x5x4xf32>
func.func @embedding(%w: !torch.vtensor<[10,4],f32>, %i: !torch.vtensor<[2,5],si64>) -> !torch.vtensor<[2,5,4],f32> {
  %m1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten.embedding %w, %i, %m1, %false, %false : !torch.vtensor<[10,4],f32>, !torch.vtensor<[2,5],si64>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,5,4],f32>
  return %0 : !torch.vtensor<[2,5,4],f32>
}

// -----

// embedding of a 0-d index: the index viewed as [1], one row gathered as
// [1, 4], viewed as [4] (a 0-d indices tensor once crashed the lowering).
// CHECK-LABEL: func.func @embedding_0d_index(
// CHECK: iterator_types = []} ins(%{{.*}} : tensor<i64>)
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<i64> into tensor<1xi64>
// CHECK: scf.forall (%{{.*}}) in (1)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x4xf32> into tensor<4xf32>
func.func @embedding_0d_index(%w: !torch.vtensor<[10,4],f32>, %i: !torch.vtensor<[],si64>) -> !torch.vtensor<[4],f32> {
  %m1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten.embedding %w, %i, %m1, %false, %false : !torch.vtensor<[10,4],f32>, !torch.vtensor<[],si64>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

func.func @embedding_float_indices(%w: !torch.vtensor<[10,4],f32>, %i: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3,4],f32> {
  %m1 = torch.constant.int -1
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.embedding' could not be lowered to linalg-on-tensors: indices must be an integer tensor}}
  %0 = torch.aten.embedding %w, %i, %m1, %false, %false : !torch.vtensor<[10,4],f32>, !torch.vtensor<[3],f32>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

// x[i, j] with i: [3,1], j: [4] on a [4,5,2] tensor: the index tensors
// broadcast to [3,4] (i's unit dim reads element 0), the last dim is kept,
// and a negative index is wrapped by the dim's size.
// CHECK-DAG: #[[I:.*]] = affine_map<(d0, d1, d2) -> (d0, 0)>
// CHECK-DAG: #[[J:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @index_tensor_broadcast(
// CHECK: linalg.generic {indexing_maps = [#[[I]], #[[J]], #{{.*}}]
// CHECK: ^bb0(%[[IV:.*]]: i64, %[[JV:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[K:.*]] = linalg.index 2 : index
// CHECK: %[[II:.*]] = arith.index_cast %[[IV]] : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[II]], %{{.*}} : index
// CHECK: %[[WRAP:.*]] = arith.addi %[[II]], %{{.*}} : index
// CHECK: %[[WRAPPED:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[II]] : index
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[WRAPPED]], %{{.*}} : index
// CHECK: cf.assert %[[OK]], "torch.aten.index.Tensor: an index is out of range for dim 0, which eager PyTorch refuses; indices must be in [-size, size)"
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %[[K]]] : tensor<4x5x2xf32>
// CHECK: -> tensor<3x4x2xf32>
func.func @index_tensor_broadcast(%x: !torch.vtensor<[4,5,2],f32>, %i: !torch.vtensor<[3,1],si64>, %j: !torch.vtensor<[4],si64>) -> !torch.vtensor<[3,4,2],f32> {
  %l = torch.prim.ListConstruct %i, %j : (!torch.vtensor<[3,1],si64>, !torch.vtensor<[4],si64>) -> !torch.list<optional<vtensor>>
  %0 = torch.aten.index.Tensor %x, %l : !torch.vtensor<[4,5,2],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor<[3,4,2],f32>
  return %0 : !torch.vtensor<[3,4,2],f32>
}

// -----

// x[i, :, j] (a None between the index tensors): the broadcast dim of i
// and j comes first, then the dim that is not indexed.
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @index_tensor_non_consecutive(
// CHECK: %[[X:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: linalg.generic {indexing_maps = [#[[B]], #[[B]], #{{.*}}]
// CHECK: ^bb0(%[[IV:[^ ]+]]: i64, %[[JV:[^ ]+]]: i64, %{{.*}}: f32):
// CHECK: %[[MID:.*]] = linalg.index 1 : index
// CHECK: arith.select
// CHECK: cf.assert
// CHECK: %[[I:.*]] = arith.select
// CHECK: arith.select
// CHECK: cf.assert
// CHECK: %[[J:.*]] = arith.select
// CHECK: tensor.extract %[[X]][%[[I]], %[[MID]], %[[J]]] : tensor<4x5x2xf32>
// CHECK: -> tensor<3x5xf32>
func.func @index_tensor_non_consecutive(%x: !torch.vtensor<[4,5,2],f32>, %i: !torch.vtensor<[3],si64>, %j: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,5],f32> {
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %i, %none, %j : (!torch.vtensor<[3],si64>, !torch.none, !torch.vtensor<[3],si64>) -> !torch.list<optional<vtensor>>
  %0 = torch.aten.index.Tensor %x, %l : !torch.vtensor<[4,5,2],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor<[3,5],f32>
  return %0 : !torch.vtensor<[3,5],f32>
}

// -----

// index_select of a 0-d tensor (dim -1 wraps to 0) is the tensor.
// CHECK-LABEL: func.func @index_select_0d(
// CHECK-NOT: linalg.generic
// CHECK: return %arg0 : !torch.vtensor<[],f32>
func.func @index_select_0d(%a: !torch.vtensor<[],f32>, %i: !torch.vtensor<[1],si64>) -> !torch.vtensor<[],f32> {
  %m1 = torch.constant.int -1
  %0 = torch.aten.index_select %a, %m1, %i : !torch.vtensor<[],f32>, !torch.int, !torch.vtensor<[1],si64> -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

func.func @index_tensor_mask(%x: !torch.vtensor<[4],f32>, %m: !torch.vtensor<[4],i1>) -> !torch.vtensor<[?],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[4],i1>) -> !torch.list<optional<vtensor>>
  // expected-error @+1 {{'torch.aten.index.Tensor' could not be lowered to linalg-on-tensors: unsupported: a bool mask or non-integer index (dim 0)}}
  %0 = torch.aten.index.Tensor %x, %l : !torch.vtensor<[4],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// nonzero: a loop nest counts the nonzero elements (une: NaN counts), the
// result gets that many rows, and a second loop nest over the input writes
// each nonzero element's coordinates into the next row.
// CHECK-LABEL: func.func @nonzero(
// CHECK:         %[[COUNT:.*]] = scf.for {{.*}} -> (index) {
// CHECK:           scf.for
// CHECK:             arith.cmpf une
// CHECK:             arith.select
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%[[COUNT]]) : tensor<?x2xi64>
// CHECK:         scf.for %[[I:[a-z0-9]+]] = {{.*}} iter_args(%[[OUT:.*]] = %[[EMPTY]], %[[ROW:.*]] = %{{.*}})
// CHECK:           scf.for %[[J:[a-z0-9]+]] = {{.*}} iter_args(%[[OUT2:.*]] = %[[OUT]], %[[ROW2:.*]] = %[[ROW]])
// CHECK:             %[[X:.*]] = tensor.extract %{{.*}}[%[[I]], %[[J]]] : tensor<3x?xf32>
// CHECK:             %[[NZ:.*]] = arith.cmpf une, %[[X]]
// CHECK:             scf.if %[[NZ]] -> (tensor<?x2xi64>, index)
// CHECK:               tensor.insert %{{.*}} into %[[OUT2]][%[[ROW2]], %{{.*}}]
// CHECK:               tensor.insert
// CHECK:               arith.addi %[[ROW2]]
// CHECK:             } else {
// CHECK:               scf.yield %[[OUT2]], %[[ROW2]]
func.func @nonzero(%a: !torch.vtensor<[3,?],f32>) -> !torch.vtensor<[?,2],si64> {
  %0 = torch.aten.nonzero %a : !torch.vtensor<[3,?],f32> -> !torch.vtensor<[?,2],si64>
  return %0 : !torch.vtensor<[?,2],si64>
}

// -----

// nonzero of a 0-d bool: no loop; one row of no columns when it is true.
// CHECK-LABEL: func.func @nonzero_0d(
// CHECK-NOT:     scf.for
// CHECK:         tensor.empty(%{{.*}}) : tensor<?x0xi64>
// CHECK-NOT:     scf.for
// CHECK:         scf.if
func.func @nonzero_0d(%a: !torch.vtensor<[],i1>) -> !torch.vtensor<[?,0],si64> {
  %0 = torch.aten.nonzero %a : !torch.vtensor<[],i1> -> !torch.vtensor<[?,0],si64>
  return %0 : !torch.vtensor<[?,0],si64>
}

// -----

func.func @nonzero_wrong_result(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[?,3],si64> {
  // expected-error @+1 {{'torch.aten.nonzero' could not be lowered to linalg-on-tensors: result must be an int64 tensor of shape [n, 2]}}
  %0 = torch.aten.nonzero %a : !torch.vtensor<[3,4],f32> -> !torch.vtensor<[?,3],si64>
  return %0 : !torch.vtensor<[?,3],si64>
}
