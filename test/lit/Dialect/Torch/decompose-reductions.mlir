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

// An unknown reduced size enters the count as aten.size.int (times the
// known ones); the mean of integers is not decomposed.
// CHECK-LABEL: func.func @mean_dim_unknown_size(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,?],f32>, %[[B:.*]]: !torch.vtensor<[2,3],si64>, %[[C:.*]]: !torch.vtensor<[?,3,?],f32>)
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[A]], {{.*}} -> !torch.vtensor<[2],f32>
// CHECK: %[[N:.*]] = torch.aten.size.int %[[A]], %int1 : !torch.vtensor<[2,?],f32>, !torch.int -> !torch.int
// CHECK: %[[MEAN:.*]] = torch.aten.div.Scalar %[[SUM]], %[[N]] : !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
// CHECK: %[[INT:.*]] = torch.aten.mean.dim %[[B]], {{.*}} : !torch.vtensor<[2,3],si64>,
// CHECK: %[[SUM3:.*]] = torch.aten.sum.dim_IntList %[[C]], {{.*}} -> !torch.vtensor<[],f32>
// CHECK: %[[D0:.*]] = torch.aten.size.int %[[C]], %int0
// CHECK: %[[P0:.*]] = torch.aten.mul.int %int3, %[[D0]]
// CHECK: %[[D2:.*]] = torch.aten.size.int %[[C]], %int2
// CHECK: %[[P2:.*]] = torch.aten.mul.int %[[P0]], %[[D2]]
// CHECK: %[[MEAN3:.*]] = torch.aten.div.Scalar %[[SUM3]], %[[P2]]
// CHECK: return %[[MEAN]], %[[INT]], %[[MEAN3]]
func.func @mean_dim_unknown_size(%a: !torch.vtensor<[2,?],f32>, %b: !torch.vtensor<[2,3],si64>, %c: !torch.vtensor<[?,3,?],f32>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %l = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %all = torch.prim.ListConstruct %int0, %int1, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.mean.dim %a, %l, %false, %none : !torch.vtensor<[2,?],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2],f32>
  %1 = torch.aten.mean.dim %b, %l, %false, %none : !torch.vtensor<[2,3],si64>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2],si64>
  %2 = torch.aten.mean.dim %c, %all, %false, %none : !torch.vtensor<[?,3,?],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
  return %0, %1, %2 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[],f32>
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
