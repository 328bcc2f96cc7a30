//===- RefBackend.h - The reference CPU backend pipeline --------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_REFBACKEND_REFBACKEND_H
#define TORCH2MLIR_REFBACKEND_REFBACKEND_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include <string>

namespace mlir::torch2mlir::refbackend {

#define GEN_PASS_DECL
#include "torch2mlir/RefBackend/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "torch2mlir/RefBackend/Passes.h.inc"

/// Options of `torch2mlir-refbackend-pipeline`.
struct RefBackendPipelineOptions
    : public PassPipelineOptions<RefBackendPipelineOptions> {
  Option<bool> runtimeKernels{
      *this, "runtime-kernels",
      llvm::cl::desc("call the runtime's BLAS kernels for matmuls and "
                     "convolutions (refbackend-runtime-kernels)"),
      llvm::cl::init(true)};
  Option<bool> parallelLoops{
      *this, "parallel-loops",
      llvm::cl::desc("run top-level parallel loops on the runtime's threads "
                     "(refbackend-parallelize-loops); else all loops are "
                     "sequential"),
      llvm::cl::init(true)};
  Option<bool> calleeAllocatedResults{
      *this, "callee-allocated-results",
      llvm::cl::desc(
          "return results as memrefs the compiled code allocates (with "
          "malloc; the caller frees them) instead of caller-allocated "
          "out-params: for results whose sizes only the computation knows "
          "(nonzero, masked_select, unique)"),
      llvm::cl::init(false)};
};

/// The textual form of `torch2mlir-refbackend-pipeline`: linalg-on-tensors
/// -> fused elementwise ops -> one-shot bufferization (results become
/// caller-allocated out-params) -> ownership-based deallocation -> loops
/// (top-level parallel loops outlined for the runtime's threads) -> LLVM
/// dialect, ready for code generation. With `calleeAllocatedResults` the
/// results stay results: the compiled code allocates them.
std::string getRefBackendPipelineText(bool runtimeKernels = true,
                                      bool parallelLoops = true,
                                      bool calleeAllocatedResults = false);

/// Appends the RefBackend pipeline to `pm` (a builtin.module pass manager).
LogicalResult buildRefBackendPipeline(OpPassManager &pm,
                                      const RefBackendPipelineOptions &options);

void registerRefBackendPipeline();

/// The private declaration of the runtime function `name` in `module`,
/// created with `type` if missing; an error on an existing symbol of
/// another type (the runtime's functions are not the program's to define).
FailureOr<func::FuncOp> declareRuntimeFunction(ModuleOp module, StringRef name,
                                               FunctionType type);

} // namespace mlir::torch2mlir::refbackend

#endif // TORCH2MLIR_REFBACKEND_REFBACKEND_H
