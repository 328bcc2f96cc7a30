//===- Linear.cpp - Matmuls, convolutions and attention -------------------===//
//
// Part of the torch2mlir project.
//
// linear and matmul into mm/bmm with views; conv2d (and its padding="same"
// form) into convolution; scaled_dot_product_attention into matmuls and
// softmax.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch::decompose;

namespace {

//===----------------------------------------------------------------------===//
// Matmul family
//===----------------------------------------------------------------------===//

/// linear(x, w, b) = matmul(x, t(w)) + b
struct DecomposeAtenLinear : OpRewritePattern<AtenLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLinearOp op,
                                PatternRewriter &rewriter) const override {
    auto weightType = getRankedTensorType(op.getWeight());
    auto resultType = getRankedTensorType(op.getResult());
    if (!weightType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known sizes and dtypes");
    if (weightType.getSizes().size() != 2)
      return rewriter.notifyMatchFailure(op,
                                         "unsupported: weight of rank != 2");
    Location loc = op.getLoc();
    ArrayRef<int64_t> w = weightType.getSizes();
    auto transposedType = weightType.getWithSizesAndDtype(
        ArrayRef<int64_t>{w[1], w[0]}, weightType.getDtype());
    Value transposed =
        AtenTOp::create(rewriter, loc, transposedType, op.getWeight());
    Value product = AtenMatmulOp::create(rewriter, loc, resultType,
                                         op.getInput(), transposed);
    if (isTorchNone(op.getBias())) {
      rewriter.replaceOp(op, product);
      return success();
    }
    rewriter.replaceOpWithNewOp<AtenAddTensorOp>(
        op, resultType, product, op.getBias(),
        createConstantInt(rewriter, loc, 1));
    return success();
  }
};

/// matmul by operand ranks: 2x2 -> mm, 3x3 (same batch) -> bmm,
/// Nx2 (N >= 3) -> view to 2-D, mm, view back; other ranks >= 2 broadcast
/// their batch dims (expand), flatten them and bmm; a 1-D operand becomes a
/// matrix (one row or one column) and the added dim is viewed away.
struct DecomposeAtenMatmul : OpRewritePattern<AtenMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenMatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto lhsType = getRankedTensorType(op.getSelf());
    auto rhsType = getRankedTensorType(op.getOther());
    auto resultType = getRankedTensorType(op.getResult());
    if (!lhsType || !rhsType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known sizes and dtypes");
    ArrayRef<int64_t> lhs = lhsType.getSizes(), rhs = rhsType.getSizes();
    Location loc = op.getLoc();
    if (lhs.size() == 2 && rhs.size() == 2) {
      rewriter.replaceOpWithNewOp<AtenMmOp>(op, resultType, op.getSelf(),
                                            op.getOther());
      return success();
    }
    if (lhs.size() == 3 && rhs.size() == 3 && lhs[0] == rhs[0] &&
        lhs[0] != kUnknownSize) {
      rewriter.replaceOpWithNewOp<AtenBmmOp>(op, resultType, op.getSelf(),
                                             op.getOther());
      return success();
    }
    if (lhs.size() >= 3 && rhs.size() == 2) {
      int64_t rows = productOfSizes(lhs.drop_back());
      if (rows == kUnknownSize || rhs[1] == kUnknownSize)
        return rewriter.notifyMatchFailure(op, "unsupported: unknown sizes");
      Value flat = createView(rewriter, loc, op.getSelf(), {rows, lhs.back()});
      auto mmType = resultType.getWithSizesAndDtype(
          ArrayRef<int64_t>{rows, rhs[1]}, resultType.getDtype());
      Value mm = AtenMmOp::create(rewriter, loc, mmType, flat, op.getOther());
      rewriter.replaceOpWithNewOp<AtenViewOp>(
          op, resultType, mm,
          createIntList(rewriter, loc, resultType.getSizes()));
      return success();
    }
    if (lhs.size() == rhs.size() && lhs.size() >= 3 &&
        (!lhsType.areAllSizesKnown() || !rhsType.areAllSizesKnown()))
      return decomposeDynamicBatched(op, lhs, rhs, resultType, rewriter);
    if (lhs.size() >= 2 && rhs.size() >= 2) {
      // Batch dims broadcast (as in torch.matmul): expand both operands to
      // the result's batch dims, flatten those, bmm, view back.
      if (!lhsType.areAllSizesKnown() || !rhsType.areAllSizesKnown() ||
          !resultType.areAllSizesKnown())
        return rewriter.notifyMatchFailure(
            op, "unsupported: broadcast batched matmul with unknown sizes");
      ArrayRef<int64_t> batch = resultType.getSizes().drop_back(2);
      int64_t batchSize = productOfSizes(batch);
      auto toBatched = [&](Value value, ArrayRef<int64_t> sizes) -> Value {
        SmallVector<int64_t> expanded(batch);
        expanded.append(sizes.end() - 2, sizes.end());
        if (ArrayRef<int64_t>(expanded) != sizes) {
          auto type = cast<BaseTensorType>(value.getType());
          value = AtenExpandOp::create(
              rewriter, loc,
              type.getWithSizesAndDtype(expanded, type.getOptionalDtype()),
              value, createIntList(rewriter, loc, expanded),
              createConstantBool(rewriter, loc, false));
        }
        return createView(rewriter, loc, value,
                          {batchSize, sizes[sizes.size() - 2], sizes.back()});
      };
      Value flatLhs = toBatched(op.getSelf(), lhs);
      Value flatRhs = toBatched(op.getOther(), rhs);
      auto bmmType = resultType.getWithSizesAndDtype(
          ArrayRef<int64_t>{batchSize, lhs[lhs.size() - 2], rhs.back()},
          resultType.getDtype());
      Value bmm = AtenBmmOp::create(rewriter, loc, bmmType, flatLhs, flatRhs);
      rewriter.replaceOpWithNewOp<AtenViewOp>(
          op, resultType, bmm,
          createIntList(rewriter, loc, resultType.getSizes()));
      return success();
    }
    if (lhs.size() == 1 || rhs.size() == 1)
      return decomposeVectorOperand(op, lhs, rhs, resultType, rewriter);
    return rewriter.notifyMatchFailure(op,
                                       "unsupported: matmul of a 0-D operand");
  }

  /// Operands of one rank (>= 3) with unknown sizes and the same batch
  /// dims (torch.export ties equal symbolic sizes together; a batch dim
  /// known on one side must be the same on the other): the batch dims
  /// flattened by views whose unknown sizes are read at run time
  /// (aten.size.int), bmm, and a view back to the result's sizes.
  LogicalResult decomposeDynamicBatched(AtenMatmulOp op, ArrayRef<int64_t> lhs,
                                        ArrayRef<int64_t> rhs,
                                        BaseTensorType resultType,
                                        PatternRewriter &rewriter) const {
    size_t rank = lhs.size();
    for (size_t i = 0; i + 2 < rank; ++i)
      if (lhs[i] != rhs[i])
        return rewriter.notifyMatchFailure(
            op, "unsupported: broadcast batch dims with unknown sizes");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto size = [&](Value tensor, ArrayRef<int64_t> sizes,
                    int64_t dim) -> Value {
      if (sizes[dim] != kUnknownSize)
        return createConstantInt(rewriter, loc, sizes[dim]);
      return AtenSizeIntOp::create(rewriter, loc, IntType::get(context), tensor,
                                   createConstantInt(rewriter, loc, dim));
    };
    auto intList = [&](ArrayRef<Value> elements) -> Value {
      return PrimListConstructOp::create(
          rewriter, loc, ListType::get(IntType::get(context)), elements);
    };
    Value batch = createConstantInt(rewriter, loc, 1);
    int64_t batchSize = 1;
    for (size_t i = 0; i + 2 < rank; ++i) {
      batch = AtenMulIntOp::create(rewriter, loc, IntType::get(context), batch,
                                   size(op.getSelf(), lhs, i));
      batchSize = (batchSize == kUnknownSize || lhs[i] == kUnknownSize)
                      ? kUnknownSize
                      : batchSize * lhs[i];
    }
    auto flatten = [&](Value tensor, ArrayRef<int64_t> sizes) -> Value {
      auto type = cast<BaseTensorType>(tensor.getType());
      SmallVector<int64_t> flat{batchSize, sizes[rank - 2], sizes[rank - 1]};
      return AtenViewOp::create(
          rewriter, loc,
          type.getWithSizesAndDtype(flat, type.getOptionalDtype()), tensor,
          intList({batch, size(tensor, sizes, rank - 2),
                   size(tensor, sizes, rank - 1)}));
    };
    Value flatLhs = flatten(op.getSelf(), lhs);
    Value flatRhs = flatten(op.getOther(), rhs);
    auto bmmType = resultType.getWithSizesAndDtype(
        ArrayRef<int64_t>{batchSize, lhs[rank - 2], rhs[rank - 1]},
        resultType.getDtype());
    Value bmm = AtenBmmOp::create(rewriter, loc, bmmType, flatLhs, flatRhs);
    SmallVector<Value> resultSizes;
    for (size_t i = 0; i + 2 < rank; ++i)
      resultSizes.push_back(size(op.getSelf(), lhs, i));
    resultSizes.push_back(size(op.getSelf(), lhs, rank - 2));
    resultSizes.push_back(size(op.getOther(), rhs, rank - 1));
    rewriter.replaceOpWithNewOp<AtenViewOp>(op, resultType, bmm,
                                            intList(resultSizes));
    return success();
  }

  /// A 1-D operand as a matrix (lhs [K] -> [1, K], rhs [K] -> [K, 1]), the
  /// matmul of rank >= 2 operands, and the added dim viewed away.
  static LogicalResult decomposeVectorOperand(AtenMatmulOp op,
                                              ArrayRef<int64_t> lhs,
                                              ArrayRef<int64_t> rhs,
                                              BaseTensorType resultType,
                                              PatternRewriter &rewriter) {
    if (lhs.empty() || rhs.empty())
      return rewriter.notifyMatchFailure(
          op, "unsupported: matmul of a 0-D operand");
    if (!resultType.areAllSizesKnown() ||
        (lhs.size() == 1 && lhs[0] == kUnknownSize) ||
        (rhs.size() == 1 && rhs[0] == kUnknownSize))
      return rewriter.notifyMatchFailure(
          op, "unsupported: matmul of a 1-D operand with unknown sizes");
    Location loc = op.getLoc();
    Value self = op.getSelf(), other = op.getOther();
    SmallVector<int64_t> productSizes(resultType.getSizes());
    if (lhs.size() == 1) {
      self = createView(rewriter, loc, self, {1, lhs[0]});
      // [..., N] -> [..., 1, N]; for a 1-D rhs too, [] -> [1].
      productSizes.insert(productSizes.end() - (rhs.size() == 1 ? 0 : 1), 1);
    }
    if (rhs.size() == 1) {
      other = createView(rewriter, loc, other, {rhs[0], 1});
      productSizes.push_back(1);
    }
    auto productType =
        resultType.getWithSizesAndDtype(productSizes, resultType.getDtype());
    Value product =
        AtenMatmulOp::create(rewriter, loc, productType, self, other);
    rewriter.replaceOpWithNewOp<AtenViewOp>(
        op, resultType, product,
        createIntList(rewriter, loc, resultType.getSizes()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Convolution and normalization
//===----------------------------------------------------------------------===//

/// conv2d.padding with padding="valid" (no padding) or "same" (output size =
/// input size for stride 1): explicit symmetric padding of
/// dilation * (kernel - 1) / 2 per side, when that total is even.
struct DecomposeAtenConv2dPadding : OpRewritePattern<AtenConv2dPaddingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenConv2dPaddingOp op,
                                PatternRewriter &rewriter) const override {
    auto padding = op.getPadding().getDefiningOp<ConstantStrOp>();
    auto weightType = getRankedTensorType(op.getWeight());
    SmallVector<int64_t> dilation;
    if (!padding || !weightType ||
        !matchTorchConstantIntList(op.getDilation(), dilation))
      return rewriter.notifyMatchFailure(
          op, "padding, dilation and weight sizes must be known");
    ArrayRef<int64_t> kernel = weightType.getSizes().take_back(2);
    if (dilation.size() == 1)
      dilation.push_back(dilation[0]);
    SmallVector<int64_t> pads{0, 0};
    if (padding.getValue() == "same") {
      for (int i = 0; i < 2; ++i) {
        int64_t total = dilation[i] * (kernel[i] - 1);
        if (kernel[i] == kUnknownSize || total % 2 != 0)
          return rewriter.notifyMatchFailure(
              op, "unsupported: padding='same' that needs asymmetric padding "
                  "(even kernel size)");
        pads[i] = total / 2;
      }
    } else if (padding.getValue() != "valid") {
      return rewriter.notifyMatchFailure(op,
                                         "padding must be 'same' or 'valid'");
    }
    Location loc = op.getLoc();
    Value transposed = ConstantBoolOp::create(rewriter, loc, false);
    rewriter.replaceOpWithNewOp<AtenConvolutionOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        op.getStride(), createIntList(rewriter, loc, pads), op.getDilation(),
        transposed, createIntList(rewriter, loc, {0, 0}), op.getGroups());
    return success();
  }
};

struct DecomposeAtenConv2d : OpRewritePattern<AtenConv2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenConv2dOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value transposed = ConstantBoolOp::create(rewriter, loc, false);
    rewriter.replaceOpWithNewOp<AtenConvolutionOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        op.getStride(), op.getPadding(), op.getDilation(), transposed,
        createIntList(rewriter, loc, {0, 0}), op.getGroups());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

/// `x` ([..., H, S, E]) with each head repeated `times` times in a row
/// ([..., H * times, S, E]), as repeat_interleave(x, times, dim=-3).
static Value repeatHeads(PatternRewriter &rewriter, Location loc, Value x,
                         int64_t times) {
  auto type = cast<BaseTensorType>(x.getType());
  SmallVector<int64_t> sizes(type.getSizes());
  size_t rank = sizes.size();
  SmallVector<int64_t> unsqueezed(sizes);
  unsqueezed.insert(unsqueezed.begin() + (rank - 2), 1);
  Value one = AtenUnsqueezeOp::create(
      rewriter, loc,
      type.getWithSizesAndDtype(unsqueezed, type.getOptionalDtype()), x,
      createConstantInt(rewriter, loc, rank - 2));
  SmallVector<int64_t> expanded(unsqueezed);
  expanded[rank - 2] = times;
  Value repeated = AtenExpandOp::create(
      rewriter, loc,
      type.getWithSizesAndDtype(expanded, type.getOptionalDtype()), one,
      createIntList(rewriter, loc, expanded),
      createConstantBool(rewriter, loc, false));
  sizes[rank - 3] *= times;
  return createView(rewriter, loc, repeated, sizes);
}

/// scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal,
/// scale, enable_gqa) = softmax(q @ k^T * scale + mask) @ v, as PyTorch
/// defines it (torch.nn.functional.scaled_dot_product_attention): `scale`
/// defaults to 1/sqrt(E); a bool mask keeps the scores where it is true (the
/// others are -inf), a float mask is added; `is_causal` keeps the lower
/// triangle (top-left aligned); `enable_gqa` repeats each key and value head
/// for its group of query heads. Attention dropout (dropout_p > 0) is not
/// decomposed. A backend that keeps the op (`legal-ops`) gets the forms it
/// fuses (isFusableAttention) whole.
struct DecomposeAtenScaledDotProductAttention
    : OpRewritePattern<AtenScaledDotProductAttentionOp> {
  DecomposeAtenScaledDotProductAttention(MLIRContext *context, bool kept)
      : OpRewritePattern(context), kept(kept) {}
  LogicalResult matchAndRewrite(AtenScaledDotProductAttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (kept && isFusableAttention(op))
      return rewriter.notifyMatchFailure(op, "the backend fuses it whole");
    auto queryType = getRankedTensorType(op.getQuery());
    auto keyType = getRankedTensorType(op.getKey());
    auto valueType = getRankedTensorType(op.getValue());
    auto resultType = getRankedTensorType(op.getResult());
    if (!queryType || !keyType || !valueType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known sizes and dtypes");
    ArrayRef<int64_t> q = queryType.getSizes(), k = keyType.getSizes();
    size_t rank = q.size();
    if (rank < 2 || k.size() != rank || valueType.getSizes().size() != rank)
      return rewriter.notifyMatchFailure(
          op, "query, key and value need one rank of at least 2");
    double dropout;
    if (!matchTorchConstantFloat(op.getDropoutP(), dropout) || dropout != 0.0)
      return rewriter.notifyMatchFailure(
          op, "unsupported: attention dropout (dropout_p other than 0); way "
              "out: export the model in eval mode");
    bool causal, gqa;
    if (!matchTorchConstantBool(op.getIsCausal(), causal) ||
        !matchTorchConstantBool(op.getEnableGqa(), gqa))
      return rewriter.notifyMatchFailure(
          op, "is_causal and enable_gqa must be constants");
    int64_t headSize = q.back(), targetLength = q[rank - 2],
            sourceLength = k[rank - 2];
    if (headSize == kUnknownSize)
      return rewriter.notifyMatchFailure(op, "unsupported: unknown head size");
    double scale = 1.0 / std::sqrt(static_cast<double>(headSize));
    if (!isTorchNone(op.getScale()) &&
        !matchTorchConstantFloat(op.getScale(), scale))
      return rewriter.notifyMatchFailure(op, "scale must be a constant");

    Location loc = op.getLoc();
    Value key = op.getKey(), value = op.getValue();
    if (gqa && rank >= 3 && q[rank - 3] != k[rank - 3]) {
      int64_t queryHeads = q[rank - 3], keyHeads = k[rank - 3];
      if (queryHeads == kUnknownSize || keyHeads == kUnknownSize ||
          keyHeads == 0 || queryHeads % keyHeads != 0)
        return rewriter.notifyMatchFailure(
            op, "enable_gqa needs query heads a known multiple of key heads");
      key = repeatHeads(rewriter, loc, key, queryHeads / keyHeads);
      value = repeatHeads(rewriter, loc, value, queryHeads / keyHeads);
    }

    // scores = (q @ k^T) * scale: [..., L, S].
    auto keyNow = cast<BaseTensorType>(key.getType());
    SmallVector<int64_t> transposed(keyNow.getSizes());
    std::swap(transposed[rank - 1], transposed[rank - 2]);
    Value keyT = AtenTransposeIntOp::create(
        rewriter, loc,
        keyNow.getWithSizesAndDtype(transposed, keyNow.getOptionalDtype()), key,
        createConstantInt(rewriter, loc, -2),
        createConstantInt(rewriter, loc, -1));
    SmallVector<int64_t> scoreSizes(q.drop_back(2));
    scoreSizes.append({targetLength, sourceLength});
    auto scoresType =
        queryType.getWithSizesAndDtype(scoreSizes, queryType.getDtype());
    Value scores =
        AtenMatmulOp::create(rewriter, loc, scoresType, op.getQuery(), keyT);
    scores = AtenMulScalarOp::create(rewriter, loc, scoresType, scores,
                                     createConstantFloat(rewriter, loc, scale));

    Value minusInf = createConstantFloat(
        rewriter, loc, -std::numeric_limits<double>::infinity());
    if (causal) {
      if (targetLength == kUnknownSize || sourceLength == kUnknownSize)
        return rewriter.notifyMatchFailure(
            op, "unsupported: is_causal with unknown sequence lengths");
      // keep[i][j] = i >= j: arange(L) as a column against arange(S) as a row.
      Type i64 =
          IntegerType::get(rewriter.getContext(), 64, IntegerType::Signed);
      Value none = createConstantNone(rewriter, loc);
      auto arange = [&](int64_t length, ArrayRef<int64_t> shape) {
        Value range = AtenArangeOp::create(
            rewriter, loc,
            queryType.getWithSizesAndDtype(ArrayRef<int64_t>{length}, i64),
            createConstantInt(rewriter, loc, length), none, none, none, none);
        return createView(rewriter, loc, range, shape);
      };
      Value rows = arange(targetLength, {targetLength, 1});
      Value columns = arange(sourceLength, {1, sourceLength});
      Value keep = AtenGeTensorOp::create(
          rewriter, loc,
          queryType.getWithSizesAndDtype(
              ArrayRef<int64_t>{targetLength, sourceLength},
              rewriter.getI1Type()),
          rows, columns);
      scores = AtenWhereScalarOtherOp::create(rewriter, loc, scoresType, keep,
                                              scores, minusInf);
    }
    if (!isTorchNone(op.getAttnMask())) {
      auto maskType = getRankedTensorType(op.getAttnMask());
      if (!maskType)
        return rewriter.notifyMatchFailure(op, "mask needs known sizes");
      if (maskType.getDtype().isInteger(1))
        scores = AtenWhereScalarOtherOp::create(
            rewriter, loc, scoresType, op.getAttnMask(), scores, minusInf);
      else
        scores = AtenAddTensorOp::create(rewriter, loc, scoresType, scores,
                                         op.getAttnMask(),
                                         createConstantInt(rewriter, loc, 1));
    }
    Value weights = Aten_SoftmaxOp::create(
        rewriter, loc, scoresType, scores, createConstantInt(rewriter, loc, -1),
        createConstantBool(rewriter, loc, false));
    if (!isTorchNone(op.getAttnMask())) {
      // A row the mask leaves no score of has weights 0, not NaN: PyTorch's
      // math attention takes _safe_softmax (and its CPU flash attention
      // agrees), so such a query's result is 0.
      SmallVector<int64_t> rowSizes(scoreSizes);
      rowSizes.back() = 1;
      Value rowMax = AtenAmaxOp::create(
          rewriter, loc,
          queryType.getWithSizesAndDtype(rowSizes, queryType.getDtype()),
          scores, createIntList(rewriter, loc, ArrayRef<int64_t>{-1}),
          createConstantBool(rewriter, loc, true));
      Value kept = AtenGtScalarOp::create(
          rewriter, loc,
          queryType.getWithSizesAndDtype(rowSizes, rewriter.getI1Type()),
          rowMax, minusInf);
      weights = AtenWhereScalarOtherOp::create(
          rewriter, loc, scoresType, kept, weights,
          createConstantFloat(rewriter, loc, 0.0));
    }
    rewriter.replaceOpWithNewOp<AtenMatmulOp>(op, resultType, weights, value);
    return success();
  }

private:
  bool kept;
};

/// `value` through the ops that leave its values and sizes unchanged: a
/// clone, a conversion to its own type, an eval-mode dropout, and an expand
/// to its own sizes.
static Value skipValueIdentities(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto clone = dyn_cast<AtenCloneOp>(op)) {
      value = clone.getSelf();
      continue;
    }
    if (auto to = dyn_cast<AtenToDtypeOp>(op);
        to && to.getSelf().getType() == to.getResult().getType()) {
      value = to.getSelf();
      continue;
    }
    bool train;
    if (auto dropout = dyn_cast<AtenDropoutOp>(op);
        dropout && matchTorchConstantBool(dropout.getTrain(), train) &&
        !train) {
      value = dropout.getInput();
      continue;
    }
    auto expand = dyn_cast<AtenExpandOp>(op);
    auto from = expand ? getRankedTensorType(expand.getSelf()) : nullptr;
    auto to = expand ? getRankedTensorType(expand.getResult()) : nullptr;
    if (from && to && from.getSizes() == to.getSizes() &&
        llvm::none_of(from.getSizes(),
                      [](int64_t size) { return size == kUnknownSize; })) {
      value = expand.getSelf();
      continue;
    }
    break;
  }
  return value;
}

/// The 4-D tensor [B, H, X, Y] that `value` ([B*H, X, Y]) views, past
/// clones and same-size expands; null if it is not one.
static Value getViewedHeads(Value value) {
  auto view = value.getDefiningOp<AtenViewOp>();
  if (!view)
    return nullptr;
  Value heads = skipValueIdentities(view.getSelf());
  auto from = getRankedTensorType(heads);
  auto to = getRankedTensorType(value);
  if (!from || !to || from.getSizes().size() != 4 ||
      to.getSizes().size() != 3 ||
      productOfSizes(from.getSizes().take_front(2)) == kUnknownSize ||
      to.getSizes()[0] != productOfSizes(from.getSizes().take_front(2)) ||
      to.getSizes().drop_front() != from.getSizes().drop_front(2))
    return nullptr;
  return heads;
}

/// The float value of `value`, a constant float or a 0-d float literal.
static std::optional<double> matchConstantScalar(Value value) {
  double constant;
  if (matchTorchConstantFloat(value, constant))
    return constant;
  auto literal = value.getDefiningOp<ValueTensorLiteralOp>();
  auto elements =
      literal ? dyn_cast<DenseElementsAttr>(literal.getValue()) : nullptr;
  if (!elements || !elements.isSplat() || elements.getType().getRank() != 0 ||
      !isa<mlir::FloatType>(elements.getElementType()))
    return std::nullopt;
  return elements.getSplatValue<APFloat>().convertToDouble();
}

/// `scores` * scale + mask, the scale (mul or div by a constant) and the
/// float mask (add, alpha 1) each optional: the unscaled scores, with
/// `mask` (null without one) and `scale` (1 without one) set.
static FailureOr<Value> matchScaledScores(PatternRewriter &rewriter,
                                          Operation *op, Value scores,
                                          Value &mask, double &scale) {
  if (auto add = scores.getDefiningOp<AtenAddTensorOp>()) {
    int64_t alpha;
    if (!matchTorchConstantInt(add.getAlpha(), alpha) || alpha != 1)
      return rewriter.notifyMatchFailure(op, "mask added with alpha != 1");
    auto type = getRankedTensorType(add.getResult());
    auto lhs = getRankedTensorType(add.getSelf());
    bool maskFirst = !lhs || lhs.getSizes() != type.getSizes();
    scores = maskFirst ? add.getOther() : add.getSelf();
    mask = maskFirst ? add.getSelf() : add.getOther();
  }
  Operation *scaling = scores.getDefiningOp();
  if (isa_and_nonnull<AtenMulTensorOp, AtenMulScalarOp, AtenDivTensorOp,
                      AtenDivScalarOp>(scaling)) {
    std::optional<double> factor = matchConstantScalar(scaling->getOperand(1));
    if (!factor || *factor == 0.0)
      return rewriter.notifyMatchFailure(op, "scale is not a constant");
    bool divides = isa<AtenDivTensorOp, AtenDivScalarOp>(scaling);
    scale = divides ? 1.0 / *factor : *factor;
    scores = scaling->getOperand(0);
  }
  return scores;
}

/// scaled_dot_product_attention(q, k, v, mask, scale) of type `type`
/// replacing `op` (through a view to `op`'s sizes), if the backend fuses
/// that form (isFusableAttention).
static LogicalResult replaceWithAttention(PatternRewriter &rewriter,
                                          Operation *op, Value query,
                                          Value keys, Value values, Value mask,
                                          double scale) {
  Location loc = op->getLoc();
  auto queryType = getRankedTensorType(query);
  auto valueType = getRankedTensorType(values);
  auto resultType = getRankedTensorType(op->getResult(0));
  if (!queryType || !valueType || !resultType)
    return rewriter.notifyMatchFailure(op, "needs known sizes and dtypes");
  SmallVector<int64_t> sizes(queryType.getSizes().drop_back());
  sizes.push_back(valueType.getSizes().back());
  auto attentionType =
      queryType.getWithSizesAndDtype(sizes, queryType.getOptionalDtype());
  auto attention = AtenScaledDotProductAttentionOp::create(
      rewriter, loc, attentionType, query, keys, values,
      mask ? mask : createConstantNone(rewriter, loc),
      createConstantFloat(rewriter, loc, 0.0),
      createConstantBool(rewriter, loc, false),
      createConstantFloat(rewriter, loc, scale),
      createConstantBool(rewriter, loc, false));
  if (!isFusableAttention(attention)) {
    rewriter.eraseOp(attention);
    return rewriter.notifyMatchFailure(op, "the backend would not fuse it");
  }
  Value result = attention.getResult();
  if (resultType.getSizes() != ArrayRef<int64_t>(sizes))
    result = createView(rewriter, loc, result, resultType.getSizes());
  rewriter.replaceOp(op, result);
  return success();
}

/// Whether `softmax` is softmax(x, -1) over a 4-D x, in x's own dtype, read
/// only by the attention.
static bool isLastDimSoftmax(Operation *softmax) {
  if (!softmax || !softmax->hasOneUse())
    return false;
  int64_t dim;
  if (!matchTorchConstantInt(softmax->getOperand(1), dim) ||
      (dim != -1 && dim != 3))
    return false;
  if (auto half = dyn_cast<Aten_SoftmaxOp>(softmax)) {
    bool halfToFloat;
    return matchTorchConstantBool(half.getHalfToFloat(), halfToFloat) &&
           !halfToFloat;
  }
  auto byInt = dyn_cast<AtenSoftmaxIntOp>(softmax);
  return byInt && (isTorchNone(byInt.getDtype()) ||
                   byInt.getSelf().getType() == byInt.getResult().getType());
}

/// Attention written out as the transformers models export it (eager
/// attention): bmm(softmax(view(bmm(q, k^T)) * scale + mask, -1), v), each
/// bmm on [B*H, ...] views of the [B, H, ...] heads, becomes
/// scaled_dot_product_attention(q, k, v, mask, scale) viewed as the bmm's
/// result, for a backend that fuses attention (isFusableAttention). The
/// scale (mul or div by a constant) and the float mask (add) are optional;
/// the probabilities may pass through a clone (eval-mode dropout) and
/// same-size expands. A softmax read elsewhere (returned attention weights)
/// is left alone.
struct RecomposeAttention : OpRewritePattern<AtenBmmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenBmmOp op,
                                PatternRewriter &rewriter) const override {
    Value values = getViewedHeads(op.getMat2());
    auto probabilitiesView = op.getSelf().getDefiningOp<AtenViewOp>();
    if (!values || !probabilitiesView)
      return rewriter.notifyMatchFailure(op, "not [B*H] views of heads");
    Value probabilities = skipValueIdentities(probabilitiesView.getSelf());
    auto softmax = probabilities.getDefiningOp<Aten_SoftmaxOp>();
    if (!isLastDimSoftmax(softmax))
      return rewriter.notifyMatchFailure(op, "not softmax(scores, -1) @ v");
    // scores * scale + mask, each optional.
    Value mask;
    double scale = 1.0;
    FailureOr<Value> scaled =
        matchScaledScores(rewriter, op, softmax.getSelf(), mask, scale);
    if (failed(scaled))
      return failure();
    Value scores = *scaled;
    auto scoresView = scores.getDefiningOp<AtenViewOp>();
    auto product =
        scoresView ? scoresView.getSelf().getDefiningOp<AtenBmmOp>() : nullptr;
    Value query = product ? getViewedHeads(product.getSelf()) : nullptr;
    Value keysT = product ? getViewedHeads(product.getMat2()) : nullptr;
    auto permute = keysT ? keysT.getDefiningOp<AtenPermuteOp>() : nullptr;
    SmallVector<int64_t> order;
    if (!query || !permute ||
        !matchTorchConstantIntList(permute.getDims(), order) ||
        order != ArrayRef<int64_t>{0, 1, 3, 2})
      return rewriter.notifyMatchFailure(op, "scores are not q @ k^T");
    return replaceWithAttention(rewriter, op, query, permute.getSelf(), values,
                                mask, scale);
  }
};

/// k, for `keysT` = k.transpose(-2, -1) (transpose.int of the last two
/// dims of a 4-D k, or permute [0, 1, 3, 2]); null otherwise.
static Value untransposedKeys(Value keysT) {
  if (auto transpose = keysT.getDefiningOp<AtenTransposeIntOp>()) {
    int64_t dim0, dim1;
    if (!matchTorchConstantInt(transpose.getDim0(), dim0) ||
        !matchTorchConstantInt(transpose.getDim1(), dim1))
      return nullptr;
    dim0 = (dim0 + 4) % 4;
    dim1 = (dim1 + 4) % 4;
    return std::min(dim0, dim1) == 2 && std::max(dim0, dim1) == 3
               ? transpose.getSelf()
               : nullptr;
  }
  auto permute = keysT.getDefiningOp<AtenPermuteOp>();
  SmallVector<int64_t> order;
  if (permute && matchTorchConstantIntList(permute.getDims(), order) &&
      order == ArrayRef<int64_t>{0, 1, 3, 2})
    return permute.getSelf();
  return nullptr;
}

/// The same attention as exported without the Core ATen table (4-D
/// matmuls, as LLaMA-style decoders write it): matmul(softmax(matmul(q,
/// k.transpose(-2, -1)) * scale + mask, -1), v), the probabilities possibly
/// through a conversion to their own dtype and an eval-mode dropout.
struct RecomposeMatmulAttention : OpRewritePattern<AtenMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenMatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto rank4 = [](Value value) {
      auto type = getRankedTensorType(value);
      return type && type.getSizes().size() == 4;
    };
    Value values = op.getOther();
    Value probabilities = skipValueIdentities(op.getSelf());
    Operation *softmax = probabilities.getDefiningOp();
    if (!rank4(values) || !rank4(probabilities) ||
        !isa_and_nonnull<AtenSoftmaxIntOp, Aten_SoftmaxOp>(softmax) ||
        !isLastDimSoftmax(softmax))
      return rewriter.notifyMatchFailure(op, "not softmax(scores, -1) @ v");
    Value mask;
    double scale = 1.0;
    FailureOr<Value> scores =
        matchScaledScores(rewriter, op, softmax->getOperand(0), mask, scale);
    if (failed(scores))
      return failure();
    auto product = scores->getDefiningOp<AtenMatmulOp>();
    Value query = product ? product.getSelf() : nullptr;
    Value keys = product ? untransposedKeys(product.getOther()) : nullptr;
    if (!query || !keys || !rank4(query) || !rank4(keys))
      return rewriter.notifyMatchFailure(op, "scores are not q @ k^T");
    return replaceWithAttention(rewriter, op, query, keys, values, mask, scale);
  }
};

} // namespace

void mlir::torch2mlir::torch::decompose::populateAttentionRecompositions(
    RewritePatternSet &patterns) {
  patterns.add<RecomposeAttention, RecomposeMatmulAttention>(
      patterns.getContext());
}

void mlir::torch2mlir::torch::decompose::populateLinearDecompositions(
    DecompositionPatterns &set) {
  set.add<DecomposeAtenLinear, AtenLinearOp>();
  set.add<DecomposeAtenMatmul, AtenMatmulOp>();
  set.addForUnkeptForms<DecomposeAtenScaledDotProductAttention,
                        AtenScaledDotProductAttentionOp>();
  set.add<DecomposeAtenConv2d, AtenConv2dOp>();
  set.add<DecomposeAtenConv2dPadding, AtenConv2dPaddingOp>();
}
