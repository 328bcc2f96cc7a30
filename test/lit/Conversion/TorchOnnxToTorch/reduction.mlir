// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @reduce_l2
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor %arg0, %arg0
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[SQ]], %{{.*}}, %true, %none : {{.*}} -> !torch.vtensor<[3,1],f32>
// CHECK: torch.aten.sqrt %[[SUM]]
func.func @reduce_l2(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,1],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %axes = torch.vtensor.literal(dense<[1]> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %0 = torch.operator "onnx.ReduceL2"(%x, %axes) : (!torch.vtensor<[3,4],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,1],f32>
  return %0 : !torch.vtensor<[3,1],f32>
}

// -----

// Axes computed at run time with keepdims=1 follow from the static sizes.
// CHECK-LABEL: func.func @reduce_l1_runtime_axes
// CHECK: %[[ABS:.*]] = torch.aten.abs %arg0
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int1 :
// CHECK: torch.aten.sum.dim_IntList %[[ABS]], %[[DIMS]], %true
func.func @reduce_l1_runtime_axes(%x: !torch.vtensor<[3,2,2],f32>, %axes: !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,1,2],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.ReduceL1"(%x, %axes) : (!torch.vtensor<[3,2,2],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,1,2],f32>
  return %0 : !torch.vtensor<[3,1,2],f32>
}

// -----

// An empty axes input reduces every dim.
// CHECK-LABEL: func.func @reduce_sum_square_empty_axes
// CHECK: %[[SQ:.*]] = torch.aten.mul.Tensor %arg0, %arg0
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int0, %int1 :
// CHECK: torch.aten.sum.dim_IntList %[[SQ]], %[[DIMS]], %false, %none : {{.*}} -> !torch.vtensor<[],f32>
func.func @reduce_sum_square_empty_axes(%x: !torch.vtensor<[3,2],f32>, %axes: !torch.vtensor<[0],si64>) -> !torch.vtensor<[],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.ReduceSumSquare"(%x, %axes) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,2],f32>, !torch.vtensor<[0],si64>) -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// ReduceLogSumExp: log(sum(exp(x - max))) + max, viewed without the kept dim.
// CHECK-LABEL: func.func @reduce_log_sum_exp
// CHECK: %[[MAX:.*]] = torch.aten.amax %arg0, %{{.*}}, %true : {{.*}} -> !torch.vtensor<[3,1],f32>
// CHECK: %[[SHIFTED:.*]] = torch.aten.sub.Tensor %arg0, %[[MAX]]
// CHECK: %[[EXP:.*]] = torch.aten.exp %[[SHIFTED]]
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[EXP]]
// CHECK: %[[LOG:.*]] = torch.aten.log %[[SUM]]
// CHECK: %[[LSE:.*]] = torch.aten.add.Tensor %[[LOG]], %[[MAX]]
// CHECK: torch.aten.view %[[LSE]], {{.*}} -> !torch.vtensor<[3],f32>
func.func @reduce_log_sum_exp(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.ReduceLogSumExp"(%x) {torch.onnx.axes = [1 : si64], torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// ArgMax with select_last_index=1: argmax of the reversed input, mapped back.
// CHECK-LABEL: func.func @argmax_last
// CHECK: %[[REV:.*]] = torch.vtensor.literal(dense<[2, 1, 0]> : tensor<3xi64>)
// CHECK: %[[FLIPPED:.*]] = torch.aten.index_select %arg0, %int1, %[[REV]]
// CHECK: %[[INDEX:.*]] = torch.aten.argmax %[[FLIPPED]], %int1, %true
// CHECK: torch.aten.rsub.Scalar %[[INDEX]], %int2, %int1
func.func @argmax_last(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,1],si64> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.ArgMax"(%x) {torch.onnx.axis = 1 : si64, torch.onnx.select_last_index = 1 : si64} : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,1],si64>
  return %0 : !torch.vtensor<[2,1],si64>
}

// -----

func.func @reduce_log_sum_int(%x: !torch.vtensor<[3,4],si32>) -> !torch.vtensor<[3,1],si32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  // expected-error @+1 {{unsupported: a non-float input}}
  %0 = torch.operator "onnx.ReduceLogSum"(%x) {torch.onnx.axes = [1 : si64]} : (!torch.vtensor<[3,4],si32>) -> !torch.vtensor<[3,1],si32>
  return %0 : !torch.vtensor<[3,1],si32>
}

// -----

// Run-time axes with keepdims=0: [3,2,2] -> [3,2] reduces dim 1 or dim 2.
// Both reductions are computed and the one whose dim the axes hold (after
// wrapping negative axes) is picked.
// CHECK-LABEL: func.func @reduce_sum_runtime_axes_two_candidates
// CHECK: %[[DIM2:.*]] = torch.prim.ListConstruct %int2 :
// CHECK: %[[SUM2:.*]] = torch.aten.sum.dim_IntList %arg0, %[[DIM2]], %false, %none : {{.*}} -> !torch.vtensor<[3,2],f32>
// CHECK: %[[WRAPPED:.*]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[1],si64>
// CHECK: %[[DIM1:.*]] = torch.prim.ListConstruct %int1 :
// CHECK: %[[SUM1:.*]] = torch.aten.sum.dim_IntList %arg0, %[[DIM1]], %false
// CHECK: %[[IS1:.*]] = torch.aten.eq.Scalar %[[WRAPPED]], %int1
// CHECK: %[[COUNT:.*]] = torch.aten.to.dtype %[[IS1]]
// CHECK: %[[N:.*]] = torch.aten.sum %[[COUNT]]
// CHECK: %[[MATCH:.*]] = torch.aten.eq.Scalar %[[N]], %int1 : !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[],i1>
// CHECK: torch.aten.where.self %[[MATCH]], %[[SUM1]], %[[SUM2]]
func.func @reduce_sum_runtime_axes_two_candidates(%x: !torch.vtensor<[3,2,2],f32>, %axes: !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,2],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.ReduceSum"(%x, %axes) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,2,2],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// Run-time axes whose dims follow from the sizes: [3,4,5] -> [5] with two
// axes can only reduce dims 0 and 1; the axes are checked at run time to be
// those (other axes would give other sizes than the program assumes).
// CHECK-LABEL: func.func @reduce_log_sum_runtime_axes_one_candidate
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int0, %int1 :
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %arg0, %[[DIMS]], %false
// CHECK: %[[LOG:.*]] = torch.aten.log %[[SUM]]
// CHECK: %[[MATCH:.*]] = torch.aten.eq.Scalar %{{.*}}, %int2 : !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[],i1>
// CHECK: %[[OK:.*]] = torch.aten.item %[[MATCH]] : !torch.vtensor<[],i1> -> !torch.bool
// CHECK: torch.runtime.assert %[[OK]], "the run-time axes of this Reduce node name other dims than its static input and result sizes imply"
// CHECK: return %[[LOG]]
func.func @reduce_log_sum_runtime_axes_one_candidate(%x: !torch.vtensor<[3,4,5],f32>, %axes: !torch.vtensor<[2],si64>) -> !torch.vtensor<[5],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.ReduceLogSum"(%x, %axes) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,4,5],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}

// -----

// ReduceProd over several dims: one aten.prod.dim_int per dim, last first.
// CHECK-LABEL: func.func @reduce_prod_all
// CHECK: %[[P2:.*]] = torch.aten.prod.dim_int %arg0, %int2, %true, %none : {{.*}} -> !torch.vtensor<[3,2,1],f32>
// CHECK: %[[P1:.*]] = torch.aten.prod.dim_int %[[P2]], %int1, %true, %none : {{.*}} -> !torch.vtensor<[3,1,1],f32>
// CHECK: %[[P0:.*]] = torch.aten.prod.dim_int %[[P1]], %int0, %true, %none : {{.*}} -> !torch.vtensor<[1,1,1],f32>
// CHECK: return %[[P0]]
func.func @reduce_prod_all(%x: !torch.vtensor<[3,2,2],f32>) -> !torch.vtensor<[1,1,1],f32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.ReduceProd"(%x) : (!torch.vtensor<[3,2,2],f32>) -> !torch.vtensor<[1,1,1],f32>
  return %0 : !torch.vtensor<[1,1,1],f32>
}

// -----

func.func @reduce_runtime_axes_no_candidate(%x: !torch.vtensor<[3,2],f32>, %axes: !torch.vtensor<[1],si64>) -> !torch.vtensor<[5],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  // expected-error @+1 {{unsupported: axes must be constant and in range (or, computed at run time, reduce static input sizes to static result sizes)}}
  %0 = torch.operator "onnx.ReduceMean"(%x, %axes) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,2],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}
