//===- Normalization.cpp - Normalization ATen ops to linalg ---------------===//
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

/// Inference batch norm:
///   y = (x - running_mean) / sqrt(running_var + eps) * weight + bias
/// per channel (dim 1), in one linalg.generic. The saved mean/invstd
/// results of this op are empty tensors in PyTorch, and here.
struct ConvertNativeBatchNormLegitNoTraining
    : OpConversionPattern<Aten_NativeBatchNormLegitNoTrainingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Aten_NativeBatchNormLegitNoTrainingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult0());
    auto meanType = getConvertedTensorType(getTypeConverter(), op.getResult1());
    auto invstdType =
        getConvertedTensorType(getTypeConverter(), op.getResult2());
    if (!resultType || !meanType || !invstdType || resultType.getRank() < 2)
      return reportFailure(rewriter, op, "needs ranked results (rank >= 2)");
    if (!meanType.hasStaticShape() || !invstdType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: dynamic saved stats");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op, "unsupported: non-float batch norm");
    Location loc = op.getLoc();
    Value eps = adaptor.getEps();
    if (!isa<mlir::FloatType>(eps.getType()))
      return reportFailure(rewriter, op, "eps must be a float");
    eps = convertScalar(rewriter, loc, eps, element);

    int64_t rank = resultType.getRank();
    MLIRContext *context = rewriter.getContext();
    AffineMap channelMap = AffineMap::get(rank, 0, getAffineDimExpr(1, context));
    SmallVector<Value> inputs{adaptor.getInput(), adaptor.getRunningMean(),
                              adaptor.getRunningVar()};
    bool hasWeight = !isTorchNone(op.getWeight());
    bool hasBias = !isTorchNone(op.getBias());
    if (hasWeight)
      inputs.push_back(adaptor.getWeight());
    if (hasBias)
      inputs.push_back(adaptor.getBias());
    for (Value input : inputs)
      if (cast<RankedTensorType>(input.getType()).getElementType() != element)
        return reportFailure(rewriter, op, "unsupported: mixed dtypes");
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank)};
    maps.append(inputs.size() - 1, channelMap);
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Value init = createEmpty(rewriter, loc, resultType, adaptor.getInput());
    Value normalized =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{resultType}, inputs, ValueRange{init},
            maps,
            SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value centered = arith::SubFOp::create(b, l, args[0], args[1]);
              Value invstd = math::RsqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, args[2], eps));
              Value y = arith::MulFOp::create(b, l, centered, invstd);
              size_t next = 3;
              if (hasWeight)
                y = arith::MulFOp::create(b, l, y, args[next++]);
              if (hasBias)
                y = arith::AddFOp::create(b, l, y, args[next++]);
              linalg::YieldOp::create(b, l, y);
            })
            .getResult(0);
    Value mean = tensor::EmptyOp::create(rewriter, loc, meanType.getShape(),
                                         meanType.getElementType());
    Value invstd = tensor::EmptyOp::create(rewriter, loc, invstdType.getShape(),
                                           invstdType.getElementType());
    rewriter.replaceOp(op, {normalized, mean, invstd});
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateNormalizationPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  target.addIllegalOp<Aten_NativeBatchNormLegitNoTrainingOp>();
  patterns.add<ConvertNativeBatchNormLegitNoTraining>(typeConverter,
                                                      patterns.getContext());
}
