//===- RefBackend.h - The reference CPU backend pipeline --------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_REFBACKEND_REFBACKEND_H
#define TORCH2MLIR_REFBACKEND_REFBACKEND_H

#include "mlir/Pass/PassManager.h"
#include <string>

namespace mlir::torch2mlir::refbackend {

/// The textual form of `torch2mlir-refbackend-pipeline`: linalg-on-tensors
/// -> fused elementwise ops -> one-shot bufferization (results become
/// caller-allocated out-params) -> ownership-based deallocation -> loops ->
/// LLVM dialect, ready for the ExecutionEngine.
std::string getRefBackendPipelineText();

/// Appends the RefBackend pipeline to `pm` (a builtin.module pass manager).
LogicalResult buildRefBackendPipeline(OpPassManager &pm);

void registerRefBackendPipeline();

} // namespace mlir::torch2mlir::refbackend

#endif // TORCH2MLIR_REFBACKEND_REFBACKEND_H
