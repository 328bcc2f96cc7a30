//===- Elementwise.cpp - Elementwise ATen ops to TOSA ---------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// Arithmetic, comparisons, selects, casts and activations. Operands are
// cast to the result's element type (PyTorch's type promotion has already
// chosen it) and ranked up to the result's rank: TOSA broadcasts size-1
// dims of equal-rank operands. Constant torch scalars become `tosa.const`.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToTosa/TorchToTosa.h"

#include "Utils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_tosa;

namespace {

/// Float-only unary ops: one TOSA op of the same name.
template <typename TorchOp, typename TosaOp>
struct ConvertFloatUnary : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto input = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(input))
      return failure();
    replaceRounded(
        rewriter, op,
        TosaOp::create(rewriter, op.getLoc(), *type, *input).getResult(),
        resultType);
    return success();
  }
};

/// x * scale, with `scale` a constant (none when it is 1).
Value scaleBy(OpBuilder &b, Location loc, RankedTensorType type, Value x,
              double scale) {
  if (scale == 1.0)
    return x;
  // The product has x's own (possibly broadcast) shape.
  auto xType = cast<RankedTensorType>(x.getType());
  return createMul(
      b, loc, xType, x,
      createScalar(b, loc, type.getElementType(), scale, type.getRank()));
}

/// add/sub .Tensor/.Scalar(self, other, alpha) = self +- alpha * other, and
/// rsub.Scalar(self, other, alpha) = other - alpha * self.
template <typename TorchOp, bool IsSub, bool IsReversed = false>
struct ConvertAddSub : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    if (type->getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: bool arithmetic");
    double alpha;
    if (!matchTorchConstantFloat(op.getAlpha(), alpha))
      return reportFailure(rewriter, op, "alpha must be a constant");
    if (!isFloat(*type) && alpha != std::trunc(alpha))
      return reportFailure(rewriter, op, "alpha must be an integer");
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    auto other = getOperand(rewriter, op, adaptor.getOperands(), 1, *type);
    if (failed(self) || failed(other))
      return failure();
    Location loc = op.getLoc();
    Value lhs = IsReversed ? *other : *self;
    Value rhs =
        scaleBy(rewriter, loc, *type, IsReversed ? *self : *other, alpha);
    Value result =
        IsSub ? tosa::SubOp::create(rewriter, loc, *type, lhs, rhs).getResult()
              : tosa::AddOp::create(rewriter, loc, *type, lhs, rhs).getResult();
    replaceRounded(rewriter, op, result, resultType);
    return success();
  }
};

enum class Binary { Mul, Div, Maximum, Minimum, Pow };

/// x ** exponent for the exponents with a special case in PyTorch's CPU
/// pow (2, 3, -1, -2, 0.5, -0.5); null for the others.
Value createSpecialPower(OpBuilder &b, Location loc, RankedTensorType type,
                         Value x, double exponent) {
  if (exponent == 2.0)
    return createMul(b, loc, type, x, x);
  if (exponent == 3.0)
    return createMul(b, loc, type, createMul(b, loc, type, x, x), x);
  if (exponent == -1.0)
    return tosa::ReciprocalOp::create(b, loc, type, x);
  if (exponent == -2.0)
    return tosa::ReciprocalOp::create(b, loc, type,
                                      createMul(b, loc, type, x, x));
  if (exponent == -0.5)
    return tosa::RsqrtOp::create(b, loc, type, x);
  if (exponent == 0.5)
    // sqrt(x) = x * rsqrt(x) is NaN at 0; pow(x, 0.5) is exact there.
    return tosa::PowOp::create(
        b, loc, type, x,
        createScalar(b, loc, type.getElementType(), 0.5, type.getRank()));
  return Value();
}

/// mul, div (floats: self * reciprocal(other)), maximum, minimum, pow.
template <typename TorchOp, Binary Kind>
struct ConvertBinary : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    int64_t intExponent;
    if (Kind == Binary::Pow && !isFloat(*type) &&
        !type->getElementType().isInteger(1) &&
        matchTorchConstantInt(op->getOperand(1), intExponent) &&
        intExponent >= 0 && intExponent <= 64) {
      // An integer to a constant power: square-and-multiply (wrapping as
      // PyTorch's integer pow does).
      auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
      if (failed(self))
        return failure();
      Location loc = op.getLoc();
      Type element = type->getElementType();
      int64_t rank = type->getRank();
      Value power = *self;
      Value product;
      for (int64_t e = intExponent; e > 0; e >>= 1) {
        if (e & 1)
          product =
              product ? createMul(rewriter, loc, *type, product, power) : power;
        if (e > 1)
          power = createMul(rewriter, loc, *type, power, power);
      }
      if (!product) // x^0 = 1: x * 0 + 1, of x's shape.
        product = tosa::AddOp::create(
            rewriter, loc, *type,
            createMul(rewriter, loc, *type, *self,
                      createScalar(rewriter, loc, element, 0.0, rank)),
            createScalar(rewriter, loc, element, 1.0, rank));
      replaceRounded(rewriter, op, product, resultType);
      return success();
    }
    if ((Kind == Binary::Div || Kind == Binary::Pow) && !isFloat(*type))
      return reportFailure(rewriter, op,
                           "unsupported: a non-float result (TOSA has no "
                           "true division, nor integer powers but by "
                           "constant exponents in [0, 64])");
    if (Kind == Binary::Mul && type->getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: bool arithmetic");
    // TOSA has no bool maximum/minimum: compute in i32 (or and and).
    if ((Kind == Binary::Maximum || Kind == Binary::Minimum) &&
        type->getElementType().isInteger(1))
      *type = type->clone(rewriter.getI32Type());
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(self))
      return failure();
    Location loc = op.getLoc();
    double exponent;
    if (Kind == Binary::Pow &&
        matchTorchConstantFloat(op->getOperand(1), exponent)) {
      // The exponents PyTorch's CPU kernel computes otherwise than pow (the
      // sign of a zero and the rounding follow): x * x, x * x * x, 1 / x,
      // 1 / (x * x), sqrt and 1 / sqrt.
      Value special = createSpecialPower(rewriter, loc, *type, *self, exponent);
      if (special) {
        replaceRounded(rewriter, op, special, resultType);
        return success();
      }
    }
    auto other = getOperand(rewriter, op, adaptor.getOperands(), 1, *type);
    if (failed(other))
      return failure();
    Value result;
    switch (Kind) {
    case Binary::Mul:
      result = createMul(rewriter, loc, *type, *self, *other);
      break;
    case Binary::Div: {
      auto otherType = cast<RankedTensorType>(other->getType());
      Value inverse =
          tosa::ReciprocalOp::create(rewriter, loc, otherType, *other);
      result = createMul(rewriter, loc, *type, *self, inverse);
      break;
    }
    case Binary::Maximum:
      result = tosa::MaximumOp::create(rewriter, loc, *type, *self, *other);
      break;
    case Binary::Minimum:
      result = tosa::MinimumOp::create(rewriter, loc, *type, *self, *other);
      break;
    case Binary::Pow:
      result = tosa::PowOp::create(rewriter, loc, *type, *self, *other);
      break;
    }
    replaceRounded(rewriter, op, result, resultType);
    return success();
  }
};

enum class Compare { Eq, Ne, Gt, Ge, Lt, Le };

/// Comparisons (.Tensor and .Scalar) in the promoted dtype of the operands:
/// a float if either is one, else self's integer type.
template <typename TorchOp, Compare Kind>
struct ConvertComparison : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    auto selfType = dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!selfType)
      return reportFailure(rewriter, op, "self must be a tensor");
    Type element = selfType.getElementType();
    auto otherType = dyn_cast<RankedTensorType>(adaptor.getOther().getType());
    Type otherElement =
        otherType ? otherType.getElementType() : adaptor.getOther().getType();
    if (!isa<mlir::FloatType>(element) && isa<mlir::FloatType>(otherElement))
      element = otherType ? otherElement : rewriter.getF32Type();
    // TOSA compares numbers: bools compare as i32 (eq/ne as xor).
    bool isBool = element.isInteger(1);
    if (isBool && Kind != Compare::Eq && Kind != Compare::Ne)
      element = rewriter.getI32Type();
    // pro_int compares i32 only: 8- and 16-bit integers widen.
    if (element.isInteger(8) || element.isInteger(16))
      element = rewriter.getI32Type();
    auto computeType = type->clone(element);
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, computeType);
    auto other =
        getOperand(rewriter, op, adaptor.getOperands(), 1, computeType);
    if (failed(self) || failed(other))
      return failure();
    Location loc = op.getLoc();
    Value result;
    switch (Kind) {
    case Compare::Eq:
    case Compare::Ne:
      if (isBool) {
        result =
            tosa::LogicalXorOp::create(rewriter, loc, *type, *self, *other);
        if (Kind == Compare::Eq)
          result = tosa::LogicalNotOp::create(rewriter, loc, *type, result);
        break;
      }
      result = tosa::EqualOp::create(rewriter, loc, *type, *self, *other);
      if (Kind == Compare::Ne)
        result = tosa::LogicalNotOp::create(rewriter, loc, *type, result);
      break;
    case Compare::Gt:
      result = tosa::GreaterOp::create(rewriter, loc, *type, *self, *other);
      break;
    case Compare::Ge:
      result =
          tosa::GreaterEqualOp::create(rewriter, loc, *type, *self, *other);
      break;
    case Compare::Lt:
      result = tosa::GreaterOp::create(rewriter, loc, *type, *other, *self);
      break;
    case Compare::Le:
      result =
          tosa::GreaterEqualOp::create(rewriter, loc, *type, *other, *self);
      break;
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// where.self(condition, self, other) = tosa.select.
struct ConvertWhere : OpConversionPattern<AtenWhereSelfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenWhereSelfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    auto condition = getOperand(rewriter, op, adaptor.getOperands(), 0,
                                type->clone(rewriter.getI1Type()));
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 1, *type);
    auto other = getOperand(rewriter, op, adaptor.getOperands(), 2, *type);
    if (failed(condition) || failed(self) || failed(other))
      return failure();
    rewriter.replaceOpWithNewOp<tosa::SelectOp>(op, *type, *condition, *self,
                                                *other);
    return success();
  }
};

/// tosa.clamp of `x` to [low, high] (in `type`'s element type).
Value createClamp(OpBuilder &b, Location loc, RankedTensorType type, Value x,
                  double low, double high) {
  Type element = type.getElementType();
  Attribute min, max;
  if (auto floatType = dyn_cast<mlir::FloatType>(element)) {
    min = b.getFloatAttr(floatType, low);
    max = b.getFloatAttr(floatType, high);
  } else {
    unsigned width = element.getIntOrFloatBitWidth();
    double lowest = -std::ldexp(1.0, width - 1);
    double highest = std::ldexp(1.0, width - 1) - 1;
    // No profile has an i32 clamp: maximum, then minimum, of constants.
    int64_t rank = type.getRank();
    Value lower =
        createScalar(b, loc, element, std::clamp(low, lowest, highest), rank);
    Value upper =
        createScalar(b, loc, element, std::clamp(high, lowest, highest), rank);
    return tosa::MinimumOp::create(
        b, loc, type, tosa::MaximumOp::create(b, loc, type, x, lower), upper);
  }
  return tosa::ClampOp::create(b, loc, type, x, min, max);
}

/// relu, clamp(min, max) with constant (or None) bounds, hardtanh.
template <typename TorchOp>
struct ConvertClampLike : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    if (type->getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a bool result");
    double low = -INFINITY, high = INFINITY;
    if constexpr (std::is_same_v<TorchOp, AtenReluOp>) {
      low = 0.0;
    } else {
      auto bound = [&](Value value, double &out) {
        return isTorchNone(value) || matchTorchConstantFloat(value, out);
      };
      Value min, max;
      if constexpr (std::is_same_v<TorchOp, AtenClampOp>) {
        min = op.getMin();
        max = op.getMax();
      } else {
        min = op.getMinVal();
        max = op.getMaxVal();
      }
      if (!bound(min, low) || !bound(max, high))
        return reportFailure(rewriter, op,
                             "unsupported: bounds computed at run time");
    }
    // PyTorch computes min(max(x, low), high): high when low > high.
    low = std::min(low, high);
    RankedTensorType resultType = *type;
    if (auto integer = dyn_cast<IntegerType>(resultType.getElementType())) {
      // Bounds beyond the dtype clamp to it; 8- and 16-bit integers then
      // compute in i32 (see getOpMathType).
      unsigned width = integer.getWidth();
      double lowest = -std::ldexp(1.0, width - 1);
      double highest = std::ldexp(1.0, width - 1) - 1;
      low = std::clamp(low, lowest, highest);
      high = std::clamp(high, lowest, highest);
      *type = getOpMathType(resultType);
    }
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(self))
      return failure();
    replaceRounded(rewriter, op,
                   createClamp(rewriter, op.getLoc(), *type, *self, low, high),
                   resultType);
    return success();
  }
};

/// gelu (exact: 0.5 x (1 + erf(x / sqrt 2)); tanh: 0.5 x (1 + tanh(sqrt(2 /
/// pi) (x + 0.044715 x^3)))), silu (x sigmoid(x)), leaky_relu.
struct ConvertGelu : OpConversionPattern<AtenGeluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenGeluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    std::string approximate;
    if (auto constant = op.getApproximate().getDefiningOp<ConstantStrOp>())
      approximate = constant.getValue().str();
    else
      return reportFailure(rewriter, op, "approximate must be a constant");
    if (!isFloat(*type) || (approximate != "none" && approximate != "tanh"))
      return reportFailure(rewriter, op,
                           "unsupported: a non-float gelu or an approximate "
                           "other than 'none' and 'tanh'");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Location loc = op.getLoc();
    Type element = type->getElementType();
    int64_t rank = type->getRank();
    Value inner;
    if (approximate == "none") {
      inner = tosa::ErfOp::create(rewriter, loc, *type,
                                  scaleBy(rewriter, loc, *type, *x, M_SQRT1_2));
    } else {
      Value cube = createMul(rewriter, loc, *type, *x,
                             createMul(rewriter, loc, *type, *x, *x));
      Value sum =
          tosa::AddOp::create(rewriter, loc, *type, *x,
                              scaleBy(rewriter, loc, *type, cube, 0.044715));
      inner = tosa::TanhOp::create(
          rewriter, loc, *type,
          scaleBy(rewriter, loc, *type, sum, std::sqrt(2.0 / M_PI)));
    }
    Value onePlus =
        tosa::AddOp::create(rewriter, loc, *type, inner,
                            createScalar(rewriter, loc, element, 1.0, rank));
    Value half = scaleBy(rewriter, loc, *type, *x, 0.5);
    replaceRounded(rewriter, op, createMul(rewriter, loc, *type, half, onePlus),
                   resultType);
    return success();
  }
};

struct ConvertSilu : OpConversionPattern<AtenSiluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSiluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Location loc = op.getLoc();
    Value sigmoid = tosa::SigmoidOp::create(rewriter, loc, *type, *x);
    replaceRounded(rewriter, op, createMul(rewriter, loc, *type, *x, sigmoid),
                   resultType);
    return success();
  }
};

struct ConvertLeakyRelu : OpConversionPattern<AtenLeakyReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenLeakyReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    double slope;
    if (!isFloat(*type) ||
        !matchTorchConstantFloat(op.getNegativeSlope(), slope))
      return reportFailure(rewriter, op,
                           "unsupported: a non-float result or a slope "
                           "computed at run time");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Location loc = op.getLoc();
    Value positive = tosa::GreaterEqualOp::create(
        rewriter, loc, type->clone(rewriter.getI1Type()), *x,
        createScalar(rewriter, loc, type->getElementType(), 0.0,
                     type->getRank()));
    replaceRounded(
        rewriter, op,
        tosa::SelectOp::create(rewriter, loc, *type, positive, *x,
                               scaleBy(rewriter, loc, *type, *x, slope)),
        resultType);
    return success();
  }
};

/// neg and abs (any numeric element type).
template <typename TorchOp, typename TosaOp>
struct ConvertNumericUnary : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    if (type->getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a bool result");
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    replaceRounded(rewriter, op,
                   TosaOp::create(rewriter, op.getLoc(), *type, *x).getResult(),
                   resultType);
    return success();
  }
};

/// sqrt(x) = pow(x, 0.5) (TOSA has no sqrt; rsqrt loses 0).
struct ConvertSqrt : OpConversionPattern<AtenSqrtOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Location loc = op.getLoc();
    replaceRounded(rewriter, op,
                   createSpecialPower(rewriter, loc, *type, *x, 0.5),
                   resultType);
    return success();
  }
};

/// Dtype conversions (`to.dtype`, `_to_copy` without layout or device
/// changes): tosa.cast; value copies (`clone`, `detach`, `alias`): the
/// operand itself.
template <typename TorchOp>
struct ConvertCastLike : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value self = adaptor.getOperands()[0];
    // A copy of the same type is its operand: no TOSA op, so even a
    // zero-size tensor (an empty KV cache on its way to a cat) passes.
    auto resultTorchType = dyn_cast<BaseTensorType>(op->getResult(0).getType());
    Type resultDtype =
        resultTorchType ? resultTorchType.getOptionalDtype() : Type();
    RankedTensorType sameType =
        getConvertedType(this->getTypeConverter(), op->getResult(0));
    if (sameType && self.getType() == sameType && resultDtype &&
        !resultDtype.isUnsignedInteger() &&
        isTosaElementType(sameType.getElementType())) {
      rewriter.replaceOp(op, self);
      return success();
    }
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    auto selfType = dyn_cast<RankedTensorType>(self.getType());
    auto torchType = dyn_cast<BaseTensorType>(op->getOperand(0).getType());
    Type dtype = torchType ? torchType.getOptionalDtype() : Type();
    if (!selfType || selfType.getShape() != type->getShape() || !dtype ||
        dtype.isUnsignedInteger() ||
        !isTosaElementType(selfType.getElementType()))
      return reportFailure(rewriter, op,
                           "unsupported: an operand of another shape or of a "
                           "dtype TOSA 1.0 does not have");
    rewriter.replaceOp(
        op, createCast(rewriter, op.getLoc(), self, type->getElementType()));
    return success();
  }
};

/// logical_and/or/xor(self, other) and logical_not(self): on the operands
/// as bools (x != 0), then cast to the result dtype.
template <typename TorchOp, typename TosaOp>
struct ConvertLogical : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    auto boolType = type->clone(rewriter.getI1Type());
    SmallVector<Value> operands;
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      auto operand =
          getOperand(rewriter, op, adaptor.getOperands(), i, boolType);
      if (failed(operand))
        return failure();
      operands.push_back(*operand);
    }
    Value result =
        TosaOp::create(rewriter, op.getLoc(), boolType, operands).getResult();
    rewriter.replaceOp(
        op, createCast(rewriter, op.getLoc(), result, type->getElementType()));
    return success();
  }
};

/// bitwise_and/or/xor (.Tensor and .Scalar) of integers; of bools, the
/// logical ops.
template <typename TorchOp, typename TosaOp, typename TosaLogicalOp>
struct ConvertBitwise : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    if (isFloat(*type))
      return reportFailure(rewriter, op, "a float result");
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    auto other = getOperand(rewriter, op, adaptor.getOperands(), 1, *type);
    if (failed(self) || failed(other))
      return failure();
    if (type->getElementType().isInteger(1))
      rewriter.replaceOpWithNewOp<TosaLogicalOp>(op, *type, *self, *other);
    else
      rewriter.replaceOpWithNewOp<TosaOp>(op, *type, *self, *other);
    return success();
  }
};

/// sign(x) = select(x > 0, 1, select(x < 0, -1, x)) (NaN and zeros kept).
struct ConvertSign : OpConversionPattern<AtenSignOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    if (type->getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a bool result");
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Location loc = op.getLoc();
    Type element = type->getElementType();
    int64_t rank = type->getRank();
    auto boolType = type->clone(rewriter.getI1Type());
    Value zero = createScalar(rewriter, loc, element, 0.0, rank);
    Value positive = tosa::GreaterOp::create(rewriter, loc, boolType, *x, zero);
    Value negative = tosa::GreaterOp::create(rewriter, loc, boolType, zero, *x);
    Value result = tosa::SelectOp::create(
        rewriter, loc, *type, negative,
        createScalar(rewriter, loc, element, -1.0, rank), *x);
    result = tosa::SelectOp::create(
        rewriter, loc, *type, positive,
        createScalar(rewriter, loc, element, 1.0, rank), result);
    replaceRounded(rewriter, op, result, resultType);
    return success();
  }
};

/// div.Tensor_mode(self, other, rounding_mode): the quotient (mode None),
/// floored ("floor") or truncated toward zero ("trunc"); of integers, by
/// a nonzero constant only.
struct ConvertDivMode : OpConversionPattern<AtenDivTensorModeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenDivTensorModeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    std::string mode = "none";
    if (auto constant = op.getRoundingMode().getDefiningOp<ConstantStrOp>())
      mode = constant.getValue().str();
    else if (!isTorchNone(op.getRoundingMode()))
      return reportFailure(rewriter, op,
                           "rounding_mode must be a constant or None");
    if (!isFloat(*type)) {
      // Integers: tosa.intdiv (truncating) by a nonzero constant; floor
      // subtracts one where the division is inexact and the signs differ.
      if (mode == "none" || type->getElementType().isInteger(1))
        return reportFailure(rewriter, op, "a true division of integers");
      FailureOr<int64_t> divisor =
          getConstantDivisor(rewriter, op, op->getOperand(1));
      auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
      if (failed(divisor) || failed(self))
        return failure();
      Location loc = op.getLoc();
      Type element = type->getElementType();
      int64_t rank = type->getRank();
      Value y = createScalar(rewriter, loc, element,
                             static_cast<double>(*divisor), rank);
      Value quotient;
      if (mode != "floor" && mode != "trunc")
        return reportFailure(rewriter, op, "unknown rounding_mode");
      if (*divisor == -1)
        // (INT_MIN / -1 wraps to INT_MIN, as in PyTorch.)
        quotient = tosa::SubOp::create(
            rewriter, loc, *type, createScalar(rewriter, loc, element, 0, rank),
            *self);
      else if (mode == "floor")
        quotient = createIntegerFloorDiv(rewriter, loc, *type, *self, y);
      else
        quotient = tosa::IntDivOp::create(rewriter, loc, *type, *self, y);
      replaceRounded(rewriter, op, quotient, resultType);
      return success();
    }
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    auto other = getOperand(rewriter, op, adaptor.getOperands(), 1, *type);
    if (failed(self) || failed(other))
      return failure();
    Location loc = op.getLoc();
    auto otherType = cast<RankedTensorType>(other->getType());
    Value quotient =
        createMul(rewriter, loc, *type, *self,
                  tosa::ReciprocalOp::create(rewriter, loc, otherType, *other));
    if (mode == "floor") {
      quotient = tosa::FloorOp::create(rewriter, loc, *type, quotient);
    } else if (mode == "trunc") {
      Value negative = tosa::GreaterOp::create(
          rewriter, loc, type->clone(rewriter.getI1Type()),
          createScalar(rewriter, loc, type->getElementType(), 0.0,
                       type->getRank()),
          quotient);
      quotient = tosa::SelectOp::create(
          rewriter, loc, *type, negative,
          tosa::CeilOp::create(rewriter, loc, *type, quotient),
          tosa::FloorOp::create(rewriter, loc, *type, quotient));
    } else if (mode != "none") {
      return reportFailure(rewriter, op, "unknown rounding_mode");
    }
    replaceRounded(rewriter, op, quotient, resultType);
    return success();
  }
};

/// clamp.Tensor(self, min, max) = minimum(maximum(self, min), max).
struct ConvertClampTensor : OpConversionPattern<AtenClampTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenClampTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    if (type->getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a bool result");
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(self))
      return failure();
    Location loc = op.getLoc();
    Value result = *self;
    for (unsigned i : {1u, 2u}) {
      if (isTorchNone(op->getOperand(i)))
        continue;
      auto bound = getOperand(rewriter, op, adaptor.getOperands(), i, *type);
      if (failed(bound))
        return failure();
      result =
          i == 1 ? tosa::MaximumOp::create(rewriter, loc, *type, result, *bound)
                       .getResult()
                 : tosa::MinimumOp::create(rewriter, loc, *type, result, *bound)
                       .getResult();
    }
    replaceRounded(rewriter, op, result, resultType);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateTosaElementwisePatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
#define FLOAT_UNARY(TorchOp, TosaOp)                                           \
  target.addIllegalOp<TorchOp>();                                              \
  patterns.add<ConvertFloatUnary<TorchOp, TosaOp>>(typeConverter, context);
  FLOAT_UNARY(AtenExpOp, tosa::ExpOp)
  FLOAT_UNARY(AtenLogOp, tosa::LogOp)
  FLOAT_UNARY(AtenTanhOp, tosa::TanhOp)
  FLOAT_UNARY(AtenSigmoidOp, tosa::SigmoidOp)
  FLOAT_UNARY(AtenErfOp, tosa::ErfOp)
  FLOAT_UNARY(AtenReciprocalOp, tosa::ReciprocalOp)
  FLOAT_UNARY(AtenRsqrtOp, tosa::RsqrtOp)
  FLOAT_UNARY(AtenSinOp, tosa::SinOp)
  FLOAT_UNARY(AtenCosOp, tosa::CosOp)
#undef FLOAT_UNARY
  target.addIllegalOp<AtenAddTensorOp, AtenAddScalarOp, AtenSubTensorOp,
                      AtenSubScalarOp, AtenRsubScalarOp>();
  patterns.add<ConvertAddSub<AtenAddTensorOp, false>,
               ConvertAddSub<AtenAddScalarOp, false>,
               ConvertAddSub<AtenSubTensorOp, true>,
               ConvertAddSub<AtenSubScalarOp, true>,
               ConvertAddSub<AtenRsubScalarOp, true, true>>(typeConverter,
                                                            context);
  target.addIllegalOp<AtenMulTensorOp, AtenMulScalarOp, AtenDivTensorOp,
                      AtenDivScalarOp, AtenMaximumOp, AtenMinimumOp,
                      AtenPowTensorScalarOp, AtenPowTensorTensorOp>();
  patterns.add<ConvertBinary<AtenMulTensorOp, Binary::Mul>,
               ConvertBinary<AtenMulScalarOp, Binary::Mul>,
               ConvertBinary<AtenDivTensorOp, Binary::Div>,
               ConvertBinary<AtenDivScalarOp, Binary::Div>,
               ConvertBinary<AtenMaximumOp, Binary::Maximum>,
               ConvertBinary<AtenMinimumOp, Binary::Minimum>,
               ConvertBinary<AtenPowTensorScalarOp, Binary::Pow>,
               ConvertBinary<AtenPowTensorTensorOp, Binary::Pow>>(typeConverter,
                                                                  context);
#define COMPARISON(Name, Kind)                                                 \
  target.addIllegalOp<Aten##Name##TensorOp, Aten##Name##ScalarOp>();           \
  patterns.add<ConvertComparison<Aten##Name##TensorOp, Compare::Kind>,         \
               ConvertComparison<Aten##Name##ScalarOp, Compare::Kind>>(        \
      typeConverter, context);
  COMPARISON(Eq, Eq)
  COMPARISON(Ne, Ne)
  COMPARISON(Gt, Gt)
  COMPARISON(Ge, Ge)
  COMPARISON(Lt, Lt)
  COMPARISON(Le, Le)
#undef COMPARISON
  target.addIllegalOp<
      AtenLogicalAndOp, AtenLogicalOrOp, AtenLogicalXorOp, AtenLogicalNotOp,
      AtenBitwiseAndTensorOp, AtenBitwiseOrTensorOp, AtenBitwiseXorTensorOp,
      AtenBitwiseAndScalarOp, AtenBitwiseOrScalarOp, AtenBitwiseXorScalarOp,
      AtenSignOp, AtenDivTensorModeOp, AtenClampTensorOp, Aten_ToCopyOp>();
  patterns.add<ConvertLogical<AtenLogicalAndOp, tosa::LogicalAndOp>,
               ConvertLogical<AtenLogicalOrOp, tosa::LogicalOrOp>,
               ConvertLogical<AtenLogicalXorOp, tosa::LogicalXorOp>,
               ConvertLogical<AtenLogicalNotOp, tosa::LogicalNotOp>,
               ConvertBitwise<AtenBitwiseAndTensorOp, tosa::BitwiseAndOp,
                              tosa::LogicalAndOp>,
               ConvertBitwise<AtenBitwiseOrTensorOp, tosa::BitwiseOrOp,
                              tosa::LogicalOrOp>,
               ConvertBitwise<AtenBitwiseXorTensorOp, tosa::BitwiseXorOp,
                              tosa::LogicalXorOp>,
               ConvertBitwise<AtenBitwiseAndScalarOp, tosa::BitwiseAndOp,
                              tosa::LogicalAndOp>,
               ConvertBitwise<AtenBitwiseOrScalarOp, tosa::BitwiseOrOp,
                              tosa::LogicalOrOp>,
               ConvertBitwise<AtenBitwiseXorScalarOp, tosa::BitwiseXorOp,
                              tosa::LogicalXorOp>,
               ConvertSign, ConvertDivMode, ConvertClampTensor,
               ConvertCastLike<Aten_ToCopyOp>>(typeConverter, context);
  target.addIllegalOp<AtenWhereSelfOp, AtenReluOp, AtenClampOp, AtenHardtanhOp,
                      AtenGeluOp, AtenSiluOp, AtenLeakyReluOp, AtenNegOp,
                      AtenAbsOp, AtenSqrtOp, AtenToDtypeOp, AtenCloneOp,
                      AtenDetachOp, AtenAliasOp>();
  patterns.add<ConvertWhere, ConvertClampLike<AtenReluOp>,
               ConvertClampLike<AtenClampOp>, ConvertClampLike<AtenHardtanhOp>,
               ConvertGelu, ConvertSilu, ConvertLeakyRelu,
               ConvertNumericUnary<AtenNegOp, tosa::NegateOp>,
               ConvertNumericUnary<AtenAbsOp, tosa::AbsOp>, ConvertSqrt,
               ConvertCastLike<AtenToDtypeOp>, ConvertCastLike<AtenCloneOp>,
               ConvertCastLike<AtenDetachOp>, ConvertCastLike<AtenAliasOp>>(
      typeConverter, context);
}
