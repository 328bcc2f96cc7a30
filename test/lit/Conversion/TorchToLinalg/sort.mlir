// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// sort along the last dim: (1) each element's rank is the number of
// elements of its row that come before it (smaller, NaN last, or equal and
// earlier: a stable sort); (2) the order inverts the ranks; (3) the values
// are gathered at the order.
// CHECK-DAG: #[[AT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[OTHER:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @sort(
// CHECK: %[[X:[^ ]+]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[RANKS:[^ ]+]] = linalg.generic {indexing_maps = [#[[AT]], #[[OTHER]], #[[AT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[X]] : tensor<3x5xf32>, tensor<3x5xf32>) outs(%{{.*}} : tensor<3x5xi64>)
// The markers let a backend run the two steps as a library sort (all 5
// ranks kept).
// CHECK-SAME: torch2mlir.sort_ranks = {descending = false, dim = 1 : i64, limit = 5 : i64}
// CHECK: ^bb0(%[[SELF:.*]]: f32, %[[OTHERV:.*]]: f32, %[[ACC:.*]]: i64):
// CHECK: %[[I:[^ ]+]] = linalg.index 1 : index
// CHECK: %[[J:[^ ]+]] = linalg.index 2 : index
// CHECK: %[[EARLIER:[^ ]+]] = arith.cmpi ult, %[[J]], %[[I]] : index
// CHECK: arith.cmpf oeq, %[[OTHERV]], %[[SELF]] : f32
// CHECK: arith.cmpf olt, %[[OTHERV]], %[[SELF]] : f32
// CHECK: arith.cmpf uno
// CHECK: %[[ONE:[^ ]+]] = arith.extui %{{.*}} : i1 to i64
// CHECK: arith.addi %[[ACC]], %[[ONE]] : i64
// CHECK: %[[ORDER:[^ ]+]] = linalg.generic {indexing_maps = [#[[OTHER]], #[[AT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[RANKS]] : tensor<3x5xi64>)
// CHECK-SAME: torch2mlir.sort_order = {dim = 1 : i64}
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: %[[IDX:[^ ]+]] = torch_c.from_builtin_tensor %[[ORDER]]
// CHECK: %[[VALUES:[^ ]+]] = linalg.generic {{.*}} ins(%[[ORDER]] : tensor<3x5xi64>) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK: %[[ROW:[^ ]+]] = linalg.index 0 : index
// CHECK: %[[COL:[^ ]+]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: tensor.extract %[[X]][%[[ROW]], %[[COL]]] : tensor<3x5xf32>
// CHECK: %[[V:[^ ]+]] = torch_c.from_builtin_tensor %[[VALUES]]
// CHECK: return %[[V]], %[[IDX]]
func.func @sort(%x: !torch.vtensor<[3,5],f32>) -> (!torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],si64>) {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0:2 = torch.aten.sort %x, %int-1, %false : !torch.vtensor<[3,5],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],si64>
  return %0#0, %0#1 : !torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],si64>
}


// -----

// topk (largest) of a dynamic 1-d int32 input: a descending (sgt) rank
// over the whole input, and the order for the first k = 2 positions only.
// CHECK-LABEL: func.func @topk(
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?xi32>, tensor<?xi32>) outs(%{{.*}} : tensor<?xi64>)
// CHECK-SAME: torch2mlir.sort_ranks = {descending = true, dim = 0 : i64, limit = 2 : i64}
// CHECK: arith.cmpi sgt
// CHECK: %[[EMPTY:[^ ]+]] = tensor.empty() : tensor<2xi64>
// CHECK: %[[ZEROS:[^ ]+]] = linalg.fill ins(%{{.*}} : i64) outs(%[[EMPTY]] : tensor<2xi64>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<?xi64>) outs(%[[ZEROS]] : tensor<2xi64>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2xi64>) outs(%{{.*}} : tensor<2xi32>)
func.func @topk(%x: !torch.vtensor<[?],si32>) -> (!torch.vtensor<[2],si32>, !torch.vtensor<[2],si64>) {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %0:2 = torch.aten.topk %x, %int2, %int0, %true, %true : !torch.vtensor<[?],si32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2],si32>, !torch.vtensor<[2],si64>
  return %0#0, %0#1 : !torch.vtensor<[2],si32>, !torch.vtensor<[2],si64>
}


// -----

func.func @sort_dynamic_dim(%x: !torch.vtensor<[4],f32>, %d: !torch.int) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>) {
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.sort' could not be lowered to linalg-on-tensors: dim must be a constant}}
  %0:2 = torch.aten.sort %x, %d, %false : !torch.vtensor<[4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
  return %0#0, %0#1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
}
