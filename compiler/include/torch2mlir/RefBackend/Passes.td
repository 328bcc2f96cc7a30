//===- Passes.td - Passes of the RefBackend ----------------*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_REFBACKEND_PASSES
#define TORCH2MLIR_REFBACKEND_PASSES

include "mlir/Pass/PassBase.td"

def FuseElementwise : Pass<"refbackend-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg producers into their consumers";
  let description = [{
    On tensors, fuses a `linalg.generic` whose every loop is parallel into
    the `linalg.generic` that consumes it when the producer has no other
    user, so the intermediate tensor is never materialized (a chain of
    elementwise ops becomes one loop nest). Unlike upstream
    `linalg-fuse-elementwise-ops`, it does not propagate `tensor.expand_shape`
    / `tensor.collapse_shape` through linalg ops: that rewrites named
    contractions (`linalg.matmul`, `linalg.batch_matmul`) into generics,
    which `refbackend-runtime-kernels` can no longer hand to the BLAS.
    Each fusion copies the producer's body into the consumer, so fusing a
    long chain into one op costs the square of its length: a fused body
    stops growing at `max-body-size` ops.
  }];
  let options = [
    Option<"maxBodySize", "max-body-size", "unsigned", "256",
           "the most ops the body of a fused op may hold">
  ];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def DistinctResults : Pass<"refbackend-distinct-results", "func::FuncOp"> {
  let summary = "Give every tensor result of a function its own value";
  let description = [{
    When a `func.return` returns the same tensor value more than once (a
    program such as `y = x + 1; return y, y`), every repeated operand after
    the first becomes a copy of it (`bufferization.alloc_tensor() copy(%v)`).
    After bufferization each result then has its own buffer, which
    `buffer-results-to-out-params` needs: it turns each returned buffer into
    an out-parameter of its own, and with `hoist-static-allocs` one
    allocation cannot stand for two out-parameters. A returned
    `tensor.empty` that has other users (the init of an op whose result is
    returned too, as canonicalization leaves a zero-size result) becomes a
    clone of its own, for the same reason. Run it on tensors, before
    `one-shot-bufferize`.
  }];
  let dependentDialects = ["bufferization::BufferizationDialect"];
}

def PrivateInits : Pass<"refbackend-private-inits", "func::FuncOp"> {
  let summary = "Give each destination-style op its own filled init";
  let description = [{
    CSE leaves one `linalg.fill` (and its `tensor.empty`) for every op
    that starts from the same constant, such as the zero init of each
    convolution and matmul of one shape in a network. `one-shot-bufferize`
    then fills one buffer once and copies it, serially, into a new buffer
    for every further op that writes into it: a memcpy of the whole
    result per convolution. This pass gives every further init use of a
    fill with several users its own clone of the fill (and of the fill's
    `tensor.empty`), right before the user, so each op fills its own
    buffer in place (a parallel loop). Read-only uses keep the shared
    value. Run it on tensors, before `one-shot-bufferize`.
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def ForwardResultCopies : Pass<"refbackend-forward-result-copies", "func::FuncOp"> {
  let summary = "Compute results that are reshaped views in their out-parameter";
  let description = [{
    `buffer-results-to-out-params` (with `hoist-static-allocs`) computes a
    result directly in its out-parameter only when the returned buffer is
    an allocation; a result that is a view of one (a `memref.expand_shape`
    or `memref.collapse_shape` of it, as `x.view(...)` at the end of a
    program) is computed in a temporary and then copied, serially, into
    the out-parameter. Where the view chain leads to a static `memref.alloc`
    of the function's entry block and the out-parameter has no other use,
    this pass replaces the allocation by the out-parameter reshaped to its
    type (collapsed to one dim, then expanded) and drops the copy. Run it
    right after `buffer-results-to-out-params`, before deallocation.
  }];
  let dependentDialects = ["memref::MemRefDialect"];
}

def TileLoops : Pass<"refbackend-tile-loops", "func::FuncOp"> {
  let summary = "Tile linalg.generic loops for parallelism and locality";
  let description = [{
    Tiles two kinds of `linalg.generic` (static sizes, enough work) into an
    `scf.forall` of tiles, which `scf-forall-to-parallel` makes a top-level
    `scf.parallel` for `refbackend-parallelize-loops`:

    - An outermost reduction loop (a sum over the first dim of a row-major
      tensor: `x.sum(0)`). Its loops nest the parallel dims inside the
      reduction's `scf.for`, so they would run on one thread, and
      interchanging them would walk memory by columns. The first parallel
      loop is split into up to 16 tiles of at least 1024 iterations and
      2^16 iterations of work each; each tile keeps the reduction outside
      and the contiguous inner loop inside.
    - A parallel generic that reads an operand transposed (`x.t() + y`):
      the operand's contiguous dim is an outer loop, so each step of the
      inner loop touches another cache line and another page. The inner
      loop and the loop over the operand's contiguous dim are tiled by 64
      (the other loops by 1): a tile reads 64 lines of 64 elements.

    Run it on tensors, before `one-shot-bufferize`.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "scf::SCFDialect",
                           "tensor::TensorDialect"];
}

def ReadOnlyArguments : Pass<"refbackend-read-only-arguments", "func::FuncOp"> {
  let summary = "Keep the caller's tensors: tensor arguments are not writable";
  let description = [{
    Marks every tensor argument of a public function
    `bufferization.writable = false`. `one-shot-bufferize` with
    `bufferize-function-boundaries` otherwise takes arguments as writable,
    and an op that updates a tensor in place (`tensor.insert` of a scatter
    or index_put into its `self`, a linalg op whose init is an argument)
    would write into the buffer the caller passed: the caller's input, or
    a weight, changed by a call of an out-of-place program. Read-only
    arguments are copied where a write needs them. (Inputs that the program
    mutates are results, written back by the runtime.) Run it on tensors,
    before `one-shot-bufferize`.
  }];
  let dependentDialects = ["bufferization::BufferizationDialect"];
}

def LowerRandomKeys : Pass<"refbackend-lower-random-keys", "ModuleOp"> {
  let summary = "Draw random keys from the RefBackend runtime";
  let description = [{
    Replaces each `torch_c.random_key` with a call of the runtime's
    `torch2mlir_random_key() -> i64` (declared private in the module). The
    runtime returns the next output of a per-thread SplitMix64 stream, which
    the Python runtime seeds before each call of a program that has random
    ops, with a number drawn from PyTorch's default generator.
  }];
  let dependentDialects = ["func::FuncDialect"];
}

def LowerAsserts : Pass<"refbackend-lower-asserts", "ModuleOp"> {
  let summary = "Turn cf.assert into a reported failure and an early return";
  let description = [{
    The lowerings check at run time the sizes that the compiled code assumes
    but the types cannot prove (a reshape of a tensor with a dynamic size to
    a static shape) with `cf.assert`. Upstream `convert-cf-to-llvm` would
    make a failed assert abort the process. Instead, each `cf.assert` in the
    top-level block of a function without results (results are out-params
    by now) becomes a conditional branch to a block that calls the
    runtime's `torch2mlir_runtime_fail(!llvm.ptr)` with the message (and
    the assert's location) and returns: nothing after the check runs, and
    the Python runtime raises the message as an `InputError`. An assert
    nested in a loop or a region, or in a function with results, calls the
    runtime under `scf.if` and execution goes on (the failure is still
    reported after the call).
  }];
  let dependentDialects = [
    "cf::ControlFlowDialect", "func::FuncDialect", "LLVM::LLVMDialect",
    "scf::SCFDialect"
  ];
}

def RuntimeKernels : Pass<"refbackend-runtime-kernels", "ModuleOp"> {
  let summary = "Call the RefBackend runtime's BLAS kernels for contractions";
  let description = [{
    On bufferized IR, replaces f32/f64 `linalg.matmul`, `linalg.batch_matmul`,
    `linalg.conv_2d_nchw_fchw`, `linalg.conv_2d_ngchw_gfchw` and
    `linalg.conv_3d_ncdhw_fcdhw` (with the default indexing maps) by calls to `torch2mlir_<op>_<f32|f64>`, external
    functions with `llvm.emit_c_interface` that the RefBackend runtime
    library implements with one GEMM each (im2col for convolutions).
    Operands are passed as fully dynamic strided memrefs, so any layout is
    accepted; the runtime falls back to loops for layouts a GEMM cannot take.
    A float kernel's last argument says whether it adds to its output
    buffer (1) or overwrites it (0): when that buffer is a fresh allocation
    whose last write is a `linalg.fill` of +0.0, the fill is erased and the
    kernel overwrites (a GEMM with beta = 0).

    A float `linalg.matmul` whose B is (a view of) a function argument with
    the `torch2mlir.frozen` attribute (a weight that `compile(freeze=True)`
    froze: its contents never change while the module lives) calls
    `torch2mlir_matmul_frozen_<f32|f64>` instead, which packs B once
    (MKL's cblas_?gemm_pack) and reuses the packed copy on every call.

    The two n^2 steps of a sort (the `linalg.generic` ops TorchToLinalg marks
    with `torch2mlir.sort_ranks` and `torch2mlir.sort_order`) become calls of
    `torch2mlir_sort_ranks_<f32|f64|i32|i64>` (a stable sort of each slice)
    and `torch2mlir_sort_order` on unranked memrefs.
  }];
  let dependentDialects = ["func::FuncDialect", "memref::MemRefDialect",
                           "arith::ArithDialect"];
}

def ParallelCopies : Pass<"refbackend-parallel-copies", "func::FuncOp"> {
  let summary = "Turn large top-level buffer copies into parallel loops";
  let description = [{
    `finalize-memref-to-llvm` lowers a `memref.copy` between contiguous
    buffers to one `memcpy`: serial code on one thread, between parallel
    loops. A program that starts its result as a copy of an input (scatter,
    index_put, the in-place ops) then copies the whole tensor on one core
    (16 MB of a scatter_add's [1024, 4096] input: half its time with two
    threads). This pass rewrites each `memref.copy` of the function's
    body (not one nested in a loop or region, which already runs per
    iteration or per task) whose static size is at least `min-bytes` and
    whose elements are integers or floats into a `linalg.copy`, which
    `convert-linalg-to-parallel-loops` and `refbackend-parallelize-loops`
    split across the threads. Run it on buffers, before
    `convert-linalg-to-parallel-loops`.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"262144",
           "least size (bytes) of a copy worth running in parallel">,
  ];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def ParallelizeLoops : Pass<"refbackend-parallelize-loops", "ModuleOp"> {
  let summary = "Run top-level parallel loops on PyTorch's OpenMP threads";
  let description = [{
    On loops over buffers (after `convert-linalg-to-parallel-loops`), turns
    each `scf.parallel` that is not nested in another loop into a call of
    the RefBackend runtime:

      torch2mlir_parallel_for(@<func>_parallel_<k>, %ctx, %n, %grain)

    The body is outlined into a private function `(ctx, lo, hi)` that runs
    iterations [lo, hi) of one dimension of the loop (the outermost one with
    at least 16 iterations or a dynamic size, else the longest); the other
    dimensions stay inside as a sequential loop. Values the body uses are
    stored in a stack struct `%ctx` (memref descriptors by value, indices
    as i64); constants are cloned into the body instead. `%grain` is the
    least number of iterations worth a task: `min-task-cost` divided by an
    estimate of one iteration's cost (ops in the body, times the trip counts
    of its inner loops and other dimensions; 32 for a dynamic trip count).
    The runtime runs a loop with fewer than two grains in the calling
    thread. Loops with reductions (`scf.reduce` operands) are left as they
    are.
  }];
  let options = [
    Option<"minTaskCost", "min-task-cost", "int64_t", /*default=*/"16384",
           "least estimated cost (ops executed) of one task">,
  ];
  let dependentDialects = ["arith::ArithDialect", "func::FuncDialect",
                           "LLVM::LLVMDialect", "scf::SCFDialect"];
}

def WidenSubByteBuffers : Pass<"refbackend-widen-sub-byte-buffers", "ModuleOp"> {
  let summary = "Store buffers of sub-byte elements (i1, i2, i4, f4E2M1FN) as bytes";
  let description = [{
    MLIR's LLVM lowering of memref loads and stores cannot address sub-byte
    elements; PyTorch keeps a bool in one byte, and ml_dtypes (onnx's and
    numpy's int4, uint4, int2, uint2 and float4_e2m1fn) a 4- or 2-bit
    element in the low bits of one byte. On bufferized IR whose linalg ops
    are loops, this pass turns every buffer of elements narrower than 8 bits
    into a buffer of i8: function signatures, calls, returns, scf and cf
    structural ops, `memref.global` (with its initializer) and the memref
    ops that allocate, view or copy buffers. `memref.load` becomes a byte
    load and `arith.trunci` (and `arith.bitcast` for a float element);
    `memref.store` (an `arith.bitcast` and) an `arith.extui` and a byte
    store. The entry function then takes and returns such tensors as their
    bytes, which is how the Python runtime passes them.
  }];
}

def VerifyBufferTypes : Pass<"refbackend-verify-buffer-types", "ModuleOp"> {
  let summary = "Reject buffers the RefBackend's LLVM lowering cannot hold";
  let description = [{
    MLIR's LLVM lowering of memref loads and stores needs elements of at
    least 8 bits. `refbackend-widen-sub-byte-buffers` stores sub-byte
    elements as bytes; this pass, which runs after it, reports any buffer of
    sub-byte elements that escaped the widening at its location, instead of
    failing later in the LLVM lowering.
  }];
}

def ExpandSmallFloats : Pass<"refbackend-expand-small-floats"> {
  let summary = "Expand extf/truncf of float8 and float4 into integer math";
  let description = [{
    LLVM has no float8 or float4 types: the LLVM lowering keeps their values
    as integers of the same width, but has no lowering for `arith.extf` and
    `arith.truncf` from or to them. This pass (after
    `arith-emulate-unsupported-floats`, which leaves only those two) expands
    them into integer and float arithmetic on the bits, with the format's
    parameters from its APFloat semantics: extf decodes the fields exactly
    in f32; truncf rounds to nearest even, an overflow becomes infinity
    where the format has one, else NaN (finite-only formats without NaN
    saturate), as APFloat's and PyTorch's conversions. f8E8M0FNU rounds to
    the nearest power of two, ties up, as c10::Float8_e8m0fnu.
  }];
  let dependentDialects = ["mlir::math::MathDialect"];
}

#endif // TORCH2MLIR_REFBACKEND_PASSES
