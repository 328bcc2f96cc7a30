//===- Shape.cpp - ONNX shape and data-movement ops to ATen ---------------===//
//
// Part of the torch2mlir project.
//
// Shape operands (Reshape's `shape`, Unsqueeze's `axes`, Slice's bounds...)
// must be constants: either literals in the model or, when ONNX shape
// inference gave the result a static type, the result's sizes stand in.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

/// A `vtensor.literal` of `type` holding `values` (int64 or float32).
Value createLiteral(PatternRewriter &rewriter, Location loc,
                    ValueTensorType type, ElementsAttr values) {
  return ValueTensorLiteralOp::create(rewriter, loc, type, values);
}

/// Constant: the `value` tensor or one of the value_* forms (opset 12+).
LogicalResult lowerConstant(const OpBinder &binder, PatternRewriter &rewriter) {
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  auto si64 = IntegerType::get(context, 64, IntegerType::Signed);
  Type i64 = rewriter.getI64Type(), f32 = rewriter.getF32Type();
  if (auto value =
          dyn_cast_or_null<DenseElementsAttr>(binder.getAttr("value"))) {
    auto resultType = binder.getResultType();
    if (!resultType)
      return binder.fail(rewriter, "needs a result with known sizes and dtype");
    rewriter.replaceOp(binder.getOp(),
                       createLiteral(rewriter, loc, resultType, value));
    return success();
  }
  int64_t intValue;
  double floatValue;
  SmallVector<int64_t> ints;
  SmallVector<double> floats;
  Value result;
  if (succeeded(binder.getInt("value_int", intValue))) {
    result = createLiteral(
        rewriter, loc, ValueTensorType::get(context, ArrayRef<int64_t>{}, si64),
        DenseElementsAttr::get(RankedTensorType::get({}, i64),
                               rewriter.getI64IntegerAttr(intValue)));
  } else if (succeeded(binder.getFloat("value_float", floatValue))) {
    result = createLiteral(
        rewriter, loc, ValueTensorType::get(context, ArrayRef<int64_t>{}, f32),
        DenseElementsAttr::get(RankedTensorType::get({}, f32),
                               rewriter.getF32FloatAttr(floatValue)));
  } else if (binder.hasAttr("value_ints") &&
             succeeded(binder.getInts("value_ints", ints))) {
    int64_t n = ints.size();
    result =
        createLiteral(rewriter, loc,
                      ValueTensorType::get(context, ArrayRef<int64_t>{n}, si64),
                      DenseElementsAttr::get(RankedTensorType::get({n}, i64),
                                             ArrayRef<int64_t>(ints)));
  } else if (succeeded(binder.getFloats("value_floats", floats))) {
    SmallVector<float> narrowed(floats.begin(), floats.end());
    int64_t n = narrowed.size();
    result = createLiteral(
        rewriter, loc, ValueTensorType::get(context, ArrayRef<int64_t>{n}, f32),
        DenseElementsAttr::get(RankedTensorType::get({n}, f32),
                               ArrayRef<float>(narrowed)));
  } else {
    return binder.fail(rewriter, "unsupported: no value attribute of a "
                                 "supported kind (sparse and string values "
                                 "are not supported)");
  }
  if (result.getType() != binder.getOp()->getResult(0).getType())
    result = TensorStaticInfoCastOp::create(
        rewriter, loc, binder.getOp()->getResult(0).getType(), result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// ConstantOfShape(shape) with `value` (a one-element tensor, default
/// float32 zero): aten.full, filled at run time. The sizes are the static
/// result sizes or the values of a constant `shape`.
LogicalResult lowerConstantOfShape(const OpBinder &binder,
                                   PatternRewriter &rewriter) {
  auto anyResultType = binder.getAnyResultType();
  SmallVector<int64_t> sizes;
  if (!anyResultType || !anyResultType.hasDtype())
    return binder.fail(rewriter, "needs a result with a known dtype");
  SmallVector<int64_t> shape;
  if (succeeded(binder.getConstantInts(0, shape))) {
    sizes = shape;
  } else if (anyResultType.hasSizes() && anyResultType.areAllSizesKnown()) {
    sizes.assign(anyResultType.getSizes().begin(),
                 anyResultType.getSizes().end());
    // The run-time shape must be the declared one.
    if (failed(assertValuesEqual(rewriter, binder.getLoc(),
                                 binder.getOperand(0), sizes,
                                 "ConstantOfShape node's shape values")))
      return binder.fail(rewriter, "shape must be a 1-D integer tensor");
  } else {
    return binder.fail(rewriter, "needs a result with static sizes or a "
                                 "constant shape");
  }
  auto resultType = ValueTensorType::get(rewriter.getContext(), sizes,
                                         anyResultType.getDtype());
  Location loc = binder.getLoc();
  Value fill;
  auto value = dyn_cast_or_null<DenseElementsAttr>(binder.getAttr("value"));
  if (value && value.getNumElements() != 1)
    return binder.fail(rewriter, "value must have one element");
  Type dtype = resultType.getDtype();
  std::optional<int64_t> code = getScalarTypeCode(dtype);
  if (!code)
    return binder.fail(rewriter, "unsupported dtype");
  if (!value) {
    fill = createConstantFloat(rewriter, loc, 0.0);
  } else if (isa<mlir::FloatType>(value.getElementType())) {
    fill = createConstantFloat(
        rewriter, loc, (*value.getValues<APFloat>().begin()).convertToDouble());
  } else {
    APInt v = *value.getValues<APInt>().begin();
    fill = createConstantInt(rewriter, loc,
                             dtype.isUnsignedInteger() || v.getBitWidth() == 1
                                 ? static_cast<int64_t>(v.getZExtValue())
                                 : v.getSExtValue());
  }
  Value none = createConstantNone(rewriter, loc);
  Value result = AtenFullOp::create(
      rewriter, loc, resultType,
      createIntList(rewriter, loc, resultType.getSizes()), fill,
      createConstantInt(rewriter, loc, *code), none, none, none);
  if (result.getType() != anyResultType)
    result =
        TensorStaticInfoCastOp::create(rewriter, loc, anyResultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// Shape (opset 1, 15 with start/end) of a tensor with static sizes: an
/// int64 literal.
LogicalResult lowerShape(const OpBinder &binder, PatternRewriter &rewriter) {
  auto inputType = getKnownTensorType(binder.getOperand(0));
  auto resultType = binder.getResultType();
  if (!inputType || !inputType.areAllSizesKnown() || !resultType)
    return binder.fail(rewriter, "unsupported: Shape of a tensor with dynamic "
                                 "sizes");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t rank = sizes.size(), start, end;
  if (failed(binder.getInt("start", start, 0)) ||
      failed(binder.getInt("end", end, rank)))
    return binder.fail(rewriter, "start and end must be ints");
  // Clamped to [0, rank] after adding rank to negative values (Shape-15).
  auto clamp = [&](int64_t v) {
    return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank);
  };
  start = clamp(start);
  end = std::max(clamp(end), start);
  SmallVector<int64_t> values(sizes.begin() + start, sizes.begin() + end);
  int64_t n = values.size();
  rewriter.replaceOp(
      binder.getOp(),
      createLiteral(rewriter, binder.getLoc(), resultType,
                    DenseElementsAttr::get(
                        RankedTensorType::get({n}, rewriter.getI64Type()),
                        ArrayRef<int64_t>(values))));
  return success();
}

/// The result sizes for a Reshape: ONNX's 0 copies the input size (unless
/// allowzero), -1 is inferred; else the static result type.
LogicalResult getReshapeSizes(const OpBinder &binder, ValueTensorType inputType,
                              SmallVectorImpl<int64_t> &sizes) {
  SmallVector<int64_t> shape;
  int64_t allowZero;
  if (failed(binder.getInt("allowzero", allowZero, 0)))
    return failure();
  if (succeeded(binder.getConstantInts(1, shape))) {
    for (auto [i, size] : llvm::enumerate(shape)) {
      if (size == 0 && !allowZero) {
        if (!inputType || i >= inputType.getSizes().size())
          return failure();
        size = inputType.getSizes()[i];
      }
      sizes.push_back(size);
    }
    return success(llvm::count(sizes, -1) <= 1);
  }
  auto resultType = binder.getResultType();
  if (!resultType || !resultType.areAllSizesKnown())
    return failure();
  sizes.assign(resultType.getSizes().begin(), resultType.getSizes().end());
  return success();
}

LogicalResult lowerReshape(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto resultType = binder.getAnyResultType();
  SmallVector<int64_t> sizes;
  auto inputType = getKnownTensorType(x);
  if (!x || !resultType || failed(getReshapeSizes(binder, inputType, sizes)))
    return binder.fail(rewriter, "unsupported: the shape must be a constant "
                                 "(or the result sizes static)");
  SmallVector<int64_t> constantShape;
  if (failed(binder.getConstantInts(1, constantShape))) {
    // The sizes are the declared ones: a run-time shape must give them.
    // Each entry is the size, -1 (inferred: the view checks the element
    // count) or, without allowzero, 0 where the input has that size.
    int64_t allowZero;
    if (failed(binder.getInt("allowzero", allowZero, 0)))
      return binder.fail(rewriter, "allowzero must be an int");
    SmallVector<SmallVector<int64_t, 2>> accepted;
    for (auto [i, size] : llvm::enumerate(sizes)) {
      accepted.push_back({size, -1});
      if (!allowZero && inputType && i < inputType.getSizes().size() &&
          inputType.getSizes()[i] == size)
        accepted.back().push_back(0);
    }
    if (failed(assertValuesIn(rewriter, binder.getLoc(), binder.getOperand(1),
                              accepted, "Reshape node's shape values")))
      return binder.fail(rewriter, "shape must be a 1-D integer tensor");
  }
  rewriter.replaceOp(binder.getOp(), createView(rewriter, binder.getLoc(), x,
                                                sizes, resultType));
  return success();
}

/// An op whose result is its input with other static sizes (Flatten,
/// Squeeze, Unsqueeze with a static result): one aten.view.
LogicalResult lowerToStaticView(const OpBinder &binder,
                                PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto resultType = binder.getResultType();
  if (!x || !resultType || !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: a result without static sizes");
  rewriter.replaceOp(binder.getOp(),
                     createView(rewriter, binder.getLoc(), x,
                                resultType.getSizes(), resultType));
  return success();
}

/// Emits a run-time check that the run-time `axes` of an Unsqueeze (or
/// Squeeze) name dims that turn its static input sizes into its static
/// result sizes: one of the sets of inserted (removed) size-1 dims that do.
template <bool isUnsqueeze>
LogicalResult assertSqueezeAxes(PatternRewriter &rewriter, Location loc,
                                Value axes, ArrayRef<int64_t> in,
                                ArrayRef<int64_t> out) {
  // Unsqueeze inserts into `longer` to give `shorter`'s sizes back when
  // removed; Squeeze removes from `longer`.
  ArrayRef<int64_t> longer = isUnsqueeze ? out : in;
  ArrayRef<int64_t> shorter = isUnsqueeze ? in : out;
  int64_t rank = longer.size();
  int64_t count = rank - static_cast<int64_t>(shorter.size());
  auto axesType = getKnownTensorType(axes);
  if (!axesType || axesType.getSizes().size() != 1 || count < 0 || rank > 16)
    return failure();
  SmallVector<SmallVector<int64_t>> candidates;
  for (uint32_t mask = 0; mask < (1u << rank); ++mask) {
    if (llvm::popcount(mask) != count)
      continue;
    SmallVector<int64_t> dims, kept;
    bool unitDims = true;
    for (int64_t d = 0; d < rank; ++d) {
      if (mask & (1u << d)) {
        dims.push_back(d);
        unitDims &= longer[d] == 1;
      } else {
        kept.push_back(longer[d]);
      }
    }
    if (unitDims && ArrayRef<int64_t>(kept) == shorter)
      candidates.push_back(dims);
  }
  if (candidates.empty())
    return failure();
  MLIRContext *context = rewriter.getContext();
  if (axesType.getSizes()[0] == kUnknownSize) {
    axes = assertStaticLength(rewriter, loc, axes, count,
                              "this node's axes at run time are not " +
                                  Twine(count) +
                                  " values, as its declared sizes need");
  } else if (axesType.getSizes()[0] != count) {
    return failure();
  }
  Value wrapped = wrapNegativeIndices(
      rewriter, loc, createToDtype(rewriter, loc, axes, getSi64Type(context)),
      rank);
  Value matchesAny;
  for (ArrayRef<int64_t> candidate : candidates) {
    Value matches = matchesAxes(rewriter, loc, wrapped, candidate);
    matchesAny = matchesAny
                     ? AtenLogicalOrOp::create(rewriter, loc, matches.getType(),
                                               matchesAny, matches)
                           .getResult()
                     : matches;
  }
  RuntimeAssertOp::create(
      rewriter, loc,
      AtenItemOp::create(rewriter, loc, BoolType::get(context), matchesAny),
      rewriter.getStringAttr(
          "this node's axes at run time name other dims than its declared "
          "input and result sizes imply (a graph output or value_info "
          "declaration the data contradicts)"));
  return success();
}

/// Unsqueeze / Squeeze with dynamic sizes: one ATen op per axis.
template <bool isUnsqueeze>
LogicalResult lowerSqueezeLike(const OpBinder &binder,
                               PatternRewriter &rewriter) {
  auto resultType = binder.getResultType();
  if (resultType && resultType.areAllSizesKnown()) {
    SmallVector<int64_t> constantAxes;
    if (binder.getOpsetVersion() >= 13 && binder.getOperand(1) &&
        failed(binder.getConstantInts(1, constantAxes))) {
      // The view is built for the declared sizes: run-time axes must give
      // them.
      auto inputType = getKnownTensorType(binder.getOperand(0));
      if (!inputType || !inputType.areAllSizesKnown() ||
          failed(assertSqueezeAxes<isUnsqueeze>(
              rewriter, binder.getLoc(), binder.getOperand(1),
              inputType.getSizes(), resultType.getSizes())))
        return binder.fail(rewriter, "unsupported: axes computed at run time "
                                     "that no dims of the static input and "
                                     "result sizes can be");
    }
    return lowerToStaticView(binder, rewriter);
  }
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known ranks and dtypes");
  SmallVector<int64_t> axes;
  if (binder.getOpsetVersion() >= 13) {
    if (binder.getOperand(1) && failed(binder.getConstantInts(1, axes)))
      return binder.fail(rewriter, "unsupported: axes must be a constant");
  } else if (failed(binder.getInts("axes", axes))) {
    return binder.fail(rewriter, "axes must be ints");
  }
  int64_t rank =
      isUnsqueeze ? resultType.getSizes().size() : inputType.getSizes().size();
  if (axes.empty())
    return binder.fail(rewriter, "unsupported: Squeeze without axes of a "
                                 "tensor with dynamic sizes");
  for (int64_t &axis : axes)
    if (failed(normalizeAxis(axis, rank)))
      return binder.fail(rewriter, "axis out of range");
  // Unsqueeze inserts in ascending order; Squeeze removes in descending.
  llvm::sort(axes);
  if (!isUnsqueeze)
    std::reverse(axes.begin(), axes.end());
  Location loc = binder.getLoc();
  Value result = x;
  for (int64_t axis : axes) {
    SmallVector<int64_t> sizes(
        cast<ValueTensorType>(result.getType()).getSizes());
    Value dim = createConstantInt(rewriter, loc, axis);
    if constexpr (isUnsqueeze) {
      sizes.insert(sizes.begin() + axis, 1);
      result = AtenUnsqueezeOp::create(rewriter, loc, withSizes(x, sizes),
                                       result, dim);
    } else {
      sizes.erase(sizes.begin() + axis);
      result = AtenSqueezeDimOp::create(rewriter, loc, withSizes(x, sizes),
                                        result, dim);
    }
  }
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

LogicalResult lowerTranspose(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getAnyResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known ranks and dtypes");
  int64_t rank = inputType.getSizes().size();
  SmallVector<int64_t> reversed;
  for (int64_t d = rank - 1; d >= 0; --d)
    reversed.push_back(d);
  SmallVector<int64_t> perm;
  if (failed(binder.getInts("perm", perm, reversed)) ||
      static_cast<int64_t>(perm.size()) != rank)
    return binder.fail(rewriter, "perm must list every dim once");
  Location loc = binder.getLoc();
  rewriter.replaceOpWithNewOp<AtenPermuteOp>(
      binder.getOp(), resultType, x, createIntList(rewriter, loc, perm));
  return success();
}

LogicalResult lowerConcat(const OpBinder &binder, PatternRewriter &rewriter) {
  SmallVector<Value> operands;
  auto resultType = binder.getAnyResultType();
  int64_t axis;
  if (failed(binder.getTensorOperands(operands)) || operands.empty() ||
      !resultType || failed(binder.getInt("axis", axis)))
    return binder.fail(rewriter, "expects tensors and an int axis");
  Location loc = binder.getLoc();
  rewriter.replaceOpWithNewOp<AtenCatOp>(
      binder.getOp(), resultType, createTensorList(rewriter, loc, operands),
      createConstantInt(rewriter, loc, axis));
  return success();
}

/// Gather(data, indices, axis): a constant scalar index is aten.select;
/// other indices (constant or computed at run time) go through
/// index_select of the flattened indices, viewed to the result shape.
/// Negative indices count from the end.
LogicalResult lowerGather(const OpBinder &binder, PatternRewriter &rewriter) {
  Value data = binder.getOperand(0), indices = binder.getOperand(1);
  auto dataType = getKnownTensorType(data);
  auto indicesType = getKnownTensorType(indices);
  auto resultType = binder.getResultType();
  int64_t axis;
  if (!dataType || !indicesType || !resultType ||
      failed(binder.getInt("axis", axis, 0)))
    return binder.fail(rewriter, "needs known sizes and dtypes");
  int64_t rank = dataType.getSizes().size();
  if (failed(normalizeAxis(axis, rank)))
    return binder.fail(rewriter, "axis out of range");
  int64_t dimSize = dataType.getSizes()[axis];
  if (dimSize == kUnknownSize)
    return binder.fail(rewriter,
                       "unsupported: a dynamic size of the gathered dim");
  if (!resultType.areAllSizesKnown() || !indicesType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: dynamic result or index sizes");
  SmallVector<int64_t> values;
  bool isConstant = succeeded(binder.getConstantInts(1, values));
  for (int64_t &v : values) {
    if (v < -dimSize || v >= dimSize)
      return binder.fail(rewriter, "index out of range");
    if (v < 0)
      v += dimSize;
  }
  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  if (isConstant && indicesType.getSizes().empty()) {
    rewriter.replaceOpWithNewOp<AtenSelectIntOp>(
        binder.getOp(), resultType, data,
        createConstantInt(rewriter, loc, axis),
        createConstantInt(rewriter, loc, values[0]));
    return success();
  }
  int64_t n = 1;
  for (int64_t size : indicesType.getSizes())
    n *= size;
  auto si64 = IntegerType::get(context, 64, IntegerType::Signed);
  auto flatType = ValueTensorType::get(context, ArrayRef<int64_t>{n}, si64);
  Value flat;
  if (isConstant) {
    flat = createLiteral(rewriter, loc, flatType,
                         DenseElementsAttr::get(
                             RankedTensorType::get({n}, rewriter.getI64Type()),
                             ArrayRef<int64_t>(values)));
  } else {
    indices = createToDtype(rewriter, loc, indices, si64);
    flat = createView(rewriter, loc, indices, {n}, flatType);
    flat = wrapNegativeIndices(rewriter, loc, flat, dimSize);
  }
  SmallVector<int64_t> selectedSizes(dataType.getSizes());
  selectedSizes[axis] = n;
  Value selected = AtenIndexSelectOp::create(
      rewriter, loc, withSizes(data, selectedSizes), data,
      createConstantInt(rewriter, loc, axis), flat);
  rewriter.replaceOp(
      binder.getOp(),
      createView(rewriter, loc, selected, resultType.getSizes(), resultType));
  return success();
}

/// GatherND(data, indices [.., k]; batch_dims): per batch, the k indexed
/// dims of data flattened to M positions and the rest to R; each index
/// tuple a position p = sum_j indices[.., j] * stride_j, whose row of R
/// values is picked by a one-hot [T, M] against the positions and a sum.
LogicalResult lowerGatherND(const OpBinder &binder, PatternRewriter &rewriter) {
  Value data = binder.getOperand(0), indices = binder.getOperand(1);
  auto dataType = getKnownTensorType(data);
  auto indicesType = getKnownTensorType(indices);
  auto resultType = binder.getResultType();
  int64_t batchDims;
  if (!dataType || !indicesType || !resultType ||
      !dataType.areAllSizesKnown() || !indicesType.areAllSizesKnown() ||
      failed(binder.getInt("batch_dims", batchDims, 0)))
    return binder.fail(rewriter, "needs static sizes, known dtypes and an "
                                 "int batch_dims");
  ArrayRef<int64_t> dataSizes = dataType.getSizes(),
                    indexSizes = indicesType.getSizes();
  int64_t rank = dataSizes.size(), indexRank = indexSizes.size();
  Type dtype = dataType.getDtype();
  if (indexRank < 1 || batchDims < 0 || batchDims >= indexRank ||
      batchDims >= rank || dtype.isInteger(1) || !getScalarTypeCode(dtype))
    return binder.fail(rewriter, "unsupported: bool data, or batch_dims out "
                                 "of range");
  int64_t k = indexSizes.back();
  if (k < 1 || batchDims + k > rank ||
      dataSizes.take_front(batchDims) != indexSizes.take_front(batchDims))
    return binder.fail(rewriter, "indices do not fit the data");
  int64_t batch = 1, tuples = 1, positions = 1, rest = 1;
  for (int64_t d = 0; d < batchDims; ++d)
    batch *= dataSizes[d];
  for (int64_t size : indexSizes.slice(batchDims, indexRank - 1 - batchDims))
    tuples *= size;
  for (int64_t d = batchDims; d < rank; ++d)
    (d < batchDims + k ? positions : rest) *= dataSizes[d];
  SmallVector<int64_t> expected(indexSizes.drop_back());
  expected.append(dataSizes.begin() + batchDims + k, dataSizes.end());
  if (resultType.getSizes() != ArrayRef<int64_t>(expected))
    return binder.fail(rewriter, "the result sizes do not match");

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context), i1 = rewriter.getI1Type();
  auto view = [&](Value value, ArrayRef<int64_t> sizes,
                  Type elementType) -> Value {
    if (cast<ValueTensorType>(value.getType()).getSizes() == sizes)
      return value;
    return createView(rewriter, loc, value, sizes,
                      getTensorType(context, sizes, elementType));
  };
  Value tupleIndices = view(createToDtype(rewriter, loc, indices, si64),
                            {batch, tuples, k}, si64);
  Value position;
  int64_t stride = positions;
  for (int64_t j = 0; j < k; ++j) {
    int64_t size = dataSizes[batchDims + j];
    stride /= size;
    Value component = AtenSelectIntOp::create(
        rewriter, loc, getTensorType(context, {batch, tuples}, si64),
        tupleIndices, createConstantInt(rewriter, loc, 2),
        createConstantInt(rewriter, loc, j));
    component = wrapNegativeIndices(rewriter, loc, component, size);
    if (stride != 1)
      component =
          AtenMulScalarOp::create(rewriter, loc, component.getType(), component,
                                  createConstantInt(rewriter, loc, stride));
    position = position ? AtenAddTensorOp::create(
                              rewriter, loc, component.getType(), position,
                              component, createConstantInt(rewriter, loc, 1))
                              .getResult()
                        : component;
  }
  // hits [Bt, T, M, 1] against data [Bt, 1, M, R], summed over M.
  Value hits = AtenEqTensorOp::create(
      rewriter, loc, getTensorType(context, {batch, tuples, positions, 1}, i1),
      view(position, {batch, tuples, 1, 1}, si64),
      view(createArange(rewriter, loc, positions), {positions, 1}, si64));
  Value flatData = view(data, {batch, 1, positions, rest}, dtype);
  Value picked = AtenWhereSelfOp::create(
      rewriter, loc,
      getTensorType(context, {batch, tuples, positions, rest}, dtype), hits,
      flatData, createScalarLiteral(rewriter, loc, dtype, 0.0));
  Value gathered = AtenSumDimIntListOp::create(
      rewriter, loc, getTensorType(context, {batch, tuples, rest}, dtype),
      picked, createIntList(rewriter, loc, {2}),
      createConstantBool(rewriter, loc, false),
      createConstantNone(rewriter, loc));
  rewriter.replaceOp(
      binder.getOp(),
      createView(rewriter, loc, gathered, resultType.getSizes(), resultType));
  return success();
}

/// GatherElements(data, indices, axis): aten.gather, negative indices
/// wrapped.
LogicalResult lowerGatherElements(const OpBinder &binder,
                                  PatternRewriter &rewriter) {
  Value data = binder.getOperand(0), indices = binder.getOperand(1);
  auto dataType = getKnownTensorType(data);
  auto indicesType = getKnownTensorType(indices);
  auto resultType = binder.getResultType();
  int64_t axis;
  if (!dataType || !indicesType || !resultType ||
      failed(binder.getInt("axis", axis, 0)))
    return binder.fail(rewriter, "needs known sizes and dtypes");
  if (failed(normalizeAxis(axis, dataType.getSizes().size())))
    return binder.fail(rewriter, "axis out of range");
  int64_t dimSize = dataType.getSizes()[axis];
  auto si64 = IntegerType::get(rewriter.getContext(), 64, IntegerType::Signed);
  if (dimSize == kUnknownSize || indicesType.getDtype() != si64)
    return binder.fail(rewriter, "unsupported: a dynamic gathered dim or "
                                 "non-int64 indices");
  Location loc = binder.getLoc();
  Value wrapped = wrapNegativeIndices(rewriter, loc, indices, dimSize);
  rewriter.replaceOpWithNewOp<AtenGatherOp>(
      binder.getOp(), resultType, data, createConstantInt(rewriter, loc, axis),
      wrapped, createConstantBool(rewriter, loc, false));
  return success();
}

/// Slice-10+ whose starts, axes or steps are computed at run time, with
/// static input and result sizes. For each input dim d: the run-time start
/// and step of the `axes` entry equal to d (start 0, step 1 when there is
/// none), the start wrapped and clamped as the spec says ([0, size] for a
/// positive step, [0, size - 1] for a negative one), and an index_select of
/// start + step * arange(result size). The ends only decide the result
/// sizes, which the static result type already holds: the length the
/// bounds give is checked against it at run time.
LogicalResult lowerRuntimeSlice(const OpBinder &binder,
                                PatternRewriter &rewriter, Value x,
                                ValueTensorType inputType,
                                ValueTensorType resultType) {
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  Value starts = binder.getOperand(1);
  Value axesInput = binder.getOperand(3), stepsInput = binder.getOperand(4);
  auto startsType = getKnownTensorType(starts);
  if (!inputType.areAllSizesKnown() || !resultType.areAllSizesKnown() ||
      !startsType || startsType.getSizes().size() != 1 ||
      startsType.getSizes()[0] == kUnknownSize)
    return binder.fail(rewriter,
                       "unsupported: starts/ends/axes/steps computed at run "
                       "time with dynamic input, result or starts sizes");
  ArrayRef<int64_t> inSizes = inputType.getSizes();
  ArrayRef<int64_t> outSizes = resultType.getSizes();
  int64_t rank = inSizes.size();
  int64_t n = startsType.getSizes()[0];
  Type si64 = getSi64Type(context);
  auto si64Type = [&](ArrayRef<int64_t> sizes) {
    return getTensorType(context, sizes, si64);
  };
  auto boolType = [&](ArrayRef<int64_t> sizes) {
    return getTensorType(context, sizes, rewriter.getI1Type());
  };
  auto cst = [&](int64_t v) { return createConstantInt(rewriter, loc, v); };
  Value one = cst(1);
  starts = createToDtype(rewriter, loc, starts, si64);
  Value ends = binder.getOperand(2);
  auto endsType = ends ? getKnownTensorType(ends) : nullptr;
  if (!endsType || endsType.getSizes() != startsType.getSizes())
    return binder.fail(rewriter, "ends must have the length of starts");
  ends = createToDtype(rewriter, loc, ends, si64);
  Value steps;
  if (stepsInput) {
    auto stepsType = getKnownTensorType(stepsInput);
    if (!stepsType || stepsType.getSizes() != startsType.getSizes())
      return binder.fail(rewriter, "steps must have the length of starts");
    steps = createToDtype(rewriter, loc, stepsInput, si64);
  }
  // Constant axes name the sliced dims; run-time ones may name any.
  SmallVector<int64_t> constantAxes;
  Value axes;
  if (!axesInput) {
    for (int64_t i = 0; i < n; ++i)
      constantAxes.push_back(i);
  } else if (succeeded(binder.getConstantInts(3, constantAxes))) {
    if (static_cast<int64_t>(constantAxes.size()) != n)
      return binder.fail(rewriter, "axes must have the length of starts");
    for (int64_t &axis : constantAxes)
      if (failed(normalizeAxis(axis, rank)))
        return binder.fail(rewriter, "axis out of range");
  } else {
    auto axesType = getKnownTensorType(axesInput);
    if (!axesType || axesType.getSizes() != startsType.getSizes())
      return binder.fail(rewriter, "axes must have the length of starts");
    axes = wrapNegativeIndices(
        rewriter, loc, createToDtype(rewriter, loc, axesInput, si64), rank);
  }
  Value scalarType = cst(*getScalarTypeCode(si64));
  Value result = x;
  SmallVector<int64_t> sizes(inSizes);
  Value lengthsHold;
  for (int64_t d = 0; d < rank; ++d) {
    Value start, step, end;
    int64_t dimSize = inSizes[d];
    if (!axes) {
      const auto *it = llvm::find(constantAxes, d);
      if (it == constantAxes.end())
        continue; // Not sliced.
      Value index = cst(it - constantAxes.begin());
      start = AtenSelectIntOp::create(rewriter, loc, si64Type({}), starts,
                                      cst(0), index);
      end = AtenSelectIntOp::create(rewriter, loc, si64Type({}), ends, cst(0),
                                    index);
      if (steps)
        step = AtenSelectIntOp::create(rewriter, loc, si64Type({}), steps,
                                       cst(0), index);
    } else {
      // The entry of axes equal to d, if any (ONNX axes are distinct):
      // start = sum(mask * starts), step = sum(mask * steps) + 1 - sum(mask).
      Value mask = createToDtype(
          rewriter, loc,
          AtenEqScalarOp::create(rewriter, loc, boolType({n}), axes, cst(d)),
          si64);
      auto sumOf = [&](Value v) -> Value {
        return AtenSumOp::create(rewriter, loc, si64Type({}), v, scalarType);
      };
      start = sumOf(
          AtenMulTensorOp::create(rewriter, loc, si64Type({n}), mask, starts));
      // end = sum(mask * ends) + (1 - sum(mask)) * size.
      Value unnamed = AtenRsubScalarOp::create(rewriter, loc, si64Type({}),
                                               sumOf(mask), one, one);
      end = AtenAddTensorOp::create(
          rewriter, loc, si64Type({}),
          sumOf(AtenMulTensorOp::create(rewriter, loc, si64Type({n}), mask,
                                        ends)),
          AtenMulScalarOp::create(rewriter, loc, si64Type({}), unnamed,
                                  cst(dimSize)),
          one);
      if (steps) {
        Value picked = sumOf(
            AtenMulTensorOp::create(rewriter, loc, si64Type({n}), mask, steps));
        Value absent = AtenRsubScalarOp::create(rewriter, loc, si64Type({}),
                                                sumOf(mask), one, one);
        step = AtenAddTensorOp::create(rewriter, loc, si64Type({}), picked,
                                       absent, one);
      }
    }
    // Wrap, then clamp to [0, size] (positive step) or [0, size - 1].
    start = wrapNegativeIndices(rewriter, loc, start, dimSize);
    end = wrapNegativeIndices(rewriter, loc, end, dimSize);
    Value upTo = AtenClampOp::create(rewriter, loc, si64Type({}), start, cst(0),
                                     cst(dimSize));
    Value indices = createArange(rewriter, loc, outSizes[d]);
    if (step) {
      Value downFrom =
          AtenClampOp::create(rewriter, loc, si64Type({}), start, cst(0),
                              cst(std::max<int64_t>(dimSize - 1, 0)));
      Value negative =
          AtenLtScalarOp::create(rewriter, loc, boolType({}), step, cst(0));
      start = AtenWhereSelfOp::create(rewriter, loc, si64Type({}), negative,
                                      downFrom, upTo);
      indices = AtenMulTensorOp::create(rewriter, loc, si64Type({outSizes[d]}),
                                        indices, step);
    } else {
      start = upTo;
    }
    indices = AtenAddTensorOp::create(rewriter, loc, si64Type({outSizes[d]}),
                                      indices, start, one);
    sizes[d] = outSizes[d];
    result = AtenIndexSelectOp::create(rewriter, loc, withSizes(x, sizes),
                                       result, cst(d), indices);
    // The length the bounds give (ONNX Slice): ceil((end - start) / step),
    // at least 0, with start clamped as above and end clamped to [0, size]
    // (positive step) or [-1, size - 1] (negative step).
    auto scalar = si64Type({});
    auto ceilDiv = [&](Value a, Value b) -> Value {
      // (a + b - 1) floor-divided by b, for b > 0.
      Value biased = AtenSubScalarOp::create(
          rewriter, loc, scalar,
          AtenAddTensorOp::create(rewriter, loc, scalar, a, b, one), one, one);
      return AtenDivTensorModeOp::create(
          rewriter, loc, scalar, biased, b,
          ConstantStrOp::create(rewriter, loc, StringType::get(context),
                                rewriter.getStringAttr("floor")));
    };
    Value forwardEnd =
        AtenClampOp::create(rewriter, loc, scalar, end, cst(0), cst(dimSize));
    Value stride = step ? step : createScalarLiteral(rewriter, loc, si64, 1.0);
    Value length = ceilDiv(
        AtenSubTensorOp::create(rewriter, loc, scalar, forwardEnd, start, one),
        stride);
    if (step) {
      Value backwardEnd = AtenClampOp::create(rewriter, loc, scalar, end,
                                              cst(-1), cst(dimSize - 1));
      Value backward = ceilDiv(AtenSubTensorOp::create(rewriter, loc, scalar,
                                                       start, backwardEnd, one),
                               AtenNegOp::create(rewriter, loc, scalar, step));
      Value isBackward =
          AtenLtScalarOp::create(rewriter, loc, boolType({}), step, cst(0));
      length = AtenWhereSelfOp::create(rewriter, loc, scalar, isBackward,
                                       backward, length);
    }
    length = AtenClampOp::create(rewriter, loc, scalar, length, cst(0),
                                 cst(dimSize));
    Value equal = AtenEqScalarOp::create(rewriter, loc, boolType({}), length,
                                         cst(outSizes[d]));
    lengthsHold = lengthsHold
                      ? AtenLogicalAndOp::create(rewriter, loc, boolType({}),
                                                 lengthsHold, equal)
                            .getResult()
                      : equal;
  }
  if (ArrayRef<int64_t>(sizes) != outSizes)
    return binder.fail(rewriter, "the result sizes differ from the input's in "
                                 "a dim that no constant axis slices");
  if (lengthsHold)
    RuntimeAssertOp::create(
        rewriter, loc,
        AtenItemOp::create(rewriter, loc, BoolType::get(context), lengthsHold),
        rewriter.getStringAttr(
            "this Slice node's starts, ends, axes and steps at run time give "
            "other result sizes than its declared result type (a graph output "
            "or value_info declaration the data contradicts)"));
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// Slice-10+/13 (starts, ends, axes, steps as constant inputs) and Slice-1
/// (attributes): one aten.slice.Tensor per axis. Out-of-range bounds clamp
/// as in both specs. Bounds computed at run time: lowerRuntimeSlice.
LogicalResult lowerSlice(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  SmallVector<int64_t> starts, ends, axes, steps;
  if (binder.getOpsetVersion() >= 10) {
    if (failed(binder.getConstantInts(1, starts)) ||
        failed(binder.getConstantInts(2, ends)) ||
        (binder.getOperand(3) && failed(binder.getConstantInts(3, axes))) ||
        (binder.getOperand(4) && failed(binder.getConstantInts(4, steps))))
      return lowerRuntimeSlice(binder, rewriter, x, inputType, resultType);
  } else if (failed(binder.getInts("starts", starts)) ||
             failed(binder.getInts("ends", ends)) ||
             failed(binder.getInts("axes", axes))) {
    return binder.fail(rewriter, "starts, ends and axes must be ints");
  }
  int64_t rank = inputType.getSizes().size();
  if (axes.empty())
    for (int64_t i = 0, e = starts.size(); i < e; ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || starts.size() != axes.size() ||
      starts.size() != steps.size())
    return binder.fail(rewriter,
                       "starts, ends, axes and steps differ in length");
  for (int64_t step : steps) {
    if (step == 0)
      return binder.fail(rewriter, "a step of 0");
    if (step < 0 && binder.getOpsetVersion() >= 10)
      return lowerRuntimeSlice(binder, rewriter, x, inputType, resultType);
  }
  Location loc = binder.getLoc();
  Value result = x;
  SmallVector<int64_t> sizes(inputType.getSizes());
  for (auto [start, end, axis, step] :
       llvm::zip_equal(starts, ends, axes, steps)) {
    if (failed(normalizeAxis(axis, rank)))
      return binder.fail(rewriter, "axis out of range");
    int64_t dim = sizes[axis];
    if (dim != kUnknownSize) {
      auto clamp = [&](int64_t v) {
        return std::clamp<int64_t>(v < 0 ? v + dim : v, 0, dim);
      };
      int64_t s = clamp(start), e = clamp(end);
      sizes[axis] = e > s ? (e - s + step - 1) / step : 0;
      start = s;
      end = e;
    } else {
      sizes[axis] = kUnknownSize;
    }
    result =
        AtenSliceTensorOp::create(rewriter, loc, withSizes(x, sizes), result,
                                  createConstantInt(rewriter, loc, axis),
                                  createConstantInt(rewriter, loc, start),
                                  createConstantInt(rewriter, loc, end),
                                  createConstantInt(rewriter, loc, step));
  }
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// CenterCropPad-18(input, shape): each dim whose static result size
/// differs from the input's is cropped to a centered window (the start
/// rounded down) or zero-padded on both sides (the odd pixel on the right).
/// The `shape` values are the result sizes of the `axes` dims, which the
/// static result type holds.
LogicalResult lowerCenterCropPad(const OpBinder &binder,
                                 PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  SmallVector<int64_t> axes;
  if (!inputType || !resultType || !inputType.areAllSizesKnown() ||
      !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: dynamic input or result sizes");
  if (failed(binder.getInts("axes", axes)))
    return binder.fail(rewriter, "attribute 'axes' must be ints");
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  int64_t rank = in.size();
  if (static_cast<int64_t>(out.size()) != rank)
    return binder.fail(rewriter, "the result rank differs from the input's");
  SmallVector<bool> listed(rank, axes.empty());
  for (int64_t axis : axes) {
    if (failed(normalizeAxis(axis, rank)))
      return binder.fail(rewriter, "axis out of range");
    listed[axis] = true;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (!listed[d] && in[d] != out[d])
      return binder.fail(rewriter, "the result size of a dim not in 'axes' "
                                   "differs from the input's");
  Location loc = binder.getLoc();
  // The shape values (one per axis, in the order of 'axes') must be the
  // declared result sizes.
  SmallVector<int64_t> expected;
  if (axes.empty())
    expected.assign(out.begin(), out.end());
  for (int64_t axis : axes)
    expected.push_back(out[axis < 0 ? axis + rank : axis]);
  SmallVector<int64_t> shape;
  if (failed(binder.getConstantInts(1, shape))) {
    if (failed(assertValuesEqual(rewriter, loc, binder.getOperand(1), expected,
                                 "CenterCropPad node's shape values")))
      return binder.fail(rewriter, "shape must be a 1-D integer tensor of one "
                                   "value per axis");
  } else if (ArrayRef<int64_t>(shape) != ArrayRef<int64_t>(expected)) {
    return binder.fail(rewriter, "the shape values differ from the declared "
                                 "result sizes");
  }
  Value result = x;
  SmallVector<int64_t> sizes(in);
  SmallVector<int64_t> pads(2 * rank, 0); // last dim first, low then high
  bool padded = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (out[d] < in[d]) {
      int64_t start = (in[d] - out[d]) / 2;
      sizes[d] = out[d];
      result = AtenSliceTensorOp::create(
          rewriter, loc, withSizes(x, sizes), result,
          createConstantInt(rewriter, loc, d),
          createConstantInt(rewriter, loc, start),
          createConstantInt(rewriter, loc, start + out[d]),
          createConstantInt(rewriter, loc, 1));
    } else if (out[d] > in[d]) {
      int64_t total = out[d] - in[d];
      pads[2 * (rank - 1 - d)] = total / 2;
      pads[2 * (rank - 1 - d) + 1] = total - total / 2;
      padded = true;
    }
  }
  if (padded) {
    Value zero = isa<mlir::FloatType>(inputType.getDtype())
                     ? createConstantFloat(rewriter, loc, 0.0)
                     : createConstantInt(rewriter, loc, 0);
    result =
        AtenConstantPadNdOp::create(rewriter, loc, resultType, result,
                                    createIntList(rewriter, loc, pads), zero);
  }
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// ReverseSequence(input, sequence_lens): a gather along the time axis of
/// index[b, t] = t < lens[b] ? lens[b] - 1 - t : t (static sizes; the index
/// is computed on [B, T]-shaped tensors and expanded over the other dims).
LogicalResult lowerReverseSequence(const OpBinder &binder,
                                   PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), lens = binder.getOperand(1);
  auto inputType = getKnownTensorType(x);
  auto lensType = lens ? getKnownTensorType(lens) : nullptr;
  auto resultType = binder.getResultType();
  int64_t batchAxis, timeAxis;
  if (failed(binder.getInt("batch_axis", batchAxis, 1)) ||
      failed(binder.getInt("time_axis", timeAxis, 0)))
    return binder.fail(rewriter, "attributes batch_axis and time_axis must "
                                 "be ints");
  if ((batchAxis != 0 && batchAxis != 1) || (timeAxis != 0 && timeAxis != 1) ||
      batchAxis == timeAxis)
    return binder.fail(rewriter, "batch_axis and time_axis must be 0 and 1 "
                                 "(or 1 and 0)");
  if (!inputType || !lensType || !resultType || !inputType.areAllSizesKnown() ||
      inputType.getSizes().size() < 2)
    return binder.fail(rewriter, "needs static input sizes, rank >= 2");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t rank = sizes.size(), batch = sizes[batchAxis], time = sizes[timeAxis];
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  Type si64 = getSi64Type(context);
  auto cst = [&](int64_t v) { return createConstantInt(rewriter, loc, v); };
  // [B] and [T] viewed to rank-r shapes with 1s except on their own axis.
  auto along = [&](int64_t axis, int64_t size) {
    SmallVector<int64_t> shape(rank, 1);
    shape[axis] = size;
    return shape;
  };
  SmallVector<int64_t> batchShape = along(batchAxis, batch),
                       timeShape = along(timeAxis, time);
  SmallVector<int64_t> bothShape(rank, 1);
  bothShape[batchAxis] = batch;
  bothShape[timeAxis] = time;
  Value lengths =
      createView(rewriter, loc, createToDtype(rewriter, loc, lens, si64),
                 batchShape, getTensorType(context, batchShape, si64));
  Value t = createView(rewriter, loc, createArange(rewriter, loc, time),
                       timeShape, getTensorType(context, timeShape, si64));
  auto bothType = getTensorType(context, bothShape, si64);
  Value reversed = AtenSubTensorOp::create(
      rewriter, loc, bothType,
      AtenSubScalarOp::create(rewriter, loc,
                              getTensorType(context, batchShape, si64), lengths,
                              cst(1), cst(1)),
      t, cst(1));
  Value inside = AtenLtTensorOp::create(
      rewriter, loc, getTensorType(context, bothShape, rewriter.getI1Type()), t,
      lengths);
  Value index =
      AtenWhereSelfOp::create(rewriter, loc, bothType, inside, reversed, t);
  if (ArrayRef<int64_t>(bothShape) != sizes)
    index =
        AtenExpandOp::create(rewriter, loc, getTensorType(context, sizes, si64),
                             index, createIntList(rewriter, loc, sizes),
                             createConstantBool(rewriter, loc, false));
  rewriter.replaceOpWithNewOp<AtenGatherOp>(
      binder.getOp(), resultType, x, cst(timeAxis), index,
      createConstantBool(rewriter, loc, false));
  return success();
}

/// Expand(input, shape): broadcast to the (static) result sizes.
LogicalResult lowerExpand(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto resultType = binder.getResultType();
  if (!x || !resultType || !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: a result without static sizes");
  Location loc = binder.getLoc();
  rewriter.replaceOpWithNewOp<AtenExpandOp>(
      binder.getOp(), resultType, x,
      createIntList(rewriter, loc, resultType.getSizes()),
      createConstantBool(rewriter, loc, false));
  return success();
}

/// The updates that hit each position, combined: `hits` (bool) and
/// `spread` (the updates) broadcast to `hitSizes`, reduced over
/// `updateDim` by the sum ("none", "add"), product, max or min. Returns
/// the combined values and how many updates hit each position (si64).
std::pair<Value, Value> combineScatteredUpdates(
    PatternRewriter &rewriter, Location loc, StringRef reduction, Value hits,
    Value spread, ArrayRef<int64_t> hitSizes, int64_t updateDim, Type dtype) {
  MLIRContext *context = rewriter.getContext();
  SmallVector<int64_t> reducedSizes(hitSizes);
  reducedSizes.erase(reducedSizes.begin() + updateDim);
  SmallVector<int64_t> countSizes(
      cast<ValueTensorType>(hits.getType()).getSizes());
  countSizes.erase(countSizes.begin() + updateDim);
  Value dims = createIntList(rewriter, loc, {updateDim});
  Value f = createConstantBool(rewriter, loc, false);
  Value none = createConstantNone(rewriter, loc);
  auto spreadWith = [&](double identity) -> Value {
    return AtenWhereSelfOp::create(
        rewriter, loc, getTensorType(context, hitSizes, dtype), hits, spread,
        createScalarLiteral(rewriter, loc, dtype, identity));
  };
  auto reducedType = getTensorType(context, reducedSizes, dtype);
  double lowest = -std::numeric_limits<double>::infinity();
  double highest = std::numeric_limits<double>::infinity();
  if (auto intType = dyn_cast<IntegerType>(dtype)) {
    unsigned width = intType.getWidth();
    lowest = intType.isUnsigned() ? 0.0 : -std::ldexp(1.0, width - 1);
    highest = intType.isUnsigned() ? std::ldexp(1.0, width) - 1
                                   : std::ldexp(1.0, width - 1) - 1;
  }
  Value combined;
  if (reduction == "none" || reduction == "add")
    combined = AtenSumDimIntListOp::create(rewriter, loc, reducedType,
                                           spreadWith(0.0), dims, f, none);
  else if (reduction == "mul")
    combined = AtenProdDimIntOp::create(
        rewriter, loc, reducedType, spreadWith(1.0),
        createConstantInt(rewriter, loc, updateDim), f, none);
  else if (reduction == "max")
    combined = AtenAmaxOp::create(rewriter, loc, reducedType,
                                  spreadWith(lowest), dims, f);
  else
    combined = AtenAminOp::create(rewriter, loc, reducedType,
                                  spreadWith(highest), dims, f);
  Type si64 = getSi64Type(context);
  Value hitCount = AtenSumDimIntListOp::create(
      rewriter, loc, getTensorType(context, countSizes, si64),
      createToDtype(rewriter, loc, hits, si64), dims, f, none);
  return {combined, hitCount};
}

/// `data` where no update hit (hitCount == 0), else the combined updates
/// ("none": a repeated index is a run-time error) or data combined with
/// them by `reduction`.
Value mergeScatteredUpdates(PatternRewriter &rewriter, Location loc,
                            StringRef reduction, Value data, Value combined,
                            Value hitCount) {
  auto type = cast<ValueTensorType>(data.getType());
  MLIRContext *context = rewriter.getContext();
  ArrayRef<int64_t> hitSizes =
      cast<ValueTensorType>(hitCount.getType()).getSizes();
  Type i1 = rewriter.getI1Type();
  Value merged;
  if (reduction == "none") {
    // The spec forbids repeated indices without a reduction: checked at
    // run time (the combined updates would otherwise be their sum).
    Value repeats = AtenGtScalarOp::create(
        rewriter, loc, getTensorType(context, hitSizes, i1), hitCount,
        createConstantInt(rewriter, loc, 1));
    auto scalarBool = getTensorType(context, {}, i1);
    Value unique = AtenLogicalNotOp::create(
        rewriter, loc, scalarBool,
        AtenAnyOp::create(rewriter, loc, scalarBool, repeats));
    RuntimeAssertOp::create(
        rewriter, loc,
        AtenItemOp::create(rewriter, loc, BoolType::get(context), unique),
        rewriter.getStringAttr(
            "this scatter node's indices name a position twice, which its "
            "reduction='none' forbids (ONNX ScatterElements/ScatterND: "
            "indices must not repeat without a reduction)"));
    merged = combined;
  } else if (reduction == "add")
    merged = AtenAddTensorOp::create(rewriter, loc, type, data, combined,
                                     createConstantInt(rewriter, loc, 1));
  else if (reduction == "mul")
    merged = AtenMulTensorOp::create(rewriter, loc, type, data, combined);
  else if (reduction == "max")
    merged = AtenMaximumOp::create(rewriter, loc, type, data, combined);
  else
    merged = AtenMinimumOp::create(rewriter, loc, type, data, combined);
  Value hit = AtenGtScalarOp::create(
      rewriter, loc, getTensorType(context, hitSizes, i1), hitCount,
      createConstantInt(rewriter, loc, 0));
  return AtenWhereSelfOp::create(rewriter, loc, type, hit, merged, data);
}

/// ScatterND(data, indices [.., k], updates; reduction): the first k dims
/// of data flattened to one of M positions and the rest to R, each index
/// tuple a position p = sum_j indices[.., j] * stride_j; then as
/// ScatterElements over [R, M] with the B index tuples as updates.
LogicalResult lowerScatterND(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value data = binder.getOperand(0), indices = binder.getOperand(1),
        updates = binder.getOperand(2);
  auto dataType = getKnownTensorType(data);
  auto indicesType = getKnownTensorType(indices);
  auto updatesType = getKnownTensorType(updates);
  auto resultType = binder.getResultType();
  std::string reduction;
  if (!dataType || !indicesType || !updatesType || !resultType ||
      !dataType.areAllSizesKnown() || !indicesType.areAllSizesKnown() ||
      failed(binder.getString("reduction", reduction, "none")))
    return binder.fail(rewriter, "needs static sizes, known dtypes and a "
                                 "string reduction");
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "max" && reduction != "min")
    return binder.fail(rewriter, "unsupported reduction '" + reduction + "'");
  ArrayRef<int64_t> dataSizes = dataType.getSizes(),
                    indexSizes = indicesType.getSizes();
  Type dtype = dataType.getDtype();
  if (indexSizes.empty() || dtype.isInteger(1) || !getScalarTypeCode(dtype))
    return binder.fail(rewriter, "unsupported: bool data or 0-d indices");
  int64_t k = indexSizes.back();
  int64_t rank = dataSizes.size();
  if (k < 1 || k > rank)
    return binder.fail(rewriter, "the last dim of indices must be in [1, "
                                 "rank of data]");
  int64_t tuples = 1, positions = 1, rest = 1;
  for (int64_t size : indexSizes.drop_back())
    tuples *= size;
  for (int64_t d = 0; d < rank; ++d)
    (d < k ? positions : rest) *= dataSizes[d];
  SmallVector<int64_t> expectedUpdates(indexSizes.drop_back());
  expectedUpdates.append(dataSizes.begin() + k, dataSizes.end());
  if (updatesType.getSizes() != ArrayRef<int64_t>(expectedUpdates))
    return binder.fail(rewriter, "updates must have the sizes indices[:-1] + "
                                 "data[k:]");

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context), i1 = rewriter.getI1Type();
  auto view = [&](Value value, ArrayRef<int64_t> sizes,
                  Type elementType) -> Value {
    if (cast<ValueTensorType>(value.getType()).getSizes() == sizes)
      return value;
    return createView(rewriter, loc, value, sizes,
                      getTensorType(context, sizes, elementType));
  };
  // The flat position of each index tuple, [B].
  Value tupleIndices =
      view(createToDtype(rewriter, loc, indices, si64), {tuples, k}, si64);
  Value position;
  int64_t stride = positions;
  for (int64_t j = 0; j < k; ++j) {
    stride /= dataSizes[j];
    Value component = AtenSelectIntOp::create(
        rewriter, loc, getTensorType(context, {tuples}, si64), tupleIndices,
        createConstantInt(rewriter, loc, 1),
        createConstantInt(rewriter, loc, j));
    component = wrapNegativeIndices(rewriter, loc, component, dataSizes[j]);
    Value scaled = stride == 1
                       ? component
                       : AtenMulScalarOp::create(
                             rewriter, loc, component.getType(), component,
                             createConstantInt(rewriter, loc, stride))
                             .getResult();
    position = position ? AtenAddTensorOp::create(
                              rewriter, loc, component.getType(), position,
                              scaled, createConstantInt(rewriter, loc, 1))
                              .getResult()
                        : scaled;
  }
  // hits [1, B, M]; updates [R, B, 1]; data [R, M].
  Value hits = AtenEqTensorOp::create(
      rewriter, loc, getTensorType(context, {1, tuples, positions}, i1),
      view(position, {1, tuples, 1}, si64),
      createArange(rewriter, loc, positions));
  Value spread = createPermute(rewriter, loc,
                               view(updates, {tuples, rest}, dtype), {1, 0});
  spread = view(spread, {rest, tuples, 1}, dtype);
  Value flatData = createPermute(rewriter, loc,
                                 view(data, {positions, rest}, dtype), {1, 0});
  auto [combined, hitCount] =
      combineScatteredUpdates(rewriter, loc, reduction, hits, spread,
                              {rest, tuples, positions}, 1, dtype);
  Value merged = mergeScatteredUpdates(rewriter, loc, reduction, flatData,
                                       combined, hitCount);
  Value result = createPermute(rewriter, loc, merged, {1, 0});
  rewriter.replaceOp(binder.getOp(),
                     createView(rewriter, loc, result, dataSizes, resultType));
  return success();
}

/// ScatterElements(data, indices, updates; axis, reduction) and Scatter:
/// with the axis moved last, update u of row r goes to position
/// indices[r, u] of that row. One-hot hits [.., U, D] of the indices
/// spread the updates; they are combined per position (sum, product, max,
/// min over the updates that hit it; for "none" the indices must not
/// repeat), then merged with the data where anything hit. Updates may
/// cover fewer rows than the data: the rest is padded as missed.
LogicalResult lowerScatterElements(const OpBinder &binder,
                                   PatternRewriter &rewriter) {
  Value data = binder.getOperand(0), indices = binder.getOperand(1),
        updates = binder.getOperand(2);
  auto dataType = getKnownTensorType(data);
  auto indicesType = getKnownTensorType(indices);
  auto updatesType = getKnownTensorType(updates);
  auto resultType = binder.getResultType();
  int64_t axis;
  std::string reduction;
  if (!dataType || !indicesType || !updatesType || !resultType ||
      !dataType.areAllSizesKnown() || !indicesType.areAllSizesKnown() ||
      failed(binder.getInt("axis", axis, 0)) ||
      failed(binder.getString("reduction", reduction, "none")))
    return binder.fail(rewriter, "needs static sizes, known dtypes and int "
                                 "axis, string reduction");
  ArrayRef<int64_t> dataSizes = dataType.getSizes(),
                    updateSizes = indicesType.getSizes();
  int64_t rank = dataSizes.size();
  if (failed(normalizeAxis(axis, rank)) ||
      static_cast<int64_t>(updateSizes.size()) != rank ||
      updatesType.getSizes() != updateSizes)
    return binder.fail(rewriter, "axis out of range, or indices and updates "
                                 "of other ranks or sizes");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && updateSizes[d] > dataSizes[d])
      return binder.fail(rewriter, "indices larger than data off the axis");
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "max" && reduction != "min")
    return binder.fail(rewriter, "unsupported reduction '" + reduction + "'");
  Type dtype = dataType.getDtype();
  if (dtype.isInteger(1) || !getScalarTypeCode(dtype))
    return binder.fail(rewriter, "unsupported: bool data");

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type i1 = rewriter.getI1Type(), si64 = getSi64Type(context);
  SmallVector<int64_t> perm, inverse(rank);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  for (int64_t d = 0; d < rank; ++d)
    inverse[perm[d]] = d;
  bool isLast = axis == rank - 1;
  auto moveLast = [&](Value value) {
    return isLast ? value : createPermute(rewriter, loc, value, perm);
  };
  int64_t length = dataSizes[axis];
  Value movedData = moveLast(data);
  Value movedIndices = wrapNegativeIndices(
      rewriter, loc, createToDtype(rewriter, loc, moveLast(indices), si64),
      length);
  Value movedUpdates = moveLast(updates);
  SmallVector<int64_t> rows(
      cast<ValueTensorType>(movedUpdates.getType()).getSizes());
  // [.., U, 1] against [D]: the hits [.., U, D].
  SmallVector<int64_t> columnSizes(rows), hitSizes(rows);
  columnSizes.push_back(1);
  hitSizes.push_back(length);
  Value positions = createArange(rewriter, loc, length);
  Value hits = AtenEqTensorOp::create(
      rewriter, loc, getTensorType(context, hitSizes, i1),
      createView(rewriter, loc, movedIndices, columnSizes,
                 getTensorType(context, columnSizes, si64)),
      positions);
  Value spread = createView(rewriter, loc, movedUpdates, columnSizes,
                            getTensorType(context, columnSizes, dtype));
  auto [combined, hitCount] = combineScatteredUpdates(
      rewriter, loc, reduction, hits, spread, hitSizes, rank - 1, dtype);
  // Pad the rows the updates do not cover (as missed).
  SmallVector<int64_t> movedDataSizes(
      cast<ValueTensorType>(movedData.getType()).getSizes());
  ArrayRef<int64_t> reducedSizes =
      cast<ValueTensorType>(combined.getType()).getSizes();
  if (reducedSizes != ArrayRef<int64_t>(movedDataSizes)) {
    SmallVector<int64_t> pads;
    for (int64_t d = rank - 1; d >= 0; --d) {
      pads.push_back(0);
      pads.push_back(movedDataSizes[d] - reducedSizes[d]);
    }
    Value padList = createIntList(rewriter, loc, pads);
    Value zero = createConstantFloat(rewriter, loc, 0.0);
    combined = AtenConstantPadNdOp::create(
        rewriter, loc, getTensorType(context, movedDataSizes, dtype), combined,
        padList, zero);
    hitCount = AtenConstantPadNdOp::create(
        rewriter, loc, getTensorType(context, movedDataSizes, si64), hitCount,
        padList, zero);
  }
  Value result = mergeScatteredUpdates(rewriter, loc, reduction, movedData,
                                       combined, hitCount);
  if (!isLast)
    result = createPermute(rewriter, loc, result, inverse);
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxShapeLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("Constant", 1, lowerConstant);
  lowerings.on("ConstantOfShape", 9, lowerConstantOfShape);
  lowerings.on("Shape", 1, lowerShape);
  lowerings.on("Reshape", 5, lowerReshape);
  lowerings.on("Flatten", 1, lowerToStaticView);
  lowerings.on("Unsqueeze", 1, lowerSqueezeLike</*isUnsqueeze=*/true>);
  lowerings.on("Squeeze", 1, lowerSqueezeLike</*isUnsqueeze=*/false>);
  lowerings.on("Transpose", 1, lowerTranspose);
  lowerings.on("Concat", 4, lowerConcat);
  lowerings.on("Gather", 1, lowerGather);
  lowerings.on("GatherElements", 11, lowerGatherElements);
  lowerings.on("GatherND", 11, lowerGatherND);
  lowerings.on("ScatterElements", 11, lowerScatterElements);
  lowerings.on("Scatter", 9, lowerScatterElements);
  lowerings.on("ScatterND", 11, lowerScatterND);
  lowerings.on("Slice", 1, lowerSlice);
  lowerings.on("CenterCropPad", 18, lowerCenterCropPad);
  lowerings.on("ReverseSequence", 10, lowerReverseSequence);
  lowerings.on("Expand", 8, lowerExpand);
}
