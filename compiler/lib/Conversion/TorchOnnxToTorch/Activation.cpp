//===- Activation.cpp - ONNX activations and math functions to ATen -------===//
//
// Part of the torch2mlir project.
//
// The activations that ATen has no single op for (Elu, Selu, Softplus,
// HardSigmoid, ...) and the math functions without an ATen op in the
// dialect (Sinh, Tan, Round, Mod, IsInf, ...) become short chains of the
// core elementwise ops (exp, log, comparisons, where), each following the
// formula of the ONNX spec. They take float tensors unless noted. The
// linear (de)quantization ops (QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, QLinearMatMul) are such formulas too.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

/// Builds elementwise ATen ops whose results have the type `type` (the
/// node's result) or, for comparisons, its sizes with an i1 dtype.
class ElementwiseBuilder {
public:
  ElementwiseBuilder(PatternRewriter &rewriter, Location loc,
                     ValueTensorType type)
      : rewriter(rewriter), loc(loc), type(type) {}

  ValueTensorType getType() const { return type; }
  ValueTensorType getBoolType() const {
    return ValueTensorType::get(rewriter.getContext(), type.getOptionalSizes(),
                                rewriter.getI1Type());
  }

  template <typename AtenOp> Value unary(Value x) {
    return AtenOp::create(rewriter, loc, type, x);
  }
  Value exp(Value x) { return unary<AtenExpOp>(x); }
  Value log(Value x) { return unary<AtenLogOp>(x); }

  Value add(Value a, Value b) {
    return AtenAddTensorOp::create(rewriter, loc, type, a, b, one());
  }
  Value sub(Value a, Value b) {
    return AtenSubTensorOp::create(rewriter, loc, type, a, b, one());
  }
  Value mul(Value a, Value b) {
    return AtenMulTensorOp::create(rewriter, loc, type, a, b);
  }
  Value div(Value a, Value b) {
    return AtenDivTensorOp::create(rewriter, loc, type, a, b);
  }
  Value add(Value a, double c) {
    return AtenAddScalarOp::create(rewriter, loc, type, a, scalar(c), one());
  }
  Value mul(Value a, double c) {
    return AtenMulScalarOp::create(rewriter, loc, type, a, scalar(c));
  }
  Value clamp(Value a, double lo, double hi) {
    return AtenClampOp::create(rewriter, loc, type, a, scalar(lo), scalar(hi));
  }
  /// A comparison of `a` with the scalar `c` (AtenOp is a *.Scalar op).
  template <typename AtenOp> Value compare(Value a, double c) {
    return AtenOp::create(rewriter, loc, getBoolType(), a, scalar(c));
  }
  Value where(Value condition, Value a, Value b) {
    return AtenWhereSelfOp::create(rewriter, loc, type, condition, a, b);
  }
  /// A 0-d tensor of the result dtype holding `value` (broadcasts).
  Value splat(double value) {
    return createScalarLiteral(rewriter, loc, type.getDtype(), value);
  }
  /// exp(x) - 1, as the ONNX formulas of Elu, Selu and Celu write it.
  Value expm1(Value x) { return add(exp(x), -1.0); }

private:
  Value scalar(double value) {
    return createConstantFloat(rewriter, loc, value);
  }
  Value one() { return createConstantInt(rewriter, loc, 1); }

  PatternRewriter &rewriter;
  Location loc;
  ValueTensorType type;
};

/// A float elementwise op: `build(b, x)` computes the result from the
/// first operand, whose type is the result's.
template <typename Build>
LogicalResult lowerFloatUnary(const OpBinder &binder, PatternRewriter &rewriter,
                              Build build) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  if (!isa<mlir::FloatType>(inputType.getDtype()) ||
      inputType.getDtype() != resultType.getDtype())
    return binder.fail(rewriter, "unsupported: a non-float input");
  ElementwiseBuilder b(rewriter, binder.getLoc(), resultType);
  Value result = build(b, x);
  if (!result)
    return failure(); // `build` has called binder.fail.
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// A float attribute of an activation and its default.
struct FloatParam {
  StringRef name;
  double defaultValue;
};

/// A float activation: reads `attrs` (before building any IR), then
/// `build(b, x, values)`.
template <size_t N, typename Build>
OnnxLowering floatActivation(std::array<FloatParam, N> attrs, Build build) {
  return [=](const OpBinder &binder, PatternRewriter &rewriter) {
    std::array<double, N> values;
    for (size_t i = 0; i < N; ++i)
      if (failed(
              binder.getFloat(attrs[i].name, values[i], attrs[i].defaultValue)))
        return binder.fail(rewriter, Twine("attribute '") + attrs[i].name +
                                         "' must be a float");
    return lowerFloatUnary(
        binder, rewriter,
        [&](ElementwiseBuilder &b, Value x) { return build(b, x, values); });
  };
}

template <typename Build> OnnxLowering floatFunction(Build build) {
  return floatActivation<0>({},
                            [=](ElementwiseBuilder &b, Value x,
                                std::array<double, 0>) { return build(b, x); });
}

/// PRelu(x, slope): x < 0 ? slope * x : x, slope broadcasting to x.
LogicalResult lowerPRelu(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), slope = binder.getOperand(1);
  auto resultType = binder.getResultType();
  auto slopeType = getKnownTensorType(slope);
  if (!getKnownTensorType(x) || !slopeType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  if (slopeType.getDtype() != resultType.getDtype())
    return binder.fail(rewriter, "slope must have the input's dtype");
  ElementwiseBuilder b(rewriter, binder.getLoc(), resultType);
  Value negative = b.compare<AtenLtScalarOp>(x, 0.0);
  rewriter.replaceOp(binder.getOp(), b.where(negative, b.mul(x, slope), x));
  return success();
}

/// SwiGLU-28(A, B): Swish_alpha(A) * B = A * sigmoid(alpha * A) * B; A and
/// B have the result's shape (no broadcasting).
LogicalResult lowerSwiGLU(const OpBinder &binder, PatternRewriter &rewriter) {
  double alpha;
  if (failed(binder.getFloat("alpha", alpha, 1.0)))
    return binder.fail(rewriter, "attribute 'alpha' must be a float");
  Value value = binder.getOperand(1);
  auto valueType = value ? getKnownTensorType(value) : nullptr;
  auto resultType = binder.getResultType();
  if (!valueType || !resultType || valueType != resultType)
    return binder.fail(rewriter, "B must have known sizes and dtype, those of "
                                 "the result");
  return lowerFloatUnary(binder, rewriter, [&](ElementwiseBuilder &b, Value a) {
    Value gate = b.mul(a, b.unary<AtenSigmoidOp>(b.mul(a, alpha)));
    return b.mul(gate, value);
  });
}

/// Gelu-20: aten.gelu with approximate "none" or "tanh".
LogicalResult lowerGelu(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto resultType = binder.getAnyResultType();
  std::string approximate;
  if (!x || !resultType ||
      failed(binder.getString("approximate", approximate, "none")))
    return binder.fail(rewriter, "expects a tensor and a string approximate");
  if (approximate != "none" && approximate != "tanh")
    return binder.fail(rewriter,
                       "unsupported approximate '" + approximate + "'");
  rewriter.replaceOpWithNewOp<AtenGeluOp>(
      binder.getOp(), resultType, x,
      ConstantStrOp::create(rewriter, binder.getLoc(),
                            StringType::get(rewriter.getContext()),
                            rewriter.getStringAttr(approximate)));
  return success();
}

/// IsNaN: x != x.
LogicalResult lowerIsNaN(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  if (!isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  rewriter.replaceOpWithNewOp<AtenNeTensorOp>(binder.getOp(), resultType, x, x);
  return success();
}

/// IsInf(detect_negative, detect_positive): x == -inf, x == +inf, or both.
LogicalResult lowerIsInf(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t detectNegative, detectPositive;
  if (!inputType || !resultType ||
      failed(binder.getInt("detect_negative", detectNegative, 1)) ||
      failed(binder.getInt("detect_positive", detectPositive, 1)))
    return binder.fail(rewriter,
                       "needs known sizes, dtypes and int attributes");
  if (!isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  Location loc = binder.getLoc();
  double inf = std::numeric_limits<double>::infinity();
  auto equals = [&](double value) -> Value {
    return AtenEqScalarOp::create(rewriter, loc, resultType, x,
                                  createConstantFloat(rewriter, loc, value));
  };
  Value result;
  if (detectNegative && detectPositive)
    result = AtenLogicalOrOp::create(rewriter, loc, resultType, equals(-inf),
                                     equals(inf));
  else if (detectNegative)
    result = equals(-inf);
  else if (detectPositive)
    result = equals(inf);
  else // Nothing is detected: x > +inf is false everywhere.
    result = AtenGtScalarOp::create(rewriter, loc, resultType, x,
                                    createConstantFloat(rewriter, loc, inf));
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// Mod(a, b): aten.remainder (fmod=0: the result takes the divisor's sign,
/// as Python's %, and numpy's mod for infinite divisors) or aten.fmod
/// (fmod=1: the dividend's sign, as C's fmod). Both are exact, as IEEE
/// fmod is; a - div(a, b) * b is not (the product rounds: 16-bit floats
/// were off by an ulp of the dividend).
LogicalResult lowerMod(const OpBinder &binder, PatternRewriter &rewriter) {
  Value a = binder.getOperand(0), b = binder.getOperand(1);
  auto resultType = binder.getResultType();
  int64_t fmod;
  if (!getKnownTensorType(a) || !getKnownTensorType(b) || !resultType ||
      failed(binder.getInt("fmod", fmod, 0)))
    return binder.fail(rewriter, "needs known sizes, dtypes and an int fmod");
  if (fmod != 0 && fmod != 1)
    return binder.fail(rewriter, "fmod must be 0 or 1");
  if (fmod)
    rewriter.replaceOpWithNewOp<AtenFmodTensorOp>(binder.getOp(), resultType, a,
                                                  b);
  else
    rewriter.replaceOpWithNewOp<AtenRemainderTensorOp>(binder.getOp(),
                                                       resultType, a, b);
  return success();
}

/// Round: to the nearest integer, ties to even. With f = floor(x) and
/// d = x - f: f + 1 if d > 0.5, f if d < 0.5, and on a tie f + (f mod 2).
Value createRoundHalfEven(ElementwiseBuilder &b, Value x) {
  Value f = b.unary<AtenFloorOp>(x);
  Value d = b.sub(x, f);
  // f mod 2 = f - 2 * floor(f / 2), in {0, 1}.
  Value parity = b.sub(f, b.mul(b.unary<AtenFloorOp>(b.mul(f, 0.5)), 2.0));
  Value tie = b.add(f, parity);
  Value nearest = b.where(b.compare<AtenGtScalarOp>(d, 0.5), b.add(f, 1.0), f);
  return b.where(b.compare<AtenEqScalarOp>(d, 0.5), tie, nearest);
}

/// A quantization parameter (scale or zero point) shaped to broadcast with
/// x of `sizes`: one value as is, per axis ([D]) viewed along `axis`,
/// blocked (x's rank, ceil(D / blockSize) along `axis`) repeated blockSize
/// times along the axis (and cut to D). Null if it is none of those (or
/// `axis` is -1 and it is not one value).
Value broadcastQuantParam(PatternRewriter &rewriter, Location loc, Value param,
                          ArrayRef<int64_t> sizes, int64_t axis,
                          int64_t blockSize) {
  auto type = getKnownTensorType(param);
  if (!type || !type.areAllSizesKnown())
    return nullptr;
  ArrayRef<int64_t> p = type.getSizes();
  int64_t rank = sizes.size();
  int64_t numel = 1;
  for (int64_t size : p)
    numel *= size;
  if (numel == 1 && blockSize == 0)
    return param;
  if (axis < 0)
    return nullptr; // Per-axis or blocked parameters need a valid axis.
  if (p.size() == 1 && p[0] == sizes[axis] && blockSize == 0) {
    SmallVector<int64_t> shape(rank, 1);
    shape[axis] = sizes[axis];
    return createView(rewriter, loc, param, shape, withSizes(param, shape));
  }
  if (blockSize <= 0 || static_cast<int64_t>(p.size()) != rank ||
      p[axis] != (sizes[axis] + blockSize - 1) / blockSize)
    return nullptr;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && p[d] != sizes[d])
      return nullptr;
  SmallVector<int64_t> unit(p), repeated(p), flat(p);
  unit.insert(unit.begin() + axis + 1, 1);
  repeated.insert(repeated.begin() + axis + 1, blockSize);
  flat[axis] *= blockSize;
  Value value = createView(rewriter, loc, param, unit, withSizes(param, unit));
  value = AtenExpandOp::create(rewriter, loc, withSizes(param, repeated), value,
                               createIntList(rewriter, loc, repeated),
                               createConstantBool(rewriter, loc, false));
  value = createView(rewriter, loc, value, flat, withSizes(param, flat));
  if (flat[axis] != sizes[axis]) {
    SmallVector<int64_t> cut(flat);
    cut[axis] = sizes[axis];
    value =
        AtenSliceTensorOp::create(rewriter, loc, withSizes(param, cut), value,
                                  createConstantInt(rewriter, loc, axis),
                                  createConstantInt(rewriter, loc, 0),
                                  createConstantInt(rewriter, loc, sizes[axis]),
                                  createConstantInt(rewriter, loc, 1));
  }
  return value;
}

/// The float8 dtypes whose Cast and QuantizeLinear take `saturate` (ONNX
/// spec, Cast): every float8 but E8M0.
bool isSaturatingFloat8(Type dtype) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType>(dtype);
}

/// The largest finite value of a float8 dtype.
double getLargestFinite(Type dtype) {
  return llvm::APFloat::getLargest(
             cast<mlir::FloatType>(dtype).getFloatSemantics())
      .convertToDouble();
}

/// `x` (known sizes and dtype) converted to `dtype` as ONNX's Cast does
/// (ONNX spec, Cast): PyTorch's conversion (aten.to.dtype: float -> int
/// truncates toward zero, as ONNX specifies for in-range values), except
/// for float8 results, where `saturate` decides what values beyond the
/// format's largest finite value become: +-largest with saturate (ONNX's
/// default; infinities too, NaN stays NaN), else the IEEE overflow result:
/// infinity where the format has one, else NaN. aten.to.dtype saturates for
/// float8_e4m3fn only (as c10 does), so the others are clamped first, and
/// f8E4M3FN without saturate gets NaN where the magnitude rounds past 448
/// (above 464, the midpoint to the next code). Integers go to float8
/// through float32.
Value createOnnxCast(PatternRewriter &rewriter, Location loc, Value x,
                     Type dtype, bool saturate) {
  auto xType = cast<ValueTensorType>(x.getType());
  bool float8 = isSaturatingFloat8(dtype);
  if (!float8 || xType.getDtype() == dtype)
    return createToDtype(rewriter, loc, x, dtype);
  if (!isa<mlir::FloatType>(xType.getDtype()))
    x = createToDtype(rewriter, loc, x, rewriter.getF32Type());
  auto wideType = cast<ValueTensorType>(x.getType());
  ElementwiseBuilder b(rewriter, loc, wideType);
  double largest = getLargestFinite(dtype);
  if (saturate && !isa<Float8E4M3FNType>(dtype)) {
    x = b.clamp(x, -largest, largest);
  } else if (!saturate && isa<Float8E4M3FNType>(dtype)) {
    Value past = AtenGtScalarOp::create(
        rewriter, loc, b.getBoolType(), b.unary<AtenAbsOp>(x),
        createConstantFloat(rewriter, loc, 464.0));
    x = b.where(past, b.splat(NAN), x);
  }
  return createToDtype(rewriter, loc, x, dtype);
}

/// The range of an integer dtype as doubles.
std::pair<double, double> getIntegerRange(IntegerType type) {
  unsigned width = type.getWidth();
  if (type.isUnsigned())
    return {0.0, std::ldexp(1.0, width) - 1.0};
  return {-std::ldexp(1.0, width - 1), std::ldexp(1.0, width - 1) - 1.0};
}

/// The quantization of the float tensor `x` (type `computeType`, a float
/// dtype with x's sizes) to `resultType`: saturate(round(x / scale) + zp),
/// round half to even, `scale` and `zeroPoint` (maybe null) broadcasting.
Value createQuantize(PatternRewriter &rewriter, Location loc, Value x,
                     Value scale, Value zeroPoint, ValueTensorType computeType,
                     ValueTensorType resultType) {
  ElementwiseBuilder b(rewriter, loc, computeType);
  Type dtype = computeType.getDtype();
  Value y = createRoundHalfEven(
      b, b.div(x, createToDtype(rewriter, loc, scale, dtype)));
  if (zeroPoint)
    y = b.add(y, createToDtype(rewriter, loc, zeroPoint, dtype));
  auto [lowest, highest] =
      getIntegerRange(cast<IntegerType>(resultType.getDtype()));
  y = b.clamp(y, lowest, highest);
  return createToDtype(rewriter, loc, y, resultType.getDtype());
}

/// The quantization attributes: axis (normalized; -1 when out of range)
/// and block_size.
LogicalResult getQuantAxis(const OpBinder &binder, PatternRewriter &rewriter,
                           int64_t rank, int64_t &axis, int64_t &blockSize) {
  if (failed(binder.getInt("axis", axis, 1)) ||
      failed(binder.getInt("block_size", blockSize, 0)))
    return binder.fail(rewriter, "attributes axis and block_size must be ints");
  // An axis out of range only matters for per-axis or blocked parameters
  // (the default axis 1 of a 1-D input with one scale is fine).
  if (failed(normalizeAxis(axis, rank)))
    axis = -1;
  return success();
}

/// QuantizeLinear(x, y_scale, y_zero_point?): to the result's integer dtype
/// (2 to 16 bits, saturating) or float8 dtype, computed in float32 (float64
/// for double x).
LogicalResult lowerQuantizeLinear(const OpBinder &binder,
                                  PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), scale = binder.getOperand(1),
        zeroPoint = binder.getOperand(2);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t saturate;
  if (failed(binder.getInt("saturate", saturate, 1)))
    return binder.fail(rewriter, "attribute 'saturate' must be an int");
  if (!inputType || !resultType || !scale || !inputType.areAllSizesKnown())
    return binder.fail(rewriter, "needs static sizes and a scale");
  auto intType = dyn_cast<IntegerType>(resultType.getDtype());
  bool float8 = isSaturatingFloat8(resultType.getDtype());
  if ((!float8 &&
       (!intType || intType.getWidth() == 1 || intType.getWidth() > 16)) ||
      !isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a quantized type other than "
                                 "(u)int2/4/8/16 or float8, or a non-float "
                                 "input");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t axis, blockSize;
  if (failed(getQuantAxis(binder, rewriter, sizes.size(), axis, blockSize)))
    return failure();
  Location loc = binder.getLoc();
  Value scaleB =
      broadcastQuantParam(rewriter, loc, scale, sizes, axis, blockSize);
  Value zeroB = zeroPoint ? broadcastQuantParam(rewriter, loc, zeroPoint, sizes,
                                                axis, blockSize)
                          : Value();
  if (!scaleB || (zeroPoint && !zeroB))
    return binder.fail(rewriter, "y_scale/y_zero_point must be one value, "
                                 "one per axis index, or one per block");
  Type computeDtype = inputType.getDtype().isF64()
                          ? inputType.getDtype()
                          : Float32Type::get(rewriter.getContext());
  auto computeType =
      ValueTensorType::get(rewriter.getContext(), sizes, computeDtype);
  Value xWide = createToDtype(rewriter, loc, x, computeDtype);
  Value result;
  if (float8) {
    // x / scale (+ zero point), rounded to the float8 format (no rounding
    // to an integer), saturating unless saturate = 0 (ONNX spec,
    // QuantizeLinear).
    ElementwiseBuilder b(rewriter, loc, computeType);
    Value y = b.div(xWide, createToDtype(rewriter, loc, scaleB, computeDtype));
    if (zeroB)
      y = b.add(y, createToDtype(rewriter, loc, zeroB, computeDtype));
    result =
        createOnnxCast(rewriter, loc, y, resultType.getDtype(), saturate != 0);
  } else {
    result = createQuantize(rewriter, loc, xWide, scaleB, zeroB, computeType,
                            resultType);
  }
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// DequantizeLinear(x, x_scale, x_zero_point?): (x - zero_point) * scale in
/// float32, to the result's dtype.
LogicalResult lowerDequantizeLinear(const OpBinder &binder,
                                    PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), scale = binder.getOperand(1),
        zeroPoint = binder.getOperand(2);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType || !scale || !inputType.areAllSizesKnown())
    return binder.fail(rewriter, "needs static sizes and a scale");
  auto intType = dyn_cast<IntegerType>(inputType.getDtype());
  bool float8 = isSaturatingFloat8(inputType.getDtype());
  if ((!float8 && (!intType || intType.getWidth() == 1)) ||
      !isa<mlir::FloatType>(resultType.getDtype()))
    return binder.fail(rewriter, "unsupported: an input that is neither an "
                                 "integer nor a float8 tensor");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t axis, blockSize;
  if (failed(getQuantAxis(binder, rewriter, sizes.size(), axis, blockSize)))
    return failure();
  Location loc = binder.getLoc();
  Value scaleB =
      broadcastQuantParam(rewriter, loc, scale, sizes, axis, blockSize);
  Value zeroB = zeroPoint ? broadcastQuantParam(rewriter, loc, zeroPoint, sizes,
                                                axis, blockSize)
                          : Value();
  if (!scaleB || (zeroPoint && !zeroB))
    return binder.fail(rewriter, "x_scale/x_zero_point must be one value, "
                                 "one per axis index, or one per block");
  Type f32 = Float32Type::get(rewriter.getContext());
  ElementwiseBuilder b(rewriter, loc,
                       ValueTensorType::get(rewriter.getContext(), sizes, f32));
  Value y = createToDtype(rewriter, loc, x, f32);
  if (zeroB)
    y = b.sub(y, createToDtype(rewriter, loc, zeroB, f32));
  y = b.mul(y, createToDtype(rewriter, loc, scaleB, f32));
  rewriter.replaceOp(binder.getOp(),
                     createToDtype(rewriter, loc, y, resultType.getDtype()));
  return success();
}

/// DynamicQuantizeLinear(x) -> (y: uint8, y_scale, y_zero_point): with
/// lo = min(0, min(x)), hi = max(0, max(x)): scale = (hi - lo) / 255 (1/255
/// when hi == lo), zero_point = saturate(round(-lo / scale)), y =
/// saturate(round(x / scale) + zero_point).
LogicalResult lowerDynamicQuantizeLinear(const OpBinder &binder,
                                         PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  auto scaleType = binder.getResultType(1);
  auto zeroType = binder.getResultType(2);
  if (!inputType || !resultType || !scaleType || !zeroType ||
      !inputType.areAllSizesKnown() || !inputType.getDtype().isF32() ||
      !resultType.getDtype().isUnsignedInteger(8))
    return binder.fail(rewriter, "needs a float32 input of static sizes and "
                                 "a uint8 result");
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  ArrayRef<int64_t> sizes = inputType.getSizes();
  auto scalarType =
      ValueTensorType::get(context, ArrayRef<int64_t>{}, inputType.getDtype());
  SmallVector<int64_t> dims;
  for (int64_t d = 0, e = sizes.size(); d < e; ++d)
    dims.push_back(d);
  Value dimList = createIntList(rewriter, loc, dims);
  Value f = createConstantBool(rewriter, loc, false);
  ElementwiseBuilder s(rewriter, loc, scalarType);
  Value zero = s.splat(0.0);
  Value hi = AtenMaximumOp::create(
      rewriter, loc, scalarType,
      AtenAmaxOp::create(rewriter, loc, scalarType, x, dimList, f), zero);
  Value lo = AtenMinimumOp::create(
      rewriter, loc, scalarType,
      AtenAminOp::create(rewriter, loc, scalarType, x, dimList, f), zero);
  Value range = s.sub(hi, lo);
  range = s.where(s.compare<AtenEqScalarOp>(range, 0.0), s.splat(1.0), range);
  Value scale = s.mul(range, 1.0 / 255.0);
  Value initial = s.unary<AtenNegOp>(s.div(lo, scale));
  Value zeroPoint = createRoundHalfEven(s, s.clamp(initial, 0.0, 255.0));
  Value y =
      createQuantize(rewriter, loc, x, scale, zeroPoint, inputType, resultType);
  SmallVector<Value> results{
      y, scale, createToDtype(rewriter, loc, zeroPoint, zeroType.getDtype())};
  replaceOpWithCastResults(rewriter, binder.getOp(), results);
  return success();
}

/// saturate(round(product * scale) + yZero) to `resultType` (round half to
/// even), in float64: `product` is the integer accumulator (int32, or exact
/// integers in float64), `scale` the combined a_scale * b_scale / y_scale
/// (broadcasting), as the ONNX reference computes QLinearMatMul and
/// QLinearConv.
Value createRequantize(PatternRewriter &rewriter, Location loc, Value product,
                       Value scale, Value yZero, ValueTensorType resultType) {
  Type f64 = Float64Type::get(rewriter.getContext());
  auto productType =
      ValueTensorType::get(rewriter.getContext(), resultType.getSizes(), f64);
  ElementwiseBuilder eb(rewriter, loc, productType);
  Value y = eb.mul(createToDtype(rewriter, loc, product, f64),
                   createToDtype(rewriter, loc, scale, f64));
  y = eb.add(y, createToDtype(rewriter, loc, yZero, f64));
  y = createRoundHalfEven(eb, y);
  auto [lowest, highest] =
      getIntegerRange(cast<IntegerType>(resultType.getDtype()));
  y = eb.clamp(y, lowest, highest);
  return createToDtype(rewriter, loc, y, resultType.getDtype());
}

/// a_scale * b_scale / y_scale in a_scale's dtype (b_scale may be one per
/// output channel, already shaped to broadcast).
Value createCombinedScale(PatternRewriter &rewriter, Location loc, Value aScale,
                          Value bScale, Value yScale) {
  auto aType = cast<ValueTensorType>(aScale.getType());
  auto bType = cast<ValueTensorType>(bScale.getType());
  Type dtype = aType.getDtype();
  FailureOr<SmallVector<int64_t>> sizes =
      broadcastSizes(aType.getSizes(), bType.getSizes());
  auto type = ValueTensorType::get(rewriter.getContext(), *sizes, dtype);
  Value product = AtenMulTensorOp::create(
      rewriter, loc, type, aScale, createToDtype(rewriter, loc, bScale, dtype));
  return AtenDivTensorOp::create(rewriter, loc, type, product,
                                 createToDtype(rewriter, loc, yScale, dtype));
}

/// Whether `param` has one element (a per-tensor quantization parameter).
bool isPerTensor(Value param) {
  auto type = getKnownTensorType(param);
  return type && type.areAllSizesKnown() &&
         llvm::all_of(type.getSizes(), [](int64_t s) { return s == 1; });
}

/// QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp): as the
/// spec's reference, the integer product (a - a_zp) @ (b - b_zp), times
/// a_scale * b_scale / y_scale (in the scales' dtype), plus y_zp, rounded
/// half to even and saturated (createRequantize). Per-tensor parameters.
/// The product runs on the int8 kernels (createIntegerMatmul) when b is
/// 2-D; a batched b takes exact float64 matmuls.
LogicalResult lowerQLinearMatMul(const OpBinder &binder,
                                 PatternRewriter &rewriter) {
  SmallVector<Value> operands;
  if (failed(binder.getTensorOperands(operands)) || operands.size() != 8)
    return binder.fail(rewriter, "needs all eight inputs");
  Value a = operands[0], aScale = operands[1], aZero = operands[2],
        b = operands[3], bScale = operands[4], bZero = operands[5],
        yScale = operands[6], yZero = operands[7];
  auto aType = getKnownTensorType(a), bType = getKnownTensorType(b);
  auto resultType = binder.getResultType();
  if (!aType || !bType || !resultType || !resultType.areAllSizesKnown() ||
      !isa<IntegerType>(resultType.getDtype()))
    return binder.fail(rewriter, "needs static sizes and an integer result");
  if (!llvm::all_of(ValueRange{aScale, aZero, bScale, bZero, yScale, yZero},
                    isPerTensor))
    return binder.fail(rewriter, "unsupported: per-axis quantization "
                                 "parameters");
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  Value product = createIntegerMatmulOfRank(rewriter, loc, a, aZero, b, bZero);
  if (!product) {
    Type f64 = Float64Type::get(context);
    auto wideType = [&](Value v) {
      return ValueTensorType::get(
          context, cast<ValueTensorType>(v.getType()).getSizes(), f64);
    };
    auto centered = [&](Value v, Value zero) -> Value {
      return AtenSubTensorOp::create(rewriter, loc, wideType(v),
                                     createToDtype(rewriter, loc, v, f64),
                                     createToDtype(rewriter, loc, zero, f64),
                                     createConstantInt(rewriter, loc, 1));
    };
    auto productType =
        ValueTensorType::get(context, resultType.getSizes(), f64);
    product = AtenMatmulOp::create(rewriter, loc, productType,
                                   centered(a, aZero), centered(b, bZero));
  }
  Value scale = createCombinedScale(rewriter, loc, aScale, bScale, yScale);
  rewriter.replaceOp(
      binder.getOp(),
      createRequantize(rewriter, loc, product, scale, yZero, resultType));
  return success();
}

/// MatMulInteger(a, b, a_zero_point?, b_zero_point?): (a - a_zp) @ (b -
/// b_zp) in int32 on the int8 kernels; a_zero_point one value, b_zero_point
/// one value or one per column; b 2-D.
LogicalResult lowerMatMulInteger(const OpBinder &binder,
                                 PatternRewriter &rewriter) {
  auto resultType = binder.getResultType();
  if (!resultType || !resultType.hasDtype() ||
      !resultType.getDtype().isSignedInteger(32))
    return binder.fail(rewriter, "needs an int32 result");
  Value product = createIntegerMatmulOfRank(
      rewriter, binder.getLoc(), binder.getOperand(0), binder.getOperand(2),
      binder.getOperand(1), binder.getOperand(3));
  if (!product)
    return binder.fail(rewriter,
                       "unsupported: needs (u)int8 operands of static sizes, "
                       "a 2-D b, a_zero_point one value and b_zero_point one "
                       "value or one per column");
  rewriter.replaceOp(binder.getOp(), product);
  return success();
}

/// ConvInteger(x, w, x_zero_point?, w_zero_point?): the 2-D convolution of
/// (x - x_zp) by (w - w_zp) in int32 on the int8 kernels
/// (createIntegerConv2d); w_zero_point one value or one per output channel.
LogicalResult lowerConvInteger(const OpBinder &binder,
                               PatternRewriter &rewriter) {
  auto resultType = binder.getResultType();
  if (!resultType || !resultType.areAllSizesKnown() ||
      !resultType.getDtype().isSignedInteger(32))
    return binder.fail(rewriter, "needs an int32 result of static sizes");
  FailureOr<Value> product = createIntegerConvolution(
      binder, rewriter, binder.getOperand(0), binder.getOperand(2),
      binder.getOperand(1), binder.getOperand(3), resultType.getSizes());
  if (failed(product))
    return failure();
  rewriter.replaceOp(binder.getOp(), *product);
  return success();
}

/// QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?): the
/// integer convolution (ConvInteger's) plus the int32 bias, requantized as
/// QLinearMatMul (w_scale and w_zp may be one per output channel).
LogicalResult lowerQLinearConv(const OpBinder &binder,
                               PatternRewriter &rewriter) {
  SmallVector<Value> operands;
  if (failed(binder.getTensorOperands(operands)) || operands.size() < 8)
    return binder.fail(rewriter, "needs the eight inputs before the bias");
  Value x = operands[0], xScale = operands[1], xZero = operands[2],
        w = operands[3], wScale = operands[4], wZero = operands[5],
        yScale = operands[6], yZero = operands[7],
        bias = operands.size() > 8 ? operands[8] : Value();
  auto resultType = binder.getResultType();
  auto wType = getKnownTensorType(w);
  if (!resultType || !resultType.areAllSizesKnown() || !wType ||
      !isa<IntegerType>(resultType.getDtype()))
    return binder.fail(rewriter, "needs static sizes and an integer result");
  if (!isPerTensor(xScale) || !isPerTensor(yScale) || !isPerTensor(yZero))
    return binder.fail(rewriter, "unsupported: per-axis x or y quantization "
                                 "parameters");
  Location loc = binder.getLoc();
  ArrayRef<int64_t> sizes = resultType.getSizes();
  auto i32Sizes = ValueTensorType::get(
      rewriter.getContext(), sizes,
      IntegerType::get(rewriter.getContext(), 32, IntegerType::Signed));
  FailureOr<Value> product =
      createIntegerConvolution(binder, rewriter, x, xZero, w, wZero, sizes);
  if (failed(product))
    return failure();
  Value acc = *product;
  int64_t f = wType.getSizes()[0];
  auto perChannel = [&](Value v) {
    auto type = getKnownTensorType(v);
    if (type && type.getSizes().size() == 1 && type.getSizes()[0] == f && f > 1)
      return createView(rewriter, loc, v, {1, f, 1, 1},
                        withSizes(v, {1, f, 1, 1}));
    return v;
  };
  if (bias)
    acc =
        AtenAddTensorOp::create(rewriter, loc, i32Sizes, acc, perChannel(bias),
                                createConstantInt(rewriter, loc, 1));
  Value scale =
      createCombinedScale(rewriter, loc, xScale, perChannel(wScale), yScale);
  rewriter.replaceOp(binder.getOp(), createRequantize(rewriter, loc, acc, scale,
                                                      yZero, resultType));
  return success();
}

/// `x` (a float tensor of known sizes) rounded to a power of two as ONNX's
/// Cast to FLOAT8E8M0 with round_mode "up" or "down" does (ONNX spec, Cast):
/// on the float32 bits, the exponent field alone ("down") or the next one
/// when any mantissa bit is set ("up"); the sign is dropped, as E8M0 has
/// none. The result, an exact power of two (or infinity/NaN, which E8M0
/// holds as NaN), then converts exactly.
Value createPowerOfTwo(PatternRewriter &rewriter, Location loc, Value x,
                       bool up) {
  MLIRContext *context = rewriter.getContext();
  auto type = cast<ValueTensorType>(x.getType());
  Type f32 = rewriter.getF32Type();
  Type si32 = IntegerType::get(context, 32, IntegerType::Signed);
  auto intType = ValueTensorType::get(context, type.getSizes(), si32);
  auto boolType =
      ValueTensorType::get(context, type.getSizes(), rewriter.getI1Type());
  x = createToDtype(rewriter, loc, x, f32);
  Value bits = AtenViewDtypeOp::create(
      rewriter, loc, intType, x,
      createConstantInt(rewriter, loc, *getScalarTypeCode(si32)));
  auto mask = [&](int64_t value) {
    return AtenBitwiseAndScalarOp::create(
        rewriter, loc, intType, bits, createConstantInt(rewriter, loc, value));
  };
  Value power = mask(0x7f800000);
  if (up) {
    Value inexact =
        AtenNeScalarOp::create(rewriter, loc, boolType, mask(0x7fffff),
                               createConstantInt(rewriter, loc, 0));
    Value step = AtenWhereScalarOtherOp::create(
        rewriter, loc, intType, inexact,
        createScalarLiteral(rewriter, loc, si32, 0x800000),
        createConstantInt(rewriter, loc, 0));
    power = AtenAddTensorOp::create(rewriter, loc, intType, power, step,
                                    createConstantInt(rewriter, loc, 1));
  }
  return AtenViewDtypeOp::create(
      rewriter, loc, ValueTensorType::get(context, type.getSizes(), f32), power,
      createConstantInt(rewriter, loc, *getScalarTypeCode(f32)));
}

/// Cast(x, to, saturate, round_mode) and CastLike(x, like, saturate,
/// round_mode): to the result's dtype (see createOnnxCast); to FLOAT8E8M0,
/// round_mode "up" (the default) and "down" take createPowerOfTwo, "nearest"
/// PyTorch's rounding (the nearest power of two, ties up).
LogicalResult lowerCast(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = x ? getKnownTensorType(x) : nullptr;
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  if (!getScalarTypeCode(resultType.getDtype()))
    return binder.fail(rewriter, "unsupported target dtype");
  int64_t saturate;
  if (failed(binder.getInt("saturate", saturate, 1)))
    return binder.fail(rewriter, "attribute 'saturate' must be an int");
  std::string roundMode;
  if (failed(binder.getString("round_mode", roundMode, "up")))
    return binder.fail(rewriter, "attribute 'round_mode' must be a string");
  if (isa<Float8E8M0FNUType>(resultType.getDtype()) &&
      isa<mlir::FloatType>(inputType.getDtype()) && roundMode != "nearest") {
    if (roundMode != "up" && roundMode != "down")
      return binder.fail(rewriter, "round_mode must be up, down or nearest");
    x = createPowerOfTwo(rewriter, binder.getLoc(), x, roundMode == "up");
  }
  Value result = createOnnxCast(rewriter, binder.getLoc(), x,
                                resultType.getDtype(), saturate != 0);
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, binder.getLoc(),
                                            resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxActivationLowerings(
    OnnxLoweringSet &lowerings) {
  using Attrs1 = std::array<FloatParam, 1>;
  using Attrs2 = std::array<FloatParam, 2>;
  // Elu: x < 0 ? alpha * (exp(x) - 1) : x.
  lowerings.on("Elu", 6,
               floatActivation(Attrs1{{{"alpha", 1.0}}},
                               [](ElementwiseBuilder &b, Value x, auto v) {
                                 return b.where(
                                     b.compare<AtenLtScalarOp>(x, 0.0),
                                     b.mul(b.expm1(x), v[0]), x);
                               }));
  // Selu: gamma * (x > 0 ? x : alpha * (exp(x) - 1)).
  lowerings.on("Selu", 6,
               floatActivation(Attrs2{{{"alpha", 1.67326319217681884765625},
                                       {"gamma", 1.05070102214813232421875}}},
                               [](ElementwiseBuilder &b, Value x, auto v) {
                                 Value inner =
                                     b.where(b.compare<AtenGtScalarOp>(x, 0.0),
                                             x, b.mul(b.expm1(x), v[0]));
                                 return b.mul(inner, v[1]);
                               }));
  // Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
  lowerings.on(
      "Celu", 12,
      floatActivation(
          Attrs1{{{"alpha", 1.0}}}, [](ElementwiseBuilder &b, Value x, auto v) {
            Value negative = b.mul(b.expm1(b.mul(x, 1.0 / v[0])), v[0]);
            return b.where(b.compare<AtenGtScalarOp>(x, 0.0), x, negative);
          }));
  // HardSigmoid: max(0, min(1, alpha * x + beta)).
  lowerings.on("HardSigmoid", 6,
               floatActivation(Attrs2{{{"alpha", 0.2}, {"beta", 0.5}}},
                               [](ElementwiseBuilder &b, Value x, auto v) {
                                 return b.clamp(b.add(b.mul(x, v[0]), v[1]),
                                                0.0, 1.0);
                               }));
  // HardSwish: x * max(0, min(1, x / 6 + 0.5)).
  lowerings.on(
      "HardSwish", 14, floatFunction([](ElementwiseBuilder &b, Value x) {
        return b.mul(x, b.clamp(b.add(b.mul(x, 1.0 / 6.0), 0.5), 0.0, 1.0));
      }));
  // Softplus: log(exp(x) + 1).
  lowerings.on("Softplus", 1, floatFunction([](ElementwiseBuilder &b, Value x) {
                 return b.log(b.add(b.exp(x), 1.0));
               }));
  // Softsign: x / (1 + |x|).
  lowerings.on("Softsign", 1, floatFunction([](ElementwiseBuilder &b, Value x) {
                 return b.div(x, b.add(b.unary<AtenAbsOp>(x), 1.0));
               }));
  // Mish: x * tanh(softplus(x)).
  lowerings.on("Mish", 18, floatFunction([](ElementwiseBuilder &b, Value x) {
                 return b.mul(x,
                              b.unary<AtenTanhOp>(b.log(b.add(b.exp(x), 1.0))));
               }));
  // ThresholdedRelu: x > alpha ? x : 0.
  lowerings.on(
      "ThresholdedRelu", 10,
      floatActivation(
          Attrs1{{{"alpha", 1.0}}}, [](ElementwiseBuilder &b, Value x, auto v) {
            return b.where(b.compare<AtenGtScalarOp>(x, v[0]), x, b.splat(0.0));
          }));
  // Shrink: x < -lambd ? x + bias : x > lambd ? x - bias : 0.
  lowerings.on("Shrink", 9,
               floatActivation(
                   Attrs2{{{"bias", 0.0}, {"lambd", 0.5}}},
                   [](ElementwiseBuilder &b, Value x, auto v) {
                     Value above = b.where(b.compare<AtenGtScalarOp>(x, v[1]),
                                           b.add(x, -v[0]), b.splat(0.0));
                     return b.where(b.compare<AtenLtScalarOp>(x, -v[1]),
                                    b.add(x, v[0]), above);
                   }));
  // Swish: x * sigmoid(alpha * x).
  lowerings.on("Swish", 24,
               floatActivation(Attrs1{{{"alpha", 1.0}}},
                               [](ElementwiseBuilder &b, Value x, auto v) {
                                 return b.mul(
                                     x, b.unary<AtenSigmoidOp>(b.mul(x, v[0])));
                               }));
  lowerings.on("SwiGLU", 28, lowerSwiGLU);
  lowerings.on("PRelu", 7, lowerPRelu);
  lowerings.on("Gelu", 20, lowerGelu);

  // Hyperbolic and trigonometric functions by their exp/log identities.
  lowerings.on("Sinh", 9, floatFunction([](ElementwiseBuilder &b, Value x) {
                 return b.mul(b.sub(b.exp(x), b.exp(b.unary<AtenNegOp>(x))),
                              0.5);
               }));
  lowerings.on("Cosh", 9, floatFunction([](ElementwiseBuilder &b, Value x) {
                 return b.mul(b.add(b.exp(x), b.exp(b.unary<AtenNegOp>(x))),
                              0.5);
               }));
  lowerings.on("Tan", 7, floatFunction([](ElementwiseBuilder &b, Value x) {
                 return b.div(b.unary<AtenSinOp>(x), b.unary<AtenCosOp>(x));
               }));
  // asinh(x) = log(x + sqrt(x^2 + 1)), acosh(x) = log(x + sqrt(x^2 - 1)).
  lowerings.on("Asinh", 9, floatFunction([](ElementwiseBuilder &b, Value x) {
                 return b.log(
                     b.add(x, b.unary<AtenSqrtOp>(b.add(b.mul(x, x), 1.0))));
               }));
  lowerings.on("Acosh", 9, floatFunction([](ElementwiseBuilder &b, Value x) {
                 return b.log(
                     b.add(x, b.unary<AtenSqrtOp>(b.add(b.mul(x, x), -1.0))));
               }));
  // atanh(x) = 0.5 * log((1 + x) / (1 - x)).
  lowerings.on("Atanh", 9, floatFunction([](ElementwiseBuilder &b, Value x) {
                 Value oneMinusX = b.add(b.unary<AtenNegOp>(x), 1.0);
                 return b.mul(b.log(b.div(b.add(x, 1.0), oneMinusX)), 0.5);
               }));
  lowerings.on("Round", 11, floatFunction(createRoundHalfEven));

  lowerings.on("IsNaN", 9, lowerIsNaN);
  lowerings.on("IsInf", 10, lowerIsInf);
  lowerings.on("Mod", 10, lowerMod);
  lowerings.on("Cast", 6, lowerCast);
  lowerings.on("CastLike", 15, lowerCast);
  lowerings.on("QuantizeLinear", 10, lowerQuantizeLinear);
  lowerings.on("DequantizeLinear", 10, lowerDequantizeLinear);
  lowerings.on("DynamicQuantizeLinear", 11, lowerDynamicQuantizeLinear);
  lowerings.on("QLinearMatMul", 10, lowerQLinearMatMul);
  lowerings.on("MatMulInteger", 10, lowerMatMulInteger);
  lowerings.on("ConvInteger", 10, lowerConvInteger);
  lowerings.on("QLinearConv", 10, lowerQLinearConv);
}
