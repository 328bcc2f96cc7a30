// RUN: torch2mlir-opt %s -convert-torch-to-arith -split-input-file | FileCheck %s

// torch.runtime.assert becomes cf.assert on the i1 of its condition (which
// refbackend-lower-asserts reports as an InputError, never an abort).
// CHECK-LABEL: func.func @check(
// CHECK-SAME: %[[B:.*]]: !torch.bool)
// CHECK: %[[I1:.*]] = torch_c.to_i1 %[[B]]
// CHECK: cf.assert %[[I1]], "axes differ"
// CHECK-NOT: torch.runtime.assert
func.func @check(%b: !torch.bool) {
  torch.runtime.assert %b, "axes differ"
  return
}

// -----

// A constant condition converts too (true asserts fold away later).
// CHECK-LABEL: func.func @constant(
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: cf.assert %[[T]], "always"
func.func @constant() {
  %true = torch.constant.bool true
  torch.runtime.assert %true, "always"
  return
}
