// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// constant_pad_nd: negative amounts crop first (extract_slice), positive
// ones pad (tensor.pad). pad = [-1, 2] for dim 1, [1, -2] for dim 0.
// CHECK-LABEL: func.func @pad_and_crop(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[4,6],f32> -> tensor<4x6xf32>
// CHECK: %[[CROP:.*]] = tensor.extract_slice %[[A]][0, 1] [2, 5] [1, 1] : tensor<4x6xf32> to tensor<2x5xf32>
// CHECK: %[[V:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[PAD:.*]] = tensor.pad %[[CROP]] low[1, 0] high[0, 2]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[V]] : f32
// CHECK-NEXT: } : tensor<2x5xf32> to tensor<3x7xf32>
func.func @pad_and_crop(%a: !torch.vtensor<[4,6],f32>) -> !torch.vtensor<[3,7],f32> {
  %m1 = torch.constant.int -1
  %i2 = torch.constant.int 2
  %i1 = torch.constant.int 1
  %m2 = torch.constant.int -2
  %v = torch.constant.float -1.000000e+00
  %p = torch.prim.ListConstruct %m1, %i2, %i1, %m2 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.constant_pad_nd %a, %p, %v : !torch.vtensor<[4,6],f32>, !torch.list<int>, !torch.float -> !torch.vtensor<[3,7],f32>
  return %0 : !torch.vtensor<[3,7],f32>
}

// -----

// A dynamic dim that is not padded stays dynamic.
// CHECK-LABEL: func.func @pad_dynamic(
// CHECK: tensor.pad %{{.*}} low[0, 2] high[0, 1]
// CHECK: } : tensor<?x3xi64> to tensor<?x6xi64>
func.func @pad_dynamic(%a: !torch.vtensor<[?,3],si64>) -> !torch.vtensor<[?,6],si64> {
  %i2 = torch.constant.int 2
  %i1 = torch.constant.int 1
  %v = torch.constant.int 7
  %p = torch.prim.ListConstruct %i2, %i1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.constant_pad_nd %a, %p, %v : !torch.vtensor<[?,3],si64>, !torch.list<int>, !torch.int -> !torch.vtensor<[?,6],si64>
  return %0 : !torch.vtensor<[?,6],si64>
}

// -----

func.func @crop_too_much(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[0],f32> {
  %m3 = torch.constant.int -3
  %m2 = torch.constant.int -2
  %v = torch.constant.float 0.000000e+00
  %p = torch.prim.ListConstruct %m3, %m2 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.constant_pad_nd' could not be lowered to linalg-on-tensors: negative pads remove more than dim 0 holds}}
  %0 = torch.aten.constant_pad_nd %a, %p, %v : !torch.vtensor<[4],f32>, !torch.list<int>, !torch.float -> !torch.vtensor<[0],f32>
  return %0 : !torch.vtensor<[0],f32>
}

// -----

// slice(x, 1, -100, 7, 3) on size 8: start clamps to 0, 3 elements; the
// other (dynamic) dim is kept whole.
// CHECK-LABEL: func.func @slice_clamped(
// CHECK: %[[A:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,8],f32> -> tensor<?x8xf32>
// CHECK: %[[DIM:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x8xf32>
// CHECK: tensor.extract_slice %[[A]][0, 0] [%[[DIM]], 3] [1, 3] : tensor<?x8xf32> to tensor<?x3xf32>
func.func @slice_clamped(%a: !torch.vtensor<[?,8],f32>) -> !torch.vtensor<[?,3],f32> {
  %i1 = torch.constant.int 1
  %m100 = torch.constant.int -100
  %i7 = torch.constant.int 7
  %i3 = torch.constant.int 3
  %0 = torch.aten.slice.Tensor %a, %i1, %m100, %i7, %i3 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}

// -----

// A None end is the end; an end past the size clamps.
// CHECK-LABEL: func.func @slice_none_end(
// CHECK: tensor.extract_slice %{{.*}}[2, 0] [3, 3] [1, 1] : tensor<5x3xf32> to tensor<3x3xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [5, 2] [1, 1] : tensor<5x3xf32> to tensor<5x2xf32>
func.func @slice_none_end(%a: !torch.vtensor<[5,3],f32>) -> (!torch.vtensor<[3,3],f32>, !torch.vtensor<[5,2],f32>) {
  %i0 = torch.constant.int 0
  %i2 = torch.constant.int 2
  %i1 = torch.constant.int 1
  %big = torch.constant.int 100
  %none = torch.constant.none
  %0 = torch.aten.slice.Tensor %a, %i0, %i2, %none, %i1 : !torch.vtensor<[5,3],f32>, !torch.int, !torch.int, !torch.none, !torch.int -> !torch.vtensor<[3,3],f32>
  %1 = torch.aten.slice.Tensor %a, %i1, %i1, %big, %i1 : !torch.vtensor<[5,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[5,2],f32>
  return %0, %1 : !torch.vtensor<[3,3],f32>, !torch.vtensor<[5,2],f32>
}

// -----

// x[1:n] on a dynamic dim, n known at run time only: the bounds are
// wrapped (negative + size) and clamped to [0, size], the length is a
// ceiling division by the step.
// CHECK-LABEL: func.func @slice_dynamic_dim(
// CHECK-SAME: %{{.*}}: !torch.vtensor<[?],f32>, %[[N:.*]]: !torch.int
// CHECK: %[[END:.*]] = torch_c.to_i64 %[[N]]
// CHECK: %[[SIZE:.*]] = tensor.dim
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.maxsi
// CHECK: %[[START:.*]] = arith.minsi %{{.*}}, %[[SIZE]] : index
// CHECK: %[[E:.*]] = arith.index_cast %[[END]] : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[E]]
// CHECK: %[[WRAP:.*]] = arith.addi %[[E]], %[[SIZE]] : index
// CHECK: arith.select %[[NEG]], %[[WRAP]], %[[E]] : index
// CHECK: %[[LEN:.*]] = arith.ceildivui
// CHECK: tensor.extract_slice %{{.*}}[%[[START]]] [%[[LEN]]] [1] : tensor<?xf32> to tensor<?xf32>
func.func @slice_dynamic_dim(%a: !torch.vtensor<[?],f32>, %n: !torch.int) -> !torch.vtensor<[?],f32> {
  %i0 = torch.constant.int 0
  %i1 = torch.constant.int 1
  %0 = torch.aten.slice.Tensor %a, %i0, %i1, %n, %i1 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// select(x, -1, -2) on a size-5 dim: a rank-reducing slice at 3.
// CHECK-LABEL: func.func @select_negative(
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 3] [3, 4, 1] [1, 1, 1] : tensor<3x4x5xf32> to tensor<3x4xf32>
func.func @select_negative(%a: !torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[3,4],f32> {
  %m1 = torch.constant.int -1
  %m2 = torch.constant.int -2
  %0 = torch.aten.select.int %a, %m1, %m2 : !torch.vtensor<[3,4,5],f32>, !torch.int, !torch.int -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

func.func @select_out_of_range(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[4],f32> {
  %i0 = torch.constant.int 0
  %i3 = torch.constant.int 3
  // expected-error @+1 {{'torch.aten.select.int' could not be lowered to linalg-on-tensors: index 3 out of range for dim 0 of size 3}}
  %0 = torch.aten.select.int %a, %i0, %i3 : !torch.vtensor<[3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// An empty slice that starts at the end of the dim: extract_slice wants an
// offset inside the dim, so an empty slice is a tensor.empty.
// CHECK-LABEL: func.func @slice_empty_at_end(
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.empty() : tensor<0x3xf32>
func.func @slice_empty_at_end(%a: !torch.vtensor<[5,3],f32>) -> !torch.vtensor<[0,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  %0 = torch.aten.slice.Tensor %a, %int0, %int5, %none, %int1 : !torch.vtensor<[5,3],f32>, !torch.int, !torch.int, !torch.none, !torch.int -> !torch.vtensor<[0,3],f32>
  return %0 : !torch.vtensor<[0,3],f32>
}

// -----

// A slice of an empty dim (no offset is inside it): a tensor.empty too.
// CHECK-LABEL: func.func @slice_of_empty_dim(
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.empty() : tensor<0xf32>
func.func @slice_of_empty_dim(%a: !torch.vtensor<[0],f32>) -> !torch.vtensor<[0],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.slice.Tensor %a, %int0, %int0, %int0, %int1 : !torch.vtensor<[0],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[0],f32>
  return %0 : !torch.vtensor<[0],f32>
}

// -----

// A non-empty slice of a tensor with another dim empty: offset 1 along dim 0
// is inside that dim, but offset 0 of the empty dim is not: a tensor.empty.
// CHECK-LABEL: func.func @slice_beside_empty_dim(
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.empty() : tensor<3x0xf32>
func.func @slice_beside_empty_dim(%a: !torch.vtensor<[4,0],f32>) -> !torch.vtensor<[3,0],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.slice.Tensor %a, %int0, %int1, %none, %int1 : !torch.vtensor<[4,0],f32>, !torch.int, !torch.int, !torch.none, !torch.int -> !torch.vtensor<[3,0],f32>
  return %0 : !torch.vtensor<[3,0],f32>
}

// -----

// select of a negative index along a dynamic dim: the offset is the index
// plus the dim's run-time size.
// CHECK-LABEL: func.func @select_negative_dynamic(
// CHECK: %[[DIM:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x4xf32>
// CHECK: %[[OFFSET:.*]] = arith.addi %[[DIM]], %c-1
// CHECK: tensor.extract_slice %{{.*}}[%[[OFFSET]], 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<4xf32>
func.func @select_negative_dynamic(%a: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[4],f32> {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %0 = torch.aten.select.int %a, %int0, %int-1 : !torch.vtensor<[?,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// select from a tensor with another dim of size 0: an empty result, no
// extract_slice (its verifier refuses offset 0 into a dim of size 0).
// CHECK-LABEL: func.func @select_from_empty
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: torch_c.from_builtin_tensor %[[E]]
func.func @select_from_empty(%a: !torch.vtensor<[0,2],f32>) -> !torch.vtensor<[0],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %0 = torch.aten.select.int %a, %int1, %int0 : !torch.vtensor<[0,2],f32>, !torch.int, !torch.int -> !torch.vtensor<[0],f32>
  return %0 : !torch.vtensor<[0],f32>
}
