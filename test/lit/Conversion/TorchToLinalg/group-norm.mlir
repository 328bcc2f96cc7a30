// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// native_group_norm in the forms a backend keeps (isRowGroupNorm), group
// by group: x [2, 4, 3] as rows [2, 2, 6] (two groups of two channels of 3),
// one task per (n, g): the group's sum, its squared deviations, then per
// channel c of the group scale = rstd * w[c], shift = b[c] - mean * scale,
// and y = x * scale + shift over the channel's positions.
// CHECK-LABEL: func.func @group_norm(
// CHECK: %[[ROWS:.*]] = tensor.expand_shape %{{.*}} output_shape [2, 2, 6] : tensor<24xf32> into tensor<2x2x6xf32>
// CHECK: scf.forall (%[[N:.*]], %[[G:.*]]) in (2, 2)
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: arith.addf {{.*}} fastmath<reassoc>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} -> (f32)
// CHECK: arith.mulf
// CHECK: arith.addf {{.*}} fastmath<reassoc>
// CHECK: %[[RSTD:.*]] = math.rsqrt
// CHECK: %[[FIRST:.*]] = arith.muli %[[G]], %[[C2:.*]] : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[C2]] step
// CHECK: %[[CH:.*]] = arith.addi %[[FIRST]], %[[C]] : index
// CHECK: %[[W:.*]] = tensor.extract %{{.*}}[%[[CH]]] : tensor<4xf32>
// CHECK: %[[SCALE:.*]] = arith.mulf %[[RSTD]], %[[W]] : f32
// CHECK: %[[MS:.*]] = arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK: %[[NEG:.*]] = arith.negf %[[MS]] : f32
// CHECK: %[[B:.*]] = tensor.extract %{{.*}}[%[[CH]]] : tensor<4xf32>
// CHECK: %[[SHIFT:.*]] = arith.addf %[[B]], %[[NEG]] : f32
// CHECK: %[[START:.*]] = arith.muli %[[C]], %[[C3:.*]] : index
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %[[C3]] step
// CHECK: %[[IV:.*]] = arith.addi %[[START]], %[[P]] : index
// CHECK: %[[X:.*]] = tensor.extract %[[ROWS]][%[[N]], %[[G]], %[[IV]]] : tensor<2x2x6xf32>
// CHECK: %[[XS:.*]] = arith.mulf %[[X]], %[[SCALE]] : f32
// CHECK: %[[Y:.*]] = arith.addf %[[XS]], %[[SHIFT]] : f32
// CHECK: tensor.insert %[[Y]] into %{{.*}}[%[[IV]]] : tensor<6xf32>
// CHECK: tensor.parallel_insert_slice
// CHECK: tensor.expand_shape %{{.*}} output_shape [2, 4, 3] : tensor<24xf32> into tensor<2x4x3xf32>
func.func @group_norm(%x: !torch.vtensor<[2,4,3],f32>, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4,3],f32> {
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %w, %b, %int2, %int4, %int3, %int2, %eps : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>
  return %0#0 : !torch.vtensor<[2,4,3],f32>
}

// -----

// float16 without weight and bias: the moments and y in float32 (extf of
// each element), y rounded once; scale is rstd itself, shift -mean * rstd.
// CHECK-LABEL: func.func @group_norm_f16(
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (1, 3)
// CHECK: %[[RSTD:.*]] = math.rsqrt %{{.*}} : f32
// CHECK-NOT: tensor.extract %{{.*}} : tensor<6xf16>
// CHECK: %[[MS:.*]] = arith.mulf %{{.*}}, %[[RSTD]] : f32
// CHECK-NEXT: %[[SHIFT:.*]] = arith.negf %[[MS]] : f32
// CHECK: %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: %[[XS:.*]] = arith.mulf %[[X]], %[[RSTD]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[XS]], %[[SHIFT]] : f32
// CHECK-NEXT: arith.truncf %[[Y]] : f32 to f16
func.func @group_norm_f16(%x: !torch.vtensor<[1,6,2,2],f16>) -> !torch.vtensor<[1,6,2,2],f16> {
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

// The statistics used: not a form this lowering takes (the contract
// decomposes it first), so it fails with the reason.
func.func @stats_used(%x: !torch.vtensor<[2,4,3],f32>) -> !torch.vtensor<[2,2],f32> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  // expected-error @+1 {{'torch.aten.native_group_norm' could not be lowered to linalg-on-tensors: not a form lowered group by group (the decomposition takes the others)}}
  %0:3 = torch.aten.native_group_norm %x, %none, %none, %int2, %int4, %int3, %int2, %eps : !torch.vtensor<[2,4,3],f32>, !torch.none, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>
  return %0#1 : !torch.vtensor<[2,2],f32>
}
