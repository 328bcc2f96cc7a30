// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="legal-ops=aten.zeros,aten.where.ScalarOther" -split-input-file | FileCheck %s --check-prefix=LEGAL

// zeros(size) = full(size, 0) and ones(size) = full(size, 1), keeping the
// dtype argument and the result type.

// CHECK-LABEL: func.func @zeros_ones(
// CHECK-DAG: %[[ZERO:.*]] = torch.constant.int 0
// CHECK-DAG: %[[ONE:.*]] = torch.constant.int 1
// CHECK: torch.aten.full %[[SIZE:.*]], %[[ZERO]], %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
// CHECK: torch.aten.full %[[SIZE]], %[[ONE]], %int4, %none, %none, %none : !torch.list<int>, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],si64>
// CHECK-NOT: torch.aten.zeros
// CHECK-NOT: torch.aten.ones
// LEGAL-LABEL: func.func @zeros_ones(
// LEGAL: torch.aten.zeros
// LEGAL: torch.aten.full
func.func @zeros_ones() -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %size = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.zeros %size, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.ones %size, %int4, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],si64>
  return %0, %1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>
}

// -----

// arange(end) = arange.start_step(0, end, 1); arange.start(s, e) =
// arange.start_step(s, e, 1).

// CHECK-LABEL: func.func @arange(
// CHECK-SAME: %[[END:.*]]: !torch.float, %[[START:.*]]: !torch.int)
// CHECK-DAG: %[[ZERO:.*]] = torch.constant.int 0
// CHECK-DAG: %[[ONE:.*]] = torch.constant.int 1
// CHECK: torch.aten.arange.start_step %[[ZERO]], %[[END]], %[[ONE]], %none, %none, %none, %none : !torch.int, !torch.float, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
// CHECK: torch.aten.arange.start_step %[[START]], %int9, %[[ONE]], %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[6],si64>
// CHECK-NOT: torch.aten.arange %
// CHECK-NOT: torch.aten.arange.start %
func.func @arange(%end: !torch.float, %start: !torch.int) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[6],si64>) {
  %none = torch.constant.none
  %int9 = torch.constant.int 9
  %0 = torch.aten.arange %end, %none, %none, %none, %none : !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
  %1 = torch.aten.arange.start %start, %int9, %none, %none, %none, %none : !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[6],si64>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[6],si64>
}

// -----

// where.ScalarOther(c, x, s) = where.self(c, x, scalar_tensor(s, dtype=the
// result's)); where.ScalarSelf likewise with the scalar first. float32 is
// ScalarType 6.

// CHECK-LABEL: func.func @where_scalar(
// CHECK-SAME: %[[C:.*]]: !torch.vtensor<[3,4],i1>, %[[X:.*]]: !torch.vtensor<[3,4],si64>, %[[Y:.*]]: !torch.vtensor<[4],f32>)
// CHECK-DAG: %[[F32:.*]] = torch.constant.int 6
// CHECK-DAG: %[[HALF:.*]] = torch.constant.float 5.000000e-01
// CHECK: %[[S0:.*]] = torch.aten.scalar_tensor %[[HALF]], %[[F32]], %none{{.*}} -> !torch.vtensor<[],f32>
// CHECK: torch.aten.where.self %[[C]], %[[X]], %[[S0]] : !torch.vtensor<[3,4],i1>, !torch.vtensor<[3,4],si64>, !torch.vtensor<[],f32> -> !torch.vtensor<[3,4],f32>
// CHECK: %[[S1:.*]] = torch.aten.scalar_tensor %[[HALF]], %[[F32]], %none{{.*}} -> !torch.vtensor<[],f32>
// CHECK: torch.aten.where.self %[[C]], %[[S1]], %[[Y]] : !torch.vtensor<[3,4],i1>, !torch.vtensor<[],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[3,4],f32>
// CHECK-NOT: torch.aten.where.Scalar
// LEGAL-LABEL: func.func @where_scalar(
// LEGAL: torch.aten.where.ScalarOther
// LEGAL-NOT: torch.aten.where.ScalarSelf
func.func @where_scalar(%c: !torch.vtensor<[3,4],i1>, %x: !torch.vtensor<[3,4],si64>, %y: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32>) {
  %half = torch.constant.float 5.000000e-01
  %0 = torch.aten.where.ScalarOther %c, %x, %half : !torch.vtensor<[3,4],i1>, !torch.vtensor<[3,4],si64>, !torch.float -> !torch.vtensor<[3,4],f32>
  %1 = torch.aten.where.ScalarSelf %c, %half, %y : !torch.vtensor<[3,4],i1>, !torch.float, !torch.vtensor<[4],f32> -> !torch.vtensor<[3,4],f32>
  return %0, %1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32>
}

// -----

// min.other and max.other are minimum and maximum.

// CHECK-LABEL: func.func @min_max_other(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[3],f32>, %[[Y:.*]]: !torch.vtensor<[3],f32>)
// CHECK: torch.aten.minimum %[[X]], %[[Y]] : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
// CHECK: torch.aten.maximum %[[Y]], %[[X]] : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
func.func @min_max_other(%x: !torch.vtensor<[3],f32>, %y: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) {
  %0 = torch.aten.min.other %x, %y : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  %1 = torch.aten.max.other %y, %x : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %0, %1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
}
