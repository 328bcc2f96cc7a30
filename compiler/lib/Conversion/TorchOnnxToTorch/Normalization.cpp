//===- Normalization.cpp - ONNX Layer/RMS/Lp/InstanceNormalization --------===//
//
// Part of the torch2mlir project.
//
// Layer and RMS normalization normalize over the trailing dims from `axis`
// on. With stash_type=1 (the default) the statistics are computed in
// float32: float16/bfloat16 inputs are converted for the computation and
// the results converted back. LpNormalization divides by the norm along
// one axis; InstanceNormalization normalizes each (n, c) over the spatial
// dims, GroupNormalization each group of channels; MeanVariance-
// Normalization follows the spec's function (with its 1e-9).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

/// The common attributes: the normalized dims and the computation dtype.
struct NormParams {
  int64_t axis;
  double epsilon;
  Type computeType;
};

LogicalResult getNormParams(const OpBinder &binder, PatternRewriter &rewriter,
                            ValueTensorType inputType, NormParams &params) {
  int64_t stashType;
  if (failed(binder.getInt("axis", params.axis, -1)) ||
      failed(binder.getFloat("epsilon", params.epsilon, 1e-5)) ||
      failed(binder.getInt("stash_type", stashType, 1)))
    return binder.fail(rewriter, "axis and stash_type must be ints, epsilon "
                                 "a float");
  int64_t rank = inputType.getSizes().size();
  if (failed(normalizeAxis(params.axis, rank)))
    return binder.fail(rewriter, "axis out of range");
  Type dtype = inputType.getDtype();
  if (!isa<mlir::FloatType>(dtype))
    return binder.fail(rewriter, "unsupported: a non-float input");
  if (stashType != 1)
    return binder.fail(rewriter, "unsupported: stash_type other than 1 "
                                 "(float32)");
  params.computeType = dtype.getIntOrFloatBitWidth() < 32
                           ? Float32Type::get(rewriter.getContext())
                           : dtype;
  return success();
}

/// Whether `value` has exactly the sizes `sizes`.
bool hasSizes(Value value, ArrayRef<int64_t> sizes) {
  auto type = getKnownTensorType(value);
  return type && type.getSizes() == sizes;
}

/// `value` with the type `type` (a dtype conversion and/or a cast of static
/// information).
Value castTo(PatternRewriter &rewriter, Location loc, Value value,
             ValueTensorType type) {
  value = createToDtype(rewriter, loc, value, type.getDtype());
  if (value.getType() != type)
    value = TensorStaticInfoCastOp::create(rewriter, loc, type, value);
  return value;
}

/// LayerNormalization(X, Scale, B) -> Y, Mean, InvStdDev:
/// aten.native_layer_norm over sizes[axis:]. A scale or bias of another
/// shape than the normalized dims (it broadcasts) is applied after.
LogicalResult lowerLayerNorm(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), scale = binder.getOperand(1),
        bias = binder.getOperand(2);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType || !scale || !getKnownTensorType(scale) ||
      (bias && !getKnownTensorType(bias)))
    return binder.fail(rewriter, "needs known sizes and dtypes");
  NormParams params;
  if (failed(getNormParams(binder, rewriter, inputType, params)))
    return failure();
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t rank = sizes.size();
  ArrayRef<int64_t> normalized = sizes.drop_front(params.axis);
  if (llvm::is_contained(normalized, kUnknownSize))
    return binder.fail(rewriter, "unsupported: dynamic normalized dims");
  for (unsigned i = 1; i < binder.getNumResults(); ++i)
    if (!binder.getOp()->getResult(i).use_empty() && !binder.getResultType(i))
      return binder.fail(rewriter, "the Mean and InvStdDev outputs need known "
                                   "sizes and dtypes");

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = params.computeType;
  SmallVector<int64_t> statSizes(sizes.take_front(params.axis));
  statSizes.append(rank - params.axis, 1);
  auto computeType = getTensorType(context, sizes, dtype);
  auto statType = getTensorType(context, statSizes, dtype);
  bool fuseScale = hasSizes(scale, normalized);
  bool fuseBias = bias && hasSizes(bias, normalized);
  Value none = createConstantNone(rewriter, loc);
  auto convert = [&](Value value) {
    return createToDtype(rewriter, loc, value, dtype);
  };
  auto norm = AtenNativeLayerNormOp::create(
      rewriter, loc, TypeRange{computeType, statType, statType}, convert(x),
      createIntList(rewriter, loc, normalized),
      fuseScale ? convert(scale) : none, fuseBias ? convert(bias) : none,
      createConstantFloat(rewriter, loc, params.epsilon));
  Value y = norm.getResult0();
  if (!fuseScale)
    y = AtenMulTensorOp::create(rewriter, loc, computeType, y, convert(scale));
  if (bias && !fuseBias)
    y = AtenAddTensorOp::create(rewriter, loc, computeType, y, convert(bias),
                                createConstantInt(rewriter, loc, 1));
  SmallVector<Value> results{castTo(rewriter, loc, y, resultType)};
  Value stats[] = {norm.getResult1(), norm.getResult2()};
  for (unsigned i = 1; i < binder.getNumResults(); ++i) {
    auto type = binder.getResultType(i);
    results.push_back(type ? castTo(rewriter, loc, stats[i - 1], type)
                           : stats[i - 1]);
  }
  rewriter.replaceOp(binder.getOp(), results);
  return success();
}

/// RMSNormalization(X, scale):
/// X * rsqrt(mean(X^2 over sizes[axis:]) + epsilon) * scale.
LogicalResult lowerRmsNorm(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), scale = binder.getOperand(1);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType || !getKnownTensorType(scale))
    return binder.fail(rewriter, "needs known sizes and dtypes");
  NormParams params;
  if (failed(getNormParams(binder, rewriter, inputType, params)))
    return failure();
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t rank = sizes.size();
  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = params.computeType;
  SmallVector<int64_t> dims, statSizes(sizes.take_front(params.axis));
  for (int64_t d = params.axis; d < rank; ++d)
    dims.push_back(d);
  statSizes.append(rank - params.axis, 1);
  auto computeType = getTensorType(context, sizes, dtype);
  auto statType = getTensorType(context, statSizes, dtype);
  Value one = createConstantInt(rewriter, loc, 1);
  Value input = createToDtype(rewriter, loc, x, dtype);
  Value squares =
      AtenMulTensorOp::create(rewriter, loc, computeType, input, input);
  Value meanSquare = AtenMeanDimOp::create(
      rewriter, loc, statType, squares, createIntList(rewriter, loc, dims),
      createConstantBool(rewriter, loc, true),
      createConstantNone(rewriter, loc));
  Value inverseRms = AtenRsqrtOp::create(
      rewriter, loc, statType,
      AtenAddScalarOp::create(
          rewriter, loc, statType, meanSquare,
          createConstantFloat(rewriter, loc, params.epsilon), one));
  Value normalized =
      AtenMulTensorOp::create(rewriter, loc, computeType, input, inverseRms);
  Value y = AtenMulTensorOp::create(rewriter, loc, computeType, normalized,
                                    createToDtype(rewriter, loc, scale, dtype));
  rewriter.replaceOp(binder.getOp(), castTo(rewriter, loc, y, resultType));
  return success();
}

/// LpNormalization(axis, p in {1, 2}): x / ||x||_p along axis, 0 where the
/// norm is 0.
LogicalResult lowerLpNorm(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t axis, p;
  if (!inputType || !resultType || failed(binder.getInt("axis", axis, -1)) ||
      failed(binder.getInt("p", p, 2)))
    return binder.fail(rewriter,
                       "needs known sizes, dtypes and int attributes");
  if (!isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  if (p != 1 && p != 2)
    return binder.fail(rewriter, "p must be 1 or 2");
  if (failed(normalizeAxis(axis, inputType.getSizes().size())))
    return binder.fail(rewriter, "axis out of range");
  Location loc = binder.getLoc();
  SmallVector<int64_t> normSizes(inputType.getSizes());
  normSizes[axis] = 1;
  auto normType = withSizes(x, normSizes);
  Value magnitude =
      p == 1
          ? AtenAbsOp::create(rewriter, loc, inputType, x).getResult()
          : AtenMulTensorOp::create(rewriter, loc, inputType, x, x).getResult();
  Value norm = AtenSumDimIntListOp::create(
      rewriter, loc, normType, magnitude, createIntList(rewriter, loc, {axis}),
      createConstantBool(rewriter, loc, true),
      createConstantNone(rewriter, loc));
  if (p == 2)
    norm = AtenSqrtOp::create(rewriter, loc, normType, norm);
  Value isZero = AtenEqScalarOp::create(
      rewriter, loc,
      getTensorType(rewriter.getContext(), normSizes, rewriter.getI1Type()),
      norm, createConstantFloat(rewriter, loc, 0.0));
  Value quotient = AtenDivTensorOp::create(rewriter, loc, resultType, x, norm);
  rewriter.replaceOpWithNewOp<AtenWhereSelfOp>(
      binder.getOp(), resultType, isZero,
      createScalarLiteral(rewriter, loc, resultType.getDtype(), 0.0), quotient);
  return success();
}

/// InstanceNormalization(x [N, C, ...], scale [C], B [C]): each (n, c)
/// normalized over the spatial dims, then scale * y + B per channel.
LogicalResult lowerInstanceNorm(const OpBinder &binder,
                                PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), scale = binder.getOperand(1),
        bias = binder.getOperand(2);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  double epsilon;
  if (!inputType || !resultType || !getKnownTensorType(scale) ||
      !getKnownTensorType(bias) ||
      failed(binder.getFloat("epsilon", epsilon, 1e-5)))
    return binder.fail(rewriter, "needs known sizes, dtypes and a float "
                                 "epsilon");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t rank = sizes.size();
  if (rank < 3 || !isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "needs a float input of rank >= 3");
  Location loc = binder.getLoc();
  SmallVector<int64_t> dims, statSizes(sizes.take_front(2)),
      channelSizes(rank - 1, 1);
  for (int64_t d = 2; d < rank; ++d)
    dims.push_back(d);
  statSizes.append(rank - 2, 1);
  channelSizes[0] = sizes[1];
  auto statType = withSizes(x, statSizes);
  Value dimList = createIntList(rewriter, loc, dims);
  Value t = createConstantBool(rewriter, loc, true);
  Value none = createConstantNone(rewriter, loc);
  Value one = createConstantInt(rewriter, loc, 1);
  Value mean =
      AtenMeanDimOp::create(rewriter, loc, statType, x, dimList, t, none);
  Value centered =
      AtenSubTensorOp::create(rewriter, loc, inputType, x, mean, one);
  Value variance = AtenMeanDimOp::create(
      rewriter, loc, statType,
      AtenMulTensorOp::create(rewriter, loc, inputType, centered, centered),
      dimList, t, none);
  Value inverseStd = AtenRsqrtOp::create(
      rewriter, loc, statType,
      AtenAddScalarOp::create(rewriter, loc, statType, variance,
                              createConstantFloat(rewriter, loc, epsilon),
                              one));
  Value normalized =
      AtenMulTensorOp::create(rewriter, loc, inputType, centered, inverseStd);
  auto perChannel = [&](Value value) {
    return createView(rewriter, loc, value, channelSizes,
                      withSizes(value, channelSizes));
  };
  Value scaled = AtenMulTensorOp::create(rewriter, loc, inputType, normalized,
                                         perChannel(scale));
  rewriter.replaceOpWithNewOp<AtenAddTensorOp>(binder.getOp(), resultType,
                                               scaled, perChannel(bias), one);
  return success();
}

/// GroupNormalization(X [N, C, ...], scale, bias; num_groups, epsilon):
/// each (n, group of C / G channels) normalized over its channels and
/// spatial dims, then scale * y + bias per channel (opset 21; per group in
/// opset 18), computed in float32 for narrower inputs (stash_type=1).
LogicalResult lowerGroupNorm(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), scale = binder.getOperand(1),
        bias = binder.getOperand(2);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  auto scaleType = getKnownTensorType(scale);
  auto biasType = getKnownTensorType(bias);
  int64_t groups, stashType;
  double epsilon;
  if (!inputType || !resultType || !scaleType || !biasType ||
      !inputType.areAllSizesKnown() ||
      failed(binder.getInt("num_groups", groups)) ||
      failed(binder.getFloat("epsilon", epsilon, 1e-5)) ||
      failed(binder.getInt("stash_type", stashType, 1)))
    return binder.fail(rewriter, "needs static sizes, known dtypes, an int "
                                 "num_groups and a float epsilon");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t rank = sizes.size();
  Type dtype = inputType.getDtype();
  if (rank < 2 || groups < 1 || sizes[1] % groups ||
      !isa<mlir::FloatType>(dtype))
    return binder.fail(rewriter, "expects a float input [N, C, ...] with C a "
                                 "multiple of num_groups");
  if (stashType != 1)
    return binder.fail(rewriter, "unsupported: stash_type other than 1 "
                                 "(float32)");
  int64_t n = sizes[0], channels = sizes[1];
  int64_t perGroup = 1;
  for (int64_t size : sizes.drop_front())
    perGroup *= size;
  perGroup /= groups;
  auto affineSizes = scaleType.getSizes();
  bool perChannel = affineSizes == ArrayRef<int64_t>{channels};
  if (!perChannel && affineSizes != ArrayRef<int64_t>{groups})
    return binder.fail(rewriter, "scale and bias must have one value per "
                                 "channel (or per group)");
  if (biasType.getSizes() != affineSizes)
    return binder.fail(rewriter, "scale and bias must have the same sizes");

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type compute =
      dtype.getIntOrFloatBitWidth() < 32 ? Float32Type::get(context) : dtype;
  auto type = [&](ArrayRef<int64_t> shape) {
    return getTensorType(context, shape, compute);
  };
  Value one = createConstantInt(rewriter, loc, 1);
  Value t = createConstantBool(rewriter, loc, true);
  Value none = createConstantNone(rewriter, loc);
  Value grouped =
      createView(rewriter, loc, createToDtype(rewriter, loc, x, compute),
                 {n, groups, perGroup}, type({n, groups, perGroup}));
  Value lastDim = createIntList(rewriter, loc, {2});
  Value mean = AtenMeanDimOp::create(rewriter, loc, type({n, groups, 1}),
                                     grouped, lastDim, t, none);
  Value centered = AtenSubTensorOp::create(
      rewriter, loc, type({n, groups, perGroup}), grouped, mean, one);
  Value variance = AtenMeanDimOp::create(
      rewriter, loc, type({n, groups, 1}),
      AtenMulTensorOp::create(rewriter, loc, type({n, groups, perGroup}),
                              centered, centered),
      lastDim, t, none);
  Value inverseStd = AtenRsqrtOp::create(
      rewriter, loc, type({n, groups, 1}),
      AtenAddScalarOp::create(rewriter, loc, type({n, groups, 1}), variance,
                              createConstantFloat(rewriter, loc, epsilon),
                              one));
  Value normalized = AtenMulTensorOp::create(
      rewriter, loc, type({n, groups, perGroup}), centered, inverseStd);
  // Apply scale and bias as [C, 1, ...] against [N, C, ...] (or per group
  // as [G, 1] against [N, G, C/G * ...]).
  SmallVector<int64_t> affineShape, target;
  if (perChannel) {
    normalized = createView(rewriter, loc, normalized, sizes, type(sizes));
    affineShape.assign(rank - 1, 1);
    affineShape[0] = channels;
    target.assign(sizes.begin(), sizes.end());
  } else {
    affineShape = {groups, 1};
    target = {n, groups, perGroup};
  }
  auto affine = [&](Value value) {
    return createView(rewriter, loc,
                      createToDtype(rewriter, loc, value, compute), affineShape,
                      type(affineShape));
  };
  Value scaled = AtenMulTensorOp::create(rewriter, loc, type(target),
                                         normalized, affine(scale));
  Value shifted = AtenAddTensorOp::create(rewriter, loc, type(target), scaled,
                                          affine(bias), one);
  if (!perChannel)
    shifted = createView(rewriter, loc, shifted, sizes, type(sizes));
  rewriter.replaceOp(binder.getOp(),
                     castTo(rewriter, loc, shifted, resultType));
  return success();
}

/// MeanVarianceNormalization(X; axes = [0, 2, 3]):
/// (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9), as the spec's function.
LogicalResult lowerMeanVarianceNorm(const OpBinder &binder,
                                    PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  SmallVector<int64_t> axes;
  if (!inputType || !resultType ||
      failed(binder.getInts("axes", axes, {0, 2, 3})))
    return binder.fail(rewriter, "needs known sizes and dtypes and int axes");
  if (!isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  int64_t rank = inputType.getSizes().size();
  SmallVector<int64_t> statSizes(inputType.getSizes());
  for (int64_t &axis : axes) {
    if (failed(normalizeAxis(axis, rank)))
      return binder.fail(rewriter, "axes out of range");
    statSizes[axis] = 1;
  }
  Location loc = binder.getLoc();
  auto statType = withSizes(x, statSizes);
  Value dims = createIntList(rewriter, loc, axes);
  Value t = createConstantBool(rewriter, loc, true);
  Value none = createConstantNone(rewriter, loc);
  Value one = createConstantInt(rewriter, loc, 1);
  Value mean = AtenMeanDimOp::create(rewriter, loc, statType, x, dims, t, none);
  Value meanOfSquares = AtenMeanDimOp::create(
      rewriter, loc, statType,
      AtenMulTensorOp::create(rewriter, loc, inputType, x, x), dims, t, none);
  Value variance = AtenSubTensorOp::create(
      rewriter, loc, statType, meanOfSquares,
      AtenMulTensorOp::create(rewriter, loc, statType, mean, mean), one);
  Value std = AtenAddScalarOp::create(
      rewriter, loc, statType,
      AtenSqrtOp::create(rewriter, loc, statType, variance),
      createConstantFloat(rewriter, loc, 1e-9), one);
  Value centered =
      AtenSubTensorOp::create(rewriter, loc, inputType, x, mean, one);
  rewriter.replaceOpWithNewOp<AtenDivTensorOp>(binder.getOp(), resultType,
                                               centered, std);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxNormalizationLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("LayerNormalization", 17, lowerLayerNorm);
  lowerings.on("RMSNormalization", 23, lowerRmsNorm);
  lowerings.on("LpNormalization", 1, lowerLpNorm);
  lowerings.on("InstanceNormalization", 6, lowerInstanceNorm);
  lowerings.on("GroupNormalization", 18, lowerGroupNorm);
  lowerings.on("MeanVarianceNormalization", 9, lowerMeanVarianceNorm);
}
