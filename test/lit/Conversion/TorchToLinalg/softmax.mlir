// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// _softmax(x, dim) = exp(x - max) / sum(exp(x - max)), numerically stable:
// each exp computed once, the max and the sum free to reassociate (LLVM
// vectorizes them into partial results).

// Along the last dim, row by row: an scf.forall over the rows whose body
// runs three loops over the row (the max and the exp-sum carried as
// scalars, each exp stored in the row, then divided in place).
// CHECK-LABEL: func.func @softmax(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[I:.*]]) in (2) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<2x3xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<3xf32>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAX:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[M:.*]] = %[[NEGINF]]) -> (f32)
// CHECK-NEXT: %[[X:.*]] = tensor.extract %[[A]][%[[I]], %[[J]]] : tensor<2x3xf32>
// CHECK-NEXT: %[[NEWMAX:.*]] = arith.maximumf %[[X]], %[[M]] fastmath<reassoc> : f32
// CHECK-NEXT: scf.yield %[[NEWMAX]] : f32
// CHECK: %[[SUM:.*]]:2 = scf.for %[[J2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[ACC:.*]] = %[[ROW]]) -> (f32, tensor<3xf32>)
// CHECK-NEXT: %[[X2:.*]] = tensor.extract %[[A]][%[[I]], %[[J2]]] : tensor<2x3xf32>
// CHECK-NEXT: %[[SUB:.*]] = arith.subf %[[X2]], %[[MAX]] : f32
// The exp of x - max within the vector exp's fast range: exp(max(d,
// -87.34)), 0 where d is below (a subnormal then, flushed).
// CHECK-NEXT: %[[LOW:.*]] = arith.constant -87.3365402 : f32
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.maximumf %[[SUB]], %[[LOW]] : f32
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[CLAMPED]] : f32
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpf olt, %[[SUB]], %[[LOW]] : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = arith.select %[[BELOW]], %[[ZERO]], %[[EXP]] : f32
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[E]], %[[S]] fastmath<reassoc> : f32
// CHECK-NEXT: %[[STORED:.*]] = tensor.insert %[[E]] into %[[ACC]][%[[J2]]] : tensor<3xf32>
// CHECK-NEXT: scf.yield %[[ADD]], %[[STORED]] : f32, tensor<3xf32>
// CHECK: %[[DIVIDED:.*]] = scf.for %[[J3:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC3:.*]] = %[[SUM]]#1) -> (tensor<3xf32>)
// CHECK-NEXT: %[[E3:.*]] = tensor.extract %[[ACC3]][%[[J3]]] : tensor<3xf32>
// CHECK-NEXT: %[[DIV:.*]] = arith.divf %[[E3]], %[[SUM]]#0 : f32
// CHECK-NEXT: tensor.insert %[[DIV]] into %[[ACC3]][%[[J3]]] : tensor<3xf32>
// CHECK: tensor.parallel_insert_slice %[[DIVIDED]] into %[[OUT]][%[[I]], 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<2x3xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
func.func @softmax(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int1, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Along another dim than the last: whole-tensor passes (the max, the exps,
// their sum, the division).
// CHECK-LABEL: func.func @softmax_dim0(
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: iterator_types = ["reduction", "parallel"]}
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK-NOT: scf.forall
func.func @softmax_dim0(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int0, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// _log_softmax along the last dim, row by row: no exp is stored; the
// result is (x - max) - log(sum).
// CHECK-LABEL: func.func @log_softmax_rows(
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 3)
// CHECK: arith.maximumf
// CHECK: %[[SUM:.*]] = scf.for {{.*}} -> (f32)
// CHECK: math.exp
// CHECK: %[[LOG:.*]] = math.log %[[SUM]] : f32
// CHECK: scf.for
// CHECK: %[[SHIFTED:.*]] = arith.subf
// CHECK-NEXT: arith.subf %[[SHIFTED]], %[[LOG]] : f32
func.func @log_softmax_rows(%a: !torch.vtensor<[2,3,5],f32>) -> !torch.vtensor<[2,3,5],f32> {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten._log_softmax %a, %int-1, %false : !torch.vtensor<[2,3,5],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3,5],f32>
  return %0 : !torch.vtensor<[2,3,5],f32>
}

// -----

// _log_softmax(x, dim) = (x - max) - log(sum(exp(x - max))), here along
// dim 0.
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @log_softmax(
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]]], iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<3xf32>)
// CHECK: arith.maximumf
// CHECK: %[[SHIFTED:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] : tensor<2x3xf32>, tensor<3xf32>)
// CHECK: arith.subf
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[SHIFTED]] : tensor<2x3xf32>)
// CHECK: math.exp
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[SHIFTED]], %[[SUM]] : tensor<2x3xf32>, tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[LOG:.*]] = math.log %[[S]] : f32
// CHECK-NEXT: %[[SUB:.*]] = arith.subf %[[X]], %[[LOG]] : f32
// CHECK-NEXT: linalg.yield %[[SUB]] : f32
// CHECK: torch_c.from_builtin_tensor %[[R]]
func.func @log_softmax(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.aten._log_softmax %a, %int0, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// A 0-d tensor is a softmax over one element (dim 0 or -1): computed as 1-d
// and reshaped back.
// CHECK-LABEL: func.func @log_softmax_0d(
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: math.log
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1xf32> into tensor<f32>
func.func @log_softmax_0d(%a: !torch.vtensor<[],f32>) -> !torch.vtensor<[],f32> {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten._log_softmax %a, %int-1, %false : !torch.vtensor<[],f32>, !torch.int, !torch.bool -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}
