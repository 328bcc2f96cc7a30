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
// an amount out of [0, 8) (negative: a large unsigned value) shifts by 0 and
// is replaced by ATen's value: 0, or the sign fill (x >> 7) of a signed
// right shift. not flips every bit.
// CHECK-LABEL: func.func @shifts_not(
// CHECK: ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: %[[W:.*]] = arith.constant 8 : i8
// CHECK-NEXT: %[[FAR:.*]] = arith.cmpi uge, %[[B]], %[[W]] : i8
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT: %[[AMT:.*]] = arith.select %[[FAR]], %[[Z]], %[[B]] : i8
// CHECK-NEXT: %[[SHL:.*]] = arith.shli %[[A]], %[[AMT]] : i8
// CHECK-NEXT: %[[R0:.*]] = arith.select %[[FAR]], %[[Z]], %[[SHL]] : i8
// CHECK-NEXT: linalg.yield %[[R0]]
// CHECK: ^bb0(%[[C:.*]]: i8, %[[D:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[FAR1:.*]] = arith.cmpi uge, %[[D]]
// CHECK: %[[AMT1:.*]] = arith.select %[[FAR1]]
// CHECK-NEXT: %[[SHR:.*]] = arith.shrsi %[[C]], %[[AMT1]] : i8
// CHECK-NEXT: %[[SEVEN:.*]] = arith.constant 7 : i8
// CHECK-NEXT: %[[FILL:.*]] = arith.shrsi %[[C]], %[[SEVEN]] : i8
// CHECK-NEXT: arith.select %[[FAR1]], %[[FILL]], %[[SHR]] : i8
// CHECK: ^bb0(%[[E:.*]]: i8, %[[F:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[FAR2:.*]] = arith.cmpi uge, %[[F]]
// CHECK: %[[AMT2:.*]] = arith.select %[[FAR2]]
// CHECK-NEXT: %[[SHRU:.*]] = arith.shrui %[[E]], %[[AMT2]] : i8
// CHECK-NEXT: arith.select %[[FAR2]], %{{.*}}, %[[SHRU]] : i8
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
