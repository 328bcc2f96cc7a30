//===- Passes.td - Passes of the RefBackend ----------------*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_REFBACKEND_PASSES
#define TORCH2MLIR_REFBACKEND_PASSES

include "mlir/Pass/PassBase.td"

def RuntimeKernels : Pass<"refbackend-runtime-kernels", "ModuleOp"> {
  let summary = "Call the RefBackend runtime's BLAS kernels for contractions";
  let description = [{
    On bufferized IR, replaces f32/f64 `linalg.matmul`, `linalg.batch_matmul`,
    `linalg.conv_2d_nchw_fchw` and `linalg.conv_2d_ngchw_gfchw` (with the
    default indexing maps) by calls to `torch2mlir_<op>_<f32|f64>`, external
    functions with `llvm.emit_c_interface` that the RefBackend runtime
    library implements with one GEMM each (im2col for convolutions).
    Operands are passed as fully dynamic strided memrefs, so any layout is
    accepted; the runtime falls back to loops for layouts a GEMM cannot take.
  }];
  let dependentDialects = ["func::FuncDialect", "memref::MemRefDialect",
                           "arith::ArithDialect"];
}

def VerifyBufferTypes : Pass<"refbackend-verify-buffer-types", "ModuleOp"> {
  let summary = "Reject buffers the RefBackend's LLVM lowering cannot hold";
  let description = [{
    MLIR's LLVM lowering of memref loads and stores needs elements of at
    least 8 bits, so a bool (i1) tensor that is materialized in memory
    cannot be compiled yet. This pass reports each op that produces such a
    buffer, at its location, with a way out, instead of failing later.
  }];
}

#endif // TORCH2MLIR_REFBACKEND_PASSES
