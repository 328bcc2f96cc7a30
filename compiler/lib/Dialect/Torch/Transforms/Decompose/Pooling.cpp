//===- Pooling.cpp - Pooling ----------------------------------------------===//
//
// Part of the torch2mlir project.
//
// max_pool2d_with_indices without its indices into max_pool2d; adaptive
// average pooling into average pooling where the windows are uniform.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch::decompose;

namespace {

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// max_pool2d_with_indices whose indices are unused is max_pool2d.
struct DecomposeMaxPool2dWithIndices
    : OpRewritePattern<AtenMaxPool2dWithIndicesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenMaxPool2dWithIndicesOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getResult1().use_empty())
      return rewriter.notifyMatchFailure(
          op, "unsupported: max_pool2d_with_indices whose indices are used");
    // max_pool2d lowers batched input of signed elements only;
    // TorchToLinalg lowers max_pool2d_with_indices of the others.
    BaseTensorType selfType = getRankedTensorType(op.getSelf());
    if (!selfType || selfType.getSizes().size() != 4 ||
        selfType.getDtype().isUnsignedInteger() ||
        selfType.getDtype().isInteger(1))
      return rewriter.notifyMatchFailure(
          op, "kept: unbatched max_pool2d or unsigned or bool elements");
    Value pooled = AtenMaxPool2dOp::create(
        rewriter, op.getLoc(), op.getResult0().getType(), op.getSelf(),
        op.getKernelSize(), op.getStride(), op.getPadding(), op.getDilation(),
        op.getCeilMode());
    rewriter.replaceAllUsesWith(op.getResult0(), pooled);
    rewriter.eraseOp(op);
    return success();
  }
};

struct DecomposeAdaptiveAvgPool2d : OpRewritePattern<AtenAdaptiveAvgPool2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenAdaptiveAvgPool2dOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<Aten_AdaptiveAvgPool2dOp>(
        op, op.getType(), op.getSelf(), op.getOutputSize());
    return success();
  }
};

/// _adaptive_avg_pool2d where each input size is a multiple of the output
/// size: every window has the same size, so it is avg_pool2d with
/// kernel = stride = input / output.
struct DecomposeAdaptiveAvgPool2dToAvgPool
    : OpRewritePattern<Aten_AdaptiveAvgPool2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Aten_AdaptiveAvgPool2dOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getSelf());
    SmallVector<int64_t> outputSize;
    if (!inputType ||
        !matchTorchConstantIntList(op.getOutputSize(), outputSize))
      return rewriter.notifyMatchFailure(op, "needs known sizes");
    ArrayRef<int64_t> sizes = inputType.getSizes();
    if (sizes.size() < 2 || outputSize.size() != 2)
      return rewriter.notifyMatchFailure(op, "expects 2 spatial dims");
    SmallVector<int64_t> kernel;
    for (int i = 0; i < 2; ++i) {
      int64_t in = sizes[sizes.size() - 2 + i], out = outputSize[i];
      if (in == kUnknownSize || out <= 0 || in % out != 0)
        return rewriter.notifyMatchFailure(
            op, "unsupported: adaptive_avg_pool2d with an input size that is "
                "not a multiple of the output size");
      kernel.push_back(in / out);
    }
    Location loc = op.getLoc();
    Value kernelList = createIntList(rewriter, loc, kernel);
    Value falseValue = ConstantBoolOp::create(rewriter, loc, false);
    Value trueValue = ConstantBoolOp::create(rewriter, loc, true);
    Value none = ConstantNoneOp::create(rewriter, loc);
    rewriter.replaceOpWithNewOp<AtenAvgPool2dOp>(
        op, op.getType(), op.getSelf(), kernelList, kernelList,
        createIntList(rewriter, loc, {0, 0}), falseValue, trueValue, none);
    return success();
  }
};

/// rsub(x, s, alpha) = s - alpha * x = add.Scalar(neg(mul.Scalar(x, alpha)), s)
struct DecomposeAtenRsubScalar : OpRewritePattern<AtenRsubScalarOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenRsubScalarOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = getRankedTensorType(op.getResult());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "needs a known result type");
    Location loc = op.getLoc();
    Value scaled = AtenMulScalarOp::create(rewriter, loc, resultType,
                                           op.getSelf(), op.getAlpha());
    Value negated = AtenNegOp::create(rewriter, loc, resultType, scaled);
    rewriter.replaceOpWithNewOp<AtenAddScalarOp>(
        op, resultType, negated, op.getOther(),
        createConstantInt(rewriter, loc, 1));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::torch::decompose::populatePoolingDecompositions(
    DecompositionPatterns &set) {
  set.add<DecomposeMaxPool2dWithIndices, AtenMaxPool2dWithIndicesOp>();
  set.add<DecomposeAdaptiveAvgPool2d, AtenAdaptiveAvgPool2dOp>();
  set.add<DecomposeAdaptiveAvgPool2dToAvgPool, Aten_AdaptiveAvgPool2dOp>();
  set.add<DecomposeAtenRsubScalar, AtenRsubScalarOp>();
}
