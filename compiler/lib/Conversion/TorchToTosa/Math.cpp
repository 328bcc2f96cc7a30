//===- Math.cpp - Math functions TOSA lacks, composed from its ops --------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// TOSA 1.0 has exp, log, sin, cos, tanh, pow, floor, ceil and reciprocal,
// and no atan, asin, acos, the inverse hyperbolic functions, log1p, expm1,
// log2, round, trunc, fmod or the float classifiers. Each of those is a
// formula over TOSA's ops here, chosen to stay within a few ulps of
// PyTorch's CPU kernels (which call the C library) over the whole range,
// with the special values (signed zeros, infinities, NaN) of C's Annex F.
// Float math runs in f32 (16-bit floats widen, as in PyTorch's kernels);
// integer inputs of the float functions are promoted by PyTorch already.
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

/// Builds elementwise formulas over tensors of one float type: every
/// operation's result has `type` (or its bool form), and constants are
/// rank-matched splats that TOSA broadcasts.
class Formula {
public:
  Formula(OpBuilder &b, Location loc, RankedTensorType type)
      : b(b), loc(loc), type(type), boolType(type.clone(b.getI1Type())) {}

  /// `x` (of `type`'s rank) tiled to `type`'s shape: the formulas apply
  /// unary ops to their operands, whose results must have the full shape.
  Value full(Value x) {
    auto xType = cast<RankedTensorType>(x.getType());
    if (xType.getShape() == type.getShape())
      return x;
    SmallVector<int64_t> multiples;
    for (auto [in, out] : llvm::zip(xType.getShape(), type.getShape()))
      multiples.push_back(in == out ? 1 : out);
    return tosa::TileOp::create(b, loc, xType.clone(type.getShape()), x,
                                createConstShape(b, loc, multiples));
  }

  Value constant(double value) {
    return createScalar(b, loc, type.getElementType(), value, type.getRank());
  }
  Value add(Value x, Value y) {
    return tosa::AddOp::create(b, loc, type, x, y);
  }
  Value sub(Value x, Value y) {
    return tosa::SubOp::create(b, loc, type, x, y);
  }
  Value mul(Value x, Value y) { return createMul(b, loc, type, x, y); }
  Value scale(Value x, double factor) { return mul(x, constant(factor)); }
  Value reciprocal(Value x) {
    return tosa::ReciprocalOp::create(b, loc, type, x);
  }
  /// x / y as x * (1 / y) (TOSA has no float division).
  Value div(Value x, Value y) { return mul(x, reciprocal(y)); }
  Value neg(Value x) { return tosa::NegateOp::create(b, loc, type, x); }
  Value abs(Value x) { return tosa::AbsOp::create(b, loc, type, x); }
  Value floor(Value x) { return tosa::FloorOp::create(b, loc, type, x); }
  Value ceil(Value x) { return tosa::CeilOp::create(b, loc, type, x); }
  Value exp(Value x) { return tosa::ExpOp::create(b, loc, type, x); }
  Value log(Value x) { return tosa::LogOp::create(b, loc, type, x); }
  /// sqrt(x) = pow(x, 0.5): exact at 0, NaN below.
  Value sqrt(Value x) {
    return tosa::PowOp::create(b, loc, type, x, constant(0.5));
  }
  Value max(Value x, Value y) {
    return tosa::MaximumOp::create(b, loc, type, x, y);
  }
  Value min(Value x, Value y) {
    return tosa::MinimumOp::create(b, loc, type, x, y);
  }
  Value gt(Value x, Value y) {
    return tosa::GreaterOp::create(b, loc, boolType, x, y);
  }
  Value ge(Value x, Value y) {
    return tosa::GreaterEqualOp::create(b, loc, boolType, x, y);
  }
  Value eq(Value x, Value y) {
    return tosa::EqualOp::create(b, loc, boolType, x, y);
  }
  Value gt(Value x, double y) { return gt(x, constant(y)); }
  Value lt(Value x, double y) { return gt(constant(y), x); }
  Value eq(Value x, double y) { return eq(x, constant(y)); }
  Value logicalOr(Value x, Value y) {
    return tosa::LogicalOrOp::create(b, loc, boolType, x, y);
  }
  Value logicalAnd(Value x, Value y) {
    return tosa::LogicalAndOp::create(b, loc, boolType, x, y);
  }
  Value logicalXor(Value x, Value y) {
    return tosa::LogicalXorOp::create(b, loc, boolType, x, y);
  }
  Value logicalNot(Value x) {
    return tosa::LogicalNotOp::create(b, loc, boolType, x);
  }
  Value select(Value condition, Value x, Value y) {
    return tosa::SelectOp::create(b, loc, type, condition, x, y);
  }
  Value select(Value condition, double x, Value y) {
    return select(condition, constant(x), y);
  }

  /// Whether x's sign bit is set (true for -0; false for NaN): x < 0 or
  /// 1 / x < 0.
  Value signBit(Value x) {
    return logicalOr(lt(x, 0.0), lt(reciprocal(x), 0.0));
  }
  /// |magnitude| with the sign of `sign` (C's copysign, for non-negative
  /// `magnitude`).
  Value copySign(Value magnitude, Value sign) {
    return select(signBit(sign), neg(magnitude), magnitude);
  }
  /// x rounded toward zero.
  Value trunc(Value x) { return select(lt(x, 0.0), ceil(x), floor(x)); }

  /// atan2(y, x) (C11 7.12.4.4 and Annex F.10.1.4). The angle of the
  /// smaller over the larger magnitude, in [0, pi/4], is reduced once more
  /// at tan(pi/8) (atan(r) = pi/4 + atan((r - 1) / (r + 1))) and evaluated
  /// by a degree-9 odd polynomial (Cephes' single-precision atan
  /// coefficients, within 2 ulps); then the octant and the signs place it.
  Value atan2(Value y, Value x) {
    Value ay = abs(y), ax = abs(x);
    Value hi = max(ax, ay), lo = min(ax, ay);
    Value r = div(lo, hi);
    Value reduce = gt(r, 0.41421356237309503);
    Value t =
        select(reduce, div(sub(r, constant(1.0)), add(r, constant(1.0))), r);
    Value z = mul(t, t);
    Value p = constant(8.05374449538e-2);
    for (double c : {-1.38776856032e-1, 1.99777106478e-1, -3.33329491539e-1})
      p = add(mul(p, z), constant(c));
    p = add(mul(mul(p, z), t), t);
    Value angle = select(reduce, add(p, constant(M_PI_4)), p);
    // Both zero (0 / 0), both infinite (inf / inf).
    angle = select(eq(hi, 0.0), 0.0, angle);
    angle = select(eq(lo, INFINITY), M_PI_4, angle);
    angle = select(gt(ay, ax), sub(constant(M_PI_2), angle), angle);
    angle = select(signBit(x), sub(constant(M_PI), angle), angle);
    return copySign(angle, y);
  }

  /// log1p(x) = log(u) * x / (u - 1) with u = 1 + x (Goldberg's form: the
  /// rounding of u cancels), x itself where u rounds to 1.
  Value log1p(Value x) {
    Value u = add(constant(1.0), x);
    Value d = sub(u, constant(1.0));
    Value result = mul(log(u), div(x, d));
    result = select(eq(d, 0.0), x, result);
    return select(eq(u, INFINITY), u, result);
  }

  /// expm1(x) = (u - 1) * x / log(u) with u = exp(x) (Kahan's form), x
  /// where u rounds to 1, -1 where u - 1 does.
  Value expm1(Value x) {
    Value u = exp(x);
    Value d = sub(u, constant(1.0));
    Value result = mul(d, div(x, log(u)));
    result = select(eq(u, 1.0), x, result);
    result = select(eq(d, -1.0), -1.0, result);
    return select(eq(u, INFINITY), u, result);
  }

  /// (e^(|x|/2) / 2) * e^(|x|/2): e^|x| / 2 for |x| past 88, where e^|x|
  /// overflows f32 but sinh and cosh do not yet.
  Value halfExpLarge(Value a) {
    Value h = exp(scale(a, 0.5));
    return mul(scale(h, 0.5), h);
  }

  /// |x| past which x^2 + 1 rounds to x^2 in f32: asinh and acosh are
  /// log(2|x|) there.
  static constexpr double kHugeArgument = 268435456.0; // 2^28

  Value asinh(Value x) {
    Value a = abs(x);
    Value a2 = mul(a, a);
    // asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2))): no cancellation.
    Value result = log1p(
        add(a, div(a2, add(constant(1.0), sqrt(add(constant(1.0), a2))))));
    result = select(gt(a, kHugeArgument), add(log(a), constant(M_LN2)), result);
    return copySign(result, x);
  }

  Value acosh(Value x) {
    // acosh(x) = log1p(t + sqrt(t (x + 1))) with t = x - 1 (exact near 1).
    Value t = sub(x, constant(1.0));
    Value result = log1p(add(t, sqrt(mul(t, add(x, constant(1.0))))));
    result = select(gt(x, kHugeArgument), add(log(x), constant(M_LN2)), result);
    return select(lt(x, 1.0), NAN, result);
  }

  /// atanh(x) = sign(x) log1p(2|x| / (1 - |x|)) / 2: on |x| the argument
  /// of log1p is positive, where its rounding stays relative (near x = -1
  /// the direct form would take log1p of a value near -1).
  Value atanh(Value x) {
    Value a = abs(x);
    Value result = scale(log1p(div(scale(a, 2.0), sub(constant(1.0), a))), 0.5);
    return copySign(result, x);
  }

  /// sinh(|x|) = (E + E / (E + 1)) / 2 with E = expm1(|x|).
  Value sinh(Value x) {
    Value a = abs(x);
    Value e = expm1(a);
    Value result = scale(add(e, div(e, add(e, constant(1.0)))), 0.5);
    result = select(gt(a, 88.0), halfExpLarge(a), result);
    return copySign(result, x);
  }

  Value cosh(Value x) {
    Value a = abs(x);
    Value e = exp(a);
    Value result = scale(add(e, reciprocal(e)), 0.5);
    return select(gt(a, 88.0), halfExpLarge(a), result);
  }

  /// Round half to even (C's nearbyint in the default rounding mode).
  Value round(Value x) {
    Value f = floor(x);
    Value d = sub(x, f); // exact, in [0, 1)
    Value half = scale(f, 0.5);
    Value odd = logicalNot(eq(half, floor(half)));
    Value up = logicalOr(gt(d, 0.5), logicalAnd(eq(d, 0.5), odd));
    Value result = select(up, add(f, constant(1.0)), f);
    // Zero results keep x's sign; |x| >= 2^23 (and infinities) is integral.
    result = select(eq(result, 0.0), scale(x, 0.0), result);
    return select(ge(abs(x), constant(8388608.0)), x, result);
  }

  /// fmod(x, y) = x - trunc(x / y) * y (C11 7.12.10.1: the sign of x,
  /// |result| < |y|), with one correction step each way for a quotient
  /// that rounded across an integer. Exact while |x / y| < 2^24.
  Value fmod(Value x, Value y) {
    Value ay = abs(y);
    Value result = sub(x, mul(trunc(div(x, y)), y));
    Value towardX = copySign(ay, x);
    Value flipped = logicalAnd(logicalNot(eq(result, 0.0)),
                               logicalXor(signBit(result), signBit(x)));
    result = select(flipped, add(result, towardX), result);
    result = select(ge(abs(result), ay), sub(result, towardX), result);
    result = select(eq(result, 0.0), scale(x, 0.0), result);
    // fmod(x, +-inf) = x for finite x.
    Value finiteX = logicalNot(eq(abs(x), INFINITY));
    return select(logicalAnd(eq(ay, INFINITY), finiteX), x, result);
  }

  /// PyTorch's remainder: fmod, plus y when the signs of a nonzero fmod
  /// and y differ (the result takes the divisor's sign).
  Value remainder(Value x, Value y) {
    Value mod = fmod(x, y);
    Value differ = logicalAnd(logicalNot(eq(mod, 0.0)),
                              logicalXor(lt(mod, 0.0), lt(y, 0.0)));
    return select(differ, add(mod, y), mod);
  }

private:
  OpBuilder &b;
  Location loc;
  RankedTensorType type;
  RankedTensorType boolType;
};

enum class Fn {
  Atan,
  Asin,
  Acos,
  Asinh,
  Acosh,
  Atanh,
  Tan,
  Sinh,
  Cosh,
  Log2,
  Log10,
  Log1p,
  Expm1
};

/// The float functions of one argument.
template <typename TorchOp, Fn Kind>
struct ConvertFloatFunction : OpConversionPattern<TorchOp> {
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
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Formula f(rewriter, op.getLoc(), *type);
    Value result;
    switch (Kind) {
    case Fn::Atan:
      result = f.atan2(*x, f.full(f.constant(1.0)));
      break;
    case Fn::Asin:
    case Fn::Acos: {
      // sqrt((1 - x)(1 + x)): exact factors near |x| = 1; NaN past it.
      Value root =
          f.sqrt(f.mul(f.sub(f.constant(1.0), *x), f.add(f.constant(1.0), *x)));
      result = Kind == Fn::Asin ? f.atan2(*x, root) : f.atan2(root, *x);
      break;
    }
    case Fn::Asinh:
      result = f.asinh(*x);
      break;
    case Fn::Acosh:
      result = f.acosh(*x);
      break;
    case Fn::Atanh:
      result = f.atanh(*x);
      break;
    case Fn::Tan:
      result = f.div(tosa::SinOp::create(rewriter, op.getLoc(), *type, *x),
                     tosa::CosOp::create(rewriter, op.getLoc(), *type, *x));
      break;
    case Fn::Sinh:
      result = f.sinh(*x);
      break;
    case Fn::Cosh:
      result = f.cosh(*x);
      break;
    case Fn::Log2:
      result = f.scale(f.log(*x), M_LOG2E);
      break;
    case Fn::Log10:
      result = f.scale(f.log(*x), M_LOG10E);
      break;
    case Fn::Log1p:
      result = f.log1p(*x);
      break;
    case Fn::Expm1:
      result = f.expm1(*x);
      break;
    }
    replaceRounded(rewriter, op, result, resultType);
    return success();
  }
};

/// atan2(self, other) in the promoted float type.
struct ConvertAtan2 : OpConversionPattern<AtenAtan2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAtan2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto y = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 1, *type);
    if (failed(y) || failed(x))
      return failure();
    Formula f(rewriter, op.getLoc(), *type);
    replaceRounded(rewriter, op, f.atan2(f.full(*y), f.full(*x)), resultType);
    return success();
  }
};

/// isnan(x) = x != x; isinf(x) = |x| == inf. Integers and bools are
/// neither.
template <typename TorchOp, bool IsNan>
struct ConvertClassify : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    auto inputType = getConvertedType(this->getTypeConverter(), op.getSelf());
    if (failed(checkTosaTensor(rewriter, op, op.getSelf(), inputType,
                               "the input")))
      return failure();
    Location loc = op.getLoc();
    if (!isFloat(inputType)) {
      auto attr = DenseElementsAttr::get(*type, rewriter.getBoolAttr(false));
      rewriter.replaceOpWithNewOp<tosa::ConstOp>(op, *type, attr);
      return success();
    }
    auto mathType = getOpMathType(inputType);
    Value x =
        createCast(rewriter, loc, adaptor.getSelf(), mathType.getElementType());
    Formula f(rewriter, loc, mathType);
    rewriter.replaceOp(op, IsNan ? f.logicalNot(f.eq(x, x))
                                 : f.eq(f.abs(x), INFINITY));
    return success();
  }
};

enum class Rounding { Floor, Ceil, Round, Trunc };

/// floor, ceil, round (half to even) and trunc; of integers, the input.
template <typename TorchOp, Rounding Kind>
struct ConvertRounding : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    if (!isFloat(resultType)) {
      if (resultType.getElementType().isInteger(1))
        return reportFailure(rewriter, op, "unsupported: a bool input");
      auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, resultType);
      if (failed(x))
        return failure();
      rewriter.replaceOp(op, *x);
      return success();
    }
    *type = getOpMathType(resultType);
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Formula f(rewriter, op.getLoc(), *type);
    Value result;
    switch (Kind) {
    case Rounding::Floor:
      result = f.floor(*x);
      break;
    case Rounding::Ceil:
      result = f.ceil(*x);
      break;
    case Rounding::Round:
      result = f.round(*x);
      break;
    case Rounding::Trunc:
      result = f.trunc(*x);
      break;
    }
    replaceRounded(rewriter, op, result, resultType);
    return success();
  }
};

/// round.decimals(x, d): round(x * 10^d) / 10^d, and for d < 0
/// round(x / 10^-d) * 10^-d (PyTorch's CPU kernel), the divisions as
/// products with the reciprocal.
struct ConvertRoundDecimals : OpConversionPattern<AtenRoundDecimalsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenRoundDecimalsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    int64_t decimals;
    if (!matchTorchConstantInt(op.getDecimals(), decimals))
      return reportFailure(rewriter, op, "decimals must be a constant");
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Formula f(rewriter, op.getLoc(), *type);
    // In the result's float type, as PyTorch computes 10^|d|.
    auto power = static_cast<double>(
        static_cast<float>(std::pow(10.0, std::abs(decimals))));
    Value result = decimals >= 0
                       ? f.scale(f.round(f.scale(*x, power)), 1.0 / power)
                       : f.scale(f.round(f.scale(*x, 1.0 / power)), power);
    replaceRounded(rewriter, op, result, resultType);
    return success();
  }
};

/// fmod and remainder (.Tensor and .Scalar). Floats use the Formula;
/// integers divide with `tosa.intdiv` (truncating) only by a nonzero
/// constant: PyTorch raises on an integer division by zero, and TOSA has
/// no run-time check to do so.
template <typename TorchOp, bool IsRemainder>
struct ConvertModulo : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, this->getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    if (resultType.getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: bool operands");
    *type = getOpMathType(resultType);
    Location loc = op.getLoc();
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    if (isFloat(*type)) {
      auto y = getOperand(rewriter, op, adaptor.getOperands(), 1, *type);
      if (failed(y))
        return failure();
      Formula f(rewriter, loc, *type);
      Value lhs = f.full(*x), rhs = f.full(*y);
      replaceRounded(rewriter, op,
                     IsRemainder ? f.remainder(lhs, rhs) : f.fmod(lhs, rhs),
                     resultType);
      return success();
    }
    FailureOr<int64_t> constant =
        getConstantDivisor(rewriter, op, op->getOperand(1));
    if (failed(constant))
      return failure();
    int64_t divisor = *constant;
    Type element = type->getElementType();
    int64_t rank = type->getRank();
    Value result;
    if (divisor == 1 || divisor == -1) {
      // Also INT_MIN % -1, which would overflow the quotient.
      result = createMul(rewriter, loc, *type, *x,
                         createScalar(rewriter, loc, element, 0.0, rank));
    } else {
      Value y = createScalar(rewriter, loc, element,
                             static_cast<double>(divisor), rank);
      // fmod truncates the quotient, remainder floors it.
      Value quotient =
          IsRemainder
              ? createIntegerFloorDiv(rewriter, loc, *type, *x, y)
              : tosa::IntDivOp::create(rewriter, loc, *type, *x, y).getResult();
      result =
          tosa::SubOp::create(rewriter, loc, *type, *x,
                              createMul(rewriter, loc, *type, quotient, y));
    }
    replaceRounded(rewriter, op, result, resultType);
    return success();
  }
};

/// bitwise_not: of integers `tosa.bitwise_not`, of bools `logical_not`.
struct ConvertBitwiseNot : OpConversionPattern<AtenBitwiseNotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenBitwiseNotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    if (isFloat(*type))
      return reportFailure(rewriter, op, "a float input");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    if (type->getElementType().isInteger(1))
      rewriter.replaceOpWithNewOp<tosa::LogicalNotOp>(op, *type, *x);
    else
      rewriter.replaceOpWithNewOp<tosa::BitwiseNotOp>(op, *type, *x);
    return success();
  }
};

/// pow.Scalar(base, exponent tensor) of floats = pow(base, exponent), for
/// a positive constant base (TOSA's pow is undefined for bases <= 0).
struct ConvertPowScalar : OpConversionPattern<AtenPowScalarOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenPowScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    double base;
    if (!matchTorchConstantFloat(op.getSelf(), base) || !(base > 0.0))
      return reportFailure(rewriter, op,
                           "unsupported: a base that is not a positive "
                           "constant (TOSA's pow is defined for bases > 0)");
    if (!isFloat(*type))
      return reportFailure(rewriter, op,
                           "unsupported: a non-float result (TOSA has no "
                           "integer power)");
    auto exponent = getOperand(rewriter, op, adaptor.getOperands(), 1, *type);
    if (failed(exponent))
      return failure();
    Formula f(rewriter, op.getLoc(), *type);
    replaceRounded(rewriter, op,
                   tosa::PowOp::create(rewriter, op.getLoc(), *type,
                                       f.constant(base), *exponent),
                   resultType);
    return success();
  }
};

/// elu(x, alpha, scale, input_scale) = x * scale for x > 0, else
/// expm1(x * input_scale) * alpha * scale (PyTorch's CPU kernel; NaN
/// stays).
struct ConvertElu : OpConversionPattern<AtenEluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenEluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResult(rewriter, getTypeConverter(), op);
    if (failed(type))
      return failure();
    RankedTensorType resultType = *type;
    *type = getOpMathType(resultType);
    double alpha, scale, inputScale;
    if (!matchTorchConstantFloat(op.getAlpha(), alpha) ||
        !matchTorchConstantFloat(op.getScale(), scale) ||
        !matchTorchConstantFloat(op.getInputScale(), inputScale))
      return reportFailure(rewriter, op,
                           "alpha, scale and input_scale must be constants");
    if (!isFloat(*type))
      return reportFailure(rewriter, op, "unsupported: a non-float result");
    auto x = getOperand(rewriter, op, adaptor.getOperands(), 0, *type);
    if (failed(x))
      return failure();
    Formula f(rewriter, op.getLoc(), *type);
    Value negative = f.scale(f.expm1(f.scale(*x, inputScale)), alpha * scale);
    replaceRounded(rewriter, op,
                   f.select(f.gt(*x, 0.0), f.scale(*x, scale), negative),
                   resultType);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateTosaMathPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
#define FLOAT_FUNCTION(TorchOp, Kind)                                          \
  target.addIllegalOp<TorchOp>();                                              \
  patterns.add<ConvertFloatFunction<TorchOp, Fn::Kind>>(typeConverter, context);
  FLOAT_FUNCTION(AtenAtanOp, Atan)
  FLOAT_FUNCTION(AtenAsinOp, Asin)
  FLOAT_FUNCTION(AtenAcosOp, Acos)
  FLOAT_FUNCTION(AtenAsinhOp, Asinh)
  FLOAT_FUNCTION(AtenAcoshOp, Acosh)
  FLOAT_FUNCTION(AtenAtanhOp, Atanh)
  FLOAT_FUNCTION(AtenTanOp, Tan)
  FLOAT_FUNCTION(AtenSinhOp, Sinh)
  FLOAT_FUNCTION(AtenCoshOp, Cosh)
  FLOAT_FUNCTION(AtenLog2Op, Log2)
  FLOAT_FUNCTION(AtenLog10Op, Log10)
  FLOAT_FUNCTION(AtenLog1pOp, Log1p)
  FLOAT_FUNCTION(AtenExpm1Op, Expm1)
#undef FLOAT_FUNCTION
  target.addIllegalOp<AtenAtan2Op, AtenIsnanOp, AtenIsinfOp, AtenFloorOp,
                      AtenCeilOp, AtenRoundOp, AtenTruncOp, AtenRoundDecimalsOp,
                      AtenFmodTensorOp, AtenFmodScalarOp, AtenRemainderTensorOp,
                      AtenRemainderScalarOp, AtenBitwiseNotOp, AtenPowScalarOp,
                      AtenEluOp>();
  patterns.add<ConvertAtan2, ConvertClassify<AtenIsnanOp, true>,
               ConvertClassify<AtenIsinfOp, false>,
               ConvertRounding<AtenFloorOp, Rounding::Floor>,
               ConvertRounding<AtenCeilOp, Rounding::Ceil>,
               ConvertRounding<AtenRoundOp, Rounding::Round>,
               ConvertRounding<AtenTruncOp, Rounding::Trunc>,
               ConvertRoundDecimals, ConvertModulo<AtenFmodTensorOp, false>,
               ConvertModulo<AtenFmodScalarOp, false>,
               ConvertModulo<AtenRemainderTensorOp, true>,
               ConvertModulo<AtenRemainderScalarOp, true>, ConvertBitwiseNot,
               ConvertPowScalar, ConvertElu>(typeConverter, context);
}
