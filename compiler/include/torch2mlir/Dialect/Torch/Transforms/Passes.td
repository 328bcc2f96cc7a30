//===- Passes.td - Passes on the torch dialect -------------*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_TRANSFORMS_PASSES
#define TORCH2MLIR_DIALECT_TORCH_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def DecomposeComplexOps : Pass<"torch-decompose-complex-ops", "func::FuncOp"> {
  let summary = "Rewrite ATen ops in terms of a smaller core of ATen ops";
  let description = [{
    Decomposes ops that a backend need not lower by itself: `aten.linear`
    into `aten.t` + `aten.matmul` + `aten.add.Tensor`, `aten.matmul` into
    `aten.mm`/`aten.bmm` (with `aten.view` for batched-by-2-D products),
    `aten.conv2d` into `aten.convolution`, inference `aten.batch_norm` into
    `aten._native_batch_norm_legit_no_training`, `aten.softmax.int` into
    `aten._softmax`, `aten.mean.dim` into `aten.sum.dim_IntList` and a
    division, `aten.flatten.using_ints`/`aten.reshape`/`aten._unsafe_view`
    into `aten.view`, `aten.t`/`aten.transpose.int` into `aten.permute`,
    `aten.adaptive_avg_pool2d` into `aten.avg_pool2d` when the input size is
    a multiple of the output size, `aten.zeros`/`aten.ones` into `aten.full`,
    `aten.arange`/`aten.arange.start` into `aten.arange.start_step`,
    `aten.where.ScalarOther`/`ScalarSelf` into `aten.where.self` of an
    `aten.scalar_tensor`, `aten.min.other`/`max.other` into
    `aten.minimum`/`maximum`, ...

    `legal-ops` names ops the backend lowers itself: those are kept even if a
    decomposition exists (e.g. `legal-ops=aten.linear,aten.matmul`).

    `float64` (default true) says the backend has float64 tensors: `aten.var`
    of any float dtype is then computed in float64 and rounded, as PyTorch's
    Welford kernel accumulates in double (a float32 variance of 3e38s is 0,
    where a float32 mean overflows); `float64=false` (TOSA 1.0) keeps
    float32, float16/bfloat16 widened to float32.
  }];
  let options = [
    ListOption<"legalOps", "legal-ops", "std::string",
               "ops (like aten.linear) that are not decomposed">,
    Option<"float64", "float64", "bool", /*default=*/"true",
           "the backend has float64 tensors (var accumulates in them)">,
  ];
  let dependentDialects = ["torch2mlir::torch::TorchDialect"];
}

def NarrowSi64 : Pass<"torch-narrow-si64", "ModuleOp"> {
  let summary = "Narrow si64 tensors whose values provably fit to si32";
  let description = [{
    For backends without 64-bit integers (TOSA 1.0). A forward interval
    analysis (upstream's integer range arithmetic, int64 wraparound) bounds
    each si64 tensor: literals, constant `full`/`arange`, element moving ops
    (views, permutations, slices, expand, cat), add/sub/mul/neg/abs,
    min/max/clamp, remainder by a constant, where, cumsum, sum,
    argmax/argmin, integer widening casts. A tensor whose range fits in si32
    becomes si32; the others stay si64 for the backend to refuse.

    A si64 function argument takes the range its index uses require
    (`embedding`, `gather`, `index_select` reading it, through element
    moving ops: [0, size - 1]), within si32; it becomes si32 with the
    argument attribute `torch2mlir.value_range = array<i64: lo, hi>`, which
    the runtime checks each call's values against (a si8/si16/si32 argument
    read as indices gets it too, keeping its type). Narrowed results are
    si32 results: the runtime widens them back to int64.

    The same analysis bounds ui8 tensors (TOSA 1.0 has no unsigned
    integers): one whose values provably stay in [0, 255], which no op
    wrapped modulo 256, holds the same integers as a si16 one and becomes
    si16 (arguments with `torch2mlir.value_range`, results converted back
    by the runtime); one that may have wrapped, or whose bits are read
    (`view.dtype`), stays ui8.

    An index operand whose range lies within [0, size - 1] of the dim it
    indexes marks its op `torch2mlir.indices_in_bounds`: a backend without
    run-time checks lowers the gather only then.
  }];
}

def VerifyBackendContract : Pass<"torch-verify-backend-contract", "ModuleOp"> {
  let summary = "Check that the module satisfies the backend contract";
  let description = [{
    The backend contract: every tensor is a `!torch.vtensor` with known rank
    and dtype, and every op is in the core op set
    (`torch2mlir/Dialect/Torch/IR/CoreOps.def`) or one the backend lowers
    itself (`legal-ops`). A `torch.operator` (an op with no definition) or a
    non-core op that `torch-decompose-complex-ops` could not rewrite is an
    error. Each violation is reported at the op's location (the Python
    source line it came from), with the op's name and a way out.
  }];
  let options = [
    ListOption<"legalOps", "legal-ops", "std::string",
               "Non-core ops the backend lowers itself (aten.linear...)">,
  ];
}

#endif // TORCH2MLIR_DIALECT_TORCH_TRANSFORMS_PASSES
