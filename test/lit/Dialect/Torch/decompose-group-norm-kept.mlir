// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="legal-ops=aten.native_group_norm" -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s --check-prefix=NOTKEPT

// A backend that keeps native_group_norm (legal-ops) gets the inference
// forms it lowers group by group (isRowGroupNorm) whole: only the
// normalized result used, float32/float16/bfloat16, weight and bias of the
// input's dtype or none.
// CHECK-LABEL: func.func @kept(
// CHECK: %[[Y:.*]], %{{.*}}, %{{.*}} = torch.aten.native_group_norm %arg0, %arg1, %arg2
// CHECK-NOT: torch.aten.native_layer_norm
// CHECK: return %[[Y]]
// NOTKEPT-LABEL: func.func @kept(
// NOTKEPT: torch.aten.native_layer_norm
// NOTKEPT-NOT: torch.aten.native_group_norm
func.func @kept(%x: !torch.vtensor<[2,4,3],f32>, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4,3],f32> {
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %w, %b, %int2, %int4, %int3, %int2, %eps : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>
  return %0#0 : !torch.vtensor<[2,4,3],f32>
}

// -----

// float16 without weight and bias: kept.
// CHECK-LABEL: func.func @kept_f16(
// CHECK: torch.aten.native_group_norm %arg0, %none, %none
// CHECK-NOT: torch.aten.native_layer_norm
func.func @kept_f16(%x: !torch.vtensor<[1,6,2,2],f16>) -> !torch.vtensor<[1,6,2,2],f16> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int6 = torch.constant.int 6
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %none, %none, %int1, %int6, %int4, %int3, %eps : !torch.vtensor<[1,6,2,2],f16>, !torch.none, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[1,6,2,2],f16>, !torch.vtensor<[1,3],f16>, !torch.vtensor<[1,3],f16>
  return %0#0 : !torch.vtensor<[1,6,2,2],f16>
}

// -----

// The statistics used (training's backward reads them): decomposed.
// CHECK-LABEL: func.func @stats_used(
// CHECK: torch.aten.native_layer_norm
// CHECK-NOT: torch.aten.native_group_norm
func.func @stats_used(%x: !torch.vtensor<[2,4,3],f32>) -> (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %none, %none, %int2, %int4, %int3, %int2, %eps : !torch.vtensor<[2,4,3],f32>, !torch.none, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>
  return %0#0, %0#1 : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>
}

// -----

// A weight of another dtype than the input's, and a float64 input:
// decomposed.
// CHECK-LABEL: func.func @mixed_weight(
// CHECK: torch.aten.native_layer_norm
// CHECK-NOT: torch.aten.native_group_norm
func.func @mixed_weight(%x: !torch.vtensor<[2,4,3],f16>, %w: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4,3],f16> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %w, %none, %int2, %int4, %int3, %int2, %eps : !torch.vtensor<[2,4,3],f16>, !torch.vtensor<[4],f32>, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,4,3],f16>, !torch.vtensor<[2,2],f16>, !torch.vtensor<[2,2],f16>
  return %0#0 : !torch.vtensor<[2,4,3],f16>
}

// -----

// CHECK-LABEL: func.func @float64(
// CHECK: torch.aten.native_layer_norm
// CHECK-NOT: torch.aten.native_group_norm
func.func @float64(%x: !torch.vtensor<[2,4,3],f64>) -> !torch.vtensor<[2,4,3],f64> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %none, %none, %int2, %int4, %int3, %int2, %eps : !torch.vtensor<[2,4,3],f64>, !torch.none, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,4,3],f64>, !torch.vtensor<[2,2],f64>, !torch.vtensor<[2,2],f64>
  return %0#0 : !torch.vtensor<[2,4,3],f64>
}
