//===- Complex.cpp - complex64/complex128 tensors to linalg ---------------===//
//
// Part of the torch2mlir project.
//
// Complex tensors become tensors of the builtin `complex<f32>` /
// `complex<f64>` (the element layout of PyTorch's complex64/complex128:
// real part, then imaginary part), and their arithmetic the `complex`
// dialect's ops, which the RefBackend expands into real arithmetic
// (convert-complex-to-standard). The views between a complex tensor and its
// [..., 2] real pairs (`view_as_real`, `view_as_complex`) are elementwise
// copies here; PyTorch's FFT ops decompose, before import, into real
// matmuls and these views (torch2mlir/fx/complex_numbers.py).
//
// Only the ops `lowersComplex` names take complex operands: every other
// pattern assumes integer and float elements, so an op outside that set is
// refused by name before any pattern runs.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

/// Whether `value` is a torch tensor with a complex dtype.
static bool isComplexTensor(Value value) {
  auto tensor = dyn_cast<BaseTensorType>(value.getType());
  return tensor && tensor.hasDtype() && isa<ComplexType>(tensor.getDtype());
}

bool torch_to_linalg::lowersComplex(Operation *op) {
  // Ops lowered with complex elements: elementwise arithmetic (Elementwise.cpp
  // and the patterns below), casts and copies (through convertScalar), data
  // movement that only moves elements, scatter (and its sum, product
  // and mean reductions), sums, and mm/bmm (linalg.matmul has
  // complex multiply-add).
  return isa<
      AtenViewAsRealOp, AtenViewAsComplexOp, AtenComplexOp, Aten_ConjOp,
      AtenConjPhysicalOp, AtenAbsOp, AtenNegOp, AtenExpOp, AtenLogOp,
      AtenSqrtOp, AtenRsqrtOp, AtenTanhOp, AtenSinOp, AtenCosOp, AtenTanOp,
      AtenExpm1Op, AtenLog1pOp, AtenSigmoidOp, AtenReciprocalOp,
      AtenAddTensorOp, AtenSubTensorOp, AtenMulTensorOp, AtenDivTensorOp,
      AtenAddScalarOp, AtenSubScalarOp, AtenMulScalarOp, AtenDivScalarOp,
      AtenEqTensorOp, AtenNeTensorOp, AtenEqScalarOp, AtenNeScalarOp,
      AtenWhereSelfOp, Aten_ToCopyOp, AtenCloneOp, AtenCopyOp, AtenViewOp,
      AtenPermuteOp, AtenCatOp, AtenExpandOp, AtenConstantPadNdOp,
      AtenSliceTensorOp, AtenSelectIntOp, AtenFlipOp, AtenIndexSelectOp,
      AtenIndexTensorOp, AtenGatherOp, AtenEmbeddingOp, AtenDiagonalOp,
      AtenRepeatOp, AtenAsStridedOp, AtenScatterSrcOp, AtenScatterValueOp,
      AtenScatterAddOp, AtenScatterReduceOp, AtenScatterValueReduceOp,
      AtenScatterReduceTwoOp, AtenIndexPutOp, AtenMaskedScatterOp,
      AtenSelectScatterOp, AtenSliceScatterOp, AtenDiagonalScatterOp,
      AtenAsStridedScatterOp, AtenFullOp, AtenFullLikeOp, AtenScalarTensorOp,
      AtenFillScalarOp, AtenEmptyMemoryFormatOp, AtenEmptyStridedOp,
      AtenEmptyPermutedOp, AtenNewEmptyOp, AtenNewEmptyStridedOp,
      AtenLogicalNotOp, AtenLogicalAndOp, AtenLogicalOrOp, AtenLogicalXorOp,
      AtenIsnanOp, AtenIsinfOp, AtenLog2Op, AtenLog10Op, AtenSinhOp, AtenCoshOp,
      AtenPowTensorScalarOp, AtenPowTensorTensorOp, AtenPowScalarOp,
      AtenProdDimIntOp, AtenCumsumOp, AtenAnyOp, AtenAnyDimOp, AtenAnyDimsOp,
      AtenNonzeroOp, AtenAsinhOp, AtenAsinOp, AtenAtanhOp, AtenAtanOp,
      AtenAcoshOp, AtenAcosOp, TensorStaticInfoCastOp, ValueTensorLiteralOp,
      PrimListConstructOp, AtenSizeIntOp, AtenDimOp, AtenSumDimIntListOp,
      AtenMmOp, AtenBmmOp>(op);
}

namespace {

/// view_as_real: complex [d0, ..., dn-1] -> real [d0, ..., dn-1, 2] (real
/// part at index 0, imaginary at 1), as PyTorch's view of the same memory.
struct ConvertViewAsReal : OpConversionPattern<AtenViewAsRealOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenViewAsRealOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!inputType || !isa<ComplexType>(inputType.getElementType()))
      return reportFailure(rewriter, op, "needs a complex input");
    int64_t rank = inputType.getRank();
    if (resultType.getRank() != rank + 1 || resultType.getDimSize(rank) != 2)
      return reportFailure(rewriter, op, "needs a result of shape [..., 2]");
    Location loc = op.getLoc();
    // Dims 0..n-1 are the input's; the last (2) is static.
    Value init = createEmpty(rewriter, loc, resultType, input);
    MLIRContext *context = rewriter.getContext();
    // (d0, ..., dn) -> (d0, ..., dn-1); for a 0-d input, () (not
    // getMajorSubMap(0), which is a null map).
    SmallVector<AffineExpr> inputExprs;
    for (int64_t i = 0; i < rank; ++i)
      inputExprs.push_back(getAffineDimExpr(i, context));
    auto inputMap = AffineMap::get(rank + 1, 0, inputExprs, context);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{input},
        ValueRange{init},
        ArrayRef<AffineMap>{inputMap,
                            rewriter.getMultiDimIdentityMap(rank + 1)},
        SmallVector<utils::IteratorType>(rank + 1,
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value part = linalg::IndexOp::create(b, l, rank);
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          Value isReal =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, part, zero);
          Value re = complex::ReOp::create(b, l, args[0]);
          Value im = complex::ImOp::create(b, l, args[0]);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::SelectOp::create(b, l, isReal, re, im)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// view_as_complex: real [d0, ..., dn-1, 2] -> complex [d0, ..., dn-1].
struct ConvertViewAsComplex : OpConversionPattern<AtenViewAsComplexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenViewAsComplexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    auto complexType = dyn_cast<ComplexType>(resultType.getElementType());
    Value input = adaptor.getSelf();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    int64_t rank = resultType.getRank();
    if (!complexType || !inputType ||
        inputType.getElementType() != complexType.getElementType())
      return reportFailure(rewriter, op,
                           "needs a float input and the complex result of "
                           "its precision");
    if (inputType.getRank() != rank + 1 || inputType.getDimSize(rank) != 2)
      return reportFailure(rewriter, op,
                           "needs an input whose last dim has size 2 (eager "
                           "refuses any other)");
    Location loc = op.getLoc();
    // The result's dims are the input's leading ones.
    Value init = createEmpty(rewriter, loc, resultType, input);
    MLIRContext *context = rewriter.getContext();
    auto partMap = [&](int64_t part) {
      SmallVector<AffineExpr> exprs;
      for (int64_t i = 0; i < rank; ++i)
        exprs.push_back(getAffineDimExpr(i, context));
      exprs.push_back(getAffineConstantExpr(part, context));
      return AffineMap::get(rank, 0, exprs, context);
    };
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{input, input},
        ValueRange{init},
        ArrayRef<AffineMap>{partMap(0), partMap(1),
                            rewriter.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l,
                                  ValueRange{complex::CreateOp::create(
                                      b, l, complexType, args[0], args[1])});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// complex(real, imag): broadcasting, both parts of one float dtype (eager
/// refuses mixed ones).
struct ConvertComplex : OpConversionPattern<AtenComplexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenComplexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    auto complexType = dyn_cast<ComplexType>(resultType.getElementType());
    if (!complexType)
      return reportFailure(rewriter, op, "needs a complex result");
    for (Value part : adaptor.getOperands()) {
      auto partType = dyn_cast<RankedTensorType>(part.getType());
      if (!partType || !isa<mlir::FloatType>(partType.getElementType()))
        return reportFailure(rewriter, op, "needs float tensor parts");
    }
    Type part = complexType.getElementType();
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return complex::CreateOp::create(b, l, complexType,
                                           castFloat(b, l, args[0], part),
                                           castFloat(b, l, args[1], part));
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// One complex function of one complex element.
using ComplexFn = Value (*)(OpBuilder &, Location, Value);

/// A unary op on a complex tensor: the result is `fn` of each element (cast
/// first to the result's complex type), or, for `abs`, `isnan`, `isinf`, a
/// real or bool result. Ops
/// on real tensors fail to match here and go to Elementwise.cpp's patterns.
template <typename OpTy, ComplexFn fn>
struct ConvertComplexUnary : OpConversionPattern<OpTy> {
  ConvertComplexUnary(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<OpTy>(converter, context, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isComplexTensor(op->getOperand(0)))
      return failure();
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    Value input = adaptor.getOperands().front();
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, input,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          if (isa<ComplexType>(element))
            return fn(b, l, castFloat(b, l, args[0], element));
          // A real result (abs): computed in the input's precision.
          return convertScalar(b, l, fn(b, l, args[0]), element);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The complex constant `re + i im` of `z`'s type.
static Value createConstantLike(OpBuilder &b, Location loc, Value z, double re,
                                double im) {
  return torch_to_linalg::createComplexConstant(
      b, loc, cast<ComplexType>(z.getType()), re, im);
}
static Value createOne(OpBuilder &b, Location loc, Value z) {
  return createConstantLike(b, loc, z, 1, 0);
}

static Value createConj(OpBuilder &b, Location l, Value z) {
  return complex::ConjOp::create(b, l, z);
}
static Value createAbs(OpBuilder &b, Location l, Value z) {
  return complex::AbsOp::create(b, l, z);
}
static Value createNeg(OpBuilder &b, Location l, Value z) {
  return complex::NegOp::create(b, l, z);
}
static Value createExp(OpBuilder &b, Location l, Value z) {
  return complex::ExpOp::create(b, l, z);
}
static Value createLog(OpBuilder &b, Location l, Value z) {
  return complex::LogOp::create(b, l, z);
}
static Value createSqrt(OpBuilder &b, Location l, Value z) {
  return complex::SqrtOp::create(b, l, z);
}
static Value createRsqrt(OpBuilder &b, Location l, Value z) {
  return complex::RsqrtOp::create(b, l, z);
}
/// `OpTy` of `z`, computed in complex<f64> when `z` is complex<f32> and
/// rounded back. MLIR's expansion of complex tan and tanh cancels near a
/// pole (tan at -1.545 - 0.120i lost 30 ulps in float32); float64 leaves
/// the rounded result within an ulp, as glibc's ctanf/ctanhf that
/// PyTorch's kernels call.
template <typename OpTy>
static Value createWithDoublePrecision(OpBuilder &b, Location l, Value z) {
  auto type = cast<ComplexType>(z.getType());
  if (!type.getElementType().isF32())
    return OpTy::create(b, l, z);
  auto wide = ComplexType::get(b.getF64Type());
  Value result = OpTy::create(b, l, castFloat(b, l, z, wide));
  return castFloat(b, l, result, type);
}
static Value createTanh(OpBuilder &b, Location l, Value z) {
  return createWithDoublePrecision<complex::TanhOp>(b, l, z);
}
static Value createSin(OpBuilder &b, Location l, Value z) {
  return complex::SinOp::create(b, l, z);
}
static Value createCos(OpBuilder &b, Location l, Value z) {
  return complex::CosOp::create(b, l, z);
}
static Value createTan(OpBuilder &b, Location l, Value z) {
  return createWithDoublePrecision<complex::TanOp>(b, l, z);
}
static Value createExpm1(OpBuilder &b, Location l, Value z) {
  return complex::Expm1Op::create(b, l, z);
}
static Value createLog1p(OpBuilder &b, Location l, Value z) {
  return complex::Log1pOp::create(b, l, z);
}
static Value createReciprocal(OpBuilder &b, Location l, Value z) {
  return complex::DivOp::create(b, l, createOne(b, l, z), z);
}
/// log2(z) = log(z) / ln 2, log10(z) = log(z) / ln 10.
static Value createLog2(OpBuilder &b, Location l, Value z) {
  return complex::DivOp::create(b, l, complex::LogOp::create(b, l, z),
                                createConstantLike(b, l, z, M_LN2, 0));
}
static Value createLog10(OpBuilder &b, Location l, Value z) {
  return complex::DivOp::create(b, l, complex::LogOp::create(b, l, z),
                                createConstantLike(b, l, z, M_LN10, 0));
}
/// sinh(z) = (exp(z) - exp(-z)) / 2, cosh(z) = (exp(z) + exp(-z)) / 2.
static Value createSinhOrCosh(OpBuilder &b, Location l, Value z, bool sinh) {
  Value e = complex::ExpOp::create(b, l, z);
  Value en = complex::ExpOp::create(b, l, complex::NegOp::create(b, l, z));
  Value combined = sinh ? complex::SubOp::create(b, l, e, en).getResult()
                        : complex::AddOp::create(b, l, e, en).getResult();
  return complex::MulOp::create(b, l, combined,
                                createConstantLike(b, l, z, 0.5, 0));
}
static Value createSinh(OpBuilder &b, Location l, Value z) {
  return createSinhOrCosh(b, l, z, true);
}
static Value createCosh(OpBuilder &b, Location l, Value z) {
  return createSinhOrCosh(b, l, z, false);
}
/// isnan: either part NaN; isinf: either part infinite.
static Value createIsnan(OpBuilder &b, Location l, Value z) {
  Value re = complex::ReOp::create(b, l, z);
  Value im = complex::ImOp::create(b, l, z);
  return arith::OrIOp::create(
      b, l, arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, re, re),
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, im, im));
}
static Value createIsinf(OpBuilder &b, Location l, Value z) {
  auto isInf = [&](Value part) -> Value {
    Value magnitude = math::AbsFOp::create(b, l, part);
    Value inf = arith::ConstantOp::create(
        b, l,
        b.getFloatAttr(part.getType(),
                       std::numeric_limits<double>::infinity()));
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, magnitude,
                                 inf);
  };
  return arith::OrIOp::create(b, l, isInf(complex::ReOp::create(b, l, z)),
                              isInf(complex::ImOp::create(b, l, z)));
}

/// i * z (exactly: (-Im z, Re z)), or -i * z when `negative`.
static Value createTimesI(OpBuilder &b, Location l, Value z, bool negative) {
  Value re = complex::ReOp::create(b, l, z);
  Value im = complex::ImOp::create(b, l, z);
  if (negative)
    return complex::CreateOp::create(b, l, z.getType(), im,
                                     arith::NegFOp::create(b, l, re));
  return complex::CreateOp::create(b, l, z.getType(),
                                   arith::NegFOp::create(b, l, im), re);
}
/// The inverse functions on their principal branches (those of C99's
/// casinh, casin, catanh, catan, cacosh, cacos, which PyTorch's CPU kernels
/// call): asinh(z) = log(z + sqrt(z^2 + 1)), computed for Re z >= 0 and
/// mirrored (asinh is odd) so that the sum never cancels.
static Value createAsinh(OpBuilder &b, Location l, Value z) {
  Value re = complex::ReOp::create(b, l, z);
  Value zero = arith::ConstantOp::create(b, l, b.getZeroAttr(re.getType()));
  Value negative =
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, re, zero);
  Value w = arith::SelectOp::create(b, l, negative,
                                    complex::NegOp::create(b, l, z), z);
  Value one = createOne(b, l, z);
  Value root = complex::SqrtOp::create(
      b, l,
      complex::AddOp::create(b, l, complex::MulOp::create(b, l, w, w), one));
  Value r = complex::LogOp::create(b, l, complex::AddOp::create(b, l, w, root));
  return arith::SelectOp::create(b, l, negative,
                                 complex::NegOp::create(b, l, r), r);
}
/// asin(z) = -i asinh(i z).
static Value createAsin(OpBuilder &b, Location l, Value z) {
  return createTimesI(b, l, createAsinh(b, l, createTimesI(b, l, z, false)),
                      true);
}
/// atanh(z) = (log1p(z) - log1p(-z)) / 2.
static Value createAtanh(OpBuilder &b, Location l, Value z) {
  Value difference = complex::SubOp::create(
      b, l, complex::Log1pOp::create(b, l, z),
      complex::Log1pOp::create(b, l, complex::NegOp::create(b, l, z)));
  return complex::MulOp::create(b, l, difference,
                                createConstantLike(b, l, z, 0.5, 0));
}
/// atan(z) = -i atanh(i z).
static Value createAtan(OpBuilder &b, Location l, Value z) {
  return createTimesI(b, l, createAtanh(b, l, createTimesI(b, l, z, false)),
                      true);
}
/// acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1)) (Kahan's form: the two
/// square roots keep the branch cut on (-inf, 1]).
static Value createAcosh(OpBuilder &b, Location l, Value z) {
  Value one = createOne(b, l, z);
  Value root = complex::MulOp::create(
      b, l, complex::SqrtOp::create(b, l, complex::AddOp::create(b, l, z, one)),
      complex::SqrtOp::create(b, l, complex::SubOp::create(b, l, z, one)));
  return complex::LogOp::create(b, l, complex::AddOp::create(b, l, z, root));
}
/// acos(z) = pi / 2 - asin(z).
static Value createAcos(OpBuilder &b, Location l, Value z) {
  return complex::SubOp::create(b, l, createConstantLike(b, l, z, M_PI_2, 0),
                                createAsin(b, l, z));
}

/// sigmoid(z) = 1 / (1 + exp(-z)).
static Value createSigmoid(OpBuilder &b, Location l, Value z) {
  Value one = createOne(b, l, z);
  Value e = complex::ExpOp::create(b, l, complex::NegOp::create(b, l, z));
  return complex::DivOp::create(b, l, one,
                                complex::AddOp::create(b, l, one, e));
}

/// _conj / conj_physical: the conjugate of a complex tensor; of a real one,
/// the tensor itself (PyTorch's conj is the identity on real dtypes).
template <typename OpTy> struct ConvertConj : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    if (input.getType() != resultType)
      return reportFailure(rewriter, op, "needs a result of the input's type");
    if (!isa<ComplexType>(resultType.getElementType())) {
      rewriter.replaceOp(op, input);
      return success();
    }
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, input,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return createConj(b, l, args[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The complex dtype a binary op with a complex operand computes in: its
/// result's when complex (PyTorch has promoted it), else (eq/ne) the widest
/// of its tensor operands', made complex (getPromotedDtype has no
/// complex promotion).
static Type getComplexComputeDtype(Operation *op) {
  Type result = getTorchDtype(op->getResult(0));
  if (result && isa<ComplexType>(result))
    return result;
  Type widest;
  for (Value operand : op->getOperands()) {
    auto tensor = dyn_cast<BaseTensorType>(operand.getType());
    if (!tensor || !tensor.hasDtype())
      continue;
    Type dtype = tensor.getDtype();
    if (auto complexType = dyn_cast<ComplexType>(dtype))
      dtype = complexType.getElementType();
    if (isa<mlir::FloatType>(dtype) &&
        (!widest ||
         dtype.getIntOrFloatBitWidth() > widest.getIntOrFloatBitWidth()))
      widest = dtype;
  }
  return widest ? ComplexType::get(widest) : Type();
}

/// A complex function of two complex elements.
using ComplexBinaryFn = Value (*)(OpBuilder &, Location, Value, Value);

/// A binary op with a complex operand (tensors or scalars, broadcast): both
/// converted to the promoted complex dtype, then `fn`. Ops on real operands
/// fail to match here and go to the integer and float patterns.
template <typename OpTy, ComplexBinaryFn fn>
struct ConvertComplexBinary : OpConversionPattern<OpTy> {
  ConvertComplexBinary(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<OpTy>(converter, context, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (llvm::none_of(op->getOperands(), isComplexTensor))
      return failure();
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Type dtype = getComplexComputeDtype(op);
    if (!dtype)
      return reportFailure(rewriter, op, "no complex dtype to compute in");
    if (!areTensorsOrScalars(adaptor.getOperands()))
      return reportFailure(rewriter, op, "unsupported: this operand type");
    Value result = createElementwiseOnOperands(
        rewriter, op.getLoc(), resultType, op->getOperands(),
        adaptor.getOperands(), dtype,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return fn(b, l, args[0], args[1]);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// pow(z, w) = exp(w log z) (complex.pow).
static Value createPow(OpBuilder &b, Location l, Value z, Value w) {
  return complex::PowOp::create(b, l, z, w);
}
/// Equal when both parts are (complex.eq: NaN is unequal).
static Value createEqual(OpBuilder &b, Location l, Value z, Value w) {
  return complex::EqualOp::create(b, l, z, w);
}
static Value createNotEqual(OpBuilder &b, Location l, Value z, Value w) {
  return complex::NotEqualOp::create(b, l, z, w);
}

} // namespace

void mlir::torch2mlir::populateComplexPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addLegalDialect<complex::ComplexDialect>();
  addIllegalCoreOps<AtenViewAsRealOp, AtenViewAsComplexOp, AtenComplexOp,
                    Aten_ConjOp, AtenConjPhysicalOp>(target);
  patterns.add<ConvertViewAsReal, ConvertViewAsComplex, ConvertComplex,
               ConvertConj<Aten_ConjOp>, ConvertConj<AtenConjPhysicalOp>>(
      typeConverter, context);
  // Complex forms of ops Elementwise.cpp and Comparison.cpp lower for
  // integers and floats (benefit 2: tried first, matched only on complex).
  patterns.add<ConvertComplexUnary<AtenAbsOp, createAbs>,
               ConvertComplexUnary<AtenNegOp, createNeg>,
               ConvertComplexUnary<AtenExpOp, createExp>,
               ConvertComplexUnary<AtenLogOp, createLog>,
               ConvertComplexUnary<AtenSqrtOp, createSqrt>,
               ConvertComplexUnary<AtenRsqrtOp, createRsqrt>,
               ConvertComplexUnary<AtenTanhOp, createTanh>,
               ConvertComplexUnary<AtenSinOp, createSin>,
               ConvertComplexUnary<AtenCosOp, createCos>,
               ConvertComplexUnary<AtenTanOp, createTan>,
               ConvertComplexUnary<AtenExpm1Op, createExpm1>,
               ConvertComplexUnary<AtenLog1pOp, createLog1p>,
               ConvertComplexUnary<AtenSigmoidOp, createSigmoid>,
               ConvertComplexUnary<AtenReciprocalOp, createReciprocal>,
               ConvertComplexUnary<AtenLog2Op, createLog2>,
               ConvertComplexUnary<AtenAsinhOp, createAsinh>,
               ConvertComplexUnary<AtenAsinOp, createAsin>,
               ConvertComplexUnary<AtenAtanhOp, createAtanh>,
               ConvertComplexUnary<AtenAtanOp, createAtan>,
               ConvertComplexUnary<AtenAcoshOp, createAcosh>,
               ConvertComplexUnary<AtenAcosOp, createAcos>,
               ConvertComplexUnary<AtenLog10Op, createLog10>,
               ConvertComplexUnary<AtenSinhOp, createSinh>,
               ConvertComplexUnary<AtenCoshOp, createCosh>,
               ConvertComplexUnary<AtenIsnanOp, createIsnan>,
               ConvertComplexUnary<AtenIsinfOp, createIsinf>,
               ConvertComplexBinary<AtenPowTensorScalarOp, createPow>,
               ConvertComplexBinary<AtenPowTensorTensorOp, createPow>,
               ConvertComplexBinary<AtenPowScalarOp, createPow>,
               ConvertComplexBinary<AtenEqTensorOp, createEqual>,
               ConvertComplexBinary<AtenNeTensorOp, createNotEqual>,
               ConvertComplexBinary<AtenEqScalarOp, createEqual>,
               ConvertComplexBinary<AtenNeScalarOp, createNotEqual>>(
      typeConverter, context);
}
