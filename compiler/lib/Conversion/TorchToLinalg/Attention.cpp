//===- Attention.cpp - Fused scaled-dot-product attention to linalg -------===//
//
// Part of the torch2mlir project.
//
// aten.scaled_dot_product_attention, in the forms a backend keeps whole
// (isFusableAttention; linalg-on-tensors keeps it through `legal-ops`),
// lowers to one scf.forall over (batch x heads, blocks of query rows). A
// task computes its block of scores [rows, S] = q_block @ k^T (a
// linalg.matmul reading k transposed in place), then, one row at a time
// while the row is in the L1 cache, scales it, applies the causal and
// explicit masks, takes its softmax, and finally multiplies the block of
// probabilities by v into its block of the result. The full [batch...,
// L, S] score tensor is never materialized: a task's block is sized to stay
// in the L2 cache. The arithmetic is the decomposition's
// (torch-decompose-complex-ops), in the same order: scores * scale, the
// causal mask, the explicit mask, softmax, the second matmul.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

/// Float32 scores a task keeps at most (64 KiB: in L2 while its rows are
/// normalized and multiplied by v).
constexpr int64_t kScoreBlockElements = 16384;

/// Query rows per task for `sourceLength` keys (dynamic: 32): a power of
/// two in [8, 128] whose block of scores fits kScoreBlockElements.
static int64_t getQueryBlockRows(int64_t sourceLength) {
  if (ShapedType::isDynamic(sourceLength))
    return 32;
  uint64_t rows = static_cast<uint64_t>(kScoreBlockElements /
                                        std::max<int64_t>(sourceLength, 1));
  return std::clamp<int64_t>(
      static_cast<int64_t>(llvm::bit_floor(std::max<uint64_t>(rows, 1))), 8,
      128);
}

/// `tensor` [batch..., X, Y] with its batch dims collapsed into one: [N, X,
/// Y] (itself at rank 3).
static Value collapseBatchDims(OpBuilder &b, Location loc, Value tensor) {
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  if (rank == 3)
    return tensor;
  SmallVector<ReassociationIndices> groups{
      llvm::to_vector(llvm::seq<int64_t>(0, rank - 2)), {rank - 2}, {rank - 1}};
  return tensor::CollapseShapeOp::create(b, loc, tensor, groups);
}

/// A linalg.matmul of `lhs` [M, K] by `rhs` into a zero-filled [M, N] of
/// `type`; with `transposedRhs`, `rhs` is [N, K] and is read transposed
/// (the RefBackend passes it to GEMM as a transposed operand).
static Value createBlockMatmul(OpBuilder &b, Location loc,
                               RankedTensorType type, Value lhs, Value rhs,
                               bool transposedRhs,
                               ArrayRef<OpFoldResult> sizes) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  Value init =
      linalg::FillOp::create(
          b, loc, ValueRange{createZero(b, loc, type.getElementType())},
          ValueRange{empty})
          .getResult(0);
  if (!transposedRhs)
    return linalg::MatmulOp::create(b, loc, TypeRange{type},
                                    ValueRange{lhs, rhs}, ValueRange{init})
        .getResult(0);
  MLIRContext *context = b.getContext();
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  auto maps = b.getAffineMapArrayAttr({AffineMap::get(3, 0, {m, k}, context),
                                       AffineMap::get(3, 0, {n, k}, context),
                                       AffineMap::get(3, 0, {m, n}, context)});
  return linalg::MatmulOp::create(
             b, loc, TypeRange{type}, ValueRange{lhs, rhs}, ValueRange{init},
             ArrayRef<NamedAttribute>{b.getNamedAttr("indexing_maps", maps)})
      .getResult(0);
}

/// The static size of `size`, or ShapedType::kDynamic.
static int64_t getStaticSize(OpFoldResult size) {
  std::optional<int64_t> constant = getConstantIntValue(size);
  return constant ? *constant : ShapedType::kDynamic;
}

/// scaled_dot_product_attention(q, k, v, attn_mask, 0.0, is_causal, scale,
/// enable_gqa) = softmax(q @ k^T * scale + mask) @ v, as
/// torch.nn.functional.scaled_dot_product_attention defines it (a bool
/// mask keeps the scores where it is true, the others are -inf; a float
/// mask is added; is_causal keeps j <= i), fused as the file comment
/// describes.
struct ConvertAtenScaledDotProductAttention
    : OpConversionPattern<AtenScaledDotProductAttentionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenScaledDotProductAttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isFusableAttention(op))
      return reportFailure(
          rewriter, op,
          "unsupported: this attention is not one the fused lowering takes "
          "(float32, known batch and head sizes, no dropout, constant flags); "
          "way out: leave aten.scaled_dot_product_attention out of the "
          "backend's legal ops so that it decomposes");
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, "needs a result of known dtype");
    bool causal = false;
    (void)matchTorchConstantBool(op.getIsCausal(), causal);
    Location loc = op.getLoc();
    Value query = adaptor.getQuery(), key = adaptor.getKey(),
          value = adaptor.getValue();
    auto queryType = cast<RankedTensorType>(query.getType());
    int64_t rank = queryType.getRank();
    ArrayRef<int64_t> batchSizes = queryType.getShape().drop_back(2);
    double scaleValue =
        1.0 / std::sqrt(static_cast<double>(queryType.getShape().back()));
    if (!isTorchNone(op.getScale()))
      (void)matchTorchConstantFloat(op.getScale(), scaleValue);

    Value q3 = collapseBatchDims(rewriter, loc, query);
    Value k3 = collapseBatchDims(rewriter, loc, key);
    Value v3 = collapseBatchDims(rewriter, loc, value);
    Type f32 = rewriter.getF32Type();
    OpFoldResult batch = tensor::getMixedSize(rewriter, loc, q3, 0);
    OpFoldResult targetLength = tensor::getMixedSize(rewriter, loc, q3, 1);
    OpFoldResult headSize = tensor::getMixedSize(rewriter, loc, q3, 2);
    OpFoldResult sourceLength = tensor::getMixedSize(rewriter, loc, k3, 1);
    OpFoldResult valueSize = tensor::getMixedSize(rewriter, loc, v3, 2);
    int64_t staticTarget = getStaticSize(targetLength);
    int64_t blockRows = getQueryBlockRows(getStaticSize(sourceLength));
    if (!ShapedType::isDynamic(staticTarget) && staticTarget <= blockRows)
      blockRows = std::max<int64_t>(staticTarget, 1);
    bool evenBlocks =
        !ShapedType::isDynamic(staticTarget) && staticTarget % blockRows == 0;

    Value targetValue =
        getValueOrCreateConstantIndexOp(rewriter, loc, targetLength);
    Value blockValue = arith::ConstantIndexOp::create(rewriter, loc, blockRows);
    Value blockCount =
        arith::CeilDivSIOp::create(rewriter, loc, targetValue, blockValue);
    Value out = tensor::EmptyOp::create(
        rewriter, loc,
        SmallVector<OpFoldResult>{batch, targetLength, valueSize}, f32);
    auto forall = scf::ForallOp::create(
        rewriter, loc, SmallVector<OpFoldResult>{batch, blockCount},
        ValueRange{out}, /*mapping=*/std::nullopt);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      OpBuilder &b = rewriter;
      b.setInsertionPointToStart(forall.getBody());
      SmallVector<Value> ivs = forall.getInductionVars();
      Value n = ivs[0];
      Value first = arith::MulIOp::create(b, loc, ivs[1], blockValue);
      OpFoldResult rows = b.getIndexAttr(blockRows);
      if (!evenBlocks)
        rows = arith::MinSIOp::create(
                   b, loc, blockValue,
                   arith::SubIOp::create(b, loc, targetValue, first))
                   .getResult();
      OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
      SmallVector<OpFoldResult> unitStrides(3, one);
      auto slice2d = [&](Value source, OpFoldResult offset, OpFoldResult size0,
                         OpFoldResult size1) -> Value {
        auto type = RankedTensorType::get(
            {getStaticSize(size0), getStaticSize(size1)}, f32);
        return tensor::ExtractSliceOp::create(
            b, loc, type, source, SmallVector<OpFoldResult>{n, offset, zero},
            SmallVector<OpFoldResult>{one, size0, size1}, unitStrides);
      };
      Value queryBlock = slice2d(q3, first, rows, headSize);
      Value keys = slice2d(k3, zero, sourceLength, headSize);
      Value values = slice2d(v3, zero, sourceLength, valueSize);
      auto scoresType = RankedTensorType::get(
          {getStaticSize(rows), getStaticSize(sourceLength)}, f32);
      Value scores =
          createBlockMatmul(b, loc, scoresType, queryBlock, keys,
                            /*transposedRhs=*/true, {rows, sourceLength});
      Value probabilities =
          createRowSoftmaxes(b, loc, op, adaptor.getAttnMask(), scores,
                             batchSizes, rank, n, first, scaleValue, causal);
      auto blockType = RankedTensorType::get(
          {getStaticSize(rows), getStaticSize(valueSize)}, f32);
      Value result =
          createBlockMatmul(b, loc, blockType, probabilities, values,
                            /*transposedRhs=*/false, {rows, valueSize});
      b.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(
          b, loc, result, forall.getRegionIterArgs()[0],
          SmallVector<OpFoldResult>{n, first, zero},
          SmallVector<OpFoldResult>{one, rows, valueSize}, unitStrides);
    }
    Value attention = forall.getResult(0);
    if (rank != 3) {
      SmallVector<ReassociationIndices> groups{
          llvm::to_vector(llvm::seq<int64_t>(0, rank - 2)),
          {rank - 2},
          {rank - 1}};
      SmallVector<OpFoldResult> shape;
      for (int64_t size : batchSizes)
        shape.push_back(rewriter.getIndexAttr(size));
      shape.append({targetLength, valueSize});
      attention = tensor::ExpandShapeOp::create(rewriter, loc, resultType,
                                                attention, groups, shape);
    }
    rewriter.replaceOp(op, attention);
    return success();
  }

private:
  /// The softmax of each row of `scores` [rows, S] (the scores of query
  /// rows first, first + 1, ... of batch element `n`) after scaling and
  /// masking: three loops over the row (scale and mask, storing the
  /// result, and the max; the sum of exp(x - max), storing each exp; the
  /// division), as the row softmax of Reduction.cpp.
  static Value createRowSoftmaxes(OpBuilder &b, Location loc,
                                  AtenScaledDotProductAttentionOp op,
                                  Value mask, Value scores,
                                  ArrayRef<int64_t> batchSizes, int64_t rank,
                                  Value n, Value first, double scaleValue,
                                  bool causal) {
    Type f32 = b.getF32Type();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value rowCount = tensor::DimOp::create(b, loc, scores, 0);
    Value length = tensor::DimOp::create(b, loc, scores, 1);
    Value scale = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(static_cast<float>(scaleValue)));
    Value minusInf = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
    // The mask's indices for a score: its batch dims index by n's
    // coordinates in the batch dims (0 where the mask's size is 1), its
    // last two by the query row and key column (likewise).
    auto maskType = isTorchNone(op.getAttnMask())
                        ? RankedTensorType()
                        : dyn_cast<RankedTensorType>(mask.getType());
    SmallVector<Value> maskBatchIndices;
    if (maskType) {
      int64_t maskRank = maskType.getRank();
      SmallVector<Value> coordinates(batchSizes.size());
      Value rest = n;
      for (int64_t d = static_cast<int64_t>(batchSizes.size()) - 1; d >= 0;
           --d) {
        Value size = arith::ConstantIndexOp::create(b, loc, batchSizes[d]);
        coordinates[d] = arith::RemUIOp::create(b, loc, rest, size);
        rest = arith::DivUIOp::create(b, loc, rest, size);
      }
      for (int64_t i = 0; i + 2 < maskRank; ++i) {
        int64_t d = rank - maskRank + i;
        maskBatchIndices.push_back(
            maskType.getDimSize(i) == 1 ? zero : coordinates[d]);
      }
    }
    auto reassoc = arith::FastMathFlags::reassoc;
    auto rowLoop = scf::ForOp::create(
        b, loc, zero, rowCount, one, ValueRange{scores},
        [&](OpBuilder &rb, Location rl, Value r, ValueRange rowCarried) {
          Value queryRow = arith::AddIOp::create(rb, rl, first, r);
          auto loop =
              [&](ValueRange inits,
                  function_ref<void(OpBuilder &, Location, Value, ValueRange)>
                      body) {
                return scf::ForOp::create(rb, rl, zero, length, one, inits,
                                          body);
              };
          // Scale and mask the row, storing it; its max.
          auto maskedLoop = loop(
              ValueRange{createLowestValue(rb, rl, f32), rowCarried[0]},
              [&](OpBuilder &nb, Location l, Value j, ValueRange carried) {
                Value s = tensor::ExtractOp::create(nb, l, carried[1],
                                                    ValueRange{r, j});
                s = arith::MulFOp::create(nb, l, s, scale);
                if (causal) {
                  Value keep = arith::CmpIOp::create(
                      nb, l, arith::CmpIPredicate::sle, j, queryRow);
                  s = arith::SelectOp::create(nb, l, keep, s, minusInf);
                }
                if (maskType) {
                  int64_t maskRank = maskType.getRank();
                  SmallVector<Value> at(maskBatchIndices);
                  if (maskRank >= 2)
                    at.push_back(maskType.getDimSize(maskRank - 2) == 1
                                     ? zero
                                     : queryRow);
                  if (maskRank >= 1)
                    at.push_back(maskType.getDimSize(maskRank - 1) == 1 ? zero
                                                                        : j);
                  Value m = tensor::ExtractOp::create(nb, l, mask, at);
                  s = m.getType().isInteger(1)
                          ? arith::SelectOp::create(nb, l, m, s, minusInf)
                                .getResult()
                          : arith::AddFOp::create(nb, l, s, m).getResult();
                }
                Value max =
                    arith::MaximumFOp::create(nb, l, s, carried[0], reassoc);
                Value stored = tensor::InsertOp::create(nb, l, s, carried[1],
                                                        ValueRange{r, j});
                scf::YieldOp::create(nb, l, ValueRange{max, stored});
              });
          Value max = maskedLoop.getResult(0);
          // The sum of exp(x - max), storing each exp.
          Value zeroSum =
              arith::ConstantOp::create(rb, rl, rb.getF32FloatAttr(0));
          auto sumLoop =
              loop(ValueRange{zeroSum, maskedLoop.getResult(1)},
                   [&](OpBuilder &nb, Location l, Value j, ValueRange carried) {
                     Value s = tensor::ExtractOp::create(nb, l, carried[1],
                                                         ValueRange{r, j});
                     Value e = createExpOfNonPositive(
                         nb, l, arith::SubFOp::create(nb, l, s, max));
                     Value sum =
                         arith::AddFOp::create(nb, l, e, carried[0], reassoc);
                     Value stored = tensor::InsertOp::create(
                         nb, l, e, carried[1], ValueRange{r, j});
                     scf::YieldOp::create(nb, l, ValueRange{sum, stored});
                   });
          Value sum = sumLoop.getResult(0);
          auto divideLoop = loop(
              ValueRange{sumLoop.getResult(1)},
              [&](OpBuilder &nb, Location l, Value j, ValueRange carried) {
                Value e = tensor::ExtractOp::create(nb, l, carried[0],
                                                    ValueRange{r, j});
                Value p = arith::DivFOp::create(nb, l, e, sum);
                scf::YieldOp::create(nb, l,
                                     tensor::InsertOp::create(
                                         nb, l, p, carried[0], ValueRange{r, j})
                                         .getResult());
              });
          scf::YieldOp::create(rb, rl, divideLoop.getResult(0));
        });
    return rowLoop.getResult(0);
  }
};

} // namespace

void mlir::torch2mlir::populateAttentionPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  // Not a core op: present only where the backend keeps it (`legal-ops`),
  // in the forms this pattern takes (isFusableAttention).
  target.addIllegalOp<AtenScaledDotProductAttentionOp>();
  patterns.add<ConvertAtenScaledDotProductAttention>(typeConverter,
                                                     patterns.getContext());
}
