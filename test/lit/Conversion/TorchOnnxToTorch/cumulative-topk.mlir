// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// CumSum along an axis computed at run time: the scan along each dim
// (exclusive: the constant mask i < j), picked by the wrapped axis.
// CHECK-LABEL: func.func @cumsum_runtime_axis
// CHECK-DAG: %[[M3:.*]] = torch.vtensor.literal(dense<{{\[\[}}false, true, true], [false, false, true], [false, false, false]]> : tensor<3x3xi1>)
// CHECK-DAG: %[[M2:.*]] = torch.vtensor.literal(dense<{{\[\[}}false, true], [false, false]]> : tensor<2x2xi1>)
// CHECK: %[[AXIS:.*]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[],si64>
// CHECK: %[[T:.*]] = torch.aten.permute %arg0, {{.*}} -> !torch.vtensor<[3,2],f64>
// CHECK: %[[TC:.*]] = torch.aten.view %[[T]], {{.*}} -> !torch.vtensor<[3,2,1],f64>
// CHECK: %[[W0:.*]] = torch.aten.where.self %[[M2]], %[[TC]], {{.*}} -> !torch.vtensor<[3,2,2],f64>
// CHECK: %[[S0:.*]] = torch.aten.sum.dim_IntList %[[W0]], {{.*}} -> !torch.vtensor<[3,2],f64>
// CHECK: %[[Y0:.*]] = torch.aten.permute %[[S0]], {{.*}} -> !torch.vtensor<[2,3],f64>
// CHECK: %[[C:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,3,1],f64>
// CHECK: %[[W1:.*]] = torch.aten.where.self %[[M3]], %[[C]]
// CHECK: %[[Y1:.*]] = torch.aten.sum.dim_IntList %[[W1]], {{.*}} -> !torch.vtensor<[2,3],f64>
// CHECK: %[[IS0:.*]] = torch.aten.eq.Scalar %[[AXIS]], %int0
// CHECK: torch.aten.where.self %[[IS0]], %[[Y0]], %[[Y1]]
func.func @cumsum_runtime_axis(%x: !torch.vtensor<[2,3],f64>, %axis: !torch.vtensor<[],si32>) -> !torch.vtensor<[2,3],f64> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %0 = torch.operator "onnx.CumSum"(%x, %axis) {torch.onnx.exclusive = 1 : si64} : (!torch.vtensor<[2,3],f64>, !torch.vtensor<[],si32>) -> !torch.vtensor<[2,3],f64>
  return %0 : !torch.vtensor<[2,3],f64>
}

// -----

// CumProd reversed along a constant axis: the mask i >= j, 1 elsewhere.
// CHECK-LABEL: func.func @cumprod_reverse
// CHECK-DAG: %[[ONE:.*]] = torch.vtensor.literal(dense<1> : tensor<i32>)
// CHECK-DAG: %[[M:.*]] = torch.vtensor.literal(dense<{{\[\[}}true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>)
// CHECK: %[[C:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[3,1],si32>
// CHECK: %[[W:.*]] = torch.aten.where.self %[[M]], %[[C]], %[[ONE]]
// CHECK: torch.aten.prod.dim_int %[[W]], %int0, %false, %none : {{.*}} -> !torch.vtensor<[3],si32>
func.func @cumprod_reverse(%x: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32> attributes {torch.onnx_meta.opset_version = 26 : si64} {
  %axis = torch.vtensor.literal(dense<0> : tensor<si64>) : !torch.vtensor<[],si64>
  %0 = torch.operator "onnx.CumProd"(%x, %axis) {torch.onnx.reverse = 1 : si64} : (!torch.vtensor<[3],si32>, !torch.vtensor<[],si64>) -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}

// -----

// TopK: the rank of each element (how many beat it, ties to the lower
// index), then output p gathers the element of rank p.
// CHECK-LABEL: func.func @top_k
// CHECK: %[[XI:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,4,1],f32>
// CHECK: %[[XJ:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,1,4],f32>
// CHECK: torch.aten.gt.Tensor %[[XI]], %[[XJ]]
// CHECK: %[[BEATS:.*]] = torch.aten.logical_or
// CHECK: %[[RANK:.*]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2,4],si64>
// CHECK: %[[PICK:.*]] = torch.aten.eq.Tensor {{.*}} -> !torch.vtensor<[2,3,4],i1>
// CHECK: %[[V:.*]] = torch.aten.where.self %[[PICK]], %[[XJ]]
// CHECK: %[[VALUES:.*]] = torch.aten.sum.dim_IntList %[[V]], {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK: %[[INDICES:.*]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2,3],si64>
// CHECK: return %[[VALUES]], %[[INDICES]]
func.func @top_k(%x: !torch.vtensor<[2,4],f32>, %k: !torch.vtensor<[1],si64>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>) attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %0:2 = torch.operator "onnx.TopK"(%x, %k) {torch.onnx.axis = 1 : si64} : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>)
  return %0#0, %0#1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>
}

// -----

func.func @top_k_wrong_k(%x: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],si64>) attributes {torch.onnx_meta.opset_version = 11 : si64} {
  %k = torch.vtensor.literal(dense<2> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  // expected-error @+1 {{k must be the size of the outputs along the axis, at most the input's}}
  %0:2 = torch.operator "onnx.TopK"(%x, %k) : (!torch.vtensor<[4],f32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],si64>)
  return %0#0, %0#1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],si64>
}

// -----

func.func @cumsum_bad_axis(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> attributes {torch.onnx_meta.opset_version = 14 : si64} {
  %axis = torch.vtensor.literal(dense<2> : tensor<si64>) : !torch.vtensor<[],si64>
  // expected-error @+1 {{axis must be a one-element integer tensor, in range if constant}}
  %0 = torch.operator "onnx.CumSum"(%x, %axis) : (!torch.vtensor<[3],f32>, !torch.vtensor<[],si64>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
