// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// relu keeps NaN (select on an unordered compare rather than a max).
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @relu(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]] : tensor<2x3xf32>) outs(%[[EMPTY]] : tensor<2x3xf32>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ugt, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[GT]], %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[SEL]] : f32
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
func.func @relu(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %0 = torch.aten.relu %a : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// CHECK-LABEL: func.func @relu_int(
// CHECK: ^bb0(%[[X:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[MAX:.*]] = arith.maxsi %[[X]], %[[ZERO]] : i64
// CHECK-NEXT: linalg.yield %[[MAX]] : i64
func.func @relu_int(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %0 = torch.aten.relu %a : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// -----

// CHECK-LABEL: func.func @neg(
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[N]] : f32
// CHECK: ^bb0(%[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[M:.*]] = arith.subi %[[ZERO]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[M]] : i32
func.func @neg(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],si32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si32>) {
  %0 = torch.aten.neg %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.neg %b : !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si32>
}

// -----

// Dynamic sizes are taken from the operand.
// CHECK-LABEL: func.func @exp_dynamic(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?],f32> -> tensor<?xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[DIM:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?xf32>
// CHECK: linalg.generic {{.*}} ins(%[[A]] : tensor<?xf32>) outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
func.func @exp_dynamic(%a: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
  %0 = torch.aten.exp %a : !torch.vtensor<[?],f32> -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// exp of an integer tensor computes in the float result dtype.
// CHECK-LABEL: func.func @exp_int(
// CHECK: ^bb0(%[[X:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[XF]] : f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
func.func @exp_int(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.exp %a : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// A dynamic result size whose operands all have size 1 there is 1 (the
// broadcast rule), not read from an operand.
// CHECK-LABEL: func.func @dynamic_result_of_size_one(
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: tensor.empty(%[[ONE]]) : tensor<?x3xf32>
func.func @dynamic_result_of_size_one(%a: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %0 = torch.aten.neg %a : !torch.vtensor<[1,3],f32> -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}

// -----

// A dynamic operand size read at a static result size is checked when the
// program runs: the loops run over the static size.
// CHECK-LABEL: func.func @dynamic_operand_static_result(
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x3xf32>
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[D]], %c2 : index
// CHECK: cf.assert %[[OK]], "an operand's run-time size in dim 0 is not 2, the size of the op's static result there
// CHECK: tensor.empty() : tensor<2x3xf32>
func.func @dynamic_operand_static_result(%a: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %0 = torch.aten.neg %a : !torch.vtensor<[?,3],f32> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
