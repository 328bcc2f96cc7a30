// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// avg_pool2d (lowered with the other average pools, NN.cpp): a generic
// summing each window of the zero-padded input (the window dims are
// reduction loops, the input read at o * stride + k), then a generic
// dividing by PyTorch's divisor for each output position.

// count_include_pad: the window clipped to input + padding,
//   start = i * stride - pad, end = min(start + kernel, in + pad).
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[TAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @avg_pool(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,2,4,4],f32> -> tensor<1x2x4x4xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x2x2xf32>)
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<2x2xi8>
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[WIN]], #[[TAP]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[A]], %[[WINDOW]] : tensor<1x2x4x4xf32>, tensor<2x2xi8>) outs(%[[INIT]] : tensor<1x2x2x2xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[OH:.*]] = linalg.index 2 : index
// CHECK: %[[H0:.*]] = arith.muli %[[OH]], %{{.*}} : index
// CHECK: %[[HSTART:.*]] = arith.subi %[[H0]], %{{.*}} : index
// CHECK: %[[HEND0:.*]] = arith.addi %[[HSTART]], %{{.*}} : index
// CHECK: %[[HEND:.*]] = arith.minsi %[[HEND0]], %{{.*}} : index
// CHECK: %[[HCOUNT:.*]] = arith.subi %[[HEND]], %[[HSTART]] : index
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[HCOUNT]] : index
// CHECK: %[[OW:.*]] = linalg.index 3 : index
// CHECK-NOT: arith.maxsi
// CHECK: %[[WEND:.*]] = arith.minsi
// CHECK-NEXT: %[[WCOUNT:.*]] = arith.subi %[[WEND]], %{{.*}} : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.muli %[[ROWS]], %[[WCOUNT]] : index
// CHECK-NEXT: %[[COUNT64:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK: %[[DIVISOR:.*]] = arith.sitofp %[[COUNT64]] : i64 to f32
// CHECK: %[[AVG:.*]] = arith.divf %[[S]], %[[DIVISOR]] : f32
// CHECK: linalg.yield %[[AVG]] : f32
// CHECK: torch_c.from_builtin_tensor %[[R]] : tensor<1x2x2x2xf32> -> !torch.vtensor<[1,2,2,2],f32>
func.func @avg_pool(%a: !torch.vtensor<[1,2,4,4],f32>) -> !torch.vtensor<[1,2,2,2],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.avg_pool2d %a, %k, %k, %p, %false, %true, %none : !torch.vtensor<[1,2,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,2,2,2],f32>
  return %0 : !torch.vtensor<[1,2,2,2],f32>
}

// -----

// count_include_pad = false: the window is further clamped to the input,
// start = max(start, 0) and end = min(end, in).
// CHECK-LABEL: func.func @avg_pool_exclude_pad(
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[PADDED]], %{{.*}} : tensor<1x2x6x6xf32>, tensor<2x2xi8>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x3x3xf32>)
// CHECK: %[[OH:.*]] = linalg.index 2 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[H0:.*]] = arith.muli %[[OH]], %[[C2]] : index
// CHECK: %[[HSTART:.*]] = arith.subi %[[H0]], %[[C1]] : index
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[HEND0:.*]] = arith.addi %[[HSTART]], %{{.*}} : index
// CHECK: %[[HEND1:.*]] = arith.minsi %[[HEND0]], %[[C5]] : index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[HSTART2:.*]] = arith.maxsi %[[HSTART]], %[[C0]] : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[HEND2:.*]] = arith.minsi %[[HEND1]], %[[C4]] : index
// CHECK: arith.subi %[[HEND2]], %[[HSTART2]] : index
// CHECK: linalg.index 3 : index
// CHECK: arith.maxsi
// CHECK: arith.divf
func.func @avg_pool_exclude_pad(%a: !torch.vtensor<[1,2,4,4],f32>) -> !torch.vtensor<[1,2,3,3],f32> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.avg_pool2d %a, %k, %k, %p, %false, %false, %none : !torch.vtensor<[1,2,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,2,3,3],f32>
  return %0 : !torch.vtensor<[1,2,3,3],f32>
}

// -----

// divisor_override: a constant divisor.
// CHECK-LABEL: func.func @avg_pool_divisor_override(
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[D64:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK-NEXT: %[[DF:.*]] = arith.sitofp %[[D64]] : i64 to f32
// CHECK-NEXT: %[[AVG:.*]] = arith.divf %[[S]], %[[DF]] : f32
// CHECK-NEXT: linalg.yield %[[AVG]] : f32
// CHECK-NOT: linalg.index
func.func @avg_pool_divisor_override(%a: !torch.vtensor<[1,2,4,4],f32>) -> !torch.vtensor<[1,2,2,2],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %0 = torch.aten.avg_pool2d %a, %k, %k, %p, %false, %true, %int3 : !torch.vtensor<[1,2,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.int -> !torch.vtensor<[1,2,2,2],f32>
  return %0 : !torch.vtensor<[1,2,2,2],f32>
}

// -----

// Dynamic batch and height, count_include_pad = false, ceil_mode: the
// height's output size and the padding after it come from the run-time size
// h (PyTorch's pooling_output_shape, as for max_pool2d), and the divisor
// clamps each window to [0, h) at run time; the static width keeps its
// compile-time bounds (4 = its size).
// CHECK-LABEL: func.func @avg_pool_dynamic(
// CHECK: %[[IN:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,2,?,4],f32> -> tensor<?x2x?x4xf32>
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[IN]], %c0
// CHECK-DAG: %[[H:.*]] = tensor.dim %[[IN]], %c2
// CHECK: %[[Q:.*]] = arith.floordivsi
// CHECK: %[[CEIL:.*]] = arith.addi %[[Q]], %c1
// CHECK: %[[PAST:.*]] = arith.cmpi sge,
// CHECK: %[[OH:.*]] = arith.select %[[PAST]], %{{.*}}, %[[CEIL]] : index
// CHECK: %[[HIGH:.*]] = arith.maxsi %{{.*}}, %c1{{.*}} : index
// CHECK: %[[PADDED:.*]] = tensor.pad %[[IN]] low[0, 0, 1, 1] high[0, 0, %[[HIGH]], 1]
// CHECK: } : tensor<?x2x?x4xf32> to tensor<?x2x?x6xf32>
// CHECK: %[[ACC:.*]] = tensor.empty(%[[N]], %[[OH]]) : tensor<?x2x?x3xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ACC]] : tensor<?x2x?x3xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[PADDED]], %{{.*}} : tensor<?x2x?x6xf32>, tensor<2x2xi8>) outs(%[[INIT]] : tensor<?x2x?x3xf32>)
// CHECK: tensor.empty(%[[N]], %[[OH]]) : tensor<?x2x?x3xf32>
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<?x2x?x3xf32>)
// CHECK: %[[HSTART:.*]] = arith.subi
// CHECK: %[[HPAD:.*]] = arith.addi %[[H]], %c1{{.*}} : index
// CHECK: %[[HEND0:.*]] = arith.minsi %{{.*}}, %[[HPAD]] : index
// CHECK: %[[HSTART2:.*]] = arith.maxsi %[[HSTART]], %c0
// CHECK: %[[HEND:.*]] = arith.minsi %[[HEND0]], %[[H]] : index
// CHECK: arith.subi %[[HEND]], %[[HSTART2]] : index
// CHECK: linalg.index 3 : index
// CHECK: arith.constant 5 : index
// CHECK: arith.constant 4 : index
// CHECK: arith.divf
func.func @avg_pool_dynamic(%a: !torch.vtensor<[?,2,?,4],f32>) -> !torch.vtensor<[?,2,?,3],f32> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.avg_pool2d %a, %k, %k, %p, %true, %false, %none : !torch.vtensor<[?,2,?,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[?,2,?,3],f32>
  return %0 : !torch.vtensor<[?,2,?,3],f32>
}

// -----

// adaptive_avg_pool2d of a dynamic height to 3: the height's window loop
// runs to ceil(h / 3) + 1, a bound on the largest window, and each window
// is [floor(o * h / 3), ceil((o + 1) * h / 3)) of the run-time h; the
// static width (5 to 2) keeps its exact largest window, 3.
// CHECK-LABEL: func.func @adaptive_dynamic(
// CHECK: %[[IN:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,2,?,5],f32> -> tensor<?x2x?x5xf32>
// CHECK: %[[H:.*]] = tensor.dim %[[IN]], %c2
// CHECK: %[[CEIL:.*]] = arith.ceildivui %[[H]], %c3
// CHECK: %[[WIN:.*]] = arith.addi %[[CEIL]], %c1
// CHECK: %[[N:.*]] = tensor.dim %[[IN]], %c0
// CHECK: tensor.empty(%[[N]]) : tensor<?x2x3x2xf32>
// CHECK: %[[TAPS:.*]] = tensor.empty(%[[WIN]]) : tensor<?x3xi8>
// CHECK: linalg.generic {{.*}} ins(%[[TAPS]] : tensor<?x3xi8>) outs(%{{.*}} : tensor<?x2x3x2xf32>)
// CHECK: %[[OH:.*]] = linalg.index 2 : index
// CHECK: %[[OHH:.*]] = arith.muli %[[OH]], %[[H]] : index
// CHECK: arith.divui %[[OHH]], %c3{{.*}} : index
// CHECK: tensor.extract %[[IN]]
func.func @adaptive_dynamic(%a: !torch.vtensor<[?,2,?,5],f32>) -> !torch.vtensor<[?,2,3,2],f32> {
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %size = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten._adaptive_avg_pool2d %a, %size : !torch.vtensor<[?,2,?,5],f32>, !torch.list<int> -> !torch.vtensor<[?,2,3,2],f32>
  return %0 : !torch.vtensor<[?,2,3,2],f32>
}
