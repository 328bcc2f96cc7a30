//===- Indexing.cpp - Gathers to TOSA -------------------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// as_strided and diagonal gather at constant offsets. embedding,
// index_select and gather become `tosa.gather` (values
// [N, K, C], si32 indices [N, W] -> [N, W, C]). TOSA has no run-time
// checks, and an index out of range reads outside the tensor: each of
// these lowers only when the torch-narrow-si64 pass proved its indices in
// bounds (`torch2mlir.indices_in_bounds`) and narrowed them to si32.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToTosa/TorchToTosa.h"

#include "Utils.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_tosa;

namespace {

/// Checks what every gather needs: a TOSA result, TOSA values, integer
/// indices proved in bounds; returns the indices as si32 (converted).
FailureOr<Value> getCheckedIndices(ConversionPatternRewriter &rewriter,
                                   const TypeConverter *converter,
                                   Operation *op, Value values,
                                   Value torchIndices, Value indices,
                                   RankedTensorType &type) {
  type = getConvertedType(converter, op->getResult(0));
  if (failed(
          checkTosaTensor(rewriter, op, op->getResult(0), type, "a result")) ||
      failed(checkTosaTensor(rewriter, op, values,
                             getConvertedType(converter, values), "the input")))
    return failure();
  auto indexType = getConvertedType(converter, torchIndices);
  if (failed(checkTosaTensor(rewriter, op, torchIndices, indexType,
                             "an index tensor")))
    return failure();
  if (!indexType.getElementType().isInteger() ||
      indexType.getElementType().isInteger(1))
    return reportFailure(rewriter, op, "the indices must be integers");
  if (!op->hasAttr("torch2mlir.indices_in_bounds"))
    return reportFailure(
        rewriter, op,
        "unsupported: indices not proved within the indexed size (TOSA has "
        "no run-time checks, and the torch-narrow-si64 pass bounds only "
        "indices from the arguments, constants, arange and their "
        "arithmetic). Way out: backend=\"linalg-on-tensors\", which checks "
        "them at run time");
  if (type.getNumElements() >= std::numeric_limits<int32_t>::max() ||
      cast<RankedTensorType>(indices.getType()).getNumElements() >=
          std::numeric_limits<int32_t>::max())
    return reportFailure(rewriter, op,
                         "unsupported: more than 2^31 elements (TOSA's "
                         "indices are si32)");
  return createCast(rewriter, op->getLoc(), indices, rewriter.getI32Type());
}

/// Replaces `op` by the `tosa.gather` of `values` [N, K, C] at `indices`
/// [N, W], reshaped to `type`. Bools move as si8 (TOSA gathers numbers).
void replaceWithGather(ConversionPatternRewriter &rewriter, Operation *op,
                       Value values, Value indices, RankedTensorType type) {
  Location loc = op->getLoc();
  auto valuesType = cast<RankedTensorType>(values.getType());
  Type element = valuesType.getElementType();
  if (element.isInteger(1))
    values = createCast(rewriter, loc, values, rewriter.getI8Type());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  auto gatheredType = RankedTensorType::get(
      {valuesType.getDimSize(0), indicesType.getDimSize(1),
       valuesType.getDimSize(2)},
      cast<RankedTensorType>(values.getType()).getElementType());
  Value gathered =
      tosa::GatherOp::create(rewriter, loc, gatheredType, values, indices);
  gathered = createCast(rewriter, loc, gathered, element);
  rewriter.replaceOp(op,
                     createReshape(rewriter, loc, gathered, type.getShape()));
}

/// Replaces `op` by the elements of `input` (converted, any shape) at the
/// constant linear `offsets` (row-major, one per element of `type`), as a
/// `tosa.gather` of the flattened input: the offsets are known, so they
/// are checked here. Bools move as si8 (TOSA gathers numbers).
LogicalResult replaceWithConstantGather(ConversionPatternRewriter &rewriter,
                                        Operation *op, Value input,
                                        ArrayRef<int64_t> offsets,
                                        RankedTensorType type) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t count = inputType.getNumElements();
  if (offsets.empty() || count >= std::numeric_limits<int32_t>::max())
    return reportFailure(rewriter, op,
                         "unsupported: an empty result or more than 2^31 "
                         "elements (TOSA backend)");
  for (int64_t offset : offsets)
    if (offset < 0 || offset >= count)
      return reportFailure(rewriter, op,
                           "an element outside the input (eager raises "
                           "RuntimeError: setStorage out of bounds)");
  Location loc = op->getLoc();
  auto indexType = RankedTensorType::get(
      {1, static_cast<int64_t>(offsets.size())}, rewriter.getI32Type());
  SmallVector<int32_t> narrow(offsets.begin(), offsets.end());
  Value indices = tosa::ConstOp::create(
      rewriter, loc, indexType,
      DenseElementsAttr::get(indexType, ArrayRef<int32_t>(narrow)));
  replaceWithGather(rewriter, op,
                    createReshape(rewriter, loc, input, {1, count, 1}), indices,
                    type);
  return success();
}

/// The row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Calls `visit(position)` for every position of `shape`, in row-major
/// order.
void forEachPosition(ArrayRef<int64_t> shape,
                     function_ref<void(ArrayRef<int64_t>)> visit) {
  int64_t count = countElements(shape);
  SmallVector<int64_t> position(shape.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    visit(position);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++position[d] < shape[d])
        break;
      position[d] = 0;
    }
  }
}

/// as_strided(self, size, stride, storage_offset): the elements of self
/// (contiguous, as every value tensor is) at storage_offset + sum of
/// index[d] * stride[d].
struct ConvertAsStrided : OpConversionPattern<AtenAsStridedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAsStridedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type, inputType;
    if (failed(checkResultAndInput(rewriter, getTypeConverter(), op, type,
                                   inputType)))
      return failure();
    SmallVector<int64_t> sizes, strides;
    int64_t storageOffset = 0;
    if (!matchTorchConstantIntList(op.getSize(), sizes) ||
        !matchTorchConstantIntList(op.getStride(), strides) ||
        sizes.size() != strides.size() ||
        (!isTorchNone(op.getStorageOffset()) &&
         !matchTorchConstantInt(op.getStorageOffset(), storageOffset)))
      return reportFailure(rewriter, op,
                           "size, stride and storage_offset must be "
                           "constants");
    if (ArrayRef<int64_t>(sizes) != type.getShape())
      return reportFailure(rewriter, op,
                           "the result type does not have the size");
    SmallVector<int64_t> offsets;
    forEachPosition(sizes, [&](ArrayRef<int64_t> position) {
      int64_t offset = storageOffset;
      for (auto [index, stride] : llvm::zip(position, strides))
        offset += index * stride;
      offsets.push_back(offset);
    });
    return replaceWithConstantGather(rewriter, op, adaptor.getSelf(), offsets,
                                     type);
  }
};

/// diagonal(self, offset, dim1, dim2): the other dims in order, then the
/// diagonal self[..., i, i + offset] (offset >= 0) or self[..., i - offset,
/// i] (offset < 0) of dims (dim1, dim2).
struct ConvertDiagonal : OpConversionPattern<AtenDiagonalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenDiagonalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type, inputType;
    if (failed(checkResultAndInput(rewriter, getTypeConverter(), op, type,
                                   inputType)))
      return failure();
    int64_t offset, dim1, dim2;
    int64_t rank = inputType.getRank();
    if (!matchTorchConstantInt(op.getOffset(), offset) ||
        !matchTorchConstantInt(op.getDim1(), dim1) ||
        !matchTorchConstantInt(op.getDim2(), dim2))
      return reportFailure(rewriter, op,
                           "offset, dim1 and dim2 must be constants");
    dim1 = toPositiveDim(dim1, rank);
    dim2 = toPositiveDim(dim2, rank);
    if (rank < 2 || dim1 < 0 || dim1 >= rank || dim2 < 0 || dim2 >= rank ||
        dim1 == dim2)
      return reportFailure(rewriter, op,
                           "dim1 and dim2 must be two different dims in "
                           "range");
    SmallVector<int64_t> strides = getStrides(inputType.getShape());
    SmallVector<int64_t> others;
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim1 && d != dim2)
        others.push_back(d);
    int64_t base =
        offset >= 0 ? offset * strides[dim2] : -offset * strides[dim1];
    SmallVector<int64_t> offsets;
    forEachPosition(type.getShape(), [&](ArrayRef<int64_t> position) {
      int64_t linear = base + position.back() * (strides[dim1] + strides[dim2]);
      for (auto [i, d] : llvm::enumerate(others))
        linear += position[i] * strides[d];
      offsets.push_back(linear);
    });
    return replaceWithConstantGather(rewriter, op, adaptor.getSelf(), offsets,
                                     type);
  }
};

/// embedding(weight [V, D], indices) -> rows of weight: [..., D].
struct ConvertEmbedding : OpConversionPattern<AtenEmbeddingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenEmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type;
    FailureOr<Value> indices =
        getCheckedIndices(rewriter, getTypeConverter(), op, op.getWeight(),
                          op.getIndices(), adaptor.getIndices(), type);
    if (failed(indices))
      return failure();
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    if (weightType.getRank() != 2)
      return reportFailure(rewriter, op, "the weight must be 2-D");
    Location loc = op.getLoc();
    int64_t count = cast<RankedTensorType>(indices->getType()).getNumElements();
    Value values =
        createReshape(rewriter, loc, adaptor.getWeight(),
                      {1, weightType.getDimSize(0), weightType.getDimSize(1)});
    replaceWithGather(rewriter, op, values,
                      createReshape(rewriter, loc, *indices, {1, count}), type);
    return success();
  }
};

/// index_select(self, dim, index [K]): self as [outer, size, inner], the
/// index tiled over outer.
struct ConvertIndexSelect : OpConversionPattern<AtenIndexSelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenIndexSelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type;
    FailureOr<Value> indices =
        getCheckedIndices(rewriter, getTypeConverter(), op, op.getSelf(),
                          op.getIndex(), adaptor.getIndex(), type);
    if (failed(indices))
      return failure();
    auto selfType = cast<RankedTensorType>(adaptor.getSelf().getType());
    FailureOr<int64_t> constantDim =
        getConstantDim(rewriter, op, op.getDim(), selfType.getRank());
    if (failed(constantDim))
      return failure();
    int64_t dim = *constantDim;
    ArrayRef<int64_t> sizes = selfType.getShape();
    int64_t outer = countElements(sizes.take_front(dim));
    int64_t size = sizes.empty() ? 1 : sizes[dim];
    int64_t inner =
        sizes.empty() ? 1 : countElements(sizes.drop_front(dim + 1));
    int64_t count = cast<RankedTensorType>(indices->getType()).getNumElements();
    Location loc = op.getLoc();
    Value values =
        createReshape(rewriter, loc, adaptor.getSelf(), {outer, size, inner});
    Value index = createReshape(rewriter, loc, *indices, {1, count});
    if (outer != 1)
      index = tosa::TileOp::create(
          rewriter, loc,
          RankedTensorType::get({outer, count}, rewriter.getI32Type()), index,
          createConstShape(rewriter, loc, {outer, 1}));
    replaceWithGather(rewriter, op, values, index, type);
    return success();
  }
};

/// gather(self, dim, index): out[j] = self[j with j[dim] = index[j]], as a
/// gather of self flattened at the linear offsets index[j] * stride[dim] +
/// sum over d != dim of j[d] * stride[d] (the second term a constant).
struct ConvertGather : OpConversionPattern<AtenGatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type;
    FailureOr<Value> indices =
        getCheckedIndices(rewriter, getTypeConverter(), op, op.getSelf(),
                          op.getIndex(), adaptor.getIndex(), type);
    if (failed(indices))
      return failure();
    auto selfType = cast<RankedTensorType>(adaptor.getSelf().getType());
    auto indexType = cast<RankedTensorType>(indices->getType());
    int64_t rank = selfType.getRank();
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "the dim must be a constant");
    dim = toPositiveDim(dim, std::max<int64_t>(rank, 1));
    if (rank == 0 || indexType.getRank() != rank || dim < 0 || dim >= rank)
      return reportFailure(rewriter, op,
                           "unsupported: a 0-d input, or an index of another "
                           "rank than the input");
    SmallVector<int64_t> strides = getStrides(selfType.getShape());
    ArrayRef<int64_t> indexShape = indexType.getShape();
    int64_t count = indexType.getNumElements();
    SmallVector<int32_t> offsets;
    forEachPosition(indexShape, [&](ArrayRef<int64_t> position) {
      int64_t offset = 0;
      for (int64_t d = 0; d < rank; ++d)
        if (d != dim)
          offset += position[d] * strides[d];
      offsets.push_back(static_cast<int32_t>(offset));
    });
    Location loc = op.getLoc();
    auto offsetType = RankedTensorType::get(indexShape, rewriter.getI32Type());
    Value base = tosa::ConstOp::create(
        rewriter, loc, offsetType,
        DenseElementsAttr::get(offsetType, ArrayRef<int32_t>(offsets)));
    Value linear = *indices;
    if (strides[dim] != 1)
      linear = createMul(rewriter, loc, offsetType, linear,
                         createScalar(rewriter, loc, rewriter.getI32Type(),
                                      static_cast<double>(strides[dim]), rank));
    linear = tosa::AddOp::create(rewriter, loc, offsetType, linear, base);
    Value values = createReshape(rewriter, loc, adaptor.getSelf(),
                                 {1, selfType.getNumElements(), 1});
    replaceWithGather(rewriter, op, values,
                      createReshape(rewriter, loc, linear, {1, count}), type);
    return success();
  }
};

/// index.Tensor(self, indices) with the index tensors on adjacent dims
/// [first, last] (None elsewhere): the indices, negative ones counted from
/// the end and broadcast together to B, linearize over the indexed dims;
/// self as [outer, indexed, inner] gathers them: [outer, B, inner].
struct ConvertIndexTensor : OpConversionPattern<AtenIndexTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenIndexTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type, selfType;
    if (failed(checkResultAndInput(rewriter, getTypeConverter(), op, type,
                                   selfType)))
      return failure();
    auto list = op.getIndices().getDefiningOp<PrimListConstructOp>();
    if (!list)
      return reportFailure(rewriter, op,
                           "the indices must come from a list construct");
    if (!op->hasAttr("torch2mlir.indices_in_bounds"))
      return reportFailure(
          rewriter, op,
          "unsupported: indices not proved within the indexed sizes (TOSA "
          "has no run-time checks). Way out: backend=\"linalg-on-tensors\", "
          "which checks them at run time");
    int64_t rank = selfType.getRank();
    SmallVector<int64_t> dims;
    SmallVector<Value> indices;
    for (auto [dim, element] : llvm::enumerate(list.getElements())) {
      if (!isa<BaseTensorType>(element.getType()))
        continue;
      auto indexType = getConvertedType(getTypeConverter(), element);
      if (failed(checkTosaTensor(rewriter, op, element, indexType,
                                 "an index tensor")))
        return failure();
      if (!isa<IntegerType>(indexType.getElementType()) ||
          indexType.getElementType().isInteger(1))
        return reportFailure(rewriter, op,
                             "unsupported: bool (mask) indices (TOSA has no "
                             "data-dependent shapes)");
      dims.push_back(static_cast<int64_t>(dim));
      indices.push_back(rewriter.getRemappedValue(element));
    }
    if (dims.empty() || dims.back() >= rank ||
        dims.back() - dims.front() + 1 != static_cast<int64_t>(dims.size()))
      return reportFailure(rewriter, op,
                           "unsupported: index tensors on dims that are not "
                           "adjacent (TOSA backend)");
    int64_t first = dims.front(), last = dims.back();
    ArrayRef<int64_t> sizes = selfType.getShape();
    int64_t outer = countElements(sizes.take_front(first));
    int64_t indexed = countElements(sizes.slice(first, dims.size()));
    int64_t inner = countElements(sizes.drop_front(last + 1));
    int64_t broadcastRank = type.getRank() - (rank - dims.size());
    if (broadcastRank < 0)
      return reportFailure(rewriter, op, "the result rank does not match");
    ArrayRef<int64_t> broadcast = type.getShape().slice(first, broadcastRank);
    int64_t count = countElements(broadcast);
    if (selfType.getNumElements() >= std::numeric_limits<int32_t>::max())
      return reportFailure(rewriter, op,
                           "unsupported: more than 2^31 elements (TOSA's "
                           "indices are si32)");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto linearType = RankedTensorType::get(broadcast, i32);
    auto boolType = RankedTensorType::get(broadcast, rewriter.getI1Type());
    Value linear;
    int64_t stride = indexed;
    for (auto [dim, index] : llvm::zip(dims, indices)) {
      int64_t size = sizes[dim];
      stride /= size;
      Value i = expandRank(rewriter, loc, createCast(rewriter, loc, index, i32),
                           broadcastRank);
      auto iType = cast<RankedTensorType>(i.getType());
      SmallVector<int64_t> multiples;
      for (auto [in, out] : llvm::zip(iType.getShape(), broadcast))
        multiples.push_back(in == out ? 1 : out);
      if (iType.getShape() != broadcast)
        i = tosa::TileOp::create(rewriter, loc, linearType, i,
                                 createConstShape(rewriter, loc, multiples));
      Value zero = createScalar(rewriter, loc, i32, 0.0, broadcastRank);
      Value wrapped = tosa::AddOp::create(
          rewriter, loc, linearType, i,
          createScalar(rewriter, loc, i32, static_cast<double>(size),
                       broadcastRank));
      i = tosa::SelectOp::create(
          rewriter, loc, linearType,
          tosa::GreaterOp::create(rewriter, loc, boolType, zero, i), wrapped,
          i);
      if (stride != 1)
        i = createMul(rewriter, loc, linearType, i,
                      createScalar(rewriter, loc, i32,
                                   static_cast<double>(stride), broadcastRank));
      linear = linear
                   ? tosa::AddOp::create(rewriter, loc, linearType, linear, i)
                         .getResult()
                   : i;
    }
    Value index = createReshape(rewriter, loc, linear, {1, count});
    if (outer != 1)
      index = tosa::TileOp::create(
          rewriter, loc, RankedTensorType::get({outer, count}, i32), index,
          createConstShape(rewriter, loc, {outer, 1}));
    Value values = createReshape(rewriter, loc, adaptor.getSelf(),
                                 {outer, indexed, inner});
    replaceWithGather(rewriter, op, values, index, type);
    return success();
  }
};

/// scatter.src, scatter_add and scatter_reduce.two(self, dim, index, src,
/// reduce, include_self) with indices proved in bounds, as a one-hot
/// reduction (tosa.scatter takes no repeated index, and accumulates
/// nothing): with dim d moved last, hit[a, j, k] = (index[a, j] == k) for
/// the K positions of self's dim d; each output position reduces the src
/// values that hit it (scatter.src keeps the last j, as PyTorch's serial
/// kernel does) and combines them with self (include_self); positions no
/// index hits keep self. The work is |index| * K: meant for the sizes of
/// scatters in models (PyTorch's scatter_reduce reference semantics).
template <typename TorchOp>
struct ConvertScatter : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = this->getTypeConverter();
    RankedTensorType type, selfType;
    if (failed(checkResultAndInput(rewriter, converter, op, type, selfType)))
      return failure();
    std::string reduce = "src";
    bool includeSelf = true;
    if constexpr (std::is_same_v<TorchOp, AtenScatterAddOp>) {
      reduce = "sum";
    } else if constexpr (std::is_same_v<TorchOp, AtenScatterReduceTwoOp>) {
      auto constant = op.getReduce().template getDefiningOp<ConstantStrOp>();
      if (!constant ||
          !matchTorchConstantBool(op.getIncludeSelf(), includeSelf))
        return reportFailure(rewriter, op,
                             "reduce and include_self must be constants");
      reduce = constant.getValue().str();
    }
    auto indexType = getConvertedType(converter, op.getIndex());
    auto srcType = getConvertedType(converter, op.getSrc());
    if (failed(checkTosaTensor(rewriter, op, op.getIndex(), indexType,
                               "the index")) ||
        failed(checkTosaTensor(rewriter, op, op.getSrc(), srcType, "src")))
      return failure();
    if (!op->hasAttr("torch2mlir.indices_in_bounds"))
      return reportFailure(
          rewriter, op,
          "unsupported: indices not proved within the indexed size (TOSA "
          "has no run-time checks). Way out: "
          "backend=\"linalg-on-tensors\", which checks them at run time");
    int64_t rank = selfType.getRank();
    FailureOr<int64_t> constantDim =
        getConstantDim(rewriter, op, op.getDim(), rank);
    if (failed(constantDim))
      return failure();
    int64_t dim = *constantDim;
    ArrayRef<int64_t> selfShape = selfType.getShape();
    ArrayRef<int64_t> indexShape = indexType.getShape();
    if (rank == 0 || dim < 0 || dim >= rank || indexType.getRank() != rank ||
        srcType.getRank() != rank || indexType.getNumElements() == 0)
      return reportFailure(rewriter, op,
                           "unsupported: a 0-d or empty scatter, or an index "
                           "or src of another rank than self");
    for (int64_t k = 0; k < rank; ++k)
      if (indexShape[k] > srcType.getDimSize(k) ||
          (k != dim && indexShape[k] > selfShape[k]))
        return reportFailure(rewriter, op,
                             "the index is larger than src or self");
    Type element = type.getElementType();
    // Bools compute in i32 (a sum or maximum is any, a product or minimum
    // all: the cast back to bool is x != 0).
    RankedTensorType computeType = element.isInteger(1)
                                       ? type.clone(rewriter.getI32Type())
                                       : getOpMathType(type);
    Type compute = computeType.getElementType();
    bool isFloat = isa<mlir::FloatType>(compute);
    if (!isa<IntegerType>(indexType.getElementType()) ||
        (element.isInteger(1) && reduce == "mean"))
      return reportFailure(rewriter, op,
                           "unsupported: a mean of bools, or indices that "
                           "are not integers");
    double identity;
    if (reduce == "src" || reduce == "sum" || reduce == "mean")
      identity = 0.0;
    else if (reduce == "prod")
      identity = 1.0;
    else if (reduce == "amax" || reduce == "amin") {
      double bound =
          isFloat ? INFINITY
                  : std::ldexp(1.0, compute.getIntOrFloatBitWidth() - 1) - 1;
      identity = reduce == "amax" ? -bound - (isFloat ? 0.0 : 1.0) : bound;
    } else
      return reportFailure(rewriter, op, "unknown reduce: " + reduce);

    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value index = createCast(rewriter, loc, adaptor.getIndex(), i32);
    Value src = createCast(rewriter, loc, adaptor.getSrc(), compute);
    if (srcType.getShape() != indexShape)
      src = tosa::SliceOp::create(
          rewriter, loc, RankedTensorType::get(indexShape, compute), src,
          createConstShape(rewriter, loc, SmallVector<int64_t>(rank, 0)),
          createConstShape(rewriter, loc, indexShape));
    // dim last: [A..., J].
    SmallVector<int32_t> perm, inverse(rank);
    for (int64_t k = 0; k < rank; ++k)
      if (k != dim)
        perm.push_back(static_cast<int32_t>(k));
    perm.push_back(static_cast<int32_t>(dim));
    for (int64_t k = 0; k < rank; ++k)
      inverse[perm[k]] = static_cast<int32_t>(k);
    index = createTranspose(rewriter, loc, index, perm);
    src = createTranspose(rewriter, loc, src, perm);
    SmallVector<int64_t> moved = permuteShape(indexShape, perm);
    int64_t positions = selfShape[dim], count = moved.back();
    // [A..., J, 1] against [1..., 1, K].
    SmallVector<int64_t> column(moved);
    column.push_back(1);
    index = createReshape(rewriter, loc, index, column);
    src = createReshape(rewriter, loc, src, column);
    SmallVector<int64_t> hitShape(moved);
    hitShape.push_back(positions);
    auto iota = [&](int64_t size, int64_t at) -> Value {
      SmallVector<int64_t> shape(rank + 1, 1);
      shape[at] = size;
      auto iotaType = RankedTensorType::get(shape, i32);
      SmallVector<int32_t> values(size);
      std::iota(values.begin(), values.end(), 0);
      return tosa::ConstOp::create(
          rewriter, loc, iotaType,
          DenseElementsAttr::get(iotaType, ArrayRef<int32_t>(values)));
    };
    auto hitType = RankedTensorType::get(hitShape, rewriter.getI1Type());
    Value hit = tosa::EqualOp::create(rewriter, loc, hitType, index,
                                      iota(positions, rank));
    IntegerAttr axis =
        rewriter.getI32IntegerAttr(static_cast<int32_t>(rank - 1));
    SmallVector<int64_t> reducedShape(hitShape);
    reducedShape[rank - 1] = 1;
    if (reduce == "src") {
      // The last j that hits each position.
      Value js = iota(count, rank - 1);
      Value picked = tosa::SelectOp::create(
          rewriter, loc, RankedTensorType::get(hitShape, i32), hit, js,
          createScalar(rewriter, loc, i32, -1.0, rank + 1));
      Value last = tosa::ReduceMaxOp::create(
          rewriter, loc, RankedTensorType::get(reducedShape, i32), picked,
          axis);
      hit = tosa::LogicalAndOp::create(
          rewriter, loc, hitType, hit,
          tosa::EqualOp::create(rewriter, loc, hitType, js, last));
    }
    auto valueType = RankedTensorType::get(hitShape, compute);
    auto reducedType = RankedTensorType::get(reducedShape, compute);
    Value values = tosa::SelectOp::create(
        rewriter, loc, valueType, hit, src,
        createScalar(rewriter, loc, compute, identity, rank + 1));
    Value contribution;
    if (reduce == "prod" && !isFloat)
      contribution = createIntegerProduct(rewriter, loc, values, rank - 1);
    else if (reduce == "prod")
      contribution = tosa::ReduceProductOp::create(rewriter, loc, reducedType,
                                                   values, axis);
    else if (reduce == "amax")
      contribution =
          tosa::ReduceMaxOp::create(rewriter, loc, reducedType, values, axis);
    else if (reduce == "amin")
      contribution =
          tosa::ReduceMinOp::create(rewriter, loc, reducedType, values, axis);
    else
      contribution =
          tosa::ReduceSumOp::create(rewriter, loc, reducedType, values, axis);
    Value any = tosa::ReduceAnyOp::create(
        rewriter, loc,
        RankedTensorType::get(reducedShape, rewriter.getI1Type()), hit, axis);
    Value hits;
    if (reduce == "mean")
      hits = tosa::ReduceSumOp::create(rewriter, loc, reducedType,
                                       createCast(rewriter, loc, hit, compute),
                                       axis);
    // Back to self's layout: [A..., K] transposed, padded to self's shape.
    SmallVector<int64_t> outMoved(moved);
    outMoved.back() = positions;
    SmallVector<int64_t> padding(2 * rank, 0);
    for (int64_t k = 0; k < rank; ++k)
      if (k != dim)
        padding[2 * k + 1] = selfShape[k] - indexShape[k];
    bool padded = llvm::any_of(padding, [](int64_t p) { return p != 0; });
    auto restore = [&](Value value, double fill) -> Value {
      value = createTranspose(rewriter, loc,
                              createReshape(rewriter, loc, value, outMoved),
                              inverse);
      if (!padded)
        return value;
      Type valueElement =
          cast<RankedTensorType>(value.getType()).getElementType();
      auto fillType = RankedTensorType::get({1}, valueElement);
      Attribute attr =
          isa<mlir::FloatType>(valueElement)
              ? Attribute(rewriter.getFloatAttr(valueElement, fill))
              : Attribute(rewriter.getIntegerAttr(valueElement,
                                                  static_cast<int64_t>(fill)));
      return createPad(
          rewriter, loc, value, padding,
          tosa::ConstOp::create(rewriter, loc, fillType,
                                DenseElementsAttr::get(fillType, attr)));
    };
    contribution = restore(contribution, identity);
    any = restore(any, 0.0);
    Value self = createCast(rewriter, loc, adaptor.getSelf(), compute);
    Value combined = contribution;
    if (reduce == "mean") {
      hits = restore(hits, 0.0);
      Value total = contribution;
      if (includeSelf) {
        total = tosa::AddOp::create(rewriter, loc, computeType, self, total);
        hits = tosa::AddOp::create(
            rewriter, loc, computeType, hits,
            createScalar(rewriter, loc, compute, 1.0, rank));
      }
      if (isFloat) {
        combined = createMul(
            rewriter, loc, computeType, total,
            tosa::ReciprocalOp::create(rewriter, loc, computeType, hits));
      } else {
        // Integers: floored (PyTorch divides with rounding_mode="floor").
        // Where nothing hits, the count is 0: divide by 1 (self is kept).
        Value divisor = tosa::MaximumOp::create(
            rewriter, loc, computeType, hits,
            createScalar(rewriter, loc, compute, 1.0, rank));
        combined =
            createIntegerFloorDiv(rewriter, loc, computeType, total, divisor);
      }
    } else if (includeSelf && reduce == "sum") {
      combined =
          tosa::AddOp::create(rewriter, loc, computeType, self, contribution);
    } else if (includeSelf && reduce == "prod") {
      combined = createMul(rewriter, loc, computeType, self, contribution);
    } else if (includeSelf && reduce == "amax") {
      combined = tosa::MaximumOp::create(rewriter, loc, computeType, self,
                                         contribution);
    } else if (includeSelf && reduce == "amin") {
      combined = tosa::MinimumOp::create(rewriter, loc, computeType, self,
                                         contribution);
    }
    Value result =
        tosa::SelectOp::create(rewriter, loc, computeType, any, combined, self);
    rewriter.replaceOp(op, createCast(rewriter, loc, result, element));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateTosaIndexingPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  target.addIllegalOp<AtenEmbeddingOp, AtenIndexSelectOp, AtenGatherOp,
                      AtenAsStridedOp, AtenDiagonalOp, AtenIndexTensorOp,
                      AtenScatterSrcOp, AtenScatterAddOp,
                      AtenScatterReduceTwoOp>();
  patterns.add<
      ConvertEmbedding, ConvertIndexSelect, ConvertGather, ConvertAsStrided,
      ConvertDiagonal, ConvertIndexTensor, ConvertScatter<AtenScatterSrcOp>,
      ConvertScatter<AtenScatterAddOp>, ConvertScatter<AtenScatterReduceTwoOp>>(
      typeConverter, patterns.getContext());
}
