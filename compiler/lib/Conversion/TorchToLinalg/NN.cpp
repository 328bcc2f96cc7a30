//===- NN.cpp - Padding, pooling, normalization, resampling to linalg -----===//
//
// Part of the torch2mlir project.
//
// Neural-network ops that read their input through windows or computed
// positions: reflection/replication padding, N-d pooling (max with indices,
// average, adaptive average), group and training-mode batch normalization,
// nearest/bilinear upsampling, grid sampling, embedding bags and pairwise
// distances. Most are one linalg.generic over the result whose body reads
// the input with tensor.extract, plus reduction loops over a window where
// the op reduces. Spatial sizes must be static: windows, source indices and
// interpolation weights are then computed here, at compile time, with the
// same arithmetic as PyTorch's CPU kernels.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

static Value cstIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// A linalg.generic whose loops are the dims of `inits` (all of one rank R,
/// read through the identity) followed by one reduction loop per entry of
/// `windowSizes` (ranged by an empty tensor of the window's shape).
/// `inputs` are read through `inputMaps` (over all the loops). `body` gets
/// the block arguments (inputs, the window's element if any, outputs) and
/// returns one value per output.
static SmallVector<Value> createWindowGeneric(
    OpBuilder &b, Location loc, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps, ValueRange inits,
    ArrayRef<int64_t> windowSizes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *context = b.getContext();
  int64_t rank = cast<RankedTensorType>(inits[0].getType()).getRank();
  int64_t windowRank = windowSizes.size();
  int64_t loops = rank + windowRank;
  SmallVector<Value> allInputs(inputs);
  SmallVector<AffineMap> maps(inputMaps);
  if (windowRank > 0) {
    allInputs.push_back(
        tensor::EmptyOp::create(b, loc, windowSizes, b.getI8Type()));
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < windowRank; ++i)
      exprs.push_back(getAffineDimExpr(rank + i, context));
    maps.push_back(AffineMap::get(loops, 0, exprs, context));
  }
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < rank; ++i)
    outExprs.push_back(getAffineDimExpr(i, context));
  maps.append(inits.size(), AffineMap::get(loops, 0, outExprs, context));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(windowRank, utils::IteratorType::reduction);
  SmallVector<Type> types;
  for (Value init : inits)
    types.push_back(init.getType());
  auto generic = linalg::GenericOp::create(
      b, loc, types, allInputs, inits, maps, iterators,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        linalg::YieldOp::create(nested, l, body(nested, l, args));
      });
  return SmallVector<Value>(generic.getResults());
}

/// A 1-D constant tensor of `values` as `element` (an integer or float
/// type).
static Value createConstantVector(OpBuilder &b, Location loc, Type element,
                                  ArrayRef<double> values) {
  auto type =
      RankedTensorType::get({static_cast<int64_t>(values.size())}, element);
  SmallVector<Attribute> attrs;
  for (double value : values)
    attrs.push_back(isa<mlir::FloatType>(element)
                        ? Attribute(b.getFloatAttr(element, value))
                        : Attribute(b.getIntegerAttr(
                              element, static_cast<int64_t>(value))));
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, attrs));
}

/// Reads a `torch.prim.ListConstruct` of constant floats.
static bool matchConstantFloatList(Value list, SmallVectorImpl<double> &out) {
  auto construct = list.getDefiningOp<PrimListConstructOp>();
  if (!construct)
    return false;
  for (Value element : construct.getElements()) {
    double value;
    if (!matchTorchConstantFloat(element, value))
      return false;
    out.push_back(value);
  }
  return true;
}

/// Whether dims [first, rank) of `type` are static.
static bool hasStaticTrailingDims(RankedTensorType type, int64_t first) {
  for (int64_t i = first; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      return false;
  return true;
}

namespace {

//===----------------------------------------------------------------------===//
// Reflection and replication padding
//===----------------------------------------------------------------------===//

/// reflection_padNd / replication_padNd(x, padding): `padding` holds
/// (before, after) pairs starting from the last dim. Each output element
/// reads x at its position minus the padding before, reflected about the
/// edges (without repeating them) or clamped to them.
template <typename OpTy, int64_t D, bool Reflect>
struct ConvertPadNd : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    if (!resultType || (rank != D + 1 && rank != D + 2))
      return reportFailure(rewriter, op,
                           "expects an input of rank " + Twine(D + 1) + " or " +
                               Twine(D + 2));
    SmallVector<int64_t> padding;
    if (!matchTorchConstantIntList(op.getPadding(), padding) ||
        static_cast<int64_t>(padding.size()) != 2 * D)
      return reportFailure(rewriter, op,
                           "padding must be " + Twine(2 * D) + " constants");
    if (!hasStaticTrailingDims(inputType, rank - D))
      return reportFailure(rewriter, op, "unsupported: dynamic padded dims");
    SmallVector<int64_t> low(rank, 0), sizes(inputType.getShape());
    for (int64_t i = 0; i < D; ++i) {
      int64_t dim = rank - 1 - i;
      int64_t before = padding[2 * i], after = padding[2 * i + 1];
      low[dim] = before;
      int64_t size = sizes[dim];
      if (Reflect && (before >= size || after >= size))
        return reportFailure(
            rewriter, op,
            "reflection padding (" + Twine(before) + ", " + Twine(after) +
                ") must be smaller than the padded dim (" + Twine(size) + ")");
      if (size == 0 || size + before + after < 0)
        return reportFailure(rewriter, op,
                             "padding of an empty dim or to a negative size");
    }
    Location loc = op.getLoc();
    Value init = createEmpty(rewriter, loc, resultType, input);
    Value result =
        createWindowGeneric(
            rewriter, loc, {}, {}, {init}, {},
            [&](OpBuilder &b, Location l, ValueRange) -> SmallVector<Value> {
              SmallVector<Value> indices;
              for (int64_t dim = 0; dim < rank; ++dim) {
                Value index = linalg::IndexOp::create(b, l, dim);
                if (dim < rank - D) {
                  indices.push_back(index);
                  continue;
                }
                Value zero = cstIndex(b, l, 0);
                Value last = cstIndex(b, l, sizes[dim] - 1);
                index = arith::SubIOp::create(b, l, index,
                                              cstIndex(b, l, low[dim]));
                if (Reflect) {
                  Value negative = arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::slt, index, zero);
                  index = arith::SelectOp::create(
                      b, l, negative, arith::SubIOp::create(b, l, zero, index),
                      index);
                  Value beyond = arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::sgt, index, last);
                  Value mirrored = arith::SubIOp::create(
                      b, l, cstIndex(b, l, 2 * (sizes[dim] - 1)), index);
                  index =
                      arith::SelectOp::create(b, l, beyond, mirrored, index);
                } else {
                  index = arith::MaxSIOp::create(b, l, index, zero);
                  index = arith::MinSIOp::create(b, l, index, last);
                }
                indices.push_back(index);
              }
              return {tensor::ExtractOp::create(b, l, input, indices)};
            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// kernel_size, stride (empty: the kernel), padding and dilation of an N-d
/// pooling op, and the padding after the input that the output size needs
/// (more than `padding` with ceil_mode).
struct PoolParams {
  SmallVector<int64_t> kernel, stride, padding, dilation, padHigh;
};

static LogicalResult
matchPoolParams(ConversionPatternRewriter &rewriter, Operation *op, int64_t d,
                Value kernel, Value stride, Value padding, Value dilation,
                Value input, RankedTensorType resultType, PoolParams &params) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  if ((rank != d + 1 && rank != d + 2) || resultType.getRank() != rank)
    return reportFailure(rewriter, op,
                         "expects an input of rank " + Twine(d + 1) + " or " +
                             Twine(d + 2));
  if (!hasStaticTrailingDims(inputType, rank - d) ||
      !hasStaticTrailingDims(resultType, rank - d))
    return reportFailure(rewriter, op, "unsupported: dynamic pooled dims");
  if (failed(matchIntList(kernel, d, params.kernel)))
    return reportFailure(rewriter, op, "kernel_size must be constant");
  SmallVector<int64_t> strideValues;
  if (!matchTorchConstantIntList(stride, strideValues))
    return reportFailure(rewriter, op, "stride must be constant");
  if (strideValues.empty())
    params.stride = params.kernel;
  else if (failed(matchIntList(stride, d, params.stride)))
    return reportFailure(rewriter, op,
                         "stride must have 1 or " + Twine(d) + " values");
  if (failed(matchIntList(padding, d, params.padding)))
    return reportFailure(rewriter, op, "padding must be constant");
  params.dilation.assign(d, 1);
  if (dilation && failed(matchIntList(dilation, d, params.dilation)))
    return reportFailure(rewriter, op, "dilation must be constant");
  for (int64_t i = 0; i < d; ++i) {
    if (params.kernel[i] <= 0 || params.stride[i] <= 0 ||
        params.dilation[i] <= 0 || params.padding[i] < 0)
      return reportFailure(rewriter, op, "invalid pooling parameters");
    int64_t in = inputType.getDimSize(rank - d + i);
    int64_t out = resultType.getDimSize(rank - d + i);
    if (failed(checkPooledSize(rewriter, op, rank - d + i, in, out,
                               params.kernel[i], params.stride[i],
                               params.padding[i], params.dilation[i])))
      return failure();
    int64_t needed = (out - 1) * params.stride[i] +
                     params.dilation[i] * (params.kernel[i] - 1) + 1;
    params.padHigh.push_back(
        std::max(params.padding[i], needed - in - params.padding[i]));
  }
  // Batch and channel dims pass through: a static result size read from a
  // dynamic input is checked when the program runs, a static one here.
  Location loc = op->getLoc();
  for (int64_t i = 0; i < rank - d; ++i) {
    int64_t in = inputType.getDimSize(i), out = resultType.getDimSize(i);
    if (!ShapedType::isDynamic(in) && !ShapedType::isDynamic(out) && in != out)
      return reportFailure(rewriter, op,
                           "the declared result size of dim " + Twine(i) +
                               " is not the input's");
  }
  for (int64_t i = 0; i < rank - d; ++i) {
    int64_t out = resultType.getDimSize(i);
    if (!inputType.isDynamicDim(i) || ShapedType::isDynamic(out))
      continue;
    Value ok = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq,
        tensor::DimOp::create(rewriter, loc, input, i),
        arith::ConstantIndexOp::create(rewriter, loc, out));
    cf::AssertOp::create(rewriter, loc, ok,
                         "the pooling input's run-time size in dim " +
                             std::to_string(i) + " is not " +
                             std::to_string(out) +
                             ", the size of its static result there");
  }
  return success();
}

/// max_poolNd_with_indices: the max of each window and the flat index of
/// its position in the input's spatial dims, as PyTorch's CPU kernel picks
/// it: windows are scanned in row-major order, skipping positions in the
/// padding; the first one is taken, then any larger element or NaN (so the
/// index of the last NaN wins).
template <typename OpTy, int64_t D>
struct ConvertMaxPoolWithIndices : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = this->getTypeConverter();
    auto resultType = getConvertedTensorType(converter, op.getResult0());
    auto indicesType = getConvertedTensorType(converter, op.getResult1());
    if (!resultType || !indicesType)
      return reportFailure(rewriter, op, "results need a known rank and dtype");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    PoolParams params;
    if (failed(matchPoolParams(rewriter, op, D, op.getKernelSize(),
                               op.getStride(), op.getPadding(),
                               op.getDilation(), input, resultType, params)))
      return failure();
    Type element = resultType.getElementType();
    Type dtype = getTorchDtype(op.getSelf());
    if (!dtype || element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: max pooling of bools");
    bool isFloat = isa<mlir::FloatType>(element);
    bool isUnsigned = isUnsignedOrBool(dtype);
    Location loc = op.getLoc();
    int64_t rank = inputType.getRank();
    int64_t lead = rank - D;
    SmallVector<int64_t> inSizes(inputType.getShape().drop_front(lead));
    Value lowest = createExtremeValue(rewriter, loc, dtype, /*highest=*/false);
    Value values = createFilled(rewriter, loc, resultType, lowest, input);
    Value indices =
        createFilled(rewriter, loc, indicesType,
                     arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getI64IntegerAttr(-1)),
                     input);
    SmallVector<Value> results = createWindowGeneric(
        rewriter, loc, {}, {}, {values, indices}, params.kernel,
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          Value best = args[1], bestIndex = args[2];
          SmallVector<Value> position;
          for (int64_t i = 0; i < lead; ++i)
            position.push_back(linalg::IndexOp::create(b, l, i));
          Value valid = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
          Value flat = cstIndex(b, l, 0);
          Value zero = cstIndex(b, l, 0);
          for (int64_t i = 0; i < D; ++i) {
            Value out = linalg::IndexOp::create(b, l, lead + i);
            Value tap = linalg::IndexOp::create(b, l, rank + i);
            Value pos = arith::AddIOp::create(
                b, l,
                arith::MulIOp::create(b, l, out,
                                      cstIndex(b, l, params.stride[i])),
                arith::MulIOp::create(b, l, tap,
                                      cstIndex(b, l, params.dilation[i])));
            pos = arith::SubIOp::create(b, l, pos,
                                        cstIndex(b, l, params.padding[i]));
            Value inside = arith::AndIOp::create(
                b, l,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, pos,
                                      zero),
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, pos,
                                      cstIndex(b, l, inSizes[i])));
            valid = arith::AndIOp::create(b, l, valid, inside);
            flat = arith::AddIOp::create(
                b, l,
                arith::MulIOp::create(b, l, flat, cstIndex(b, l, inSizes[i])),
                pos);
            position.push_back(
                arith::SelectOp::create(b, l, inside, pos, zero));
          }
          Value value = tensor::ExtractOp::create(b, l, input, position);
          Value better;
          if (isFloat) {
            better = arith::OrIOp::create(
                b, l,
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, value,
                                      best),
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, value,
                                      value));
          } else {
            better =
                arith::CmpIOp::create(b, l,
                                      isUnsigned ? arith::CmpIPredicate::ugt
                                                 : arith::CmpIPredicate::sgt,
                                      value, best);
          }
          Value first = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::eq, bestIndex,
              arith::ConstantOp::create(b, l, b.getI64IntegerAttr(-1)));
          Value take = arith::AndIOp::create(
              b, l, valid, arith::OrIOp::create(b, l, first, better));
          Value flat64 = arith::IndexCastOp::create(b, l, b.getI64Type(), flat);
          return {arith::SelectOp::create(b, l, take, value, best),
                  arith::SelectOp::create(b, l, take, flat64, bestIndex)};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// avg_poolNd: the sum of each window of the zero-padded input (in the
/// opmath type), divided by divisor_override if given, else by the window
/// clipped to the input plus padding (count_include_pad) or to the input.
/// Integers divide truncating toward zero, as PyTorch does.
template <typename OpTy, int64_t D>
struct ConvertAvgPoolNd : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, kUnknownResultType);
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    PoolParams params;
    if (failed(matchPoolParams(rewriter, op, D, op.getKernelSize(),
                               op.getStride(), op.getPadding(), Value(), input,
                               resultType, params)))
      return failure();
    Type element = resultType.getElementType();
    Type dtype = getTorchDtype(op.getSelf());
    if (!dtype || element.isInteger(1) || isUnsignedOrBool(dtype))
      return reportFailure(rewriter, op,
                           "unsupported: average pooling of bool or unsigned");
    bool isFloat = isa<mlir::FloatType>(element);
    bool countIncludePad;
    if (!matchTorchConstantBool(op.getCountIncludePad(), countIncludePad))
      return reportFailure(rewriter, op, "count_include_pad must be constant");
    int64_t divisorOverride = 0;
    if constexpr (D != 1) {
      if (!isTorchNone(op.getDivisorOverride()) &&
          !matchTorchConstantInt(op.getDivisorOverride(), divisorOverride))
        return reportFailure(rewriter, op, "divisor_override must be constant");
    }
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    int64_t rank = inputType.getRank();
    int64_t lead = rank - D;
    SmallVector<int64_t> inSizes(inputType.getShape().drop_front(lead));
    SmallVector<int64_t> low(lead, 0), high(lead, 0);
    low.append(params.padding);
    high.append(params.padHigh);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    Value padded = createPad(rewriter, loc, input, low, high, zero);

    Type accType = isFloat ? getOpMathType(element) : element;
    auto accTensorType = RankedTensorType::get(resultType.getShape(), accType);
    Value accInit = createZeroFilled(rewriter, loc, accTensorType, input);
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < lead; ++i)
      exprs.push_back(getAffineDimExpr(i, context));
    for (int64_t i = 0; i < D; ++i)
      exprs.push_back(getAffineDimExpr(lead + i, context) * params.stride[i] +
                      getAffineDimExpr(rank + i, context));
    Value sum = createWindowGeneric(
                    rewriter, loc, {padded},
                    {AffineMap::get(rank + D, 0, exprs, context)}, {accInit},
                    params.kernel,
                    [&](OpBuilder &b, Location l,
                        ValueRange args) -> SmallVector<Value> {
                      if (!isFloat)
                        return {arith::AddIOp::create(b, l, args[2], args[0])};
                      return {arith::AddFOp::create(
                          b, l, args[2], castFloat(b, l, args[0], accType))};
                    })
                    .front();

    Value init = createEmpty(rewriter, loc, resultType, input);
    Value result =
        createWindowGeneric(
            rewriter, loc, {sum}, {rewriter.getMultiDimIdentityMap(rank)},
            {init}, {},
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              Value divisor;
              if (divisorOverride != 0) {
                divisor = cstIndex(b, l, divisorOverride);
              } else {
                divisor = cstIndex(b, l, 1);
                for (int64_t i = 0; i < D; ++i) {
                  Value index = linalg::IndexOp::create(b, l, lead + i);
                  Value start = arith::SubIOp::create(
                      b, l,
                      arith::MulIOp::create(b, l, index,
                                            cstIndex(b, l, params.stride[i])),
                      cstIndex(b, l, params.padding[i]));
                  Value end = arith::MinSIOp::create(
                      b, l,
                      arith::AddIOp::create(b, l, start,
                                            cstIndex(b, l, params.kernel[i])),
                      cstIndex(b, l, inSizes[i] + params.padding[i]));
                  if (!countIncludePad) {
                    start =
                        arith::MaxSIOp::create(b, l, start, cstIndex(b, l, 0));
                    end = arith::MinSIOp::create(b, l, end,
                                                 cstIndex(b, l, inSizes[i]));
                  }
                  divisor = arith::MulIOp::create(
                      b, l, divisor, arith::SubIOp::create(b, l, end, start));
                }
              }
              Value divisor64 =
                  arith::IndexCastOp::create(b, l, b.getI64Type(), divisor);
              if (!isFloat)
                return {arith::DivSIOp::create(
                    b, l, args[0], convertScalar(b, l, divisor64, element))};
              Value quotient = arith::DivFOp::create(
                  b, l, args[0],
                  arith::SIToFPOp::create(b, l, accType, divisor64));
              return {castFloat(b, l, quotient, element)};
            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// adaptive average pooling over the last D dims: output o of a dim of
/// size I pooled to O averages input [floor(o*I/O), ceil((o+1)*I/O)). The
/// window loops run to the largest window; positions past a smaller
/// window's end add nothing. As PyTorch, the sum (in opmath) is divided by
/// each dim's window size in turn.
template <typename OpTy, int64_t D>
struct ConvertAdaptiveAvgPool : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    if (!resultType || (rank != D + 1 && rank != D + 2) ||
        resultType.getRank() != rank)
      return reportFailure(rewriter, op,
                           "expects an input of rank " + Twine(D + 1) + " or " +
                               Twine(D + 2));
    if (!hasStaticTrailingDims(inputType, rank - D) ||
        !hasStaticTrailingDims(resultType, rank - D))
      return reportFailure(rewriter, op, "unsupported: dynamic pooled dims");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op,
                           "unsupported: adaptive average pooling of integers");
    int64_t lead = rank - D;
    SmallVector<int64_t> inSizes(inputType.getShape().drop_front(lead));
    SmallVector<int64_t> outSizes(resultType.getShape().drop_front(lead));
    SmallVector<int64_t> window;
    for (int64_t i = 0; i < D; ++i) {
      int64_t in = inSizes[i], out = outSizes[i], largest = 0;
      if (out <= 0 || in <= 0)
        return reportFailure(rewriter, op,
                             "unsupported: empty input or output dims");
      for (int64_t o = 0; o < out; ++o)
        largest =
            std::max(largest, ((o + 1) * in + out - 1) / out - (o * in) / out);
      window.push_back(largest);
    }
    Location loc = op.getLoc();
    Type accType = getOpMathType(element);
    auto accTensorType = RankedTensorType::get(resultType.getShape(), accType);
    Value accInit = createZeroFilled(rewriter, loc, accTensorType, input);
    // [start, end) of output index `out` of spatial dim i.
    auto bounds = [&](OpBuilder &b, Location l, Value out, int64_t i) {
      Value start = arith::DivUIOp::create(
          b, l, arith::MulIOp::create(b, l, out, cstIndex(b, l, inSizes[i])),
          cstIndex(b, l, outSizes[i]));
      Value next = arith::AddIOp::create(b, l, out, cstIndex(b, l, 1));
      Value end = arith::DivUIOp::create(
          b, l,
          arith::AddIOp::create(
              b, l,
              arith::MulIOp::create(b, l, next, cstIndex(b, l, inSizes[i])),
              cstIndex(b, l, outSizes[i] - 1)),
          cstIndex(b, l, outSizes[i]));
      return std::make_pair(start, end);
    };
    Value sum =
        createWindowGeneric(
            rewriter, loc, {}, {}, {accInit}, window,
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              SmallVector<Value> position;
              for (int64_t i = 0; i < lead; ++i)
                position.push_back(linalg::IndexOp::create(b, l, i));
              Value valid =
                  arith::ConstantOp::create(b, l, b.getBoolAttr(true));
              for (int64_t i = 0; i < D; ++i) {
                auto [start, end] =
                    bounds(b, l, linalg::IndexOp::create(b, l, lead + i), i);
                Value pos = arith::AddIOp::create(
                    b, l, start, linalg::IndexOp::create(b, l, rank + i));
                Value inside = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ult, pos, end);
                valid = arith::AndIOp::create(b, l, valid, inside);
                position.push_back(
                    arith::SelectOp::create(b, l, inside, pos, start));
              }
              Value value = castFloat(
                  b, l, tensor::ExtractOp::create(b, l, input, position),
                  accType);
              Value added = arith::AddFOp::create(b, l, args[1], value);
              return {arith::SelectOp::create(b, l, valid, added, args[1])};
            })
            .front();
    Value init = createEmpty(rewriter, loc, resultType, input);
    Value result =
        createWindowGeneric(
            rewriter, loc, {sum}, {rewriter.getMultiDimIdentityMap(rank)},
            {init}, {},
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              Value value = args[0];
              for (int64_t i = 0; i < D; ++i) {
                auto [start, end] =
                    bounds(b, l, linalg::IndexOp::create(b, l, lead + i), i);
                Value size = arith::IndexCastOp::create(
                    b, l, b.getI64Type(),
                    arith::SubIOp::create(b, l, end, start));
                value = arith::DivFOp::create(
                    b, l, value, arith::SIToFPOp::create(b, l, accType, size));
              }
              return {castFloat(b, l, value, element)};
            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// Per-group statistics of `x` (a [P, R] or [A, P, B] view, see callers):
/// loops are (groupDims..., reducedDims...) given by `reduceMaps`.
/// Returns sum over the reduced loops of f(x, args) into a zero `init`.
static Value createStatsReduction(
    OpBuilder &b, Location loc, ValueRange inputs, ArrayRef<AffineMap> maps,
    Value init, ArrayRef<utils::IteratorType> iterators,
    function_ref<Value(OpBuilder &, Location, ValueRange)> term) {
  SmallVector<AffineMap> allMaps(maps);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, inputs, ValueRange{init},
             allMaps, iterators,
             [&](OpBuilder &nested, Location l, ValueRange args) {
               Value value = term(nested, l, args.drop_back());
               linalg::YieldOp::create(
                   nested, l,
                   ValueRange{
                       arith::AddFOp::create(nested, l, args.back(), value)
                           .getResult()});
             })
      .getResult(0);
}

/// mean and 1/sqrt(biased variance + eps) of `x` viewed as [outer..., R]
/// where the statistics are per `statMap` position. Shared by group norm
/// (x: [N, G, Cg*HxW], stats [N, G]) and batch norm (x: [N, C, HxW],
/// stats [C]). `count` is the number of reduced elements.
struct Moments {
  Value mean, variance, invstd;
};

static Moments computeMoments(OpBuilder &b, Location loc, Value x,
                              AffineMap statMap, RankedTensorType statType,
                              int64_t count, Value eps) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  Type accType = statType.getElementType();
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i)
    iterators.push_back(statMap.isFunctionOfDim(i)
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  Value zeros = createZeroFilled(b, loc, statType);
  Value sum =
      createStatsReduction(b, loc, {x}, {identity, statMap}, zeros, iterators,
                           [&](OpBuilder &nb, Location l, ValueRange args) {
                             return castFloat(nb, l, args[0], accType);
                           });
  Value countValue = createFloatConstant(b, loc, accType, count);
  auto elementwise =
      [&](ValueRange inputs,
          function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
        return createElementwise(b, loc, statType, inputs, body);
      };
  Value mean = elementwise(
      {sum}, [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(nb, l, args[0], countValue);
      });
  Value squares = createStatsReduction(
      b, loc, {x, mean}, {identity, statMap, statMap}, zeros, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value centered = arith::SubFOp::create(
            nb, l, castFloat(nb, l, args[0], accType), args[1]);
        return arith::MulFOp::create(nb, l, centered, centered);
      });
  Value variance = elementwise(
      {squares}, [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(nb, l, args[0], countValue);
      });
  Value epsAcc = castFloat(b, loc, eps, accType);
  Value invstd = elementwise(
      {variance}, [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value root = math::SqrtOp::create(
            nb, l, arith::AddFOp::create(nb, l, args[0], epsAcc));
        return arith::DivFOp::create(
            nb, l, createFloatConstant(nb, l, accType, 1.0), root);
      });
  return {mean, variance, invstd};
}

/// `value` (a tensor of floats) converted elementwise to `type`.
static Value castTensor(OpBuilder &b, Location loc, Value value,
                        RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return createElementwise(
      b, loc, type, {value}, [&](OpBuilder &nb, Location l, ValueRange args) {
        return castFloat(nb, l, args[0], type.getElementType());
      });
}

/// native_group_norm(x, weight, bias, N, C, HxW, group, eps): x viewed as
/// [N, group, C/group * HxW]; per (n, group) mean and rstd =
/// 1/sqrt(biased var + eps); y = (x - mean) * rstd * weight[c] + bias[c].
/// Returns y, mean and rstd ([N, group]).
struct ConvertNativeGroupNorm : OpConversionPattern<AtenNativeGroupNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenNativeGroupNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    auto resultType = getConvertedTensorType(converter, op.getResult0());
    auto meanType = getConvertedTensorType(converter, op.getResult1());
    auto rstdType = getConvertedTensorType(converter, op.getResult2());
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (!resultType || !meanType || !rstdType || inputType.getRank() < 2)
      return reportFailure(rewriter, op, "needs ranked results (rank >= 2)");
    if (!inputType.hasStaticShape() || !meanType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: dynamic shapes");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element) ||
        !isa<mlir::FloatType>(meanType.getElementType()))
      return reportFailure(rewriter, op, "unsupported: non-float group norm");
    int64_t groups;
    if (!matchTorchConstantInt(op.getGroup(), groups))
      return reportFailure(rewriter, op, "group must be constant");
    int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(1);
    if (groups <= 0 || c % groups != 0)
      return reportFailure(rewriter, op, "channels not divisible by groups");
    Value eps = adaptor.getEps();
    if (!isa<mlir::FloatType>(eps.getType()))
      return reportFailure(rewriter, op, "eps must be a float");
    int64_t hxw = 1;
    for (int64_t i = 2; i < inputType.getRank(); ++i)
      hxw *= inputType.getDimSize(i);
    int64_t perGroup = c / groups;
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Type accType = getSumAccumulatorType(element);

    Value grouped = createReshape(
        rewriter, loc, input,
        RankedTensorType::get({n, groups, perGroup, hxw}, element));
    auto statType = RankedTensorType::get({n, groups}, accType);
    AffineExpr d0, d1, d2, d3;
    bindDims(context, d0, d1, d2, d3);
    AffineMap statMap = AffineMap::get(4, 0, {d0, d1}, context);
    Moments moments = computeMoments(rewriter, loc, grouped, statMap, statType,
                                     perGroup * hxw, eps);

    SmallVector<Value> inputs{grouped, moments.mean, moments.invstd};
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(4), statMap,
                                statMap};
    bool hasWeight = !isTorchNone(op.getWeight());
    bool hasBias = !isTorchNone(op.getBias());
    auto affineType = RankedTensorType::get({groups, perGroup}, element);
    for (auto [present, value] :
         {std::make_pair(hasWeight, adaptor.getWeight()),
          std::make_pair(hasBias, adaptor.getBias())}) {
      if (!present)
        continue;
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type || type.getRank() != 1 || type.getElementType() != element)
        return reportFailure(rewriter, op,
                             "unsupported: weight/bias not 1-D of the input "
                             "dtype");
      inputs.push_back(createReshape(rewriter, loc, value, affineType));
      maps.push_back(AffineMap::get(4, 0, {d1, d2}, context));
    }
    auto groupedType =
        RankedTensorType::get({n, groups, perGroup, hxw}, element);
    maps.push_back(rewriter.getMultiDimIdentityMap(4));
    Value normalized =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{groupedType}, inputs,
            ValueRange{createEmpty(rewriter, loc, groupedType)}, maps,
            SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = castFloat(b, l, args[0], accType);
              Value y = arith::MulFOp::create(
                  b, l, arith::SubFOp::create(b, l, x, args[1]), args[2]);
              size_t next = 3;
              if (hasWeight)
                y = arith::MulFOp::create(
                    b, l, y, castFloat(b, l, args[next++], accType));
              if (hasBias)
                y = arith::AddFOp::create(
                    b, l, y, castFloat(b, l, args[next++], accType));
              linalg::YieldOp::create(b, l, castFloat(b, l, y, element));
            })
            .getResult(0);
    rewriter.replaceOp(op,
                       {createReshape(rewriter, loc, normalized, resultType),
                        castTensor(rewriter, loc, moments.mean, meanType),
                        castTensor(rewriter, loc, moments.invstd, rstdType)});
    return success();
  }
};

/// Training batch norm, per channel (dim 1) over the other dims:
///   y = (x - mean) * invstd * weight + bias, invstd = 1/sqrt(var + eps)
/// with the batch's mean and biased variance; save_mean and save_invstd
/// are returned. _native_batch_norm_legit_functional also returns the
/// updated running stats: (1 - momentum) * running + momentum * batch
/// (unbiased variance), or, with training=False, normalizes with the
/// running stats (empty save_mean/save_invstd, running stats unchanged).
template <typename OpTy, bool HasRunningStats>
struct ConvertBatchNormTraining : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = this->getTypeConverter();
    SmallVector<RankedTensorType> resultTypes;
    for (Value result : op->getResults()) {
      auto type = getConvertedTensorType(converter, result);
      if (!type || !type.hasStaticShape() ||
          !isa<mlir::FloatType>(type.getElementType()))
        return reportFailure(rewriter, op,
                             "unsupported: dynamic or non-float results");
      resultTypes.push_back(type);
    }
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (inputType.getRank() < 2 || !inputType.hasStaticShape())
      return reportFailure(rewriter, op,
                           "unsupported: dynamic input or rank < 2");
    bool training;
    if (!matchTorchConstantBool(op.getTraining(), training))
      return reportFailure(rewriter, op, "training must be constant");
    if (!HasRunningStats && !training)
      return reportFailure(rewriter, op,
                           "unsupported: no running stats and training=False");
    double momentum;
    if (!matchTorchConstantFloat(op.getMomentum(), momentum))
      return reportFailure(rewriter, op, "momentum must be constant");
    Value eps = adaptor.getEps();
    if (!isa<mlir::FloatType>(eps.getType()))
      return reportFailure(rewriter, op, "eps must be a float");
    Type element = resultTypes[0].getElementType();
    Type accType = getSumAccumulatorType(element);
    int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(1);
    int64_t hw = inputType.getNumElements() / std::max<int64_t>(n * c, 1);
    if (n * c == 0)
      return reportFailure(rewriter, op, "unsupported: empty input");
    int64_t count = n * hw;
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto viewType = RankedTensorType::get({n, c, hw}, element);
    Value x = createReshape(rewriter, loc, input, viewType);
    auto statType = RankedTensorType::get({c}, accType);
    AffineExpr d0, d1, d2;
    bindDims(context, d0, d1, d2);
    AffineMap statMap = AffineMap::get(3, 0, {d1}, context);

    Value mean, invstd, variance;
    if (training) {
      Moments moments =
          computeMoments(rewriter, loc, x, statMap, statType, count, eps);
      mean = moments.mean;
      invstd = moments.invstd;
      variance = moments.variance;
    } else if constexpr (HasRunningStats) {
      Value epsAcc = castFloat(rewriter, loc, eps, accType);
      mean = castTensor(rewriter, loc, adaptor.getRunningMean(), statType);
      invstd = createElementwise(
          rewriter, loc, statType,
          {castTensor(rewriter, loc, adaptor.getRunningVar(), statType)},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value root = math::SqrtOp::create(
                b, l, arith::AddFOp::create(b, l, args[0], epsAcc));
            return arith::DivFOp::create(
                b, l, createFloatConstant(b, l, accType, 1.0), root);
          });
    }

    SmallVector<Value> inputs{x, mean, invstd};
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(3), statMap,
                                statMap};
    bool hasWeight = !isTorchNone(op.getWeight());
    bool hasBias = !isTorchNone(op.getBias());
    if (hasWeight) {
      inputs.push_back(adaptor.getWeight());
      maps.push_back(statMap);
    }
    if (hasBias) {
      inputs.push_back(adaptor.getBias());
      maps.push_back(statMap);
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(3));
    Value normalized =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{viewType}, inputs,
            ValueRange{createEmpty(rewriter, loc, viewType)}, maps,
            SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value value = castFloat(b, l, args[0], accType);
              // PyTorch's CPU kernel normalizes with the saved statistics,
              // which f16/bf16 round to the input's dtype.
              auto saved = [&](Value stat) {
                return castFloat(b, l, castFloat(b, l, stat, element), accType);
              };
              Value y = arith::MulFOp::create(
                  b, l, arith::SubFOp::create(b, l, value, saved(args[1])),
                  saved(args[2]));
              size_t next = 3;
              if (hasWeight)
                y = arith::MulFOp::create(
                    b, l, y, castFloat(b, l, args[next++], accType));
              if (hasBias)
                y = arith::AddFOp::create(
                    b, l, y, castFloat(b, l, args[next++], accType));
              linalg::YieldOp::create(b, l, castFloat(b, l, y, element));
            })
            .getResult(0);
    SmallVector<Value> results{
        createReshape(rewriter, loc, normalized, resultTypes[0])};
    if (training) {
      results.push_back(castTensor(rewriter, loc, mean, resultTypes[1]));
      results.push_back(castTensor(rewriter, loc, invstd, resultTypes[2]));
    } else {
      for (int i = 1; i <= 2; ++i)
        results.push_back(
            tensor::EmptyOp::create(rewriter, loc, resultTypes[i].getShape(),
                                    resultTypes[i].getElementType()));
    }
    if constexpr (HasRunningStats) {
      Value runningMean = adaptor.getRunningMean();
      Value runningVar = adaptor.getRunningVar();
      if (!training) {
        results.push_back(
            castTensor(rewriter, loc, runningMean, resultTypes[3]));
        results.push_back(
            castTensor(rewriter, loc, runningVar, resultTypes[4]));
      } else {
        Value keep =
            createFloatConstant(rewriter, loc, accType, 1.0 - momentum);
        Value take = createFloatConstant(rewriter, loc, accType, momentum);
        Value unbias = createFloatConstant(rewriter, loc, accType,
                                           static_cast<double>(count) /
                                               static_cast<double>(count - 1));
        auto update = [&](Value running, Value batch, bool unbiased,
                          RankedTensorType type) {
          return createElementwise(
              rewriter, loc, type,
              {castTensor(rewriter, loc, running, statType), batch},
              [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                Value batchValue = args[1];
                if (unbiased)
                  batchValue = arith::MulFOp::create(b, l, batchValue, unbias);
                Value sum = arith::AddFOp::create(
                    b, l, arith::MulFOp::create(b, l, take, batchValue),
                    arith::MulFOp::create(b, l, keep, args[0]));
                return castFloat(b, l, sum, type.getElementType());
              });
        };
        results.push_back(update(runningMean, mean, false, resultTypes[3]));
        results.push_back(update(runningVar, variance, true, resultTypes[4]));
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Upsampling
//===----------------------------------------------------------------------===//

/// The output and input sizes of the last two dims of an upsample op, and
/// the scale_factors (none when empty).
static LogicalResult matchUpsample(ConversionPatternRewriter &rewriter,
                                   Operation *op, RankedTensorType inputType,
                                   RankedTensorType resultType,
                                   Value scaleFactors,
                                   SmallVectorImpl<double> &scales) {
  if (inputType.getRank() != 4 || resultType.getRank() != 4)
    return reportFailure(rewriter, op, "expects an NCHW input");
  if (!hasStaticTrailingDims(inputType, 2) ||
      !hasStaticTrailingDims(resultType, 2))
    return reportFailure(rewriter, op, "unsupported: dynamic spatial dims");
  if (!isTorchNone(scaleFactors) &&
      (!matchConstantFloatList(scaleFactors, scales) || scales.size() != 2))
    return reportFailure(rewriter, op,
                         "scale_factors must be none or 2 constants");
  return success();
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
    SmallVector<Value> sources;
    for (int64_t i = 0; i < 2; ++i) {
      int64_t in = inputType.getDimSize(2 + i),
              out = resultType.getDimSize(2 + i);
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
                            {createEmpty(rewriter, loc, resultType, input)}, {},
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
    SmallVector<Value> tables;
    for (int64_t i = 0; i < 2; ++i) {
      int64_t in = inputType.getDimSize(2 + i),
              out = resultType.getDimSize(2 + i);
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
            {createEmpty(rewriter, loc, resultType, input)}, {},
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

//===----------------------------------------------------------------------===//
// Embedding bags
//===----------------------------------------------------------------------===//

/// _embedding_bag(_forward_only)(weight [V, D], indices [L], offsets, ...,
/// mode, per_sample_weights, include_last_offset, padding_idx): bag b holds
/// indices[offsets[b] : offsets[b + 1]] (the last bag runs to L unless
/// include_last_offset); entries equal to padding_idx are skipped. Output
/// row b is the sum (weighted by per_sample_weights), mean or max of the
/// bag's weight rows, zeros for an empty bag. One generic over [B, D] with
/// a reduction over all L indices. Only the first result (the output) is
/// computed: the op fails when offset2bag, bag_size or max_indices are
/// used.
template <typename OpTy>
struct ConvertEmbeddingBag : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (int i = 1; i < 4; ++i)
      if (!op->getResult(i).use_empty())
        return reportFailure(rewriter, op,
                             "unsupported: offset2bag, bag_size or "
                             "max_indices results are used");
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op->getResult(0));
    Value weight = adaptor.getWeight(), indices = adaptor.getIndices(),
          offsets = adaptor.getOffsets();
    auto weightType = cast<RankedTensorType>(weight.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    auto offsetsType = cast<RankedTensorType>(offsets.getType());
    if (!resultType || resultType.getRank() != 2 || weightType.getRank() != 2 ||
        indicesType.getRank() != 1 || offsetsType.getRank() != 1)
      return reportFailure(rewriter, op,
                           "expects 2-D weight, 1-D indices and offsets");
    if (!indicesType.hasStaticShape() || !offsetsType.hasStaticShape())
      return reportFailure(rewriter, op,
                           "unsupported: dynamic indices or offsets");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element) ||
        weightType.getElementType() != element)
      return reportFailure(rewriter, op, "unsupported: non-float weight");
    int64_t mode, paddingIdx;
    bool includeLast;
    if (!matchTorchConstantInt(op.getMode(), mode) ||
        !matchTorchConstantBool(op.getIncludeLastOffset(), includeLast) ||
        !matchTorchConstantInt(op.getPaddingIdx(), paddingIdx))
      return reportFailure(rewriter, op,
                           "mode, include_last_offset and padding_idx must be "
                           "constants");
    if (mode < 0 || mode > 2)
      return reportFailure(rewriter, op, "invalid mode");
    bool weighted = !isTorchNone(op.getPerSampleWeights());
    if (weighted && mode != 0)
      return reportFailure(rewriter, op,
                           "per_sample_weights only with mode='sum'");
    int64_t length = indicesType.getDimSize(0);
    int64_t numOffsets = offsetsType.getDimSize(0);
    int64_t bags = includeLast ? numOffsets - 1 : numOffsets;
    if (bags < 0 ||
        (!resultType.isDynamicDim(0) && resultType.getDimSize(0) != bags))
      return reportFailure(rewriter, op, "result rows do not match the bags");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Type acc = getOpMathType(element);
    auto accType = RankedTensorType::get(resultType.getShape(), acc);
    auto countType =
        RankedTensorType::get(resultType.getShape(), rewriter.getI64Type());
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(1))
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, weight, 1));
    auto filled = [&](RankedTensorType type, Value value) {
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, type.getShape(), type.getElementType(), dynamicSizes);
      return linalg::FillOp::create(rewriter, loc, ValueRange{value},
                                    ValueRange{empty})
          .getResult(0);
    };
    Value accInit =
        filled(accType, createFloatConstant(rewriter, loc, acc, 0.0));
    Value countInit =
        filled(countType, arith::ConstantOp::create(
                              rewriter, loc, rewriter.getI64IntegerAttr(0)));
    SmallVector<Value> inputs{indices};
    AffineMap indexMap =
        AffineMap::get(3, 0, {getAffineDimExpr(2, context)}, context);
    SmallVector<AffineMap> maps{indexMap};
    if (weighted) {
      Value sampleWeights = adaptor.getPerSampleWeights();
      auto type = dyn_cast<RankedTensorType>(sampleWeights.getType());
      if (!type || type.getRank() != 1 || type.getElementType() != element)
        return reportFailure(rewriter, op,
                             "per_sample_weights must be 1-D of the weight's "
                             "dtype");
      inputs.push_back(sampleWeights);
      maps.push_back(indexMap);
    }
    Type indexElement = indicesType.getElementType();
    SmallVector<Value> reduced = createWindowGeneric(
        rewriter, loc, inputs, maps, {accInit, countInit}, {length},
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          Value bag = linalg::IndexOp::create(b, l, 0);
          Value column = linalg::IndexOp::create(b, l, 1);
          Value j = linalg::IndexOp::create(b, l, 2);
          auto toIndex = [&](Value v) -> Value {
            return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
          };
          Value start = toIndex(tensor::ExtractOp::create(b, l, offsets, bag));
          Value next = arith::AddIOp::create(b, l, bag, cstIndex(b, l, 1));
          Value end;
          if (includeLast) {
            end = toIndex(tensor::ExtractOp::create(b, l, offsets, next));
          } else {
            Value hasNext =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, next,
                                      cstIndex(b, l, numOffsets));
            Value safeNext = arith::SelectOp::create(b, l, hasNext, next, bag);
            end = arith::SelectOp::create(
                b, l, hasNext,
                toIndex(tensor::ExtractOp::create(b, l, offsets, safeNext)),
                cstIndex(b, l, length));
          }
          Value word = args[0];
          Value inBag = arith::AndIOp::create(
              b, l,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, j, start),
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, j, end));
          Value notPadding = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::ne, word,
              arith::ConstantOp::create(
                  b, l, b.getIntegerAttr(indexElement, paddingIdx)));
          Value take = arith::AndIOp::create(b, l, inBag, notPadding);
          Value row = arith::SelectOp::create(b, l, take, toIndex(word),
                                              cstIndex(b, l, 0));
          Value value = castFloat(
              b, l,
              tensor::ExtractOp::create(b, l, weight, ValueRange{row, column}),
              acc);
          Value accValue = args[args.size() - 2], count = args.back();
          Value updated;
          if (mode == 2) {
            Value first = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::eq, count,
                arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
            Value larger = arith::CmpFOp::create(
                b, l, arith::CmpFPredicate::OGT, value, accValue);
            updated = arith::SelectOp::create(
                b, l, arith::OrIOp::create(b, l, first, larger), value,
                accValue);
          } else {
            if (weighted)
              value = arith::MulFOp::create(b, l, value,
                                            castFloat(b, l, args[1], acc));
            updated = arith::AddFOp::create(b, l, accValue, value);
          }
          Value newCount = arith::AddIOp::create(
              b, l, count,
              arith::ConstantOp::create(b, l, b.getI64IntegerAttr(1)));
          return {arith::SelectOp::create(b, l, take, updated, accValue),
                  arith::SelectOp::create(b, l, take, newCount, count)};
        });
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         element, dynamicSizes);
    Value output =
        createWindowGeneric(
            rewriter, loc, reduced,
            {rewriter.getMultiDimIdentityMap(2),
             rewriter.getMultiDimIdentityMap(2)},
            {init}, {},
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              Value value = args[0];
              if (mode == 1) {
                Value empty = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq, args[1],
                    arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
                Value mean = arith::DivFOp::create(
                    b, l, value, arith::SIToFPOp::create(b, l, acc, args[1]));
                value = arith::SelectOp::create(b, l, empty, value, mean);
              }
              return {castFloat(b, l, value, element)};
            })
            .front();
    SmallVector<Value> results{output};
    for (int i = 1; i < 4; ++i) {
      auto type =
          getConvertedTensorType(this->getTypeConverter(), op->getResult(i));
      if (!type || !type.hasStaticShape())
        return reportFailure(rewriter, op,
                             "unsupported: dynamic auxiliary results");
      // Unused (checked above): only their types matter.
      results.push_back(tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                                type.getElementType()));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Distances
//===----------------------------------------------------------------------===//

/// The p-norm's reduction step: acc + |d|^p (count of d != 0 for p = 0,
/// max |d| for p = inf).
static Value accumulateDistance(OpBuilder &b, Location loc, Value acc,
                                Value difference, double p) {
  Type type = acc.getType();
  Value magnitude = math::AbsFOp::create(b, loc, difference);
  if (std::isinf(p))
    return arith::MaximumFOp::create(b, loc, acc, magnitude);
  Value term;
  if (p == 0.0)
    term = arith::UIToFPOp::create(
        b, loc, type,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, difference,
                              createFloatConstant(b, loc, type, 0.0)));
  else if (p == 1.0)
    term = magnitude;
  else if (p == 2.0)
    term = arith::MulFOp::create(b, loc, magnitude, magnitude);
  else
    term = math::PowFOp::create(b, loc, magnitude,
                                createFloatConstant(b, loc, type, p));
  return arith::AddFOp::create(b, loc, acc, term);
}

/// The p-norm from its accumulated value.
static Value finishDistance(OpBuilder &b, Location loc, Value acc, double p) {
  if (std::isinf(p) || p == 0.0 || p == 1.0)
    return acc;
  if (p == 2.0)
    return math::SqrtOp::create(b, loc, acc);
  return math::PowFOp::create(
      b, loc, acc, createFloatConstant(b, loc, acc.getType(), 1.0 / p));
}

/// _cdist_forward(x1 [B..., P, M], x2 [B..., R, M], p, compute_mode):
/// out[..., i, j] = ||x1[..., i, :] - x2[..., j, :]||_p, computed directly
/// (PyTorch may use a matmul form for p = 2; it agrees within rounding).
struct ConvertCdistForward : OpConversionPattern<Aten_CdistForwardOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Aten_CdistForwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value x1 = adaptor.getX1(), x2 = adaptor.getX2();
    auto type1 = cast<RankedTensorType>(x1.getType());
    auto type2 = cast<RankedTensorType>(x2.getType());
    int64_t rank = type1.getRank();
    if (!resultType || rank < 2 || type2.getRank() != rank ||
        resultType.getRank() != rank)
      return reportFailure(rewriter, op, "expects x1 and x2 of one rank >= 2");
    if (!type1.hasStaticShape() || !type2.hasStaticShape() ||
        type1.getShape().drop_back(2) != type2.getShape().drop_back(2))
      return reportFailure(rewriter, op,
                           "unsupported: dynamic or broadcast batch dims");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element) || type1.getElementType() != element ||
        type2.getElementType() != element)
      return reportFailure(rewriter, op, "unsupported: non-float inputs");
    double p;
    if (!matchTorchConstantFloat(op.getP(), p) || p < 0)
      return reportFailure(rewriter, op, "p must be a non-negative constant");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    int64_t batch = rank - 2;
    // Loops: batch..., i, j, m.
    auto dim = [&](int64_t i) { return getAffineDimExpr(i, context); };
    SmallVector<AffineExpr> e1, e2;
    for (int64_t i = 0; i < batch; ++i) {
      e1.push_back(dim(i));
      e2.push_back(dim(i));
    }
    e1.append({dim(batch), dim(rank)});
    e2.append({dim(batch + 1), dim(rank)});
    Value zeros = createZeroFilled(rewriter, loc, resultType);
    Value reduced =
        createWindowGeneric(rewriter, loc, {x1, x2},
                            {AffineMap::get(rank + 1, 0, e1, context),
                             AffineMap::get(rank + 1, 0, e2, context)},
                            {zeros}, {type1.getDimSize(rank - 1)},
                            [&](OpBuilder &b, Location l,
                                ValueRange args) -> SmallVector<Value> {
                              return {accumulateDistance(
                                  b, l, args.back(),
                                  arith::SubFOp::create(b, l, args[0], args[1]),
                                  p)};
                            })
            .front();
    rewriter.replaceOp(
        op, createElementwise(rewriter, loc, resultType, {reduced},
                              [&](OpBuilder &b, Location l, ValueRange args) {
                                return finishDistance(b, l, args[0], p);
                              }));
    return success();
  }
};

/// _pdist_forward(x [N, M], p): the p-norm distances of rows i < j, in
/// row-major (i, j) order; the (i, j) pairs are constant vectors.
struct ConvertPdistForward : OpConversionPattern<Aten_PdistForwardOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Aten_PdistForwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value x = adaptor.getSelf();
    auto type = cast<RankedTensorType>(x.getType());
    if (!resultType || type.getRank() != 2 || !type.hasStaticShape())
      return reportFailure(rewriter, op, "expects a static 2-D input");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element) || type.getElementType() != element)
      return reportFailure(rewriter, op, "unsupported: non-float input");
    double p;
    if (!matchTorchConstantFloat(op.getP(), p) || p < 0)
      return reportFailure(rewriter, op, "p must be a non-negative constant");
    int64_t rows = type.getDimSize(0);
    SmallVector<double> first, second;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = i + 1; j < rows; ++j) {
        first.push_back(i);
        second.push_back(j);
      }
    if (resultType.getRank() != 1 || resultType.isDynamicDim(0) ||
        resultType.getDimSize(0) != static_cast<int64_t>(first.size()))
      return reportFailure(rewriter, op, "result size is not N * (N - 1) / 2");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    AffineMap pairMap =
        AffineMap::get(2, 0, {getAffineDimExpr(0, context)}, context);
    Value reduced =
        createWindowGeneric(
            rewriter, loc,
            {createConstantVector(rewriter, loc, rewriter.getIndexType(),
                                  first),
             createConstantVector(rewriter, loc, rewriter.getIndexType(),
                                  second)},
            {pairMap, pairMap}, {createZeroFilled(rewriter, loc, resultType)},
            {type.getDimSize(1)},
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              Value m = linalg::IndexOp::create(b, l, 1);
              Value a =
                  tensor::ExtractOp::create(b, l, x, ValueRange{args[0], m});
              Value c =
                  tensor::ExtractOp::create(b, l, x, ValueRange{args[1], m});
              return {accumulateDistance(b, l, args.back(),
                                         arith::SubFOp::create(b, l, a, c), p)};
            })
            .front();
    rewriter.replaceOp(
        op, createElementwise(rewriter, loc, resultType, {reduced},
                              [&](OpBuilder &b, Location l, ValueRange args) {
                                return finishDistance(b, l, args[0], p);
                              }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// col2im
//===----------------------------------------------------------------------===//

/// col2im(x [N, C*kh*kw, L], output_size, kernel, dilation, padding,
/// stride): the sum of the sliding blocks (fold), in opmath. Output (c, h, w)
/// adds, over the taps (i, j) in order, x[c*kh*kw + i*kw + j, bh*nbw + bw]
/// where h + pad - i*dilation = bh*stride (and likewise for w) lands on a
/// block.
struct ConvertCol2Im : OpConversionPattern<AtenCol2imOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCol2imOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    if (!resultType || (rank != 2 && rank != 3) ||
        resultType.getRank() != rank + 1)
      return reportFailure(rewriter, op, "expects a 2-D or 3-D input");
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: dynamic shapes");
    SmallVector<int64_t> size, kernel, dilation, padding, stride;
    if (failed(matchIntList(op.getOutputSize(), 2, size)) ||
        failed(matchIntList(op.getKernelSize(), 2, kernel)) ||
        failed(matchIntList(op.getDilation(), 2, dilation)) ||
        failed(matchIntList(op.getPadding(), 2, padding)) ||
        failed(matchIntList(op.getStride(), 2, stride)))
      return reportFailure(rewriter, op,
                           "output_size, kernel_size, dilation, padding and "
                           "stride must be constants");
    SmallVector<int64_t> blocks;
    for (int i = 0; i < 2; ++i) {
      if (kernel[i] <= 0 || dilation[i] <= 0 || stride[i] <= 0 ||
          padding[i] < 0)
        return reportFailure(rewriter, op, "invalid col2im parameters");
      blocks.push_back(
          (size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) /
              stride[i] +
          1);
    }
    if (inputType.getDimSize(rank - 1) != blocks[0] * blocks[1] ||
        inputType.getDimSize(rank - 2) % (kernel[0] * kernel[1]) != 0)
      return reportFailure(rewriter, op, "input sizes do not match the blocks");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op,
                           "unsupported: col2im of integers (PyTorch has no "
                           "integer kernel)");
    Type acc = getOpMathType(element);
    Location loc = op.getLoc();
    int64_t lead = rank - 2; // 1 when batched
    auto accType = RankedTensorType::get(resultType.getShape(), acc);
    Value sum =
        createWindowGeneric(
            rewriter, loc, {}, {}, {createZeroFilled(rewriter, loc, accType)},
            kernel,
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              SmallVector<Value> position;
              for (int64_t i = 0; i < lead; ++i)
                position.push_back(linalg::IndexOp::create(b, l, i));
              Value c = linalg::IndexOp::create(b, l, lead);
              Value valid =
                  arith::ConstantOp::create(b, l, b.getBoolAttr(true));
              Value zero = cstIndex(b, l, 0);
              SmallVector<Value> blockIndex;
              for (int64_t i = 0; i < 2; ++i) {
                Value out = linalg::IndexOp::create(b, l, lead + 1 + i);
                Value tap = linalg::IndexOp::create(b, l, lead + 3 + i);
                Value shifted = arith::SubIOp::create(
                    b, l,
                    arith::AddIOp::create(b, l, out,
                                          cstIndex(b, l, padding[i])),
                    arith::MulIOp::create(b, l, tap,
                                          cstIndex(b, l, dilation[i])));
                Value q = arith::DivSIOp::create(b, l, shifted,
                                                 cstIndex(b, l, stride[i]));
                Value r = arith::RemSIOp::create(b, l, shifted,
                                                 cstIndex(b, l, stride[i]));
                Value inside = arith::AndIOp::create(
                    b, l,
                    arith::AndIOp::create(
                        b, l,
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                                              shifted, zero),
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, r,
                                              zero)),
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, q,
                                          cstIndex(b, l, blocks[i])));
                valid = arith::AndIOp::create(b, l, valid, inside);
                blockIndex.push_back(
                    arith::SelectOp::create(b, l, inside, q, zero));
              }
              Value tapH = linalg::IndexOp::create(b, l, lead + 3);
              Value tapW = linalg::IndexOp::create(b, l, lead + 4);
              Value row = arith::AddIOp::create(
                  b, l,
                  arith::MulIOp::create(b, l, c,
                                        cstIndex(b, l, kernel[0] * kernel[1])),
                  arith::AddIOp::create(
                      b, l,
                      arith::MulIOp::create(b, l, tapH,
                                            cstIndex(b, l, kernel[1])),
                      tapW));
              Value column = arith::AddIOp::create(
                  b, l,
                  arith::MulIOp::create(b, l, blockIndex[0],
                                        cstIndex(b, l, blocks[1])),
                  blockIndex[1]);
              position.push_back(row);
              position.push_back(column);
              Value value = tensor::ExtractOp::create(b, l, input, position);
              Value updated = arith::AddFOp::create(
                  b, l, args.back(), castFloat(b, l, value, acc));
              return {
                  arith::SelectOp::create(b, l, valid, updated, args.back())};
            })
            .front();
    if (acc != element)
      sum = castTensor(rewriter, loc, sum, resultType);
    rewriter.replaceOp(op, sum);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateNNPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<
      AtenReflectionPad1dOp, AtenReflectionPad2dOp, AtenReflectionPad3dOp,
      AtenReplicationPad1dOp, AtenReplicationPad2dOp, AtenReplicationPad3dOp,
      AtenMaxPool2dWithIndicesOp, AtenMaxPool3dWithIndicesOp, AtenAvgPool1dOp,
      AtenAvgPool2dOp, AtenAvgPool3dOp, AtenAdaptiveAvgPool1dOp,
      Aten_AdaptiveAvgPool2dOp, Aten_AdaptiveAvgPool3dOp, AtenNativeGroupNormOp,
      Aten_NativeBatchNormLegitNoStatsOp, Aten_NativeBatchNormLegitFunctionalOp,
      AtenUpsampleNearest2dVecOp, AtenUpsampleBilinear2dVecOp,
      AtenGridSampler2dOp, Aten_EmbeddingBagOp, Aten_EmbeddingBagForwardOnlyOp,
      Aten_CdistForwardOp, Aten_PdistForwardOp, AtenCol2imOp>();
  patterns.add<
      ConvertPadNd<AtenReflectionPad1dOp, 1, true>,
      ConvertPadNd<AtenReflectionPad2dOp, 2, true>,
      ConvertPadNd<AtenReflectionPad3dOp, 3, true>,
      ConvertPadNd<AtenReplicationPad1dOp, 1, false>,
      ConvertPadNd<AtenReplicationPad2dOp, 2, false>,
      ConvertPadNd<AtenReplicationPad3dOp, 3, false>,
      ConvertMaxPoolWithIndices<AtenMaxPool2dWithIndicesOp, 2>,
      ConvertMaxPoolWithIndices<AtenMaxPool3dWithIndicesOp, 3>,
      ConvertAvgPoolNd<AtenAvgPool1dOp, 1>,
      ConvertAvgPoolNd<AtenAvgPool2dOp, 2>,
      ConvertAvgPoolNd<AtenAvgPool3dOp, 3>,
      ConvertAdaptiveAvgPool<AtenAdaptiveAvgPool1dOp, 1>,
      ConvertAdaptiveAvgPool<Aten_AdaptiveAvgPool2dOp, 2>,
      ConvertAdaptiveAvgPool<Aten_AdaptiveAvgPool3dOp, 3>,
      ConvertNativeGroupNorm,
      ConvertBatchNormTraining<Aten_NativeBatchNormLegitNoStatsOp, false>,
      ConvertBatchNormTraining<Aten_NativeBatchNormLegitFunctionalOp, true>,
      ConvertUpsampleNearest2d, ConvertUpsampleBilinear2d, ConvertGridSampler2d,
      ConvertEmbeddingBag<Aten_EmbeddingBagOp>,
      ConvertEmbeddingBag<Aten_EmbeddingBagForwardOnlyOp>, ConvertCdistForward,
      ConvertPdistForward, ConvertCol2Im>(typeConverter, context);
}
