//===- TorchOps.h - Ops of the torch dialect --------------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_TORCHOPS_H
#define TORCH2MLIR_DIALECT_TORCH_IR_TORCHOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"
#include "torch2mlir/Dialect/Torch/IR/TorchTraits.h"
#include "torch2mlir/Dialect/Torch/IR/TorchTypes.h"

namespace mlir::torch2mlir::torch {
/// The uniform assembly of the generated ATen ops:
///   %r = torch.aten.foo %a, %b : !ta, !tb -> !tr
ParseResult parseDefaultTorchOp(OpAsmParser &parser, OperationState &result,
                                int numOperands, int numResults);
void printDefaultTorchOp(OpAsmPrinter &p, Operation *op, int numOperands,
                         int numResults);
} // namespace mlir::torch2mlir::torch

#define GET_OP_CLASSES
#include "torch2mlir/Dialect/Torch/IR/TorchOps.h.inc"

namespace mlir::torch2mlir::torch {

/// Matches a `torch.constant.int` and binds its value.
bool matchTorchConstantInt(Value value, int64_t &out);
/// Matches a `torch.constant.float` (or int) and binds its value as double.
bool matchTorchConstantFloat(Value value, double &out);
/// Matches a `torch.constant.bool` and binds its value.
bool matchTorchConstantBool(Value value, bool &out);
/// Matches a `torch.prim.ListConstruct` of constant ints.
bool matchTorchConstantIntList(Value value, SmallVectorImpl<int64_t> &out);
/// Whether `value` is `torch.constant.none` (or of type !torch.none).
bool isTorchNone(Value value);

/// Normalizes a possibly negative dim against `rank`; -1 when out of range.
int64_t toPositiveDim(int64_t dim, int64_t rank);

/// A `torch.constant.int`.
Value createConstantInt(OpBuilder &b, Location loc, int64_t value);
/// A `torch.constant.float`.
Value createConstantFloat(OpBuilder &b, Location loc, double value);
/// A `torch.constant.bool`.
Value createConstantBool(OpBuilder &b, Location loc, bool value);
/// A `torch.constant.none`.
Value createConstantNone(OpBuilder &b, Location loc);
/// A `torch.prim.ListConstruct` of `torch.constant.int`s.
Value createIntList(OpBuilder &b, Location loc, ArrayRef<int64_t> values);
/// A `torch.prim.ListConstruct` of `!torch.vtensor`s (all non-null).
Value createTensorList(OpBuilder &b, Location loc, ValueRange tensors);

/// The c10::ScalarType code PyTorch uses for `dtype` in `dtype=` arguments
/// (float32 = 6, int64 = 4, bool = 11, ...), or nullopt if it has none.
std::optional<int64_t> getScalarTypeCode(Type dtype);

} // namespace mlir::torch2mlir::torch

#endif // TORCH2MLIR_DIALECT_TORCH_IR_TORCHOPS_H
