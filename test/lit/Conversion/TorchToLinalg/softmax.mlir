// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// _softmax(x, dim) = exp(x - max) / sum(exp(x - max)), numerically stable:
// each exp computed once, the max and the sum free to reassociate (LLVM
// vectorizes them into partial results).

// Along the last dim, row by row: an scf.forall over the rows whose body
// runs three loops over the row (the max and the exp-sum carried as
// scalars, each exp stored in the row, then multiplied in place by 1 / sum,
// one division per row).
// The max treats -0.0 and +0.0 alike (nsz: a shorter vector sequence).
// CHECK-LABEL: func.func @softmax(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[I:.*]]) in (2) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<2x3xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<3xf32>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAX:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[M:.*]] = %[[NEGINF]]) -> (f32)
// CHECK-NEXT: %[[X:.*]] = tensor.extract %[[A]][%[[I]], %[[J]]] : tensor<2x3xf32>
// CHECK-NEXT: %[[NEWMAX:.*]] = arith.maximumf %[[X]], %[[M]] fastmath<reassoc,nsz> : f32
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
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[INV:.*]] = arith.divf %[[ONE]], %[[SUM]]#0 : f32
// CHECK-NEXT: %[[DIVIDED:.*]] = scf.for %[[J3:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC3:.*]] = %[[SUM]]#1) -> (tensor<3xf32>)
// CHECK-NEXT: %[[E3:.*]] = tensor.extract %[[ACC3]][%[[J3]]] : tensor<3xf32>
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[E3]], %[[INV]] : f32
// CHECK-NEXT: tensor.insert %[[SCALED]] into %[[ACC3]][%[[J3]]] : tensor<3xf32>
// CHECK: tensor.parallel_insert_slice %[[DIVIDED]] into %[[OUT]][%[[I]], 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<2x3xf32>
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
func.func @softmax(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int1, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Along the first dim: whole-tensor passes (the max; the exps and their
// sum in one pass, a generic with both as results, the exps at every
// position and the sum per column; 1 / sum per column; the product).
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @softmax_dim0(
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
// CHECK: arith.maximumf {{.*}} fastmath<reassoc,nsz>
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<3xf32>
// CHECK: %[[EXPSUM:.*]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]], #[[COL]]], iterator_types = ["reduction", "parallel"]} ins(%{{.*}}, %[[MAX]] : tensor<2x3xf32>, tensor<3xf32>) outs(%{{.*}}, %[[ZERO]] : tensor<2x3xf32>, tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[SHIFTED:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK: %[[EXP:.*]] = math.exp
// CHECK: %[[E:.*]] = arith.select %{{.*}}, %{{.*}}, %[[EXP]] : f32
// CHECK-NEXT: %[[ADDED:.*]] = arith.addf %[[E]], %[[ACC]] fastmath<reassoc> : f32
// CHECK-NEXT: linalg.yield %[[E]], %[[ADDED]] : f32, f32
// CHECK: %[[INV:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[EXPSUM]]#1 : tensor<3xf32>)
// CHECK: arith.divf
// CHECK: linalg.generic {{.*}} ins(%[[EXPSUM]]#0, %[[INV]] : tensor<2x3xf32>, tensor<3xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
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
// CHECK: arith.maximumf {{.*}} fastmath<reassoc,nsz>
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
// CHECK: arith.maximumf {{.*}} fastmath<reassoc,nsz>
// CHECK: %[[SHIFTED:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] : tensor<2x3xf32>, tensor<3xf32>)
// CHECK: arith.subf
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[SHIFTED]] : tensor<2x3xf32>)
// CHECK: math.exp
// log(sum) once per column, then subtracted:
// CHECK: %[[LOG:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: math.log %[[S]] : f32
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[SHIFTED]], %[[LOG]] : tensor<2x3xf32>, tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[L:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SUB:.*]] = arith.subf %[[X]], %[[L]] : f32
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

// -----

// Along a middle dim: slab by slab. The input as [outer, n, inner]
// (dims before, the dim, dims after), an scf.forall over the 4 slabs of
// [3, 10] whose body runs the whole-tensor passes on its slab along dim 0.
// CHECK-LABEL: func.func @softmax_slabs(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0], [1], [2, 3]] : tensor<4x3x2x5xf32> into tensor<4x3x10xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<4x3x10xf32>)
// CHECK-NEXT: %[[SLAB:.*]] = tensor.extract_slice %[[C]][%[[I]], 0, 0] [1, 3, 10] [1, 1, 1] : tensor<4x3x10xf32> to tensor<3x10xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[SLAB]] : tensor<3x10xf32>) outs(%{{.*}} : tensor<10xf32>)
// CHECK: arith.maximumf {{.*}} fastmath<reassoc,nsz>
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: tensor.parallel_insert_slice %[[P]] into %[[OUT]][%[[I]], 0, 0] [1, 3, 10] [1, 1, 1] : tensor<3x10xf32> into tensor<4x3x10xf32>
// CHECK: tensor.expand_shape %[[R]] {{\[}}[0], [1], [2, 3]] output_shape [4, 3, 2, 5]
func.func @softmax_slabs(%a: !torch.vtensor<[4,3,2,5],f32>) -> !torch.vtensor<[4,3,2,5],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int1, %false : !torch.vtensor<[4,3,2,5],f32>, !torch.int, !torch.bool -> !torch.vtensor<[4,3,2,5],f32>
  return %0 : !torch.vtensor<[4,3,2,5],f32>
}

// -----

// Slabs larger than 256 KiB (here 1024 x 128 floats, 512 KiB) keep the
// whole-tensor passes, and so does a dynamic shape.
// CHECK-LABEL: func.func @softmax_large_slabs(
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-LABEL: func.func @softmax_dynamic_middle(
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]}
func.func @softmax_large_slabs(%a: !torch.vtensor<[2,1024,128],f32>) -> !torch.vtensor<[2,1024,128],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int1, %false : !torch.vtensor<[2,1024,128],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,1024,128],f32>
  return %0 : !torch.vtensor<[2,1024,128],f32>
}
func.func @softmax_dynamic_middle(%a: !torch.vtensor<[2,?,5],f32>) -> !torch.vtensor<[2,?,5],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int1, %false : !torch.vtensor<[2,?,5],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,?,5],f32>
  return %0 : !torch.vtensor<[2,?,5],f32>
}

// -----

// _log_softmax slab by slab: log(sum) once per column of the slab.
// CHECK-LABEL: func.func @log_softmax_slabs(
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.log
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.subf
// CHECK: tensor.parallel_insert_slice
func.func @log_softmax_slabs(%a: !torch.vtensor<[2,3,5],f32>) -> !torch.vtensor<[2,3,5],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten._log_softmax %a, %int1, %false : !torch.vtensor<[2,3,5],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3,5],f32>
  return %0 : !torch.vtensor<[2,3,5],f32>
}

// -----

// An empty tensor: nothing to compute, no row to slice (the row forall's
// slice of a [5, 0, 0] tensor failed to verify).
// CHECK-LABEL: func.func @softmax_empty(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<5x0x0xf32>
// CHECK-NOT: scf.forall
// CHECK: torch_c.from_builtin_tensor %[[E]]
func.func @softmax_empty(%a: !torch.vtensor<[5,0,0],f32>) -> !torch.vtensor<[5,0,0],f32> {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int-1, %false : !torch.vtensor<[5,0,0],f32>, !torch.int, !torch.bool -> !torch.vtensor<[5,0,0],f32>
  return %0 : !torch.vtensor<[5,0,0],f32>
}
