//===- Reduction.cpp - ONNX reductions to ATen ----------------------------===//
//
// Part of the torch2mlir project.
//
// Reduce* ops take their axes as an attribute before opset 18 (13 for
// ReduceSum) and as an optional input after; an empty axes list reduces
// every dim, or none with noop_with_empty_axes=1 (then the reductions
// that transform their input first, such as ReduceSumSquare, still do).
// ReduceL1/L2/LogSum/LogSumExp/SumSquare are sums of transformed inputs.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

enum class ReduceKind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  LogSum,
  LogSumExp,
  SumSquare
};

/// Infers the reduced dims from static input and result sizes when
/// keepdims=1: the dims whose size changed (a size-1 dim reduces to
/// itself, so whether it is listed does not matter).
LogicalResult inferReduceAxes(ValueTensorType inputType,
                              ValueTensorType resultType,
                              SmallVectorImpl<int64_t> &axes) {
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  if (!inputType.areAllSizesKnown() || !resultType.areAllSizesKnown() ||
      in.size() != out.size())
    return failure();
  for (auto [d, sizes] : llvm::enumerate(llvm::zip_equal(in, out))) {
    auto [inSize, outSize] = sizes;
    if (inSize == outSize)
      continue;
    if (outSize != 1)
      return failure();
    axes.push_back(d);
  }
  return success();
}

/// Reads the reduced dims: normalized, sorted; every dim when the list is
/// empty, or none (`noop`) with noop_with_empty_axes=1. Axes computed at
/// run time are known when their input is empty, or inferred from the
/// static sizes when keepdims=1.
LogicalResult getReduceAxes(const OpBinder &binder, int64_t axesInputSince,
                            ValueTensorType inputType,
                            ValueTensorType resultType, bool keepdims,
                            SmallVectorImpl<int64_t> &axes, bool &noop) {
  noop = false;
  int64_t rank = inputType.getSizes().size();
  int64_t noopWithEmptyAxes;
  if (failed(binder.getInt("noop_with_empty_axes", noopWithEmptyAxes, 0)))
    return failure();
  if (binder.getOpsetVersion() >= axesInputSince) {
    Value axesInput = binder.getOperand(1);
    if (axesInput && failed(binder.getConstantInts(1, axes))) {
      auto axesType = getKnownTensorType(axesInput);
      bool isEmpty = axesType && axesType.getSizes().size() == 1 &&
                     axesType.getSizes()[0] == 0;
      if (!isEmpty) {
        if (!keepdims ||
            failed(inferReduceAxes(inputType, resultType, axes)))
          return failure();
        // Nothing changes size: an identity, whatever the axes were.
        noop = axes.empty();
        return success();
      }
    }
  } else if (failed(binder.getInts("axes", axes))) {
    return failure();
  }
  if (axes.empty()) {
    if (noopWithEmptyAxes) {
      noop = true;
      return success();
    }
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  for (int64_t &axis : axes)
    if (failed(normalizeAxis(axis, rank)))
      return failure();
  llvm::sort(axes);
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return success();
}

template <ReduceKind kind>
LogicalResult lowerReduce(const OpBinder &binder, PatternRewriter &rewriter,
                          int64_t axesInputSince) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known ranks and dtypes");
  SmallVector<int64_t> axes;
  bool noop;
  int64_t keepdims;
  if (failed(binder.getInt("keepdims", keepdims, 1)) ||
      failed(getReduceAxes(binder, axesInputSince, inputType, resultType,
                           keepdims, axes, noop)))
    return binder.fail(rewriter,
                       "unsupported: axes must be constant and in range (or, "
                       "with keepdims=1, follow from static sizes)");
  constexpr bool isFloatOnly = kind == ReduceKind::L2 ||
                               kind == ReduceKind::LogSum ||
                               kind == ReduceKind::LogSumExp;
  if (isFloatOnly && !isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  if (kind == ReduceKind::LogSumExp && !keepdims &&
      !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: keepdims=0 with a dynamic "
                                 "result");
  if (kind == ReduceKind::Prod && !noop && axes.size() != 1)
    return binder.fail(rewriter, "unsupported: ReduceProd over several axes");
  Location loc = binder.getLoc();
  Operation *op = binder.getOp();
  Value one = createConstantInt(rewriter, loc, 1);
  Value none = createConstantNone(rewriter, loc);
  auto square = [&](Value value) -> Value {
    return AtenMulTensorOp::create(rewriter, loc, value.getType(), value,
                                   value);
  };
  // The reduction of `value` (of x's type) to `type`, keeping dims or not.
  auto sum = [&](Value value, ValueTensorType type, bool keep) -> Value {
    if (noop)
      return value;
    return AtenSumDimIntListOp::create(rewriter, loc, type, value,
                                       createIntList(rewriter, loc, axes),
                                       createConstantBool(rewriter, loc, keep),
                                       none);
  };
  auto finish = [&](Value result) {
    if (result.getType() != resultType)
      result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  };
  // Types of x's sizes (for a noop) or the result's, in x's dtype.
  ValueTensorType reducedType = noop ? inputType : resultType;
  Value dims = createIntList(rewriter, loc, axes);
  Value keep = createConstantBool(rewriter, loc, keepdims);
  switch (kind) {
  case ReduceKind::Sum:
    return finish(sum(x, reducedType, keepdims));
  case ReduceKind::SumSquare:
    return finish(sum(square(x), reducedType, keepdims));
  case ReduceKind::L1:
    return finish(
        sum(AtenAbsOp::create(rewriter, loc, inputType, x), reducedType,
            keepdims));
  case ReduceKind::L2:
    return finish(AtenSqrtOp::create(rewriter, loc, reducedType,
                                     sum(square(x), reducedType, keepdims)));
  case ReduceKind::LogSum:
    return finish(AtenLogOp::create(rewriter, loc, reducedType,
                                    sum(x, reducedType, keepdims)));
  case ReduceKind::LogSumExp: {
    if (noop)
      return finish(AtenLogOp::create(
          rewriter, loc, inputType, AtenExpOp::create(rewriter, loc, inputType, x)));
    // log(sum(exp(x - m))) + m with m = amax(x), for stability.
    SmallVector<int64_t> keptSizes(inputType.getSizes());
    for (int64_t axis : axes)
      keptSizes[axis] = 1;
    auto keptType = withSizes(x, keptSizes);
    Value t = createConstantBool(rewriter, loc, true);
    Value max = AtenAmaxOp::create(rewriter, loc, keptType, x, dims, t);
    Value shifted = AtenSubTensorOp::create(rewriter, loc, inputType, x, max,
                                            one);
    Value sumExp = sum(AtenExpOp::create(rewriter, loc, inputType, shifted),
                       keptType, /*keep=*/true);
    Value result = AtenAddTensorOp::create(
        rewriter, loc, keptType,
        AtenLogOp::create(rewriter, loc, keptType, sumExp), max, one);
    if (!keepdims)
      result = createView(rewriter, loc, result, resultType.getSizes(),
                          resultType);
    return finish(result);
  }
  default:
    break;
  }
  if (noop)
    return finish(x);
  switch (kind) {
  case ReduceKind::Mean:
    rewriter.replaceOpWithNewOp<AtenMeanDimOp>(op, resultType, x, dims, keep,
                                               none);
    break;
  case ReduceKind::Max:
    rewriter.replaceOpWithNewOp<AtenAmaxOp>(op, resultType, x, dims, keep);
    break;
  case ReduceKind::Min:
    rewriter.replaceOpWithNewOp<AtenAminOp>(op, resultType, x, dims, keep);
    break;
  case ReduceKind::Prod:
    rewriter.replaceOpWithNewOp<AtenProdDimIntOp>(
        op, resultType, x, createConstantInt(rewriter, loc, axes[0]), keep,
        none);
    break;
  default:
    llvm_unreachable("handled above");
  }
  return success();
}

/// ArgMax / ArgMin. ATen picks the first extreme; select_last_index=1
/// picks the first of the input reversed along `axis` (index_select with
/// reversed indices) and maps it back: n - 1 - index.
template <typename AtenOp>
LogicalResult lowerArgReduce(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t axis, keepdims, selectLast;
  if (!inputType || !resultType || failed(binder.getInt("axis", axis, 0)) ||
      failed(binder.getInt("keepdims", keepdims, 1)) ||
      failed(binder.getInt("select_last_index", selectLast, 0)))
    return binder.fail(rewriter, "needs known sizes and int attributes");
  if (failed(normalizeAxis(axis, inputType.getSizes().size())))
    return binder.fail(rewriter, "axis out of range");
  int64_t n = inputType.getSizes()[axis];
  if (selectLast && n == kUnknownSize)
    return binder.fail(rewriter, "unsupported: select_last_index=1 along a "
                                 "dynamic dim");
  Location loc = binder.getLoc();
  Value dim = createConstantInt(rewriter, loc, axis);
  Value keep = createConstantBool(rewriter, loc, keepdims);
  if (!selectLast) {
    rewriter.replaceOpWithNewOp<AtenOp>(binder.getOp(), resultType, x, dim,
                                        keep);
    return success();
  }
  SmallVector<int64_t> reversed;
  for (int64_t i = n - 1; i >= 0; --i)
    reversed.push_back(i);
  MLIRContext *context = rewriter.getContext();
  Value indices = ValueTensorLiteralOp::create(
      rewriter, loc, getTensorType(context, {n}, getSi64Type(context)),
      DenseElementsAttr::get(RankedTensorType::get({n}, rewriter.getI64Type()),
                             ArrayRef<int64_t>(reversed)));
  Value flipped =
      AtenIndexSelectOp::create(rewriter, loc, inputType, x, dim, indices);
  Value index = AtenOp::create(rewriter, loc, resultType, flipped, dim, keep);
  rewriter.replaceOpWithNewOp<AtenRsubScalarOp>(
      binder.getOp(), resultType, index, createConstantInt(rewriter, loc, n - 1),
      createConstantInt(rewriter, loc, 1));
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxReductionLowerings(
    OnnxLoweringSet &lowerings) {
  auto reduce = [](auto lower, int64_t axesInputSince) {
    return [=](const OpBinder &binder, PatternRewriter &rewriter) {
      return lower(binder, rewriter, axesInputSince);
    };
  };
  lowerings.on("ReduceSum", 1, reduce(lowerReduce<ReduceKind::Sum>, 13));
  lowerings.on("ReduceMean", 1, reduce(lowerReduce<ReduceKind::Mean>, 18));
  lowerings.on("ReduceMax", 1, reduce(lowerReduce<ReduceKind::Max>, 18));
  lowerings.on("ReduceMin", 1, reduce(lowerReduce<ReduceKind::Min>, 18));
  lowerings.on("ReduceProd", 1, reduce(lowerReduce<ReduceKind::Prod>, 18));
  lowerings.on("ReduceL1", 1, reduce(lowerReduce<ReduceKind::L1>, 18));
  lowerings.on("ReduceL2", 1, reduce(lowerReduce<ReduceKind::L2>, 18));
  lowerings.on("ReduceLogSum", 1, reduce(lowerReduce<ReduceKind::LogSum>, 18));
  lowerings.on("ReduceLogSumExp", 1,
               reduce(lowerReduce<ReduceKind::LogSumExp>, 18));
  lowerings.on("ReduceSumSquare", 1,
               reduce(lowerReduce<ReduceKind::SumSquare>, 18));
  lowerings.on("ArgMax", 1, lowerArgReduce<AtenArgmaxOp>);
  lowerings.on("ArgMin", 1, lowerArgReduce<AtenArgminOp>);
}
