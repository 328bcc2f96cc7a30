//===- InitAll.h - Register everything torch2mlir has -----------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_INITALL_H
#define TORCH2MLIR_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::torch2mlir {

/// Adds the torch and torch_c dialects to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers the torch2mlir passes and pipelines (idempotent).
void registerAllPasses();

} // namespace mlir::torch2mlir

#endif // TORCH2MLIR_INITALL_H
