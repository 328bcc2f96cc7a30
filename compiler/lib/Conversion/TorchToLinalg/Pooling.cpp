//===- Pooling.cpp - Pooling ATen ops to linalg ---------------------------===//
//
// Part of the torch2mlir project.
//
// Max (with or without indices), average and adaptive average pooling over
// 1, 2 or 3 spatial dims. max_pool2d is linalg's named pooling op; the others
// are one linalg.generic over the result with a reduction loop per window
// dim, reading the input with tensor.extract. Pooled dims may be dynamic:
// the output sizes, the padding after the input and the windows are then
// computed at run time with the arithmetic of PyTorch's CPU kernels
// (getPooledSizes), the same the static path does at compile time.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// kernel_size, stride (empty: the kernel), padding and dilation of an N-d
/// pooling op, and the padding after the input that the output size needs
/// (more than `padding` with ceil_mode; `padding` where a pooled size is
/// dynamic, see createDynamicPoolSize).
struct PoolParams {
  SmallVector<int64_t> kernel, stride, padding, dilation, padHigh;
};

/// With `dynamicPooled`, pooled dims of unknown size are accepted (their
/// sizes are left to the run time: createDynamicPoolSize).
static LogicalResult
matchPoolParams(ConversionPatternRewriter &rewriter, Operation *op, int64_t d,
                Value kernel, Value stride, Value padding, Value dilation,
                Value input, RankedTensorType resultType, PoolParams &params,
                bool dynamicPooled = false) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  if ((rank != d + 1 && rank != d + 2) || resultType.getRank() != rank)
    return reportFailure(rewriter, op,
                         "expects an input of rank " + Twine(d + 1) + " or " +
                             Twine(d + 2));
  if (!dynamicPooled && (!hasStaticTrailingDims(inputType, rank - d) ||
                         !hasStaticTrailingDims(resultType, rank - d)))
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
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out)) {
      params.padHigh.push_back(params.padding[i]);
      continue;
    }
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

/// The output size of a pooled dim of run-time size `in` (an index), PyTorch's
/// pooling_output_shape: (in + 2p - span (+ stride - 1 with ceil_mode)) /
/// stride + 1, span = dilation * (kernel - 1) + 1; with ceil_mode, a last
/// window starting past the input and the padding before it is dropped. Also
/// the padding after the input that the last window needs: at least
/// `padding`, else (out - 1) * stride + span - in - padding.
static std::pair<Value, Value>
createDynamicPoolSize(OpBuilder &b, Location loc, Value in, int64_t kernel,
                      int64_t stride, int64_t padding, int64_t dilation,
                      bool ceilMode) {
  int64_t span = dilation * (kernel - 1) + 1;
  Value numerator = arith::AddIOp::create(
      b, loc, in,
      cstIndex(b, loc, 2 * padding - span + (ceilMode ? stride - 1 : 0)));
  Value out = arith::AddIOp::create(
      b, loc,
      arith::FloorDivSIOp::create(b, loc, numerator, cstIndex(b, loc, stride)),
      cstIndex(b, loc, 1));
  auto lastStart = [&](Value size) -> Value {
    return arith::MulIOp::create(
        b, loc, arith::SubIOp::create(b, loc, size, cstIndex(b, loc, 1)),
        cstIndex(b, loc, stride));
  };
  if (ceilMode) {
    Value pastEnd = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sge, lastStart(out),
        arith::AddIOp::create(b, loc, in, cstIndex(b, loc, padding)));
    out = arith::SelectOp::create(
        b, loc, pastEnd,
        arith::SubIOp::create(b, loc, out, cstIndex(b, loc, 1)), out);
  }
  Value needed = arith::SubIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, lastStart(out),
                            cstIndex(b, loc, span - padding)),
      in);
  Value padHigh =
      arith::MaxSIOp::create(b, loc, needed, cstIndex(b, loc, padding));
  return {out, padHigh};
}

/// The sizes a pooling of `input` into `resultType` over its last `d` dims
/// takes: per pooled dim the input size (a constant when static); per dim of
/// the input the padding before and after it (after a dynamic pooled size,
/// what createDynamicPoolSize gives); and the result's dynamic sizes (the
/// input's in the leading dims, createDynamicPoolSize's in pooled ones).
struct PooledSizes {
  SmallVector<OpFoldResult> in;
  SmallVector<OpFoldResult> low, high;
  SmallVector<Value> dynamicResultSizes;
};

static PooledSizes getPooledSizes(OpBuilder &b, Location loc, Value input,
                                  RankedTensorType resultType, int64_t d,
                                  const PoolParams &params, bool ceilMode) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank(), lead = rank - d;
  PooledSizes sizes;
  for (int64_t i = 0; i < rank; ++i) {
    bool dynamicIn = inputType.isDynamicDim(i);
    bool dynamicOut = resultType.isDynamicDim(i);
    OpFoldResult in =
        dynamicIn ? OpFoldResult(tensor::DimOp::create(b, loc, input, i))
                  : b.getIndexAttr(inputType.getDimSize(i));
    if (i < lead) {
      sizes.low.push_back(b.getIndexAttr(0));
      sizes.high.push_back(b.getIndexAttr(0));
      if (dynamicOut)
        sizes.dynamicResultSizes.push_back(
            getValueOrCreateConstantIndexOp(b, loc, in));
      continue;
    }
    int64_t j = i - lead;
    sizes.in.push_back(in);
    sizes.low.push_back(b.getIndexAttr(params.padding[j]));
    sizes.high.push_back(b.getIndexAttr(params.padHigh[j]));
    if (!dynamicIn && !dynamicOut)
      continue;
    auto [out, padHigh] = createDynamicPoolSize(
        b, loc, getValueOrCreateConstantIndexOp(b, loc, in), params.kernel[j],
        params.stride[j], params.padding[j], params.dilation[j], ceilMode);
    if (dynamicOut)
      sizes.dynamicResultSizes.push_back(out);
    sizes.high.back() = padHigh;
  }
  return sizes;
}

/// `size` + `offset` as an index value: a constant when `size` is one.
static Value addIndex(OpBuilder &b, Location loc, OpFoldResult size,
                      int64_t offset) {
  if (std::optional<int64_t> known = getConstantIntValue(size))
    return cstIndex(b, loc, *known + offset);
  Value value = cast<Value>(size);
  return offset == 0
             ? value
             : arith::AddIOp::create(b, loc, value, cstIndex(b, loc, offset))
                   .getResult();
}

/// ceil_mode of a pooling op over `input` into `resultType`: a constant, or
/// false when it cannot matter (every pooled size is static: the result's
/// sizes then say whether a window was added).
static LogicalResult matchCeilMode(ConversionPatternRewriter &rewriter,
                                   Operation *op, Value ceilModeValue,
                                   Value input, RankedTensorType resultType,
                                   int64_t d, bool &ceilMode) {
  ceilMode = false;
  if (matchTorchConstantBool(ceilModeValue, ceilMode))
    return success();
  int64_t rank = resultType.getRank();
  if (hasStaticTrailingDims(cast<RankedTensorType>(input.getType()),
                            rank - d) &&
      hasStaticTrailingDims(resultType, rank - d))
    return success();
  return reportFailure(rewriter, op,
                       "ceil_mode must be a constant when a pooled size is "
                       "dynamic");
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
    bool ceilMode;
    if (failed(matchPoolParams(rewriter, op, D, op.getKernelSize(),
                               op.getStride(), op.getPadding(),
                               op.getDilation(), input, resultType, params,
                               /*dynamicPooled=*/true)) ||
        failed(matchCeilMode(rewriter, op, op.getCeilMode(), input, resultType,
                             D, ceilMode)))
      return failure();
    if (indicesType.getShape() != resultType.getShape())
      return reportFailure(rewriter, op,
                           "the values and indices results differ in shape");
    Type element = resultType.getElementType();
    Type dtype = getTorchDtype(op.getSelf());
    if (!dtype || element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: max pooling of bools");
    bool isFloat = isa<mlir::FloatType>(element);
    bool isUnsigned = isUnsignedOrBool(dtype);
    Location loc = op.getLoc();
    int64_t rank = inputType.getRank();
    int64_t lead = rank - D;
    PooledSizes sizes =
        getPooledSizes(rewriter, loc, input, resultType, D, params, ceilMode);
    Value lowest = createExtremeValue(rewriter, loc, dtype, /*highest=*/false);
    Value values = createFilledWithSizes(rewriter, loc, resultType, lowest,
                                         sizes.dynamicResultSizes);
    Value indices = createFilledWithSizes(
        rewriter, loc, indicesType,
        arith::ConstantOp::create(rewriter, loc,
                                  rewriter.getI64IntegerAttr(-1)),
        sizes.dynamicResultSizes);
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
                                      addIndex(b, l, sizes.in[i], 0)));
            valid = arith::AndIOp::create(b, l, valid, inside);
            flat = arith::AddIOp::create(
                b, l,
                arith::MulIOp::create(b, l, flat,
                                      addIndex(b, l, sizes.in[i], 0)),
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

/// Replaces `op` by the average of `input` over all its dims from `lead` on
/// (a float pooling whose window is the whole input: one output per row):
/// row sums in the opmath type (createChunkedRowSums), divided by each of
/// `divisors` in turn (PyTorch's order), rounded to `resultType`. Fails,
/// creating nothing, when the row sums do not apply.
static LogicalResult
replaceWithGlobalAverage(ConversionPatternRewriter &rewriter, Operation *op,
                         Value input, int64_t lead, RankedTensorType resultType,
                         ArrayRef<int64_t> divisors) {
  Location loc = op->getLoc();
  Type element = resultType.getElementType();
  Type opMath = getOpMathType(element);
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  auto pooled = llvm::to_vector(llvm::seq<int64_t>(lead, rank));
  Value sums = createChunkedRowSums(rewriter, loc, input, pooled, opMath,
                                    /*srcUnsigned=*/false);
  if (!sums)
    return failure();
  auto sumsType = cast<RankedTensorType>(sums.getType());
  Value average = createElementwise(
      rewriter, loc, sumsType.clone(element), ValueRange{sums},
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value value = args[0];
        for (int64_t divisor : divisors)
          value = arith::DivFOp::create(
              b, l, value,
              arith::ConstantOp::create(b, l, b.getFloatAttr(opMath, divisor)));
        return castFloat(b, l, value, element);
      });
  Value reshaped = createReshape(rewriter, loc, average, resultType);
  if (!reshaped)
    return reportFailure(rewriter, op, kUnknownReshapeSizes);
  rewriter.replaceOp(op, reshaped);
  return success();
}

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
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    PoolParams params;
    bool ceilMode;
    if (failed(matchPoolParams(rewriter, op, D, op.getKernelSize(),
                               op.getStride(), op.getPadding(), Value(), input,
                               resultType, params, /*dynamicPooled=*/true)) ||
        failed(matchCeilMode(rewriter, op, op.getCeilMode(), input, resultType,
                             D, ceilMode)))
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
    // A global average (the window is the whole unpadded input, one output
    // per row): row sums (createChunkedRowSums) divided once.
    bool global =
        isFloat && ArrayRef<int64_t>(params.kernel) == ArrayRef(inSizes) &&
        llvm::all_of(params.padding, [](int64_t p) { return p == 0; }) &&
        llvm::all_of(params.padHigh, [](int64_t p) { return p == 0; }) &&
        llvm::all_of(resultType.getShape().drop_front(lead),
                     [](int64_t size) { return size == 1; });
    if (global) {
      int64_t divisor = divisorOverride;
      if (divisor == 0) {
        divisor = 1;
        for (int64_t size : inSizes)
          divisor *= size;
      }
      if (succeeded(replaceWithGlobalAverage(rewriter, op, input, lead,
                                             resultType, {divisor})))
        return success();
    }
    PooledSizes sizes =
        getPooledSizes(rewriter, loc, input, resultType, D, params, ceilMode);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    Value padded = createPad(rewriter, loc, input, sizes.low, sizes.high, zero);

    Type accType = isFloat ? getOpMathType(element) : element;
    auto accTensorType = RankedTensorType::get(resultType.getShape(), accType);
    Value accInit = createFilledWithSizes(
        rewriter, loc, accTensorType,
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(accType)),
        sizes.dynamicResultSizes);
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

    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         element, sizes.dynamicResultSizes);
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
                      addIndex(b, l, sizes.in[i], params.padding[i]));
                  if (!countIncludePad) {
                    start =
                        arith::MaxSIOp::create(b, l, start, cstIndex(b, l, 0));
                    end = arith::MinSIOp::create(
                        b, l, end, addIndex(b, l, sizes.in[i], 0));
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
    // The output sizes (output_size) must be known; the input's pooled
    // sizes may be dynamic.
    if (!hasStaticTrailingDims(resultType, rank - D))
      return reportFailure(rewriter, op,
                           "unsupported: dynamic output sizes (output_size "
                           "must be constant)");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op,
                           "unsupported: adaptive average pooling of integers");
    int64_t lead = rank - D;
    SmallVector<int64_t> inSizes(inputType.getShape().drop_front(lead));
    SmallVector<int64_t> outSizes(resultType.getShape().drop_front(lead));
    Location loc = op.getLoc();
    // Per pooled dim, the input size and the largest window: the exact one
    // when the size is static, else ceil(in / out) + 1, a bound on it
    // (positions past a window's end add nothing).
    for (int64_t i = 0; i < D; ++i)
      if (outSizes[i] <= 0 || inSizes[i] == 0)
        return reportFailure(rewriter, op,
                             "unsupported: empty input or output dims");
    SmallVector<OpFoldResult> in, window;
    for (int64_t i = 0; i < D; ++i) {
      int64_t out = outSizes[i];
      if (ShapedType::isDynamic(inSizes[i])) {
        Value size = tensor::DimOp::create(rewriter, loc, input, lead + i);
        in.push_back(size);
        window.push_back(
            addIndex(rewriter, loc,
                     arith::CeilDivUIOp::create(rewriter, loc, size,
                                                cstIndex(rewriter, loc, out))
                         .getResult(),
                     1));
        continue;
      }
      int64_t size = inSizes[i], largest = 0;
      for (int64_t o = 0; o < out; ++o)
        largest = std::max(largest,
                           ((o + 1) * size + out - 1) / out - (o * size) / out);
      in.push_back(rewriter.getIndexAttr(size));
      window.push_back(rewriter.getIndexAttr(largest));
    }
    Type accType = getOpMathType(element);
    // A global average (every pooled dim to 1): row sums over the pooled
    // dims (createChunkedRowSums), divided by each dim's size in turn.
    if (hasStaticTrailingDims(inputType, lead) &&
        llvm::all_of(outSizes, [](int64_t size) { return size == 1; }) &&
        succeeded(replaceWithGlobalAverage(rewriter, op, input, lead,
                                           resultType, inSizes)))
      return success();
    auto accTensorType = RankedTensorType::get(resultType.getShape(), accType);
    Value accInit = createZeroFilled(rewriter, loc, accTensorType, input);
    // [start, end) of output index `out` of spatial dim i: [floor(out * in /
    // O), ceil((out + 1) * in / O)).
    auto bounds = [&](OpBuilder &b, Location l, Value out, int64_t i) {
      Value start = arith::DivUIOp::create(
          b, l, arith::MulIOp::create(b, l, out, addIndex(b, l, in[i], 0)),
          cstIndex(b, l, outSizes[i]));
      Value next = arith::AddIOp::create(b, l, out, cstIndex(b, l, 1));
      Value end = arith::DivUIOp::create(
          b, l,
          arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, next, addIndex(b, l, in[i], 0)),
              cstIndex(b, l, outSizes[i] - 1)),
          cstIndex(b, l, outSizes[i]));
      return std::make_pair(start, end);
    };
    Value sum =
        createDynamicWindowGeneric(
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

/// max_pool2d: linalg.pooling_nchw_max over the input padded with -inf.
struct ConvertAtenMaxPool2d : OpConversionPattern<AtenMaxPool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenMaxPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (inputType.getRank() != 4 || resultType.getRank() != 4)
      return reportFailure(rewriter, op,
                           "unsupported: only batched NCHW input (rank 4)");
    bool ceilMode;
    if (!matchTorchConstantBool(op.getCeilMode(), ceilMode))
      return reportFailure(rewriter, op, "ceil_mode must be a constant");
    PoolParams params;
    if (failed(matchPoolParams(rewriter, op, 2, op.getKernelSize(),
                               op.getStride(), op.getPadding(),
                               op.getDilation(), input, resultType, params,
                               /*dynamicPooled=*/true)))
      return failure();
    Type element = resultType.getElementType();
    Type dtype = getTorchDtype(op.getSelf());
    if (element.isInteger(1) || (dtype && dtype.isUnsignedInteger()))
      return reportFailure(
          rewriter, op, "unsupported: max_pool2d of bool or unsigned tensors");
    Location loc = op.getLoc();
    Value lowest = createLowestValue(rewriter, loc, element);
    // The result's dynamic sizes: the batch and channels are the input's,
    // the pooled ones PyTorch's pooling_output_shape of the run-time sizes,
    // which also need the padding after the input to reach the last window.
    PooledSizes sizes =
        getPooledSizes(rewriter, loc, input, resultType, 2, params, ceilMode);
    Value padded =
        createPad(rewriter, loc, input, sizes.low, sizes.high, lowest);
    Value init = createFilledWithSizes(rewriter, loc, resultType, lowest,
                                       sizes.dynamicResultSizes);
    Value window =
        tensor::EmptyOp::create(rewriter, loc, params.kernel, element);
    rewriter.replaceOpWithNewOp<linalg::PoolingNchwMaxOp>(
        op, TypeRange{resultType}, ValueRange{padded, window}, ValueRange{init},
        rewriter.getI64TensorAttr(params.stride),
        rewriter.getI64TensorAttr(params.dilation));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populatePoolingPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenMaxPool2dOp, AtenMaxPool2dWithIndicesOp,
                    AtenMaxPool3dWithIndicesOp, AtenAvgPool1dOp,
                    AtenAvgPool2dOp, AtenAvgPool3dOp, AtenAdaptiveAvgPool1dOp,
                    Aten_AdaptiveAvgPool2dOp, Aten_AdaptiveAvgPool3dOp>(target);
  patterns.add<ConvertAtenMaxPool2d,
               ConvertMaxPoolWithIndices<AtenMaxPool2dWithIndicesOp, 2>,
               ConvertMaxPoolWithIndices<AtenMaxPool3dWithIndicesOp, 3>,
               ConvertAvgPoolNd<AtenAvgPool1dOp, 1>,
               ConvertAvgPoolNd<AtenAvgPool2dOp, 2>,
               ConvertAvgPoolNd<AtenAvgPool3dOp, 3>,
               ConvertAdaptiveAvgPool<AtenAdaptiveAvgPool1dOp, 1>,
               ConvertAdaptiveAvgPool<Aten_AdaptiveAvgPool2dOp, 2>,
               ConvertAdaptiveAvgPool<Aten_AdaptiveAvgPool3dOp, 3>>(
      typeConverter, context);
}
