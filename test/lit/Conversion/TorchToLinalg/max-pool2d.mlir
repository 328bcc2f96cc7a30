// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file | FileCheck %s

// max_pool2d: linalg.pooling_nchw_max over the input padded with -inf,
// into an accumulator filled with -inf.

// CHECK-LABEL: func.func @max_pool_padding(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[1,2,5,5],f32> -> tensor<1x2x5x5xf32>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PADDED:.*]] = tensor.pad %[[A]] low[0, 0, 1, 1] high[0, 0, 1, 1] {
// CHECK: tensor.yield %[[NEGINF]] : f32
// CHECK: } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%[[EMPTY]] : tensor<1x2x3x3xf32>)
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[POOL:.*]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %[[WINDOW]] : tensor<1x2x7x7xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK: torch_c.from_builtin_tensor %[[POOL]] : tensor<1x2x3x3xf32> -> !torch.vtensor<[1,2,3,3],f32>
func.func @max_pool_padding(%a: !torch.vtensor<[1,2,5,5],f32>) -> !torch.vtensor<[1,2,3,3],f32> {
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %0 = torch.aten.max_pool2d %a, %k, %s, %p, %d, %false : !torch.vtensor<[1,2,5,5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,3,3],f32>
  return %0 : !torch.vtensor<[1,2,3,3],f32>
}

// -----

// ceil_mode: extra high padding so that the last (partial) window exists:
// 6 -> 3 outputs of kernel 3, stride 2 needs 7 rows.
// CHECK-LABEL: func.func @max_pool_ceil_mode(
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: } : tensor<1x2x6x6xf32> to tensor<1x2x7x7xf32>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x7x7xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
func.func @max_pool_ceil_mode(%a: !torch.vtensor<[1,2,6,6],f32>) -> !torch.vtensor<[1,2,3,3],f32> {
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %0 = torch.aten.max_pool2d %a, %k, %s, %p, %d, %true : !torch.vtensor<[1,2,6,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,3,3],f32>
  return %0 : !torch.vtensor<[1,2,3,3],f32>
}

// -----

// Integers start from INT_MIN; an empty stride means stride = kernel; no
// padding means no tensor.pad.
// CHECK-LABEL: func.func @max_pool_int(
// CHECK: %[[MIN:.*]] = arith.constant -9223372036854775808 : i64
// CHECK-NOT: tensor.pad
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[MIN]] : i64) outs(%{{.*}} : tensor<1x1x2x2xi64>)
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x4x4xi64>, tensor<2x2xi64>) outs(%[[INIT]] : tensor<1x1x2x2xi64>)
func.func @max_pool_int(%a: !torch.vtensor<[1,1,4,4],si64>) -> !torch.vtensor<[1,1,2,2],si64> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct  : () -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %0 = torch.aten.max_pool2d %a, %k, %s, %p, %d, %false : !torch.vtensor<[1,1,4,4],si64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,2,2],si64>
  return %0 : !torch.vtensor<[1,1,2,2],si64>
}

// -----

// Dilation is passed through.
// CHECK-LABEL: func.func @max_pool_dilation(
// CHECK: linalg.pooling_nchw_max {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x5x5xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<1x1x3x3xf32>)
func.func @max_pool_dilation(%a: !torch.vtensor<[1,1,5,5],f32>) -> !torch.vtensor<[1,1,3,3],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %0 = torch.aten.max_pool2d %a, %k, %s, %p, %d, %false : !torch.vtensor<[1,1,5,5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,3,3],f32>
  return %0 : !torch.vtensor<[1,1,3,3],f32>
}

// -----

// Dynamic batch and height: the height's output size and the padding after
// it come from the run-time size (PyTorch's pooling_output_shape: with
// ceil_mode, (h + 2 - 3 + 1) floordiv 2 + 1, one less when that last window
// starts past h + 1); the static width pads 1 after, as the known case.
// CHECK-LABEL: func.func @max_pool2d_dynamic(
// CHECK: %[[IN:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,2,?,9],f32> -> tensor<?x2x?x9xf32>
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[IN]], %c0
// CHECK-DAG: %[[H:.*]] = tensor.dim %[[IN]], %c2
// CHECK: %[[Q:.*]] = arith.floordivsi
// CHECK: %[[CEIL:.*]] = arith.addi %[[Q]], %c1
// CHECK: %[[PAST:.*]] = arith.cmpi sge,
// CHECK: %[[OH:.*]] = arith.select %[[PAST]], %{{.*}}, %[[CEIL]] : index
// CHECK: %[[HIGH:.*]] = arith.maxsi %{{.*}}, %c1{{.*}} : index
// CHECK: tensor.pad %[[IN]] low[0, 0, 1, 1] high[0, 0, %[[HIGH]], 1]
// CHECK: } : tensor<?x2x?x9xf32> to tensor<?x2x?x11xf32>
// CHECK: tensor.empty(%[[N]], %[[OH]]) : tensor<?x2x?x5xf32>
// CHECK: linalg.pooling_nchw_max {{.*}} outs(%{{.*}} : tensor<?x2x?x5xf32>)
func.func @max_pool2d_dynamic(%a: !torch.vtensor<[?,2,?,9],f32>) -> !torch.vtensor<[?,2,?,5],f32> {
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.max_pool2d %a, %k, %s, %p, %d, %true : !torch.vtensor<[?,2,?,9],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[?,2,?,5],f32>
  return %0 : !torch.vtensor<[?,2,?,5],f32>
}
