// RUN: torch2mlir-opt %s -convert-torch-to-arith -split-input-file | FileCheck %s

// torch.constant.{int,float,bool} become arith.constant of i64/f64/i1,
// bridged back to torch types with torch_c ops where still needed.

// CHECK-LABEL: func.func @constants()
// CHECK: %[[I:.*]] = arith.constant -3 : i64
// CHECK: %[[TI:.*]] = torch_c.from_i64 %[[I]]
// CHECK: %[[F:.*]] = arith.constant 2.500000e+00 : f64
// CHECK: %[[TF:.*]] = torch_c.from_f64 %[[F]]
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[TT:.*]] = torch_c.from_i1 %[[T]]
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: %[[TFALSE:.*]] = torch_c.from_i1 %[[FALSE]]
// CHECK: return %[[TI]], %[[TF]], %[[TT]], %[[TFALSE]] : !torch.int, !torch.float, !torch.bool, !torch.bool
// CHECK-NOT: torch.constant
func.func @constants() -> (!torch.int, !torch.float, !torch.bool, !torch.bool) {
  %0 = torch.constant.int -3
  %1 = torch.constant.float 2.5
  %2 = torch.constant.bool true
  %3 = torch.constant.bool false
  return %0, %1, %2, %3 : !torch.int, !torch.float, !torch.bool, !torch.bool
}

// -----

// Constants without a builtin counterpart stay.
// CHECK-LABEL: func.func @kept()
// CHECK: torch.constant.none
// CHECK: torch.constant.str "x"
// CHECK: torch.constant.device "cpu"
func.func @kept() -> (!torch.none, !torch.str, !torch.Device) {
  %0 = torch.constant.none
  %1 = torch.constant.str "x"
  %2 = torch.constant.device "cpu"
  return %0, %1, %2 : !torch.none, !torch.str, !torch.Device
}
