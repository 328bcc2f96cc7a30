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

/// The converted, checked result type of `op`'s result `index`.
FailureOr<RankedTensorType> getResult(ConversionPatternRewriter &rewriter,
                                      const TypeConverter *converter,
                                      Operation *op, unsigned index = 0) {
  Value result = op->getResult(index);
  auto type = getConvertedType(converter, result);
  if (failed(checkTosaTensor(rewriter, op, result, type, "a result")))
    return failure();
  return type;
}

/// Operand `index` of `op` as an elementwise operand of `type`'s element
/// type and rank, or a failure naming it.
FailureOr<Value> getOperand(ConversionPatternRewriter &rewriter, Operation *op,
                            ValueRange converted, unsigned index,
                            RankedTensorType type) {
  Value torchOperand = op->getOperand(index);
  if (auto tensorType = dyn_cast<RankedTensorType>(converted[index].getType()))
    if (!tensorType.hasStaticShape() ||
        !isTosaElementType(tensorType.getElementType()))
      return reportFailure(rewriter, op,
                           "unsupported: an operand of dynamic shape or of a "
                           "dtype TOSA 1.0 does not have");
  Value value = getElementwiseOperand(rewriter, op->getLoc(), torchOperand,
                                      converted[index], type.getElementType(),
                                      type.getRank());
  if (!value)
    return reportFailure(rewriter, op,
                         "unsupported: a scalar operand computed at run time "
                         "(TOSA needs it constant)");
  return value;
}

bool isFloat(RankedTensorType type) {
  return isa<mlir::FloatType>(type.getElementType());
}

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
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto input = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(input))
      return failure();
    rewriter.replaceOp(
        op, TosaOp::create(rewriter, op.getLoc(), *type, *input).getResult());
    return success();
  }
};

/// x * scale, with `scale` a constant (none when it is 1).
Value scaleBy(OpBuilder &b, Location loc, RankedTensorType type, Value x,
              double scale) {
  if (scale == 1.0)
    return x;
  return createMul(
      b, loc, type, x,
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
    rewriter.replaceOp(op, result);
    return success();
  }
};

enum class Binary { Mul, Div, Maximum, Minimum, Pow };

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
    if ((Kind == Binary::Div || Kind == Binary::Pow) && !isFloat(*type))
      return reportFailure(rewriter, op,
                           "unsupported: a non-float result (TOSA has no "
                           "true division or power of integers)");
    if (Kind == Binary::Mul && type->getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: bool arithmetic");
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(self))
      return failure();
    Location loc = op.getLoc();
    double exponent;
    if (Kind == Binary::Pow &&
        matchTorchConstantFloat(op->getOperand(1), exponent) &&
        exponent == 2.0) {
      // x * x, as PyTorch computes a square.
      rewriter.replaceOp(op, createMul(rewriter, loc, *type, *self, *self));
      return success();
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
    rewriter.replaceOp(op, result);
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
    if (element.isInteger(1) && Kind != Compare::Eq && Kind != Compare::Ne)
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
    min = b.getIntegerAttr(
        element, static_cast<int64_t>(std::clamp(low, lowest, highest)));
    max = b.getIntegerAttr(
        element, static_cast<int64_t>(std::clamp(high, lowest, highest)));
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
    auto self = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(self))
      return failure();
    rewriter.replaceOp(
        op, createClamp(rewriter, op.getLoc(), *type, *self, low, high));
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
    rewriter.replaceOp(op, createMul(rewriter, loc, *type, half, onePlus));
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
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Location loc = op.getLoc();
    Value sigmoid = tosa::SigmoidOp::create(rewriter, loc, *type, *x);
    rewriter.replaceOp(op, createMul(rewriter, loc, *type, *x, sigmoid));
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
    rewriter.replaceOpWithNewOp<tosa::SelectOp>(
        op, *type, positive, *x, scaleBy(rewriter, loc, *type, *x, slope));
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
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    rewriter.replaceOpWithNewOp<TosaOp>(op, *type, *x);
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
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<tosa::PowOp>(
        op, *type, *x,
        createScalar(rewriter, loc, type->getElementType(), 0.5,
                     type->getRank()));
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
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    Value self = adaptor.getOperands()[0];
    auto selfType = dyn_cast<RankedTensorType>(self.getType());
    if (!selfType || selfType.getShape() != type->getShape() ||
        !isTosaElementType(selfType.getElementType()))
      return reportFailure(rewriter, op,
                           "unsupported: an operand of another shape or of a "
                           "dtype TOSA 1.0 does not have");
    rewriter.replaceOp(
        op, createCast(rewriter, op.getLoc(), self, type->getElementType()));
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
  FLOAT_UNARY(AtenFloorOp, tosa::FloorOp)
  FLOAT_UNARY(AtenCeilOp, tosa::CeilOp)
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
