//===- Unpool.cpp - ONNX MaxUnpool and Col2Im to ATen ---------------------===//
//
// Part of the torch2mlir project.
//
// The inverses of max pooling and of im2col. Both scatter the elements of
// their input into a zero image: MaxUnpool at the positions its Indices
// input names, Col2Im at the positions of each block's kernel taps, summing
// where blocks overlap.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

/// The product of `sizes`.
int64_t getNumElements(ArrayRef<int64_t> sizes) {
  int64_t count = 1;
  for (int64_t size : sizes)
    count *= size;
  return count;
}

/// MaxUnpool(X, I, output_shape?): the elements of X scattered into zeros
/// at I, which number the elements of the default output [N, C, (in - 1) *
/// stride - pad_begin - pad_end + kernel...] row-major over all its dims (as
/// MaxPool's Indices do). A larger output_shape extends that result with
/// zeros at the end of each spatial dim. The result sizes are the model's
/// (output_shape may be known only at run time); a constant output_shape
/// must agree with them.
LogicalResult lowerMaxUnpool(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), indices = binder.getOperand(1);
  auto inputType = x ? getKnownTensorType(x) : nullptr;
  auto indicesType = indices ? getKnownTensorType(indices) : nullptr;
  auto resultType = binder.getResultType();
  if (!inputType || !indicesType || !resultType ||
      !inputType.areAllSizesKnown() || !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "needs static sizes and known dtypes");
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  int64_t rank = in.size(), numSpatial = rank - 2;
  if (rank < 3 || static_cast<int64_t>(out.size()) != rank)
    return binder.fail(rewriter, "expects an [N, C, spatial...] input and a "
                                 "result of its rank");
  if (indicesType.getSizes() != in || !isa<IntegerType>(indicesType.getDtype()))
    return binder.fail(rewriter, "I must be integers of X's sizes");
  SmallVector<int64_t> kernel, strides, pads;
  if (failed(binder.getInts("kernel_shape", kernel)) ||
      failed(binder.getInts("strides", strides,
                            SmallVector<int64_t>(numSpatial, 1))) ||
      failed(binder.getInts("pads", pads,
                            SmallVector<int64_t>(2 * numSpatial, 0))) ||
      static_cast<int64_t>(kernel.size()) != numSpatial ||
      static_cast<int64_t>(strides.size()) != numSpatial ||
      static_cast<int64_t>(pads.size()) != 2 * numSpatial)
    return binder.fail(rewriter, "kernel_shape, strides and pads must have "
                                 "one value per spatial dim (pads: two)");
  SmallVector<int64_t> defaultSizes{in[0], in[1]};
  for (int64_t i = 0; i < numSpatial; ++i)
    defaultSizes.push_back((in[2 + i] - 1) * strides[i] - pads[i] -
                           pads[numSpatial + i] + kernel[i]);
  SmallVector<int64_t> outputShape;
  if (binder.getOperand(2) &&
      succeeded(binder.getConstantInts(2, outputShape)) &&
      ArrayRef<int64_t>(outputShape) != out)
    return binder.fail(rewriter, "the result sizes differ from output_shape");
  for (int64_t d = 0; d < rank; ++d)
    if (defaultSizes[d] <= 0 || out[d] < defaultSizes[d] ||
        (d < 2 && out[d] != defaultSizes[d]))
      return binder.fail(rewriter,
                         "unsupported: an output smaller than the default "
                         "unpooled size, or with other N or C");

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = inputType.getDtype(), si64 = getSi64Type(context);
  int64_t count = getNumElements(in), total = getNumElements(defaultSizes);
  Value flatIndices =
      createView(rewriter, loc, createToDtype(rewriter, loc, indices, si64),
                 {count}, getTensorType(context, {count}, si64));
  Value flatX = createView(rewriter, loc, x, {count},
                           getTensorType(context, {count}, dtype));
  Value scattered = AtenScatterSrcOp::create(
      rewriter, loc, getTensorType(context, {total}, dtype),
      createZeros(rewriter, loc, {total}, dtype),
      createConstantInt(rewriter, loc, 0), flatIndices, flatX);
  Value result = createView(rewriter, loc, scattered, defaultSizes,
                            getTensorType(context, defaultSizes, dtype));
  if (ArrayRef<int64_t>(defaultSizes) != out) {
    // constant_pad_nd lists the last dim first: (begin, end) per dim.
    SmallVector<int64_t> padList;
    for (int64_t d = rank - 1; d >= 2; --d)
      padList.append({0, out[d] - defaultSizes[d]});
    result =
        AtenConstantPadNdOp::create(rewriter, loc, resultType, result,
                                    createIntList(rewriter, loc, padList),
                                    createConstantFloat(rewriter, loc, 0.0));
  }
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// Col2Im(input [N, C * prod(block_shape), L], image_shape, block_shape):
/// the L blocks summed into a zero image [N, C, image_shape...]. The blocks
/// tile each padded image dim (pads_begin + image + pads_end) at `strides`,
/// and their number along dim i is
///   (padded[i] - dilations[i] * (block_shape[i] - 1) - 1) / strides[i] + 1.
/// Input row c * K + k (k the row-major tap within a block) of block b (the
/// row-major block position) lands at
///   pos[i] = b[i] * strides[i] + k[i] * dilations[i] - pads_begin[i]
/// and is dropped outside the image. image_shape is the result's sizes;
/// block_shape may be known only at run time, so the positions are si64
/// tensors computed from its values, and one scatter_add sums the input
/// into the flattened image (plus a last slot that collects the dropped
/// elements).
LogicalResult lowerCol2Im(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), blockShape = binder.getOperand(2);
  auto inputType = x ? getKnownTensorType(x) : nullptr;
  auto blockShapeType = blockShape ? getKnownTensorType(blockShape) : nullptr;
  auto resultType = binder.getResultType();
  if (!inputType || !blockShapeType || !resultType ||
      !inputType.areAllSizesKnown() || !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "needs static input and result sizes and "
                                 "known dtypes");
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  int64_t numSpatial = static_cast<int64_t>(out.size()) - 2;
  if (in.size() != 3 || numSpatial < 1)
    return binder.fail(rewriter, "expects an [N, C * K, L] input and an "
                                 "[N, C, image...] result");
  if (blockShapeType.getSizes() != ArrayRef<int64_t>{numSpatial} ||
      !isa<IntegerType>(blockShapeType.getDtype()))
    return binder.fail(rewriter, "block_shape must hold one int per image "
                                 "dim");
  int64_t batch = in[0], channels = out[1], length = in[2];
  if (out[0] != batch || channels <= 0 || in[1] % channels != 0)
    return binder.fail(rewriter, "the input's dim 1 must be the result's "
                                 "channels times the block size");
  int64_t taps = in[1] / channels;
  ArrayRef<int64_t> image = out.drop_front(2);
  SmallVector<int64_t> strides, dilations, pads;
  if (failed(binder.getInts("strides", strides,
                            SmallVector<int64_t>(numSpatial, 1))) ||
      failed(binder.getInts("dilations", dilations,
                            SmallVector<int64_t>(numSpatial, 1))) ||
      failed(binder.getInts("pads", pads,
                            SmallVector<int64_t>(2 * numSpatial, 0))) ||
      static_cast<int64_t>(strides.size()) != numSpatial ||
      static_cast<int64_t>(dilations.size()) != numSpatial ||
      static_cast<int64_t>(pads.size()) != 2 * numSpatial)
    return binder.fail(rewriter, "strides, dilations and pads must have one "
                                 "value per image dim (pads: two)");
  if (llvm::any_of(strides, [](int64_t s) { return s < 1; }) ||
      llvm::any_of(dilations, [](int64_t d) { return d < 1; }) ||
      llvm::any_of(pads, [](int64_t p) { return p < 0; }))
    return binder.fail(rewriter, "strides and dilations must be positive, "
                                 "pads not negative");
  SmallVector<int64_t> imageShape, constantBlock;
  if (succeeded(binder.getConstantInts(1, imageShape)) &&
      ArrayRef<int64_t>(imageShape) != image)
    return binder.fail(rewriter, "the result sizes differ from image_shape");
  bool isConstantBlock = succeeded(binder.getConstantInts(2, constantBlock));
  if (isConstantBlock) {
    int64_t blocks = 1;
    for (int64_t i = 0; i < numSpatial; ++i) {
      int64_t padded = image[i] + pads[i] + pads[numSpatial + i];
      int64_t extent = dilations[i] * (constantBlock[i] - 1) + 1;
      if (constantBlock[i] < 1 || extent > padded)
        return binder.fail(rewriter, "a block does not fit the padded image");
      blocks *= (padded - extent) / strides[i] + 1;
    }
    if (getNumElements(constantBlock) != taps || blocks != length)
      return binder.fail(rewriter, "the input sizes do not match block_shape "
                                   "and the number of blocks");
  }

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = inputType.getDtype(), si64 = getSi64Type(context);
  auto indexType = [&](ArrayRef<int64_t> sizes) {
    return getTensorType(context, sizes, si64);
  };
  auto boolType = [&](ArrayRef<int64_t> sizes) {
    return getTensorType(context, sizes, rewriter.getI1Type());
  };
  auto cst = [&](int64_t v) { return createConstantInt(rewriter, loc, v); };
  auto scale = [&](Value value, int64_t factor) -> Value {
    if (factor == 1)
      return value;
    return AtenMulScalarOp::create(rewriter, loc, value.getType(), value,
                                   cst(factor));
  };
  Value one = cst(1), none = createConstantNone(rewriter, loc);
  Value floor = ConstantStrOp::create(rewriter, loc, StringType::get(context),
                                      rewriter.getStringAttr("floor"));
  auto scalarType = indexType({});
  auto tapType = indexType({taps, 1}), blockType = indexType({1, length});
  auto positionType = indexType({taps, length});
  if (!isConstantBlock)
    blockShape = createToDtype(rewriter, loc, blockShape, si64);
  // The remaining row-major tap and block numbers, unravelled from the
  // last dim.
  Value tapRest = createView(rewriter, loc, createArange(rewriter, loc, taps),
                             {taps, 1}, tapType);
  Value blockRest =
      createView(rewriter, loc, createArange(rewriter, loc, length),
                 {1, length}, blockType);
  Value flat, valid;
  int64_t imageStride = 1;
  for (int64_t i = numSpatial - 1; i >= 0; --i) {
    // The block size (at least 1, so that the divisions below are defined
    // whatever block_shape holds at run time) and the number of blocks.
    Value size;
    if (isConstantBlock) {
      size = createScalarLiteral(rewriter, loc, si64, constantBlock[i]);
    } else {
      size = AtenSelectIntOp::create(rewriter, loc, scalarType, blockShape,
                                     cst(0), cst(i));
      size = AtenClampOp::create(rewriter, loc, scalarType, size, one, none);
    }
    int64_t padded = image[i] + pads[i] + pads[numSpatial + i];
    Value count = AtenMulScalarOp::create(rewriter, loc, scalarType, size,
                                          cst(-dilations[i]));
    count = AtenAddScalarOp::create(rewriter, loc, scalarType, count,
                                    cst(padded + dilations[i] - 1), one);
    count = AtenDivScalarModeOp::create(rewriter, loc, scalarType, count,
                                        cst(strides[i]), floor);
    count = AtenAddScalarOp::create(rewriter, loc, scalarType, count, one, one);
    if (!isConstantBlock)
      count = AtenClampOp::create(rewriter, loc, scalarType, count, one, none);

    Value tap =
        AtenRemainderTensorOp::create(rewriter, loc, tapType, tapRest, size);
    tapRest = AtenDivTensorModeOp::create(rewriter, loc, tapType, tapRest, size,
                                          floor);
    Value block = AtenRemainderTensorOp::create(rewriter, loc, blockType,
                                                blockRest, count);
    blockRest = AtenDivTensorModeOp::create(rewriter, loc, blockType, blockRest,
                                            count, floor);
    Value position = AtenAddTensorOp::create(rewriter, loc, positionType,
                                             scale(block, strides[i]),
                                             scale(tap, dilations[i]), one);
    if (pads[i] != 0)
      position = AtenSubScalarOp::create(rewriter, loc, positionType, position,
                                         cst(pads[i]), one);
    Value inside = AtenLogicalAndOp::create(
        rewriter, loc, boolType({taps, length}),
        AtenGeScalarOp::create(rewriter, loc, boolType({taps, length}),
                               position, cst(0)),
        AtenLtScalarOp::create(rewriter, loc, boolType({taps, length}),
                               position, cst(image[i])));
    valid = valid ? AtenLogicalAndOp::create(
                        rewriter, loc, boolType({taps, length}), valid, inside)
                        .getResult()
                  : inside;
    position = scale(position, imageStride);
    flat = flat ? AtenAddTensorOp::create(rewriter, loc, positionType, flat,
                                          position, one)
                      .getResult()
                : position;
    imageStride *= image[i];
  }
  // Dropped elements go to the slot past the image.
  int64_t pixels = imageStride, columns = taps * length;
  Value index = AtenWhereScalarOtherOp::create(rewriter, loc, positionType,
                                               valid, flat, cst(pixels));
  index = createView(rewriter, loc, index, {1, 1, columns},
                     indexType({1, 1, columns}));
  SmallVector<int64_t> columnSizes{batch, channels, columns};
  index = AtenExpandOp::create(rewriter, loc, indexType(columnSizes), index,
                               createIntList(rewriter, loc, columnSizes),
                               createConstantBool(rewriter, loc, false));
  Value source = createView(rewriter, loc, x, columnSizes,
                            getTensorType(context, columnSizes, dtype));
  SmallVector<int64_t> sumSizes{batch, channels, pixels + 1};
  Value sum = AtenScatterAddOp::create(
      rewriter, loc, getTensorType(context, sumSizes, dtype),
      createZeros(rewriter, loc, sumSizes, dtype), cst(2), index, source);
  SmallVector<int64_t> imageSizes{batch, channels, pixels};
  Value result = AtenSliceTensorOp::create(
      rewriter, loc, getTensorType(context, imageSizes, dtype), sum, cst(2),
      cst(0), cst(pixels), one);
  rewriter.replaceOp(binder.getOp(),
                     createView(rewriter, loc, result, out, resultType));
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxUnpoolLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("MaxUnpool", 9, lowerMaxUnpool);
  lowerings.on("Col2Im", 18, lowerCol2Im);
}
