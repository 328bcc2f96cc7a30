// RUN: torch2mlir-opt %s -convert-torch-to-tosa -split-input-file -verify-diagnostics | FileCheck %s

// embedding: the weight as [1, V, D], the ids as [1, W], one tosa.gather.
// CHECK-LABEL: func.func @embedding(
// CHECK: %[[W:.*]] = tosa.reshape %{{.*}} -> tensor<1x100x4xf32>
// CHECK: %[[I:.*]] = tosa.reshape %{{.*}} -> tensor<1x16xi32>
// CHECK: %[[G:.*]] = tosa.gather %[[W]], %[[I]] : (tensor<1x100x4xf32>, tensor<1x16xi32>) -> tensor<1x16x4xf32>
// CHECK: tosa.reshape %[[G]], %{{.*}} -> tensor<2x8x4xf32>
func.func @embedding(%ids: !torch.vtensor<[2,8],si32>, %w: !torch.vtensor<[100,4],f32>) -> !torch.vtensor<[2,8,4],f32> {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten.embedding %w, %ids, %int-1, %false, %false {torch2mlir.indices_in_bounds} : !torch.vtensor<[100,4],f32>, !torch.vtensor<[2,8],si32>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,8,4],f32>
  return %0 : !torch.vtensor<[2,8,4],f32>
}

// -----

// Indices not proved in bounds: TOSA has no run-time check, refused.
func.func @embedding_unproved(%ids: !torch.vtensor<[2,8],si32>, %w: !torch.vtensor<[100,4],f32>) -> !torch.vtensor<[2,8,4],f32> {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.embedding' could not be lowered to TOSA: unsupported: indices not proved within the indexed size}}
  %0 = torch.aten.embedding %w, %ids, %int-1, %false, %false : !torch.vtensor<[100,4],f32>, !torch.vtensor<[2,8],si32>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,8,4],f32>
  return %0 : !torch.vtensor<[2,8,4],f32>
}

// -----

// si64 indices (not narrowed): refused for their dtype.
func.func @embedding_si64(%ids: !torch.vtensor<[2,8],si64>, %w: !torch.vtensor<[100,4],f32>) -> !torch.vtensor<[2,8,4],f32> {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.embedding' could not be lowered to TOSA: unsupported: an index tensor of dtype si64}}
  %0 = torch.aten.embedding %w, %ids, %int-1, %false, %false {torch2mlir.indices_in_bounds} : !torch.vtensor<[100,4],f32>, !torch.vtensor<[2,8],si64>, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,8,4],f32>
  return %0 : !torch.vtensor<[2,8,4],f32>
}

// -----

// index_select of dim 1 of [2, 5, 3]: values [2, 5, 3], the 4 indices
// tiled to [2, 4].
// CHECK-LABEL: func.func @index_select(
// CHECK: %[[V:.*]] = tosa.reshape %{{.*}} -> tensor<1x4xi32>
// CHECK: %[[T:.*]] = tosa.tile %[[V]], %{{.*}} -> tensor<2x4xi32>
// CHECK: %[[G:.*]] = tosa.gather %{{.*}}, %[[T]] : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
func.func @index_select(%a: !torch.vtensor<[2,5,3],f32>, %i: !torch.vtensor<[4],si32>) -> !torch.vtensor<[2,4,3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.index_select %a, %int1, %i {torch2mlir.indices_in_bounds} : !torch.vtensor<[2,5,3],f32>, !torch.int, !torch.vtensor<[4],si32> -> !torch.vtensor<[2,4,3],f32>
  return %0 : !torch.vtensor<[2,4,3],f32>
}

// -----

// gather along dim 0 of [3, 4] by a [2, 4] index: linear offsets
// index * 4 + column.
// CHECK-LABEL: func.func @gather(
// CHECK-DAG: %[[BASE:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0, 1, 2, 3], [0, 1, 2, 3]]> : tensor<2x4xi32>}>
// CHECK-DAG: %[[FOUR:.*]] = "tosa.const"() <{values = dense<4> : tensor<1x1xi32>}>
// CHECK: %[[M:.*]] = tosa.mul %{{.*}}, %[[FOUR]]
// CHECK: %[[L:.*]] = tosa.add %[[M]], %[[BASE]]
// CHECK: tosa.gather %{{.*}} : (tensor<1x12x1xf32>, tensor<1x8xi32>) -> tensor<1x8x1xf32>
func.func @gather(%a: !torch.vtensor<[3,4],f32>, %i: !torch.vtensor<[2,4],si32>) -> !torch.vtensor<[2,4],f32> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.aten.gather %a, %int0, %i, %false {torch2mlir.indices_in_bounds} : !torch.vtensor<[3,4],f32>, !torch.int, !torch.vtensor<[2,4],si32>, !torch.bool -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// arange(1, 10, 3) and full([2], 0.5): constants.
// CHECK-LABEL: func.func @factories(
// CHECK-DAG: "tosa.const"() <{values = dense<[1, 4, 7]> : tensor<3xi32>}>
// CHECK-DAG: "tosa.const"() <{values = dense<5.000000e-01> : tensor<2xf32>}>
func.func @factories() -> (!torch.vtensor<[3],si32>, !torch.vtensor<[2],f32>) {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int10 = torch.constant.int 10
  %half = torch.constant.float 5.000000e-01
  %none = torch.constant.none
  %0 = torch.aten.arange.start_step %int1, %int10, %int3, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[3],si32>
  %sizes = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.full %sizes, %half, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2],f32>
  return %0, %1 : !torch.vtensor<[3],si32>, !torch.vtensor<[2],f32>
}

// -----

// index.Tensor on the middle dim (proved in bounds): negative indices
// wrap by the size (6), then self [2, 6, 3] gathers them per outer row.
// CHECK-LABEL: func.func @index_tensor_middle(
// CHECK-DAG: %[[I:.*]] = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[2,2],si32> -> tensor<2x2xi32>
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[SIX:.*]] = "tosa.const"() <{values = dense<6> : tensor<1x1xi32>}>
// CHECK: %[[WRAP:.*]] = tosa.add %[[I]], %[[SIX]]
// CHECK: %[[NEG:.*]] = tosa.greater %{{.*}}, %[[I]]
// CHECK: %[[J:.*]] = tosa.select %[[NEG]], %[[WRAP]], %[[I]]
// CHECK: %[[FLAT:.*]] = tosa.reshape %[[J]], %{{.*}} -> tensor<1x4xi32>
// CHECK: %[[ROWS:.*]] = tosa.tile %[[FLAT]], %{{.*}} -> tensor<2x4xi32>
// CHECK: %[[G:.*]] = tosa.gather %[[X]], %[[ROWS]] : (tensor<2x6x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
// CHECK: tosa.reshape %[[G]], %{{.*}} -> tensor<2x2x2x3xf32>
func.func @index_tensor_middle(%x: !torch.vtensor<[2,6,3],f32>, %i: !torch.vtensor<[2,2],si32>) -> !torch.vtensor<[2,2,2,3],f32> {
  %none = torch.constant.none
  %list = torch.prim.ListConstruct %none, %i : (!torch.none, !torch.vtensor<[2,2],si32>) -> !torch.list<optional<vtensor>>
  %0 = torch.aten.index.Tensor %x, %list {torch2mlir.indices_in_bounds} : !torch.vtensor<[2,6,3],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor<[2,2,2,3],f32>
  return %0 : !torch.vtensor<[2,2,2,3],f32>
}

// -----

func.func @index_tensor_unproved(%x: !torch.vtensor<[6],f32>, %i: !torch.vtensor<[2],si32>) -> !torch.vtensor<[2],f32> {
  %list = torch.prim.ListConstruct %i : (!torch.vtensor<[2],si32>) -> !torch.list<optional<vtensor>>
  // expected-error @+1 {{'torch.aten.index.Tensor' could not be lowered to TOSA: unsupported: indices not proved within the indexed sizes}}
  %0 = torch.aten.index.Tensor %x, %list : !torch.vtensor<[6],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// diagonal (offset 1) gathers at constant offsets: (0, 1), (1, 2), (2, 3).
// CHECK-LABEL: func.func @diagonal(
// CHECK: %[[AT:.*]] = "tosa.const"() <{values = dense<{{\[\[}}1, 6, 11]]> : tensor<1x3xi32>}>
// CHECK: %[[FLAT:.*]] = tosa.reshape %{{.*}} -> tensor<1x12x1xf32>
// CHECK: tosa.gather %[[FLAT]], %[[AT]]
func.func @diagonal(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %0 = torch.aten.diagonal %x, %int1, %int0, %int1 : !torch.vtensor<[3,4],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// as_strided past the input's elements is refused (eager raises).
func.func @as_strided_out_of_bounds(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,2],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %size = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int4, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten.as_strided' could not be lowered to TOSA: an element outside the input}}
  %0 = torch.aten.as_strided %x, %size, %stride, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.list<int>, !torch.none -> !torch.vtensor<[2,2],f32>
  return %0 : !torch.vtensor<[2,2],f32>
}

// -----

// scatter_reduce amax (include_self) as a one-hot reduction: dim 1 moved
// last, hit[a, j, k] = (index[a, j] == k), the src values that hit each
// position reduced with reduce_max (the others hold the lowest value),
// combined with self where any index hits.
// CHECK-LABEL: func.func @scatter_reduce_amax(
// CHECK: %[[HIT:.*]] = tosa.equal %{{.*}}, %{{.*}} : (tensor<2x4x1xi32>, tensor<1x1x5xi32>) -> tensor<2x4x5xi1>
// CHECK: %[[LOWEST:.*]] = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}>
// CHECK: %[[V:.*]] = tosa.select %[[HIT]], %{{.*}}, %[[LOWEST]]
// CHECK: %[[MAX:.*]] = tosa.reduce_max %[[V]] {axis = 1 : i32} : (tensor<2x4x5xf32>) -> tensor<2x1x5xf32>
// CHECK: %[[ANY:.*]] = tosa.reduce_any %[[HIT]] {axis = 1 : i32}
// CHECK: %[[PADDED:.*]] = tosa.pad
// CHECK: %[[COMBINED:.*]] = tosa.maximum %[[SELF:.*]], %[[PADDED]]
// CHECK: tosa.select %{{.*}}, %[[COMBINED]], %[[SELF]] : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
func.func @scatter_reduce_amax(%x: !torch.vtensor<[3,5],f32>, %i: !torch.vtensor<[2,4],si32>, %s: !torch.vtensor<[3,6],f32>) -> !torch.vtensor<[3,5],f32> {
  %int1 = torch.constant.int 1
  %amax = torch.constant.str "amax"
  %true = torch.constant.bool true
  %0 = torch.aten.scatter_reduce.two %x, %int1, %i, %s, %amax, %true {torch2mlir.indices_in_bounds} : !torch.vtensor<[3,5],f32>, !torch.int, !torch.vtensor<[2,4],si32>, !torch.vtensor<[3,6],f32>, !torch.str, !torch.bool -> !torch.vtensor<[3,5],f32>
  return %0 : !torch.vtensor<[3,5],f32>
}

// -----

func.func @scatter_add_unproved(%x: !torch.vtensor<[5],f32>, %i: !torch.vtensor<[2],si32>, %s: !torch.vtensor<[2],f32>) -> !torch.vtensor<[5],f32> {
  %int0 = torch.constant.int 0
  // expected-error @+1 {{'torch.aten.scatter_add' could not be lowered to TOSA: unsupported: indices not proved within the indexed size}}
  %0 = torch.aten.scatter_add %x, %int0, %i, %s : !torch.vtensor<[5],f32>, !torch.int, !torch.vtensor<[2],si32>, !torch.vtensor<[2],f32> -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}
