//===- Elementwise.cpp - Elementwise ATen ops to linalg -------------------===//
//
// Part of the torch2mlir project.
//
// Binary ops broadcast with PyTorch's rules and compute in the result dtype
// (which the importer has already promoted per torch.result_type): each
// operand is converted to it first, so int64 + float32 adds in float32 and
// int / int divides in float ("true division").
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

enum class BinaryKind { Add, Sub, Mul, Div };

static bool isUnsignedDtype(Type dtype) {
  return dtype && dtype.isUnsignedInteger();
}

/// `lhs <kind> rhs` on scalars of one type; null if the type has no such op.
static Value createBinary(OpBuilder &b, Location loc, BinaryKind kind,
                          Value lhs, Value rhs) {
  Type type = lhs.getType();
  if (isa<ComplexType>(type)) {
    switch (kind) {
    case BinaryKind::Add:
      return complex::AddOp::create(b, loc, lhs, rhs);
    case BinaryKind::Sub:
      return complex::SubOp::create(b, loc, lhs, rhs);
    case BinaryKind::Mul:
      return complex::MulOp::create(b, loc, lhs, rhs);
    case BinaryKind::Div:
      return complex::DivOp::create(b, loc, lhs, rhs);
    }
  }
  if (isa<mlir::FloatType>(type)) {
    switch (kind) {
    case BinaryKind::Add:
      return arith::AddFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Sub:
      return arith::SubFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Mul:
      return arith::MulFOp::create(b, loc, lhs, rhs);
    case BinaryKind::Div:
      return arith::DivFOp::create(b, loc, lhs, rhs);
    }
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return Value();
  if (intType.getWidth() == 1) {
    // bool: add is logical or, mul logical and (as in PyTorch).
    if (kind == BinaryKind::Add)
      return arith::OrIOp::create(b, loc, lhs, rhs);
    if (kind == BinaryKind::Mul)
      return arith::AndIOp::create(b, loc, lhs, rhs);
    return Value();
  }
  switch (kind) {
  case BinaryKind::Add:
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Sub:
    return arith::SubIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Mul:
    return arith::MulIOp::create(b, loc, lhs, rhs);
  case BinaryKind::Div:
    return Value(); // Integer results of true division do not exist.
  }
  return Value();
}

/// Tensor-tensor and tensor-scalar add/sub/mul/div, with optional alpha:
/// result = self <kind> (other * alpha).
template <typename OpTy, BinaryKind kind, bool otherIsTensor, bool hasAlpha>
struct ConvertBinary : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    // f16/bf16 compute in f32 with the scalars kept in f32, as PyTorch's
    // CPU kernels do (x / 65536 is not x / inf).
    Type compute = getOpMathType(element);
    Location loc = op.getLoc();
    bool selfUnsigned = isUnsignedDtype(getTorchDtype(op.getSelf()));
    bool otherUnsigned = false;
    SmallVector<Value> inputs{adaptor.getSelf()};
    Value otherScalar;
    if constexpr (otherIsTensor) {
      inputs.push_back(adaptor.getOther());
      otherUnsigned = isUnsignedDtype(getTorchDtype(op.getOther()));
    } else {
      otherScalar = adaptor.getOther();
      if (!isa<IntegerType, mlir::FloatType>(otherScalar.getType()))
        return reportFailure(rewriter, op, "unsupported: scalar operand type");
      otherScalar = convertScalar(rewriter, loc, otherScalar, compute);
    }
    Value alpha;
    if constexpr (hasAlpha) {
      int64_t alphaInt;
      if (!matchTorchConstantInt(op.getAlpha(), alphaInt) || alphaInt != 1) {
        alpha = adaptor.getAlpha();
        if (!isa<IntegerType, mlir::FloatType>(alpha.getType()))
          return reportFailure(rewriter, op, "unsupported: alpha type");
        alpha = convertScalar(rewriter, loc, alpha, compute);
      }
    }
    if (!isSupported(element))
      return reportFailure(rewriter, op,
                           "unsupported: this operation on the result dtype");
    Value result = createElementwise(
        rewriter, loc, resultType, inputs,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value lhs = convertScalar(b, l, args[0], element, selfUnsigned);
          Value rhs = otherIsTensor
                          ? convertScalar(b, l, args[1], element, otherUnsigned)
                          : otherScalar;
          lhs = castFloat(b, l, lhs, compute);
          rhs = castFloat(b, l, rhs, compute);
          if (alpha)
            rhs = createBinary(b, l, BinaryKind::Mul, rhs, alpha);
          return castFloat(b, l, createBinary(b, l, kind, lhs, rhs), element);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Whether `kind` exists for `element` (checked before building IR).
  static bool isSupported(Type element) {
    if (isa<mlir::FloatType, ComplexType>(element))
      return true;
    auto intType = dyn_cast<IntegerType>(element);
    if (!intType || kind == BinaryKind::Div)
      return false;
    return intType.getWidth() != 1 ||
           (kind == BinaryKind::Add || kind == BinaryKind::Mul);
  }
};

/// Unary ops computed in the result dtype.
template <typename OpTy> struct ConvertUnary : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  /// The op on one element `x`, already cast to the result dtype, which is
  /// unsigned (ui8) when `isUnsigned`.
  virtual Value buildScalar(OpBuilder &b, Location loc, Value x,
                            bool isUnsigned) const = 0;
  virtual bool supports(Type element) const = 0;
  /// The type buildScalar computes in for a result of `element`.
  virtual Type getComputeType(Type element) const { return element; }

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    if (!supports(element))
      return reportFailure(rewriter, op, "unsupported: this dtype");
    bool srcUnsigned = isUnsignedDtype(getTorchDtype(op->getOperand(0)));
    bool dstUnsigned = isUnsignedDtype(getTorchDtype(op->getResult(0)));
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands().front(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Type compute = getComputeType(element);
          Value x =
              convertScalar(b, l, args[0], compute, srcUnsigned, dstUnsigned);
          Value y = buildScalar(b, l, x, dstUnsigned);
          return compute == element ? y
                                    : arith::TruncFOp::create(b, l, element, y);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertRelu : ConvertUnary<AtenReluOp> {
  using ConvertUnary::ConvertUnary;
  bool supports(Type element) const override {
    return isa<mlir::FloatType>(element) ||
           (isa<IntegerType>(element) && !element.isInteger(1));
  }
  Value buildScalar(OpBuilder &b, Location loc, Value x,
                    bool isUnsigned) const override {
    if (isUnsigned)
      return x; // Never negative.
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
    if (isa<mlir::FloatType>(x.getType())) {
      // relu(NaN) is NaN in PyTorch: select rather than a NaN-dropping max.
      Value positive =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, x, zero);
      return arith::SelectOp::create(b, loc, positive, x, zero);
    }
    return arith::MaxSIOp::create(b, loc, x, zero);
  }
};

struct ConvertNeg : ConvertUnary<AtenNegOp> {
  using ConvertUnary::ConvertUnary;
  bool supports(Type element) const override {
    return isa<mlir::FloatType>(element) ||
           (isa<IntegerType>(element) && !element.isInteger(1));
  }
  Value buildScalar(OpBuilder &b, Location loc, Value x, bool) const override {
    if (isa<mlir::FloatType>(x.getType()))
      return arith::NegFOp::create(b, loc, x);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
    return arith::SubIOp::create(b, loc, zero, x);
  }
};

struct ConvertExp : ConvertUnary<AtenExpOp> {
  using ConvertUnary::ConvertUnary;
  bool supports(Type element) const override {
    return isa<mlir::FloatType>(element);
  }
  Value buildScalar(OpBuilder &b, Location loc, Value x, bool) const override {
    return math::ExpOp::create(b, loc, x);
  }
};

/// Float-only math (int inputs are cast to the float result first, as
/// PyTorch does), computed in the result dtype, except that f16/bf16
/// compute in f32 and round once, as PyTorch's CPU kernels do (their
/// vectorized loops convert to float).
template <typename OpTy> struct ConvertFloatMath : ConvertUnary<OpTy> {
  using ConvertUnary<OpTy>::ConvertUnary;
  bool supports(Type element) const override {
    return isa<mlir::FloatType>(element);
  }
  Type getComputeType(Type element) const override {
    return getOpMathType(element);
  }
};

#define T2M_FLOAT_MATH(NAME, OP, BODY)                                         \
  struct NAME : ConvertFloatMath<OP> {                                         \
    using ConvertFloatMath::ConvertFloatMath;                                  \
    Value buildScalar(OpBuilder &b, Location loc, Value x,                     \
                      bool) const override {                                   \
      BODY                                                                     \
    }                                                                          \
  };

/// min(max(x + 3, 0), 6), NaN-propagating: the shared part of hardsigmoid
/// and hardswish.
static Value relu6OfXPlus3(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value three = createFloatConstant(b, loc, type, 3.0);
  Value shifted = arith::AddFOp::create(b, loc, x, three);
  Value zero = createFloatConstant(b, loc, type, 0.0);
  Value low = arith::MaximumFOp::create(b, loc, shifted, zero);
  Value six = createFloatConstant(b, loc, type, 6.0);
  return arith::MinimumFOp::create(b, loc, low, six);
}

T2M_FLOAT_MATH(ConvertLog, AtenLogOp, return math::LogOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertSqrt, AtenSqrtOp, return math::SqrtOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertRsqrt, AtenRsqrtOp,
               return math::RsqrtOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertErf, AtenErfOp, return math::ErfOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertTanh, AtenTanhOp, return math::TanhOp::create(b, loc, x);)
// sigmoid(x) = 1 / (1 + exp(-x))
T2M_FLOAT_MATH(ConvertSigmoid, AtenSigmoidOp, {
  Value one = createFloatConstant(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
})
// silu(x) = x / (1 + exp(-x)), the form of PyTorch's CPU kernel.
T2M_FLOAT_MATH(ConvertSilu, AtenSiluOp, {
  Value one = createFloatConstant(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  Value denominator = arith::AddFOp::create(b, loc, one, e);
  return arith::DivFOp::create(b, loc, x, denominator);
})
// hardsigmoid(x) = min(max(x + 3, 0), 6) / 6 and hardswish(x) = x *
// min(max(x + 3, 0), 6) / 6, in the order of PyTorch's CPU kernels; NaN
// propagates (maximumf/minimumf).
T2M_FLOAT_MATH(ConvertHardsigmoid, AtenHardsigmoidOp, {
  Value clamped = relu6OfXPlus3(b, loc, x);
  return arith::DivFOp::create(b, loc, clamped,
                               createFloatConstant(b, loc, x.getType(), 6.0));
})
T2M_FLOAT_MATH(ConvertHardswish, AtenHardswishOp, {
  Value clamped = relu6OfXPlus3(b, loc, x);
  Value product = arith::MulFOp::create(b, loc, x, clamped);
  return arith::DivFOp::create(b, loc, product,
                               createFloatConstant(b, loc, x.getType(), 6.0));
})
T2M_FLOAT_MATH(ConvertReciprocal, AtenReciprocalOp, {
  return arith::DivFOp::create(
      b, loc, createFloatConstant(b, loc, x.getType(), 1.0), x);
})
T2M_FLOAT_MATH(ConvertSin, AtenSinOp, return math::SinOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertCos, AtenCosOp, return math::CosOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertAsin, AtenAsinOp, return math::AsinOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertAcos, AtenAcosOp, return math::AcosOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertAtan, AtenAtanOp, return math::AtanOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertTan, AtenTanOp, return math::TanOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertSinh, AtenSinhOp, return math::SinhOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertCosh, AtenCoshOp, return math::CoshOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertAsinh, AtenAsinhOp,
               return math::AsinhOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertAcosh, AtenAcoshOp,
               return math::AcoshOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertAtanh, AtenAtanhOp,
               return math::AtanhOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertLog2, AtenLog2Op, return math::Log2Op::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertLog10, AtenLog10Op,
               return math::Log10Op::create(b, loc, x);)
// expm1(x) = (u - 1) * x / log(u) with u = exp(x) (Kahan): a few ulps for
// small x, where exp(x) - 1 loses every digit (and where math.expm1's LLVM
// lowering computes exactly that). x when u rounds to 1, -1 when u - 1 is
// -1, u (inf) when u is inf.
T2M_FLOAT_MATH(ConvertExpm1, AtenExpm1Op, {
  // float16/bfloat16: in float32 (u - 1) * x would overflow early.
  Type elementType = x.getType();
  if (cast<mlir::FloatType>(elementType).getWidth() < 32)
    x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  Type type = x.getType();
  Value one = createFloatConstant(b, loc, type, 1.0);
  Value u = math::ExpOp::create(b, loc, x);
  Value uMinusOne = arith::SubFOp::create(b, loc, u, one);
  Value scaled =
      arith::DivFOp::create(b, loc, arith::MulFOp::create(b, loc, uMinusOne, x),
                            math::LogOp::create(b, loc, u));
  auto equals = [&](Value lhs, Value rhs) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, lhs, rhs);
  };
  Value result = arith::SelectOp::create(b, loc, equals(u, one), x, scaled);
  Value minusOne = createFloatConstant(b, loc, type, -1.0);
  result = arith::SelectOp::create(b, loc, equals(uMinusOne, minusOne),
                                   minusOne, result);
  result = arith::SelectOp::create(
      b, loc, equals(u, createFloatConstant(b, loc, type, INFINITY)), u,
      result);
  if (type != elementType)
    result = arith::TruncFOp::create(b, loc, elementType, result);
  return result;
})
// log1p(x) = log(u) * x / (u - 1) with u = 1 + x (x when u rounds to 1):
// exact to a few ulps for small x, where log(1 + x) loses every digit.
T2M_FLOAT_MATH(ConvertLog1p, AtenLog1pOp, {
  Value one = createFloatConstant(b, loc, x.getType(), 1.0);
  Value u = arith::AddFOp::create(b, loc, one, x);
  Value uMinusOne = arith::SubFOp::create(b, loc, u, one);
  Value scaled = arith::DivFOp::create(
      b, loc, arith::MulFOp::create(b, loc, math::LogOp::create(b, loc, u), x),
      uMinusOne);
  // u == inf: log(u) * x / (u - 1) would be inf / inf.
  Value isInf =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u,
                            createFloatConstant(b, loc, x.getType(), INFINITY));
  Value exact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u, one);
  Value result = arith::SelectOp::create(b, loc, exact, x, scaled);
  return arith::SelectOp::create(b, loc, isInf, u, result);
})
#undef T2M_FLOAT_MATH

/// floor and ceil: math.floor/ceil on floats, the identity on integers.
template <typename OpTy, typename MathOp>
struct ConvertRounding : ConvertUnary<OpTy> {
  using ConvertUnary<OpTy>::ConvertUnary;
  bool supports(Type element) const override {
    return isa<mlir::FloatType, IntegerType>(element);
  }
  Value buildScalar(OpBuilder &b, Location loc, Value x, bool) const override {
    if (isa<mlir::FloatType>(x.getType()))
      return MathOp::create(b, loc, x);
    return x;
  }
};

/// sign(x) = (x > 0) - (x < 0): 0 for zeros and (as PyTorch's CPU kernel)
/// for NaN; x != 0 on unsigned integers and bools.
struct ConvertSign : ConvertUnary<AtenSignOp> {
  using ConvertUnary::ConvertUnary;
  bool supports(Type element) const override {
    return isa<mlir::FloatType, IntegerType>(element);
  }
  Value buildScalar(OpBuilder &b, Location loc, Value x,
                    bool isUnsigned) const override {
    Type type = x.getType();
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    if (isa<mlir::FloatType>(type)) {
      Value positive =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
      Value negative =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
      Value signOfNonPositive = arith::SelectOp::create(
          b, loc, negative, createFloatConstant(b, loc, type, -1.0), zero);
      return arith::SelectOp::create(b, loc, positive,
                                     createFloatConstant(b, loc, type, 1.0),
                                     signOfNonPositive);
    }
    Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
    if (isUnsigned || type.isInteger(1))
      return arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero), one,
          zero);
    Value positive = arith::ExtUIOp::create(
        b, loc, type,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero));
    Value negative = arith::ExtUIOp::create(
        b, loc, type,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero));
    return arith::SubIOp::create(b, loc, positive, negative);
  }
};

/// abs: math.absf, or math.absi on signed integers (unsigned: identity).
/// isnan(x) and isinf(x): bool tensors; false for integers and bools.
template <typename OpTy, bool isNan>
struct ConvertFloatClass : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    if (!resultType || !resultType.getElementType().isInteger(1))
      return reportFailure(rewriter, op, "result must be a bool tensor");
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          if (!isa<mlir::FloatType>(x.getType()))
            return arith::ConstantIntOp::create(b, loc, 0, 1);
          if (isNan)
            return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x,
                                         x);
          return arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::OEQ,
              math::AbsFOp::create(b, loc, x),
              createFloatConstant(b, loc, x.getType(), INFINITY));
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertAbs : ConvertUnary<AtenAbsOp> {
  using ConvertUnary::ConvertUnary;
  bool supports(Type element) const override {
    return isa<mlir::FloatType, IntegerType>(element);
  }
  Value buildScalar(OpBuilder &b, Location loc, Value x,
                    bool isUnsigned) const override {
    if (isa<mlir::FloatType>(x.getType()))
      return math::AbsFOp::create(b, loc, x);
    if (isUnsigned || x.getType().isInteger(1))
      return x;
    return math::AbsIOp::create(b, loc, x);
  }
};

/// gelu(x, approximate): PyTorch's two forms,
///   'none': x/2 * (1 + erf(x / sqrt(2)))
///   'tanh': x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))
struct ConvertGelu : OpConversionPattern<AtenGeluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenGeluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !isa<mlir::FloatType>(resultType.getElementType()))
      return reportFailure(rewriter, op, "unsupported: non-float gelu");
    auto approximate = op.getApproximate().getDefiningOp<ConstantStrOp>();
    if (!approximate ||
        (approximate.getValue() != "none" && approximate.getValue() != "tanh"))
      return reportFailure(rewriter, op,
                           "approximate must be the constant 'none' or 'tanh'");
    bool useTanh = approximate.getValue() == "tanh";
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, ValueRange{adaptor.getSelf()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          // f16/bf16 compute in f32 and round once, as PyTorch's kernel.
          Type element = args[0].getType();
          bool widen = element.isF16() || element.isBF16();
          Value x = widen
                        ? arith::ExtFOp::create(b, loc, b.getF32Type(), args[0])
                              .getResult()
                        : args[0];
          Type t = x.getType();
          Value half = createFloatConstant(b, loc, t, 0.5);
          Value one = createFloatConstant(b, loc, t, 1.0);
          Value inner;
          if (useTanh) {
            Value cube = arith::MulFOp::create(
                b, loc, x, arith::MulFOp::create(b, loc, x, x));
            Value poly = arith::AddFOp::create(
                b, loc, x,
                arith::MulFOp::create(
                    b, loc, createFloatConstant(b, loc, t, 0.044715), cube));
            inner = math::TanhOp::create(
                b, loc,
                arith::MulFOp::create(
                    b, loc, createFloatConstant(b, loc, t, 0.7978845608028654),
                    poly));
          } else {
            inner = math::ErfOp::create(
                b, loc,
                arith::MulFOp::create(
                    b, loc, x,
                    createFloatConstant(b, loc, t, 0.7071067811865476)));
          }
          Value factor = arith::AddFOp::create(b, loc, one, inner);
          Value y = arith::MulFOp::create(
              b, loc, arith::MulFOp::create(b, loc, half, x), factor);
          return widen ? arith::TruncFOp::create(b, loc, element, y).getResult()
                       : y;
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// _to_copy: a dtype cast (layout, device and memory format do not matter
/// to a value-semantic tensor on the CPU).
struct ConvertToCopy : ConvertUnary<Aten_ToCopyOp> {
  using ConvertUnary::ConvertUnary;
  bool supports(Type) const override { return true; }
  Value buildScalar(OpBuilder &, Location, Value x, bool) const override {
    return x;
  }
};

/// view.dtype between dtypes of different storage widths (PyTorch's
/// `Tensor.view(dtype)`): the last dim scales by the width ratio. Element k
/// of each group of narrow elements is bits [k * narrow, (k + 1) * narrow)
/// of the wide element (little-endian: the byte order of every CPU the
/// RefBackend runs on). Wide -> narrow computes on [..., n, ratio] and
/// collapses; narrow -> wide reads [..., m / ratio, ratio] and ORs the
/// shifted parts together. A bool is a byte of 0 or 1; a byte read as bool
/// is true when nonzero. Null (with a failure reported) when PyTorch itself
/// refuses the view: a 0-d tensor, or a last dim not a multiple of the
/// ratio; a dynamic last dim is refused too.
static Value createWidthChangingView(ConversionPatternRewriter &rewriter,
                                     Operation *op, Value input,
                                     RankedTensorType resultType, Type from,
                                     Type to, unsigned fromWidth,
                                     unsigned toWidth) {
  Location loc = op->getLoc();
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  if (rank == 0) {
    reportFailure(rewriter, op,
                  "view.dtype to a dtype of another width needs at least one "
                  "dim (PyTorch raises for a 0-d tensor)");
    return Value();
  }
  int64_t last = inputType.getDimSize(rank - 1);
  auto fromInt = rewriter.getIntegerType(fromWidth);
  auto toInt = rewriter.getIntegerType(toWidth);
  // The element's bits as an integer of its storage width.
  auto bitsOf = [&](OpBuilder &b, Location l, Value x) -> Value {
    if (from.isInteger(1))
      return arith::ExtUIOp::create(b, l, fromInt, x);
    if (isa<mlir::FloatType>(from))
      return arith::BitcastOp::create(b, l, fromInt, x);
    return x;
  };
  auto shiftFor = [&](OpBuilder &b, Location l, Type type, unsigned width,
                      int64_t dim) -> Value {
    Value k = arith::IndexCastUIOp::create(b, l, type,
                                           linalg::IndexOp::create(b, l, dim));
    return arith::MulIOp::create(
        b, l, k,
        arith::ConstantOp::create(b, l, b.getIntegerAttr(type, width)));
  };
  SmallVector<utils::IteratorType> iterators(rank + 1,
                                             utils::IteratorType::parallel);
  AffineMap full = rewriter.getMultiDimIdentityMap(rank + 1);
  AffineMap dropLast = full.dropResult(rank);
  if (fromWidth > toWidth) {
    int64_t ratio = fromWidth / toWidth;
    SmallVector<int64_t> grouped(inputType.getShape());
    grouped.push_back(ratio);
    auto groupedType = RankedTensorType::get(grouped, to);
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i)
      if (inputType.isDynamicDim(i))
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, input, i));
    Value init =
        tensor::EmptyOp::create(rewriter, loc, grouped, to, dynamicSizes);
    Value parts =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{groupedType}, ValueRange{input},
            ValueRange{init}, ArrayRef<AffineMap>{dropLast, full}, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              // Named in order: C++ leaves argument order open.
              Value whole = bitsOf(b, l, args[0]);
              Value shift = shiftFor(b, l, fromInt, toWidth, rank);
              Value bits = arith::ShRUIOp::create(b, l, whole, shift);
              Value part = arith::TruncIOp::create(b, l, toInt, bits);
              if (to.isInteger(1))
                part = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ne, part,
                    arith::ConstantOp::create(b, l,
                                              b.getIntegerAttr(toInt, 0)));
              else if (isa<mlir::FloatType>(to))
                part = arith::BitcastOp::create(b, l, to, part);
              linalg::YieldOp::create(b, l, part);
            })
            .getResult(0);
    return createReshape(rewriter, loc, parts, resultType);
  }
  int64_t ratio = toWidth / fromWidth;
  if (ShapedType::isDynamic(last) || last % ratio != 0) {
    reportFailure(rewriter, op,
                  "view.dtype to a wider dtype needs a last dim of static "
                  "size that is a multiple of " +
                      Twine(ratio) + " (PyTorch raises otherwise)");
    return Value();
  }
  SmallVector<int64_t> grouped(inputType.getShape());
  grouped.back() = last / ratio;
  grouped.push_back(ratio);
  Value groupedInput =
      createReshape(rewriter, loc, input, RankedTensorType::get(grouped, from));
  if (!groupedInput) {
    reportFailure(rewriter, op, kUnknownReshapeSizes);
    return Value();
  }
  // Only leading dims may be dynamic: they are `input`'s.
  auto wideType = RankedTensorType::get(resultType.getShape(), toInt);
  Value init = createZeroFilled(rewriter, loc, wideType, input);
  iterators.back() = utils::IteratorType::reduction;
  Value wide =
      linalg::GenericOp::create(
          rewriter, loc, TypeRange{wideType}, ValueRange{groupedInput},
          ValueRange{init}, ArrayRef<AffineMap>{full, dropLast}, iterators,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value part =
                arith::ExtUIOp::create(b, l, toInt, bitsOf(b, l, args[0]));
            Value shift = shiftFor(b, l, toInt, fromWidth, rank);
            Value shifted = arith::ShLIOp::create(b, l, part, shift);
            Value merged = arith::OrIOp::create(b, l, args[1], shifted);
            linalg::YieldOp::create(b, l, merged);
          })
          .getResult(0);
  if (!isa<mlir::FloatType>(to))
    return wide;
  return createElementwise(
      rewriter, loc, resultType, wide,
      [&](OpBuilder &b, Location l, ValueRange args) {
        return arith::BitcastOp::create(b, l, to, args[0]).getResult();
      });
}

/// view.dtype to a dtype of the same width: each element's bits read as
/// the result dtype. A bool is a byte of 0 or 1: bool -> ui8/si8 widens
/// it, ui8/si8 -> bool reads a nonzero byte as true. Other widths:
/// createWidthChangingView.
struct ConvertViewDtype : OpConversionPattern<AtenViewDtypeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenViewDtypeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    auto inputType = dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!resultType || !inputType)
      return reportFailure(rewriter, op, "needs known ranks and dtypes");
    Type from = inputType.getElementType(), to = resultType.getElementType();
    if (!from.isIntOrFloat() || !to.isIntOrFloat())
      return reportFailure(rewriter, op,
                           "unsupported: view.dtype of a complex dtype");
    auto storageWidth = [](Type type) {
      return type.isInteger(1) ? 8u : type.getIntOrFloatBitWidth();
    };
    if (storageWidth(from) != storageWidth(to)) {
      Value result = createWidthChangingView(
          rewriter, op, adaptor.getSelf(), resultType, from, to,
          storageWidth(from), storageWidth(to));
      if (!result)
        return failure();
      rewriter.replaceOp(op, result);
      return success();
    }
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          if (from == to)
            return x;
          if (from.isInteger(1))
            return arith::ExtUIOp::create(b, loc, to, x);
          if (to.isInteger(1))
            return arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ne, x,
                arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0)));
          return arith::BitcastOp::create(b, loc, to, x);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// leaky_relu(x, slope) = x > 0 ? x : x * slope (NaN stays NaN).
struct ConvertLeakyRelu : OpConversionPattern<AtenLeakyReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenLeakyReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Type dtype = getTorchDtype(op.getResult());
    if (!isa<mlir::FloatType>(dtype))
      return reportFailure(rewriter, op, "unsupported: non-float leaky_relu");
    if (!areTensorsOrScalars({adaptor.getNegativeSlope()}))
      return reportFailure(rewriter, op, "unsupported: negative_slope type");
    Value result = createElementwiseOnOperands(
        rewriter, op.getLoc(), resultType,
        {op.getSelf(), op.getNegativeSlope()},
        {adaptor.getSelf(), adaptor.getNegativeSlope()}, dtype,
        [](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          Value zero =
              arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
          Value positive =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
          return arith::SelectOp::create(
              b, loc, positive, x, arith::MulFOp::create(b, loc, x, args[1]));
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// base ** exponent on scalars of one type: math.powf on floats,
/// math.ipowi on integers. A negative exponent of a signed `dtype` gives
/// what PyTorch's integer pow gives (ATen's powi): 1 for a base of 1,
/// +-1 for -1 (by the exponent's parity), 0 for any other base (0
/// included); math.ipowi leaves a zero base's case undefined. Without
/// `mayBeNegative` (a constant exponent known not to be), math.ipowi alone.
static Value createPow(OpBuilder &b, Location loc, Value base, Value exponent,
                       Type dtype, bool mayBeNegative = true) {
  if (isa<mlir::FloatType>(base.getType()))
    return math::PowFOp::create(b, loc, base, exponent);
  if (dtype.isUnsignedInteger() || !mayBeNegative)
    return math::IPowIOp::create(b, loc, base, exponent);
  Type type = base.getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
  };
  Value zero = constant(0), one = constant(1), minusOne = constant(-1);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exponent, zero);
  Value power = math::IPowIOp::create(
      b, loc, base, arith::SelectOp::create(b, loc, negative, zero, exponent));
  Value odd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, exponent, one), zero);
  auto is = [&](Value value) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, value);
  };
  Value fraction = arith::SelectOp::create(
      b, loc, is(one), one,
      arith::SelectOp::create(
          b, loc, is(minusOne),
          arith::SelectOp::create(b, loc, odd, minusOne, one), zero));
  return arith::SelectOp::create(b, loc, negative, fraction, power);
}

/// pow.Tensor_Scalar: as PyTorch's CPU kernel, a constant exponent of 0, 1,
/// 2, 3 or 0.5 is 1, x, x * x, x * x * x or sqrt(x), and for floats -1, -2
/// and -0.5 are 1 / x, 1 / (x * x) and 1 / sqrt(x); others are math.powf
/// (float results) or math.ipowi (integer results, non-negative integer
/// exponents).
struct ConvertPowTensorScalar : OpConversionPattern<AtenPowTensorScalarOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenPowTensorScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Type dtype = getTorchDtype(op.getResult());
    bool isFloat = isa<mlir::FloatType>(dtype);
    if (!isFloat && !(isa<IntegerType>(dtype) && !dtype.isInteger(1)))
      return reportFailure(rewriter, op, "unsupported: pow of this dtype");
    if (!areTensorsOrScalars({adaptor.getExponent()}))
      return reportFailure(rewriter, op, "unsupported: exponent type");
    if (!isFloat && !isa<torch::IntType>(op.getExponent().getType()))
      return reportFailure(rewriter, op,
                           "an integer pow needs an integer exponent");
    std::optional<double> constant;
    int64_t intValue;
    double floatValue;
    if (matchTorchConstantInt(op.getExponent(), intValue))
      constant = static_cast<double>(intValue);
    else if (matchTorchConstantFloat(op.getExponent(), floatValue))
      constant = floatValue;
    if (!isFloat && constant && *constant < 0)
      return reportFailure(
          rewriter, op, "integers to negative integer powers are not allowed");
    if (constant && *constant == 0.5 && !isFloat)
      return reportFailure(rewriter, op, "unsupported: integer square root");
    Value result = createElementwiseOnOperands(
        rewriter, op.getLoc(), resultType, {op.getSelf(), op.getExponent()},
        {adaptor.getSelf(), adaptor.getExponent()}, dtype,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          if (constant && *constant == 0.0)
            return arith::ConstantOp::create(
                b, loc,
                isFloat ? cast<TypedAttr>(b.getFloatAttr(x.getType(), 1.0))
                        : b.getIntegerAttr(x.getType(), 1));
          if (constant && *constant == 1.0)
            return x;
          auto mul = [&](Value l, Value r) -> Value {
            return isFloat ? arith::MulFOp::create(b, loc, l, r).getResult()
                           : arith::MulIOp::create(b, loc, l, r).getResult();
          };
          auto reciprocal = [&](Value v) -> Value {
            Value one = arith::ConstantOp::create(
                b, loc, b.getFloatAttr(v.getType(), 1.0));
            return arith::DivFOp::create(b, loc, one, v);
          };
          if (constant && *constant == 2.0)
            return mul(x, x);
          if (constant && *constant == 3.0)
            return mul(mul(x, x), x);
          if (constant && *constant == 0.5)
            return math::SqrtOp::create(b, loc, x);
          if (isFloat && constant && *constant == -1.0)
            return reciprocal(x);
          if (isFloat && constant && *constant == -2.0)
            return reciprocal(mul(x, x));
          if (isFloat && constant && *constant == -0.5)
            return reciprocal(math::SqrtOp::create(b, loc, x));
          // A constant integer exponent is not negative (refused above).
          return createPow(b, loc, x, args[1], dtype,
                           /*mayBeNegative=*/!constant);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

static bool isNonBoolInteger(Type dtype) {
  return isa<IntegerType>(dtype) && !dtype.isInteger(1);
}

/// pow.Tensor_Tensor: math.powf on floats, math.ipowi on integers.
struct ConvertPowTensorTensor : ConvertInResultDtype<AtenPowTensorTensorOp> {
  using ConvertInResultDtype::ConvertInResultDtype;
  StringRef unsupported(AtenPowTensorTensorOp, Type dtype) const override {
    if (isa<mlir::FloatType>(dtype) || isNonBoolInteger(dtype))
      return "";
    return "unsupported: pow of this dtype";
  }
  Value build(AtenPowTensorTensorOp, OpBuilder &b, Location loc,
              ValueRange args, Type dtype) const override {
    return createPow(b, loc, args[0], args[1], dtype);
  }
};

/// maximum and minimum: elementwise max/min, NaN if either is NaN.
template <typename OpTy, bool isMax>
struct ConvertMinMax : ConvertInResultDtype<OpTy> {
  using ConvertInResultDtype<OpTy>::ConvertInResultDtype;
  StringRef unsupported(OpTy, Type dtype) const override {
    return isa<mlir::FloatType, IntegerType>(dtype)
               ? ""
               : "unsupported: maximum/minimum of this dtype";
  }
  Value build(OpTy, OpBuilder &b, Location loc, ValueRange args,
              Type dtype) const override {
    return createMinMax(b, loc, args[0], args[1], dtype, isMax);
  }
};

/// clamp(x, min, max) = min(max(x, min), max), skipping a None bound;
/// NaN stays NaN. For both the Scalar and the Tensor forms.
template <typename OpTy> struct ConvertClamp : ConvertInResultDtype<OpTy> {
  using ConvertInResultDtype<OpTy>::ConvertInResultDtype;
  StringRef unsupported(OpTy op, Type dtype) const override {
    if (isTorchNone(op.getMin()) && isTorchNone(op.getMax()))
      return "clamp needs at least one of min and max";
    // Bools order false < true (clamp_min/clamp_max of bool tensors).
    if (isa<mlir::FloatType, IntegerType>(dtype))
      return "";
    return "unsupported: clamp of this dtype";
  }
  /// `args` holds x, then the bounds that are not None.
  Value build(OpTy op, OpBuilder &b, Location loc, ValueRange args,
              Type dtype) const override {
    Value x = args[0];
    if (args.size() == 3)
      return createMinMax(b, loc, createMinMax(b, loc, x, args[1], dtype, true),
                          args[2], dtype, false);
    return createMinMax(b, loc, x, args[1], dtype,
                        /*isMax=*/!isTorchNone(op.getMin()));
  }
};

/// The rounding mode of div.Tensor_mode and div.Scalar_mode: "" (None),
/// "trunc" or "floor"; nullopt when it is not a constant.
template <typename OpTy>
static std::optional<StringRef> getRoundingMode(OpTy op) {
  if (isTorchNone(op.getRoundingMode()))
    return StringRef();
  if (auto mode = op.getRoundingMode().template getDefiningOp<ConstantStrOp>())
    return mode.getValue();
  return std::nullopt;
}

/// PyTorch's floor division of floats (c10::div_floor_floating): from fmod,
/// so that a - b * result stays exact, with the quotient rounded to the
/// nearest integer and the sign of zero kept.
static Value createFloatFloorDiv(OpBuilder &b, Location loc, Value lhs,
                                 Value rhs) {
  Type type = lhs.getType();
  Value zero = createFloatConstant(b, loc, type, 0.0);
  Value one = createFloatConstant(b, loc, type, 1.0);
  auto cmp = [&](arith::CmpFPredicate predicate, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, predicate, x, y);
  };
  auto select = [&](Value condition, Value x, Value y) {
    return arith::SelectOp::create(b, loc, condition, x, y);
  };
  Value quotient = arith::DivFOp::create(b, loc, lhs, rhs);
  Value mod = arith::RemFOp::create(b, loc, lhs, rhs);
  Value div = arith::DivFOp::create(
      b, loc, arith::SubFOp::create(b, loc, lhs, mod), rhs);
  // The remainder takes the sign of the divisor: one less.
  Value signsDiffer =
      arith::XOrIOp::create(b, loc, cmp(arith::CmpFPredicate::OLT, rhs, zero),
                            cmp(arith::CmpFPredicate::OLT, mod, zero));
  Value adjust = arith::AndIOp::create(
      b, loc, cmp(arith::CmpFPredicate::UNE, mod, zero), signsDiffer);
  div = select(adjust, arith::SubFOp::create(b, loc, div, one), div);
  Value floored = math::FloorOp::create(b, loc, div);
  Value roundUp = cmp(arith::CmpFPredicate::OGT,
                      arith::SubFOp::create(b, loc, div, floored),
                      createFloatConstant(b, loc, type, 0.5));
  floored =
      select(roundUp, arith::AddFOp::create(b, loc, floored, one), floored);
  Value signedZero = math::CopySignOp::create(b, loc, zero, quotient);
  Value result =
      select(cmp(arith::CmpFPredicate::UNE, div, zero), floored, signedZero);
  return select(cmp(arith::CmpFPredicate::OEQ, rhs, zero), quotient, result);
}

/// The integer remainder of lhs / rhs, truncated (C's %): signed or
/// unsigned. A zero divisor, an error in PyTorch, gives 0 here; so does -1
/// (where INT_MIN % -1 would trap the CPU), which is exact.
static Value createIntRemainder(OpBuilder &b, Location loc, Value lhs,
                                Value rhs, bool isUnsigned) {
  Type type = lhs.getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
  Value unsafe =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  if (!isUnsigned) {
    Value minusOne =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, -1));
    unsafe = arith::OrIOp::create(
        b, loc, unsafe,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne));
  }
  Value divisor = arith::SelectOp::create(b, loc, unsafe, one, rhs);
  if (isUnsigned)
    return arith::RemUIOp::create(b, loc, lhs, divisor);
  return arith::RemSIOp::create(b, loc, lhs, divisor);
}

/// div.Tensor_mode: true division (None), truncation ("trunc") or floor
/// ("floor"), in the result dtype (integer for integer operands unless
/// None).
template <typename OpTy> struct ConvertDivMode : ConvertInResultDtype<OpTy> {
  using ConvertInResultDtype<OpTy>::ConvertInResultDtype;
  StringRef unsupported(OpTy op, Type dtype) const override {
    std::optional<StringRef> mode = getRoundingMode(op);
    if (!mode || (!mode->empty() && *mode != "trunc" && *mode != "floor"))
      return "rounding_mode must be None or the constant 'trunc' or 'floor'";
    if (isa<mlir::FloatType>(dtype))
      return "";
    if (mode->empty() || !isNonBoolInteger(dtype))
      return "unsupported: this division on the result dtype";
    return "";
  }
  Value build(OpTy op, OpBuilder &b, Location loc, ValueRange args,
              Type dtype) const override {
    StringRef mode = *getRoundingMode(op);
    Value lhs = args[0], rhs = args[1];
    if (isa<mlir::FloatType>(dtype)) {
      if (mode.empty())
        return arith::DivFOp::create(b, loc, lhs, rhs);
      if (mode == "trunc")
        return math::TruncOp::create(b, loc,
                                     arith::DivFOp::create(b, loc, lhs, rhs));
      return createFloatFloorDiv(b, loc, lhs, rhs);
    }
    // The CPU traps on an integer division by zero (and on INT_MIN / -1):
    // divide by 1 there instead, give 0 for a zero divisor and report it
    // (PyTorch raises ZeroDivisionError), and -lhs (wrapping, as PyTorch)
    // for -1.
    Type type = lhs.getType();
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
    Value nonZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rhs, zero);
    cf::AssertOp::create(b, loc, nonZero,
                         "integer division by zero, which PyTorch raises as "
                         "ZeroDivisionError");
    if (dtype.isUnsignedInteger()) {
      Value safe = arith::SelectOp::create(b, loc, isZero, one, rhs);
      return arith::SelectOp::create(b, loc, isZero, zero,
                                     arith::DivUIOp::create(b, loc, lhs, safe));
    }
    Value minusOne =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, -1));
    Value isMinusOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne);
    Value safe = arith::SelectOp::create(
        b, loc, arith::OrIOp::create(b, loc, isZero, isMinusOne), one, rhs);
    Value quotient = arith::SelectOp::create(
        b, loc, isMinusOne, arith::SubIOp::create(b, loc, zero, lhs),
        arith::DivSIOp::create(b, loc, lhs, safe));
    quotient = arith::SelectOp::create(b, loc, isZero, zero, quotient);
    if (mode == "trunc")
      return quotient;
    // Floor: one less when the remainder is non-zero and its sign differs
    // from the divisor's.
    Value remainder =
        createIntRemainder(b, loc, lhs, rhs, /*isUnsigned=*/false);
    Value signsDiffer = arith::XOrIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, remainder,
                              zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rhs, zero));
    Value adjust = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, remainder,
                              zero),
        signsDiffer);
    return arith::SelectOp::create(
        b, loc, adjust, arith::SubIOp::create(b, loc, quotient, one), quotient);
  }
};
/// fmod (the remainder with the sign of the dividend, C's fmod and %) and
/// remainder (with the sign of the divisor, Python's %): PyTorch's CPU
/// kernels compute remainder as fmod plus the divisor when the fmod is
/// nonzero and its sign differs from the divisor's.
template <typename OpTy, bool isPython>
struct ConvertRemainder : ConvertInResultDtype<OpTy> {
  using ConvertInResultDtype<OpTy>::ConvertInResultDtype;
  StringRef unsupported(OpTy, Type dtype) const override {
    if (isa<mlir::FloatType>(dtype) || isNonBoolInteger(dtype))
      return "";
    return "unsupported: a remainder of this dtype";
  }
  Value build(OpTy, OpBuilder &b, Location loc, ValueRange args,
              Type dtype) const override {
    Value lhs = args[0], rhs = args[1];
    bool isFloat = isa<mlir::FloatType>(dtype);
    bool isUnsigned = dtype.isUnsignedInteger();
    Value mod = isFloat ? arith::RemFOp::create(b, loc, lhs, rhs).getResult()
                        : createIntRemainder(b, loc, lhs, rhs, isUnsigned);
    if (!isPython || isUnsigned)
      return mod;
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(lhs.getType()));
    Value nonzero, modNegative, rhsNegative, adjusted;
    if (isFloat) {
      nonzero =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, mod, zero);
      modNegative =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, mod, zero);
      rhsNegative =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rhs, zero);
      adjusted = arith::AddFOp::create(b, loc, mod, rhs);
    } else {
      nonzero =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, mod, zero);
      modNegative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, mod, zero);
      rhsNegative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rhs, zero);
      adjusted = arith::AddIOp::create(b, loc, mod, rhs);
    }
    Value adjust = arith::AndIOp::create(
        b, loc, nonzero,
        arith::XOrIOp::create(b, loc, modNegative, rhsNegative));
    return arith::SelectOp::create(b, loc, adjust, adjusted, mod);
  }
};

/// atan2(y, x): math.atan2 in the (float) result dtype.
struct ConvertAtan2 : ConvertInResultDtype<AtenAtan2Op> {
  using ConvertInResultDtype::ConvertInResultDtype;
  StringRef unsupported(AtenAtan2Op, Type dtype) const override {
    return isa<mlir::FloatType>(dtype) ? "" : "unsupported: a non-float atan2";
  }
  Value build(AtenAtan2Op, OpBuilder &b, Location loc, ValueRange args,
              Type) const override {
    return math::Atan2Op::create(b, loc, args[0], args[1]);
  }
};

/// round.decimals(x, d): x * 10^d rounded half to even, divided by 10^d
/// (for d < 0: x / 10^-d rounded, times 10^-d), as PyTorch's CPU kernel.
struct ConvertRoundDecimals : OpConversionPattern<AtenRoundDecimalsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenRoundDecimalsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !isa<mlir::FloatType>(resultType.getElementType()))
      return reportFailure(rewriter, op, "unsupported: a non-float round");
    int64_t decimals;
    if (!matchTorchConstantInt(op.getDecimals(), decimals))
      return reportFailure(rewriter, op, "decimals must be a constant int");
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          Value scale = createFloatConstant(b, loc, x.getType(),
                                            std::pow(10.0, std::abs(decimals)));
          if (decimals >= 0)
            return arith::DivFOp::create(
                b, loc,
                math::RoundEvenOp::create(
                    b, loc, arith::MulFOp::create(b, loc, x, scale)),
                scale);
          return arith::MulFOp::create(
              b, loc,
              math::RoundEvenOp::create(
                  b, loc, arith::DivFOp::create(b, loc, x, scale)),
              scale);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// pow.Scalar(s, exponent): the scalar base to the power of each element.
struct ConvertPowScalar : ConvertInResultDtype<AtenPowScalarOp> {
  using ConvertInResultDtype::ConvertInResultDtype;
  StringRef unsupported(AtenPowScalarOp, Type dtype) const override {
    if (isa<mlir::FloatType>(dtype) || isNonBoolInteger(dtype))
      return "";
    return "unsupported: pow of this dtype";
  }
  Value build(AtenPowScalarOp, OpBuilder &b, Location loc, ValueRange args,
              Type dtype) const override {
    return createPow(b, loc, args[0], args[1], dtype);
  }
};

/// elu(x, alpha, scale, input_scale) = x * scale for x > 0, else
/// (exp(x * input_scale) - 1) * alpha * scale (PyTorch's CPU kernel; NaN stays
/// NaN).
struct ConvertElu : ConvertInResultDtype<AtenEluOp> {
  using ConvertInResultDtype::ConvertInResultDtype;
  StringRef unsupported(AtenEluOp, Type dtype) const override {
    return isa<mlir::FloatType>(dtype) ? "" : "unsupported: a non-float elu";
  }
  Value build(AtenEluOp, OpBuilder &b, Location loc, ValueRange args,
              Type) const override {
    Value x = args[0], alpha = args[1], scale = args[2], inputScale = args[3];
    Value one = createFloatConstant(b, loc, x.getType(), 1.0);
    Value negative = arith::MulFOp::create(
        b, loc,
        arith::SubFOp::create(
            b, loc,
            math::ExpOp::create(b, loc,
                                arith::MulFOp::create(b, loc, x, inputScale)),
            one),
        arith::MulFOp::create(b, loc, alpha, scale));
    Value positive = arith::MulFOp::create(b, loc, x, scale);
    Value isNonPositive =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x,
                              createFloatConstant(b, loc, x.getType(), 0.0));
    return arith::SelectOp::create(b, loc, isNonPositive, negative, positive);
  }
};

/// hardtanh(x, min_val, max_val) = min(max(x, min_val), max_val); NaN stays
/// NaN.
struct ConvertHardtanh : ConvertInResultDtype<AtenHardtanhOp> {
  using ConvertInResultDtype::ConvertInResultDtype;
  StringRef unsupported(AtenHardtanhOp, Type dtype) const override {
    if (isa<mlir::FloatType>(dtype) || isNonBoolInteger(dtype))
      return "";
    return "unsupported: hardtanh of this dtype";
  }
  Value build(AtenHardtanhOp, OpBuilder &b, Location loc, ValueRange args,
              Type dtype) const override {
    return createMinMax(b, loc,
                        createMinMax(b, loc, args[0], args[1], dtype, true),
                        args[2], dtype, false);
  }
};

enum class BitwiseKind { And, Or, Xor, LeftShift, RightShift };

/// bitwise_and/or/xor and the shifts of integer (and, for and/or/xor,
/// bool) tensors. A right shift is arithmetic for signed dtypes, logical
/// for unsigned ones. A shift amount out of [0, width) (negative for a
/// signed dtype, or at least the bit width) gives what PyTorch's CPU kernel
/// gives (ATen's BinaryOpsKernel lshift/rshift): 0 for a left shift, the
/// sign fill (a >> (width - 1)) for a signed right shift, 0 for an unsigned
/// one. arith's shifts by such an amount are poison.
template <typename OpTy, BitwiseKind kind>
struct ConvertBitwise : ConvertInResultDtype<OpTy> {
  using ConvertInResultDtype<OpTy>::ConvertInResultDtype;
  StringRef unsupported(OpTy, Type dtype) const override {
    bool isShift =
        kind == BitwiseKind::LeftShift || kind == BitwiseKind::RightShift;
    if (isNonBoolInteger(dtype) || (!isShift && dtype && dtype.isInteger(1)))
      return "";
    return "unsupported: a bitwise op of a non-integer dtype";
  }
  Value build(OpTy, OpBuilder &b, Location loc, ValueRange args,
              Type dtype) const override {
    Value lhs = args[0], rhs = args[1];
    switch (kind) {
    case BitwiseKind::And:
      return arith::AndIOp::create(b, loc, lhs, rhs);
    case BitwiseKind::Or:
      return arith::OrIOp::create(b, loc, lhs, rhs);
    case BitwiseKind::Xor:
      return arith::XOrIOp::create(b, loc, lhs, rhs);
    case BitwiseKind::LeftShift:
    case BitwiseKind::RightShift:
      return buildShift(b, loc, lhs, rhs, dtype.isUnsignedInteger());
    }
    llvm_unreachable("unknown bitwise kind");
  }

private:
  static Value buildShift(OpBuilder &b, Location loc, Value lhs, Value rhs,
                          bool isUnsigned) {
    Type type = lhs.getType();
    unsigned width = type.getIntOrFloatBitWidth();
    // As unsigned, a negative amount is at least the width too.
    Value tooFar = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, rhs,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, width)));
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
    // The shift itself by an in-range amount (0 in place of the others).
    Value amount = arith::SelectOp::create(b, loc, tooFar, zero, rhs);
    Value shifted, farValue;
    if (kind == BitwiseKind::LeftShift) {
      shifted = arith::ShLIOp::create(b, loc, lhs, amount);
      farValue = zero;
    } else if (isUnsigned) {
      shifted = arith::ShRUIOp::create(b, loc, lhs, amount);
      farValue = zero;
    } else {
      shifted = arith::ShRSIOp::create(b, loc, lhs, amount);
      farValue = arith::ShRSIOp::create(
          b, loc, lhs,
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, width - 1)));
    }
    return arith::SelectOp::create(b, loc, tooFar, farValue, shifted);
  }
};

/// bitwise_not: all bits flipped (logical not for bool).
struct ConvertBitwiseNot : ConvertInResultDtype<AtenBitwiseNotOp> {
  using ConvertInResultDtype::ConvertInResultDtype;
  StringRef unsupported(AtenBitwiseNotOp, Type dtype) const override {
    if (isNonBoolInteger(dtype) || (dtype && dtype.isInteger(1)))
      return "";
    return "unsupported: bitwise_not of a non-integer dtype";
  }
  Value build(AtenBitwiseNotOp, OpBuilder &b, Location loc, ValueRange args,
              Type) const override {
    Value allOnes = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(args[0].getType(), -1));
    return arith::XOrIOp::create(b, loc, args[0], allOnes);
  }
};
} // namespace

void mlir::torch2mlir::populateElementwisePatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenAddTensorOp, AtenSubTensorOp, AtenMulTensorOp,
                    AtenDivTensorOp, AtenAddScalarOp, AtenSubScalarOp,
                    AtenMulScalarOp, AtenDivScalarOp>(target);
  patterns.add<ConvertBinary<AtenAddTensorOp, BinaryKind::Add, true, true>,
               ConvertBinary<AtenSubTensorOp, BinaryKind::Sub, true, true>,
               ConvertBinary<AtenMulTensorOp, BinaryKind::Mul, true, false>,
               ConvertBinary<AtenDivTensorOp, BinaryKind::Div, true, false>,
               ConvertBinary<AtenAddScalarOp, BinaryKind::Add, false, true>,
               ConvertBinary<AtenSubScalarOp, BinaryKind::Sub, false, true>,
               ConvertBinary<AtenMulScalarOp, BinaryKind::Mul, false, false>,
               ConvertBinary<AtenDivScalarOp, BinaryKind::Div, false, false>>(
      typeConverter, context);
  addIllegalCoreOps<AtenReluOp, AtenNegOp, AtenExpOp, Aten_ToCopyOp,
                    AtenViewDtypeOp>(target);
  patterns.add<ConvertRelu, ConvertNeg, ConvertExp, ConvertToCopy,
               ConvertViewDtype>(typeConverter, context);
  addIllegalCoreOps<AtenLogOp, AtenSqrtOp, AtenRsqrtOp, AtenErfOp, AtenTanhOp,
                    AtenSigmoidOp, AtenReciprocalOp, AtenAbsOp, AtenGeluOp>(
      target);
  patterns.add<ConvertLog, ConvertSqrt, ConvertRsqrt, ConvertErf, ConvertTanh,
               ConvertSigmoid, ConvertReciprocal, ConvertAbs, ConvertGelu>(
      typeConverter, context);
  addIllegalCoreOps<AtenFloorOp, AtenCeilOp, AtenSinOp, AtenCosOp, AtenSignOp,
                    AtenLog1pOp, AtenLeakyReluOp>(target);
  patterns.add<ConvertRounding<AtenFloorOp, math::FloorOp>,
               ConvertRounding<AtenCeilOp, math::CeilOp>, ConvertSin,
               ConvertCos, ConvertSign, ConvertLog1p, ConvertLeakyRelu>(
      typeConverter, context);
  addIllegalCoreOps<AtenAsinOp, AtenAcosOp, AtenAtanOp>(target);
  patterns.add<ConvertAsin, ConvertAcos, ConvertAtan>(typeConverter, context);
  addIllegalCoreOps<AtenSiluOp, AtenHardsigmoidOp, AtenHardswishOp>(target);
  patterns.add<ConvertSilu, ConvertHardsigmoid, ConvertHardswish>(typeConverter,
                                                                  context);
  addIllegalCoreOps<AtenPowTensorScalarOp, AtenPowTensorTensorOp, AtenMaximumOp,
                    AtenMinimumOp, AtenClampOp, AtenClampTensorOp,
                    AtenDivTensorModeOp>(target);
  patterns.add<ConvertPowTensorScalar, ConvertPowTensorTensor,
               ConvertMinMax<AtenMaximumOp, true>,
               ConvertMinMax<AtenMinimumOp, false>, ConvertClamp<AtenClampOp>,
               ConvertClamp<AtenClampTensorOp>,
               ConvertDivMode<AtenDivTensorModeOp>>(typeConverter, context);
  addIllegalCoreOps<AtenTanOp, AtenSinhOp, AtenCoshOp, AtenAsinhOp, AtenAcoshOp,
                    AtenAtanhOp, AtenLog2Op, AtenLog10Op, AtenExpm1Op,
                    AtenRoundOp, AtenTruncOp, AtenIsnanOp, AtenIsinfOp,
                    AtenRoundDecimalsOp>(target);
  patterns.add<ConvertTan, ConvertSinh, ConvertCosh, ConvertAsinh, ConvertAcosh,
               ConvertAtanh, ConvertLog2, ConvertLog10, ConvertExpm1,
               ConvertRounding<AtenRoundOp, math::RoundEvenOp>,
               ConvertRounding<AtenTruncOp, math::TruncOp>,
               ConvertFloatClass<AtenIsnanOp, true>,
               ConvertFloatClass<AtenIsinfOp, false>, ConvertRoundDecimals>(
      typeConverter, context);
  addIllegalCoreOps<AtenDivScalarModeOp, AtenFmodTensorOp, AtenFmodScalarOp,
                    AtenRemainderTensorOp, AtenRemainderScalarOp, AtenAtan2Op,
                    AtenPowScalarOp, AtenEluOp, AtenHardtanhOp>(target);
  patterns.add<ConvertDivMode<AtenDivScalarModeOp>,
               ConvertRemainder<AtenFmodTensorOp, false>,
               ConvertRemainder<AtenFmodScalarOp, false>,
               ConvertRemainder<AtenRemainderTensorOp, true>,
               ConvertRemainder<AtenRemainderScalarOp, true>, ConvertAtan2,
               ConvertPowScalar, ConvertElu, ConvertHardtanh>(typeConverter,
                                                              context);
  addIllegalCoreOps<AtenBitwiseAndScalarOp, AtenBitwiseOrScalarOp,
                    AtenBitwiseXorScalarOp>(target);
  patterns.add<ConvertBitwise<AtenBitwiseAndScalarOp, BitwiseKind::And>,
               ConvertBitwise<AtenBitwiseOrScalarOp, BitwiseKind::Or>,
               ConvertBitwise<AtenBitwiseXorScalarOp, BitwiseKind::Xor>>(
      typeConverter, context);
  addIllegalCoreOps<AtenBitwiseAndTensorOp, AtenBitwiseOrTensorOp,
                    AtenBitwiseXorTensorOp, AtenBitwiseLeftShiftTensorOp,
                    AtenBitwiseRightShiftTensorOp, AtenBitwiseNotOp>(target);
  patterns.add<
      ConvertBitwise<AtenBitwiseAndTensorOp, BitwiseKind::And>,
      ConvertBitwise<AtenBitwiseOrTensorOp, BitwiseKind::Or>,
      ConvertBitwise<AtenBitwiseXorTensorOp, BitwiseKind::Xor>,
      ConvertBitwise<AtenBitwiseLeftShiftTensorOp, BitwiseKind::LeftShift>,
      ConvertBitwise<AtenBitwiseRightShiftTensorOp, BitwiseKind::RightShift>,
      ConvertBitwiseNot>(typeConverter, context);
}
