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
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, "result needs a known rank and dtype");
    Type element = resultType.getElementType();
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
      otherScalar = convertScalar(rewriter, loc, otherScalar, element);
    }
    Value alpha;
    if constexpr (hasAlpha) {
      int64_t alphaInt;
      if (!matchTorchConstantInt(op.getAlpha(), alphaInt) || alphaInt != 1) {
        alpha = adaptor.getAlpha();
        if (!isa<IntegerType, mlir::FloatType>(alpha.getType()))
          return reportFailure(rewriter, op, "unsupported: alpha type");
        alpha = convertScalar(rewriter, loc, alpha, element);
      }
    }
    if (!isSupported(element))
      return reportFailure(rewriter, 
          op, "unsupported: this operation on the result dtype");
    Value result = createElementwise(
        rewriter, loc, resultType, inputs,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value lhs = convertScalar(b, l, args[0], element, selfUnsigned);
          Value rhs = otherIsTensor
                          ? convertScalar(b, l, args[1], element, otherUnsigned)
                          : otherScalar;
          if (alpha)
            rhs = createBinary(b, l, BinaryKind::Mul, rhs, alpha);
          return createBinary(b, l, kind, lhs, rhs);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Whether `kind` exists for `element` (checked before building IR).
  static bool isSupported(Type element) {
    if (isa<mlir::FloatType>(element))
      return true;
    auto intType = dyn_cast<IntegerType>(element);
    if (!intType || kind == BinaryKind::Div)
      return false;
    return intType.getWidth() != 1 ||
           (kind == BinaryKind::Add || kind == BinaryKind::Mul);
  }
};

/// Unary ops computed in the result dtype.
template <typename OpTy>
struct ConvertUnary : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  /// The op on one element `x`, already cast to the result dtype, which is
  /// unsigned (ui8) when `isUnsigned`.
  virtual Value buildScalar(OpBuilder &b, Location loc, Value x,
                            bool isUnsigned) const = 0;
  virtual bool supports(Type element) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, "result needs a known rank and dtype");
    Type element = resultType.getElementType();
    if (!supports(element))
      return reportFailure(rewriter, op, "unsupported: this dtype");
    bool srcUnsigned = isUnsignedDtype(getTorchDtype(op->getOperand(0)));
    bool dstUnsigned = isUnsignedDtype(getTorchDtype(op->getResult(0)));
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands().front(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = convertScalar(b, l, args[0], element, srcUnsigned,
                                  dstUnsigned);
          return buildScalar(b, l, x, dstUnsigned);
        });
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
  Value buildScalar(OpBuilder &b, Location loc, Value x,
                    bool) const override {
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
  Value buildScalar(OpBuilder &b, Location loc, Value x,
                    bool) const override {
    return math::ExpOp::create(b, loc, x);
  }
};

/// Float-only math, computed in the result dtype (int inputs are cast to
/// the float result first, as PyTorch does).
template <typename OpTy>
struct ConvertFloatMath : ConvertUnary<OpTy> {
  using ConvertUnary<OpTy>::ConvertUnary;
  bool supports(Type element) const override {
    return isa<mlir::FloatType>(element);
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

static Value floatConstant(OpBuilder &b, Location loc, Type type, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
}

T2M_FLOAT_MATH(ConvertLog, AtenLogOp, return math::LogOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertSqrt, AtenSqrtOp, return math::SqrtOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertRsqrt, AtenRsqrtOp,
               return math::RsqrtOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertErf, AtenErfOp, return math::ErfOp::create(b, loc, x);)
T2M_FLOAT_MATH(ConvertTanh, AtenTanhOp, return math::TanhOp::create(b, loc, x);)
// sigmoid(x) = 1 / (1 + exp(-x))
T2M_FLOAT_MATH(ConvertSigmoid, AtenSigmoidOp, {
  Value one = floatConstant(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one, arith::AddFOp::create(b, loc, one, e));
})
T2M_FLOAT_MATH(ConvertReciprocal, AtenReciprocalOp, {
  return arith::DivFOp::create(b, loc, floatConstant(b, loc, x.getType(), 1.0),
                               x);
})
#undef T2M_FLOAT_MATH

/// abs: math.absf, or math.absi on signed integers (unsigned: identity).
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
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !isa<mlir::FloatType>(resultType.getElementType()))
      return reportFailure(rewriter, op, "unsupported: non-float gelu");
    auto approximate = op.getApproximate().getDefiningOp<ConstantStrOp>();
    if (!approximate || (approximate.getValue() != "none" &&
                         approximate.getValue() != "tanh"))
      return reportFailure(rewriter, op,
                           "approximate must be the constant 'none' or 'tanh'");
    bool useTanh = approximate.getValue() == "tanh";
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, ValueRange{adaptor.getSelf()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          Type t = x.getType();
          Value half = floatConstant(b, loc, t, 0.5);
          Value one = floatConstant(b, loc, t, 1.0);
          Value inner;
          if (useTanh) {
            Value cube = arith::MulFOp::create(
                b, loc, x, arith::MulFOp::create(b, loc, x, x));
            Value poly = arith::AddFOp::create(
                b, loc, x,
                arith::MulFOp::create(b, loc, floatConstant(b, loc, t, 0.044715),
                                      cube));
            inner = math::TanhOp::create(
                b, loc,
                arith::MulFOp::create(
                    b, loc, floatConstant(b, loc, t, 0.7978845608028654), poly));
          } else {
            inner = math::ErfOp::create(
                b, loc,
                arith::MulFOp::create(
                    b, loc, x, floatConstant(b, loc, t, 0.7071067811865476)));
          }
          Value factor = arith::AddFOp::create(b, loc, one, inner);
          return arith::MulFOp::create(
              b, loc, arith::MulFOp::create(b, loc, half, x), factor);
        });
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

} // namespace

void mlir::torch2mlir::populateElementwisePatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<AtenAddTensorOp, AtenSubTensorOp, AtenMulTensorOp,
                      AtenDivTensorOp, AtenAddScalarOp, AtenSubScalarOp,
                      AtenMulScalarOp, AtenDivScalarOp>();
  patterns.add<
      ConvertBinary<AtenAddTensorOp, BinaryKind::Add, true, true>,
      ConvertBinary<AtenSubTensorOp, BinaryKind::Sub, true, true>,
      ConvertBinary<AtenMulTensorOp, BinaryKind::Mul, true, false>,
      ConvertBinary<AtenDivTensorOp, BinaryKind::Div, true, false>,
      ConvertBinary<AtenAddScalarOp, BinaryKind::Add, false, true>,
      ConvertBinary<AtenSubScalarOp, BinaryKind::Sub, false, true>,
      ConvertBinary<AtenMulScalarOp, BinaryKind::Mul, false, false>,
      ConvertBinary<AtenDivScalarOp, BinaryKind::Div, false, false>>(
      typeConverter, context);
  target.addIllegalOp<AtenReluOp, AtenNegOp, AtenExpOp, Aten_ToCopyOp>();
  patterns.add<ConvertRelu, ConvertNeg, ConvertExp, ConvertToCopy>(
      typeConverter, context);
  target.addIllegalOp<AtenLogOp, AtenSqrtOp, AtenRsqrtOp, AtenErfOp,
                      AtenTanhOp, AtenSigmoidOp, AtenReciprocalOp, AtenAbsOp,
                      AtenGeluOp>();
  patterns.add<ConvertLog, ConvertSqrt, ConvertRsqrt, ConvertErf, ConvertTanh,
               ConvertSigmoid, ConvertReciprocal, ConvertAbs, ConvertGelu>(
      typeConverter, context);
}
