// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Integer floor division: the truncated quotient, one less when the
// remainder is non-zero and its sign differs from the divisor's. The CPU
// traps on a zero divisor and on INT_MIN / -1: those divide by 1 instead, a
// zero divisor gives 0 and is reported (cf.assert, which
// refbackend-lower-asserts turns into an InputError), -1 gives -a.
// CHECK-LABEL: func.func @floor_i64(
// CHECK: ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64, %{{.*}}: i64):
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[ISZERO:.*]] = arith.cmpi eq, %[[B]], %[[ZERO]] : i64
// CHECK: %[[NONZERO:.*]] = arith.cmpi ne, %[[B]], %[[ZERO]] : i64
// CHECK: cf.assert %[[NONZERO]], "integer division by zero, which PyTorch raises as ZeroDivisionError"
// CHECK: %[[ISM1:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : i64
// CHECK: %[[UNSAFE:.*]] = arith.ori %[[ISZERO]], %[[ISM1]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[UNSAFE]], %[[ONE]], %[[B]] : i64
// CHECK-DAG: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[A]] : i64
// CHECK-DAG: %[[DIV:.*]] = arith.divsi %[[A]], %[[SAFE]] : i64
// CHECK: %[[Q1:.*]] = arith.select %[[ISM1]], %[[NEG]], %[[DIV]] : i64
// CHECK: %[[Q:.*]] = arith.select %[[ISZERO]], %[[ZERO]], %[[Q1]] : i64
// CHECK: %[[R:.*]] = arith.remsi %[[A]], %{{.*}} : i64
// CHECK: %[[BNEG:.*]] = arith.cmpi slt, %[[B]], %{{.*}} : i64
// CHECK: %[[RNEG:.*]] = arith.cmpi slt, %[[R]], %{{.*}} : i64
// CHECK: %[[DIFF:.*]] = arith.xori %[[RNEG]], %[[BNEG]] : i1
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[R]], %{{.*}} : i64
// CHECK: %[[ADJ:.*]] = arith.andi %[[NZ]], %[[DIFF]] : i1
// CHECK: %[[QM1:.*]] = arith.subi %[[Q]], %{{.*}} : i64
// CHECK: arith.select %[[ADJ]], %[[QM1]], %[[Q]] : i64
func.func @floor_i64(%a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %floor = torch.constant.str "floor"
  %0 = torch.aten.div.Tensor_mode %a, %b, %floor : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>, !torch.str -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// -----

// Float trunc: math.trunc of the quotient. Float floor: from fmod (remf),
// as PyTorch, with the quotient's sign kept for zero and a / b for b == 0.
// CHECK-LABEL: func.func @float_modes(
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[A]], %[[B]] : f32
// CHECK-NEXT: math.trunc %[[Q]] : f32
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[QUOT:.*]] = arith.divf %[[X]], %[[Y]] : f32
// CHECK: %[[MOD:.*]] = arith.remf %[[X]], %[[Y]] : f32
// CHECK: math.floor
// CHECK: math.copysign %{{.*}}, %[[QUOT]] : f32
// CHECK: %[[YZERO:.*]] = arith.cmpf oeq, %[[Y]], %{{.*}} : f32
// CHECK: arith.select %[[YZERO]], %[[QUOT]], %{{.*}} : f32
func.func @float_modes(%x: !torch.vtensor<[4],f32>, %y: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
  %floor = torch.constant.str "floor"
  %trunc = torch.constant.str "trunc"
  %0 = torch.aten.div.Tensor_mode %x, %y, %trunc : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[4],f32>
  %1 = torch.aten.div.Tensor_mode %x, %y, %floor : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[4],f32>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}

// -----

// rounding_mode None is true division.
// CHECK-LABEL: func.func @true_division(
// CHECK: ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[AF:.*]] = arith.sitofp %[[A]] : i64 to f32
// CHECK-NEXT: %[[BF:.*]] = arith.sitofp %[[B]] : i64 to f32
// CHECK-NEXT: arith.divf %[[AF]], %[[BF]] : f32
func.func @true_division(%a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %0 = torch.aten.div.Tensor_mode %a, %b, %none : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

func.func @bad_mode(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %round = torch.constant.str "round"
  // expected-error @+1 {{'torch.aten.div.Tensor_mode' could not be lowered to linalg-on-tensors: rounding_mode must be None or the constant 'trunc' or 'floor'}}
  %0 = torch.aten.div.Tensor_mode %a, %b, %round : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
