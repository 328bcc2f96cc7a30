//===- ExpandSmallFloats.cpp - float8/float4 conversions as integer math --===//
//
// Part of the torch2mlir project.
//
// LLVM has no float8 or float4 types: MLIR's LLVM lowering keeps their
// values as integers of the same width, which is all loads, stores and
// constants need, but `arith.extf` and `arith.truncf` to or from them have
// no lowering (upstream expands only f8E8M0FNU and f4E2M1FN, and not with
// the rounding of the other formats). `arith-emulate-unsupported-floats`
// first rewrites every other arith op on these types into f32 arithmetic
// between an extf and a truncf; this pass then turns those conversions
// into integer and f32/f64 arithmetic on the bits:
//
// - extf decodes sign, exponent and mantissa fields: the value is the
//   significand (with the implicit bit of normal numbers) times a power of
//   two built from its exponent bits, both exact in f32; the codes that are
//   NaN or infinity in the format are matched one by one.
// - truncf rounds to nearest, ties to even, as APFloat's conversion (and
//   PyTorch's c10::Float8_* casts) do: the source widened exactly to f64,
//   its exponent clamped below at the format's smallest normal exponent,
//   the significand scaled to an integer number of the format's ulps and
//   rounded with `math.roundeven`; the code is then (exponent step <<
//   mantissa bits) + ulps, which also carries a rounding into the next
//   binade. Codes past the largest finite value, and infinities, become
//   infinity where the format has one, else NaN (PyTorch's non-saturating
//   cast; ONNX's saturating Cast clamps before it), and finite-only formats
//   without NaN saturate. Formats without a negative zero (the `fnuz` ones)
//   drop the sign of zero.
//
// Constants need nothing: the LLVM lowering writes a small float's bits as
// an integer constant.
//
// Every parameter comes from the format's APFloat semantics, and the pass
// checks its decoding against APFloat's for every code of the format before
// it touches an op. f8E8M0FNU (an exponent alone: no zero, no subnormals),
// which this scheme does not describe, has its own two patterns, rounding
// as c10::Float8_e8m0fnu does.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_EXPANDSMALLFLOATS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

namespace {

/// A float format of at most 8 bits, as this pass encodes and decodes it.
struct SmallFloatFormat {
  unsigned width = 0;
  unsigned mantissaBits = 0;
  int64_t minExponent = 0; // of the smallest normal number
  bool hasSign = false;
  bool hasNegativeZero = false;
  uint64_t maxFiniteCode = 0;      // magnitude of the largest finite value
  std::optional<uint64_t> infCode; // magnitude of +inf
  std::optional<uint64_t> nanCode; // the canonical NaN (magnitude or code)
  bool nanTakesSign = false;       // NaN is a magnitude, like a number's
  SmallVector<uint64_t> nanCodes;  // every code that is NaN
  SmallVector<std::pair<uint64_t, bool>> infCodes; // code, negative

  uint64_t signBit() const { return uint64_t(1) << (width - 1); }
};

/// The format of `type` if this pass handles it: a float of at most 8 bits
/// whose every finite code the field decoding below reproduces.
std::optional<SmallFloatFormat> getSmallFloatFormat(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType || floatType.getWidth() > 8)
    return std::nullopt;
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  SmallFloatFormat format;
  format.width = floatType.getWidth();
  format.mantissaBits = llvm::APFloat::semanticsPrecision(semantics) - 1;
  format.minExponent = llvm::APFloat::semanticsMinExponent(semantics);
  format.hasSign = llvm::APFloat::semanticsHasSignedRepr(semantics);
  if (!llvm::APFloat::semanticsHasZero(semantics))
    return std::nullopt;
  format.maxFiniteCode =
      llvm::APFloat::getLargest(semantics).bitcastToAPInt().getZExtValue();
  if (llvm::APFloat::semanticsHasInf(semantics))
    format.infCode =
        llvm::APFloat::getInf(semantics).bitcastToAPInt().getZExtValue();
  if (llvm::APFloat::semanticsHasNaN(semantics)) {
    uint64_t nan =
        llvm::APFloat::getQNaN(semantics).bitcastToAPInt().getZExtValue();
    format.nanCode = nan;
    format.nanTakesSign = !format.hasSign || !(nan & format.signBit());
  }
  unsigned mantissaMask = (1u << format.mantissaBits) - 1;
  for (uint64_t code = 0; code < (uint64_t(1) << format.width); ++code) {
    llvm::APFloat value(semantics, llvm::APInt(format.width, code));
    if (value.isNaN()) {
      format.nanCodes.push_back(code);
      continue;
    }
    if (value.isInfinity()) {
      format.infCodes.push_back({code, value.isNegative()});
      continue;
    }
    if (value.isZero() && value.isNegative())
      format.hasNegativeZero = true;
    // The decoding the extf expansion emits, in double.
    bool negative = format.hasSign && (code & format.signBit());
    uint64_t magnitude = format.hasSign ? code & ~format.signBit() : code;
    uint64_t exponentField = magnitude >> format.mantissaBits;
    uint64_t significand =
        (magnitude & mantissaMask) |
        (exponentField ? uint64_t(1) << format.mantissaBits : 0);
    int64_t exponent = std::max<int64_t>(exponentField, 1) - 1 +
                       format.minExponent - format.mantissaBits;
    double decoded = std::ldexp(static_cast<double>(significand), exponent);
    if (negative)
      decoded = -decoded;
    bool losesInfo;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    if (value.convertToDouble() != decoded ||
        std::signbit(value.convertToDouble()) != std::signbit(decoded))
      return std::nullopt;
  }
  return format;
}

/// `element` in the shape of `like` (a vector or a scalar).
Type withElement(Type like, Type element) {
  if (auto vector = dyn_cast<VectorType>(like))
    return vector.clone(element);
  return element;
}

/// Builds the integer and float arithmetic on scalars or vectors of one
/// shape.
class Emitter {
public:
  Emitter(PatternRewriter &rewriter, Location loc, Type like)
      : rewriter(rewriter), loc(loc), like(like) {}

  Type type(Type element) const { return withElement(like, element); }
  Type i(unsigned width) const { return type(rewriter.getIntegerType(width)); }

  Value constant(Type type, TypedAttr scalar) {
    if (auto vector = dyn_cast<VectorType>(type))
      return arith::ConstantOp::create(rewriter, loc, vector,
                                       SplatElementsAttr::get(vector, scalar));
    return arith::ConstantOp::create(rewriter, loc, type, scalar);
  }
  Value integer(unsigned width, int64_t value) {
    Type element = rewriter.getIntegerType(width);
    return constant(type(element), rewriter.getIntegerAttr(element, value));
  }
  Value floating(FloatType element, double value) {
    return constant(type(element), rewriter.getFloatAttr(element, value));
  }

  PatternRewriter &rewriter;
  Location loc;
  Type like;
};

/// `value` (f32, or a vector of it) as `type`, a float type that holds it
/// exactly here (every small float value is an f16, bf16, f32 and f64
/// value): extf to a wider type, truncf to a narrower one.
Value castExactly(PatternRewriter &rewriter, Location loc, Value value,
                  Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isF32())
    return value;
  if (element.getIntOrFloatBitWidth() > 32)
    return arith::ExtFOp::create(rewriter, loc, type, value);
  return arith::TruncFOp::create(rewriter, loc, type, value);
}

/// arith.extf from a small float: the decoded fields, exact in f32.
struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type sourceType = op.getIn().getType();
    std::optional<SmallFloatFormat> format =
        getSmallFloatFormat(getElementTypeOrSelf(sourceType));
    if (!format)
      return rewriter.notifyMatchFailure(op, "not a small float format");
    Location loc = op.getLoc();
    Emitter e(rewriter, loc, sourceType);
    auto f32 = rewriter.getF32Type();
    Value code =
        arith::BitcastOp::create(rewriter, loc, e.i(format->width), op.getIn());
    Value bits = arith::ExtUIOp::create(rewriter, loc, e.i(32), code);
    Value magnitude = bits;
    if (format->hasSign)
      magnitude = arith::AndIOp::create(rewriter, loc, bits,
                                        e.integer(32, format->signBit() - 1));
    Value exponentField = arith::ShRUIOp::create(
        rewriter, loc, magnitude, e.integer(32, format->mantissaBits));
    Value mantissa =
        arith::AndIOp::create(rewriter, loc, magnitude,
                              e.integer(32, (1 << format->mantissaBits) - 1));
    Value isNormal =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                              exponentField, e.integer(32, 0));
    Value implicitBit = arith::SelectOp::create(
        rewriter, loc, isNormal, e.integer(32, 1 << format->mantissaBits),
        e.integer(32, 0));
    Value significand =
        arith::OrIOp::create(rewriter, loc, mantissa, implicitBit);
    // 2^(max(exponentField, 1) - 1 + minExponent - mantissaBits), a normal
    // f32 built from its exponent bits.
    Value exponent =
        arith::MaxSIOp::create(rewriter, loc, exponentField, e.integer(32, 1));
    exponent = arith::AddIOp::create(
        rewriter, loc, exponent,
        e.integer(32, 126 + format->minExponent - format->mantissaBits));
    Value powerBits =
        arith::ShLIOp::create(rewriter, loc, exponent, e.integer(32, 23));
    Value power =
        arith::BitcastOp::create(rewriter, loc, e.type(f32), powerBits);
    Value significandValue =
        arith::UIToFPOp::create(rewriter, loc, e.type(f32), significand);
    Value value = arith::MulFOp::create(rewriter, loc, significandValue, power);
    if (format->hasSign) {
      Value negative =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, bits,
                                e.integer(32, format->signBit()));
      Value negated = arith::NegFOp::create(rewriter, loc, value);
      value = arith::SelectOp::create(rewriter, loc, negative, negated, value);
    }
    auto special = [&](uint64_t specialCode, double replacement) {
      Value matches =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, bits,
                                e.integer(32, specialCode));
      value = arith::SelectOp::create(rewriter, loc, matches,
                                      e.floating(f32, replacement), value);
    };
    for (auto [infCode, negative] : format->infCodes)
      special(infCode, negative ? -INFINITY : INFINITY);
    for (uint64_t nanCode : format->nanCodes)
      special(nanCode, NAN);
    rewriter.replaceOp(op, castExactly(rewriter, loc, value, op.getType()));
    return success();
  }
};

/// arith.truncf to a small float: round to nearest even on the f64 value.
struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type resultType = op.getType();
    std::optional<SmallFloatFormat> format =
        getSmallFloatFormat(getElementTypeOrSelf(resultType));
    if (!format)
      return rewriter.notifyMatchFailure(op, "not a small float format");
    if (op.getRoundingmodeAttr() && op.getRoundingmodeAttr().getValue() !=
                                        arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "only to-nearest-even rounding");
    Location loc = op.getLoc();
    Emitter e(rewriter, loc, resultType);
    auto f64 = rewriter.getF64Type();
    Value wide = op.getIn();
    if (getElementTypeOrSelf(wide.getType()) != f64)
      wide = arith::ExtFOp::create(rewriter, loc, e.type(f64), wide);
    Value bits = arith::BitcastOp::create(rewriter, loc, e.i(64), wide);
    Value absBits =
        arith::AndIOp::create(rewriter, loc, bits, e.integer(64, INT64_MAX));
    Value infBits = e.integer(64, 0x7ff0000000000000);
    Value isNan = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, absBits, infBits);
    Value isInf = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        absBits, infBits);
    Value nonFinite = arith::OrIOp::create(rewriter, loc, isNan, isInf);
    Value zero64 = e.integer(64, 0);
    Value finiteBits =
        arith::SelectOp::create(rewriter, loc, nonFinite, zero64, absBits);
    // The binade of the value, or the smallest normal one of the format for
    // its subnormals (and zero).
    Value exponentField =
        arith::ShRUIOp::create(rewriter, loc, finiteBits, e.integer(64, 52));
    Value exponent = arith::SubIOp::create(rewriter, loc, exponentField,
                                           e.integer(64, 1023));
    exponent = arith::MaxSIOp::create(rewriter, loc, exponent,
                                      e.integer(64, format->minExponent));
    // The value in ulps of that binade: times 2^(mantissaBits - exponent).
    // (Ops are built one statement each: argument evaluation order is
    // unspecified in C++, and the IR's order should not depend on it.)
    Value scaleExponent = arith::SubIOp::create(
        rewriter, loc, e.integer(64, format->mantissaBits + 1023), exponent);
    Value scaleBits =
        arith::ShLIOp::create(rewriter, loc, scaleExponent, e.integer(64, 52));
    Value finite =
        arith::BitcastOp::create(rewriter, loc, e.type(f64), finiteBits);
    Value scale =
        arith::BitcastOp::create(rewriter, loc, e.type(f64), scaleBits);
    Value ulps = arith::MulFOp::create(rewriter, loc, finite, scale);
    ulps = math::RoundEvenOp::create(rewriter, loc, ulps);
    Value step = arith::SubIOp::create(rewriter, loc, exponent,
                                       e.integer(64, format->minExponent));
    Value binade = arith::ShLIOp::create(rewriter, loc, step,
                                         e.integer(64, format->mantissaBits));
    Value ulpCount = arith::FPToUIOp::create(rewriter, loc, e.i(64), ulps);
    Value code = arith::AddIOp::create(rewriter, loc, binade, ulpCount);
    Value pastLargest =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt, code,
                              e.integer(64, format->maxFiniteCode));
    Value overflow = arith::OrIOp::create(rewriter, loc, isInf, pastLargest);
    // What an overflow becomes: infinity, else NaN, else the largest value.
    uint64_t overflowCode = format->infCode   ? *format->infCode
                            : format->nanCode ? *format->nanCode
                                              : format->maxFiniteCode;
    bool overflowTakesSign =
        format->infCode || !format->nanCode || format->nanTakesSign;
    code = arith::SelectOp::create(rewriter, loc, overflow,
                                   e.integer(64, overflowCode), code);
    // NaN: the format's NaN; a format without one gets zero.
    uint64_t nanCode = format->nanCode ? *format->nanCode : 0;
    code = arith::SelectOp::create(rewriter, loc, isNan, e.integer(64, nanCode),
                                   code);
    if (format->hasSign) {
      Value takesSign = e.integer(1, 1);
      if (!format->nanTakesSign && format->nanCode)
        takesSign = arith::XOrIOp::create(rewriter, loc, isNan, takesSign);
      if (!overflowTakesSign) {
        Value finiteResult =
            arith::XOrIOp::create(rewriter, loc, overflow, e.integer(1, 1));
        takesSign =
            arith::AndIOp::create(rewriter, loc, takesSign, finiteResult);
      }
      if (!format->hasNegativeZero) {
        Value nonzero = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ne, code, zero64);
        takesSign = arith::AndIOp::create(rewriter, loc, takesSign, nonzero);
      }
      Value sign =
          arith::ShRUIOp::create(rewriter, loc, bits, e.integer(64, 63));
      sign = arith::ShLIOp::create(rewriter, loc, sign,
                                   e.integer(64, format->width - 1));
      Value signedCode = arith::OrIOp::create(rewriter, loc, code, sign);
      code =
          arith::SelectOp::create(rewriter, loc, takesSign, signedCode, code);
    }
    code = arith::TruncIOp::create(rewriter, loc, e.i(format->width), code);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, resultType, code);
    return success();
  }
};

/// arith.extf from f8E8M0FNU (an exponent alone, bias 127, 0xFF NaN):
/// 2^(code - 127), built as f32 bits (code 0 is the f32 subnormal 2^-127).
struct ExpandExtFE8M0 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type sourceType = op.getIn().getType();
    if (!isa<Float8E8M0FNUType>(getElementTypeOrSelf(sourceType)))
      return rewriter.notifyMatchFailure(op, "not f8E8M0FNU");
    Location loc = op.getLoc();
    Emitter e(rewriter, loc, sourceType);
    Value byte = arith::BitcastOp::create(rewriter, loc, e.i(8), op.getIn());
    Value code = arith::ExtUIOp::create(rewriter, loc, e.i(32), byte);
    Value bits = arith::ShLIOp::create(rewriter, loc, code, e.integer(32, 23));
    auto isCode = [&](int64_t value) {
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                   code, e.integer(32, value));
    };
    bits = arith::SelectOp::create(rewriter, loc, isCode(0),
                                   e.integer(32, 0x400000), bits);
    bits = arith::SelectOp::create(rewriter, loc, isCode(0xff),
                                   e.integer(32, 0x7fc00000), bits);
    Value value = arith::BitcastOp::create(rewriter, loc,
                                           e.type(rewriter.getF32Type()), bits);
    rewriter.replaceOp(op, castExactly(rewriter, loc, value, op.getType()));
    return success();
  }
};

/// arith.truncf to f8E8M0FNU as c10::Float8_e8m0fnu rounds: the f32
/// exponent, plus one where the mantissa is at least half (more than half
/// for f32 subnormals): the nearest power of two, ties up; the sign is
/// dropped; NaN and infinities (and an exponent rounding past 254) are NaN.
struct ExpandTruncFE8M0 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type resultType = op.getType();
    if (!isa<Float8E8M0FNUType>(getElementTypeOrSelf(resultType)))
      return rewriter.notifyMatchFailure(op, "not f8E8M0FNU");
    Location loc = op.getLoc();
    Emitter e(rewriter, loc, resultType);
    auto f32 = rewriter.getF32Type();
    Value value = op.getIn();
    unsigned width =
        getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
    if (width > 32)
      value = arith::TruncFOp::create(rewriter, loc, e.type(f32), value);
    else if (!getElementTypeOrSelf(value.getType()).isF32())
      value = arith::ExtFOp::create(rewriter, loc, e.type(f32), value);
    Value bits = arith::BitcastOp::create(rewriter, loc, e.i(32), value);
    Value shifted =
        arith::ShRUIOp::create(rewriter, loc, bits, e.integer(32, 23));
    Value exponent =
        arith::AndIOp::create(rewriter, loc, shifted, e.integer(32, 0xff));
    Value mantissa =
        arith::AndIOp::create(rewriter, loc, bits, e.integer(32, 0x7fffff));
    Value normal = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, exponent, e.integer(32, 0));
    Value half = e.integer(32, 0x400000);
    Value atLeastHalf = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::uge, mantissa, half);
    Value overHalf = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, mantissa, half);
    Value roundUp =
        arith::SelectOp::create(rewriter, loc, normal, atLeastHalf, overHalf);
    Value special = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, exponent, e.integer(32, 0xff));
    Value increment = arith::ExtUIOp::create(rewriter, loc, e.i(32), roundUp);
    Value code = arith::AddIOp::create(rewriter, loc, exponent, increment);
    code = arith::SelectOp::create(rewriter, loc, special, e.integer(32, 0xff),
                                   code);
    code = arith::MinUIOp::create(rewriter, loc, code, e.integer(32, 0xff));
    code = arith::TruncIOp::create(rewriter, loc, e.i(8), code);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, resultType, code);
    return success();
  }
};

struct ExpandSmallFloatsPass
    : public ::mlir::torch2mlir::refbackend::impl::ExpandSmallFloatsBase<
          ExpandSmallFloatsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandExtF, ExpandTruncF, ExpandExtFE8M0, ExpandTruncFE8M0>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
