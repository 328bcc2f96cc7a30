//===- Resize.cpp - ONNX Resize to ATen -----------------------------------===//
//
// Part of the torch2mlir project.
//
// Resize (opset 11+) is separable: each resized axis is a linear map from
// its `in` input positions to its `out` output positions. For each axis we
// build that map as a matrix W [out, in] and apply it with a matmul along
// the axis. Row o of W holds the interpolation coefficients (nearest,
// linear or cubic) of the input neighbors of the source coordinate x(o),
// with indices out of range clamped to the edge (exclude_outside=1 drops
// them and renormalizes instead). tf_crop_and_resize puts
// extrapolation_value where x(o) falls outside the input.
//
// scales, sizes and roi are usually values computed at run time (graph
// inputs), so W is computed at run time too, in float64 like the spec's
// reference, from the scale of the axis: scales[i], or sizes[i] / in
// (with keep_aspect_ratio_policy, the min or max of those over the axes).
// The output sizes themselves must be static.
//
// GridSample and AffineGrid (the grids GridSample reads) live here too.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

enum class CoordinateMode {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfCropAndResize
};

enum class NearestMode { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

/// The attributes of a Resize node.
struct ResizeParams {
  std::string mode;
  CoordinateMode coordinateMode;
  NearestMode nearestMode;
  double cubicCoeffA, extrapolationValue;
  int64_t excludeOutside;
  std::string aspectPolicy;
  bool antialias;
  /// The resized dims, in the order of the scales/sizes/roi entries.
  SmallVector<int64_t> axes;
};

LogicalResult getResizeParams(const OpBinder &binder, PatternRewriter &rewriter,
                              int64_t rank, ResizeParams &params) {
  std::string coordinateMode, nearestMode;
  int64_t antialias;
  if (failed(binder.getString("mode", params.mode, "nearest")) ||
      failed(binder.getString("coordinate_transformation_mode", coordinateMode,
                              "half_pixel")) ||
      failed(binder.getString("nearest_mode", nearestMode,
                              "round_prefer_floor")) ||
      failed(binder.getFloat("cubic_coeff_a", params.cubicCoeffA, -0.75)) ||
      failed(binder.getFloat("extrapolation_value", params.extrapolationValue,
                             0.0)) ||
      failed(binder.getInt("exclude_outside", params.excludeOutside, 0)) ||
      failed(binder.getInt("antialias", antialias, 0)) ||
      failed(binder.getString("keep_aspect_ratio_policy", params.aspectPolicy,
                              "stretch")) ||
      failed(binder.getInts("axes", params.axes)))
    return binder.fail(rewriter, "malformed attributes");
  if (params.mode != "nearest" && params.mode != "linear" &&
      params.mode != "cubic")
    return binder.fail(rewriter, "unsupported mode '" + params.mode +
                                     "' (expects nearest, linear or cubic)");
  params.antialias = antialias;
  if (antialias && params.mode == "nearest")
    return binder.fail(rewriter, "antialias=1 needs mode linear or cubic");
  auto coordinate =
      llvm::StringSwitch<std::optional<CoordinateMode>>(coordinateMode)
          .Case("half_pixel", CoordinateMode::HalfPixel)
          .Case("half_pixel_symmetric", CoordinateMode::HalfPixelSymmetric)
          .Case("pytorch_half_pixel", CoordinateMode::PytorchHalfPixel)
          .Case("align_corners", CoordinateMode::AlignCorners)
          .Case("asymmetric", CoordinateMode::Asymmetric)
          .Case("tf_crop_and_resize", CoordinateMode::TfCropAndResize)
          .Default(std::nullopt);
  if (!coordinate)
    return binder.fail(rewriter, "unsupported coordinate_transformation_mode "
                                 "'" +
                                     coordinateMode + "'");
  params.coordinateMode = *coordinate;
  auto nearest = llvm::StringSwitch<std::optional<NearestMode>>(nearestMode)
                     .Case("round_prefer_floor", NearestMode::RoundPreferFloor)
                     .Case("round_prefer_ceil", NearestMode::RoundPreferCeil)
                     .Case("floor", NearestMode::Floor)
                     .Case("ceil", NearestMode::Ceil)
                     .Default(std::nullopt);
  if (!nearest)
    return binder.fail(rewriter,
                       "unsupported nearest_mode '" + nearestMode + "'");
  params.nearestMode = *nearest;
  if (params.aspectPolicy != "stretch" && params.aspectPolicy != "not_larger" &&
      params.aspectPolicy != "not_smaller")
    return binder.fail(rewriter, "unsupported keep_aspect_ratio_policy '" +
                                     params.aspectPolicy + "'");
  if (params.axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      params.axes.push_back(d);
  for (int64_t &axis : params.axes)
    if (failed(normalizeAxis(axis, rank)))
      return binder.fail(rewriter, "axes out of range");
  return success();
}

/// Elementwise float / bool tensor arithmetic with broadcasting, for the
/// interpolation matrices.
class MatrixBuilder {
public:
  /// Builds float arithmetic in `real` (float64 by default).
  MatrixBuilder(PatternRewriter &rewriter, Location loc, Type real = nullptr)
      : rewriter(rewriter), loc(loc), context(rewriter.getContext()),
        real(real ? real : Float64Type::get(context)),
        i1(rewriter.getI1Type()) {}

  static ArrayRef<int64_t> sizesOf(Value value) {
    return cast<ValueTensorType>(value.getType()).getSizes();
  }

  ValueTensorType broadcastType(Value a, Value b, Type dtype) {
    auto sizes = broadcastSizes(sizesOf(a), sizesOf(b));
    assert(succeeded(sizes) && "operands broadcast by construction");
    return getTensorType(context, *sizes, dtype);
  }

  /// A 0-d float64 literal.
  Value constant(double value) {
    return createScalarLiteral(rewriter, loc, real, value);
  }
  Value one() { return createConstantInt(rewriter, loc, 1); }

  Value add(Value a, Value b) {
    return AtenAddTensorOp::create(rewriter, loc, broadcastType(a, b, real), a,
                                   b, one());
  }
  Value sub(Value a, Value b) {
    return AtenSubTensorOp::create(rewriter, loc, broadcastType(a, b, real), a,
                                   b, one());
  }
  Value mul(Value a, Value b) {
    return AtenMulTensorOp::create(rewriter, loc, broadcastType(a, b, real), a,
                                   b);
  }
  Value div(Value a, Value b) {
    return AtenDivTensorOp::create(rewriter, loc, broadcastType(a, b, real), a,
                                   b);
  }
  Value add(Value a, double b) { return add(a, constant(b)); }
  Value mul(Value a, double b) { return mul(a, constant(b)); }
  Value floor(Value a) {
    return AtenFloorOp::create(rewriter, loc, a.getType(), a);
  }
  template <typename AtenCmpOp> Value compare(Value a, Value b) {
    return AtenCmpOp::create(rewriter, loc, broadcastType(a, b, i1), a, b);
  }
  Value logicalOr(Value a, Value b) {
    return AtenLogicalOrOp::create(rewriter, loc, broadcastType(a, b, i1), a,
                                   b);
  }
  Value where(Value condition, Value onTrue, Value onFalse) {
    auto type = broadcastType(condition, onTrue, real);
    type = getTensorType(
        context, *broadcastSizes(type.getSizes(), sizesOf(onFalse)), real);
    return AtenWhereSelfOp::create(rewriter, loc, type, condition, onTrue,
                                   onFalse);
  }
  Value where(Value condition, double onTrue, Value onFalse) {
    return where(condition, constant(onTrue), onFalse);
  }
  Value toReal(Value value) {
    return createToDtype(rewriter, loc, value, real);
  }
  Value view(Value value, ArrayRef<int64_t> sizes) {
    auto type = cast<ValueTensorType>(value.getType());
    return createView(rewriter, loc, value, sizes,
                      getTensorType(context, sizes, type.getDtype()));
  }
  /// Element `index` of the 1-D `values`, as a 0-d float64 tensor.
  Value element(Value values, int64_t index) {
    auto type = cast<ValueTensorType>(values.getType());
    Value picked = AtenSelectIntOp::create(
        rewriter, loc, getTensorType(context, {}, type.getDtype()), values,
        createConstantInt(rewriter, loc, 0),
        createConstantInt(rewriter, loc, index));
    return toReal(picked);
  }
  /// [0, 1, ..., n-1] in float64.
  Value positions(int64_t n) { return toReal(createArange(rewriter, loc, n)); }

  PatternRewriter &rewriter;
  Location loc;
  MLIRContext *context;
  Type real, i1;
};

/// The cubic convolution kernel at distance t + 1 (the outer taps) or t
/// (the inner taps) from the source point, as ONNX defines it with `a`.
Value cubicOuter(MatrixBuilder &m, Value t, double a) {
  // ((a*t - 5a)*t + 8a)*t - 4a
  Value p = m.add(m.mul(t, a), -5 * a);
  p = m.add(m.mul(p, t), 8 * a);
  return m.add(m.mul(p, t), -4 * a);
}
Value cubicInner(MatrixBuilder &m, Value t, double a) {
  // ((a+2)*t - (a+3))*t*t + 1
  Value p = m.add(m.mul(t, a + 2), -(a + 3));
  return m.add(m.mul(m.mul(p, t), t), 1.0);
}

/// The interpolation matrix [out, in] of one axis (float64), and where
/// tf_crop_and_resize extrapolates (bool [out]), for the float64 0-d
/// `scale` (and roi bounds). `minScale` is a lower bound of the scale known
/// at compile time: it bounds the taps of an antialiasing filter.
std::pair<Value, Value> buildAxisMatrix(MatrixBuilder &m,
                                        const ResizeParams &params, int64_t in,
                                        int64_t out, Value scale,
                                        double minScale, Value roiStart,
                                        Value roiEnd) {
  Value y = m.positions(out);
  Value outWidth = m.mul(scale, static_cast<double>(in));
  Value isOne = m.compare<AtenEqTensorOp>(outWidth, m.constant(1.0));
  // (y + 0.5) / scale - 0.5
  auto halfPixel = [&] { return m.add(m.div(m.add(y, 0.5), scale), -0.5); };
  Value x, extrapolated;
  switch (params.coordinateMode) {
  case CoordinateMode::HalfPixel:
    x = halfPixel();
    break;
  case CoordinateMode::HalfPixelSymmetric: {
    Value adjustment = m.div(m.constant(static_cast<double>(out)), outWidth);
    Value offset = m.mul(m.sub(m.constant(1.0), adjustment), in / 2.0);
    x = m.add(offset, halfPixel());
    break;
  }
  case CoordinateMode::PytorchHalfPixel:
    x = m.where(isOne, -0.5, halfPixel());
    break;
  case CoordinateMode::AlignCorners:
    x = m.where(
        isOne, 0.0,
        m.div(m.mul(y, static_cast<double>(in - 1)), m.add(outWidth, -1.0)));
    break;
  case CoordinateMode::Asymmetric:
    x = m.div(y, scale);
    break;
  case CoordinateMode::TfCropAndResize: {
    Value extent = m.mul(m.sub(roiEnd, roiStart), static_cast<double>(in - 1));
    x = m.where(isOne, m.mul(extent, 0.5),
                m.div(m.mul(y, extent), m.add(outWidth, -1.0)));
    x = m.add(x, m.mul(roiStart, static_cast<double>(in - 1)));
    extrapolated = m.logicalOr(
        m.compare<AtenLtTensorOp>(x, m.constant(0.0)),
        m.compare<AtenGtTensorOp>(x, m.constant(static_cast<double>(in - 1))));
    break;
  }
  }

  // The left neighbor and the distance to it, in (0, 1]: an integral
  // source point counts as distance 1 from the neighbor on its left.
  Value xFloor = m.floor(x);
  Value isIntegral = m.compare<AtenEqTensorOp>(x, xFloor);
  Value ratio = m.where(isIntegral, 1.0, m.sub(x, xFloor));
  // The input indices of n (even) taps: they start n/2 - 1 left of the
  // left neighbor (n/2 for an integral source point, whose ratio 1 weighs
  // the point itself).
  SmallVector<Value> taps;
  auto makeTaps = [&](int64_t n) {
    Value start =
        m.add(xFloor, m.where(isIntegral, static_cast<double>(-(n / 2)),
                              m.constant(static_cast<double>(-(n / 2) + 1))));
    for (int64_t k = 0; k < n; ++k)
      taps.push_back(m.add(start, static_cast<double>(k)));
  };
  SmallVector<Value> coeffs;
  if (params.antialias) {
    // The filter stretched by 1 / min(scale, 1): tap k at input index j
    // weighs kernel((j - x) * min(scale, 1)), normalized to sum 1. The
    // kernel is 0 beyond its support (1 for linear, 2 for cubic), so taps
    // for the smallest possible scale cover every nonzero weight.
    double support = params.mode == "linear" ? 1.0 : 2.0;
    int64_t first =
        static_cast<int64_t>(std::floor(-support / std::min(minScale, 1.0))) +
        1;
    makeTaps(2 - 2 * first);
    Value shrink =
        m.where(m.compare<AtenGtTensorOp>(scale, m.constant(1.0)), 1.0, scale);
    Value sum;
    for (Value tap : taps) {
      Value t = AtenAbsOp::create(m.rewriter, m.loc, tap.getType(),
                                  m.mul(m.sub(tap, x), shrink));
      Value weight;
      if (params.mode == "linear") {
        weight = AtenClampOp::create(
            m.rewriter, m.loc, t.getType(), m.sub(m.constant(1.0), t),
            createConstantFloat(m.rewriter, m.loc, 0.0),
            createConstantFloat(m.rewriter, m.loc, 1.0));
      } else {
        double a = params.cubicCoeffA;
        weight = m.where(m.compare<AtenLeTensorOp>(t, m.constant(1.0)),
                         cubicInner(m, t, a),
                         m.where(m.compare<AtenLtTensorOp>(t, m.constant(2.0)),
                                 cubicOuter(m, t, a), m.constant(0.0)));
      }
      coeffs.push_back(weight);
      sum = sum ? m.add(sum, weight) : weight;
    }
    for (Value &coeff : coeffs)
      coeff = m.div(coeff, sum);
  } else if (params.mode == "nearest") {
    Value takeRight;
    switch (params.nearestMode) {
    case NearestMode::RoundPreferFloor:
      takeRight = m.compare<AtenGtTensorOp>(ratio, m.constant(0.5));
      break;
    case NearestMode::RoundPreferCeil:
      takeRight = m.compare<AtenGeTensorOp>(ratio, m.constant(0.5));
      break;
    case NearestMode::Floor:
      takeRight = isIntegral;
      break;
    case NearestMode::Ceil:
      takeRight = m.compare<AtenGeTensorOp>(ratio, m.constant(0.0));
      break;
    }
    takeRight = m.logicalOr(takeRight, isIntegral);
    coeffs.push_back(m.where(takeRight, 0.0, m.constant(1.0)));
    coeffs.push_back(m.where(takeRight, 1.0, m.constant(0.0)));
  } else if (params.mode == "linear") {
    coeffs.push_back(m.sub(m.constant(1.0), ratio));
    coeffs.push_back(ratio);
  } else {
    double a = params.cubicCoeffA;
    Value rest = m.sub(m.constant(1.0), ratio);
    coeffs.push_back(cubicOuter(m, m.add(ratio, 1.0), a));
    coeffs.push_back(cubicInner(m, ratio, a));
    coeffs.push_back(cubicInner(m, rest, a));
    coeffs.push_back(cubicOuter(m, m.add(rest, 1.0), a));
  }

  if (taps.empty())
    makeTaps(coeffs.size());
  int64_t n = taps.size();
  Value lastIndex = m.constant(static_cast<double>(in - 1));
  if (params.excludeOutside) {
    Value sum;
    for (int64_t k = 0; k < n; ++k) {
      Value outside =
          m.logicalOr(m.compare<AtenLtTensorOp>(taps[k], m.constant(0.0)),
                      m.compare<AtenGtTensorOp>(taps[k], lastIndex));
      coeffs[k] = m.where(outside, 0.0, coeffs[k]);
      sum = sum ? m.add(sum, coeffs[k]) : coeffs[k];
    }
    sum = m.where(m.compare<AtenEqTensorOp>(sum, m.constant(0.0)), 1.0, sum);
    for (Value &coeff : coeffs)
      coeff = m.div(coeff, sum);
  }
  // W[o, i] = sum over the taps k that land (clamped) on i of coeffs[k][o].
  Value columns = m.view(m.positions(in), {1, in});
  Value matrix;
  for (int64_t k = 0; k < n; ++k) {
    Value clamped = AtenClampOp::create(
        m.rewriter, m.loc, taps[k].getType(), taps[k],
        createConstantFloat(m.rewriter, m.loc, 0.0),
        createConstantFloat(m.rewriter, m.loc, static_cast<double>(in - 1)));
    Value hits = m.compare<AtenEqTensorOp>(m.view(clamped, {out, 1}), columns);
    Value weights = m.where(hits, m.view(coeffs[k], {out, 1}), m.constant(0.0));
    matrix = matrix ? m.add(matrix, weights) : weights;
  }
  return {matrix, extrapolated};
}

/// `x` resized to `resultType` along each of params.axes whose scale
/// (0-d float64) is not null: the axis is contracted with its
/// interpolation matrix (buildAxisMatrix), then extrapolated positions
/// take extrapolation_value. `roi` is given for tf_crop_and_resize only.
Value resizeAxes(MatrixBuilder &m, const ResizeParams &params, Value x,
                 ValueTensorType resultType, ArrayRef<Value> axisScales,
                 ArrayRef<double> minScales, Value roi) {
  PatternRewriter &rewriter = m.rewriter;
  Location loc = m.loc;
  auto inputType = cast<ValueTensorType>(x.getType());
  ArrayRef<int64_t> inSizes = inputType.getSizes(),
                    outSizes = resultType.getSizes();
  int64_t rank = inSizes.size();
  int64_t numAxes = params.axes.size();
  Value result = x;
  Type dtype = inputType.getDtype();
  for (int64_t i = 0; i < numAxes; ++i) {
    if (!axisScales[i])
      continue;
    int64_t axis = params.axes[i];
    int64_t in = inSizes[axis], out = outSizes[axis];
    Value roiStart, roiEnd;
    if (roi) {
      roiStart = m.element(roi, i);
      roiEnd = m.element(roi, i + numAxes);
    }
    auto [matrix, extrapolated] = buildAxisMatrix(
        m, params, in, out, axisScales[i], minScales[i], roiStart, roiEnd);
    // Move the axis last, contract it with W^T, move it back.
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        perm.push_back(d);
    perm.push_back(axis);
    SmallVector<int64_t> inverse(rank);
    for (int64_t d = 0; d < rank; ++d)
      inverse[perm[d]] = d;
    bool isLast = axis == rank - 1;
    Value moved = isLast ? result : createPermute(rewriter, loc, result, perm);
    Value transposed = createToDtype(
        rewriter, loc, createPermute(rewriter, loc, matrix, {1, 0}), dtype);
    SmallVector<int64_t> productSizes(
        cast<ValueTensorType>(moved.getType()).getSizes());
    productSizes.back() = out;
    Value product = AtenMatmulOp::create(
        rewriter, loc, getTensorType(m.context, productSizes, dtype), moved,
        transposed);
    result = isLast ? product : createPermute(rewriter, loc, product, inverse);
    if (extrapolated) {
      SmallVector<int64_t> maskSizes(rank, 1);
      maskSizes[axis] = out;
      Value mask = m.view(extrapolated, maskSizes);
      auto type = cast<ValueTensorType>(result.getType());
      result = AtenWhereSelfOp::create(
          rewriter, loc, type, mask,
          createScalarLiteral(rewriter, loc, dtype, params.extrapolationValue),
          result);
    }
  }
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  return result;
}

/// The static-sized input `x` and result types of Resize/Upsample (float
/// only), or a failure that says why.
static LogicalResult matchResizeTypes(const OpBinder &binder,
                                      PatternRewriter &rewriter, Value x,
                                      ValueTensorType &inputType,
                                      ValueTensorType &resultType) {
  inputType = getKnownTensorType(x);
  resultType = binder.getResultType();
  if (!inputType || !resultType || !inputType.areAllSizesKnown() ||
      !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: an input or result without "
                                 "static sizes");
  if (!isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  return success();
}

LogicalResult lowerResize(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), roi = binder.getOperand(1),
        scales = binder.getOperand(2), sizes = binder.getOperand(3);
  ValueTensorType inputType, resultType;
  if (failed(matchResizeTypes(binder, rewriter, x, inputType, resultType)))
    return failure();
  ArrayRef<int64_t> inSizes = inputType.getSizes(),
                    outSizes = resultType.getSizes();
  int64_t rank = inSizes.size();
  ResizeParams params;
  if (failed(getResizeParams(binder, rewriter, rank, params)))
    return failure();
  int64_t numAxes = params.axes.size();
  // An empty scales tensor stands for an absent one.
  auto isEmpty = [](Value value) {
    auto type = value ? getKnownTensorType(value) : nullptr;
    return type && type.getSizes().size() == 1 && type.getSizes()[0] == 0;
  };
  if (isEmpty(scales))
    scales = nullptr;
  if (static_cast<bool>(scales) == static_cast<bool>(sizes))
    return binder.fail(rewriter, "expects exactly one of scales and sizes");
  Value factors = scales ? scales : sizes;
  auto factorsType = getKnownTensorType(factors);
  if (!factorsType || factorsType.getSizes().size() != 1 ||
      factorsType.getSizes()[0] != numAxes)
    return binder.fail(rewriter, "scales/sizes must list one value per "
                                 "resized axis");
  bool cropping = params.coordinateMode == CoordinateMode::TfCropAndResize;
  if (cropping) {
    auto roiType = getKnownTensorType(roi);
    if (!roiType || roiType.getSizes().size() != 1 ||
        roiType.getSizes()[0] != 2 * numAxes)
      return binder.fail(rewriter, "tf_crop_and_resize needs a roi of two "
                                   "values per resized axis");
  }
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(params.axes, d) && inSizes[d] != outSizes[d])
      return binder.fail(rewriter, "a dim that is not resized changes size");
  for (int64_t axis : params.axes)
    if (inSizes[axis] == 0 || outSizes[axis] == 0)
      return binder.fail(rewriter, "unsupported: empty dims");

  Location loc = binder.getLoc();
  MatrixBuilder m(rewriter, loc);
  // The scale of each resized axis (0-d float64), or null when it is 1
  // and the axis is left as is.
  SmallVector<Value> axisScales(numAxes);
  // A lower bound of each scale: out = floor(scale * in) for scales,
  // round(scale * in) for sizes with a keep_aspect_ratio_policy.
  SmallVector<double> minScales;
  for (int64_t axis : params.axes) {
    double ratio = static_cast<double>(outSizes[axis]) / inSizes[axis];
    if (sizes && params.aspectPolicy != "stretch")
      ratio = (outSizes[axis] - 0.5) / inSizes[axis];
    minScales.push_back(ratio);
  }
  if (scales) {
    for (int64_t i = 0; i < numAxes; ++i)
      axisScales[i] = m.element(scales, i);
  } else if (params.aspectPolicy == "stretch") {
    for (int64_t i = 0; i < numAxes; ++i) {
      int64_t axis = params.axes[i];
      if (outSizes[axis] != inSizes[axis] || cropping)
        axisScales[i] =
            m.constant(static_cast<double>(outSizes[axis]) / inSizes[axis]);
    }
  } else {
    // One scale for all axes: the min (not_larger) or max (not_smaller) of
    // sizes[i] / in[i].
    SmallVector<double> inputs;
    for (int64_t axis : params.axes)
      inputs.push_back(static_cast<double>(inSizes[axis]));
    Value inputSizes = ValueTensorLiteralOp::create(
        rewriter, loc, getTensorType(m.context, {numAxes}, m.real),
        DenseElementsAttr::get(RankedTensorType::get({numAxes}, m.real),
                               ArrayRef<double>(inputs)));
    Value ratios = m.div(m.toReal(sizes), inputSizes);
    auto scalarType = getTensorType(m.context, {}, m.real);
    Value dims = createIntList(rewriter, loc, {0});
    Value f = createConstantBool(rewriter, loc, false);
    Value scale =
        params.aspectPolicy == "not_larger"
            ? AtenAminOp::create(rewriter, loc, scalarType, ratios, dims, f)
                  .getResult()
            : AtenAmaxOp::create(rewriter, loc, scalarType, ratios, dims, f)
                  .getResult();
    axisScales.assign(numAxes, scale);
  }

  // The result sizes the data gives must be the declared ones, which the
  // interpolation is built for: floor(in * scale) for scales, sizes itself
  // (stretch), or round-half-up(in * scale) with a keep_aspect_ratio_policy.
  Value holds;
  for (auto [i, axis] : llvm::enumerate(params.axes)) {
    auto in = static_cast<double>(inSizes[axis]);
    Value given;
    if (scales)
      given = m.floor(m.mul(m.element(scales, i), in));
    else if (params.aspectPolicy == "stretch")
      given = m.element(sizes, i);
    else
      given = m.floor(m.add(m.mul(axisScales[i], in), 0.5));
    Value equal = m.compare<AtenEqTensorOp>(
        given, m.constant(static_cast<double>(outSizes[axis])));
    holds = holds ? AtenLogicalAndOp::create(rewriter, loc, equal.getType(),
                                             holds, equal)
                        .getResult()
                  : equal;
  }
  if (holds)
    RuntimeAssertOp::create(
        rewriter, loc,
        AtenItemOp::create(rewriter, loc, BoolType::get(m.context), holds),
        rewriter.getStringAttr(
            "this Resize node's scales or sizes at run time give other result "
            "sizes than its declared result type (a graph output or "
            "value_info declaration the data contradicts)"));

  rewriter.replaceOp(binder.getOp(),
                     resizeAxes(m, params, x, resultType, axisScales, minScales,
                                cropping ? roi : Value()));
  return success();
}

/// Upsample-7/9 (X, scales; mode): Resize with coordinate mode asymmetric
/// and nearest mode floor (x_in = floor(x_out / scale)), the scales an
/// attribute (opset 7) or an input (opset 9).
LogicalResult lowerUpsample(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  ValueTensorType inputType, resultType;
  if (failed(matchResizeTypes(binder, rewriter, x, inputType, resultType)))
    return failure();
  ArrayRef<int64_t> inSizes = inputType.getSizes(),
                    outSizes = resultType.getSizes();
  int64_t rank = inSizes.size();
  ResizeParams params;
  if (failed(binder.getString("mode", params.mode, "nearest")))
    return binder.fail(rewriter, "attribute 'mode' must be a string");
  if (params.mode == "bilinear")
    params.mode = "linear";
  if (params.mode != "nearest" && params.mode != "linear")
    return binder.fail(rewriter, "unsupported mode '" + params.mode +
                                     "' (expects nearest or linear)");
  params.coordinateMode = CoordinateMode::Asymmetric;
  params.nearestMode = NearestMode::Floor;
  params.cubicCoeffA = -0.75;
  params.extrapolationValue = 0.0;
  params.excludeOutside = 0;
  params.aspectPolicy = "stretch";
  params.antialias = false;
  for (int64_t d = 0; d < rank; ++d)
    params.axes.push_back(d);
  for (int64_t d = 0; d < rank; ++d)
    if (inSizes[d] == 0 || outSizes[d] == 0)
      return binder.fail(rewriter, "unsupported: empty dims");
  Location loc = binder.getLoc();
  MatrixBuilder m(rewriter, loc);
  SmallVector<Value> axisScales(rank);
  SmallVector<double> minScales;
  for (int64_t d = 0; d < rank; ++d)
    minScales.push_back(static_cast<double>(outSizes[d]) / inSizes[d]);
  if (binder.getOpsetVersion() < 9) {
    SmallVector<double> scales;
    if (failed(binder.getFloats("scales", scales)) ||
        static_cast<int64_t>(scales.size()) != rank)
      return binder.fail(rewriter, "attribute 'scales' must list one float "
                                   "per dim");
    for (int64_t d = 0; d < rank; ++d)
      if (scales[d] != 1.0)
        axisScales[d] = m.constant(scales[d]);
  } else {
    Value scales = binder.getOperand(1);
    auto scalesType = scales ? getKnownTensorType(scales) : nullptr;
    if (!scalesType || scalesType.getSizes().size() != 1 ||
        scalesType.getSizes()[0] != rank)
      return binder.fail(rewriter, "input 'scales' must list one value per "
                                   "dim");
    // The scales are values at run time: every axis is resized, as a
    // scale other than 1 may keep a size.
    for (int64_t d = 0; d < rank; ++d)
      axisScales[d] = m.element(scales, d);
  }
  rewriter.replaceOp(
      binder.getOp(),
      resizeAxes(m, params, x, resultType, axisScales, minScales, Value()));
  return success();
}

/// trunc(x), as a C cast to int does.
Value truncate(MatrixBuilder &m, Value x) {
  Value ceil = AtenCeilOp::create(m.rewriter, m.loc, x.getType(), x);
  return m.where(m.compare<AtenLtTensorOp>(x, m.constant(0.0)), ceil,
                 m.floor(x));
}

/// x reflected at the borders lo and hi until it lies between them.
Value reflect(MatrixBuilder &m, Value x, double lo, double hi) {
  double range = hi - lo;
  // Reflections past a border: n = trunc(distance / range), remainder r;
  // an even n lands r inside that border, an odd one r inside the other.
  auto fold = [&](Value distance, double near, double far) {
    Value n = truncate(m, m.mul(distance, 1.0 / range));
    Value r = m.sub(distance, m.mul(n, range));
    Value half = m.mul(n, 0.5);
    Value isEven = m.compare<AtenEqTensorOp>(half, m.floor(half));
    Value nearSide = near < far ? m.add(r, near) : m.sub(m.constant(near), r);
    Value farSide = near < far ? m.sub(m.constant(far), r) : m.add(r, far);
    return m.where(isEven, nearSide, farSide);
  };
  Value below = m.compare<AtenLtTensorOp>(x, m.constant(lo));
  Value above = m.compare<AtenGtTensorOp>(x, m.constant(hi));
  Value fromLow = fold(m.sub(m.constant(lo), x), lo, hi);
  Value fromHigh = fold(m.sub(x, m.constant(hi)), hi, lo);
  return m.where(below, fromLow, m.where(above, fromHigh, x));
}

/// round(x) with ties to even (numpy's rint).
Value roundHalfToEven(MatrixBuilder &m, Value x) {
  Value down = m.floor(x);
  Value fraction = m.sub(x, down);
  Value half = m.mul(down, 0.5);
  Value downIsOdd = AtenNeTensorOp::create(m.rewriter, m.loc,
                                           m.broadcastType(half, half, m.i1),
                                           half, m.floor(half));
  Value up = m.add(down, 1.0);
  Value tie = m.where(downIsOdd, up, down);
  return m.where(
      m.compare<AtenGtTensorOp>(fraction, m.constant(0.5)), up,
      m.where(m.compare<AtenLtTensorOp>(fraction, m.constant(0.5)), down, tie));
}

/// GridSample(X [N, C, D1..Dk], grid [N, O1..Ok, k]) for k = 2 or 3: for
/// each spatial dim d, the weights of its input positions at each output
/// point form a run-time matrix Wd [N, P, Dd] (P = O1*...*Ok), as in
/// Resize; the output contracts X with all of them.
LogicalResult lowerGridSample(const OpBinder &binder,
                              PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), grid = binder.getOperand(1);
  auto inputType = getKnownTensorType(x);
  auto gridType = getKnownTensorType(grid);
  auto resultType = binder.getResultType();
  if (!inputType || !gridType || !resultType || !inputType.areAllSizesKnown() ||
      !gridType.areAllSizesKnown() || !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "needs static sizes and known dtypes");
  std::string mode, paddingMode;
  int64_t alignCorners;
  if (failed(binder.getString("mode", mode, "linear")) ||
      failed(binder.getString("padding_mode", paddingMode, "zeros")) ||
      failed(binder.getInt("align_corners", alignCorners, 0)))
    return binder.fail(rewriter, "malformed attributes");
  if (mode == "bilinear")
    mode = "linear";
  if (mode == "bicubic")
    mode = "cubic";
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return binder.fail(rewriter, "unsupported mode '" + mode + "'");
  if (paddingMode != "zeros" && paddingMode != "border" &&
      paddingMode != "reflection")
    return binder.fail(rewriter,
                       "unsupported padding_mode '" + paddingMode + "'");
  ArrayRef<int64_t> in = inputType.getSizes(), gs = gridType.getSizes();
  int64_t rank = in.size(), k = rank - 2;
  if ((k != 2 && k != 3) || static_cast<int64_t>(gs.size()) != rank ||
      gs[0] != in[0] || gs.back() != k)
    return binder.fail(rewriter, "expects X [N, C, H, W] or [N, C, D, H, W] "
                                 "and a matching grid");
  Type dtype = inputType.getDtype();
  if (!isa<mlir::FloatType>(dtype) ||
      !isa<mlir::FloatType>(gridType.getDtype()))
    return binder.fail(rewriter, "unsupported: non-float X or grid");
  int64_t n = in[0], c = in[1];
  int64_t points = 1;
  for (int64_t size : gs.drop_front().drop_back())
    points *= size;

  Location loc = binder.getLoc();
  // The coordinates are computed in float32 (as the reference does) or in
  // the grid's wider type.
  Type real = gridType.getDtype().getIntOrFloatBitWidth() > 32
                  ? gridType.getDtype()
                  : Float32Type::get(rewriter.getContext());
  MatrixBuilder m(rewriter, loc, real);
  Value flatGrid = m.toReal(m.view(grid, {n, points, k}));
  // The weight matrix [N, P, size] of spatial dim d (grid entry k-1-d).
  auto buildWeights = [&](int64_t d) -> Value {
    int64_t size = in[2 + d];
    Value g = AtenSelectIntOp::create(
        rewriter, loc, getTensorType(m.context, {n, points}, real), flatGrid,
        createConstantInt(rewriter, loc, 2),
        createConstantInt(rewriter, loc, k - 1 - d));
    // Denormalize to input coordinates.
    Value pos = alignCorners ? m.mul(m.add(g, 1.0), (size - 1) / 2.0)
                             : m.mul(m.add(m.mul(g, static_cast<double>(size)),
                                           static_cast<double>(size - 1)),
                                     0.5);
    if (mode == "nearest")
      pos = roundHalfToEven(m, pos);
    double lo = alignCorners ? 0.0 : -0.5;
    double hi = alignCorners ? size - 1.0 : size - 0.5;
    Value outside = m.logicalOr(m.compare<AtenLtTensorOp>(pos, m.constant(lo)),
                                m.compare<AtenGtTensorOp>(pos, m.constant(hi)));
    if (paddingMode == "border")
      pos = m.where(
          outside,
          AtenClampOp::create(rewriter, loc, pos.getType(), pos,
                              createConstantFloat(rewriter, loc, 0.0),
                              createConstantFloat(rewriter, loc, size - 1.0)),
          pos);
    else if (paddingMode == "reflection")
      pos = m.where(outside, reflect(m, pos, lo, hi), pos);
    // Taps and their coefficients.
    SmallVector<Value> taps, coeffs;
    if (mode == "nearest") {
      taps.push_back(truncate(m, pos));
      coeffs.push_back(m.constant(1.0));
    } else {
      Value left = m.floor(pos);
      Value t = m.sub(pos, left);
      if (mode == "linear") {
        taps = {left, m.add(left, 1.0)};
        coeffs = {m.sub(m.constant(1.0), t), t};
      } else {
        double a = -0.75;
        Value rest = m.sub(m.constant(1.0), t);
        taps = {m.add(left, -1.0), left, m.add(left, 1.0), m.add(left, 2.0)};
        coeffs = {cubicOuter(m, m.add(t, 1.0), a), cubicInner(m, t, a),
                  cubicInner(m, rest, a), cubicOuter(m, m.add(rest, 1.0), a)};
      }
    }
    // The input index each tap reads (zeros: none outside the input).
    Value columns = m.view(m.positions(size), {1, 1, size});
    Value weights;
    for (auto [tap, coeff] : llvm::zip(taps, coeffs)) {
      Value index = tap;
      if (paddingMode == "border")
        index =
            AtenClampOp::create(rewriter, loc, tap.getType(), tap,
                                createConstantFloat(rewriter, loc, 0.0),
                                createConstantFloat(rewriter, loc, size - 1.0));
      else if (paddingMode == "reflection")
        index = truncate(m, reflect(m, tap, lo, hi));
      Value hits =
          m.compare<AtenEqTensorOp>(m.view(index, {n, points, 1}), columns);
      Value coefficient = MatrixBuilder::sizesOf(coeff).empty()
                              ? coeff
                              : m.view(coeff, {n, points, 1});
      Value term = m.where(hits, coefficient, m.constant(0.0));
      weights = weights ? m.add(weights, term) : term;
    }
    return createToDtype(rewriter, loc, weights, dtype);
  };

  auto type = [&](ArrayRef<int64_t> sizes) {
    return getTensorType(m.context, sizes, dtype);
  };
  // Contract the last spatial dim with a batched matmul, then each
  // earlier one with a broadcast multiply and a sum.
  int64_t last = in.back();
  int64_t rest = c;
  for (int64_t d = 0; d < k - 1; ++d)
    rest *= in[2 + d];
  Value flatX = m.view(x, {n, rest, last});
  Value lastWeights = buildWeights(k - 1);
  Value transposed = createPermute(rewriter, loc, lastWeights, {0, 2, 1});
  Value cur = AtenBmmOp::create(rewriter, loc, type({n, rest, points}), flatX,
                                transposed);
  for (int64_t d = k - 2; d >= 0; --d) {
    int64_t size = in[2 + d];
    rest /= size;
    Value split = m.view(cur, {n, rest, size, points});
    Value weights = createPermute(rewriter, loc, buildWeights(d), {0, 2, 1});
    weights = m.view(weights, {n, 1, size, points});
    Value product = AtenMulTensorOp::create(
        rewriter, loc, type({n, rest, size, points}), split, weights);
    cur =
        AtenSumDimIntListOp::create(rewriter, loc, type({n, rest, points}),
                                    product, createIntList(rewriter, loc, {2}),
                                    createConstantBool(rewriter, loc, false),
                                    createConstantNone(rewriter, loc));
  }
  Value result =
      createView(rewriter, loc, cur, resultType.getSizes(), resultType);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// AffineGrid-20(theta, size; align_corners): for the static spatial sizes
/// of the result, the normalized coordinates of every point (x fastest,
/// then y, then z; in [-1, 1], at pixel centers unless align_corners) as a
/// literal [P, k + 1] of homogeneous rows [x, y, (z,) 1], times theta^T:
/// grid[n, p] = theta[n] @ row[p]. theta is [N, k, k + 1], k = 2 or 3.
LogicalResult lowerAffineGrid(const OpBinder &binder,
                              PatternRewriter &rewriter) {
  Value theta = binder.getOperand(0);
  auto thetaType = getKnownTensorType(theta);
  auto resultType = binder.getResultType();
  int64_t alignCorners;
  if (failed(binder.getInt("align_corners", alignCorners, 0)))
    return binder.fail(rewriter, "attribute 'align_corners' must be an int");
  if (!thetaType || !resultType || !thetaType.areAllSizesKnown() ||
      !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "needs static theta and result sizes");
  ArrayRef<int64_t> thetaSizes = thetaType.getSizes();
  ArrayRef<int64_t> out = resultType.getSizes();
  Type dtype = thetaType.getDtype();
  auto floatType = dyn_cast<mlir::FloatType>(dtype);
  if (!floatType || dtype != resultType.getDtype())
    return binder.fail(rewriter, "theta and the result must be of one float "
                                 "dtype");
  if (thetaSizes.size() != 3 || (thetaSizes[1] != 2 && thetaSizes[1] != 3) ||
      thetaSizes[2] != thetaSizes[1] + 1)
    return binder.fail(rewriter, "theta must be [N, 2, 3] or [N, 3, 4]");
  int64_t n = thetaSizes[0], k = thetaSizes[1];
  if (static_cast<int64_t>(out.size()) != k + 2 || out[0] != n ||
      out.back() != k)
    return binder.fail(rewriter, "the result must be [N, (D,) H, W, k]");
  ArrayRef<int64_t> spatial = out.slice(1, k); // (D,) H, W
  // size is [N, C, (D,) H, W]; C is not read.
  SmallVector<SmallVector<int64_t, 2>> sizes = {{n}, {}};
  for (int64_t size : spatial)
    sizes.push_back({size});
  if (failed(assertValuesIn(rewriter, binder.getLoc(), binder.getOperand(1),
                            sizes, "AffineGrid node's size")))
    return binder.fail(rewriter, "size must be a 1-D tensor of " +
                                     Twine(k + 2) + " integers");
  auto coordinate = [&](int64_t i, int64_t size) {
    if (alignCorners)
      return size == 1 ? -1.0 : -1.0 + 2.0 * i / (size - 1);
    return -1.0 + (2.0 * i + 1.0) / size;
  };
  int64_t points = 1;
  for (int64_t size : spatial)
    points *= size;
  SmallVector<APFloat> rows;
  rows.reserve(points * (k + 1));
  SmallVector<int64_t> index(k, 0); // over spatial, last fastest
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  auto push = [&](double value) {
    APFloat element(value);
    bool lost;
    element.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    rows.push_back(element);
  };
  for (int64_t p = 0; p < points; ++p) {
    // Row [x, y, (z,) 1]: x is the last spatial dim.
    for (int64_t d = k - 1; d >= 0; --d)
      push(coordinate(index[d], spatial[d]));
    push(1.0);
    for (int64_t d = k - 1; d >= 0; --d) {
      if (++index[d] < spatial[d])
        break;
      index[d] = 0;
    }
  }
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  Value base = ValueTensorLiteralOp::create(
      rewriter, loc, getTensorType(context, {points, k + 1}, dtype),
      DenseElementsAttr::get(RankedTensorType::get({points, k + 1}, dtype),
                             rows));
  Value transposed = AtenTransposeIntOp::create(
      rewriter, loc, getTensorType(context, {n, k + 1, k}, dtype), theta,
      createConstantInt(rewriter, loc, 1), createConstantInt(rewriter, loc, 2));
  Value grid = AtenMatmulOp::create(
      rewriter, loc, getTensorType(context, {n, points, k}, dtype), base,
      transposed);
  rewriter.replaceOp(binder.getOp(),
                     createView(rewriter, loc, grid, out, resultType));
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxResizeLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("Resize", 11, lowerResize);
  lowerings.on("Upsample", 7, lowerUpsample);
  lowerings.on("GridSample", 16, lowerGridSample);
  lowerings.on("AffineGrid", 20, lowerAffineGrid);
}
