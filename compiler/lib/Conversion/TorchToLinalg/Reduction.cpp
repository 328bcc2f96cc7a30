//===- Reduction.cpp - Reductions and softmax to linalg -------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

/// A map from the input's dims to the kept (non-reduced) dims.
static AffineMap getReducedMap(int64_t rank, ArrayRef<int64_t> reducedDims,
                               MLIRContext *context) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(reducedDims, i))
      exprs.push_back(getAffineDimExpr(i, context));
  return AffineMap::get(rank, 0, exprs, context);
}

/// Reduces `input` over `reducedDims` (removing them) with `combine`,
/// starting from `initValue`; each element is first cast by `convert`.
static Value createReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> reducedDims,
    Value initValue,
    function_ref<Value(OpBuilder &, Location, Value element, Value acc)>
        combine) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < rank; ++i) {
    if (llvm::is_contained(reducedDims, i))
      continue;
    shape.push_back(inputType.getDimSize(i));
    if (inputType.isDynamicDim(i))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, input, i));
  }
  auto resultType = RankedTensorType::get(shape, initValue.getType());
  Value empty =
      tensor::EmptyOp::create(b, loc, shape, initValue.getType(), dynamicSizes);
  Value init =
      linalg::FillOp::create(b, loc, ValueRange{initValue}, ValueRange{empty})
          .getResult(0);
  MLIRContext *context = b.getContext();
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i)
    iterators.push_back(llvm::is_contained(reducedDims, i)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input}, ValueRange{init},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                                 getReducedMap(rank, reducedDims, context)},
             iterators,
             [&](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(nested, l,
                                       combine(nested, l, args[0], args[1]));
             })
      .getResult(0);
}

/// Applies `body(x, r)` to each element x of `input` and the element r of
/// `reduced` (input with `dim` removed) at the same position.
static Value createWithReduced(
    OpBuilder &b, Location loc, Value input, Value reduced, int64_t dim,
    function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  MLIRContext *context = b.getContext();
  Value init = createEmpty(b, loc, inputType, input);
  return linalg::GenericOp::create(
             b, loc, TypeRange{inputType}, ValueRange{input, reduced},
             ValueRange{init},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                                 getReducedMap(rank, {dim}, context),
                                 b.getMultiDimIdentityMap(rank)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(nested, l,
                                       body(nested, l, args[0], args[1]));
             })
      .getResult(0);
}

/// For a float32 sum of `input` over `dims` that are consecutive and leave
/// at least one dim after them (static sizes): the sums, of shape [dims
/// before collapsed, dims after collapsed]. The reduced block of R >
/// kSumChunk elements is cut into R / K chunks of K consecutive elements,
/// K the largest divisor of R up to kSumChunk (null when it is below 8).
/// One reduction adds each chunk in float32 with the dims after it
/// innermost, so the additions are vectors across contiguous columns; a
/// second adds the chunks' sums in float64, rounded once. The error stays
/// within a few ulps, as createChunkedRowSums. Null when the sum is not of
/// that form.
static Value createChunkedColumnSums(OpBuilder &b, Location loc, Value input,
                                     ArrayRef<int64_t> dims, Type element,
                                     bool srcUnsigned) {
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  if (!inputType || !element.isF32() || !inputType.hasStaticShape() ||
      dims.empty())
    return Value();
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> sorted(dims);
  llvm::sort(sorted);
  sorted.erase(llvm::unique(sorted), sorted.end());
  int64_t first = sorted.front(), last = sorted.back();
  if (last - first + 1 != static_cast<int64_t>(sorted.size()) ||
      last >= rank - 1)
    return Value();
  ArrayRef<int64_t> shape = inputType.getShape();
  auto product = [&](int64_t from, int64_t to) {
    int64_t result = 1;
    for (int64_t d = from; d < to; ++d)
      result *= shape[d];
    return result;
  };
  int64_t before = product(0, first), reduced = product(first, last + 1),
          after = product(last + 1, rank);
  // One chunk or none: the plain reduction (in float64) is as fast.
  if (before == 0 || reduced <= kSumChunk || after == 0)
    return Value();
  int64_t chunk = kSumChunk;
  while (reduced % chunk != 0)
    --chunk;
  if (chunk < 8)
    return Value();
  // [before, reduced / chunk, chunk, after]: the chunks of the reduced block.
  SmallVector<ReassociationIndices> groups(1);
  for (int64_t d = 0; d < first; ++d)
    groups.back().push_back(d);
  groups.emplace_back();
  for (int64_t d = first; d <= last; ++d)
    groups.back().push_back(d);
  groups.emplace_back();
  for (int64_t d = last + 1; d < rank; ++d)
    groups.back().push_back(d);
  if (groups.front().empty()) {
    // No dims before: a leading 1 comes from the expansion below.
    groups.erase(groups.begin());
  }
  Value flat =
      static_cast<int64_t>(groups.size()) == rank
          ? input
          : tensor::CollapseShapeOp::create(b, loc, input, groups).getResult();
  auto chunkedType = RankedTensorType::get(
      {before, reduced / chunk, chunk, after}, inputType.getElementType());
  SmallVector<ReassociationIndices> expand;
  if (first == 0)
    expand = {{0, 1, 2}, {3}};
  else
    expand = {{0}, {1, 2}, {3}};
  Value chunked =
      tensor::ExpandShapeOp::create(b, loc, chunkedType, flat, expand);
  // Each chunk's sum in float32: [before, chunks, after].
  Value partials = createReduction(
      b, loc, chunked, {2}, createZero(b, loc, element),
      [&](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
        return arith::AddFOp::create(
            nb, l, convertScalar(nb, l, x, element, srcUnsigned), acc,
            arith::FastMathFlags::reassoc);
      });
  // The chunks' sums added in float64: [before, after].
  Type f64 = b.getF64Type();
  Value total = createReduction(
      b, loc, partials, {1}, createZero(b, loc, f64),
      [&](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
        return arith::AddFOp::create(nb, l,
                                     arith::ExtFOp::create(nb, l, f64, x), acc);
      });
  return castFloatTensor(b, loc, total,
                         RankedTensorType::get({before, after}, element));
}

/// Normalizes constant `dims` against `rank` (empty: all dims), sorted and
/// unique; failure when one is out of range.
static FailureOr<SmallVector<int64_t>> normalizeDims(ArrayRef<int64_t> dims,
                                                     int64_t rank) {
  SmallVector<int64_t> result;
  if (dims.empty())
    return llvm::to_vector(llvm::seq<int64_t>(0, rank));
  for (int64_t dim : dims) {
    // A 0-d tensor reduces over "dim" 0 or -1.
    int64_t positive = toPositiveDim(dim, std::max<int64_t>(rank, 1));
    if (positive < 0)
      return failure();
    if (rank != 0)
      result.push_back(positive);
  }
  llvm::sort(result);
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

namespace {

/// sum.dim_IntList(x, dims, keepdim, dtype): each element is converted to the
/// result dtype and added; integers accumulate in the result dtype, floats
/// one step wider (getSumAccumulatorType) and round once. Float additions
/// may reassociate, so LLVM vectorizes them into partial sums (pairwise
/// in effect: no less accurate than one running sum). A float32 sum over
/// trailing dims runs row by row in chunks instead (createChunkedRowSums),
/// and one over consecutive dims before the last in chunks of columns
/// (createChunkedColumnSums).
struct ConvertAtenSumDimIntList : OpConversionPattern<AtenSumDimIntListOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSumDimIntListOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    SmallVector<int64_t> dimList;
    if (!isTorchNone(op.getDim()) &&
        !matchTorchConstantIntList(op.getDim(), dimList))
      return reportFailure(rewriter, op, "dims must be constants");
    auto normalized = normalizeDims(dimList, rank);
    if (failed(normalized))
      return reportFailure(rewriter, op, kDimOutOfRange);
    SmallVector<int64_t> dims = std::move(*normalized);
    Type element = resultType.getElementType();
    if (element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: bool sum result");
    Type inputDtype = getTorchDtype(op.getSelf());
    bool srcUnsigned = inputDtype && inputDtype.isUnsignedInteger();
    Location loc = op.getLoc();
    bool isFloat = isa<mlir::FloatType>(element);
    Value chunkedSums =
        createChunkedRowSums(rewriter, loc, input, dims, element, srcUnsigned);
    if (!chunkedSums)
      chunkedSums = createChunkedColumnSums(rewriter, loc, input, dims, element,
                                            srcUnsigned);
    if (chunkedSums) {
      Value reshaped = createReshape(rewriter, loc, chunkedSums, resultType);
      if (!reshaped)
        return reportFailure(rewriter, op, kUnknownReshapeSizes);
      rewriter.replaceOp(op, reshaped);
      return success();
    }
    Type accType = getSumAccumulatorType(element);
    Value zero = createZero(rewriter, loc, accType);
    Value sum = createReduction(
        rewriter, loc, input, dims, zero,
        [&](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          x = convertScalar(b, l, x, element, srcUnsigned);
          if (isa<ComplexType>(accType))
            return complex::AddOp::create(b, l, castFloat(b, l, x, accType),
                                          acc);
          if (isFloat)
            return arith::AddFOp::create(b, l, castFloat(b, l, x, accType), acc,
                                         arith::FastMathFlags::reassoc);
          return arith::AddIOp::create(b, l, x, acc);
        });
    sum = castFloatTensor(rewriter, loc, sum,
                          cast<RankedTensorType>(sum.getType()).clone(element));
    Value reshaped = createReshape(rewriter, loc, sum, resultType);
    if (!reshaped)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    rewriter.replaceOp(op, reshaped);
    return success();
  }
};

static Value createRowSoftmax(OpBuilder &b, Location loc, Value input,
                              bool isLog);

/// One step of softmax's max: arith.maximumf (a NaN propagates), free to
/// reassociate and to treat -0.0 and +0.0 alike (nsz), which x - max does
/// (both give exp(x - max) = exp(x) and the same log_softmax up to the sign
/// of a zero result). Without nsz, LLVM orders the zeros with a blend on
/// each operand's sign: six instructions a vector instead of three, and a
/// row of 128 spent a third of its time in the max.
///
/// Not arith.maxnumf (a NaN skipped; the row still NaN through its exp):
/// LLVM 22.1's loop vectorizer checks maxnum vectors for NaN and, finding
/// none, leaves out the loop's scalar remainder (a row of 7 reduced only
/// its first 4 values; the e2e case log_softmax_last_dim_large_logits).
static Value createSoftmaxMax(OpBuilder &b, Location loc, Value x, Value acc) {
  return arith::MaximumFOp::create(b, loc, x, acc,
                                   arith::FastMathFlags::reassoc |
                                       arith::FastMathFlags::nsz);
}

/// softmax (or log_softmax with `isLog`) of `input` (float) along `dim` as
/// whole-tensor passes: the max; then for softmax e = exp(x - max) once,
/// its sum, e times 1 / sum; for log_softmax (x - max) - log(sum of exp(x -
/// max)). The sums may reassociate (LLVM vectorizes them into partial
/// sums: more accurate, not less, than one running sum) and so may the max
/// (exact in any order).
static Value createSoftmaxPasses(OpBuilder &b, Location loc, Value input,
                                 int64_t dim, bool isLog) {
  Type element = cast<RankedTensorType>(input.getType()).getElementType();
  Value lowest = createLowestValue(b, loc, element);
  Value max = createReduction(
      b, loc, input, {dim}, lowest,
      [](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
        return createSoftmaxMax(nb, l, x, acc);
      });
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  auto add = [](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
    return arith::AddFOp::create(nb, l, x, acc, arith::FastMathFlags::reassoc);
  };
  if (isLog) {
    Value shifted = createWithReduced(
        b, loc, input, max, dim,
        [](OpBuilder &nb, Location l, Value x, Value m) -> Value {
          return arith::SubFOp::create(nb, l, x, m);
        });
    Value sum = createReduction(
        b, loc, shifted, {dim}, zero,
        [&](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
          return add(nb, l, createExpOfNonPositive(nb, l, x), acc);
        });
    // log(sum) once per reduced position.
    Value logSum = createElementwise(
        b, loc, cast<RankedTensorType>(sum.getType()), {sum},
        [](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return math::LogOp::create(nb, l, args[0]);
        });
    return createWithReduced(
        b, loc, shifted, logSum, dim,
        [](OpBuilder &nb, Location l, Value x, Value s) -> Value {
          return arith::SubFOp::create(nb, l, x, s);
        });
  }
  // e = exp(x - max) and its sum in one pass: one generic, reducing `dim`,
  // with two results, e (every position, written once) and the sum (the
  // reduced positions). Two ops read e twice: a [1000, 16] slab of a
  // middle-dim softmax (createSlabSoftmax) took four passes over the cache
  // where PyTorch's kernel takes three.
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  auto maxType = cast<RankedTensorType>(max.getType());
  Value sumInit =
      linalg::FillOp::create(b, loc, ValueRange{zero},
                             ValueRange{createEmpty(b, loc, maxType, max)})
          .getResult(0);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators[dim] = utils::IteratorType::reduction;
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap reduced = getReducedMap(rank, {dim}, b.getContext());
  auto expSum = linalg::GenericOp::create(
      b, loc, TypeRange{type, sumInit.getType()}, ValueRange{input, max},
      ValueRange{createEmpty(b, loc, type, input), sumInit},
      ArrayRef<AffineMap>{identity, reduced, identity, reduced}, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value e = createExpOfNonPositive(
            nb, l, arith::SubFOp::create(nb, l, args[0], args[1]));
        linalg::YieldOp::create(nb, l, ValueRange{e, add(nb, l, e, args[3])});
      });
  Value exps = expSum.getResult(0), sum = expSum.getResult(1);
  // 1 / sum once per reduced position (see createRowSoftmax).
  Value inverse = createElementwise(
      b, loc, cast<RankedTensorType>(sum.getType()), {sum},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value one =
            arith::ConstantOp::create(nb, l, nb.getFloatAttr(element, 1.0));
        return arith::DivFOp::create(nb, l, one, args[0]);
      });
  return createWithReduced(
      b, loc, exps, inverse, dim,
      [](OpBuilder &nb, Location l, Value e, Value r) -> Value {
        return arith::MulFOp::create(nb, l, e, r);
      });
}

/// Slabs of at most this many bytes (a dim and the dims after it) take
/// createSlabSoftmax: each stays in the L2 cache across its passes.
constexpr int64_t kSoftmaxSlabBytes = int64_t(256) << 10;

/// softmax (or log_softmax) of `input` along a middle `dim` (static
/// shape), slab by slab: the input as [outer, n, inner] (the dims before
/// `dim`, `dim`, the dims after), an scf.forall over `outer` whose body
/// runs createSoftmaxPasses on one [n, inner] slab along its dim 0, so
/// that the slab stays in the cache between the passes where whole-tensor
/// passes stream the tensor from memory four times; the slabs run in
/// parallel. Null when `dim` is the first or last dim, a size is dynamic,
/// or a slab exceeds kSoftmaxSlabBytes.
static Value createSlabSoftmax(OpBuilder &b, Location loc, Value input,
                               int64_t dim, bool isLog) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  if (dim <= 0 || dim >= rank - 1 || !type.hasStaticShape())
    return Value();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= shape[d];
  int64_t slabBytes =
      shape[dim] * inner * llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  if (outer < 2 || slabBytes == 0 || slabBytes > kSoftmaxSlabBytes)
    return Value();
  SmallVector<ReassociationIndices> groups{
      llvm::to_vector(llvm::seq<int64_t>(0, dim)),
      {dim},
      llvm::to_vector(llvm::seq<int64_t>(dim + 1, rank))};
  Value slabs = tensor::CollapseShapeOp::create(b, loc, input, groups);
  auto slabsType = cast<RankedTensorType>(slabs.getType());
  auto slabType =
      RankedTensorType::get({shape[dim], inner}, type.getElementType());
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(outer)},
      ValueRange{tensor::EmptyOp::create(b, loc, slabsType.getShape(),
                                         type.getElementType())},
      /*mapping=*/std::nullopt);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    SmallVector<OpFoldResult> offsets{forall.getInductionVars()[0],
                                      b.getIndexAttr(0), b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{
        b.getIndexAttr(1), b.getIndexAttr(shape[dim]), b.getIndexAttr(inner)};
    SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
    Value slab = tensor::ExtractSliceOp::create(b, loc, slabType, slabs,
                                                offsets, sizes, strides);
    Value result = createSoftmaxPasses(b, loc, slab, /*dim=*/0, isLog);
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(
        b, loc, result, forall.getRegionIterArgs()[0], offsets, sizes, strides);
  }
  return tensor::ExpandShapeOp::create(b, loc, type, forall.getResult(0),
                                       groups);
}

/// _softmax(x, dim) = exp(x - max) / sum(exp(x - max)), and
/// _log_softmax(x, dim) = (x - max) - log(sum(exp(x - max))), computed in
/// the opmath type (f32 for f16/bf16, as PyTorch's CPU kernels: an f16 sum
/// of exps was off by several ulps) and rounded once.
template <typename OpTy, bool isLog>
struct ConvertSoftmax : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (!resultType || resultType != inputType)
      return reportFailure(
          rewriter, op,
          "unsupported: softmax whose result dtype differs from its input");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op, "unsupported: non-float softmax");
    int64_t rank = inputType.getRank();
    int64_t dim;
    // A 0-d tensor is a softmax over one element, along dim 0 or -1.
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Wrap, dim)))
      return failure();
    Location loc = op.getLoc();
    // An empty tensor has nothing to compute (and its rows no slice to
    // take: the row forall would extract a row past the end).
    if (inputType.hasStaticShape() && inputType.getNumElements() == 0) {
      rewriter.replaceOp(op, tensor::EmptyOp::create(rewriter, loc,
                                                     resultType.getShape(),
                                                     element));
      return success();
    }
    if (rank == 0)
      input = createReshape(rewriter, loc, input,
                            RankedTensorType::get({1}, element));
    Type opMath = getOpMathType(element);
    if (opMath != element) {
      input = castFloatTensor(
          rewriter, loc, input,
          cast<RankedTensorType>(input.getType()).clone(opMath));
      element = opMath;
    }
    // The result, rounded to the result dtype and reshaped (a 0-d input).
    auto finish = [&](Value result) -> LogicalResult {
      if (element != resultType.getElementType())
        result = castFloatTensor(rewriter, loc, result,
                                 cast<RankedTensorType>(result.getType())
                                     .clone(resultType.getElementType()));
      Value reshaped = createReshape(rewriter, loc, result, resultType);
      if (!reshaped)
        return reportFailure(rewriter, op, kUnknownReshapeSizes);
      rewriter.replaceOp(op, reshaped);
      return success();
    };
    // Along the last dim of a tensor of rows: row by row.
    if (rank >= 2 && dim == rank - 1 &&
        !ShapedType::isDynamic(
            cast<RankedTensorType>(input.getType()).getShape().back()))
      return finish(createRowSoftmax(rewriter, loc, input, isLog));
    // Along a middle dim of a tensor of slabs small enough for the cache:
    // slab by slab.
    if (Value slabs = createSlabSoftmax(rewriter, loc, input, dim, isLog))
      return finish(slabs);
    return finish(createSoftmaxPasses(rewriter, loc, input, dim, isLog));
  }
};

/// amax/amin(x, dims, keepdim): NaN-propagating max/min over `dims` (all
/// when empty).
template <typename OpTy, bool isMax>
struct ConvertAminmax : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (inputType.getElementType() != resultType.getElementType())
      return reportFailure(rewriter, op, "result dtype differs from input");
    SmallVector<int64_t> dimList;
    if (!matchTorchConstantIntList(op.getDim(), dimList))
      return reportFailure(rewriter, op, "dim must be a constant int list");
    auto dims = normalizeDims(dimList, inputType.getRank());
    if (failed(dims))
      return reportFailure(rewriter, op, kDimOutOfRange);
    Type dtype = getTorchDtype(op.getSelf());
    Location loc = op.getLoc();
    Value init = createExtremeValue(rewriter, loc, dtype, /*highest=*/!isMax);
    // A float extreme may treat -0.0 and +0.0 alike (nsz), as PyTorch's
    // vectorized max/min do (x86's vmaxps returns its second operand for two
    // zeros): a NaN still propagates, and LLVM's maximum step is three
    // instructions a vector instead of six (amax(-1) of [1024, 4096] took
    // 1.4x eager's time).
    Value reduced = createReduction(
        rewriter, loc, input, *dims, init,
        [&](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          if (!isa<mlir::FloatType>(x.getType()))
            return createMinMax(b, l, x, acc, dtype, isMax);
          auto nsz = arith::FastMathFlags::nsz;
          return isMax
                     ? arith::MaximumFOp::create(b, l, x, acc, nsz).getResult()
                     : arith::MinimumFOp::create(b, l, x, acc, nsz).getResult();
        });
    Value reshaped = createReshape(rewriter, loc, reduced, resultType);
    if (!reshaped)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    rewriter.replaceOp(op, reshaped);
    return success();
  }
};

/// The running sums of `input` (already in `type`'s element type) along its
/// last dim, carried in `accType` and rounded to the element type at each
/// output. Every row (an index of the other dims) is one iteration of an
/// scf.forall, which the RefBackend runs across its threads; inside, a
/// scalar loop walks the row in memory order and writes the row of the
/// result in place (an extract_slice of the forall's shared output).
static Value createRowScan(
    OpBuilder &b, Location loc, Value input, RankedTensorType type,
    Type accType,
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value)> add) {
  Type element = type.getElementType();
  return createRowForall(
      b, loc, input, type,
      [&](OpBuilder &rb, Location rl, const Row &row) -> Value {
        Value start = createZero(rb, rl, accType);
        auto scan = row.loop(
            rb, rl, ValueRange{start, row.out},
            [&](OpBuilder &nb, Location l, Value iv, ValueRange carried) {
              Value x = row.read(nb, l, iv);
              if (accType != element)
                x = castFloat(nb, l, x, accType);
              Value sum = add(nb, l, x, carried[0]);
              Value out =
                  accType != element ? castFloat(nb, l, sum, element) : sum;
              Value written = tensor::InsertOp::create(nb, l, out, carried[1],
                                                       ValueRange{iv});
              scf::YieldOp::create(nb, l, ValueRange{sum, written});
            });
        return scan.getResult(1);
      });
}

/// softmax (or log_softmax with `isLog`) of `input` (float, rank >= 1)
/// along its last dim, one row at a time: an scf.forall over the rows whose
/// body runs three scalar loops over the row (its max; the sum of exp(x -
/// max), storing each exp for softmax; the result), so that a row stays in
/// the L1 cache between the passes, where whole-tensor passes stream it
/// from memory four times. The max and the sum carry reassociable
/// operations, which LLVM vectorizes into partial results.
static Value createRowSoftmax(OpBuilder &b, Location loc, Value input,
                              bool isLog) {
  auto type = cast<RankedTensorType>(input.getType());
  Type element = type.getElementType();
  return createRowForall(
      b, loc, input, type,
      [&](OpBuilder &rb, Location rl, const Row &row) -> Value {
        auto reassoc = arith::FastMathFlags::reassoc;
        Value max =
            row.loop(rb, rl, ValueRange{createLowestValue(rb, rl, element)},
                     [&](OpBuilder &nb, Location l, Value iv,
                         ValueRange carried) {
                       Value m = createSoftmaxMax(nb, l, row.read(nb, l, iv),
                                                  carried[0]);
                       scf::YieldOp::create(nb, l, m);
                     })
                .getResult(0);
        Value zeroSum =
            arith::ConstantOp::create(rb, rl, rb.getZeroAttr(element));
        // The sum of exp(x - max); softmax also stores each exp in the row.
        SmallVector<Value> inits{zeroSum};
        if (!isLog)
          inits.push_back(row.out);
        auto sumLoop = row.loop(
            rb, rl, inits,
            [&](OpBuilder &nb, Location l, Value iv, ValueRange carried) {
              Value e = createExpOfNonPositive(
                  nb, l,
                  arith::SubFOp::create(nb, l, row.read(nb, l, iv), max));
              SmallVector<Value> next{
                  arith::AddFOp::create(nb, l, e, carried[0], reassoc)};
              if (!isLog)
                next.push_back(tensor::InsertOp::create(nb, l, e, carried[1],
                                                        ValueRange{iv}));
              scf::YieldOp::create(nb, l, next);
            });
        Value sum = sumLoop.getResult(0);
        // log_softmax subtracts log(sum); softmax multiplies by 1 / sum, as
        // PyTorch's vectorized CPU kernel does: one division per row, not
        // one per element (a vector division takes ~8x a multiply's
        // throughput).
        Value scale = isLog ? math::LogOp::create(rb, rl, sum).getResult()
                            : arith::DivFOp::create(
                                  rb, rl,
                                  arith::ConstantOp::create(
                                      rb, rl, rb.getFloatAttr(element, 1.0)),
                                  sum)
                                  .getResult();
        Value start = isLog ? row.out : sumLoop.getResult(1);
        return row
            .loop(
                rb, rl, ValueRange{start},
                [&](OpBuilder &nb, Location l, Value iv, ValueRange carried) {
                  Value y;
                  if (isLog) {
                    Value shifted =
                        arith::SubFOp::create(nb, l, row.read(nb, l, iv), max);
                    y = arith::SubFOp::create(nb, l, shifted, scale);
                  } else {
                    Value e = tensor::ExtractOp::create(nb, l, carried[0],
                                                        ValueRange{iv});
                    y = arith::MulFOp::create(nb, l, e, scale);
                  }
                  scf::YieldOp::create(nb, l,
                                       tensor::InsertOp::create(
                                           nb, l, y, carried[0], ValueRange{iv})
                                           .getResult());
                })
            .getResult(0);
      });
}

/// cumsum(x, dim, dtype): running sums along `dim` in the result dtype
/// (floats accumulate one step wider, getSumAccumulatorType). Along the
/// last dim, each row is a scalar loop, rows in parallel (createRowScan).
/// Along another dim, an scf.for over `dim` carries the running sum (x
/// with `dim` of size 1) and the result, adding one slice (contiguous rows
/// of the inner dims, a parallel loop) and inserting it per step.
struct ConvertAtenCumsum : OpConversionPattern<AtenCumsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType, IntegerType, ComplexType>(element) ||
        element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: cumsum to this dtype");
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "dim must be a constant");
    Value input = adaptor.getSelf();
    int64_t rank = resultType.getRank();
    Location loc = op.getLoc();
    bool srcUnsigned = isUnsignedOrBool(getTorchDtype(op.getSelf()));
    auto castType = resultType.clone(
        cast<RankedTensorType>(input.getType()).getShape(), element);
    if (cast<RankedTensorType>(input.getType()).getElementType() != element)
      input = createElementwise(rewriter, loc, castType, {input},
                                [&](OpBuilder &b, Location l, ValueRange args) {
                                  return convertScalar(b, l, args[0], element,
                                                       srcUnsigned);
                                });
    // A 0-d input is its own sum; an input of no elements has nothing to
    // scan (and no slice of size 1 along an empty dim).
    if (rank == 0 || llvm::is_contained(castType.getShape(), 0)) {
      Value reshaped = createReshape(rewriter, loc, input, resultType);
      if (!reshaped)
        return reportFailure(rewriter, op, kUnknownReshapeSizes);
      rewriter.replaceOp(op, reshaped);
      return success();
    }
    dim = toPositiveDim(dim, rank);
    if (dim < 0)
      return reportFailure(rewriter, op, kDimOutOfRange);

    Type accType = getSumAccumulatorType(element);
    bool isFloat = isa<mlir::FloatType>(element);
    bool isComplex = isa<ComplexType>(element);
    bool widen = !isa<IntegerType>(element) && accType != element;
    auto addScalars = [&](OpBuilder &b, Location l, Value x,
                          Value acc) -> Value {
      if (isComplex)
        return complex::AddOp::create(b, l, x, acc).getResult();
      if (isFloat)
        return arith::AddFOp::create(b, l, x, acc).getResult();
      return arith::AddIOp::create(b, l, x, acc).getResult();
    };
    if (dim == rank - 1) {
      // A 1-D input is one row: [n] -> [1, n].
      Value rows = input;
      if (rank == 1) {
        auto matrixType =
            RankedTensorType::get({1, castType.getShape()[0]}, element);
        rows = createReshape(rewriter, loc, input, matrixType);
        if (!rows)
          return reportFailure(rewriter, op, kUnknownReshapeSizes);
      }
      Value scanned = createRowScan(rewriter, loc, rows,
                                    cast<RankedTensorType>(rows.getType()),
                                    accType, addScalars);
      Value reshaped = createReshape(rewriter, loc, scanned, resultType);
      if (!reshaped)
        return reportFailure(rewriter, op, kUnknownReshapeSizes);
      rewriter.replaceOp(op, reshaped);
      return success();
    }

    SmallVector<int64_t> sliceShape = llvm::to_vector(castType.getShape());
    sliceShape[dim] = 1;
    auto sliceType = RankedTensorType::get(sliceShape, element);
    // Floats run their sum one step wider (f32 in f64, f16/bf16 in f32) and
    // round each output, as PyTorch's CPU kernel (its acc_type) does: a
    // running f32 sum along 4096 elements drifts by more than 1e-4.
    auto sumType = widen ? sliceType.clone(accType) : sliceType;
    SmallVector<OpFoldResult> sizes;
    for (int64_t i = 0; i < rank; ++i)
      sizes.push_back(i == dim ? OpFoldResult(rewriter.getIndexAttr(1))
                               : tensor::getMixedSize(rewriter, loc, input, i));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value length = tensor::DimOp::create(rewriter, loc, input, dim);
    Value sum = createZeroFilled(rewriter, loc, sumType, input);
    Value result = createEmpty(rewriter, loc, castType, input);
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, length, one, ValueRange{sum, result},
        [&](OpBuilder &b, Location l, Value iv, ValueRange carried) {
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          offsets[dim] = iv;
          SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
          Value slice = tensor::ExtractSliceOp::create(b, l, sliceType, input,
                                                       offsets, sizes, strides);
          // The sum is updated in place (outs = the carried sum), so the
          // loop-carried buffers stay the same under bufferization.
          AffineMap id = b.getMultiDimIdentityMap(rank);
          Value next = linalg::GenericOp::create(
                           b, l, TypeRange{sumType}, ValueRange{slice},
                           ValueRange{carried[0]}, ArrayRef<AffineMap>{id, id},
                           SmallVector<utils::IteratorType>(
                               rank, utils::IteratorType::parallel),
                           [&](OpBuilder &nb, Location nl, ValueRange args) {
                             Value x = args[0];
                             if (widen)
                               x = castFloat(nb, nl, x, args[1].getType());
                             linalg::YieldOp::create(
                                 nb, nl, addScalars(nb, nl, x, args[1]));
                           })
                           .getResult(0);
          Value rounded = next;
          if (widen)
            rounded = createElementwise(
                b, l, sliceType, ValueRange{next},
                [&](OpBuilder &nb, Location nl, ValueRange args) {
                  return castFloat(nb, nl, args[0], element);
                });
          Value updated = tensor::InsertSliceOp::create(
              b, l, rounded, carried[1], offsets, sizes, strides);
          scf::YieldOp::create(b, l, ValueRange{next, updated});
        });
    Value reshaped =
        createReshape(rewriter, loc, loop.getResult(1), resultType);
    if (!reshaped)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    rewriter.replaceOp(op, reshaped);
    return success();
  }
};

/// The dims `any` reduces over, as written (empty: all of them).
static bool matchAnyDims(AtenAnyOp, SmallVectorImpl<int64_t> &) { return true; }
static bool matchAnyDims(AtenAnyDimOp op, SmallVectorImpl<int64_t> &dims) {
  int64_t dim;
  if (!matchTorchConstantInt(op.getDim(), dim))
    return false;
  dims.push_back(dim);
  return true;
}
static bool matchAnyDims(AtenAnyDimsOp op, SmallVectorImpl<int64_t> &dims) {
  return isTorchNone(op.getDim()) ||
         matchTorchConstantIntList(op.getDim(), dims);
}

/// any / any.dim / any.dims(x, dims, keepdim): whether some element over
/// `dims` is nonzero (NaN counts as nonzero). The result is bool, or uint8
/// for a uint8 input, as in PyTorch.
template <typename OpTy> struct ConvertAny : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    Type element = cast<RankedTensorType>(input.getType()).getElementType();
    if (!isa<IntegerType, mlir::FloatType, ComplexType>(element))
      return reportFailure(rewriter, op, "unsupported: any of this dtype");
    SmallVector<int64_t> dimList;
    if (!matchAnyDims(op, dimList))
      return reportFailure(rewriter, op, "dim must be a constant");
    auto dims = normalizeDims(
        dimList, cast<RankedTensorType>(input.getType()).getRank());
    if (failed(dims))
      return reportFailure(rewriter, op, kDimOutOfRange);
    Location loc = op.getLoc();
    Value falseValue =
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(false));
    Value reduced = createReduction(
        rewriter, loc, input, *dims, falseValue,
        [&](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          // Nonzero: x != 0 (NaN included), either part of a complex x.
          Value nonzero = convertScalar(b, l, x, b.getI1Type());
          return arith::OrIOp::create(b, l, nonzero, acc);
        });
    Type resultElement = resultType.getElementType();
    if (resultElement != reduced.getType()) {
      auto reducedType = cast<RankedTensorType>(reduced.getType());
      reduced = createElementwise(
          rewriter, loc, reducedType.clone(resultElement), {reduced},
          [&](OpBuilder &b, Location l, ValueRange args) {
            return convertScalar(b, l, args[0], resultElement,
                                 /*srcUnsigned=*/true);
          });
    }
    Value reshaped = createReshape(rewriter, loc, reduced, resultType);
    if (!reshaped)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    rewriter.replaceOp(op, reshaped);
    return success();
  }
};

/// prod.dim_int(x, dim, keepdim, dtype): multiplies in the result dtype. A
/// bool product (dtype=torch.bool) is the logical and: arith.muli on i1.
struct ConvertAtenProdDimInt : OpConversionPattern<AtenProdDimIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenProdDimIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType, IntegerType, ComplexType>(element))
      return reportFailure(rewriter, op, "unsupported: prod of this dtype");
    Value input = adaptor.getSelf();
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "dim must be a constant");
    auto dims =
        normalizeDims({dim}, cast<RankedTensorType>(input.getType()).getRank());
    if (failed(dims))
      return reportFailure(rewriter, op, kDimOutOfRange);
    bool srcUnsigned = isUnsignedOrBool(getTorchDtype(op.getSelf()));
    bool isFloat = isa<mlir::FloatType>(element);
    Location loc = op.getLoc();
    auto complexType = dyn_cast<ComplexType>(element);
    Value one =
        complexType
            ? createComplexConstant(rewriter, loc, complexType, 1, 0)
            : arith::ConstantOp::create(
                  rewriter, loc,
                  isFloat ? cast<TypedAttr>(rewriter.getFloatAttr(element, 1.0))
                          : rewriter.getIntegerAttr(element, 1))
                  .getResult();
    Value product = createReduction(
        rewriter, loc, input, *dims, one,
        [&](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          x = convertScalar(b, l, x, element, srcUnsigned);
          if (complexType)
            return complex::MulOp::create(b, l, x, acc);
          if (isFloat)
            return arith::MulFOp::create(b, l, x, acc);
          return arith::MulIOp::create(b, l, x, acc);
        });
    Value reshaped = createReshape(rewriter, loc, product, resultType);
    if (!reshaped)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    rewriter.replaceOp(op, reshaped);
    return success();
  }
};

/// argmax/argmin(x, dim, keepdim): the index of the first largest (smallest)
/// element along `dim`, or in the flattened tensor when dim is None. NaN
/// counts as larger (smaller) than everything, as in PyTorch.
template <typename OpTy, bool isMax>
struct ConvertArgMinMax : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    if (!resultType || !resultType.getElementType().isInteger(64))
      return reportFailure(rewriter, op, "result must be an int64 tensor");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    SmallVector<int64_t> dimList;
    if (!isTorchNone(op.getDim())) {
      int64_t dim;
      if (!matchTorchConstantInt(op.getDim(), dim))
        return reportFailure(rewriter, op, "dim must be a constant or None");
      dimList.push_back(dim);
    }
    auto dims = normalizeDims(dimList, rank);
    if (failed(dims))
      return reportFailure(rewriter, op, kDimOutOfRange);
    // The flat index over the reduced dims needs their sizes.
    SmallVector<int64_t> strides(rank, 0);
    int64_t stride = 1;
    for (int64_t dim : llvm::reverse(*dims)) {
      strides[dim] = stride;
      if (dims->size() > 1 && inputType.isDynamicDim(dim))
        return reportFailure(rewriter, op,
                             "unsupported: dim=None over a dynamic shape");
      stride *= dims->size() > 1 ? inputType.getDimSize(dim) : 1;
    }
    Type dtype = getTorchDtype(op.getSelf());
    if (!dtype || !isa<mlir::FloatType, IntegerType>(dtype))
      return reportFailure(rewriter, op, "unsupported: input dtype");
    Location loc = op.getLoc();
    Type element = inputType.getElementType();
    Type i64 = rewriter.getI64Type();
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i) {
      if (llvm::is_contained(*dims, i))
        continue;
      shape.push_back(inputType.getDimSize(i));
      if (inputType.isDynamicDim(i))
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, input, i));
    }
    auto valuesType = RankedTensorType::get(shape, element);
    auto indicesType = RankedTensorType::get(shape, i64);
    Value values = createFilledWithSizes(
        rewriter, loc, valuesType,
        createExtremeValue(rewriter, loc, dtype, /*highest=*/!isMax),
        dynamicSizes);
    Value indices = createFilledWithSizes(
        rewriter, loc, indicesType,
        arith::ConstantOp::create(
            rewriter, loc,
            rewriter.getI64IntegerAttr(std::numeric_limits<int64_t>::max())),
        dynamicSizes);
    MLIRContext *context = rewriter.getContext();
    AffineMap reducedMap = getReducedMap(rank, *dims, context);
    SmallVector<utils::IteratorType> iterators;
    for (int64_t i = 0; i < rank; ++i)
      iterators.push_back(llvm::is_contained(*dims, i)
                              ? utils::IteratorType::reduction
                              : utils::IteratorType::parallel);
    bool isFloat = isa<mlir::FloatType>(dtype);
    bool isUnsigned = isUnsignedOrBool(dtype);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    // Two passes that LLVM vectorizes, rather than one that carries a value
    // and an index through every compare: the extreme value (NaN if any, as
    // maximumf/minimumf propagate it), then the smallest index holding it
    // (a NaN holds it when the extreme is NaN; then no number compares
    // equal to it).
    Value extreme =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{valuesType}, ValueRange{input},
            ValueRange{values}, ArrayRef<AffineMap>{identity, reducedMap},
            iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = args[0], acc = args[1], result;
              // nsz, as amax's: the index pass compares with oeq, for which
              // -0.0 and +0.0 are equal, so the first zero of either sign
              // wins as in eager; LLVM's maximum step is then three
              // instructions a vector instead of six (argmax(-1) of [1024,
              // 4096] took 1.4x eager's time).
              auto nsz = arith::FastMathFlags::nsz;
              if (isFloat)
                result = isMax ? arith::MaximumFOp::create(b, l, x, acc, nsz)
                                     .getResult()
                               : arith::MinimumFOp::create(b, l, x, acc, nsz)
                                     .getResult();
              else if (isUnsigned)
                result = isMax
                             ? arith::MaxUIOp::create(b, l, x, acc).getResult()
                             : arith::MinUIOp::create(b, l, x, acc).getResult();
              else
                result = isMax
                             ? arith::MaxSIOp::create(b, l, x, acc).getResult()
                             : arith::MinSIOp::create(b, l, x, acc).getResult();
              linalg::YieldOp::create(b, l, result);
            })
            .getResult(0);
    Value noIndex = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getI64IntegerAttr(std::numeric_limits<int64_t>::max()));
    // Whether `x` holds the extreme `best`: equal to it, or NaN (when the
    // extreme is NaN, no number compares equal to it).
    auto holdsExtreme = [&](OpBuilder &b, Location l, Value x,
                            Value best) -> Value {
      if (!isFloat)
        return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, best);
      Value equal =
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, x, best);
      Value nan = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
      return arith::OrIOp::create(b, l, equal, nan);
    };
    Value result;
    if (dims->size() == 1 && dims->front() == rank - 1) {
      // Along the last dim, each row is an scf.for that carries the index
      // in a register and reads the row's extreme once: LLVM vectorizes it
      // (a reduction of select(holds, j, max) by smin). As a reduction
      // generic, the index lives in the result buffer, which LLVM cannot
      // tell from the extreme's, and the loop stayed scalar (argmax(-1) of
      // [1024, 4096]: 9 of its 11 ms).
      Value length = tensor::DimOp::create(rewriter, loc, input, rank - 1);
      AffineMap rows = rewriter.getMultiDimIdentityMap(rank - 1);
      SmallVector<utils::IteratorType> parallel(rank - 1,
                                                utils::IteratorType::parallel);
      result =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{indicesType}, ValueRange{extreme},
              ValueRange{indices}, ArrayRef<AffineMap>{rows, rows}, parallel,
              [&](OpBuilder &b, Location l, ValueRange args) {
                SmallVector<Value> at;
                for (int64_t i = 0; i < rank - 1; ++i)
                  at.push_back(linalg::IndexOp::create(b, l, i));
                Value zero = arith::ConstantIndexOp::create(b, l, 0);
                Value one = arith::ConstantIndexOp::create(b, l, 1);
                Value best = args[0];
                auto loop = scf::ForOp::create(
                    b, l, zero, length, one, ValueRange{args[1]},
                    [&](OpBuilder &nb, Location nl, Value j,
                        ValueRange carried) {
                      SmallVector<Value> element(at);
                      element.push_back(j);
                      Value x =
                          tensor::ExtractOp::create(nb, nl, input, element);
                      Value holds = holdsExtreme(nb, nl, x, best);
                      Value position =
                          arith::IndexCastOp::create(nb, nl, i64, j);
                      Value candidate = arith::SelectOp::create(
                          nb, nl, holds, position, noIndex);
                      scf::YieldOp::create(
                          nb, nl,
                          arith::MinSIOp::create(nb, nl, candidate, carried[0])
                              .getResult());
                    });
                linalg::YieldOp::create(b, l, loop.getResult(0));
              })
              .getResult(0);
    } else {
      result =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{indicesType}, ValueRange{input, extreme},
              ValueRange{indices},
              ArrayRef<AffineMap>{identity, reducedMap, reducedMap}, iterators,
              [&](OpBuilder &b, Location l, ValueRange args) {
                Value x = args[0], best = args[1], bestIndex = args[2];
                Value index =
                    arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0));
                for (int64_t dim : *dims) {
                  Value position = arith::IndexCastOp::create(
                      b, l, i64, linalg::IndexOp::create(b, l, dim));
                  if (strides[dim] != 1)
                    position = arith::MulIOp::create(
                        b, l, position,
                        arith::ConstantOp::create(
                            b, l, b.getI64IntegerAttr(strides[dim])));
                  index = arith::AddIOp::create(b, l, index, position);
                }
                Value holds = holdsExtreme(b, l, x, best);
                Value candidate =
                    arith::SelectOp::create(b, l, holds, index, noIndex);
                linalg::YieldOp::create(
                    b, l,
                    arith::MinSIOp::create(b, l, candidate, bestIndex)
                        .getResult());
              })
              .getResult(0);
    }
    Value reshaped = createReshape(rewriter, loc, result, resultType);
    if (!reshaped)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    rewriter.replaceOp(op, reshaped);
    return success();
  }
};
} // namespace

void mlir::torch2mlir::populateReductionPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenSumDimIntListOp, Aten_SoftmaxOp, Aten_LogSoftmaxOp>(
      target);
  patterns.add<ConvertAtenSumDimIntList, ConvertSoftmax<Aten_SoftmaxOp, false>,
               ConvertSoftmax<Aten_LogSoftmaxOp, true>>(typeConverter, context);
  addIllegalCoreOps<AtenAmaxOp, AtenAminOp, AtenProdDimIntOp, AtenArgmaxOp,
                    AtenArgminOp, AtenAnyOp, AtenAnyDimOp, AtenAnyDimsOp,
                    AtenCumsumOp>(target);
  patterns
      .add<ConvertAminmax<AtenAmaxOp, true>, ConvertAminmax<AtenAminOp, false>,
           ConvertAtenProdDimInt, ConvertArgMinMax<AtenArgmaxOp, true>,
           ConvertArgMinMax<AtenArgminOp, false>, ConvertAny<AtenAnyOp>,
           ConvertAny<AtenAnyDimOp>, ConvertAny<AtenAnyDimsOp>,
           ConvertAtenCumsum>(typeConverter, context);
}
