//===- Pooling.cpp - 2-D pooling to TOSA ----------------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// tosa.max_pool2d and tosa.avg_pool2d work on NHWC; the patterns transpose
// around them (a dilated max pooling, which TOSA lacks, is a maximum of
// strided slices). TOSA's average excludes padding from the divisor, which is
// PyTorch's count_include_pad=False; with count_include_pad=True the input
// is zero-padded explicitly first.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToTosa/TorchToTosa.h"

#include "Utils.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_tosa;

namespace {

/// Constant 2-D window parameters; `stride` empty means the kernel.
struct Window {
  SmallVector<int64_t> kernel, stride, padding;
};

FailureOr<Window> matchWindow(Value kernel, Value stride, Value padding) {
  Window w;
  auto pair = [](SmallVector<int64_t> &values) {
    if (values.size() == 1)
      values.push_back(values[0]);
    return values.size() == 2;
  };
  if (!matchTorchConstantIntList(kernel, w.kernel) ||
      !matchTorchConstantIntList(stride, w.stride) ||
      !matchTorchConstantIntList(padding, w.padding))
    return failure();
  if (w.stride.empty())
    w.stride = w.kernel;
  if (!pair(w.kernel) || !pair(w.stride) || !pair(w.padding))
    return failure();
  for (int i = 0; i < 2; ++i)
    if (w.kernel[i] <= 0 || w.stride[i] <= 0 || w.padding[i] < 0)
      return failure();
  return w;
}

/// The NHWC input of a pooling of `input` [N, C, H, W] to `out` [N, C, OH,
/// OW], and TOSA's [top, bottom, left, right] pads: PyTorch's symmetric
/// padding, the bottom/right pad adjusted so that the window count is
/// exact (smaller: rows no window reads are sliced off; larger: ceil_mode's
/// last partial window).
FailureOr<Value> prepareInput(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> out, const Window &w,
                              SmallVector<int64_t> &pads) {
  auto type = cast<RankedTensorType>(input.getType());
  ArrayRef<int64_t> in = type.getShape();
  SmallVector<int64_t> keep = {in[2], in[3]};
  pads.assign(4, 0);
  for (int i = 0; i < 2; ++i) {
    // The declared size must be PyTorch's: floor((in + 2p - k) / s) + 1,
    // one more with ceil_mode.
    int64_t span = in[2 + i] + 2 * w.padding[i] - w.kernel[i];
    int64_t floorOut = span < 0 ? 0 : span / w.stride[i] + 1;
    if (out[2 + i] != floorOut && out[2 + i] != floorOut + 1)
      return failure();
    int64_t needed = (out[2 + i] - 1) * w.stride[i] + w.kernel[i];
    pads[2 * i] = w.padding[i];
    int64_t after = needed - in[2 + i] - w.padding[i];
    if (after < 0) {
      keep[i] += after;
      after = 0;
    }
    if (keep[i] <= 0)
      return failure();
    // A window must start inside the input or its leading padding.
    if ((out[2 + i] - 1) * w.stride[i] >= in[2 + i] + w.padding[i])
      return failure();
    pads[2 * i + 1] = after;
  }
  Value nhwc = createTranspose(b, loc, input, {0, 2, 3, 1});
  if (keep[0] != in[2] || keep[1] != in[3]) {
    SmallVector<int64_t> sizes = {in[0], keep[0], keep[1], in[1]};
    nhwc = tosa::SliceOp::create(
        b, loc, RankedTensorType::get(sizes, type.getElementType()), nhwc,
        createConstShape(b, loc, {0, 0, 0, 0}),
        createConstShape(b, loc, sizes));
  }
  return nhwc;
}

/// Max pooling with dilation (tosa.max_pool2d has none): the maximum,
/// over the kernel offsets (a, b), of the input padded with the lowest
/// value and sliced from (a * dh, b * dw) with the stride (a slice of out *
/// s rows, reshaped [out, s], keeping row 0 of each).
Value createDilatedMaxPool(OpBuilder &b, Location loc, Value input,
                           RankedTensorType type, const Window &w,
                           ArrayRef<int64_t> dilation) {
  auto inputType = cast<RankedTensorType>(input.getType());
  ArrayRef<int64_t> in = inputType.getShape(), out = type.getShape();
  Type element = type.getElementType();
  SmallVector<int64_t> padding(8, 0);
  for (int i = 0; i < 2; ++i) {
    int64_t span = (w.kernel[i] - 1) * dilation[i] + out[2 + i] * w.stride[i];
    padding[4 + 2 * i] = w.padding[i];
    padding[5 + 2 * i] = std::max<int64_t>(span - in[2 + i] - w.padding[i], 0);
  }
  double lowest = isa<mlir::FloatType>(element)
                      ? -INFINITY
                      : -std::ldexp(1.0, element.getIntOrFloatBitWidth() - 1);
  auto constType = RankedTensorType::get({1}, element);
  Attribute fill =
      isa<mlir::FloatType>(element)
          ? Attribute(b.getFloatAttr(element, lowest))
          : Attribute(b.getIntegerAttr(element, static_cast<int64_t>(lowest)));
  Value padded = input;
  if (llvm::any_of(padding, [](int64_t p) { return p != 0; }))
    padded = createPad(
        b, loc, input, padding,
        tosa::ConstOp::create(b, loc, constType,
                              DenseElementsAttr::get(constType, fill)));
  int64_t oh = out[2], ow = out[3], sh = w.stride[0], sw = w.stride[1];
  SmallVector<int64_t> sliceSizes = {in[0], in[1], oh * sh, ow * sw};
  Value result;
  for (int64_t a = 0; a < w.kernel[0]; ++a) {
    for (int64_t c = 0; c < w.kernel[1]; ++c) {
      Value x = tosa::SliceOp::create(
          b, loc, RankedTensorType::get(sliceSizes, element), padded,
          createConstShape(b, loc, {0, 0, a * dilation[0], c * dilation[1]}),
          createConstShape(b, loc, sliceSizes));
      if (sh != 1 || sw != 1) {
        SmallVector<int64_t> split = {in[0], in[1], oh, sh, ow, sw};
        SmallVector<int64_t> first = {in[0], in[1], oh, 1, ow, 1};
        x = tosa::SliceOp::create(b, loc, RankedTensorType::get(first, element),
                                  createReshape(b, loc, x, split),
                                  createConstShape(b, loc, {0, 0, 0, 0, 0, 0}),
                                  createConstShape(b, loc, first));
        x = createReshape(b, loc, x, type.getShape());
      }
      result =
          result ? tosa::MaximumOp::create(b, loc, type, result, x).getResult()
                 : x;
    }
  }
  return result;
}

/// max_pool2d and max_pool2d_with_indices (whose indices are unused).
template <typename TorchOp>
struct ConvertMaxPool : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = this->getTypeConverter();
    RankedTensorType type, inputType;
    if (failed(checkResultAndInput(rewriter, converter, op, type, inputType)))
      return failure();
    if (op->getNumResults() == 2 && !op->getResult(1).use_empty())
      return reportFailure(rewriter, op,
                           "unsupported: the indices of a max pooling (TOSA "
                           "has no argmax window)");
    auto window =
        matchWindow(op.getKernelSize(), op.getStride(), op.getPadding());
    SmallVector<int64_t> dilation;
    if (failed(window) ||
        !matchTorchConstantIntList(op.getDilation(), dilation) ||
        dilation.size() > 2 ||
        llvm::any_of(dilation, [](int64_t d) { return d <= 0; }))
      return reportFailure(rewriter, op,
                           "unsupported: window parameters computed at run "
                           "time or invalid (TOSA backend)");
    if (inputType.getRank() != 4 || inputType.getElementType().isInteger(1))
      return reportFailure(rewriter, op,
                           "unsupported: an input other than batched NCHW "
                           "numbers");
    Location loc = op.getLoc();
    if (dilation.size() == 1)
      dilation.push_back(dilation[0]);
    if (dilation.size() == 2 && (dilation[0] != 1 || dilation[1] != 1)) {
      SmallVector<Value> results = {createDilatedMaxPool(
          rewriter, loc, adaptor.getSelf(), type, *window, dilation)};
      if (op->getNumResults() == 2)
        results.push_back(Value());
      rewriter.replaceOp(op, results);
      return success();
    }
    SmallVector<int64_t> pads;
    auto nhwc = prepareInput(rewriter, loc, adaptor.getSelf(), type.getShape(),
                             *window, pads);
    if (failed(nhwc))
      return reportFailure(rewriter, op,
                           "the declared result size is not what the window "
                           "parameters give");
    ArrayRef<int64_t> out = type.getShape();
    auto poolType = RankedTensorType::get({out[0], out[2], out[3], out[1]},
                                          type.getElementType());
    Value pooled = tosa::MaxPool2dOp::create(
        rewriter, loc, poolType, *nhwc, window->kernel, window->stride, pads);
    Value result = createTranspose(rewriter, loc, pooled, {0, 3, 1, 2});
    // The indices (if any) have no user: nothing replaces them.
    SmallVector<Value> results = {result};
    if (op->getNumResults() == 2)
      results.push_back(Value());
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// avg_pool2d(self, kernel, stride, padding, ceil_mode, count_include_pad,
/// divisor_override = None).
struct ConvertAvgPool : OpConversionPattern<AtenAvgPool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    RankedTensorType type, inputType;
    if (failed(checkResultAndInput(rewriter, converter, op, type, inputType)))
      return failure();
    auto window =
        matchWindow(op.getKernelSize(), op.getStride(), op.getPadding());
    bool countIncludePad, ceilMode; // (ceil_mode shows in the result size)
    if (failed(window) ||
        !matchTorchConstantBool(op.getCountIncludePad(), countIncludePad) ||
        !matchTorchConstantBool(op.getCeilMode(), ceilMode) ||
        !isTorchNone(op.getDivisorOverride()))
      return reportFailure(rewriter, op,
                           "unsupported: window parameters computed at run "
                           "time or invalid, or a divisor_override (TOSA "
                           "backend)");
    if (inputType.getRank() != 4 ||
        !isa<mlir::FloatType>(type.getElementType()))
      return reportFailure(rewriter, op,
                           "unsupported: an input other than batched NCHW "
                           "floats");
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    ArrayRef<int64_t> out = type.getShape();
    bool padded = window->padding[0] || window->padding[1];
    if (countIncludePad && padded) {
      // Zeros counted in the average: pad explicitly. (With ceil_mode, the
      // part of the last window past the padding is TOSA's own padding,
      // not counted: PyTorch divides by the window clipped to input +
      // padding too.)
      SmallVector<int64_t> padding = {0,
                                      0,
                                      0,
                                      0,
                                      window->padding[0],
                                      window->padding[0],
                                      window->padding[1],
                                      window->padding[1]};
      input = createPad(rewriter, loc, input, padding,
                        tosa::createPadConstTensor(rewriter, loc, input, 0));
      window->padding = {0, 0};
    }
    SmallVector<int64_t> pads;
    auto nhwc = prepareInput(rewriter, loc, input, out, *window, pads);
    if (failed(nhwc))
      return reportFailure(rewriter, op,
                           "the declared result size is not what the window "
                           "parameters give");
    Type element = type.getElementType();
    auto poolType =
        RankedTensorType::get({out[0], out[2], out[3], out[1]}, element);
    Value zeroPoint = *tosa::createZeroPointTensor(rewriter, loc, element, 0);
    Value pooled = tosa::AvgPool2dOp::create(
        rewriter, loc, poolType, *nhwc, zeroPoint, zeroPoint,
        rewriter.getDenseI64ArrayAttr(window->kernel),
        rewriter.getDenseI64ArrayAttr(window->stride),
        rewriter.getDenseI64ArrayAttr(pads),
        TypeAttr::get(rewriter.getF32Type()));
    rewriter.replaceOp(op,
                       createTranspose(rewriter, loc, pooled, {0, 3, 1, 2}));
    return success();
  }
};

/// The averaging matrix of an adaptive pooling from `in` to `out` along
/// one dim, transposed ([in, out]): output i averages the inputs
/// [floor(i in / out), ceil((i + 1) in / out)) (PyTorch's windows).
Value createAdaptiveWeights(OpBuilder &b, Location loc, int64_t in, int64_t out,
                            Type element) {
  SmallVector<float> weights(in * out, 0.0f);
  for (int64_t i = 0; i < out; ++i) {
    int64_t start = (i * in) / out;
    int64_t end = ((i + 1) * in + out - 1) / out;
    for (int64_t j = start; j < end; ++j)
      weights[j * out + i] = 1.0f / static_cast<float>(end - start);
  }
  auto type = RankedTensorType::get({in, out}, element);
  return tosa::ConstOp::create(
      b, loc, type, DenseElementsAttr::get(type, ArrayRef<float>(weights)));
}

/// adaptive_avg_pool2d/3d ([N,] C, spatial...) of floats. When each output
/// size divides the input's (2-D): an average pooling with kernel = stride
/// = input / output. Otherwise: per spatial dim, a matmul by the
/// averaging matrix (the dim moved last, then back), in f32.
template <typename TorchOp>
struct ConvertAdaptiveAvgPool : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = this->getTypeConverter();
    RankedTensorType type, inputType;
    if (failed(checkResultAndInput(rewriter, converter, op, type, inputType)))
      return failure();
    constexpr int64_t spatial =
        std::is_same_v<TorchOp, Aten_AdaptiveAvgPool3dOp> ? 3 : 2;
    int64_t rank = inputType.getRank();
    if ((rank != spatial + 1 && rank != spatial + 2) ||
        !isa<mlir::FloatType>(type.getElementType()))
      return reportFailure(rewriter, op,
                           "unsupported: an input other than ([N,] C, "
                           "spatial...) floats");
    ArrayRef<int64_t> in = inputType.getShape(), out = type.getShape();
    Location loc = op.getLoc();
    Type element = type.getElementType();
    bool divides = spatial == 2 && rank == 4;
    for (int64_t d = rank - spatial; d < rank && divides; ++d)
      divides = in[d] % out[d] == 0;
    if (divides) {
      SmallVector<int64_t> kernel = {in[2] / out[2], in[3] / out[3]};
      Value nhwc =
          createTranspose(rewriter, loc, adaptor.getSelf(), {0, 2, 3, 1});
      auto poolType =
          RankedTensorType::get({out[0], out[2], out[3], out[1]}, element);
      Value zeroPoint = *tosa::createZeroPointTensor(rewriter, loc, element, 0);
      Value pooled = tosa::AvgPool2dOp::create(
          rewriter, loc, poolType, nhwc, zeroPoint, zeroPoint,
          rewriter.getDenseI64ArrayAttr(kernel),
          rewriter.getDenseI64ArrayAttr(kernel),
          rewriter.getDenseI64ArrayAttr({0, 0, 0, 0}),
          TypeAttr::get(rewriter.getF32Type()));
      rewriter.replaceOp(op,
                         createTranspose(rewriter, loc, pooled, {0, 3, 1, 2}));
      return success();
    }
    Type f32 = rewriter.getF32Type();
    Value x = createCast(rewriter, loc, adaptor.getSelf(), f32);
    SmallVector<int64_t> shape(in);
    for (int64_t d = rank - spatial; d < rank; ++d) {
      if (in[d] == out[d])
        continue;
      // Move d last, multiply by the [in, out] weights, move it back.
      SmallVector<int32_t> perm;
      for (int64_t k = 0; k < rank; ++k)
        if (k != d)
          perm.push_back(static_cast<int32_t>(k));
      perm.push_back(static_cast<int32_t>(d));
      SmallVector<int32_t> inverse(rank);
      for (int64_t k = 0; k < rank; ++k)
        inverse[perm[k]] = static_cast<int32_t>(k);
      Value moved = createTranspose(rewriter, loc, x, perm);
      SmallVector<int64_t> movedShape = permuteShape(shape, perm);
      movedShape.back() = out[d];
      Value pooled =
          createMatmul(rewriter, loc, moved,
                       createAdaptiveWeights(rewriter, loc, in[d], out[d], f32),
                       RankedTensorType::get(movedShape, f32));
      if (!pooled)
        return reportFailure(rewriter, op, "no matmul of this form");
      x = createTranspose(rewriter, loc, pooled, inverse);
      shape[d] = out[d];
    }
    rewriter.replaceOp(op, createCast(rewriter, loc, x, element));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateTosaPoolingPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<AtenMaxPool2dOp, AtenMaxPool2dWithIndicesOp,
                      AtenAvgPool2dOp, AtenAdaptiveAvgPool2dOp,
                      Aten_AdaptiveAvgPool2dOp, Aten_AdaptiveAvgPool3dOp>();
  patterns.add<ConvertMaxPool<AtenMaxPool2dOp>,
               ConvertMaxPool<AtenMaxPool2dWithIndicesOp>, ConvertAvgPool,
               ConvertAdaptiveAvgPool<AtenAdaptiveAvgPool2dOp>,
               ConvertAdaptiveAvgPool<Aten_AdaptiveAvgPool2dOp>,
               ConvertAdaptiveAvgPool<Aten_AdaptiveAvgPool3dOp>>(typeConverter,
                                                                 context);
}
