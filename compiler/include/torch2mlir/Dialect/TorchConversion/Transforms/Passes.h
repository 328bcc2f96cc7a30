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

/// The backend contract to TOSA 1.0: convert-torch-to-tosa, the backend
/// type conversion, then the module declares its target (profiles pro_int
/// and pro_fp, extension bf16, level 8k; tosa-attach-target) and is
/// validated against it (tosa-validate, strict op spec alignment).
void createTorchBackendToTosaBackendPipeline(OpPassManager &pm);

/// A TOSA backend module to linalg-on-tensors (upstream tosa-to-linalg
/// pipelines, tosa-to-arith, tosa-to-tensor), what the RefBackend runs.
void createTosaBackendToLinalgOnTensorsPipeline(OpPassManager &pm);

void registerTorchConversionPasses();

#define GEN_PASS_REGISTRATION
#include "torch2mlir/Dialect/TorchConversion/Transforms/Passes.h.inc"

} // namespace mlir::torch2mlir::torch_c

#endif // TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_PASSES_H
