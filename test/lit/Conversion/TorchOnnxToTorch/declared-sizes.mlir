// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// Lowerings that size a result from its declared type where the sizes come
// from data check the data against it when the program runs
// (torch.runtime.assert): a false declaration is an InputError at call
// time, not compiled code sized wrong.

// Split with run-time split sizes: each checked against the declared
// result sizes [2, 4] along the axis, and (the dim is dynamic) their sum
// against the input's size.
// CHECK-LABEL: func.func @split_runtime_sizes(
// CHECK: %[[S0:.*]] = torch.aten.select.int %{{.*}}, %int0, %int0{{.*}} -> !torch.vtensor<[],si64>
// CHECK: %[[E0:.*]] = torch.aten.eq.Scalar %[[S0]], %int2
// CHECK: %[[S1:.*]] = torch.aten.select.int %{{.*}}, %int0, %int1{{.*}} -> !torch.vtensor<[],si64>
// CHECK: %[[E1:.*]] = torch.aten.eq.Scalar %[[S1]], %int4
// CHECK: %[[BOTH:.*]] = torch.aten.logical_and %[[E0]], %[[E1]]
// CHECK: %[[OK:.*]] = torch.aten.item %[[BOTH]] : !torch.vtensor<[],i1> -> !torch.bool
// CHECK: torch.runtime.assert %[[OK]], "this Split node's split sizes at run time are not [2, 4]
// CHECK: %[[DIM:.*]] = torch.aten.size.int %arg0, %int0
// CHECK: %[[SUM:.*]] = torch.aten.eq.int %[[DIM]], %int6
// CHECK: torch.runtime.assert %[[SUM]], "this Split node's input size along the axis differs
// CHECK: torch.aten.slice.Tensor %arg0, %int0{{.*}} -> !torch.vtensor<[2],f32>
// CHECK: torch.aten.slice.Tensor %arg0, %int0{{.*}} -> !torch.vtensor<[4],f32>
func.func @split_runtime_sizes(%x: !torch.vtensor<[?],f32>, %split: !torch.vtensor<[2],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>) attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0:2 = torch.operator "onnx.Split"(%x, %split) {torch.onnx.axis = 0 : si64} : (!torch.vtensor<[?],f32>, !torch.vtensor<[2],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>)
  return %0#0, %0#1 : !torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>
}

// -----

// A split tensor of unknown length cannot be checked element by element.
func.func @split_unknown_length(%x: !torch.vtensor<[6],f32>, %split: !torch.vtensor<[?],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>) attributes {torch.onnx_meta.opset_version = 18 : si64} {
  // expected-error @+1 {{split must be a 1-D integer tensor of one static size per output}}
  %0:2 = torch.operator "onnx.Split"(%x, %split) {torch.onnx.axis = 0 : si64} : (!torch.vtensor<[6],f32>, !torch.vtensor<[?],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>)
  return %0#0, %0#1 : !torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>
}

// -----

// OneHot with a run-time depth: the declared depth 4 is checked.
// CHECK-LABEL: func.func @one_hot_runtime_depth(
// CHECK: %[[D:.*]] = torch.aten.select.int {{.*}} -> !torch.vtensor<[],si64>
// CHECK: %[[EQ:.*]] = torch.aten.eq.Scalar %[[D]], %int4
// CHECK: %[[OK:.*]] = torch.aten.item %[[EQ]]
// CHECK: torch.runtime.assert %[[OK]], "this OneHot node's depth values at run time are not [4]
func.func @one_hot_runtime_depth(%i: !torch.vtensor<[2],si64>, %depth: !torch.vtensor<[],f32>, %v: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2,4],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.OneHot"(%i, %depth, %v) : (!torch.vtensor<[2],si64>, !torch.vtensor<[],f32>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// A declared OneHot result that is not the indices' sizes plus depth.
func.func @one_hot_contradiction(%i: !torch.vtensor<[3],si64>, %depth: !torch.vtensor<[],si64>, %v: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2,4],f32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  // expected-error @+1 {{the declared result sizes are not the indices' sizes with depth inserted at axis}}
  %0 = torch.operator "onnx.OneHot"(%i, %depth, %v) : (!torch.vtensor<[3],si64>, !torch.vtensor<[],si64>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

// Range with run-time operands and a declared size of 5: checked as
// ceil((limit - start) / delta) == 5, in f64.
// CHECK-LABEL: func.func @range_runtime(
// CHECK: %[[SPAN:.*]] = torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[],f64>
// CHECK: %[[Q:.*]] = torch.aten.div.Tensor %[[SPAN]], {{.*}} -> !torch.vtensor<[],f64>
// CHECK: %[[N:.*]] = torch.aten.ceil %[[Q]]
// CHECK: %[[EQ:.*]] = torch.aten.eq.Scalar %[[N]], %int5
// CHECK: %[[OK:.*]] = torch.aten.item %[[EQ]]
// CHECK: torch.runtime.assert %[[OK]], "this Range node's start, limit and delta
func.func @range_runtime(%start: !torch.vtensor<[],si32>, %limit: !torch.vtensor<[],si32>, %delta: !torch.vtensor<[],si32>) -> !torch.vtensor<[5],si32> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0 = torch.operator "onnx.Range"(%start, %limit, %delta) : (!torch.vtensor<[],si32>, !torch.vtensor<[],si32>, !torch.vtensor<[],si32>) -> !torch.vtensor<[5],si32>
  return %0 : !torch.vtensor<[5],si32>
}

// -----

// Literal operands that contradict the declared size.
func.func @range_contradiction() -> !torch.vtensor<[5],si64> attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %start = torch.vtensor.literal(dense<0> : tensor<si64>) : !torch.vtensor<[],si64>
  %limit = torch.vtensor.literal(dense<3> : tensor<si64>) : !torch.vtensor<[],si64>
  %delta = torch.vtensor.literal(dense<1> : tensor<si64>) : !torch.vtensor<[],si64>
  // expected-error @+1 {{the declared result size contradicts start, limit and delta}}
  %0 = torch.operator "onnx.Range"(%start, %limit, %delta) : (!torch.vtensor<[],si64>, !torch.vtensor<[],si64>, !torch.vtensor<[],si64>) -> !torch.vtensor<[5],si64>
  return %0 : !torch.vtensor<[5],si64>
}
