//===- Passes.h - Passes on the torch dialect -------------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_TRANSFORMS_PASSES_H
#define TORCH2MLIR_DIALECT_TORCH_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"

namespace mlir::torch2mlir::torch {

#define GEN_PASS_DECL
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h.inc"

/// Options of the `torch-lower-to-backend-contract` pipeline.
struct BackendContractPipelineOptions
    : public PassPipelineOptions<BackendContractPipelineOptions> {
  ListOption<std::string> legalOps{
      *this, "legal-ops",
      llvm::cl::desc("ops the backend lowers itself (not decomposed)")};
  Option<bool> float64{*this, "float64",
                       llvm::cl::desc("the backend has float64 tensors (see "
                                      "torch-decompose-complex-ops)"),
                       llvm::cl::init(true)};
};

/// From freshly imported IR to the backend contract: canonicalize,
/// decompose, verify.
void createLowerToBackendContractPipeline(
    OpPassManager &pm, const BackendContractPipelineOptions &options);

void registerTorchPasses();

#define GEN_PASS_REGISTRATION
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h.inc"

} // namespace mlir::torch2mlir::torch

#endif // TORCH2MLIR_DIALECT_TORCH_TRANSFORMS_PASSES_H
