// RUN: torch2mlir-opt %s -torch-decompose-complex-ops | FileCheck %s
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops=float64=false | FileCheck %s --check-prefix=NO64

// var: two passes (mean, then the mean square of the deviations) divided by
// N - correction. With float64 (the default) every float dtype computes in
// float64 and rounds once, as PyTorch's Welford kernel accumulates in
// double; without (TOSA), float32 stays float32 and float16 widens to it.

// CHECK-LABEL: func.func @var_f32(
// CHECK: %[[WIDE:.*]] = torch.aten._to_copy %arg0, %int7{{.*}} -> !torch.vtensor<[3,4],f64>
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[WIDE]], {{.*}} -> !torch.vtensor<[3,1],f64>
// CHECK: %[[MEAN:.*]] = torch.aten.div.Scalar %[[SUM]], %int4
// CHECK: %[[DEV:.*]] = torch.aten.sub.Tensor %[[WIDE]], %[[MEAN]]
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor %[[DEV]], %[[DEV]]
// CHECK: %[[SS:.*]] = torch.aten.sum.dim_IntList %[[SQ]], {{.*}} -> !torch.vtensor<[3],f64>
// CHECK: %[[VAR:.*]] = torch.aten.div.Scalar %[[SS]], %{{.*}} :
// CHECK: %[[OUT:.*]] = torch.aten._to_copy %[[VAR]], %int6{{.*}} -> !torch.vtensor<[3],f32>
// CHECK: return %[[OUT]]
// NO64-LABEL: func.func @var_f32(
// NO64-NOT: _to_copy
// NO64: torch.aten.sum.dim_IntList %arg0, {{.*}} -> !torch.vtensor<[3,1],f32>
// NO64-NOT: _to_copy
// NO64: return
func.func @var_f32(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.aten.var.correction %x, %dims, %none, %false : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.none, !torch.bool -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// CHECK-LABEL: func.func @var_f16(
// CHECK: torch.aten._to_copy %arg0, %int7{{.*}} -> !torch.vtensor<[3,4],f64>
// CHECK: torch.aten._to_copy %{{.*}}, %int5{{.*}} -> !torch.vtensor<[3],f16>
// NO64-LABEL: func.func @var_f16(
// NO64: torch.aten._to_copy %arg0, %int6{{.*}} -> !torch.vtensor<[3,4],f32>
// NO64: torch.aten._to_copy %{{.*}}, %int5{{.*}} -> !torch.vtensor<[3],f16>
func.func @var_f16(%x: !torch.vtensor<[3,4],f16>) -> !torch.vtensor<[3],f16> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.aten.var.correction %x, %dims, %none, %false : !torch.vtensor<[3,4],f16>, !torch.list<int>, !torch.none, !torch.bool -> !torch.vtensor<[3],f16>
  return %0 : !torch.vtensor<[3],f16>
}

// An unknown reduced size: the divisor max(N - correction, 0) is a 0-d
// tensor made from aten.size.int; a fractional correction needs a known N.
// CHECK-LABEL: func.func @var_unknown_size(
// CHECK: %[[SS:.*]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[3],f64>
// CHECK: %[[N:.*]] = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[3,?],f32>, !torch.int -> !torch.int
// CHECK: %[[SHIFTED:.*]] = torch.aten.sub.int %[[N]], %int1 : !torch.int, !torch.int -> !torch.int
// CHECK: %[[T:.*]] = torch.aten.scalar_tensor %[[SHIFTED]], %int7, %none, %none, %none : !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[],f64>
// CHECK: %[[DIVISOR:.*]] = torch.aten.clamp %[[T]], %{{.*}}, %none : !torch.vtensor<[],f64>, !torch.float, !torch.none -> !torch.vtensor<[],f64>
// CHECK: %[[VAR:.*]] = torch.aten.div.Tensor %[[SS]], %[[DIVISOR]] : !torch.vtensor<[3],f64>, !torch.vtensor<[],f64> -> !torch.vtensor<[3],f64>
// CHECK: torch.aten._to_copy %[[VAR]], %int6{{.*}} -> !torch.vtensor<[3],f32>
// CHECK: torch.aten.var.correction %arg0, %{{.*}}, %{{.*}}, %false : !torch.vtensor<[3,?],f32>, !torch.list<int>, !torch.float,
// NO64-LABEL: func.func @var_unknown_size(
// NO64: torch.aten.scalar_tensor %{{.*}}, %int6, {{.*}} -> !torch.vtensor<[],f32>
func.func @var_unknown_size(%x: !torch.vtensor<[3,?],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) {
  %int1 = torch.constant.int 1
  %half = torch.constant.float 5.000000e-01
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %0 = torch.aten.var.correction %x, %dims, %int1, %false : !torch.vtensor<[3,?],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[3],f32>
  %1 = torch.aten.var.correction %x, %dims, %half, %false : !torch.vtensor<[3,?],f32>, !torch.list<int>, !torch.float, !torch.bool -> !torch.vtensor<[3],f32>
  return %0, %1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
}
