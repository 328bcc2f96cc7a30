// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// clone under value semantics is its operand.
// CHECK-LABEL: func.func @clone(
// CHECK-SAME: %[[ARG:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK-NOT: torch.aten.clone
// CHECK-NOT: linalg
// CHECK: return %[[ARG]] : !torch.vtensor<[2,3],f32>
func.func @clone(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %none = torch.constant.none
  %0 = torch.aten.clone %a, %none : !torch.vtensor<[2,3],f32>, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// expand broadcasts: size-1 dims read at 0, new leading dims not read.
// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @expand(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[3,1],f32> -> tensor<3x1xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[A]] : tensor<3x1xf32>) outs(%[[EMPTY]] : tensor<2x3x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[X]] : f32
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x3x4xf32> -> !torch.vtensor<[2,3,4],f32>
func.func @expand(%a: !torch.vtensor<[3,1],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %int4 = torch.constant.int 4
  %false = torch.constant.bool false
  %l = torch.prim.ListConstruct %int2, %int-1, %int4 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.expand %a, %l, %false : !torch.vtensor<[3,1],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}
