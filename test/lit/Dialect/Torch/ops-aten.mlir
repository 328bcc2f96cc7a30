// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s
// RUN: torch2mlir-opt -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// The generated ATen ops share one syntax:
//   %r = torch.aten.<op> operands attr-dict : operand-types -> result-types

// CHECK-LABEL: func.func @mm(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>, %[[B:.*]]: !torch.vtensor<[3,4],f32>)
// CHECK: %[[R:.*]] = torch.aten.mm %[[A]], %[[B]] : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[2,4],f32>
// CHECK: return %[[R]]
// GENERIC: "torch.aten.mm"(%{{.*}}, %{{.*}}) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,4],f32>
func.func @mm(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// Scalars, lists and None operands; result types may be less precise than
// the operands' (here: dynamic and unknown-rank results).
// CHECK-LABEL: func.func @mixed_operands(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[2,4],f32>)
// CHECK: %[[ADD:.*]] = torch.aten.add.Tensor %[[X]], %[[X]], %float{{.*}} : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.float -> !torch.vtensor<[?,4],f32>
// CHECK: %[[DIMS:.*]] = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
// CHECK: torch.aten.sum.dim_IntList %[[ADD]], %[[DIMS]], %false, %none : !torch.vtensor<[?,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<*,f32>
// CHECK: torch.aten.add.int %int1, %int1 : !torch.int, !torch.int -> !torch.int
// CHECK: torch.aten.size.int %[[X]], %int1 : !torch.vtensor<[2,4],f32>, !torch.int -> !torch.int
// CHECK: torch.aten.dim %[[X]] : !torch.vtensor<[2,4],f32> -> !torch.int
func.func @mixed_operands(%x: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<*,f32> {
  %int1 = torch.constant.int 1
  %float = torch.constant.float 2.0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.add.Tensor %x, %x, %float : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.float -> !torch.vtensor<[?,4],f32>
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.sum.dim_IntList %0, %dims, %false, %none : !torch.vtensor<[?,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<*,f32>
  %2 = torch.aten.add.int %int1, %int1 : !torch.int, !torch.int -> !torch.int
  %3 = torch.aten.size.int %x, %int1 : !torch.vtensor<[2,4],f32>, !torch.int -> !torch.int
  %4 = torch.aten.dim %x : !torch.vtensor<[2,4],f32> -> !torch.int
  return %1 : !torch.vtensor<*,f32>
}

// Non-value-semantic tensors are accepted by the ATen ops.
// CHECK-LABEL: func.func @nonvalue(
// CHECK: torch.aten.relu %{{.*}} : !torch.tensor<[2,3],f32> -> !torch.tensor<[2,3],f32>
func.func @nonvalue(%t: !torch.tensor<[2,3],f32>) -> !torch.tensor<[2,3],f32> {
  %0 = torch.aten.relu %t : !torch.tensor<[2,3],f32> -> !torch.tensor<[2,3],f32>
  return %0 : !torch.tensor<[2,3],f32>
}

// Multiple results are named after the ODS result names.
// CHECK-LABEL: func.func @multiple_results(
// CHECK: %[[R0:.*]], %[[R1:.*]], %[[R2:.*]] = torch.aten._native_batch_norm_legit_no_training %{{.*}}, %none, %none, %{{.*}}, %{{.*}}, %float{{.*}}, %float{{.*}} : !torch.vtensor<[2,3],f32>, !torch.none, !torch.none, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.float, !torch.float -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
// CHECK: return %[[R0]], %[[R2]]
func.func @multiple_results(%x: !torch.vtensor<[2,3],f32>, %m: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[0],f32>) {
  %none = torch.constant.none
  %mom = torch.constant.float 0.1
  %eps = torch.constant.float 1.0e-05
  %0:3 = torch.aten._native_batch_norm_legit_no_training %x, %none, %none, %m, %m, %mom, %eps : !torch.vtensor<[2,3],f32>, !torch.none, !torch.none, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.float, !torch.float -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %0#0, %0#2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[0],f32>
}

// A discardable attribute is printed between the operands and the colon.
// CHECK-LABEL: func.func @attributes(
// CHECK: torch.aten.mm %{{.*}}, %{{.*}} {some.tag = 1 : i64} : !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32> -> !torch.vtensor<[2,2],f32>
// GENERIC: "torch.aten.mm"(%{{.*}}, %{{.*}}) {some.tag = 1 : i64}
func.func @attributes(%a: !torch.vtensor<[2,2],f32>) -> !torch.vtensor<[2,2],f32> {
  %0 = torch.aten.mm %a, %a {some.tag = 1 : i64} : !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32> -> !torch.vtensor<[2,2],f32>
  return %0 : !torch.vtensor<[2,2],f32>
}
