// RUN: torch2mlir-opt %s -convert-torch-to-tosa -split-input-file -verify-diagnostics | FileCheck %s

// A strided slice: slice count * step, group [count, step], keep index 0.
// CHECK-LABEL: func.func @slice_step(
// CHECK: %[[S:.*]] = tosa.slice %{{.*}} : (tensor<10xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<9xf32>
// CHECK: %[[G:.*]] = tosa.reshape %[[S]], %{{.*}} -> tensor<3x3xf32>
// CHECK: %[[F:.*]] = tosa.slice %[[G]], {{.*}} -> tensor<3x1xf32>
// CHECK: tosa.reshape %[[F]], %{{.*}} -> tensor<3xf32>
func.func @slice_step(%a: !torch.vtensor<[10],f32>) -> !torch.vtensor<[3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %int10 = torch.constant.int 10
  %0 = torch.aten.slice.Tensor %a, %int0, %int1, %int10, %int3 : !torch.vtensor<[10],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// constant_pad_nd of the last two dims of a rank-4 tensor: the unpadded
// leading dims merge, so the padding shape stays within level 8k's rank 6.
// CHECK-LABEL: func.func @pad_last_two(
// CHECK: %[[M:.*]] = tosa.reshape %{{.*}} : (tensor<2x3x4x5xf32>, !tosa.shape<3>) -> tensor<6x4x5xf32>
// CHECK: %[[P:.*]] = tosa.pad %[[M]], %{{.*}}, %{{.*}} : (tensor<6x4x5xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<6x6x7xf32>
// CHECK: tosa.reshape %[[P]], %{{.*}} -> tensor<2x3x6x7xf32>
func.func @pad_last_two(%a: !torch.vtensor<[2,3,4,5],f32>) -> !torch.vtensor<[2,3,6,7],f32> {
  %int1 = torch.constant.int 1
  %float = torch.constant.float 0.000000e+00
  %pad = torch.prim.ListConstruct %int1, %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.constant_pad_nd %a, %pad, %float : !torch.vtensor<[2,3,4,5],f32>, !torch.list<int>, !torch.float -> !torch.vtensor<[2,3,6,7],f32>
  return %0 : !torch.vtensor<[2,3,6,7],f32>
}

// -----

// expand: a size-1 dim tiled to the result.
// CHECK-LABEL: func.func @expand(
// CHECK: tosa.tile %{{.*}}, %{{.*}} : (tensor<1x3xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
func.func @expand(%a: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[4,3],f32> {
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %sizes = torch.prim.ListConstruct %int4, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.expand %a, %sizes, %false : !torch.vtensor<[1,3],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

// A slice whose declared result reads past the input is refused.
func.func @slice_past_end(%a: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int10 = torch.constant.int 10
  // expected-error @+1 {{'torch.aten.slice.Tensor' could not be lowered to TOSA: the declared result size reads past the input}}
  %0 = torch.aten.slice.Tensor %a, %int0, %int2, %int10, %int1 : !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// A strided slice whose last step runs past the input: [1:10:4] of 10 is
// 3 elements (1, 5, 9); the span 9 is padded to 3 * 4 = 12, grouped
// [3, 4], index 0 kept.
// CHECK-LABEL: func.func @slice_step_past_the_end(
// CHECK: %[[S:.*]] = tosa.slice %{{.*}} -> tensor<9xf32>
// CHECK: %[[P:.*]] = tosa.pad %[[S]], %{{.*}}, %{{.*}} : (tensor<9xf32>, !tosa.shape<2>, tensor<1xf32>) -> tensor<12xf32>
// CHECK: tosa.reshape %[[P]], %{{.*}} -> tensor<3x4xf32>
func.func @slice_step_past_the_end(%a: !torch.vtensor<[10],f32>) -> !torch.vtensor<[3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %int10 = torch.constant.int 10
  %0 = torch.aten.slice.Tensor %a, %int0, %int1, %int10, %int4 : !torch.vtensor<[10],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// select.int: a one-wide slice at the index (negative counts from the
// end), reshaped.
// CHECK-LABEL: func.func @select_last(
// CHECK: %[[S:.*]] = tosa.slice %{{.*}} : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x1x4xf32>
// CHECK: tosa.reshape %[[S]], %{{.*}} -> tensor<2x4xf32>
func.func @select_last(%a: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %0 = torch.aten.select.int %a, %int1, %int-1 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

func.func @select_out_of_range(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2],f32> {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  // expected-error @+1 {{'torch.aten.select.int' could not be lowered to TOSA: index out of range (eager raises IndexError)}}
  %0 = torch.aten.select.int %a, %int1, %int3 : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// flip: one tosa.reverse per dim; repeat: ranked up, then tiled; a
// negative pad crops (tosa.slice) before the positive one pads.
// CHECK-LABEL: func.func @flip_repeat_pad(
// CHECK: %[[R0:.*]] = tosa.reverse %{{.*}} {axis = 0 : i32}
// CHECK: %[[R1:.*]] = tosa.reverse %[[R0]] {axis = 1 : i32}
// CHECK: %[[UP:.*]] = tosa.reshape %{{.*}} -> tensor<1x2x3xf32>
// CHECK: tosa.tile %[[UP]], %{{.*}} -> tensor<2x4x3xf32>
// CHECK: %[[CROP:.*]] = tosa.slice %{{.*}} -> tensor<2x2xf32>
// CHECK: tosa.pad %[[CROP]], %{{.*}} -> tensor<2x4xf32>
func.func @flip_repeat_pad(%x: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,4],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %intm1 = torch.constant.int -1
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.flip %x, %dims : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  %reps = torch.prim.ListConstruct %int2, %int2, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.repeat %x, %reps : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,4,3],f32>
  %pads = torch.prim.ListConstruct %intm1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %f = torch.constant.float 0.0
  %2 = torch.aten.constant_pad_nd %x, %pads, %f : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.float -> !torch.vtensor<[2,4],f32>
  return %0, %1, %2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,4],f32>
}

// -----

// slice_scatter(dim 1, 1:7:2): src [4, 3] spread with zeros between
// ([4, 3, 1], merged to [12, 1] for the pad, padded to two columns, then
// [4, 6] cut to [4, 5]), padded to [4, 8], selected where the constant
// mask marks columns 1, 3 and 5.
// CHECK-LABEL: func.func @slice_scatter_step(
// CHECK: tosa.pad %{{.*}} : (tensor<12x1xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<12x2xf32>
// CHECK: tosa.slice %{{.*}} : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x5xf32>
// CHECK: %[[PLACED:.*]] = tosa.pad %{{.*}} -> tensor<4x8xf32>
// CHECK: %[[MASK:.*]] = "tosa.const"() <{values = dense<{{\[\[}}false, true, false, true, false, true, false, false]]> : tensor<1x8xi1>}>
// CHECK: tosa.select %[[MASK]], %[[PLACED]], %{{.*}} : (tensor<1x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @slice_scatter_step(%x: !torch.vtensor<[4,8],f32>, %s: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[4,8],f32> {
  %int1 = torch.constant.int 1
  %int7 = torch.constant.int 7
  %int2 = torch.constant.int 2
  %0 = torch.aten.slice_scatter %x, %s, %int1, %int1, %int7, %int2 : !torch.vtensor<[4,8],f32>, !torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,8],f32>
  return %0 : !torch.vtensor<[4,8],f32>
}

// -----

// cat skips empty inputs (an empty KV cache), and a copy of an empty
// tensor is its operand: no zero-size TOSA tensor appears.
// CHECK-LABEL: func.func @cat_empty_cache(
// CHECK-NOT: tensor<1x0x4xf32>) ->
// CHECK: tosa.concat %{{.*}}, %{{.*}} {axis = 1 : i32} : (tensor<1x2x4xf32>, tensor<1x3x4xf32>) -> tensor<1x5x4xf32>
func.func @cat_empty_cache(%cache: !torch.vtensor<[1,0,4],f32>, %a: !torch.vtensor<[1,2,4],f32>, %b: !torch.vtensor<[1,3,4],f32>) -> !torch.vtensor<[1,5,4],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %c = torch.aten.clone %cache, %none : !torch.vtensor<[1,0,4],f32>, !torch.none -> !torch.vtensor<[1,0,4],f32>
  %list = torch.prim.ListConstruct %c, %a, %b : (!torch.vtensor<[1,0,4],f32>, !torch.vtensor<[1,2,4],f32>, !torch.vtensor<[1,3,4],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %list, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[1,5,4],f32>
  return %0 : !torch.vtensor<[1,5,4],f32>
}
