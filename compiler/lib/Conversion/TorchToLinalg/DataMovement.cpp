//===- DataMovement.cpp - Shape and copy ATen ops to linalg/tensor --------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

/// view(x, sizes): a row-major reshape to the (importer-computed) result
/// type. Under value semantics aliasing does not matter.
struct ConvertAtenView : OpConversionPattern<AtenViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    if (llvm::count_if(resultType.getShape(), ShapedType::isDynamic) <= 1) {
      Value reshaped =
          createReshape(rewriter, op.getLoc(), adaptor.getSelf(), resultType);
      if (!reshaped)
        return reportFailure(rewriter, op, kUnknownReshapeSizes);
      rewriter.replaceOp(op, reshaped);
      return success();
    }
    // Several dynamic sizes: tensor.reshape to a shape built from the size
    // operands (symbolic sizes at run time); -1 is what the others leave.
    auto list = op.getSize().getDefiningOp<PrimListConstructOp>();
    int64_t rank = resultType.getRank();
    if (!list || static_cast<int64_t>(list.getElements().size()) != rank)
      return reportFailure(rewriter, op,
                           "unsupported: several dynamic sizes not given by a "
                           "prim.ListConstruct");
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    SmallVector<Value> sizes;
    int64_t inferred = -1;
    for (int64_t i = 0; i < rank; ++i) {
      Value element = list.getElements()[i];
      int64_t constant;
      if (matchTorchConstantInt(element, constant)) {
        if (constant == -1) {
          inferred = i;
          sizes.push_back(Value());
          continue;
        }
        sizes.push_back(
            arith::ConstantIndexOp::create(rewriter, loc, constant));
        continue;
      }
      Value size = getTypeConverter()->materializeTargetConversion(
          rewriter, loc, rewriter.getI64Type(), element);
      if (!size)
        return reportFailure(rewriter, op, "sizes must be ints");
      sizes.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), size));
    }
    if (inferred >= 0) {
      Value numel = createElementCount(rewriter, loc, input);
      Value others = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t i = 0; i < rank; ++i)
        if (i != inferred)
          others = arith::MulIOp::create(rewriter, loc, others, sizes[i]);
      sizes[inferred] = arith::DivUIOp::create(rewriter, loc, numel, others);
    }
    // The sizes come from the program at run time: the code checks that
    // they cover the input exactly before reading it.
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (Value size : sizes)
      count = arith::MulIOp::create(rewriter, loc, count, size);
    assertElementCount(rewriter, loc, input, resultType.getShape(), count);
    Value shape = tensor::FromElementsOp::create(rewriter, loc, sizes);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, resultType, input,
                                                   shape);
    return success();
  }
};

/// permute(x, dims) = linalg.transpose.
struct ConvertAtenPermute : OpConversionPattern<AtenPermuteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenPermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    int64_t rank = resultType.getRank();
    SmallVector<int64_t> dims;
    if (!matchTorchConstantIntList(op.getDims(), dims) ||
        static_cast<int64_t>(dims.size()) != rank)
      return reportFailure(rewriter, op, "dims must be a constant permutation");
    for (int64_t &dim : dims) {
      dim = toPositiveDim(dim, rank);
      if (dim < 0)
        return reportFailure(rewriter, op, kDimOutOfRange);
    }
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    if (llvm::equal(dims, llvm::seq<int64_t>(0, rank))) {
      rewriter.replaceOp(op, input);
      return success();
    }
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, input, dims[i]));
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                resultType.getElementType(), dynamicSizes);
    rewriter.replaceOp(
        op, linalg::TransposeOp::create(rewriter, loc, input, init, dims)
                .getResult());
    return success();
  }
};

/// cat(tensors, dim): each input inserted at its offset along `dim`.
struct ConvertAtenCat : OpConversionPattern<AtenCatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    int64_t rank = resultType.getRank();
    int64_t dim;
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Refuse, dim)))
      return failure();
    Location loc = op.getLoc();
    auto inputs = getConvertedTensorList(rewriter, loc, getTypeConverter(),
                                         op.getTensors());
    if (failed(inputs))
      return reportFailure(rewriter, op,
                           "tensors must come from a torch.prim.ListConstruct");
    Type element = resultType.getElementType();
    // The inputs that take part, cast to the result dtype.
    SmallVector<Value> parts;
    for (auto [input, torchInput] :
         llvm::zip(*inputs, op.getTensors()
                                .getDefiningOp<PrimListConstructOp>()
                                .getElements())) {
      auto inputType = cast<RankedTensorType>(input.getType());
      // PyTorch skips legacy empty 1-D inputs of size 0.
      if (inputType.getRank() == 1 && inputType.getDimSize(0) == 0 && rank != 1)
        continue;
      if (inputType.getRank() != rank)
        return reportFailure(rewriter, op, "inputs must have the result rank");
      // An empty part adds nothing (and its offset may be past the end).
      if (inputType.getDimSize(dim) == 0)
        continue;
      if (inputType.getElementType() != element) {
        bool srcUnsigned = getTorchDtype(torchInput) &&
                           getTorchDtype(torchInput).isUnsignedInteger();
        auto castType = RankedTensorType::get(inputType.getShape(), element);
        input = createElementwise(
            rewriter, loc, castType, ValueRange{input},
            [&](OpBuilder &b, Location l, ValueRange args) {
              return convertScalar(b, l, args[0], element, srcUnsigned);
            });
      }
      parts.push_back(input);
    }
    if (parts.empty() && resultType.hasStaticShape()) {
      // Every part is empty along dim: so is the result.
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, resultType.getShape(),
                                                   resultType.getElementType());
      return success();
    }
    if (parts.empty())
      return reportFailure(rewriter, op, "no non-empty input");
    // Where each part goes along `dim`: static while the sizes are.
    SmallVector<OpFoldResult> offsetsAlongDim;
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (Value part : parts) {
      offsetsAlongDim.push_back(offset);
      OpFoldResult size = tensor::getMixedSize(rewriter, loc, part, dim);
      std::optional<int64_t> a = getConstantIntValue(offset),
                             b = getConstantIntValue(size);
      if (a && b) {
        offset = rewriter.getIndexAttr(*a + *b);
        continue;
      }
      if (a && *a == 0) {
        offset = size;
        continue;
      }
      offset = arith::AddIOp::create(
                   rewriter, loc,
                   getValueOrCreateConstantIndexOp(rewriter, loc, offset),
                   getValueOrCreateConstantIndexOp(rewriter, loc, size))
                   .getResult();
    }
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            i == dim ? getValueOrCreateConstantIndexOp(rewriter, loc, offset)
                     : tensor::DimOp::create(rewriter, loc, parts.front(), i)
                           .getResult());
    Value result = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                           element, dynamicSizes);
    for (auto [part, partOffset] : llvm::zip(parts, offsetsAlongDim)) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[dim] = partOffset;
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      result = createInsertSlice(rewriter, loc, part, result, offsets,
                                 tensor::getMixedSizes(rewriter, loc, part),
                                 strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// clone(x) under value semantics is x.
struct ConvertAtenClone : OpConversionPattern<AtenCloneOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCloneOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || resultType != adaptor.getSelf().getType())
      return reportFailure(rewriter, op, "result type differs from input");
    rewriter.replaceOp(op, adaptor.getSelf());
    return success();
  }
};

/// expand(x, sizes): broadcast to the result shape.
struct ConvertAtenExpand : OpConversionPattern<AtenExpandOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    int64_t rank = resultType.getRank();
    int64_t offset = rank - cast<RankedTensorType>(input.getType()).getRank();
    // Dynamic result sizes: the size operand, or the input's for -1.
    SmallVector<Value> dynamicSizes;
    if (!resultType.hasStaticShape()) {
      auto list = op.getSize().getDefiningOp<PrimListConstructOp>();
      if (!list || static_cast<int64_t>(list.getElements().size()) != rank)
        return reportFailure(rewriter, op,
                             "unsupported: a size list that is not a "
                             "prim.ListConstruct of the result's rank");
      for (int64_t i = 0; i < rank; ++i) {
        if (!resultType.isDynamicDim(i))
          continue;
        Value element = list.getElements()[i];
        int64_t constant;
        if (matchTorchConstantInt(element, constant)) {
          if (constant != -1 || i < offset)
            return reportFailure(rewriter, op, "bad size for a dynamic dim");
          dynamicSizes.push_back(
              tensor::DimOp::create(rewriter, loc, input, i - offset));
          continue;
        }
        Value size = getTypeConverter()->materializeTargetConversion(
            rewriter, loc, rewriter.getI64Type(), element);
        if (!size)
          return reportFailure(rewriter, op, "sizes must be ints");
        dynamicSizes.push_back(arith::IndexCastOp::create(
            rewriter, loc, rewriter.getIndexType(), size));
      }
    }
    Value result = createElementwise(
        rewriter, loc, resultType, ValueRange{input},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; },
        dynamicSizes);
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tensor_static_info_cast(x): tensor.cast between the builtin types.
struct ConvertTensorStaticInfoCast
    : OpConversionPattern<TensorStaticInfoCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TensorStaticInfoCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !isa<RankedTensorType>(adaptor.getOperand().getType()))
      return reportFailure(rewriter, op, "needs known ranks and dtypes");
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, resultType,
                                                adaptor.getOperand());
    return success();
  }
};

/// The sizes of `tensor` as fold results (static sizes as attributes).
static SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc,
                                          Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    sizes.push_back(
        type.isDynamicDim(i)
            ? OpFoldResult(tensor::DimOp::create(b, loc, tensor, i).getResult())
            : OpFoldResult(b.getIndexAttr(type.getDimSize(i))));
  return sizes;
}

/// constant_pad_nd(x, pad, value): pad = [low, high] pairs from the last
/// dim backwards. Negative amounts crop (tensor.extract_slice), positive
/// ones pad (tensor.pad).
struct ConvertAtenConstantPadNd : OpConversionPattern<AtenConstantPadNdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenConstantPadNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    SmallVector<int64_t> pad;
    if (!matchTorchConstantIntList(op.getPad(), pad))
      return reportFailure(rewriter, op, "pad must be a constant int list");
    if (pad.size() % 2 != 0 || static_cast<int64_t>(pad.size()) > 2 * rank)
      return reportFailure(rewriter, op,
                           "pad must hold a (low, high) pair per padded dim, "
                           "at most one pair per dim");
    Value padValue = adaptor.getValue();
    if (!isa<IntegerType, mlir::FloatType>(padValue.getType()))
      return reportFailure(rewriter, op, "unsupported: pad value type");
    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    for (size_t i = 0; i < pad.size() / 2; ++i) {
      low[rank - 1 - i] = pad[2 * i];
      high[rank - 1 - i] = pad[2 * i + 1];
    }
    Location loc = op.getLoc();
    // Crop first.
    SmallVector<OpFoldResult> offsets, sizes = getSizes(rewriter, loc, input);
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    SmallVector<int64_t> croppedShape;
    bool crops = false;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t cropLow = std::max<int64_t>(0, -low[i]);
      int64_t cropHigh = std::max<int64_t>(0, -high[i]);
      offsets.push_back(rewriter.getIndexAttr(cropLow));
      if (cropLow == 0 && cropHigh == 0) {
        croppedShape.push_back(inputType.getDimSize(i));
        continue;
      }
      crops = true;
      if (inputType.isDynamicDim(i))
        return reportFailure(rewriter, op,
                             "unsupported: negative pad of a dynamic dim");
      int64_t size = inputType.getDimSize(i) - cropLow - cropHigh;
      if (size < 0)
        return reportFailure(rewriter, op,
                             "negative pads remove more than dim " + Twine(i) +
                                 " holds");
      sizes[i] = rewriter.getIndexAttr(size);
      croppedShape.push_back(size);
      low[i] = std::max<int64_t>(0, low[i]);
      high[i] = std::max<int64_t>(0, high[i]);
    }
    if (crops)
      input = tensor::ExtractSliceOp::create(
          rewriter, loc,
          RankedTensorType::get(croppedShape, inputType.getElementType()),
          input, offsets, sizes, strides);
    Type element = resultType.getElementType();
    padValue = convertScalar(rewriter, loc, padValue, element,
                             /*srcUnsigned=*/padValue.getType().isInteger(1),
                             getTorchDtype(op.getResult()).isUnsignedInteger());
    // An input without elements: every result element is padding (a pad
    // of its empty dims would write through out-of-bounds views).
    if (resultType.hasStaticShape() &&
        llvm::is_contained(croppedShape, int64_t(0))) {
      rewriter.replaceOp(op, createFilled(rewriter, loc, resultType, padValue));
      return success();
    }
    Value result = createPad(rewriter, loc, input, low, high, padValue);
    rewriter.replaceOp(op, castTo(rewriter, loc, result, resultType));
    return success();
  }
};

/// slice.Tensor(x, dim, start, end, step) with constant arguments, clamped
/// as PyTorch does: negative start/end count from the end, then both are
/// clamped to [0, size] with end >= start.
struct ConvertAtenSliceTensor : OpConversionPattern<AtenSliceTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSliceTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t dim, step;
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Refuse, dim)))
      return failure();
    if (!matchTorchConstantInt(op.getStep(), step) || step <= 0)
      return reportFailure(rewriter, op, "step must be a positive constant");
    int64_t start = 0, end = std::numeric_limits<int64_t>::max();
    bool staticStart = isTorchNone(op.getStart()) ||
                       matchTorchConstantInt(op.getStart(), start);
    bool staticEnd =
        isTorchNone(op.getEnd()) || matchTorchConstantInt(op.getEnd(), end);
    Location loc = op.getLoc();
    if (inputType.isDynamicDim(dim) && staticStart && staticEnd && start == 0 &&
        end == std::numeric_limits<int64_t>::max() && step == 1) {
      rewriter.replaceOp(op, castTo(rewriter, loc, input, resultType));
      return success();
    }
    if (inputType.isDynamicDim(dim) || !staticStart || !staticEnd) {
      // Bounds known at run time only: PyTorch's wrapping and clamping on
      // index values.
      if ((!staticStart && !isa<IntegerType>(adaptor.getStart().getType())) ||
          (!staticEnd && !isa<IntegerType>(adaptor.getEnd().getType())))
        return reportFailure(rewriter, op, "start/end must be ints");
      Value size = tensor::DimOp::create(rewriter, loc, input, dim);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      auto bound = [&](Value converted, int64_t constant,
                       bool isStatic) -> Value {
        if (isStatic && constant == std::numeric_limits<int64_t>::max())
          return size;
        Value value =
            isStatic ? arith::ConstantIndexOp::create(rewriter, loc, constant)
                           .getResult()
                     : arith::IndexCastOp::create(
                           rewriter, loc, rewriter.getIndexType(), converted)
                           .getResult();
        Value negative = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, value, zero);
        Value wrapped = arith::AddIOp::create(rewriter, loc, value, size);
        value =
            arith::SelectOp::create(rewriter, loc, negative, wrapped, value);
        value = arith::MaxSIOp::create(rewriter, loc, value, zero);
        return arith::MinSIOp::create(rewriter, loc, value, size);
      };
      Value startValue = bound(adaptor.getStart(), start, staticStart);
      Value endValue = bound(adaptor.getEnd(), end, staticEnd);
      endValue = arith::MaxSIOp::create(rewriter, loc, endValue, startValue);
      Value stepValue = arith::ConstantIndexOp::create(rewriter, loc, step);
      Value length = arith::CeilDivUIOp::create(
          rewriter, loc,
          arith::SubIOp::create(rewriter, loc, endValue, startValue),
          stepValue);
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, input);
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      offsets[dim] = startValue;
      sizes[dim] = length;
      strides[dim] = rewriter.getIndexAttr(step);
      SmallVector<int64_t> shape(inputType.getShape());
      shape[dim] = ShapedType::kDynamic;
      Value result = tensor::ExtractSliceOp::create(
          rewriter, loc,
          RankedTensorType::get(shape, inputType.getElementType()), input,
          offsets, sizes, strides);
      rewriter.replaceOp(op, castTo(rewriter, loc, result, resultType));
      return success();
    }
    int64_t size = inputType.getDimSize(dim);
    if (start < 0)
      start += size;
    if (end < 0)
      end += size;
    start = std::clamp<int64_t>(start, 0, size);
    end = std::clamp<int64_t>(end, start, size);
    int64_t length = (end - start + step - 1) / step;
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, input);
    // An empty slice may start at the end, or slice an empty dim, or keep
    // another dim that is empty; tensor.extract_slice wants offsets inside
    // every dim: an empty tensor.
    if (length == 0 || llvm::is_contained(inputType.getShape(), 0)) {
      sizes[dim] = rewriter.getIndexAttr(length);
      Value empty = tensor::EmptyOp::create(rewriter, loc, sizes,
                                            inputType.getElementType());
      rewriter.replaceOp(op, castTo(rewriter, loc, empty, resultType));
      return success();
    }
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    offsets[dim] = rewriter.getIndexAttr(start);
    sizes[dim] = rewriter.getIndexAttr(length);
    strides[dim] = rewriter.getIndexAttr(step);
    SmallVector<int64_t> shape(inputType.getShape());
    shape[dim] = length;
    Value result = tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get(shape, inputType.getElementType()),
        input, offsets, sizes, strides);
    rewriter.replaceOp(op, castTo(rewriter, loc, result, resultType));
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// flip, repeat, diagonal, as_strided, copy: a linalg.generic over the
// result whose body reads the input at a computed position.
//===----------------------------------------------------------------------===//

/// A linalg.generic producing `resultType` (dynamic sizes: `dynamicSizes`)
/// whose element at the loop position is `body(position)`.
static Value
createGathering(OpBuilder &b, Location loc, RankedTensorType resultType,
                ValueRange dynamicSizes,
                function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = resultType.getRank();
  Value init = tensor::EmptyOp::create(
      b, loc, resultType.getShape(), resultType.getElementType(), dynamicSizes);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
             b.getMultiDimIdentityMap(rank),
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> position;
               for (int64_t i = 0; i < rank; ++i)
                 position.push_back(linalg::IndexOp::create(nb, l, i));
               linalg::YieldOp::create(nb, l, body(nb, l, position));
             })
      .getResult(0);
}

/// The dynamic sizes of `type` computed by `sizeOf(dim)`.
static SmallVector<Value> getDynamicSizes(RankedTensorType type,
                                          function_ref<Value(int64_t)> sizeOf) {
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(sizeOf(i));
  return sizes;
}

namespace {

/// flip(x, dims): result[p] = x[p with p[d] = size(d) - 1 - p[d] for each
/// d of dims].
struct ConvertAtenFlip : OpConversionPattern<AtenFlipOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenFlipOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    if (!resultType || resultType != input.getType())
      return reportFailure(rewriter, op, "result must have the input's type");
    int64_t rank = resultType.getRank();
    SmallVector<int64_t> dims;
    if (!matchTorchConstantIntList(op.getDims(), dims))
      return reportFailure(rewriter, op, "dims must be a constant int list");
    SmallVector<bool> flipped(rank, false);
    for (int64_t dim : dims) {
      dim = toPositiveDim(dim, std::max<int64_t>(rank, 1));
      if (dim < 0)
        return reportFailure(rewriter, op, kDimOutOfRange);
      if (rank > 0)
        flipped[dim] = true;
    }
    Location loc = op.getLoc();
    if (!llvm::is_contained(flipped, true)) {
      rewriter.replaceOp(op, input);
      return success();
    }
    Value result = createGathering(
        rewriter, loc, resultType,
        getDynamicSizes(resultType,
                        [&](int64_t i) -> Value {
                          return tensor::DimOp::create(rewriter, loc, input, i);
                        }),
        [&](OpBuilder &b, Location l, ValueRange position) -> Value {
          SmallVector<Value> at = llvm::to_vector(position);
          Value one = arith::ConstantIndexOp::create(b, l, 1);
          for (int64_t i = 0; i < rank; ++i) {
            if (!flipped[i])
              continue;
            Value last = arith::SubIOp::create(
                b, l, tensor::DimOp::create(b, l, input, i), one);
            at[i] = arith::SubIOp::create(b, l, last, position[i]);
          }
          return tensor::ExtractOp::create(b, l, input, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// repeat(x, repeats): x tiled repeats[i] times along dim i, x's dims
/// aligned with the trailing repeats: result[p] = x[p mod x.shape]. A
/// repeat known only at run time (a symbolic size of the program) sizes its
/// dim at run time.
struct ConvertAtenRepeat : OpConversionPattern<AtenRepeatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenRepeatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    int64_t inputRank = cast<RankedTensorType>(input.getType()).getRank();
    int64_t rank = resultType.getRank();
    auto list = op.getRepeats().getDefiningOp<PrimListConstructOp>();
    if (!list)
      return reportFailure(rewriter, op,
                           "repeats must be a prim.ListConstruct of ints");
    SmallVector<int64_t> known;
    for (Value element : list.getElements()) {
      int64_t constant;
      known.push_back(matchTorchConstantInt(element, constant) ? constant
                                                               : kUnknownSize);
    }
    if (static_cast<int64_t>(known.size()) != rank || rank < inputRank ||
        llvm::any_of(
            known, [](int64_t r) { return r < 0 && r != kUnknownSize; }))
      return reportFailure(rewriter, op,
                           "repeats must be non-negative, one per result dim "
                           "and at least one per input dim");
    Location loc = op.getLoc();
    FailureOr<SmallVector<Value>> converted = getConvertedTensorList(
        rewriter, loc, getTypeConverter(), op.getRepeats());
    if (failed(converted))
      return reportFailure(rewriter, op, "repeats must be ints");
    auto repeat = [&](int64_t i) -> Value {
      if (known[i] != kUnknownSize)
        return arith::ConstantIndexOp::create(rewriter, loc, known[i]);
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                        (*converted)[i]);
    };
    int64_t offset = rank - inputRank;
    Value result = createGathering(
        rewriter, loc, resultType,
        getDynamicSizes(resultType,
                        [&](int64_t i) -> Value {
                          if (i < offset)
                            return repeat(i);
                          Value size = tensor::DimOp::create(rewriter, loc,
                                                             input, i - offset);
                          return arith::MulIOp::create(rewriter, loc, size,
                                                       repeat(i));
                        }),
        [&](OpBuilder &b, Location l, ValueRange position) -> Value {
          SmallVector<Value> at;
          for (int64_t k = 0; k < inputRank; ++k)
            at.push_back(
                arith::RemUIOp::create(b, l, position[offset + k],
                                       tensor::DimOp::create(b, l, input, k)));
          return tensor::ExtractOp::create(b, l, input, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// diagonal(x, offset, dim1, dim2): x's dims without dim1 and dim2, then
/// the diagonal: result[q..., k] = x[..., k + max(0, -offset) at dim1, ...,
/// k + max(0, offset) at dim2, ...].
struct ConvertAtenDiagonal : OpConversionPattern<AtenDiagonalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenDiagonalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getSelf();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    int64_t offset, dim1, dim2;
    if (!matchTorchConstantInt(op.getOffset(), offset) ||
        !matchTorchConstantInt(op.getDim1(), dim1) ||
        !matchTorchConstantInt(op.getDim2(), dim2))
      return reportFailure(rewriter, op,
                           "offset, dim1 and dim2 must be constants");
    dim1 = toPositiveDim(dim1, rank);
    dim2 = toPositiveDim(dim2, rank);
    if (dim1 < 0 || dim2 < 0 || dim1 == dim2)
      return reportFailure(rewriter, op,
                           "dim1 and dim2 must be distinct dims of the input");
    if (resultType.getRank() != rank - 1)
      return reportFailure(rewriter, op, "result rank must be input rank - 1");
    SmallVector<int64_t> kept;
    for (int64_t i = 0; i < rank; ++i)
      if (i != dim1 && i != dim2)
        kept.push_back(i);
    Location loc = op.getLoc();
    auto sizeOf = [&](int64_t i) -> Value {
      if (i < rank - 2)
        return tensor::DimOp::create(rewriter, loc, input, kept[i]);
      // The diagonal's length: max(0, min(size1 + min(offset, 0),
      // size2 - max(offset, 0))).
      Value size1 = arith::AddIOp::create(
          rewriter, loc, tensor::DimOp::create(rewriter, loc, input, dim1),
          arith::ConstantIndexOp::create(rewriter, loc,
                                         std::min<int64_t>(offset, 0)));
      Value size2 = arith::SubIOp::create(
          rewriter, loc, tensor::DimOp::create(rewriter, loc, input, dim2),
          arith::ConstantIndexOp::create(rewriter, loc,
                                         std::max<int64_t>(offset, 0)));
      return arith::MaxSIOp::create(
          rewriter, loc, arith::MinSIOp::create(rewriter, loc, size1, size2),
          arith::ConstantIndexOp::create(rewriter, loc, 0));
    };
    Value result = createGathering(
        rewriter, loc, resultType, getDynamicSizes(resultType, sizeOf),
        [&](OpBuilder &b, Location l, ValueRange position) -> Value {
          SmallVector<Value> at(rank);
          for (auto [i, dim] : llvm::enumerate(kept))
            at[dim] = position[i];
          Value k = position.back();
          at[dim1] =
              arith::AddIOp::create(b, l, k,
                                    arith::ConstantIndexOp::create(
                                        b, l, std::max<int64_t>(-offset, 0)));
          at[dim2] =
              arith::AddIOp::create(b, l, k,
                                    arith::ConstantIndexOp::create(
                                        b, l, std::max<int64_t>(offset, 0)));
          return tensor::ExtractOp::create(b, l, input, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// as_strided(x, size, stride, storage_offset) of a contiguous x:
/// result[p] = flat(x)[storage_offset + sum(p[i] * stride[i])]. Under
/// value semantics x is its own contiguous storage, so this is PyTorch's
/// result exactly when x is contiguous and starts its storage there.
struct ConvertAtenAsStrided : OpConversionPattern<AtenAsStridedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAsStridedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !resultType.hasStaticShape())
      return reportFailure(rewriter, op, "result needs a static shape");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (!inputType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: a dynamic input shape");
    SmallVector<int64_t> sizes;
    if (!matchTorchConstantIntList(op.getSize(), sizes))
      return reportFailure(rewriter, op, "size must be a constant list");
    int64_t numel = inputType.getNumElements();
    FailureOr<StridedLayout> layout = matchAsStridedLayout(
        rewriter, op, op.getStride(), op.getStorageOffset(),
        resultType.getShape(), numel, "reads", "an input");
    if (failed(layout))
      return failure();
    Location loc = op.getLoc();
    Value flat = createReshape(
        rewriter, loc, input,
        RankedTensorType::get({numel}, inputType.getElementType()));
    Value result = createGathering(
        rewriter, loc, resultType, {},
        [&](OpBuilder &b, Location l, ValueRange position) -> Value {
          return tensor::ExtractOp::create(
              b, l, flat, createStridedIndex(b, l, position, *layout));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// copy(self, src, non_blocking): src broadcast to self's shape and cast
/// to self's dtype.
struct ConvertAtenCopy : OpConversionPattern<AtenCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value self = adaptor.getSelf(), src = adaptor.getSrc();
    if (!resultType || resultType.getShape() !=
                           cast<RankedTensorType>(self.getType()).getShape())
      return reportFailure(rewriter, op, "result must have self's shape");
    if (cast<RankedTensorType>(src.getType()).getRank() > resultType.getRank())
      return reportFailure(rewriter, op, "src has more dims than self");
    Location loc = op.getLoc();
    Type element = resultType.getElementType();
    bool srcUnsigned = isUnsignedOrBool(getTorchDtype(op.getSrc()));
    bool dstUnsigned = getTorchDtype(op.getResult()).isUnsignedInteger();
    Value result = createElementwise(
        rewriter, loc, resultType, ValueRange{src},
        [&](OpBuilder &b, Location l, ValueRange args) {
          return convertScalar(b, l, args[0], element, srcUnsigned,
                               dstUnsigned);
        },
        getDynamicSizes(resultType, [&](int64_t i) -> Value {
          return tensor::DimOp::create(rewriter, loc, self, i);
        }));
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reflection and replication padding
//===----------------------------------------------------------------------===//

/// reflection_padNd / replication_padNd(x, padding): `padding` holds
/// (before, after) pairs starting from the last dim. Each output element
/// reads x at its position minus the padding before, reflected about the
/// edges (without repeating them) or clamped to them.
template <typename OpTy, int64_t D, bool Reflect>
struct ConvertPadNd : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    if (!resultType || (rank != D + 1 && rank != D + 2))
      return reportFailure(rewriter, op,
                           "expects an input of rank " + Twine(D + 1) + " or " +
                               Twine(D + 2));
    SmallVector<int64_t> padding;
    if (!matchTorchConstantIntList(op.getPadding(), padding) ||
        static_cast<int64_t>(padding.size()) != 2 * D)
      return reportFailure(rewriter, op,
                           "padding must be " + Twine(2 * D) + " constants");
    if (!hasStaticTrailingDims(inputType, rank - D))
      return reportFailure(rewriter, op, "unsupported: dynamic padded dims");
    SmallVector<int64_t> low(rank, 0), sizes(inputType.getShape());
    for (int64_t i = 0; i < D; ++i) {
      int64_t dim = rank - 1 - i;
      int64_t before = padding[2 * i], after = padding[2 * i + 1];
      low[dim] = before;
      int64_t size = sizes[dim];
      if (Reflect && (before >= size || after >= size))
        return reportFailure(
            rewriter, op,
            "reflection padding (" + Twine(before) + ", " + Twine(after) +
                ") must be smaller than the padded dim (" + Twine(size) + ")");
      if (size == 0 || size + before + after < 0)
        return reportFailure(rewriter, op,
                             "padding of an empty dim or to a negative size");
    }
    Location loc = op.getLoc();
    Value init = createEmpty(rewriter, loc, resultType, input);
    Value result =
        createWindowGeneric(
            rewriter, loc, {}, {}, {init}, {},
            [&](OpBuilder &b, Location l, ValueRange) -> SmallVector<Value> {
              SmallVector<Value> indices;
              for (int64_t dim = 0; dim < rank; ++dim) {
                Value index = linalg::IndexOp::create(b, l, dim);
                if (dim < rank - D) {
                  indices.push_back(index);
                  continue;
                }
                Value zero = cstIndex(b, l, 0);
                Value last = cstIndex(b, l, sizes[dim] - 1);
                index = arith::SubIOp::create(b, l, index,
                                              cstIndex(b, l, low[dim]));
                if (Reflect) {
                  Value negative = arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::slt, index, zero);
                  index = arith::SelectOp::create(
                      b, l, negative, arith::SubIOp::create(b, l, zero, index),
                      index);
                  Value beyond = arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::sgt, index, last);
                  Value mirrored = arith::SubIOp::create(
                      b, l, cstIndex(b, l, 2 * (sizes[dim] - 1)), index);
                  index =
                      arith::SelectOp::create(b, l, beyond, mirrored, index);
                } else {
                  index = arith::MaxSIOp::create(b, l, index, zero);
                  index = arith::MinSIOp::create(b, l, index, last);
                }
                indices.push_back(index);
              }
              return {tensor::ExtractOp::create(b, l, input, indices)};
            })
            .front();
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateDataMovementPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenViewOp, AtenPermuteOp, AtenCatOp, AtenCloneOp,
                    AtenExpandOp, TensorStaticInfoCastOp>(target);
  patterns
      .add<ConvertAtenView, ConvertAtenPermute, ConvertAtenCat,
           ConvertAtenClone, ConvertAtenExpand, ConvertTensorStaticInfoCast>(
          typeConverter, context);
  addIllegalCoreOps<AtenConstantPadNdOp, AtenSliceTensorOp>(target);
  addIllegalCoreOps<AtenReflectionPad1dOp, AtenReflectionPad2dOp,
                    AtenReflectionPad3dOp, AtenReplicationPad1dOp,
                    AtenReplicationPad2dOp, AtenReplicationPad3dOp>(target);
  patterns.add<ConvertAtenConstantPadNd, ConvertAtenSliceTensor>(typeConverter,
                                                                 context);
  patterns.add<ConvertPadNd<AtenReflectionPad1dOp, 1, true>,
               ConvertPadNd<AtenReflectionPad2dOp, 2, true>,
               ConvertPadNd<AtenReflectionPad3dOp, 3, true>,
               ConvertPadNd<AtenReplicationPad1dOp, 1, false>,
               ConvertPadNd<AtenReplicationPad2dOp, 2, false>,
               ConvertPadNd<AtenReplicationPad3dOp, 3, false>>(typeConverter,
                                                               context);
  addIllegalCoreOps<AtenFlipOp, AtenRepeatOp, AtenDiagonalOp, AtenAsStridedOp,
                    AtenCopyOp>(target);
  patterns.add<ConvertAtenFlip, ConvertAtenRepeat, ConvertAtenDiagonal,
               ConvertAtenAsStrided, ConvertAtenCopy>(typeConverter, context);
}
