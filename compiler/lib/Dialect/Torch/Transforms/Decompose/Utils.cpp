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

Value decompose::createDynamicView(PatternRewriter &rewriter, Location loc,
                                   Value value, ArrayRef<Value> sizes) {
  SmallVector<int64_t> known;
  for (Value size : sizes) {
    int64_t constant;
    known.push_back(matchTorchConstantInt(size, constant) ? constant
                                                          : kUnknownSize);
  }
  if (llvm::count(known, kUnknownSize) <= 1)
    return createView(rewriter, loc, value, known);
  auto type = cast<BaseTensorType>(value.getType());
  auto resultType = type.getWithSizesAndDtype(known, type.getOptionalDtype());
  Value list = PrimListConstructOp::create(
      rewriter, loc, ListType::get(IntType::get(rewriter.getContext())), sizes);
  return AtenViewOp::create(rewriter, loc, resultType, value, list);
}

Value decompose::createSize(PatternRewriter &rewriter, Location loc,
                            Value value, int64_t dim) {
  int64_t size = cast<BaseTensorType>(value.getType()).getSizes()[dim];
  if (size != kUnknownSize)
    return createConstantInt(rewriter, loc, size);
  return AtenSizeIntOp::create(rewriter, loc,
                               IntType::get(rewriter.getContext()), value,
                               createConstantInt(rewriter, loc, dim));
}

SmallVector<Value> decompose::createSizes(PatternRewriter &rewriter,
                                          Location loc, Value value) {
  int64_t rank = cast<BaseTensorType>(value.getType()).getSizes().size();
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < rank; ++dim)
    sizes.push_back(createSize(rewriter, loc, value, dim));
  return sizes;
}

Value decompose::createCount(PatternRewriter &rewriter, Location loc,
                             Value value, ArrayRef<int64_t> dims) {
  ArrayRef<int64_t> sizes = cast<BaseTensorType>(value.getType()).getSizes();
  int64_t known = 1;
  SmallVector<int64_t> unknown;
  for (int64_t dim : dims) {
    if (sizes[dim] == kUnknownSize)
      unknown.push_back(dim);
    else
      known *= sizes[dim];
  }
  Value count = createConstantInt(rewriter, loc, known);
  auto intType = IntType::get(rewriter.getContext());
  for (auto [i, dim] : llvm::enumerate(unknown)) {
    Value size = createSize(rewriter, loc, value, dim);
    count = i == 0 && known == 1
                ? size
                : AtenMulIntOp::create(rewriter, loc, intType, count, size);
  }
  return count;
}

Value decompose::createScalarTensor(PatternRewriter &rewriter, Location loc,
                                    Value value, Type dtype) {
  auto type =
      ValueTensorType::get(rewriter.getContext(), ArrayRef<int64_t>{}, dtype);
  Value none = createConstantNone(rewriter, loc);
  return AtenScalarTensorOp::create(
      rewriter, loc, type, value,
      createConstantInt(rewriter, loc, *getScalarTypeCode(dtype)), none, none,
      none);
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
