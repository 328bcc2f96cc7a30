// RUN: torch2mlir-opt %s | FileCheck %s
// RUN: torch2mlir-opt %s | torch2mlir-opt | FileCheck %s

// The scalar and opaque types of the torch dialect round-trip.

// CHECK-LABEL: func.func private @scalars(
// CHECK-SAME: !torch.int, !torch.float, !torch.bool, !torch.number)
func.func private @scalars(!torch.int, !torch.float, !torch.bool, !torch.number)

// CHECK-LABEL: func.func private @others(
// CHECK-SAME: !torch.none, !torch.str, !torch.Device, !torch.Generator)
func.func private @others(!torch.none, !torch.str, !torch.Device, !torch.Generator)

// CHECK-LABEL: func.func @passthrough(
// CHECK-SAME: %[[I:.*]]: !torch.int, %[[F:.*]]: !torch.float, %[[N:.*]]: !torch.number)
// CHECK-SAME: -> (!torch.number, !torch.float, !torch.int)
// CHECK: return %[[N]], %[[F]], %[[I]] : !torch.number, !torch.float, !torch.int
func.func @passthrough(%i: !torch.int, %f: !torch.float, %n: !torch.number) -> (!torch.number, !torch.float, !torch.int) {
  return %n, %f, %i : !torch.number, !torch.float, !torch.int
}
