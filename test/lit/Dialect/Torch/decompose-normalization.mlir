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
// [N, C, HxW] view, in float32 for bfloat16. Where PyTorch's CPU kernel
// stores a statistic in bfloat16 it is rounded (_to_copy to bf16 and back):
// the mean, the sum of squared deviations and its quotient by the count (8),
// invstd; y normalizes with the rounded mean and invstd, which are returned
// (in float32, the result type). The running stats take momentum * batch +
// (1 - momentum) * running with momentum and 1 - momentum as bfloat16
// numbers (0.1 -> 0.10009765625, 0.8984375), each product of the mean's
// update rounded; the variance's is sum / 7 (unbiased), rounded.
// CHECK-LABEL: func.func @batch_norm_training(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[2,3,4],bf16>, %{{.*}}: !torch.vtensor<[3],bf16>, %{{.*}}: !torch.vtensor<[3],bf16>, %[[RM:.*]]: !torch.vtensor<[3],bf16>, %[[RV:.*]]: !torch.vtensor<[3],bf16>)
// CHECK-DAG: %[[SEVEN:.*]] = torch.constant.float 7.000000e+00
// CHECK-DAG: %[[TAKE:.*]] = torch.constant.float 0.10009765625
// CHECK-DAG: %[[KEEP:.*]] = torch.constant.float 0.8984375
// CHECK-DAG: %[[EIGHT:.*]] = torch.constant.float 8.000000e+00
// CHECK: %[[XF:.*]] = torch.aten._to_copy %[[X]], %{{.*}} -> !torch.vtensor<[2,3,4],f32>
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[XF]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[MEAN:.*]] = torch.aten.div.Scalar %[[SUM]], %int8
// CHECK: %[[DEV:.*]] = torch.aten.sub.Tensor %[[XF]], %[[MEAN]], %int1
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor %[[DEV]], %[[DEV]]
// CHECK: %[[SS:.*]] = torch.aten.sum.dim_IntList %[[SQ]]
// CHECK: %[[SS16:.*]] = torch.aten._to_copy %[[SS]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[SSR:.*]] = torch.aten._to_copy %[[SS16]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[MEAN16:.*]] = torch.aten._to_copy %[[MEAN]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[MEANR:.*]] = torch.aten._to_copy %[[MEAN16]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[VAR:.*]] = torch.aten.div.Scalar %[[SSR]], %[[EIGHT]]
// CHECK: %[[VAR16:.*]] = torch.aten._to_copy %[[VAR]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[VARR:.*]] = torch.aten._to_copy %[[VAR16]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[SHIFT:.*]] = torch.aten.add.Scalar %[[VARR]]
// CHECK: %[[ROOT:.*]] = torch.aten.sqrt %[[SHIFT]]
// CHECK: %[[INV:.*]] = torch.aten.reciprocal %[[ROOT]]
// CHECK: %[[INV16:.*]] = torch.aten._to_copy %[[INV]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[INVR:.*]] = torch.aten._to_copy %[[INV16]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[CEN:.*]] = torch.aten.sub.Tensor %[[XF]], %[[MEANR]], %int1
// CHECK: torch.aten.mul.Tensor %[[CEN]], %[[INVR]]
// CHECK: %[[RMF:.*]] = torch.aten._to_copy %[[RM]]
// CHECK: %[[RMV:.*]] = torch.aten.view %[[RMF]]
// CHECK: %[[RMK:.*]] = torch.aten.mul.Scalar %[[RMV]], %[[KEEP]]
// CHECK: %[[RMK16:.*]] = torch.aten._to_copy %[[RMK]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[RMKR:.*]] = torch.aten._to_copy %[[RMK16]]
// CHECK: %[[MT:.*]] = torch.aten.mul.Scalar %[[MEANR]], %[[TAKE]]
// CHECK: %[[MT16:.*]] = torch.aten._to_copy %[[MT]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[MTR:.*]] = torch.aten._to_copy %[[MT16]]
// CHECK: %[[NEWRM:.*]] = torch.aten.add.Tensor %[[MTR]], %[[RMKR]], %int1
// CHECK: %[[UNB:.*]] = torch.aten.div.Scalar %[[SSR]], %[[SEVEN]]
// CHECK: %[[UNB16:.*]] = torch.aten._to_copy %[[UNB]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[UNBR:.*]] = torch.aten._to_copy %[[UNB16]]
// CHECK: %[[RVK:.*]] = torch.aten.mul.Scalar %{{.*}}, %[[KEEP]]
// CHECK: %[[RVK16:.*]] = torch.aten._to_copy %[[RVK]], %{{.*}} -> !torch.vtensor<[1,3,1],bf16>
// CHECK: %[[RVKR:.*]] = torch.aten._to_copy %[[RVK16]]
// CHECK: %[[VT:.*]] = torch.aten.mul.Scalar %[[UNBR]], %[[TAKE]]
// CHECK-NOT: torch.aten._to_copy %[[VT]]
// CHECK: %[[NEWRV:.*]] = torch.aten.add.Tensor %[[VT]], %[[RVKR]], %int1
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
func.func @batch_norm_training(%x: !torch.vtensor<[2,3,4],bf16>, %w: !torch.vtensor<[3],bf16>, %b: !torch.vtensor<[3],bf16>, %rm: !torch.vtensor<[3],bf16>, %rv: !torch.vtensor<[3],bf16>) -> (!torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>) {
  %true = torch.constant.bool true
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:5 = torch.aten._native_batch_norm_legit_functional %x, %w, %b, %rm, %rv, %true, %mom, %eps : !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>
  return %0#0, %0#1, %0#2, %0#3, %0#4 : !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>
}

// -----

// float16 rounds only the saved mean and invstd: the sum of squared
// deviations, the variance and the running-stat update stay in float32
// (as PyTorch's CPU kernel keeps them), so momentum is 0.1 as a float.
// CHECK-LABEL: func.func @batch_norm_training_f16(
// CHECK-DAG: %[[TAKE:.*]] = torch.constant.float 0.10000000149011612
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor
// CHECK: %[[SS:.*]] = torch.aten.sum.dim_IntList %[[SQ]], %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK-NOT: torch.aten._to_copy %[[SS]]
// CHECK: %[[MEAN16:.*]] = torch.aten._to_copy %{{.*}} -> !torch.vtensor<[1,3,1],f16>
// CHECK: %[[VAR:.*]] = torch.aten.div.Scalar %[[SS]]
// CHECK-NOT: torch.aten._to_copy %[[VAR]]
// CHECK: %[[SHIFT:.*]] = torch.aten.add.Scalar %[[VAR]]
// CHECK: %[[INV:.*]] = torch.aten.reciprocal
// CHECK: torch.aten._to_copy %[[INV]], %{{.*}} -> !torch.vtensor<[1,3,1],f16>
// CHECK: %[[MT:.*]] = torch.aten.mul.Scalar %{{.*}}, %[[TAKE]]
// CHECK-NOT: torch.aten._to_copy %[[MT]]
// CHECK: torch.aten.add.Tensor %[[MT]]
func.func @batch_norm_training_f16(%x: !torch.vtensor<[2,3,4],f16>, %rm: !torch.vtensor<[3],f16>, %rv: !torch.vtensor<[3],f16>) -> (!torch.vtensor<[2,3,4],f16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f16>, !torch.vtensor<[3],f16>) {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:5 = torch.aten._native_batch_norm_legit_functional %x, %none, %none, %rm, %rv, %true, %mom, %eps : !torch.vtensor<[2,3,4],f16>, !torch.none, !torch.none, !torch.vtensor<[3],f16>, !torch.vtensor<[3],f16>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,4],f16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f16>, !torch.vtensor<[3],f16>
  return %0#0, %0#1, %0#2, %0#3, %0#4 : !torch.vtensor<[2,3,4],f16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f16>, !torch.vtensor<[3],f16>
}

// -----

// A bfloat16 input with float32 parameters (PyTorch's "mixed type"): the
// kernel keeps every statistic in float32, so nothing rounds to bfloat16
// but y.
// CHECK-LABEL: func.func @batch_norm_training_mixed(
// CHECK-NOT: -> !torch.vtensor<[1,3,1],bf16>
// CHECK: torch.aten._to_copy %{{.*}} -> !torch.vtensor<[2,3,4],bf16>
// CHECK-NOT: -> !torch.vtensor<[1,3,1],bf16>
// CHECK: return
func.func @batch_norm_training_mixed(%x: !torch.vtensor<[2,3,4],bf16>, %w: !torch.vtensor<[3],f32>, %rm: !torch.vtensor<[3],f32>, %rv: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:5 = torch.aten._native_batch_norm_legit_functional %x, %w, %none, %rm, %rv, %true, %mom, %eps : !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.none, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
  return %0#0, %0#1, %0#2, %0#3, %0#4 : !torch.vtensor<[2,3,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
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

// -----

// Unknown batch and spatial sizes: x views to [N, C, H*W] and back through
// aten.size.int, and the count N*H*W divides as a 0-d tensor rounded to
// bfloat16 (the known-count form above divides by a rounded constant); the
// running variance's N*H*W - 1 likewise.
// CHECK-LABEL: func.func @batch_norm_training_unknown_sizes(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[?,3,?,5],bf16>
// CHECK-DAG: %[[N:.*]] = torch.aten.size.int %[[X]], %int0
// CHECK-DAG: %[[H:.*]] = torch.aten.size.int %[[X]], %int2
// CHECK: %[[HW:.*]] = torch.aten.mul.int %int5, %{{.*}} : !torch.int, !torch.int -> !torch.int
// CHECK: %[[SIZES:.*]] = torch.prim.ListConstruct %[[N]], %int3, %[[HW]] :
// CHECK: %[[VIEW:.*]] = torch.aten.view %{{.*}}, %[[SIZES]] : !torch.vtensor<[?,3,?,5],f32>, !torch.list<int> -> !torch.vtensor<[?,3,?],f32>
// CHECK: %[[N5:.*]] = torch.aten.mul.int %int5, %{{.*}} : !torch.int, !torch.int -> !torch.int
// CHECK: %[[NHW:.*]] = torch.aten.mul.int %[[N5]], %{{.*}} : !torch.int, !torch.int -> !torch.int
// CHECK: %[[COUNT:.*]] = torch.aten.scalar_tensor %[[NHW]], %int15, {{.*}} -> !torch.vtensor<[],bf16>
// CHECK: %[[WIDE:.*]] = torch.aten._to_copy %[[COUNT]], %int6, {{.*}} -> !torch.vtensor<[],f32>
// CHECK: %[[VAR:.*]] = torch.aten.div.Tensor %{{.*}}, %[[WIDE]] : !torch.vtensor<[1,3,1],f32>, !torch.vtensor<[],f32> -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[BACK:.*]] = torch.prim.ListConstruct %[[N]], %int3, %[[H]], %int5 :
// CHECK: torch.aten.view %{{.*}}, %[[BACK]] : !torch.vtensor<[?,3,?],f32>, !torch.list<int> -> !torch.vtensor<[?,3,?,5],f32>
// CHECK: %[[UNBIASED:.*]] = torch.aten.sub.int %[[NHW]], %int1
// CHECK: torch.aten.scalar_tensor %[[UNBIASED]], %int15, {{.*}} -> !torch.vtensor<[],bf16>
// CHECK-NOT: torch.aten._native_batch_norm_legit
func.func @batch_norm_training_unknown_sizes(%x: !torch.vtensor<[?,3,?,5],bf16>, %rm: !torch.vtensor<[3],bf16>, %rv: !torch.vtensor<[3],bf16>) -> (!torch.vtensor<[?,3,?,5],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>) {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:5 = torch.aten._native_batch_norm_legit_functional %x, %none, %none, %rm, %rv, %true, %m, %eps : !torch.vtensor<[?,3,?,5],bf16>, !torch.none, !torch.none, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[?,3,?,5],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>
  return %0#0, %0#1, %0#2, %0#3, %0#4 : !torch.vtensor<[?,3,?,5],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>
}
