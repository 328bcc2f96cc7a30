//===- Utils.cpp - Shared by the torch-decompose-complex-ops files --------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir::torch;

BaseTensorType decompose::getRankedTensorType(Value value) {
  auto type = dyn_cast<BaseTensorType>(value.getType());
  if (!type || !type.hasSizes() || !type.hasDtype())
    return nullptr;
  return type;
}

int64_t decompose::productOfSizes(ArrayRef<int64_t> sizes) {
  int64_t product = 1;
  for (int64_t size : sizes) {
    if (size == kUnknownSize)
      return kUnknownSize;
    product *= size;
  }
  return product;
}

Value decompose::createView(PatternRewriter &rewriter, Location loc,
                            Value value, ArrayRef<int64_t> sizes) {
  auto type = cast<BaseTensorType>(value.getType());
  if (type.hasSizes() && type.getSizes() == sizes &&
      !llvm::is_contained(sizes, kUnknownSize))
    return value;
  auto resultType = type.getWithSizesAndDtype(sizes, type.getOptionalDtype());
  return AtenViewOp::create(rewriter, loc, resultType, value,
                            createIntList(rewriter, loc, sizes));
}

Value decompose::createCast(PatternRewriter &rewriter, Location loc,
                            Value value, Type dtype) {
  auto type = cast<BaseTensorType>(value.getType());
  Value none = createConstantNone(rewriter, loc);
  Value falseValue = createConstantBool(rewriter, loc, false);
  return Aten_ToCopyOp::create(
      rewriter, loc, type.getWithSizesAndDtype(type.getOptionalSizes(), dtype),
      value, createConstantInt(rewriter, loc, *getScalarTypeCode(dtype)), none,
      none, none, falseValue, none);
}

Value decompose::castTo(PatternRewriter &rewriter, Location loc, Value value,
                        Type dtype) {
  if (cast<BaseTensorType>(value.getType()).getDtype() == dtype)
    return value;
  return createCast(rewriter, loc, value, dtype);
}
