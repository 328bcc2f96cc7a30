// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// LayerNormalization over the last two dims, with Mean and InvStdDev.
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[EPS:.*]] = torch.constant.float 0.10000000149011612
// CHECK: %[[SHAPE:.*]] = torch.prim.ListConstruct %int3, %int4
// CHECK: %[[Y:.*]], %[[MEAN:.*]], %[[RSTD:.*]] = torch.aten.native_layer_norm %arg0, %[[SHAPE]], %arg1, %arg2, %[[EPS]] : {{.*}} -> !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,1,1],f32>, !torch.vtensor<[2,1,1],f32>
// CHECK: return %[[Y]], %[[MEAN]], %[[RSTD]]
func.func @layer_norm(%x: !torch.vtensor<[2,3,4],f32>, %w: !torch.vtensor<[3,4],f32>, %b: !torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,1,1],f32>, !torch.vtensor<[2,1,1],f32>) attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0:3 = torch.operator "onnx.LayerNormalization"(%x, %w, %b) {torch.onnx.axis = 1 : si64, torch.onnx.epsilon = 1.000000e-01 : f32} : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,1,1],f32>, !torch.vtensor<[2,1,1],f32>)
  return %0#0, %0#1, %0#2 : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,1,1],f32>, !torch.vtensor<[2,1,1],f32>
}

// -----

// A float16 input is normalized in float32 (stash_type=1); a scale that
// only broadcasts to the normalized dims is applied after.
// CHECK-LABEL: func.func @layer_norm_f16_broadcast_scale
// CHECK: %[[X:.*]] = torch.aten.to.dtype %arg0, %int6, {{.*}} -> !torch.vtensor<[2,4],f32>
// CHECK: %[[Y:.*]], %{{.*}}, %{{.*}} = torch.aten.native_layer_norm %[[X]], %{{.*}}, %none, %none
// CHECK: %[[W:.*]] = torch.aten.to.dtype %arg1, %int6
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Tensor %[[Y]], %[[W]] : !torch.vtensor<[2,4],f32>, !torch.vtensor<[1],f32> -> !torch.vtensor<[2,4],f32>
// CHECK: torch.aten.to.dtype %[[SCALED]], %int5, {{.*}} -> !torch.vtensor<[2,4],f16>
func.func @layer_norm_f16_broadcast_scale(%x: !torch.vtensor<[2,4],f16>, %w: !torch.vtensor<[1],f16>) -> !torch.vtensor<[2,4],f16> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  %0 = torch.operator "onnx.LayerNormalization"(%x, %w) : (!torch.vtensor<[2,4],f16>, !torch.vtensor<[1],f16>) -> !torch.vtensor<[2,4],f16>
  return %0 : !torch.vtensor<[2,4],f16>
}

// -----

func.func @layer_norm_stash(%x: !torch.vtensor<[2,4],f32>, %w: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32> attributes {torch.onnx_meta.opset_version = 17 : si64} {
  // expected-error @+1 {{unsupported: stash_type other than 1 (float32)}}
  %0 = torch.operator "onnx.LayerNormalization"(%x, %w) {torch.onnx.stash_type = 11 : si64} : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// RMSNormalization: x * rsqrt(mean(x^2) + eps) * scale over the last dim.
// CHECK-LABEL: func.func @rms_norm
// CHECK: %[[EPS:.*]] = torch.constant.float 0.10000000149011612
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor %arg0, %arg0
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int2
// CHECK: %[[MS:.*]] = torch.aten.mean.dim %[[SQ]], %[[DIMS]], %true, %none : {{.*}} -> !torch.vtensor<[2,3,1],f32>
// CHECK: %[[SHIFTED:.*]] = torch.aten.add.Scalar %[[MS]], %[[EPS]]
// CHECK: %[[INV:.*]] = torch.aten.rsqrt %[[SHIFTED]]
// CHECK: %[[NORM:.*]] = torch.aten.mul.Tensor %arg0, %[[INV]]
// CHECK: torch.aten.mul.Tensor %[[NORM]], %arg1
func.func @rms_norm(%x: !torch.vtensor<[2,3,4],f32>, %w: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,3,4],f32> attributes {torch.onnx_meta.opset_version = 23 : si64} {
  %0 = torch.operator "onnx.RMSNormalization"(%x, %w) {torch.onnx.epsilon = 1.000000e-01 : f32} : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}

// -----

// LpNormalization p=1: x / sum(|x|) along axis, 0 where the norm is 0.
// CHECK-LABEL: func.func @lp_norm_l1
// CHECK: %[[ABS:.*]] = torch.aten.abs %arg0
// CHECK: %[[NORM:.*]] = torch.aten.sum.dim_IntList %[[ABS]], %{{.*}}, %true, %none : {{.*}} -> !torch.vtensor<[1,3],f32>
// CHECK: %[[ZERO:.*]] = torch.aten.eq.Scalar %[[NORM]]
// CHECK: %[[Q:.*]] = torch.aten.div.Tensor %arg0, %[[NORM]]
// CHECK: torch.aten.where.self %[[ZERO]], %{{.*}}, %[[Q]]
func.func @lp_norm_l1(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.LpNormalization"(%x) {torch.onnx.p = 1 : si64, torch.onnx.axis = 0 : si64} : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// InstanceNormalization: statistics over the spatial dims, scale and bias
// per channel (viewed as [C, 1, 1]).
// CHECK-LABEL: func.func @instance_norm
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int2, %int3
// CHECK: %[[MEAN:.*]] = torch.aten.mean.dim %arg0, %[[DIMS]], %true, %none : {{.*}} -> !torch.vtensor<[2,3,1,1],f32>
// CHECK: %[[CENTERED:.*]] = torch.aten.sub.Tensor %arg0, %[[MEAN]]
// CHECK: torch.aten.rsqrt
// CHECK: %[[SCALE:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[3,1,1],f32>
// CHECK: %[[SCALED:.*]] = torch.aten.mul.Tensor %{{.*}}, %[[SCALE]]
// CHECK: %[[BIAS:.*]] = torch.aten.view %arg2
// CHECK: torch.aten.add.Tensor %[[SCALED]], %[[BIAS]]
func.func @instance_norm(%x: !torch.vtensor<[2,3,4,5],f32>, %s: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4,5],f32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0 = torch.operator "onnx.InstanceNormalization"(%x, %s, %b) : (!torch.vtensor<[2,3,4,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4,5],f32>
  return %0 : !torch.vtensor<[2,3,4,5],f32>
}

// -----

// GroupNormalization (opset 21): statistics over [N, G, C/G * H * W], then
// scale and bias per channel as [C, 1, 1].
// CHECK-LABEL: func.func @group_norm
// CHECK: %[[G:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[3,2,8],f32>
// CHECK: %[[MEAN:.*]] = torch.aten.mean.dim %[[G]], {{.*}} -> !torch.vtensor<[3,2,1],f32>
// CHECK: %[[C:.*]] = torch.aten.sub.Tensor %[[G]], %[[MEAN]]
// CHECK: %[[R:.*]] = torch.aten.rsqrt
// CHECK: %[[N:.*]] = torch.aten.mul.Tensor %[[C]], %[[R]]
// CHECK: %[[Y:.*]] = torch.aten.view %[[N]], {{.*}} -> !torch.vtensor<[3,4,2,2],f32>
// CHECK: %[[S:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[4,1,1],f32>
// CHECK: %[[YS:.*]] = torch.aten.mul.Tensor %[[Y]], %[[S]]
// CHECK: %[[B:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[4,1,1],f32>
// CHECK: torch.aten.add.Tensor %[[YS]], %[[B]]
func.func @group_norm(%x: !torch.vtensor<[3,4,2,2],f32>, %s: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4,2,2],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.GroupNormalization"(%x, %s, %b) {torch.onnx.num_groups = 2 : si64} : (!torch.vtensor<[3,4,2,2],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4,2,2],f32>
  return %0 : !torch.vtensor<[3,4,2,2],f32>
}

// -----

func.func @group_norm_groups(%x: !torch.vtensor<[3,4,2,2],f32>, %s: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4,2,2],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  // expected-error @+1 {{expects a float input [N, C, ...] with C a multiple of num_groups}}
  %0 = torch.operator "onnx.GroupNormalization"(%x, %s, %b) {torch.onnx.num_groups = 3 : si64} : (!torch.vtensor<[3,4,2,2],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4,2,2],f32>
  return %0 : !torch.vtensor<[3,4,2,2],f32>
}

// -----

// MeanVarianceNormalization: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9)
// over dims 0, 2, 3.
// CHECK-LABEL: func.func @mvn
// CHECK: %[[MEAN:.*]] = torch.aten.mean.dim %arg0, {{.*}} -> !torch.vtensor<[1,3,1,1],f32>
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor %arg0, %arg0
// CHECK: %[[MSQ:.*]] = torch.aten.mean.dim %[[SQ]]
// CHECK: %[[VAR:.*]] = torch.aten.sub.Tensor %[[MSQ]]
// CHECK: %[[STD:.*]] = torch.aten.sqrt %[[VAR]]
// CHECK: %[[DEN:.*]] = torch.aten.add.Scalar %[[STD]]
// CHECK: %[[CEN:.*]] = torch.aten.sub.Tensor %arg0, %[[MEAN]]
// CHECK: torch.aten.div.Tensor %[[CEN]], %[[DEN]]
func.func @mvn(%x: !torch.vtensor<[2,3,4,4],f32>) -> !torch.vtensor<[2,3,4,4],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.MeanVarianceNormalization"(%x) : (!torch.vtensor<[2,3,4,4],f32>) -> !torch.vtensor<[2,3,4,4],f32>
  return %0 : !torch.vtensor<[2,3,4,4],f32>
}
