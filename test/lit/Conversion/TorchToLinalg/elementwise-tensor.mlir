// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// Tensor-tensor add/sub/mul/div: one linalg.generic, broadcast with
// PyTorch's rules (trailing dims aligned, size-1 dims read at index 0),
// computing in the result dtype.

// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[BCAST:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @add_broadcast(
// CHECK-DAG: %[[B:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,3],f32> -> tensor<1x3xf32>
// CHECK-DAG: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[BCAST]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<1x3xf32>) outs(%[[EMPTY]] : tensor<2x3xf32>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[SUM]] : f32
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
func.func @add_broadcast(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[1,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// A lower-rank operand is aligned to the trailing dims.
// CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #[[LAST:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @add_rank_broadcast(
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[LAST]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<4x2x3xf32>, tensor<3xf32>)
func.func @add_rank_broadcast(%a: !torch.vtensor<[4,2,3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[4,2,3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[4,2,3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[4,2,3],f32>
  return %0 : !torch.vtensor<[4,2,3],f32>
}

// -----

// Both operands broadcast: [2,1] + [1,3] -> [2,3].
// CHECK: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @mul_outer(
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID]]], {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x1xf32>, tensor<1x3xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: arith.mulf
func.func @mul_outer(%a: !torch.vtensor<[2,1],f32>, %b: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %0 = torch.aten.mul.Tensor %a, %b : !torch.vtensor<[2,1],f32>, !torch.vtensor<[1,3],f32> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Dynamic result sizes are read from an operand that is not broadcast.
// CHECK-LABEL: func.func @add_dynamic(
// CHECK-DAG: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?,3],f32> -> tensor<?x3xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[DIM:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x3xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?x3xf32>
// CHECK: linalg.generic {{.*}} ins(%[[A]], %{{.*}} : tensor<?x3xf32>, tensor<1x3xf32>) outs(%[[EMPTY]] : tensor<?x3xf32>)
func.func @add_dynamic(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[?,3],f32>, !torch.vtensor<[1,3],f32>, !torch.int -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}

// -----

// alpha multiplies `other`: a - 2.5 * b.
// CHECK-LABEL: func.func @sub_alpha(
// CHECK: %[[ALPHA64:.*]] = torch_c.to_f64 %float
// CHECK: %[[ALPHA:.*]] = arith.truncf %[[ALPHA64]] : f64 to f32
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[Y]], %[[ALPHA]] : f32
// CHECK-NEXT: %[[DIFF:.*]] = arith.subf %[[X]], %[[SCALED]] : f32
// CHECK-NEXT: linalg.yield %[[DIFF]] : f32
func.func @sub_alpha(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %f = torch.constant.float 2.5
  %0 = torch.aten.sub.Tensor %a, %b, %f : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.float -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// An int64 operand of a float result is converted with sitofp.
// CHECK-LABEL: func.func @mul_promote(
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x3xi64>, tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i64, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[XF]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[P]] : f32
func.func @mul_promote(%a: !torch.vtensor<[2,3],si64>, %b: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %0 = torch.aten.mul.Tensor %a, %b : !torch.vtensor<[2,3],si64>, !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// int / int is true division, in the float result dtype.
// CHECK-LABEL: func.func @div_int(
// CHECK: ^bb0(%[[X:.*]]: i64, %[[Y:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: %[[YF:.*]] = arith.sitofp %[[Y]] : i64 to f32
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[XF]], %[[YF]] : f32
// CHECK-NEXT: linalg.yield %[[Q]] : f32
func.func @div_int(%a: !torch.vtensor<[2],si64>, %b: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2],f32> {
  %0 = torch.aten.div.Tensor %a, %b : !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64> -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// ui8 operands are converted as unsigned.
// CHECK-LABEL: func.func @add_ui8(
// CHECK: ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.uitofp %[[X]] : i8 to f32
// CHECK-NEXT: arith.addf %[[XF]], %[[Y]] : f32
func.func @add_ui8(%a: !torch.vtensor<[2],ui8>, %b: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[2],ui8>, !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// Integer sub in the integer dtype.
// CHECK-LABEL: func.func @sub_int(
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[D]] : i32
func.func @sub_int(%a: !torch.vtensor<[2],si32>, %b: !torch.vtensor<[2],si32>) -> !torch.vtensor<[2],si32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.sub.Tensor %a, %b, %int1 : !torch.vtensor<[2],si32>, !torch.vtensor<[2],si32>, !torch.int -> !torch.vtensor<[2],si32>
  return %0 : !torch.vtensor<[2],si32>
}

// -----

// bool + bool is logical or, bool * bool logical and.
// CHECK-LABEL: func.func @bool_ops(
// CHECK: ^bb0(%[[X:.*]]: i1, %[[Y:.*]]: i1, %{{.*}}: i1):
// CHECK-NEXT: %[[OR:.*]] = arith.ori %[[X]], %[[Y]] : i1
// CHECK-NEXT: linalg.yield %[[OR]] : i1
// CHECK: ^bb0(%[[X2:.*]]: i1, %[[Y2:.*]]: i1, %{{.*}}: i1):
// CHECK-NEXT: %[[AND:.*]] = arith.andi %[[X2]], %[[Y2]] : i1
// CHECK-NEXT: linalg.yield %[[AND]] : i1
func.func @bool_ops(%a: !torch.vtensor<[2],i1>, %b: !torch.vtensor<[2],i1>) -> (!torch.vtensor<[2],i1>, !torch.vtensor<[2],i1>) {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[2],i1>, !torch.vtensor<[2],i1>, !torch.int -> !torch.vtensor<[2],i1>
  %1 = torch.aten.mul.Tensor %a, %b : !torch.vtensor<[2],i1>, !torch.vtensor<[2],i1> -> !torch.vtensor<[2],i1>
  return %0, %1 : !torch.vtensor<[2],i1>, !torch.vtensor<[2],i1>
}
