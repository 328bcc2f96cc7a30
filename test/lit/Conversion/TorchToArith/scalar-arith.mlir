// RUN: torch2mlir-opt %s -convert-torch-to-arith -split-input-file | FileCheck %s

// Python int arithmetic and comparisons on i64.
// CHECK-LABEL: func.func @int_ops(
// CHECK-SAME: %[[A:.*]]: !torch.int, %[[B:.*]]: !torch.int)
// CHECK-DAG: %[[Y:.*]] = torch_c.to_i64 %[[B]]
// CHECK-DAG: %[[X:.*]] = torch_c.to_i64 %[[A]]
// CHECK: %[[ADD:.*]] = arith.addi %[[X]], %[[Y]] : i64
// CHECK: torch_c.from_i64 %[[ADD]]
// CHECK: %[[SUB:.*]] = arith.subi %[[X]], %[[Y]] : i64
// CHECK: torch_c.from_i64 %[[SUB]]
// CHECK: %[[MUL:.*]] = arith.muli %[[X]], %[[Y]] : i64
// CHECK: torch_c.from_i64 %[[MUL]]
// Python's // rounds toward negative infinity.
// CHECK: %[[DIV:.*]] = arith.floordivsi %[[X]], %[[Y]] : i64
// CHECK: torch_c.from_i64 %[[DIV]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[X]] : i64
// CHECK: torch_c.from_i64 %[[NEG]]
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[X]], %[[Y]] : i64
// CHECK: torch_c.from_i1 %[[EQ]]
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[X]], %[[Y]] : i64
// CHECK: torch_c.from_i1 %[[LT]]
// CHECK: %[[GT:.*]] = arith.cmpi sgt, %[[X]], %[[Y]] : i64
// CHECK: torch_c.from_i1 %[[GT]]
// CHECK-NOT: torch.aten
func.func @int_ops(%a: !torch.int, %b: !torch.int) -> (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.bool, !torch.bool, !torch.bool) {
  %0 = torch.aten.add.int %a, %b : !torch.int, !torch.int -> !torch.int
  %1 = torch.aten.sub.int %a, %b : !torch.int, !torch.int -> !torch.int
  %2 = torch.aten.mul.int %a, %b : !torch.int, !torch.int -> !torch.int
  %3 = torch.aten.floordiv.int %a, %b : !torch.int, !torch.int -> !torch.int
  %4 = torch.aten.neg.int %a : !torch.int -> !torch.int
  %5 = torch.aten.eq.int %a, %b : !torch.int, !torch.int -> !torch.bool
  %6 = torch.aten.lt.int %a, %b : !torch.int, !torch.int -> !torch.bool
  %7 = torch.aten.gt.int %a, %b : !torch.int, !torch.int -> !torch.bool
  return %0, %1, %2, %3, %4, %5, %6, %7 : !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.bool, !torch.bool, !torch.bool
}

// -----

// Python float arithmetic on f64.
// CHECK-LABEL: func.func @float_ops(
// CHECK-SAME: %[[A:.*]]: !torch.float, %[[B:.*]]: !torch.float)
// CHECK-DAG: %[[Y:.*]] = torch_c.to_f64 %[[B]]
// CHECK-DAG: %[[X:.*]] = torch_c.to_f64 %[[A]]
// CHECK: arith.addf %[[X]], %[[Y]] : f64
// CHECK: arith.subf %[[X]], %[[Y]] : f64
// CHECK: %[[MUL:.*]] = arith.mulf %[[X]], %[[Y]] : f64
// CHECK: %[[R:.*]] = torch_c.from_f64 %[[MUL]]
// CHECK: arith.divf %[[X]], %[[Y]] : f64
func.func @float_ops(%a: !torch.float, %b: !torch.float) -> (!torch.float, !torch.float, !torch.float, !torch.float) {
  %0 = torch.aten.add.float %a, %b : !torch.float, !torch.float -> !torch.float
  %1 = torch.aten.sub.float %a, %b : !torch.float, !torch.float -> !torch.float
  %2 = torch.aten.mul.float %a, %b : !torch.float, !torch.float -> !torch.float
  %3 = torch.aten.div.float %a, %b : !torch.float, !torch.float -> !torch.float
  return %0, %1, %2, %3 : !torch.float, !torch.float, !torch.float, !torch.float
}

// -----

// Constants and ops convert together: no torch_c between them.
// CHECK-LABEL: func.func @chain()
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK: %[[D:.*]] = arith.floordivsi %[[C7]], %[[C2]] : i64
// CHECK: %[[R:.*]] = torch_c.from_i64 %[[D]]
// CHECK: return %[[R]] : !torch.int
func.func @chain() -> !torch.int {
  %int7 = torch.constant.int 7
  %int2 = torch.constant.int 2
  %0 = torch.aten.floordiv.int %int7, %int2 : !torch.int, !torch.int -> !torch.int
  return %0 : !torch.int
}
