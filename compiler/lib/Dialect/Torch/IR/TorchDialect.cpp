//===- TorchDialect.cpp - The torch dialect -------------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"
#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"
#include "torch2mlir/Dialect/Torch/IR/TorchTypes.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;

#include "torch2mlir/Dialect/Torch/IR/TorchDialect.cpp.inc"

void TorchDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "torch2mlir/Dialect/Torch/IR/TorchOps.cpp.inc"
      >();
  registerTypes();
}

Operation *TorchDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (isa<IntType>(type))
      return ConstantIntOp::create(builder, loc, integer.getInt());
    if (isa<BoolType>(type))
      return ConstantBoolOp::create(builder, loc, integer.getInt() != 0);
  }
  if (auto boolean = dyn_cast<BoolAttr>(value))
    if (isa<BoolType>(type))
      return ConstantBoolOp::create(builder, loc, boolean.getValue());
  if (auto real = dyn_cast<FloatAttr>(value))
    if (isa<torch::FloatType>(type))
      return ConstantFloatOp::create(builder, loc, real.getValueAsDouble());
  if (isa<torch::NoneType>(type))
    return ConstantNoneOp::create(builder, loc);
  if (auto elements = dyn_cast<ElementsAttr>(value))
    if (auto tensorType = dyn_cast<ValueTensorType>(type))
      return ValueTensorLiteralOp::create(builder, loc, tensorType, elements);
  return nullptr;
}
