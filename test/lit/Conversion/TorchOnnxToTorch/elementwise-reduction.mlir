// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// Div: true division for floats, truncation for integers (ONNX's C
// semantics), via aten.div.Tensor_mode "trunc".
// CHECK-LABEL: func.func @div_float
// CHECK: torch.aten.div.Tensor %arg0, %arg1
func.func @div_float(%a: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %0 = torch.operator "onnx.Div"(%a, %b) : (!torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// CHECK-LABEL: func.func @div_int
// CHECK: %[[MODE:.*]] = torch.constant.str "trunc"
// CHECK: torch.aten.div.Tensor_mode %arg0, %arg1, %[[MODE]]
func.func @div_int(%a: !torch.vtensor<[3],si32>, %b: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %0 = torch.operator "onnx.Div"(%a, %b) : (!torch.vtensor<[3],si32>, !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}

// -----

// Clip-6 has min/max attributes; Clip-11 optional inputs (constants become
// scalars, an omitted one None).
// CHECK-LABEL: func.func @clip6
// CHECK-DAG: %[[LO:.*]] = torch.constant.float -1.000000e+00
// CHECK-DAG: %[[HI:.*]] = torch.constant.float 2.000000e+00
// CHECK: torch.aten.clamp %arg0, %[[LO]], %[[HI]]
func.func @clip6(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 6 : si64} {
  %0 = torch.operator "onnx.Clip"(%x) {torch.onnx.max = 2.0 : f32, torch.onnx.min = -1.0 : f32} : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// CHECK-LABEL: func.func @clip13_min_only
// CHECK-DAG: %[[LO:.*]] = torch.constant.float 5.000000e-01
// CHECK-DAG: %[[NONE:.*]] = torch.constant.none
// CHECK: torch.aten.clamp %arg0, %[[LO]], %[[NONE]]
func.func @clip13_min_only(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %lo = torch.vtensor.literal(dense<0.5> : tensor<f32>) : !torch.vtensor<[],f32>
  %0 = torch.operator "onnx.Clip"(%x, %lo) : (!torch.vtensor<[3],f32>, !torch.vtensor<[],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// CHECK-LABEL: func.func @clip13_runtime_bounds
// CHECK: torch.aten.clamp.Tensor %arg0, %arg1, %arg2
func.func @clip13_runtime_bounds(%x: !torch.vtensor<[3],f32>, %lo: !torch.vtensor<[],f32>, %hi: !torch.vtensor<[],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Clip"(%x, %lo, %hi) : (!torch.vtensor<[3],f32>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// Clip without bounds is the identity (aten.clamp needs one).
// CHECK-LABEL: func.func @clip13_no_bounds
// CHECK-NOT: torch.aten.clamp
// CHECK: return %arg0
func.func @clip13_no_bounds(%x: !torch.vtensor<[3],si8>) -> !torch.vtensor<[3],si8> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Clip"(%x) : (!torch.vtensor<[3],si8>) -> !torch.vtensor<[3],si8>
  return %0 : !torch.vtensor<[3],si8>
}

// -----

// Variadic Sum folds left with broadcasting adds.
// CHECK-LABEL: func.func @sum3
// CHECK: %[[A:.*]] = torch.aten.add.Tensor %arg0, %arg1, %int1
// CHECK: torch.aten.add.Tensor %[[A]], %arg2, %int1
func.func @sum3(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3],f32>, %c: !torch.vtensor<[2,1],f32>) -> !torch.vtensor<[2,3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Sum"(%a, %b, %c) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[2,1],f32>) -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Dropout in inference is the identity; its mask output is all true.
// CHECK-LABEL: func.func @dropout
// CHECK-NEXT: return %arg0
func.func @dropout(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Dropout"(%x) : (!torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// CHECK-LABEL: func.func @dropout_mask
// CHECK: %[[MASK:.*]] = torch.aten.full %{{.*}}, %true, %int11, {{.*}} -> !torch.vtensor<[3],i1>
// CHECK: return %arg0, %[[MASK]]
func.func @dropout_mask(%x: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],i1>) attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0:2 = torch.operator "onnx.Dropout"(%x) : (!torch.vtensor<[3],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],i1>)
  return %0#0, %0#1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],i1>
}

// -----

func.func @dropout_mask_dynamic(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],i1> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  // expected-error @+1 {{unsupported: a used Dropout mask output without static sizes}}
  %0:2 = torch.operator "onnx.Dropout"(%x) : (!torch.vtensor<[?],f32>) -> (!torch.vtensor<[?],f32>, !torch.vtensor<[?],i1>)
  return %0#1 : !torch.vtensor<[?],i1>
}

// -----

// ReduceSum-13 takes axes as an input; ReduceMean-13 as an attribute.
// CHECK-LABEL: func.func @reduce_sum13
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int0, %int2
// CHECK: torch.aten.sum.dim_IntList %arg0, %[[DIMS]], %false, %none : {{.*}} -> !torch.vtensor<[3],f32>
func.func @reduce_sum13(%x: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %axes = torch.vtensor.literal(dense<[-1, 0]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %0 = torch.operator "onnx.ReduceSum"(%x, %axes) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// CHECK-LABEL: func.func @reduce_mean13_all
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int0, %int1
// CHECK: torch.aten.mean.dim %arg0, %[[DIMS]], %true, %none : {{.*}} -> !torch.vtensor<[1,1],f32>
func.func @reduce_mean13_all(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[1,1],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.ReduceMean"(%x) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[1,1],f32>
  return %0 : !torch.vtensor<[1,1],f32>
}

// noop_with_empty_axes=1 and no axes: the input itself.
// CHECK-LABEL: func.func @reduce_sum_noop
// CHECK-NEXT: return %arg0
func.func @reduce_sum_noop(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.ReduceSum"(%x) {torch.onnx.noop_with_empty_axes = 1 : si64} : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

func.func @reduce_runtime_axes(%x: !torch.vtensor<[2,3],f32>, %axes: !torch.vtensor<[?],si64>) -> !torch.vtensor<[2],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  // expected-error @+1 {{unsupported: axes must be constant and in range}}
  %0 = torch.operator "onnx.ReduceMax"(%x, %axes) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[?],si64>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// Dropout-12 in training (training_mode known at run time): a uniform
// draw kept below 1 - ratio (or everything when not training), scaled by
// 1 / (1 - ratio) when training.
// CHECK-LABEL: func.func @dropout_training
// CHECK: %[[U:.*]] = torch.aten.rand {{.*}} -> !torch.vtensor<[3,4],f32>
// CHECK: %[[KEEP:.*]] = torch.aten.rsub.Scalar %arg1, %{{.*}}, %int1
// CHECK: %[[NOT:.*]] = torch.aten.logical_not %arg2
// CHECK: %[[LT:.*]] = torch.aten.lt.Tensor %[[U]], %[[KEEP]]
// CHECK: %[[MASK:.*]] = torch.aten.logical_or %[[LT]], %[[NOT]]
// CHECK: torch.aten.reciprocal %[[KEEP]]
// CHECK: return %{{.*}}, %[[MASK]]
func.func @dropout_training(%x: !torch.vtensor<[3,4],f32>, %r: !torch.vtensor<[],f32>, %t: !torch.vtensor<[],i1>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],i1>) attributes {torch.onnx_meta.opset_version = 22 : si64} {
  %0:2 = torch.operator "onnx.Dropout"(%x, %r, %t) : (!torch.vtensor<[3,4],f32>, !torch.vtensor<[],f32>, !torch.vtensor<[],i1>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],i1>)
  return %0#0, %0#1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],i1>
}

// -----

func.func @dropout_training_int(%x: !torch.vtensor<[3,4],si32>, %r: !torch.vtensor<[],f32>, %t: !torch.vtensor<[],i1>) -> !torch.vtensor<[3,4],si32> attributes {torch.onnx_meta.opset_version = 22 : si64} {
  // expected-error @+1 {{unsupported: Dropout in training of a non-float input or without static sizes}}
  %0 = torch.operator "onnx.Dropout"(%x, %r, %t) : (!torch.vtensor<[3,4],si32>, !torch.vtensor<[],f32>, !torch.vtensor<[],i1>) -> !torch.vtensor<[3,4],si32>
  return %0 : !torch.vtensor<[3,4],si32>
}
