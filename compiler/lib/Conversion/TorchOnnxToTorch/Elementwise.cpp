//===- Elementwise.cpp - ONNX elementwise ops to ATen ---------------------===//
//
// Part of the torch2mlir project.
//
// ONNX binary ops broadcast multidirectionally since opset 7, as ATen ops
// do, and their result dtype is the operands' (ONNX has no promotion), so
// each becomes the ATen op with the importer's result type. Earlier opsets
// (the `broadcast`/`axis` attributes) are not lowered: upgrade the model.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

/// op(x) -> AtenOp(x).
template <typename AtenOp>
LogicalResult lowerUnary(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto resultType = binder.getAnyResultType();
  if (!x || !resultType)
    return binder.fail(rewriter, "expects a tensor operand and result");
  rewriter.replaceOpWithNewOp<AtenOp>(binder.getOp(), resultType, x);
  return success();
}

/// op(a, b) -> AtenOp(a, b).
template <typename AtenOp>
LogicalResult lowerBinary(const OpBinder &binder, PatternRewriter &rewriter) {
  Value a = binder.getOperand(0), b = binder.getOperand(1);
  auto resultType = binder.getAnyResultType();
  if (!a || !b || !resultType)
    return binder.fail(rewriter, "expects two tensor operands and a result");
  rewriter.replaceOpWithNewOp<AtenOp>(binder.getOp(), resultType, a, b);
  return success();
}

/// op(a, b) -> AtenOp(a, b, alpha=1) for add and sub.
template <typename AtenOp>
LogicalResult lowerBinaryWithAlpha(const OpBinder &binder,
                                   PatternRewriter &rewriter) {
  Value a = binder.getOperand(0), b = binder.getOperand(1);
  auto resultType = binder.getAnyResultType();
  if (!a || !b || !resultType)
    return binder.fail(rewriter, "expects two tensor operands and a result");
  Value one = createConstantInt(rewriter, binder.getLoc(), 1);
  rewriter.replaceOpWithNewOp<AtenOp>(binder.getOp(), resultType, a, b, one);
  return success();
}

bool isIntegerDtype(Value value) {
  auto type = getKnownTensorType(value);
  return type && isa<IntegerType>(type.getDtype());
}

/// Div: true division for floats; integer division truncates (C semantics,
/// as in the ONNX reference implementation).
LogicalResult lowerDiv(const OpBinder &binder, PatternRewriter &rewriter) {
  Value a = binder.getOperand(0), b = binder.getOperand(1);
  auto resultType = binder.getAnyResultType();
  if (!a || !b || !resultType)
    return binder.fail(rewriter, "expects two tensor operands and a result");
  if (!isIntegerDtype(a)) {
    rewriter.replaceOpWithNewOp<AtenDivTensorOp>(binder.getOp(), resultType, a,
                                                 b);
    return success();
  }
  Value mode = ConstantStrOp::create(rewriter, binder.getLoc(),
                                     StringType::get(rewriter.getContext()),
                                     rewriter.getStringAttr("trunc"));
  rewriter.replaceOpWithNewOp<AtenDivTensorModeOp>(binder.getOp(), resultType,
                                                   a, b, mode);
  return success();
}

/// Variadic Sum/Max/Min/Mean: a left fold of the binary op over all
/// operands (each step broadcasts), then Mean divides by the count.
template <typename Combine>
LogicalResult lowerVariadic(const OpBinder &binder, PatternRewriter &rewriter,
                            Combine combine) {
  SmallVector<Value> operands;
  auto resultType = binder.getAnyResultType();
  if (failed(binder.getTensorOperands(operands)) || operands.empty() ||
      !resultType)
    return binder.fail(rewriter, "expects tensor operands and a result");
  Value result = operands.front();
  for (Value operand : ArrayRef(operands).drop_front())
    result = combine(result, operand, resultType);
  if (operands.size() == 1 && result.getType() != resultType)
    return binder.fail(rewriter, "one operand of another type than the result");
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// The Clip bound `i` (opset >= 11 inputs) or attribute `name` (opset < 11):
/// a Scalar for aten.clamp, or None when absent.
LogicalResult getClipBound(const OpBinder &binder, PatternRewriter &rewriter,
                           unsigned i, StringRef name, Value &bound) {
  Location loc = binder.getLoc();
  if (binder.getOpsetVersion() < 11) {
    double value;
    bound = succeeded(binder.getFloat(name, value))
                ? createConstantFloat(rewriter, loc, value)
                : createConstantNone(rewriter, loc);
    return success();
  }
  Value operand = binder.getOperand(i);
  if (!operand) {
    bound = createConstantNone(rewriter, loc);
    return success();
  }
  auto literal = operand.getDefiningOp<ValueTensorLiteralOp>();
  auto elements =
      literal ? dyn_cast<DenseElementsAttr>(literal.getValue()) : nullptr;
  if (!elements || !elements.isSplat())
    return failure();
  Type element = elements.getElementType();
  if (isa<mlir::FloatType>(element))
    bound = createConstantFloat(
        rewriter, loc, elements.getSplatValue<APFloat>().convertToDouble());
  else if (element.isUnsignedInteger())
    bound = createConstantInt(rewriter, loc,
                              elements.getSplatValue<APInt>().getZExtValue());
  else
    bound = createConstantInt(rewriter, loc,
                              elements.getSplatValue<APInt>().getSExtValue());
  return success();
}

LogicalResult lowerClip(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto resultType = binder.getAnyResultType();
  if (!x || !resultType)
    return binder.fail(rewriter, "expects a tensor operand and result");
  Value min, max;
  if (failed(getClipBound(binder, rewriter, 1, "min", min)) ||
      failed(getClipBound(binder, rewriter, 2, "max", max))) {
    // Bounds computed at run time: the tensor form.
    Value minT = binder.getOperand(1), maxT = binder.getOperand(2);
    Location loc = binder.getLoc();
    rewriter.replaceOpWithNewOp<AtenClampTensorOp>(
        binder.getOp(), resultType, x,
        minT ? minT : createConstantNone(rewriter, loc),
        maxT ? maxT : createConstantNone(rewriter, loc));
    return success();
  }
  if (isa<ConstantNoneOp>(min.getDefiningOp()) &&
      isa<ConstantNoneOp>(max.getDefiningOp())) {
    // No bounds: the input itself (aten.clamp needs at least one).
    Value result = x;
    if (x.getType() != resultType)
      result = TensorStaticInfoCastOp::create(rewriter, binder.getLoc(),
                                              resultType, x);
    rewriter.replaceOp(binder.getOp(), result);
    return success();
  }
  rewriter.replaceOpWithNewOp<AtenClampOp>(binder.getOp(), resultType, x, min,
                                           max);
  return success();
}

/// The number of bits an element of `dtype` takes in memory (bool: a
/// byte), or 0 for a dtype without a fixed-width bit pattern here.
static unsigned getStorageBitWidth(Type dtype) {
  if (dtype.isInteger(1))
    return 8;
  if (isa<IntegerType, mlir::FloatType>(dtype))
    return dtype.getIntOrFloatBitWidth();
  return 0;
}

/// BitCast(to): the same bits read as another dtype of the same width
/// (aten.view.dtype).
LogicalResult lowerBitCast(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = x ? getKnownTensorType(x) : nullptr;
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  if (inputType.getSizes() != resultType.getSizes())
    return binder.fail(rewriter, "the result must have the input's sizes");
  Type from = inputType.getDtype(), to = resultType.getDtype();
  std::optional<int64_t> code = getScalarTypeCode(to);
  unsigned width = getStorageBitWidth(from);
  if (!code || width == 0 || getStorageBitWidth(to) == 0)
    return binder.fail(rewriter, "unsupported: BitCast from or to this dtype "
                                 "(only integers, floats and bool)");
  if (width != getStorageBitWidth(to))
    return binder.fail(rewriter, "the input and result dtypes must have the "
                                 "same bit width");
  if (from == to) {
    rewriter.replaceOp(binder.getOp(), x);
    return success();
  }
  rewriter.replaceOpWithNewOp<AtenViewDtypeOp>(
      binder.getOp(), resultType, x,
      createConstantInt(rewriter, binder.getLoc(), *code));
  return success();
}

/// BitShift(x, amount, direction): a shift by an amount outside
/// [0, bit width) gives 0, or for a right shift of a signed type the sign
/// fill (-1 or 0), which is the arithmetic shift by width - 1.
LogicalResult lowerBitShift(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), amount = binder.getOperand(1);
  auto xType = getKnownTensorType(x);
  auto amountType = getKnownTensorType(amount);
  auto resultType = binder.getResultType();
  std::string direction;
  if (!xType || !amountType || !resultType ||
      failed(binder.getString("direction", direction)))
    return binder.fail(rewriter, "needs known sizes and dtypes and a "
                                 "direction");
  if (direction != "LEFT" && direction != "RIGHT")
    return binder.fail(rewriter, "direction must be LEFT or RIGHT");
  Type dtype = xType.getDtype();
  if (!isa<IntegerType>(dtype) || dtype.isInteger(1) ||
      amountType.getDtype() != dtype)
    return binder.fail(rewriter, "expects two integer tensors of one dtype");
  Location loc = binder.getLoc();
  int64_t width = dtype.getIntOrFloatBitWidth();
  auto boolType = getTensorType(rewriter.getContext(), amountType.getSizes(),
                                rewriter.getI1Type());
  Value nonNegative = AtenGeScalarOp::create(
      rewriter, loc, boolType, amount, createConstantInt(rewriter, loc, 0));
  Value belowWidth = AtenLtScalarOp::create(
      rewriter, loc, boolType, amount, createConstantInt(rewriter, loc, width));
  Value valid = AtenLogicalAndOp::create(rewriter, loc, boolType, nonNegative,
                                         belowWidth);
  bool signFill = direction == "RIGHT" && !dtype.isUnsignedInteger();
  Value safeAmount = AtenWhereSelfOp::create(
      rewriter, loc, amountType, valid, amount,
      createScalarLiteral(rewriter, loc, dtype, signFill ? width - 1 : 0));
  Value shifted;
  if (direction == "LEFT")
    shifted = AtenBitwiseLeftShiftTensorOp::create(rewriter, loc, resultType, x,
                                                   safeAmount);
  else
    shifted = AtenBitwiseRightShiftTensorOp::create(rewriter, loc, resultType,
                                                    x, safeAmount);
  if (signFill) {
    rewriter.replaceOp(binder.getOp(), shifted);
    return success();
  }
  rewriter.replaceOpWithNewOp<AtenWhereSelfOp>(
      binder.getOp(), resultType, valid, shifted,
      createScalarLiteral(rewriter, loc, dtype, 0));
  return success();
}

LogicalResult lowerLeakyRelu(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto resultType = binder.getAnyResultType();
  double alpha;
  if (!x || !resultType || failed(binder.getFloat("alpha", alpha, 0.01)))
    return binder.fail(rewriter, "expects a tensor and a float alpha");
  rewriter.replaceOpWithNewOp<AtenLeakyReluOp>(
      binder.getOp(), resultType, x,
      createConstantFloat(rewriter, binder.getLoc(), alpha));
  return success();
}

/// Identity and Dropout in inference: the input itself. Dropout's optional
/// mask output is all true (static sizes when it is used).
LogicalResult lowerIdentity(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  if (!x)
    return binder.fail(rewriter, "expects a tensor operand");
  Operation *op = binder.getOp();
  bool maskUsed = op->getNumResults() > 1 && !op->getResult(1).use_empty();
  auto maskType = maskUsed ? binder.getResultType(1) : nullptr;
  if (maskUsed && (!maskType || !maskType.areAllSizesKnown() ||
                   !maskType.getDtype().isInteger(1)))
    return binder.fail(rewriter, "unsupported: a used Dropout mask output "
                                 "without static sizes");
  if (binder.getOpsetVersion() >= 12 && binder.getOperand(2)) {
    // Dropout-12: training_mode is an input; only inference is supported.
    SmallVector<int64_t> mode;
    if (failed(binder.getConstantInts(2, mode)) || mode.size() != 1 ||
        mode[0] != 0)
      return binder.fail(
          rewriter, "unsupported: training_mode other than constant false");
  }
  Location loc = binder.getLoc();
  Value result = x;
  if (x.getType() != op->getResult(0).getType())
    result = TensorStaticInfoCastOp::create(rewriter, loc,
                                            op->getResult(0).getType(), x);
  SmallVector<Value> replacements(op->getNumResults(), result);
  if (maskUsed) {
    Value none = createConstantNone(rewriter, loc);
    replacements[1] = AtenFullOp::create(
        rewriter, loc, maskType,
        createIntList(rewriter, loc, maskType.getSizes()),
        createConstantBool(rewriter, loc, true),
        createConstantInt(rewriter, loc,
                          *getScalarTypeCode(maskType.getDtype())),
        none, none, none);
  }
  rewriter.replaceOp(op, replacements);
  return success();
}

/// Dropout: the identity in inference (before opset 12, or training_mode
/// absent or constant false). In training (training_mode true, or known
/// at run time only) mask = (uniform [0, 1) < 1 - ratio) or not training,
/// output = x * mask * scale with scale = 1 / (1 - ratio) (0 when ratio
/// is 1) when training, else 1. The outputs are random unless ratio is 0.
LogicalResult lowerDropout(const OpBinder &binder, PatternRewriter &rewriter) {
  Value training =
      binder.getOpsetVersion() >= 12 ? binder.getOperand(2) : Value();
  SmallVector<int64_t> mode;
  if (!training || (succeeded(binder.getConstantInts(2, mode)) &&
                    mode.size() == 1 && mode[0] == 0))
    return lowerIdentity(binder, rewriter);
  Value x = binder.getOperand(0), ratio = binder.getOperand(1);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType || !inputType.areAllSizesKnown() ||
      !isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: Dropout in training of a "
                                 "non-float input or without static sizes");
  auto trainingType = getKnownTensorType(training);
  auto ratioType = ratio ? getKnownTensorType(ratio) : nullptr;
  if (!trainingType || !trainingType.getSizes().empty() ||
      !trainingType.getDtype().isInteger(1) ||
      (ratio && (!ratioType || !ratioType.getSizes().empty())))
    return binder.fail(rewriter, "ratio and training_mode must be scalars "
                                 "(0-d float and bool tensors)");
  Operation *op = binder.getOp();
  bool maskUsed = op->getNumResults() > 1 && !op->getResult(1).use_empty();
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  Type f32 = Float32Type::get(context);
  Type i1 = rewriter.getI1Type();
  ArrayRef<int64_t> sizes = inputType.getSizes();
  auto scalarType = getTensorType(context, {}, f32);
  auto boolScalarType = getTensorType(context, {}, i1);
  auto boolType = getTensorType(context, sizes, i1);
  auto computeType = getTensorType(context, sizes, f32);
  Value none = createConstantNone(rewriter, loc);
  Value one = createConstantInt(rewriter, loc, 1);
  Value uniform = AtenRandOp::create(
      rewriter, loc, computeType, createIntList(rewriter, loc, sizes),
      createConstantInt(rewriter, loc, *getScalarTypeCode(f32)), none, none,
      none);
  Value keep = ratio ? AtenRsubScalarOp::create(
                           rewriter, loc, scalarType,
                           createToDtype(rewriter, loc, ratio, f32),
                           createConstantFloat(rewriter, loc, 1.0), one)
                           .getResult()
                     : createScalarLiteral(rewriter, loc, f32, 0.5);
  Value notTraining =
      AtenLogicalNotOp::create(rewriter, loc, boolScalarType, training);
  Value mask = AtenLogicalOrOp::create(
      rewriter, loc, boolType,
      AtenLtTensorOp::create(rewriter, loc, boolType, uniform, keep),
      notTraining);
  Value scale = AtenWhereSelfOp::create(
      rewriter, loc, scalarType,
      AtenEqScalarOp::create(rewriter, loc, boolScalarType, keep,
                             createConstantFloat(rewriter, loc, 0.0)),
      createScalarLiteral(rewriter, loc, f32, 0.0),
      AtenReciprocalOp::create(rewriter, loc, scalarType, keep));
  scale = AtenWhereSelfOp::create(rewriter, loc, scalarType, training, scale,
                                  createScalarLiteral(rewriter, loc, f32, 1.0));
  Value kept = AtenMulTensorOp::create(rewriter, loc, computeType,
                                       createToDtype(rewriter, loc, x, f32),
                                       createToDtype(rewriter, loc, mask, f32));
  Value output = createToDtype(
      rewriter, loc,
      AtenMulTensorOp::create(rewriter, loc, computeType, kept, scale),
      inputType.getDtype());
  if (output.getType() != op->getResult(0).getType())
    output = TensorStaticInfoCastOp::create(rewriter, loc,
                                            op->getResult(0).getType(), output);
  SmallVector<Value> replacements{output};
  if (op->getNumResults() > 1) {
    Value maskResult = mask;
    if (maskUsed && mask.getType() != op->getResult(1).getType())
      maskResult = TensorStaticInfoCastOp::create(
          rewriter, loc, op->getResult(1).getType(), mask);
    replacements.push_back(maskResult);
  }
  rewriter.replaceOp(op, replacements);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxElementwiseLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("Abs", 6, lowerUnary<AtenAbsOp>);
  lowerings.on("Ceil", 6, lowerUnary<AtenCeilOp>);
  lowerings.on("Cos", 7, lowerUnary<AtenCosOp>);
  lowerings.on("Asin", 7, lowerUnary<AtenAsinOp>);
  lowerings.on("Acos", 7, lowerUnary<AtenAcosOp>);
  lowerings.on("Atan", 7, lowerUnary<AtenAtanOp>);
  lowerings.on("Erf", 9, lowerUnary<AtenErfOp>);
  lowerings.on("Exp", 6, lowerUnary<AtenExpOp>);
  lowerings.on("Floor", 6, lowerUnary<AtenFloorOp>);
  lowerings.on("Log", 6, lowerUnary<AtenLogOp>);
  lowerings.on("Neg", 6, lowerUnary<AtenNegOp>);
  lowerings.on("Not", 1, lowerUnary<AtenLogicalNotOp>);
  lowerings.on("Reciprocal", 6, lowerUnary<AtenReciprocalOp>);
  lowerings.on("Relu", 6, lowerUnary<AtenReluOp>);
  lowerings.on("Sigmoid", 6, lowerUnary<AtenSigmoidOp>);
  lowerings.on("Sign", 9, lowerUnary<AtenSignOp>);
  lowerings.on("Sin", 7, lowerUnary<AtenSinOp>);
  lowerings.on("Sqrt", 6, lowerUnary<AtenSqrtOp>);
  lowerings.on("Tanh", 6, lowerUnary<AtenTanhOp>);

  lowerings.on("Add", 7, lowerBinaryWithAlpha<AtenAddTensorOp>);
  lowerings.on("Sub", 7, lowerBinaryWithAlpha<AtenSubTensorOp>);
  lowerings.on("Mul", 7, lowerBinary<AtenMulTensorOp>);
  lowerings.on("Div", 7, lowerDiv);
  lowerings.on("Pow", 7, lowerBinary<AtenPowTensorTensorOp>);
  lowerings.on("Equal", 7, lowerBinary<AtenEqTensorOp>);
  lowerings.on("Greater", 7, lowerBinary<AtenGtTensorOp>);
  lowerings.on("GreaterOrEqual", 12, lowerBinary<AtenGeTensorOp>);
  lowerings.on("Less", 7, lowerBinary<AtenLtTensorOp>);
  lowerings.on("LessOrEqual", 12, lowerBinary<AtenLeTensorOp>);
  lowerings.on("And", 7, lowerBinary<AtenLogicalAndOp>);
  lowerings.on("Or", 7, lowerBinary<AtenLogicalOrOp>);
  lowerings.on("Xor", 7, lowerBinary<AtenLogicalXorOp>);
  lowerings.on("BitwiseAnd", 18, lowerBinary<AtenBitwiseAndTensorOp>);
  lowerings.on("BitwiseOr", 18, lowerBinary<AtenBitwiseOrTensorOp>);
  lowerings.on("BitwiseXor", 18, lowerBinary<AtenBitwiseXorTensorOp>);
  lowerings.on("BitwiseNot", 18, lowerUnary<AtenBitwiseNotOp>);
  lowerings.on("BitShift", 11, lowerBitShift);

  lowerings.on(
      "Where", 9, [](const OpBinder &binder, PatternRewriter &rewriter) {
        SmallVector<Value> operands;
        auto resultType = binder.getAnyResultType();
        if (failed(binder.getTensorOperands(operands)) ||
            operands.size() != 3 || !resultType)
          return binder.fail(rewriter, "expects three tensor operands");
        rewriter.replaceOpWithNewOp<AtenWhereSelfOp>(
            binder.getOp(), resultType, operands[0], operands[1], operands[2]);
        return success();
      });

  auto foldWith = [](auto makeOp) {
    return [makeOp](const OpBinder &binder, PatternRewriter &rewriter) {
      return lowerVariadic(
          binder, rewriter, [&](Value lhs, Value rhs, ValueTensorType type) {
            return makeOp(rewriter, binder.getLoc(), type, lhs, rhs);
          });
    };
  };
  auto add = [](PatternRewriter &rewriter, Location loc, Type type, Value lhs,
                Value rhs) -> Value {
    return AtenAddTensorOp::create(rewriter, loc, type, lhs, rhs,
                                   createConstantInt(rewriter, loc, 1));
  };
  lowerings.on("Sum", 8, foldWith(add));
  lowerings.on("Max", 8,
               foldWith([](PatternRewriter &rewriter, Location loc, Type type,
                           Value lhs, Value rhs) -> Value {
                 return AtenMaximumOp::create(rewriter, loc, type, lhs, rhs);
               }));
  lowerings.on("Min", 8,
               foldWith([](PatternRewriter &rewriter, Location loc, Type type,
                           Value lhs, Value rhs) -> Value {
                 return AtenMinimumOp::create(rewriter, loc, type, lhs, rhs);
               }));
  lowerings.on(
      "Mean", 8, [](const OpBinder &binder, PatternRewriter &rewriter) {
        Location loc = binder.getLoc();
        auto resultType = binder.getAnyResultType();
        SmallVector<Value> operands;
        if (failed(binder.getTensorOperands(operands)) || operands.empty() ||
            !resultType)
          return binder.fail(rewriter, "expects tensor operands and a result");
        Value sum = operands.front();
        for (Value operand : ArrayRef(operands).drop_front())
          sum = AtenAddTensorOp::create(rewriter, loc, resultType, sum, operand,
                                        createConstantInt(rewriter, loc, 1));
        rewriter.replaceOpWithNewOp<AtenDivScalarOp>(
            binder.getOp(), resultType, sum,
            createConstantInt(rewriter, loc, operands.size()));
        return success();
      });

  lowerings.on("Clip", 6, lowerClip);
  lowerings.on("BitCast", 26, lowerBitCast);
  lowerings.on("LeakyRelu", 6, lowerLeakyRelu);
  lowerings.on("Identity", 1, lowerIdentity);
  lowerings.on("Dropout", 7, lowerDropout);
}
