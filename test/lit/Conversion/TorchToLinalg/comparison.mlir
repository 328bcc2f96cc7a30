// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Comparisons compute in the promoted dtype of their operands and yield i1.
// A float scalar against float32 is truncated to f32 outside the loop.
// CHECK-LABEL: func.func @gt_scalar(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[3,4],f32> -> tensor<3x4xf32>
// CHECK: %[[F:.*]] = torch_c.to_f64
// CHECK: %[[S:.*]] = arith.truncf %[[F]] : f64 to f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3x4xi1>
// CHECK: linalg.generic {{.*}} ins(%[[A]] : tensor<3x4xf32>) outs(%[[EMPTY]] : tensor<3x4xi1>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT: %[[C:.*]] = arith.cmpf ogt, %[[X]], %[[S]] : f32
// CHECK-NEXT: linalg.yield %[[C]] : i1
func.func @gt_scalar(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],i1> {
  %f = torch.constant.float 5.000000e-01
  %0 = torch.aten.gt.Scalar %a, %f : !torch.vtensor<[3,4],f32>, !torch.float -> !torch.vtensor<[3,4],i1>
  return %0 : !torch.vtensor<[3,4],i1>
}

// -----

// int64 == 0.5 compares in float32 (torch.result_type), not in int64.
// CHECK-LABEL: func.func @eq_int_vs_float_scalar(
// CHECK: %[[S:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: ^bb0(%[[X:.*]]: i64, %{{.*}}: i1):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: arith.cmpf oeq, %[[XF]], %[[S]] : f32
func.func @eq_int_vs_float_scalar(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],i1> {
  %f = torch.constant.float 5.000000e-01
  %0 = torch.aten.eq.Scalar %a, %f : !torch.vtensor<[4],si64>, !torch.float -> !torch.vtensor<[4],i1>
  return %0 : !torch.vtensor<[4],i1>
}

// -----

// Tensor-tensor: broadcast, int64 promoted to float32.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @lt_promotes(
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-NEXT: ^bb0(%[[X:.*]]: i64, %[[Y:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: arith.cmpf olt, %[[XF]], %[[Y]] : f32
func.func @lt_promotes(%a: !torch.vtensor<[3,4],si64>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4],i1> {
  %0 = torch.aten.lt.Tensor %a, %b : !torch.vtensor<[3,4],si64>, !torch.vtensor<[4],f32> -> !torch.vtensor<[3,4],i1>
  return %0 : !torch.vtensor<[3,4],i1>
}

// -----

// uint8 compares unsigned; uint8 with int8 promotes to int16.
// CHECK-LABEL: func.func @unsigned(
// CHECK: ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i1):
// CHECK-NEXT: arith.cmpi uge, %[[X]], %[[Y]] : i8
// CHECK: ^bb0(%[[X2:.*]]: i8, %[[Y2:.*]]: i8, %{{.*}}: i1):
// CHECK-NEXT: %[[XW:.*]] = arith.extui %[[X2]] : i8 to i16
// CHECK-NEXT: %[[YW:.*]] = arith.extsi %[[Y2]] : i8 to i16
// CHECK-NEXT: arith.cmpi sle, %[[XW]], %[[YW]] : i16
func.func @unsigned(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],ui8>, %c: !torch.vtensor<[4],si8>) -> (!torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>) {
  %0 = torch.aten.ge.Tensor %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],i1>
  %1 = torch.aten.le.Tensor %a, %c : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],si8> -> !torch.vtensor<[4],i1>
  return %0, %1 : !torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>
}

// -----

// ne is unordered (NaN != NaN); a dynamic size comes from an operand.
// CHECK-LABEL: func.func @ne_dynamic(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,4],f32> -> tensor<?x4xf32>
// CHECK: %[[DIM:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4xf32>
// CHECK: tensor.empty(%[[DIM]]) : tensor<?x4xi1>
// CHECK: arith.cmpf une
// CHECK: -> tensor<?x4xi1>
func.func @ne_dynamic(%a: !torch.vtensor<[?,4],f32>, %b: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],i1> {
  %0 = torch.aten.ne.Tensor %a, %b : !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,4],i1>
  return %0 : !torch.vtensor<[?,4],i1>
}

// -----

// A 0-d int64 tensor does not widen an int32 tensor with dims.
// CHECK-LABEL: func.func @zero_d_tensor_counts_less(
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i64, %{{.*}}: i1):
// CHECK-NEXT: %[[YN:.*]] = arith.trunci %[[Y]] : i64 to i32
// CHECK-NEXT: arith.cmpi sgt, %[[X]], %[[YN]] : i32
func.func @zero_d_tensor_counts_less(%a: !torch.vtensor<[4],si32>, %b: !torch.vtensor<[],si64>) -> !torch.vtensor<[4],i1> {
  %0 = torch.aten.gt.Tensor %a, %b : !torch.vtensor<[4],si32>, !torch.vtensor<[],si64> -> !torch.vtensor<[4],i1>
  return %0 : !torch.vtensor<[4],i1>
}

// -----

// Ordering has no meaning for complex numbers (eager refuses it too).
func.func @complex_compare(%a: !torch.vtensor<[2],complex<f32>>, %b: !torch.vtensor<[2],complex<f32>>) -> !torch.vtensor<[2],i1> {
  // expected-error @+1 {{'torch.aten.lt.Tensor' could not be lowered to linalg-on-tensors: unsupported: complex dtypes for this op (way out: compute on torch.view_as_real pairs)}}
  %0 = torch.aten.lt.Tensor %a, %b : !torch.vtensor<[2],complex<f32>>, !torch.vtensor<[2],complex<f32>> -> !torch.vtensor<[2],i1>
  return %0 : !torch.vtensor<[2],i1>
}

// -----

// Logical ops read each operand as a bool (x != 0; NaN is true).
// CHECK-LABEL: func.func @logical(
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: i64, %{{.*}}: i1):
// CHECK: %[[XB:.*]] = arith.cmpf une, %[[X]], %{{.*}} : f32
// CHECK: %[[YB:.*]] = arith.cmpi ne, %[[Y]], %{{.*}} : i64
// CHECK: arith.xori %[[XB]], %[[YB]] : i1
// CHECK: ^bb0(%[[Z:.*]]: f32, %{{.*}}: i1):
// CHECK: %[[ZB:.*]] = arith.cmpf une, %[[Z]], %{{.*}} : f32
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: arith.xori %[[ZB]], %[[TRUE]] : i1
func.func @logical(%a: !torch.vtensor<[3,4],f32>, %b: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[3,4],i1>, !torch.vtensor<[3,4],i1>) {
  %0 = torch.aten.logical_xor %a, %b : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],si64> -> !torch.vtensor<[3,4],i1>
  %1 = torch.aten.logical_not %a : !torch.vtensor<[3,4],f32> -> !torch.vtensor<[3,4],i1>
  return %0, %1 : !torch.vtensor<[3,4],i1>, !torch.vtensor<[3,4],i1>
}

// -----

// CHECK-LABEL: func.func @logical_and_or(
// CHECK: tensor.empty(%{{.*}}) : tensor<?xi1>
// CHECK: ^bb0(%[[X:.*]]: i1, %[[Y:.*]]: i1, %{{.*}}: i1):
// CHECK-NEXT: arith.andi %[[X]], %[[Y]] : i1
// CHECK: arith.ori
func.func @logical_and_or(%a: !torch.vtensor<[?],i1>, %b: !torch.vtensor<[?],i1>) -> (!torch.vtensor<[?],i1>, !torch.vtensor<[?],i1>) {
  %0 = torch.aten.logical_and %a, %b : !torch.vtensor<[?],i1>, !torch.vtensor<[?],i1> -> !torch.vtensor<[?],i1>
  %1 = torch.aten.logical_or %a, %b : !torch.vtensor<[?],i1>, !torch.vtensor<[?],i1> -> !torch.vtensor<[?],i1>
  return %0, %1 : !torch.vtensor<[?],i1>, !torch.vtensor<[?],i1>
}

// -----

// where: the three operands broadcast together (one dynamic), the values
// cast to the result dtype.
// CHECK-DAG: #[[COND:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[SELF:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @where(
// CHECK: %[[OTHER:.*]] = torch_c.to_builtin_tensor %arg2
// CHECK: %[[DIM:.*]] = tensor.dim %[[OTHER]], %{{.*}} : tensor<?x3x4xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?x3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[COND]], #[[SELF]], #[[ID]], #[[ID]]]
// CHECK-NEXT: ^bb0(%[[C:.*]]: i1, %[[X:.*]]: i64, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[C]], %[[XF]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @where(%c: !torch.vtensor<[3,1],i1>, %a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[?,3,4],f32>) -> !torch.vtensor<[?,3,4],f32> {
  %0 = torch.aten.where.self %c, %a, %b : !torch.vtensor<[3,1],i1>, !torch.vtensor<[4],si64>, !torch.vtensor<[?,3,4],f32> -> !torch.vtensor<[?,3,4],f32>
  return %0 : !torch.vtensor<[?,3,4],f32>
}

// -----

// bitwise_and of int64 and int32: the int32 operand is sign-extended to the
// result dtype, then andi.
// CHECK-LABEL: func.func @bitwise_and_promote(
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: i64, %[[Y:.*]]: i32, %{{.*}}: i64):
// CHECK: %[[YW:.*]] = arith.extsi %[[Y]] : i32 to i64
// CHECK: arith.andi %[[X]], %[[YW]] : i64
func.func @bitwise_and_promote(%a: !torch.vtensor<[3,4],si64>, %b: !torch.vtensor<[4],si32>) -> !torch.vtensor<[3,4],si64> {
  %0 = torch.aten.bitwise_and.Tensor %a, %b : !torch.vtensor<[3,4],si64>, !torch.vtensor<[4],si32> -> !torch.vtensor<[3,4],si64>
  return %0 : !torch.vtensor<[3,4],si64>
}

// -----

func.func @bitwise_or_float(%a: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  // expected-error @+1 {{'torch.aten.bitwise_or.Tensor' could not be lowered to linalg-on-tensors: unsupported: a bitwise op of a non-integer dtype}}
  %0 = torch.aten.bitwise_or.Tensor %a, %b : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
