// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// flip of the last dim: the generic reads x at size - 1 - i there.
// CHECK-LABEL: func.func @flip(
// CHECK: %[[X:[^ ]+]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[EMPTY:[^ ]+]] = tensor.empty(%{{.*}}) : tensor<?x4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?x4xf32>)
// CHECK: %[[I:[^ ]+]] = linalg.index 0 : index
// CHECK: %[[J:[^ ]+]] = linalg.index 1 : index
// CHECK: %[[SIZE:[^ ]+]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[LAST:[^ ]+]] = arith.subi %[[SIZE]], %{{.*}} : index
// CHECK: %[[FLIPPED:[^ ]+]] = arith.subi %[[LAST]], %[[J]] : index
// CHECK: tensor.extract %[[X]][%[[I]], %[[FLIPPED]]] : tensor<?x4xf32>
func.func @flip(%x: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int-1 = torch.constant.int -1
  %dims = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.flip %x, %dims : !torch.vtensor<[?,4],f32>, !torch.list<int> -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}


// -----

// repeat with a new leading dim: the input's dims are read modulo their
// sizes.
// CHECK-LABEL: func.func @repeat(
// CHECK: %[[X:[^ ]+]] = torch_c.to_builtin_tensor %arg0
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x3xi64>)
// CHECK: linalg.index 0 : index
// CHECK: %[[J:[^ ]+]] = linalg.index 1 : index
// CHECK: %[[K:[^ ]+]] = linalg.index 2 : index
// CHECK: %[[ROW:[^ ]+]] = arith.remui %[[J]], %{{.*}} : index
// CHECK: %[[COL:[^ ]+]] = arith.remui %[[K]], %{{.*}} : index
// CHECK: tensor.extract %[[X]][%[[ROW]], %[[COL]]] : tensor<2x3xi64>
func.func @repeat(%x: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[2,4,3],si64> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %r = torch.prim.ListConstruct %int2, %int2, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.repeat %x, %r : !torch.vtensor<[2,3],si64>, !torch.list<int> -> !torch.vtensor<[2,4,3],si64>
  return %0 : !torch.vtensor<[2,4,3],si64>
}


// -----

func.func @repeat_too_few(%x: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[6],si64> {
  %int2 = torch.constant.int 2
  %r = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.repeat' could not be lowered to linalg-on-tensors: repeats must be non-negative, one per result dim and at least one per input dim}}
  %0 = torch.aten.repeat %x, %r : !torch.vtensor<[2,3],si64>, !torch.list<int> -> !torch.vtensor<[6],si64>
  return %0 : !torch.vtensor<[6],si64>
}


// -----

// diagonal(offset 3, dim1 0, dim2 -1) of a 3x4x5 tensor: the kept dim
// first, then the diagonal k, read at [k, i, k + 3].
// CHECK-LABEL: func.func @diagonal(
// CHECK: %[[X:[^ ]+]] = torch_c.to_builtin_tensor %arg0
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: %[[I:[^ ]+]] = linalg.index 0 : index
// CHECK: %[[K:[^ ]+]] = linalg.index 1 : index
// CHECK: %[[D1:[^ ]+]] = arith.addi %[[K]], %c0{{.*}} : index
// CHECK: %[[D2:[^ ]+]] = arith.addi %[[K]], %c3{{.*}} : index
// CHECK: tensor.extract %[[X]][%[[D1]], %[[I]], %[[D2]]] : tensor<3x4x5xf32>
func.func @diagonal(%x: !torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[4,2],f32> {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %0 = torch.aten.diagonal %x, %int3, %int0, %int-1 : !torch.vtensor<[3,4,5],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,2],f32>
  return %0 : !torch.vtensor<[4,2],f32>
}


// -----

func.func @as_strided_out_of_range(%x: !torch.vtensor<[6],f32>) -> !torch.vtensor<[3,2],f32> {
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %size = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.as_strided' could not be lowered to linalg-on-tensors: reads element 6 of an input that has 6}}
  %0 = torch.aten.as_strided %x, %size, %stride, %none : !torch.vtensor<[6],f32>, !torch.list<int>, !torch.list<int>, !torch.none -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}
