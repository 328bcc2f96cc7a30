// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// view.dtype to a dtype of the same width: the bits of each element read
// as the result dtype.

// CHECK-LABEL: func.func @f32_to_si32(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: i32):
// CHECK-NEXT: %[[R:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @f32_to_si32(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],si32> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.view.dtype %a, %int3 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],si32>
  return %0 : !torch.vtensor<[2,3],si32>
}

// -----

// ui32 and si32 are both i32: the element is copied.
// CHECK-LABEL: func.func @ui32_to_si32(
// CHECK: ^bb0(%[[X:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: linalg.yield %[[X]] : i32
func.func @ui32_to_si32(%a: !torch.vtensor<[],ui32>) -> !torch.vtensor<[],si32> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.view.dtype %a, %int3 : !torch.vtensor<[],ui32>, !torch.int -> !torch.vtensor<[],si32>
  return %0 : !torch.vtensor<[],si32>
}

// -----

// A bool is a byte of 0 or 1.
// CHECK-LABEL: func.func @bool_to_ui8(
// CHECK: ^bb0(%[[X:.*]]: i1, %{{.*}}: i8):
// CHECK-NEXT: %[[R:.*]] = arith.extui %[[X]] : i1 to i8
// CHECK-NEXT: linalg.yield %[[R]] : i8
func.func @bool_to_ui8(%a: !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],ui8> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.view.dtype %a, %int0 : !torch.vtensor<[4],i1>, !torch.int -> !torch.vtensor<[4],ui8>
  return %0 : !torch.vtensor<[4],ui8>
}

// -----

// CHECK-LABEL: func.func @si8_to_bool(
// CHECK: ^bb0(%[[X:.*]]: i8, %{{.*}}: i1):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-NEXT: %[[R:.*]] = arith.cmpi ne, %[[X]], %[[ZERO]] : i8
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @si8_to_bool(%a: !torch.vtensor<[4],si8>) -> !torch.vtensor<[4],i1> {
  %int11 = torch.constant.int 11
  %0 = torch.aten.view.dtype %a, %int11 : !torch.vtensor<[4],si8>, !torch.int -> !torch.vtensor<[4],i1>
  return %0 : !torch.vtensor<[4],i1>
}

// -----

func.func @different_widths(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[8],f16> {
  %int5 = torch.constant.int 5
  // expected-error @+1 {{'torch.aten.view.dtype' could not be lowered to linalg-on-tensors: unsupported: view.dtype between dtypes of different widths (it resizes the last dim)}}
  %0 = torch.aten.view.dtype %a, %int5 : !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[8],f16>
  return %0 : !torch.vtensor<[8],f16>
}
