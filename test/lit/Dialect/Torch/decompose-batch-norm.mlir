// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// Inference batch_norm with running statistics is
// _native_batch_norm_legit_no_training (its first result).

// CHECK-LABEL: func.func @batch_norm_eval(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[2,3,4,4],f32>, %[[W:.*]]: !torch.vtensor<[3],f32>, %[[B:.*]]: !torch.vtensor<[3],f32>, %[[M:.*]]: !torch.vtensor<[3],f32>, %[[V:.*]]: !torch.vtensor<[3],f32>)
// CHECK-DAG: %[[MOM:.*]] = torch.constant.float 1.000000e-01
// CHECK-DAG: %[[EPS:.*]] = torch.constant.float 1.000000e-05
// CHECK: %[[R:.*]], %{{.*}}, %{{.*}} = torch.aten._native_batch_norm_legit_no_training %[[X]], %[[W]], %[[B]], %[[M]], %[[V]], %[[MOM]], %[[EPS]] : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.float, !torch.float -> !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
// CHECK: return %[[R]] : !torch.vtensor<[2,3,4,4],f32>
// CHECK-NOT: torch.aten.batch_norm
func.func @batch_norm_eval(%x: !torch.vtensor<[2,3,4,4],f32>, %w: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>, %m: !torch.vtensor<[3],f32>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4,4],f32> {
  %false = torch.constant.bool false
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.batch_norm %x, %w, %b, %m, %v, %false, %mom, %eps, %false : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4,4],f32>
  return %0 : !torch.vtensor<[2,3,4,4],f32>
}

// -----

// Weight and bias may be None.
// CHECK-LABEL: func.func @batch_norm_no_affine(
// CHECK: torch.aten._native_batch_norm_legit_no_training %{{.*}}, %none, %none, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.none, !torch.none,
func.func @batch_norm_no_affine(%x: !torch.vtensor<[2,3],f32>, %m: !torch.vtensor<[3],f32>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.batch_norm %x, %none, %none, %m, %v, %false, %mom, %eps, %false : !torch.vtensor<[2,3],f32>, !torch.none, !torch.none, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Training mode computes batch statistics: kept.
// CHECK-LABEL: func.func @batch_norm_training(
// CHECK: torch.aten.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %true,
// CHECK-NOT: torch.aten._native_batch_norm_legit_no_training
func.func @batch_norm_training(%x: !torch.vtensor<[2,3,4,4],f32>, %w: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>, %m: !torch.vtensor<[3],f32>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4,4],f32> {
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.batch_norm %x, %w, %b, %m, %v, %true, %mom, %eps, %false : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4,4],f32>
  return %0 : !torch.vtensor<[2,3,4,4],f32>
}

// -----

// Without running statistics: kept.
// CHECK-LABEL: func.func @batch_norm_no_stats(
// CHECK: torch.aten.batch_norm
// CHECK-NOT: torch.aten._native_batch_norm_legit_no_training
func.func @batch_norm_no_stats(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.batch_norm %x, %none, %none, %none, %none, %false, %mom, %eps, %false : !torch.vtensor<[2,3],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
