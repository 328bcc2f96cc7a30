//===- Passes.h - Conversions out of the torch dialect ----------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_CONVERSION_PASSES_H
#define TORCH2MLIR_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/Pass.h"
#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h"

namespace mlir::torch2mlir {

#define GEN_PASS_DECL
#include "torch2mlir/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "torch2mlir/Conversion/Passes.h.inc"

} // namespace mlir::torch2mlir

#endif // TORCH2MLIR_CONVERSION_PASSES_H
