//===- Reduction.cpp - ONNX reductions to ATen ----------------------------===//
//
// Part of the torch2mlir project.
//
// Reduce* ops take their axes as an attribute before opset 18 (13 for
// ReduceSum) and as an optional input after; an empty axes list reduces
// every dim, or none with noop_with_empty_axes=1 (then the reductions
// that transform their input first, such as ReduceSumSquare, still do).
// ReduceL1/L2/LogSum/LogSumExp/SumSquare are sums of transformed inputs.
// Axes computed at run time pick among the dim sets that the static sizes
// allow. CumSum/CumProd and TopK are here too: masked reductions over
// [n, n] broadcasts.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

enum class ReduceKind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  LogSum,
  LogSumExp,
  SumSquare
};

/// The reductions a Reduce node may do: one set of dims when its axes are
/// known at compile time (or follow from the static sizes), else each set
/// of as many dims as the run-time axes that is consistent with the static
/// input and result sizes, picked at run time by comparing with the axes.
struct ReduceAxes {
  /// Sorted, normalized dims; at least one set.
  SmallVector<SmallVector<int64_t>> candidates;
  /// Reduce nothing (noop_with_empty_axes=1 with empty axes).
  bool noop = false;
  /// The run-time axes when there are several candidates.
  Value runtimeAxes;
  /// Run-time axes of a run-time length (keepdims=1): they must name the
  /// dims of `candidates[0]`, and no other dim whose size is not 1.
  Value unsizedAxes;
  bool noopWithEmptyAxes = false;
};

/// Whether reducing `axes` of `in` (keeping them or not) gives `out`.
bool reducesTo(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
               ArrayRef<int64_t> axes, bool keepdims) {
  SmallVector<int64_t> sizes;
  for (auto [d, size] : llvm::enumerate(in)) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      sizes.push_back(size);
    else if (keepdims)
      sizes.push_back(1);
  }
  return ArrayRef<int64_t>(sizes) == out;
}

/// The sets of `n` dims of `inputType` whose reduction gives the static
/// `resultType`, one per distinct result: sets that differ only in dims of
/// size 1 reduce to the same values.
SmallVector<SmallVector<int64_t>> getCandidateAxes(ValueTensorType inputType,
                                                   ValueTensorType resultType,
                                                   int64_t n, bool keepdims) {
  SmallVector<SmallVector<int64_t>> candidates;
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  int64_t rank = in.size();
  if (!inputType.areAllSizesKnown() || !resultType.areAllSizesKnown() ||
      n > rank || rank > 16)
    return candidates;
  SmallVector<SmallVector<int64_t>> effective;
  for (uint32_t mask = 0; mask < (1u << rank); ++mask) {
    if (llvm::popcount(mask) != n)
      continue;
    SmallVector<int64_t> axes, nonUnit;
    for (int64_t d = 0; d < rank; ++d) {
      if (!(mask & (1u << d)))
        continue;
      axes.push_back(d);
      if (in[d] != 1)
        nonUnit.push_back(d);
    }
    if (!reducesTo(in, out, axes, keepdims) ||
        llvm::is_contained(effective, nonUnit))
      continue;
    effective.push_back(nonUnit);
    candidates.push_back(axes);
  }
  return candidates;
}

/// Reads the reduced dims: normalized, sorted; every dim when the list is
/// empty, or none (`noop`) with noop_with_empty_axes=1. Axes computed at
/// run time are known when their input is empty, else they are among the
/// sets of as many dims that give the static result sizes.
LogicalResult getReduceAxes(const OpBinder &binder, int64_t axesInputSince,
                            ValueTensorType inputType,
                            ValueTensorType resultType, bool keepdims,
                            ReduceAxes &result) {
  int64_t rank = inputType.getSizes().size();
  int64_t noopWithEmptyAxes;
  if (failed(binder.getInt("noop_with_empty_axes", noopWithEmptyAxes, 0)))
    return failure();
  SmallVector<int64_t> axes;
  if (binder.getOpsetVersion() >= axesInputSince) {
    Value axesInput = binder.getOperand(1);
    if (axesInput && failed(binder.getConstantInts(1, axes))) {
      auto axesType = getKnownTensorType(axesInput);
      if (!axesType || axesType.getSizes().size() != 1)
        return failure();
      int64_t n = axesType.getSizes()[0];
      if (n == kUnknownSize) {
        // With keepdims=1, the dims whose size changes (a size-1 dim
        // reduces to itself; if none changes, the reduction is the input).
        ArrayRef<int64_t> in = inputType.getSizes(),
                          out = resultType.getSizes();
        if (!keepdims || !inputType.areAllSizesKnown() ||
            !resultType.areAllSizesKnown() || in.size() != out.size())
          return failure();
        SmallVector<int64_t> changed;
        for (int64_t d = 0; d < rank; ++d)
          if (in[d] != out[d])
            changed.push_back(d);
        if (!reducesTo(in, out, changed, /*keepdims=*/true))
          return failure();
        result.noop = changed.empty();
        result.candidates.push_back(changed);
        result.unsizedAxes = axesInput;
        result.noopWithEmptyAxes = noopWithEmptyAxes;
        return success();
      }
      if (n > 0) {
        result.candidates =
            getCandidateAxes(inputType, resultType, n, keepdims);
        if (result.candidates.empty())
          return failure();
        // Checked at run time even with one candidate: other axes would
        // give other sizes than the static ones the program assumes.
        result.runtimeAxes = axesInput;
        return success();
      }
    }
  } else if (failed(binder.getInts("axes", axes))) {
    return failure();
  }
  if (axes.empty()) {
    if (noopWithEmptyAxes) {
      result.noop = true;
      result.candidates.emplace_back();
      return success();
    }
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  for (int64_t &axis : axes)
    if (failed(normalizeAxis(axis, rank)))
      return failure();
  llvm::sort(axes);
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  result.candidates.push_back(axes);
  return success();
}

/// Checks the declared `resultType` against the reduction of `x` over
/// `axes` (none when `noop`): failure when the rank or a static size
/// contradicts it; a run-time check where an input size the result keeps
/// is dynamic and the declared one static (else the declared size would
/// be trusted: a noop's cast, or a view, reading past the input).
LogicalResult checkReducedSizes(PatternRewriter &rewriter, Location loc,
                                Value x, ValueTensorType resultType,
                                ArrayRef<int64_t> axes, bool noop,
                                bool keepdims) {
  auto inputType = getKnownTensorType(x);
  if (!inputType || !resultType.hasSizes())
    return failure();
  ArrayRef<int64_t> in = inputType.getSizes(), out = resultType.getSizes();
  SmallVector<int64_t> kept; // Input dims that the result keeps.
  SmallVector<int64_t> expected;
  for (int64_t d = 0, rank = in.size(); d < rank; ++d) {
    if (noop || !llvm::is_contained(axes, d)) {
      kept.push_back(d);
      expected.push_back(in[d]);
    } else if (keepdims) {
      kept.push_back(-1);
      expected.push_back(1);
    }
  }
  if (expected.size() != out.size())
    return failure();
  for (auto [i, size] : llvm::enumerate(expected)) {
    if (out[i] == kUnknownSize)
      continue;
    if (size != kUnknownSize) {
      if (size != out[i])
        return failure();
      continue;
    }
    assertDimSize(rewriter, loc, x, kept[i], out[i],
                  "this Reduce node's input has a size at run time other "
                  "than " +
                      Twine(out[i]) + " along dim " + Twine(kept[i]) +
                      ", the size its declared result keeps (a graph output "
                      "or value_info declaration the data contradicts)");
  }
  return success();
}

/// The reduction `kind` of `x` over `axes` (or none: `noop`), of type
/// `resultType`.
template <ReduceKind kind>
Value buildReduce(PatternRewriter &rewriter, Location loc, Value x,
                  ArrayRef<int64_t> axes, bool noop, bool keepdims,
                  ValueTensorType resultType) {
  auto inputType = cast<ValueTensorType>(x.getType());
  Value one = createConstantInt(rewriter, loc, 1);
  Value none = createConstantNone(rewriter, loc);
  auto square = [&](Value value) -> Value {
    return AtenMulTensorOp::create(rewriter, loc, value.getType(), value,
                                   value);
  };
  // The reduction of `value` (of x's type) to `type`, keeping dims or not.
  auto sum = [&](Value value, ValueTensorType type, bool keep) -> Value {
    if (noop)
      return value;
    return AtenSumDimIntListOp::create(
        rewriter, loc, type, value, createIntList(rewriter, loc, axes),
        createConstantBool(rewriter, loc, keep), none);
  };
  auto finish = [&](Value result) {
    if (result.getType() != resultType)
      result =
          TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
    return result;
  };
  // Types of x's sizes (for a noop) or the result's, in x's dtype.
  ValueTensorType reducedType = noop ? inputType : resultType;
  Value dims = createIntList(rewriter, loc, axes);
  Value keep = createConstantBool(rewriter, loc, keepdims);
  switch (kind) {
  case ReduceKind::Sum:
    return finish(sum(x, reducedType, keepdims));
  case ReduceKind::SumSquare:
    return finish(sum(square(x), reducedType, keepdims));
  case ReduceKind::L1:
    return finish(sum(AtenAbsOp::create(rewriter, loc, inputType, x),
                      reducedType, keepdims));
  case ReduceKind::L2:
    return finish(AtenSqrtOp::create(rewriter, loc, reducedType,
                                     sum(square(x), reducedType, keepdims)));
  case ReduceKind::LogSum:
    return finish(AtenLogOp::create(rewriter, loc, reducedType,
                                    sum(x, reducedType, keepdims)));
  case ReduceKind::LogSumExp: {
    if (noop)
      return finish(
          AtenLogOp::create(rewriter, loc, inputType,
                            AtenExpOp::create(rewriter, loc, inputType, x)));
    // log(sum(exp(x - m))) + m with m = amax(x), for stability.
    SmallVector<int64_t> keptSizes(inputType.getSizes());
    for (int64_t axis : axes)
      keptSizes[axis] = 1;
    auto keptType = withSizes(x, keptSizes);
    Value t = createConstantBool(rewriter, loc, true);
    Value max = AtenAmaxOp::create(rewriter, loc, keptType, x, dims, t);
    Value shifted =
        AtenSubTensorOp::create(rewriter, loc, inputType, x, max, one);
    Value sumExp = sum(AtenExpOp::create(rewriter, loc, inputType, shifted),
                       keptType, /*keep=*/true);
    Value result = AtenAddTensorOp::create(
        rewriter, loc, keptType,
        AtenLogOp::create(rewriter, loc, keptType, sumExp), max, one);
    if (!keepdims)
      result =
          createView(rewriter, loc, result, resultType.getSizes(), resultType);
    return finish(result);
  }
  default:
    break;
  }
  if (noop)
    return finish(x);
  switch (kind) {
  case ReduceKind::Mean:
    return AtenMeanDimOp::create(rewriter, loc, resultType, x, dims, keep,
                                 none);
  case ReduceKind::Max:
    return AtenAmaxOp::create(rewriter, loc, resultType, x, dims, keep);
  case ReduceKind::Min:
    return AtenAminOp::create(rewriter, loc, resultType, x, dims, keep);
  case ReduceKind::Prod: {
    // One aten.prod.dim_int per dim, the last dim first so that the
    // others keep their index when dims are dropped.
    Value result = x;
    SmallVector<int64_t> sizes(inputType.getSizes());
    for (int64_t axis : llvm::reverse(axes)) {
      if (keepdims)
        sizes[axis] = 1;
      else
        sizes.erase(sizes.begin() + axis);
      result = AtenProdDimIntOp::create(
          rewriter, loc, withSizes(x, sizes), result,
          createConstantInt(rewriter, loc, axis), keep, none);
    }
    return finish(result);
  }
  default:
    llvm_unreachable("handled above");
  }
}

template <ReduceKind kind>
LogicalResult lowerReduce(const OpBinder &binder, PatternRewriter &rewriter,
                          int64_t axesInputSince) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  if (!inputType || !resultType)
    return binder.fail(rewriter, "needs known ranks and dtypes");
  ReduceAxes reduceAxes;
  int64_t keepdims;
  if (failed(binder.getInt("keepdims", keepdims, 1)))
    return binder.fail(rewriter, "keepdims must be an int");
  if (keepdims != 0 && keepdims != 1)
    return binder.fail(rewriter, "keepdims must be 0 or 1");
  if (failed(getReduceAxes(binder, axesInputSince, inputType, resultType,
                           keepdims, reduceAxes)))
    return binder.fail(rewriter,
                       "unsupported: axes must be constant and in range (or, "
                       "computed at run time, reduce static input sizes to "
                       "static result sizes)");
  constexpr bool isFloatOnly = kind == ReduceKind::L2 ||
                               kind == ReduceKind::LogSum ||
                               kind == ReduceKind::LogSumExp;
  if (isFloatOnly && !isa<mlir::FloatType>(inputType.getDtype()))
    return binder.fail(rewriter, "unsupported: a non-float input");
  if (kind == ReduceKind::LogSumExp && !keepdims &&
      !resultType.areAllSizesKnown())
    return binder.fail(rewriter, "unsupported: keepdims=0 with a dynamic "
                                 "result");
  Location loc = binder.getLoc();
  if (!reduceAxes.unsizedAxes && !reduceAxes.runtimeAxes &&
      failed(checkReducedSizes(rewriter, loc, x, resultType,
                               reduceAxes.candidates.back(), reduceAxes.noop,
                               keepdims)))
    return binder.fail(rewriter, "the declared result sizes contradict the "
                                 "reduction of the input's (a graph output "
                                 "or value_info declaration)");
  auto reduce = [&](ArrayRef<int64_t> axes) {
    return buildReduce<kind>(rewriter, loc, x, axes, reduceAxes.noop, keepdims,
                             resultType);
  };
  ArrayRef<SmallVector<int64_t>> candidates = reduceAxes.candidates;
  if (reduceAxes.unsizedAxes) {
    // The axes must name every dim whose size changes, and no other dim
    // of a size other than 1; empty axes reduce every dim (nothing with
    // noop_with_empty_axes=1), which is the same only when every dim of a
    // size other than 1 changes (or, for a noop, none does).
    ArrayRef<int64_t> in = inputType.getSizes();
    int64_t rank = in.size();
    SmallVector<int64_t> named(rank, -1);
    bool allChange = true;
    for (int64_t d = 0; d < rank; ++d) {
      bool changes = llvm::is_contained(candidates[0], d);
      if (changes)
        named[d] = 1;
      else if (in[d] != 1)
        named[d] = 0;
      allChange &= in[d] == 1 || changes;
    }
    bool emptyIsRight =
        reduceAxes.noopWithEmptyAxes ? candidates[0].empty() : allChange;
    if (failed(assertAxesName(rewriter, loc, reduceAxes.unsizedAxes, rank,
                              named, /*allowEmpty=*/emptyIsRight,
                              "Reduce node's axes")))
      return binder.fail(rewriter, "axes must be a 1-D integer tensor");
  }
  Value result = reduce(candidates.back());
  if (reduceAxes.runtimeAxes) {
    // where(axes == A_i, reduce(A_i), ...) over the candidates.
    Value axes =
        wrapNegativeIndices(rewriter, loc,
                            createToDtype(rewriter, loc, reduceAxes.runtimeAxes,
                                          getSi64Type(rewriter.getContext())),
                            inputType.getSizes().size());
    Value matchesAny;
    for (ArrayRef<int64_t> candidate : candidates) {
      Value matches = matchesAxes(rewriter, loc, axes, candidate);
      matchesAny =
          matchesAny ? AtenLogicalOrOp::create(rewriter, loc, matches.getType(),
                                               matchesAny, matches)
                           .getResult()
                     : matches;
    }
    Value known = AtenItemOp::create(
        rewriter, loc, BoolType::get(rewriter.getContext()), matchesAny);
    RuntimeAssertOp::create(
        rewriter, loc, known,
        rewriter.getStringAttr(
            "the run-time axes of this Reduce node name other dims than its "
            "static input and result sizes imply"));
    for (ArrayRef<int64_t> candidate : llvm::reverse(candidates.drop_back())) {
      Value reduced = reduce(candidate);
      Value matches = matchesAxes(rewriter, loc, axes, candidate);
      result = AtenWhereSelfOp::create(rewriter, loc, resultType, matches,
                                       reduced, result);
    }
  }
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// ArgMax / ArgMin. ATen picks the first extreme; select_last_index=1
/// picks the first of the input reversed along `axis` (index_select with
/// reversed indices) and maps it back: n - 1 - index.
template <typename AtenOp>
LogicalResult lowerArgReduce(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t axis, keepdims, selectLast;
  if (!inputType || !resultType || failed(binder.getInt("axis", axis, 0)) ||
      failed(binder.getInt("keepdims", keepdims, 1)) ||
      failed(binder.getInt("select_last_index", selectLast, 0)))
    return binder.fail(rewriter, "needs known sizes and int attributes");
  if ((keepdims != 0 && keepdims != 1) || (selectLast != 0 && selectLast != 1))
    return binder.fail(rewriter, "keepdims and select_last_index must be 0 "
                                 "or 1");
  if (failed(normalizeAxis(axis, inputType.getSizes().size())))
    return binder.fail(rewriter, "axis out of range");
  int64_t n = inputType.getSizes()[axis];
  if (selectLast && n == kUnknownSize)
    return binder.fail(rewriter, "unsupported: select_last_index=1 along a "
                                 "dynamic dim");
  Location loc = binder.getLoc();
  Value dim = createConstantInt(rewriter, loc, axis);
  Value keep = createConstantBool(rewriter, loc, keepdims);
  if (!selectLast) {
    rewriter.replaceOpWithNewOp<AtenOp>(binder.getOp(), resultType, x, dim,
                                        keep);
    return success();
  }
  SmallVector<int64_t> reversed;
  for (int64_t i = n - 1; i >= 0; --i)
    reversed.push_back(i);
  MLIRContext *context = rewriter.getContext();
  Value indices = ValueTensorLiteralOp::create(
      rewriter, loc, getTensorType(context, {n}, getSi64Type(context)),
      DenseElementsAttr::get(RankedTensorType::get({n}, rewriter.getI64Type()),
                             ArrayRef<int64_t>(reversed)));
  Value flipped =
      AtenIndexSelectOp::create(rewriter, loc, inputType, x, dim, indices);
  Value index = AtenOp::create(rewriter, loc, resultType, flipped, dim, keep);
  rewriter.replaceOpWithNewOp<AtenRsubScalarOp>(
      binder.getOp(), resultType, index,
      createConstantInt(rewriter, loc, n - 1),
      createConstantInt(rewriter, loc, 1));
  return success();
}

/// Whether the static `sizes` hold exactly one element.
bool isSingleElement(ArrayRef<int64_t> sizes) {
  return llvm::all_of(sizes, [](int64_t size) { return size == 1; });
}

/// The dim along which `x` (of static rank `rank`) is scanned: the
/// constant `axis` operand's, or each dim when it is computed at run time
/// (then also `runtimeAxis`, normalized).
LogicalResult getScanAxes(const OpBinder &binder, PatternRewriter &rewriter,
                          unsigned operand, int64_t rank,
                          SmallVectorImpl<int64_t> &candidates,
                          Value &runtimeAxis) {
  SmallVector<int64_t> axis;
  if (succeeded(binder.getConstantInts(operand, axis))) {
    if (axis.size() != 1 || failed(normalizeAxis(axis[0], rank)))
      return failure();
    candidates.push_back(axis[0]);
    return success();
  }
  Value value = binder.getOperand(operand);
  auto type = getKnownTensorType(value);
  if (!type || !isa<IntegerType>(type.getDtype()) ||
      !isSingleElement(type.getSizes()))
    return failure();
  for (int64_t d = 0; d < rank; ++d)
    candidates.push_back(d);
  if (rank > 1) {
    Location loc = binder.getLoc();
    Value flat = createView(
        rewriter, loc,
        createToDtype(rewriter, loc, value, getSi64Type(rewriter.getContext())),
        {},
        getTensorType(rewriter.getContext(), {},
                      getSi64Type(rewriter.getContext())));
    runtimeAxis = wrapNegativeIndices(rewriter, loc, flat, rank);
  }
  return success();
}

/// where(runtimeAxis == d, results[d], ...) over the candidate dims.
Value selectByAxis(PatternRewriter &rewriter, Location loc, Value runtimeAxis,
                   ArrayRef<int64_t> candidates, ArrayRef<Value> results) {
  Value result = results.back();
  if (!runtimeAxis)
    return result;
  auto boolType =
      getTensorType(rewriter.getContext(), {}, rewriter.getI1Type());
  for (int64_t i = candidates.size() - 2; i >= 0; --i) {
    Value matches =
        AtenEqScalarOp::create(rewriter, loc, boolType, runtimeAxis,
                               createConstantInt(rewriter, loc, candidates[i]));
    result = AtenWhereSelfOp::create(rewriter, loc, results[i].getType(),
                                     matches, results[i], result);
  }
  return result;
}

/// The permutation that moves `dim` last, and its inverse.
void getMoveLast(int64_t rank, int64_t dim, SmallVectorImpl<int64_t> &perm,
                 SmallVectorImpl<int64_t> &inverse) {
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      perm.push_back(d);
  perm.push_back(dim);
  inverse.resize(rank);
  for (int64_t d = 0; d < rank; ++d)
    inverse[perm[d]] = d;
}

/// A bool literal [n, n] with element (i, j) = f(i, j).
Value createBoolMatrix(PatternRewriter &rewriter, Location loc, int64_t n,
                       function_ref<bool(int64_t, int64_t)> f) {
  SmallVector<bool> values;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      values.push_back(f(i, j));
  return ValueTensorLiteralOp::create(
      rewriter, loc,
      getTensorType(rewriter.getContext(), {n, n}, rewriter.getI1Type()),
      DenseElementsAttr::get(
          RankedTensorType::get({n, n}, rewriter.getI1Type()),
          ArrayRef<bool>(values)));
}

/// CumSum / CumProd(x, axis; exclusive, reverse): along the axis moved
/// last, y[..., j] = op over i of where(M[i, j], x[..., i], identity) with
/// the constant mask M[i, j] = i <= j (i < j exclusive; reversed: i >= j,
/// i > j): an [n, n] broadcast reduced over i, exact for integers.
template <bool isProd>
LogicalResult lowerCumulative(const OpBinder &binder,
                              PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto resultType = binder.getResultType();
  int64_t exclusive, reverse;
  if (!inputType || !resultType || !inputType.areAllSizesKnown() ||
      failed(binder.getInt("exclusive", exclusive, 0)) ||
      failed(binder.getInt("reverse", reverse, 0)))
    return binder.fail(rewriter, "needs static sizes, known dtypes and int "
                                 "exclusive/reverse");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t rank = sizes.size();
  Type dtype = inputType.getDtype();
  if (rank == 0 || dtype.isInteger(1) || !getScalarTypeCode(dtype))
    return binder.fail(rewriter, "unsupported: a 0-d or bool input");
  // getScanAxes creates IR only once its checks pass.
  SmallVector<int64_t> candidates;
  Value runtimeAxis;
  if (failed(getScanAxes(binder, rewriter, 1, rank, candidates, runtimeAxis)))
    return binder.fail(rewriter, "axis must be a one-element integer tensor, "
                                 "in range if constant");
  Location loc = binder.getLoc();
  Value none = createConstantNone(rewriter, loc);
  SmallVector<Value> results;
  for (int64_t axis : candidates) {
    int64_t n = sizes[axis];
    SmallVector<int64_t> perm, inverse;
    getMoveLast(rank, axis, perm, inverse);
    bool isLast = axis == rank - 1;
    Value moved = isLast ? x : createPermute(rewriter, loc, x, perm);
    SmallVector<int64_t> movedSizes(
        cast<ValueTensorType>(moved.getType()).getSizes());
    SmallVector<int64_t> columnSizes(movedSizes);
    columnSizes.push_back(1);
    Value column = createView(rewriter, loc, moved, columnSizes,
                              withSizes(x, columnSizes));
    Value mask = createBoolMatrix(rewriter, loc, n, [&](int64_t i, int64_t j) {
      if (reverse)
        return exclusive ? i > j : i >= j;
      return exclusive ? i < j : i <= j;
    });
    SmallVector<int64_t> squareSizes(movedSizes);
    squareSizes.push_back(n);
    Value masked = AtenWhereSelfOp::create(
        rewriter, loc, withSizes(x, squareSizes), mask, column,
        createScalarLiteral(rewriter, loc, dtype, isProd ? 1.0 : 0.0));
    auto movedType = withSizes(x, movedSizes);
    int64_t rowDim = movedSizes.size() - 1;
    Value scanned;
    if constexpr (isProd)
      scanned = AtenProdDimIntOp::create(
          rewriter, loc, movedType, masked,
          createConstantInt(rewriter, loc, rowDim),
          createConstantBool(rewriter, loc, false), none);
    else
      scanned = AtenSumDimIntListOp::create(
          rewriter, loc, movedType, masked,
          createIntList(rewriter, loc, {rowDim}),
          createConstantBool(rewriter, loc, false), none);
    results.push_back(isLast ? scanned
                             : createPermute(rewriter, loc, scanned, inverse));
  }
  Value result = selectByAxis(rewriter, loc, runtimeAxis, candidates, results);
  if (result.getType() != resultType)
    result = TensorStaticInfoCastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(binder.getOp(), result);
  return success();
}

/// TopK(x, k; axis, largest, sorted) -> values, indices, with k the static
/// size of the outputs along the axis. Element j ranks after every i that
/// beats it (larger, or smaller with largest=0; ties go to the lower
/// index); output p gathers the element of rank p. O(n^2) comparisons.
LogicalResult lowerTopK(const OpBinder &binder, PatternRewriter &rewriter) {
  Value x = binder.getOperand(0);
  auto inputType = getKnownTensorType(x);
  auto valuesType = binder.getResultType(0);
  auto indicesType = binder.getResultType(1);
  int64_t axis, largest;
  if (!inputType || !valuesType || !indicesType ||
      !inputType.areAllSizesKnown() || !valuesType.areAllSizesKnown() ||
      failed(binder.getInt("axis", axis, -1)) ||
      failed(binder.getInt("largest", largest, 1)))
    return binder.fail(rewriter, "needs static sizes, known dtypes and int "
                                 "attributes");
  ArrayRef<int64_t> sizes = inputType.getSizes();
  int64_t rank = sizes.size();
  if (failed(normalizeAxis(axis, rank)) || rank == 0)
    return binder.fail(rewriter, "axis out of range");
  Type dtype = inputType.getDtype();
  if (dtype.isInteger(1) || !getScalarTypeCode(dtype))
    return binder.fail(rewriter, "unsupported: a bool input");
  int64_t n = sizes[axis], k = valuesType.getSizes()[axis];
  SmallVector<int64_t> kValue;
  bool isConstant = succeeded(binder.getConstantInts(1, kValue));
  if (k > n || (isConstant && (kValue.size() != 1 || kValue[0] != k)))
    return binder.fail(rewriter, "k must be the size of the outputs along "
                                 "the axis, at most the input's");
  Location loc = binder.getLoc();
  // A run-time k must be the declared one.
  if (!isConstant &&
      failed(assertValuesEqual(rewriter, loc, binder.getOperand(1), {k},
                               "TopK node's k")))
    return binder.fail(rewriter, "k must be a 1-D integer tensor");
  MLIRContext *context = rewriter.getContext();
  Type i1 = rewriter.getI1Type(), si64 = getSi64Type(context);
  SmallVector<int64_t> perm, inverse;
  getMoveLast(rank, axis, perm, inverse);
  bool isLast = axis == rank - 1;
  Value moved = isLast ? x : createPermute(rewriter, loc, x, perm);
  SmallVector<int64_t> movedSizes(
      cast<ValueTensorType>(moved.getType()).getSizes());
  SmallVector<int64_t> rowSizes(movedSizes), columnSizes(movedSizes),
      squareSizes(movedSizes);
  rowSizes.insert(rowSizes.end() - 1, 1); // [..., 1, n]: j
  columnSizes.push_back(1);               // [..., n, 1]: i
  squareSizes.push_back(n);               // [..., n (i), n (j)]
  Value xi =
      createView(rewriter, loc, moved, columnSizes, withSizes(x, columnSizes));
  Value xj = createView(rewriter, loc, moved, rowSizes, withSizes(x, rowSizes));
  auto squareBool = getTensorType(context, squareSizes, i1);
  Value strictly =
      largest ? AtenGtTensorOp::create(rewriter, loc, squareBool, xi, xj)
                    .getResult()
              : AtenLtTensorOp::create(rewriter, loc, squareBool, xi, xj)
                    .getResult();
  Value tie = AtenEqTensorOp::create(rewriter, loc, squareBool, xi, xj);
  Value earlier = createBoolMatrix(rewriter, loc, n,
                                   [](int64_t i, int64_t j) { return i < j; });
  Value beats = AtenLogicalOrOp::create(
      rewriter, loc, squareBool, strictly,
      AtenLogicalAndOp::create(rewriter, loc, squareBool, tie, earlier));
  // rank[..., j] = number of i beating j.
  auto movedSi64 = getTensorType(context, movedSizes, si64);
  Value ranks = AtenSumDimIntListOp::create(
      rewriter, loc, movedSi64, createToDtype(rewriter, loc, beats, si64),
      createIntList(rewriter, loc,
                    {static_cast<int64_t>(movedSizes.size()) - 1}),
      createConstantBool(rewriter, loc, false),
      createConstantNone(rewriter, loc));
  // picked[..., p, j] = rank[..., j] == p for p < k.
  SmallVector<int64_t> pickSizes(movedSizes);
  pickSizes.insert(pickSizes.end() - 1, k);
  SmallVector<int64_t> rankRowSizes(rowSizes);
  Value rankRow = createView(rewriter, loc, ranks, rankRowSizes,
                             getTensorType(context, rankRowSizes, si64));
  SmallVector<int64_t> positionsSizes(movedSizes.size() + 1, 1);
  positionsSizes[positionsSizes.size() - 2] = k;
  Value positions =
      createView(rewriter, loc, createArange(rewriter, loc, k), positionsSizes,
                 getTensorType(context, positionsSizes, si64));
  Value picked = AtenEqTensorOp::create(
      rewriter, loc, getTensorType(context, pickSizes, i1), rankRow, positions);
  SmallVector<int64_t> outSizes(movedSizes);
  outSizes.back() = k;
  int64_t lastDim = pickSizes.size() - 1;
  auto gather = [&](Value source, Type elementType) -> Value {
    Value selected = AtenWhereSelfOp::create(
        rewriter, loc, getTensorType(context, pickSizes, elementType), picked,
        source, createScalarLiteral(rewriter, loc, elementType, 0.0));
    Value sum = AtenSumDimIntListOp::create(
        rewriter, loc, getTensorType(context, outSizes, elementType), selected,
        createIntList(rewriter, loc, {lastDim}),
        createConstantBool(rewriter, loc, false),
        createConstantNone(rewriter, loc));
    return isLast ? sum : createPermute(rewriter, loc, sum, inverse);
  };
  Value values = gather(xj, dtype);
  SmallVector<int64_t> indexSizes(rowSizes.size() - 1, 1);
  indexSizes.push_back(n);
  Value indices =
      gather(createView(rewriter, loc, createArange(rewriter, loc, n),
                        indexSizes, getTensorType(context, indexSizes, si64)),
             si64);
  auto cast = [&](Value value, ValueTensorType type) -> Value {
    return value.getType() == type
               ? value
               : TensorStaticInfoCastOp::create(rewriter, loc, type, value)
                     .getResult();
  };
  rewriter.replaceOp(binder.getOp(),
                     {cast(values, valuesType), cast(indices, indicesType)});
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxReductionLowerings(
    OnnxLoweringSet &lowerings) {
  auto reduce = [](auto lower, int64_t axesInputSince) {
    return [=](const OpBinder &binder, PatternRewriter &rewriter) {
      return lower(binder, rewriter, axesInputSince);
    };
  };
  lowerings.on("ReduceSum", 1, reduce(lowerReduce<ReduceKind::Sum>, 13));
  lowerings.on("ReduceMean", 1, reduce(lowerReduce<ReduceKind::Mean>, 18));
  lowerings.on("ReduceMax", 1, reduce(lowerReduce<ReduceKind::Max>, 18));
  lowerings.on("ReduceMin", 1, reduce(lowerReduce<ReduceKind::Min>, 18));
  lowerings.on("ReduceProd", 1, reduce(lowerReduce<ReduceKind::Prod>, 18));
  lowerings.on("ReduceL1", 1, reduce(lowerReduce<ReduceKind::L1>, 18));
  lowerings.on("ReduceL2", 1, reduce(lowerReduce<ReduceKind::L2>, 18));
  lowerings.on("ReduceLogSum", 1, reduce(lowerReduce<ReduceKind::LogSum>, 18));
  lowerings.on("ReduceLogSumExp", 1,
               reduce(lowerReduce<ReduceKind::LogSumExp>, 18));
  lowerings.on("ReduceSumSquare", 1,
               reduce(lowerReduce<ReduceKind::SumSquare>, 18));
  lowerings.on("ArgMax", 1, lowerArgReduce<AtenArgmaxOp>);
  lowerings.on("CumSum", 11, lowerCumulative</*isProd=*/false>);
  lowerings.on("CumProd", 26, lowerCumulative</*isProd=*/true>);
  lowerings.on("TopK", 10, lowerTopK);
  lowerings.on("ArgMin", 1, lowerArgReduce<AtenArgminOp>);
}
