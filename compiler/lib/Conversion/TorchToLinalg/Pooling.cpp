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

static LogicalResult
matchPool2dParams(ConversionPatternRewriter &rewriter, Operation *op,
                  Value kernelList, Value strideList, Value paddingList,
                  Value dilationList, RankedTensorType inputType,
                  RankedTensorType resultType, Pool2dParams &params) {
  if (inputType.getRank() != 4 || resultType.getRank() != 4)
    return reportFailure(rewriter, op,
                         "unsupported: only batched NCHW input (rank 4)");
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
  if (inputType.getShape().take_front(2) != resultType.getShape().take_front(2))
    return reportFailure(rewriter, op,
                         "the declared result's batch and channel sizes are "
                         "not the input's");
  for (int i = 0; i < 2; ++i)
    if (params.kernel[i] <= 0 || params.stride[i] <= 0 ||
        params.dilation[i] <= 0 || params.padding[i] < 0)
      return reportFailure(rewriter, op, "invalid pooling parameters");
  for (int i = 0; i < 2; ++i) {
    int64_t in = inputType.getDimSize(2 + i),
            out = resultType.getDimSize(2 + i);
    if (failed(checkPooledSize(rewriter, op, 2 + i, in, out, params.kernel[i],
                               params.stride[i], params.padding[i],
                               params.dilation[i])))
      return failure();
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
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, kUnknownResultType);
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    Pool2dParams params;
    if (failed(matchPool2dParams(
            rewriter, op, op.getKernelSize(), op.getStride(), op.getPadding(),
            op.getDilation(), inputType, resultType, params)))
      return failure();
    Type element = resultType.getElementType();
    Type dtype = getTorchDtype(op.getSelf());
    if (element.isInteger(1) || (dtype && dtype.isUnsignedInteger()))
      return reportFailure(
          rewriter, op, "unsupported: max_pool2d of bool or unsigned tensors");
    Location loc = op.getLoc();
    Value lowest = createLowestValue(rewriter, loc, element);
    Value padded = createPad(
        rewriter, loc, input, {0, 0, params.padding[0], params.padding[1]},
        {0, 0, params.padHigh[0], params.padHigh[1]}, lowest);
    Value init = createFilled(rewriter, loc, resultType, lowest);
    Value window =
        tensor::EmptyOp::create(rewriter, loc, params.kernel, element);
    rewriter.replaceOpWithNewOp<linalg::PoolingNchwMaxOp>(
        op, TypeRange{resultType}, ValueRange{padded, window}, ValueRange{init},
        rewriter.getI64TensorAttr(params.stride),
        rewriter.getI64TensorAttr(params.dilation));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populatePoolingPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  // avg_pool2d is lowered with the other average pools in NN.cpp.
  target.addIllegalOp<AtenMaxPool2dOp>();
  patterns.add<ConvertAtenMaxPool2d>(typeConverter, context);
}
