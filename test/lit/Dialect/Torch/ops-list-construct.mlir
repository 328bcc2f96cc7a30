// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @int_list() -> !torch.list<int>
// CHECK: %[[L:.*]] = torch.prim.ListConstruct %int1, %int2, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
// CHECK: return %[[L]] : !torch.list<int>
func.func @int_list() -> !torch.list<int> {
  %0 = torch.constant.int 1
  %1 = torch.constant.int 2
  %2 = torch.prim.ListConstruct %0, %1, %0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  return %2 : !torch.list<int>
}

// CHECK-LABEL: func.func @empty_list() -> !torch.list<int>
// CHECK: %[[L:.*]] = torch.prim.ListConstruct  : () -> !torch.list<int>
func.func @empty_list() -> !torch.list<int> {
  %0 = torch.prim.ListConstruct : () -> !torch.list<int>
  return %0 : !torch.list<int>
}

// Elements may refine the list's element type: tensors with more static
// information, None and T for Optional[T], int and float for number.
// CHECK-LABEL: func.func @refining_elements(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2],f32>, %[[B:.*]]: !torch.vtensor<[3],f32>, %[[I:.*]]: !torch.int, %[[F:.*]]: !torch.float)
// CHECK: torch.prim.ListConstruct %[[A]], %[[B]] : (!torch.vtensor<[2],f32>, !torch.vtensor<[3],f32>) -> !torch.list<vtensor>
// CHECK: torch.prim.ListConstruct %[[A]], %[[B]] : (!torch.vtensor<[2],f32>, !torch.vtensor<[3],f32>) -> !torch.list<vtensor<[?],f32>>
// CHECK: torch.prim.ListConstruct %[[I]], %none : (!torch.int, !torch.none) -> !torch.list<optional<int>>
// CHECK: torch.prim.ListConstruct %[[I]], %[[F]] : (!torch.int, !torch.float) -> !torch.list<number>
func.func @refining_elements(%a: !torch.vtensor<[2],f32>, %b: !torch.vtensor<[3],f32>, %i: !torch.int, %f: !torch.float) -> (!torch.list<vtensor>, !torch.list<vtensor<[?],f32>>, !torch.list<optional<int>>, !torch.list<number>) {
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2],f32>, !torch.vtensor<[3],f32>) -> !torch.list<vtensor>
  %1 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2],f32>, !torch.vtensor<[3],f32>) -> !torch.list<vtensor<[?],f32>>
  %none = torch.constant.none
  %2 = torch.prim.ListConstruct %i, %none : (!torch.int, !torch.none) -> !torch.list<optional<int>>
  %3 = torch.prim.ListConstruct %i, %f : (!torch.int, !torch.float) -> !torch.list<number>
  return %0, %1, %2, %3 : !torch.list<vtensor>, !torch.list<vtensor<[?],f32>>, !torch.list<optional<int>>, !torch.list<number>
}

// CHECK-LABEL: func.func @list_of_lists(
// CHECK: torch.prim.ListConstruct %{{.*}}, %{{.*}} : (!torch.list<int>, !torch.list<int>) -> !torch.list<list<int>>
func.func @list_of_lists(%a: !torch.list<int>) -> !torch.list<list<int>> {
  %0 = torch.prim.ListConstruct %a, %a : (!torch.list<int>, !torch.list<int>) -> !torch.list<list<int>>
  return %0 : !torch.list<list<int>>
}
