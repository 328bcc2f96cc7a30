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

/// The elements of a literal tensor `value` as integers, if it is one.
std::optional<SmallVector<int64_t>> getLiteralInts(Value value) {
  auto literal = value ? value.getDefiningOp<ValueTensorLiteralOp>() : nullptr;
  auto dense =
      literal ? dyn_cast<DenseIntElementsAttr>(literal.getValue()) : nullptr;
  if (!dense)
    return std::nullopt;
  SmallVector<int64_t> values;
  bool isUnsigned = dense.getElementType().isUnsignedInteger();
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(isUnsigned ? v.getZExtValue() : v.getSExtValue());
  return values;
}

/// Whether `zero` is absent or a literal of zeros.
bool isZero(Value zero) {
  if (!zero)
    return true;
  auto values = getLiteralInts(zero);
  return values && llvm::all_of(*values, [](int64_t v) { return v == 0; });
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

} // namespace

FailureOr<Value> mlir::torch2mlir::onnx_c::createIntegerMatmul(
    PatternRewriter &rewriter, Location loc, Value a, Value aZero, Value b,
    Value bZero) {
  auto aType = getKnownTensorType(a), bType = getKnownTensorType(b);
  if (!is8Bit(aType) || !is8Bit(bType) || aType.getSizes().size() != 2 ||
      bType.getSizes().size() != 2)
    return failure();
  int64_t m = aType.getSizes()[0], k = aType.getSizes()[1],
          n = bType.getSizes()[1];
  if (bType.getSizes()[0] != k || !hasCount(aZero, 1) || !hasCount(bZero, n))
    return failure();
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
  std::optional<SmallVector<int64_t>> xLiteral =
      xZero ? getLiteralInts(xZero) : SmallVector<int64_t>{0};
  if (xLiteral && xLiteral->size() == 1) {
    int64_t zero = (*xLiteral)[0] - xShift;
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
