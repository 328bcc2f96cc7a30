// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// mean.dim = sum.dim_IntList / (number of reduced elements); mean and sum
// over everything are the dim forms over every dim.

// CHECK-LABEL: func.func @mean_dim(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3,4],f32>)
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int1, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[A]], %[[DIMS]], %false, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2],f32>
// CHECK: %[[DIV:.*]] = torch.aten.div.Scalar %[[SUM]], %int12 : !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
// CHECK: return %[[DIV]]
// CHECK-NOT: torch.aten.mean
func.func @mean_dim(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2],f32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %l = torch.prim.ListConstruct %int1, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.mean.dim %a, %l, %false, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// CHECK-LABEL: func.func @mean_dim_keepdim(
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %{{.*}}, %{{.*}}, %true, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2,1,4],f32>
// CHECK: torch.aten.div.Scalar %[[SUM]], %int3 : !torch.vtensor<[2,1,4],f32>, !torch.int -> !torch.vtensor<[2,1,4],f32>
func.func @mean_dim_keepdim(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,1,4],f32> {
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.mean.dim %a, %l, %true, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2,1,4],f32>
  return %0 : !torch.vtensor<[2,1,4],f32>
}

// -----

// The count must be static, and the mean of integers is not decomposed.
// CHECK-LABEL: func.func @mean_dim_kept(
// CHECK: torch.aten.mean.dim %{{.*}} : !torch.vtensor<[2,?],f32>,
// CHECK: torch.aten.mean.dim %{{.*}} : !torch.vtensor<[2,3],si64>,
// CHECK-NOT: torch.aten.sum.dim_IntList
func.func @mean_dim_kept(%a: !torch.vtensor<[2,?],f32>, %b: !torch.vtensor<[2,3],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>) {
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.mean.dim %a, %l, %false, %none : !torch.vtensor<[2,?],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2],f32>
  %1 = torch.aten.mean.dim %b, %l, %false, %none : !torch.vtensor<[2,3],si64>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2],si64>
  return %0, %1 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
}

// -----

// mean(x) -> mean.dim(x, [0, 1]) -> sum.dim_IntList / 6.
// CHECK-LABEL: func.func @mean_all(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[A]], %[[DIMS]], %false, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
// CHECK: %[[DIV:.*]] = torch.aten.div.Scalar %[[SUM]], %int6 : !torch.vtensor<[],f32>, !torch.int -> !torch.vtensor<[],f32>
// CHECK: return %[[DIV]]
func.func @mean_all(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %0 = torch.aten.mean %a, %none : !torch.vtensor<[2,3],f32>, !torch.none -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// CHECK-LABEL: func.func @sum_all(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3,5],si64>)
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int0, %int1, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[A]], %[[DIMS]], %false, %none : !torch.vtensor<[2,3,5],si64>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],si64>
// CHECK: return %[[SUM]]
// CHECK-NOT: torch.aten.sum %
func.func @sum_all(%a: !torch.vtensor<[2,3,5],si64>) -> !torch.vtensor<[],si64> {
  %none = torch.constant.none
  %0 = torch.aten.sum %a, %none : !torch.vtensor<[2,3,5],si64>, !torch.none -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// -----

// The dtype argument is forwarded.
// CHECK-LABEL: func.func @sum_all_dtype(
// CHECK: torch.aten.sum.dim_IntList %{{.*}}, %{{.*}}, %false, %int4 : !torch.vtensor<[4],si32>, !torch.list<int>, !torch.bool, !torch.int -> !torch.vtensor<[],si64>
func.func @sum_all_dtype(%a: !torch.vtensor<[4],si32>) -> !torch.vtensor<[],si64> {
  %int4 = torch.constant.int 4
  %0 = torch.aten.sum %a, %int4 : !torch.vtensor<[4],si32>, !torch.int -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}
