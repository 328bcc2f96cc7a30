//===- Reductions.cpp - Reductions, softmax and distances -----------------===//
//
// Part of the torch2mlir project.
//
// softmax.int into _softmax; mean, full reductions, min/max, prod and var
// into sums, amax/amin and elementwise ops; cdist and pdist into
// broadcast differences and a p-norm reduction.
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

/// mean.dim(x, dims, keepdim) = sum.dim_IntList(x, dims, keepdim) / N
/// (float or complex x); N, the number of elements reduced, is computed
/// from the sizes at run time where they are unknown.
struct DecomposeAtenMeanDim : OpRewritePattern<AtenMeanDimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenMeanDimOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = getRankedTensorType(op.getSelf());
    auto resultType = getRankedTensorType(op.getResult());
    if (!inputType || !resultType)
      return rewriter.notifyMatchFailure(op, "needs known types");
    if (!isa<mlir::FloatType, mlir::ComplexType>(resultType.getDtype()))
      return rewriter.notifyMatchFailure(op, "unsupported: non-float mean");
    int64_t rank = inputType.getSizes().size();
    auto dims = getReductionDims(op.getDim(), rank);
    if (failed(dims))
      return rewriter.notifyMatchFailure(op,
                                         "dims must be constant and in range");
    Location loc = op.getLoc();
    Value sum = AtenSumDimIntListOp::create(rewriter, loc, resultType,
                                            op.getSelf(), op.getDim(),
                                            op.getKeepdim(), op.getDtype());
    rewriter.replaceOpWithNewOp<AtenDivScalarOp>(
        op, resultType, sum, createCount(rewriter, loc, op.getSelf(), *dims));
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

/// var(x, dims, correction, keepdim) = sum((x - mean(x, dims))^2, dims) /
/// max(N - correction, 0), N the number of elements reduced (two passes;
/// N - correction = 0 gives inf or NaN, as in PyTorch); where a reduced size
/// is unknown, N comes from the sizes at run time and the divisor is a 0-d
/// tensor (an integral correction only). With `float64`
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
    SmallVector<int64_t> keptSizes(sizes);
    int64_t count = 1;
    for (int64_t dim : *dims) {
      keptSizes[dim] = 1;
      count = sizes[dim] == kUnknownSize || count == kUnknownSize
                  ? kUnknownSize
                  : count * sizes[dim];
    }
    if (count == kUnknownSize && *correction != std::floor(*correction))
      return rewriter.notifyMatchFailure(
          op, "unsupported: a fractional correction with an unknown reduced "
              "size");
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
    Value var;
    if (count != kUnknownSize) {
      double divisor = std::max(static_cast<double>(count) - *correction, 0.0);
      var =
          AtenDivScalarOp::create(rewriter, loc, sumType, sum,
                                  createConstantFloat(rewriter, loc, divisor));
    } else {
      // max(N - correction, 0) as a 0-d tensor of the sum's dtype.
      auto intType = IntType::get(rewriter.getContext());
      Value shifted = AtenSubIntOp::create(
          rewriter, loc, intType,
          createCount(rewriter, loc, op.getSelf(), *dims),
          createConstantInt(rewriter, loc, static_cast<int64_t>(*correction)));
      Value divisor = createScalarTensor(rewriter, loc, shifted, dtype);
      divisor =
          AtenClampOp::create(rewriter, loc, divisor.getType(), divisor,
                              createConstantFloat(rewriter, loc, 0.0), none);
      var = AtenDivTensorOp::create(rewriter, loc, sumType, sum, divisor);
    }
    if (narrow)
      var = createCast(rewriter, loc, var, resultType.getDtype());
    rewriter.replaceOp(op, var);
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
    return AtenSqrtOp::create(
        rewriter, loc, type,
        sum(AtenMulTensorOp::create(rewriter, loc, dType, d, d)));
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
static Value createDistances(PatternRewriter &rewriter, Location loc, Value x1,
                             Value x2, double p, BaseTensorType type) {
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
static FailureOr<double> matchDistance(PatternRewriter &rewriter, Operation *op,
                                       Value pValue) {
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

} // namespace

void mlir::torch2mlir::torch::decompose::populateReductionDecompositions(
    DecompositionPatterns &set) {
  set.add<DecomposeSoftmaxInt<AtenSoftmaxIntOp, Aten_SoftmaxOp>,
          AtenSoftmaxIntOp>();
  set.add<DecomposeSoftmaxInt<AtenLogSoftmaxIntOp, Aten_LogSoftmaxOp>,
          AtenLogSoftmaxIntOp>();
  set.add<DecomposeAtenMeanDim, AtenMeanDimOp>();
  set.add<DecomposeFullReduction<AtenMeanOp, AtenMeanDimOp>, AtenMeanOp>();
  set.add<DecomposeFullReduction<AtenSumOp, AtenSumDimIntListOp>, AtenSumOp>();
  set.add<DecomposeMinMaxDim<AtenMaxDimOp, AtenAmaxOp, AtenArgmaxOp>,
          AtenMaxDimOp>();
  set.add<DecomposeMinMaxDim<AtenMinDimOp, AtenAminOp, AtenArgminOp>,
          AtenMinDimOp>();
  set.add<DecomposeAtenProd, AtenProdOp>();
  set.add<DecomposeMinMaxAll<AtenMaxOp, AtenAmaxOp>, AtenMaxOp>();
  set.add<DecomposeMinMaxAll<AtenMinOp, AtenAminOp>, AtenMinOp>();
  set.add<DecomposeAtenVar<AtenVarCorrectionOp>, AtenVarCorrectionOp>(
      set.float64);
  set.add<DecomposeAtenVar<AtenVarDimOp>, AtenVarDimOp>(set.float64);
  set.add<DecomposeAtenCdistForward, Aten_CdistForwardOp>();
  set.add<DecomposeAtenPdistForward, Aten_PdistForwardOp>();
}
