//===- Linear.cpp - Matmuls and convolutions to TOSA ----------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// TOSA's matmul is batched and rank 3 ([N, H, C] x [N, C, W]); its
// convolutions are NHWC with OHWI weights (depthwise: HWCM). The patterns
// reshape and transpose around them. f16 and bf16 accumulate in f32 and
// round once (as PyTorch's CPU kernels), i8 accumulates in i32.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToTosa/TorchToTosa.h"

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_tosa;

namespace {

/// mm, bmm and matmul.
template <typename TorchOp>
struct ConvertMatmul : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getConvertedType(this->getTypeConverter(), op.getResult());
    if (failed(
            checkTosaTensor(rewriter, op, op.getResult(), type, "a result")) ||
        failed(checkTosaTensor(
            rewriter, op, op->getOperand(0),
            getConvertedType(this->getTypeConverter(), op->getOperand(0)),
            "an operand")) ||
        failed(checkTosaTensor(
            rewriter, op, op->getOperand(1),
            getConvertedType(this->getTypeConverter(), op->getOperand(1)),
            "an operand")))
      return failure();
    Value result = createMatmul(rewriter, op.getLoc(), adaptor.getOperands()[0],
                                adaptor.getOperands()[1], type);
    if (!result)
      return reportFailure(rewriter, op,
                           "unsupported: operands of rank < 2, of different "
                           "dtypes, or with broadcast batch dims (TOSA's "
                           "matmul is [N, H, C] x [N, C, W])");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// linear(x, w, b) = x @ w^T + b; addmm(self, a, b, beta, alpha) = beta
/// self + alpha (a @ b).
struct ConvertLinear : OpConversionPattern<AtenLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    auto type = getConvertedType(converter, op.getResult());
    if (failed(
            checkTosaTensor(rewriter, op, op.getResult(), type, "a result")) ||
        failed(checkTosaTensor(rewriter, op, op.getInput(),
                               getConvertedType(converter, op.getInput()),
                               "the input")) ||
        failed(checkTosaTensor(rewriter, op, op.getWeight(),
                               getConvertedType(converter, op.getWeight()),
                               "the weight")))
      return failure();
    Location loc = op.getLoc();
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    if (weightType.getRank() != 2)
      return reportFailure(rewriter, op, "the weight must be 2-D");
    Value weight = createTranspose(rewriter, loc, adaptor.getWeight(), {1, 0});
    Value result =
        createMatmul(rewriter, loc, adaptor.getInput(), weight, type);
    if (!result)
      return reportFailure(rewriter, op,
                           "unsupported: an input of rank < 2 or of another "
                           "dtype than the weight");
    if (!isTorchNone(op.getBias())) {
      auto biasType = getConvertedType(converter, op.getBias());
      if (failed(checkTosaTensor(rewriter, op, op.getBias(), biasType,
                                 "the bias")))
        return failure();
      Value bias = expandRank(
          rewriter, loc,
          createCast(rewriter, loc, adaptor.getBias(), type.getElementType()),
          type.getRank());
      result = tosa::AddOp::create(rewriter, loc, type, result, bias);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertAddmm : OpConversionPattern<AtenAddmmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAddmmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    auto type = getConvertedType(converter, op.getResult());
    if (failed(checkTosaTensor(rewriter, op, op.getResult(), type, "a result")))
      return failure();
    for (Value operand : {op.getSelf(), op.getMat1(), op.getMat2()})
      if (failed(checkTosaTensor(rewriter, op, operand,
                                 getConvertedType(converter, operand),
                                 "an operand")))
        return failure();
    double beta, alpha;
    if (!matchTorchConstantFloat(op.getBeta(), beta) ||
        !matchTorchConstantFloat(op.getAlpha(), alpha) ||
        !isa<mlir::FloatType>(type.getElementType()))
      return reportFailure(rewriter, op,
                           "unsupported: beta and alpha computed at run time, "
                           "or a non-float result");
    Location loc = op.getLoc();
    Value product =
        createMatmul(rewriter, loc, adaptor.getMat1(), adaptor.getMat2(), type);
    if (!product)
      return reportFailure(rewriter, op,
                           "mat1 and mat2 must be 2-D of one "
                           "dtype");
    Type element = type.getElementType();
    auto scaled = [&](Value x, double scale) -> Value {
      if (scale == 1.0)
        return x;
      return createMul(rewriter, loc, type, x,
                       createScalar(rewriter, loc, element, scale, 2));
    };
    Value self =
        expandRank(rewriter, loc,
                   createCast(rewriter, loc, adaptor.getSelf(), element), 2);
    rewriter.replaceOpWithNewOp<tosa::AddOp>(op, type, scaled(self, beta),
                                             scaled(product, alpha));
    return success();
  }
};

/// The TOSA padding [before, after] of one spatial dim: PyTorch's
/// symmetric `padding`, with `after` shrunk so that the window count is
/// exact (TOSA requires (in - 1 + before + after - (k - 1) d) to divide by
/// the stride; PyTorch drops the rows a last partial window would read).
/// `extraAfter` adds padding after (pooling's ceil_mode). Returns the rows
/// of the input to drop at the end when even `after` = 0 is too much.
int64_t exactPadding(int64_t in, int64_t kernel, int64_t stride,
                     int64_t padding, int64_t dilation, int64_t out,
                     int64_t &before, int64_t &after) {
  before = padding;
  // The padding after that makes `out` windows exact.
  int64_t needed = (out - 1) * stride + (kernel - 1) * dilation + 1;
  after = needed - in - before;
  if (after >= 0)
    return 0;
  int64_t drop = -after;
  after = 0;
  return drop;
}

/// Convolution 1- and 2-D, plain (not transposed), as tosa.conv2d (one
/// per group) or tosa.depthwise_conv2d (groups = input channels) on NHWC. A 1-D
/// convolution is a 2-D one of height 1.
struct ConvertConvolution : OpConversionPattern<AtenConvolutionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenConvolutionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    auto type = getConvertedType(converter, op.getResult());
    auto inputType = getConvertedType(converter, op.getInput());
    auto weightType = getConvertedType(converter, op.getWeight());
    if (failed(
            checkTosaTensor(rewriter, op, op.getResult(), type, "a result")) ||
        failed(checkTosaTensor(rewriter, op, op.getInput(), inputType,
                               "the input")) ||
        failed(checkTosaTensor(rewriter, op, op.getWeight(), weightType,
                               "the weight")))
      return failure();
    Type element = type.getElementType();
    Type acc = getAccumulatorType(element);
    if (!acc || inputType.getElementType() != element ||
        weightType.getElementType() != element)
      return reportFailure(rewriter, op,
                           "unsupported: operands of different dtypes, or a "
                           "dtype TOSA has no convolution of");
    bool transposed;
    int64_t groups;
    SmallVector<int64_t> stride, padding, dilation;
    if (!matchTorchConstantBool(op.getTransposed(), transposed) ||
        !matchTorchConstantInt(op.getGroups(), groups) ||
        !matchTorchConstantIntList(op.getStride(), stride) ||
        !matchTorchConstantIntList(op.getPadding(), padding) ||
        !matchTorchConstantIntList(op.getDilation(), dilation))
      return reportFailure(rewriter, op,
                           "stride, padding, dilation, transposed and groups "
                           "must be constants");
    int64_t rank = inputType.getRank();
    int64_t spatial = rank - 2;
    if (llvm::any_of(stride, [](int64_t s) { return s <= 0; }) ||
        llvm::any_of(dilation, [](int64_t d) { return d <= 0; }) ||
        llvm::any_of(padding, [](int64_t p) { return p < 0; }) || groups <= 0)
      return reportFailure(rewriter, op,
                           "invalid stride, dilation, padding or groups");
    if (transposed)
      return reportFailure(rewriter, op,
                           "unsupported: transposed convolution (TOSA "
                           "backend)");
    if ((spatial != 1 && spatial != 2) || stride.size() != size_t(spatial) ||
        padding.size() != size_t(spatial) || dilation.size() != size_t(spatial))
      return reportFailure(rewriter, op,
                           "unsupported: a convolution other than 1-D or 2-D "
                           "batched (TOSA backend)");
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    SmallVector<int64_t> outShape(type.getShape());
    if (spatial == 1) {
      // [N, C, L] as [N, C, 1, L].
      auto inShape = inputType.getShape();
      input = createReshape(rewriter, loc, input,
                            {inShape[0], inShape[1], 1, inShape[2]});
      auto wShape = weightType.getShape();
      weight = createReshape(rewriter, loc, weight,
                             {wShape[0], wShape[1], 1, wShape[2]});
      outShape.insert(outShape.begin() + 2, 1);
      stride.insert(stride.begin(), 1);
      padding.insert(padding.begin(), 0);
      dilation.insert(dilation.begin(), 1);
    }
    auto inShape = cast<RankedTensorType>(input.getType()).getShape();
    auto wShape = cast<RankedTensorType>(weight.getType()).getShape();
    int64_t channels = inShape[1], features = wShape[0];
    bool depthwise = groups == channels && groups > 1 && wShape[1] == 1;
    if (channels % groups || features % groups ||
        wShape[1] * groups != channels)
      return reportFailure(rewriter, op,
                           "the channels and features do not divide into "
                           "the groups");
    // Pads, and input rows/columns no window reads.
    SmallVector<int64_t> pad(4);
    SmallVector<int64_t> keep = {inShape[2], inShape[3]};
    for (int i = 0; i < 2; ++i) {
      // The declared size must be PyTorch's: floor((in + 2p - d (k - 1) -
      // 1) / s) + 1 (the padding below is derived from it).
      int64_t span = inShape[2 + i] + 2 * padding[i] -
                     dilation[i] * (wShape[2 + i] - 1) - 1;
      if (span < 0 || outShape[2 + i] != span / stride[i] + 1)
        return reportFailure(rewriter, op,
                             "the declared result size is not what the "
                             "window parameters give");
      int64_t drop = exactPadding(inShape[2 + i], wShape[2 + i], stride[i],
                                  padding[i], dilation[i], outShape[2 + i],
                                  pad[2 * i], pad[2 * i + 1]);
      keep[i] -= drop;
    }
    Value nhwc = createTranspose(rewriter, loc, input, {0, 2, 3, 1});
    if (keep[0] != inShape[2] || keep[1] != inShape[3]) {
      SmallVector<int64_t> sizes = {inShape[0], keep[0], keep[1], channels};
      nhwc = tosa::SliceOp::create(
          rewriter, loc, RankedTensorType::get(sizes, element), nhwc,
          createConstShape(rewriter, loc, {0, 0, 0, 0}),
          createConstShape(rewriter, loc, sizes));
    }
    Value bias;
    if (isTorchNone(op.getBias())) {
      auto biasType = RankedTensorType::get({1}, element);
      bias = tosa::ConstOp::create(
          rewriter, loc, biasType,
          DenseElementsAttr::get(biasType, rewriter.getZeroAttr(element)));
    } else {
      auto biasType = getConvertedType(converter, op.getBias());
      if (failed(checkTosaTensor(rewriter, op, op.getBias(), biasType,
                                 "the bias")))
        return failure();
      bias = createCast(rewriter, loc, adaptor.getBias(), element);
    }
    SmallVector<int64_t> nhwcOut = {outShape[0], outShape[2], outShape[3],
                                    features};
    auto convType = RankedTensorType::get(nhwcOut, element);
    auto zeroPoint = [&]() {
      return *tosa::createZeroPointTensor(rewriter, loc, element, 0);
    };
    Value conv;
    if (depthwise) {
      // [C*M, 1, KH, KW] -> [KH, KW, C, M].
      int64_t multiplier = features / channels;
      Value w = createReshape(rewriter, loc, weight,
                              {channels, multiplier, wShape[2], wShape[3]});
      w = createTranspose(rewriter, loc, w, {2, 3, 0, 1});
      conv = tosa::DepthwiseConv2DOp::create(
          rewriter, loc, convType, nhwc, w, bias, zeroPoint(), zeroPoint(),
          rewriter.getDenseI64ArrayAttr(pad),
          rewriter.getDenseI64ArrayAttr(stride),
          rewriter.getDenseI64ArrayAttr(dilation), TypeAttr::get(acc));
    } else {
      // Groups other than depthwise: one tosa.conv2d per group, on its
      // slice of the input channels, features and bias, concatenated.
      Value w = createTranspose(rewriter, loc, weight, {0, 2, 3, 1});
      int64_t groupChannels = channels / groups;
      int64_t groupFeatures = features / groups;
      auto sliceLast = [&](Value value, int64_t dim, int64_t start,
                           int64_t size) -> Value {
        auto valueType = cast<RankedTensorType>(value.getType());
        if (valueType.getDimSize(dim) == size)
          return value;
        SmallVector<int64_t> begin(valueType.getRank(), 0);
        SmallVector<int64_t> sizes(valueType.getShape());
        begin[dim] = start;
        sizes[dim] = size;
        return tosa::SliceOp::create(rewriter, loc, valueType.clone(sizes),
                                     value,
                                     createConstShape(rewriter, loc, begin),
                                     createConstShape(rewriter, loc, sizes));
      };
      SmallVector<Value> parts;
      SmallVector<int64_t> groupOut = {outShape[0], outShape[2], outShape[3],
                                       groupFeatures};
      bool sharedBias =
          cast<RankedTensorType>(bias.getType()).getDimSize(0) != features;
      for (int64_t g = 0; g < groups; ++g) {
        parts.push_back(tosa::Conv2DOp::create(
            rewriter, loc, RankedTensorType::get(groupOut, element),
            sliceLast(nhwc, 3, g * groupChannels, groupChannels),
            sliceLast(w, 0, g * groupFeatures, groupFeatures),
            sharedBias ? bias
                       : sliceLast(bias, 0, g * groupFeatures, groupFeatures),
            zeroPoint(), zeroPoint(), rewriter.getDenseI64ArrayAttr(pad),
            rewriter.getDenseI64ArrayAttr(stride),
            rewriter.getDenseI64ArrayAttr(dilation), TypeAttr::get(acc)));
      }
      conv = parts.size() == 1
                 ? parts.front()
                 : tosa::ConcatOp::create(rewriter, loc, convType, parts,
                                          rewriter.getI32IntegerAttr(3))
                       .getResult();
    }
    Value result = createTranspose(rewriter, loc, conv, {0, 3, 1, 2});
    rewriter.replaceOp(op,
                       createReshape(rewriter, loc, result, type.getShape()));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateTosaLinearPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<AtenMmOp, AtenBmmOp, AtenMatmulOp, AtenLinearOp,
                      AtenAddmmOp, AtenConvolutionOp>();
  patterns.add<ConvertMatmul<AtenMmOp>, ConvertMatmul<AtenBmmOp>,
               ConvertMatmul<AtenMatmulOp>, ConvertLinear, ConvertAddmm,
               ConvertConvolution>(typeConverter, context);
}
