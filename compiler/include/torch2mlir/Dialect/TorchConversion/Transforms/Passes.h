//===- Passes.h - Backend type conversion passes ----------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_PASSES_H
#define TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h"

namespace mlir::torch2mlir::torch_c {

#define GEN_PASS_DECL
#include "torch2mlir/Dialect/TorchConversion/Transforms/Passes.h.inc"

/// From the backend contract to linalg-on-tensors: convert-torch-to-linalg,
/// convert-torch-to-arith, function type conversion, finalization, verify.
void createTorchBackendToLinalgOnTensorsBackendPipeline(OpPassManager &pm);

void registerTorchConversionPasses();

#define GEN_PASS_REGISTRATION
#include "torch2mlir/Dialect/TorchConversion/Transforms/Passes.h.inc"

} // namespace mlir::torch2mlir::torch_c

#endif // TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_PASSES_H
