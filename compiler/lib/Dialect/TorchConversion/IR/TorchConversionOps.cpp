//===- TorchConversionOps.cpp - The torch_c dialect -----------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h"
#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch_c;

#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionDialect.cpp.inc"

void TorchConversionDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.cpp.inc"
      >();
  getContext()->getOrLoadDialect<torch::TorchDialect>();
}

#define GET_OP_CLASSES
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.cpp.inc"

static LogicalResult verifyTensorPair(Operation *op, torch::ValueTensorType vt,
                                      TensorType builtin) {
  TensorType expected = vt.toBuiltinTensor();
  if (!expected)
    return op->emitOpError(
               "needs a !torch.vtensor with known rank and dtype, got ")
           << vt;
  if (expected != builtin)
    return op->emitOpError("type mismatch: ")
           << vt << " corresponds to " << expected << ", not " << builtin;
  return success();
}

LogicalResult ToBuiltinTensorOp::verify() {
  return verifyTensorPair(*this,
                          cast<torch::ValueTensorType>(getOperand().getType()),
                          cast<TensorType>(getType()));
}

LogicalResult FromBuiltinTensorOp::verify() {
  return verifyTensorPair(*this, cast<torch::ValueTensorType>(getType()),
                          cast<TensorType>(getOperand().getType()));
}

/// `to(from(x)) -> x` when the types line up.
template <typename InverseOp>
static OpFoldResult foldInverse(Value operand, Type resultType) {
  if (auto inverse = operand.getDefiningOp<InverseOp>())
    if (inverse.getOperand().getType() == resultType)
      return inverse.getOperand();
  return {};
}

OpFoldResult ToBuiltinTensorOp::fold(FoldAdaptor) {
  return foldInverse<FromBuiltinTensorOp>(getOperand(), getType());
}
OpFoldResult FromBuiltinTensorOp::fold(FoldAdaptor) {
  return foldInverse<ToBuiltinTensorOp>(getOperand(), getType());
}
OpFoldResult ToI64Op::fold(FoldAdaptor) {
  return foldInverse<FromI64Op>(getOperand(), getType());
}
OpFoldResult FromI64Op::fold(FoldAdaptor) {
  return foldInverse<ToI64Op>(getOperand(), getType());
}
OpFoldResult ToF64Op::fold(FoldAdaptor) {
  return foldInverse<FromF64Op>(getOperand(), getType());
}
OpFoldResult FromF64Op::fold(FoldAdaptor) {
  return foldInverse<ToF64Op>(getOperand(), getType());
}
OpFoldResult ToI1Op::fold(FoldAdaptor) {
  return foldInverse<FromI1Op>(getOperand(), getType());
}
OpFoldResult FromI1Op::fold(FoldAdaptor) {
  return foldInverse<ToI1Op>(getOperand(), getType());
}
