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
