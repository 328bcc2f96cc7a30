//===- Tensor.cpp - ONNX tensor construction and rearrangement to ATen ----===//
//
// Part of the torch2mlir project.
//
// Split, Tile, Pad, Trilu, Range, Size, Hardmax, EyeLike, OneHot,
// DepthToSpace, SpaceToDepth, Einsum, DFT, the window functions, Compress
// and NonZero. Their size-like inputs
// (split, repeats, pads, k, Range's bounds) are often graph inputs rather
// than constants; when the result sizes are static (ONNX shape inference or
// the model's declared outputs) they stand in for what only the values
// would say, and what remains (pad offsets, the diagonal k, Range's start
// and delta) is computed at run time with index arithmetic: arange,
// comparisons, where and index_select.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

/// The positions of the first `count` true elements of the 1-D bool tensor
/// `mask` ([M]), as si64 [count]: with r the inclusive running count of
/// trues, position k is the number of elements whose r is <= k.
Value createTruePositions(PatternRewriter &rewriter, Location loc, Value mask,
                          int64_t count) {
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  int64_t m = cast<ValueTensorType>(mask.getType()).getSizes()[0];
  Value code = createConstantInt(rewriter, loc, *getScalarTypeCode(si64));
  Value running =
      AtenCumsumOp::create(rewriter, loc, getTensorType(context, {m}, si64),
                           createToDtype(rewriter, loc, mask, si64),
                           createConstantInt(rewriter, loc, 0), code);
  running = createView(rewriter, loc, running, {1, m},
                       getTensorType(context, {1, m}, si64));
  Value k = createView(rewriter, loc, createArange(rewriter, loc, count),
                       {count, 1}, getTensorType(context, {count, 1}, si64));
  Value before = AtenLeTensorOp::create(
      rewriter, loc, getTensorType(context, {count, m}, rewriter.getI1Type()),
      running, k);
  return AtenSumDimIntListOp::create(
      rewriter, loc, getTensorType(context, {count}, si64),
      createToDtype(rewriter, loc, before, si64),
      createIntList(rewriter, loc, {1}),
      createConstantBool(rewriter, loc, false), code);
}

/// Compress(input, condition; axis?): the slices (elements, without axis,
/// of the flattened input) where condition is true. The number of trues
/// is the static result size; their positions are computed at run time.
LogicalResult lowerCompress(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), condition = binder.getOperand(1);
  auto inputType = getKnownTensorType(x);
  auto conditionType = condition ? getKnownTensorType(condition) : nullptr;
  auto resultType = binder.getResultType();
  if (!inputType || !conditionType || !resultType ||
      !inputType.areAllSizesKnown() || !resultType.areAllSizesKnown() ||
      !conditionType.areAllSizesKnown() || conditionType.getSizes().size() != 1)
    return binder.fail(rewriter, "needs static sizes and a 1-D condition");
  ArrayRef<int64_t> in = inputType.getSizes();
  int64_t rank = in.size();
  Location loc = binder.getLoc();
  Value input = x;
  int64_t axis = 0;
  if (binder.hasAttr("axis")) {
    if (failed(binder.getInt("axis", axis)) ||
        failed(normalizeAxis(axis, rank)))
      return binder.fail(rewriter, "axis must be an int in range");
  } else {
    int64_t numel = 1;
    for (int64_t size : in)
      numel *= size;
    input = createView(rewriter, loc, x, {numel}, withSizes(x, {numel}));
  }
  ArrayRef<int64_t> sizes = cast<ValueTensorType>(input.getType()).getSizes();
  ArrayRef<int64_t> out = resultType.getSizes();
  if (out.size() != sizes.size() || conditionType.getSizes()[0] > sizes[axis] ||
      out[axis] > conditionType.getSizes()[0])
    return binder.fail(rewriter, "the condition or result sizes do not fit "
                                 "the input");
  Value mask = condition;
  if (!conditionType.getDtype().isInteger(1))
    mask = createToDtype(rewriter, loc, condition, rewriter.getI1Type());
  Value positions = createTruePositions(rewriter, loc, mask, out[axis]);
  rewriter.replaceOpWithNewOp<AtenIndexSelectOp>(
      binder.getOp(), resultType, input, createConstantInt(rewriter, loc, axis),
      positions);
  return success();
}

/// NonZero(X): the indices [rank, K] of the K nonzero elements in row-major
/// order; K is the static result size, checked against the data at call
/// time. The flat positions (see
/// createTruePositions) are unraveled with floor divisions by the strides.
LogicalResult lowerNonZero(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType || !inputType.areAllSizesKnown() ||
      !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: dynamic input or result sizes "
                                 "(the number of nonzeros must be static)");
  ArrayRef<int64_t> in = inputType.getSizes();
  int64_t rank = in.size();
  ArrayRef<int64_t> out = resultType.getSizes();
  if (rank == 0 || out.size() != 2 || out[0] != rank)
    return binder.fail(rewriter, "unsupported: a 0-d input, or a result that "
                                 "is not [rank, K]");
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  Type si64 = getSi64Type(context);
  int64_t count = out[1], numel = 1;
  for (int64_t size : in)
    numel *= size;
  Value flat = createView(rewriter, loc, x, {numel}, withSizes(x, {numel}));
  Value mask = flat;
  if (!inputType.getDtype().isInteger(1))
    mask = AtenNeScalarOp::create(
        rewriter, loc, getTensorType(context, {numel}, rewriter.getI1Type()),
        flat, createConstantInt(rewriter, loc, 0));
  // K comes from the declaration, the true count from the data: they must
  // agree at call time (else the result would be padded or cut short).
  Value asInt = createToDtype(rewriter, loc, mask, si64);
  Value none = ConstantNoneOp::create(rewriter, loc);
  Value found = AtenSumOp::create(
      rewriter, loc, getTensorType(context, {}, si64), asInt, none);
  if (failed(assertValuesEqual(rewriter, loc, found, {count},
                               "NonZero node's count of nonzero elements "
                               "(its declared result size)")))
    return binder.fail(rewriter, "cannot check the count of nonzeros");
  Value positions = createTruePositions(rewriter, loc, mask, count);
  SmallVector<Value> rows;
  for (Value index : createUnravelIndex(rewriter, loc, positions, in))
    rows.push_back(createView(rewriter, loc, index, {1, count},
                              getTensorType(context, {1, count}, si64)));
  rewriter.replaceOpWithNewOp<AtenCatOp>(binder.getOp(), resultType,
                                         createTensorList(rewriter, loc, rows),
                                         createConstantInt(rewriter, loc, 0));
  return success();
}

/// Size: the element count of a tensor with static sizes, an int64 0-d
/// literal.
LogicalResult lowerSize(const OpBinder &binder, PatternRewriter &rewriter) {
  auto inputType = getKnownTensorType(binder.getOperand(0));
  auto resultType = binder.getResultType();
  if (!inputType || !inputType.areAllSizesKnown() || !resultType)
    return binder.fail(rewriter,
                       "unsupported: Size of a tensor with dynamic sizes");
  int64_t count = 1;
  for (int64_t size : inputType.getSizes())
    count *= size;
  Value result = ValueTensorLiteralOp::create(
      rewriter, binder.getLoc(), resultType,
      DenseElementsAttr::get(RankedTensorType::get({}, rewriter.getI64Type()),
                             rewriter.getI64IntegerAttr(count)));
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// OptionalHasElement: false with no input (none, or omitted), true with a
/// plain tensor input (an optional that always holds it); a 0-d bool.
LogicalResult lowerOptionalHasElement(const OpBinder &binder,
                                      PatternRewriter &rewriter) {
  auto resultType = binder.getResultType();
  if (!resultType || !resultType.getSizes().empty() ||
      !resultType.getDtype().isInteger(1))
    return binder.fail(rewriter, "OptionalHasElement needs a 0-d bool result");
  Value input = binder.getOperand(0);
  if (input && !isa<ValueTensorType>(input.getType()))
    return binder.fail(rewriter, "unsupported: OptionalHasElement of an "
                                 "optional or sequence value (only a tensor "
                                 "or no input)");
  Value result = ValueTensorLiteralOp::create(
      rewriter, binder.getLoc(), resultType,
      DenseElementsAttr::get(RankedTensorType::get({}, rewriter.getI1Type()),
                             static_cast<bool>(input)));
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// OptionalGetElement of a plain tensor: the tensor itself.
LogicalResult lowerOptionalGetElement(const OpBinder &binder,
                                      PatternRewriter &rewriter) {
  Value input = binder.getOperand(0);
  auto resultType = binder.getAnyResultType();
  if (!input || !isa<ValueTensorType>(input.getType()) || !resultType)
    return binder.fail(rewriter, "unsupported: OptionalGetElement of an "
                                 "optional or sequence value, or of no input "
                                 "(only a tensor)");
  if (input.getType() != resultType)
    input = TensorStaticInfoCastOp::create(rewriter, binder.getLoc(),
                                           resultType, input);
  rewriter.replaceOp(binder.getOp(), input);
  return success();
}

/// The sizes of Split's outputs along the axis of size `dimSize`: the
/// `split` attribute (opset < 13) or constant input, else the outputs'
/// static sizes, else `num_outputs` (18+) or as many equal parts as
/// outputs (the last smaller when uneven).
LogicalResult getSplitSizes(const OpBinder &binder, int64_t axis,
                            int64_t dimSize, SmallVectorImpl<int64_t> &sizes,
                            bool &declared) {
  declared = false;
  int64_t numOutputs = binder.getNumResults();
  if (binder.getOpsetVersion() < 13) {
    if (failed(binder.getInts("split", sizes)))
      return failure();
  } else if (binder.getOperand(1)) {
    if (failed(binder.getConstantInts(1, sizes))) {
      sizes.clear();
      for (int64_t i = 0; i < numOutputs; ++i) {
        auto type = binder.getResultType(i);
        if (!type || static_cast<int64_t>(type.getSizes().size()) <= axis ||
            type.getSizes()[axis] == kUnknownSize)
          return failure();
        sizes.push_back(type.getSizes()[axis]);
      }
      // Declared, not computed: the lowering checks them at run time.
      declared = true;
    }
  }
  if (sizes.empty()) {
    if (dimSize == kUnknownSize)
      return failure();
    int64_t parts = numOutputs;
    if (binder.getOpsetVersion() >= 18 &&
        failed(binder.getInt("num_outputs", parts, numOutputs)))
      return failure();
    if (parts != numOutputs || parts <= 0)
      return failure();
    int64_t each = (dimSize + parts - 1) / parts;
    for (int64_t i = 0; i < parts; ++i)
      sizes.push_back(std::clamp<int64_t>(dimSize - i * each, 0, each));
  }
  if (static_cast<int64_t>(sizes.size()) != numOutputs)
    return failure();
  if (dimSize != kUnknownSize &&
      std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != dimSize)
    return failure();
  return success();
}

/// Split: one aten.slice.Tensor per output.
LogicalResult lowerSplit(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  int64_t axis;
  if (!inputType || failed(binder.getInt("axis", axis, 0)))
    return binder.fail(rewriter, "needs a known rank and dtype");
  int64_t rank = inputType.getSizes().size();
  if (failed(normalizeAxis(axis, rank)))
    return binder.fail(rewriter, "axis out of range");
  SmallVector<int64_t> splitSizes;
  bool declared;
  int64_t dimSize = inputType.getSizes()[axis];
  if (failed(getSplitSizes(binder, axis, dimSize, splitSizes, declared)))
    return binder.fail(rewriter,
                       "unsupported: split sizes computed at run time (and "
                       "outputs without static sizes), or split sizes that do "
                       "not add up to the dim");
  for (unsigned i = 0; i < binder.getNumResults(); ++i)
    if (!binder.getAnyResultType(i))
      return binder.fail(rewriter, "outputs must be tensors");
  Location loc = binder.getLoc();
  if (declared) {
    // The run-time split must be what the result types say, and (with a
    // dynamic dim) add up to the dim: otherwise the slices are not the
    // declared sizes.
    if (failed(assertValuesEqual(rewriter, loc, binder.getOperand(1),
                                 splitSizes, "Split node's split sizes")))
      return binder.fail(rewriter, "split must be a 1-D integer tensor of "
                                   "one static size per output");
    if (dimSize == kUnknownSize) {
      int64_t total =
          std::accumulate(splitSizes.begin(), splitSizes.end(), int64_t{0});
      assertDimSize(rewriter, loc, x, axis, total,
                    "this Split node's input size along the axis differs "
                    "from the sum of its declared result sizes");
    }
  }
  Value dim = createConstantInt(rewriter, loc, axis);
  Value one = createConstantInt(rewriter, loc, 1);
  SmallVector<Value> results;
  int64_t offset = 0;
  for (auto [i, size] : llvm::enumerate(splitSizes)) {
    Value part = AtenSliceTensorOp::create(
        rewriter, loc, binder.getAnyResultType(i), x, dim,
        createConstantInt(rewriter, loc, offset),
        createConstantInt(rewriter, loc, offset + size), one);
    results.push_back(part);
    offset += size;
  }
  rewriter.replaceOp(binder.getOp(), results);
  return success();
}

/// The si64 [rows, cols] tensor col - row: which diagonal each element is
/// on (0 the main one, > 0 above it).
Value createDiagonalOffsets(PatternRewriter &rewriter, Location loc,
                            int64_t rows, int64_t cols) {
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  Value row = createView(rewriter, loc, createArange(rewriter, loc, rows),
                         {rows, 1}, getTensorType(context, {rows, 1}, si64));
  Value col = createView(rewriter, loc, createArange(rewriter, loc, cols),
                         {1, cols}, getTensorType(context, {1, cols}, si64));
  return AtenSubTensorOp::create(rewriter, loc,
                                 getTensorType(context, {rows, cols}, si64),
                                 col, row, createConstantInt(rewriter, loc, 1));
}

/// Trilu(x, k): keeps the elements of the last two dims [N, M] with
/// col - row >= k (upper) or <= k (lower), zeroing the rest. k may be
/// computed at run time.
LogicalResult lowerTrilu(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), k = binder.getOperand(1);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t upper;
  if (!inputType || !resultType || failed(binder.getInt("upper", upper, 1)))
    return binder.fail(rewriter, "needs known sizes, dtypes and an int upper");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  if (sizes.size() < 2)
    return binder.fail(rewriter, "the input must have rank >= 2");
  int64_t rows = sizes[sizes.size() - 2], cols = sizes.back();
  if (rows == kUnknownSize || cols == kUnknownSize)
    return binder.fail(rewriter, "unsupported: dynamic sizes of the last two "
                                 "dims");
  if (rows == 0 || cols == 0) {
    // Nothing to zero.
    Value result = x;
    if (result.getType() != resultType)
      result = TensorStaticInfoCastOp::create(rewriter, binder.getLoc(),
                                              resultType, x);
    rewriter.replaceOp(binder.getOp(), result);
    return success();
  }
  auto kType = getKnownTensorType(k);
  if (k && (!kType || !kType.getSizes().empty() ||
            !isa<IntegerType>(kType.getDtype())))
    return binder.fail(rewriter, "k must be a 0-d integer tensor");
  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  auto maskType = getTensorType(context, {rows, cols}, rewriter.getI1Type());
  Value diff = createDiagonalOffsets(rewriter, loc, rows, cols);
  Value diagonal = k ? createToDtype(rewriter, loc, k, si64)
                     : createScalarLiteral(rewriter, loc, si64, 0);
  Value keep =
      upper ? AtenGeTensorOp::create(rewriter, loc, maskType, diff, diagonal)
                  .getResult()
            : AtenLeTensorOp::create(rewriter, loc, maskType, diff, diagonal)
                  .getResult();
  rewriter.replaceOpWithNewOp<AtenWhereSelfOp>(
      binder.getOp(), resultType, keep, x,
      createScalarLiteral(rewriter, loc, resultType.getDtype(), 0));
  return success();
}

/// The value of a one-element literal tensor, as a double.
std::optional<double> getLiteralScalar(Value value) {
  auto literal = value ? value.getDefiningOp<ValueTensorLiteralOp>() : nullptr;
  auto elements =
      literal ? dyn_cast<DenseElementsAttr>(literal.getValue()) : nullptr;
  if (!elements || elements.getNumElements() != 1)
    return std::nullopt;
  if (isa<mlir::FloatType>(elements.getElementType()))
    return (*elements.getValues<APFloat>().begin()).convertToDouble();
  APInt v = *elements.getValues<APInt>().begin();
  return elements.getElementType().isUnsignedInteger()
             ? static_cast<double>(v.getZExtValue())
             : static_cast<double>(v.getSExtValue());
}

/// Range(start, limit, delta): start + arange(n) * delta in the inputs'
/// dtype, with n = max(ceil((limit - start) / delta), 0). n comes from the
/// static result size, or from the inputs when they are literals; start
/// and delta may be computed at run time.
LogicalResult lowerRange(const OpBinder &binder, PatternRewriter &rewriter) {
  Value start = binder.getOperand(0), limit = binder.getOperand(1),
        delta = binder.getOperand(2);
  auto startType = getKnownTensorType(start);
  auto deltaType = getKnownTensorType(delta);
  auto resultType = binder.getAnyResultType();
  if (!startType || !deltaType || !resultType || !resultType.hasDtype())
    return binder.fail(rewriter, "needs known sizes and dtypes");
  Type dtype = resultType.getDtype();
  if (startType.getDtype() != dtype || deltaType.getDtype() != dtype)
    return binder.fail(rewriter,
                       "start and delta must have the result's dtype");
  int64_t n = kUnknownSize;
  if (resultType.hasSizes() && resultType.getSizes().size() == 1)
    n = resultType.getSizes()[0];
  std::optional<double> first = getLiteralScalar(start),
                        last = getLiteralScalar(limit),
                        step = getLiteralScalar(delta);
  bool computed = first && last && step && *step != 0.0;
  if (computed) {
    int64_t count = std::max<int64_t>(
        static_cast<int64_t>(std::ceil((*last - *first) / *step)), 0);
    if (n != kUnknownSize && n != count)
      return binder.fail(rewriter, "the declared result size contradicts "
                                   "start, limit and delta");
    n = count;
  }
  if (n == kUnknownSize)
    return binder.fail(rewriter, "unsupported: a result size that depends on "
                                 "values computed at run time");
  Location loc = binder.getLoc();
  if (!computed) {
    // The size comes from the declared result type: check
    // max(ceil((limit - start) / delta), 0) == n when the program runs.
    MLIRContext *context = rewriter.getContext();
    Type f64 = rewriter.getF64Type();
    auto scalarType = getTensorType(context, {}, f64);
    auto boolType = getTensorType(context, {}, rewriter.getI1Type());
    auto asF64 = [&](Value value) {
      return createToDtype(
          rewriter, loc,
          createView(rewriter, loc, value, {}, withSizes(value, {})), f64);
    };
    if (!getKnownTensorType(limit) || !getKnownTensorType(limit).hasSizes() ||
        !startType.hasSizes() || !deltaType.hasSizes())
      return binder.fail(rewriter, "start, limit and delta need known sizes");
    Value span = AtenSubTensorOp::create(rewriter, loc, scalarType,
                                         asF64(limit), asF64(start),
                                         createConstantInt(rewriter, loc, 1));
    Value steps = AtenCeilOp::create(
        rewriter, loc, scalarType,
        AtenDivTensorOp::create(rewriter, loc, scalarType, span, asF64(delta)));
    Value count = createConstantInt(rewriter, loc, n);
    Value matches =
        n == 0 ? AtenLeScalarOp::create(rewriter, loc, boolType, steps, count)
                     .getResult()
               : AtenEqScalarOp::create(rewriter, loc, boolType, steps, count)
                     .getResult();
    RuntimeAssertOp::create(
        rewriter, loc,
        AtenItemOp::create(rewriter, loc, BoolType::get(context), matches),
        rewriter.getStringAttr(
            "this Range node's start, limit and delta at run time give "
            "another number of elements than its declared result size (a "
            "graph output or value_info declaration the data contradicts)"));
  }
  auto staticType = getTensorType(rewriter.getContext(), {n}, dtype);
  Value steps =
      createToDtype(rewriter, loc, createArange(rewriter, loc, n), dtype);
  Value scaled =
      AtenMulTensorOp::create(rewriter, loc, staticType, steps, delta);
  Value result =
      AtenAddTensorOp::create(rewriter, loc, staticType, scaled, start,
                              createConstantInt(rewriter, loc, 1));
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// Tile(x, repeats) with static input and result sizes (repeats =
/// result / input per dim): x viewed as [1, d0, 1, d1, ...], expanded to
/// [r0, d0, r1, d1, ...] and viewed as the result.
LogicalResult lowerTile(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType || !inputType.areAllSizesKnown() ||
      !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: dynamic input or result sizes");
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  if (in.size() != out.size())
    return binder.fail(rewriter, "the result must have the input's rank");
  SmallVector<int64_t> repeats;
  SmallVector<int64_t> constantRepeats;
  bool isConstant = succeeded(binder.getConstantInts(1, constantRepeats));
  if (isConstant && constantRepeats.size() != in.size())
    return binder.fail(rewriter, "repeats must hold one value per dim");
  for (auto [i, size] : llvm::enumerate(in)) {
    int64_t repeat = size == 0 ? (out[i] == 0 ? 1 : -1) : out[i] / size;
    if (repeat < 0 || (size != 0 && out[i] % size != 0) ||
        (isConstant && size != 0 && constantRepeats[i] != repeat))
      return binder.fail(rewriter, "the result sizes are not a multiple of "
                                   "the input's");
    repeats.push_back(repeat);
  }
  Location loc = binder.getLoc();
  SmallVector<int64_t> interleaved, expanded;
  for (auto [size, repeat] : llvm::zip_equal(in, repeats)) {
    interleaved.append({1, size});
    expanded.append({repeat, size});
  }
  Value view =
      createView(rewriter, loc, x, interleaved, withSizes(x, interleaved));
  Value broadcast =
      AtenExpandOp::create(rewriter, loc, withSizes(x, expanded), view,
                           createIntList(rewriter, loc, expanded),
                           createConstantBool(rewriter, loc, false));
  rewriter.replaceOp(binder.getOp(),
                     createView(rewriter, loc, broadcast, out, resultType));
  return success();
}

/// The begin pad of each padded axis, as written in the model.
struct PadSpec {
  SmallVector<int64_t> axes;
  /// Constant pads (begin..., end...), or empty when computed at run time.
  SmallVector<int64_t> constantPads;
  /// The pads input (opset 11+), when not constant.
  Value pads;
};

/// Pad with pads computed at run time, or in edge/reflect/wrap mode: for
/// each padded axis d, the source index of output position i is
/// i - begin[d], mapped into [0, in) by the mode (clamped for edge and
/// constant, mirrored for reflect, modulo for wrap) and gathered with
/// index_select; constant mode then puts `value` where the source index
/// was out of range.
Value createGatherPad(PatternRewriter &rewriter, Location loc, Value x,
                      ValueTensorType resultType, const PadSpec &spec,
                      StringRef mode, Value value) {
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  ArrayRef<int64_t> in = cast<ValueTensorType>(x.getType()).getSizes();
  ArrayRef<int64_t> out = resultType.getSizes();
  int64_t rank = in.size();
  Value one = createConstantInt(rewriter, loc, 1);
  Value zero = createConstantInt(rewriter, loc, 0);
  SmallVector<int64_t> sizes(in);
  Value result = x;
  for (auto [i, axis] : llvm::enumerate(spec.axes)) {
    int64_t n = in[axis], m = out[axis];
    auto indexType = getTensorType(context, {m}, si64);
    auto maskType = getTensorType(context, {m}, rewriter.getI1Type());
    Value begin;
    if (spec.pads) {
      begin = AtenSelectIntOp::create(
          rewriter, loc, getTensorType(context, {}, si64), spec.pads, zero,
          createConstantInt(rewriter, loc, i));
      begin = createToDtype(rewriter, loc, begin, si64);
    } else {
      begin = createScalarLiteral(rewriter, loc, si64, spec.constantPads[i]);
    }
    Value source = AtenSubTensorOp::create(
        rewriter, loc, indexType, createArange(rewriter, loc, m), begin, one);
    Value inRange;
    if (mode == "constant") {
      inRange = AtenLogicalAndOp::create(
          rewriter, loc, maskType,
          AtenGeScalarOp::create(rewriter, loc, maskType, source, zero),
          AtenLtScalarOp::create(rewriter, loc, maskType, source,
                                 createConstantInt(rewriter, loc, n)));
    } else if (mode == "reflect") {
      // (n - 1) - |(n - 1) - |i||.
      Value last = createConstantInt(rewriter, loc, n - 1);
      Value distance = AtenAbsOp::create(rewriter, loc, indexType, source);
      Value fromEnd =
          AtenAbsOp::create(rewriter, loc, indexType,
                            AtenRsubScalarOp::create(rewriter, loc, indexType,
                                                     distance, last, one));
      source = AtenRsubScalarOp::create(rewriter, loc, indexType, fromEnd, last,
                                        one);
    } else if (mode == "wrap") {
      Value quotient = AtenDivTensorModeOp::create(
          rewriter, loc, indexType, source,
          createScalarLiteral(rewriter, loc, si64, n),
          ConstantStrOp::create(rewriter, loc, StringType::get(context),
                                rewriter.getStringAttr("floor")));
      source = AtenSubTensorOp::create(
          rewriter, loc, indexType, source,
          AtenMulScalarOp::create(rewriter, loc, indexType, quotient,
                                  createConstantInt(rewriter, loc, n)),
          one);
    }
    source = AtenClampOp::create(rewriter, loc, indexType, source, zero,
                                 createConstantInt(rewriter, loc, n - 1));
    sizes[axis] = m;
    auto stepType = withSizes(x, sizes);
    result = AtenIndexSelectOp::create(rewriter, loc, stepType, result,
                                       createConstantInt(rewriter, loc, axis),
                                       source);
    if (inRange) {
      SmallVector<int64_t> maskSizes(rank, 1);
      maskSizes[axis] = m;
      Value mask =
          createView(rewriter, loc, inRange, maskSizes,
                     getTensorType(context, maskSizes, rewriter.getI1Type()));
      result =
          AtenWhereSelfOp::create(rewriter, loc, stepType, mask, result, value);
    }
  }
  return result;
}

/// Pad (opset 2: attributes; 11: pads and constant_value inputs; 18: axes
/// input; 19: wrap mode). Constant pads >= 0 in constant mode with a
/// constant value become aten.constant_pad_nd; everything else, including
/// pads computed at run time, goes through createGatherPad, which needs
/// static input and result sizes.
LogicalResult lowerPad(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  std::string mode;
  if (!inputType || !resultType ||
      failed(binder.getString("mode", mode, "constant")))
    return binder.fail(rewriter, "needs known sizes, dtypes and a string mode");
  if (mode != "constant" && mode != "edge" && mode != "reflect" &&
      mode != "wrap")
    return binder.fail(rewriter, "unsupported mode '" + mode + "'");
  int64_t rank = inputType.getSizes().size();
  bool fromAttributes = binder.getOpsetVersion() < 11;
  PadSpec spec;
  // The padded axes (18+: an optional constant input).
  if (!fromAttributes && binder.getOperand(3)) {
    if (failed(binder.getConstantInts(3, spec.axes)))
      return binder.fail(rewriter, "unsupported: axes computed at run time");
    for (int64_t &axis : spec.axes)
      if (failed(normalizeAxis(axis, rank)))
        return binder.fail(rewriter, "axis out of range");
  } else {
    for (int64_t d = 0; d < rank; ++d)
      spec.axes.push_back(d);
  }
  int64_t numAxes = spec.axes.size();
  if (fromAttributes) {
    if (failed(binder.getInts("pads", spec.constantPads)))
      return binder.fail(rewriter, "pads must be ints");
  } else if (failed(binder.getConstantInts(1, spec.constantPads))) {
    spec.pads = binder.getOperand(1);
    auto padsType = getKnownTensorType(spec.pads);
    if (!padsType || padsType.getSizes().size() != 1 ||
        !isa<IntegerType>(padsType.getDtype()) ||
        (padsType.getSizes()[0] != kUnknownSize &&
         padsType.getSizes()[0] != 2 * numAxes))
      return binder.fail(rewriter, "pads must be a 1-D integer tensor with "
                                   "two values per padded axis");
    spec.constantPads.clear();
  }
  if (!spec.pads &&
      static_cast<int64_t>(spec.constantPads.size()) != 2 * numAxes)
    return binder.fail(rewriter, "pads must hold two values per padded axis");

  // The pad value: a float attribute (opset < 11) or an optional 0-d input.
  Location loc = binder.getLoc();
  Type dtype = resultType.getDtype();
  double attrValue = 0.0;
  Value valueTensor;
  if (fromAttributes) {
    if (failed(binder.getFloat("value", attrValue, 0.0)))
      return binder.fail(rewriter, "value must be a float");
  } else if (Value value = binder.getOperand(2)) {
    auto valueType = getKnownTensorType(value);
    if (!valueType || valueType.getDtype() != dtype ||
        (valueType.getSizes().size() > 1) ||
        (valueType.getSizes().size() == 1 && valueType.getSizes()[0] != 1))
      return binder.fail(rewriter, "constant_value must be one element of "
                                   "the input's dtype");
    // A literal value is read here, so that constant mode can use
    // aten.constant_pad_nd.
    auto literal = value.getDefiningOp<ValueTensorLiteralOp>();
    auto elements =
        literal ? dyn_cast<DenseElementsAttr>(literal.getValue()) : nullptr;
    if (elements && elements.isSplat() &&
        isa<mlir::FloatType>(elements.getElementType()))
      attrValue = elements.getSplatValue<APFloat>().convertToDouble();
    else if (elements && elements.isSplat())
      attrValue =
          static_cast<double>(elements.getSplatValue<APInt>().getSExtValue());
    else
      valueTensor = value;
  }

  bool allNonNegative =
      llvm::all_of(spec.constantPads, [](int64_t pad) { return pad >= 0; });
  if (mode == "constant" && !spec.pads && !valueTensor && allNonNegative) {
    // aten.constant_pad_nd lists (begin, end) from the last dim backward.
    SmallVector<int64_t> begin(rank, 0), end(rank, 0);
    for (auto [i, axis] : llvm::enumerate(spec.axes)) {
      begin[axis] = spec.constantPads[i];
      end[axis] = spec.constantPads[numAxes + i];
    }
    SmallVector<int64_t> padList;
    for (int64_t d = rank - 1; d >= 0; --d)
      padList.append({begin[d], end[d]});
    Value fill =
        isa<mlir::FloatType>(dtype)
            ? createConstantFloat(rewriter, loc, attrValue)
            : createConstantInt(rewriter, loc, static_cast<int64_t>(attrValue));
    rewriter.replaceOpWithNewOp<AtenConstantPadNdOp>(
        binder.getOp(), resultType, x, createIntList(rewriter, loc, padList),
        fill);
    return success();
  }
  if (!inputType.areAllSizesKnown() || !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: pads computed at run time, "
                                 "negative pads or a non-constant mode with "
                                 "dynamic input or result sizes");
  if (spec.pads) {
    // Run-time pads must grow each padded axis to its declared size:
    // begin + end = out - in.
    MLIRContext *context = rewriter.getContext();
    Type si64 = getSi64Type(context);
    SmallVector<int64_t> growth;
    for (int64_t axis : spec.axes)
      growth.push_back(resultType.getSizes()[axis] -
                       inputType.getSizes()[axis]);
    Value pairs =
        createView(rewriter, loc, createToDtype(rewriter, loc, spec.pads, si64),
                   {2, numAxes}, getTensorType(context, {2, numAxes}, si64));
    Value totals = AtenSumDimIntListOp::create(
        rewriter, loc, getTensorType(context, {numAxes}, si64), pairs,
        createIntList(rewriter, loc, {0}),
        createConstantBool(rewriter, loc, false),
        createConstantNone(rewriter, loc));
    if (failed(assertValuesEqual(rewriter, loc, totals, growth,
                                 "Pad node's pads (begin + end per axis)")))
      return binder.fail(rewriter, "pads must be a 1-D integer tensor");
  }
  if (mode == "constant" && !valueTensor)
    valueTensor = createScalarLiteral(rewriter, loc, dtype, attrValue);
  else if (valueTensor &&
           cast<ValueTensorType>(valueTensor.getType()).getSizes().size() == 1)
    valueTensor = createView(rewriter, loc, valueTensor, {},
                             getTensorType(rewriter.getContext(), {}, dtype));
  rewriter.replaceOp(
      binder.getOp(),
      createGatherPad(rewriter, loc, x, resultType, spec, mode, valueTensor));
  return success();
}

/// Hardmax: 1 at the first maximum along `axis`, 0 elsewhere:
/// arange(n) == argmax(x, axis, keepdim), converted to x's dtype. Before
/// opset 13 the input was coerced to 2-D at `axis`, which is the same
/// when `axis` is the last dim.
LogicalResult lowerHardmax(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known sizes and dtypes");
  bool coerce2d = binder.getOpsetVersion() < 13;
  int64_t rank = inputType.getSizes().size(), axis;
  if (failed(binder.getInt("axis", axis, coerce2d ? 1 : -1)) ||
      failed(normalizeAxis(axis, rank)))
    return binder.fail(rewriter, "axis out of range");
  if (coerce2d && axis != rank - 1)
    return binder.fail(rewriter, "unsupported: the 2-D coercion of opset < 13 "
                                 "at an axis other than the last");
  int64_t n = inputType.getSizes()[axis];
  if (n == kUnknownSize)
    return binder.fail(rewriter, "unsupported: a dynamic size along axis");
  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  SmallVector<int64_t> keptSizes(inputType.getSizes());
  keptSizes[axis] = 1;
  Value argmax = AtenArgmaxOp::create(rewriter, loc,
                                      getTensorType(context, keptSizes, si64),
                                      x, createConstantInt(rewriter, loc, axis),
                                      createConstantBool(rewriter, loc, true));
  SmallVector<int64_t> positionSizes(rank, 1);
  positionSizes[axis] = n;
  Value positions =
      createView(rewriter, loc, createArange(rewriter, loc, n), positionSizes,
                 getTensorType(context, positionSizes, si64));
  Value isMax = AtenEqTensorOp::create(
      rewriter, loc,
      getTensorType(context, resultType.getSizes(), rewriter.getI1Type()),
      positions, argmax);
  rewriter.replaceOp(binder.getOp(), createToDtype(rewriter, loc, isMax,
                                                   resultType.getDtype()));
  return success();
}

/// EyeLike(x, dtype, k): ones on the k-th diagonal of a static 2-D shape
/// (the declared result's; a run-time input size is checked against it).
LogicalResult lowerEyeLike(const OpBinder &binder, PatternRewriter &rewriter) {
  auto resultType = binder.getResultType();
  int64_t k;
  if (!resultType || !resultType.areAllSizesKnown() ||
      resultType.getSizes().size() != 2 || failed(binder.getInt("k", k, 0)))
    return binder.fail(rewriter, "needs a static 2-D result and an int k");
  if (!getScalarTypeCode(resultType.getDtype()))
    return binder.fail(rewriter, "unsupported result dtype");
  Location loc = binder.getLoc();
  int64_t rows = resultType.getSizes()[0], cols = resultType.getSizes()[1];
  // The result has the input's shape: a run-time input size must be the
  // declared one.
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  if (!inputType || inputType.getSizes().size() != 2)
    return binder.fail(rewriter, "needs a 2-D input of known rank");
  for (int64_t i = 0; i < 2; ++i) {
    int64_t declared = resultType.getSizes()[i];
    int64_t size = inputType.getSizes()[i];
    if (size != kUnknownSize) {
      if (size != declared)
        return binder.fail(rewriter, "the input's sizes differ from the "
                                     "declared result's");
      continue;
    }
    assertDimSize(rewriter, loc, x, i, declared,
                  "this EyeLike node's input has a size at run time other "
                  "than " +
                      Twine(declared) + " along dim " + Twine(i) +
                      ", the size its declared result gives (a graph output "
                      "or value_info declaration the data contradicts)");
  }
  Value onDiagonal = AtenEqScalarOp::create(
      rewriter, loc,
      getTensorType(rewriter.getContext(), {rows, cols}, rewriter.getI1Type()),
      createDiagonalOffsets(rewriter, loc, rows, cols),
      createConstantInt(rewriter, loc, k));
  rewriter.replaceOp(binder.getOp(), createToDtype(rewriter, loc, onDiagonal,
                                                   resultType.getDtype()));
  return success();
}

/// DepthToSpace / SpaceToDepth with static NCHW sizes: a view that splits
/// the moved dims, a permutation, a view that merges them. In DCR mode the
/// channel index is (block row, block col, channel), in CRD mode
/// (channel, block row, block col).
template <bool isDepthToSpace>
LogicalResult lowerBlockRearrange(const OpBinder &binder,
                                  PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t b;
  std::string mode;
  if (!inputType || !resultType || failed(binder.getInt("blocksize", b)) ||
      failed(binder.getString("mode", mode, "DCR")))
    return binder.fail(rewriter, "needs known sizes, dtypes and an int "
                                 "blocksize");
  if (!inputType.areAllSizesKnown() || inputType.getSizes().size() != 4)
    return binder.fail(rewriter, "unsupported: a non-4-D input or dynamic "
                                 "sizes");
  if (mode != "DCR" && mode != "CRD")
    return binder.fail(rewriter, "unsupported mode '" + mode + "'");
  ArrayRef<int64_t> s = inputType.getSizes();
  int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  bool dcr = mode == "DCR";
  SmallVector<int64_t> split, perm;
  if constexpr (isDepthToSpace) {
    if (b <= 0 || c % (b * b) != 0)
      return binder.fail(rewriter, "channels must be a multiple of "
                                   "blocksize^2");
    int64_t depth = c / (b * b);
    split = dcr ? SmallVector<int64_t>{n, b, b, depth, h, w}
                : SmallVector<int64_t>{n, depth, b, b, h, w};
    perm = dcr ? SmallVector<int64_t>{0, 3, 4, 1, 5, 2}
               : SmallVector<int64_t>{0, 1, 4, 2, 5, 3};
  } else {
    if (b <= 0 || h % b != 0 || w % b != 0)
      return binder.fail(rewriter, "height and width must be multiples of "
                                   "blocksize");
    split = {n, c, h / b, b, w / b, b};
    perm = dcr ? SmallVector<int64_t>{0, 3, 5, 1, 2, 4}
               : SmallVector<int64_t>{0, 1, 3, 5, 2, 4};
  }
  Location loc = binder.getLoc();
  Value view = createView(rewriter, loc, x, split, withSizes(x, split));
  Value permuted = createPermute(rewriter, loc, view, perm);
  rewriter.replaceOp(
      binder.getOp(),
      createView(rewriter, loc, permuted, resultType.getSizes(), resultType));
  return success();
}

/// OneHot(indices, depth, values = [off, on], axis): on where
/// arange(depth) (along the new axis) equals the index (negative ones
/// counting from depth), off elsewhere. depth is the result's static size
/// along axis.
LogicalResult lowerOneHot(const OpBinder &binder, PatternRewriter &rewriter) {
  Value indices = binder.getOperand(0), values = binder.getOperand(2);
  auto indicesType = getKnownTensorType(indices);
  auto valuesType = getKnownTensorType(values);
  auto resultType = binder.getResultType();
  int64_t axis;
  if (!indicesType || !valuesType || !resultType ||
      failed(binder.getInt("axis", axis, -1)))
    return binder.fail(rewriter, "needs known sizes, dtypes and an int axis");
  int64_t rank = resultType.getSizes().size();
  if (failed(normalizeAxis(axis, rank)))
    return binder.fail(rewriter, "axis out of range");
  int64_t depth = resultType.getSizes()[axis];
  if (depth == kUnknownSize || !indicesType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: a depth or index sizes known "
                                 "only at run time");
  if (valuesType.getDtype() != resultType.getDtype())
    return binder.fail(rewriter, "values must have the result's dtype");
  SmallVector<int64_t> expectedSizes(indicesType.getSizes());
  expectedSizes.insert(expectedSizes.begin() + axis, depth);
  if (ArrayRef<int64_t>(expectedSizes) != resultType.getSizes())
    return binder.fail(rewriter, "the declared result sizes are not the "
                                 "indices' sizes with depth inserted at axis");
  Location loc = binder.getLoc();
  // depth is data; the lowering takes it from the declared result type.
  if (failed(assertValuesEqual(rewriter, loc, binder.getOperand(1), {depth},
                               "OneHot node's depth values")))
    return binder.fail(rewriter, "depth must be a one-element tensor of "
                                 "static size");
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  Value zero = createConstantInt(rewriter, loc, 0);
  Value one = createConstantInt(rewriter, loc, 1);
  Value index = wrapNegativeIndices(
      rewriter, loc, createToDtype(rewriter, loc, indices, si64), depth);
  SmallVector<int64_t> indexSizes(indicesType.getSizes());
  indexSizes.insert(indexSizes.begin() + axis, 1);
  index = AtenUnsqueezeOp::create(
      rewriter, loc, getTensorType(context, indexSizes, si64), index,
      createConstantInt(rewriter, loc, axis));
  SmallVector<int64_t> positionSizes(rank, 1);
  positionSizes[axis] = depth;
  Value positions =
      createView(rewriter, loc, createArange(rewriter, loc, depth),
                 positionSizes, getTensorType(context, positionSizes, si64));
  Value isOn = AtenEqTensorOp::create(
      rewriter, loc,
      getTensorType(context, resultType.getSizes(), rewriter.getI1Type()),
      positions, index);
  auto scalarType = getTensorType(context, {}, resultType.getDtype());
  Value off =
      AtenSelectIntOp::create(rewriter, loc, scalarType, values, zero, zero);
  Value on =
      AtenSelectIntOp::create(rewriter, loc, scalarType, values, zero, one);
  rewriter.replaceOpWithNewOp<AtenWhereSelfOp>(binder.getOp(), resultType, isOn,
                                               on, off);
  return success();
}

/// DFT(x [.., L, .., 1 or 2], dft_length, axis; inverse, onesided) along
/// one axis: a linear map of the real and imaginary parts, so matmuls by
/// constant [L, K] matrices of cosines and sines (zero columns past
/// dft_length truncate, zero padding is implicit). The inverse of a
/// one-sided spectrum (irfft) weighs the bins 0 < k < n/2 twice, for
/// their conjugate mirror, and returns the real part only. An axis
/// computed at run time (opset 20) picks among the dims whose sizes fit.
LogicalResult lowerDft(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t inverse, onesided;
  if (!inputType || !resultType || !inputType.areAllSizesKnown() ||
      !resultType.areAllSizesKnown() ||
      failed(binder.getInt("inverse", inverse, 0)) ||
      failed(binder.getInt("onesided", onesided, 0)))
    return binder.fail(rewriter, "needs static sizes, known dtypes and int "
                                 "attributes");
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  int64_t rank = in.size();
  Type dtype = inputType.getDtype();
  if (rank < 2 || (in.back() != 1 && in.back() != 2) ||
      static_cast<int64_t>(out.size()) != rank || !isa<mlir::FloatType>(dtype))
    return binder.fail(rewriter, "expects a float input [.., 1 or 2] and a "
                                 "result of its rank");
  bool realOutput = inverse && onesided;
  if (out.back() != (realOutput ? 1 : 2))
    return binder.fail(rewriter, "unexpected result channels");
  // The candidate axes: constant, else each dim whose sizes fit.
  SmallVector<int64_t> candidates;
  Value axisInput;
  if (binder.getOpsetVersion() >= 20) {
    SmallVector<int64_t> axis;
    if (!binder.getOperand(2)) {
      candidates.push_back(rank - 2);
    } else if (succeeded(binder.getConstantInts(2, axis))) {
      if (axis.size() != 1 || failed(normalizeAxis(axis[0], rank)))
        return binder.fail(rewriter, "axis out of range");
      candidates.push_back(axis[0]);
    } else {
      axisInput = binder.getOperand(2);
      for (int64_t d = 0; d < rank - 1; ++d)
        candidates.push_back(d);
    }
  } else {
    int64_t axis;
    if (failed(binder.getInt("axis", axis, 1)) ||
        failed(normalizeAxis(axis, rank)))
      return binder.fail(rewriter, "axis out of range");
    candidates.push_back(axis);
  }
  SmallVector<int64_t> dftLength;
  if (binder.getOperand(1) && failed(binder.getConstantInts(1, dftLength)))
    return binder.fail(rewriter, "unsupported: a dft_length computed at run "
                                 "time");
  // Keep the axes whose result sizes fit; the transform length of each.
  SmallVector<int64_t> axes, lengths;
  for (int64_t axis : candidates) {
    if (axis == rank - 1)
      continue;
    int64_t length = !dftLength.empty()    ? dftLength[0]
                     : inverse && onesided ? 2 * (in[axis] - 1)
                                           : in[axis];
    int64_t bins = onesided && !inverse ? length / 2 + 1 : length;
    bool fits = length > 0 && out[axis] == bins;
    for (int64_t d = 0; d < rank - 1; ++d)
      fits &= d == axis || in[d] == out[d];
    if (fits) {
      axes.push_back(axis);
      lengths.push_back(length);
    }
  }
  if (axes.empty())
    return binder.fail(rewriter, "no axis gives the result sizes");

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type element = getBuiltinElementType(dtype);
  auto type = [&](ArrayRef<int64_t> sizes) {
    return getTensorType(context, sizes, dtype);
  };
  SmallVector<int64_t> signalSizes(in.drop_back());
  auto part = [&](int64_t index) -> Value {
    return AtenSelectIntOp::create(rewriter, loc, type(signalSizes), x,
                                   createConstantInt(rewriter, loc, rank - 1),
                                   createConstantInt(rewriter, loc, index));
  };
  Value re = part(0);
  Value im = in.back() == 2 ? part(1) : Value();
  SmallVector<Value> results;
  for (auto [axis, n] : llvm::zip(axes, lengths)) {
    int64_t inLength = in[axis], outLength = out[axis];
    // out[k] = sum_j re[j] * a(k, j) + im[j] * b(k, j), per output part.
    auto matrix = [&](function_ref<double(int64_t, int64_t)> f) -> Value {
      SmallVector<Attribute> values;
      for (int64_t j = 0; j < inLength; ++j)
        for (int64_t k = 0; k < outLength; ++k)
          values.push_back(rewriter.getFloatAttr(element, j < n ? f(k, j) : 0));
      return ValueTensorLiteralOp::create(
          rewriter, loc, type({inLength, outLength}),
          DenseElementsAttr::get(
              RankedTensorType::get({inLength, outLength}, element), values));
    };
    auto angle = [&](int64_t k, int64_t j) { return 2 * M_PI * j * k / n; };
    double scale = inverse ? 1.0 / n : 1.0;
    // irfft: the spectrum's bin j stands for itself and its mirror n - j.
    auto weight = [&](int64_t j) {
      if (!realOutput || j == 0 || 2 * j == n)
        return 1.0;
      return 2 * j < n ? 2.0 : 0.0;
    };
    double sign = inverse ? 1.0 : -1.0;
    // e^{sign i t}: re' = re cos t - sign... written out per part.
    auto reFromRe = [&](int64_t k, int64_t j) {
      return scale * weight(j) * std::cos(angle(k, j));
    };
    auto reFromIm = [&](int64_t k, int64_t j) {
      return -sign * scale * weight(j) * std::sin(angle(k, j));
    };
    auto imFromRe = [&](int64_t k, int64_t j) {
      return sign * scale * std::sin(angle(k, j));
    };
    auto imFromIm = [&](int64_t k, int64_t j) {
      return scale * std::cos(angle(k, j));
    };
    SmallVector<int64_t> perm, inverseperm(rank - 1);
    for (int64_t d = 0; d < rank - 1; ++d)
      if (d != axis)
        perm.push_back(d);
    perm.push_back(axis);
    for (int64_t d = 0; d < rank - 1; ++d)
      inverseperm[perm[d]] = d;
    bool isLast = axis == rank - 2;
    auto moveLast = [&](Value value) {
      return isLast ? value : createPermute(rewriter, loc, value, perm);
    };
    SmallVector<int64_t> movedSizes;
    for (int64_t d : perm)
      movedSizes.push_back(in[d]);
    movedSizes.back() = outLength;
    auto apply = [&](function_ref<double(int64_t, int64_t)> fromRe,
                     function_ref<double(int64_t, int64_t)> fromIm) -> Value {
      Value sum = AtenMatmulOp::create(rewriter, loc, type(movedSizes),
                                       moveLast(re), matrix(fromRe));
      if (im)
        sum = AtenAddTensorOp::create(
            rewriter, loc, type(movedSizes), sum,
            AtenMatmulOp::create(rewriter, loc, type(movedSizes), moveLast(im),
                                 matrix(fromIm)),
            createConstantInt(rewriter, loc, 1));
      Value back =
          isLast ? sum : createPermute(rewriter, loc, sum, inverseperm);
      SmallVector<int64_t> sizes(
          cast<ValueTensorType>(back.getType()).getSizes());
      sizes.push_back(1);
      return createView(rewriter, loc, back, sizes, type(sizes));
    };
    Value result = apply(reFromRe, reFromIm);
    if (!realOutput)
      result = AtenCatOp::create(
          rewriter, loc, resultType,
          createTensorList(rewriter, loc, {result, apply(imFromRe, imFromIm)}),
          createConstantInt(rewriter, loc, rank - 1));
    if (result.getType() != resultType)
      result =
          TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
    results.push_back(result);
  }
  Value result = results.back();
  if (axisInput && axes.size() > 1) {
    Type si64 = getSi64Type(context);
    auto scalar = getTensorType(context, {}, si64);
    Value axisValue = createToDtype(rewriter, loc, axisInput, si64);
    if (!cast<ValueTensorType>(axisValue.getType()).getSizes().empty())
      axisValue = createView(rewriter, loc, axisValue, {}, scalar);
    axisValue = wrapNegativeIndices(rewriter, loc, axisValue, rank);
    for (int64_t i = axes.size() - 2; i >= 0; --i) {
      Value matches = AtenEqScalarOp::create(
          rewriter, loc, getTensorType(context, {}, rewriter.getI1Type()),
          axisValue, createConstantInt(rewriter, loc, axes[i]));
      result = AtenWhereSelfOp::create(rewriter, loc, resultType, matches,
                                       results[i], result);
    }
  }
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// STFT(signal [B, N, 1 or 2], frame_step, window [L]?, frame_length?;
/// onesided) -> [B, F, K, 2] with F = (N - L) / frame_step + 1 frames and
/// K = L / 2 + 1 bins (L without onesided): each frame's DFT of its
/// windowed samples. The frames and the DFT are one strided 1-D
/// convolution of the signal's parts (channels: real, imaginary) with a
/// kernel of 2K filters (each bin's real and imaginary coefficients),
/// multiplied by the window where there is one (a run-time input is
/// multiplied in at run time).
LogicalResult lowerStft(const OpBinder &binder, PatternRewriter &rewriter) {
  Value signal = binder.getOperand(0);
  auto signalType = getKnownTensorType(signal);
  auto resultType = binder.getResultType();
  int64_t onesided;
  if (!signalType || !resultType || !signalType.areAllSizesKnown() ||
      !resultType.areAllSizesKnown() ||
      failed(binder.getInt("onesided", onesided, 1)))
    return binder.fail(rewriter, "needs static sizes and known dtypes");
  ArrayRef<int64_t> in = signalType.getSizes(), out = resultType.getSizes();
  Type dtype = signalType.getDtype();
  if (in.size() != 3 || (in[2] != 1 && in[2] != 2) || out.size() != 4 ||
      out[3] != 2 || !isa<mlir::FloatType>(dtype) ||
      resultType.getDtype() != dtype)
    return binder.fail(rewriter, "expects a float signal [B, N, 1 or 2] and "
                                 "a result [B, F, K, 2] of its dtype");
  // frame_step and frame_length: constants, or run-time scalars whose
  // values the static result sizes determine (checked at run time).
  SmallVector<int64_t> stepValue, lengthValue;
  bool stepKnown =
      succeeded(binder.getConstantInts(1, stepValue)) && stepValue.size() == 1;
  Value window = binder.getOperand(2);
  auto windowType = window ? getKnownTensorType(window) : ValueTensorType();
  if (window && (!windowType || !windowType.areAllSizesKnown() ||
                 windowType.getSizes().size() != 1))
    return binder.fail(rewriter, "expects a window [frame_length]");
  bool hasLength = static_cast<bool>(binder.getOperand(3));
  bool lengthKnown = hasLength &&
                     succeeded(binder.getConstantInts(3, lengthValue)) &&
                     lengthValue.size() == 1;
  // A run-time frame_step / frame_length is one integer.
  for (unsigned index : {1u, 3u}) {
    if ((index == 1 && stepKnown) ||
        (index == 3 && (!hasLength || lengthKnown)))
      continue;
    auto scalarType = getKnownTensorType(binder.getOperand(index));
    if (!scalarType || !scalarType.areAllSizesKnown() ||
        !isa<IntegerType>(scalarType.getDtype()) ||
        llvm::product_of(scalarType.getSizes()) != 1)
      return binder.fail(rewriter, "expects frame_step and frame_length of one "
                                   "integer each");
  }
  SmallVector<int64_t> lengths;
  if (window)
    lengths.push_back(windowType.getSizes()[0]);
  else if (lengthKnown)
    lengths.push_back(lengthValue[0]);
  else if (onesided)
    lengths.append({2 * (out[2] - 1), 2 * (out[2] - 1) + 1});
  else
    lengths.push_back(out[2]);
  SmallVector<std::pair<int64_t, int64_t>> fits;
  for (int64_t length : lengths) {
    if (length <= 0 || length > in[1] ||
        (lengthKnown && length != lengthValue[0]) ||
        (onesided ? length / 2 + 1 : length) != out[2])
      continue;
    if (stepKnown) {
      if (stepValue[0] > 0 && (in[1] - length) / stepValue[0] + 1 == out[1])
        fits.push_back({length, stepValue[0]});
      continue;
    }
    for (int64_t step = 1; step <= in[1]; ++step)
      if ((in[1] - length) / step + 1 == out[1])
        fits.push_back({length, step});
  }
  if (fits.size() != 1)
    return binder.fail(
        rewriter, fits.empty()
                      ? "no frame_length and frame_step give the result sizes"
                      : "unsupported: frame_step or frame_length computed at "
                        "run time with more than one value that gives the "
                        "result sizes (make them constants)");
  auto [length, step] = fits.front();
  int64_t bins = out[2];
  int64_t frames = out[1];
  if (out[0] != in[0])
    return binder.fail(rewriter, "unexpected result sizes");

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  // A run-time frame_step / frame_length must be the value the result
  // sizes were built for.
  auto assertValue = [&](unsigned index, int64_t value, StringRef name) {
    Value scalar = binder.getOperand(index);
    auto scalarType = getKnownTensorType(scalar); // checked above
    auto zeroD = getTensorType(context, {}, scalarType.getDtype());
    if (!scalarType.getSizes().empty())
      scalar = createView(rewriter, loc, scalar, {}, zeroD);
    Value all = AtenEqScalarOp::create(
        rewriter, loc, getTensorType(context, {}, rewriter.getI1Type()), scalar,
        createConstantInt(rewriter, loc, value));
    RuntimeAssertOp::create(
        rewriter, loc,
        AtenItemOp::create(rewriter, loc, BoolType::get(context), all),
        rewriter.getStringAttr(
            "this STFT node's " + name.str() + " at run time is not " +
            std::to_string(value) +
            ", the value its declared result sizes were compiled for"));
  };
  if (!stepKnown)
    assertValue(1, step, "frame_step");
  if (hasLength && !lengthKnown)
    assertValue(3, length, "frame_length");
  Type element = getBuiltinElementType(dtype);
  int64_t channels = in[2];
  // Filter f < K: bin f's real part; f >= K: bin f - K's imaginary part.
  // With x = re + i im: re' = re cos + im sin, im' = im cos - re sin.
  SmallVector<Attribute> values;
  for (int64_t f = 0; f < 2 * bins; ++f) {
    int64_t k = f % bins;
    bool imaginary = f >= bins;
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t j = 0; j < length; ++j) {
        double angle = 2 * M_PI * static_cast<double>((j * k) % length) /
                       static_cast<double>(length);
        double value = !imaginary
                           ? (c == 0 ? std::cos(angle) : std::sin(angle))
                           : (c == 0 ? -std::sin(angle) : std::cos(angle));
        values.push_back(rewriter.getFloatAttr(element, value));
      }
  }
  SmallVector<int64_t> kernelSizes{2 * bins, channels, length};
  Value kernel = ValueTensorLiteralOp::create(
      rewriter, loc, getTensorType(context, kernelSizes, dtype),
      DenseElementsAttr::get(RankedTensorType::get(kernelSizes, element),
                             values));
  if (window) {
    Value windowValue = createToDtype(rewriter, loc, window, dtype);
    windowValue = createView(rewriter, loc, windowValue, {1, 1, length},
                             getTensorType(context, {1, 1, length}, dtype));
    kernel = AtenMulTensorOp::create(rewriter, loc,
                                     getTensorType(context, kernelSizes, dtype),
                                     kernel, windowValue);
  }
  // [B, N, C] -> [B, C, N] -> conv1d -> [B, 2K, F].
  Value input = createPermute(rewriter, loc, signal, {0, 2, 1});
  Value none = createConstantNone(rewriter, loc);
  Value spectrum = AtenConvolutionOp::create(
      rewriter, loc, getTensorType(context, {in[0], 2 * bins, frames}, dtype),
      input, kernel, none, createIntList(rewriter, loc, {step}),
      createIntList(rewriter, loc, {0}), createIntList(rewriter, loc, {1}),
      createConstantBool(rewriter, loc, false),
      createIntList(rewriter, loc, {0}), createConstantInt(rewriter, loc, 1));
  // [B, 2K, F] -> [B, 2, K, F] -> [B, F, K, 2].
  SmallVector<int64_t> split{in[0], 2, bins, frames};
  spectrum = createView(rewriter, loc, spectrum, split,
                        getTensorType(context, split, dtype));
  Value result = createPermute(rewriter, loc, spectrum, {0, 3, 2, 1});
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

enum class WindowKind { Hann, Hamming, Blackman };

/// HannWindow / HammingWindow / BlackmanWindow(size; periodic): a constant
/// of the result's static length N, w[n] = f(2 pi n / M) with M = N
/// (periodic) or N - 1.
template <WindowKind kind>
LogicalResult lowerWindow(const OpBinder &binder, PatternRewriter &rewriter) {
  auto resultType = binder.getResultType();
  int64_t periodic;
  if (!resultType || !resultType.areAllSizesKnown() ||
      resultType.getSizes().size() != 1 ||
      failed(binder.getInt("periodic", periodic, 1)))
    return binder.fail(rewriter, "needs a 1-D result of static size and an "
                                 "int periodic");
  int64_t n = resultType.getSizes()[0];
  SmallVector<int64_t> size;
  bool isConstant = succeeded(binder.getConstantInts(0, size));
  if (isConstant && (size.size() != 1 || size[0] != n))
    return binder.fail(rewriter, "size does not match the result");
  Type element = getBuiltinElementType(resultType.getDtype());
  if (!isa<mlir::FloatType>(element))
    return binder.fail(rewriter, "unsupported: a non-float output_datatype");
  // A run-time size must be the declared one.
  if (!isConstant &&
      failed(assertValuesEqual(rewriter, binder.getLoc(), binder.getOperand(0),
                               {n}, "window op's size")))
    return binder.fail(rewriter, "size must be an integer scalar");
  double period = periodic ? n : n - 1;
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < n; ++i) {
    double angle = 2 * M_PI * i / period;
    double value;
    switch (kind) {
    case WindowKind::Hann:
      value = std::pow(std::sin(angle / 2), 2);
      break;
    case WindowKind::Hamming:
      value = 25.0 / 46.0 - (21.0 / 46.0) * std::cos(angle);
      break;
    case WindowKind::Blackman:
      value = 0.42 - 0.5 * std::cos(angle) + 0.08 * std::cos(2 * angle);
      break;
    }
    values.push_back(rewriter.getFloatAttr(element, value));
  }
  rewriter.replaceOpWithNewOp<ValueTensorLiteralOp>(
      binder.getOp(), resultType,
      DenseElementsAttr::get(RankedTensorType::get({n}, element), values));
  return success();
}

/// The labels of one Einsum operand (letters; the dims an ellipsis
/// stands for get labels 256 + i, counted from the right), or failure.
LogicalResult parseEinsumTerm(StringRef term, int64_t rank,
                              int64_t ellipsisRank,
                              SmallVectorImpl<int64_t> &labels) {
  size_t ellipsis = term.find("...");
  StringRef before = term, after;
  if (ellipsis != StringRef::npos) {
    before = term.take_front(ellipsis);
    after = term.drop_front(ellipsis + 3);
  }
  for (char letter : before) {
    if (!llvm::isAlpha(letter))
      return failure();
    labels.push_back(letter);
  }
  if (ellipsis != StringRef::npos) {
    int64_t count =
        rank < 0 ? ellipsisRank
                 : rank - static_cast<int64_t>(before.size() + after.size());
    if (count < 0 || count > ellipsisRank)
      return failure();
    for (int64_t i = count - 1; i >= 0; --i)
      labels.push_back(256 + i);
  }
  for (char letter : after) {
    if (!llvm::isAlpha(letter))
      return failure();
    labels.push_back(letter);
  }
  return success(rank < 0 || static_cast<int64_t>(labels.size()) == rank);
}

/// Einsum: each operand's repeated labels reduced to their diagonal, its
/// dims permuted to one order of all labels (output labels first) with
/// size-1 dims for the labels it lacks, the operands multiplied
/// (broadcasting) and the labels not in the output summed away.
LogicalResult lowerEinsum(const OpBinder &binder, PatternRewriter &rewriter) {
  SmallVector<Value> operands;
  auto resultType = binder.getResultType();
  std::string equation;
  if (failed(binder.getTensorOperands(operands)) || operands.empty() ||
      !resultType || failed(binder.getString("equation", equation)))
    return binder.fail(rewriter, "expects tensor operands, a result and an "
                                 "equation");
  for (Value operand : operands) {
    auto type = getKnownTensorType(operand);
    if (!type || !type.areAllSizesKnown() ||
        type.getDtype() != resultType.getDtype())
      return binder.fail(rewriter, "needs operands with static sizes and the "
                                   "result's dtype");
  }
  std::string compact;
  for (char ch : equation)
    if (!llvm::isSpace(ch))
      compact.push_back(ch);
  StringRef lhs = compact, rhs;
  bool explicitOutput = false;
  if (size_t arrow = lhs.find("->"); arrow != StringRef::npos) {
    rhs = lhs.drop_front(arrow + 2);
    lhs = lhs.take_front(arrow);
    explicitOutput = true;
  }
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != operands.size())
    return binder.fail(rewriter, "the equation has " + Twine(terms.size()) +
                                     " operand terms for " +
                                     Twine(operands.size()) + " operands");
  // The labels of each operand; the ellipsis spans the most dims any
  // operand gives it.
  int64_t ellipsisRank = 0;
  for (auto [term, operand] : llvm::zip(terms, operands)) {
    size_t letters =
        llvm::count_if(term, [](char ch) { return llvm::isAlpha(ch); });
    int64_t rank = cast<ValueTensorType>(operand.getType()).getSizes().size();
    if (term.contains("..."))
      ellipsisRank = std::max<int64_t>(ellipsisRank, rank - letters);
  }
  SmallVector<SmallVector<int64_t>> labels(operands.size());
  llvm::DenseMap<int64_t, int64_t> labelSizes, labelCounts;
  for (auto [i, term] : llvm::enumerate(terms)) {
    ArrayRef<int64_t> sizes =
        cast<ValueTensorType>(operands[i].getType()).getSizes();
    if (failed(parseEinsumTerm(term, sizes.size(), ellipsisRank, labels[i])))
      return binder.fail(rewriter, "malformed equation '" + equation + "'");
    for (auto [label, size] : llvm::zip(labels[i], sizes)) {
      ++labelCounts[label];
      int64_t &known = labelSizes.try_emplace(label, size).first->second;
      if (known == 1)
        known = size;
      else if (size != 1 && size != known)
        return binder.fail(rewriter, "a label has two sizes");
    }
  }
  SmallVector<int64_t> outputLabels;
  if (explicitOutput) {
    if (failed(parseEinsumTerm(rhs, -1, ellipsisRank, outputLabels)))
      return binder.fail(rewriter, "malformed equation '" + equation + "'");
  } else {
    for (int64_t i = ellipsisRank - 1; i >= 0; --i)
      outputLabels.push_back(256 + i);
    SmallVector<int64_t> once;
    for (auto [label, count] : labelCounts)
      if (label < 256 && count == 1)
        once.push_back(label);
    llvm::sort(once);
    outputLabels.append(once);
  }
  SmallVector<int64_t> expected;
  for (int64_t label : outputLabels) {
    if (!labelSizes.contains(label))
      return binder.fail(rewriter, "an output label is in no operand");
    expected.push_back(labelSizes[label]);
  }
  if (resultType.getSizes() != ArrayRef<int64_t>(expected))
    return binder.fail(rewriter, "the result sizes do not match the equation");

  // All labels: the output's, then the summed ones in order of appearance.
  SmallVector<int64_t> allLabels(outputLabels);
  for (ArrayRef<int64_t> operandLabels : labels)
    for (int64_t label : operandLabels)
      if (!llvm::is_contained(allLabels, label))
        allLabels.push_back(label);

  Location loc = binder.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type dtype = resultType.getDtype();
  Value product;
  for (auto [operand, operandLabels] : llvm::zip(operands, labels)) {
    Value value = operand;
    SmallVector<int64_t> current(operandLabels);
    // Diagonals of repeated labels: keep the first dim, where(eye) and
    // sum the second.
    for (size_t a = 0; a < current.size(); ++a) {
      for (size_t b = a + 1; b < current.size();) {
        if (current[b] != current[a]) {
          ++b;
          continue;
        }
        SmallVector<int64_t> sizes(
            cast<ValueTensorType>(value.getType()).getSizes());
        int64_t n = sizes[a];
        SmallVector<bool> eye;
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < n; ++j)
            eye.push_back(i == j);
        SmallVector<int64_t> eyeSizes(sizes.size(), 1);
        eyeSizes[a] = eyeSizes[b] = n;
        Value mask = ValueTensorLiteralOp::create(
            rewriter, loc, getTensorType(context, {n, n}, rewriter.getI1Type()),
            DenseElementsAttr::get(
                RankedTensorType::get({n, n}, rewriter.getI1Type()),
                ArrayRef<bool>(eye)));
        mask =
            createView(rewriter, loc, mask, eyeSizes,
                       getTensorType(context, eyeSizes, rewriter.getI1Type()));
        Value masked = AtenWhereSelfOp::create(
            rewriter, loc, value.getType(), mask, value,
            createScalarLiteral(rewriter, loc, dtype, 0.0));
        sizes.erase(sizes.begin() + b);
        value = AtenSumDimIntListOp::create(
            rewriter, loc, getTensorType(context, sizes, dtype), masked,
            createIntList(rewriter, loc, {static_cast<int64_t>(b)}),
            createConstantBool(rewriter, loc, false),
            createConstantNone(rewriter, loc));
        current.erase(current.begin() + b);
      }
    }
    // Permute to the order of allLabels, then view with 1s for the rest.
    SmallVector<int64_t> perm;
    for (int64_t label : allLabels)
      if (auto it = llvm::find(current, label); it != current.end())
        perm.push_back(it - current.begin());
    bool isIdentity = llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()));
    if (!isIdentity)
      value = createPermute(rewriter, loc, value, perm);
    ArrayRef<int64_t> permuted =
        cast<ValueTensorType>(value.getType()).getSizes();
    SmallVector<int64_t> full;
    size_t next = 0;
    for (int64_t label : allLabels)
      full.push_back(llvm::is_contained(current, label) ? permuted[next++] : 1);
    if (ArrayRef<int64_t>(full) != permuted)
      value = createView(rewriter, loc, value, full,
                         getTensorType(context, full, dtype));
    if (!product) {
      product = value;
      continue;
    }
    auto sizes = broadcastSizes(
        cast<ValueTensorType>(product.getType()).getSizes(), full);
    if (failed(sizes))
      return binder.fail(rewriter, "operands do not broadcast");
    product = AtenMulTensorOp::create(
        rewriter, loc, getTensorType(context, *sizes, dtype), product, value);
  }
  // Sum the labels that are not in the output (the trailing dims).
  ArrayRef<int64_t> sizes = cast<ValueTensorType>(product.getType()).getSizes();
  SmallVector<int64_t> summed;
  for (size_t d = outputLabels.size(); d < allLabels.size(); ++d)
    summed.push_back(d);
  Value result = product;
  if (!summed.empty())
    result = AtenSumDimIntListOp::create(
        rewriter, loc,
        getTensorType(context, sizes.take_front(outputLabels.size()), dtype),
        product, createIntList(rewriter, loc, summed),
        createConstantBool(rewriter, loc, false),
        createConstantNone(rewriter, loc));
  if (cast<ValueTensorType>(result.getType()).getSizes() !=
      resultType.getSizes())
    result = AtenExpandOp::create(
        rewriter, loc, resultType, result,
        createIntList(rewriter, loc, resultType.getSizes()),
        createConstantBool(rewriter, loc, false));
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxTensorLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("Size", 1, lowerSize);
  lowerings.on("OptionalHasElement", 15, lowerOptionalHasElement);
  lowerings.on("OptionalGetElement", 15, lowerOptionalGetElement);
  lowerings.on("Compress", 9, lowerCompress);
  lowerings.on("NonZero", 9, lowerNonZero);
  lowerings.on("Split", 2, lowerSplit);
  lowerings.on("Trilu", 14, lowerTrilu);
  lowerings.on("Einsum", 12, lowerEinsum);
  lowerings.on("DFT", 17, lowerDft);
  lowerings.on("STFT", 17, lowerStft);
  lowerings.on("HannWindow", 17, lowerWindow<WindowKind::Hann>);
  lowerings.on("HammingWindow", 17, lowerWindow<WindowKind::Hamming>);
  lowerings.on("BlackmanWindow", 17, lowerWindow<WindowKind::Blackman>);
  lowerings.on("Range", 11, lowerRange);
  lowerings.on("Tile", 6, lowerTile);
  lowerings.on("Pad", 2, lowerPad);
  lowerings.on("Hardmax", 1, lowerHardmax);
  lowerings.on("EyeLike", 9, lowerEyeLike);
  lowerings.on("DepthToSpace", 1, lowerBlockRearrange</*isDepthToSpace=*/true>);
  lowerings.on("SpaceToDepth", 1,
               lowerBlockRearrange</*isDepthToSpace=*/false>);
  lowerings.on("OneHot", 9, lowerOneHot);
}
