// RUN: torch2mlir-opt %s -convert-torch-to-linalg -split-input-file -verify-diagnostics

// Reflection padding must be smaller than the padded dim (PyTorch raises).
func.func @reflection_pad_too_large(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,7],f32> {
  %int4 = torch.constant.int 4
  %int0 = torch.constant.int 0
  %p = torch.prim.ListConstruct %int4, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.reflection_pad1d' could not be lowered to linalg-on-tensors: reflection padding (4, 0) must be smaller than the padded dim (3)}}
  %0 = torch.aten.reflection_pad1d %a, %p : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,7],f32>
  return %0 : !torch.vtensor<[2,7],f32>
}

// -----

func.func @grid_sampler_bicubic(%a: !torch.vtensor<[1,1,4,4],f32>, %g: !torch.vtensor<[1,2,2,2],f32>) -> !torch.vtensor<[1,1,2,2],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten.grid_sampler_2d' could not be lowered to linalg-on-tensors: unsupported: interpolation mode 2 (bicubic)}}
  %0 = torch.aten.grid_sampler_2d %a, %g, %int2, %int0, %false : !torch.vtensor<[1,1,4,4],f32>, !torch.vtensor<[1,2,2,2],f32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[1,1,2,2],f32>
  return %0 : !torch.vtensor<[1,1,2,2],f32>
}

// -----

// Only the output of an embedding bag is computed: a used bag_size fails.
func.func @embedding_bag_sizes_used(%w: !torch.vtensor<[10,3],f32>, %i: !torch.vtensor<[4],si64>, %o: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2],si64> {
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %none = torch.constant.none
  // expected-error @+1 {{'torch.aten._embedding_bag' could not be lowered to linalg-on-tensors: unsupported: offset2bag, bag_size or max_indices results are used}}
  %0:4 = torch.aten._embedding_bag %w, %i, %o, %false, %int0, %false, %none, %false, %int-1 : !torch.vtensor<[10,3],f32>, !torch.vtensor<[4],si64>, !torch.vtensor<[2],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.int -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[0],si64>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>
  return %0#2 : !torch.vtensor<[2],si64>
}

// -----

// PyTorch interpolates uint8 with its own fixed-point weights.
func.func @upsample_bilinear_uint8(%a: !torch.vtensor<[1,1,4,4],ui8>) -> !torch.vtensor<[1,1,7,7],ui8> {
  %int7 = torch.constant.int 7
  %false = torch.constant.bool false
  %none = torch.constant.none
  %size = torch.prim.ListConstruct %int7, %int7 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.upsample_bilinear2d.vec' could not be lowered to linalg-on-tensors: unsupported: bilinear upsampling of integers (PyTorch rounds uint8 with its own fixed-point weights)}}
  %0 = torch.aten.upsample_bilinear2d.vec %a, %size, %false, %none : !torch.vtensor<[1,1,4,4],ui8>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[1,1,7,7],ui8>
  return %0 : !torch.vtensor<[1,1,7,7],ui8>
}

// -----

func.func @col2im_int(%a: !torch.vtensor<[1,8,9],si64>) -> !torch.vtensor<[1,2,4,4],si64> {
  %int4 = torch.constant.int 4
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %size = torch.prim.ListConstruct %int4, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.col2im' could not be lowered to linalg-on-tensors: unsupported: col2im of integers (PyTorch has no integer kernel)}}
  %0 = torch.aten.col2im %a, %size, %k, %d, %p, %d : !torch.vtensor<[1,8,9],si64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[1,2,4,4],si64>
  return %0 : !torch.vtensor<[1,2,4,4],si64>
}
