//===- Shapes.cpp - Views, transposes and identities ----------------------===//
//
// Part of the torch2mlir project.
//
// Ops that only reshape, permute or pass their operand on: views,
// transposes, identities (contiguous, detach, dropout in eval), to.dtype,
// and split_with_sizes into slices.
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
// Shapes
//===----------------------------------------------------------------------===//

/// t(x): permute [1, 0] for rank 2, identity below.
struct DecomposeAtenT : OpRewritePattern<AtenTOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenTOp op,
                                PatternRewriter &rewriter) const override {
    auto type = getRankedTensorType(op.getSelf());
    if (!type)
      return rewriter.notifyMatchFailure(op, "needs a known rank");
    if (type.getSizes().size() < 2) {
      if (op.getSelf().getType() != op.getType())
        return rewriter.notifyMatchFailure(op, "result type differs");
      rewriter.replaceOp(op, op.getSelf());
      return success();
    }
    rewriter.replaceOpWithNewOp<AtenPermuteOp>(
        op, op.getType(), op.getSelf(),
        createIntList(rewriter, op.getLoc(), {1, 0}));
    return success();
  }
};

/// transpose(x, a, b): the permutation that swaps a and b.
struct DecomposeAtenTransposeInt : OpRewritePattern<AtenTransposeIntOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenTransposeIntOp op,
                                PatternRewriter &rewriter) const override {
    auto type = getRankedTensorType(op.getSelf());
    int64_t dim0, dim1;
    if (!type)
      return rewriter.notifyMatchFailure(op, "needs a known rank");
    if (!matchTorchConstantInt(op.getDim0(), dim0) ||
        !matchTorchConstantInt(op.getDim1(), dim1))
      return rewriter.notifyMatchFailure(op, "dims must be constants");
    int64_t rank = type.getSizes().size();
    dim0 = toPositiveDim(dim0, rank);
    dim1 = toPositiveDim(dim1, rank);
    if (dim0 < 0 || dim1 < 0)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, std::max<int64_t>(rank, 1)));
    if (rank == 0)
      permutation.clear();
    else
      std::swap(permutation[dim0], permutation[dim1]);
    rewriter.replaceOpWithNewOp<AtenPermuteOp>(
        op, op.getType(), op.getSelf(),
        createIntList(rewriter, op.getLoc(), permutation));
    return success();
  }
};

/// Ops that are `aten.view` under value semantics, given the result sizes.
template <typename OpTy> struct DecomposeToView : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto resultType = getRankedTensorType(op.getResult());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "needs known result sizes");
    if (llvm::count(resultType.getSizes(), kUnknownSize) > 1)
      return rewriter.notifyMatchFailure(op, "more than one unknown size");
    rewriter.replaceOpWithNewOp<AtenViewOp>(
        op, resultType, op.getSelf(),
        createIntList(rewriter, op.getLoc(), resultType.getSizes()));
    return success();
  }
};

/// Per result dim of a squeeze or unsqueeze of a tensor of `inputSizes` into
/// one of rank `resultRank`, the input dim it is (-1: an inserted 1), or
/// failure when that is not known at compile time. `op`'s dims decide:
/// unsqueeze inserts its dim; squeeze.dim(s) remove their dims whose size
/// is 1 (an unknown one may or may not be: failure); squeeze removes every
/// dim of size 1 (unknown ones stay).
static FailureOr<SmallVector<int64_t>>
getViewSourceDims(Operation *op, ArrayRef<int64_t> inputSizes,
                  int64_t resultRank) {
  int64_t rank = static_cast<int64_t>(inputSizes.size());
  SmallVector<int64_t> source;
  if (auto unsqueeze = dyn_cast<AtenUnsqueezeOp>(op)) {
    int64_t dim;
    if (!matchTorchConstantInt(unsqueeze.getDim(), dim))
      return failure();
    dim = toPositiveDim(dim, rank + 1);
    if (dim < 0)
      return failure();
    for (int64_t i = 0; i <= rank; ++i)
      source.push_back(i < dim ? i : i == dim ? -1 : i - 1);
    return source;
  }
  SmallVector<int64_t> dims;
  if (auto squeeze = dyn_cast<AtenSqueezeDimOp>(op)) {
    int64_t dim;
    if (!matchTorchConstantInt(squeeze.getDim(), dim))
      return failure();
    dims.push_back(dim);
  } else if (auto squeeze = dyn_cast<AtenSqueezeDimsOp>(op)) {
    if (!matchTorchConstantIntList(squeeze.getDim(), dims))
      return failure();
  } else if (isa<AtenSqueezeOp>(op)) {
    dims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  } else {
    return failure();
  }
  llvm::SmallDenseSet<int64_t> removed;
  for (int64_t dim : dims) {
    int64_t d = toPositiveDim(dim, std::max<int64_t>(rank, 1));
    if (d < 0 || (rank > 0 && d >= rank))
      return failure();
    if (rank == 0 || inputSizes[d] == 1)
      removed.insert(d);
    else if (inputSizes[d] == kUnknownSize && !isa<AtenSqueezeOp>(op))
      return failure();
  }
  for (int64_t i = 0; i < rank; ++i)
    if (!removed.contains(i))
      source.push_back(i);
  if (static_cast<int64_t>(source.size()) != resultRank)
    return failure();
  return source;
}

/// unsqueeze and squeeze with several unknown sizes: aten.view to a size
/// list whose unknown entries are aten.size.int of the input dim they come
/// from (getViewSourceDims; DecomposeToView handles at most one unknown
/// size, which view infers).
template <typename OpTy>
struct DecomposeDynamicSqueeze : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto resultType = getRankedTensorType(op.getResult());
    auto inputType = getRankedTensorType(op.getSelf());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "needs known sizes");
    ArrayRef<int64_t> sizes = resultType.getSizes();
    if (llvm::count(sizes, kUnknownSize) <= 1)
      return rewriter.notifyMatchFailure(
          op, "at most one unknown size: DecomposeToView handles it");
    FailureOr<SmallVector<int64_t>> source = getViewSourceDims(
        op, inputType.getSizes(), static_cast<int64_t>(sizes.size()));
    if (failed(source))
      return rewriter.notifyMatchFailure(
          op, "which dims are removed or inserted is not known");
    Location loc = op.getLoc();
    SmallVector<Value> elements;
    for (auto [size, from] : llvm::zip(sizes, *source))
      elements.push_back(
          size != kUnknownSize || from < 0
              ? createConstantInt(rewriter, loc,
                                  size == kUnknownSize ? 1 : size)
              : createSize(rewriter, loc, op.getSelf(), from));
    Value list = PrimListConstructOp::create(
        rewriter, loc, ListType::get(IntType::get(rewriter.getContext())),
        elements);
    rewriter.replaceOpWithNewOp<AtenViewOp>(op, resultType, op.getSelf(), list);
    return success();
  }
};

/// Ops that return their operand under value semantics.
template <typename OpTy> struct DecomposeToIdentity : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value input = op->getOperand(0);
    if (input.getType() != op->getResult(0).getType())
      return rewriter.notifyMatchFailure(op, "result type differs from input");
    rewriter.replaceOp(op, input);
    return success();
  }
};

/// dropout(x, p, train=False) = x.
struct DecomposeAtenDropout : OpRewritePattern<AtenDropoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenDropoutOp op,
                                PatternRewriter &rewriter) const override {
    bool train;
    if (!matchTorchConstantBool(op.getTrain(), train) || train)
      return rewriter.notifyMatchFailure(op, "unsupported: training dropout");
    if (op.getInput().getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "result type differs from input");
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
};

/// to.dtype(x, dtype, non_blocking, copy, memory_format) is a cast:
/// _to_copy(x, dtype=dtype, memory_format=memory_format).
struct DecomposeAtenToDtype : OpRewritePattern<AtenToDtypeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenToDtypeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value none = ConstantNoneOp::create(rewriter, loc);
    rewriter.replaceOpWithNewOp<Aten_ToCopyOp>(
        op, op.getType(), op.getSelf(), op.getDtype(), none, none, none,
        op.getNonBlocking(), op.getMemoryFormat());
    return success();
  }
};

/// The parts of split_with_sizes(x, sizes, dim), unpacked: one slice.Tensor
/// per part, [offset, offset + size) along dim.
struct DecomposeAtenSplitWithSizes : OpRewritePattern<PrimListUnpackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PrimListUnpackOp op,
                                PatternRewriter &rewriter) const override {
    auto split = op.getOperand().getDefiningOp<AtenSplitWithSizesOp>();
    if (!split)
      return rewriter.notifyMatchFailure(op, "not a split_with_sizes");
    SmallVector<int64_t> sizes;
    if (!matchTorchConstantIntList(split.getSplitSizes(), sizes) ||
        sizes.size() != op.getNumResults())
      return rewriter.notifyMatchFailure(
          op, "unsupported: split sizes that are not constants, one per part");
    Location loc = op.getLoc();
    Value step = createConstantInt(rewriter, loc, 1);
    SmallVector<Value> parts;
    int64_t offset = 0;
    for (auto [result, size] : llvm::zip(op.getResults(), sizes)) {
      parts.push_back(AtenSliceTensorOp::create(
          rewriter, loc, result.getType(), split.getSelf(), split.getDim(),
          createConstantInt(rewriter, loc, offset),
          createConstantInt(rewriter, loc, offset + size), step));
      offset += size;
    }
    rewriter.replaceOp(op, parts);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::torch::decompose::populateShapeDecompositions(
    DecompositionPatterns &set) {
  set.add<DecomposeAtenT, AtenTOp>();
  set.add<DecomposeAtenTransposeInt, AtenTransposeIntOp>();
  set.add<DecomposeToView<AtenReshapeOp>, AtenReshapeOp>();
  set.add<DecomposeToView<Aten_UnsafeViewOp>, Aten_UnsafeViewOp>();
  set.add<DecomposeToView<AtenFlattenUsingIntsOp>, AtenFlattenUsingIntsOp>();
  set.add<DecomposeToView<AtenUnsqueezeOp>, AtenUnsqueezeOp>();
  set.add<DecomposeDynamicSqueeze<AtenUnsqueezeOp>, AtenUnsqueezeOp>();
  set.add<DecomposeToView<AtenSqueezeOp>, AtenSqueezeOp>();
  set.add<DecomposeDynamicSqueeze<AtenSqueezeOp>, AtenSqueezeOp>();
  set.add<DecomposeToView<AtenSqueezeDimOp>, AtenSqueezeDimOp>();
  set.add<DecomposeDynamicSqueeze<AtenSqueezeDimOp>, AtenSqueezeDimOp>();
  set.add<DecomposeToView<AtenSqueezeDimsOp>, AtenSqueezeDimsOp>();
  set.add<DecomposeDynamicSqueeze<AtenSqueezeDimsOp>, AtenSqueezeDimsOp>();
  set.add<DecomposeToIdentity<AtenContiguousOp>, AtenContiguousOp>();
  set.add<DecomposeToIdentity<AtenDetachOp>, AtenDetachOp>();
  set.add<DecomposeToIdentity<AtenAliasOp>, AtenAliasOp>();
  set.add<DecomposeAtenDropout, AtenDropoutOp>();
  set.add<DecomposeAtenToDtype, AtenToDtypeOp>();
  set.add<DecomposeAtenSplitWithSizes, AtenSplitWithSizesOp>();
}
