// RUN: torch2mlir-opt %s -canonicalize -split-input-file | FileCheck %s
// RUN: torch2mlir-opt %s -cse -split-input-file | FileCheck %s --check-prefix=CSE

// Duplicate constants are merged into one.
// CHECK-LABEL: func.func @duplicates()
// CHECK-NEXT: %int4 = torch.constant.int 4
// CHECK-NEXT: %[[F:.*]] = torch.constant.float 1.000000e+00
// CHECK-NEXT: %true = torch.constant.bool true
// CHECK-NEXT: %none = torch.constant.none
// CHECK-NEXT: %str = torch.constant.str "a"
// CHECK-NEXT: %cpu = torch.constant.device "cpu"
// CHECK-NEXT: return %int4, %int4, %[[F]], %[[F]], %true, %true, %none, %none, %str, %str, %cpu, %cpu :
// CSE-LABEL: func.func @duplicates()
// CSE-COUNT-6: torch.constant
// CSE-NOT: torch.constant
// CSE: return %int4, %int4, %[[F:.*]], %[[F]], %true, %true, %none, %none, %str, %str, %cpu, %cpu :
func.func @duplicates() -> (!torch.int, !torch.int, !torch.float, !torch.float, !torch.bool, !torch.bool, !torch.none, !torch.none, !torch.str, !torch.str, !torch.Device, !torch.Device) {
  %0 = torch.constant.int 4
  %1 = torch.constant.int 4
  %2 = torch.constant.float 1.0
  %3 = torch.constant.float 1.0
  %4 = torch.constant.bool true
  %5 = torch.constant.bool true
  %6 = torch.constant.none
  %7 = torch.constant.none
  %8 = torch.constant.str "a"
  %9 = torch.constant.str "a"
  %10 = torch.constant.device "cpu"
  %11 = torch.constant.device "cpu"
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : !torch.int, !torch.int, !torch.float, !torch.float, !torch.bool, !torch.bool, !torch.none, !torch.none, !torch.str, !torch.str, !torch.Device, !torch.Device
}

// -----

// Different values stay distinct; equal literals are merged.
// CHECK-LABEL: func.func @distinct()
// CHECK-DAG: %int4 = torch.constant.int 4
// CHECK-DAG: %int5 = torch.constant.int 5
// CHECK-DAG: %true = torch.constant.bool true
// CHECK-DAG: %false = torch.constant.bool false
// CHECK-DAG: %[[ONE:.*]] = torch.vtensor.literal(dense<1.000000e+00> : tensor<2xf32>) : !torch.vtensor<[2],f32>
// CHECK-DAG: %[[TWO:.*]] = torch.vtensor.literal(dense<2.000000e+00> : tensor<2xf32>) : !torch.vtensor<[2],f32>
// CHECK: return %int4, %int5, %true, %false, %[[ONE]], %[[ONE]], %[[TWO]] :
func.func @distinct() -> (!torch.int, !torch.int, !torch.bool, !torch.bool, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) {
  %0 = torch.constant.int 4
  %1 = torch.constant.int 5
  %2 = torch.constant.bool true
  %3 = torch.constant.bool false
  %4 = torch.vtensor.literal(dense<1.0> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %5 = torch.vtensor.literal(dense<1.0> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %6 = torch.vtensor.literal(dense<2.0> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  return %0, %1, %2, %3, %4, %5, %6 : !torch.int, !torch.int, !torch.bool, !torch.bool, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>
}

// -----

// Unused constants, lists and side-effect free ATen ops are removed;
// torch.operator (whose effects are unknown) stays.
// CHECK-LABEL: func.func @dead(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2],f32>)
// CHECK-NOT: torch.constant
// CHECK-NOT: torch.prim.ListConstruct
// CHECK-NOT: torch.vtensor.literal
// CHECK-NOT: torch.aten.relu
// CHECK: torch.operator "aten.sin"(%[[A]])
// CHECK-NEXT: return %[[A]]
func.func @dead(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.constant.int 4
  %1 = torch.constant.float 1.0
  %2 = torch.constant.none
  %3 = torch.prim.ListConstruct %0 : (!torch.int) -> !torch.list<int>
  %4 = torch.vtensor.literal(dense<1.0> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %5 = torch.constant.device "cpu"
  %6 = torch.constant.str "x"
  %7 = torch.constant.bool false
  %8 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %9 = torch.operator "aten.sin"(%a) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %a : !torch.vtensor<[2],f32>
}

// -----

// Constants are hoisted to the start of the function by -canonicalize.
// CHECK-LABEL: func.func @hoisted(
// CHECK-NEXT: %int2 = torch.constant.int 2
// CHECK-NEXT: torch.aten.relu
// CHECK-NEXT: torch.aten.mul.Scalar %{{.*}}, %int2
// CHECK-NEXT: torch.aten.mul.Scalar %{{.*}}, %int2
func.func @hoisted(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %int2 = torch.constant.int 2
  %1 = torch.aten.mul.Scalar %0, %int2 : !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  %int2_0 = torch.constant.int 2
  %2 = torch.aten.mul.Scalar %1, %int2_0 : !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  return %2 : !torch.vtensor<[2],f32>
}
