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

/// `y * weight + bias`, each present or not; `affine` holds the weight
/// (if any) then the bias (if any) elements.
static Value applyAffine(OpBuilder &b, Location loc, Value y, ValueRange affine,
                         bool hasWeight, bool hasBias) {
  size_t next = 0;
  if (hasWeight)
    y = arith::MulFOp::create(b, loc, y, affine[next++]);
  if (hasBias)
    y = arith::AddFOp::create(b, loc, y, affine[next++]);
  return y;
}

/// Replaces `op` (a normalization) by `normalized` and, for its
/// statistics, empty tensors of `statTypes` (static shapes): nothing
/// computes them (PyTorch's inference batch norm returns them empty; a
/// group norm lowered group by group has them unused).
static void replaceWithEmptyStatistics(ConversionPatternRewriter &rewriter,
                                       Operation *op, Value normalized,
                                       ArrayRef<RankedTensorType> statTypes) {
  SmallVector<Value> results{normalized};
  for (RankedTensorType type : statTypes)
    results.push_back(tensor::EmptyOp::create(
        rewriter, op->getLoc(), type.getShape(), type.getElementType()));
  rewriter.replaceOp(op, results);
}

namespace {

/// Inference batch norm:
///   y = (x - running_mean) / sqrt(running_var + eps) * weight + bias
/// per channel (dim 1), in one linalg.generic. The saved mean/invstd
/// results of this op are empty tensors in PyTorch, and here. f16/bf16
/// compute in f32 and round once, as PyTorch's CPU kernel does.
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
    // f16/bf16 compute in f32 and round once, as PyTorch's CPU kernel does.
    Type math = getOpMathType(element);
    eps = convertScalar(rewriter, loc, eps, math);

    int64_t rank = resultType.getRank();
    MLIRContext *context = rewriter.getContext();
    AffineMap channelMap =
        AffineMap::get(rank, 0, getAffineDimExpr(1, context));
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
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange blockArgs) {
              SmallVector<Value> args;
              for (Value arg : blockArgs.drop_back())
                args.push_back(castFloat(b, l, arg, math));
              Value centered = arith::SubFOp::create(b, l, args[0], args[1]);
              Value invstd = math::RsqrtOp::create(
                  b, l, arith::AddFOp::create(b, l, args[2], eps));
              Value y = arith::MulFOp::create(b, l, centered, invstd);
              y = applyAffine(b, l, y, ArrayRef<Value>(args).drop_front(3),
                              hasWeight, hasBias);
              linalg::YieldOp::create(b, l, castFloat(b, l, y, element));
            })
            .getResult(0);
    replaceWithEmptyStatistics(rewriter, op, normalized,
                               {meanType, invstdType});
    return success();
  }
};

/// Ends a loop body over a row's positions: `y` (in the compute type)
/// rounded to `resultElement` and inserted at `iv` of the carried `row`,
/// which is yielded.
static void yieldInserted(OpBuilder &b, Location loc, Value y,
                          Type resultElement, Value row, Value iv) {
  y = castFloat(b, loc, y, resultElement);
  scf::YieldOp::create(
      b, loc,
      tensor::InsertOp::create(b, loc, y, row, ValueRange{iv}).getResult());
}

/// The mean and rstd = rsqrt(biased variance + eps) of one row, in
/// `element`: two loops over it (the sum, then the sum of squared
/// deviations), reassociable so that LLVM vectorizes them.
static std::pair<Value, Value> createRowMoments(OpBuilder &rb, Location rl,
                                                const Row &row, Type element,
                                                Value count, Value eps) {
  auto reassoc = arith::FastMathFlags::reassoc;
  Value zero = arith::ConstantOp::create(rb, rl, rb.getZeroAttr(element));
  auto sumOver = [&](Value mean) {
    return row
        .loop(rb, rl, ValueRange{zero},
              [&](OpBuilder &nb, Location l, Value iv, ValueRange carried) {
                Value x = castFloat(nb, l, row.read(nb, l, iv), element);
                if (mean) {
                  Value d = arith::SubFOp::create(nb, l, x, mean);
                  x = arith::MulFOp::create(nb, l, d, d);
                }
                scf::YieldOp::create(
                    nb, l,
                    arith::AddFOp::create(nb, l, x, carried[0], reassoc)
                        .getResult());
              })
        .getResult(0);
  };
  Value mean = arith::DivFOp::create(rb, rl, sumOver(Value()), count);
  Value var = arith::DivFOp::create(rb, rl, sumOver(mean), count);
  Value rstd =
      math::RsqrtOp::create(rb, rl, arith::AddFOp::create(rb, rl, var, eps));
  return {mean, rstd};
}

/// native_layer_norm's result over the last dim of `input`, one row at a
/// time (createRowForall): three scalar loops over the row (the sum, the
/// sum of squared deviations, then y), so that a row stays in the L1 cache
/// where three whole-tensor passes stream it from memory. Computes in
/// `element` (f32 for f16/bf16 inputs) and rounds to `resultType`'s
/// element; `weight` and `bias` (1-D, or null) apply per position.
static Value createRowLayerNorm(OpBuilder &b, Location loc, Value input,
                                RankedTensorType resultType, Type element,
                                Value count, Value eps, Value weight,
                                Value bias) {
  Type resultElement = resultType.getElementType();
  return createRowForall(
      b, loc, input, resultType,
      [&](OpBuilder &rb, Location rl, const Row &row) -> Value {
        auto [mean, rstd] = createRowMoments(rb, rl, row, element, count, eps);
        return row
            .loop(rb, rl, ValueRange{row.out},
                  [&](OpBuilder &nb, Location l, Value iv, ValueRange carried) {
                    Value x = castFloat(nb, l, row.read(nb, l, iv), element);
                    Value y = arith::MulFOp::create(
                        nb, l, arith::SubFOp::create(nb, l, x, mean), rstd);
                    SmallVector<Value> affine;
                    for (Value v : {weight, bias})
                      if (v)
                        affine.push_back(castFloat(
                            nb, l,
                            tensor::ExtractOp::create(nb, l, v, ValueRange{iv}),
                            element));
                    y = applyAffine(nb, l, y, affine, bool(weight), bool(bias));
                    yieldInserted(nb, l, y, resultElement, carried[0], iv);
                  })
            .getResult(0);
      });
}

/// A layer norm statistic `stat` (in the compute type) in the statistics'
/// dtype and keepdim shape `statType`; null when the reshape's sizes are
/// unknown (kUnknownReshapeSizes).
static Value createStatistic(OpBuilder &b, Location loc, Value stat,
                             RankedTensorType statType) {
  Type statElement = statType.getElementType();
  auto type = cast<RankedTensorType>(stat.getType());
  if (type.getElementType() != statElement)
    stat =
        createElementwise(b, loc, type.clone(statElement), ValueRange{stat},
                          [&](OpBuilder &nb, Location l, ValueRange args) {
                            return convertScalar(nb, l, args[0], statElement);
                          });
  return createReshape(b, loc, stat, statType);
}

/// Replaces `op` (a native_layer_norm whose normalized result is unused)
/// by its mean and rstd computed row by row over `rows` (the input, its
/// normalized dims collapsed into the last): both statistics of a row in one
/// task, while the row is in the cache (createRowStatistics), then each
/// converted to the statistics' dtype and keepdim shape `statType`.
static LogicalResult
replaceWithRowStatistics(ConversionPatternRewriter &rewriter,
                         AtenNativeLayerNormOp op, Value input, Value rows,
                         RankedTensorType resultType, RankedTensorType statType,
                         Type element, Value count, Value eps) {
  Location loc = op.getLoc();
  Value stats = createRowStatistics(
      rewriter, loc, rows, element, 2,
      [&](OpBuilder &rb, Location rl, const Row &row) -> SmallVector<Value> {
        auto [mean, rstd] = createRowMoments(rb, rl, row, element, count, eps);
        return {mean, rstd};
      });
  auto statsType = cast<RankedTensorType>(stats.getType());
  int64_t lead = statsType.getRank() - 1;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, stats);
  sizes.back() = rewriter.getIndexAttr(1);
  SmallVector<OpFoldResult> strides(lead + 1, rewriter.getIndexAttr(1));
  auto statistic = [&](int64_t index) -> Value {
    SmallVector<OpFoldResult> offsets(lead, rewriter.getIndexAttr(0));
    offsets.push_back(rewriter.getIndexAttr(index));
    return createStatistic(rewriter, loc,
                           tensor::ExtractSliceOp::create(
                               rewriter, loc, stats, offsets, sizes, strides),
                           statType);
  };
  Value mean = statistic(0), rstd = statistic(1);
  if (!mean || !rstd)
    return reportFailure(rewriter, op, kUnknownReshapeSizes);
  // The normalized result has no user: an empty tensor stands for it.
  rewriter.replaceOp(
      op, {createEmpty(rewriter, loc, resultType, input), mean, rstd});
  return success();
}

/// native_layer_norm over the trailing `normalized_shape` dims:
///   mean = sum(x) / N, rstd = rsqrt(sum((x - mean)^2) / N + eps),
///   y = (x - mean) * rstd * weight + bias,
/// with mean and rstd returned in the keepdim shape, as PyTorch does.
/// f16/bf16 compute in f32 and round the results once, as PyTorch's CPU
/// kernel (its mixed-type path) does. The sums may reassociate: LLVM
/// vectorizes them into partial sums, as PyTorch's kernel does.
struct ConvertNativeLayerNorm : OpConversionPattern<AtenNativeLayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenNativeLayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    auto resultType = getConvertedTensorType(converter, op.getResult0());
    auto statType = getConvertedTensorType(converter, op.getResult1());
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (!resultType || !statType || resultType != inputType)
      return reportFailure(rewriter, op,
                           "needs ranked results of the input's type");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op, "unsupported: non-float layer norm");
    // Only its length matters: the normalized sizes are the input's.
    auto normalized =
        op.getNormalizedShape().getDefiningOp<PrimListConstructOp>();
    if (!normalized)
      return reportFailure(rewriter, op,
                           "normalized_shape must be a prim.ListConstruct");
    int64_t rank = inputType.getRank();
    int64_t axis = rank - static_cast<int64_t>(normalized.getElements().size());
    if (axis < 0)
      return reportFailure(rewriter, op,
                           "normalized_shape longer than the input");
    Value eps = adaptor.getEps();
    if (!isa<mlir::FloatType>(eps.getType()))
      return reportFailure(rewriter, op, "eps must be a float");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Type resultElement = element;
    if (element.isF16() || element.isBF16())
      element = rewriter.getF32Type();
    eps = convertScalar(rewriter, loc, eps, element);

    // Maps: the full input, and its leading (kept) dims.
    SmallVector<AffineExpr> keptExprs;
    for (int64_t i = 0; i < axis; ++i)
      keptExprs.push_back(getAffineDimExpr(i, context));
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap kept = AffineMap::get(rank, 0, keptExprs, context);
    SmallVector<utils::IteratorType> reduceIterators(
        axis, utils::IteratorType::parallel);
    reduceIterators.append(rank - axis, utils::IteratorType::reduction);
    auto reducedType =
        RankedTensorType::get(inputType.getShape().take_front(axis), element);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    // Zeros of the reduced (kept-dims) shape; dynamic kept dims as the input.
    SmallVector<Value> keptSizes;
    for (int64_t i = 0; i < axis; ++i)
      if (inputType.isDynamicDim(i))
        keptSizes.push_back(tensor::DimOp::create(rewriter, loc, input, i));
    auto createReducedZeros = [&]() -> Value {
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, reducedType.getShape(), element, keptSizes);
      return linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                    ValueRange{empty})
          .getResult(0);
    };
    // The number of elements normalized together, at run time where a
    // normalized size is unknown.
    int64_t count = 1;
    Value countValue;
    for (int64_t i = axis; i < rank; ++i) {
      if (!inputType.isDynamicDim(i)) {
        count *= inputType.getDimSize(i);
        continue;
      }
      Value size = tensor::DimOp::create(rewriter, loc, input, i);
      countValue = countValue
                       ? arith::MulIOp::create(rewriter, loc, countValue, size)
                       : size;
    }
    if (countValue) {
      countValue = arith::MulIOp::create(
          rewriter, loc, countValue,
          arith::ConstantIndexOp::create(rewriter, loc, count));
      countValue = arith::UIToFPOp::create(
          rewriter, loc, element,
          arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(),
                                       countValue));
    } else {
      countValue = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(element, count));
    }

    bool hasWeight = !isTorchNone(op.getWeight());
    bool hasBias = !isTorchNone(op.getBias());
    // Its statistics unused (nn.LayerNorm), or its result unused (GroupNorm's
    // decomposition, which normalizes with the statistics): row by row, the
    // same operations in the same order. Trailing dims normalized together
    // (GroupNorm's [C / groups, H * W]) collapse into one row first, weight
    // and bias with them: a [8, 8, 8, 3136] layer norm over its last two
    // dims took 1.7x the row form's time in three whole-tensor passes.
    bool statsUsed =
        !op.getResult1().use_empty() || !op.getResult2().use_empty();
    bool resultUsed = !op.getResult0().use_empty();
    // (An input with no elements keeps the passes below: a statistic's slice
    // of a [0, ..., 2] tensor does not verify.)
    bool empty = inputType.hasStaticShape() && inputType.getNumElements() == 0;
    if (axis >= 1 && statType.hasStaticShape() && !empty &&
        (!statsUsed || !resultUsed)) {
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < axis; ++d)
        groups.push_back({d});
      groups.emplace_back(llvm::to_vector(llvm::seq<int64_t>(axis, rank)));
      auto collapse = [&](Value v, ArrayRef<ReassociationIndices> g) -> Value {
        if (axis == rank - 1)
          return v;
        return tensor::CollapseShapeOp::create(rewriter, loc, v, g);
      };
      Value rows = collapse(input, groups);
      if (statsUsed)
        return replaceWithRowStatistics(rewriter, op, input, rows, resultType,
                                        statType, element, countValue, eps);
      // Weight and bias have the normalized shape: all of it is one row.
      SmallVector<ReassociationIndices> whole{
          llvm::to_vector(llvm::seq<int64_t>(0, rank - axis))};
      Value weight = hasWeight ? collapse(adaptor.getWeight(), whole) : Value();
      Value bias = hasBias ? collapse(adaptor.getBias(), whole) : Value();
      Value normalizedValue = createRowLayerNorm(
          rewriter, loc, rows, cast<RankedTensorType>(rows.getType()), element,
          countValue, eps, weight, bias);
      if (axis != rank - 1)
        normalizedValue = tensor::ExpandShapeOp::create(
            rewriter, loc, resultType, normalizedValue, groups);
      Value unused = tensor::EmptyOp::create(rewriter, loc, statType.getShape(),
                                             statType.getElementType());
      rewriter.replaceOp(op, {normalizedValue, unused, unused});
      return success();
    }

    // sum(x) then mean.
    Value sum =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{reducedType}, ValueRange{input},
            ValueRange{createReducedZeros()},
            ArrayRef<AffineMap>{identity, kept}, reduceIterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, castFloat(b, l, args[0], element),
                                        args[1], arith::FastMathFlags::reassoc)
                      .getResult());
            })
            .getResult(0);
    Value mean = createElementwise(
        rewriter, loc, reducedType, ValueRange{sum},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0], countValue);
        });
    // sum((x - mean)^2) then rstd.
    Value squares =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{reducedType}, ValueRange{input, mean},
            ValueRange{createReducedZeros()},
            ArrayRef<AffineMap>{identity, kept, kept}, reduceIterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value d = arith::SubFOp::create(
                  b, l, castFloat(b, l, args[0], element), args[1]);
              Value sq = arith::MulFOp::create(b, l, d, d);
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, sq, args[2],
                                        arith::FastMathFlags::reassoc)
                      .getResult());
            })
            .getResult(0);
    Value rstd = createElementwise(
        rewriter, loc, reducedType, ValueRange{squares},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value var = arith::DivFOp::create(b, l, args[0], countValue);
          return math::RsqrtOp::create(b, l,
                                       arith::AddFOp::create(b, l, var, eps));
        });
    // y = (x - mean) * rstd (* weight) (+ bias); weight and bias span the
    // normalized (trailing) dims.
    SmallVector<Value> inputs{input, mean, rstd};
    SmallVector<AffineMap> maps{identity, kept, kept};
    SmallVector<AffineExpr> trailingExprs;
    for (int64_t i = axis; i < rank; ++i)
      trailingExprs.push_back(getAffineDimExpr(i, context));
    AffineMap trailing = AffineMap::get(rank, 0, trailingExprs, context);
    if (hasWeight) {
      inputs.push_back(adaptor.getWeight());
      maps.push_back(trailing);
    }
    if (hasBias) {
      inputs.push_back(adaptor.getBias());
      maps.push_back(trailing);
    }
    maps.push_back(identity);
    Value normalizedValue =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{resultType}, inputs,
            ValueRange{createEmpty(rewriter, loc, resultType, input)}, maps,
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value y = arith::MulFOp::create(
                  b, l,
                  arith::SubFOp::create(b, l, castFloat(b, l, args[0], element),
                                        args[1]),
                  args[2]);
              SmallVector<Value> affine;
              for (Value v : args.drop_front(3).drop_back())
                affine.push_back(castFloat(b, l, v, element));
              y = applyAffine(b, l, y, affine, hasWeight, hasBias);
              y = castFloat(b, l, y, resultElement);
              linalg::YieldOp::create(b, l, y);
            })
            .getResult(0);
    // The statistics in their own dtype (f32 or the input's).
    Value meanStat = createStatistic(rewriter, loc, mean, statType);
    Value rstdStat = createStatistic(rewriter, loc, rstd, statType);
    if (!meanStat || !rstdStat)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    rewriter.replaceOp(op, {normalizedValue, meanStat, rstdStat});
    return success();
  }
};

/// native_group_norm(x [N, C, *], weight, bias, N, C, HxW, group, eps) in
/// the forms isRowGroupNorm takes, group by group: x as rows [N, group,
/// C/group * HxW], an scf.forall over (n, g) (createRowForall) whose task
/// takes the group's mean and rstd (createRowMoments: two loops over the
/// row, which stays in the cache), then writes y channel by channel as
/// PyTorch's CPU kernel does: scale = rstd * weight[c], shift = bias[c] -
/// mean * scale, y = x * scale + shift. The decomposition normalized the
/// whole tensor afterwards and so read x from memory a second time
/// (GroupNorm(8, 64) on [8, 64, 56, 56] took 1.37x eager's time). f16 and
/// bf16 compute in f32 and round y once. The mean and rstd results are
/// unused in those forms: empty tensors stand for them.
struct ConvertNativeGroupNorm : OpConversionPattern<AtenNativeGroupNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenNativeGroupNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isRowGroupNorm(op))
      return reportFailure(rewriter, op,
                           "not a form lowered group by group (the "
                           "decomposition takes the others)");
    const TypeConverter *converter = getTypeConverter();
    auto resultType = getConvertedTensorType(converter, op.getResult0());
    auto meanType = getConvertedTensorType(converter, op.getResult1());
    auto rstdType = getConvertedTensorType(converter, op.getResult2());
    Value input = adaptor.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!resultType || !meanType || !rstdType || !inputType ||
        !meanType.hasStaticShape() || !rstdType.hasStaticShape())
      return reportFailure(rewriter, op, "needs ranked results and input");
    int64_t groups;
    if (!matchTorchConstantInt(op.getGroup(), groups))
      return reportFailure(rewriter, op, "group must be a constant");
    Value eps = adaptor.getEps();
    if (!isa<mlir::FloatType>(eps.getType()))
      return reportFailure(rewriter, op, "eps must be a float");
    ArrayRef<int64_t> shape = inputType.getShape();
    int64_t channels = shape[1], perGroup = channels / groups;
    int64_t spatial = 1;
    for (int64_t size : shape.drop_front(2))
      spatial *= size;
    Location loc = op.getLoc();
    Type resultElement = resultType.getElementType();
    Type element = getOpMathType(resultElement);
    eps = convertScalar(rewriter, loc, eps, element);
    auto rowsType = RankedTensorType::get(
        {shape[0], groups, perGroup * spatial}, resultElement);
    Value rows = createReshape(rewriter, loc, input, rowsType);
    if (!rows)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    Value weight = isTorchNone(op.getWeight()) ? Value() : adaptor.getWeight();
    Value bias = isTorchNone(op.getBias()) ? Value() : adaptor.getBias();
    Value count = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(element, perGroup * spatial));
    Value perGroupSize =
        arith::ConstantIndexOp::create(rewriter, loc, perGroup);
    Value spatialSize = arith::ConstantIndexOp::create(rewriter, loc, spatial);
    Value normalized = createRowForall(
        rewriter, loc, rows, rowsType,
        [&](OpBuilder &rb, Location rl, const Row &row) -> Value {
          auto [mean, rstd] =
              createRowMoments(rb, rl, row, element, count, eps);
          Value firstChannel =
              arith::MulIOp::create(rb, rl, row.ivs[1], perGroupSize);
          auto perChannel = scf::ForOp::create(
              rb, rl, row.zero, perGroupSize, row.one, ValueRange{row.out},
              [&](OpBuilder &cb, Location cl, Value c, ValueRange carried) {
                Value channel = arith::AddIOp::create(cb, cl, firstChannel, c);
                auto at = [&](Value v) {
                  return castFloat(
                      cb, cl,
                      tensor::ExtractOp::create(cb, cl, v, ValueRange{channel}),
                      element);
                };
                Value scale =
                    weight ? arith::MulFOp::create(cb, cl, rstd, at(weight))
                           : rstd;
                Value shift = arith::NegFOp::create(
                    cb, cl, arith::MulFOp::create(cb, cl, mean, scale));
                if (bias)
                  shift = arith::AddFOp::create(cb, cl, at(bias), shift);
                Value start = arith::MulIOp::create(cb, cl, c, spatialSize);
                auto positions = scf::ForOp::create(
                    cb, cl, row.zero, spatialSize, row.one, carried,
                    [&](OpBuilder &nb, Location l, Value p, ValueRange out) {
                      Value iv = arith::AddIOp::create(nb, l, start, p);
                      Value x = castFloat(nb, l, row.read(nb, l, iv), element);
                      Value y = arith::AddFOp::create(
                          nb, l, arith::MulFOp::create(nb, l, x, scale), shift);
                      yieldInserted(nb, l, y, resultElement, out[0], iv);
                    });
                scf::YieldOp::create(cb, cl, positions.getResults());
              });
          return perChannel.getResult(0);
        });
    Value result = createReshape(rewriter, loc, normalized, resultType);
    if (!result)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    replaceWithEmptyStatistics(rewriter, op, result, {meanType, rstdType});
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateNormalizationPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  addIllegalCoreOps<Aten_NativeBatchNormLegitNoTrainingOp,
                    AtenNativeLayerNormOp>(target);
  target.addIllegalOp<AtenNativeGroupNormOp>();
  patterns.add<ConvertNativeBatchNormLegitNoTraining, ConvertNativeLayerNorm,
               ConvertNativeGroupNorm>(typeConverter, patterns.getContext());
}
