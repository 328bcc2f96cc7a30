//===- Reduction.cpp - Reductions and normalizations to TOSA --------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// TOSA reduces one axis at a time and keeps it (size 1); a reduction over
// several dims is a chain, then a reshape drops them unless keepdim. Float
// reductions of f16/bf16 run in f32 (PyTorch's accumulation type) and
// round once. Softmax, log_softmax, layer norm and inference batch norm
// are built from them.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToTosa/TorchToTosa.h"

#include "Utils.h"

#include <numeric>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_tosa;

namespace {

enum class Reduce { Sum, Max, Min, Any, All };

/// `x` summed over `dim` (kept, size 1). TOSA's reduce_sum adds in
/// sequence (lowered so, its float error grows with the count); a long dim
/// is summed in blocks of at most 256, then the block sums, recursively,
/// which keeps float sums close to PyTorch's (pairwise summation).
Value createBlockedSum(OpBuilder &b, Location loc, Value x, int64_t dim) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t size = type.getDimSize(dim);
  SmallVector<int64_t> shape(type.getShape());
  int64_t block = 0;
  if (isa<mlir::FloatType>(type.getElementType()) && size > 256)
    for (int64_t candidate = 256; candidate >= 16 && !block; --candidate)
      if (size % candidate == 0)
        block = candidate;
  if (!block) {
    shape[dim] = 1;
    return tosa::ReduceSumOp::create(b, loc, type.clone(shape), x,
                                     b.getI32IntegerAttr(dim));
  }
  // [.., size, ..] -> [.., size / block, block, ..]: sum the blocks, then
  // their sums.
  SmallVector<int64_t> split(shape);
  split[dim] = size / block;
  split.insert(split.begin() + dim + 1, block);
  Value blocks = createReshape(b, loc, x, split);
  split[dim + 1] = 1;
  blocks = tosa::ReduceSumOp::create(b, loc, type.clone(split), blocks,
                                     b.getI32IntegerAttr(dim + 1));
  split.erase(split.begin() + dim + 1);
  blocks = createReshape(b, loc, blocks, split);
  return createBlockedSum(b, loc, blocks, dim);
}

/// `x` reduced over `dims` (kept, size 1) with `kind`.
Value reduceKeep(OpBuilder &b, Location loc, Reduce kind, Value x,
                 ArrayRef<int64_t> dims) {
  for (int64_t dim : dims) {
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = 1;
    auto resultType = type.clone(shape);
    IntegerAttr axis = b.getI32IntegerAttr(dim);
    switch (kind) {
    case Reduce::Sum:
      x = createBlockedSum(b, loc, x, dim);
      break;
    case Reduce::Max:
      x = tosa::ReduceMaxOp::create(b, loc, resultType, x, axis);
      break;
    case Reduce::Min:
      x = tosa::ReduceMinOp::create(b, loc, resultType, x, axis);
      break;
    case Reduce::Any:
      x = tosa::ReduceAnyOp::create(b, loc, resultType, x, axis);
      break;
    case Reduce::All:
      x = tosa::ReduceAllOp::create(b, loc, resultType, x, axis);
      break;
    }
  }
  return x;
}

/// The element type float math on `element` runs in (f32 for 16-bit
/// floats).
Type getComputeType(Type element) {
  if (isa<Float16Type, BFloat16Type>(element))
    return Float32Type::get(element.getContext());
  return element;
}

/// The reduced dims of `dimList` (None or empty: all) normalized, sorted.
FailureOr<SmallVector<int64_t>> getReduceDims(Value dimList, int64_t rank) {
  SmallVector<int64_t> dims;
  if (!isTorchNone(dimList) && !matchTorchConstantIntList(dimList, dims))
    return failure();
  if (rank == 0) {
    // A 0-d tensor has one dim to name (0 or -1) and nothing to reduce.
    if (llvm::any_of(dims, [](int64_t dim) { return dim != 0 && dim != -1; }))
      return failure();
    return SmallVector<int64_t>();
  }
  if (dims.empty())
    for (int64_t i = 0; i < rank; ++i)
      dims.push_back(i);
  for (int64_t &dim : dims) {
    dim = toPositiveDim(dim, rank);
    if (dim < 0)
      return failure();
  }
  llvm::sort(dims);
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  return dims;
}

/// sum.dim_IntList, mean.dim, amax, amin (dims constant, keepdim constant).
template <typename TorchOp, Reduce Kind, bool IsMean = false>
struct ConvertReduction : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = this->getTypeConverter();
    RankedTensorType type, selfType;
    if (failed(checkResultAndInput(rewriter, converter, op, type, selfType)))
      return failure();
    bool keepdim;
    auto dims = getReduceDims(op.getDim(), selfType.getRank());
    if (failed(dims) || !matchTorchConstantBool(op.getKeepdim(), keepdim))
      return reportFailure(rewriter, op,
                           "dim and keepdim must be constants in range");
    Type element = type.getElementType();
    // The maximum of bools is any, the minimum all.
    Reduce kind = Kind;
    if (element.isInteger(1) && Kind == Reduce::Max)
      kind = Reduce::Any;
    else if (element.isInteger(1) && Kind == Reduce::Min)
      kind = Reduce::All;
    else if (element.isInteger(1) || (IsMean && !isa<mlir::FloatType>(element)))
      return reportFailure(rewriter, op,
                           "unsupported: a bool sum, or a non-float mean");
    Location loc = op.getLoc();
    Type compute = Kind == Reduce::Sum ? getComputeType(element) : element;
    Value x = createCast(rewriter, loc, adaptor.getSelf(), compute);
    x = reduceKeep(rewriter, loc, kind, x, *dims);
    if (IsMean) {
      int64_t count = 1;
      for (int64_t dim : *dims)
        count *= selfType.getDimSize(dim);
      auto xType = cast<RankedTensorType>(x.getType());
      x = createMul(
          rewriter, loc, xType, x,
          createScalar(rewriter, loc, compute, 1.0 / count, xType.getRank()));
    }
    x = createCast(rewriter, loc, x, element);
    rewriter.replaceOp(op, createReshape(rewriter, loc, x, type.getShape()));
    return success();
  }
};

/// prod.dim_int(self, dim, keepdim, dtype): `tosa.reduce_product`, which
/// TOSA 1.0 has for floats only (16-bit floats multiply in f32). Integers
/// multiply in i32 by halves: the dim padded with ones to a power of two,
/// then its two halves multiplied until one row is left (wrapping as
/// PyTorch's integer product does; torch-narrow-si64 bounds si64 ones).
struct ConvertProd : OpConversionPattern<AtenProdDimIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenProdDimIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type, selfType;
    if (failed(checkResultAndInput(rewriter, getTypeConverter(), op, type,
                                   selfType)))
      return failure();
    Type element = type.getElementType();
    if (element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a bool result");
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "the dim must be a constant");
    Location loc = op.getLoc();
    Value x =
        createCast(rewriter, loc, adaptor.getSelf(), getComputeType(element));
    auto xType = cast<RankedTensorType>(x.getType());
    if (xType.getRank() == 0)
      x = createReshape(rewriter, loc, x, {1});
    xType = cast<RankedTensorType>(x.getType());
    dim = toPositiveDim(dim, xType.getRank());
    if (dim < 0 || dim >= xType.getRank())
      return reportFailure(rewriter, op, "dim out of range");
    SmallVector<int64_t> shape(xType.getShape());
    if (isa<mlir::FloatType>(element)) {
      shape[dim] = 1;
      x = tosa::ReduceProductOp::create(rewriter, loc, xType.clone(shape), x,
                                        rewriter.getI32IntegerAttr(dim));
    } else {
      x = createIntegerProduct(
          rewriter, loc, createCast(rewriter, loc, x, rewriter.getI32Type()),
          dim);
    }
    x = createCast(rewriter, loc, x, element);
    rewriter.replaceOp(op, createReshape(rewriter, loc, x, type.getShape()));
    return success();
  }
};

/// argmax / argmin(self, dim?, keepdim): `tosa.argmax` (the first index of
/// the maximum; NaN propagates, so the first NaN wins, as in PyTorch) of
/// the input flattened when dim is None. argmin is the argmax of -x for
/// floats and of ~x (-x - 1, which cannot overflow) for integers. Other
/// integers than si8 (and bools) take the first index where x equals its
/// maximum, in i32: a reduce_min over the iota where equal (TOSA's argmax
/// has no si32 form, and si16 needs the int16 extension). The si32 result
/// is the narrowed si64 one (torch-narrow-si64 bounds it).
template <typename TorchOp, bool IsMin>
struct ConvertArgmax : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type, selfType;
    if (failed(checkResultAndInput(rewriter, this->getTypeConverter(), op, type,
                                   selfType)))
      return failure();
    Type element = selfType.getElementType();
    if (!type.getElementType().isInteger(32))
      return reportFailure(rewriter, op,
                           "unsupported: an index result not narrowed to "
                           "si32");
    Location loc = op.getLoc();
    Value x = adaptor.getSelf();
    bool byCompare = isa<IntegerType>(element) && !element.isInteger(8);
    if (byCompare)
      x = createCast(rewriter, loc, x, rewriter.getI32Type());
    int64_t dim = 0;
    if (isTorchNone(op.getDim()) || selfType.getRank() == 0) {
      x = createReshape(rewriter, loc, x, {selfType.getNumElements()});
    } else {
      if (!matchTorchConstantInt(op.getDim(), dim))
        return reportFailure(rewriter, op, "the dim must be a constant");
      dim = toPositiveDim(dim, selfType.getRank());
      if (dim < 0 || dim >= selfType.getRank())
        return reportFailure(rewriter, op, "dim out of range");
    }
    auto xType = cast<RankedTensorType>(x.getType());
    if (IsMin) {
      if (isa<mlir::FloatType>(element))
        x = tosa::NegateOp::create(rewriter, loc, xType, x);
      else
        x = tosa::BitwiseNotOp::create(rewriter, loc, xType, x);
    }
    SmallVector<int64_t> shape(xType.getShape());
    if (byCompare) {
      int64_t size = shape[dim];
      Value max = reduceKeep(rewriter, loc, Reduce::Max, x, {dim});
      Value equal = tosa::EqualOp::create(
          rewriter, loc, xType.clone(rewriter.getI1Type()), x, max);
      SmallVector<int64_t> iotaShape(shape.size(), 1);
      iotaShape[dim] = size;
      auto iotaType = RankedTensorType::get(iotaShape, rewriter.getI32Type());
      SmallVector<int32_t> iota(size);
      std::iota(iota.begin(), iota.end(), 0);
      Value positions = tosa::ConstOp::create(
          rewriter, loc, iotaType,
          DenseElementsAttr::get(iotaType, ArrayRef<int32_t>(iota)));
      Value candidates = tosa::SelectOp::create(
          rewriter, loc, xType, equal, positions,
          createScalar(rewriter, loc, rewriter.getI32Type(),
                       static_cast<double>(size), xType.getRank()));
      Value index = reduceKeep(rewriter, loc, Reduce::Min, candidates, {dim});
      rewriter.replaceOp(op,
                         createReshape(rewriter, loc, index, type.getShape()));
      return success();
    }
    shape.erase(shape.begin() + dim);
    Value index = tosa::ArgMaxOp::create(
        rewriter, loc, RankedTensorType::get(shape, rewriter.getI32Type()), x,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(dim)));
    rewriter.replaceOp(op,
                       createReshape(rewriter, loc, index, type.getShape()));
    return success();
  }
};

/// _softmax / _log_softmax(self, dim, half_to_float) over one dim:
/// e = exp(x - max); softmax = e / sum(e); log_softmax = (x - max) -
/// log(sum(e)). 16-bit floats compute in f32.
template <typename TorchOp, bool IsLog>
struct ConvertSoftmax : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = this->getTypeConverter();
    auto type = getConvertedType(converter, op.getResult());
    if (failed(
            checkTosaTensor(rewriter, op, op.getResult(), type, "a result")) ||
        failed(checkTosaTensor(rewriter, op, op.getSelf(),
                               getConvertedType(converter, op.getSelf()),
                               "the input")))
      return failure();
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim) ||
        toPositiveDim(dim, type.getRank()) < 0 ||
        !isa<mlir::FloatType>(type.getElementType()))
      return reportFailure(rewriter, op,
                           "dim must be a constant in range, the result a "
                           "float");
    dim = toPositiveDim(dim, type.getRank());
    if (type.getRank() == 0)
      return reportFailure(rewriter, op, "unsupported: a 0-d input");
    Location loc = op.getLoc();
    Type compute = getComputeType(type.getElementType());
    auto computeType = type.clone(compute);
    Value x = createCast(rewriter, loc, adaptor.getSelf(), compute);
    Value max = reduceKeep(rewriter, loc, Reduce::Max, x, {dim});
    Value shifted = tosa::SubOp::create(rewriter, loc, computeType, x, max);
    Value e = tosa::ExpOp::create(rewriter, loc, computeType, shifted);
    Value sum = reduceKeep(rewriter, loc, Reduce::Sum, e, {dim});
    auto sumType = cast<RankedTensorType>(sum.getType());
    Value result;
    if (IsLog)
      result =
          tosa::SubOp::create(rewriter, loc, computeType, shifted,
                              tosa::LogOp::create(rewriter, loc, sumType, sum));
    else
      result =
          createMul(rewriter, loc, computeType, e,
                    tosa::ReciprocalOp::create(rewriter, loc, sumType, sum));
    rewriter.replaceOp(
        op, createCast(rewriter, loc, result, type.getElementType()));
    return success();
  }
};

/// (x - mean) * rsqrt(var + eps) over `dims` of `x` (compute type), with
/// the mean and rstd (kept dims).
struct Normalized {
  Value value, mean, rstd;
};
Normalized normalize(OpBuilder &b, Location loc, Value x,
                     ArrayRef<int64_t> dims, double eps) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t count = 1;
  for (int64_t dim : dims)
    count *= type.getDimSize(dim);
  Type element = type.getElementType();
  int64_t rank = type.getRank();
  Value inverseCount = createScalar(b, loc, element, 1.0 / count, rank);
  Value sum = reduceKeep(b, loc, Reduce::Sum, x, dims);
  auto statType = cast<RankedTensorType>(sum.getType());
  Value mean = createMul(b, loc, statType, sum, inverseCount);
  Value centered = tosa::SubOp::create(b, loc, type, x, mean);
  Value squares = createMul(b, loc, type, centered, centered);
  Value variance =
      createMul(b, loc, statType,
                reduceKeep(b, loc, Reduce::Sum, squares, dims), inverseCount);
  Value rstd = tosa::RsqrtOp::create(
      b, loc, statType,
      tosa::AddOp::create(b, loc, statType, variance,
                          createScalar(b, loc, element, eps, rank)));
  return {createMul(b, loc, type, centered, rstd), mean, rstd};
}

/// native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out,
/// mean, rstd) over the trailing normalized dims.
struct ConvertLayerNorm : OpConversionPattern<AtenNativeLayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenNativeLayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    SmallVector<RankedTensorType> types;
    for (Value result : op->getResults()) {
      types.push_back(getConvertedType(converter, result));
      if (failed(
              checkTosaTensor(rewriter, op, result, types.back(), "a result")))
        return failure();
    }
    auto inputType = getConvertedType(converter, op.getInput());
    if (failed(checkTosaTensor(rewriter, op, op.getInput(), inputType,
                               "the input")))
      return failure();
    SmallVector<int64_t> normalizedShape;
    double eps;
    if (!matchTorchConstantIntList(op.getNormalizedShape(), normalizedShape) ||
        !matchTorchConstantFloat(op.getEps(), eps) ||
        !isa<mlir::FloatType>(inputType.getElementType()))
      return reportFailure(rewriter, op,
                           "normalized_shape and eps must be constants, the "
                           "input a float");
    int64_t rank = inputType.getRank();
    int64_t count = normalizedShape.size();
    if (count > rank ||
        inputType.getShape().take_back(count) != ArrayRef(normalizedShape))
      return reportFailure(rewriter, op,
                           "normalized_shape must be the input's last sizes");
    Location loc = op.getLoc();
    Type element = inputType.getElementType();
    Type compute = getComputeType(element);
    Value x = createCast(rewriter, loc, adaptor.getInput(), compute);
    SmallVector<int64_t> dims;
    for (int64_t i = rank - count; i < rank; ++i)
      dims.push_back(i);
    Normalized n = normalize(rewriter, loc, x, dims, eps);
    auto computeType = inputType.clone(compute);
    Value out = n.value;
    auto affine = [&](Value torchValue, Value converted, bool isWeight) {
      if (isTorchNone(torchValue))
        return success();
      auto affineType = getConvertedType(converter, torchValue);
      if (failed(checkTosaTensor(rewriter, op, torchValue, affineType,
                                 "the weight or bias")))
        return failure();
      Value value = expandRank(
          rewriter, loc, createCast(rewriter, loc, converted, compute), rank);
      out = isWeight
                ? createMul(rewriter, loc, computeType, out, value)
                : tosa::AddOp::create(rewriter, loc, computeType, out, value)
                      .getResult();
      return success();
    };
    if (failed(affine(op.getWeight(), adaptor.getWeight(), true)) ||
        failed(affine(op.getBias(), adaptor.getBias(), false)))
      return failure();
    rewriter.replaceOp(
        op, {createCast(rewriter, loc, out, types[0].getElementType()),
             createReshape(
                 rewriter, loc,
                 createCast(rewriter, loc, n.mean, types[1].getElementType()),
                 types[1].getShape()),
             createReshape(
                 rewriter, loc,
                 createCast(rewriter, loc, n.rstd, types[2].getElementType()),
                 types[2].getShape())});
    return success();
  }
};

/// _native_batch_norm_legit_no_training(input, weight, bias, running_mean,
/// running_var, momentum, eps) = (input - mean) * rsqrt(var + eps) *
/// weight + bias, per channel (dim 1); the saved statistics are empty.
struct ConvertBatchNormInference
    : OpConversionPattern<Aten_NativeBatchNormLegitNoTrainingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Aten_NativeBatchNormLegitNoTrainingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    // (Results 1 and 2, the saved statistics, are empty: checked below.)
    SmallVector<RankedTensorType> types;
    for (Value result : op->getResults())
      types.push_back(getConvertedType(converter, result));
    if (failed(checkTosaTensor(rewriter, op, op->getResult(0), types.front(),
                               "a result")))
      return failure();
    auto inputType = getConvertedType(converter, op.getInput());
    double eps;
    if (failed(checkTosaTensor(rewriter, op, op.getInput(), inputType,
                               "the input")) ||
        !matchTorchConstantFloat(op.getEps(), eps) ||
        !isa<mlir::FloatType>(inputType.getElementType()) ||
        inputType.getRank() < 2)
      return reportFailure(rewriter, op,
                           "eps must be a constant, the input a float of "
                           "rank >= 2");
    Location loc = op.getLoc();
    int64_t rank = inputType.getRank();
    int64_t channels = inputType.getDimSize(1);
    Type compute = getComputeType(inputType.getElementType());
    auto computeType = inputType.clone(compute);
    SmallVector<int64_t> statShape(rank, 1);
    statShape[1] = channels;
    auto perChannel = [&](Value torchValue, Value converted) -> Value {
      auto valueType = getConvertedType(converter, torchValue);
      if (!valueType || valueType.getShape() != ArrayRef<int64_t>{channels} ||
          !isTosaElementType(valueType.getElementType()))
        return Value();
      return createReshape(rewriter, loc,
                           createCast(rewriter, loc, converted, compute),
                           statShape);
    };
    Value mean = perChannel(op.getRunningMean(), adaptor.getRunningMean());
    Value var = perChannel(op.getRunningVar(), adaptor.getRunningVar());
    if (!mean || !var)
      return reportFailure(rewriter, op,
                           "running statistics must be [C] tensors");
    auto statType = RankedTensorType::get(statShape, compute);
    Value scale = tosa::RsqrtOp::create(
        rewriter, loc, statType,
        tosa::AddOp::create(rewriter, loc, statType, var,
                            createScalar(rewriter, loc, compute, eps, rank)));
    if (!isTorchNone(op.getWeight())) {
      Value weight = perChannel(op.getWeight(), adaptor.getWeight());
      if (!weight)
        return reportFailure(rewriter, op, "weight must be a [C] tensor");
      scale = createMul(rewriter, loc, statType, scale, weight);
    }
    Value x = createCast(rewriter, loc, adaptor.getInput(), compute);
    Value out = createMul(
        rewriter, loc, computeType,
        tosa::SubOp::create(rewriter, loc, computeType, x, mean), scale);
    if (!isTorchNone(op.getBias())) {
      Value bias = perChannel(op.getBias(), adaptor.getBias());
      if (!bias)
        return reportFailure(rewriter, op, "bias must be a [C] tensor");
      out = tosa::AddOp::create(rewriter, loc, computeType, out, bias);
    }
    SmallVector<Value> results = {
        createCast(rewriter, loc, out, types[0].getElementType())};
    // The saved statistics are empty in inference: TOSA has no empty
    // tensors, so they must be unused (nothing replaces them).
    for (Value stat : op->getResults().drop_front()) {
      if (!stat.use_empty())
        return reportFailure(rewriter, op,
                             "unsupported: a use of the (empty) saved "
                             "statistics (TOSA has no empty tensors)");
      results.push_back(Value());
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// any(self), any.dim(self, dim, keepdim), any.dims(self, dim?, keepdim):
/// `tosa.reduce_any` of self != 0.
template <typename TorchOp> struct ConvertAny : OpConversionPattern<TorchOp> {
  using OpConversionPattern<TorchOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TorchOp op, typename TorchOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type, selfType;
    if (failed(checkResultAndInput(rewriter, this->getTypeConverter(), op, type,
                                   selfType)))
      return failure();
    int64_t rank = selfType.getRank();
    FailureOr<SmallVector<int64_t>> dims;
    if constexpr (std::is_same_v<TorchOp, AtenAnyOp>) {
      dims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    } else if constexpr (std::is_same_v<TorchOp, AtenAnyDimOp>) {
      FailureOr<int64_t> dim = getConstantDim(rewriter, op, op.getDim(), rank);
      if (failed(dim))
        return failure();
      dims = rank == 0 ? SmallVector<int64_t>() : SmallVector<int64_t>{*dim};
    } else {
      dims = getReduceDims(op.getDim(), rank);
    }
    if (failed(dims))
      return reportFailure(rewriter, op, "dims must be constants in range");
    if (!type.getElementType().isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a non-bool result");
    Location loc = op.getLoc();
    Value x =
        createCast(rewriter, loc, adaptor.getSelf(), rewriter.getI1Type());
    x = reduceKeep(rewriter, loc, Reduce::Any, x, *dims);
    rewriter.replaceOp(op, createReshape(rewriter, loc, x, type.getShape()));
    return success();
  }
};

/// cumsum(self, dim, dtype): an inclusive scan in ceil(log2(n)) steps
/// (Hillis and Steele): x += x shifted by 1, 2, 4... along dim (a
/// `tosa.pad` with zeros in front, then a `tosa.slice`). 8- and 16-bit
/// integers add in 32 bits (see getOpMathType). Floats add in f32 (16-bit
/// floats widen) with each step's rounding error carried in a second f32
/// term (Knuth's TwoSum), as PyTorch's CPU kernel accumulates float32 in
/// float64: the sum of a long row that cancels stays accurate.
struct ConvertCumsum : OpConversionPattern<AtenCumsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type, selfType;
    if (failed(checkResultAndInput(rewriter, getTypeConverter(), op, type,
                                   selfType)))
      return failure();
    int64_t rank = type.getRank();
    FailureOr<int64_t> constantDim =
        getConstantDim(rewriter, op, op.getDim(), rank);
    if (failed(constantDim))
      return failure();
    int64_t dim = *constantDim;
    Type element = type.getElementType();
    if (element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a bool result");
    Location loc = op.getLoc();
    RankedTensorType computeType = getOpMathType(type);
    Type compute = computeType.getElementType();
    Value x = createCast(rewriter, loc, adaptor.getSelf(), compute);
    int64_t size = rank == 0 ? 1 : type.getDimSize(dim);
    auto padType = RankedTensorType::get({1}, compute);
    bool isFloat = isa<mlir::FloatType>(compute);
    Attribute zero = isFloat ? Attribute(rewriter.getFloatAttr(compute, 0.0))
                             : Attribute(rewriter.getIntegerAttr(compute, 0));
    Value padConst = tosa::ConstOp::create(
        rewriter, loc, padType, DenseElementsAttr::get(padType, zero));
    SmallVector<int64_t> begin(rank, 0);
    auto shiftBy = [&](Value value, int64_t shift) -> Value {
      SmallVector<int64_t> padding(2 * rank, 0);
      padding[2 * dim] = shift;
      Value padded = createPad(rewriter, loc, value, padding, padConst);
      return tosa::SliceOp::create(
          rewriter, loc, computeType, padded,
          createConstShape(rewriter, loc, begin),
          createConstShape(rewriter, loc, computeType.getShape()));
    };
    auto add = [&](Value a, Value b) -> Value {
      return tosa::AddOp::create(rewriter, loc, computeType, a, b);
    };
    auto sub = [&](Value a, Value b) -> Value {
      return tosa::SubOp::create(rewriter, loc, computeType, a, b);
    };
    Value error; // the rounding errors of x's sums (floats)
    for (int64_t shift = 1; shift < size; shift *= 2) {
      Value shifted = shiftBy(x, shift);
      Value sum = add(x, shifted);
      if (isFloat) {
        // TwoSum: sum + e == x + shifted exactly.
        Value shiftedPart = sub(sum, x);
        Value xPart = sub(sum, shiftedPart);
        Value e = add(sub(x, xPart), sub(shifted, shiftedPart));
        error = error ? add(add(error, shiftBy(error, shift)), e) : e;
      }
      x = sum;
    }
    if (error)
      x = add(x, error);
    rewriter.replaceOp(op, createCast(rewriter, loc, x, element));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateTosaReductionPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<
      AtenSumDimIntListOp, AtenMeanDimOp, AtenAmaxOp, AtenAminOp,
      Aten_SoftmaxOp, Aten_LogSoftmaxOp, AtenNativeLayerNormOp,
      Aten_NativeBatchNormLegitNoTrainingOp, AtenArgmaxOp, AtenArgminOp,
      AtenProdDimIntOp, AtenAnyOp, AtenAnyDimOp, AtenAnyDimsOp, AtenCumsumOp>();
  patterns.add<ConvertReduction<AtenSumDimIntListOp, Reduce::Sum>,
               ConvertReduction<AtenMeanDimOp, Reduce::Sum, true>,
               ConvertReduction<AtenAmaxOp, Reduce::Max>,
               ConvertReduction<AtenAminOp, Reduce::Min>,
               ConvertSoftmax<Aten_SoftmaxOp, false>,
               ConvertSoftmax<Aten_LogSoftmaxOp, true>, ConvertLayerNorm,
               ConvertBatchNormInference, ConvertArgmax<AtenArgmaxOp, false>,
               ConvertArgmax<AtenArgminOp, true>, ConvertProd,
               ConvertAny<AtenAnyOp>, ConvertAny<AtenAnyDimOp>,
               ConvertAny<AtenAnyDimsOp>, ConvertCumsum>(typeConverter,
                                                         context);
}
