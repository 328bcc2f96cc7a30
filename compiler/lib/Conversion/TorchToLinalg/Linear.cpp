//===- Linear.cpp - Matmuls and convolutions to linalg --------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

/// Checks that every operand has the result's element type (mm, bmm and
/// convolution do not promote in PyTorch).
static LogicalResult checkSameElementType(ConversionPatternRewriter &rewriter,
                                          Operation *op, ValueRange operands,
                                          Type element) {
  for (Value operand : operands)
    if (cast<RankedTensorType>(operand.getType()).getElementType() != element)
      return reportFailure(rewriter, 
          op, "unsupported: operands of different dtypes");
  return success();
}

/// linalg.matmul of `lhs` by the torch value `rhs` (`rhsConverted` is its
/// builtin tensor) accumulating into `init`. When `rhs` is
/// `aten.permute(w, [1, 0])` (how nn.Linear's weight arrives) the matmul
/// reads `w` through transposed indexing maps instead of materializing the
/// transpose on every call.
static Value createMatmul(ConversionPatternRewriter &rewriter,
                          const TypeConverter *converter, Location loc,
                          RankedTensorType resultType, Value lhs, Value rhs,
                          Value rhsConverted, Value init) {
  SmallVector<int64_t> dims;
  auto permute = rhs.getDefiningOp<AtenPermuteOp>();
  if (permute && matchTorchConstantIntList(permute.getDims(), dims) &&
      dims.size() == 2 && toPositiveDim(dims[0], 2) == 1 &&
      toPositiveDim(dims[1], 2) == 0) {
    Value source = permute.getSelf();
    Type sourceType = converter->convertType(source.getType());
    if (sourceType)
      source = converter->materializeTargetConversion(rewriter, loc, sourceType,
                                                      source);
    if (sourceType && source) {
      MLIRContext *context = rewriter.getContext();
      AffineExpr m, n, k;
      bindDims(context, m, n, k);
      auto maps = rewriter.getAffineMapArrayAttr(
          {AffineMap::get(3, 0, {m, k}, context),
           AffineMap::get(3, 0, {n, k}, context),
           AffineMap::get(3, 0, {m, n}, context)});
      return linalg::MatmulOp::create(
                 rewriter, loc, TypeRange{resultType}, ValueRange{lhs, source},
                 ValueRange{init},
                 ArrayRef<NamedAttribute>{
                     rewriter.getNamedAttr("indexing_maps", maps)})
          .getResult(0);
    }
  }
  return linalg::MatmulOp::create(rewriter, loc, TypeRange{resultType},
                                  ValueRange{lhs, rhsConverted},
                                  ValueRange{init})
      .getResult(0);
}

/// mm(a, b) = linalg.matmul into a zero-filled [M, N], and
/// bmm(a, b) = linalg.batch_matmul into a zero-filled [B, M, N]. Result
/// dims come from `a` except the last, from `b`.
template <typename OpTy, typename LinalgOpTy, int64_t rank>
struct ConvertMatmulLike : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    if (!resultType || resultType.getRank() != rank)
      return reportFailure(rewriter, op,
                           "needs a result of rank " + Twine(rank) +
                               " and known dtype");
    Value lhs = adaptor.getSelf(), rhs = adaptor.getMat2();
    if (failed(checkSameElementType(rewriter, op, {lhs, rhs},
                                    resultType.getElementType())))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, i == rank - 1 ? rhs : lhs, i));
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(resultType.getElementType()));
    Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                          resultType.getElementType(),
                                          dynamicSizes);
    Value init =
        linalg::FillOp::create(rewriter, loc, ValueRange{zero}, ValueRange{empty})
            .getResult(0);
    if constexpr (std::is_same_v<LinalgOpTy, linalg::MatmulOp>) {
      rewriter.replaceOp(op, createMatmul(rewriter, this->getTypeConverter(),
                                         loc, resultType, lhs, op.getMat2(),
                                         rhs, init));
      return success();
    }
    rewriter.replaceOpWithNewOp<LinalgOpTy>(
        op, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init});
    return success();
  }
};
using ConvertAtenMm = ConvertMatmulLike<AtenMmOp, linalg::MatmulOp, 2>;
using ConvertAtenBmm = ConvertMatmulLike<AtenBmmOp, linalg::BatchMatmulOp, 3>;

/// addmm(self, a, b, beta, alpha) = beta * self + alpha * (a @ b). With
/// beta = alpha = 1 the matmul accumulates straight into broadcast `self`.
struct ConvertAtenAddmm : OpConversionPattern<AtenAddmmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAddmmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || resultType.getRank() != 2)
      return reportFailure(rewriter, op, "needs a 2-D result of known dtype");
    Type element = resultType.getElementType();
    Value self = adaptor.getSelf(), lhs = adaptor.getMat1(),
          rhs = adaptor.getMat2();
    if (failed(checkSameElementType(rewriter, op, {self, lhs, rhs}, element)))
      return failure();
    Location loc = op.getLoc();
    // Rows come from mat1, columns from mat2 (self may be a broadcast row).
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < 2; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, i == 0 ? lhs : rhs, i));
    double beta = 0, alpha = 0;
    bool unitScales = matchTorchConstantFloat(op.getBeta(), beta) &&
                      matchTorchConstantFloat(op.getAlpha(), alpha) &&
                      beta == 1.0 && alpha == 1.0;
    if (unitScales) {
      Value init = createElementwise(
          rewriter, loc, resultType, ValueRange{self},
          [](OpBuilder &, Location, ValueRange args) { return args[0]; },
          dynamicSizes);
      rewriter.replaceOp(op, createMatmul(rewriter, getTypeConverter(), loc,
                                         resultType, lhs, op.getMat2(), rhs,
                                         init));
      return success();
    }
    if (!isa<IntegerType, mlir::FloatType>(adaptor.getBeta().getType()) ||
        !isa<IntegerType, mlir::FloatType>(adaptor.getAlpha().getType()))
      return reportFailure(rewriter, op, "unsupported: beta/alpha type");
    Value betaValue = convertScalar(rewriter, loc, adaptor.getBeta(), element);
    Value alphaValue = convertScalar(rewriter, loc, adaptor.getAlpha(), element);
    Value product = createMatmul(
        rewriter, getTypeConverter(), loc, resultType, lhs, op.getMat2(), rhs,
        linalg::FillOp::create(
            rewriter, loc,
            ValueRange{arith::ConstantOp::create(rewriter, loc,
                                                 rewriter.getZeroAttr(element))},
            ValueRange{tensor::EmptyOp::create(rewriter, loc,
                                               resultType.getShape(), element,
                                               dynamicSizes)})
            .getResult(0));
    bool isFloat = isa<mlir::FloatType>(element);
    Value result = createElementwise(
        rewriter, loc, resultType, ValueRange{self, product},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          if (isFloat) {
            Value scaledSelf = arith::MulFOp::create(b, l, args[0], betaValue);
            Value scaledProduct =
                arith::MulFOp::create(b, l, args[1], alphaValue);
            return arith::AddFOp::create(b, l, scaledSelf, scaledProduct);
          }
          Value scaledSelf = arith::MulIOp::create(b, l, args[0], betaValue);
          Value scaledProduct = arith::MulIOp::create(b, l, args[1], alphaValue);
          return arith::AddIOp::create(b, l, scaledSelf, scaledProduct);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// 2-D convolution, NCHW x FCHW, with stride, zero padding, dilation and
/// groups; the bias initializes the accumulator.
struct ConvertAtenConvolution : OpConversionPattern<AtenConvolutionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenConvolutionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    if (!resultType || resultType.getRank() != 4 || inputType.getRank() != 4)
      return reportFailure(rewriter, 
          op, "unsupported: only 2-D convolution of batched NCHW input");
    bool transposed;
    if (!matchTorchConstantBool(op.getTransposed(), transposed) || transposed)
      return reportFailure(rewriter, op, "unsupported: transposed convolution");
    SmallVector<int64_t> stride, padding, dilation;
    int64_t groups;
    if (failed(matchIntList(op.getStride(), 2, stride)) ||
        failed(matchIntList(op.getPadding(), 2, padding)) ||
        failed(matchIntList(op.getDilation(), 2, dilation)) ||
        !matchTorchConstantInt(op.getGroups(), groups))
      return reportFailure(rewriter, 
          op, "stride, padding, dilation and groups must be constants");
    Type element = resultType.getElementType();
    if (failed(checkSameElementType(rewriter, op, {input, weight}, element)))
      return failure();
    if (!resultType.hasStaticShape() || !weightType.hasStaticShape() ||
        ShapedType::isDynamic(inputType.getDimSize(1)))
      return reportFailure(rewriter, op, "unsupported: dynamic channels or output");
    Location loc = op.getLoc();

    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    input = createPad(rewriter, loc, input, {0, 0, padding[0], padding[1]},
                      {0, 0, padding[0], padding[1]}, zero);

    // The accumulator: the bias broadcast along dim 1, or zeros.
    Value init;
    if (isTorchNone(op.getBias())) {
      init = createZeroFilled(rewriter, loc, resultType);
    } else {
      Value bias = adaptor.getBias();
      auto biasType = dyn_cast<RankedTensorType>(bias.getType());
      if (!biasType || biasType.getRank() != 1 ||
          biasType.getElementType() != element)
        return reportFailure(rewriter, op, "bias must be 1-D of the result dtype");
      MLIRContext *context = rewriter.getContext();
      Value empty = createEmpty(rewriter, loc, resultType);
      init = linalg::GenericOp::create(
                 rewriter, loc, TypeRange{resultType}, ValueRange{bias},
                 ValueRange{empty},
                 ArrayRef<AffineMap>{
                     AffineMap::get(4, 0, getAffineDimExpr(1, context)),
                     rewriter.getMultiDimIdentityMap(4)},
                 SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
                 [](OpBuilder &b, Location l, ValueRange args) {
                   linalg::YieldOp::create(b, l, args[0]);
                 })
                 .getResult(0);
    }

    auto strides = rewriter.getI64TensorAttr(stride);
    auto dilations = rewriter.getI64TensorAttr(dilation);
    if (groups == 1) {
      rewriter.replaceOpWithNewOp<linalg::Conv2DNchwFchwOp>(
          op, TypeRange{resultType}, ValueRange{input, weight},
          ValueRange{init}, strides, dilations);
      return success();
    }

    // Grouped: split the channel dims into (groups, channels per group).
    auto paddedType = cast<RankedTensorType>(input.getType());
    int64_t n = paddedType.getDimSize(0), c = paddedType.getDimSize(1);
    int64_t f = weightType.getDimSize(0);
    if (groups <= 0 || c % groups != 0 || f % groups != 0)
      return reportFailure(rewriter, op, "channels not divisible by groups");
    auto groupedInputType = RankedTensorType::get(
        {n, groups, c / groups, paddedType.getDimSize(2), paddedType.getDimSize(3)},
        element);
    auto groupedWeightType = RankedTensorType::get(
        {groups, f / groups, weightType.getDimSize(1), weightType.getDimSize(2),
         weightType.getDimSize(3)},
        element);
    auto groupedResultType = RankedTensorType::get(
        {resultType.getDimSize(0), groups, f / groups, resultType.getDimSize(2),
         resultType.getDimSize(3)},
        element);
    SmallVector<ReassociationIndices> splitDim1{{0}, {1, 2}, {3}, {4}};
    SmallVector<ReassociationIndices> splitDim0{{0, 1}, {2}, {3}, {4}};
    Value groupedInput = tensor::ExpandShapeOp::create(
        rewriter, loc, groupedInputType, input, splitDim1);
    Value groupedWeight = tensor::ExpandShapeOp::create(
        rewriter, loc, groupedWeightType, weight, splitDim0);
    Value groupedInit = tensor::ExpandShapeOp::create(
        rewriter, loc, groupedResultType, init, splitDim1);
    Value conv = linalg::Conv2DNgchwGfchwOp::create(
                     rewriter, loc, TypeRange{groupedResultType},
                     ValueRange{groupedInput, groupedWeight},
                     ValueRange{groupedInit}, strides, dilations)
                     .getResult(0);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, resultType, conv,
                                                         splitDim1);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateLinearPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<AtenMmOp, AtenBmmOp, AtenAddmmOp, AtenConvolutionOp>();
  patterns.add<ConvertAtenMm, ConvertAtenBmm, ConvertAtenAddmm,
               ConvertAtenConvolution>(typeConverter, context);
}
