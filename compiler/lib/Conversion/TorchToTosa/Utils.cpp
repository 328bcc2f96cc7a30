//===- Utils.cpp - Helpers shared by the TorchToTosa patterns -------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch_to_tosa;

RankedTensorType torch_to_tosa::getConvertedType(const TypeConverter *converter,
                                                 Value torchValue) {
  return dyn_cast_or_null<RankedTensorType>(
      converter->convertType(torchValue.getType()));
}

bool torch_to_tosa::isTosaElementType(Type element) {
  if (isa<Float32Type, Float16Type, BFloat16Type>(element))
    return true;
  auto integer = dyn_cast<IntegerType>(element);
  return integer && !integer.isUnsigned() &&
         llvm::is_contained({1u, 8u, 16u, 32u}, integer.getWidth());
}

LogicalResult
torch_to_tosa::checkTosaTensor(ConversionPatternRewriter &rewriter,
                               Operation *op, Value torchValue,
                               RankedTensorType type, StringRef what) {
  if (!type || !type.hasStaticShape())
    return reportFailure(rewriter, op,
                         "unsupported: " + what +
                             " without a static shape (TOSA backend)");
  auto torchType = dyn_cast<torch::BaseTensorType>(torchValue.getType());
  Type dtype = torchType ? torchType.getOptionalDtype() : Type();
  if (!dtype || dtype.isUnsignedInteger() ||
      !isTosaElementType(type.getElementType())) {
    std::string spelled;
    llvm::raw_string_ostream os(spelled);
    if (dtype)
      os << dtype;
    else
      os << "unknown";
    return reportFailure(rewriter, op,
                         "unsupported: " + what + " of dtype " + spelled +
                             " (TOSA 1.0 has f32, f16, bf16, si8, si16, si32 "
                             "and bool tensors)");
  }
  return success();
}

Value torch_to_tosa::createScalar(OpBuilder &b, Location loc, Type element,
                                  double value, int64_t rank) {
  auto type = RankedTensorType::get(SmallVector<int64_t>(rank, 1), element);
  Attribute scalar;
  if (auto floatType = dyn_cast<mlir::FloatType>(element))
    scalar = b.getFloatAttr(floatType, value);
  else
    scalar = b.getIntegerAttr(element, static_cast<int64_t>(value));
  return tosa::ConstOp::create(b, loc, type,
                               DenseElementsAttr::get(type, scalar));
}

Value torch_to_tosa::createConstShape(OpBuilder &b, Location loc,
                                      ArrayRef<int64_t> values) {
  auto rank = static_cast<int64_t>(values.size());
  auto attrType = RankedTensorType::get({rank}, b.getIndexType());
  return tosa::ConstShapeOp::create(
      b, loc, tosa::shapeType::get(b.getContext(), rank),
      DenseIntElementsAttr::get(attrType, values));
}

Value torch_to_tosa::createReshape(OpBuilder &b, Location loc, Value value,
                                   ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  return tosa::ReshapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value,
      createConstShape(b, loc, shape));
}

Value torch_to_tosa::expandRank(OpBuilder &b, Location loc, Value value,
                                int64_t rank) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() >= rank)
    return value;
  SmallVector<int64_t> shape(rank - type.getRank(), 1);
  llvm::append_range(shape, type.getShape());
  return createReshape(b, loc, value, shape);
}

SmallVector<int64_t> torch_to_tosa::permuteShape(ArrayRef<int64_t> shape,
                                                 ArrayRef<int32_t> perms) {
  SmallVector<int64_t> result;
  for (int32_t dim : perms)
    result.push_back(shape[dim]);
  return result;
}

Value torch_to_tosa::createTranspose(OpBuilder &b, Location loc, Value value,
                                     ArrayRef<int32_t> perms) {
  auto type = cast<RankedTensorType>(value.getType());
  bool identity = true;
  for (auto [i, dim] : llvm::enumerate(perms))
    identity &= static_cast<int64_t>(i) == dim;
  if (identity)
    return value;
  return tosa::TransposeOp::create(
      b, loc,
      RankedTensorType::get(permuteShape(type.getShape(), perms),
                            type.getElementType()),
      value, perms);
}

Value torch_to_tosa::createCast(OpBuilder &b, Location loc, Value value,
                                Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == element)
    return value;
  return tosa::CastOp::create(b, loc, type.clone(element), value);
}

Value torch_to_tosa::getElementwiseOperand(OpBuilder &b, Location loc,
                                           Value torchOperand, Value converted,
                                           Type element, int64_t rank) {
  if (isa<RankedTensorType>(converted.getType()))
    return expandRank(b, loc, createCast(b, loc, converted, element), rank);
  double number;
  bool flag;
  if (torch::matchTorchConstantFloat(torchOperand, number))
    return createScalar(b, loc, element, number, rank);
  if (torch::matchTorchConstantBool(torchOperand, flag))
    return createScalar(b, loc, element, flag ? 1.0 : 0.0, rank);
  return Value();
}

Value torch_to_tosa::createMul(OpBuilder &b, Location loc, Type type, Value lhs,
                               Value rhs) {
  auto shiftType = RankedTensorType::get({1}, b.getI8Type());
  Value shift = tosa::ConstOp::create(
      b, loc, shiftType,
      DenseElementsAttr::get(shiftType, b.getIntegerAttr(b.getI8Type(), 0)));
  return tosa::MulOp::create(b, loc, type, lhs, rhs, shift);
}
