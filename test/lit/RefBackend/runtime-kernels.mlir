// RUN: torch2mlir-opt %s -refbackend-runtime-kernels -split-input-file | FileCheck %s

// f32 matmul on buffers: a call of the C-interface kernel, operands cast to
// fully dynamic strided memrefs, then accumulate = 1 (the output is an
// argument: C += A @ B).
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<3x4xf32>, %[[C:.*]]: memref<2x4xf32>)
// CHECK: %[[CA:.*]] = memref.cast %[[A]] : memref<2x3xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[CB:.*]] = memref.cast %[[B]]
// CHECK: %[[CC:.*]] = memref.cast %[[C]]
// CHECK: %[[ACC:.*]] = arith.constant 1 : i64
// CHECK: call @torch2mlir_matmul_f32(%[[CA]], %[[CB]], %[[CC]], %[[ACC]])
// CHECK-NOT: linalg.matmul
// CHECK: func.func private @torch2mlir_matmul_f32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, i64) attributes {llvm.emit_c_interface}
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}

// -----

// Convolutions pass stride and dilation as i64 scalars (sh, sw, dh, dw),
// then accumulate.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[S2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[D1:.*]] = arith.constant 1 : i64
// CHECK: call @torch2mlir_conv2d_nchw_fchw_f64(%{{.*}}, %{{.*}}, %{{.*}}, %[[S2]], %[[S2]], %[[D1]], %[[D1]], %[[D1]])
// CHECK: func.func private @torch2mlir_conv2d_nchw_fchw_f64({{.*}}, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
func.func @conv(%in: memref<1x3x9x9xf64>, %w: memref<4x3x3x3xf64>, %out: memref<1x4x4x4xf64>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<1x3x9x9xf64>, memref<4x3x3x3xf64>) outs(%out : memref<1x4x4x4xf64>)
  return
}

// -----

// Integer contractions, and ops on tensors (not yet bufferized), stay.
// CHECK-LABEL: func.func @untouched
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<2x3xi32>, memref<3x4xi32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x2x3xf32>, tensor<2x3x4xf32>)
// CHECK-NOT: call
func.func @untouched(%a: memref<2x3xi32>, %b: memref<3x4xi32>, %c: memref<2x4xi32>,
                     %x: tensor<2x2x3xf32>, %y: tensor<2x3x4xf32>, %z: tensor<2x2x4xf32>) -> tensor<2x2x4xf32> {
  linalg.matmul ins(%a, %b : memref<2x3xi32>, memref<3x4xi32>) outs(%c : memref<2x4xi32>)
  %0 = linalg.batch_matmul ins(%x, %y : tensor<2x2x3xf32>, tensor<2x3x4xf32>) outs(%z : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  return %0 : tensor<2x2x4xf32>
}

// -----

// Grouped convolution and batch matmul share one declaration per kernel.
// CHECK-LABEL: func.func @grouped
// CHECK: call @torch2mlir_conv2d_ngchw_gfchw_f32
// CHECK: call @torch2mlir_batch_matmul_f32
// CHECK: call @torch2mlir_batch_matmul_f32
// CHECK-COUNT-1: func.func private @torch2mlir_batch_matmul_f32
func.func @grouped(%in: memref<1x2x3x5x5xf32>, %w: memref<2x4x3x3x3xf32>, %out: memref<1x2x4x3x3xf32>,
                   %a: memref<2x2x3xf32>, %b: memref<2x3x4xf32>, %c: memref<2x2x4xf32>) {
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<1x2x3x5x5xf32>, memref<2x4x3x3x3xf32>) outs(%out : memref<1x2x4x3x3xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x2x3xf32>, memref<2x3x4xf32>) outs(%c : memref<2x2x4xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x2x3xf32>, memref<2x3x4xf32>) outs(%c : memref<2x2x4xf32>)
  return
}

// -----

// A matmul reading B transposed passes a transposed view of B: the kernel
// sees unit stride on dim 0 and calls GEMM with B transposed.
// CHECK-LABEL: func.func @matmul_transposed_b
// CHECK: %[[T:.*]] = memref.transpose %{{.*}} (d0, d1) -> (d1, d0) : memref<5x3xf32> to memref<3x5xf32, strided<[1, 3]>>
// CHECK: %[[CT:.*]] = memref.cast %[[T]] : memref<3x5xf32, strided<[1, 3]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: call @torch2mlir_matmul_f32(%{{.*}}, %[[CT]], %{{.*}})
func.func @matmul_transposed_b(%a: memref<4x3xf32>, %b: memref<5x3xf32>, %c: memref<4x5xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<4x3xf32>, memref<5x3xf32>) outs(%c : memref<4x5xf32>)
  return
}

// -----

// The zero fill of a fresh output buffer, or of an out-parameter (a
// function argument), is dropped and the kernel told to overwrite
// (accumulate = 0), also across an unrelated op; a fill that is read in
// between (directly or through a view made before the fill), a nonzero fill,
// -0.0, and an output that is a view keep accumulating into their fill.
// CHECK-LABEL: func.func @zero_fills
// CHECK: %[[A0:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK-NOT: outs(%[[A0]]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<2x2xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: call @torch2mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]])
// CHECK: %[[A1:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A1]] : memref<2x4xf32>)
// CHECK: memref.copy %[[A1]]
// CHECK: %[[ONE1:.*]] = arith.constant 1 : i64
// CHECK: call @torch2mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE1]])
// CHECK: %[[A2:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A2]] : memref<2x4xf32>)
// CHECK: %[[ONE2:.*]] = arith.constant 1 : i64
// CHECK: call @torch2mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE2]])
// CHECK: %[[A3:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A3]] : memref<2x4xf32>)
// CHECK: %[[ONE3:.*]] = arith.constant 1 : i64
// CHECK: call @torch2mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE3]])
// CHECK-NOT: outs(%arg2
// CHECK: %[[ZERO4:.*]] = arith.constant 0 : i64
// CHECK: call @torch2mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO4]])
// CHECK: %[[A5:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK: %[[V5:.*]] = memref.subview %[[A5]]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A5]] : memref<2x4xf32>)
// CHECK: memref.copy %[[V5]]
// CHECK: %[[ONE5:.*]] = arith.constant 1 : i64
// CHECK: call @torch2mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE5]])
// CHECK: %[[V6:.*]] = memref.subview
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[V6]]
// CHECK: %[[ONE6:.*]] = arith.constant 1 : i64
// CHECK: call @torch2mlir_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE6]])
func.func @zero_fills(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>, %t: memref<2x2xf32>, %copy: memref<2x4xf32>) -> (memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%0 : memref<2x4xf32>)
  linalg.fill ins(%one : f32) outs(%t : memref<2x2xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%0 : memref<2x4xf32>)
  %1 = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%1 : memref<2x4xf32>)
  memref.copy %1, %copy : memref<2x4xf32> to memref<2x4xf32>
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%1 : memref<2x4xf32>)
  %2 = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%one : f32) outs(%2 : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%2 : memref<2x4xf32>)
  %3 = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%negzero : f32) outs(%3 : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%3 : memref<2x4xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  %5 = memref.alloc() : memref<2x4xf32>
  %view5 = memref.subview %5[0, 0] [2, 2] [1, 1] : memref<2x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  linalg.fill ins(%zero : f32) outs(%5 : memref<2x4xf32>)
  memref.copy %view5, %t : memref<2x2xf32, strided<[4, 1]>> to memref<2x2xf32>
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%5 : memref<2x4xf32>)
  %6 = memref.alloc() : memref<4x4xf32>
  %view6 = memref.subview %6[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  linalg.fill ins(%zero : f32) outs(%view6 : memref<2x4xf32, strided<[4, 1]>>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%view6 : memref<2x4xf32, strided<[4, 1]>>)
  return %0, %1, %2, %3, %5, %6 : memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<4x4xf32>
}

// -----

// A 3-D convolution passes its strides then its dilations, depth first.
// CHECK-LABEL: func.func @conv3d
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK: call @torch2mlir_conv3d_ncdhw_fcdhw_f64(%{{.*}}, %{{.*}}, %{{.*}}, %[[C2]], %[[C1]], %[[C1]], %[[C1]], %[[C3]], %[[C1]], %[[C1]]) : (memref<?x?x?x?x?xf64, strided<[?, ?, ?, ?, ?], offset: ?>>, memref<?x?x?x?x?xf64, strided<[?, ?, ?, ?, ?], offset: ?>>, memref<?x?x?x?x?xf64, strided<[?, ?, ?, ?, ?], offset: ?>>, i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK: func.func private @torch2mlir_conv3d_ncdhw_fcdhw_f64({{.*}}) attributes {llvm.emit_c_interface}
func.func @conv3d(%in: memref<1x2x5x7x5xf64>, %w: memref<4x2x2x3x2xf64>, %out: memref<1x4x2x1x4xf64>) {
  linalg.conv_3d_ncdhw_fcdhw {dilations = dense<[1, 3, 1]> : tensor<3xi64>, strides = dense<[2, 1, 1]> : tensor<3xi64>}
    ins(%in, %w : memref<1x2x5x7x5xf64>, memref<4x2x2x3x2xf64>) outs(%out : memref<1x4x2x1x4xf64>)
  return
}

// -----

// The two n^2 steps of a sort (marked by TorchToLinalg) become calls of the
// runtime's sort kernels on unranked memrefs: the ranks (dim, descending,
// limit) and the order (dim).
// CHECK-LABEL: func.func @sort_steps
// CHECK-SAME: (%[[X:.*]]: memref<3x5xf32>, %[[R:.*]]: memref<3x5xi64>, %[[O:.*]]: memref<3x2xi64>)
// CHECK-DAG: %[[UX:.*]] = memref.cast %[[X]] : memref<3x5xf32> to memref<*xf32>
// CHECK-DAG: %[[UR:.*]] = memref.cast %[[R]] : memref<3x5xi64> to memref<*xi64>
// CHECK: %[[DIM:.*]] = arith.constant 1 : i64
// CHECK: %[[DESCENDING:.*]] = arith.constant 1 : i64
// CHECK: %[[LIMIT:.*]] = arith.constant 2 : i64
// CHECK: call @torch2mlir_sort_ranks_f32(%[[UX]], %[[UR]], %[[DIM]], %[[DESCENDING]], %[[LIMIT]])
// CHECK: %[[UR2:.*]] = memref.cast %[[R]] : memref<3x5xi64> to memref<*xi64>
// CHECK: %[[UO:.*]] = memref.cast %[[O]] : memref<3x2xi64> to memref<*xi64>
// CHECK: call @torch2mlir_sort_order(%[[UR2]], %[[UO]], %{{.*}})
// CHECK-NOT: linalg.generic
// CHECK: func.func private @torch2mlir_sort_ranks_f32(memref<*xf32>, memref<*xi64>, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK: func.func private @torch2mlir_sort_order(memref<*xi64>, memref<*xi64>, i64) attributes {llvm.emit_c_interface}
#at = affine_map<(d0, d1, d2) -> (d0, d1)>
#other = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @sort_steps(%x: memref<3x5xf32>, %ranks: memref<3x5xi64>, %order: memref<3x2xi64>) {
  linalg.generic {indexing_maps = [#at, #other, #at], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : memref<3x5xf32>, memref<3x5xf32>) outs(%ranks : memref<3x5xi64>)
      attrs = {torch2mlir.sort_ranks = {descending = true, dim = 1 : i64, limit = 2 : i64}} {
  ^bb0(%a: f32, %b: f32, %acc: i64):
    linalg.yield %acc : i64
  }
  linalg.generic {indexing_maps = [#other, #at], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ranks : memref<3x5xi64>) outs(%order : memref<3x2xi64>)
      attrs = {torch2mlir.sort_order = {dim = 1 : i64}} {
  ^bb0(%r: i64, %acc: i64):
    linalg.yield %acc : i64
  }
  return
}

// -----

// Ranks in a buffer of their own (zero-filled, read by the order step
// only, then freed): one call writes the order, the ranks buffer goes.
// CHECK-LABEL: func.func @sort_steps_fused
// CHECK-SAME: (%[[X:.*]]: memref<3x5xf32>, %[[O:.*]]: memref<3x2xi64>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[UX:.*]] = memref.cast %[[X]] : memref<3x5xf32> to memref<*xf32>
// CHECK-DAG: %[[UO:.*]] = memref.cast %[[O]] : memref<3x2xi64> to memref<*xi64>
// CHECK-DAG: %[[DIM:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[LIMIT:.*]] = arith.constant -1 : i64
// CHECK: call @torch2mlir_sort_positions_f32(%[[UX]], %[[UO]], %[[DIM]], %{{.*}}, %[[LIMIT]])
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
// CHECK: return
// CHECK: func.func private @torch2mlir_sort_positions_f32(memref<*xf32>, memref<*xi64>, i64, i64, i64) attributes {llvm.emit_c_interface}
#at3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#other3 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @sort_steps_fused(%x: memref<3x5xf32>, %order: memref<3x2xi64>) {
  %zero = arith.constant 0 : i64
  %ranks = memref.alloc() : memref<3x5xi64>
  linalg.fill ins(%zero : i64) outs(%ranks : memref<3x5xi64>)
  linalg.generic {indexing_maps = [#at3, #other3, #at3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : memref<3x5xf32>, memref<3x5xf32>) outs(%ranks : memref<3x5xi64>)
      attrs = {torch2mlir.sort_ranks = {descending = false, dim = 1 : i64}} {
  ^bb0(%a: f32, %b: f32, %acc: i64):
    linalg.yield %acc : i64
  }
  linalg.generic {indexing_maps = [#other3, #at3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ranks : memref<3x5xi64>) outs(%order : memref<3x2xi64>)
      attrs = {torch2mlir.sort_order = {dim = 1 : i64}} {
  ^bb0(%r: i64, %acc: i64):
    linalg.yield %acc : i64
  }
  memref.dealloc %ranks : memref<3x5xi64>
  return
}

// -----

// The ranks read by something else too: the two steps stay two calls.
// CHECK-LABEL: func.func @sort_ranks_also_copied
// CHECK: memref.alloc
// CHECK: call @torch2mlir_sort_ranks_f32
// CHECK: call @torch2mlir_sort_order
// CHECK: memref.copy
// CHECK-NOT: torch2mlir_sort_positions
#at4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#other4 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @sort_ranks_also_copied(%x: memref<3x5xf32>, %order: memref<3x2xi64>, %copy: memref<3x5xi64>) {
  %zero = arith.constant 0 : i64
  %ranks = memref.alloc() : memref<3x5xi64>
  linalg.fill ins(%zero : i64) outs(%ranks : memref<3x5xi64>)
  linalg.generic {indexing_maps = [#at4, #other4, #at4], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : memref<3x5xf32>, memref<3x5xf32>) outs(%ranks : memref<3x5xi64>)
      attrs = {torch2mlir.sort_ranks = {descending = false, dim = 1 : i64}} {
  ^bb0(%a: f32, %b: f32, %acc: i64):
    linalg.yield %acc : i64
  }
  linalg.generic {indexing_maps = [#other4, #at4], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ranks : memref<3x5xi64>) outs(%order : memref<3x2xi64>)
      attrs = {torch2mlir.sort_order = {dim = 1 : i64}} {
  ^bb0(%r: i64, %acc: i64):
    linalg.yield %acc : i64
  }
  memref.copy %ranks, %copy : memref<3x5xi64> to memref<3x5xi64>
  memref.dealloc %ranks : memref<3x5xi64>
  return
}

// -----

// No kernel for f16: the marked generic stays (it computes the same ranks).
// CHECK-LABEL: func.func @sort_f16_stays
// CHECK: linalg.generic
// CHECK-NOT: call
#at2 = affine_map<(d0, d1) -> (d0)>
#other2 = affine_map<(d0, d1) -> (d1)>
func.func @sort_f16_stays(%x: memref<4xf16>, %ranks: memref<4xi64>) {
  linalg.generic {indexing_maps = [#at2, #other2, #at2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %x : memref<4xf16>, memref<4xf16>) outs(%ranks : memref<4xi64>)
      attrs = {torch2mlir.sort_ranks = {descending = false, dim = 0 : i64}} {
  ^bb0(%a: f16, %b: f16, %acc: i64):
    linalg.yield %acc : i64
  }
  return
}

// -----

// int8 x int8 -> int32 matmul (a quantized linear: the weight read
// transposed): the int8 GEMM kernel, with the int32 accumulator.
// CHECK-LABEL: func.func @int8_matmul
// CHECK: %[[T:.*]] = memref.transpose %{{.*}} (d0, d1) -> (d1, d0) : memref<5x6xi8> to memref<6x5xi8, strided<[1, 6]>>
// CHECK: %[[CT:.*]] = memref.cast %[[T]] : memref<6x5xi8, strided<[1, 6]>> to memref<?x?xi8, strided<[?, ?], offset: ?>>
// CHECK: %[[CC:.*]] = memref.cast %{{.*}} : memref<4x5xi32> to memref<?x?xi32, strided<[?, ?], offset: ?>>
// CHECK: call @torch2mlir_matmul_i8(%{{.*}}, %[[CT]], %[[CC]])
// CHECK-NOT: linalg.matmul
func.func @int8_matmul(%a: memref<4x6xi8>, %b: memref<5x6xi8>, %c: memref<4x5xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<4x6xi8>, memref<5x6xi8>) outs(%c : memref<4x5xi32>)
  return
}

// -----

// The quantized convolution passes its zero points (i32 operands) after the
// buffers, then strides and dilations.
// CHECK-LABEL: func.func @int8_conv
// CHECK-DAG: %[[ZI:.*]] = arith.constant -5 : i32
// CHECK-DAG: %[[ZW:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[S2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[D1:.*]] = arith.constant 1 : i64
// CHECK: call @torch2mlir_conv2d_nchw_fchw_q_i8(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZI]], %[[ZW]], %[[S2]], %[[S2]], %[[D1]], %[[D1]])
// CHECK-NOT: linalg.conv
// CHECK: func.func private @torch2mlir_conv2d_nchw_fchw_q_i8({{.*}}, memref<?x?x?x?xi32, strided<[?, ?, ?, ?], offset: ?>>, i32, i32, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
func.func @int8_conv(%in: memref<1x3x10x10xi8>, %w: memref<4x3x3x3xi8>, %out: memref<1x4x4x4xi32>) {
  %zi = arith.constant -5 : i32
  %zw = arith.constant 0 : i32
  linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w, %zi, %zw : memref<1x3x10x10xi8>, memref<4x3x3x3xi8>, i32, i32) outs(%out : memref<1x4x4x4xi32>)
  return
}

// -----

// No int8 kernel: an int8 accumulator (wrapping), unsigned inputs, an int8
// batch matmul. They stay (the generic lowering computes them).
// CHECK-LABEL: func.func @int8_stays
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x6xi8>, memref<6x5xi8>) outs(%{{.*}} : memref<4x5xi8>)
// CHECK: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
// CHECK: linalg.batch_matmul
// CHECK-NOT: call
func.func @int8_stays(%a: memref<4x6xi8>, %b: memref<6x5xi8>, %c: memref<4x5xi8>, %d: memref<4x5xi32>,
                      %a3: memref<2x4x6xi8>, %b3: memref<2x6x5xi8>, %d3: memref<2x4x5xi32>) {
  linalg.matmul ins(%a, %b : memref<4x6xi8>, memref<6x5xi8>) outs(%c : memref<4x5xi8>)
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<4x6xi8>, memref<6x5xi8>) outs(%d : memref<4x5xi32>)
  linalg.batch_matmul ins(%a3, %b3 : memref<2x4x6xi8>, memref<2x6x5xi8>) outs(%d3 : memref<2x4x5xi32>)
  return
}

// -----

// B a frozen weight (compile(freeze=True)), read through a view and
// transposed, as a linear layer reads it: the kernel that packs B once.
// CHECK-LABEL: func.func @frozen_weight
// CHECK: %[[W:.*]] = memref.collapse_shape %arg1
// CHECK: %[[T:.*]] = memref.transpose %[[W]]
// CHECK: %[[CB:.*]] = memref.cast %[[T]]
// CHECK: call @torch2mlir_matmul_frozen_f32(%{{.*}}, %[[CB]], %{{.*}}, %{{.*}})
// CHECK: call @torch2mlir_matmul_f32(
// CHECK-NOT: call @torch2mlir_matmul_frozen_
// CHECK: call @torch2mlir_matmul_i8(
// CHECK-DAG: func.func private @torch2mlir_matmul_frozen_f32(
// CHECK-DAG: func.func private @torch2mlir_matmul_f32(
func.func @frozen_weight(%x: memref<2x3x4xf32>, %w3: memref<5x2x2xf32> {torch2mlir.frozen}, %live: memref<4x5xf32>, %out: memref<6x5xf32>, %out2: memref<6x5xf32>, %qa: memref<6x4xi8>, %qw: memref<4x5xi8> {torch2mlir.frozen}, %qout: memref<6x5xi32>) {
  %x2 = memref.collapse_shape %x [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
  %w = memref.collapse_shape %w3 [[0], [1, 2]] : memref<5x2x2xf32> into memref<5x4xf32>
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x2, %w : memref<6x4xf32>, memref<5x4xf32>) outs(%out : memref<6x5xf32>)
  // A B that is not frozen: the plain kernel.
  linalg.matmul ins(%x2, %live : memref<6x4xf32>, memref<4x5xf32>) outs(%out2 : memref<6x5xf32>)
  // Integer operands have no frozen kernel.
  linalg.matmul ins(%qa, %qw : memref<6x4xi8>, memref<4x5xi8>) outs(%qout : memref<6x5xi32>)
  return
}
