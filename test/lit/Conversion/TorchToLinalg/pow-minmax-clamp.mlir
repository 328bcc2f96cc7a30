// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// pow.Tensor_Scalar: x * x for 2, sqrt for 0.5, math.powf otherwise;
// math.ipowi on integers (scalar or tensor exponents) other than 0-3, by a
// non-negative exponent: a run-time negative one gives ATen's value instead
// (1 for base 1, +-1 for base -1 by parity, else 0); a constant one is known
// not to be negative.
// CHECK-LABEL: func.func @pow(
// CHECK: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK-NEXT: linalg.yield %[[SQ]] : f32
// CHECK: ^bb0(%[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SQRT:.*]] = math.sqrt %[[B]] : f32
// CHECK: %[[E:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: ^bb0(%[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: math.powf %[[C]], %[[E]] : f32
// CHECK: ^bb0(%[[D:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: math.ipowi %[[D]], %{{.*}} : i64
// CHECK: ^bb0(%[[X:.*]]: i64, %[[Y:.*]]: i64, %{{.*}}: i64):
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[Y]], %{{.*}} : i64
// CHECK-NEXT: %[[NONNEG:.*]] = arith.select %[[NEG]], %{{.*}}, %[[Y]] : i64
// CHECK-NEXT: %[[P:.*]] = math.ipowi %[[X]], %[[NONNEG]] : i64
// CHECK: %[[ISMINUS:.*]] = arith.cmpi eq, %[[X]], %c-1_i64 : i64
// CHECK-NEXT: %[[SIGNED:.*]] = arith.select %[[ISMINUS]], %{{.*}}, %c0_i64 : i64
// CHECK-NEXT: %[[ISONE:.*]] = arith.cmpi eq, %[[X]], %c1_i64 : i64
// CHECK-NEXT: %[[FRAC:.*]] = arith.select %[[ISONE]], %c1_i64, %[[SIGNED]] : i64
// CHECK-NEXT: arith.select %[[NEG]], %[[FRAC]], %[[P]] : i64
func.func @pow(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],si64>, %c: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>) {
  %two = torch.constant.int 2
  %half = torch.constant.float 5.000000e-01
  %e = torch.constant.float 2.700000e+00
  %three = torch.constant.int 5
  %0 = torch.aten.pow.Tensor_Scalar %a, %two : !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[4],f32>
  %1 = torch.aten.pow.Tensor_Scalar %a, %half : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  %2 = torch.aten.pow.Tensor_Scalar %a, %e : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  %3 = torch.aten.pow.Tensor_Scalar %b, %three : !torch.vtensor<[4],si64>, !torch.int -> !torch.vtensor<[4],si64>
  %4 = torch.aten.pow.Tensor_Tensor %b, %c : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %0, %1, %2, %3, %4 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>
}

// Exponents that PyTorch's CPU kernel computes with multiplications and
// divisions: 3 (floats and integers), -1, -2 and -0.5 (floats).
// CHECK-LABEL: func.func @pow_special(
// CHECK: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK-NEXT: %[[CUBE:.*]] = arith.mulf %[[SQ]], %[[A]] : f32
// CHECK-NEXT: linalg.yield %[[CUBE]] : f32
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[ISQ:.*]] = arith.muli %[[I]], %[[I]] : i64
// CHECK-NEXT: arith.muli %[[ISQ]], %[[I]] : i64
// CHECK: ^bb0(%[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[INV:.*]] = arith.divf %[[ONE]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[INV]] : f32
// CHECK: ^bb0(%[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[CSQ:.*]] = arith.mulf %[[C]], %[[C]] : f32
// CHECK-NEXT: %[[ONE2:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.divf %[[ONE2]], %[[CSQ]] : f32
// CHECK: ^bb0(%[[D:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ROOT:.*]] = math.sqrt %[[D]] : f32
// CHECK-NEXT: %[[ONE3:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.divf %[[ONE3]], %[[ROOT]] : f32
// CHECK-NOT: math.powf
// CHECK-NOT: math.ipowi
// CHECK: return
func.func @pow_special(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
  %three = torch.constant.float 3.000000e+00
  %int3 = torch.constant.int 3
  %m1 = torch.constant.int -1
  %m2 = torch.constant.float -2.000000e+00
  %mhalf = torch.constant.float -5.000000e-01
  %0 = torch.aten.pow.Tensor_Scalar %a, %three : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  %1 = torch.aten.pow.Tensor_Scalar %b, %int3 : !torch.vtensor<[4],si64>, !torch.int -> !torch.vtensor<[4],si64>
  %2 = torch.aten.pow.Tensor_Scalar %a, %m1 : !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[4],f32>
  %3 = torch.aten.pow.Tensor_Scalar %a, %m2 : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  %4 = torch.aten.pow.Tensor_Scalar %a, %mhalf : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  return %0, %1, %2, %3, %4 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}

// -----

func.func @pow_int_negative(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %m1 = torch.constant.int -1
  // expected-error @+1 {{'torch.aten.pow.Tensor_Scalar' could not be lowered to linalg-on-tensors: integers to negative integer powers are not allowed}}
  %0 = torch.aten.pow.Tensor_Scalar %a, %m1 : !torch.vtensor<[4],si64>, !torch.int -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// -----

// maximum/minimum: NaN-propagating on floats, unsigned on uint8.
// CHECK-LABEL: func.func @minmax(
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.maximumf %[[X]], %[[Y]] : f32
// CHECK: ^bb0(%[[P:.*]]: i8, %[[Q:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: arith.minui %[[P]], %[[Q]] : i8
func.func @minmax(%a: !torch.vtensor<[3,4],f32>, %b: !torch.vtensor<[4],f32>, %c: !torch.vtensor<[4],ui8>, %d: !torch.vtensor<[4],ui8>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[4],ui8>) {
  %0 = torch.aten.maximum %a, %b : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[3,4],f32>
  %1 = torch.aten.minimum %c, %d : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],ui8>
  return %0, %1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],ui8>
}

// -----

// clamp = min(max(x, lo), hi); a None bound is skipped.
// CHECK-LABEL: func.func @clamp(
// CHECK: %[[LO:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[HI:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[X]], %[[LO]] : f32
// CHECK-NEXT: arith.minimumf %[[M]], %[[HI]] : f32
// CHECK: ^bb0(%[[Y:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: arith.minsi %[[Y]], %{{.*}} : i64
func.func @clamp(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>) {
  %lo = torch.constant.float -5.000000e-01
  %hi = torch.constant.float 5.000000e-01
  %none = torch.constant.none
  %four = torch.constant.int 4
  %0 = torch.aten.clamp %a, %lo, %hi : !torch.vtensor<[4],f32>, !torch.float, !torch.float -> !torch.vtensor<[4],f32>
  %1 = torch.aten.clamp %b, %none, %four : !torch.vtensor<[4],si64>, !torch.none, !torch.int -> !torch.vtensor<[4],si64>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
}

// -----

// clamp.Tensor: the bounds broadcast like any operand.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @clamp_tensor(
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[LO:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.maximumf %[[X]], %[[LO]] : f32
func.func @clamp_tensor(%a: !torch.vtensor<[3,4],f32>, %lo: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4],f32> {
  %none = torch.constant.none
  %0 = torch.aten.clamp.Tensor %a, %lo, %none : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],f32>, !torch.none -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

func.func @clamp_no_bounds(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten.clamp' could not be lowered to linalg-on-tensors: clamp needs at least one of min and max}}
  %0 = torch.aten.clamp %a, %none, %none : !torch.vtensor<[4],f32>, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
