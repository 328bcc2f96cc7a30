// RUN: torch2mlir-opt %s -convert-torch-onnx-to-torch -split-input-file -verify-diagnostics | FileCheck %s

// ScatterElements along the last dim with reduction max: one-hot hits of
// the (wrapped) indices spread the updates ([1, 2, 5]), the max over the
// updates per position, padded to the data's rows, merged where hit.
// CHECK-LABEL: func.func @scatter_elements_max
// CHECK-DAG: %[[LOWEST:.*]] = torch.vtensor.literal(dense<0xFF800000> : tensor<f32>)
// CHECK: %[[IDX:.*]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[1,2],si64>
// CHECK: %[[POS:.*]] = torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[5],si64>
// CHECK: %[[COL:.*]] = torch.aten.view %[[IDX]], {{.*}} -> !torch.vtensor<[1,2,1],si64>
// CHECK: %[[HITS:.*]] = torch.aten.eq.Tensor %[[COL]], %[[POS]] : {{.*}} -> !torch.vtensor<[1,2,5],i1>
// CHECK: %[[UPD:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[1,2,1],f32>
// CHECK: %[[SPREAD:.*]] = torch.aten.where.self %[[HITS]], %[[UPD]], %[[LOWEST]]
// CHECK: %[[MAX:.*]] = torch.aten.amax %[[SPREAD]], {{.*}} -> !torch.vtensor<[1,5],f32>
// CHECK: %[[COUNT:.*]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[1,5],si64>
// CHECK: %[[PMAX:.*]] = torch.aten.constant_pad_nd %[[MAX]], {{.*}} -> !torch.vtensor<[2,5],f32>
// CHECK: %[[PCOUNT:.*]] = torch.aten.constant_pad_nd %[[COUNT]], {{.*}} -> !torch.vtensor<[2,5],si64>
// CHECK: %[[MERGED:.*]] = torch.aten.maximum %arg0, %[[PMAX]]
// CHECK: %[[HIT:.*]] = torch.aten.gt.Scalar %[[PCOUNT]], %int0
// CHECK: torch.aten.where.self %[[HIT]], %[[MERGED]], %arg0
func.func @scatter_elements_max(%data: !torch.vtensor<[2,5],f32>, %indices: !torch.vtensor<[1,2],si64>, %updates: !torch.vtensor<[1,2],f32>) -> !torch.vtensor<[2,5],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.ScatterElements"(%data, %indices, %updates) {torch.onnx.axis = 1 : si64, torch.onnx.reduction = "max"} : (!torch.vtensor<[2,5],f32>, !torch.vtensor<[1,2],si64>, !torch.vtensor<[1,2],f32>) -> !torch.vtensor<[2,5],f32>
  return %0 : !torch.vtensor<[2,5],f32>
}

// -----

// ScatterND with one index per tuple: positions [1, B, M] against the
// updates [R, B, 1], summed over the tuples, merged into data as [R, M].
// CHECK-LABEL: func.func @scatter_nd
// CHECK: %[[I:.*]] = torch.aten.select.int %arg1, %int1, %int0 : {{.*}} -> !torch.vtensor<[2],si64>
// CHECK: %[[P:.*]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[2],si64>
// CHECK: %[[PV:.*]] = torch.aten.view %[[P]], {{.*}} -> !torch.vtensor<[1,2,1],si64>
// CHECK: %[[HITS:.*]] = torch.aten.eq.Tensor %[[PV]], {{.*}} -> !torch.vtensor<[1,2,4],i1>
// CHECK: %[[UT:.*]] = torch.aten.permute %arg2, {{.*}} -> !torch.vtensor<[3,2],f32>
// CHECK: %[[U:.*]] = torch.aten.view %[[UT]], {{.*}} -> !torch.vtensor<[3,2,1],f32>
// CHECK: %[[D:.*]] = torch.aten.permute %arg0, {{.*}} -> !torch.vtensor<[3,4],f32>
// CHECK: %[[S:.*]] = torch.aten.where.self %[[HITS]], %[[U]], {{.*}} -> !torch.vtensor<[3,2,4],f32>
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[S]], {{.*}} -> !torch.vtensor<[3,4],f32>
// Without a reduction no position may be hit twice (checked at run time).
// CHECK: %[[TWICE:.*]] = torch.aten.gt.Scalar %[[COUNT:.*]], %int1 : {{.*}} -> !torch.vtensor<[1,4],i1>
// CHECK: %[[ANY:.*]] = torch.aten.any %[[TWICE]]
// CHECK: %[[NONE:.*]] = torch.aten.logical_not %[[ANY]]
// CHECK: %[[OK:.*]] = torch.aten.item %[[NONE]] : !torch.vtensor<[],i1> -> !torch.bool
// CHECK: torch.runtime.assert %[[OK]], "this scatter node's indices name a position twice
// CHECK: %[[HIT:.*]] = torch.aten.gt.Scalar %[[COUNT]], {{.*}} -> !torch.vtensor<[1,4],i1>
// CHECK: %[[R:.*]] = torch.aten.where.self %[[HIT]], %[[SUM]], %[[D]]
// CHECK: torch.aten.permute %[[R]], {{.*}} -> !torch.vtensor<[4,3],f32>
func.func @scatter_nd(%data: !torch.vtensor<[4,3],f32>, %indices: !torch.vtensor<[2,1],si64>, %updates: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[4,3],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  %0 = torch.operator "onnx.ScatterND"(%data, %indices, %updates) : (!torch.vtensor<[4,3],f32>, !torch.vtensor<[2,1],si64>, !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

func.func @scatter_nd_bad_updates(%data: !torch.vtensor<[4,3],f32>, %indices: !torch.vtensor<[2,1],si64>, %updates: !torch.vtensor<[2,2],f32>) -> !torch.vtensor<[4,3],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  // expected-error @+1 {{updates must have the sizes indices[:-1] + data[k:]}}
  %0 = torch.operator "onnx.ScatterND"(%data, %indices, %updates) : (!torch.vtensor<[4,3],f32>, !torch.vtensor<[2,1],si64>, !torch.vtensor<[2,2],f32>) -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

func.func @scatter_elements_reduction(%data: !torch.vtensor<[5],f32>, %indices: !torch.vtensor<[2],si64>, %updates: !torch.vtensor<[2],f32>) -> !torch.vtensor<[5],f32> attributes {torch.onnx_meta.opset_version = 18 : si64} {
  // expected-error @+1 {{unsupported reduction 'mean'}}
  %0 = torch.operator "onnx.ScatterElements"(%data, %indices, %updates) {torch.onnx.reduction = "mean"} : (!torch.vtensor<[5],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}

// -----

// GatherND: the flat position of each index tuple (2 * i + j), a one-hot
// against the 4 positions, the picked values summed.
// CHECK-LABEL: func.func @gather_nd
// CHECK: %[[I:.*]] = torch.aten.select.int {{.*}}, %int2, %int0 : {{.*}} -> !torch.vtensor<[1,2],si64>
// CHECK: torch.aten.mul.Scalar {{.*}}, %int2
// CHECK: %[[J:.*]] = torch.aten.select.int {{.*}}, %int2, %int1
// CHECK: %[[P:.*]] = torch.aten.add.Tensor
// CHECK: %[[HITS:.*]] = torch.aten.eq.Tensor {{.*}} -> !torch.vtensor<[1,2,4,1],i1>
// CHECK: %[[D:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[1,1,4,1],si32>
// CHECK: %[[PICKED:.*]] = torch.aten.where.self %[[HITS]], %[[D]]
// CHECK: %[[SUM:.*]] = torch.aten.sum.dim_IntList %[[PICKED]], {{.*}} -> !torch.vtensor<[1,2,1],si32>
// CHECK: torch.aten.view %[[SUM]], {{.*}} -> !torch.vtensor<[2],si32>
func.func @gather_nd(%data: !torch.vtensor<[2,2],si32>, %indices: !torch.vtensor<[2,2],si64>) -> !torch.vtensor<[2],si32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  %0 = torch.operator "onnx.GatherND"(%data, %indices) : (!torch.vtensor<[2,2],si32>, !torch.vtensor<[2,2],si64>) -> !torch.vtensor<[2],si32>
  return %0 : !torch.vtensor<[2],si32>
}

// -----

func.func @gather_nd_result(%data: !torch.vtensor<[2,2],si32>, %indices: !torch.vtensor<[2,2],si64>) -> !torch.vtensor<[3],si32> attributes {torch.onnx_meta.opset_version = 13 : si64} {
  // expected-error @+1 {{the result sizes do not match}}
  %0 = torch.operator "onnx.GatherND"(%data, %indices) : (!torch.vtensor<[2,2],si32>, !torch.vtensor<[2,2],si64>) -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}
