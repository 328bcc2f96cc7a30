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

// A split tensor of unknown length: its length is checked first, then its
// values.
// CHECK-LABEL: func.func @split_unknown_length(
// CHECK: %[[LEN:.*]] = torch.aten.size.int %arg1, %int0
// CHECK: %[[TWO:.*]] = torch.aten.eq.int %[[LEN]], %int2
// CHECK: torch.runtime.assert %[[TWO]], "this Split node's split sizes at run time are not 2 values, as its declared result types need"
// CHECK: %[[KNOWN:.*]] = torch.tensor_static_info_cast %arg1 : !torch.vtensor<[?],si64> to !torch.vtensor<[2],si64>
// CHECK: torch.aten.view %[[KNOWN]]
// CHECK: torch.runtime.assert {{.*}} "this Split node's split sizes at run time are not [2, 4]
func.func @split_unknown_length(%x: !torch.vtensor<[6],f32>, %split: !torch.vtensor<[?],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[4],f32>) attributes {torch.onnx_meta.opset_version = 18 : si64} {
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

// -----

// TopK with a run-time k: the declared k (3) is checked.
// CHECK-LABEL: func.func @top_k_runtime_k(
// CHECK: %[[K:.*]] = torch.aten.select.int {{.*}} -> !torch.vtensor<[],si64>
// CHECK: %[[EQ:.*]] = torch.aten.eq.Scalar %[[K]], %int3
// CHECK: %[[OK:.*]] = torch.aten.item %[[EQ]]
// CHECK: torch.runtime.assert %[[OK]], "this TopK node's k at run time are not [3]
func.func @top_k_runtime_k(%x: !torch.vtensor<[2,5],f32>, %k: !torch.vtensor<[1],si64>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>) attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0:2 = torch.operator "onnx.TopK"(%x, %k) : (!torch.vtensor<[2,5],f32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>)
  return %0#0, %0#1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>
}

// -----

// ConstantOfShape with a run-time shape of unknown length: the length (2),
// then the values [4, 3].
// CHECK-LABEL: func.func @constant_of_shape_runtime(
// CHECK: %[[LEN:.*]] = torch.aten.size.int %arg0, %int0
// CHECK: torch.aten.eq.int %[[LEN]], %int2
// CHECK: torch.runtime.assert {{.*}} "this ConstantOfShape node's shape values at run time are not 2 values
// CHECK: torch.aten.eq.Scalar {{.*}}, %int4
// CHECK: torch.aten.eq.Scalar {{.*}}, %int3
// CHECK: torch.runtime.assert {{.*}} "this ConstantOfShape node's shape values at run time are not [4, 3]
// CHECK: torch.aten.full {{.*}} -> !torch.vtensor<[4,3],f32>
func.func @constant_of_shape_runtime(%shape: !torch.vtensor<[?],si64>) -> !torch.vtensor<[4,3],f32> attributes {torch.onnx_meta.opset_version = 20 : si64} {
  %0 = torch.operator "onnx.ConstantOfShape"(%shape) : (!torch.vtensor<[?],si64>) -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

// Reshape with a run-time shape: each entry is the declared size or -1,
// or 0 where the input has the declared size (without allowzero).
// CHECK-LABEL: func.func @reshape_runtime(
// CHECK: %[[E0:.*]] = torch.aten.select.int %{{.*}}, %int0, %int0
// CHECK: %[[A:.*]] = torch.aten.eq.Scalar %[[E0]], %int2
// CHECK: %[[B:.*]] = torch.aten.eq.Scalar %[[E0]], %int-1
// CHECK: %[[C:.*]] = torch.aten.logical_or %[[A]], %[[B]]
// CHECK: %[[D:.*]] = torch.aten.eq.Scalar %[[E0]], %int0
// CHECK: torch.aten.logical_or %[[C]], %[[D]]
// CHECK: %[[E1:.*]] = torch.aten.select.int %{{.*}}, %int0, %int1
// CHECK: torch.aten.eq.Scalar %[[E1]], %int12
// CHECK: torch.aten.eq.Scalar %[[E1]], %int-1
// CHECK-NOT: torch.aten.eq.Scalar %[[E1]], %int0
// CHECK: torch.runtime.assert {{.*}} "this Reshape node's shape values at run time are not [2 or -1 or 0, 12 or -1]
// CHECK: torch.aten.view
func.func @reshape_runtime(%x: !torch.vtensor<[2,3,4],f32>, %shape: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,12],f32> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %0 = torch.operator "onnx.Reshape"(%x, %shape) : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,12],f32>
  return %0 : !torch.vtensor<[2,12],f32>
}

// -----

// Unsqueeze with run-time axes and a static result: the axes (wrapped by
// the result rank) must be one of the sets of inserted dims, here {1} or
// {2} (next to the input's unit dim: the same result), never {0} or {3}.
// CHECK-LABEL: func.func @unsqueeze_runtime_axes(
// CHECK: %[[AXES:.*]] = torch.aten.where.self
// CHECK: torch.aten.eq.Scalar %[[AXES]], %int1
// CHECK: torch.aten.eq.Scalar %[[AXES]], %int2
// CHECK: torch.runtime.assert {{.*}} "this node's axes at run time name other dims than its declared input and result sizes imply
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[3,1,1,5],f32>
func.func @unsqueeze_runtime_axes(%x: !torch.vtensor<[3,1,5],f32>, %axes: !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,1,1,5],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Unsqueeze"(%x, %axes) : (!torch.vtensor<[3,1,5],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,1,1,5],f32>
  return %0 : !torch.vtensor<[3,1,1,5],f32>
}

// -----

// Reduce with run-time axes of unknown length (keepdims): they must name
// dim 1 (its size changes), not dim 0 or 2, must be in range, and must not
// be empty (empty axes reduce every dim).
// CHECK-LABEL: func.func @reduce_unsized_axes(
// CHECK: %[[AXES:.*]] = torch.aten.where.self
// CHECK-DAG: torch.aten.ge.Scalar %[[AXES]], %int0
// CHECK-DAG: torch.aten.lt.Scalar %[[AXES]], %int3
// CHECK: torch.aten.eq.Scalar %[[AXES]], %int0
// CHECK: torch.aten.logical_not
// CHECK: torch.aten.eq.Scalar %[[AXES]], %int1
// CHECK: torch.aten.eq.Scalar %[[AXES]], %int2
// CHECK: %[[LEN:.*]] = torch.aten.size.int %arg1, %int0
// CHECK: torch.aten.gt.int %[[LEN]], %int0
// CHECK: torch.runtime.assert {{.*}} "this Reduce node's axes at run time are empty
// CHECK: torch.runtime.assert {{.*}} "this Reduce node's axes at run time name other dims
// CHECK: torch.aten.sum.dim_IntList
func.func @reduce_unsized_axes(%x: !torch.vtensor<[3,2,2],f32>, %axes: !torch.vtensor<[?],si64>) -> !torch.vtensor<[3,1,2],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.ReduceSum"(%x, %axes) {torch.onnx.keepdims = 1 : si64} : (!torch.vtensor<[3,2,2],f32>, !torch.vtensor<[?],si64>) -> !torch.vtensor<[3,1,2],f32>
  return %0 : !torch.vtensor<[3,1,2],f32>
}

// -----

// Slice with run-time bounds: the length ceil((end - start) / step) the
// bounds give is checked against the declared size (3).
// CHECK-LABEL: func.func @slice_runtime_length(
// CHECK: torch.aten.index_select
// CHECK: %[[Q:.*]] = torch.aten.div.Tensor_mode {{.*}}, %str
// CHECK: %[[LEN:.*]] = torch.aten.clamp %{{.*}}, %int0, %int10
// CHECK: %[[EQ:.*]] = torch.aten.eq.Scalar %[[LEN]], %int3
// CHECK: %[[OK:.*]] = torch.aten.item %[[EQ]]
// CHECK: torch.runtime.assert %[[OK]], "this Slice node's starts, ends, axes and steps at run time give other result sizes
func.func @slice_runtime_length(%x: !torch.vtensor<[10],f32>, %starts: !torch.vtensor<[1],si64>, %ends: !torch.vtensor<[1],si64>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.Slice"(%x, %starts, %ends) : (!torch.vtensor<[10],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// Pad with run-time pads: begin + end per axis must be what the declared
// sizes add (2 and 3).
// CHECK-LABEL: func.func @pad_runtime(
// CHECK: %[[PAIRS:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[2,2],si64>
// CHECK: %[[TOTALS:.*]] = torch.aten.sum.dim_IntList %[[PAIRS]]
// CHECK: torch.runtime.assert {{.*}} "this Pad node's pads (begin + end per axis) at run time are not [2, 3]
func.func @pad_runtime(%x: !torch.vtensor<[2,2],f32>, %pads: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4,5],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.Pad"(%x, %pads) : (!torch.vtensor<[2,2],f32>, !torch.vtensor<[4],si64>) -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}
