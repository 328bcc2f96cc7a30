//===- Indexing.cpp - select, index_select, gather, embedding to linalg ---===//
//
// Part of the torch2mlir project.
//
// Ops that read their input at computed positions: select is a rank-reducing
// tensor.extract_slice; the others are a linalg.generic over the result
// whose body reads the input with tensor.extract at the positions an index
// tensor holds. PyTorch raises on out-of-range indices; here they are not
// checked.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

/// An integer index element as an `index`.
static Value toIndex(OpBuilder &b, Location loc, Value value) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

/// A linalg.generic producing `resultType` (sizes from `sizes` where
/// dynamic) that reads `inputs` through `maps`; `body` gets the input
/// elements and returns the result element.
static Value createIndexedGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ArrayRef<OpFoldResult> sizes, ValueRange inputs, ArrayRef<AffineMap> maps,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> dynamicSizes;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (resultType.isDynamicDim(i))
      dynamicSizes.push_back(
          isa<Value>(size)
              ? cast<Value>(size)
              : arith::ConstantIndexOp::create(
                    b, loc, cast<IntegerAttr>(cast<Attribute>(size)).getInt())
                    .getResult());
  Value init = tensor::EmptyOp::create(
      b, loc, resultType.getShape(), resultType.getElementType(), dynamicSizes);
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(b.getMultiDimIdentityMap(rank));
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, inputs, ValueRange{init}, allMaps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(nested, l,
                                       body(nested, l, args.drop_back()));
             })
      .getResult(0);
}

/// The size of dim `i` of `tensor` as a fold result.
static OpFoldResult getSize(OpBuilder &b, Location loc, Value tensor,
                            int64_t i) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.isDynamicDim(i))
    return tensor::DimOp::create(b, loc, tensor, i).getResult();
  return b.getIndexAttr(type.getDimSize(i));
}

/// Whether `tensor` is a tensor of (non-bool) integers: usable as indices.
static bool isIndexTensor(Value torchTensor) {
  Type dtype = getTorchDtype(torchTensor);
  return dtype && isa<IntegerType>(dtype) && !dtype.isInteger(1);
}

namespace {

/// select.int(x, dim, index): the slice at `index` (negative counts from
/// the end), without `dim`.
struct ConvertAtenSelectInt : OpConversionPattern<AtenSelectIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSelectIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t dim, index;
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Refuse, dim)))
      return failure();
    if (!matchTorchConstantInt(op.getIndex(), index))
      return reportFailure(rewriter, op, "unsupported: a non-constant index");
    Location loc = op.getLoc();
    // A negative index into a dynamic dim counts from its run-time size.
    OpFoldResult offset = rewriter.getIndexAttr(index);
    if (inputType.isDynamicDim(dim)) {
      if (index < 0)
        offset =
            arith::AddIOp::create(
                rewriter, loc, tensor::DimOp::create(rewriter, loc, input, dim),
                arith::ConstantIndexOp::create(rewriter, loc, index))
                .getResult();
    } else {
      int64_t size = inputType.getDimSize(dim);
      if (index < -size || index >= size)
        return reportFailure(rewriter, op,
                             "index " + Twine(index) +
                                 " out of range for dim " + Twine(dim) +
                                 " of size " + Twine(size));
      if (index < 0)
        offset = rewriter.getIndexAttr(index + size);
    }
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    for (int64_t i = 0; i < rank; ++i)
      sizes.push_back(getSize(rewriter, loc, input, i));
    offsets[dim] = offset;
    sizes[dim] = rewriter.getIndexAttr(1);
    SmallVector<int64_t> shape(inputType.getShape());
    shape.erase(shape.begin() + dim);
    auto sliceType = RankedTensorType::get(shape, inputType.getElementType());
    if (llvm::is_contained(shape, 0)) {
      // An empty result (another dim of size 0): nothing to read, and
      // extract_slice's verifier refuses offset 0 into a dim of size 0.
      SmallVector<Value> dynamicSizes;
      for (int64_t i = 0; i < rank; ++i)
        if (i != dim && inputType.isDynamicDim(i))
          dynamicSizes.push_back(
              tensor::DimOp::create(rewriter, loc, input, i));
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, shape, inputType.getElementType(), dynamicSizes);
      rewriter.replaceOp(
          op, sliceType != resultType
                  ? tensor::CastOp::create(rewriter, loc, resultType, empty)
                        .getResult()
                  : empty);
      return success();
    }
    Value result = tensor::ExtractSliceOp::create(
        rewriter, loc, sliceType, input, offsets, sizes, strides);
    if (sliceType != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The message of a failed index check of `op` along `dim`.
static std::string outOfRange(Operation *op, int64_t dim, bool wrapNegative) {
  return (op->getName().getStringRef() + ": an index is out of range for dim " +
          Twine(dim) + ", which eager PyTorch refuses; indices must be in [" +
          (wrapNegative ? "-size" : "0") + ", size)")
      .str();
}

/// The body of a generic that reads `input` (of rank `rank`) at the loop
/// position, except along `dim`, where the index operand gives the position
/// (checked to be in [0, size), see createCheckedIndex; `op` names the
/// failure). Emits the check of an empty `dim` at `b`'s insertion point,
/// and with `checkUpFront` that of every index too (assertIndicesInRange:
/// for an `index` with few elements per element read, as index_select's,
/// the loop then has no branch and vectorizes).
static auto readAlongDim(OpBuilder &b, Location loc, Operation *op, Value input,
                         Value index, int64_t dim, int64_t rank,
                         bool checkUpFront) {
  std::string what = outOfRange(op, dim, /*wrapNegative=*/false);
  assertIndexableDim(b, loc, input, dim, index, what);
  Value size = tensor::DimOp::create(b, loc, input, dim);
  if (checkUpFront)
    assertIndicesInRange(b, loc, index, size, /*wrapNegative=*/false, what);
  return [=](OpBuilder &nested, Location l, ValueRange args) -> Value {
    SmallVector<Value> indices;
    for (int64_t i = 0; i < rank; ++i) {
      if (i != dim)
        indices.push_back(linalg::IndexOp::create(nested, l, i));
      else if (checkUpFront)
        indices.push_back(createClampedIndex(nested, l, args[0], size,
                                             /*wrapNegative=*/false));
      else
        indices.push_back(createCheckedIndex(nested, l, args[0], size,
                                             /*wrapNegative=*/false, what));
    }
    return tensor::ExtractOp::create(nested, l, input, indices);
  };
}

/// result[p..., i..., s...] = input[p..., index[i...], s...] for the dims
/// p of `input` before `dim` and s after it (at least one), as an scf.forall
/// over (p, i) that moves each slab s with one slice: after bufferization a
/// memcpy per slab (input's trailing dims are contiguous), where a generic
/// would reload the index for every element (nothing tells LLVM that the
/// result does not alias it). The indices must have been checked
/// (assertIndicesInRange); an index out of range reads position 0.
static Value createSlabGather(OpBuilder &b, Location loc, Value input,
                              Value index, int64_t dim,
                              RankedTensorType resultType) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto indexType = cast<RankedTensorType>(index.getType());
  int64_t rank = inputType.getRank(), indexRank = indexType.getRank();
  SmallVector<OpFoldResult> bounds;
  for (int64_t i = 0; i < dim; ++i)
    bounds.push_back(tensor::getMixedSize(b, loc, input, i));
  for (int64_t i = 0; i < indexRank; ++i)
    bounds.push_back(tensor::getMixedSize(b, loc, index, i));
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < resultType.getRank(); ++i) {
    if (!resultType.isDynamicDim(i))
      continue;
    if (i < dim + indexRank)
      dynamicSizes.push_back(
          getValueOrCreateConstantIndexOp(b, loc, bounds[i]));
    else
      dynamicSizes.push_back(
          tensor::DimOp::create(b, loc, input, i - indexRank + 1));
  }
  Value init = tensor::EmptyOp::create(
      b, loc, resultType.getShape(), resultType.getElementType(), dynamicSizes);
  auto forall = scf::ForallOp::create(b, loc, bounds, ValueRange{init},
                                      /*mapping=*/std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  // getInductionVars returns a vector: a ValueRange of it would dangle.
  SmallVector<Value> ivs = forall.getInductionVars();
  Value size = tensor::DimOp::create(b, loc, input, dim);
  Value position = createClampedIndex(
      b, loc,
      tensor::ExtractOp::create(b, loc, index,
                                ArrayRef<Value>(ivs).drop_front(dim)),
      size, /*wrapNegative=*/false);
  SmallVector<int64_t> slabShape;
  SmallVector<OpFoldResult> readOffsets, readSizes, writeOffsets, writeSizes;
  for (int64_t i = 0; i < dim; ++i) {
    readOffsets.push_back(ivs[i]);
    readSizes.push_back(b.getIndexAttr(1));
  }
  readOffsets.push_back(position);
  readSizes.push_back(b.getIndexAttr(1));
  for (Value iv : ivs) {
    writeOffsets.push_back(iv);
    writeSizes.push_back(b.getIndexAttr(1));
  }
  for (int64_t i = dim + 1; i < rank; ++i) {
    slabShape.push_back(inputType.getDimSize(i));
    readOffsets.push_back(b.getIndexAttr(0));
    readSizes.push_back(tensor::getMixedSize(b, loc, input, i));
    writeOffsets.push_back(b.getIndexAttr(0));
    writeSizes.push_back(readSizes.back());
  }
  auto slabType = RankedTensorType::get(slabShape, inputType.getElementType());
  Value slab = tensor::ExtractSliceOp::create(
      b, loc, slabType, input, readOffsets, readSizes,
      SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      b, loc, slab, forall.getRegionIterArgs()[0], writeOffsets, writeSizes,
      SmallVector<OpFoldResult>(resultType.getRank(), b.getIndexAttr(1)));
  return forall.getResult(0);
}

/// index_select(x, dim, index): result[..., i, ...] = x[..., index[i], ...].
struct ConvertAtenIndexSelect : OpConversionPattern<AtenIndexSelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenIndexSelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    Value index = adaptor.getIndex();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto indexType = cast<RankedTensorType>(index.getType());
    int64_t rank = inputType.getRank();
    int64_t dim;
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Wrap, dim)))
      return failure();
    if (!isIndexTensor(op.getIndex()) || indexType.getRank() > 1)
      return reportFailure(rewriter, op,
                           "index must be a 0-d or 1-d integer tensor");
    if (resultType.getRank() != rank)
      return reportFailure(rewriter, op, "result rank must be the input's");
    Location loc = op.getLoc();
    if (rank == 0) {
      // A 0-d input is its only element (the index, of one element, must
      // be 0 or -1).
      rewriter.replaceOp(op, input);
      return success();
    }
    if (indexType.getRank() == 0)
      index =
          createReshape(rewriter, loc, index,
                        RankedTensorType::get({1}, indexType.getElementType()));
    if (dim + 1 < rank) {
      // Slabs of the trailing dims, one copy each.
      std::string what = outOfRange(op, dim, /*wrapNegative=*/false);
      assertIndexableDim(rewriter, loc, input, dim, index, what);
      assertIndicesInRange(rewriter, loc, index,
                           tensor::DimOp::create(rewriter, loc, input, dim),
                           /*wrapNegative=*/false, what);
      rewriter.replaceOp(
          op, createSlabGather(rewriter, loc, input, index, dim, resultType));
      return success();
    }
    SmallVector<OpFoldResult> sizes;
    for (int64_t i = 0; i < rank; ++i)
      sizes.push_back(i == dim ? getSize(rewriter, loc, index, 0)
                               : getSize(rewriter, loc, input, i));
    MLIRContext *context = rewriter.getContext();
    AffineMap indexMap =
        AffineMap::get(rank, 0, getAffineDimExpr(dim, context));
    Value result = createIndexedGeneric(
        rewriter, loc, resultType, sizes, index, indexMap,
        readAlongDim(rewriter, loc, op, input, index, dim, rank,
                     /*checkUpFront=*/true));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gather(x, dim, index): result[i][j][k] = x[i][index[i][j][k]][k] (dim 1);
/// the result has the shape of `index`.
struct ConvertAtenGather : OpConversionPattern<AtenGatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    Value index = adaptor.getIndex();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto indexType = cast<RankedTensorType>(index.getType());
    int64_t rank = inputType.getRank();
    int64_t dim;
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Wrap, dim)))
      return failure();
    Location loc = op.getLoc();
    if (isIndexTensor(op.getIndex()) && resultType.hasStaticShape() &&
        resultType.getNumElements() == 0) {
      // An empty index (PyTorch does not check its rank then).
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, resultType.getShape(),
                                                   resultType.getElementType());
      return success();
    }
    if (isIndexTensor(op.getIndex()) && rank <= 1 && indexType.getRank() <= 1 &&
        (rank == 0 || indexType.getRank() == 0)) {
      // A 0-d input or index counts as 1-d of one element: gather in 1-d.
      auto as1d = [&](Value value, RankedTensorType type) {
        return createReshape(rewriter, loc, value,
                             RankedTensorType::get(
                                 {type.getRank() == 0 ? 1 : type.getDimSize(0)},
                                 type.getElementType()));
      };
      input = as1d(input, inputType);
      index = as1d(index, indexType);
      auto flatType = RankedTensorType::get(
          cast<RankedTensorType>(index.getType()).getShape(),
          resultType.getElementType());
      Value result = createIndexedGeneric(
          rewriter, loc, flatType, {getSize(rewriter, loc, index, 0)}, index,
          rewriter.getMultiDimIdentityMap(1),
          readAlongDim(rewriter, loc, op, input, index, 0, 1,
                       /*checkUpFront=*/false));
      Value reshaped = createReshape(rewriter, loc, result, resultType);
      if (!reshaped)
        return reportFailure(rewriter, op, kUnknownReshapeSizes);
      rewriter.replaceOp(op, reshaped);
      return success();
    }
    if (!isIndexTensor(op.getIndex()) || indexType.getRank() != rank)
      return reportFailure(rewriter, op,
                           "index must be an integer tensor of the input's "
                           "rank");
    // Along the other dims the index reads the input at its own position.
    if (failed(
            checkIndexNotLarger(rewriter, op, index, input, dim, "the input")))
      return failure();
    SmallVector<OpFoldResult> sizes;
    for (int64_t i = 0; i < rank; ++i)
      sizes.push_back(getSize(rewriter, loc, index, i));
    Value result = createIndexedGeneric(rewriter, loc, resultType, sizes, index,
                                        rewriter.getMultiDimIdentityMap(rank),
                                        readAlongDim(rewriter, loc, op, input,
                                                     index, dim, rank,
                                                     /*checkUpFront=*/false));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// embedding(weight, indices): result[..., j] = weight[indices[...], j].
/// padding_idx, scale_grad_by_freq and sparse only matter to gradients.
struct ConvertAtenEmbedding : OpConversionPattern<AtenEmbeddingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenEmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value weight = adaptor.getWeight();
    Value indices = adaptor.getIndices();
    auto weightType = cast<RankedTensorType>(weight.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    if (weightType.getRank() != 2)
      return reportFailure(rewriter, op, "weight must be 2-d");
    if (!isIndexTensor(op.getIndices()))
      return reportFailure(rewriter, op, "indices must be an integer tensor");
    int64_t rank = indicesType.getRank() + 1;
    if (resultType.getRank() != rank)
      return reportFailure(rewriter, op,
                           "result rank must be indices rank + 1");
    Location loc = op.getLoc();
    std::string what = outOfRange(op, 0, /*wrapNegative=*/false);
    assertIndexableDim(rewriter, loc, weight, 0, indices, what);
    // One check of the indices, then one row copy per index.
    assertIndicesInRange(rewriter, loc, indices,
                         tensor::DimOp::create(rewriter, loc, weight, 0),
                         /*wrapNegative=*/false, what);
    if (indicesType.getRank() == 0) {
      // One index: a gather of one row, [1, D], viewed as [D].
      auto rowsType = RankedTensorType::get({1, resultType.getDimSize(0)},
                                            resultType.getElementType());
      Value rows = createSlabGather(
          rewriter, loc, weight,
          createReshape(
              rewriter, loc, indices,
              RankedTensorType::get({1}, indicesType.getElementType())),
          0, rowsType);
      rewriter.replaceOp(op, createReshape(rewriter, loc, rows, resultType));
      return success();
    }
    Value result =
        createSlabGather(rewriter, loc, weight, indices, 0, resultType);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

namespace {
/// index.Tensor(x, indices): advanced indexing (PyTorch's `x[i, j]` with
/// tensors). The index tensors are broadcast together; with the indexed
/// dims consecutive, the result is x.shape[:first] + broadcast shape +
/// x.shape[last + 1:], and result[p..., b..., s...] = x[p..., i0[b], ...,
/// s...]; otherwise (None between them) the broadcast dims come first,
/// then the dims not indexed. Negative indices count from the end of their
/// dim.
struct ConvertAtenIndexTensor : OpConversionPattern<AtenIndexTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenIndexTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    auto list = op.getIndices().getDefiningOp<PrimListConstructOp>();
    if (!list)
      return reportFailure(rewriter, op,
                           "indices must be a prim.ListConstruct");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    Location loc = op.getLoc();
    // The indexed dims and their converted index tensors.
    SmallVector<int64_t> dims;
    SmallVector<Value> indices;
    for (auto [dim, element] : llvm::enumerate(list.getElements())) {
      if (isTorchNone(element))
        continue;
      if (!isIndexTensor(element))
        return reportFailure(
            rewriter, op,
            "unsupported: a bool mask or non-integer index (dim " + Twine(dim) +
                ")");
      Type converted = getTypeConverter()->convertType(element.getType());
      Value index = converted ? getTypeConverter()->materializeTargetConversion(
                                    rewriter, loc, converted, element)
                              : Value();
      if (!index)
        return reportFailure(rewriter, op, "index tensors need a known rank");
      dims.push_back(dim);
      indices.push_back(index);
    }
    if (dims.empty())
      return reportFailure(rewriter, op, "no index tensor");
    if (static_cast<int64_t>(list.getElements().size()) > rank)
      return reportFailure(rewriter, op, "more indices than dims");
    bool consecutive = true;
    for (size_t i = 1; i < dims.size(); ++i)
      consecutive &= dims[i] == dims[i - 1] + 1;
    int64_t count = dims.size();
    int64_t broadcastRank = 0;
    for (Value index : indices)
      broadcastRank = std::max<int64_t>(
          broadcastRank, cast<RankedTensorType>(index.getType()).getRank());
    int64_t resultRank = rank - count + broadcastRank;
    if (resultType.getRank() != resultRank)
      return reportFailure(rewriter, op, "result rank does not match");

    // What each result dim is: an input dim (>= 0) or broadcast dim j
    // (encoded -1 - j). Consecutive indexed dims are replaced by the
    // broadcast dims in place; otherwise those go first (as in NumPy).
    SmallVector<int64_t> layout;
    auto addInputDims = [&](int64_t from, int64_t to) {
      for (int64_t d = from; d < to; ++d)
        if (!llvm::is_contained(dims, d))
          layout.push_back(d);
    };
    if (consecutive)
      addInputDims(0, dims.front());
    for (int64_t j = 0; j < broadcastRank; ++j)
      layout.push_back(-1 - j);
    addInputDims(consecutive ? dims.front() : 0, rank);
    int64_t broadcastStart = consecutive ? dims.front() : 0;

    // Result sizes: the input's, and for the broadcast dims an index
    // tensor's that is not 1 there.
    SmallVector<OpFoldResult> sizes;
    for (int64_t entry : layout) {
      if (entry >= 0) {
        sizes.push_back(getSize(rewriter, loc, input, entry));
        continue;
      }
      int64_t j = -1 - entry;
      OpFoldResult size = rewriter.getIndexAttr(1);
      for (Value index : indices) {
        auto type = cast<RankedTensorType>(index.getType());
        int64_t k = j - (broadcastRank - type.getRank());
        if (k >= 0 && type.getDimSize(k) != 1) {
          size = getSize(rewriter, loc, index, k);
          break;
        }
      }
      sizes.push_back(size);
    }

    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineMap> maps;
    for (Value index : indices) {
      auto type = cast<RankedTensorType>(index.getType());
      SmallVector<AffineExpr> exprs;
      for (int64_t k = 0; k < type.getRank(); ++k) {
        int64_t r = broadcastStart + k + (broadcastRank - type.getRank());
        exprs.push_back(type.getDimSize(k) == 1 && resultType.getDimSize(r) != 1
                            ? getAffineConstantExpr(0, context)
                            : getAffineDimExpr(r, context));
      }
      maps.push_back(AffineMap::get(resultRank, 0, exprs, context));
    }
    SmallVector<std::string> what;
    for (auto [dim, index] : llvm::zip(dims, indices)) {
      what.push_back(outOfRange(op, dim, /*wrapNegative=*/true));
      assertIndexableDim(rewriter, loc, input, dim, index, what.back());
    }
    Value result = createIndexedGeneric(
        rewriter, loc, resultType, sizes, indices, maps,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          SmallVector<Value> at(rank);
          for (auto [r, entry] : llvm::enumerate(layout))
            if (entry >= 0)
              at[entry] = linalg::IndexOp::create(b, l, r);
          for (int64_t i = 0; i < count; ++i) {
            // x[-1] is x[size - 1].
            Value size = tensor::DimOp::create(b, l, input, dims[i]);
            at[dims[i]] = createCheckedIndex(b, l, args[i], size,
                                             /*wrapNegative=*/true, what[i]);
          }
          return tensor::ExtractOp::create(b, l, input, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::torch2mlir::populateIndexingPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenSelectIntOp, AtenIndexSelectOp, AtenGatherOp,
                    AtenEmbeddingOp, AtenIndexTensorOp>(target);
  patterns.add<ConvertAtenSelectInt, ConvertAtenIndexSelect, ConvertAtenGather,
               ConvertAtenEmbedding, ConvertAtenIndexTensor>(typeConverter,
                                                             context);
}
