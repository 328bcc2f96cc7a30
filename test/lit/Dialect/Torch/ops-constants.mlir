// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s
// RUN: torch2mlir-opt -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// Constants round-trip, and their results get readable SSA names.

// CHECK-LABEL: func.func @ints() -> (!torch.int, !torch.int, !torch.int)
// CHECK-NEXT: %int3 = torch.constant.int 3
// CHECK-NEXT: %int-7 = torch.constant.int -7
// CHECK-NEXT: %int0 = torch.constant.int 0
// CHECK-NEXT: return %int3, %int-7, %int0 : !torch.int, !torch.int, !torch.int
// GENERIC-LABEL: sym_name = "ints"
// GENERIC: "torch.constant.int"() <{value = 3 : i64}> : () -> !torch.int
// GENERIC: "torch.constant.int"() <{value = -7 : i64}> : () -> !torch.int
func.func @ints() -> (!torch.int, !torch.int, !torch.int) {
  %0 = torch.constant.int 3
  %1 = torch.constant.int -7
  %2 = torch.constant.int 0
  return %0, %1, %2 : !torch.int, !torch.int, !torch.int
}

// CHECK-LABEL: func.func @floats() -> (!torch.float, !torch.float, !torch.float)
// CHECK-NEXT: %[[A:float.*]] = torch.constant.float 2.500000e+00
// CHECK-NEXT: %[[B:float.*]] = torch.constant.float -1.000000e-05
// CHECK-NEXT: %[[C:float.*]] = torch.constant.float 0x7FF0000000000000
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]] : !torch.float, !torch.float, !torch.float
// GENERIC-LABEL: sym_name = "floats"
// GENERIC: "torch.constant.float"() <{value = 2.500000e+00 : f64}> : () -> !torch.float
func.func @floats() -> (!torch.float, !torch.float, !torch.float) {
  %0 = torch.constant.float 2.5
  %1 = torch.constant.float -1.0e-05
  %2 = torch.constant.float 0x7FF0000000000000
  return %0, %1, %2 : !torch.float, !torch.float, !torch.float
}

// CHECK-LABEL: func.func @bools_none() -> (!torch.bool, !torch.bool, !torch.none)
// CHECK-NEXT: %true = torch.constant.bool true
// CHECK-NEXT: %false = torch.constant.bool false
// CHECK-NEXT: %none = torch.constant.none
// CHECK-NEXT: return %true, %false, %none : !torch.bool, !torch.bool, !torch.none
func.func @bools_none() -> (!torch.bool, !torch.bool, !torch.none) {
  %0 = torch.constant.bool true
  %1 = torch.constant.bool false
  %2 = torch.constant.none
  return %0, %1, %2 : !torch.bool, !torch.bool, !torch.none
}

// A device constant is named after its value.
// CHECK-LABEL: func.func @str_device() -> (!torch.str, !torch.Device, !torch.Device)
// CHECK-NEXT: %str = torch.constant.str "hello world"
// CHECK-NEXT: %cpu = torch.constant.device "cpu"
// CHECK-NEXT: %[[META:.*]] = torch.constant.device "meta"
// CHECK-NEXT: return %str, %cpu, %[[META]] : !torch.str, !torch.Device, !torch.Device
// GENERIC-LABEL: sym_name = "str_device"
// GENERIC: "torch.constant.str"() <{value = "hello world"}> : () -> !torch.str
// GENERIC: "torch.constant.device"() <{value = "cpu"}> : () -> !torch.Device
func.func @str_device() -> (!torch.str, !torch.Device, !torch.Device) {
  %0 = torch.constant.str "hello world"
  %1 = torch.constant.device "cpu"
  %2 = torch.constant.device "meta"
  return %0, %1, %2 : !torch.str, !torch.Device, !torch.Device
}
