// RUN: torch2mlir-opt %s -torch-decompose-complex-ops -split-input-file | FileCheck %s

// contiguous, detach and alias return their operand under value semantics.

// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK-NOT: torch.aten
// CHECK: return %[[A]] : !torch.vtensor<[2,3],f32>
func.func @chain(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.contiguous %a, %int0 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.detach %0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  %2 = torch.aten.alias %1 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  return %2 : !torch.vtensor<[2,3],f32>
}

// -----

// The users of the removed op now use its operand.
// CHECK-LABEL: func.func @users(
// CHECK-SAME: %[[A:.*]]: !torch.vtensor<[2],f32>)
// CHECK: %[[R:.*]] = torch.aten.relu %[[A]]
// CHECK: return %[[R]]
func.func @users(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.aten.detach %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %1 = torch.aten.relu %0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return %1 : !torch.vtensor<[2],f32>
}

// -----

// Not removed when the result type differs from the operand's.
// CHECK-LABEL: func.func @type_change(
// CHECK: %[[R:.*]] = torch.aten.detach %{{.*}} : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[?,3],f32>
// CHECK: return %[[R]]
func.func @type_change(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %0 = torch.aten.detach %a : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}
