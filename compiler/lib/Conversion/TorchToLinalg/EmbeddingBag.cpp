//===- EmbeddingBag.cpp - Embedding bags to linalg ------------------------===//
//
// Part of the torch2mlir project.
//
// _embedding_bag: the sum, mean or max of the embedding rows of each bag
// (a segmented reduction over the indices).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

//===----------------------------------------------------------------------===//
// Embedding bags
//===----------------------------------------------------------------------===//

/// _embedding_bag(_forward_only)(weight [V, D], indices [L], offsets, ...,
/// mode, per_sample_weights, include_last_offset, padding_idx): bag b holds
/// indices[offsets[b] : offsets[b + 1]] (the last bag runs to L unless
/// include_last_offset); entries equal to padding_idx are skipped. Output
/// row b is the sum (weighted by per_sample_weights), mean or max of the
/// bag's weight rows, zeros for an empty bag. One generic over [B, D] with
/// a reduction over all L indices. Only the first result (the output) is
/// computed: the op fails when offset2bag, bag_size or max_indices are
/// used.
template <typename OpTy>
struct ConvertEmbeddingBag : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (int i = 1; i < 4; ++i)
      if (!op->getResult(i).use_empty())
        return reportFailure(rewriter, op,
                             "unsupported: offset2bag, bag_size or "
                             "max_indices results are used");
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op->getResult(0));
    Value weight = adaptor.getWeight(), indices = adaptor.getIndices(),
          offsets = adaptor.getOffsets();
    auto weightType = cast<RankedTensorType>(weight.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    auto offsetsType = cast<RankedTensorType>(offsets.getType());
    if (!resultType || resultType.getRank() != 2 || weightType.getRank() != 2 ||
        indicesType.getRank() != 1 || offsetsType.getRank() != 1)
      return reportFailure(rewriter, op,
                           "expects 2-D weight, 1-D indices and offsets");
    if (!indicesType.hasStaticShape() || !offsetsType.hasStaticShape())
      return reportFailure(rewriter, op,
                           "unsupported: dynamic indices or offsets");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element) ||
        weightType.getElementType() != element)
      return reportFailure(rewriter, op, "unsupported: non-float weight");
    int64_t mode, paddingIdx;
    bool includeLast;
    if (!matchTorchConstantInt(op.getMode(), mode) ||
        !matchTorchConstantBool(op.getIncludeLastOffset(), includeLast) ||
        !matchTorchConstantInt(op.getPaddingIdx(), paddingIdx))
      return reportFailure(rewriter, op,
                           "mode, include_last_offset and padding_idx must be "
                           "constants");
    if (mode < 0 || mode > 2)
      return reportFailure(rewriter, op, "invalid mode");
    bool weighted = !isTorchNone(op.getPerSampleWeights());
    if (weighted && mode != 0)
      return reportFailure(rewriter, op,
                           "per_sample_weights only with mode='sum'");
    int64_t length = indicesType.getDimSize(0);
    int64_t numOffsets = offsetsType.getDimSize(0);
    int64_t bags = includeLast ? numOffsets - 1 : numOffsets;
    if (bags < 0 ||
        (!resultType.isDynamicDim(0) && resultType.getDimSize(0) != bags))
      return reportFailure(rewriter, op, "result rows do not match the bags");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Type acc = getOpMathType(element);
    auto accType = RankedTensorType::get(resultType.getShape(), acc);
    auto countType =
        RankedTensorType::get(resultType.getShape(), rewriter.getI64Type());
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(1))
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, weight, 1));
    auto filled = [&](RankedTensorType type, Value value) {
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, type.getShape(), type.getElementType(), dynamicSizes);
      return linalg::FillOp::create(rewriter, loc, ValueRange{value},
                                    ValueRange{empty})
          .getResult(0);
    };
    Value accInit =
        filled(accType, createFloatConstant(rewriter, loc, acc, 0.0));
    Value countInit =
        filled(countType, arith::ConstantOp::create(
                              rewriter, loc, rewriter.getI64IntegerAttr(0)));
    SmallVector<Value> inputs{indices};
    AffineMap indexMap =
        AffineMap::get(3, 0, {getAffineDimExpr(2, context)}, context);
    SmallVector<AffineMap> maps{indexMap};
    if (weighted) {
      Value sampleWeights = adaptor.getPerSampleWeights();
      auto type = dyn_cast<RankedTensorType>(sampleWeights.getType());
      if (!type || type.getRank() != 1 || type.getElementType() != element)
        return reportFailure(rewriter, op,
                             "per_sample_weights must be 1-D of the weight's "
                             "dtype");
      inputs.push_back(sampleWeights);
      maps.push_back(indexMap);
    }
    Type indexElement = indicesType.getElementType();
    SmallVector<Value> reduced = createWindowGeneric(
        rewriter, loc, inputs, maps, {accInit, countInit}, {length},
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          Value bag = linalg::IndexOp::create(b, l, 0);
          Value column = linalg::IndexOp::create(b, l, 1);
          Value j = linalg::IndexOp::create(b, l, 2);
          auto toIndex = [&](Value v) -> Value {
            return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
          };
          Value start = toIndex(tensor::ExtractOp::create(b, l, offsets, bag));
          Value next = arith::AddIOp::create(b, l, bag, cstIndex(b, l, 1));
          Value end;
          if (includeLast) {
            end = toIndex(tensor::ExtractOp::create(b, l, offsets, next));
          } else {
            Value hasNext =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, next,
                                      cstIndex(b, l, numOffsets));
            Value safeNext = arith::SelectOp::create(b, l, hasNext, next, bag);
            end = arith::SelectOp::create(
                b, l, hasNext,
                toIndex(tensor::ExtractOp::create(b, l, offsets, safeNext)),
                cstIndex(b, l, length));
          }
          Value word = args[0];
          Value inBag = arith::AndIOp::create(
              b, l,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, j, start),
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, j, end));
          Value notPadding = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::ne, word,
              arith::ConstantOp::create(
                  b, l, b.getIntegerAttr(indexElement, paddingIdx)));
          Value take = arith::AndIOp::create(b, l, inBag, notPadding);
          Value row = arith::SelectOp::create(b, l, take, toIndex(word),
                                              cstIndex(b, l, 0));
          Value value = castFloat(
              b, l,
              tensor::ExtractOp::create(b, l, weight, ValueRange{row, column}),
              acc);
          Value accValue = args[args.size() - 2], count = args.back();
          Value updated;
          if (mode == 2) {
            Value first = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::eq, count,
                arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
            Value larger = arith::CmpFOp::create(
                b, l, arith::CmpFPredicate::OGT, value, accValue);
            updated = arith::SelectOp::create(
                b, l, arith::OrIOp::create(b, l, first, larger), value,
                accValue);
          } else {
            if (weighted)
              value = arith::MulFOp::create(b, l, value,
                                            castFloat(b, l, args[1], acc));
            updated = arith::AddFOp::create(b, l, accValue, value);
          }
          Value newCount = arith::AddIOp::create(
              b, l, count,
              arith::ConstantOp::create(b, l, b.getI64IntegerAttr(1)));
          return {arith::SelectOp::create(b, l, take, updated, accValue),
                  arith::SelectOp::create(b, l, take, newCount, count)};
        });
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         element, dynamicSizes);
    Value output =
        createWindowGeneric(
            rewriter, loc, reduced,
            {rewriter.getMultiDimIdentityMap(2),
             rewriter.getMultiDimIdentityMap(2)},
            {init}, {},
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              Value value = args[0];
              if (mode == 1) {
                Value empty = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq, args[1],
                    arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
                Value mean = arith::DivFOp::create(
                    b, l, value, arith::SIToFPOp::create(b, l, acc, args[1]));
                value = arith::SelectOp::create(b, l, empty, value, mean);
              }
              return {castFloat(b, l, value, element)};
            })
            .front();
    SmallVector<Value> results{output};
    for (int i = 1; i < 4; ++i) {
      auto type =
          getConvertedTensorType(this->getTypeConverter(), op->getResult(i));
      if (!type || !type.hasStaticShape())
        return reportFailure(rewriter, op,
                             "unsupported: dynamic auxiliary results");
      // Unused (checked above): only their types matter.
      results.push_back(tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                                type.getElementType()));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateEmbeddingBagPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<Aten_EmbeddingBagOp, Aten_EmbeddingBagForwardOnlyOp>(
      target);
  patterns.add<ConvertEmbeddingBag<Aten_EmbeddingBagOp>,
               ConvertEmbeddingBag<Aten_EmbeddingBagForwardOnlyOp>>(
      typeConverter, context);
}
