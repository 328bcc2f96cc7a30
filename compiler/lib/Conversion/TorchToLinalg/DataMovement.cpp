//===- DataMovement.cpp - Shape and copy ATen ops to linalg/tensor --------===//
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

/// view(x, sizes): a row-major reshape to the (importer-computed) result
/// type. Under value semantics aliasing does not matter.
struct ConvertAtenView : OpConversionPattern<AtenViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, "result needs a known rank and dtype");
    if (!resultType.hasStaticShape() &&
        llvm::count_if(resultType.getShape(), ShapedType::isDynamic) > 1)
      return reportFailure(rewriter, 
          op, "unsupported: view to more than one dynamic size");
    rewriter.replaceOp(op, createReshape(rewriter, op.getLoc(),
                                         adaptor.getSelf(), resultType));
    return success();
  }
};

/// permute(x, dims) = linalg.transpose.
struct ConvertAtenPermute : OpConversionPattern<AtenPermuteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenPermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, "result needs a known rank and dtype");
    int64_t rank = resultType.getRank();
    SmallVector<int64_t> dims;
    if (!matchTorchConstantIntList(op.getDims(), dims) ||
        static_cast<int64_t>(dims.size()) != rank)
      return reportFailure(rewriter, op, "dims must be a constant permutation");
    for (int64_t &dim : dims) {
      dim = toPositiveDim(dim, rank);
      if (dim < 0)
        return reportFailure(rewriter, op, "dim out of range");
    }
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    if (llvm::equal(dims, llvm::seq<int64_t>(0, rank))) {
      rewriter.replaceOp(op, input);
      return success();
    }
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, input, dims[i]));
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         resultType.getElementType(),
                                         dynamicSizes);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, loc, input,
                                                       init, dims)
                               .getResult());
    return success();
  }
};

/// cat(tensors, dim): each input inserted at its offset along `dim`.
struct ConvertAtenCat : OpConversionPattern<AtenCatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !resultType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: dynamic cat");
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "dim must be a constant");
    int64_t rank = resultType.getRank();
    dim = toPositiveDim(dim, rank);
    if (dim < 0)
      return reportFailure(rewriter, op, "dim out of range");
    Location loc = op.getLoc();
    auto inputs = getConvertedTensorList(rewriter, loc, getTypeConverter(),
                                         op.getTensors());
    if (failed(inputs))
      return reportFailure(rewriter, 
          op, "tensors must come from a torch.prim.ListConstruct");
    Type element = resultType.getElementType();
    Value result = createEmpty(rewriter, loc, resultType);
    int64_t offset = 0;
    for (auto [input, torchInput] :
         llvm::zip(*inputs, op.getTensors()
                               .getDefiningOp<PrimListConstructOp>()
                               .getElements())) {
      auto inputType = cast<RankedTensorType>(input.getType());
      // PyTorch skips legacy empty 1-D inputs of size 0.
      if (inputType.getRank() == 1 && inputType.getDimSize(0) == 0 && rank != 1)
        continue;
      if (inputType.getRank() != rank || !inputType.hasStaticShape())
        return reportFailure(rewriter, op, "inputs must have the result rank");
      if (inputType.getElementType() != element) {
        bool srcUnsigned = getTorchDtype(torchInput) &&
                           getTorchDtype(torchInput).isUnsignedInteger();
        auto castType = RankedTensorType::get(inputType.getShape(), element);
        input = createElementwise(
            rewriter, loc, castType, ValueRange{input},
            [&](OpBuilder &b, Location l, ValueRange args) {
              return convertScalar(b, l, args[0], element, srcUnsigned);
            });
      }
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[dim] = rewriter.getIndexAttr(offset);
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t size : inputType.getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      offset += inputType.getDimSize(dim);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// clone(x) under value semantics is x.
struct ConvertAtenClone : OpConversionPattern<AtenCloneOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCloneOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || resultType != adaptor.getSelf().getType())
      return reportFailure(rewriter, op, "result type differs from input");
    rewriter.replaceOp(op, adaptor.getSelf());
    return success();
  }
};

/// expand(x, sizes): broadcast to the result shape.
struct ConvertAtenExpand : OpConversionPattern<AtenExpandOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !resultType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: dynamic expand");
    rewriter.replaceOp(
        op, createElementwise(rewriter, op.getLoc(), resultType,
                              ValueRange{adaptor.getSelf()},
                              [](OpBuilder &, Location, ValueRange args) {
                                return args[0];
                              }));
    return success();
  }
};

/// tensor_static_info_cast(x): tensor.cast between the builtin types.
struct ConvertTensorStaticInfoCast
    : OpConversionPattern<TensorStaticInfoCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TensorStaticInfoCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !isa<RankedTensorType>(adaptor.getOperand().getType()))
      return reportFailure(rewriter, op, "needs known ranks and dtypes");
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, resultType,
                                                adaptor.getOperand());
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateDataMovementPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<AtenViewOp, AtenPermuteOp, AtenCatOp, AtenCloneOp,
                      AtenExpandOp, TensorStaticInfoCastOp>();
  patterns.add<ConvertAtenView, ConvertAtenPermute, ConvertAtenCat,
               ConvertAtenClone, ConvertAtenExpand, ConvertTensorStaticInfoCast>(
      typeConverter, context);
}
