//===- RefBackend.cpp - The reference CPU backend pipeline ----------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string mlir::torch2mlir::refbackend::getRefBackendPipelineText(
    bool runtimeKernels, bool parallelLoops, bool calleeAllocatedResults) {
  return std::string(
             "refbackend-lower-random-keys,"
             "canonicalize,"
             "func.func(refbackend-fuse-elementwise),"
             "func.func(refbackend-tile-loops),"
             "func.func(refbackend-distinct-results),"
             "func.func(refbackend-private-inits),"
             "func.func(refbackend-read-only-arguments),"
             // A tensor.empty that only becomes a slice of a larger tensor
             // (a forall's shared output) is that slice: written in place.
             "eliminate-empty-tensors,"
             "one-shot-bufferize{bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map},") +
         (calleeAllocatedResults
              ? ""
              : "buffer-results-to-out-params{hoist-static-allocs "
                "modify-public-functions},"
                "func.func(refbackend-forward-result-copies),") +
         "canonicalize,"
         "buffer-deallocation-pipeline," +
         (runtimeKernels ? "refbackend-runtime-kernels," : "") +
         // Row-wise loops of the lowering (cumsum's scan) run in parallel.
         "func.func(scf-forall-to-parallel)," +
         (parallelLoops ? "func.func(refbackend-parallel-copies)," : "") +
         (parallelLoops ? "func.func(convert-linalg-to-parallel-loops),"
                        : "func.func(convert-linalg-to-loops),") +
         "lower-affine,"
         // Bools are bytes in memory: after the loops, only loads and
         // stores see the difference.
         "refbackend-widen-sub-byte-buffers,"
         "refbackend-verify-buffer-types," +
         (parallelLoops ? "refbackend-parallelize-loops," : "") +
         // f16/bf16 math (tan, erf, ...) in f32, as PyTorch's CPU kernels:
         // the C library and libmvec only have f32/f64.
         "func.func(math-extend-to-supported-types),"
         // float8/float4: arithmetic in f32, then the conversions as
         // integer math on the bits (LLVM has no such types).
         "arith-emulate-unsupported-floats{source-types=f8E4M3FN,f8E5M2,"
         "f8E4M3FNUZ,f8E5M2FNUZ,f8E8M0FNU,f4E2M1FN target-type=f32},"
         "refbackend-expand-small-floats,"
         // complex64/complex128 math as real arithmetic on the parts (a
         // complex element stays a {re, im} struct in memory).
         "func.func(convert-complex-to-standard),"
         // math.ipowi (integer pow): a loop in a generated function.
         "convert-math-to-funcs{convert-ctlz=false},"
         // Size checks report to the runtime and return, never abort.
         "refbackend-lower-asserts,"
         "convert-scf-to-cf,"
         "expand-strided-metadata,"
         "lower-affine,"
         // Buffers from the runtime's caching allocator (Allocator.cpp).
         "finalize-memref-to-llvm{use-generic-functions},"
         "convert-complex-to-llvm,"
         "convert-math-to-llvm,"
         // erf, tanh, ...: no LLVM intrinsic; calls into the C library.
         "convert-math-to-libm,"
         "convert-arith-to-llvm,"
         "convert-index-to-llvm,"
         "convert-func-to-llvm,"
         "convert-cf-to-llvm,"
         "reconcile-unrealized-casts";
}

LogicalResult mlir::torch2mlir::refbackend::buildRefBackendPipeline(
    OpPassManager &pm, const RefBackendPipelineOptions &options) {
  return parsePassPipeline(
      getRefBackendPipelineText(options.runtimeKernels, options.parallelLoops,
                                options.calleeAllocatedResults),
      pm, llvm::errs());
}

void mlir::torch2mlir::refbackend::registerRefBackendPipeline() {
  registerRefBackendPasses();
  PassPipelineRegistration<RefBackendPipelineOptions>(
      "torch2mlir-refbackend-pipeline",
      "From linalg-on-tensors to the LLVM dialect for the RefBackend's "
      "ExecutionEngine (bufferization with out-params, deallocation, loops)",
      [](OpPassManager &pm, const RefBackendPipelineOptions &options) {
        if (failed(buildRefBackendPipeline(pm, options)))
          llvm::report_fatal_error("invalid RefBackend pipeline text");
      });
}

FailureOr<func::FuncOp> mlir::torch2mlir::refbackend::declareRuntimeFunction(
    ModuleOp module, StringRef name, FunctionType type) {
  auto callee = module.lookupSymbol<func::FuncOp>(name);
  if (!callee) {
    OpBuilder builder(module.getBodyRegion());
    callee = func::FuncOp::create(builder, module.getLoc(), name, type);
    callee.setPrivate();
    return callee;
  }
  if (callee.getFunctionType() != type) {
    callee.emitError() << "'" << name
                       << "' is the RefBackend runtime's and must have type "
                       << type;
    return failure();
  }
  return callee;
}
