// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Chebyshev T of a per-element degree: the degree is n truncated to i64
// (bounded to 2^62; NaN or n <= -1 give 0), the recurrence
// q' = (x + x) q - p runs n - 1 steps in an scf.for inside the generic,
// none where |x| == 1 or where the form cos(n acos x) applies (|x| < 1 and
// n > 6).
// CHECK-LABEL: func.func @chebyshev_t(
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %[[N:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[NEG:.*]] = arith.cmpf ule, %[[N]], %{{.*}} : f32
// CHECK: %[[DEG:.*]] = arith.fptosi %{{.*}} : f32 to i64
// CHECK: math.acos %[[X]]
// CHECK: math.cos
// CHECK: %[[STEPS:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK: %[[UB:.*]] = arith.index_cast %[[STEPS]] : i64 to index
// CHECK: %[[LOOP:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[UB]] step %{{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[Q:.*]] = %[[X]]) -> (f32, f32) {
// CHECK: %[[TWOX:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK: %[[PROD:.*]] = arith.mulf %[[TWOX]], %[[Q]] : f32
// CHECK: %[[NEXT:.*]] = arith.subf %[[PROD]], %[[P]] : f32
// CHECK: scf.yield %[[Q]], %[[NEXT]] : f32, f32
// CHECK: arith.select %[[NEG]], %{{.*}}, %{{.*}} : f32
func.func @chebyshev_t(%x: !torch.vtensor<[8],f32>, %n: !torch.vtensor<[8],f32>) -> !torch.vtensor<[8],f32> {
  %0 = torch.aten.special_chebyshev_polynomial_t %x, %n : !torch.vtensor<[8],f32>, !torch.vtensor<[8],f32> -> !torch.vtensor<[8],f32>
  return %0 : !torch.vtensor<[8],f32>
}

// -----

// Hermite H has no special values: the recurrence
// H_k = 2x H_{k-1} - 2(k - 1) H_{k-2}, k = iv + 2; an si64 degree is cast
// to the f64 result dtype first (PyTorch's common dtype); broadcasting.
// CHECK-LABEL: func.func @hermite_h(
// CHECK: ^bb0(%[[X:.*]]: f64, %[[NI:.*]]: i64, %{{.*}}: f64):
// CHECK: %[[N:.*]] = arith.sitofp %[[NI]] : i64 to f64
// CHECK-NOT: math.acos
// CHECK: scf.for %[[IV:.*]] = %{{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[Q:.*]] = %{{.*}}) -> (f64, f64) {
// CHECK: arith.index_cast %[[IV]] : index to i64
// CHECK: %[[K:.*]] = arith.addf %{{.*}}, %{{.*}} : f64
// CHECK: %[[KM1:.*]] = arith.subf %[[K]], %{{.*}} : f64
// CHECK: arith.addf %[[KM1]], %[[KM1]] : f64
func.func @hermite_h(%x: !torch.vtensor<[3,4],f64>, %n: !torch.vtensor<[4],si64>) -> !torch.vtensor<[3,4],f64> {
  %0 = torch.aten.special_hermite_polynomial_h %x, %n : !torch.vtensor<[3,4],f64>, !torch.vtensor<[4],si64> -> !torch.vtensor<[3,4],f64>
  return %0 : !torch.vtensor<[3,4],f64>
}

// -----

// float16 computes in float32 and rounds once.
// CHECK-LABEL: func.func @legendre_half(
// CHECK: ^bb0(%[[X:.*]]: f16, %[[N:.*]]: f16, %{{.*}}: f16):
// CHECK: arith.extf %[[X]] : f16 to f32
// CHECK: scf.for
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @legendre_half(%x: !torch.vtensor<[4],f16>, %n: !torch.vtensor<[4],f16>) -> !torch.vtensor<[4],f16> {
  %0 = torch.aten.special_legendre_polynomial_p %x, %n : !torch.vtensor<[4],f16>, !torch.vtensor<[4],f16> -> !torch.vtensor<[4],f16>
  return %0 : !torch.vtensor<[4],f16>
}

// -----

func.func @integer_result(%x: !torch.vtensor<[4],si64>, %n: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  // expected-error @+1 {{unsupported: a result of a non-float dtype}}
  %0 = torch.aten.special_laguerre_polynomial_l %x, %n : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}
