// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// Inference batch norm in one generic, per channel (dim 1):
//   y = (x - mean) * rsqrt(var + eps) * weight + bias
// The saved mean/invstd results are empty tensors.

// CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm(
// CHECK-DAG: %[[V:.*]] = torch_c.to_builtin_tensor %arg4 : !torch.vtensor<[3],f32> -> tensor<3xf32>
// CHECK-DAG: %[[M:.*]] = torch_c.to_builtin_tensor %arg3 : !torch.vtensor<[3],f32> -> tensor<3xf32>
// CHECK-DAG: %[[B:.*]] = torch_c.to_builtin_tensor %arg2 : !torch.vtensor<[3],f32> -> tensor<3xf32>
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[3],f32> -> tensor<3xf32>
// CHECK-DAG: %[[X:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[2,3,4,4],f32> -> tensor<2x3x4x4xf32>
// CHECK: %[[EPS64:.*]] = torch_c.to_f64 %[[EPSC:.*]]
// CHECK: %[[EPS:.*]] = arith.truncf %[[EPS64]] : f64 to f32
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[CH]], #[[CH]], #[[CH]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X]], %[[M]], %[[V]], %[[W]], %[[B]] : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<2x3x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[XI:.*]]: f32, %[[MI:.*]]: f32, %[[VI:.*]]: f32, %[[WI:.*]]: f32, %[[BI:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[CENTERED:.*]] = arith.subf %[[XI]], %[[MI]] : f32
// CHECK-NEXT: %[[VEPS:.*]] = arith.addf %[[VI]], %[[EPS]] : f32
// CHECK-NEXT: %[[INVSTD:.*]] = math.rsqrt %[[VEPS]] : f32
// CHECK-NEXT: %[[NORM:.*]] = arith.mulf %[[CENTERED]], %[[INVSTD]] : f32
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[NORM]], %[[WI]] : f32
// CHECK-NEXT: %[[SHIFTED:.*]] = arith.addf %[[SCALED]], %[[BI]] : f32
// CHECK-NEXT: linalg.yield %[[SHIFTED]] : f32
// CHECK: %[[Y:.*]] = torch_c.from_builtin_tensor %[[R]] : tensor<2x3x4x4xf32> -> !torch.vtensor<[2,3,4,4],f32>
// CHECK: tensor.empty() : tensor<0xf32>
// CHECK: return %[[Y]]
func.func @batch_norm(%x: !torch.vtensor<[2,3,4,4],f32>, %w: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>, %m: !torch.vtensor<[3],f32>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4,4],f32> {
  %mom = torch.constant.float 0.1
  %eps = torch.constant.float 1.0e-05
  %0:3 = torch.aten._native_batch_norm_legit_no_training %x, %w, %b, %m, %v, %mom, %eps : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.float, !torch.float -> !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %0#0 : !torch.vtensor<[2,3,4,4],f32>
}

// -----

// Without weight and bias; a dynamic batch.
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[CH:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @batch_norm_no_affine(
// CHECK: %[[X:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,3],f32> -> tensor<?x3xf32>
// CHECK: %[[DIM:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[CH]], #[[ID]]], {{.*}} ins(%[[X]], %{{.*}}, %{{.*}} : tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32>) outs(%[[EMPTY]] : tensor<?x3xf32>)
// CHECK: math.rsqrt
// CHECK-NEXT: %[[NORM:.*]] = arith.mulf
// CHECK-NEXT: linalg.yield %[[NORM]] : f32
func.func @batch_norm_no_affine(%x: !torch.vtensor<[?,3],f32>, %m: !torch.vtensor<[3],f32>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[?,3],f32> {
  %none = torch.constant.none
  %mom = torch.constant.float 0.1
  %eps = torch.constant.float 1.0e-03
  %0:3 = torch.aten._native_batch_norm_legit_no_training %x, %none, %none, %m, %v, %mom, %eps : !torch.vtensor<[?,3],f32>, !torch.none, !torch.none, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.float, !torch.float -> !torch.vtensor<[?,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %0#0 : !torch.vtensor<[?,3],f32>
}
