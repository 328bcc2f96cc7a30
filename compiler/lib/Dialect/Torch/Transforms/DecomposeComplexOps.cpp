//===- DecomposeComplexOps.cpp - ATen ops in terms of simpler ones --------===//
//
// Part of the torch2mlir project.
//
// Each pattern rewrites one ATen op into ops that the backends lower
// directly, so that the op semantics are derived once here and not once per
// backend. A pattern only fires when it can compute every result type.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"
#include <cmath>
#include <limits>

namespace mlir::torch2mlir::torch {
#define GEN_PASS_DEF_DECOMPOSECOMPLEXOPS
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h.inc"
} // namespace mlir::torch2mlir::torch

using namespace mlir;
using namespace mlir::torch2mlir::torch;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The tensor type of `value` if it has known sizes and dtype.
static BaseTensorType getRankedTensorType(Value value) {
  auto type = dyn_cast<BaseTensorType>(value.getType());
  if (!type || !type.hasSizes() || !type.hasDtype())
    return nullptr;
  return type;
}

static int64_t productOfSizes(ArrayRef<int64_t> sizes) {
  int64_t product = 1;
  for (int64_t size : sizes) {
    if (size == kUnknownSize)
      return kUnknownSize;
    product *= size;
  }
  return product;
}

/// `aten.view` of `value` to `sizes` (at most one unknown size, given as -1).
static Value createView(PatternRewriter &rewriter, Location loc, Value value,
                        ArrayRef<int64_t> sizes) {
  auto type = cast<BaseTensorType>(value.getType());
  if (type.hasSizes() && type.getSizes() == sizes &&
      !llvm::is_contained(sizes, kUnknownSize))
    return value;
  auto resultType = type.getWithSizesAndDtype(sizes, type.getOptionalDtype());
  return AtenViewOp::create(rewriter, loc, resultType, value,
                            createIntList(rewriter, loc, sizes));
}

namespace {

//===----------------------------------------------------------------------===//
// Matmul family
//===----------------------------------------------------------------------===//

/// linear(x, w, b) = matmul(x, t(w)) + b
struct DecomposeAtenLinear : OpRewritePattern<AtenLinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLinearOp op,
                                PatternRewriter &rewriter) const override {
    auto weightType = getRankedTensorType(op.getWeight());
    auto resultType = getRankedTensorType(op.getResult());
    if (!weightType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known sizes and dtypes");
    if (weightType.getSizes().size() != 2)
      return rewriter.notifyMatchFailure(op,
                                         "unsupported: weight of rank != 2");
    Location loc = op.getLoc();
    ArrayRef<int64_t> w = weightType.getSizes();
    auto transposedType = weightType.getWithSizesAndDtype(
        ArrayRef<int64_t>{w[1], w[0]}, weightType.getDtype());
    Value transposed =
        AtenTOp::create(rewriter, loc, transposedType, op.getWeight());
    Value product = AtenMatmulOp::create(rewriter, loc, resultType,
                                         op.getInput(), transposed);
    if (isTorchNone(op.getBias())) {
      rewriter.replaceOp(op, product);
      return success();
    }
    rewriter.replaceOpWithNewOp<AtenAddTensorOp>(
        op, resultType, product, op.getBias(),
        createConstantInt(rewriter, loc, 1));
    return success();
  }
};

/// matmul by operand ranks: 2x2 -> mm, 3x3 (same batch) -> bmm,
/// Nx2 (N >= 3) -> view to 2-D, mm, view back; other ranks >= 2 broadcast
/// their batch dims (expand), flatten them and bmm; a 1-D operand becomes a
/// matrix (one row or one column) and the added dim is viewed away.
struct DecomposeAtenMatmul : OpRewritePattern<AtenMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenMatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto lhsType = getRankedTensorType(op.getSelf());
    auto rhsType = getRankedTensorType(op.getOther());
    auto resultType = getRankedTensorType(op.getResult());
    if (!lhsType || !rhsType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known sizes and dtypes");
    ArrayRef<int64_t> lhs = lhsType.getSizes(), rhs = rhsType.getSizes();
    Location loc = op.getLoc();
    if (lhs.size() == 2 && rhs.size() == 2) {
      rewriter.replaceOpWithNewOp<AtenMmOp>(op, resultType, op.getSelf(),
                                            op.getOther());
      return success();
    }
    if (lhs.size() == 3 && rhs.size() == 3 && lhs[0] == rhs[0] &&
        lhs[0] != kUnknownSize) {
      rewriter.replaceOpWithNewOp<AtenBmmOp>(op, resultType, op.getSelf(),
                                             op.getOther());
      return success();
    }
    if (lhs.size() >= 3 && rhs.size() == 2) {
      int64_t rows = productOfSizes(lhs.drop_back());
      if (rows == kUnknownSize || rhs[1] == kUnknownSize)
        return rewriter.notifyMatchFailure(op, "unsupported: unknown sizes");
      Value flat = createView(rewriter, loc, op.getSelf(), {rows, lhs.back()});
      auto mmType = resultType.getWithSizesAndDtype(
          ArrayRef<int64_t>{rows, rhs[1]}, resultType.getDtype());
      Value mm = AtenMmOp::create(rewriter, loc, mmType, flat, op.getOther());
      rewriter.replaceOpWithNewOp<AtenViewOp>(
          op, resultType, mm,
          createIntList(rewriter, loc, resultType.getSizes()));
      return success();
    }
    if (lhs.size() == rhs.size() && lhs.size() >= 3 &&
        (!lhsType.areAllSizesKnown() || !rhsType.areAllSizesKnown()))
      return decomposeDynamicBatched(op, lhs, rhs, resultType, rewriter);
    if (lhs.size() >= 2 && rhs.size() >= 2) {
      // Batch dims broadcast (as in torch.matmul): expand both operands to
      // the result's batch dims, flatten those, bmm, view back.
      if (!lhsType.areAllSizesKnown() || !rhsType.areAllSizesKnown() ||
          !resultType.areAllSizesKnown())
        return rewriter.notifyMatchFailure(
            op, "unsupported: broadcast batched matmul with unknown sizes");
      ArrayRef<int64_t> batch = resultType.getSizes().drop_back(2);
      int64_t batchSize = productOfSizes(batch);
      auto toBatched = [&](Value value, ArrayRef<int64_t> sizes) -> Value {
        SmallVector<int64_t> expanded(batch);
        expanded.append(sizes.end() - 2, sizes.end());
        if (ArrayRef<int64_t>(expanded) != sizes) {
          auto type = cast<BaseTensorType>(value.getType());
          value = AtenExpandOp::create(
              rewriter, loc,
              type.getWithSizesAndDtype(expanded, type.getOptionalDtype()),
              value, createIntList(rewriter, loc, expanded),
              createConstantBool(rewriter, loc, false));
        }
        return createView(rewriter, loc, value,
                          {batchSize, sizes[sizes.size() - 2], sizes.back()});
      };
      Value flatLhs = toBatched(op.getSelf(), lhs);
      Value flatRhs = toBatched(op.getOther(), rhs);
      auto bmmType = resultType.getWithSizesAndDtype(
          ArrayRef<int64_t>{batchSize, lhs[lhs.size() - 2], rhs.back()},
          resultType.getDtype());
      Value bmm = AtenBmmOp::create(rewriter, loc, bmmType, flatLhs, flatRhs);
      rewriter.replaceOpWithNewOp<AtenViewOp>(
          op, resultType, bmm,
          createIntList(rewriter, loc, resultType.getSizes()));
      return success();
    }
    if (lhs.size() == 1 || rhs.size() == 1)
      return decomposeVectorOperand(op, lhs, rhs, resultType, rewriter);
    return rewriter.notifyMatchFailure(op,
                                       "unsupported: matmul of a 0-D operand");
  }

  /// Operands of one rank (>= 3) with unknown sizes and the same batch
  /// dims (torch.export ties equal symbolic sizes together; a batch dim
  /// known on one side must be the same on the other): the batch dims
  /// flattened by views whose unknown sizes are read at run time
  /// (aten.size.int), bmm, and a view back to the result's sizes.
  LogicalResult decomposeDynamicBatched(AtenMatmulOp op, ArrayRef<int64_t> lhs,
                                        ArrayRef<int64_t> rhs,
                                        BaseTensorType resultType,
                                        PatternRewriter &rewriter) const {
    size_t rank = lhs.size();
    for (size_t i = 0; i + 2 < rank; ++i)
      if (lhs[i] != rhs[i])
        return rewriter.notifyMatchFailure(
            op, "unsupported: broadcast batch dims with unknown sizes");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto size = [&](Value tensor, ArrayRef<int64_t> sizes,
                    int64_t dim) -> Value {
      if (sizes[dim] != kUnknownSize)
        return createConstantInt(rewriter, loc, sizes[dim]);
      return AtenSizeIntOp::create(rewriter, loc, IntType::get(context), tensor,
                                   createConstantInt(rewriter, loc, dim));
    };
    auto intList = [&](ArrayRef<Value> elements) -> Value {
      return PrimListConstructOp::create(
          rewriter, loc, ListType::get(IntType::get(context)), elements);
    };
    Value batch = createConstantInt(rewriter, loc, 1);
    int64_t batchSize = 1;
    for (size_t i = 0; i + 2 < rank; ++i) {
      batch = AtenMulIntOp::create(rewriter, loc, IntType::get(context), batch,
                                   size(op.getSelf(), lhs, i));
      batchSize = (batchSize == kUnknownSize || lhs[i] == kUnknownSize)
                      ? kUnknownSize
                      : batchSize * lhs[i];
    }
    auto flatten = [&](Value tensor, ArrayRef<int64_t> sizes) -> Value {
      auto type = cast<BaseTensorType>(tensor.getType());
      SmallVector<int64_t> flat{batchSize, sizes[rank - 2], sizes[rank - 1]};
      return AtenViewOp::create(
          rewriter, loc,
          type.getWithSizesAndDtype(flat, type.getOptionalDtype()), tensor,
          intList({batch, size(tensor, sizes, rank - 2),
                   size(tensor, sizes, rank - 1)}));
    };
    Value flatLhs = flatten(op.getSelf(), lhs);
    Value flatRhs = flatten(op.getOther(), rhs);
    auto bmmType = resultType.getWithSizesAndDtype(
        ArrayRef<int64_t>{batchSize, lhs[rank - 2], rhs[rank - 1]},
        resultType.getDtype());
    Value bmm = AtenBmmOp::create(rewriter, loc, bmmType, flatLhs, flatRhs);
    SmallVector<Value> resultSizes;
    for (size_t i = 0; i + 2 < rank; ++i)
      resultSizes.push_back(size(op.getSelf(), lhs, i));
    resultSizes.push_back(size(op.getSelf(), lhs, rank - 2));
    resultSizes.push_back(size(op.getOther(), rhs, rank - 1));
    rewriter.replaceOpWithNewOp<AtenViewOp>(op, resultType, bmm,
                                            intList(resultSizes));
    return success();
  }

  /// A 1-D operand as a matrix (lhs [K] -> [1, K], rhs [K] -> [K, 1]), the
  /// matmul of rank >= 2 operands, and the added dim viewed away.
  static LogicalResult decomposeVectorOperand(AtenMatmulOp op,
                                              ArrayRef<int64_t> lhs,
                                              ArrayRef<int64_t> rhs,
                                              BaseTensorType resultType,
                                              PatternRewriter &rewriter) {
    if (lhs.empty() || rhs.empty())
      return rewriter.notifyMatchFailure(
          op, "unsupported: matmul of a 0-D operand");
    if (!resultType.areAllSizesKnown() ||
        (lhs.size() == 1 && lhs[0] == kUnknownSize) ||
        (rhs.size() == 1 && rhs[0] == kUnknownSize))
      return rewriter.notifyMatchFailure(
          op, "unsupported: matmul of a 1-D operand with unknown sizes");
    Location loc = op.getLoc();
    Value self = op.getSelf(), other = op.getOther();
    SmallVector<int64_t> productSizes(resultType.getSizes());
    if (lhs.size() == 1) {
      self = createView(rewriter, loc, self, {1, lhs[0]});
      // [..., N] -> [..., 1, N]; for a 1-D rhs too, [] -> [1].
      productSizes.insert(productSizes.end() - (rhs.size() == 1 ? 0 : 1), 1);
    }
    if (rhs.size() == 1) {
      other = createView(rewriter, loc, other, {rhs[0], 1});
      productSizes.push_back(1);
    }
    auto productType =
        resultType.getWithSizesAndDtype(productSizes, resultType.getDtype());
    Value product =
        AtenMatmulOp::create(rewriter, loc, productType, self, other);
    rewriter.replaceOpWithNewOp<AtenViewOp>(
        op, resultType, product,
        createIntList(rewriter, loc, resultType.getSizes()));
    return success();
  }
};

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

/// unsqueeze(x, d) with several unknown sizes: aten.view to a size list
/// whose unknown entries are aten.size.int of the input dim they come from
/// (DecomposeToView handles at most one unknown size, which view infers).
struct DecomposeAtenUnsqueezeDynamic : OpRewritePattern<AtenUnsqueezeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenUnsqueezeOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = getRankedTensorType(op.getResult());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "needs known result sizes");
    ArrayRef<int64_t> sizes = resultType.getSizes();
    if (llvm::count(sizes, kUnknownSize) <= 1)
      return rewriter.notifyMatchFailure(
          op, "at most one unknown size: DecomposeToView handles it");
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return rewriter.notifyMatchFailure(op, "dim must be a constant");
    int64_t rank = static_cast<int64_t>(sizes.size());
    dim = toPositiveDim(dim, rank);
    if (dim < 0)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    Location loc = op.getLoc();
    SmallVector<Value> elements;
    for (int64_t i = 0; i < rank; ++i) {
      if (sizes[i] != kUnknownSize) {
        elements.push_back(createConstantInt(rewriter, loc, sizes[i]));
        continue;
      }
      // The inserted dim has size 1, so an unknown size is an input dim.
      int64_t inputDim = i < dim ? i : i - 1;
      elements.push_back(AtenSizeIntOp::create(
          rewriter, loc, IntType::get(rewriter.getContext()), op.getSelf(),
          createConstantInt(rewriter, loc, inputDim)));
    }
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

//===----------------------------------------------------------------------===//
// Convolution and normalization
//===----------------------------------------------------------------------===//

/// conv2d.padding with padding="valid" (no padding) or "same" (output size =
/// input size for stride 1): explicit symmetric padding of
/// dilation * (kernel - 1) / 2 per side, when that total is even.
struct DecomposeAtenConv2dPadding : OpRewritePattern<AtenConv2dPaddingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenConv2dPaddingOp op,
                                PatternRewriter &rewriter) const override {
    auto padding = op.getPadding().getDefiningOp<ConstantStrOp>();
    auto weightType = getRankedTensorType(op.getWeight());
    SmallVector<int64_t> dilation;
    if (!padding || !weightType ||
        !matchTorchConstantIntList(op.getDilation(), dilation))
      return rewriter.notifyMatchFailure(
          op, "padding, dilation and weight sizes must be known");
    ArrayRef<int64_t> kernel = weightType.getSizes().take_back(2);
    if (dilation.size() == 1)
      dilation.push_back(dilation[0]);
    SmallVector<int64_t> pads{0, 0};
    if (padding.getValue() == "same") {
      for (int i = 0; i < 2; ++i) {
        int64_t total = dilation[i] * (kernel[i] - 1);
        if (kernel[i] == kUnknownSize || total % 2 != 0)
          return rewriter.notifyMatchFailure(
              op, "unsupported: padding='same' that needs asymmetric padding "
                  "(even kernel size)");
        pads[i] = total / 2;
      }
    } else if (padding.getValue() != "valid") {
      return rewriter.notifyMatchFailure(op,
                                         "padding must be 'same' or 'valid'");
    }
    Location loc = op.getLoc();
    Value transposed = ConstantBoolOp::create(rewriter, loc, false);
    rewriter.replaceOpWithNewOp<AtenConvolutionOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        op.getStride(), createIntList(rewriter, loc, pads), op.getDilation(),
        transposed, createIntList(rewriter, loc, {0, 0}), op.getGroups());
    return success();
  }
};

struct DecomposeAtenConv2d : OpRewritePattern<AtenConv2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenConv2dOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value transposed = ConstantBoolOp::create(rewriter, loc, false);
    rewriter.replaceOpWithNewOp<AtenConvolutionOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        op.getStride(), op.getPadding(), op.getDilation(), transposed,
        createIntList(rewriter, loc, {0, 0}), op.getGroups());
    return success();
  }
};

/// batch_norm(training=False) with running statistics.
struct DecomposeAtenBatchNorm : OpRewritePattern<AtenBatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenBatchNormOp op,
                                PatternRewriter &rewriter) const override {
    bool training;
    if (!matchTorchConstantBool(op.getTraining(), training) || training)
      return rewriter.notifyMatchFailure(
          op, "unsupported: training-mode batch_norm (export the model in eval "
              "mode)");
    if (isTorchNone(op.getRunningMean()) || isTorchNone(op.getRunningVar()))
      return rewriter.notifyMatchFailure(op, "unsupported: no running stats");
    auto resultType = getRankedTensorType(op.getResult());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "needs a known result type");
    auto statsType = resultType.getWithSizesAndDtype(ArrayRef<int64_t>{0},
                                                     resultType.getDtype());
    auto norm = Aten_NativeBatchNormLegitNoTrainingOp::create(
        rewriter, op.getLoc(), TypeRange{resultType, statsType, statsType},
        op.getInput(), op.getWeight(), op.getBias(), op.getRunningMean(),
        op.getRunningVar(), op.getMomentum(), op.getEps());
    rewriter.replaceOp(op, norm.getResult(0));
    return success();
  }
};

/// layer_norm(x, shape, w, b, eps) = native_layer_norm(...)[0]; the mean
/// and rstd results have the input's leading dims and size-1 trailing dims.
struct DecomposeAtenLayerNorm : OpRewritePattern<AtenLayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLayerNormOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getInput());
    auto resultType = getRankedTensorType(op.getResult());
    SmallVector<int64_t> normalized;
    if (!inputType || !resultType ||
        !matchTorchConstantIntList(op.getNormalizedShape(), normalized))
      return rewriter.notifyMatchFailure(
          op, "needs known sizes and a constant normalized_shape");
    ArrayRef<int64_t> sizes = inputType.getSizes();
    if (normalized.size() > sizes.size())
      return rewriter.notifyMatchFailure(op,
                                         "normalized_shape longer than input");
    SmallVector<int64_t> statSizes(sizes.begin(),
                                   sizes.end() - normalized.size());
    statSizes.append(normalized.size(), 1);
    auto statType =
        resultType.getWithSizesAndDtype(statSizes, resultType.getDtype());
    auto norm = AtenNativeLayerNormOp::create(
        rewriter, op.getLoc(), TypeRange{resultType, statType, statType},
        op.getInput(), op.getNormalizedShape(), op.getWeight(), op.getBias(),
        op.getEps());
    rewriter.replaceOp(op, norm.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Softmax and reductions
//===----------------------------------------------------------------------===//

template <typename OpTy, typename CoreOpTy>
struct DecomposeSoftmaxInt : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getSelf());
    auto resultType = getRankedTensorType(op.getResult());
    if (!inputType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known types");
    Value input = op.getSelf();
    if (inputType.getDtype() != resultType.getDtype())
      return rewriter.notifyMatchFailure(
          op, "unsupported: softmax with a dtype argument");
    Value halfToFloat = ConstantBoolOp::create(rewriter, op.getLoc(), false);
    rewriter.replaceOpWithNewOp<CoreOpTy>(op, resultType, input, op.getDim(),
                                          halfToFloat);
    return success();
  }
};

/// The dims a reduction's `dim` operand names, positive and sorted; all dims
/// when it is None or empty.
static FailureOr<SmallVector<int64_t>> getReductionDims(Value dimList,
                                                        int64_t rank) {
  SmallVector<int64_t> dims;
  if (!isTorchNone(dimList) && !matchTorchConstantIntList(dimList, dims))
    return failure();
  if (dims.empty())
    return llvm::to_vector(llvm::seq<int64_t>(0, rank));
  // A 0-d tensor: PyTorch takes dim 0 or -1 for its one element, and
  // there is no dim to index.
  if (rank == 0) {
    for (int64_t dim : dims)
      if (dim != 0 && dim != -1)
        return failure();
    return SmallVector<int64_t>();
  }
  for (int64_t &dim : dims) {
    dim = toPositiveDim(dim, rank);
    if (dim < 0 || dim >= rank)
      return failure();
  }
  llvm::sort(dims);
  return dims;
}

/// mean.dim(x, dims, keepdim) = sum.dim_IntList(x, dims, keepdim) / N.
struct DecomposeAtenMeanDim : OpRewritePattern<AtenMeanDimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenMeanDimOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getSelf());
    auto resultType = getRankedTensorType(op.getResult());
    if (!inputType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known types");
    if (!isa<mlir::FloatType>(resultType.getDtype()))
      return rewriter.notifyMatchFailure(op, "unsupported: non-float mean");
    int64_t rank = inputType.getSizes().size();
    auto dims = getReductionDims(op.getDim(), rank);
    if (failed(dims))
      return rewriter.notifyMatchFailure(op,
                                         "dims must be constant and in range");
    int64_t count = 1;
    for (int64_t dim : *dims) {
      int64_t size = inputType.getSizes()[dim];
      if (size == kUnknownSize)
        return rewriter.notifyMatchFailure(op,
                                           "unsupported: unknown reduced size");
      count *= size;
    }
    Location loc = op.getLoc();
    Value sum = AtenSumDimIntListOp::create(rewriter, loc, resultType,
                                            op.getSelf(), op.getDim(),
                                            op.getKeepdim(), op.getDtype());
    rewriter.replaceOpWithNewOp<AtenDivScalarOp>(
        op, resultType, sum, createConstantInt(rewriter, loc, count));
    return success();
  }
};

/// mean(x) and sum(x): the dim forms over every dim.
template <typename OpTy, typename DimOpTy>
struct DecomposeFullReduction : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getSelf());
    if (!inputType)
      return rewriter.notifyMatchFailure(op, "needs a known rank");
    Location loc = op.getLoc();
    int64_t rank = inputType.getSizes().size();
    Value dims = createIntList(rewriter, loc,
                               llvm::to_vector(llvm::seq<int64_t>(0, rank)));
    Value keepdim = ConstantBoolOp::create(rewriter, loc, false);
    rewriter.replaceOpWithNewOp<DimOpTy>(op, op.getType(), op.getSelf(), dims,
                                         keepdim, op.getDtype());
    return success();
  }
};

/// max.dim(x, d, keepdim) = (amax(x, [d], keepdim), argmax(x, d, keepdim))
/// and min.dim likewise: the same values and the same first index (NaN
/// counting as the extreme) as PyTorch's CPU kernel.
template <typename OpTy, typename ValuesOpTy, typename IndicesOpTy>
struct DecomposeMinMaxDim : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return rewriter.notifyMatchFailure(op, "dim must be a constant");
    Location loc = op.getLoc();
    Value values = ValuesOpTy::create(
        rewriter, loc, op.getValues().getType(), op.getSelf(),
        createIntList(rewriter, loc, {dim}), op.getKeepdim());
    Value indices =
        IndicesOpTy::create(rewriter, loc, op.getIndices().getType(),
                            op.getSelf(), op.getDim(), op.getKeepdim());
    rewriter.replaceOp(op, {values, indices});
    return success();
  }
};

/// max(x) = amax(x, all dims) and min(x) = amin(x, all dims): a 0-d
/// result, NaN if any element is NaN.
template <typename OpTy, typename ReductionOpTy>
struct DecomposeMinMaxAll : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getSelf());
    if (!inputType)
      return rewriter.notifyMatchFailure(op, "needs a known rank");
    Location loc = op.getLoc();
    int64_t rank = inputType.getSizes().size();
    Value dims = createIntList(rewriter, loc,
                               llvm::to_vector(llvm::seq<int64_t>(0, rank)));
    rewriter.replaceOpWithNewOp<ReductionOpTy>(
        op, op.getType(), op.getSelf(), dims,
        createConstantBool(rewriter, loc, false));
    return success();
  }
};

/// prod(x, dtype) = prod.dim_int(view(x, [-1]), 0, false, dtype).
struct DecomposeAtenProd : OpRewritePattern<AtenProdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenProdOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getSelf());
    if (!inputType)
      return rewriter.notifyMatchFailure(op, "needs a known rank and dtype");
    Location loc = op.getLoc();
    int64_t numel = productOfSizes(inputType.getSizes());
    Value flat = createView(rewriter, loc, op.getSelf(),
                            {numel == kUnknownSize ? -1 : numel});
    rewriter.replaceOpWithNewOp<AtenProdDimIntOp>(
        op, op.getType(), flat, createConstantInt(rewriter, loc, 0),
        createConstantBool(rewriter, loc, false), op.getDtype());
    return success();
  }
};

/// The correction of var.correction (None: 1) and var.dim (unbiased: 1,
/// else 0), if constant.
static std::optional<double> getVarCorrection(AtenVarCorrectionOp op) {
  if (isTorchNone(op.getCorrection()))
    return 1.0;
  int64_t asInt;
  if (matchTorchConstantInt(op.getCorrection(), asInt))
    return static_cast<double>(asInt);
  double asFloat;
  if (matchTorchConstantFloat(op.getCorrection(), asFloat))
    return asFloat;
  return std::nullopt;
}
static std::optional<double> getVarCorrection(AtenVarDimOp op) {
  bool unbiased;
  if (!matchTorchConstantBool(op.getUnbiased(), unbiased))
    return std::nullopt;
  return unbiased ? 1.0 : 0.0;
}

/// `_to_copy(value, dtype)` to the same sizes.
static Value createCast(PatternRewriter &rewriter, Location loc, Value value,
                        Type dtype) {
  auto type = cast<BaseTensorType>(value.getType());
  Value none = createConstantNone(rewriter, loc);
  Value falseValue = createConstantBool(rewriter, loc, false);
  return Aten_ToCopyOp::create(
      rewriter, loc, type.getWithSizesAndDtype(type.getOptionalSizes(), dtype),
      value, createConstantInt(rewriter, loc, *getScalarTypeCode(dtype)), none,
      none, none, falseValue, none);
}

/// var(x, dims, correction, keepdim) = sum((x - mean(x, dims))^2, dims) /
/// max(N - correction, 0), N the number of elements reduced (two passes;
/// N - correction = 0 gives inf or NaN, as in PyTorch). With `float64`
/// (the backend has it), every float dtype is computed in float64 and the
/// result rounded, as PyTorch's CPU kernel (a Welford reduction with double
/// accumulators): a float32 sum of 3e38s overflows where PyTorch's variance
/// is 0. Without, float16 and bfloat16 are computed in float32.
template <typename OpTy> struct DecomposeAtenVar : OpRewritePattern<OpTy> {
  DecomposeAtenVar(MLIRContext *context, bool float64)
      : OpRewritePattern<OpTy>(context), float64(float64) {}
  bool float64;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getSelf());
    auto resultType = getRankedTensorType(op.getResult());
    if (!inputType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known types");
    if (!isa<mlir::FloatType>(resultType.getDtype()) ||
        inputType.getDtype() != resultType.getDtype())
      return rewriter.notifyMatchFailure(
          op, "unsupported: var of a non-float dtype");
    std::optional<double> correction = getVarCorrection(op);
    if (!correction)
      return rewriter.notifyMatchFailure(
          op, "the correction (unbiased) must be a constant");
    ArrayRef<int64_t> sizes = inputType.getSizes();
    auto dims = getReductionDims(op.getDim(), sizes.size());
    if (failed(dims))
      return rewriter.notifyMatchFailure(op,
                                         "dims must be constant and in range");
    int64_t count = 1;
    SmallVector<int64_t> keptSizes(sizes);
    for (int64_t dim : *dims) {
      if (sizes[dim] == kUnknownSize)
        return rewriter.notifyMatchFailure(op,
                                           "unsupported: unknown reduced size");
      count *= sizes[dim];
      keptSizes[dim] = 1;
    }
    Location loc = op.getLoc();
    Value input = op.getSelf();
    Type dtype = inputType.getDtype();
    Type wide =
        float64 ? Type(rewriter.getF64Type()) : Type(rewriter.getF32Type());
    bool narrow = dtype.getIntOrFloatBitWidth() < wide.getIntOrFloatBitWidth();
    if (narrow) {
      dtype = wide;
      input = createCast(rewriter, loc, input, dtype);
      inputType = cast<BaseTensorType>(input.getType());
    }
    auto sumType =
        resultType.getWithSizesAndDtype(resultType.getOptionalSizes(), dtype);
    Value dimList = createIntList(rewriter, loc, *dims);
    Value none = createConstantNone(rewriter, loc);
    auto keptType = inputType.getWithSizesAndDtype(keptSizes, dtype);
    Value mean =
        AtenMeanDimOp::create(rewriter, loc, keptType, input, dimList,
                              createConstantBool(rewriter, loc, true), none);
    Value diff = AtenSubTensorOp::create(rewriter, loc, inputType, input, mean,
                                         createConstantInt(rewriter, loc, 1));
    Value square =
        AtenMulTensorOp::create(rewriter, loc, inputType, diff, diff);
    Value sum = AtenSumDimIntListOp::create(rewriter, loc, sumType, square,
                                            dimList, op.getKeepdim(), none);
    double divisor = std::max(static_cast<double>(count) - *correction, 0.0);
    Value var =
        AtenDivScalarOp::create(rewriter, loc, sumType, sum,
                                createConstantFloat(rewriter, loc, divisor));
    if (narrow)
      var = createCast(rewriter, loc, var, resultType.getDtype());
    rewriter.replaceOp(op, var);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Normalization statistics and distances
//===----------------------------------------------------------------------===//

/// A tensor type like `like`'s with `sizes` and `dtype`.
static BaseTensorType withSizes(Value like, ArrayRef<int64_t> sizes,
                                Type dtype) {
  return cast<BaseTensorType>(like.getType())
      .getWithSizesAndDtype(sizes, dtype);
}

/// `value` cast to `dtype` unless it has it already.
static Value castTo(PatternRewriter &rewriter, Location loc, Value value,
                    Type dtype) {
  if (cast<BaseTensorType>(value.getType()).getDtype() == dtype)
    return value;
  return createCast(rewriter, loc, value, dtype);
}

/// The dtype the normalization statistics of `dtype` are computed in: that
/// of the sums (float64 for float32 and float64 when the backend has it,
/// float32 for float16 and bfloat16), as the linalg reductions accumulate.
static Type getStatisticsDtype(Type dtype, bool float64) {
  Builder b(dtype.getContext());
  if (float64 && (dtype.isF32() || dtype.isF64()))
    return b.getF64Type();
  if (dtype.getIntOrFloatBitWidth() < 32)
    return b.getF32Type();
  return dtype;
}

/// Elementwise builders over tensors of one type (`type`).
struct Elementwise {
  PatternRewriter &rewriter;
  Location loc;
  Value add(Value a, Value b, BaseTensorType type) const {
    return AtenAddTensorOp::create(rewriter, loc, type, a, b, one());
  }
  Value sub(Value a, Value b, BaseTensorType type) const {
    return AtenSubTensorOp::create(rewriter, loc, type, a, b, one());
  }
  Value mul(Value a, Value b, BaseTensorType type) const {
    return AtenMulTensorOp::create(rewriter, loc, type, a, b);
  }
  Value one() const { return createConstantInt(rewriter, loc, 1); }
  /// 1 / sqrt(variance + eps), the order PyTorch's kernels compute it in.
  Value invstd(Value variance, Value eps) const {
    auto type = cast<BaseTensorType>(variance.getType());
    Value shifted =
        AtenAddScalarOp::create(rewriter, loc, type, variance, eps, one());
    Value root = AtenSqrtOp::create(rewriter, loc, type, shifted);
    return AtenReciprocalOp::create(rewriter, loc, type, root);
  }
  /// mean of `x` over `dims`, dims kept.
  Value mean(Value x, ArrayRef<int64_t> dims) const {
    auto type = cast<BaseTensorType>(x.getType());
    SmallVector<int64_t> sizes(type.getSizes());
    for (int64_t dim : dims)
      sizes[dim] = 1;
    return AtenMeanDimOp::create(
        rewriter, loc, type.getWithSizesAndDtype(sizes, type.getDtype()), x,
        createIntList(rewriter, loc, dims),
        createConstantBool(rewriter, loc, true),
        createConstantNone(rewriter, loc));
  }
};

/// mean, biased variance and centered `x` over `dims` (two passes: the
/// mean, then the mean of the squared deviations, as the CPU kernels).
struct Moments {
  Value mean, variance, centered;
};
static Moments computeMoments(const Elementwise &ew, Value x,
                              ArrayRef<int64_t> dims) {
  auto type = cast<BaseTensorType>(x.getType());
  Value mean = ew.mean(x, dims);
  Value centered = ew.sub(x, mean, type);
  Value variance = ew.mean(ew.mul(centered, centered, type), dims);
  return {mean, variance, centered};
}

/// Checks the operands every normalization decomposition needs: a float
/// input of known sizes (rank >= 2), float results of known sizes, and a
/// weight and bias (if given) of one dim.
static LogicalResult matchNormalization(PatternRewriter &rewriter,
                                        Operation *op, Value input,
                                        ArrayRef<Value> affine) {
  auto inputType = getRankedTensorType(input);
  if (!inputType || inputType.getSizes().size() < 2 ||
      !isa<mlir::FloatType>(inputType.getDtype()) ||
      productOfSizes(inputType.getSizes()) == kUnknownSize)
    return rewriter.notifyMatchFailure(
        op, "needs a float input of known sizes and rank >= 2");
  for (Value result : op->getResults()) {
    auto type = getRankedTensorType(result);
    if (!type || !isa<mlir::FloatType>(type.getDtype()))
      return rewriter.notifyMatchFailure(op, "needs known float results");
  }
  for (Value value : affine) {
    if (isTorchNone(value))
      continue;
    auto type = getRankedTensorType(value);
    if (!type || type.getSizes().size() != 1 ||
        !isa<mlir::FloatType>(type.getDtype()))
      return rewriter.notifyMatchFailure(
          op, "weight, bias and running stats must be 1-D float tensors");
  }
  return success();
}

/// y * weight + bias for y [N, C, R] and per-channel weight and bias [C]
/// (either may be None), in y's dtype.
static Value applyAffine(const Elementwise &ew, Value y, Value weight,
                         Value bias, ArrayRef<int64_t> shape) {
  auto type = cast<BaseTensorType>(y.getType());
  auto perChannel = [&](Value value) {
    Value wide = castTo(ew.rewriter, ew.loc, value, type.getDtype());
    return createView(ew.rewriter, ew.loc, wide, shape);
  };
  if (!isTorchNone(weight))
    y = ew.mul(y, perChannel(weight), type);
  if (!isTorchNone(bias))
    y = ew.add(y, perChannel(bias), type);
  return y;
}

/// native_group_norm(x [N, C, *], weight, bias, N, C, HxW, group, eps) ->
/// (y, mean [N, group], rstd [N, group]): x viewed as [N, group, C/group *
/// HxW]; y = (x - mean) * rstd * weight[c] + bias[c], rstd = 1/sqrt(biased
/// var + eps) (torch.nn.functional.group_norm). Computed in the statistics
/// dtype and rounded once.
struct DecomposeAtenNativeGroupNorm : OpRewritePattern<AtenNativeGroupNormOp> {
  DecomposeAtenNativeGroupNorm(MLIRContext *context, bool float64)
      : OpRewritePattern(context), float64(float64) {}
  bool float64;
  LogicalResult matchAndRewrite(AtenNativeGroupNormOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(matchNormalization(rewriter, op, op.getInput(),
                                  {op.getWeight(), op.getBias()})))
      return failure();
    int64_t groups;
    if (!matchTorchConstantInt(op.getGroup(), groups))
      return rewriter.notifyMatchFailure(op, "group must be a constant");
    auto inputType = getRankedTensorType(op.getInput());
    ArrayRef<int64_t> sizes = inputType.getSizes();
    int64_t n = sizes[0], c = sizes[1];
    if (groups <= 0 || c % groups != 0)
      return rewriter.notifyMatchFailure(op,
                                         "channels not divisible by groups");
    int64_t spatial = productOfSizes(sizes.drop_front(2));
    Location loc = op.getLoc();
    Elementwise ew{rewriter, loc};
    Type dtype = getStatisticsDtype(inputType.getDtype(), float64);
    Value x = castTo(rewriter, loc, op.getInput(), dtype);
    x = createView(rewriter, loc, x, {n, groups, c / groups * spatial});
    Moments moments = computeMoments(ew, x, {2});
    Value rstd = ew.invstd(moments.variance, op.getEps());
    Value y = ew.mul(moments.centered, rstd,
                     cast<BaseTensorType>(moments.centered.getType()));
    y = createView(rewriter, loc, y, {n, c, spatial});
    y = applyAffine(ew, y, op.getWeight(), op.getBias(), {c, 1});
    y = createView(rewriter, loc, y, sizes);
    auto statistic = [&](Value stat, Value result) {
      auto type = getRankedTensorType(result);
      Value view = createView(rewriter, loc, stat, type.getSizes());
      return castTo(rewriter, loc, view, type.getDtype());
    };
    rewriter.replaceOp(
        op, {castTo(rewriter, loc, y,
                    getRankedTensorType(op.getResult0()).getDtype()),
             statistic(moments.mean, op.getResult1()),
             statistic(rstd, op.getResult2())});
    return success();
  }
};

/// Training batch norm, per channel (dim 1) over the other dims
/// (torch.nn.functional.batch_norm with training=True):
///   y = (x - mean) * invstd * weight + bias, invstd = 1/sqrt(var + eps)
/// with the batch's mean and biased variance, which are returned (float16
/// and bfloat16 normalize with them rounded to the input dtype, as
/// PyTorch's CPU kernel saves them). _native_batch_norm_legit_functional
/// also returns the updated running stats, momentum * batch + (1 -
/// momentum) * running (unbiased variance); with training=False it
/// normalizes with the running stats, which it returns unchanged, and the
/// saved statistics are empty.
template <typename OpTy, bool HasRunningStats>
struct DecomposeBatchNormTraining : OpRewritePattern<OpTy> {
  DecomposeBatchNormTraining(MLIRContext *context, bool float64)
      : OpRewritePattern<OpTy>(context), float64(float64) {}
  bool float64;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> affine{op.getWeight(), op.getBias()};
    if constexpr (HasRunningStats)
      affine.append({op.getRunningMean(), op.getRunningVar()});
    if (failed(matchNormalization(rewriter, op, op.getInput(), affine)))
      return failure();
    bool training;
    if (!matchTorchConstantBool(op.getTraining(), training))
      return rewriter.notifyMatchFailure(op, "training must be a constant");
    if (!HasRunningStats && !training)
      return rewriter.notifyMatchFailure(
          op, "unsupported: no running stats and training=False");
    double momentum;
    if (!matchTorchConstantFloat(op.getMomentum(), momentum))
      return rewriter.notifyMatchFailure(op, "momentum must be a constant");
    auto inputType = getRankedTensorType(op.getInput());
    ArrayRef<int64_t> sizes = inputType.getSizes();
    int64_t n = sizes[0], c = sizes[1];
    int64_t spatial = productOfSizes(sizes.drop_front(2));
    if (n * c * spatial == 0)
      return rewriter.notifyMatchFailure(op, "unsupported: empty input");
    Location loc = op.getLoc();
    Elementwise ew{rewriter, loc};
    Type element = inputType.getDtype();
    Type dtype = getStatisticsDtype(element, float64);
    Value x = castTo(rewriter, loc, op.getInput(), dtype);
    x = createView(rewriter, loc, x, {n, c, spatial});
    auto xType = cast<BaseTensorType>(x.getType());
    SmallVector<int64_t> statShape{1, c, 1};
    auto perChannel = [&](Value stat) {
      return createView(rewriter, loc, castTo(rewriter, loc, stat, dtype),
                        statShape);
    };
    // Normalizes with the statistics as the kernel saves them.
    auto saved = [&](Value stat) {
      return castTo(rewriter, loc, castTo(rewriter, loc, stat, element),
                    dtype);
    };
    Value mean, variance, invstd;
    if (training) {
      Moments moments = computeMoments(ew, x, {0, 2});
      mean = moments.mean;
      variance = moments.variance;
      invstd = ew.invstd(variance, op.getEps());
    } else if constexpr (HasRunningStats) {
      mean = perChannel(op.getRunningMean());
      invstd = ew.invstd(perChannel(op.getRunningVar()), op.getEps());
    }
    Value y = ew.mul(ew.sub(x, saved(mean), xType), saved(invstd), xType);
    y = applyAffine(ew, y, op.getWeight(), op.getBias(), statShape);
    y = createView(rewriter, loc, y, sizes);
    SmallVector<Value> results{castTo(rewriter, loc, y, element)};
    auto asResult = [&](Value stat, Value result) {
      auto type = getRankedTensorType(result);
      return castTo(rewriter, loc,
                    createView(rewriter, loc, stat, type.getSizes()),
                    type.getDtype());
    };
    if (training) {
      results.push_back(asResult(mean, op->getResult(1)));
      results.push_back(asResult(invstd, op->getResult(2)));
    } else {
      for (int i = 1; i <= 2; ++i) {
        auto type = getRankedTensorType(op->getResult(i));
        Value none = createConstantNone(rewriter, loc);
        results.push_back(AtenEmptyMemoryFormatOp::create(
            rewriter, loc, type,
            createIntList(rewriter, loc, type.getSizes()),
            createConstantInt(rewriter, loc,
                              *getScalarTypeCode(type.getDtype())),
            none, none, none, none));
      }
    }
    if constexpr (HasRunningStats) {
      if (!training) {
        results.push_back(asResult(op.getRunningMean(), op->getResult(3)));
        results.push_back(asResult(op.getRunningVar(), op->getResult(4)));
      } else {
        int64_t count = n * spatial;
        auto statType = cast<BaseTensorType>(mean.getType());
        auto update = [&](Value running, Value batch, double unbias,
                          Value result) {
          Value take = createConstantFloat(rewriter, loc, momentum * unbias);
          Value keep = createConstantFloat(rewriter, loc, 1.0 - momentum);
          Value sum = ew.add(
              AtenMulScalarOp::create(rewriter, loc, statType, batch, take),
              AtenMulScalarOp::create(rewriter, loc, statType,
                                      perChannel(running), keep),
              statType);
          return asResult(sum, result);
        };
        results.push_back(
            update(op.getRunningMean(), mean, 1.0, op->getResult(3)));
        results.push_back(update(op.getRunningVar(), variance,
                                 static_cast<double>(count) /
                                     static_cast<double>(count - 1),
                                 op->getResult(4)));
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// ||d||_p over the last dim of the differences `d` [..., M], in `type`
/// ([...]): sum |d|^p ^ (1/p); the count of d != 0 for p = 0, max |d| for
/// p = inf (torch.cdist).
static Value createPNorm(PatternRewriter &rewriter, Location loc, Value d,
                         double p, BaseTensorType type) {
  auto dType = cast<BaseTensorType>(d.getType());
  Value lastDim = createIntList(rewriter, loc, {-1});
  Value falseValue = createConstantBool(rewriter, loc, false);
  Value none = createConstantNone(rewriter, loc);
  auto sum = [&](Value terms) -> Value {
    return AtenSumDimIntListOp::create(rewriter, loc, type, terms, lastDim,
                                       falseValue, none);
  };
  if (p == 0.0) {
    Value nonzero = AtenNeScalarOp::create(
        rewriter, loc,
        dType.getWithSizesAndDtype(dType.getSizes(), rewriter.getI1Type()), d,
        createConstantFloat(rewriter, loc, 0.0));
    return sum(createCast(rewriter, loc, nonzero, type.getDtype()));
  }
  if (p == 2.0)
    return AtenSqrtOp::create(rewriter, loc, type,
                              sum(AtenMulTensorOp::create(rewriter, loc, dType,
                                                          d, d)));
  Value magnitude = AtenAbsOp::create(rewriter, loc, dType, d);
  if (std::isinf(p))
    return AtenAmaxOp::create(rewriter, loc, type, magnitude, lastDim,
                              falseValue);
  if (p == 1.0)
    return sum(magnitude);
  Value powered = AtenPowTensorScalarOp::create(
      rewriter, loc, dType, magnitude, createConstantFloat(rewriter, loc, p));
  return AtenPowTensorScalarOp::create(
      rewriter, loc, type, sum(powered),
      createConstantFloat(rewriter, loc, 1.0 / p));
}

/// The p-norm distances of the rows of `x1` [B..., P, M] to those of `x2`
/// [B..., R, M]: [B..., P, R], in `type`. The differences are formed by
/// broadcasting (x1 as [..., P, 1, M], x2 as [..., 1, R, M]).
static Value createDistances(PatternRewriter &rewriter, Location loc,
                             Value x1, Value x2, double p,
                             BaseTensorType type) {
  auto type1 = cast<BaseTensorType>(x1.getType());
  auto type2 = cast<BaseTensorType>(x2.getType());
  SmallVector<int64_t> sizes1(type1.getSizes()), sizes2(type2.getSizes());
  sizes1.insert(sizes1.end() - 1, 1);
  sizes2.insert(sizes2.end() - 2, 1);
  SmallVector<int64_t> differenceSizes(type.getSizes());
  differenceSizes.push_back(sizes1.back());
  Value d = AtenSubTensorOp::create(
      rewriter, loc,
      type1.getWithSizesAndDtype(differenceSizes, type1.getDtype()),
      createView(rewriter, loc, x1, sizes1),
      createView(rewriter, loc, x2, sizes2),
      createConstantInt(rewriter, loc, 1));
  return createPNorm(rewriter, loc, d, p, type);
}

/// Checks a distance op: float operands and result of one dtype and known
/// sizes, a constant p >= 0.
static FailureOr<double> matchDistance(PatternRewriter &rewriter,
                                       Operation *op, Value pValue) {
  auto resultType = getRankedTensorType(op->getResult(0));
  if (!resultType || !isa<mlir::FloatType>(resultType.getDtype()) ||
      productOfSizes(resultType.getSizes()) == kUnknownSize)
    return rewriter.notifyMatchFailure(op, "needs a float result of known "
                                           "sizes");
  for (Value operand : op->getOperands()) {
    if (!isa<BaseTensorType>(operand.getType()))
      continue;
    auto type = getRankedTensorType(operand);
    if (!type || type.getDtype() != resultType.getDtype() ||
        productOfSizes(type.getSizes()) == kUnknownSize)
      return rewriter.notifyMatchFailure(
          op, "needs inputs of known sizes and the result's dtype");
  }
  double p;
  if (!matchTorchConstantFloat(pValue, p) || !(p >= 0))
    return rewriter.notifyMatchFailure(op, "p must be a constant >= 0");
  return p;
}

/// _cdist_forward(x1 [B..., P, M], x2 [B..., R, M], p, compute_mode):
/// out[..., i, j] = ||x1[..., i, :] - x2[..., j, :]||_p, the batch dims
/// broadcast (torch.cdist), computed directly (PyTorch may use a matmul form
/// for p = 2; it agrees within rounding).
struct DecomposeAtenCdistForward : OpRewritePattern<Aten_CdistForwardOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Aten_CdistForwardOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<double> p = matchDistance(rewriter, op, op.getP());
    if (failed(p))
      return failure();
    auto type1 = getRankedTensorType(op.getX1());
    auto type2 = getRankedTensorType(op.getX2());
    auto resultType = getRankedTensorType(op.getResult());
    size_t rank1 = type1.getSizes().size(), rank2 = type2.getSizes().size();
    if (rank1 < 2 || rank2 < 2 ||
        resultType.getSizes().size() != std::max(rank1, rank2))
      return rewriter.notifyMatchFailure(op, "expects x1, x2 of rank >= 2");
    rewriter.replaceOp(op, createDistances(rewriter, op.getLoc(), op.getX1(),
                                           op.getX2(), *p, resultType));
    return success();
  }
};

/// _pdist_forward(x [N, M], p): the p-norm distances of rows i < j, in
/// row-major (i, j) order (torch.nn.functional.pdist): the [N, N] distances,
/// flattened, gathered at the constant indices i * N + j.
struct DecomposeAtenPdistForward : OpRewritePattern<Aten_PdistForwardOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Aten_PdistForwardOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<double> p = matchDistance(rewriter, op, op.getP());
    if (failed(p))
      return failure();
    auto type = getRankedTensorType(op.getSelf());
    auto resultType = getRankedTensorType(op.getResult());
    if (type.getSizes().size() != 2 || resultType.getSizes().size() != 1)
      return rewriter.notifyMatchFailure(op, "expects a 2-D input");
    int64_t rows = type.getSizes()[0];
    SmallVector<int64_t> indices;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = i + 1; j < rows; ++j)
        indices.push_back(i * rows + j);
    if (resultType.getSizes()[0] != static_cast<int64_t>(indices.size()))
      return rewriter.notifyMatchFailure(op,
                                         "result size is not N * (N - 1) / 2");
    Location loc = op.getLoc();
    Value x = op.getSelf();
    SmallVector<int64_t> square{rows, rows};
    Value all = createDistances(
        rewriter, loc, x, x, *p,
        resultType.getWithSizesAndDtype(square, resultType.getDtype()));
    Value flat = createView(rewriter, loc, all, {rows * rows});
    auto si64 =
        IntegerType::get(rewriter.getContext(), 64, IntegerType::Signed);
    auto indexType = RankedTensorType::get(
        {static_cast<int64_t>(indices.size())}, rewriter.getI64Type());
    Value index = ValueTensorLiteralOp::create(
        rewriter, loc,
        resultType.getWithSizesAndDtype(indexType.getShape(), si64),
        DenseElementsAttr::get(indexType, ArrayRef<int64_t>(indices)));
    rewriter.replaceOpWithNewOp<AtenIndexSelectOp>(
        op, resultType, flat, createConstantInt(rewriter, loc, 0), index);
    return success();
  }
};

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

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

/// `x` ([..., H, S, E]) with each head repeated `times` times in a row
/// ([..., H * times, S, E]), as repeat_interleave(x, times, dim=-3).
static Value repeatHeads(PatternRewriter &rewriter, Location loc, Value x,
                         int64_t times) {
  auto type = cast<BaseTensorType>(x.getType());
  SmallVector<int64_t> sizes(type.getSizes());
  size_t rank = sizes.size();
  SmallVector<int64_t> unsqueezed(sizes);
  unsqueezed.insert(unsqueezed.begin() + (rank - 2), 1);
  Value one = AtenUnsqueezeOp::create(
      rewriter, loc,
      type.getWithSizesAndDtype(unsqueezed, type.getOptionalDtype()), x,
      createConstantInt(rewriter, loc, rank - 2));
  SmallVector<int64_t> expanded(unsqueezed);
  expanded[rank - 2] = times;
  Value repeated = AtenExpandOp::create(
      rewriter, loc,
      type.getWithSizesAndDtype(expanded, type.getOptionalDtype()), one,
      createIntList(rewriter, loc, expanded),
      createConstantBool(rewriter, loc, false));
  sizes[rank - 3] *= times;
  return createView(rewriter, loc, repeated, sizes);
}

/// scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal,
/// scale, enable_gqa) = softmax(q @ k^T * scale + mask) @ v, as PyTorch
/// defines it (torch.nn.functional.scaled_dot_product_attention): `scale`
/// defaults to 1/sqrt(E); a bool mask keeps the scores where it is true (the
/// others are -inf), a float mask is added; `is_causal` keeps the lower
/// triangle (top-left aligned); `enable_gqa` repeats each key and value head
/// for its group of query heads. Attention dropout (dropout_p > 0) is not
/// decomposed.
struct DecomposeAtenScaledDotProductAttention
    : OpRewritePattern<AtenScaledDotProductAttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenScaledDotProductAttentionOp op,
                                PatternRewriter &rewriter) const override {
    auto queryType = getRankedTensorType(op.getQuery());
    auto keyType = getRankedTensorType(op.getKey());
    auto valueType = getRankedTensorType(op.getValue());
    auto resultType = getRankedTensorType(op.getResult());
    if (!queryType || !keyType || !valueType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known sizes and dtypes");
    ArrayRef<int64_t> q = queryType.getSizes(), k = keyType.getSizes();
    size_t rank = q.size();
    if (rank < 2 || k.size() != rank || valueType.getSizes().size() != rank)
      return rewriter.notifyMatchFailure(
          op, "query, key and value need one rank of at least 2");
    double dropout;
    if (!matchTorchConstantFloat(op.getDropoutP(), dropout) || dropout != 0.0)
      return rewriter.notifyMatchFailure(
          op, "unsupported: attention dropout (dropout_p other than 0); way "
              "out: export the model in eval mode");
    bool causal, gqa;
    if (!matchTorchConstantBool(op.getIsCausal(), causal) ||
        !matchTorchConstantBool(op.getEnableGqa(), gqa))
      return rewriter.notifyMatchFailure(
          op, "is_causal and enable_gqa must be constants");
    int64_t headSize = q.back(), targetLength = q[rank - 2],
            sourceLength = k[rank - 2];
    if (headSize == kUnknownSize)
      return rewriter.notifyMatchFailure(op, "unsupported: unknown head size");
    double scale = 1.0 / std::sqrt(static_cast<double>(headSize));
    if (!isTorchNone(op.getScale()) &&
        !matchTorchConstantFloat(op.getScale(), scale))
      return rewriter.notifyMatchFailure(op, "scale must be a constant");

    Location loc = op.getLoc();
    Value key = op.getKey(), value = op.getValue();
    if (gqa && rank >= 3 && q[rank - 3] != k[rank - 3]) {
      int64_t queryHeads = q[rank - 3], keyHeads = k[rank - 3];
      if (queryHeads == kUnknownSize || keyHeads == kUnknownSize ||
          keyHeads == 0 || queryHeads % keyHeads != 0)
        return rewriter.notifyMatchFailure(
            op, "enable_gqa needs query heads a known multiple of key heads");
      key = repeatHeads(rewriter, loc, key, queryHeads / keyHeads);
      value = repeatHeads(rewriter, loc, value, queryHeads / keyHeads);
    }

    // scores = (q @ k^T) * scale: [..., L, S].
    auto keyNow = cast<BaseTensorType>(key.getType());
    SmallVector<int64_t> transposed(keyNow.getSizes());
    std::swap(transposed[rank - 1], transposed[rank - 2]);
    Value keyT = AtenTransposeIntOp::create(
        rewriter, loc,
        keyNow.getWithSizesAndDtype(transposed, keyNow.getOptionalDtype()), key,
        createConstantInt(rewriter, loc, -2),
        createConstantInt(rewriter, loc, -1));
    SmallVector<int64_t> scoreSizes(q.drop_back(2));
    scoreSizes.append({targetLength, sourceLength});
    auto scoresType =
        queryType.getWithSizesAndDtype(scoreSizes, queryType.getDtype());
    Value scores =
        AtenMatmulOp::create(rewriter, loc, scoresType, op.getQuery(), keyT);
    scores = AtenMulScalarOp::create(rewriter, loc, scoresType, scores,
                                     createConstantFloat(rewriter, loc, scale));

    Value minusInf = createConstantFloat(
        rewriter, loc, -std::numeric_limits<double>::infinity());
    if (causal) {
      if (targetLength == kUnknownSize || sourceLength == kUnknownSize)
        return rewriter.notifyMatchFailure(
            op, "unsupported: is_causal with unknown sequence lengths");
      // keep[i][j] = i >= j: arange(L) as a column against arange(S) as a row.
      Type i64 =
          IntegerType::get(rewriter.getContext(), 64, IntegerType::Signed);
      Value none = createConstantNone(rewriter, loc);
      auto arange = [&](int64_t length, ArrayRef<int64_t> shape) {
        Value range = AtenArangeOp::create(
            rewriter, loc,
            queryType.getWithSizesAndDtype(ArrayRef<int64_t>{length}, i64),
            createConstantInt(rewriter, loc, length), none, none, none, none);
        return createView(rewriter, loc, range, shape);
      };
      Value rows = arange(targetLength, {targetLength, 1});
      Value columns = arange(sourceLength, {1, sourceLength});
      Value keep = AtenGeTensorOp::create(
          rewriter, loc,
          queryType.getWithSizesAndDtype(
              ArrayRef<int64_t>{targetLength, sourceLength},
              rewriter.getI1Type()),
          rows, columns);
      scores = AtenWhereScalarOtherOp::create(rewriter, loc, scoresType, keep,
                                              scores, minusInf);
    }
    if (!isTorchNone(op.getAttnMask())) {
      auto maskType = getRankedTensorType(op.getAttnMask());
      if (!maskType)
        return rewriter.notifyMatchFailure(op, "mask needs known sizes");
      if (maskType.getDtype().isInteger(1))
        scores = AtenWhereScalarOtherOp::create(
            rewriter, loc, scoresType, op.getAttnMask(), scores, minusInf);
      else
        scores = AtenAddTensorOp::create(rewriter, loc, scoresType, scores,
                                         op.getAttnMask(),
                                         createConstantInt(rewriter, loc, 1));
    }
    Value weights = Aten_SoftmaxOp::create(
        rewriter, loc, scoresType, scores, createConstantInt(rewriter, loc, -1),
        createConstantBool(rewriter, loc, false));
    rewriter.replaceOpWithNewOp<AtenMatmulOp>(op, resultType, weights, value);
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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct DecomposeComplexOpsPass
    : public ::mlir::torch2mlir::torch::impl::DecomposeComplexOpsBase<
          DecomposeComplexOpsPass> {
  using Base::Base;

  template <typename PatternTy, typename OpTy, typename... Args>
  void addUnlessLegal(RewritePatternSet &patterns,
                      const llvm::StringSet<> &legal, Args &&...args) {
    // "torch.aten.linear" is named "aten.linear" by users.
    StringRef name = OpTy::getOperationName();
    if (legal.contains(name) || legal.contains(name.drop_front(6)))
      return;
    patterns.add<PatternTy>(patterns.getContext(), std::forward<Args>(args)...);
  }

  void runOnOperation() override {
    llvm::StringSet<> legal;
    for (const std::string &name : legalOps)
      legal.insert(name);
    RewritePatternSet patterns(&getContext());
    addUnlessLegal<DecomposeAtenLinear, AtenLinearOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenMatmul, AtenMatmulOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenScaledDotProductAttention,
                   AtenScaledDotProductAttentionOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenT, AtenTOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenTransposeInt, AtenTransposeIntOp>(patterns,
                                                                  legal);
    addUnlessLegal<DecomposeToView<AtenReshapeOp>, AtenReshapeOp>(patterns,
                                                                  legal);
    addUnlessLegal<DecomposeToView<Aten_UnsafeViewOp>, Aten_UnsafeViewOp>(
        patterns, legal);
    addUnlessLegal<DecomposeToView<AtenFlattenUsingIntsOp>,
                   AtenFlattenUsingIntsOp>(patterns, legal);
    addUnlessLegal<DecomposeToView<AtenUnsqueezeOp>, AtenUnsqueezeOp>(patterns,
                                                                      legal);
    addUnlessLegal<DecomposeAtenUnsqueezeDynamic, AtenUnsqueezeOp>(patterns,
                                                                   legal);
    addUnlessLegal<DecomposeToView<AtenSqueezeOp>, AtenSqueezeOp>(patterns,
                                                                  legal);
    addUnlessLegal<DecomposeToView<AtenSqueezeDimOp>, AtenSqueezeDimOp>(
        patterns, legal);
    addUnlessLegal<DecomposeToView<AtenSqueezeDimsOp>, AtenSqueezeDimsOp>(
        patterns, legal);
    addUnlessLegal<DecomposeToIdentity<AtenContiguousOp>, AtenContiguousOp>(
        patterns, legal);
    addUnlessLegal<DecomposeToIdentity<AtenDetachOp>, AtenDetachOp>(patterns,
                                                                    legal);
    addUnlessLegal<DecomposeToIdentity<AtenAliasOp>, AtenAliasOp>(patterns,
                                                                  legal);
    addUnlessLegal<DecomposeAtenDropout, AtenDropoutOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenConv2d, AtenConv2dOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenConv2dPadding, AtenConv2dPaddingOp>(patterns,
                                                                    legal);
    addUnlessLegal<DecomposeAtenToDtype, AtenToDtypeOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenBatchNorm, AtenBatchNormOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenLayerNorm, AtenLayerNormOp>(patterns, legal);
    addUnlessLegal<DecomposeSoftmaxInt<AtenSoftmaxIntOp, Aten_SoftmaxOp>,
                   AtenSoftmaxIntOp>(patterns, legal);
    addUnlessLegal<DecomposeSoftmaxInt<AtenLogSoftmaxIntOp, Aten_LogSoftmaxOp>,
                   AtenLogSoftmaxIntOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenMeanDim, AtenMeanDimOp>(patterns, legal);
    addUnlessLegal<DecomposeFullReduction<AtenMeanOp, AtenMeanDimOp>,
                   AtenMeanOp>(patterns, legal);
    addUnlessLegal<DecomposeFullReduction<AtenSumOp, AtenSumDimIntListOp>,
                   AtenSumOp>(patterns, legal);
    addUnlessLegal<DecomposeMaxPool2dWithIndices, AtenMaxPool2dWithIndicesOp>(
        patterns, legal);
    addUnlessLegal<DecomposeAdaptiveAvgPool2d, AtenAdaptiveAvgPool2dOp>(
        patterns, legal);
    addUnlessLegal<DecomposeAdaptiveAvgPool2dToAvgPool,
                   Aten_AdaptiveAvgPool2dOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenRsubScalar, AtenRsubScalarOp>(patterns, legal);
    addUnlessLegal<DecomposeConstantFactory<AtenZerosOp, 0>, AtenZerosOp>(
        patterns, legal);
    addUnlessLegal<DecomposeConstantFactory<AtenOnesOp, 1>, AtenOnesOp>(
        patterns, legal);
    addUnlessLegal<DecomposeAtenArange, AtenArangeOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenArangeStart, AtenArangeStartOp>(patterns,
                                                                legal);
    addUnlessLegal<DecomposeWhereScalar<AtenWhereScalarOtherOp, false>,
                   AtenWhereScalarOtherOp>(patterns, legal);
    addUnlessLegal<DecomposeWhereScalar<AtenWhereScalarSelfOp, true>,
                   AtenWhereScalarSelfOp>(patterns, legal);
    addUnlessLegal<DecomposeToBinary<AtenMinOtherOp, AtenMinimumOp>,
                   AtenMinOtherOp>(patterns, legal);
    addUnlessLegal<DecomposeToBinary<AtenMaxOtherOp, AtenMaximumOp>,
                   AtenMaxOtherOp>(patterns, legal);
    addUnlessLegal<DecomposeMinMaxDim<AtenMaxDimOp, AtenAmaxOp, AtenArgmaxOp>,
                   AtenMaxDimOp>(patterns, legal);
    addUnlessLegal<DecomposeMinMaxDim<AtenMinDimOp, AtenAminOp, AtenArgminOp>,
                   AtenMinDimOp>(patterns, legal);
    addUnlessLegal<DecomposeAtenProd, AtenProdOp>(patterns, legal);
    addUnlessLegal<DecomposeMinMaxAll<AtenMaxOp, AtenAmaxOp>, AtenMaxOp>(
        patterns, legal);
    addUnlessLegal<DecomposeMinMaxAll<AtenMinOp, AtenAminOp>, AtenMinOp>(
        patterns, legal);
    addUnlessLegal<DecomposeAtenVar<AtenVarCorrectionOp>, AtenVarCorrectionOp>(
        patterns, legal, float64);
    addUnlessLegal<DecomposeAtenVar<AtenVarDimOp>, AtenVarDimOp>(
        patterns, legal, float64);
    addUnlessLegal<DecomposeAtenSplitWithSizes, AtenSplitWithSizesOp>(patterns,
                                                                      legal);
    addUnlessLegal<DecomposeAtenNativeGroupNorm, AtenNativeGroupNormOp>(
        patterns, legal, float64);
    addUnlessLegal<
        DecomposeBatchNormTraining<Aten_NativeBatchNormLegitFunctionalOp, true>,
        Aten_NativeBatchNormLegitFunctionalOp>(patterns, legal, float64);
    addUnlessLegal<
        DecomposeBatchNormTraining<Aten_NativeBatchNormLegitNoStatsOp, false>,
        Aten_NativeBatchNormLegitNoStatsOp>(patterns, legal, float64);
    addUnlessLegal<DecomposeAtenCdistForward, Aten_CdistForwardOp>(patterns,
                                                                   legal);
    addUnlessLegal<DecomposeAtenPdistForward, Aten_PdistForwardOp>(patterns,
                                                                   legal);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
