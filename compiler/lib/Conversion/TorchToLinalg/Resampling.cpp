//===- Resampling.cpp - Upsampling and grid sampling to linalg ------------===//
//
// Part of the torch2mlir project.
//
// Nearest and bilinear upsampling, and grid sampling: one linalg.generic
// over the result whose body reads the input at computed positions. The
// source indices and interpolation weights of each output row and column
// follow the arithmetic of PyTorch's CPU kernels: computed here, at compile
// time, for static sizes; for a dynamic one, by a linalg.generic over the
// output size at run time.
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
// Upsampling
//===----------------------------------------------------------------------===//

/// The scale_factors of an upsample op (none when empty), checked.
static LogicalResult matchUpsample(ConversionPatternRewriter &rewriter,
                                   Operation *op, RankedTensorType inputType,
                                   RankedTensorType resultType,
                                   Value scaleFactors,
                                   SmallVectorImpl<double> &scales) {
  if (inputType.getRank() != 4 || resultType.getRank() != 4)
    return reportFailure(rewriter, op, "expects an NCHW input");
  if (!isTorchNone(scaleFactors) &&
      (!matchConstantFloatList(scaleFactors, scales) || scales.size() != 2))
    return reportFailure(rewriter, op,
                         "scale_factors must be none or 2 constants");
  return success();
}

/// An index value as a float of `type`.
static Value indexToFloat(OpBuilder &b, Location loc, Value index, Type type) {
  return arith::SIToFPOp::create(
      b, loc, type, arith::IndexCastOp::create(b, loc, b.getI64Type(), index));
}

/// The input and output sizes (index values) of spatial dim `i` (0: height,
/// 1: width) of an upsample op: a dynamic output size is the output_size
/// element, or floor(input size * scale factor) in double
/// (upsample_compute_output_size). Fails when neither is given.
static LogicalResult getUpsampleSizes(ConversionPatternRewriter &rewriter,
                                      Operation *op,
                                      const TypeConverter *converter,
                                      Value input, RankedTensorType resultType,
                                      Value outputSize, ArrayRef<double> scales,
                                      int64_t i, Value &in, Value &out) {
  Location loc = op->getLoc();
  in = tensor::DimOp::create(rewriter, loc, input, 2 + i);
  if (!resultType.isDynamicDim(2 + i)) {
    out = arith::ConstantIndexOp::create(rewriter, loc,
                                         resultType.getDimSize(2 + i));
    return success();
  }
  if (!isTorchNone(outputSize)) {
    FailureOr<SmallVector<Value>> sizes =
        getConvertedTensorList(rewriter, loc, converter, outputSize);
    if (failed(sizes) || sizes->size() != 2)
      return reportFailure(rewriter, op,
                           "output_size must be a list of 2 ints");
    out = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                     (*sizes)[i]);
    return success();
  }
  if (scales.empty())
    return reportFailure(rewriter, op,
                         "a dynamic output size needs output_size or "
                         "scale_factors");
  Type f64 = rewriter.getF64Type();
  Value scaled =
      arith::MulFOp::create(rewriter, loc, indexToFloat(rewriter, loc, in, f64),
                            createFloatConstant(rewriter, loc, f64, scales[i]));
  out = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getIndexType(),
      arith::FPToSIOp::create(rewriter, loc, rewriter.getI64Type(),
                              math::FloorOp::create(rewriter, loc, scaled)));
  return success();
}

/// Per spatial dim of an upsample op, the (input, output) sizes as index
/// values where the input's or the result's size is dynamic (a null pair
/// where both are static); the dynamic output sizes are appended to
/// `dynamicSizes`, in order.
static FailureOr<SmallVector<std::pair<Value, Value>>>
getDynamicUpsampleSizes(ConversionPatternRewriter &rewriter, Operation *op,
                        const TypeConverter *converter, Value input,
                        RankedTensorType resultType, Value outputSize,
                        ArrayRef<double> scales,
                        SmallVectorImpl<Value> &dynamicSizes) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<std::pair<Value, Value>> sizes(2);
  for (int64_t i = 0; i < 2; ++i) {
    if (!inputType.isDynamicDim(2 + i) && !resultType.isDynamicDim(2 + i))
      continue;
    if (failed(getUpsampleSizes(rewriter, op, converter, input, resultType,
                                outputSize, scales, i, sizes[i].first,
                                sizes[i].second)))
      return failure();
    if (resultType.isDynamicDim(2 + i))
      dynamicSizes.push_back(sizes[i].second);
  }
  return sizes;
}

/// 1-D tensors of `size` (an index) elements, one per type in `types`:
/// element o of each is `body(o)` (o an index), one linalg.generic.
static SmallVector<Value> createTables(
    OpBuilder &b, Location loc, Value size, ArrayRef<Type> types,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value)> body) {
  SmallVector<Value> inits;
  SmallVector<Type> resultTypes;
  for (Type type : types) {
    auto tensorType = RankedTensorType::get({ShapedType::kDynamic}, type);
    resultTypes.push_back(tensorType);
    inits.push_back(
        tensor::EmptyOp::create(b, loc, tensorType.getShape(), type, size));
  }
  SmallVector<AffineMap> maps(types.size(), b.getMultiDimIdentityMap(1));
  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, ValueRange{}, inits, maps,
      SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
      [&](OpBuilder &nb, Location l, ValueRange) {
        linalg::YieldOp::create(nb, l,
                                body(nb, l, linalg::IndexOp::create(nb, l, 0)));
      });
  return SmallVector<Value>(generic.getResults());
}

/// PyTorch's compute_scales_value in `type` at run time: 1/scale when a
/// positive scale is given, else in/out (index values).
static Value createScaleValue(OpBuilder &b, Location loc, Type type,
                              ArrayRef<double> scales, int64_t i, Value in,
                              Value out) {
  if (!scales.empty() && scales[i] > 0.)
    return createFloatConstant(
        b, loc, type,
        type.isF64()
            ? 1.0 / scales[i]
            : static_cast<double>(static_cast<float>(1.0 / scales[i])));
  return arith::DivFOp::create(b, loc, indexToFloat(b, loc, in, type),
                               indexToFloat(b, loc, out, type));
}

/// min(floor(x), limit) of a float `x` as an index (x >= 0).
static Value floorToIndex(OpBuilder &b, Location loc, Value x, Value limit) {
  Value floor = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      arith::FPToSIOp::create(b, loc, b.getI64Type(),
                              math::FloorOp::create(b, loc, x)));
  return arith::MinSIOp::create(b, loc, floor, limit);
}

/// The result of an upsample op: the batch and channels of `input`, the
/// spatial `dynamicSizes` (in order) where the result's are dynamic.
static Value createUpsampleInit(OpBuilder &b, Location loc,
                                RankedTensorType resultType, Value input,
                                ArrayRef<Value> dynamicSizes) {
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < 2; ++i)
    if (resultType.isDynamicDim(i))
      sizes.push_back(tensor::DimOp::create(b, loc, input, i));
  llvm::append_range(sizes, dynamicSizes);
  return tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                 resultType.getElementType(), sizes);
}

/// PyTorch's compute_scales_value: 1/scale when a positive scale is given,
/// else input/output.
template <typename T>
static T scaleValue(ArrayRef<double> scales, int64_t i, int64_t in,
                    int64_t out) {
  if (!scales.empty() && scales[i] > 0.)
    return static_cast<T>(1.0 / scales[i]);
  return static_cast<T>(in) / static_cast<T>(out);
}

/// upsample_nearest2d.vec: output (h, w) reads input (src(h), src(w)) with
/// PyTorch's nearest_idx (float arithmetic; exact for 1x and 2x), computed
/// here as constant index vectors.
struct ConvertUpsampleNearest2d
    : OpConversionPattern<AtenUpsampleNearest2dVecOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenUpsampleNearest2dVecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<double> scales;
    if (!resultType || failed(matchUpsample(rewriter, op, inputType, resultType,
                                            op.getScaleFactors(), scales)))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> sources, dynamicSizes;
    auto dynamic = getDynamicUpsampleSizes(
        rewriter, op, getTypeConverter(), input, resultType, op.getOutputSize(),
        scales, dynamicSizes);
    if (failed(dynamic))
      return failure();
    for (int64_t i = 0; i < 2; ++i) {
      int64_t in = inputType.getDimSize(2 + i),
              out = resultType.getDimSize(2 + i);
      if (auto [inValue, outValue] = (*dynamic)[i]; inValue) {
        // nearest_idx at run time: min(floor(o * scale), in - 1) in float
        // (o itself where out == in, o >> 1 where out == 2 * in: the same
        // values).
        Type f32 = rewriter.getF32Type();
        Value scale =
            createScaleValue(rewriter, loc, f32, scales, i, inValue, outValue);
        Value last = arith::SubIOp::create(
            rewriter, loc, inValue,
            arith::ConstantIndexOp::create(rewriter, loc, 1));
        sources.push_back(createTables(
            rewriter, loc, outValue, {rewriter.getIndexType()},
            [&](OpBuilder &b, Location l, Value o) -> SmallVector<Value> {
              Value x = arith::MulFOp::create(b, l, indexToFloat(b, l, o, f32),
                                              scale);
              return {floorToIndex(b, l, x, last)};
            })[0]);
        continue;
      }
      SmallVector<double> indices;
      for (int64_t o = 0; o < out; ++o) {
        if (out == in)
          indices.push_back(o);
        else if (out == 2 * in)
          indices.push_back(o >> 1);
        else
          indices.push_back(static_cast<double>(
              std::min<int64_t>(static_cast<int64_t>(std::floor(
                                    static_cast<float>(o) *
                                    scaleValue<float>(scales, i, in, out))),
                                in - 1)));
      }
      sources.push_back(createConstantVector(rewriter, loc,
                                             rewriter.getIndexType(), indices));
    }
    MLIRContext *context = rewriter.getContext();
    AffineExpr d0, d1, d2, d3;
    bindDims(context, d0, d1, d2, d3);
    Value result =
        createWindowGeneric(rewriter, loc, sources,
                            {AffineMap::get(4, 0, {d2}, context),
                             AffineMap::get(4, 0, {d3}, context)},
                            {createUpsampleInit(rewriter, loc, resultType,
                                                input, dynamicSizes)},
                            {},
                            [&](OpBuilder &b, Location l,
                                ValueRange args) -> SmallVector<Value> {
                              return {tensor::ExtractOp::create(
                                  b, l, input,
                                  ValueRange{linalg::IndexOp::create(b, l, 0),
                                             linalg::IndexOp::create(b, l, 1),
                                             args[0], args[1]})};
                            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// upsample_bilinear2d.vec: per output dim, the two source indices and
/// their weights come from PyTorch's area_pixel_compute_source_index (in
/// opmath), computed here; the result is
///   (x00 * w0 + x01 * w1) * h0 + (x10 * w0 + x11 * w1) * h1.
struct ConvertUpsampleBilinear2d
    : OpConversionPattern<AtenUpsampleBilinear2dVecOp> {
  using OpConversionPattern::OpConversionPattern;

  template <typename T>
  static void computeWeights(int64_t in, int64_t out, bool alignCorners,
                             ArrayRef<double> scales, int64_t dim,
                             SmallVectorImpl<double> &index0,
                             SmallVectorImpl<double> &index1,
                             SmallVectorImpl<double> &lambda0,
                             SmallVectorImpl<double> &lambda1) {
    T scale;
    if (alignCorners)
      scale = out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
    else
      scale = scaleValue<T>(scales, dim, in, out);
    for (int64_t o = 0; o < out; ++o) {
      if (out == in) { // A copy.
        index0.push_back(o);
        index1.push_back(o);
        lambda0.push_back(1.0);
        lambda1.push_back(0.0);
        continue;
      }
      T source;
      if (alignCorners) {
        source = scale * static_cast<T>(o);
      } else {
        source = scale * (static_cast<T>(o) + static_cast<T>(0.5)) -
                 static_cast<T>(0.5);
        if (source < 0)
          source = T(0);
      }
      int64_t i0 =
          std::min<int64_t>(static_cast<int64_t>(std::floor(source)), in - 1);
      T l1 = std::min(std::max(source - static_cast<T>(i0), T(0)), T(1));
      index0.push_back(i0);
      index1.push_back(i0 + (i0 < in - 1 ? 1 : 0));
      lambda0.push_back(static_cast<double>(T(1) - l1));
      lambda1.push_back(static_cast<double>(l1));
    }
  }

  /// computeWeights at run time, for `out` (an index) output positions of
  /// an input dim of `in`: index0, index1, lambda0, lambda1 as 1-D tensors.
  static SmallVector<Value> createDynamicWeights(OpBuilder &b, Location loc,
                                                 Type type, Value in, Value out,
                                                 bool alignCorners,
                                                 ArrayRef<double> scales,
                                                 int64_t i) {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value last = arith::SubIOp::create(b, loc, in, one);
    Value scale;
    if (alignCorners) {
      // (in - 1) / (out - 1), 0 for a single output.
      Value outLast = arith::SubIOp::create(b, loc, out, one);
      Value ratio =
          arith::DivFOp::create(b, loc, indexToFloat(b, loc, last, type),
                                indexToFloat(b, loc, outLast, type));
      scale = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, out, one),
          ratio, createFloatConstant(b, loc, type, 0.0));
    } else {
      scale = createScaleValue(b, loc, type, scales, i, in, out);
    }
    Value copy =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, out, in);
    Type indexType = b.getIndexType();
    return createTables(
        b, loc, out, {indexType, indexType, type, type},
        [&](OpBuilder &nb, Location l, Value o) -> SmallVector<Value> {
          Value zero = createFloatConstant(nb, l, type, 0.0);
          Value unit = createFloatConstant(nb, l, type, 1.0);
          Value position = indexToFloat(nb, l, o, type);
          Value source;
          if (alignCorners) {
            source = arith::MulFOp::create(nb, l, scale, position);
          } else {
            Value half = createFloatConstant(nb, l, type, 0.5);
            source = arith::SubFOp::create(
                nb, l,
                arith::MulFOp::create(
                    nb, l, scale, arith::AddFOp::create(nb, l, position, half)),
                half);
            source = arith::SelectOp::create(
                nb, l,
                arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLT, source,
                                      zero),
                zero, source);
          }
          Value i0 = floorToIndex(nb, l, source, last);
          Value l1 = arith::MinimumFOp::create(
              nb, l,
              arith::MaximumFOp::create(
                  nb, l,
                  arith::SubFOp::create(nb, l, source,
                                        indexToFloat(nb, l, i0, type)),
                  zero),
              unit);
          Value i1 = arith::SelectOp::create(
              nb, l,
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, i0, last),
              arith::AddIOp::create(nb, l, i0,
                                    arith::ConstantIndexOp::create(nb, l, 1)),
              i0);
          Value l0 = arith::SubFOp::create(nb, l, unit, l1);
          // out == in: a copy (index o, weights 1 and 0).
          return {arith::SelectOp::create(nb, l, copy, o, i0),
                  arith::SelectOp::create(nb, l, copy, o, i1),
                  arith::SelectOp::create(nb, l, copy, unit, l0),
                  arith::SelectOp::create(nb, l, copy, zero, l1)};
        });
  }

  LogicalResult
  matchAndRewrite(AtenUpsampleBilinear2dVecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<double> scales;
    if (!resultType || failed(matchUpsample(rewriter, op, inputType, resultType,
                                            op.getScaleFactors(), scales)))
      return failure();
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op,
                           "unsupported: bilinear upsampling of integers "
                           "(PyTorch rounds uint8 with its own fixed-point "
                           "weights)");
    bool alignCorners;
    if (!matchTorchConstantBool(op.getAlignCorners(), alignCorners))
      return reportFailure(rewriter, op, "align_corners must be constant");
    Type accType = getOpMathType(element);
    Location loc = op.getLoc();
    // Per dim: index0, index1, lambda0, lambda1.
    SmallVector<Value> tables, dynamicSizes;
    auto dynamic = getDynamicUpsampleSizes(
        rewriter, op, getTypeConverter(), input, resultType, op.getOutputSize(),
        scales, dynamicSizes);
    if (failed(dynamic))
      return failure();
    for (int64_t i = 0; i < 2; ++i) {
      int64_t in = inputType.getDimSize(2 + i),
              out = resultType.getDimSize(2 + i);
      if (auto [inValue, outValue] = (*dynamic)[i]; inValue) {
        llvm::append_range(
            tables, createDynamicWeights(rewriter, loc, accType, inValue,
                                         outValue, alignCorners, scales, i));
        continue;
      }
      SmallVector<double> index0, index1, lambda0, lambda1;
      if (accType.isF64())
        computeWeights<double>(in, out, alignCorners, scales, i, index0, index1,
                               lambda0, lambda1);
      else
        computeWeights<float>(in, out, alignCorners, scales, i, index0, index1,
                              lambda0, lambda1);
      tables.push_back(
          createConstantVector(rewriter, loc, rewriter.getIndexType(), index0));
      tables.push_back(
          createConstantVector(rewriter, loc, rewriter.getIndexType(), index1));
      tables.push_back(createConstantVector(rewriter, loc, accType, lambda0));
      tables.push_back(createConstantVector(rewriter, loc, accType, lambda1));
    }
    MLIRContext *context = rewriter.getContext();
    AffineExpr d0, d1, d2, d3;
    bindDims(context, d0, d1, d2, d3);
    AffineMap hMap = AffineMap::get(4, 0, {d2}, context);
    AffineMap wMap = AffineMap::get(4, 0, {d3}, context);
    Value result =
        createWindowGeneric(
            rewriter, loc, tables,
            {hMap, hMap, hMap, hMap, wMap, wMap, wMap, wMap},
            {createUpsampleInit(rewriter, loc, resultType, input,
                                dynamicSizes)},
            {},
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              Value n = linalg::IndexOp::create(b, l, 0);
              Value c = linalg::IndexOp::create(b, l, 1);
              auto at = [&](Value h, Value w) {
                return castFloat(b, l,
                                 tensor::ExtractOp::create(
                                     b, l, input, ValueRange{n, c, h, w}),
                                 accType);
              };
              auto row = [&](Value h) {
                return arith::AddFOp::create(
                    b, l, arith::MulFOp::create(b, l, at(h, args[4]), args[6]),
                    arith::MulFOp::create(b, l, at(h, args[5]), args[7]));
              };
              Value value = arith::AddFOp::create(
                  b, l, arith::MulFOp::create(b, l, row(args[0]), args[2]),
                  arith::MulFOp::create(b, l, row(args[1]), args[3]));
              return {castFloat(b, l, value, element)};
            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Grid sampling
//===----------------------------------------------------------------------===//

/// PyTorch's reflect_coordinates: `x` reflected into [low, high] given as
/// twice their values.
static Value reflectCoordinate(OpBuilder &b, Location loc, Value x,
                               int64_t twiceLow, int64_t twiceHigh) {
  Type type = x.getType();
  if (twiceLow == twiceHigh)
    return createFloatConstant(b, loc, type, 0.0);
  Value low = createFloatConstant(b, loc, type, twiceLow / 2.0);
  Value span = createFloatConstant(b, loc, type, (twiceHigh - twiceLow) / 2.0);
  Value distance =
      math::AbsFOp::create(b, loc, arith::SubFOp::create(b, loc, x, low));
  Value extra = arith::RemFOp::create(b, loc, distance, span);
  Value flips = math::FloorOp::create(
      b, loc, arith::DivFOp::create(b, loc, distance, span));
  Value two = createFloatConstant(b, loc, type, 2.0);
  Value even = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                     arith::RemFOp::create(b, loc, flips, two),
                                     createFloatConstant(b, loc, type, 0.0));
  return arith::SelectOp::create(
      b, loc, even, arith::AddFOp::create(b, loc, extra, low),
      arith::AddFOp::create(b, loc, arith::SubFOp::create(b, loc, span, extra),
                            low));
}

/// grid_sampler_2d(input [N, C, H, W], grid [N, Ho, Wo, 2], mode, padding,
/// align_corners): output (n, c, h, w) samples input[n, c] at the grid's
/// (x, y), unnormalized from [-1, 1] to pixel coordinates, then clipped
/// (border) or reflected (reflection) as padding_mode says; bilinear mode
/// blends the four neighbours, nearest mode rounds half to even; neighbours
/// outside the input read zeros.
struct ConvertGridSampler2d : OpConversionPattern<AtenGridSampler2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenGridSampler2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getInput(), grid = adaptor.getGrid();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto gridType = cast<RankedTensorType>(grid.getType());
    if (!resultType || inputType.getRank() != 4 || gridType.getRank() != 4)
      return reportFailure(rewriter, op, "expects 4-D input and grid");
    if (!hasStaticTrailingDims(inputType, 2))
      return reportFailure(rewriter, op, "unsupported: dynamic H and W");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element) || gridType.getElementType() != element)
      return reportFailure(rewriter, op,
                           "unsupported: non-float or mixed dtypes");
    int64_t mode, padding;
    bool alignCorners;
    if (!matchTorchConstantInt(op.getInterpolationMode(), mode) ||
        !matchTorchConstantInt(op.getPaddingMode(), padding) ||
        !matchTorchConstantBool(op.getAlignCorners(), alignCorners))
      return reportFailure(rewriter, op,
                           "mode, padding_mode and align_corners must be "
                           "constants");
    if (mode != 0 && mode != 1)
      return reportFailure(rewriter, op,
                           "unsupported: interpolation mode " + Twine(mode) +
                               " (bicubic)");
    if (padding < 0 || padding > 2)
      return reportFailure(rewriter, op, "invalid padding_mode");
    // PyTorch's CPU kernel computes in the element type (f16 and bf16
    // round after each operation), and so does this lowering.
    Type acc = element;
    int64_t height = inputType.getDimSize(2), width = inputType.getDimSize(3);
    Location loc = op.getLoc();
    if (!resultType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: dynamic shapes");
    Value init = createEmpty(rewriter, loc, resultType);
    Value result =
        createWindowGeneric(
            rewriter, loc, {}, {}, {init}, {},
            [&](OpBuilder &b, Location l, ValueRange) -> SmallVector<Value> {
              Value n = linalg::IndexOp::create(b, l, 0);
              Value c = linalg::IndexOp::create(b, l, 1);
              Value h = linalg::IndexOp::create(b, l, 2);
              Value w = linalg::IndexOp::create(b, l, 3);
              auto coordinate = [&](int64_t component, int64_t size) {
                Value g = castFloat(
                    b, l,
                    tensor::ExtractOp::create(
                        b, l, grid,
                        ValueRange{n, h, w, cstIndex(b, l, component)}),
                    acc);
                Value one = createFloatConstant(b, l, acc, 1.0);
                Value x;
                if (alignCorners)
                  x = arith::MulFOp::create(
                      b, l,
                      arith::DivFOp::create(
                          b, l, arith::AddFOp::create(b, l, g, one),
                          createFloatConstant(b, l, acc, 2.0)),
                      createFloatConstant(b, l, acc, size - 1));
                else
                  x = arith::DivFOp::create(
                      b, l,
                      arith::SubFOp::create(
                          b, l,
                          arith::MulFOp::create(
                              b, l, arith::AddFOp::create(b, l, g, one),
                              createFloatConstant(b, l, acc, size)),
                          one),
                      createFloatConstant(b, l, acc, 2.0));
                if (padding == 2)
                  x = alignCorners
                          ? reflectCoordinate(b, l, x, 0, 2 * (size - 1))
                          : reflectCoordinate(b, l, x, -1, 2 * size - 1);
                // Clipped as PyTorch's kernel clips (max, then min, of
                // x86's vector instructions): NaN becomes 0.
                if (padding != 0)
                  x = arith::MinimumFOp::create(
                      b, l, createFloatConstant(b, l, acc, size - 1),
                      arith::MaxNumFOp::create(
                          b, l, x, createFloatConstant(b, l, acc, 0.0)));
                return x;
              };
              Value x = coordinate(0, width), y = coordinate(1, height);
              // The element at integer (float-valued) coordinates, or 0
              // outside the input.
              auto at = [&](Value xi, Value yi) -> Value {
                auto toIndex = [&](Value v, int64_t size,
                                   Value &inside) -> Value {
                  Value lowOk = arith::CmpFOp::create(
                      b, l, arith::CmpFPredicate::OGE, v,
                      createFloatConstant(b, l, acc, 0.0));
                  Value highOk = arith::CmpFOp::create(
                      b, l, arith::CmpFPredicate::OLT, v,
                      createFloatConstant(b, l, acc, size));
                  inside = arith::AndIOp::create(b, l, lowOk, highOk);
                  Value safe = arith::SelectOp::create(
                      b, l, inside, v, createFloatConstant(b, l, acc, 0.0));
                  return arith::IndexCastOp::create(
                      b, l, b.getIndexType(),
                      arith::FPToSIOp::create(b, l, b.getI64Type(), safe));
                };
                Value insideX, insideY;
                Value ix = toIndex(xi, width, insideX);
                Value iy = toIndex(yi, height, insideY);
                Value value =
                    castFloat(b, l,
                              tensor::ExtractOp::create(
                                  b, l, input, ValueRange{n, c, iy, ix}),
                              acc);
                return arith::SelectOp::create(
                    b, l, arith::AndIOp::create(b, l, insideX, insideY), value,
                    createFloatConstant(b, l, acc, 0.0));
              };
              Value out;
              if (mode == 1) {
                out = at(math::RoundEvenOp::create(b, l, x),
                         math::RoundEvenOp::create(b, l, y));
              } else {
                Value one = createFloatConstant(b, l, acc, 1.0);
                Value x0 = math::FloorOp::create(b, l, x);
                Value y0 = math::FloorOp::create(b, l, y);
                Value x1 = arith::AddFOp::create(b, l, x0, one);
                Value y1 = arith::AddFOp::create(b, l, y0, one);
                Value east = arith::SubFOp::create(b, l, x, x0);
                Value west = arith::SubFOp::create(b, l, one, east);
                Value south = arith::SubFOp::create(b, l, y, y0);
                Value north = arith::SubFOp::create(b, l, one, south);
                auto term = [&](Value xi, Value yi, Value wx, Value wy) {
                  return arith::MulFOp::create(
                      b, l, at(xi, yi), arith::MulFOp::create(b, l, wy, wx));
                };
                // Summed in PyTorch's order: ((nw + ne) + sw) + se.
                out = arith::AddFOp::create(b, l, term(x0, y0, west, north),
                                            term(x1, y0, east, north));
                out =
                    arith::AddFOp::create(b, l, out, term(x0, y1, west, south));
                out =
                    arith::AddFOp::create(b, l, out, term(x1, y1, east, south));
              }
              return {castFloat(b, l, out, element)};
            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateResamplingPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenUpsampleNearest2dVecOp, AtenUpsampleBilinear2dVecOp,
                    AtenGridSampler2dOp>(target);
  patterns.add<ConvertUpsampleNearest2d, ConvertUpsampleBilinear2d,
               ConvertGridSampler2d>(typeConverter, context);
}
