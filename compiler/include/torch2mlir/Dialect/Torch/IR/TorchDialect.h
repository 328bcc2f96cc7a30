//===- TorchDialect.h - The torch dialect -----------------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_TORCHDIALECT_H
#define TORCH2MLIR_DIALECT_TORCH_IR_TORCHDIALECT_H

#include "mlir/IR/Dialect.h"

#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h.inc"

#endif // TORCH2MLIR_DIALECT_TORCH_IR_TORCHDIALECT_H
