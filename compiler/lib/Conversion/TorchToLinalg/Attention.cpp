//===- Attention.cpp - Fused scaled-dot-product attention to linalg -------===//
//
// Part of the torch2mlir project.
//
// aten.scaled_dot_product_attention, in the forms a backend keeps whole
// (isFusableAttention; linalg-on-tensors keeps it through `legal-ops`),
// lowers to one scf.forall over (batch x heads, blocks of query rows), each
// task a flash-attention style loop over blocks of keys with an online
// softmax. A step computes the block of scores [rows, keys] = q_block @
// k_block^T (a linalg.matmul reading k transposed in place); then, one row
// at a time while it is in the L1 cache, it scales the row, applies the
// causal and explicit masks (in the decomposition's order: scores * scale,
// the causal mask, the explicit mask), raises the row's running max,
// rescales the row's running sum and output by exp(old max - new max) and
// stores exp(x - max); then it adds the block of unnormalized
// probabilities @ v_block to the output. The task divides its output rows
// by their sums at the end. Neither the [batch..., L, S] scores nor a
// task's full row of them is materialized: a step's block is at most
// 64 KiB. A causal task stops at the key of its last query row.
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

/// Keys per step of a task (PyTorch's CPU flash attention also steps over
/// 512 keys).
constexpr int64_t kKeyBlock = 512;

/// Float32 scores a step keeps at most (64 KiB: in L2 while its rows are
/// normalized and multiplied by v).
constexpr int64_t kScoreBlockElements = 16384;

/// Query rows per task for steps of `keys` keys (dynamic: 32): a power of
/// two in [8, 128] whose block of scores fits kScoreBlockElements.
static int64_t getQueryBlockRows(int64_t keys) {
  if (ShapedType::isDynamic(keys))
    return 32;
  uint64_t rows =
      static_cast<uint64_t>(kScoreBlockElements / std::max<int64_t>(keys, 1));
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

/// The static size of `size`, or ShapedType::kDynamic.
static int64_t getStaticSize(OpFoldResult size) {
  std::optional<int64_t> constant = getConstantIntValue(size);
  return constant ? *constant : ShapedType::kDynamic;
}

/// A float32 tensor of `sizes` filled with `value`.
static Value createFilledF32(OpBuilder &b, Location loc,
                             ArrayRef<OpFoldResult> sizes, Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes, b.getF32Type());
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

/// linalg.matmul accumulating `lhs` [M, K] @ `rhs` into `init` [M, N]; with
/// `transposedRhs`, `rhs` is [N, K] and is read transposed (the RefBackend
/// passes it to GEMM as a transposed operand).
static Value createMatmulInto(OpBuilder &b, Location loc, Value lhs, Value rhs,
                              Value init, bool transposedRhs) {
  SmallVector<NamedAttribute> attributes;
  if (transposedRhs)
    attributes.push_back(b.getNamedAttr(
        "indexing_maps",
        b.getAffineMapArrayAttr(getTransposedRhsMatmulMaps(b.getContext()))));
  return linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                  ValueRange{lhs, rhs}, ValueRange{init},
                                  attributes)
      .getResult(0);
}

/// What the steps of one task share: the scale, the masks, and where the
/// task's query rows start.
struct TaskMasks {
  Value scale, minusInf;
  /// The task's first query row.
  Value first;
  bool causal;
  /// The explicit mask (null if none), its type, and its indices for the
  /// task's batch element (0 where the mask's size is 1).
  Value mask;
  RankedTensorType maskType;
  SmallVector<Value> maskBatchIndices;
  Value zero;

  /// `x` (the score of query row `queryRow` and key `key`) scaled and
  /// masked.
  Value apply(OpBuilder &b, Location loc, Value x, Value queryRow,
              Value key) const {
    x = arith::MulFOp::create(b, loc, x, scale);
    if (causal) {
      Value keep = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, key,
                                         queryRow);
      x = arith::SelectOp::create(b, loc, keep, x, minusInf);
    }
    if (!mask)
      return x;
    int64_t maskRank = maskType.getRank();
    SmallVector<Value> at(maskBatchIndices);
    if (maskRank >= 2)
      at.push_back(maskType.getDimSize(maskRank - 2) == 1 ? zero : queryRow);
    if (maskRank >= 1)
      at.push_back(maskType.getDimSize(maskRank - 1) == 1 ? zero : key);
    Value m = tensor::ExtractOp::create(b, loc, mask, at);
    if (m.getType().isInteger(1))
      return arith::SelectOp::create(b, loc, m, x, minusInf);
    return arith::AddFOp::create(b, loc, x, m);
  }
};

/// One step of the online softmax over the block of `scores` [rows, keys]
/// (keys from `keyStart`), row by row: scales and masks the row (stored),
/// raises the row's running max in `maxes` [rows], stores exp(x - max) in
/// the row, and rescales the row's running sum in `sums` [rows] and its
/// output row in `out` [rows, Ev] by exp(old max - new max) before adding
/// the row's exps to the sum. A row with no key kept so far (max -inf)
/// shifts by 0, so that its exps are 0 rather than NaN. Returns the
/// (probabilities, out, maxes, sums) after the step.
static SmallVector<Value> createOnlineSoftmaxStep(OpBuilder &b, Location loc,
                                                  const TaskMasks &masks,
                                                  Value scores, Value keyStart,
                                                  Value out, Value maxes,
                                                  Value sums) {
  Value zero = masks.zero;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value rowCount = tensor::DimOp::create(b, loc, scores, 0);
  Value keyCount = tensor::DimOp::create(b, loc, scores, 1);
  Value outWidth = tensor::DimOp::create(b, loc, out, 1);
  Value zeroF32 = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  auto reassoc = arith::FastMathFlags::reassoc;
  auto rowLoop = scf::ForOp::create(
      b, loc, zero, rowCount, one, ValueRange{scores, out, maxes, sums},
      [&](OpBuilder &rb, Location rl, Value r, ValueRange state) {
        Value queryRow = arith::AddIOp::create(rb, rl, masks.first, r);
        auto loop =
            [&](Value end, ValueRange inits,
                function_ref<void(OpBuilder &, Location, Value, ValueRange)>
                    body) {
              return scf::ForOp::create(rb, rl, zero, end, one, inits, body);
            };
        // A pass over the row that replaces each score x by f(x, key) and
        // folds the new values into `init` with `combine`.
        auto rowPass =
            [&](Value init, Value row,
                function_ref<Value(OpBuilder &, Location, Value, Value)> f,
                function_ref<Value(OpBuilder &, Location, Value, Value)>
                    combine) {
              return loop(
                  keyCount, ValueRange{init, row},
                  [&](OpBuilder &nb, Location l, Value j, ValueRange carried) {
                    Value x = tensor::ExtractOp::create(nb, l, carried[1],
                                                        ValueRange{r, j});
                    Value y = f(nb, l, x, j);
                    Value folded = combine(nb, l, y, carried[0]);
                    Value stored = tensor::InsertOp::create(
                        nb, l, y, carried[1], ValueRange{r, j});
                    scf::YieldOp::create(nb, l, ValueRange{folded, stored});
                  });
            };
        // Scale and mask the row; its max.
        auto maskedLoop = rowPass(
            masks.minusInf, state[0],
            [&](OpBuilder &nb, Location l, Value x, Value j) {
              Value key = arith::AddIOp::create(nb, l, keyStart, j);
              return masks.apply(nb, l, x, queryRow, key);
            },
            [&](OpBuilder &nb, Location l, Value y, Value max) -> Value {
              return arith::MaximumFOp::create(nb, l, y, max, reassoc);
            });
        Value oldMax = tensor::ExtractOp::create(rb, rl, state[2], r);
        Value max =
            arith::MaximumFOp::create(rb, rl, oldMax, maskedLoop.getResult(0));
        Value none = arith::CmpFOp::create(rb, rl, arith::CmpFPredicate::OEQ,
                                           max, masks.minusInf);
        Value shift = arith::SelectOp::create(rb, rl, none, zeroF32, max);
        Value rescale = createExpOfNonPositive(
            rb, rl, arith::SubFOp::create(rb, rl, oldMax, shift));
        // exp(x - max); their sum.
        auto expLoop = rowPass(
            zeroF32, maskedLoop.getResult(1),
            [&](OpBuilder &nb, Location l, Value x, Value) {
              return createExpOfNonPositive(
                  nb, l, arith::SubFOp::create(nb, l, x, shift));
            },
            [&](OpBuilder &nb, Location l, Value e, Value sum) -> Value {
              return arith::AddFOp::create(nb, l, e, sum, reassoc);
            });
        Value oldSum = tensor::ExtractOp::create(rb, rl, state[3], r);
        Value sum = arith::AddFOp::create(
            rb, rl, arith::MulFOp::create(rb, rl, oldSum, rescale),
            expLoop.getResult(0));
        // The output row so far, rescaled.
        auto outLoop = loop(
            outWidth, ValueRange{state[1]},
            [&](OpBuilder &nb, Location l, Value c, ValueRange carried) {
              Value y = tensor::ExtractOp::create(nb, l, carried[0],
                                                  ValueRange{r, c});
              y = arith::MulFOp::create(nb, l, y, rescale);
              scf::YieldOp::create(nb, l,
                                   tensor::InsertOp::create(
                                       nb, l, y, carried[0], ValueRange{r, c})
                                       .getResult());
            });
        Value maxesNow = tensor::InsertOp::create(rb, rl, max, state[2], r);
        Value sumsNow = tensor::InsertOp::create(rb, rl, sum, state[3], r);
        scf::YieldOp::create(rb, rl,
                             ValueRange{expLoop.getResult(1),
                                        outLoop.getResult(0), maxesNow,
                                        sumsNow});
      });
  return SmallVector<Value>(rowLoop.getResults());
}

/// `out` [rows, Ev] with each row divided by its entry of `sums` [rows];
/// a row whose sum is 0 (the mask kept none of its scores) is 0, as
/// PyTorch's attention (_safe_softmax) gives.
static Value createDivideRows(OpBuilder &b, Location loc, Value out,
                              Value sums) {
  MLIRContext *context = b.getContext();
  AffineExpr r, c;
  bindDims(context, r, c);
  SmallVector<AffineMap> maps{AffineMap::get(2, 0, {r, c}, context),
                              AffineMap::get(2, 0, {r}, context),
                              AffineMap::get(2, 0, {r, c}, context)};
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{out.getType()}, ValueRange{out, sums},
             ValueRange{out}, maps, iterators,
             [](OpBuilder &nb, Location l, ValueRange args) {
               Value zero =
                   arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0));
               Value none = arith::CmpFOp::create(
                   nb, l, arith::CmpFPredicate::OEQ, args[1], zero);
               Value y = arith::DivFOp::create(nb, l, args[0], args[1]);
               linalg::YieldOp::create(
                   nb, l,
                   ValueRange{arith::SelectOp::create(nb, l, none, zero, y)});
             })
      .getResult(0);
}

/// scaled_dot_product_attention(q, k, v, attn_mask, 0.0, is_causal, scale,
/// enable_gqa) = softmax(q @ k^T * scale + mask) @ v, as
/// torch.nn.functional.scaled_dot_product_attention defines it (a bool
/// mask keeps the scores where it is true, the others are -inf; a float
/// mask is added; is_causal keeps j <= i), fused as the file comment
/// describes. A query whose every score is masked gets 0, as in PyTorch
/// (_safe_softmax).
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
    // Keys per step: all of them when they are known and at most
    // kKeyBlock (one step of static size, unless causal stops it early).
    int64_t staticSource = getStaticSize(sourceLength);
    int64_t keyBlock = kKeyBlock;
    if (!ShapedType::isDynamic(staticSource) && staticSource <= kKeyBlock)
      keyBlock = std::max<int64_t>(staticSource, 1);
    bool evenKeyBlocks = !causal && !ShapedType::isDynamic(staticSource) &&
                         staticSource % keyBlock == 0;
    int64_t staticTarget = getStaticSize(targetLength);
    int64_t blockRows = getQueryBlockRows(keyBlock);
    if (!ShapedType::isDynamic(staticTarget) && staticTarget <= blockRows)
      blockRows = std::max<int64_t>(staticTarget, 1);
    bool evenBlocks =
        !ShapedType::isDynamic(staticTarget) && staticTarget % blockRows == 0;

    Value targetValue =
        getValueOrCreateConstantIndexOp(rewriter, loc, targetLength);
    Value sourceValue =
        getValueOrCreateConstantIndexOp(rewriter, loc, sourceLength);
    Value blockValue = arith::ConstantIndexOp::create(rewriter, loc, blockRows);
    Value keyBlockValue =
        arith::ConstantIndexOp::create(rewriter, loc, keyBlock);
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
      TaskMasks masks;
      masks.first = arith::MulIOp::create(b, loc, ivs[1], blockValue);
      masks.causal = causal;
      masks.zero = arith::ConstantIndexOp::create(b, loc, 0);
      masks.scale = arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(static_cast<float>(scaleValue)));
      masks.minusInf = arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
      if (!isTorchNone(op.getAttnMask())) {
        masks.mask = adaptor.getAttnMask();
        masks.maskType = cast<RankedTensorType>(masks.mask.getType());
        // n's coordinates in the batch dims, for the mask's batch dims.
        int64_t maskRank = masks.maskType.getRank();
        SmallVector<Value> coordinates(batchSizes.size());
        Value rest = n;
        for (int64_t d = static_cast<int64_t>(batchSizes.size()) - 1; d >= 0;
             --d) {
          Value size = arith::ConstantIndexOp::create(b, loc, batchSizes[d]);
          coordinates[d] = arith::RemUIOp::create(b, loc, rest, size);
          rest = arith::DivUIOp::create(b, loc, rest, size);
        }
        for (int64_t i = 0; i + 2 < maskRank; ++i)
          masks.maskBatchIndices.push_back(
              masks.maskType.getDimSize(i) == 1
                  ? masks.zero
                  : coordinates[rank - maskRank + i]);
      }
      OpFoldResult rows = b.getIndexAttr(blockRows);
      if (!evenBlocks)
        rows = arith::MinSIOp::create(
                   b, loc, blockValue,
                   arith::SubIOp::create(b, loc, targetValue, masks.first))
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
      Value queryBlock = slice2d(q3, masks.first, rows, headSize);
      // A causal task's last query row sees no key past it.
      Value keyEnd = sourceValue;
      if (causal)
        keyEnd = arith::MinSIOp::create(
            b, loc, sourceValue,
            arith::AddIOp::create(
                b, loc, masks.first,
                getValueOrCreateConstantIndexOp(b, loc, rows)));
      Value outInit = createFilledF32(
          b, loc, {rows, valueSize},
          arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)));
      Value maxesInit = createFilledF32(b, loc, {rows}, masks.minusInf);
      Value sumsInit = createFilledF32(
          b, loc, {rows},
          arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)));
      auto keyLoop = scf::ForOp::create(
          b, loc, masks.zero, keyEnd, keyBlockValue,
          ValueRange{outInit, maxesInit, sumsInit},
          [&](OpBuilder &kb, Location kl, Value keyStart, ValueRange state) {
            OpFoldResult keys = kb.getIndexAttr(keyBlock);
            if (!evenKeyBlocks)
              keys = arith::MinSIOp::create(
                         kb, kl, keyBlockValue,
                         arith::SubIOp::create(kb, kl, keyEnd, keyStart))
                         .getResult();
            Value keysBlock = slice2d(k3, keyStart, keys, headSize);
            Value valuesBlock = slice2d(v3, keyStart, keys, valueSize);
            Value scores = createMatmulInto(
                kb, kl, queryBlock, keysBlock,
                createFilledF32(
                    kb, kl, {rows, keys},
                    arith::ConstantOp::create(kb, kl, kb.getF32FloatAttr(0))),
                /*transposedRhs=*/true);
            SmallVector<Value> step = createOnlineSoftmaxStep(
                kb, kl, masks, scores, keyStart, state[0], state[1], state[2]);
            Value outNow = createMatmulInto(kb, kl, step[0], valuesBlock,
                                            step[1], /*transposedRhs=*/false);
            scf::YieldOp::create(kb, kl, ValueRange{outNow, step[2], step[3]});
          });
      Value result =
          createDivideRows(b, loc, keyLoop.getResult(0), keyLoop.getResult(2));
      b.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(
          b, loc, result, forall.getRegionIterArgs()[0],
          SmallVector<OpFoldResult>{n, masks.first, zero},
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
