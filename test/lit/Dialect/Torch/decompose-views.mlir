// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// Ops that are aten.view under value semantics: the view sizes are the
// result sizes.

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3,4],f32>)
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %int6, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[R:.*]] = torch.aten.view %[[A]], %[[S]] : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[6,4],f32>
// CHECK: return %[[R]]
func.func @reshape(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[6,4],f32> {
  %int6 = torch.constant.int 6
  %int-1 = torch.constant.int -1
  %l = torch.prim.ListConstruct %int6, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reshape %a, %l : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[6,4],f32>
  return %0 : !torch.vtensor<[6,4],f32>
}

// -----

// One dynamic result size becomes -1.
// CHECK-LABEL: func.func @reshape_dynamic(
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %int-1, %int12 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %{{.*}}, %[[S]] : !torch.vtensor<[?,3,4],f32>, !torch.list<int> -> !torch.vtensor<[?,12],f32>
func.func @reshape_dynamic(%a: !torch.vtensor<[?,3,4],f32>) -> !torch.vtensor<[?,12],f32> {
  %int-1 = torch.constant.int -1
  %int12 = torch.constant.int 12
  %l = torch.prim.ListConstruct %int-1, %int12 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reshape %a, %l : !torch.vtensor<[?,3,4],f32>, !torch.list<int> -> !torch.vtensor<[?,12],f32>
  return %0 : !torch.vtensor<[?,12],f32>
}

// -----

// Two dynamic sizes, or an unknown rank, cannot be a view.
// CHECK-LABEL: func.func @reshape_not_decomposed(
// CHECK: torch.aten.reshape %{{.*}} -> !torch.vtensor<[?,?],f32>
// CHECK: torch.aten.reshape %{{.*}} -> !torch.vtensor<*,f32>
// CHECK-NOT: torch.aten.view
func.func @reshape_not_decomposed(%a: !torch.vtensor<[?,?],f32>, %l: !torch.list<int>) -> (!torch.vtensor<[?,?],f32>, !torch.vtensor<*,f32>) {
  %0 = torch.aten.reshape %a, %l : !torch.vtensor<[?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?],f32>
  %1 = torch.aten.reshape %a, %l : !torch.vtensor<[?,?],f32>, !torch.list<int> -> !torch.vtensor<*,f32>
  return %0, %1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<*,f32>
}

// -----

// CHECK-LABEL: func.func @unsafe_view(
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %int24 : (!torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %{{.*}}, %[[S]] : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[24],f32>
// CHECK-NOT: torch.aten._unsafe_view
func.func @unsafe_view(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[24],f32> {
  %int24 = torch.constant.int 24
  %l = torch.prim.ListConstruct %int24 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten._unsafe_view %a, %l : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[24],f32>
  return %0 : !torch.vtensor<[24],f32>
}

// -----

// CHECK-LABEL: func.func @flatten(
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %int2, %int60 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %{{.*}}, %[[S]] : !torch.vtensor<[2,3,4,5],f32>, !torch.list<int> -> !torch.vtensor<[2,60],f32>
// CHECK-NOT: torch.aten.flatten
func.func @flatten(%a: !torch.vtensor<[2,3,4,5],f32>) -> !torch.vtensor<[2,60],f32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %0 = torch.aten.flatten.using_ints %a, %int1, %int-1 : !torch.vtensor<[2,3,4,5],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,60],f32>
  return %0 : !torch.vtensor<[2,60],f32>
}

// -----

// CHECK-LABEL: func.func @unsqueeze(
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %int2, %int1, %int3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %{{.*}}, %[[S]] : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,1,3],f32>
// CHECK-NOT: torch.aten.unsqueeze
func.func @unsqueeze(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,1,3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.unsqueeze %a, %int1 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,1,3],f32>
  return %0 : !torch.vtensor<[2,1,3],f32>
}

// -----

// CHECK-LABEL: func.func @squeeze_dim(
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %{{.*}}, %[[S]] : !torch.vtensor<[2,1,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
// CHECK-NOT: torch.aten.squeeze
func.func @squeeze_dim(%a: !torch.vtensor<[2,1,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.squeeze.dim %a, %int1 : !torch.vtensor<[2,1,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// CHECK-LABEL: func.func @squeeze_dims(
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %{{.*}}, %[[S]] : !torch.vtensor<[1,2,1,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
// CHECK-NOT: torch.aten.squeeze
func.func @squeeze_dims(%a: !torch.vtensor<[1,2,1,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %l = torch.prim.ListConstruct %int0, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.squeeze.dims %a, %l : !torch.vtensor<[1,2,1,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// squeeze without dims drops every size-1 dim.
// CHECK-LABEL: func.func @squeeze_all(
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %{{.*}}, %[[S]] : !torch.vtensor<[1,2,1,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
// CHECK-NOT: torch.aten.squeeze
func.func @squeeze_all(%a: !torch.vtensor<[1,2,1,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %0 = torch.aten.squeeze %a : !torch.vtensor<[1,2,1,3],f32> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// unsqueeze with several dynamic sizes: a view whose unknown sizes are
// aten.size.int of the input dims they come from (dims 0 and 2 of the input
// land at 0 and 3 after the new dim 2).
// CHECK-LABEL: func.func @unsqueeze_two_dynamic(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[?,2,?,64],f32>)
// CHECK-DAG: %[[D0:.*]] = torch.aten.size.int %[[A]], %int0 : !torch.vtensor<[?,2,?,64],f32>, !torch.int -> !torch.int
// CHECK-DAG: %[[D2:.*]] = torch.aten.size.int %[[A]], %int2 : !torch.vtensor<[?,2,?,64],f32>, !torch.int -> !torch.int
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %[[D0]], %int2{{.*}}, %int1{{.*}}, %[[D2]], %int64 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %[[A]], %[[S]] : !torch.vtensor<[?,2,?,64],f32>, !torch.list<int> -> !torch.vtensor<[?,2,1,?,64],f32>
// CHECK-NOT: torch.aten.unsqueeze
func.func @unsqueeze_two_dynamic(%a: !torch.vtensor<[?,2,?,64],f32>) -> !torch.vtensor<[?,2,1,?,64],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.aten.unsqueeze %a, %int2 : !torch.vtensor<[?,2,?,64],f32>, !torch.int -> !torch.vtensor<[?,2,1,?,64],f32>
  return %0 : !torch.vtensor<[?,2,1,?,64],f32>
}

// -----

// squeeze.dims with several dynamic sizes: the listed dims of size 1 go,
// and each unknown size is aten.size.int of the input dim it comes from
// (input dims 0 and 3 land at 0 and 2).
// CHECK-LABEL: func.func @squeeze_dims_two_dynamic(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[?,3,1,?],f32>)
// CHECK-DAG: %[[D0:.*]] = torch.aten.size.int %[[A]], %int0{{.*}} : !torch.vtensor<[?,3,1,?],f32>, !torch.int -> !torch.int
// CHECK-DAG: %[[D3:.*]] = torch.aten.size.int %[[A]], %int3{{.*}} : !torch.vtensor<[?,3,1,?],f32>, !torch.int -> !torch.int
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %[[D0]], %int3{{.*}}, %[[D3]] : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %[[A]], %[[S]] : !torch.vtensor<[?,3,1,?],f32>, !torch.list<int> -> !torch.vtensor<[?,3,?],f32>
// CHECK-NOT: torch.aten.squeeze
func.func @squeeze_dims_two_dynamic(%a: !torch.vtensor<[?,3,1,?],f32>) -> !torch.vtensor<[?,3,?],f32> {
  %int2 = torch.constant.int 2
  %dims = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.squeeze.dims %a, %dims : !torch.vtensor<[?,3,1,?],f32>, !torch.list<int> -> !torch.vtensor<[?,3,?],f32>
  return %0 : !torch.vtensor<[?,3,?],f32>
}

// -----

// squeeze without dims keeps the unknown sizes and drops the static 1s.
// CHECK-LABEL: func.func @squeeze_all_two_dynamic(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[1,?,1,?],f32>)
// CHECK-DAG: %[[D1:.*]] = torch.aten.size.int %[[A]], %int1{{.*}}
// CHECK-DAG: %[[D3:.*]] = torch.aten.size.int %[[A]], %int3{{.*}}
// CHECK: %[[S:.*]] = torch.prim.ListConstruct %[[D1]], %[[D3]] : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: torch.aten.view %[[A]], %[[S]] : !torch.vtensor<[1,?,1,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?],f32>
func.func @squeeze_all_two_dynamic(%a: !torch.vtensor<[1,?,1,?],f32>) -> !torch.vtensor<[?,?],f32> {
  %0 = torch.aten.squeeze %a : !torch.vtensor<[1,?,1,?],f32> -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

// A listed dim of unknown size may or may not be 1 at run time: with more
// than one unknown size left (which a view cannot infer), the op stays.
// CHECK-LABEL: func.func @squeeze_dim_of_unknown_size(
// CHECK: torch.aten.squeeze.dim
func.func @squeeze_dim_of_unknown_size(%a: !torch.vtensor<[?,3,?,?],f32>) -> !torch.vtensor<[?,3,?],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.aten.squeeze.dim %a, %int2 : !torch.vtensor<[?,3,?,?],f32>, !torch.int -> !torch.vtensor<[?,3,?],f32>
  return %0 : !torch.vtensor<[?,3,?],f32>
}
