//===- TorchConversionOps.h - The torch_c dialect ---------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCHCONVERSION_IR_TORCHCONVERSIONOPS_H
#define TORCH2MLIR_DIALECT_TORCHCONVERSION_IR_TORCHCONVERSIONOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "torch2mlir/Dialect/Torch/IR/TorchTypes.h"

#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionDialect.h.inc"

#define GET_OP_CLASSES
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h.inc"

#endif // TORCH2MLIR_DIALECT_TORCHCONVERSION_IR_TORCHCONVERSIONOPS_H
