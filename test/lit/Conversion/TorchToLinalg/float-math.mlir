// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @sigmoid
// CHECK: linalg.generic
// CHECK: %[[NEG:.*]] = arith.negf %{{.*}} : f32
// CHECK: %[[EXP:.*]] = math.exp %[[NEG]] : f32
// CHECK: %[[DEN:.*]] = arith.addf %{{.*}}, %[[EXP]] : f32
// CHECK: arith.divf %{{.*}}, %[[DEN]] : f32
func.func @sigmoid(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.sigmoid %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// An int64 input is cast to the float result before the math.
// CHECK-LABEL: func.func @log_of_int
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK: math.log %{{.*}} : f32
func.func @log_of_int(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.log %a : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// CHECK-LABEL: func.func @abs
// CHECK: math.absf %{{.*}} : f32
// CHECK: math.absi %{{.*}} : i64
// CHECK-NOT: math.absi %{{.*}} : i8
func.func @abs(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],si64>, %c: !torch.vtensor<[4],ui8>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>, !torch.vtensor<[4],ui8>) {
  %0 = torch.aten.abs %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.abs %b : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  %2 = torch.aten.abs %c : !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],ui8>
  return %0, %1, %2 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>, !torch.vtensor<[4],ui8>
}

// -----

// gelu 'none': x/2 * (1 + erf(x / sqrt(2))); 'tanh' uses the tanh form.
// CHECK-LABEL: func.func @gelu
// CHECK: arith.constant 0.707106769 : f32
// CHECK: math.erf
// CHECK: arith.constant 4.471500e-02 : f32
// CHECK: arith.constant 0.797884583 : f32
// CHECK: math.tanh
func.func @gelu(%a: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
  %none = torch.constant.str "none"
  %tanh = torch.constant.str "tanh"
  %0 = torch.aten.gelu %a, %none : !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[4],f32>
  %1 = torch.aten.gelu %a, %tanh : !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[4],f32>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}

// -----

func.func @gelu_bad_mode(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %mode = torch.constant.str "fast"
  // expected-error @+1 {{'torch.aten.gelu' could not be lowered to linalg-on-tensors: approximate must be the constant 'none' or 'tanh'}}
  %0 = torch.aten.gelu %a, %mode : !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// silu(x) = x / (1 + exp(-x)).
// CHECK-LABEL: func.func @silu
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[NEG:.*]] = arith.negf %[[X]] : f32
// CHECK: %[[EXP:.*]] = math.exp %[[NEG]] : f32
// CHECK: %[[DEN:.*]] = arith.addf %{{.*}}, %[[EXP]] : f32
// CHECK: arith.divf %[[X]], %[[DEN]] : f32
func.func @silu(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.silu %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// hardsigmoid(x) = min(max(x + 3, 0), 6) / 6, NaN-propagating.
// CHECK-LABEL: func.func @hardsigmoid
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK: %[[SHIFTED:.*]] = arith.addf %[[X]], %[[THREE]] : f32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[LOW:.*]] = arith.maximumf %[[SHIFTED]], %[[ZERO]] : f32
// CHECK: %[[UPPER:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[CLAMPED:.*]] = arith.minimumf %[[LOW]], %[[UPPER]] : f32
// CHECK: %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: arith.divf %[[CLAMPED]], %[[SIX]] : f32
func.func @hardsigmoid(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.hardsigmoid %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// hardswish(x) = x * min(max(x + 3, 0), 6) / 6.
// CHECK-LABEL: func.func @hardswish
// CHECK: ^bb0(%[[X:.*]]: f64, %{{.*}}: f64):
// CHECK: %[[SHIFTED:.*]] = arith.addf %[[X]], %{{.*}} : f64
// CHECK: %[[LOW:.*]] = arith.maximumf %[[SHIFTED]], %{{.*}} : f64
// CHECK: %[[CLAMPED:.*]] = arith.minimumf %[[LOW]], %{{.*}} : f64
// CHECK: %[[PRODUCT:.*]] = arith.mulf %[[X]], %[[CLAMPED]] : f64
// CHECK: arith.divf %[[PRODUCT]], %{{.*}} : f64
func.func @hardswish(%a: !torch.vtensor<[2,3],f64>) -> !torch.vtensor<[2,3],f64> {
  %0 = torch.aten.hardswish %a : !torch.vtensor<[2,3],f64> -> !torch.vtensor<[2,3],f64>
  return %0 : !torch.vtensor<[2,3],f64>
}

// -----

// Integer hardswish has no PyTorch kernel: the pattern says why it bails out.
func.func @hardswish_of_int(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  // expected-error @+1 {{unsupported: this dtype}}
  %0 = torch.aten.hardswish %a : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}
