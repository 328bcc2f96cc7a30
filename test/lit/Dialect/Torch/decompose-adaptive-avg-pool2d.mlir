// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -torch-decompose-complex-ops="legal-ops=aten._adaptive_avg_pool2d" -split-input-file | FileCheck %s --check-prefix=LEGAL

// adaptive_avg_pool2d -> _adaptive_avg_pool2d -> avg_pool2d with
// kernel = stride = input / output when every input size is a multiple of
// the output size (all windows have the same size).

// CHECK-LABEL: func.func @divisible(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[1,3,8,6],f32>)
// CHECK-DAG: %[[K:.*]] = torch.prim.ListConstruct %int4, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK-DAG: %[[P:.*]] = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK: %[[R:.*]] = torch.aten.avg_pool2d %[[A]], %[[K]], %[[K]], %[[P]], %false, %true, %none : !torch.vtensor<[1,3,8,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,3,2,3],f32>
// CHECK: return %[[R]]
// CHECK-NOT: adaptive_avg_pool2d
// LEGAL-LABEL: func.func @divisible(
// LEGAL: torch.aten._adaptive_avg_pool2d %{{.*}}, %{{.*}} : !torch.vtensor<[1,3,8,6],f32>, !torch.list<int> -> !torch.vtensor<[1,3,2,3],f32>
// LEGAL-NOT: torch.aten.avg_pool2d
// LEGAL: return
func.func @divisible(%a: !torch.vtensor<[1,3,8,6],f32>) -> !torch.vtensor<[1,3,2,3],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %o = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.adaptive_avg_pool2d %a, %o : !torch.vtensor<[1,3,8,6],f32>, !torch.list<int> -> !torch.vtensor<[1,3,2,3],f32>
  return %0 : !torch.vtensor<[1,3,2,3],f32>
}

// -----

// Global pooling (output 1x1): the kernel is the whole input.
// CHECK-LABEL: func.func @global(
// CHECK: %[[K:.*]] = torch.prim.ListConstruct %int7, %int7 :
// CHECK: torch.aten.avg_pool2d %{{.*}}, %[[K]], %[[K]], %{{.*}}, %false, %true, %none : !torch.vtensor<[1,3,7,7],f32>, {{.*}} -> !torch.vtensor<[1,3,1,1],f32>
func.func @global(%a: !torch.vtensor<[1,3,7,7],f32>) -> !torch.vtensor<[1,3,1,1],f32> {
  %int1 = torch.constant.int 1
  %o = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.adaptive_avg_pool2d %a, %o : !torch.vtensor<[1,3,7,7],f32>, !torch.list<int> -> !torch.vtensor<[1,3,1,1],f32>
  return %0 : !torch.vtensor<[1,3,1,1],f32>
}

// -----

// 7 is not a multiple of 3: only the first step happens.
// CHECK-LABEL: func.func @not_divisible(
// CHECK: %[[R:.*]] = torch.aten._adaptive_avg_pool2d %{{.*}}, %{{.*}} : !torch.vtensor<[1,3,7,7],f32>, !torch.list<int> -> !torch.vtensor<[1,3,3,3],f32>
// CHECK: return %[[R]]
// CHECK-NOT: torch.aten.avg_pool2d
func.func @not_divisible(%a: !torch.vtensor<[1,3,7,7],f32>) -> !torch.vtensor<[1,3,3,3],f32> {
  %int3 = torch.constant.int 3
  %o = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.adaptive_avg_pool2d %a, %o : !torch.vtensor<[1,3,7,7],f32>, !torch.list<int> -> !torch.vtensor<[1,3,3,3],f32>
  return %0 : !torch.vtensor<[1,3,3,3],f32>
}

// -----

// Dynamic spatial sizes: kept as _adaptive_avg_pool2d.
// CHECK-LABEL: func.func @dynamic(
// CHECK: torch.aten._adaptive_avg_pool2d %{{.*}} : !torch.vtensor<[1,3,?,?],f32>, !torch.list<int> -> !torch.vtensor<[1,3,1,1],f32>
func.func @dynamic(%a: !torch.vtensor<[1,3,?,?],f32>) -> !torch.vtensor<[1,3,1,1],f32> {
  %int1 = torch.constant.int 1
  %o = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.adaptive_avg_pool2d %a, %o : !torch.vtensor<[1,3,?,?],f32>, !torch.list<int> -> !torch.vtensor<[1,3,1,1],f32>
  return %0 : !torch.vtensor<[1,3,1,1],f32>
}
