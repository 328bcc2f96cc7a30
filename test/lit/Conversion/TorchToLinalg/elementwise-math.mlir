// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// floor/ceil: math ops on floats, the identity on integers.
// CHECK-LABEL: func.func @floor_ceil(
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[F:.*]] = math.floor %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[F]] : f32
// CHECK: ^bb0(%[[Y:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: linalg.yield %[[Y]] : i64
func.func @floor_ceil(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>) {
  %0 = torch.aten.floor %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.ceil %b : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
}

// -----

// CHECK-LABEL: func.func @sin_cos(
// CHECK: math.sin %{{.*}} : f64
// CHECK: math.cos %{{.*}} : f64
func.func @sin_cos(%a: !torch.vtensor<[4],f64>) -> (!torch.vtensor<[4],f64>, !torch.vtensor<[4],f64>) {
  %0 = torch.aten.sin %a : !torch.vtensor<[4],f64> -> !torch.vtensor<[4],f64>
  %1 = torch.aten.cos %a : !torch.vtensor<[4],f64> -> !torch.vtensor<[4],f64>
  return %0, %1 : !torch.vtensor<[4],f64>, !torch.vtensor<[4],f64>
}

// -----

// asin/acos/atan: math ops (calls into the C library on the RefBackend).
// CHECK-LABEL: func.func @asin_acos_atan(
// CHECK: math.asin %{{.*}} : f32
// CHECK: math.acos %{{.*}} : f32
// CHECK: math.atan %{{.*}} : f32
func.func @asin_acos_atan(%a: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
  %0 = torch.aten.asin %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.acos %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  %2 = torch.aten.atan %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0, %1, %2 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}

// -----

// sign = (x > 0) - (x < 0): ordered compares, so NaN gives 0.
// CHECK-LABEL: func.func @sign(
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[X]], %[[ZERO:.*]] : f32
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %[[X]], %[[ZERO]] : f32
// CHECK: %[[M1:.*]] = arith.constant -1.000000e+00 : f32
// CHECK: %[[S:.*]] = arith.select %[[NEG]], %[[M1]], %[[ZERO]] : f32
// CHECK: %[[P1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: arith.select %[[POS]], %[[P1]], %[[S]] : f32
// CHECK: ^bb0(%[[Y:.*]]: i64, %{{.*}}: i64):
// CHECK: arith.cmpi sgt, %[[Y]]
// CHECK: arith.cmpi slt, %[[Y]]
// CHECK: arith.subi
func.func @sign(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>) {
  %0 = torch.aten.sign %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.sign %b : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
}

// -----

// log1p(x) = log(u) * x / (u - 1), u = 1 + x; x itself when u == 1.
// CHECK-LABEL: func.func @log1p(
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[U:.*]] = arith.addf %[[ONE]], %[[X]] : f32
// CHECK: %[[UM1:.*]] = arith.subf %[[U]], %[[ONE]] : f32
// CHECK: %[[LOG:.*]] = math.log %[[U]] : f32
// CHECK: %[[MUL:.*]] = arith.mulf %[[LOG]], %[[X]] : f32
// CHECK: %[[DIV:.*]] = arith.divf %[[MUL]], %[[UM1]] : f32
// CHECK: %[[EXACT:.*]] = arith.cmpf oeq, %[[U]], %[[ONE]] : f32
// CHECK: arith.select %[[EXACT]], %[[X]], %[[DIV]] : f32
func.func @log1p(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.log1p %a : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// leaky_relu on a dynamic size: the slope is cast once, outside the loop.
// CHECK-LABEL: func.func @leaky_relu(
// CHECK: %[[SLOPE:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: tensor.dim
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : f32
// CHECK: %[[SCALED:.*]] = arith.mulf %[[X]], %[[SLOPE]] : f32
// CHECK: arith.select %[[POS]], %[[X]], %[[SCALED]] : f32
// CHECK: -> tensor<?xf32>
func.func @leaky_relu(%a: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
  %f = torch.constant.float 2.000000e-01
  %0 = torch.aten.leaky_relu %a, %f : !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

func.func @leaky_relu_int(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %f = torch.constant.float 2.000000e-01
  // expected-error @+1 {{'torch.aten.leaky_relu' could not be lowered to linalg-on-tensors: unsupported: non-float leaky_relu}}
  %0 = torch.aten.leaky_relu %a, %f : !torch.vtensor<[4],si64>, !torch.float -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// -----

// A scalar of unknown kind (!torch.number) is not guessed at.
func.func @leaky_relu_number_slope(%a: !torch.vtensor<[4],f32>, %s: !torch.number) -> !torch.vtensor<[4],f32> {
  // expected-error @+1 {{'torch.aten.leaky_relu' could not be lowered to linalg-on-tensors: unsupported: negative_slope type}}
  %0 = torch.aten.leaky_relu %a, %s : !torch.vtensor<[4],f32>, !torch.number -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
