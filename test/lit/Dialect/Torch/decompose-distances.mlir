// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// cdist: the rows' differences by broadcasting (x1 as [..., P, 1, M], x2 as
// [..., 1, R, M]; the batch dims broadcast too), then the p-norm over the
// last dim. p = 2 is sqrt(sum(d * d)).
// CHECK-LABEL: func.func @cdist_p2_broadcast(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3,4],f32>, %[[B:.*]]: !torch.vtensor<[5,4],f32>)
// CHECK-DAG: %[[BV:.*]] = torch.aten.view %[[B]], %{{.*}} -> !torch.vtensor<[1,5,4],f32>
// CHECK-DAG: %[[AV:.*]] = torch.aten.view %[[A]], %{{.*}} -> !torch.vtensor<[2,3,1,4],f32>
// CHECK: %[[D:.*]] = torch.aten.sub.Tensor %[[AV]], %[[BV]], %{{.*}} -> !torch.vtensor<[2,3,5,4],f32>
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor %[[D]], %[[D]]
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[SQ]], %{{.*}}, %false, %none : !torch.vtensor<[2,3,5,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2,3,5],f32>
// CHECK: %[[R:.*]] = torch.aten.sqrt %[[SUM]]
// CHECK: return %[[R]]
// CHECK-NOT: _cdist_forward
func.func @cdist_p2_broadcast(%a: !torch.vtensor<[2,3,4],f32>, %b: !torch.vtensor<[5,4],f32>) -> !torch.vtensor<[2,3,5],f32> {
  %p = torch.constant.float 2.000000e+00
  %mode = torch.constant.none
  %0 = torch.aten._cdist_forward %a, %b, %p, %mode : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[5,4],f32>, !torch.float, !torch.none -> !torch.vtensor<[2,3,5],f32>
  return %0 : !torch.vtensor<[2,3,5],f32>
}

// -----

// p = inf is the largest |d|; p = 0 counts the nonzero differences; p = 1
// sums |d|; any other p is (sum |d|^p)^(1/p).
// CHECK-LABEL: func.func @cdist_other_norms(
// CHECK: %[[ABS:.*]] = torch.aten.abs %{{.*}} : !torch.vtensor<[3,2,4],f64>
// CHECK: torch.aten.amax %[[ABS]], %{{.*}}, %false : !torch.vtensor<[3,2,4],f64>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3,2],f64>
// CHECK: %[[NZ:.*]] = torch.aten.ne.Scalar %{{.*}}, %{{.*}} : !torch.vtensor<[3,2,4],f64>, !torch.float -> !torch.vtensor<[3,2,4],i1>
// CHECK: %[[CNT:.*]] = torch.aten._to_copy %[[NZ]], %{{.*}} -> !torch.vtensor<[3,2,4],f64>
// CHECK: torch.aten.sum.dim_IntList %[[CNT]]
// CHECK: %[[ABS1:.*]] = torch.aten.abs %{{.*}} : !torch.vtensor<[3,2,4],f64>
// CHECK: torch.aten.sum.dim_IntList %[[ABS1]]
// CHECK: %[[ABS3:.*]] = torch.aten.abs
// CHECK: %[[POW:.*]] = torch.aten.pow.Tensor_Scalar %[[ABS3]], %[[THREE:.*]] :
// CHECK: %[[S3:.*]] = torch.aten.sum.dim_IntList %[[POW]]
// CHECK: torch.aten.pow.Tensor_Scalar %[[S3]], %[[THIRD:.*]] :
func.func @cdist_other_norms(%a: !torch.vtensor<[3,4],f64>, %b: !torch.vtensor<[2,4],f64>) -> (!torch.vtensor<[3,2],f64>, !torch.vtensor<[3,2],f64>, !torch.vtensor<[3,2],f64>, !torch.vtensor<[3,2],f64>) {
  %inf = torch.constant.float 0x7FF0000000000000
  %zero = torch.constant.float 0.000000e+00
  %one = torch.constant.float 1.000000e+00
  %three = torch.constant.float 3.000000e+00
  %mode = torch.constant.none
  %0 = torch.aten._cdist_forward %a, %b, %inf, %mode : !torch.vtensor<[3,4],f64>, !torch.vtensor<[2,4],f64>, !torch.float, !torch.none -> !torch.vtensor<[3,2],f64>
  %1 = torch.aten._cdist_forward %a, %b, %zero, %mode : !torch.vtensor<[3,4],f64>, !torch.vtensor<[2,4],f64>, !torch.float, !torch.none -> !torch.vtensor<[3,2],f64>
  %2 = torch.aten._cdist_forward %a, %b, %one, %mode : !torch.vtensor<[3,4],f64>, !torch.vtensor<[2,4],f64>, !torch.float, !torch.none -> !torch.vtensor<[3,2],f64>
  %3 = torch.aten._cdist_forward %a, %b, %three, %mode : !torch.vtensor<[3,4],f64>, !torch.vtensor<[2,4],f64>, !torch.float, !torch.none -> !torch.vtensor<[3,2],f64>
  return %0, %1, %2, %3 : !torch.vtensor<[3,2],f64>, !torch.vtensor<[3,2],f64>, !torch.vtensor<[3,2],f64>, !torch.vtensor<[3,2],f64>
}

// -----

// A run-time p or an unknown size leaves the op (the contract verifier
// then reports it).
// CHECK-LABEL: func.func @cdist_not_decomposed(
// CHECK: torch.aten._cdist_forward %{{.*}}, %{{.*}}, %arg2,
// CHECK: torch.aten._cdist_forward
func.func @cdist_not_decomposed(%a: !torch.vtensor<[3,4],f32>, %b: !torch.vtensor<[?,4],f32>, %p: !torch.float) -> (!torch.vtensor<[3,2],f32>, !torch.vtensor<[3,?],f32>) {
  %two = torch.constant.float 2.000000e+00
  %mode = torch.constant.none
  %c = torch.constant.int 2
  %n = torch.constant.int 4
  %0 = torch.aten._cdist_forward %a, %a, %p, %mode : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32>, !torch.float, !torch.none -> !torch.vtensor<[3,2],f32>
  %1 = torch.aten._cdist_forward %a, %b, %two, %mode : !torch.vtensor<[3,4],f32>, !torch.vtensor<[?,4],f32>, !torch.float, !torch.none -> !torch.vtensor<[3,?],f32>
  return %0, %1 : !torch.vtensor<[3,2],f32>, !torch.vtensor<[3,?],f32>
}

// -----

// pdist: the [N, N] distances of the rows, flattened and gathered at the
// constant indices i * N + j of the pairs i < j, in row-major order.
// CHECK-LABEL: func.func @pdist(
// CHECK: %[[IDX:.*]] = torch.vtensor.literal(dense<[1, 2, 5]> : tensor<3xi64>) : !torch.vtensor<[3],si64>
// CHECK: torch.aten.sub.Tensor %{{.*}}, %{{.*}}, %{{.*}} : !torch.vtensor<[3,1,2],f32>, !torch.vtensor<[1,3,2],f32>, !torch.int -> !torch.vtensor<[3,3,2],f32>
// CHECK: %[[FLAT:.*]] = torch.aten.view %{{.*}}, %{{.*}} : !torch.vtensor<[3,3],f32>, !torch.list<int> -> !torch.vtensor<[9],f32>
// CHECK: torch.aten.index_select %[[FLAT]], %{{.*}}, %[[IDX]] : !torch.vtensor<[9],f32>, !torch.int, !torch.vtensor<[3],si64> -> !torch.vtensor<[3],f32>
func.func @pdist(%a: !torch.vtensor<[3,2],f32>) -> !torch.vtensor<[3],f32> {
  %p = torch.constant.float 2.000000e+00
  %0 = torch.aten._pdist_forward %a, %p : !torch.vtensor<[3,2],f32>, !torch.float -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
