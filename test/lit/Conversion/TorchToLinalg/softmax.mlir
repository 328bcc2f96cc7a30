// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// _softmax(x, dim) = exp(x - max) / sum(exp(x - max)), numerically stable:
// each exp computed once, the max and the sum free to reassociate (LLVM
// vectorizes them into partial results).

// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAXINIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[A]] : tensor<2x3xf32>) outs(%[[MAXINIT]] : tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32):
// CHECK-NEXT: %[[NEWMAX:.*]] = arith.maximumf %[[X]], %[[M]] fastmath<reassoc> : f32
// CHECK-NEXT: linalg.yield %[[NEWMAX]] : f32
// CHECK: %[[EXPS:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[MAX]] : tensor<2x3xf32>, tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[X2:.*]]: f32, %[[M2:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SUB:.*]] = arith.subf %[[X2]], %[[M2]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[SUB]] : f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK: %[[SUMINIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[EXPS]] : tensor<2x3xf32>) outs(%[[SUMINIT]] : tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[X3:.*]]: f32, %[[S:.*]]: f32):
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[X3]], %[[S]] fastmath<reassoc> : f32
// CHECK-NEXT: linalg.yield %[[ADD]] : f32
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[EXPS]], %[[SUM]] : tensor<2x3xf32>, tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[X4:.*]]: f32, %[[S4:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[DIV:.*]] = arith.divf %[[X4]], %[[S4]] : f32
// CHECK-NEXT: linalg.yield %[[DIV]] : f32
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
func.func @softmax(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten._softmax %a, %int1, %false : !torch.vtensor<[2,3],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
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
