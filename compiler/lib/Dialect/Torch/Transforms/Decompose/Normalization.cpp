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
    return AtenMeanDimOp::create(rewriter, loc, reducedType(x, dims), x,
                                 createIntList(rewriter, loc, dims),
                                 createConstantBool(rewriter, loc, true),
                                 createConstantNone(rewriter, loc));
  }
  /// sum of `x` over `dims`, dims kept.
  Value sum(Value x, ArrayRef<int64_t> dims) const {
    return AtenSumDimIntListOp::create(rewriter, loc, reducedType(x, dims), x,
                                       createIntList(rewriter, loc, dims),
                                       createConstantBool(rewriter, loc, true),
                                       createConstantNone(rewriter, loc));
  }
  /// The type of `x` reduced over `dims`, dims kept.
  BaseTensorType reducedType(Value x, ArrayRef<int64_t> dims) const {
    auto type = cast<BaseTensorType>(x.getType());
    SmallVector<int64_t> sizes(type.getSizes());
    for (int64_t dim : dims)
      sizes[dim] = 1;
    return type.getWithSizesAndDtype(sizes, type.getDtype());
  }
};

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
/// input of known rank >= 2, float results of known rank, and a weight and
/// bias (if given) of one dim.
static LogicalResult matchNormalization(PatternRewriter &rewriter,
                                        Operation *op, Value input,
                                        ArrayRef<Value> affine) {
  auto inputType = getRankedTensorType(input);
  if (!inputType || inputType.getSizes().size() < 2 ||
      !isa<mlir::FloatType>(inputType.getDtype()))
    return rewriter.notifyMatchFailure(
        op, "needs a float input of known rank >= 2");
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
    if (c == kUnknownSize)
      return rewriter.notifyMatchFailure(
          op, "unsupported: an unknown channel count");
    if (groups <= 0 || c % groups != 0)
      return rewriter.notifyMatchFailure(op,
                                         "channels not divisible by groups");
    int64_t perGroup = c / groups;
    Location loc = op.getLoc();
    Elementwise ew{rewriter, loc};
    Type dtype = getStatisticsDtype(inputType.getDtype(), /*float64=*/false);
    // Unknown batch and spatial sizes come from aten.size.int.
    auto spatialDims = llvm::to_vector(llvm::seq<int64_t>(2, sizes.size()));
    SmallVector<Value> sizeValues = createSizes(rewriter, loc, op.getInput());
    Value spatial = createCount(rewriter, loc, op.getInput(), spatialDims);
    Value perGroupValue = createConstantInt(rewriter, loc, perGroup);
    Value x = castTo(rewriter, loc, op.getInput(), dtype);
    x = createDynamicView(rewriter, loc, x,
                          {sizeValues[0],
                           createConstantInt(rewriter, loc, groups),
                           perGroupValue, spatial});
    auto viewType = cast<BaseTensorType>(x.getType());
    SmallVector<int64_t> statSizes{n, groups, 1, 1};
    auto statType = viewType.getWithSizesAndDtype(statSizes, dtype);
    Value none = createConstantNone(rewriter, loc);
    Value normalizedShape = PrimListConstructOp::create(
        rewriter, loc, ListType::get(IntType::get(rewriter.getContext())),
        ValueRange{perGroupValue, spatial});
    auto norm = AtenNativeLayerNormOp::create(
        rewriter, loc, TypeRange{viewType, statType, statType}, x,
        normalizedShape, none, none, op.getEps());
    // y from the statistics, not native_layer_norm's own result: the
    // normalization and the affine are then one elementwise op (two reads of
    // x, one write, as PyTorch's kernel), where the layer norm's result was
    // written, then read again by the affine.
    Value normalized = ew.mul(ew.sub(x, norm.getResult(1), viewType),
                              norm.getResult(2), viewType);
    Value y = applyAffine(ew, normalized, op.getWeight(), op.getBias(),
                          {groups, perGroup, 1});
    rewriter.replaceOp(
        op,
        {castTo(rewriter, loc, createDynamicView(rewriter, loc, y, sizeValues),
                getRankedTensorType(op.getResult0()).getDtype()),
         asResult(rewriter, loc, norm.getResult(1), op.getResult1()),
         asResult(rewriter, loc, norm.getResult(2), op.getResult2())});
    return success();
  }
};

/// `value` rounded to the nearest number of the float type `dtype` (ties
/// to even), as a C++ static_cast to it would.
static double roundToFloatType(double value, Type dtype) {
  auto floatType = dyn_cast<mlir::FloatType>(dtype);
  if (!floatType)
    return value;
  bool lost;
  APFloat rounded(value);
  rounded.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
  rounded.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return rounded.convertToDouble();
}

/// The dtype PyTorch's CPU batch-norm kernel keeps its statistics in (its
/// `param_t`): the input's, except float32 for a float16 or bfloat16 input
/// whose weight, bias or running stats are float32 (a "mixed type" call).
static Type getBatchNormParamDtype(Type element, ArrayRef<Value> params) {
  if (element.getIntOrFloatBitWidth() >= 32)
    return element;
  for (Value param : params) {
    if (isTorchNone(param))
      continue;
    if (auto type = getRankedTensorType(param); type && type.getDtype().isF32())
      return type.getDtype();
  }
  return element;
}

/// Training batch norm, per channel (dim 1) over the other dims
/// (torch.nn.functional.batch_norm with training=True):
///   y = (x - mean) * invstd * weight + bias, invstd = 1/sqrt(var + eps)
/// with the batch's mean and biased variance, which are returned.
/// _native_batch_norm_legit_functional also returns the updated running
/// stats, momentum * batch + (1 - momentum) * running (unbiased variance);
/// with training=False it normalizes with the running stats, which it
/// returns unchanged, and the saved statistics are empty.
///
/// In training, the statistics round where PyTorch's CPU kernel
/// (batch_norm_cpu_update_stats_template) stores them in its parameter
/// dtype (getBatchNormParamDtype), and y normalizes with the rounded mean
/// and invstd. bfloat16 rounds the mean; the sum of squared deviations,
/// then its quotient by the element count (the count rounded too: c10's
/// `BFloat16 / int64_t` converts it); invstd; and each step of the
/// running-stat update. float16 rounds the mean and invstd only. The
/// rounded variance moves invstd by up to an ulp, which the cancellation in
/// w * (x - mean) * invstd + b magnifies to several ulps of y. Inference
/// takes invstd unrounded, as the kernel does.
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
    if (llvm::is_contained(sizes, 0))
      return rewriter.notifyMatchFailure(op, "unsupported: empty input");
    int64_t c = sizes[1];
    Location loc = op.getLoc();
    Elementwise ew{rewriter, loc};
    Type element = inputType.getDtype();
    Type dtype = getStatisticsDtype(element, float64);
    // x viewed [N, C, spatial] and back; sizes unknown at compile time come
    // from aten.size.int, and so does the count each channel reduces.
    auto spatialDims = llvm::to_vector(llvm::seq<int64_t>(2, sizes.size()));
    SmallVector<int64_t> reduced{0};
    reduced.append(spatialDims);
    SmallVector<Value> sizeValues = createSizes(rewriter, loc, op.getInput());
    Value x = castTo(rewriter, loc, op.getInput(), dtype);
    x = createDynamicView(
        rewriter, loc, x,
        {sizeValues[0], sizeValues[1],
         createCount(rewriter, loc, op.getInput(), spatialDims)});
    auto xType = cast<BaseTensorType>(x.getType());
    SmallVector<int64_t> statShape{1, c, 1};
    auto perChannel = [&](Value stat) {
      return createView(rewriter, loc, castTo(rewriter, loc, stat, dtype),
                        statShape);
    };
    // The kernel saves mean and invstd in its parameter dtype. bfloat16
    // also keeps the sum of squared deviations, its quotients by the count
    // and every step of the running-stat update in bfloat16; float16 keeps
    // them in float32 (measured against PyTorch 2.13's CPU kernel: with
    // these roundings the results are bit-identical to eager's).
    Type param = getBatchNormParamDtype(element, affine);
    Type sums = param.isF16() ? dtype : param;
    // `stat` as the kernel stores it: rounded to `type`, computed on in
    // `dtype`.
    auto stored = [&](Value stat, Type type) {
      if (type == dtype)
        return stat;
      return castTo(rewriter, loc, castTo(rewriter, loc, stat, type), dtype);
    };
    auto scaled = [&](Value stat, double factor) {
      return AtenMulScalarOp::create(
          rewriter, loc, stat.getType(), stat,
          createConstantFloat(rewriter, loc, factor));
    };
    // stat / count in `sums`, the count converted to it first (c10's
    // `BFloat16 / int64_t` does); an unknown count as a 0-d tensor.
    Value count = createCount(rewriter, loc, op.getInput(), reduced);
    auto perElement = [&](Value stat, Value count) {
      int64_t known;
      if (matchTorchConstantInt(count, known))
        return stored(
            AtenDivScalarOp::create(
                rewriter, loc, stat.getType(), stat,
                createConstantFloat(
                    rewriter, loc,
                    roundToFloatType(static_cast<double>(known), sums))),
            sums);
      Value divisor = createScalarTensor(rewriter, loc, count, sums);
      return stored(
          AtenDivTensorOp::create(rewriter, loc, stat.getType(), stat,
                                  castTo(rewriter, loc, divisor, dtype)),
          sums);
    };
    Value batchMean, varianceSum, mean, invstd;
    if (training) {
      batchMean = ew.mean(x, {0, 2});
      Value centered = ew.sub(x, batchMean, xType);
      varianceSum =
          stored(ew.sum(ew.mul(centered, centered, xType), {0, 2}), sums);
      batchMean = stored(batchMean, sums);
      mean = sums == param ? batchMean : stored(batchMean, param);
      invstd =
          stored(ew.invstd(perElement(varianceSum, count), op.getEps()), param);
    } else if constexpr (HasRunningStats) {
      // Inference: the kernel normalizes with invstd in float32, unrounded.
      mean = perChannel(op.getRunningMean());
      invstd = ew.invstd(perChannel(op.getRunningVar()), op.getEps());
    }
    Value y = ew.mul(ew.sub(x, mean, xType), invstd, xType);
    y = applyAffine(ew, y, op.getWeight(), op.getBias(), statShape);
    y = createDynamicView(rewriter, loc, y, sizeValues);
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
        // momentum * batch + (1 - momentum) * running in the kernel's
        // order: momentum and 1 - momentum are `sums` numbers; the mean's
        // products and sum round to `sums`, the unbiased variance's product
        // does not (it multiplies an accumulator-width number).
        auto statType = cast<BaseTensorType>(mean.getType());
        double take = roundToFloatType(momentum, sums);
        double keep = roundToFloatType(1.0 - take, sums);
        Value runningMean =
            ew.add(stored(scaled(batchMean, take), sums),
                   stored(scaled(perChannel(op.getRunningMean()), keep), sums),
                   statType);
        int64_t known;
        Value unbiasedCount =
            matchTorchConstantInt(count, known)
                ? createConstantInt(rewriter, loc, known - 1)
                : AtenSubIntOp::create(rewriter, loc,
                                       IntType::get(rewriter.getContext()),
                                       count, ew.one());
        Value unbiased = perElement(varianceSum, unbiasedCount);
        Value runningVar =
            ew.add(scaled(unbiased, take),
                   stored(scaled(perChannel(op.getRunningVar()), keep), sums),
                   statType);
        results.push_back(
            asResult(rewriter, loc, runningMean, op->getResult(3)));
        results.push_back(
            asResult(rewriter, loc, runningVar, op->getResult(4)));
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
