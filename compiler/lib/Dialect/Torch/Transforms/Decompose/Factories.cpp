//===- Factories.cpp - Factories and scalar operands ----------------------===//
//
// Part of the torch2mlir project.
//
// zeros/ones/arange into full and arange.start_step; where, rsub and
// min/max with a Scalar operand into their tensor forms.
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
// Factories, where and min/max with Scalar or default operands
//===----------------------------------------------------------------------===//

/// zeros(size, ...) = full(size, 0, ...) and ones(size, ...) = full(size, 1,
/// ...): the fill value is cast to the result dtype, which the op keeps.
template <typename OpTy, int64_t FillValue>
struct DecomposeConstantFactory : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value fill = createConstantInt(rewriter, op.getLoc(), FillValue);
    rewriter.replaceOpWithNewOp<AtenFullOp>(op, op.getType(), op.getSize(),
                                            fill, op.getDtype(), op.getLayout(),
                                            op.getDevice(), op.getPinMemory());
    return success();
  }
};

/// arange(end, ...) = arange.start_step(0, end, 1, ...).
struct DecomposeAtenArange : OpRewritePattern<AtenArangeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenArangeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<AtenArangeStartStepOp>(
        op, op.getType(), createConstantInt(rewriter, loc, 0), op.getEnd(),
        createConstantInt(rewriter, loc, 1), op.getDtype(), op.getLayout(),
        op.getDevice(), op.getPinMemory());
    return success();
  }
};

/// arange.start(start, end, ...) = arange.start_step(start, end, 1, ...).
struct DecomposeAtenArangeStart : OpRewritePattern<AtenArangeStartOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenArangeStartOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<AtenArangeStartStepOp>(
        op, op.getType(), op.getStart(), op.getEnd(),
        createConstantInt(rewriter, op.getLoc(), 1), op.getDtype(),
        op.getLayout(), op.getDevice(), op.getPinMemory());
    return success();
  }
};

/// A 0-d tensor of `scalar` in the dtype of `like` (a ranked tensor type):
/// scalar_tensor(scalar, dtype=like's dtype).
static FailureOr<Value> createScalarTensorLike(PatternRewriter &rewriter,
                                               Location loc, Value scalar,
                                               BaseTensorType like) {
  std::optional<int64_t> code = getScalarTypeCode(like.getDtype());
  if (!code)
    return failure();
  auto type = like.getWithSizesAndDtype(ArrayRef<int64_t>{}, like.getDtype());
  Value none = createConstantNone(rewriter, loc);
  return AtenScalarTensorOp::create(rewriter, loc, type, scalar,
                                    createConstantInt(rewriter, loc, *code),
                                    none, none, none)
      .getResult();
}

/// where.ScalarOther(c, x, s) = where.self(c, x, scalar_tensor(s)) and
/// where.ScalarSelf(c, s, y) = where.self(c, scalar_tensor(s), y), the
/// scalar made a 0-d tensor of the result dtype (where.self casts its
/// operands to the result dtype, so the promotion of the op is kept).
template <typename OpTy, bool ScalarIsSelf>
struct DecomposeWhereScalar : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto resultType = getRankedTensorType(op.getResult());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "needs a known result type");
    Location loc = op.getLoc();
    Value scalar = ScalarIsSelf ? op.getSelf() : op.getOther();
    FailureOr<Value> tensor =
        createScalarTensorLike(rewriter, loc, scalar, resultType);
    if (failed(tensor))
      return rewriter.notifyMatchFailure(
          op, "unsupported: a result dtype with no PyTorch ScalarType code");
    Value self = ScalarIsSelf ? *tensor : op.getSelf();
    Value other = ScalarIsSelf ? op.getOther() : *tensor;
    rewriter.replaceOpWithNewOp<AtenWhereSelfOp>(
        op, resultType, op.getCondition(), self, other);
    return success();
  }
};

/// min.other(x, y) = minimum(x, y) and max.other(x, y) = maximum(x, y) (the
/// same elementwise op under an older name).
template <typename OpTy, typename ReplacementTy>
struct DecomposeToBinary : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ReplacementTy>(op, op.getType(), op.getSelf(),
                                               op.getOther());
    return success();
  }
};

} // namespace

void mlir::torch2mlir::torch::decompose::populateFactoryDecompositions(
    DecompositionPatterns &set) {
  set.add<DecomposeConstantFactory<AtenZerosOp, 0>, AtenZerosOp>();
  set.add<DecomposeConstantFactory<AtenOnesOp, 1>, AtenOnesOp>();
  set.add<DecomposeAtenArange, AtenArangeOp>();
  set.add<DecomposeAtenArangeStart, AtenArangeStartOp>();
  set.add<DecomposeWhereScalar<AtenWhereScalarOtherOp, false>,
          AtenWhereScalarOtherOp>();
  set.add<DecomposeWhereScalar<AtenWhereScalarSelfOp, true>,
          AtenWhereScalarSelfOp>();
  set.add<DecomposeToBinary<AtenMinOtherOp, AtenMinimumOp>, AtenMinOtherOp>();
  set.add<DecomposeToBinary<AtenMaxOtherOp, AtenMaximumOp>, AtenMaxOtherOp>();
}
