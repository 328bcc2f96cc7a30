// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// view.dtype: to a dtype of the same width, the bits of each element read
// as the result dtype; to another width, the last dim scales.

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

// Wide -> narrow: [4] f32 -> [4, 2] parts -> [8] f16. Part k is bits
// [16k, 16k + 16) of the element (little-endian).
// CHECK-LABEL: func.func @f32_to_f16(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4x2xf16>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT: %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-NEXT: %[[K:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[KI:.*]] = arith.index_castui %[[K]] : index to i32
// CHECK-NEXT: %[[W:.*]] = arith.constant 16 : i32
// CHECK-NEXT: %[[SHIFT:.*]] = arith.muli %[[KI]], %[[W]] : i32
// CHECK-NEXT: %[[SHR:.*]] = arith.shrui %[[BITS]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[PART:.*]] = arith.trunci %[[SHR]] : i32 to i16
// CHECK-NEXT: %[[F:.*]] = arith.bitcast %[[PART]] : i16 to f16
// CHECK-NEXT: linalg.yield %[[F]] : f16
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x2xf16> into tensor<8xf16>
func.func @f32_to_f16(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[8],f16> {
  %int5 = torch.constant.int 5
  %0 = torch.aten.view.dtype %a, %int5 : !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[8],f16>
  return %0 : !torch.vtensor<[8],f16>
}

// -----

// Wide -> bool: each byte is true when nonzero; a dynamic leading dim
// sizes the parts.
// CHECK-LABEL: func.func @si16_to_bool(
// CHECK: tensor.empty(%{{.*}}) : tensor<?x3x2xi1>
// CHECK: arith.trunci %{{.*}} : i16 to i8
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-NEXT: arith.cmpi ne, %{{.*}}, %[[ZERO]] : i8
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<?x3x2xi1> into tensor<?x6xi1>
func.func @si16_to_bool(%a: !torch.vtensor<[?,3],si16>) -> !torch.vtensor<[?,6],i1> {
  %int11 = torch.constant.int 11
  %0 = torch.aten.view.dtype %a, %int11 : !torch.vtensor<[?,3],si16>, !torch.int -> !torch.vtensor<[?,6],i1>
  return %0 : !torch.vtensor<[?,6],i1>
}

// -----

// Narrow -> wide: [2, 4] ui8 read as [2, 2, 2], each pair ORed into an
// i16, part k shifted left by 8k; then the bits read as bf16.
// CHECK-LABEL: func.func @ui8_to_bf16(
// CHECK: %[[G:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 2, 2] : tensor<2x4xi8> into tensor<2x2x2xi8>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[G]] : tensor<2x2x2xi8>) outs(%{{.*}} : tensor<2x2xi16>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i8, %[[ACC:.*]]: i16):
// CHECK-NEXT: %[[WIDE:.*]] = arith.extui %[[X]] : i8 to i16
// CHECK-NEXT: %[[K:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[KI:.*]] = arith.index_castui %[[K]] : index to i16
// CHECK-NEXT: %[[W:.*]] = arith.constant 8 : i16
// CHECK-NEXT: %[[SHIFT:.*]] = arith.muli %[[KI]], %[[W]] : i16
// CHECK-NEXT: %[[SHL:.*]] = arith.shli %[[WIDE]], %[[SHIFT]] : i16
// CHECK-NEXT: %[[OR:.*]] = arith.ori %[[ACC]], %[[SHL]] : i16
// CHECK-NEXT: linalg.yield %[[OR]] : i16
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @ui8_to_bf16(%a: !torch.vtensor<[2,4],ui8>) -> !torch.vtensor<[2,2],bf16> {
  %int15 = torch.constant.int 15
  %0 = torch.aten.view.dtype %a, %int15 : !torch.vtensor<[2,4],ui8>, !torch.int -> !torch.vtensor<[2,2],bf16>
  return %0 : !torch.vtensor<[2,2],bf16>
}

// -----

// PyTorch raises for a last dim that is not a multiple of the ratio, and
// for a 0-d tensor.
func.func @narrow_to_wide_not_a_multiple(%a: !torch.vtensor<[3],si16>) -> !torch.vtensor<[1],si64> {
  %int4 = torch.constant.int 4
  // expected-error @+1 {{'torch.aten.view.dtype' could not be lowered to linalg-on-tensors: view.dtype to a wider dtype needs a last dim of static size that is a multiple of 4 (PyTorch raises otherwise)}}
  %0 = torch.aten.view.dtype %a, %int4 : !torch.vtensor<[3],si16>, !torch.int -> !torch.vtensor<[1],si64>
  return %0 : !torch.vtensor<[1],si64>
}

// -----

func.func @zero_d(%a: !torch.vtensor<[],f32>) -> !torch.vtensor<[2],f16> {
  %int5 = torch.constant.int 5
  // expected-error @+1 {{'torch.aten.view.dtype' could not be lowered to linalg-on-tensors: view.dtype to a dtype of another width needs at least one dim (PyTorch raises for a 0-d tensor)}}
  %0 = torch.aten.view.dtype %a, %int5 : !torch.vtensor<[],f32>, !torch.int -> !torch.vtensor<[2],f16>
  return %0 : !torch.vtensor<[2],f16>
}
