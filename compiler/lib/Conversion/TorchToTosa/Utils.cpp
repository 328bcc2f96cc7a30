//===- Utils.cpp - Helpers shared by the TorchToTosa patterns -------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

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
  if (type.getNumElements() == 0)
    return reportFailure(rewriter, op,
                         "unsupported: " + what +
                             " with no elements (TOSA 1.0 has no zero-size "
                             "tensors). Way out: "
                             "backend=\"linalg-on-tensors\"");
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

LogicalResult torch_to_tosa::checkResultAndInput(
    ConversionPatternRewriter &rewriter, const TypeConverter *converter,
    Operation *op, RankedTensorType &type, RankedTensorType &inputType) {
  type = getConvertedType(converter, op->getResult(0));
  inputType = getConvertedType(converter, op->getOperand(0));
  if (failed(checkTosaTensor(rewriter, op, op->getResult(0), type, "a result")))
    return failure();
  return checkTosaTensor(rewriter, op, op->getOperand(0), inputType,
                         "the input");
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
  Type from = type.getElementType();
  if (from == element)
    return value;
  // TOSA 1.0 casts bool only to and from integers: a bool becomes a float
  // through i32, a float becomes bool as x != 0.
  if (from.isInteger(1) && isa<mlir::FloatType>(element))
    return createCast(b, loc, createCast(b, loc, value, b.getI32Type()),
                      element);
  if (element.isInteger(1) && isa<mlir::FloatType>(from)) {
    auto boolType = type.clone(element);
    Value zero = createScalar(b, loc, from, 0.0, type.getRank());
    return tosa::LogicalNotOp::create(
        b, loc, boolType, tosa::EqualOp::create(b, loc, boolType, value, zero));
  }
  // PyTorch truncates floats toward zero when it casts them to integers;
  // TOSA rounds to nearest: truncate first.
  if (isa<mlir::FloatType>(from) && isa<IntegerType>(element)) {
    auto boolType = type.clone(b.getI1Type());
    Value negative = tosa::GreaterOp::create(
        b, loc, boolType, createScalar(b, loc, from, 0.0, type.getRank()),
        value);
    value = tosa::SelectOp::create(b, loc, type, negative,
                                   tosa::CeilOp::create(b, loc, type, value),
                                   tosa::FloorOp::create(b, loc, type, value));
  }
  return tosa::CastOp::create(b, loc, type.clone(element), value);
}

Value torch_to_tosa::getElementwiseOperand(OpBuilder &b, Location loc,
                                           Value torchOperand, Value converted,
                                           Type element, int64_t rank) {
  auto tensorType = dyn_cast<RankedTensorType>(converted.getType());
  if (tensorType && isTosaElementType(tensorType.getElementType()))
    return expandRank(b, loc, createCast(b, loc, converted, element), rank);
  double number;
  bool flag;
  // A splat 0-d literal (a Python scalar wrapped as a tensor, typed si64 or
  // f64 by PyTorch) is a constant of the computation's type: 0-d tensors
  // do not take part in type promotion against dimensioned ones.
  if (auto literal =
          torchOperand.getDefiningOp<torch::ValueTensorLiteralOp>()) {
    auto dense = dyn_cast<DenseElementsAttr>(literal.getValue());
    if (dense && dense.isSplat() && dense.getType().getRank() == 0) {
      Type literalElement = dense.getElementType();
      if (isa<mlir::FloatType>(literalElement))
        return createScalar(b, loc, element,
                            dense.getSplatValue<APFloat>().convertToDouble(),
                            rank);
      if (literalElement.isInteger(1))
        return createScalar(b, loc, element,
                            dense.getSplatValue<bool>() ? 1.0 : 0.0, rank);
      if (isa<IntegerType>(literalElement))
        return createScalar(
            b, loc, element,
            static_cast<double>(dense.getSplatValue<APInt>().getSExtValue()),
            rank);
    }
  }
  if (isa<RankedTensorType>(converted.getType()))
    return Value();
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

Value torch_to_tosa::createPad(OpBuilder &b, Location loc, Value value,
                               ArrayRef<int64_t> padding, Value padConst) {
  auto type = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = type.getRank();
  // The leading dims without padding, merged into one.
  int64_t lead = 0;
  while (lead < rank - 1 && padding[2 * lead] == 0 &&
         padding[2 * lead + 1] == 0)
    ++lead;
  SmallVector<int64_t> merged, mergedPadding;
  if (lead > 0) {
    int64_t product = 1;
    for (int64_t size : shape.take_front(lead))
      product *= size;
    merged.push_back(product);
    mergedPadding.append({0, 0});
  }
  llvm::append_range(merged, shape.drop_front(lead));
  llvm::append_range(mergedPadding, padding.drop_front(2 * lead));
  SmallVector<int64_t> padded;
  for (auto [i, size] : llvm::enumerate(merged))
    padded.push_back(size + mergedPadding[2 * i] + mergedPadding[2 * i + 1]);
  Value result = tosa::PadOp::create(
      b, loc, RankedTensorType::get(padded, type.getElementType()),
      createReshape(b, loc, value, merged),
      createConstShape(b, loc, mergedPadding), padConst);
  SmallVector<int64_t> resultShape;
  for (int64_t i = 0; i < rank; ++i)
    resultShape.push_back(shape[i] + padding[2 * i] + padding[2 * i + 1]);
  return createReshape(b, loc, result, resultShape);
}

FailureOr<RankedTensorType>
torch_to_tosa::getResult(ConversionPatternRewriter &rewriter,
                         const TypeConverter *converter, Operation *op,
                         unsigned index) {
  Value result = op->getResult(index);
  auto type = getConvertedType(converter, result);
  if (failed(checkTosaTensor(rewriter, op, result, type, "a result")))
    return failure();
  return type;
}

FailureOr<Value> torch_to_tosa::getOperand(ConversionPatternRewriter &rewriter,
                                           Operation *op, ValueRange converted,
                                           unsigned index,
                                           RankedTensorType type) {
  Value torchOperand = op->getOperand(index);
  if (auto torchType = dyn_cast<torch::BaseTensorType>(torchOperand.getType()))
    if (Type dtype = torchType.getOptionalDtype();
        dtype && dtype.isUnsignedInteger())
      return reportFailure(rewriter, op,
                           "unsupported: an unsigned operand (TOSA 1.0's "
                           "integers are signed)");
  if (auto tensorType =
          dyn_cast<RankedTensorType>(converted[index].getType())) {
    if (!tensorType.hasStaticShape())
      return reportFailure(rewriter, op,
                           "unsupported: an operand of dynamic shape");
    if (tensorType.getNumElements() == 0)
      return reportFailure(rewriter, op,
                           "unsupported: an operand with no elements (TOSA "
                           "1.0 has no zero-size tensors). Way out: "
                           "backend=\"linalg-on-tensors\"");
    // (A 0-d literal of such a dtype is a scalar constant: it is read.)
    if (!isTosaElementType(tensorType.getElementType()) &&
        !torchOperand.getDefiningOp<torch::ValueTensorLiteralOp>()) {
      std::string spelled;
      llvm::raw_string_ostream os(spelled);
      auto torchType = dyn_cast<torch::BaseTensorType>(torchOperand.getType());
      if (Type dtype = torchType ? torchType.getOptionalDtype() : Type())
        os << dtype;
      else
        os << "unknown";
      return reportFailure(rewriter, op,
                           "unsupported: an operand of dtype " + spelled +
                               " (TOSA 1.0 has f32, f16, bf16, si8, si16, "
                               "si32 and bool tensors)");
    }
  }
  Value value = getElementwiseOperand(rewriter, op->getLoc(), torchOperand,
                                      converted[index], type.getElementType(),
                                      type.getRank());
  if (!value)
    return reportFailure(rewriter, op,
                         "unsupported: a scalar operand computed at run time "
                         "(TOSA needs it constant), or a 0-d literal that is "
                         "not a splat");
  return value;
}

bool torch_to_tosa::isFloat(RankedTensorType type) {
  return isa<mlir::FloatType>(type.getElementType());
}

RankedTensorType torch_to_tosa::getOpMathType(RankedTensorType type) {
  Type element = type.getElementType();
  if (isa<Float16Type, BFloat16Type>(element))
    return type.clone(Float32Type::get(type.getContext()));
  if (element.isInteger(8) || element.isInteger(16))
    return type.clone(IntegerType::get(type.getContext(), 32));
  return type;
}

void torch_to_tosa::replaceRounded(ConversionPatternRewriter &rewriter,
                                   Operation *op, Value value,
                                   RankedTensorType resultType) {
  rewriter.replaceOp(op, createCast(rewriter, op->getLoc(), value,
                                    resultType.getElementType()));
}

FailureOr<int64_t>
torch_to_tosa::getConstantDivisor(ConversionPatternRewriter &rewriter,
                                  Operation *op, Value torchValue) {
  int64_t divisor;
  bool matched = torch::matchTorchConstantInt(torchValue, divisor);
  if (auto literal = torchValue.getDefiningOp<torch::ValueTensorLiteralOp>()) {
    auto dense = dyn_cast<DenseIntElementsAttr>(literal.getValue());
    if (dense && dense.isSplat()) {
      divisor = dense.getSplatValue<APInt>().getSExtValue();
      matched = true;
    }
  }
  if (!matched)
    return reportFailure(rewriter, op,
                         "unsupported: an integer divisor that is not a "
                         "constant (PyTorch raises on a zero divisor, and "
                         "TOSA has no run-time check). Way out: "
                         "backend=\"linalg-on-tensors\"");
  if (divisor == 0)
    return reportFailure(rewriter, op,
                         "integer division by zero (PyTorch raises "
                         "ZeroDivisionError)");
  return divisor;
}

int64_t torch_to_tosa::countElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

Value torch_to_tosa::createIntegerProduct(OpBuilder &b, Location loc, Value x,
                                          int64_t dim) {
  auto type = cast<RankedTensorType>(x.getType());
  Type element = type.getElementType();
  SmallVector<int64_t> shape(type.getShape());
  int64_t size = shape[dim], width = 1;
  while (width < size)
    width *= 2;
  if (width != size) {
    SmallVector<int64_t> padding(2 * shape.size(), 0);
    padding[2 * dim + 1] = width - size;
    auto oneType = RankedTensorType::get({1}, element);
    Value one = tosa::ConstOp::create(
        b, loc, oneType,
        DenseElementsAttr::get(oneType, b.getIntegerAttr(element, 1)));
    x = createPad(b, loc, x, padding, one);
  }
  for (; width > 1; width /= 2) {
    shape[dim] = width / 2;
    auto halfType = RankedTensorType::get(shape, element);
    SmallVector<int64_t> begin(shape.size(), 0);
    Value low = tosa::SliceOp::create(b, loc, halfType, x,
                                      createConstShape(b, loc, begin),
                                      createConstShape(b, loc, shape));
    begin[dim] = width / 2;
    Value high = tosa::SliceOp::create(b, loc, halfType, x,
                                       createConstShape(b, loc, begin),
                                       createConstShape(b, loc, shape));
    x = createMul(b, loc, halfType, low, high);
  }
  return x;
}

Type torch_to_tosa::getAccumulatorType(Type element) {
  Builder b(element.getContext());
  if (isa<Float32Type, Float16Type, BFloat16Type>(element))
    return b.getF32Type();
  if (element.isInteger(8))
    return b.getI32Type();
  if (element.isInteger(16))
    return b.getIntegerType(48);
  return Type();
}

Value torch_to_tosa::createMatmul(OpBuilder &b, Location loc, Value lhs,
                                  Value rhs, RankedTensorType resultType) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  ArrayRef<int64_t> l = lhsType.getShape(), r = rhsType.getShape();
  if (l.size() < 2 || r.size() < 2)
    return Value();
  int64_t m = l[l.size() - 2], k = l.back(), n = r.back();
  if (r[r.size() - 2] != k)
    return Value();
  SmallVector<int64_t> lhs3, rhs3;
  if (r.size() == 2) {
    // The lhs batch dims join M.
    lhs3 = {1, countElements(l.drop_back()), k};
    rhs3 = {1, k, n};
  } else if (l.drop_back(2) == r.drop_back(2)) {
    int64_t batch = countElements(l.drop_back(2));
    lhs3 = {batch, m, k};
    rhs3 = {batch, k, n};
  } else {
    return Value();
  }
  Type element = resultType.getElementType();
  Type acc = getAccumulatorType(lhsType.getElementType());
  if (!acc || lhsType.getElementType() != rhsType.getElementType())
    return Value();
  Value a = createReshape(b, loc, lhs, lhs3);
  Value bb = createReshape(b, loc, rhs, rhs3);
  auto productType = RankedTensorType::get({lhs3[0], lhs3[1], n}, acc);
  // Explicit zero points: the builder without them reads quantization
  // info from the operand types, which plain integers do not have.
  std::optional<Value> zeroPoint =
      tosa::createZeroPointTensor(b, loc, lhsType.getElementType(), 0);
  if (!zeroPoint)
    return Value();
  Value result = tosa::MatMulOp::create(b, loc, productType, a, bb, *zeroPoint,
                                        *zeroPoint);
  result = createReshape(b, loc, result, resultType.getShape());
  return createCast(b, loc, result, element);
}

FailureOr<int64_t>
torch_to_tosa::getConstantDim(ConversionPatternRewriter &rewriter,
                              Operation *op, Value torchDim, int64_t rank) {
  int64_t dim;
  if (!torch::matchTorchConstantInt(torchDim, dim))
    return reportFailure(rewriter, op, "the dim must be a constant");
  int64_t dims = std::max<int64_t>(rank, 1);
  dim = torch::toPositiveDim(dim, dims);
  if (dim < 0 || dim >= dims)
    return reportFailure(rewriter, op,
                         "dim out of range (eager raises IndexError)");
  return dim;
}

Value torch_to_tosa::createIntegerFloorDiv(OpBuilder &b, Location loc,
                                           RankedTensorType type, Value x,
                                           Value y) {
  auto boolType = type.clone(b.getI1Type());
  Type element = type.getElementType();
  int64_t rank = type.getRank();
  Value zero = createScalar(b, loc, element, 0.0, rank);
  Value quotient = tosa::IntDivOp::create(b, loc, type, x, y);
  Value inexact = tosa::LogicalNotOp::create(
      b, loc, boolType,
      tosa::EqualOp::create(b, loc, boolType,
                            createMul(b, loc, type, quotient, y), x));
  Value signsDiffer = tosa::LogicalXorOp::create(
      b, loc, boolType, tosa::GreaterOp::create(b, loc, boolType, zero, x),
      tosa::GreaterOp::create(
          b, loc, cast<RankedTensorType>(y.getType()).clone(b.getI1Type()),
          zero, y));
  return tosa::SelectOp::create(
      b, loc, type,
      tosa::LogicalAndOp::create(b, loc, boolType, inexact, signsDiffer),
      tosa::SubOp::create(b, loc, type, quotient,
                          createScalar(b, loc, element, 1.0, rank)),
      quotient);
}
