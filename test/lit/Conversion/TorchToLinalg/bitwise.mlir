// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// and/or/xor of integers (and bools), with broadcasting.
// CHECK-LABEL: func.func @and_or_xor(
// CHECK: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: arith.andi %[[A]], %[[B]] : i32
// CHECK: ^bb0(%[[C:.*]]: i32, %[[D:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: arith.ori %[[C]], %[[D]] : i32
// CHECK: ^bb0(%[[E:.*]]: i1, %[[F:.*]]: i1, %{{.*}}: i1):
// CHECK-NEXT: arith.xori %[[E]], %[[F]] : i1
func.func @and_or_xor(%a: !torch.vtensor<[2,3],si32>, %b: !torch.vtensor<[3],si32>, %p: !torch.vtensor<[3],i1>, %q: !torch.vtensor<[3],i1>) -> (!torch.vtensor<[2,3],si32>, !torch.vtensor<[2,3],si32>, !torch.vtensor<[3],i1>) {
  %0 = torch.aten.bitwise_and.Tensor %a, %b : !torch.vtensor<[2,3],si32>, !torch.vtensor<[3],si32> -> !torch.vtensor<[2,3],si32>
  %1 = torch.aten.bitwise_or.Tensor %a, %b : !torch.vtensor<[2,3],si32>, !torch.vtensor<[3],si32> -> !torch.vtensor<[2,3],si32>
  %2 = torch.aten.bitwise_xor.Tensor %p, %q : !torch.vtensor<[3],i1>, !torch.vtensor<[3],i1> -> !torch.vtensor<[3],i1>
  return %0, %1, %2 : !torch.vtensor<[2,3],si32>, !torch.vtensor<[2,3],si32>, !torch.vtensor<[3],i1>
}

// -----

// Right shifts are arithmetic for signed dtypes, logical for unsigned ones;
// not flips every bit.
// CHECK-LABEL: func.func @shifts_not(
// CHECK: ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: arith.shli %[[A]], %[[B]] : i8
// CHECK: ^bb0(%[[C:.*]]: i8, %[[D:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: arith.shrsi %[[C]], %[[D]] : i8
// CHECK: ^bb0(%[[E:.*]]: i8, %[[F:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: arith.shrui %[[E]], %[[F]] : i8
// CHECK: ^bb0(%[[G:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: %[[ONES:.*]] = arith.constant -1 : i8
// CHECK-NEXT: arith.xori %[[G]], %[[ONES]] : i8
func.func @shifts_not(%a: !torch.vtensor<[4],si8>, %b: !torch.vtensor<[4],si8>, %u: !torch.vtensor<[4],ui8>, %v: !torch.vtensor<[4],ui8>) -> (!torch.vtensor<[4],si8>, !torch.vtensor<[4],si8>, !torch.vtensor<[4],ui8>, !torch.vtensor<[4],si8>) {
  %0 = torch.aten.bitwise_left_shift.Tensor %a, %b : !torch.vtensor<[4],si8>, !torch.vtensor<[4],si8> -> !torch.vtensor<[4],si8>
  %1 = torch.aten.bitwise_right_shift.Tensor %a, %b : !torch.vtensor<[4],si8>, !torch.vtensor<[4],si8> -> !torch.vtensor<[4],si8>
  %2 = torch.aten.bitwise_right_shift.Tensor %u, %v : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],ui8>
  %3 = torch.aten.bitwise_not %a : !torch.vtensor<[4],si8> -> !torch.vtensor<[4],si8>
  return %0, %1, %2, %3 : !torch.vtensor<[4],si8>, !torch.vtensor<[4],si8>, !torch.vtensor<[4],ui8>, !torch.vtensor<[4],si8>
}

// -----

func.func @and_float(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  // expected-error @+1 {{unsupported: a bitwise op of a non-integer dtype}}
  %0 = torch.aten.bitwise_and.Tensor %a, %b : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
