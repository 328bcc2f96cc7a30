// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="float64=false" -split-input-file | FileCheck %s --check-prefix=F32

// native_group_norm: x viewed as [N, group, C/group, HxW]; the moments
// are a native_layer_norm over the last two dims of that view, in float32
// with or without float64 (as PyTorch's CPU kernel); x is normalized with
// them, (x - mean) * rstd (the layer norm's own result unused, so that the
// normalization and the affine are one elementwise op), then the
// per-channel weight and bias, viewed [group, C/group, 1], in the same
// view.
// CHECK-LABEL: func.func @group_norm(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[2,4,3],f32>, %[[W:.*]]: !torch.vtensor<[4],f32>, %[[B:.*]]: !torch.vtensor<[4],f32>)
// CHECK-NOT: f64
// CHECK: %[[G:.*]] = torch.aten.view %[[X]], %{{.*}} -> !torch.vtensor<[2,2,2,3],f32>
// CHECK: %[[SHAPE:.*]] = torch.prim.ListConstruct %int2, %int3
// CHECK: %[[LN:.*]], %[[MEAN:.*]], %[[RSTD:.*]] = torch.aten.native_layer_norm %[[G]], %[[SHAPE]], %none, %none, %{{.*}} -> !torch.vtensor<[2,2,2,3],f32>, !torch.vtensor<[2,2,1,1],f32>, !torch.vtensor<[2,2,1,1],f32>
// CHECK: %[[D:.*]] = torch.aten.sub.Tensor %[[G]], %[[MEAN]], %int1
// CHECK: %[[Y:.*]] = torch.aten.mul.Tensor %[[D]], %[[RSTD]]
// CHECK: %[[WV:.*]] = torch.aten.view %[[W]], %{{.*}} -> !torch.vtensor<[2,2,1],f32>
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Tensor %[[Y]], %[[WV]]
// CHECK: %[[BV:.*]] = torch.aten.view %[[B]], %{{.*}} -> !torch.vtensor<[2,2,1],f32>
// CHECK: %[[AFF:.*]] = torch.aten.add.Tensor %[[SCALED]], %[[BV]], %int1
// CHECK: %[[OUT:.*]] = torch.aten.view %[[AFF]], %{{.*}} -> !torch.vtensor<[2,4,3],f32>
// CHECK: %[[MV:.*]] = torch.aten.view %[[MEAN]], %{{.*}} -> !torch.vtensor<[2,2],f32>
// CHECK: %[[RV:.*]] = torch.aten.view %[[RSTD]], %{{.*}} -> !torch.vtensor<[2,2],f32>
// CHECK: return %[[OUT]], %[[MV]], %[[RV]]
// F32-LABEL: func.func @group_norm(
// F32-NOT: f64
// F32: torch.aten.native_layer_norm %{{.*}} : !torch.vtensor<[2,2,2,3],f32>
// F32-NOT: f64
// F32: return
func.func @group_norm(%x: !torch.vtensor<[2,4,3],f32>, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>) {
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %w, %b, %int2, %int4, %int3, %int2, %eps : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>
  return %0#0, %0#1, %0#2 : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>
}

// -----

// float16 without weight and bias: computed in float32, spatial dims
// flattened into the groups; normalized with the statistics, no affine.
// CHECK-LABEL: func.func @group_norm_f16(
// CHECK: torch.aten._to_copy %{{.*}} -> !torch.vtensor<[1,6,2,2],f32>
// CHECK: torch.aten.view %{{.*}} -> !torch.vtensor<[1,3,2,4],f32>
// CHECK: torch.aten.native_layer_norm %{{.*}} -> !torch.vtensor<[1,3,2,4],f32>, !torch.vtensor<[1,3,1,1],f32>, !torch.vtensor<[1,3,1,1],f32>
// CHECK: torch.aten.sub.Tensor
// CHECK: torch.aten.mul.Tensor
// CHECK-NOT: torch.aten.mul.Tensor
// CHECK: torch.aten._to_copy %{{.*}} -> !torch.vtensor<[1,6,2,2],f16>
func.func @group_norm_f16(%x: !torch.vtensor<[1,6,2,2],f16>) -> (!torch.vtensor<[1,6,2,2],f16>, !torch.vtensor<[1,3],f16>, !torch.vtensor<[1,3],f16>) {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int6 = torch.constant.int 6
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %none, %none, %int1, %int6, %int4, %int3, %eps : !torch.vtensor<[1,6,2,2],f16>, !torch.none, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[1,6,2,2],f16>, !torch.vtensor<[1,3],f16>, !torch.vtensor<[1,3],f16>
  return %0#0, %0#1, %0#2 : !torch.vtensor<[1,6,2,2],f16>, !torch.vtensor<[1,3],f16>, !torch.vtensor<[1,3],f16>
}

// -----

// Channels not divisible by the groups, or a run-time group: not
// decomposed (the contract verifier reports the op).
// CHECK-LABEL: func.func @group_norm_not_decomposed(
// CHECK: torch.aten.native_group_norm
// CHECK: torch.aten.native_group_norm
func.func @group_norm_not_decomposed(%a: !torch.vtensor<[2,6,4],f32>, %g: !torch.int) -> (!torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,6,4],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %int4 = torch.constant.int 4
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %a, %none, %none, %int2, %int6, %int4, %int4, %eps : !torch.vtensor<[2,6,4],f32>, !torch.none, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>
  %1:3 = torch.aten.native_group_norm %a, %none, %none, %int2, %int6, %int4, %g, %eps : !torch.vtensor<[2,6,4],f32>, !torch.none, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],f32>
  return %0#0, %1#0 : !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,6,4],f32>
}

// -----

// Training batch norm: statistics per channel over dims 0 and 2 of the
// [N, C, HxW] view; bfloat16 normalizes with them rounded to bfloat16 (as
// PyTorch's kernel saves them) and returns them in float32; the running
// stats become momentum * batch + (1 - momentum) * running, the variance
// unbiased (8 elements: 0.1 * 8/7).
// CHECK-LABEL: func.func @batch_norm_training(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[2,3,4],bf16>, %{{.*}}: !torch.vtensor<[3],bf16>, %{{.*}}: !torch.vtensor<[3],bf16>, %[[RM:.*]]: !torch.vtensor<[3],bf16>, %[[RV:.*]]: !torch.vtensor<[3],bf16>)
// CHECK-DAG: %[[TAKE_VAR:.*]] = torch.constant.float 0.11428571428571428
// CHECK-DAG: %[[KEEP:.*]] = torch.constant.float 9.000000e-01
// CHECK-DAG: %[[TAKE:.*]] = torch.constant.float 1.000000e-01
// CHECK: %[[XF:.*]] = torch.aten._to_copy %[[X]], %{{.*}} -> !torch.vtensor<[2,3,4],f32>
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[XF]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[MEAN:.*]] = torch.aten.div.Scalar %[[SUM]], %int8
// CHECK: %[[VAR:.*]] = torch.aten.div.Scalar %{{.*}}, %int8
// CHECK: %[[INV:.*]] = torch.aten.reciprocal
// CHECK: %[[INV16:.*]] = torch.aten._to_copy %[[INV]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[INVS:.*]] = torch.aten._to_copy %[[INV16]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[MEAN16:.*]] = torch.aten._to_copy %[[MEAN]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[MEANS:.*]] = torch.aten._to_copy %[[MEAN16]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[CEN:.*]] = torch.aten.sub.Tensor %[[XF]], %[[MEANS]], %int1
// CHECK: torch.aten.mul.Tensor %[[CEN]], %[[INVS]]
// CHECK: %[[RMF:.*]] = torch.aten._to_copy %[[RM]]
// CHECK: %[[RMV:.*]] = torch.aten.view %[[RMF]]
// CHECK: %[[RMK:.*]] = torch.aten.mul.Scalar %[[RMV]], %[[KEEP]]
// CHECK: %[[MT:.*]] = torch.aten.mul.Scalar %[[MEAN]], %[[TAKE]]
// CHECK: torch.aten.add.Tensor %[[MT]], %[[RMK]], %int1
// CHECK: torch.aten.mul.Scalar %[[VAR]], %[[TAKE_VAR]]
func.func @batch_norm_training(%x: !torch.vtensor<[2,3,4],bf16>, %w: !torch.vtensor<[3],bf16>, %b: !torch.vtensor<[3],bf16>, %rm: !torch.vtensor<[3],bf16>, %rv: !torch.vtensor<[3],bf16>) -> (!torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>) {
  %true = torch.constant.bool true
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:5 = torch.aten._native_batch_norm_legit_functional %x, %w, %b, %rm, %rv, %true, %mom, %eps : !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>
  return %0#0, %0#1, %0#2, %0#3, %0#4 : !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>
}

// -----

// training=False normalizes with the running stats, returns them
// unchanged, and the saved statistics are empty.
// CHECK-LABEL: func.func @batch_norm_functional_eval(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[2,3],f64>, %[[RM:.*]]: !torch.vtensor<[3],f64>, %[[RV:.*]]: !torch.vtensor<[3],f64>)
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: %[[M:.*]] = torch.aten.view %[[RM]], %{{.*}} -> !torch.vtensor<[1,3,1],f64>
// CHECK: %[[V:.*]] = torch.aten.view %[[RV]], %{{.*}} -> !torch.vtensor<[1,3,1],f64>
// CHECK: torch.aten.add.Scalar %[[V]]
// CHECK: %[[E1:.*]] = torch.aten.empty.memory_format %{{.*}} -> !torch.vtensor<[0],f64>
// CHECK: %[[E2:.*]] = torch.aten.empty.memory_format %{{.*}} -> !torch.vtensor<[0],f64>
// CHECK: return %{{.*}}, %[[E1]], %[[E2]], %[[RM]], %[[RV]]
func.func @batch_norm_functional_eval(%x: !torch.vtensor<[2,3],f64>, %rm: !torch.vtensor<[3],f64>, %rv: !torch.vtensor<[3],f64>) -> (!torch.vtensor<[2,3],f64>, !torch.vtensor<[0],f64>, !torch.vtensor<[0],f64>, !torch.vtensor<[3],f64>, !torch.vtensor<[3],f64>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:5 = torch.aten._native_batch_norm_legit_functional %x, %none, %none, %rm, %rv, %false, %mom, %eps : !torch.vtensor<[2,3],f64>, !torch.none, !torch.none, !torch.vtensor<[3],f64>, !torch.vtensor<[3],f64>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3],f64>, !torch.vtensor<[0],f64>, !torch.vtensor<[0],f64>, !torch.vtensor<[3],f64>, !torch.vtensor<[3],f64>
  return %0#0, %0#1, %0#2, %0#3, %0#4 : !torch.vtensor<[2,3],f64>, !torch.vtensor<[0],f64>, !torch.vtensor<[0],f64>, !torch.vtensor<[3],f64>, !torch.vtensor<[3],f64>
}

// -----

// _native_batch_norm_legit.no_stats: the batch statistics only; with
// training=False (no stats to use) or a run-time momentum it stays.
// CHECK-LABEL: func.func @batch_norm_no_stats(
// CHECK: torch.aten.sum.dim_IntList %{{.*}} -> !torch.vtensor<[1,3,1],f64>
// CHECK: torch.aten._native_batch_norm_legit.no_stats %{{.*}}, %false,
// CHECK: torch.aten._native_batch_norm_legit.no_stats %{{.*}}, %true, %arg1,
func.func @batch_norm_no_stats(%x: !torch.vtensor<[2,3,5],f32>, %mom: !torch.float) -> (!torch.vtensor<[2,3,5],f32>, !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[2,3,5],f32>) {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten._native_batch_norm_legit.no_stats %x, %none, %none, %true, %m, %eps : !torch.vtensor<[2,3,5],f32>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
  %1:3 = torch.aten._native_batch_norm_legit.no_stats %x, %none, %none, %false, %m, %eps : !torch.vtensor<[2,3,5],f32>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
  %2:3 = torch.aten._native_batch_norm_legit.no_stats %x, %none, %none, %true, %mom, %eps : !torch.vtensor<[2,3,5],f32>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
  return %0#0, %1#0, %2#0 : !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[2,3,5],f32>
}
