//===- Pooling.cpp - Pooling ATen ops to linalg ---------------------------===//
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

/// The constant parameters of a 2-D pooling op, with PyTorch's defaults
/// (an empty stride means stride = kernel).
struct Pool2dParams {
  SmallVector<int64_t> kernel, stride, padding, dilation;
  SmallVector<int64_t> padHigh; // padding after, including ceil_mode's extra
};

static LogicalResult matchPool2dParams(ConversionPatternRewriter &rewriter,
                                       Operation *op, Value kernelList,
                                       Value strideList, Value paddingList,
                                       Value dilationList,
                                       RankedTensorType inputType,
                                       RankedTensorType resultType,
                                       Pool2dParams &params) {
  if (inputType.getRank() != 4 || resultType.getRank() != 4)
    return reportFailure(rewriter, 
        op, "unsupported: only batched NCHW input (rank 4)");
  if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
    return reportFailure(rewriter, op, "unsupported: dynamic pooling shapes");
  if (failed(matchIntList(kernelList, 2, params.kernel)))
    return reportFailure(rewriter, op, "kernel_size must be constant");
  SmallVector<int64_t> stride;
  if (!matchTorchConstantIntList(strideList, stride))
    return reportFailure(rewriter, op, "stride must be constant");
  if (stride.empty())
    params.stride = params.kernel;
  else if (failed(matchIntList(strideList, 2, params.stride)))
    return reportFailure(rewriter, op, "stride must have 1 or 2 values");
  if (failed(matchIntList(paddingList, 2, params.padding)))
    return reportFailure(rewriter, op, "padding must be constant");
  params.dilation = {1, 1};
  if (dilationList && failed(matchIntList(dilationList, 2, params.dilation)))
    return reportFailure(rewriter, op, "dilation must be constant");
  for (int i = 0; i < 2; ++i) {
    int64_t in = inputType.getDimSize(2 + i), out = resultType.getDimSize(2 + i);
    // Enough padding after the input for the last window (ceil_mode).
    int64_t needed = (out - 1) * params.stride[i] +
                     params.dilation[i] * (params.kernel[i] - 1) + 1;
    params.padHigh.push_back(
        std::max(params.padding[i], needed - in - params.padding[i]));
  }
  return success();
}

/// max_pool2d: linalg.pooling_nchw_max over the input padded with -inf.
struct ConvertAtenMaxPool2d : OpConversionPattern<AtenMaxPool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenMaxPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, "result needs a known rank and dtype");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    Pool2dParams params;
    if (failed(matchPool2dParams(rewriter, op, op.getKernelSize(),
                                 op.getStride(), op.getPadding(),
                                 op.getDilation(), inputType, resultType,
                                 params)))
      return failure();
    Type element = resultType.getElementType();
    Type dtype = getTorchDtype(op.getSelf());
    if (element.isInteger(1) || (dtype && dtype.isUnsignedInteger()))
      return reportFailure(rewriter, 
          op, "unsupported: max_pool2d of bool or unsigned tensors");
    Location loc = op.getLoc();
    Value lowest = createLowestValue(rewriter, loc, element);
    Value padded = createPad(rewriter, loc, input,
                             {0, 0, params.padding[0], params.padding[1]},
                             {0, 0, params.padHigh[0], params.padHigh[1]},
                             lowest);
    Value init = createFilled(rewriter, loc, resultType, lowest);
    Value window = tensor::EmptyOp::create(rewriter, loc, params.kernel, element);
    rewriter.replaceOpWithNewOp<linalg::PoolingNchwMaxOp>(
        op, TypeRange{resultType}, ValueRange{padded, window}, ValueRange{init},
        rewriter.getI64TensorAttr(params.stride),
        rewriter.getI64TensorAttr(params.dilation));
    return success();
  }
};

/// avg_pool2d: a sum pool over the zero-padded input, divided per output
/// element by PyTorch's divisor: divisor_override if given, else the window
/// size clipped to input + padding (count_include_pad) or to the input.
struct ConvertAtenAvgPool2d : OpConversionPattern<AtenAvgPool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, "result needs a known rank and dtype");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    Pool2dParams params;
    if (failed(matchPool2dParams(rewriter, op, op.getKernelSize(),
                                 op.getStride(), op.getPadding(), Value(),
                                 inputType, resultType, params)))
      return failure();
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op, "unsupported: non-float avg_pool2d");
    bool countIncludePad;
    if (!matchTorchConstantBool(op.getCountIncludePad(), countIncludePad))
      return reportFailure(rewriter, op, "count_include_pad must be constant");
    int64_t divisorOverride = 0;
    if (!isTorchNone(op.getDivisorOverride()) &&
        !matchTorchConstantInt(op.getDivisorOverride(), divisorOverride))
      return reportFailure(rewriter, op, "divisor_override must be constant");

    Location loc = op.getLoc();
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    Value padded = createPad(rewriter, loc, input,
                             {0, 0, params.padding[0], params.padding[1]},
                             {0, 0, params.padHigh[0], params.padHigh[1]}, zero);
    Value init = createFilled(rewriter, loc, resultType, zero);
    Value window = tensor::EmptyOp::create(rewriter, loc, params.kernel, element);
    Value sum = linalg::PoolingNchwSumOp::create(
                    rewriter, loc, TypeRange{resultType},
                    ValueRange{padded, window}, ValueRange{init},
                    rewriter.getI64TensorAttr(params.stride),
                    rewriter.getI64TensorAttr(params.dilation))
                    .getResult(0);

    SmallVector<int64_t> inSizes{inputType.getDimSize(2), inputType.getDimSize(3)};
    Value result = linalg::GenericOp::create(
                       rewriter, loc, TypeRange{resultType}, ValueRange{sum},
                       ValueRange{createEmpty(rewriter, loc, resultType)},
                       ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4),
                                           rewriter.getMultiDimIdentityMap(4)},
                       SmallVector<utils::IteratorType>(
                           4, utils::IteratorType::parallel),
                       [&](OpBuilder &b, Location l, ValueRange args) {
                         Value divisor;
                         if (divisorOverride != 0) {
                           divisor = arith::ConstantOp::create(
                               b, l, b.getFloatAttr(element, divisorOverride));
                         } else {
                           Value count = arith::ConstantIndexOp::create(b, l, 1);
                           for (int i = 0; i < 2; ++i) {
                             auto cst = [&](int64_t v) -> Value {
                               return arith::ConstantIndexOp::create(b, l, v);
                             };
                             Value index = linalg::IndexOp::create(b, l, 2 + i);
                             Value start = arith::SubIOp::create(
                                 b, l,
                                 arith::MulIOp::create(b, l, index,
                                                       cst(params.stride[i])),
                                 cst(params.padding[i]));
                             Value end = arith::MinSIOp::create(
                                 b, l,
                                 arith::AddIOp::create(b, l, start,
                                                       cst(params.kernel[i])),
                                 cst(inSizes[i] + params.padding[i]));
                             if (!countIncludePad) {
                               start = arith::MaxSIOp::create(b, l, start, cst(0));
                               end = arith::MinSIOp::create(b, l, end,
                                                            cst(inSizes[i]));
                             }
                             count = arith::MulIOp::create(
                                 b, l, count, arith::SubIOp::create(b, l, end, start));
                           }
                           Value count64 = arith::IndexCastOp::create(
                               b, l, b.getI64Type(), count);
                           divisor = arith::SIToFPOp::create(b, l, element, count64);
                         }
                         linalg::YieldOp::create(
                             b, l, arith::DivFOp::create(b, l, args[0], divisor).getResult());
                       })
                       .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populatePoolingPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<AtenMaxPool2dOp, AtenAvgPool2dOp>();
  patterns.add<ConvertAtenMaxPool2d, ConvertAtenAvgPool2d>(typeConverter,
                                                           context);
}
