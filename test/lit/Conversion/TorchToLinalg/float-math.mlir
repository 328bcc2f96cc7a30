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
