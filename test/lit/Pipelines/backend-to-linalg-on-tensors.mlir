// RUN: torch2mlir-opt %s -torch-backend-to-linalg-on-tensors-backend-pipeline -split-input-file | FileCheck %s

// From the backend contract to linalg-on-tensors: builtin types in the
// signature, no torch or torch_c op left.

// CHECK-DAG: #[[MAPB_DEF:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>, %[[W:.*]]: tensor<5x3xf32>, %[[B:.*]]: tensor<5xf32>) -> tensor<4x5xf32>
// CHECK-NOT: torch
// The transposed weight is read through the matmul's indexing maps; no
// transpose is materialized.
// CHECK-NOT: linalg.transpose
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[MM:.*]] = linalg.matmul indexing_maps = [#[[MAPA:.*]], #[[MAPB:.*]], #[[MAPC:.*]]] ins(%[[X]], %[[W]] : tensor<4x3xf32>, tensor<5x3xf32>) outs(%[[FILL]] : tensor<4x5xf32>)
// CHECK: %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[MM]], %[[B]] : tensor<4x5xf32>, tensor<5xf32>)
// CHECK: arith.addf
// CHECK: %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[ADD]] : tensor<4x5xf32>)
// CHECK: arith.cmpf ugt
// CHECK: arith.select
// CHECK: return %[[RELU]] : tensor<4x5xf32>
// CHECK-NOT: torch
func.func @mlp(%x: !torch.vtensor<[4,3],f32>, %w: !torch.vtensor<[5,3],f32>, %b: !torch.vtensor<[5],f32>) -> !torch.vtensor<[4,5],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %p = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.permute %w, %p : !torch.vtensor<[5,3],f32>, !torch.list<int> -> !torch.vtensor<[3,5],f32>
  %1 = torch.aten.mm %x, %0 : !torch.vtensor<[4,3],f32>, !torch.vtensor<[3,5],f32> -> !torch.vtensor<[4,5],f32>
  %2 = torch.aten.add.Tensor %1, %b, %int1 : !torch.vtensor<[4,5],f32>, !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[4,5],f32>
  %3 = torch.aten.relu %2 : !torch.vtensor<[4,5],f32> -> !torch.vtensor<[4,5],f32>
  return %3 : !torch.vtensor<[4,5],f32>
}

// -----

// Scalars and literals: torch constants and scalar ops become arith, and a
// scalar operand of a tensor op is used as a builtin value.
// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[A:.*]]: tensor<2xf32>, %[[N:.*]]: i64) -> (tensor<2xf32>, i64)
// CHECK-DAG: %[[LIT:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK: %[[SUM:.*]] = arith.addi %[[N]], %[[C2]] : i64
// CHECK: %[[PROD:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[LIT]] : tensor<2xf32>, tensor<2xf32>)
// CHECK: arith.mulf
// CHECK: %[[SUMF:.*]] = arith.sitofp %[[SUM]] : i64 to f32
// CHECK: %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[PROD]] : tensor<2xf32>)
// CHECK: arith.mulf %{{.*}}, %[[SUMF]] : f32
// CHECK: return %[[SCALED]], %[[SUM]] : tensor<2xf32>, i64
// CHECK-NOT: torch
func.func @scalars(%a: !torch.vtensor<[2],f32>, %n: !torch.int) -> (!torch.vtensor<[2],f32>, !torch.int) {
  %int2 = torch.constant.int 2
  %0 = torch.aten.add.int %n, %int2 : !torch.int, !torch.int -> !torch.int
  %lit = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %1 = torch.aten.mul.Tensor %a, %lit : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %2 = torch.aten.mul.Scalar %1, %0 : !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  return %2, %0 : !torch.vtensor<[2],f32>, !torch.int
}

// -----

// Calls between functions are converted as well.
// CHECK-LABEL: func.func @callee(
// CHECK-SAME: %{{.*}}: tensor<3xf32>) -> tensor<3xf32>
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[A:.*]]: tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[R:.*]] = call @callee(%[[A]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: return %[[R]]
func.func @callee(%a: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %0 = torch.aten.exp %a : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
func.func @caller(%a: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %0 = call @callee(%a) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
