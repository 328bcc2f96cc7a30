//===- Indexing.cpp - Gathers to TOSA -------------------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// embedding, index_select and gather become `tosa.gather` (values
// [N, K, C], si32 indices [N, W] -> [N, W, C]). TOSA has no run-time
// checks, and an index out of range reads outside the tensor: each of
// these lowers only when the torch-narrow-si64 pass proved its indices in
// bounds (`torch2mlir.indices_in_bounds`) and narrowed them to si32.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToTosa/TorchToTosa.h"

#include "Utils.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_tosa;

namespace {

/// Checks what every gather needs: a TOSA result, TOSA values, integer
/// indices proved in bounds; returns the indices as si32 (converted).
FailureOr<Value> getCheckedIndices(ConversionPatternRewriter &rewriter,
                                   const TypeConverter *converter,
                                   Operation *op, Value values,
                                   Value torchIndices, Value indices,
                                   RankedTensorType &type) {
  type = getConvertedType(converter, op->getResult(0));
  if (failed(
          checkTosaTensor(rewriter, op, op->getResult(0), type, "a result")) ||
      failed(checkTosaTensor(rewriter, op, values,
                             getConvertedType(converter, values), "the input")))
    return failure();
  auto indexType = getConvertedType(converter, torchIndices);
  if (failed(checkTosaTensor(rewriter, op, torchIndices, indexType,
                             "an index tensor")))
    return failure();
  if (!indexType.getElementType().isInteger() ||
      indexType.getElementType().isInteger(1))
    return reportFailure(rewriter, op, "the indices must be integers");
  if (!op->hasAttr("torch2mlir.indices_in_bounds"))
    return reportFailure(
        rewriter, op,
        "unsupported: indices not proved within the indexed size (TOSA has "
        "no run-time checks, and the torch-narrow-si64 pass bounds only "
        "indices from the arguments, constants, arange and their "
        "arithmetic). Way out: backend=\"linalg-on-tensors\", which checks "
        "them at run time");
  if (type.getNumElements() >= std::numeric_limits<int32_t>::max() ||
      cast<RankedTensorType>(indices.getType()).getNumElements() >=
          std::numeric_limits<int32_t>::max())
    return reportFailure(rewriter, op,
                         "unsupported: more than 2^31 elements (TOSA's "
                         "indices are si32)");
  return createCast(rewriter, op->getLoc(), indices, rewriter.getI32Type());
}

/// Replaces `op` by the `tosa.gather` of `values` [N, K, C] at `indices`
/// [N, W], reshaped to `type`.
void replaceWithGather(ConversionPatternRewriter &rewriter, Operation *op,
                       Value values, Value indices, RankedTensorType type) {
  auto valuesType = cast<RankedTensorType>(values.getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  auto gatheredType = RankedTensorType::get({valuesType.getDimSize(0),
                                             indicesType.getDimSize(1),
                                             valuesType.getDimSize(2)},
                                            valuesType.getElementType());
  Value gathered = tosa::GatherOp::create(rewriter, op->getLoc(), gatheredType,
                                          values, indices);
  rewriter.replaceOp(
      op, createReshape(rewriter, op->getLoc(), gathered, type.getShape()));
}

/// embedding(weight [V, D], indices) -> rows of weight: [..., D].
struct ConvertEmbedding : OpConversionPattern<AtenEmbeddingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenEmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type;
    FailureOr<Value> indices =
        getCheckedIndices(rewriter, getTypeConverter(), op, op.getWeight(),
                          op.getIndices(), adaptor.getIndices(), type);
    if (failed(indices))
      return failure();
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    if (weightType.getRank() != 2)
      return reportFailure(rewriter, op, "the weight must be 2-D");
    Location loc = op.getLoc();
    int64_t count = cast<RankedTensorType>(indices->getType()).getNumElements();
    Value values =
        createReshape(rewriter, loc, adaptor.getWeight(),
                      {1, weightType.getDimSize(0), weightType.getDimSize(1)});
    replaceWithGather(rewriter, op, values,
                      createReshape(rewriter, loc, *indices, {1, count}), type);
    return success();
  }
};

/// index_select(self, dim, index [K]): self as [outer, size, inner], the
/// index tiled over outer.
struct ConvertIndexSelect : OpConversionPattern<AtenIndexSelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenIndexSelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type;
    FailureOr<Value> indices =
        getCheckedIndices(rewriter, getTypeConverter(), op, op.getSelf(),
                          op.getIndex(), adaptor.getIndex(), type);
    if (failed(indices))
      return failure();
    auto selfType = cast<RankedTensorType>(adaptor.getSelf().getType());
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "the dim must be a constant");
    int64_t rank = std::max<int64_t>(selfType.getRank(), 1);
    dim = toPositiveDim(dim, rank);
    if (dim < 0 || dim >= rank)
      return reportFailure(rewriter, op, "dim out of range");
    ArrayRef<int64_t> sizes = selfType.getShape();
    int64_t outer = computeProduct(sizes.take_front(dim));
    int64_t size = sizes.empty() ? 1 : sizes[dim];
    int64_t inner =
        sizes.empty() ? 1 : computeProduct(sizes.drop_front(dim + 1));
    int64_t count = cast<RankedTensorType>(indices->getType()).getNumElements();
    Location loc = op.getLoc();
    Value values =
        createReshape(rewriter, loc, adaptor.getSelf(), {outer, size, inner});
    Value index = createReshape(rewriter, loc, *indices, {1, count});
    if (outer != 1)
      index = tosa::TileOp::create(
          rewriter, loc,
          RankedTensorType::get({outer, count}, rewriter.getI32Type()), index,
          createConstShape(rewriter, loc, {outer, 1}));
    replaceWithGather(rewriter, op, values, index, type);
    return success();
  }
};

/// gather(self, dim, index): out[j] = self[j with j[dim] = index[j]], as a
/// gather of self flattened at the linear offsets index[j] * stride[dim] +
/// sum over d != dim of j[d] * stride[d] (the second term a constant).
struct ConvertGather : OpConversionPattern<AtenGatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type;
    FailureOr<Value> indices =
        getCheckedIndices(rewriter, getTypeConverter(), op, op.getSelf(),
                          op.getIndex(), adaptor.getIndex(), type);
    if (failed(indices))
      return failure();
    auto selfType = cast<RankedTensorType>(adaptor.getSelf().getType());
    auto indexType = cast<RankedTensorType>(indices->getType());
    int64_t rank = selfType.getRank();
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "the dim must be a constant");
    dim = toPositiveDim(dim, std::max<int64_t>(rank, 1));
    if (rank == 0 || indexType.getRank() != rank || dim < 0 || dim >= rank)
      return reportFailure(rewriter, op,
                           "unsupported: a 0-d input, or an index of another "
                           "rank than the input");
    SmallVector<int64_t> strides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * selfType.getDimSize(d + 1);
    ArrayRef<int64_t> indexShape = indexType.getShape();
    int64_t count = indexType.getNumElements();
    SmallVector<int32_t> offsets(count);
    SmallVector<int64_t> position(rank, 0);
    for (int64_t i = 0; i < count; ++i) {
      int64_t offset = 0;
      for (int64_t d = 0; d < rank; ++d)
        if (d != dim)
          offset += position[d] * strides[d];
      offsets[i] = static_cast<int32_t>(offset);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++position[d] < indexShape[d])
          break;
        position[d] = 0;
      }
    }
    Location loc = op.getLoc();
    auto offsetType = RankedTensorType::get(indexShape, rewriter.getI32Type());
    Value base = tosa::ConstOp::create(
        rewriter, loc, offsetType,
        DenseElementsAttr::get(offsetType, ArrayRef<int32_t>(offsets)));
    Value linear = *indices;
    if (strides[dim] != 1)
      linear = createMul(rewriter, loc, offsetType, linear,
                         createScalar(rewriter, loc, rewriter.getI32Type(),
                                      static_cast<double>(strides[dim]), rank));
    linear = tosa::AddOp::create(rewriter, loc, offsetType, linear, base);
    Value values = createReshape(rewriter, loc, adaptor.getSelf(),
                                 {1, selfType.getNumElements(), 1});
    replaceWithGather(rewriter, op, values,
                      createReshape(rewriter, loc, linear, {1, count}), type);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateTosaIndexingPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  target.addIllegalOp<AtenEmbeddingOp, AtenIndexSelectOp, AtenGatherOp>();
  patterns.add<ConvertEmbedding, ConvertIndexSelect, ConvertGather>(
      typeConverter, patterns.getContext());
}
