// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// view_as_real: the last result dim picks the part (0: real, 1: imaginary).
// CHECK-DAG: #[[DROP:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @view_as_real
// CHECK: linalg.generic {indexing_maps = [#[[DROP]], #[[ID3]]]
// CHECK-SAME: ins(%{{.*}} : tensor<2x3xcomplex<f32>>) outs(%{{.*}} : tensor<2x3x2xf32>)
// CHECK: %[[PART:.*]] = linalg.index 2
// CHECK: %[[IS_RE:.*]] = arith.cmpi eq, %[[PART]]
// CHECK: %[[RE:.*]] = complex.re
// CHECK: %[[IM:.*]] = complex.im
// CHECK: arith.select %[[IS_RE]], %[[RE]], %[[IM]] : f32
func.func @view_as_real(%a: !torch.vtensor<[2,3],complex<f32>>) -> !torch.vtensor<[2,3,2],f32> {
  %0 = torch.aten.view_as_real %a : !torch.vtensor<[2,3],complex<f32>> -> !torch.vtensor<[2,3,2],f32>
  return %0 : !torch.vtensor<[2,3,2],f32>
}

// -----

// view_as_complex reads the two parts through constant indices.
// CHECK-DAG: #[[RE_MAP:.*]] = affine_map<(d0) -> (d0, 0)>
// CHECK-DAG: #[[IM_MAP:.*]] = affine_map<(d0) -> (d0, 1)>
// CHECK-LABEL: func.func @view_as_complex
// CHECK: linalg.generic {indexing_maps = [#[[RE_MAP]], #[[IM_MAP]], {{.*}}]
// CHECK: ^bb0(%[[R:.*]]: f64, %[[I:.*]]: f64, %{{.*}}: complex<f64>):
// CHECK: complex.create %[[R]], %[[I]] : complex<f64>
func.func @view_as_complex(%r: !torch.vtensor<[?,2],f64>) -> !torch.vtensor<[?],complex<f64>> {
  %0 = torch.aten.view_as_complex %r : !torch.vtensor<[?,2],f64> -> !torch.vtensor<[?],complex<f64>>
  return %0 : !torch.vtensor<[?],complex<f64>>
}

// -----

func.func @view_as_complex_needs_pairs(%r: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[4],complex<f32>> {
  // expected-error @+1 {{'torch.aten.view_as_complex' could not be lowered to linalg-on-tensors: needs an input whose last dim has size 2 (eager refuses any other)}}
  %0 = torch.aten.view_as_complex %r : !torch.vtensor<[4,3],f32> -> !torch.vtensor<[4],complex<f32>>
  return %0 : !torch.vtensor<[4],complex<f32>>
}

// -----

// complex(real, imag) broadcasts its parts.
// CHECK-LABEL: func.func @complex_broadcast
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<2x1xf32>) outs(%{{.*}} : tensor<2x3xcomplex<f32>>)
// CHECK: complex.create
func.func @complex_broadcast(%x: !torch.vtensor<[3],f32>, %y: !torch.vtensor<[2,1],f32>) -> !torch.vtensor<[2,3],complex<f32>> {
  %0 = torch.aten.complex %x, %y : !torch.vtensor<[3],f32>, !torch.vtensor<[2,1],f32> -> !torch.vtensor<[2,3],complex<f32>>
  return %0 : !torch.vtensor<[2,3],complex<f32>>
}

// -----

// abs of a complex tensor is real; exp stays complex; conj conjugates.
// CHECK-LABEL: func.func @unary
// CHECK: complex.abs %{{.*}} : complex<f32>
// CHECK: linalg.yield %{{.*}} : f32
// CHECK: complex.exp %{{.*}} : complex<f32>
// CHECK: complex.conj %{{.*}} : complex<f32>
func.func @unary(%a: !torch.vtensor<[4],complex<f32>>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],complex<f32>>, !torch.vtensor<[4],complex<f32>>) {
  %0 = torch.aten.abs %a : !torch.vtensor<[4],complex<f32>> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.exp %a : !torch.vtensor<[4],complex<f32>> -> !torch.vtensor<[4],complex<f32>>
  %2 = torch.aten._conj %a : !torch.vtensor<[4],complex<f32>> -> !torch.vtensor<[4],complex<f32>>
  return %0, %1, %2 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],complex<f32>>, !torch.vtensor<[4],complex<f32>>
}

// -----

// A real operand of a complex op is its real part (imaginary part 0).
// CHECK-LABEL: func.func @mixed_mul
// CHECK: ^bb0(%[[Z:.*]]: complex<f32>, %[[X:.*]]: f32, %{{.*}}: complex<f32>):
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[XC:.*]] = complex.create %[[X]], %[[ZERO]] : complex<f32>
// CHECK: complex.mul %[[Z]], %[[XC]] : complex<f32>
func.func @mixed_mul(%a: !torch.vtensor<[2,3],complex<f32>>, %y: !torch.vtensor<[2,1],f32>) -> !torch.vtensor<[2,3],complex<f32>> {
  %0 = torch.aten.mul.Tensor %a, %y : !torch.vtensor<[2,3],complex<f32>>, !torch.vtensor<[2,1],f32> -> !torch.vtensor<[2,3],complex<f32>>
  return %0 : !torch.vtensor<[2,3],complex<f32>>
}

// -----

// Equality compares both parts; a complex128 cast of complex64 casts each.
// CHECK-LABEL: func.func @eq_and_cast
// CHECK: complex.eq %{{.*}}, %{{.*}} : complex<f32>
// CHECK: %[[RE:.*]] = complex.re %{{.*}} : complex<f32>
// CHECK: %[[RE64:.*]] = arith.extf %[[RE]] : f32 to f64
// CHECK: %[[IM:.*]] = complex.im %{{.*}} : complex<f32>
// CHECK: %[[IM64:.*]] = arith.extf %[[IM]] : f32 to f64
// CHECK: complex.create %[[RE64]], %[[IM64]] : complex<f64>
func.func @eq_and_cast(%a: !torch.vtensor<[4],complex<f32>>, %b: !torch.vtensor<[4],complex<f32>>) -> (!torch.vtensor<[4],i1>, !torch.vtensor<[4],complex<f64>>) {
  %0 = torch.aten.eq.Tensor %a, %b : !torch.vtensor<[4],complex<f32>>, !torch.vtensor<[4],complex<f32>> -> !torch.vtensor<[4],i1>
  %false = torch.constant.bool false
  %none = torch.constant.none
  %int10 = torch.constant.int 10
  %1 = torch.aten._to_copy %a, %int10, %none, %none, %none, %false, %none : !torch.vtensor<[4],complex<f32>>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[4],complex<f64>>
  return %0, %1 : !torch.vtensor<[4],i1>, !torch.vtensor<[4],complex<f64>>
}

// -----

// A complex64 sum accumulates in complex128 (as float32 sums in float64)
// from a complex zero, and rounds once.
// CHECK-LABEL: func.func @sum
// CHECK: %[[ZERO:.*]] = complex.constant [0.000000e+00, 0.000000e+00] : complex<f64>
// CHECK: linalg.fill ins(%[[ZERO]] : complex<f64>)
// CHECK: complex.add %{{.*}}, %{{.*}} : complex<f64>
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @sum(%a: !torch.vtensor<[2,5],complex<f32>>) -> !torch.vtensor<[2],complex<f32>> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.sum.dim_IntList %a, %dims, %false, %none : !torch.vtensor<[2,5],complex<f32>>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2],complex<f32>>
  return %0 : !torch.vtensor<[2],complex<f32>>
}

// -----

// mm: linalg.matmul multiplies and adds complex elements itself.
// CHECK-LABEL: func.func @mm
// CHECK: complex.constant [0.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xcomplex<f32>>, tensor<3x4xcomplex<f32>>)
func.func @mm(%a: !torch.vtensor<[2,3],complex<f32>>, %b: !torch.vtensor<[3,4],complex<f32>>) -> !torch.vtensor<[2,4],complex<f32>> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],complex<f32>>, !torch.vtensor<[3,4],complex<f32>> -> !torch.vtensor<[2,4],complex<f32>>
  return %0 : !torch.vtensor<[2,4],complex<f32>>
}

// -----

// A 0-d complex tensor's pairs: the input map has no results (a null map
// here crashed the pass).
// CHECK-DAG: #[[NONE:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @view_as_real_0d
// CHECK: linalg.generic {indexing_maps = [#[[NONE]], {{.*}}]
// CHECK-SAME: ins(%{{.*}} : tensor<complex<f64>>) outs(%{{.*}} : tensor<2xf64>)
func.func @view_as_real_0d(%a: !torch.vtensor<[],complex<f64>>) -> !torch.vtensor<[2],f64> {
  %0 = torch.aten.view_as_real %a : !torch.vtensor<[],complex<f64>> -> !torch.vtensor<[2],f64>
  return %0 : !torch.vtensor<[2],f64>
}

// -----

// pow with a complex result: both operands in complex (the scalar
// exponent converted once, outside the loop), complex.pow.
// CHECK-LABEL: func.func @pow_scalar
// CHECK: %[[E:.*]] = complex.create %{{.*}}, %{{.*}} : complex<f32>
// CHECK: ^bb0(%[[Z:.*]]: complex<f32>, %{{.*}}: complex<f32>):
// CHECK: complex.pow %[[Z]], %[[E]] : complex<f32>
func.func @pow_scalar(%a: !torch.vtensor<[4],complex<f32>>) -> !torch.vtensor<[4],complex<f32>> {
  %float = torch.constant.float 2.500000e+00
  %0 = torch.aten.pow.Tensor_Scalar %a, %float : !torch.vtensor<[4],complex<f32>>, !torch.float -> !torch.vtensor<[4],complex<f32>>
  return %0 : !torch.vtensor<[4],complex<f32>>
}

// -----

// isnan of a complex number: either part NaN.
// CHECK-LABEL: func.func @isnan
// CHECK-DAG: %[[RE:.*]] = complex.re
// CHECK-DAG: %[[IM:.*]] = complex.im
// CHECK-DAG: %[[A:.*]] = arith.cmpf uno, %[[RE]], %[[RE]]
// CHECK-DAG: %[[B:.*]] = arith.cmpf uno, %[[IM]], %[[IM]]
// CHECK: arith.ori %[[A]], %[[B]] : i1
func.func @isnan(%a: !torch.vtensor<[4],complex<f32>>) -> !torch.vtensor<[4],i1> {
  %0 = torch.aten.isnan %a : !torch.vtensor<[4],complex<f32>> -> !torch.vtensor<[4],i1>
  return %0 : !torch.vtensor<[4],i1>
}

// -----

// A complex product starts from the complex 1 and multiplies.
// CHECK-LABEL: func.func @prod
// CHECK: %[[ONE:.*]] = complex.constant [1.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
// CHECK: linalg.fill ins(%[[ONE]] : complex<f32>)
// CHECK: complex.mul %{{.*}}, %{{.*}} : complex<f32>
func.func @prod(%a: !torch.vtensor<[2,5],complex<f32>>) -> !torch.vtensor<[2],complex<f32>> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.prod.dim_int %a, %int1, %false, %none : !torch.vtensor<[2,5],complex<f32>>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[2],complex<f32>>
  return %0 : !torch.vtensor<[2],complex<f32>>
}

// -----

// asinh mirrors a negative real part (asinh is odd) so that z + sqrt(z^2 + 1)
// never cancels.
// CHECK-LABEL: func.func @asinh
// CHECK: %[[RE:.*]] = complex.re %[[Z:.*]] : complex<f32>
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %[[RE]], %{{.*}} : f32
// CHECK: %[[W:.*]] = arith.select %[[NEG]], %{{.*}}, %[[Z]] : complex<f32>
// CHECK: complex.sqrt
// CHECK: %[[R:.*]] = complex.log
// CHECK: arith.select %[[NEG]], %{{.*}}, %[[R]] : complex<f32>
func.func @asinh(%a: !torch.vtensor<[4],complex<f32>>) -> !torch.vtensor<[4],complex<f32>> {
  %0 = torch.aten.asinh %a : !torch.vtensor<[4],complex<f32>> -> !torch.vtensor<[4],complex<f32>>
  return %0 : !torch.vtensor<[4],complex<f32>>
}
