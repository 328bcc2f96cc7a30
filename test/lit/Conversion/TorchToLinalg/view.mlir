// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// view: a row-major reshape to the result type, with collapse_shape /
// expand_shape when the dims group.

// CHECK-LABEL: func.func @collapse(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3,4],f32> -> tensor<2x3x4xf32>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<6x4xf32> -> !torch.vtensor<[6,4],f32>
func.func @collapse(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[6,4],f32> {
  %int6 = torch.constant.int 6
  %int4 = torch.constant.int 4
  %l = torch.prim.ListConstruct %int6, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[6,4],f32>
  return %0 : !torch.vtensor<[6,4],f32>
}

// -----

// Size-1 dims join a neighbouring group.
// CHECK-LABEL: func.func @expand(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[6,4],f32> -> tensor<6x4xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[A]] {{\[\[}}0, 1], [2, 3]] output_shape [2, 3, 1, 4] : tensor<6x4xf32> into tensor<2x3x1x4xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x3x1x4xf32> -> !torch.vtensor<[2,3,1,4],f32>
func.func @expand(%a: !torch.vtensor<[6,4],f32>) -> !torch.vtensor<[2,3,1,4],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %l = torch.prim.ListConstruct %int2, %int3, %int1, %int4 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[6,4],f32>, !torch.list<int> -> !torch.vtensor<[2,3,1,4],f32>
  return %0 : !torch.vtensor<[2,3,1,4],f32>
}

// -----

// To and from rank 0.
// CHECK-LABEL: func.func @rank0(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,1],f32> -> tensor<1x1xf32>
// CHECK: %[[S:.*]] = tensor.collapse_shape %[[A]] [] : tensor<1x1xf32> into tensor<f32>
// CHECK: %[[V:.*]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: torch_c.from_builtin_tensor %[[V]] : tensor<1xf32> -> !torch.vtensor<[1],f32>
func.func @rank0(%a: !torch.vtensor<[1,1],f32>) -> !torch.vtensor<[1],f32> {
  %int1 = torch.constant.int 1
  %empty = torch.prim.ListConstruct  : () -> !torch.list<int>
  %0 = torch.aten.view %a, %empty : !torch.vtensor<[1,1],f32>, !torch.list<int> -> !torch.vtensor<[],f32>
  %l = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.view %0, %l : !torch.vtensor<[],f32>, !torch.list<int> -> !torch.vtensor<[1],f32>
  return %1 : !torch.vtensor<[1],f32>
}

// -----

// Dims that do not group ([2,3] -> [3,2]) go through a flat 1-D tensor.
// CHECK-LABEL: func.func @regroup(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<3x2xf32> -> !torch.vtensor<[3,2],f32>
func.func @regroup(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,2],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %l = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// A trailing size-1 dim of the source finds no dim of the result left
// ([9, 1] does not group into [1, 1, 9]): through a flat 1-D tensor.
// CHECK-LABEL: func.func @trailing_unit(
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<9x1xi64> into tensor<9xi64>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [1, 1, 9] : tensor<9xi64> into tensor<1x1x9xi64>
func.func @trailing_unit(%a: !torch.vtensor<[9,1],si64>) -> !torch.vtensor<[1,1,9],si64> {
  %int1 = torch.constant.int 1
  %int9 = torch.constant.int 9
  %l = torch.prim.ListConstruct %int1, %int1, %int9 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[9,1],si64>, !torch.list<int> -> !torch.vtensor<[1,1,9],si64>
  return %0 : !torch.vtensor<[1,1,9],si64>
}

// -----

// Same shape: no op.
// CHECK-LABEL: func.func @same_shape(
// CHECK-SAME: %[[ARG:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[ARG]]
func.func @same_shape(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %l = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// A dynamic dim maps one to one onto a dynamic dim: still a collapse.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: cf.assert
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<?x3x4xf32> into tensor<?x12xf32>
func.func @dynamic(%a: !torch.vtensor<[?,3,4],f32>) -> !torch.vtensor<[?,12],f32> {
  %int-1 = torch.constant.int -1
  %int12 = torch.constant.int 12
  %l = torch.prim.ListConstruct %int-1, %int12 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[?,3,4],f32>, !torch.list<int> -> !torch.vtensor<[?,12],f32>
  return %0 : !torch.vtensor<[?,12],f32>
}

// -----

// No collapse/expand fits: an explicit shape whose dynamic size is the
// element count divided by the static sizes.
// CHECK-LABEL: func.func @static_to_dynamic
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK: %[[ROWS:.*]] = arith.divui %{{.*}}, %[[C12]] : index
// CHECK: %[[SHAPE:.*]] = tensor.from_elements %[[ROWS]], %{{.*}} : tensor<2xindex>
// CHECK: tensor.reshape %{{.*}}(%[[SHAPE]]) : (tensor<2x3x4xf32>, tensor<2xindex>) -> tensor<?x12xf32>
func.func @static_to_dynamic(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[?,12],f32> {
  %int-1 = torch.constant.int -1
  %int12 = torch.constant.int 12
  %l = torch.prim.ListConstruct %int-1, %int12 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[?,12],f32>
  return %0 : !torch.vtensor<[?,12],f32>
}

// -----

// A view of no elements has no reassociation to follow: an empty tensor of
// the result shape (this used to recurse without end).
// CHECK-LABEL: func.func @view_zero_elements
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0x1xf32>
// CHECK: torch_c.from_builtin_tensor %[[E]]
func.func @view_zero_elements(%a: !torch.vtensor<[0],f32>) -> !torch.vtensor<[0,1],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[0],f32>, !torch.list<int> -> !torch.vtensor<[0,1],f32>
  return %0 : !torch.vtensor<[0,1],f32>
}

// -----

// A dynamic size reshaped to static ones: the types cannot prove the element
// counts equal, so the code checks it at run time (refbackend-lower-asserts
// turns a failure into an InputError, before anything is read).
// CHECK-LABEL: func.func @dynamic_to_static
// CHECK: tensor.dim %{{.*}} : tensor<?x3x4xf32>
// CHECK: %[[C24:.*]] = arith.constant 24 : index
// CHECK: %[[OK:.*]] = arith.cmpi eq, %{{.*}}, %[[C24]] : index
// CHECK: cf.assert %[[OK]], "a tensor of shape [?, 3, 4] was reshaped to [2, 12], which needs another number of elements than the input's run-time sizes give; the input sizes contradict what the program assumes"
// CHECK: tensor.reshape %{{.*}} -> tensor<2x12xf32>
func.func @dynamic_to_static(%a: !torch.vtensor<[?,3,4],f32>) -> !torch.vtensor<[2,12],f32> {
  %int2 = torch.constant.int 2
  %int12 = torch.constant.int 12
  %l = torch.prim.ListConstruct %int2, %int12 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[?,3,4],f32>, !torch.list<int> -> !torch.vtensor<[2,12],f32>
  return %0 : !torch.vtensor<[2,12],f32>
}

// -----

// A dynamic result size that the static ones must divide: the remainder
// is checked ([?, 6] as [?, 4] needs an even number of rows).
// CHECK-LABEL: func.func @dynamic_needs_divisibility
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[REM:.*]] = arith.remui %{{.*}}, %[[C4]] : index
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
// CHECK: cf.assert %[[OK]], "a tensor of shape [?, 6] was reshaped to [?, 4]
func.func @dynamic_needs_divisibility(%a: !torch.vtensor<[?,6],f32>) -> !torch.vtensor<[?,4],f32> {
  %int-1 = torch.constant.int -1
  %int4 = torch.constant.int 4
  %l = torch.prim.ListConstruct %int-1, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[?,6],f32>, !torch.list<int> -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}

// -----

// Sizes given at run time: their product must be the input's count.
// CHECK-LABEL: func.func @run_time_sizes
// CHECK: %[[OK:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: cf.assert %[[OK]], "a tensor of shape [?] was reshaped to [?, ?]
// CHECK: tensor.reshape
func.func @run_time_sizes(%a: !torch.vtensor<[?],f32>, %m: !torch.int, %n: !torch.int) -> !torch.vtensor<[?,?],f32> {
  %l = torch.prim.ListConstruct %m, %n : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %l : !torch.vtensor<[?],f32>, !torch.list<int> -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}
