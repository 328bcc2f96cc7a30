//===- Loss.cpp - ONNX NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss -===//
//
// Part of the torch2mlir project.
//
// Both take scores [N, C, d1, ...] and class indices [N, d1, ...]:
//   loss[n, d] = -input[n, target[n, d], d] * w[n, d],
// where w is weight[target] (1 without weights) and 0 where target ==
// ignore_index; SoftmaxCrossEntropyLoss first takes log_softmax over C.
// reduction: "none" keeps loss, "sum" adds it up, "mean" divides the sum by
// the sum of w (which is the element count without weights and ignored
// indices). Ignored targets are replaced by 0 before gathering, so that
// they index in range.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

template <bool isSoftmaxCrossEntropy>
LogicalResult lowerLoss(const OpBinder &binder, PatternRewriter &rewriter) {
  Value scores = binder.getOperand(0), target = binder.getOperand(1),
        weight = binder.getOperand(2);
  auto scoresType = getKnownTensorType(scores);
  auto targetType = getKnownTensorType(target);
  auto resultType = binder.getResultType();
  if (!scoresType || !targetType || !resultType ||
      (weight && !getKnownTensorType(weight)))
    return binder.fail(rewriter, "needs known sizes and dtypes");
  if (!scoresType.areAllSizesKnown() || !targetType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: dynamic sizes");
  Type dtype = scoresType.getDtype();
  if (!isa<mlir::FloatType>(dtype) || !isa<IntegerType>(targetType.getDtype()))
    return binder.fail(rewriter, "needs float scores and integer targets");
  ArrayRef<int64_t> sizes = scoresType.getSizes();
  if (sizes.size() < 2)
    return binder.fail(rewriter, "the scores must have rank >= 2");
  std::string reduction;
  int64_t ignoreIndex;
  bool hasIgnoreIndex = binder.hasAttr("ignore_index");
  if (failed(binder.getString("reduction", reduction, "mean")) ||
      (hasIgnoreIndex && failed(binder.getInt("ignore_index", ignoreIndex))))
    return binder.fail(rewriter, "reduction must be a string, ignore_index "
                                 "an int");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return binder.fail(rewriter, "unsupported reduction '" + reduction + "'");
  ValueTensorType logProbType;
  if (isSoftmaxCrossEntropy && binder.getNumResults() > 1) {
    logProbType = binder.getResultType(1);
    if (!logProbType)
      return binder.fail(rewriter, "the log_prob output needs known sizes "
                                   "and dtype");
  }

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  Type i1 = rewriter.getI1Type();
  Value one = createConstantInt(rewriter, loc, 1);
  Value none = createConstantNone(rewriter, loc);
  ArrayRef<int64_t> targetSizes = targetType.getSizes();
  auto lossType = getTensorType(context, targetSizes, dtype);
  int64_t count = 1;
  for (int64_t size : targetSizes)
    count *= size;

  Value logProb = scores;
  if (isSoftmaxCrossEntropy)
    logProb = AtenLogSoftmaxIntOp::create(rewriter, loc, scoresType, scores,
                                          one, none);
  Value classes = createToDtype(rewriter, loc, target, si64);
  Value ignored;
  if (hasIgnoreIndex) {
    ignored = AtenEqScalarOp::create(
        rewriter, loc, getTensorType(context, targetSizes, i1), classes,
        createConstantInt(rewriter, loc, ignoreIndex));
    classes = AtenWhereSelfOp::create(
        rewriter, loc, getTensorType(context, targetSizes, si64), ignored,
        createScalarLiteral(rewriter, loc, si64, 0), classes);
  }
  // -logProb[n, classes[n, d], d].
  SmallVector<int64_t> indexSizes(targetSizes);
  indexSizes.insert(indexSizes.begin() + 1, 1);
  Value index = AtenUnsqueezeOp::create(
      rewriter, loc, getTensorType(context, indexSizes, si64), classes, one);
  Value picked = AtenGatherOp::create(
      rewriter, loc, getTensorType(context, indexSizes, dtype), logProb, one,
      index, createConstantBool(rewriter, loc, false));
  Value loss = AtenNegOp::create(
      rewriter, loc, lossType,
      AtenSqueezeDimOp::create(rewriter, loc, lossType, picked, one));
  // The per-element weights, when there are any.
  Value weights;
  if (weight) {
    auto flatType = getTensorType(context, {count}, si64);
    Value flat = createView(rewriter, loc, classes, {count}, flatType);
    Value selected = AtenIndexSelectOp::create(
        rewriter, loc, getTensorType(context, {count}, dtype), weight,
        createConstantInt(rewriter, loc, 0), flat);
    weights = createView(rewriter, loc, selected, targetSizes, lossType);
  }
  if (ignored)
    weights = AtenWhereSelfOp::create(
        rewriter, loc, lossType, ignored,
        createScalarLiteral(rewriter, loc, dtype, 0.0),
        weights ? weights : createScalarLiteral(rewriter, loc, dtype, 1.0));
  if (weights)
    loss = AtenMulTensorOp::create(rewriter, loc, lossType, loss, weights);

  auto scalarType = getTensorType(context, {}, dtype);
  if (reduction == "sum") {
    loss = AtenSumOp::create(rewriter, loc, scalarType, loss, none);
  } else if (reduction == "mean") {
    loss =
        weights
            ? AtenDivTensorOp::create(
                  rewriter, loc, scalarType,
                  AtenSumOp::create(rewriter, loc, scalarType, loss, none),
                  AtenSumOp::create(rewriter, loc, scalarType, weights, none))
                  .getResult()
            : AtenMeanOp::create(rewriter, loc, scalarType, loss, none)
                  .getResult();
  }
  if (loss.getType() != resultType)
    loss = TensorStaticInfoCastOp::create(rewriter, loc, resultType, loss);
  SmallVector<Value> results{loss};
  if (binder.getNumResults() > 1) {
    if (logProb.getType() != logProbType)
      logProb =
          TensorStaticInfoCastOp::create(rewriter, loc, logProbType, logProb);
    results.push_back(logProb);
  }
  rewriter.replaceOp(binder.getOp(), results);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxLossLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("NegativeLogLikelihoodLoss", 12,
               lowerLoss</*isSoftmaxCrossEntropy=*/false>);
  lowerings.on("SoftmaxCrossEntropyLoss", 12,
               lowerLoss</*isSoftmaxCrossEntropy=*/true>);
}
