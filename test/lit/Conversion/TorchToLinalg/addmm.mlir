// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// addmm(self, a, b, beta, alpha) = beta * self + alpha * (a @ b).

// With beta = alpha = 1 the matmul accumulates into self broadcast to
// [M, N].
// CHECK: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @addmm_unit(
// CHECK-DAG: %[[B:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[3,4],f32> -> tensor<3x4xf32>
// CHECK-DAG: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK-DAG: %[[S:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[4],f32> -> tensor<4xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[S]] : tensor<4xf32>) outs(%[[EMPTY]] : tensor<2x4xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[INIT]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: torch_c.from_builtin_tensor %[[MM]] : tensor<2x4xf32> -> !torch.vtensor<[2,4],f32>
// CHECK-NOT: linalg.fill
func.func @addmm_unit(%s: !torch.vtensor<[4],f32>, %a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.addmm %s, %a, %b, %int1, %int1 : !torch.vtensor<[4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// Float 1.0 counts as a unit scale too.
// CHECK-LABEL: func.func @addmm_unit_float(
// CHECK-NOT: linalg.fill
// CHECK: %[[INIT:.*]] = linalg.generic
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[INIT]] : tensor<2x4xf32>)
// CHECK-NOT: linalg.generic
func.func @addmm_unit_float(%s: !torch.vtensor<[2,4],f32>, %a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %f1 = torch.constant.float 1.0
  %0 = torch.aten.addmm %s, %a, %b, %f1, %f1 : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32>, !torch.float, !torch.float -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// Other scales: a zero-filled matmul, then one generic computing
// beta * self + alpha * product, with self broadcast along its size-1 dim.
// CHECK: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @addmm_scaled(
// CHECK-DAG: %[[S:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[2,1],f32> -> tensor<2x1xf32>
// CHECK-DAG: %[[BETA64:.*]] = torch_c.to_f64 %float
// CHECK-DAG: %[[ALPHA64:.*]] = torch_c.to_i64 %int2
// CHECK-DAG: %[[BETA:.*]] = arith.truncf %[[BETA64]] : f64 to f32
// CHECK-DAG: %[[ALPHA:.*]] = arith.sitofp %[[ALPHA64]] : i64 to f32
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[FILL]] : tensor<2x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[S]], %[[MM]] : tensor<2x1xf32>, tensor<2x4xf32>)
// CHECK-NEXT: ^bb0(%[[SELF:.*]]: f32, %[[PROD:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[X:.*]] = arith.mulf %[[SELF]], %[[BETA]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[PROD]], %[[ALPHA]] : f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[SUM]] : f32
func.func @addmm_scaled(%s: !torch.vtensor<[2,1],f32>, %a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %beta = torch.constant.float 5.000000e-01
  %int2 = torch.constant.int 2
  %0 = torch.aten.addmm %s, %a, %b, %beta, %int2 : !torch.vtensor<[2,1],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32>, !torch.float, !torch.int -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// A run-time beta takes the general path; integers use muli/addi.
// CHECK-LABEL: func.func @addmm_int_runtime_beta(
// CHECK-SAME: %{{.*}}: !torch.vtensor<[2,4],si64>, %{{.*}}: !torch.vtensor<[2,3],si64>, %{{.*}}: !torch.vtensor<[3,4],si64>, %[[BETA:.*]]: !torch.int)
// CHECK: %[[B:.*]] = torch_c.to_i64 %[[BETA]]
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[SELF:.*]]: i64, %[[PROD:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[X:.*]] = arith.muli %[[SELF]], %[[B]] : i64
// CHECK-NEXT: %[[Y:.*]] = arith.muli %[[PROD]], %{{.*}} : i64
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[X]], %[[Y]] : i64
// CHECK-NEXT: linalg.yield %[[SUM]] : i64
func.func @addmm_int_runtime_beta(%s: !torch.vtensor<[2,4],si64>, %a: !torch.vtensor<[2,3],si64>, %b: !torch.vtensor<[3,4],si64>, %beta: !torch.int) -> !torch.vtensor<[2,4],si64> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.addmm %s, %a, %b, %beta, %int1 : !torch.vtensor<[2,4],si64>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[3,4],si64>, !torch.int, !torch.int -> !torch.vtensor<[2,4],si64>
  return %0 : !torch.vtensor<[2,4],si64>
}
