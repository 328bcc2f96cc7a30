// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// full: linalg.fill of the value cast to the result dtype.
// CHECK-LABEL: func.func @full(
// CHECK: %[[V:.*]] = torch_c.to_i64
// CHECK: %[[F:.*]] = arith.sitofp %[[V]] : i64 to f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.fill ins(%[[F]] : f32) outs(%[[EMPTY]] : tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @full() -> !torch.vtensor<[2,3],f32> {
  %i2 = torch.constant.int 2
  %i3 = torch.constant.int 3
  %i7 = torch.constant.int 7
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %i2, %i3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.full %s, %i7, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// full of a run-time size (a size read from a tensor, a data-dependent
// count): the size list's int becomes the tensor.empty's dynamic size.
// CHECK-LABEL: func.func @full_dynamic(
// CHECK: %[[N:.*]] = torch_c.to_i64 %{{.*}}
// CHECK: %[[SIZE:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[SIZE]]) : tensor<?x3xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<?x3xf32>)
func.func @full_dynamic(%n: !torch.int) -> !torch.vtensor<[?,3],f32> {
  %f = torch.constant.float 1.000000e+00
  %i3 = torch.constant.int 3
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %n, %i3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.full %s, %f, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}

// -----

func.func @full_dynamic_without_list(%s: !torch.list<int>) -> !torch.vtensor<[?],f32> {
  %f = torch.constant.float 1.000000e+00
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten.full' could not be lowered to linalg-on-tensors: unsupported: a dynamic size not given by a prim.ListConstruct of the result's rank}}
  %0 = torch.aten.full %s, %f, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// arange(0, 1, 0.1) as float32: start + i * step in f64, then truncated.
// CHECK-LABEL: func.func @arange_f32(
// CHECK: %[[START:.*]] = torch_c.to_f64
// CHECK: %[[STEP:.*]] = torch_c.to_f64
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<10xf32>
// CHECK: linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<10xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK-NEXT: %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: %[[IF:.*]] = arith.sitofp %[[I64]] : i64 to f64
// CHECK-NEXT: %[[OFF:.*]] = arith.mulf %[[IF]], %[[STEP]] : f64
// CHECK-NEXT: %[[V:.*]] = arith.addf %[[START]], %[[OFF]] : f64
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[V]] : f64 to f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @arange_f32() -> !torch.vtensor<[10],f32> {
  %none = torch.constant.none
  %f0 = torch.constant.float 0.000000e+00
  %f1 = torch.constant.float 1.000000e+00
  %fs = torch.constant.float 1.000000e-01
  %0 = torch.aten.arange.start_step %f0, %f1, %fs, %none, %none, %none, %none : !torch.float, !torch.float, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[10],f32>
  return %0 : !torch.vtensor<[10],f32>
}

// -----

// An int64 arange with a negative step computes in i64.
// CHECK-LABEL: func.func @arange_i64(
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: -> tensor<5xi64>
func.func @arange_i64() -> !torch.vtensor<[5],si64> {
  %none = torch.constant.none
  %i10 = torch.constant.int 10
  %i0 = torch.constant.int 0
  %m2 = torch.constant.int -2
  %0 = torch.aten.arange.start_step %i10, %i0, %m2, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[5],si64>
  return %0 : !torch.vtensor<[5],si64>
}

// -----

// full_like takes its dynamic sizes from `self`; a bool fill becomes 1.0.
// CHECK-LABEL: func.func @full_like_dynamic(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[?,4],si64>
// CHECK: %[[T:.*]] = torch_c.to_builtin_tensor %[[A]]
// CHECK: %[[B:.*]] = torch_c.to_i1
// CHECK: %[[F:.*]] = arith.uitofp %[[B]] : i1 to f32
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D0:.*]] = tensor.dim %[[T]], %[[C0]] : tensor<?x4xi64>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[D0]]) : tensor<?x4xf32>
// CHECK: linalg.fill ins(%[[F]] : f32) outs(%[[EMPTY]] : tensor<?x4xf32>)
func.func @full_like_dynamic(%a: !torch.vtensor<[?,4],si64>) -> !torch.vtensor<[?,4],f32> {
  %true = torch.constant.bool true
  %i6 = torch.constant.int 6
  %none = torch.constant.none
  %0 = torch.aten.full_like %a, %true, %i6, %none, %none, %none, %none : !torch.vtensor<[?,4],si64>, !torch.bool, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}

// -----

// scalar_tensor: a 0-d tensor; the float value truncates to the int dtype.
// CHECK-LABEL: func.func @scalar_tensor_i32(
// CHECK: %[[V:.*]] = torch_c.to_f64
// CHECK: %[[I:.*]] = arith.fptosi %[[V]] : f64 to i32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<i32>
// CHECK: linalg.fill ins(%[[I]] : i32) outs(%[[EMPTY]] : tensor<i32>)
func.func @scalar_tensor_i32() -> !torch.vtensor<[],si32> {
  %f = torch.constant.float -2.500000e+00
  %i3 = torch.constant.int 3
  %none = torch.constant.none
  %0 = torch.aten.scalar_tensor %f, %i3, %none, %none, %none : !torch.float, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[],si32>
  return %0 : !torch.vtensor<[],si32>
}

// -----

// item: the element at index 0 of every dim, as the result's scalar type
// (an f32 widened to the f64 of !torch.float).
// CHECK-LABEL: func.func @item_float(
// CHECK: %[[T:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,1],f32> -> tensor<1x1xf32>
// CHECK: %[[E:.*]] = tensor.extract %[[T]][%{{.*}}, %{{.*}}] : tensor<1x1xf32>
// CHECK: %[[W:.*]] = arith.extf %[[E]] : f32 to f64
// CHECK: torch_c.from_f64 %[[W]]
func.func @item_float(%a: !torch.vtensor<[1,1],f32>) -> !torch.float {
  %0 = torch.aten.item %a : !torch.vtensor<[1,1],f32> -> !torch.float
  return %0 : !torch.float
}

// -----

// An unsigned (and bool) element is zero-extended to the i64 of !torch.int.
// CHECK-LABEL: func.func @item_unsigned(
// CHECK: %[[E:.*]] = tensor.extract %{{.*}}[] : tensor<i8>
// CHECK: arith.extui %[[E]] : i8 to i64
func.func @item_unsigned(%a: !torch.vtensor<[],ui8>) -> !torch.int {
  %0 = torch.aten.item %a : !torch.vtensor<[],ui8> -> !torch.int
  return %0 : !torch.int
}

// -----

// A dynamic size must be 1 at run time: checked before the read.
// CHECK-LABEL: func.func @item_dynamic(
// CHECK: cf.assert %{{.*}}, "a tensor of shape [?] was reshaped to [1]
// CHECK: tensor.extract
func.func @item_dynamic(%a: !torch.vtensor<[?],si64>) -> !torch.int {
  %0 = torch.aten.item %a : !torch.vtensor<[?],si64> -> !torch.int
  return %0 : !torch.int
}

// -----

// More than one element: refused with the reason.
func.func @item_many(%a: !torch.vtensor<[2],f32>) -> !torch.float {
  // expected-error @+1 {{'torch.aten.item' could not be lowered to linalg-on-tensors: item() of a tensor with more than one element}}
  %0 = torch.aten.item %a : !torch.vtensor<[2],f32> -> !torch.float
  return %0 : !torch.float
}
