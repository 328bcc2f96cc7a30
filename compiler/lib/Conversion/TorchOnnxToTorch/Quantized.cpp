//===- Quantized.cpp - ONNX integer matmuls and convolutions --------------===//
//
// Part of the torch2mlir project.
//
// MatMulInteger, ConvInteger and the integer core of QLinearMatMul and
// QLinearConv: sum((a - a_zero_point) * (b - b_zero_point)) in int32 on the
// int8 x int8 -> int32 contractions the PT2E path runs on (aten._int_mm,
// torch2mlir.int_conv2d), whatever the operands' signedness and zero points:
//
//   * a uint8 operand is moved to int8 (minus 128, exactly) and so is its
//     zero point: a - za = (a - 128) - (za - 128);
//   * with a8, b8 the int8 operands and za', zb' the moved zero points,
//     sum((a8 - za') * (b8 - zb')) = sum(a8 * b8) - za' * sum_k(b8)
//       - zb' * sum_k(a8 - za'),
//     where the last sum is a row sum (matmul) or a window sum (convolution,
//     the convolution of a8 with a kernel of ones).
//
// A zero point that is a literal 0 drops its term. A convolution's input
// zero point that is a literal goes into int_conv2d itself (which pads with
// it); a run-time one is taken out through the convolution of an image of
// ones, which also says which window positions are padding.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

/// Builds the int32 arithmetic of the integer contractions.
class IntBuilder {
public:
  IntBuilder(PatternRewriter &rewriter, Location loc)
      : rewriter(rewriter), loc(loc), context(rewriter.getContext()),
        si32(IntegerType::get(context, 32, IntegerType::Signed)),
        si8(IntegerType::get(context, 8, IntegerType::Signed)) {}

  ValueTensorType type(ArrayRef<int64_t> sizes, Type dtype) const {
    return getTensorType(context, sizes, dtype);
  }
  static ArrayRef<int64_t> sizesOf(Value v) {
    return cast<ValueTensorType>(v.getType()).getSizes();
  }
  Value toInt32(Value v) { return createToDtype(rewriter, loc, v, si32); }
  Value one() { return createConstantInt(rewriter, loc, 1); }

  /// The int8 form of an 8-bit tensor: `x` itself, or for uint8 x - 128
  /// (computed in int16, exact); `shift` is what was subtracted.
  Value toInt8(Value x, int64_t &shift) {
    auto type = cast<ValueTensorType>(x.getType());
    if (type.getDtype().isSignedInteger(8)) {
      shift = 0;
      return x;
    }
    shift = 128;
    Type si16 = IntegerType::get(context, 16, IntegerType::Signed);
    Value wide = createToDtype(rewriter, loc, x, si16);
    Value moved = AtenSubScalarOp::create(
        rewriter, loc, type.getWithSizesAndDtype(type.getOptionalSizes(), si16),
        wide, createConstantInt(rewriter, loc, 128), one());
    return createToDtype(rewriter, loc, moved, si8);
  }

  /// zero - shift in int32 (zero: a tensor of the operand's dtype).
  Value movedZero(Value zero, int64_t shift) {
    Value wide = toInt32(zero);
    if (!shift)
      return wide;
    return AtenSubScalarOp::create(
        rewriter, loc, cast<ValueTensorType>(wide.getType()), wide,
        createConstantInt(rewriter, loc, shift), one());
  }

  /// The int32 type of `a` and `b` broadcast.
  ValueTensorType broadcastType(Value a, Value b) {
    FailureOr<SmallVector<int64_t>> sizes =
        broadcastSizes(sizesOf(a), sizesOf(b));
    assert(succeeded(sizes) && "operands built to broadcast");
    return type(*sizes, si32);
  }
  Value sub(Value a, Value b) {
    return AtenSubTensorOp::create(rewriter, loc, broadcastType(a, b), a, b,
                                   one());
  }
  Value mul(Value a, Value b) {
    return AtenMulTensorOp::create(rewriter, loc, broadcastType(a, b), a, b);
  }
  /// The int32 sum of `x` over `dims` (kept as size 1).
  Value sum(Value x, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> sizes(sizesOf(x));
    for (int64_t d : dims)
      sizes[d] = 1;
    return AtenSumDimIntListOp::create(
        rewriter, loc, type(sizes, si32), toInt32(x),
        createIntList(rewriter, loc, dims),
        createConstantBool(rewriter, loc, true),
        createConstantInt(rewriter, loc, *getScalarTypeCode(si32)));
  }
  /// An int8 tensor of ones.
  Value ones(ArrayRef<int64_t> sizes) {
    Value none = createConstantNone(rewriter, loc);
    return AtenOnesOp::create(
        rewriter, loc, type(sizes, si8), createIntList(rewriter, loc, sizes),
        createConstantInt(rewriter, loc, *getScalarTypeCode(si8)), none, none,
        none);
  }
  Value conv(Value x, int64_t zero, Value w, ArrayRef<int64_t> resultSizes,
             ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
             ArrayRef<int64_t> dilation) {
    return Torch2mlirIntConv2dOp::create(
        rewriter, loc, type(resultSizes, si32), x,
        createConstantInt(rewriter, loc, zero), w,
        createIntList(rewriter, loc, stride),
        createIntList(rewriter, loc, padding),
        createIntList(rewriter, loc, dilation));
  }

  PatternRewriter &rewriter;
  Location loc;
  MLIRContext *context;
  Type si32, si8;
};

/// Whether `zero` is absent or a literal of zeros.
bool isZero(Value zero) {
  if (!zero)
    return true;
  SmallVector<int64_t> values;
  return succeeded(getConstantTensorInts(zero, values)) &&
         llvm::all_of(values, [](int64_t v) { return v == 0; });
}

/// Whether `type` is a tensor of 8-bit integers.
bool is8Bit(ValueTensorType type) {
  return type && type.hasDtype() &&
         (type.getDtype().isSignedInteger(8) ||
          type.getDtype().isUnsignedInteger(8));
}

/// Whether a zero point of `zero`'s sizes has `count` elements or one.
bool hasCount(Value zero, int64_t count) {
  if (!zero)
    return true;
  auto type = getKnownTensorType(zero);
  if (!type || type.getSizes().size() > 1)
    return false;
  int64_t n = type.getSizes().empty() ? 1 : type.getSizes()[0];
  return n == 1 || n == count;
}

/// Whether a [..., K] by b [K, N] (8-bit, static sizes) with zero points
/// aZero (one value) and bZero (one value or one per column) has the int8
/// form.
bool integerMatmulApplies(ValueTensorType aType, Value aZero,
                          ValueTensorType bType, Value bZero) {
  if (!is8Bit(aType) || !is8Bit(bType) || !aType.areAllSizesKnown() ||
      !bType.areAllSizesKnown() || aType.getSizes().size() < 2 ||
      bType.getSizes().size() != 2)
    return false;
  return aType.getSizes().back() == bType.getSizes()[0] && hasCount(aZero, 1) &&
         hasCount(bZero, bType.getSizes()[1]);
}

} // namespace

FailureOr<Value> mlir::torch2mlir::onnx_c::createIntegerMatmul(
    PatternRewriter &rewriter, Location loc, Value a, Value aZero, Value b,
    Value bZero) {
  auto aType = getKnownTensorType(a), bType = getKnownTensorType(b);
  if (!integerMatmulApplies(aType, aZero, bType, bZero) ||
      aType.getSizes().size() != 2)
    return failure();
  int64_t m = aType.getSizes()[0], k = aType.getSizes()[1],
          n = bType.getSizes()[1];
  IntBuilder ib(rewriter, loc);
  int64_t aShift, bShift;
  Value a8 = ib.toInt8(a, aShift), b8 = ib.toInt8(b, bShift);
  SmallVector<int64_t> sizes{m, n};
  Value result =
      Aten_IntMmOp::create(rewriter, loc, ib.type(sizes, ib.si32), a8, b8);
  // The moved zero points (a literal shift alone when absent).
  auto moved = [&](Value zero, int64_t shift) -> Value {
    if (zero)
      return ib.movedZero(zero, shift);
    return createScalarLiteral(rewriter, loc, ib.si32, -shift);
  };
  bool aCentered = isZero(aZero) && !aShift;
  bool bCentered = isZero(bZero) && !bShift;
  Value za = aCentered ? Value() : moved(aZero, aShift);
  if (za) // - za' * sum_k b8[k, n]
    result = ib.sub(result, ib.mul(za, ib.sum(b8, {0})));
  if (!bCentered) {
    // - zb' * sum_k (a8 - za')[m, k]: the row sums, [M, 1].
    Value rows = ib.sum(a8, {1});
    if (za)
      rows = ib.sub(rows,
                    ib.mul(za, createScalarLiteral(rewriter, loc, ib.si32, k)));
    result = ib.sub(result, ib.mul(moved(bZero, bShift), rows));
  }
  return result;
}

FailureOr<Value> mlir::torch2mlir::onnx_c::createIntegerConv2d(
    PatternRewriter &rewriter, Location loc, Value x, Value xZero, Value w,
    Value wZero, ArrayRef<int64_t> resultSizes, ArrayRef<int64_t> stride,
    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation) {
  auto xType = getKnownTensorType(x), wType = getKnownTensorType(w);
  if (!is8Bit(xType) || !is8Bit(wType) || xType.getSizes().size() != 4 ||
      wType.getSizes().size() != 4 || resultSizes.size() != 4 ||
      !xType.areAllSizesKnown() || !wType.areAllSizesKnown())
    return failure();
  int64_t f = wType.getSizes()[0];
  if (!hasCount(xZero, 1) || !hasCount(wZero, f))
    return failure();
  IntBuilder ib(rewriter, loc);
  int64_t xShift, wShift;
  Value x8 = ib.toInt8(x, xShift), w8 = ib.toInt8(w, wShift);
  ArrayRef<int64_t> xSizes = xType.getSizes(), wSizes = wType.getSizes();
  SmallVector<int64_t> windowSizes{resultSizes[0], 1, resultSizes[2],
                                   resultSizes[3]};
  auto conv = [&](Value input, int64_t zero, Value weight,
                  ArrayRef<int64_t> sizes) {
    return ib.conv(input, zero, weight, sizes, stride, padding, dilation);
  };
  // sum((x8 - zx') * w8), and the window sums of x8 - zx' when the weight
  // has a zero point.
  Value result, windows;
  bool wCentered = isZero(wZero) && !wShift;
  Value onesKernel =
      wCentered ? Value() : ib.ones({1, wSizes[1], wSizes[2], wSizes[3]});
  SmallVector<int64_t> xLiteral{0};
  if (xZero) {
    xLiteral.clear();
    (void)getConstantTensorInts(xZero, xLiteral);
  }
  if (xLiteral.size() == 1) {
    int64_t zero = xLiteral[0] - xShift;
    result = conv(x8, zero, w8, resultSizes);
    if (!wCentered)
      windows = conv(x8, zero, onesKernel, windowSizes);
  } else {
    // A run-time zero point: x8 padded with 0, then minus zx' times the
    // convolution of an image of ones (1 inside, 0 in the padding).
    Value zx = ib.movedZero(xZero, xShift);
    Value image = ib.ones({1, xSizes[1], xSizes[2], xSizes[3]});
    SmallVector<int64_t> imageResult{1, f, resultSizes[2], resultSizes[3]};
    result = ib.sub(conv(x8, 0, w8, resultSizes),
                    ib.mul(zx, conv(image, 0, w8, imageResult)));
    if (!wCentered) {
      SmallVector<int64_t> countSizes{1, 1, resultSizes[2], resultSizes[3]};
      Value counts = conv(image, 0, onesKernel, countSizes);
      windows =
          ib.sub(conv(x8, 0, onesKernel, windowSizes), ib.mul(zx, counts));
    }
  }
  if (!wCentered) {
    Value zw = wZero ? ib.movedZero(wZero, wShift)
                     : createScalarLiteral(rewriter, loc, ib.si32, -wShift);
    auto zwType = getKnownTensorType(zw);
    if (zwType.getSizes().size() == 1 && zwType.getSizes()[0] == f)
      zw = createView(rewriter, loc, zw, {1, f, 1, 1},
                      ib.type({1, f, 1, 1}, ib.si32));
    result = ib.sub(result, ib.mul(zw, windows));
  }
  return result;
}

Value mlir::torch2mlir::onnx_c::createIntegerMatmulOfRank(
    PatternRewriter &rewriter, Location loc, Value a, Value aZero, Value b,
    Value bZero) {
  auto aType = getKnownTensorType(a), bType = getKnownTensorType(b);
  if (!integerMatmulApplies(aType, aZero, bType, bZero))
    return nullptr;
  ArrayRef<int64_t> sizes = aType.getSizes();
  int64_t rows = 1;
  for (int64_t size : sizes.drop_back())
    rows *= size;
  Value flat = a;
  if (sizes.size() != 2)
    flat = createView(rewriter, loc, a, {rows, sizes.back()},
                      withSizes(a, {rows, sizes.back()}));
  Value product = *createIntegerMatmul(rewriter, loc, flat, aZero, b, bZero);
  if (sizes.size() == 2)
    return product;
  SmallVector<int64_t> resultSizes(sizes.drop_back());
  resultSizes.push_back(bType.getSizes()[1]);
  return createView(rewriter, loc, product, resultSizes,
                    withSizes(product, resultSizes));
}

//===----------------------------------------------------------------------===//
// QDQ models: DequantizeLinear -> Conv/MatMul as integer contractions
//===----------------------------------------------------------------------===//

namespace {

/// `value` = onnx.DequantizeLinear(q, scale, zero?) to float32 with float32
/// scales, not blocked.
struct Dequantized {
  Value q, scale, zero;
  int64_t axis;
};

std::optional<Dequantized> matchDequantize(Value value) {
  auto op = value ? value.getDefiningOp<OperatorOp>() : nullptr;
  if (!op || op.getName() != "onnx.DequantizeLinear")
    return std::nullopt;
  OpBinder binder(op, /*opsetVersion=*/0); // Attributes only.
  int64_t axis, blockSize;
  auto result = binder.getResultType();
  Value q = binder.getOperand(0), scale = binder.getOperand(1);
  auto qType = q ? getKnownTensorType(q) : nullptr;
  auto scaleType = scale ? getKnownTensorType(scale) : nullptr;
  if (failed(binder.getInt("axis", axis, 1)) ||
      failed(binder.getInt("block_size", blockSize, 0)) || blockSize != 0 ||
      !result || !result.getDtype().isF32() || !qType || !scaleType ||
      !scaleType.getDtype().isF32() ||
      failed(normalizeAxis(axis, qType.getSizes().size())))
    return std::nullopt;
  return Dequantized{q, scale, binder.getOperand(2), axis};
}

/// The number of elements of a static tensor value, or -1.
int64_t getNumElements(Value value) {
  auto type = getKnownTensorType(value);
  if (!type || !type.areAllSizesKnown())
    return -1;
  int64_t n = 1;
  for (int64_t size : type.getSizes())
    n *= size;
  return n;
}

/// onnx.Conv (2-D, ungrouped) and onnx.MatMul (2-D weight) of dequantized
/// operands: the activation per tensor, the weight per tensor or per output
/// channel (axis 0 of a Conv weight, axis 1 of a MatMul one). They become
/// the integer contraction of the integers (createIntegerConvolution,
/// createIntegerMatmulOfRank) times x_scale * w_scale, plus the Conv's
/// bias: what a QDQ model means, on the int8 kernels. Runs before the
/// lowering, which would otherwise dequantize first.
struct FuseDequantizedContraction : OpRewritePattern<OperatorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(OperatorOp op,
                                PatternRewriter &rewriter) const override {
    StringRef name = op.getName();
    bool conv = name == "onnx.Conv";
    if (!conv && name != "onnx.MatMul")
      return rewriter.notifyMatchFailure(op, "not a Conv or MatMul");
    OpBinder binder(op, /*opsetVersion=*/0);
    std::optional<Dequantized> x = matchDequantize(binder.getOperand(0));
    std::optional<Dequantized> w = matchDequantize(binder.getOperand(1));
    auto resultType = binder.getResultType();
    if (!x || !w || !resultType || !resultType.areAllSizesKnown() ||
        !resultType.getDtype().isF32())
      return rewriter.notifyMatchFailure(op, "operands not dequantized");
    auto wType = getKnownTensorType(w->q);
    if (!wType || wType.getSizes().size() != (conv ? 4u : 2u))
      return rewriter.notifyMatchFailure(op, "weight of another rank");
    int64_t channelAxis = conv ? 0 : 1;
    int64_t channels = wType.getSizes()[channelAxis];
    bool wPerTensor = getNumElements(w->scale) == 1;
    if (getNumElements(x->scale) != 1 ||
        (x->zero && getNumElements(x->zero) != 1) ||
        (!wPerTensor &&
         (w->axis != channelAxis || getNumElements(w->scale) != channels)))
      return rewriter.notifyMatchFailure(op, "no per-tensor activation and "
                                             "per-channel weight");
    Location loc = op.getLoc();
    Value product;
    if (conv) {
      FailureOr<Value> result =
          createIntegerConvolution(binder, rewriter, x->q, x->zero, w->q,
                                   w->zero, resultType.getSizes());
      if (failed(result))
        return failure();
      product = *result;
    } else {
      product = createIntegerMatmulOfRank(rewriter, loc, x->q, x->zero, w->q,
                                          w->zero);
      if (!product)
        return rewriter.notifyMatchFailure(op, "no int8 matmul form");
    }
    MLIRContext *context = rewriter.getContext();
    Type f32 = Float32Type::get(context);
    // x_scale * w_scale: one value, or one per channel (a Conv's viewed
    // along dim 1).
    FailureOr<SmallVector<int64_t>> scaleSizes =
        broadcastSizes(getKnownTensorType(w->scale).getSizes(),
                       getKnownTensorType(x->scale).getSizes());
    Value scale = AtenMulTensorOp::create(
        rewriter, loc, getTensorType(context, *scaleSizes, f32), w->scale,
        x->scale);
    if (conv && !wPerTensor)
      scale = createView(rewriter, loc, scale, {1, channels, 1, 1},
                         getTensorType(context, {1, channels, 1, 1}, f32));
    Value result = AtenMulTensorOp::create(
        rewriter, loc, resultType, createToDtype(rewriter, loc, product, f32),
        scale);
    if (Value bias = conv ? binder.getOperand(2) : Value()) {
      auto biasType = getKnownTensorType(bias);
      if (biasType && biasType.getSizes().size() == 1)
        bias =
            createView(rewriter, loc, bias, {1, biasType.getSizes()[0], 1, 1},
                       withSizes(bias, {1, biasType.getSizes()[0], 1, 1}));
      result = AtenAddTensorOp::create(rewriter, loc, resultType, result, bias,
                                       createConstantInt(rewriter, loc, 1));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxQdqFusionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FuseDequantizedContraction>(patterns.getContext());
}
