//===- Reduction.cpp - ONNX reductions to ATen ----------------------------===//
//
// Part of the torch2mlir project.
//
// Reduce* ops take their axes as an attribute before opset 18 (13 for
// ReduceSum) and as an optional input after; an empty axes list reduces
// every dim, or none with noop_with_empty_axes=1.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

enum class ReduceKind { Sum, Mean, Max, Min, Prod };

/// Reads the reduced dims: normalized, sorted; `all` when every dim is.
LogicalResult getReduceAxes(const OpBinder &binder, int64_t axesInputSince,
                            int64_t rank, SmallVectorImpl<int64_t> &axes,
                            bool &noop) {
  noop = false;
  if (binder.getOpsetVersion() >= axesInputSince) {
    if (binder.getOperand(1) && failed(binder.getConstantInts(1, axes)))
      return failure();
  } else if (failed(binder.getInts("axes", axes))) {
    return failure();
  }
  int64_t noopWithEmptyAxes;
  if (failed(binder.getInt("noop_with_empty_axes", noopWithEmptyAxes, 0)))
    return failure();
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
  int64_t rank = inputType.getSizes().size();
  SmallVector<int64_t> axes;
  bool noop;
  int64_t keepdims;
  if (failed(getReduceAxes(binder, axesInputSince, rank, axes, noop)) ||
      failed(binder.getInt("keepdims", keepdims, 1)))
    return binder.fail(rewriter,
                       "unsupported: axes must be constant and in range");
  Location loc = binder.getLoc();
  if (noop) {
    Value result = x;
    if (result.getType() != resultType)
      result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, x);
    rewriter.replaceOp(binder.getOp(), result);
    return success();
  }
  Value dims = createIntList(rewriter, loc, axes);
  Value keep = createConstantBool(rewriter, loc, keepdims);
  Value none = createConstantNone(rewriter, loc);
  Operation *op = binder.getOp();
  switch (kind) {
  case ReduceKind::Sum:
    rewriter.replaceOpWithNewOp<AtenSumDimIntListOp>(op, resultType, x, dims,
                                                     keep, none);
    break;
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
  case ReduceKind::Prod: {
    if (axes.size() != 1)
      return binder.fail(rewriter, "unsupported: ReduceProd over several axes");
    rewriter.replaceOpWithNewOp<AtenProdDimIntOp>(
        op, resultType, x, createConstantInt(rewriter, loc, axes[0]), keep,
        none);
    break;
  }
  }
  return success();
}

/// ArgMax / ArgMin (select_last_index=0 only, as ATen picks the first).
template <typename AtenOp>
LogicalResult lowerArgReduce(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto resultType = binder.getResultType();
  int64_t axis, keepdims, selectLast;
  if (!x || !resultType || failed(binder.getInt("axis", axis, 0)) ||
      failed(binder.getInt("keepdims", keepdims, 1)) ||
      failed(binder.getInt("select_last_index", selectLast, 0)))
    return binder.fail(rewriter, "needs known sizes and int attributes");
  if (selectLast)
    return binder.fail(rewriter, "unsupported: select_last_index=1");
  Location loc = binder.getLoc();
  rewriter.replaceOpWithNewOp<AtenOp>(binder.getOp(), resultType, x,
                                      createConstantInt(rewriter, loc, axis),
                                      createConstantBool(rewriter, loc, keepdims));
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
  lowerings.on("ArgMax", 1, lowerArgReduce<AtenArgmaxOp>);
  lowerings.on("ArgMin", 1, lowerArgReduce<AtenArgminOp>);
}
