//===- NeuralNet.cpp - ONNX conv, pooling, norms, Gemm, softmax to ATen ---===//
//
// Part of the torch2mlir project.
//
// Spatial ops follow the ONNX spec's padding rules: `pads` lists the
// begin pads of each spatial axis, then the end pads; `auto_pad` SAME_UPPER
// and SAME_LOWER pad so that out = ceil(in / stride), the odd pixel at the
// end (UPPER) or the beginning (LOWER). ATen pads symmetrically, so an
// asymmetric padding becomes an explicit `aten.constant_pad_nd` first.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include <limits>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

/// The attributes of a convolution or pooling node, resolved against the
/// input's spatial sizes.
struct SpatialParams {
  SmallVector<int64_t> kernel, strides, dilations;
  SmallVector<int64_t> padBegin, padEnd;
};

/// Reads kernel_shape (or the weight's sizes), strides, dilations, pads
/// and auto_pad for `numSpatial` spatial dims of `inputType`.
LogicalResult getSpatialParams(const OpBinder &binder,
                               PatternRewriter &rewriter,
                               ValueTensorType inputType,
                               ArrayRef<int64_t> weightKernel,
                               SpatialParams &params) {
  int64_t numSpatial = inputType.getSizes().size() - 2;
  if (failed(binder.getInts("kernel_shape", params.kernel, weightKernel)) ||
      static_cast<int64_t>(params.kernel.size()) != numSpatial)
    return binder.fail(rewriter, "kernel_shape must list one size per spatial "
                                 "dim");
  SmallVector<int64_t> ones(numSpatial, 1), zeros(2 * numSpatial, 0);
  SmallVector<int64_t> pads;
  if (failed(binder.getInts("strides", params.strides, ones)) ||
      failed(binder.getInts("dilations", params.dilations, ones)) ||
      failed(binder.getInts("pads", pads, zeros)) ||
      static_cast<int64_t>(params.strides.size()) != numSpatial ||
      static_cast<int64_t>(params.dilations.size()) != numSpatial ||
      static_cast<int64_t>(pads.size()) != 2 * numSpatial)
    return binder.fail(rewriter,
                       "strides, dilations and pads must have one value per "
                       "spatial dim (pads: two)");
  std::string autoPad;
  if (failed(binder.getString("auto_pad", autoPad, "NOTSET")))
    return binder.fail(rewriter, "auto_pad must be a string");
  if (autoPad == "NOTSET") {
    params.padBegin.assign(pads.begin(), pads.begin() + numSpatial);
    params.padEnd.assign(pads.begin() + numSpatial, pads.end());
    return success();
  }
  if (autoPad == "VALID") {
    params.padBegin.assign(numSpatial, 0);
    params.padEnd.assign(numSpatial, 0);
    return success();
  }
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return binder.fail(rewriter,
                       "unsupported auto_pad value '" + autoPad + "'");
  for (int64_t i = 0; i < numSpatial; ++i) {
    int64_t in = inputType.getSizes()[2 + i];
    if (in == kUnknownSize)
      return binder.fail(rewriter, "auto_pad SAME needs static spatial sizes");
    int64_t stride = params.strides[i];
    int64_t out = (in + stride - 1) / stride;
    int64_t extent = (params.kernel[i] - 1) * params.dilations[i] + 1;
    int64_t total = std::max<int64_t>(0, (out - 1) * stride + extent - in);
    int64_t small = total / 2, large = total - small;
    params.padBegin.push_back(autoPad == "SAME_UPPER" ? small : large);
    params.padEnd.push_back(autoPad == "SAME_UPPER" ? large : small);
  }
  return success();
}

/// A convolution's spatial attributes (getSpatialParams, the kernel from
/// the weight's sizes) and its `group`.
LogicalResult getConvParams(const OpBinder &binder, PatternRewriter &rewriter,
                            ValueTensorType inputType,
                            ValueTensorType weightType, SpatialParams &params,
                            int64_t &group) {
  if (failed(getSpatialParams(binder, rewriter, inputType,
                              weightType.getSizes().drop_front(2), params)))
    return failure();
  if (failed(binder.getInt("group", group, 1)))
    return binder.fail(rewriter, "group must be an int");
  return success();
}

/// Pads the spatial dims of `input` by begin/end with `value`
/// (aten.constant_pad_nd lists the last dim first).
Value createSpatialPad(PatternRewriter &rewriter, Location loc, Value input,
                       ArrayRef<int64_t> begin, ArrayRef<int64_t> end,
                       Value value) {
  auto type = cast<ValueTensorType>(input.getType());
  SmallVector<int64_t> sizes(type.getSizes());
  SmallVector<int64_t> padList;
  for (int64_t i = begin.size() - 1; i >= 0; --i) {
    padList.push_back(begin[i]);
    padList.push_back(end[i]);
    int64_t &size = sizes[2 + i];
    if (size != kUnknownSize)
      size += begin[i] + end[i];
  }
  return AtenConstantPadNdOp::create(
      rewriter, loc, withSizes(input, sizes), input,
      createIntList(rewriter, loc, padList), value);
}

/// Makes padding symmetric for ATen: pads the input explicitly when the
/// begin and end pads differ, leaving `padding` for the ATen op.
Value applyAsymmetricPads(PatternRewriter &rewriter, Location loc, Value input,
                          SpatialParams &params,
                          SmallVectorImpl<int64_t> &padding, Value padValue) {
  if (params.padBegin == params.padEnd) {
    padding.assign(params.padBegin);
    return input;
  }
  padding.assign(params.padBegin.size(), 0);
  return createSpatialPad(rewriter, loc, input, params.padBegin, params.padEnd,
                          padValue);
}

/// Conv (opset 1, 11): N-d convolution with groups; 2-D runs as is, 1-D
/// as a 2-D convolution over a unit height.
LogicalResult lowerConv(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), w = binder.getOperand(1);
  Value bias = binder.getOperand(2);
  auto inputType = getKnownTensorType(x);
  auto weightType = getKnownTensorType(w);
  auto resultType = binder.getResultType();
  if (!inputType || !weightType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  int64_t rank = inputType.getSizes().size();
  if (rank != 4 && rank != 3)
    return binder.fail(rewriter, "unsupported: only 1-D and 2-D convolution");
  SpatialParams params;
  int64_t group;
  if (failed(getConvParams(binder, rewriter, inputType, weightType, params,
                           group)))
    return failure();
  Location loc = binder.getLoc();
  SmallVector<int64_t> padding;
  Value zero = createConstantFloat(rewriter, loc, 0.0);
  x = applyAsymmetricPads(rewriter, loc, x, params, padding, zero);
  auto finish = [&](Value input, Value weight, ValueTensorType type,
                    ArrayRef<int64_t> stride, ArrayRef<int64_t> pad,
                    ArrayRef<int64_t> dilation) {
    return AtenConvolutionOp::create(
        rewriter, loc, type, input, weight,
        bias ? bias : createConstantNone(rewriter, loc),
        createIntList(rewriter, loc, stride), createIntList(rewriter, loc, pad),
        createIntList(rewriter, loc, dilation),
        createConstantBool(rewriter, loc, false),
        createIntList(rewriter, loc, SmallVector<int64_t>(stride.size(), 0)),
        createConstantInt(rewriter, loc, group));
  };
  if (rank == 4) {
    rewriter.replaceOp(binder.getOp(), finish(x, w, resultType, params.strides,
                                              padding, params.dilations)
                                           .getResult());
    return success();
  }
  // 1-D: [N, C, L] -> [N, C, 1, L].
  auto unsqueeze = [&](Value value) -> Value {
    SmallVector<int64_t> sizes(
        cast<ValueTensorType>(value.getType()).getSizes());
    sizes.insert(sizes.begin() + 2, 1);
    return AtenUnsqueezeOp::create(rewriter, loc, withSizes(value, sizes),
                                   value, createConstantInt(rewriter, loc, 2));
  };
  SmallVector<int64_t> resultSizes(resultType.getSizes());
  resultSizes.insert(resultSizes.begin() + 2, 1);
  Value conv2d =
      finish(unsqueeze(x), unsqueeze(w),
             withSizes(binder.getOp()->getResult(0), resultSizes),
             {1, params.strides[0]}, {0, padding[0]}, {1, params.dilations[0]});
  rewriter.replaceOpWithNewOp<AtenSqueezeDimOp>(
      binder.getOp(), resultType, conv2d, createConstantInt(rewriter, loc, 2));
  return success();
}

} // namespace

FailureOr<Value> mlir::torch2mlir::onnx_c::createIntegerConvolution(
    const OpBinder &binder, PatternRewriter &rewriter, Value x, Value xZero,
    Value w, Value wZero, ArrayRef<int64_t> resultSizes) {
  auto inputType = getKnownTensorType(x);
  auto weightType = getKnownTensorType(w);
  if (!inputType || !weightType || inputType.getSizes().size() != 4 ||
      weightType.getSizes().size() != 4)
    return binder.fail(rewriter, "unsupported: only 2-D integer convolution");
  SpatialParams params;
  int64_t group;
  if (failed(getConvParams(binder, rewriter, inputType, weightType, params,
                           group)))
    return failure();
  if (group != 1 || params.padBegin != params.padEnd)
    return binder.fail(rewriter, "unsupported: a grouped integer convolution "
                                 "or asymmetric padding");
  FailureOr<Value> product = createIntegerConv2d(
      rewriter, binder.getLoc(), x, xZero, w, wZero, resultSizes,
      params.strides, params.padBegin, params.dilations);
  if (failed(product))
    return binder.fail(rewriter,
                       "unsupported: needs (u)int8 operands of static sizes, "
                       "x_zero_point one value and w_zero_point one value or "
                       "one per output channel");
  return product;
}

namespace {

/// ConvTranspose as a convolution: the input with stride - 1 zeros between
/// its elements along each spatial dim, padded by (k - 1) * d - pad_begin
/// before and as much after as makes the result as long as the output
/// (output_padding and output_shape only add zeros there), convolved with
/// stride 1 by the weight with its spatial dims reversed and its channel
/// dims swapped per group.
LogicalResult lowerConvTranspose(const OpBinder &binder,
                                 PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), w = binder.getOperand(1);
  Value bias = binder.getOperand(2);
  auto inputType = getKnownTensorType(x);
  auto weightType = getKnownTensorType(w);
  auto resultType = binder.getResultType();
  if (!inputType || !weightType || !resultType ||
      !inputType.areAllSizesKnown() || !weightType.areAllSizesKnown() ||
      !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "needs static sizes and known dtypes");
  int64_t rank = inputType.getSizes().size();
  if (rank < 3 || rank > 5)
    return binder.fail(rewriter,
                       "unsupported: only 1-D, 2-D and 3-D ConvTranspose");
  if (!isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  int64_t numSpatial = rank - 2;
  ArrayRef<int64_t> in = inputType.getSizes(), ws = weightType.getSizes(),
                    out = resultType.getSizes();
  int64_t group;
  SmallVector<int64_t> kernel, strides, dilations, pads, outputPadding,
      outputShape;
  SmallVector<int64_t> ones(numSpatial, 1), zeros(numSpatial, 0);
  std::string autoPad;
  if (failed(binder.getInt("group", group, 1)) ||
      failed(binder.getInts("kernel_shape", kernel, ws.drop_front(2))) ||
      failed(binder.getInts("strides", strides, ones)) ||
      failed(binder.getInts("dilations", dilations, ones)) ||
      failed(binder.getInts("pads", pads)) ||
      failed(binder.getInts("output_padding", outputPadding, zeros)) ||
      failed(binder.getInts("output_shape", outputShape)) ||
      failed(binder.getString("auto_pad", autoPad, "NOTSET")))
    return binder.fail(rewriter, "malformed attributes");
  if (group < 1 || in[1] % group || ws[0] != in[1] || out[1] != ws[1] * group)
    return binder.fail(rewriter, "the channels of X, W and Y do not match "
                                 "group");
  if (ArrayRef<int64_t>(kernel) != ws.drop_front(2) ||
      static_cast<int64_t>(strides.size()) != numSpatial ||
      static_cast<int64_t>(dilations.size()) != numSpatial ||
      static_cast<int64_t>(outputPadding.size()) != numSpatial ||
      (!pads.empty() && static_cast<int64_t>(pads.size()) != 2 * numSpatial) ||
      (!outputShape.empty() &&
       static_cast<int64_t>(outputShape.size()) != numSpatial))
    return binder.fail(rewriter, "kernel_shape, strides, dilations, pads, "
                                 "output_padding and output_shape must have "
                                 "one value per spatial dim (pads: two)");
  // The pads before each spatial dim of the output.
  SmallVector<int64_t> padBegin;
  for (int64_t i = 0; i < numSpatial; ++i) {
    int64_t extent = (kernel[i] - 1) * dilations[i] + 1;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t target =
          outputShape.empty() ? in[2 + i] * strides[i] : outputShape[i];
      int64_t total =
          strides[i] * (in[2 + i] - 1) + outputPadding[i] + extent - target;
      padBegin.push_back(autoPad == "SAME_UPPER" ? total / 2
                                                 : total - total / 2);
    } else if (autoPad == "NOTSET" || autoPad == "VALID") {
      padBegin.push_back(pads.empty() || autoPad == "VALID" ? 0 : pads[i]);
    } else {
      return binder.fail(rewriter, "unsupported auto_pad '" + autoPad + "'");
    }
  }

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = inputType.getDtype();
  auto type = [&](ArrayRef<int64_t> sizes) {
    return getTensorType(context, sizes, dtype);
  };
  auto cst = [&](int64_t v) { return createConstantInt(rewriter, loc, v); };
  Value zero = createConstantFloat(rewriter, loc, 0.0);
  int64_t n = in[0], c = in[1];
  // Zeros between the elements: [N, C, D0, 1, D1, 1, ...] padded to
  // [N, C, D0, s0, D1, s1, ...], viewed as [N, C, D0*s0, D1*s1, ...].
  if (llvm::any_of(strides, [](int64_t s) { return s > 1; })) {
    SmallVector<int64_t> split{n, c}, spread{n, c}, grid{n, c}, padList;
    for (int64_t i = 0; i < numSpatial; ++i) {
      split.append({in[2 + i], 1});
      spread.append({in[2 + i], strides[i]});
      grid.push_back(in[2 + i] * strides[i]);
    }
    // constant_pad_nd lists the last dim first: (begin, end) per dim.
    for (int64_t i = numSpatial - 1; i >= 0; --i)
      padList.append({0, strides[i] - 1, 0, 0});
    Value view = createView(rewriter, loc, x, split, type(split));
    Value padded = AtenConstantPadNdOp::create(
        rewriter, loc, type(spread), view,
        createIntList(rewriter, loc, padList), zero);
    x = createView(rewriter, loc, padded, grid, type(grid));
  }
  // The input length each spatial dim needs, and the pads (negative:
  // crop) that give it from the grid, whose last s-1 zeros are beyond the
  // last element.
  SmallVector<int64_t> before, after;
  for (int64_t i = 0; i < numSpatial; ++i) {
    int64_t grid = in[2 + i] * strides[i];
    int64_t dilated = (in[2 + i] - 1) * strides[i] + 1;
    int64_t reach = (kernel[i] - 1) * dilations[i];
    int64_t begin = reach - padBegin[i];
    int64_t needed = out[2 + i] + reach;
    before.push_back(begin);
    after.push_back(needed - begin - dilated - (grid - dilated));
  }
  // Crop first (slices), then pad (constant_pad_nd), per spatial dim.
  for (int64_t i = 0; i < numSpatial; ++i) {
    int64_t dim = 2 + i;
    SmallVector<int64_t> current(cast<ValueTensorType>(x.getType()).getSizes());
    int64_t start = std::max<int64_t>(0, -before[i]);
    int64_t end = current[dim] + std::min<int64_t>(0, after[i]);
    if (start > 0 || end < current[dim]) {
      if (end <= start)
        return binder.fail(rewriter, "pads crop the whole output");
      current[dim] = end - start;
      x = AtenSliceTensorOp::create(rewriter, loc, type(current), x, cst(dim),
                                    cst(start), cst(end), cst(1));
    }
  }
  SmallVector<int64_t> padLow, padHigh;
  for (int64_t i = 0; i < numSpatial; ++i) {
    padLow.push_back(std::max<int64_t>(0, before[i]));
    padHigh.push_back(std::max<int64_t>(0, after[i]));
  }
  if (llvm::any_of(padLow, [](int64_t p) { return p > 0; }) ||
      llvm::any_of(padHigh, [](int64_t p) { return p > 0; }))
    x = createSpatialPad(rewriter, loc, x, padLow, padHigh, zero);
  // The weight: [Cin, Cout/g, k...] -> [Cout, Cin/g, k...], reversed.
  int64_t coutPerGroup = ws[1], cinPerGroup = c / group;
  SmallVector<int64_t> grouped{group, cinPerGroup, coutPerGroup};
  grouped.append(kernel);
  SmallVector<int64_t> perm{0, 2, 1};
  for (int64_t i = 0; i < numSpatial; ++i)
    perm.push_back(3 + i);
  SmallVector<int64_t> swapped{group * coutPerGroup, cinPerGroup};
  swapped.append(kernel);
  Value weight = createView(rewriter, loc, w, grouped, type(grouped));
  weight = createPermute(rewriter, loc, weight, perm);
  weight = createView(rewriter, loc, weight, swapped, type(swapped));
  for (int64_t i = 0; i < numSpatial; ++i) {
    int64_t size = kernel[i];
    if (size == 1)
      continue;
    SmallVector<int64_t> reversed;
    for (int64_t j = size - 1; j >= 0; --j)
      reversed.push_back(j);
    Value indices = ValueTensorLiteralOp::create(
        rewriter, loc, getTensorType(context, {size}, getSi64Type(context)),
        DenseElementsAttr::get(
            RankedTensorType::get({size}, rewriter.getI64Type()),
            ArrayRef<int64_t>(reversed)));
    weight = AtenIndexSelectOp::create(rewriter, loc, weight.getType(), weight,
                                       cst(2 + i), indices);
  }
  rewriter.replaceOpWithNewOp<AtenConvolutionOp>(
      binder.getOp(), resultType, x, weight,
      bias ? bias : createConstantNone(rewriter, loc),
      createIntList(rewriter, loc, ones), createIntList(rewriter, loc, zeros),
      createIntList(rewriter, loc, dilations),
      createConstantBool(rewriter, loc, false),
      createIntList(rewriter, loc, zeros), cst(group));
  return success();
}

/// Lifts a 1-D pooling node to 2-D over a unit height: [N, C, L] ->
/// [N, C, 1, L] with a unit kernel, and `resultType` likewise.
void liftPoolTo2d(PatternRewriter &rewriter, Location loc, Value &x,
                  ValueTensorType &resultType, SpatialParams &params) {
  params.kernel.insert(params.kernel.begin(), 1);
  params.strides.insert(params.strides.begin(), 1);
  params.dilations.insert(params.dilations.begin(), 1);
  params.padBegin.insert(params.padBegin.begin(), 0);
  params.padEnd.insert(params.padEnd.begin(), 0);
  ArrayRef<int64_t> sizes = cast<ValueTensorType>(x.getType()).getSizes();
  SmallVector<int64_t> unit{sizes[0], sizes[1], 1, sizes[2]};
  x = createView(rewriter, loc, x, unit, withSizes(x, unit));
  SmallVector<int64_t> outSizes(resultType.getSizes());
  outSizes.insert(outSizes.begin() + 2, 1);
  resultType =
      getTensorType(rewriter.getContext(), outSizes, resultType.getDtype());
}

/// The smallest value of `dtype` (-inf for floats): what max pooling pads
/// with.
Value createLowestScalar(PatternRewriter &rewriter, Location loc, Type dtype) {
  if (isa<mlir::FloatType>(dtype))
    return createConstantFloat(rewriter, loc,
                               -std::numeric_limits<double>::infinity());
  auto intType = cast<IntegerType>(dtype);
  if (intType.isUnsigned())
    return createConstantInt(rewriter, loc, 0);
  return createConstantInt(rewriter, loc, llvm::minIntN(intType.getWidth()));
}

/// A tensor of `sizes` and `dtype` filled with `value` (aten.full).
Value createFull(PatternRewriter &rewriter, Location loc,
                 ArrayRef<int64_t> sizes, Type dtype, double value) {
  Value none = createConstantNone(rewriter, loc);
  return AtenFullOp::create(
      rewriter, loc, getTensorType(rewriter.getContext(), sizes, dtype),
      createIntList(rewriter, loc, sizes),
      createConstantFloat(rewriter, loc, value),
      createConstantInt(rewriter, loc, *getScalarTypeCode(dtype)), none, none,
      none);
}

/// ONNX MaxPool Indices from ATen's. ATen numbers each argmax within its
/// (n, c) plane of the pooled tensor (`pooledSizes`: the spatial sizes of
/// the input after the explicit pads `padBegin` before and some after);
/// ONNX over the whole unpadded input [N, C, `inSizes`...], the spatial
/// dims row-major, or column-major with storage_order=1.
Value convertPoolIndices(PatternRewriter &rewriter, Location loc, Value indices,
                         ArrayRef<int64_t> pooledSizes,
                         ArrayRef<int64_t> padBegin, ArrayRef<int64_t> inSizes,
                         bool columnMajor) {
  MLIRContext *context = rewriter.getContext();
  auto type = cast<ValueTensorType>(indices.getType());
  Type si64 = getSi64Type(context);
  int64_t numSpatial = inSizes.size();
  int64_t planeSize = 1;
  for (int64_t size : inSizes)
    planeSize *= size;
  auto cst = [&](int64_t v) { return createConstantInt(rewriter, loc, v); };
  Value plane = indices;
  if (columnMajor || pooledSizes != inSizes) {
    // Each spatial coordinate in the pooled tensor, minus the pads before,
    // weighted by its stride in the unpadded input.
    Value flat;
    SmallVector<Value> coordinates =
        createUnravelIndex(rewriter, loc, indices, pooledSizes);
    for (int64_t d = 0; d < numSpatial; ++d) {
      Value coord = coordinates[d];
      if (padBegin[d])
        coord = AtenSubScalarOp::create(rewriter, loc, type, coord,
                                        cst(padBegin[d]), cst(1));
      int64_t weight = 1;
      for (int64_t j = 0; j < numSpatial; ++j)
        if (columnMajor ? j < d : j > d)
          weight *= inSizes[j];
      if (weight != 1)
        coord =
            AtenMulScalarOp::create(rewriter, loc, type, coord, cst(weight));
      flat = flat ? AtenAddTensorOp::create(rewriter, loc, type, flat, coord,
                                            cst(1))
                        .getResult()
                  : coord;
    }
    plane = flat;
  }
  // Plus the offset of the (n, c) plane.
  ArrayRef<int64_t> sizes = type.getSizes();
  int64_t planes = sizes[0] * sizes[1];
  SmallVector<int64_t> offsetSizes{sizes[0], sizes[1]};
  offsetSizes.append(numSpatial, 1);
  Value offsets = AtenMulScalarOp::create(
      rewriter, loc, getTensorType(context, {planes}, si64),
      createArange(rewriter, loc, planes), cst(planeSize));
  offsets = createView(rewriter, loc, offsets, offsetSizes,
                       getTensorType(context, offsetSizes, si64));
  return AtenAddTensorOp::create(rewriter, loc, type, plane, offsets, cst(1));
}

/// The known input and result types of a pool over 1 to 3 spatial dims
/// (an NCL, NCHW or NCDHW input), or a failure that says why.
static LogicalResult matchPoolTypes(const OpBinder &binder,
                                    PatternRewriter &rewriter,
                                    ValueTensorType &inputType,
                                    ValueTensorType &resultType) {
  inputType = getKnownTensorType(binder.getOperand(0));
  resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  int64_t rank = inputType.getSizes().size();
  if (rank < 3 || rank > 5)
    return binder.fail(rewriter, "unsupported: only 1-D, 2-D and 3-D pooling "
                                 "(NCL, NCHW or NCDHW input)");
  return success();
}

/// MaxPool over 1 to 3 spatial dims, as aten.max_poolNd_with_indices (1-D
/// over a unit height); asymmetric pads pad the input with the dtype's
/// lowest value first. The Indices output is ATen's, renumbered over the
/// whole tensor (see convertPoolIndices).
LogicalResult lowerMaxPool(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  ValueTensorType inputType, resultType;
  if (failed(matchPoolTypes(binder, rewriter, inputType, resultType)))
    return failure();
  int64_t rank = inputType.getSizes().size();
  Type dtype = inputType.getDtype();
  if (dtype.isInteger(1) || !getScalarTypeCode(dtype))
    return binder.fail(rewriter, "unsupported: MaxPool of this dtype");
  bool indicesUsed =
      binder.getNumResults() > 1 && !binder.getOp()->getResult(1).use_empty();
  if ((rank == 3 || indicesUsed) &&
      (!inputType.areAllSizesKnown() || !resultType.areAllSizesKnown()))
    return binder.fail(rewriter, "unsupported: 1-D pooling or the Indices "
                                 "output with dynamic sizes");
  SpatialParams params;
  if (failed(getSpatialParams(binder, rewriter, inputType, {}, params)))
    return failure();
  int64_t ceilMode, storageOrder;
  if (failed(binder.getInt("ceil_mode", ceilMode, 0)) ||
      failed(binder.getInt("storage_order", storageOrder, 0)))
    return binder.fail(rewriter, "ceil_mode and storage_order must be ints");
  if (storageOrder != 0 && storageOrder != 1)
    return binder.fail(rewriter, "storage_order must be 0 or 1");
  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  ValueTensorType finalType = resultType;
  if (rank == 3)
    liftPoolTo2d(rewriter, loc, x, resultType, params);
  SmallVector<int64_t> padding;
  x = applyAsymmetricPads(rewriter, loc, x, params, padding,
                          createLowestScalar(rewriter, loc, dtype));
  auto indicesType =
      getTensorType(context, resultType.getSizes(), getSi64Type(context));
  Value kernel = createIntList(rewriter, loc, params.kernel);
  Value strides = createIntList(rewriter, loc, params.strides);
  Value pads = createIntList(rewriter, loc, padding);
  Value dilations = createIntList(rewriter, loc, params.dilations);
  Value ceil = createConstantBool(rewriter, loc, ceilMode);
  Operation *pool;
  if (params.kernel.size() == 2)
    pool = AtenMaxPool2dWithIndicesOp::create(rewriter, loc, resultType,
                                              indicesType, x, kernel, strides,
                                              pads, dilations, ceil);
  else
    pool = AtenMaxPool3dWithIndicesOp::create(rewriter, loc, resultType,
                                              indicesType, x, kernel, strides,
                                              pads, dilations, ceil);
  Value values = pool->getResult(0);
  if (rank == 3)
    values = createView(rewriter, loc, values, finalType.getSizes(), finalType);
  SmallVector<Value> replacements{values};
  if (binder.getNumResults() > 1) {
    if (!indicesUsed) {
      replacements.push_back(values); // Unused.
    } else {
      ArrayRef<int64_t> pooled =
          cast<ValueTensorType>(x.getType()).getSizes().drop_front(2);
      SmallVector<int64_t> inSizes(inputType.getSizes().drop_front(2));
      if (rank == 3)
        inSizes.insert(inSizes.begin(), 1);
      Value indices =
          convertPoolIndices(rewriter, loc, pool->getResult(1), pooled,
                             params.padBegin, inSizes, storageOrder == 1);
      auto onnxIndicesType = binder.getResultType(1);
      if (!onnxIndicesType)
        return binder.fail(rewriter, "Indices needs known sizes and dtype");
      if (rank == 3)
        indices = createView(rewriter, loc, indices, onnxIndicesType.getSizes(),
                             onnxIndicesType);
      replacements.push_back(indices);
    }
  }
  rewriter.replaceOp(binder.getOp(), replacements);
  return success();
}

/// The pads after each spatial dim that the last window needs: the node's
/// end pads, or more with ceil_mode. `in` and `out` are the full NC...
/// sizes, spatial sizes known.
static SmallVector<int64_t> getWindowHighPads(const SpatialParams &params,
                                              ArrayRef<int64_t> in,
                                              ArrayRef<int64_t> out) {
  SmallVector<int64_t> padHigh;
  for (int64_t i = 0, e = in.size() - 2; i < e; ++i) {
    int64_t extent = (params.kernel[i] - 1) * params.dilations[i] + 1;
    int64_t needed = (out[2 + i] - 1) * params.strides[i] + extent;
    padHigh.push_back(
        std::max(params.padEnd[i], needed - in[2 + i] - params.padBegin[i]));
  }
  return padHigh;
}

/// The [1, 1, kernel...] kernel of ones of createWindowSum.
static Value createWindowKernel(PatternRewriter &rewriter, Location loc,
                                const SpatialParams &params, Type dtype) {
  SmallVector<int64_t> kernelSizes{1, 1};
  kernelSizes.append(params.kernel);
  return createFull(rewriter, loc, kernelSizes, dtype, 1.0);
}

/// The sum over each pooling window of `input`, an already padded
/// [B, 1, spatial...] tensor: a convolution with `ones` (createWindowKernel)
/// at the node's strides and dilations. `outSpatial` are the pooled sizes.
static Value createWindowSum(PatternRewriter &rewriter, Location loc,
                             Value input, Value ones,
                             const SpatialParams &params,
                             ArrayRef<int64_t> outSpatial) {
  MLIRContext *context = rewriter.getContext();
  auto type = cast<ValueTensorType>(input.getType());
  Type dtype = type.getDtype();
  SmallVector<int64_t> noPads(params.kernel.size(), 0);
  SmallVector<int64_t> sizes{type.getSizes()[0], 1};
  sizes.append(outSpatial.begin(), outSpatial.end());
  return AtenConvolutionOp::create(
      rewriter, loc, getTensorType(context, sizes, dtype), input, ones,
      createConstantNone(rewriter, loc),
      createIntList(rewriter, loc, params.strides),
      createIntList(rewriter, loc, noPads),
      createIntList(rewriter, loc, params.dilations),
      createConstantBool(rewriter, loc, false),
      createIntList(rewriter, loc, noPads),
      createConstantInt(rewriter, loc, 1));
}

/// AveragePool with dilations (ATen's avg_pool has none): the window sums
/// are a convolution of the zero-padded input, viewed as [N*C, 1, ...],
/// with a kernel of ones at the node's strides and dilations; the counts
/// the same convolution of a mask that is 1 where a tap counts (the input,
/// and the pads with count_include_pad) and 0 elsewhere (the other pads,
/// and what ceil_mode adds after the end pads, which never counts).
LogicalResult lowerDilatedAveragePool(const OpBinder &binder,
                                      PatternRewriter &rewriter, Value x,
                                      ValueTensorType resultType,
                                      const SpatialParams &params,
                                      bool countIncludePad) {
  auto inputType = cast<ValueTensorType>(x.getType());
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  int64_t numSpatial = in.size() - 2;
  for (int64_t i = 0; i < numSpatial; ++i)
    if (in[2 + i] == kUnknownSize || out[2 + i] == kUnknownSize)
      return binder.fail(rewriter, "unsupported: dilated AveragePool with "
                                   "dynamic spatial sizes");
  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = inputType.getDtype();
  // The pads after each dim that the last window needs (ceil_mode).
  SmallVector<int64_t> padHigh = getWindowHighPads(params, in, out);
  SmallVector<int64_t> noPads(numSpatial, 0), extra;
  for (int64_t i = 0; i < numSpatial; ++i)
    extra.push_back(padHigh[i] - params.padEnd[i]);
  Value zero = createConstantFloat(rewriter, loc, 0.0);
  SmallVector<int64_t> flatSizes{kUnknownSize, 1};
  SmallVector<int64_t> viewSizes{-1, 1};
  if (in[0] != kUnknownSize && in[1] != kUnknownSize)
    flatSizes[0] = in[0] * in[1];
  for (int64_t i = 0; i < numSpatial; ++i) {
    flatSizes.push_back(in[2 + i]);
    viewSizes.push_back(in[2 + i]);
  }
  Value flat = createView(rewriter, loc, x, viewSizes,
                          getTensorType(context, flatSizes, dtype));
  Value padded =
      createSpatialPad(rewriter, loc, flat, params.padBegin, padHigh, zero);
  SmallVector<int64_t> maskSizes{1, 1};
  maskSizes.append(in.begin() + 2, in.end());
  Value mask = createFull(rewriter, loc, maskSizes, dtype, 1.0);
  if (countIncludePad) {
    mask = createSpatialPad(rewriter, loc, mask, params.padBegin, params.padEnd,
                            createConstantFloat(rewriter, loc, 1.0));
    mask = createSpatialPad(rewriter, loc, mask, noPads, extra, zero);
  } else {
    mask =
        createSpatialPad(rewriter, loc, mask, params.padBegin, padHigh, zero);
  }
  ArrayRef<int64_t> outSpatial = out.drop_front(2);
  Value ones = createWindowKernel(rewriter, loc, params, dtype);
  Value sum = createWindowSum(rewriter, loc, padded, ones, params, outSpatial);
  Value count = createWindowSum(rewriter, loc, mask, ones, params, outSpatial);
  Value mean =
      AtenDivTensorOp::create(rewriter, loc, sum.getType(), sum, count);
  rewriter.replaceOp(
      binder.getOp(),
      createView(rewriter, loc, mean, resultType.getSizes(), resultType));
  return success();
}

/// AveragePool over 1 to 3 spatial dims: aten.avg_pool2d/3d (1-D over a
/// unit height), or a convolution with dilations (lowerDilatedAveragePool).
LogicalResult lowerAveragePool(const OpBinder &binder,
                               PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  ValueTensorType inputType, resultType;
  if (failed(matchPoolTypes(binder, rewriter, inputType, resultType)))
    return failure();
  int64_t rank = inputType.getSizes().size();
  if (!isa<mlir::FloatType>(inputType.getDtype()) ||
      !getScalarTypeCode(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: AveragePool of a non-float "
                                 "dtype");
  if (rank == 3 &&
      (!inputType.areAllSizesKnown() || !resultType.areAllSizesKnown()))
    return binder.fail(rewriter, "unsupported: 1-D pooling with dynamic sizes");
  SpatialParams params;
  if (failed(getSpatialParams(binder, rewriter, inputType, {}, params)))
    return failure();
  int64_t ceilMode, countIncludePad;
  if (failed(binder.getInt("ceil_mode", ceilMode, 0)) ||
      failed(binder.getInt("count_include_pad", countIncludePad, 0)))
    return binder.fail(rewriter, "ceil_mode and count_include_pad must be "
                                 "ints");
  if (llvm::any_of(params.dilations, [](int64_t d) { return d != 1; }))
    return lowerDilatedAveragePool(binder, rewriter, x, resultType, params,
                                   countIncludePad);
  Location loc = binder.getLoc();
  ValueTensorType finalType = resultType;
  if (rank == 3) {
    liftPoolTo2d(rewriter, loc, x, resultType, params);
    inputType = cast<ValueTensorType>(x.getType());
  }
  bool asymmetric = params.padBegin != params.padEnd;
  if (asymmetric && !countIncludePad && !inputType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: asymmetric pads with "
                                 "count_include_pad=0 and dynamic sizes");
  SmallVector<int64_t> padding;
  Value zero = createConstantFloat(rewriter, loc, 0.0);
  auto avgPool = [&](Value input, ValueTensorType type,
                     bool includePad) -> Value {
    Value kernel = createIntList(rewriter, loc, params.kernel);
    Value strides = createIntList(rewriter, loc, params.strides);
    Value pads = createIntList(rewriter, loc, padding);
    Value ceil = createConstantBool(rewriter, loc, ceilMode);
    Value include = createConstantBool(rewriter, loc, includePad);
    Value none = createConstantNone(rewriter, loc);
    if (params.kernel.size() == 2)
      return AtenAvgPool2dOp::create(rewriter, loc, type, input, kernel,
                                     strides, pads, ceil, include, none);
    return AtenAvgPool3dOp::create(rewriter, loc, type, input, kernel, strides,
                                   pads, ceil, include, none);
  };
  Value padded = applyAsymmetricPads(rewriter, loc, x, params, padding, zero);
  Value result;
  if (!asymmetric || countIncludePad) {
    result = avgPool(padded, resultType, countIncludePad);
  } else {
    // Explicit pads count as input for aten.avg_pool: divide the mean over
    // the padded input by the same mean of a mask (1 on the input, 0 on
    // the pads), which gives sum(input) / count(input) per window.
    SmallVector<int64_t> maskSizes{1, 1}, countSizes{1, 1};
    maskSizes.append(inputType.getSizes().begin() + 2,
                     inputType.getSizes().end());
    countSizes.append(resultType.getSizes().begin() + 2,
                      resultType.getSizes().end());
    Value ones =
        createFull(rewriter, loc, maskSizes, inputType.getDtype(), 1.0);
    Value mask =
        applyAsymmetricPads(rewriter, loc, ones, params, padding, zero);
    Value mean = avgPool(padded, resultType, true);
    Value count = avgPool(
        mask,
        getTensorType(rewriter.getContext(), countSizes, inputType.getDtype()),
        true);
    result = AtenDivTensorOp::create(rewriter, loc, resultType, mean, count);
  }
  if (rank == 3)
    result = createView(rewriter, loc, result, finalType.getSizes(), finalType);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// LpPool over any number of spatial dims, with dilations: |x|^p over the
/// input viewed as [N*C, 1, ...], zero-padded, summed over each window by
/// a convolution with a kernel of ones (createWindowSum), to the 1/p.
static LogicalResult lowerWindowLpPool(const OpBinder &binder,
                                       PatternRewriter &rewriter, Value x,
                                       ValueTensorType resultType,
                                       const SpatialParams &params, int64_t p) {
  auto inputType = cast<ValueTensorType>(x.getType());
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  for (int64_t i = 2, e = in.size(); i < e; ++i)
    if (in[i] == kUnknownSize || out[i] == kUnknownSize)
      return binder.fail(rewriter, "unsupported: 3-D or dilated LpPool with "
                                   "dynamic spatial sizes");
  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = inputType.getDtype();
  SmallVector<int64_t> flatSizes{kUnknownSize, 1}, viewSizes{-1, 1};
  if (in[0] != kUnknownSize && in[1] != kUnknownSize)
    flatSizes[0] = in[0] * in[1];
  flatSizes.append(in.begin() + 2, in.end());
  viewSizes.append(in.begin() + 2, in.end());
  auto flatType = getTensorType(context, flatSizes, dtype);
  Value flat = createView(rewriter, loc, x, viewSizes, flatType);
  Value magnitude = AtenAbsOp::create(rewriter, loc, flatType, flat);
  Value powered = AtenPowTensorScalarOp::create(
      rewriter, loc, flatType, magnitude,
      createConstantFloat(rewriter, loc, static_cast<double>(p)));
  powered = createSpatialPad(rewriter, loc, powered, params.padBegin,
                             getWindowHighPads(params, in, out),
                             createConstantFloat(rewriter, loc, 0.0));
  Value sum = createWindowSum(rewriter, loc, powered,
                              createWindowKernel(rewriter, loc, params, dtype),
                              params, out.drop_front(2));
  Value result = AtenPowTensorScalarOp::create(
      rewriter, loc, sum.getType(), sum,
      createConstantFloat(rewriter, loc, 1.0 / p));
  rewriter.replaceOp(binder.getOp(),
                     createView(rewriter, loc, result, out, resultType));
  return success();
}

/// LpPool: (sum over each window of |x|^p)^(1/p). 1-D (over a unit
/// height) and 2-D without dilations: the sum is the window average (pads
/// counted) times the window size; 3-D or dilated: lowerWindowLpPool.
LogicalResult lowerLpPool(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType || !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "needs known sizes and dtypes");
  int64_t rank = inputType.getSizes().size();
  if (rank < 3 || rank > 5)
    return binder.fail(rewriter, "unsupported: only 1-D, 2-D and 3-D LpPool "
                                 "(NCL, NCHW or NCDHW input)");
  if (!isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  SpatialParams params;
  if (failed(getSpatialParams(binder, rewriter, inputType, {}, params)))
    return failure();
  int64_t p, ceilMode;
  if (failed(binder.getInt("p", p, 2)) ||
      failed(binder.getInt("ceil_mode", ceilMode, 0)) || p < 1)
    return binder.fail(rewriter, "p must be a positive int, ceil_mode an int");
  if (rank == 5 ||
      llvm::any_of(params.dilations, [](int64_t d) { return d != 1; }))
    return lowerWindowLpPool(binder, rewriter, x, resultType, params, p);
  Location loc = binder.getLoc();
  if (rank == 3) {
    // [N, C, L] -> [N, C, 1, L].
    params.kernel.insert(params.kernel.begin(), 1);
    params.strides.insert(params.strides.begin(), 1);
    params.dilations.insert(params.dilations.begin(), 1);
    params.padBegin.insert(params.padBegin.begin(), 0);
    params.padEnd.insert(params.padEnd.begin(), 0);
    ArrayRef<int64_t> sizes = inputType.getSizes();
    SmallVector<int64_t> unit{sizes[0], sizes[1], 1, sizes[2]};
    x = createView(rewriter, loc, x, unit, withSizes(x, unit));
  }
  auto type = cast<ValueTensorType>(x.getType());
  Value magnitude = AtenAbsOp::create(rewriter, loc, type, x);
  Value powered = AtenPowTensorScalarOp::create(
      rewriter, loc, type, magnitude,
      createConstantFloat(rewriter, loc, static_cast<double>(p)));
  SmallVector<int64_t> padding;
  Value zero = createConstantFloat(rewriter, loc, 0.0);
  powered = applyAsymmetricPads(rewriter, loc, powered, params, padding, zero);
  SmallVector<int64_t> outSizes(resultType.getSizes());
  if (rank == 3)
    outSizes.insert(outSizes.begin() + 2, 1);
  auto outType = withSizes(x, outSizes);
  Value mean =
      AtenAvgPool2dOp::create(rewriter, loc, outType, powered,
                              createIntList(rewriter, loc, params.kernel),
                              createIntList(rewriter, loc, params.strides),
                              createIntList(rewriter, loc, padding),
                              createConstantBool(rewriter, loc, ceilMode),
                              createConstantBool(rewriter, loc, true),
                              createConstantNone(rewriter, loc));
  int64_t window = params.kernel[0] * params.kernel[1];
  Value sum = AtenMulScalarOp::create(rewriter, loc, outType, mean,
                                      createConstantInt(rewriter, loc, window));
  Value result = AtenPowTensorScalarOp::create(
      rewriter, loc, outType, sum, createConstantFloat(rewriter, loc, 1.0 / p));
  if (rank == 3)
    result =
        createView(rewriter, loc, result, resultType.getSizes(), resultType);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// GlobalAveragePool / GlobalMaxPool: a reduction over every spatial dim,
/// keeping them as size 1.
template <bool isMax>
LogicalResult lowerGlobalPool(const OpBinder &binder,
                              PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known ranks and dtypes");
  Location loc = binder.getLoc();
  SmallVector<int64_t> dims;
  for (int64_t d = 2, e = inputType.getSizes().size(); d < e; ++d)
    dims.push_back(d);
  Value dimList = createIntList(rewriter, loc, dims);
  Value keepdim = createConstantBool(rewriter, loc, true);
  if constexpr (isMax)
    rewriter.replaceOpWithNewOp<AtenAmaxOp>(binder.getOp(), resultType, x,
                                            dimList, keepdim);
  else
    rewriter.replaceOpWithNewOp<AtenMeanDimOp>(
        binder.getOp(), resultType, x, dimList, keepdim,
        createConstantNone(rewriter, loc));
  return success();
}

/// BatchNormalization with training_mode=1 (opset 14+): Y is normalized
/// with the batch's mean and biased variance over every dim but the
/// channels (dim 1), and the running statistics outputs are
///   input_mean * momentum + batch_mean * (1 - momentum)
/// and likewise for the variance (biased, as the ONNX reference computes
/// it; PyTorch's training batch norm would update with the unbiased one).
LogicalResult lowerTrainingBatchNorm(const OpBinder &binder,
                                     PatternRewriter &rewriter,
                                     ArrayRef<Value> operands,
                                     ValueTensorType resultType,
                                     double momentum, double epsilon) {
  Value x = operands[0];
  auto inputType = getKnownTensorType(x);
  if (!inputType || inputType.getSizes().size() < 2 ||
      !isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "training_mode=1 needs a float input of "
                                 "known rank (>= 2)");
  for (Value stat : operands.drop_front(3)) {
    auto statType = getKnownTensorType(stat);
    if (!statType || statType.getSizes().size() != 1 ||
        !isa<mlir::FloatType>(statType.getDtype()))
      return binder.fail(rewriter, "training_mode=1 needs float input_mean "
                                   "and input_var of known sizes");
  }
  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = inputType.getDtype();
  int64_t rank = inputType.getSizes().size();
  SmallVector<int64_t> dims{0};
  for (int64_t d = 2; d < rank; ++d)
    dims.push_back(d);
  auto statType = getTensorType(context, {inputType.getSizes()[1]}, dtype);
  Value dimList = createIntList(rewriter, loc, dims);
  Value f = createConstantBool(rewriter, loc, false);
  Value mean = AtenMeanDimOp::create(rewriter, loc, statType, x, dimList, f,
                                     createConstantNone(rewriter, loc));
  Value variance =
      AtenVarCorrectionOp::create(rewriter, loc, statType, x, dimList,
                                  createConstantInt(rewriter, loc, 0), f);
  Value y = AtenBatchNormOp::create(
      rewriter, loc, resultType, x, operands[1], operands[2], mean, variance, f,
      createConstantFloat(rewriter, loc, momentum),
      createConstantFloat(rewriter, loc, epsilon), f);
  auto update = [&](Value running, Value batch) -> Value {
    auto type = cast<ValueTensorType>(running.getType());
    Value kept =
        AtenMulScalarOp::create(rewriter, loc, type, running,
                                createConstantFloat(rewriter, loc, momentum));
    return AtenAddTensorOp::create(
        rewriter, loc, type, kept,
        createToDtype(rewriter, loc, batch, type.getDtype()),
        createConstantFloat(rewriter, loc, 1.0 - momentum));
  };
  SmallVector<Value> results{y};
  if (binder.getNumResults() > 1)
    results.push_back(update(operands[3], mean));
  if (binder.getNumResults() > 2)
    results.push_back(update(operands[4], variance));
  replaceOpWithCastResults(rewriter, binder.getOp(), results);
  return success();
}

/// BatchNormalization: inference mode (the running statistics), or
/// training_mode=1 (lowerTrainingBatchNorm).
LogicalResult lowerBatchNorm(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  SmallVector<Value> operands;
  auto resultType = binder.getAnyResultType();
  if (failed(binder.getTensorOperands(operands)) || operands.size() != 5 ||
      !resultType)
    return binder.fail(rewriter, "expects X, scale, B, mean and var");
  double epsilon, momentum;
  int64_t training, spatial;
  if (failed(binder.getFloat("epsilon", epsilon, 1e-5)) ||
      failed(binder.getFloat("momentum", momentum, 0.9)) ||
      failed(binder.getInt("training_mode", training, 0)) ||
      failed(binder.getInt("spatial", spatial, 1)))
    return binder.fail(rewriter, "malformed attributes");
  if (!spatial)
    return binder.fail(rewriter, "unsupported: spatial=0");
  if (training)
    return lowerTrainingBatchNorm(binder, rewriter, operands, resultType,
                                  momentum, epsilon);
  for (OpResult result : binder.getOp()->getResults().drop_front())
    if (!result.use_empty())
      return binder.fail(rewriter,
                         "unsupported: the running statistics outputs");
  Location loc = binder.getLoc();
  Value f = createConstantBool(rewriter, loc, false);
  Value result = AtenBatchNormOp::create(
      rewriter, loc, resultType, operands[0], operands[1], operands[2],
      operands[3], operands[4], f, createConstantFloat(rewriter, loc, momentum),
      createConstantFloat(rewriter, loc, epsilon), f);
  SmallVector<Value> replacements(binder.getNumResults(), result);
  rewriter.replaceOp(binder.getOp(), replacements);
  return success();
}

/// Gemm: Y = alpha * A' * B' + beta * C with A' = transA ? A^T : A.
LogicalResult lowerGemm(const OpBinder &binder, PatternRewriter &rewriter) {
  Value a = binder.getOperand(0), b = binder.getOperand(1);
  Value c = binder.getOperand(2);
  auto resultType = binder.getResultType();
  if (!getKnownTensorType(a) || !getKnownTensorType(b) || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  int64_t transA, transB;
  double alpha, beta;
  if (failed(binder.getInt("transA", transA, 0)) ||
      failed(binder.getInt("transB", transB, 0)) ||
      failed(binder.getFloat("alpha", alpha, 1.0)) ||
      failed(binder.getFloat("beta", beta, 1.0)))
    return binder.fail(rewriter, "malformed attributes");
  Location loc = binder.getLoc();
  if (transA)
    a = createPermute(rewriter, loc, a, {1, 0});
  if (transB)
    b = createPermute(rewriter, loc, b, {1, 0});
  Value result = AtenMmOp::create(rewriter, loc, resultType, a, b);
  if (alpha != 1.0)
    result = AtenMulScalarOp::create(rewriter, loc, resultType, result,
                                     createConstantFloat(rewriter, loc, alpha));
  if (c && beta != 0.0) {
    if (beta != 1.0)
      c = AtenMulScalarOp::create(rewriter, loc, c.getType(), c,
                                  createConstantFloat(rewriter, loc, beta));
    result = AtenAddTensorOp::create(rewriter, loc, resultType, result, c,
                                     createConstantInt(rewriter, loc, 1));
  }
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// Softmax / LogSoftmax. Before opset 13 the input is coerced to 2-D at
/// `axis` (default 1) and normalized over the whole second dim; from 13 on
/// it is normalized along `axis` (default -1), as ATen does.
template <typename AtenOp>
LogicalResult lowerSoftmax(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  bool coerce2d = binder.getOpsetVersion() < 13;
  int64_t rank = inputType.getSizes().size();
  int64_t axis;
  if (failed(binder.getInt("axis", axis, coerce2d ? 1 : -1)) ||
      failed(normalizeAxis(axis, rank)))
    return binder.fail(rewriter, "axis out of range");
  Location loc = binder.getLoc();
  Value none = createConstantNone(rewriter, loc);
  if (!coerce2d || axis == rank - 1) {
    rewriter.replaceOpWithNewOp<AtenOp>(binder.getOp(), resultType, x,
                                        createConstantInt(rewriter, loc, axis),
                                        none);
    return success();
  }
  if (!inputType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: 2-D coercion of dynamic sizes");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? outer : inner) *= sizes[d];
  auto flatType = withSizes(x, {outer, inner});
  Value flat = createView(rewriter, loc, x, {outer, inner}, flatType);
  Value normalized = AtenOp::create(rewriter, loc, flatType, flat,
                                    createConstantInt(rewriter, loc, 1), none);
  rewriter.replaceOp(binder.getOp(),
                     createView(rewriter, loc, normalized, sizes, resultType));
  return success();
}

/// LRN: y = x / (bias + alpha / size * square_sum) ^ beta, where square_sum
/// sums x^2 over the `size` channels around each channel (ONNX LRN-1/13).
/// The window sum is `size` shifted slices of the channel-padded squares.
LogicalResult lowerLrn(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType || inputType.getSizes().size() < 3)
    return binder.fail(rewriter, "needs known sizes, dtype and rank >= 3");
  int64_t size;
  double alpha, beta, bias;
  if (failed(binder.getInt("size", size)) ||
      failed(binder.getFloat("alpha", alpha, 1e-4)) ||
      failed(binder.getFloat("beta", beta, 0.75)) ||
      failed(binder.getFloat("bias", bias, 1.0)) || size < 1)
    return binder.fail(rewriter, "needs a positive int size");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t channels = sizes[1];
  if (channels == kUnknownSize)
    return binder.fail(rewriter, "unsupported: a dynamic channel count");
  Location loc = binder.getLoc();
  Value one = createConstantInt(rewriter, loc, 1);
  Value squares = AtenMulTensorOp::create(rewriter, loc, inputType, x, x);
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  SmallVector<int64_t> padList(2 * (sizes.size() - 2), 0);
  padList.push_back(before);
  padList.push_back(after);
  SmallVector<int64_t> paddedSizes(sizes);
  paddedSizes[1] += size - 1;
  Value padded = AtenConstantPadNdOp::create(
      rewriter, loc, withSizes(x, paddedSizes), squares,
      createIntList(rewriter, loc, padList),
      createConstantFloat(rewriter, loc, 0.0));
  Value sum;
  for (int64_t i = 0; i < size; ++i) {
    Value window = AtenSliceTensorOp::create(
        rewriter, loc, inputType, padded, one,
        createConstantInt(rewriter, loc, i),
        createConstantInt(rewriter, loc, i + channels), one);
    sum = sum ? AtenAddTensorOp::create(rewriter, loc, inputType, sum, window,
                                        one)
                    .getResult()
              : window;
  }
  Value scaled =
      AtenMulScalarOp::create(rewriter, loc, inputType, sum,
                              createConstantFloat(rewriter, loc, alpha / size));
  Value shifted =
      AtenAddScalarOp::create(rewriter, loc, inputType, scaled,
                              createConstantFloat(rewriter, loc, bias), one);
  Value denominator =
      AtenPowTensorScalarOp::create(rewriter, loc, inputType, shifted,
                                    createConstantFloat(rewriter, loc, beta));
  rewriter.replaceOpWithNewOp<AtenDivTensorOp>(binder.getOp(), resultType, x,
                                               denominator);
  return success();
}

/// MatMul. Float16 and bfloat16 products are accumulated in float32 and
/// rounded once, as the reference (numpy) does.
LogicalResult lowerMatMul(const OpBinder &binder, PatternRewriter &rewriter) {
  Value a = binder.getOperand(0), b = binder.getOperand(1);
  auto resultType = binder.getAnyResultType();
  if (!a || !b || !resultType)
    return binder.fail(rewriter, "expects two tensor operands and a result");
  auto aType = getKnownTensorType(a), bType = getKnownTensorType(b);
  if (!aType || !bType || !resultType.hasDtype() ||
      !isa<mlir::FloatType>(resultType.getDtype()) ||
      resultType.getDtype().getIntOrFloatBitWidth() >= 32) {
    rewriter.replaceOpWithNewOp<AtenMatmulOp>(binder.getOp(), resultType, a, b);
    return success();
  }
  Location loc = binder.getLoc();
  Type f32 = Float32Type::get(rewriter.getContext());
  Value product = AtenMatmulOp::create(
      rewriter, loc,
      ValueTensorType::get(rewriter.getContext(), resultType.getOptionalSizes(),
                           f32),
      createToDtype(rewriter, loc, a, f32),
      createToDtype(rewriter, loc, b, f32));
  rewriter.replaceOp(binder.getOp(), createToDtype(rewriter, loc, product,
                                                   resultType.getDtype()));
  return success();
}

/// CausalConvWithState-27(input [B, C, L], weight [C, 1, k], bias?,
/// past_state? [B, C, k - 1]; activation): a depthwise causal conv over the
/// input with the past state (zeros without one) prepended:
///   output[:, c, t] = sum_j padded[:, c, t + j] * weight[c, 0, j] + bias[c]
/// as k shifted slices times per-channel weights (in float32 at least),
/// then SiLU for activation "silu"/"swish"; present_state is the last
/// k - 1 positions of padded.
LogicalResult lowerCausalConvWithState(const OpBinder &binder,
                                       PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), weight = binder.getOperand(1),
        bias = binder.getOperand(2), past = binder.getOperand(3);
  auto inputType = getKnownTensorType(x);
  auto weightType = weight ? getKnownTensorType(weight) : nullptr;
  auto resultType = binder.getResultType();
  std::string activation;
  if (failed(binder.getString("activation", activation, "none")))
    return binder.fail(rewriter, "attribute 'activation' must be a string");
  if (activation != "none" && activation != "silu" && activation != "swish")
    return binder.fail(rewriter, "unsupported activation '" + activation + "'");
  if (!inputType || !weightType || !resultType ||
      !inputType.areAllSizesKnown() || !weightType.areAllSizesKnown() ||
      inputType.getSizes().size() != 3 || weightType.getSizes().size() != 3)
    return binder.fail(rewriter, "needs static sizes, a [B, C, L] input and a "
                                 "[C, 1, k] weight");
  ArrayRef<int64_t> in = inputType.getSizes();
  int64_t batch = in[0], channels = in[1], length = in[2];
  int64_t k = weightType.getSizes()[2];
  if (weightType.getSizes()[0] != channels || weightType.getSizes()[1] != 1 ||
      k < 1)
    return binder.fail(rewriter, "the weight must be [C, 1, k], k >= 1");
  Type dtype = inputType.getDtype();
  if (!isa<mlir::FloatType>(dtype) || weightType.getDtype() != dtype)
    return binder.fail(rewriter, "input and weight must be of one float dtype");
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  // Products and sums in float32 at least (as the spec's reference).
  Type computeType = dtype.isF64() ? dtype : Float32Type::get(context);
  auto type = [&](ArrayRef<int64_t> sizes) {
    return getTensorType(context, sizes, computeType);
  };
  auto cst = [&](int64_t v) { return createConstantInt(rewriter, loc, v); };
  auto wide = [&](Value v) {
    return createToDtype(rewriter, loc, v, computeType);
  };
  SmallVector<int64_t> padSizes{batch, channels, length + k - 1};
  Value padded;
  if (past) {
    auto pastType = getKnownTensorType(past);
    if (!pastType ||
        pastType != getTensorType(context, {batch, channels, k - 1}, dtype))
      return binder.fail(rewriter, "past_state must be [B, C, k - 1] of the "
                                   "input's dtype");
    padded = AtenCatOp::create(
        rewriter, loc, getTensorType(context, padSizes, dtype),
        createTensorList(rewriter, loc, {past, x}), cst(2));
  } else {
    padded = AtenConstantPadNdOp::create(
        rewriter, loc, getTensorType(context, padSizes, dtype), x,
        createIntList(rewriter, loc, {k - 1, 0}),
        createConstantFloat(rewriter, loc, 0.0));
  }
  Value paddedWide = wide(padded);
  // weight[:, 0, j] as [1, C, 1] per tap.
  Value taps = createView(rewriter, loc, wide(weight), {1, channels, k},
                          type({1, channels, k}));
  SmallVector<int64_t> outSizes{batch, channels, length};
  Value sum;
  for (int64_t j = 0; j < k; ++j) {
    Value window =
        AtenSliceTensorOp::create(rewriter, loc, type(outSizes), paddedWide,
                                  cst(2), cst(j), cst(j + length), cst(1));
    Value tap =
        AtenSliceTensorOp::create(rewriter, loc, type({1, channels, 1}), taps,
                                  cst(2), cst(j), cst(j + 1), cst(1));
    Value product =
        AtenMulTensorOp::create(rewriter, loc, type(outSizes), window, tap);
    sum = sum ? AtenAddTensorOp::create(rewriter, loc, type(outSizes), sum,
                                        product, cst(1))
                    .getResult()
              : product;
  }
  if (bias) {
    auto biasType = getKnownTensorType(bias);
    if (!biasType || biasType != getTensorType(context, {channels}, dtype))
      return binder.fail(rewriter, "bias must be [C] of the input's dtype");
    sum = AtenAddTensorOp::create(rewriter, loc, type(outSizes), sum,
                                  createView(rewriter, loc, wide(bias),
                                             {1, channels, 1},
                                             type({1, channels, 1})),
                                  cst(1));
  }
  // The conv result is rounded to the input dtype, the SiLU of that
  // computed wide again.
  sum = createToDtype(rewriter, loc, sum, dtype);
  if (activation != "none") {
    Value silu = AtenSiluOp::create(rewriter, loc, type(outSizes), wide(sum));
    sum = createToDtype(rewriter, loc, silu, dtype);
  }
  Operation *op = binder.getOp();
  SmallVector<Value> results{sum};
  if (op->getNumResults() > 1)
    results.push_back(AtenSliceTensorOp::create(
        rewriter, loc, getTensorType(context, {batch, channels, k - 1}, dtype),
        padded, cst(2), cst(length), cst(length + k - 1), cst(1)));
  replaceOpWithCastResults(rewriter, op, results);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxNeuralNetLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("Conv", 1, lowerConv);
  lowerings.on("ConvTranspose", 1, lowerConvTranspose);
  lowerings.on("CausalConvWithState", 27, lowerCausalConvWithState);
  lowerings.on("MaxPool", 1, lowerMaxPool);
  lowerings.on("AveragePool", 1, lowerAveragePool);
  lowerings.on("GlobalAveragePool", 1, lowerGlobalPool</*isMax=*/false>);
  lowerings.on("GlobalMaxPool", 1, lowerGlobalPool</*isMax=*/true>);
  lowerings.on("LpPool", 11, lowerLpPool);
  lowerings.on("BatchNormalization", 7, lowerBatchNorm);
  lowerings.on("Gemm", 7, lowerGemm);
  lowerings.on("MatMul", 1, lowerMatMul);
  lowerings.on("Softmax", 1, lowerSoftmax<AtenSoftmaxIntOp>);
  lowerings.on("LogSoftmax", 1, lowerSoftmax<AtenLogSoftmaxIntOp>);
  lowerings.on("LRN", 1, lowerLrn);
}
