//===- Normalization.cpp - Normalization ----------------------------------===//
//
// Part of the torch2mlir project.
//
// batch_norm and layer_norm into their native forms; group norm and
// training batch norm into means, variances and elementwise ops (their
// statistics are plain reductions, not a backend's business).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch::decompose;

namespace {

/// batch_norm(training=False) with running statistics.
struct DecomposeAtenBatchNorm : OpRewritePattern<AtenBatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenBatchNormOp op,
                                PatternRewriter &rewriter) const override {
    bool training;
    if (!matchTorchConstantBool(op.getTraining(), training) || training)
      return rewriter.notifyMatchFailure(
          op, "unsupported: training-mode batch_norm (export the model in eval "
              "mode)");
    if (isTorchNone(op.getRunningMean()) || isTorchNone(op.getRunningVar()))
      return rewriter.notifyMatchFailure(op, "unsupported: no running stats");
    auto resultType = getRankedTensorType(op.getResult());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "needs a known result type");
    auto statsType = resultType.getWithSizesAndDtype(ArrayRef<int64_t>{0},
                                                     resultType.getDtype());
    auto norm = Aten_NativeBatchNormLegitNoTrainingOp::create(
        rewriter, op.getLoc(), TypeRange{resultType, statsType, statsType},
        op.getInput(), op.getWeight(), op.getBias(), op.getRunningMean(),
        op.getRunningVar(), op.getMomentum(), op.getEps());
    rewriter.replaceOp(op, norm.getResult(0));
    return success();
  }
};

/// layer_norm(x, shape, w, b, eps) = native_layer_norm(...)[0]; the mean
/// and rstd results have the input's leading dims and size-1 trailing dims.
struct DecomposeAtenLayerNorm : OpRewritePattern<AtenLayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLayerNormOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getInput());
    auto resultType = getRankedTensorType(op.getResult());
    SmallVector<int64_t> normalized;
    if (!inputType || !resultType ||
        !matchTorchConstantIntList(op.getNormalizedShape(), normalized))
      return rewriter.notifyMatchFailure(
          op, "needs known sizes and a constant normalized_shape");
    ArrayRef<int64_t> sizes = inputType.getSizes();
    if (normalized.size() > sizes.size())
      return rewriter.notifyMatchFailure(op,
                                         "normalized_shape longer than input");
    SmallVector<int64_t> statSizes(sizes.begin(),
                                   sizes.end() - normalized.size());
    statSizes.append(normalized.size(), 1);
    auto statType =
        resultType.getWithSizesAndDtype(statSizes, resultType.getDtype());
    auto norm = AtenNativeLayerNormOp::create(
        rewriter, op.getLoc(), TypeRange{resultType, statType, statType},
        op.getInput(), op.getNormalizedShape(), op.getWeight(), op.getBias(),
        op.getEps());
    rewriter.replaceOp(op, norm.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Group norm and training batch norm
//===----------------------------------------------------------------------===//

/// The dtype the normalization statistics of `dtype` are computed in: that
/// of the sums (float64 for float32 and float64 when the backend has it,
/// float32 for float16 and bfloat16), as the linalg reductions accumulate.
static Type getStatisticsDtype(Type dtype, bool float64) {
  Builder b(dtype.getContext());
  if (float64 && (dtype.isF32() || dtype.isF64()))
    return b.getF64Type();
  if (dtype.getIntOrFloatBitWidth() < 32)
    return b.getF32Type();
  return dtype;
}

/// Elementwise builders over tensors of one type (`type`).
struct Elementwise {
  PatternRewriter &rewriter;
  Location loc;
  Value add(Value a, Value b, BaseTensorType type) const {
    return AtenAddTensorOp::create(rewriter, loc, type, a, b, one());
  }
  Value sub(Value a, Value b, BaseTensorType type) const {
    return AtenSubTensorOp::create(rewriter, loc, type, a, b, one());
  }
  Value mul(Value a, Value b, BaseTensorType type) const {
    return AtenMulTensorOp::create(rewriter, loc, type, a, b);
  }
  Value one() const { return createConstantInt(rewriter, loc, 1); }
  /// 1 / sqrt(variance + eps), the order PyTorch's kernels compute it in.
  Value invstd(Value variance, Value eps) const {
    auto type = cast<BaseTensorType>(variance.getType());
    Value shifted =
        AtenAddScalarOp::create(rewriter, loc, type, variance, eps, one());
    Value root = AtenSqrtOp::create(rewriter, loc, type, shifted);
    return AtenReciprocalOp::create(rewriter, loc, type, root);
  }
  /// mean of `x` over `dims`, dims kept.
  Value mean(Value x, ArrayRef<int64_t> dims) const {
    auto type = cast<BaseTensorType>(x.getType());
    SmallVector<int64_t> sizes(type.getSizes());
    for (int64_t dim : dims)
      sizes[dim] = 1;
    return AtenMeanDimOp::create(
        rewriter, loc, type.getWithSizesAndDtype(sizes, type.getDtype()), x,
        createIntList(rewriter, loc, dims),
        createConstantBool(rewriter, loc, true),
        createConstantNone(rewriter, loc));
  }
};

/// mean, biased variance and centered `x` over `dims` (two passes: the
/// mean, then the mean of the squared deviations, as the CPU kernels).
struct Moments {
  Value mean, variance, centered;
};
static Moments computeMoments(const Elementwise &ew, Value x,
                              ArrayRef<int64_t> dims) {
  auto type = cast<BaseTensorType>(x.getType());
  Value mean = ew.mean(x, dims);
  Value centered = ew.sub(x, mean, type);
  Value variance = ew.mean(ew.mul(centered, centered, type), dims);
  return {mean, variance, centered};
}

/// `value` viewed to the sizes of `result` (a result of the op being
/// replaced) and cast to its dtype.
static Value asResult(PatternRewriter &rewriter, Location loc, Value value,
                      Value result) {
  auto type = getRankedTensorType(result);
  return castTo(rewriter, loc,
                createView(rewriter, loc, value, type.getSizes()),
                type.getDtype());
}

/// Checks the operands every normalization decomposition needs: a float
/// input of known sizes (rank >= 2), float results of known sizes, and a
/// weight and bias (if given) of one dim.
static LogicalResult matchNormalization(PatternRewriter &rewriter,
                                        Operation *op, Value input,
                                        ArrayRef<Value> affine) {
  auto inputType = getRankedTensorType(input);
  if (!inputType || inputType.getSizes().size() < 2 ||
      !isa<mlir::FloatType>(inputType.getDtype()) ||
      productOfSizes(inputType.getSizes()) == kUnknownSize)
    return rewriter.notifyMatchFailure(
        op, "needs a float input of known sizes and rank >= 2");
  for (Value result : op->getResults()) {
    auto type = getRankedTensorType(result);
    if (!type || !isa<mlir::FloatType>(type.getDtype()))
      return rewriter.notifyMatchFailure(op, "needs known float results");
  }
  for (Value value : affine) {
    if (isTorchNone(value))
      continue;
    auto type = getRankedTensorType(value);
    if (!type || type.getSizes().size() != 1 ||
        !isa<mlir::FloatType>(type.getDtype()))
      return rewriter.notifyMatchFailure(
          op, "weight, bias and running stats must be 1-D float tensors");
  }
  return success();
}

/// y * weight + bias for per-channel weight and bias [C] (either may be
/// None) viewed to `shape` to broadcast against y, in y's dtype.
static Value applyAffine(const Elementwise &ew, Value y, Value weight,
                         Value bias, ArrayRef<int64_t> shape) {
  auto type = cast<BaseTensorType>(y.getType());
  auto perChannel = [&](Value value) {
    Value wide = castTo(ew.rewriter, ew.loc, value, type.getDtype());
    return createView(ew.rewriter, ew.loc, wide, shape);
  };
  if (!isTorchNone(weight))
    y = ew.mul(y, perChannel(weight), type);
  if (!isTorchNone(bias))
    y = ew.add(y, perChannel(bias), type);
  return y;
}

/// native_group_norm(x [N, C, *], weight, bias, N, C, HxW, group, eps) ->
/// (y, mean [N, group], rstd [N, group]): x viewed as [N, group, C/group,
/// HxW]; y = (x - mean) * rstd * weight[c] + bias[c], rstd = 1/sqrt(biased
/// var + eps) (torch.nn.functional.group_norm). The moments are those of a
/// native_layer_norm over the last two dims of that view, in the input's
/// dtype (float16 and bfloat16 in float32, rounded once), as PyTorch's CPU
/// kernel computes them; weight and bias, viewed [group, C/group, 1], apply
/// in the same view, so that backends fuse them into the normalization.
/// A backend that keeps the op (`legal-ops`) gets the forms it lowers group
/// by group (isRowGroupNorm) whole.
struct DecomposeAtenNativeGroupNorm : OpRewritePattern<AtenNativeGroupNormOp> {
  DecomposeAtenNativeGroupNorm(MLIRContext *context, bool kept)
      : OpRewritePattern(context), kept(kept) {}
  bool kept;
  LogicalResult matchAndRewrite(AtenNativeGroupNormOp op,
                                PatternRewriter &rewriter) const override {
    if (kept && isRowGroupNorm(op))
      return rewriter.notifyMatchFailure(op, "the backend lowers it whole");
    if (failed(matchNormalization(rewriter, op, op.getInput(),
                                  {op.getWeight(), op.getBias()})))
      return failure();
    int64_t groups;
    if (!matchTorchConstantInt(op.getGroup(), groups))
      return rewriter.notifyMatchFailure(op, "group must be a constant");
    auto inputType = getRankedTensorType(op.getInput());
    ArrayRef<int64_t> sizes = inputType.getSizes();
    int64_t n = sizes[0], c = sizes[1];
    if (groups <= 0 || c % groups != 0)
      return rewriter.notifyMatchFailure(op,
                                         "channels not divisible by groups");
    int64_t spatial = productOfSizes(sizes.drop_front(2));
    int64_t perGroup = c / groups;
    Location loc = op.getLoc();
    Elementwise ew{rewriter, loc};
    Type dtype = getStatisticsDtype(inputType.getDtype(), /*float64=*/false);
    Value x = castTo(rewriter, loc, op.getInput(), dtype);
    x = createView(rewriter, loc, x, {n, groups, perGroup, spatial});
    auto viewType = cast<BaseTensorType>(x.getType());
    SmallVector<int64_t> statSizes{n, groups, 1, 1};
    auto statType = viewType.getWithSizesAndDtype(statSizes, dtype);
    Value none = createConstantNone(rewriter, loc);
    auto norm = AtenNativeLayerNormOp::create(
        rewriter, loc, TypeRange{viewType, statType, statType}, x,
        createIntList(rewriter, loc, {perGroup, spatial}), none, none,
        op.getEps());
    // y from the statistics, not native_layer_norm's own result: the
    // normalization and the affine are then one elementwise op (two reads of
    // x, one write, as PyTorch's kernel), where the layer norm's result was
    // written, then read again by the affine.
    Value normalized = ew.mul(ew.sub(x, norm.getResult(1), viewType),
                              norm.getResult(2), viewType);
    Value y = applyAffine(ew, normalized, op.getWeight(), op.getBias(),
                          {groups, perGroup, 1});
    rewriter.replaceOp(
        op, {asResult(rewriter, loc, y, op.getResult0()),
             asResult(rewriter, loc, norm.getResult(1), op.getResult1()),
             asResult(rewriter, loc, norm.getResult(2), op.getResult2())});
    return success();
  }
};

/// Training batch norm, per channel (dim 1) over the other dims
/// (torch.nn.functional.batch_norm with training=True):
///   y = (x - mean) * invstd * weight + bias, invstd = 1/sqrt(var + eps)
/// with the batch's mean and biased variance, which are returned (float16
/// and bfloat16 normalize with them rounded to the input dtype, as
/// PyTorch's CPU kernel saves them). _native_batch_norm_legit_functional
/// also returns the updated running stats, momentum * batch + (1 -
/// momentum) * running (unbiased variance); with training=False it
/// normalizes with the running stats, which it returns unchanged, and the
/// saved statistics are empty.
template <typename OpTy, bool HasRunningStats>
struct DecomposeBatchNormTraining : OpRewritePattern<OpTy> {
  DecomposeBatchNormTraining(MLIRContext *context, bool float64)
      : OpRewritePattern<OpTy>(context), float64(float64) {}
  bool float64;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> affine{op.getWeight(), op.getBias()};
    if constexpr (HasRunningStats)
      affine.append({op.getRunningMean(), op.getRunningVar()});
    if (failed(matchNormalization(rewriter, op, op.getInput(), affine)))
      return failure();
    bool training;
    if (!matchTorchConstantBool(op.getTraining(), training))
      return rewriter.notifyMatchFailure(op, "training must be a constant");
    if (!HasRunningStats && !training)
      return rewriter.notifyMatchFailure(
          op, "unsupported: no running stats and training=False");
    double momentum;
    if (!matchTorchConstantFloat(op.getMomentum(), momentum))
      return rewriter.notifyMatchFailure(op, "momentum must be a constant");
    auto inputType = getRankedTensorType(op.getInput());
    ArrayRef<int64_t> sizes = inputType.getSizes();
    int64_t n = sizes[0], c = sizes[1];
    int64_t spatial = productOfSizes(sizes.drop_front(2));
    if (n * c * spatial == 0)
      return rewriter.notifyMatchFailure(op, "unsupported: empty input");
    Location loc = op.getLoc();
    Elementwise ew{rewriter, loc};
    Type element = inputType.getDtype();
    Type dtype = getStatisticsDtype(element, float64);
    Value x = castTo(rewriter, loc, op.getInput(), dtype);
    x = createView(rewriter, loc, x, {n, c, spatial});
    auto xType = cast<BaseTensorType>(x.getType());
    SmallVector<int64_t> statShape{1, c, 1};
    auto perChannel = [&](Value stat) {
      return createView(rewriter, loc, castTo(rewriter, loc, stat, dtype),
                        statShape);
    };
    // Normalizes with the statistics as the kernel saves them.
    auto saved = [&](Value stat) {
      return castTo(rewriter, loc, castTo(rewriter, loc, stat, element), dtype);
    };
    Value mean, variance, invstd;
    if (training) {
      Moments moments = computeMoments(ew, x, {0, 2});
      mean = moments.mean;
      variance = moments.variance;
      invstd = ew.invstd(variance, op.getEps());
    } else if constexpr (HasRunningStats) {
      mean = perChannel(op.getRunningMean());
      invstd = ew.invstd(perChannel(op.getRunningVar()), op.getEps());
    }
    Value y = ew.mul(ew.sub(x, saved(mean), xType), saved(invstd), xType);
    y = applyAffine(ew, y, op.getWeight(), op.getBias(), statShape);
    y = createView(rewriter, loc, y, sizes);
    SmallVector<Value> results{castTo(rewriter, loc, y, element)};
    if (training) {
      results.push_back(asResult(rewriter, loc, mean, op->getResult(1)));
      results.push_back(asResult(rewriter, loc, invstd, op->getResult(2)));
    } else {
      for (int i = 1; i <= 2; ++i) {
        auto type = getRankedTensorType(op->getResult(i));
        Value none = createConstantNone(rewriter, loc);
        results.push_back(AtenEmptyMemoryFormatOp::create(
            rewriter, loc, type, createIntList(rewriter, loc, type.getSizes()),
            createConstantInt(rewriter, loc,
                              *getScalarTypeCode(type.getDtype())),
            none, none, none, none));
      }
    }
    if constexpr (HasRunningStats) {
      if (!training) {
        results.push_back(
            asResult(rewriter, loc, op.getRunningMean(), op->getResult(3)));
        results.push_back(
            asResult(rewriter, loc, op.getRunningVar(), op->getResult(4)));
      } else {
        int64_t count = n * spatial;
        auto statType = cast<BaseTensorType>(mean.getType());
        auto update = [&](Value running, Value batch, double unbias,
                          Value result) {
          Value take = createConstantFloat(rewriter, loc, momentum * unbias);
          Value keep = createConstantFloat(rewriter, loc, 1.0 - momentum);
          Value sum = ew.add(
              AtenMulScalarOp::create(rewriter, loc, statType, batch, take),
              AtenMulScalarOp::create(rewriter, loc, statType,
                                      perChannel(running), keep),
              statType);
          return asResult(rewriter, loc, sum, result);
        };
        results.push_back(
            update(op.getRunningMean(), mean, 1.0, op->getResult(3)));
        results.push_back(
            update(op.getRunningVar(), variance,
                   static_cast<double>(count) / static_cast<double>(count - 1),
                   op->getResult(4)));
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::torch::decompose::populateNormalizationDecompositions(
    DecompositionPatterns &set) {
  set.add<DecomposeAtenBatchNorm, AtenBatchNormOp>();
  set.add<DecomposeAtenLayerNorm, AtenLayerNormOp>();
  set.addForUnkeptForms<DecomposeAtenNativeGroupNorm, AtenNativeGroupNormOp>();
  set.add<
      DecomposeBatchNormTraining<Aten_NativeBatchNormLegitFunctionalOp, true>,
      Aten_NativeBatchNormLegitFunctionalOp>(set.float64);
  set.add<DecomposeBatchNormTraining<Aten_NativeBatchNormLegitNoStatsOp, false>,
          Aten_NativeBatchNormLegitNoStatsOp>(set.float64);
}
