//===- Scatter.cpp - scatter, index_put, masked_scatter, nonzero ----------===//
//
// Part of the torch2mlir project.
//
// Ops that write at computed positions. A linalg.generic cannot write to a
// position its iteration does not own, so these are loop nests (scf.for)
// over the positions of the index (or mask) that carry the result tensor
// and update it with tensor.insert; bufferization makes the updates in
// place. The loops run in PyTorch's order (row-major over the index), so
// repeated positions accumulate (scatter_add, index_put with accumulate)
// and the last write wins otherwise, as on PyTorch's CPU; scatter's lines
// along `dim`, which never share an element, run in parallel. An index out
// of range fails a run-time check (PyTorch raises on it) and writes
// position 0 instead.
//
// select_scatter and slice_scatter write a box: tensor.insert_slice.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

/// An integer scalar as an `index`.
static Value toIndex(OpBuilder &b, Location loc, Value value) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

static Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The sizes of `tensor` as index values.
static SmallVector<Value> getDimSizes(OpBuilder &b, Location loc,
                                      Value tensor) {
  SmallVector<Value> sizes;
  for (int64_t i = 0, e = cast<RankedTensorType>(tensor.getType()).getRank();
       i < e; ++i)
    sizes.push_back(tensor::DimOp::create(b, loc, tensor, i));
  return sizes;
}

using LoopBody = function_ref<SmallVector<Value>(
    OpBuilder &, Location, ValueRange ivs, ValueRange carried)>;

/// A row-major scf.for nest over [0, upperBounds) that threads `inits`
/// through `body`; with no bounds, `body` runs once. Returns the final
/// carried values.
static SmallVector<Value> createLoopNest(OpBuilder &b, Location loc,
                                         ValueRange upperBounds,
                                         ValueRange inits, LoopBody body) {
  Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);
  SmallVector<Value> lbs(upperBounds.size(), zero);
  SmallVector<Value> steps(upperBounds.size(), one);
  return scf::buildLoopNest(b, loc, lbs, upperBounds, steps, inits, body)
      .results;
}

/// `tensor` read at `positions` (of a shape it broadcasts to: its dims are
/// aligned with the trailing positions; a dim of size 1 reads position 0,
/// and so do leading dims beyond the positions, which must be 1s).
static Value extractBroadcast(OpBuilder &b, Location loc, Value tensor,
                              ArrayRef<Value> positions) {
  auto type = cast<RankedTensorType>(tensor.getType());
  int64_t rank = type.getRank();
  int64_t offset = static_cast<int64_t>(positions.size()) - rank;
  SmallVector<Value> at;
  for (int64_t k = 0; k < rank; ++k) {
    // Leading dims beyond the positions are 1s (PyTorch drops them).
    if (offset + k < 0 || type.getDimSize(k) == 1) {
      at.push_back(constantIndex(b, loc, 0));
      continue;
    }
    Value position = positions[offset + k];
    if (type.isDynamicDim(k)) {
      Value size = tensor::DimOp::create(b, loc, tensor, k);
      Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          size, constantIndex(b, loc, 1));
      position = arith::SelectOp::create(b, loc, isOne,
                                         constantIndex(b, loc, 0), position);
    }
    at.push_back(position);
  }
  return tensor::ExtractOp::create(b, loc, tensor, at);
}

/// An index into a dim of size `size` with Python's wrap-around: -1 is
/// size - 1.
static Value wrapIndex(OpBuilder &b, Location loc, Value index, Value size) {
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         index, constantIndex(b, loc, 0));
  Value wrapped = arith::AddIOp::create(b, loc, index, size);
  return arith::SelectOp::create(b, loc, negative, wrapped, index);
}

/// Whether `torchTensor` holds integer indices (not bool, not uint8, which
/// PyTorch reads as a mask).
static bool isIndexTensor(Value torchTensor) {
  Type dtype = getTorchDtype(torchTensor);
  return dtype && isa<IntegerType>(dtype) && !isUnsignedOrBool(dtype);
}

/// How the written value combines with the one in place.
enum class Reduction { None, Sum, Prod, Mean, Max, Min };

/// `current` combined with `value` by `reduction`, in the torch dtype
/// `dtype` (bool sums are `or`, bool products `and`; complex sums and
/// products are complex.add and complex.mul; max/min propagate NaN).
static Value combine(OpBuilder &b, Location loc, Reduction reduction,
                     Value current, Value value, Type dtype) {
  bool isFloat = isa<mlir::FloatType>(dtype);
  bool isBool = dtype.isInteger(1);
  switch (reduction) {
  case Reduction::None:
    return value;
  case Reduction::Sum:
  case Reduction::Mean:
    if (isa<ComplexType>(dtype))
      return complex::AddOp::create(b, loc, current, value);
    if (isFloat)
      return arith::AddFOp::create(b, loc, current, value);
    if (isBool)
      return arith::OrIOp::create(b, loc, current, value);
    return arith::AddIOp::create(b, loc, current, value);
  case Reduction::Prod:
    if (isa<ComplexType>(dtype))
      return complex::MulOp::create(b, loc, current, value);
    if (isFloat)
      return arith::MulFOp::create(b, loc, current, value);
    if (isBool)
      return arith::AndIOp::create(b, loc, current, value);
    return arith::MulIOp::create(b, loc, current, value);
  case Reduction::Max:
  case Reduction::Min:
    return createMinMax(b, loc, current, value, dtype,
                        reduction == Reduction::Max);
  }
  llvm_unreachable("unknown reduction");
}

/// The value a position written by scatter_reduce(include_self=False)
/// starts from: 0 (sum, mean), 1 (prod), the lowest (amax) or highest
/// (amin) value of the dtype.
static Value createReductionIdentity(OpBuilder &b, Location loc,
                                     Reduction reduction, Type dtype) {
  Type element = torch_to_linalg::getBuiltinElementType(dtype);
  if (auto complexType = dyn_cast<ComplexType>(element)) {
    // Sums (and means) start from 0; products from 1 (max/min of complex
    // numbers do not exist: eager refuses them).
    return createComplexConstant(b, loc, complexType,
                                 reduction == Reduction::Prod ? 1 : 0, 0);
  }
  switch (reduction) {
  case Reduction::Max:
  case Reduction::Min:
    return createExtremeValue(b, loc, dtype, reduction == Reduction::Min);
  case Reduction::Prod:
    return isa<mlir::FloatType>(element)
               ? arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 1.0))
                     .getResult()
               : arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, 1))
                     .getResult();
  default:
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  }
}

namespace {

//===----------------------------------------------------------------------===//
// scatter, scatter_add, scatter_reduce
//===----------------------------------------------------------------------===//

/// What each scatter overload writes: a `src` tensor or a scalar `value`,
/// combined by a reduction.
template <typename OpTy> struct ScatterTraits;
template <> struct ScatterTraits<AtenScatterSrcOp> {
  static Value src(AtenScatterSrcOp::Adaptor a) { return a.getSrc(); }
  static Value value(AtenScatterSrcOp::Adaptor) { return {}; }
  static FailureOr<Reduction> reduction(AtenScatterSrcOp) {
    return Reduction::None;
  }
  static FailureOr<bool> includeSelf(AtenScatterSrcOp) { return true; }
};
template <> struct ScatterTraits<AtenScatterValueOp> {
  static Value src(AtenScatterValueOp::Adaptor) { return {}; }
  static Value value(AtenScatterValueOp::Adaptor a) { return a.getValue(); }
  static FailureOr<Reduction> reduction(AtenScatterValueOp) {
    return Reduction::None;
  }
  static FailureOr<bool> includeSelf(AtenScatterValueOp) { return true; }
};
template <> struct ScatterTraits<AtenScatterAddOp> {
  static Value src(AtenScatterAddOp::Adaptor a) { return a.getSrc(); }
  static Value value(AtenScatterAddOp::Adaptor) { return {}; }
  static FailureOr<Reduction> reduction(AtenScatterAddOp) {
    return Reduction::Sum;
  }
  static FailureOr<bool> includeSelf(AtenScatterAddOp) { return true; }
};
template <> struct ScatterTraits<AtenScatterReduceTwoOp> {
  static Value src(AtenScatterReduceTwoOp::Adaptor a) { return a.getSrc(); }
  static Value value(AtenScatterReduceTwoOp::Adaptor) { return {}; }
  static FailureOr<Reduction> reduction(AtenScatterReduceTwoOp op) {
    auto str = op.getReduce().getDefiningOp<ConstantStrOp>();
    if (!str)
      return failure();
    return llvm::StringSwitch<FailureOr<Reduction>>(str.getValue())
        .Case("sum", Reduction::Sum)
        .Case("prod", Reduction::Prod)
        .Case("mean", Reduction::Mean)
        .Case("amax", Reduction::Max)
        .Case("amin", Reduction::Min)
        .Default(failure());
  }
  static FailureOr<bool> includeSelf(AtenScatterReduceTwoOp op) {
    bool value;
    if (!matchTorchConstantBool(op.getIncludeSelf(), value))
      return failure();
    return value;
  }
};

/// The reduce argument of scatter.reduce and scatter.value_reduce.
static FailureOr<Reduction> matchScatterReduce(Value reduce) {
  auto str = reduce.getDefiningOp<ConstantStrOp>();
  if (!str)
    return failure();
  return llvm::StringSwitch<FailureOr<Reduction>>(str.getValue())
      .Case("add", Reduction::Sum)
      .Case("multiply", Reduction::Prod)
      .Default(failure());
}
template <> struct ScatterTraits<AtenScatterReduceOp> {
  static Value src(AtenScatterReduceOp::Adaptor a) { return a.getSrc(); }
  static Value value(AtenScatterReduceOp::Adaptor) { return {}; }
  static FailureOr<Reduction> reduction(AtenScatterReduceOp op) {
    return matchScatterReduce(op.getReduce());
  }
  static FailureOr<bool> includeSelf(AtenScatterReduceOp) { return true; }
};
template <> struct ScatterTraits<AtenScatterValueReduceOp> {
  static Value src(AtenScatterValueReduceOp::Adaptor) { return {}; }
  static Value value(AtenScatterValueReduceOp::Adaptor a) {
    return a.getValue();
  }
  static FailureOr<Reduction> reduction(AtenScatterValueReduceOp op) {
    return matchScatterReduce(op.getReduce());
  }
  static FailureOr<bool> includeSelf(AtenScatterValueReduceOp) { return true; }
};

/// scatter(self, dim, index, src|value) and its reductions: for each
/// position p of `index`, result[p with p[dim] = index[p]] (op)= src[p] (or
/// the scalar value). scatter_reduce with include_self=False first sets the
/// written positions to the reduction's identity; "mean" divides the sums
/// by the number of values summed (floor division for integers).
/// scatter of `index` (and `src`, or the scalar `value`) into `self` along
/// `dim` (rank >= 2), as an scf.forall over the index's positions off `dim`:
/// each iteration takes self's line along `dim` at that position (a 1-D
/// slice) and runs a loop over the index's line in order, writing
/// update(old, new) at each checked index (`what` names a failed check).
/// Lines never share an element, so they run in parallel.
static Value createLineScatter(
    OpBuilder &b, Location loc, Value self, Value index, Value src, Value value,
    int64_t dim, Value selfDimSize, const std::string &what,
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value)> update) {
  auto selfType = cast<RankedTensorType>(self.getType());
  int64_t rank = selfType.getRank();
  SmallVector<OpFoldResult> lines;
  for (int64_t i = 0; i < rank; ++i)
    if (i != dim)
      lines.push_back(tensor::getMixedSize(b, loc, index, i));
  auto forall = scf::ForallOp::create(b, loc, lines, ValueRange{self},
                                      /*mapping=*/std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  // getInductionVars returns a vector: a ValueRange of it would dangle.
  SmallVector<Value> ivs = forall.getInductionVars();
  Value shared = forall.getRegionIterArgs()[0];
  // The line's position in every dim but `dim`.
  auto positionAt = [&](Value along) {
    SmallVector<Value> at;
    for (int64_t i = 0, next = 0; i < rank; ++i)
      at.push_back(i == dim ? along : ivs[next++]);
    return at;
  };
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<OpFoldResult> offsets, sizes;
  for (Value at : positionAt(zero))
    offsets.push_back(at);
  for (int64_t i = 0; i < rank; ++i)
    sizes.push_back(i == dim ? tensor::getMixedSize(b, loc, self, dim)
                             : b.getIndexAttr(1));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  auto lineType = RankedTensorType::get({selfType.getDimSize(dim)},
                                        selfType.getElementType());
  Value line = tensor::ExtractSliceOp::create(b, loc, lineType, shared, offsets,
                                              sizes, strides);
  Value length = tensor::DimOp::create(b, loc, index, dim);
  auto loop = scf::ForOp::create(
      b, loc, zero, length, one, ValueRange{line},
      [&](OpBuilder &nb, Location l, Value iv, ValueRange carried) {
        SmallVector<Value> at = positionAt(iv);
        Value target = createCheckedIndex(
            nb, l, tensor::ExtractOp::create(nb, l, index, at), selfDimSize,
            /*wrapNegative=*/false, what);
        Value x =
            src ? tensor::ExtractOp::create(nb, l, src, at).getResult() : value;
        Value old = tensor::ExtractOp::create(nb, l, carried[0], target);
        Value written = tensor::InsertOp::create(
            nb, l, update(nb, l, old, x), carried[0], ValueRange{target});
        scf::YieldOp::create(nb, l, written);
      });
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, loop.getResult(0), shared,
                                        offsets, sizes, strides);
  return forall.getResult(0);
}

template <typename OpTy> struct ConvertAtenScatter : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  using Traits = ScatterTraits<OpTy>;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Type dtype = getTorchDtype(op.getResult());
    FailureOr<Reduction> reduction = Traits::reduction(op);
    if (failed(reduction))
      return reportFailure(rewriter, op,
                           "unsupported: this reduce (scatter_reduce takes a "
                           "constant \"sum\", \"prod\", \"mean\", \"amax\" "
                           "or \"amin\"; scatter \"add\" or \"multiply\")");
    FailureOr<bool> includeSelf = Traits::includeSelf(op);
    if (failed(includeSelf))
      return reportFailure(rewriter, op, "include_self must be a constant");
    if (*reduction == Reduction::Mean && dtype.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a bool mean");
    bool isComplex = isa<ComplexType>(dtype);
    if (isComplex &&
        (*reduction == Reduction::Max || *reduction == Reduction::Min))
      return reportFailure(rewriter, op,
                           "complex numbers have no order: amax and amin of a "
                           "complex tensor are undefined (eager refuses them "
                           "too)");
    Value self = adaptor.getSelf();
    Value index = adaptor.getIndex();
    auto selfType = cast<RankedTensorType>(self.getType());
    auto indexType = cast<RankedTensorType>(index.getType());
    int64_t rank = selfType.getRank();
    int64_t dim;
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Wrap, dim)))
      return failure();
    if (!isIndexTensor(op.getIndex()) || indexType.getRank() != rank)
      return reportFailure(rewriter, op,
                           "index must be an integer tensor of self's rank");
    if (selfType != resultType)
      return reportFailure(rewriter, op, "result type differs from self's");
    Location loc = op.getLoc();
    Type element = resultType.getElementType();
    Value src = Traits::src(adaptor);
    Value scalar = Traits::value(adaptor);
    if (src) {
      auto srcType = cast<RankedTensorType>(src.getType());
      if (srcType.getElementType() != element || srcType.getRank() != rank)
        return reportFailure(rewriter, op,
                             "src must have self's dtype and rank");
    } else {
      if (!isa<IntegerType, mlir::FloatType>(scalar.getType()))
        return reportFailure(rewriter, op, "unsupported: value type");
      scalar = convertScalar(rewriter, loc, scalar, element,
                             /*srcUnsigned=*/scalar.getType().isInteger(1),
                             dtype.isUnsignedInteger());
    }

    // The index writes self at its own position off `dim`, and reads src
    // at its own position everywhere.
    if (rank > 0 &&
        (failed(checkIndexNotLarger(rewriter, op, index, self, dim, "self")) ||
         (src &&
          failed(checkIndexNotLarger(rewriter, op, index, src, -1, "src")))))
      return failure();
    SmallVector<Value> indexSizes = getDimSizes(rewriter, loc, index);
    std::string what =
        (op->getName().getStringRef() + ": an index is out of range for dim " +
         Twine(dim) +
         " of self, which eager PyTorch refuses; indices must be in [0, size)")
            .str();
    Value selfDimSize;
    if (rank > 0) {
      assertIndexableDim(rewriter, loc, self, dim, index, what);
      selfDimSize = tensor::DimOp::create(rewriter, loc, self, dim);
    }
    // The position of self that index position `ivs` writes.
    auto targetOf = [&](OpBuilder &b, Location l,
                        ValueRange ivs) -> SmallVector<Value> {
      SmallVector<Value> at = llvm::to_vector(ivs);
      if (rank > 0)
        at[dim] = createCheckedIndex(
            b, l, tensor::ExtractOp::create(b, l, index, ivs), selfDimSize,
            /*wrapNegative=*/false, what);
      return at;
    };

    Value result = self;
    if (!*includeSelf && *reduction != Reduction::None) {
      Value identity =
          createReductionIdentity(rewriter, loc, *reduction, dtype);
      result = createLoopNest(
          rewriter, loc, indexSizes, result,
          [&](OpBuilder &b, Location l, ValueRange ivs,
              ValueRange carried) -> SmallVector<Value> {
            return {tensor::InsertOp::create(b, l, identity, carried[0],
                                             targetOf(b, l, ivs))};
          })[0];
    }
    SmallVector<Value> inits{result};
    bool isMean = *reduction == Reduction::Mean;
    Value one = createReductionIdentity(rewriter, loc, Reduction::Prod, dtype);
    if (isMean)
      inits.push_back(createFilled(
          rewriter, loc, resultType,
          *includeSelf
              ? one
              : createReductionIdentity(rewriter, loc, Reduction::Sum, dtype),
          self));
    // Writes only ever collide within one line along `dim` (the other
    // positions of the index are those of self): without a mean's counts,
    // the lines run in parallel, each a loop in PyTorch's order.
    if (rank >= 2 && !isMean) {
      Value value = createLineScatter(
          rewriter, loc, result, index, src, scalar, dim, selfDimSize, what,
          [&](OpBuilder &b, Location l, Value old, Value update) {
            if (*reduction == Reduction::None)
              return update;
            return combine(b, l, *reduction, old, update, dtype);
          });
      rewriter.replaceOp(op, value);
      return success();
    }
    SmallVector<Value> results = createLoopNest(
        rewriter, loc, indexSizes, inits,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          SmallVector<Value> at = targetOf(b, l, ivs);
          Value value =
              src ? tensor::ExtractOp::create(b, l, src, ivs).getResult()
                  : scalar;
          if (*reduction != Reduction::None)
            value = combine(b, l, *reduction,
                            tensor::ExtractOp::create(b, l, carried[0], at),
                            value, dtype);
          SmallVector<Value> updated{
              tensor::InsertOp::create(b, l, value, carried[0], at)};
          if (isMean) {
            Value count = tensor::ExtractOp::create(b, l, carried[1], at);
            count = combine(b, l, Reduction::Sum, count, one, dtype);
            updated.push_back(
                tensor::InsertOp::create(b, l, count, carried[1], at));
          }
          return updated;
        });
    result = results[0];
    if (isMean) {
      // The positions nothing was written to (count 0) keep their value.
      bool isFloat = isa<mlir::FloatType>(element);
      bool isUnsigned = dtype.isUnsignedInteger();
      result = createElementwise(
          rewriter, loc, resultType, ValueRange{results[0], results[1]},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            if (isComplex) {
              // Counts are whole numbers with no imaginary part.
              Value zero = createReductionIdentity(b, l, Reduction::Sum, dtype);
              Value none = complex::EqualOp::create(b, l, args[1], zero);
              Value divisor = arith::SelectOp::create(b, l, none, one, args[1]);
              return complex::DivOp::create(b, l, args[0], divisor);
            }
            Value divisor = createMinMax(b, l, args[1], one, dtype, true);
            if (isFloat)
              return arith::DivFOp::create(b, l, args[0], divisor);
            if (isUnsigned)
              return arith::DivUIOp::create(b, l, args[0], divisor);
            return arith::FloorDivSIOp::create(b, l, args[0], divisor);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// index_put
//===----------------------------------------------------------------------===//

/// index_put(self, indices, values, accumulate): self[indices] = values
/// (+= with accumulate), PyTorch's advanced indexing assignment. Integer
/// index tensors (None entries and missing trailing ones take whole dims)
/// broadcast together to a shape B; the indexed view has shape
/// self[:first] + B + self[last + 1:] when the indexed dims are consecutive,
/// B + the other dims otherwise, and `values` broadcasts to it. A bool
/// mask (the only index tensor) stands for its nonzero positions, taken in
/// row-major order.
struct ConvertAtenIndexPut : OpConversionPattern<AtenIndexPutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenIndexPutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    auto list = op.getIndices().getDefiningOp<PrimListConstructOp>();
    if (!list)
      return reportFailure(rewriter, op,
                           "indices must be a prim.ListConstruct");
    bool accumulate;
    if (!matchTorchConstantBool(op.getAccumulate(), accumulate))
      return reportFailure(rewriter, op, "accumulate must be a constant");
    Value self = adaptor.getSelf();
    Value values = adaptor.getValues();
    auto selfType = cast<RankedTensorType>(self.getType());
    int64_t rank = selfType.getRank();
    if (selfType != resultType)
      return reportFailure(rewriter, op, "result type differs from self's");
    if (cast<RankedTensorType>(values.getType()).getElementType() !=
        resultType.getElementType())
      return reportFailure(rewriter, op, "values must have self's dtype");
    if (static_cast<int64_t>(list.getElements().size()) > rank)
      return reportFailure(rewriter, op, "more indices than dims");
    Location loc = op.getLoc();
    SmallVector<int64_t> dims;
    SmallVector<Value> indices;
    bool hasMask = false;
    for (auto [dim, element] : llvm::enumerate(list.getElements())) {
      if (isTorchNone(element))
        continue;
      Type dtype = getTorchDtype(element);
      bool isMask = dtype && isUnsignedOrBool(dtype) &&
                    dtype.getIntOrFloatBitWidth() <= 8;
      if (!isMask && !isIndexTensor(element))
        return reportFailure(rewriter, op,
                             "index " + Twine(dim) +
                                 " must be an integer or bool tensor");
      hasMask |= isMask;
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
    Type dtype = getTorchDtype(op.getResult());
    Reduction reduction = accumulate ? Reduction::Sum : Reduction::None;
    // Writes `value` at `at` of `current`, combined with what is there.
    auto write = [&](OpBuilder &b, Location l, Value current,
                     ArrayRef<Value> at, Value value) -> Value {
      if (accumulate)
        value =
            combine(b, l, reduction,
                    tensor::ExtractOp::create(b, l, current, at), value, dtype);
      return tensor::InsertOp::create(b, l, value, current, at);
    };
    Value result;
    if (hasMask) {
      if (dims.size() != 1)
        return reportFailure(rewriter, op,
                             "unsupported: a bool mask with other index "
                             "tensors");
      FailureOr<Value> put =
          putMasked(rewriter, loc, self, values, indices[0], dims[0], write);
      if (failed(put))
        return reportFailure(rewriter, op,
                             "unsupported: a 0-d mask or one with more dims "
                             "than self has after its position");
      result = *put;
    } else {
      result =
          putIndexed(rewriter, loc, op, self, values, dims, indices, write);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  using WriteFn =
      function_ref<Value(OpBuilder &, Location, Value, ArrayRef<Value>, Value)>;

  /// Integer index tensors `indices` of self dims `dims`.
  static Value putIndexed(OpBuilder &rewriter, Location loc, Operation *op,
                          Value self, Value values, ArrayRef<int64_t> dims,
                          ArrayRef<Value> indices, WriteFn write) {
    int64_t rank = cast<RankedTensorType>(self.getType()).getRank();
    SmallVector<std::string> what;
    for (auto [dim, index] : llvm::zip(dims, indices)) {
      what.push_back((op->getName().getStringRef() +
                      ": an index is out of range for dim " + Twine(dim) +
                      " of self, which eager PyTorch refuses; indices must be "
                      "in [-size, size)")
                         .str());
      assertIndexableDim(rewriter, loc, self, dim, index, what.back());
    }
    int64_t broadcastRank = 0;
    for (Value index : indices)
      broadcastRank = std::max<int64_t>(
          broadcastRank, cast<RankedTensorType>(index.getType()).getRank());
    // The broadcast sizes: from an index tensor that is not 1 there.
    SmallVector<Value> broadcastSizes;
    Value one = constantIndex(rewriter, loc, 1);
    for (int64_t j = 0; j < broadcastRank; ++j) {
      // A size of 1 (possibly known at run time only) gives way to the
      // others.
      Value size = one;
      for (Value index : indices) {
        auto type = cast<RankedTensorType>(index.getType());
        int64_t k = j - (broadcastRank - type.getRank());
        if (k < 0 || type.getDimSize(k) == 1)
          continue;
        Value dimSize = tensor::DimOp::create(rewriter, loc, index, k);
        Value isOne = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, size, one);
        size = arith::SelectOp::create(rewriter, loc, isOne, dimSize, size);
      }
      broadcastSizes.push_back(size);
    }
    bool consecutive = true;
    for (size_t i = 1; i < dims.size(); ++i)
      consecutive &= dims[i] == dims[i - 1] + 1;
    // The loops, in the order of the indexed view's dims: a self dim
    // (>= 0) or broadcast dim j (encoded -1 - j).
    SmallVector<int64_t> layout;
    auto addSelfDims = [&](int64_t from, int64_t to) {
      for (int64_t d = from; d < to; ++d)
        if (!llvm::is_contained(dims, d))
          layout.push_back(d);
    };
    if (consecutive)
      addSelfDims(0, dims.front());
    for (int64_t j = 0; j < broadcastRank; ++j)
      layout.push_back(-1 - j);
    addSelfDims(consecutive ? dims.front() : 0, rank);
    SmallVector<Value> selfSizes = getDimSizes(rewriter, loc, self);
    SmallVector<Value> bounds;
    for (int64_t entry : layout)
      bounds.push_back(entry >= 0 ? selfSizes[entry]
                                  : broadcastSizes[-1 - entry]);
    return createLoopNest(
        rewriter, loc, bounds, self,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          SmallVector<Value> broadcastIvs(broadcastRank);
          SmallVector<Value> at(rank);
          for (auto [entry, iv] : llvm::zip(layout, ivs)) {
            if (entry >= 0)
              at[entry] = iv;
            else
              broadcastIvs[-1 - entry] = iv;
          }
          for (auto [i, dim] : llvm::enumerate(dims)) {
            at[dim] = createCheckedIndex(
                b, l, extractBroadcast(b, l, indices[i], broadcastIvs),
                selfSizes[dim], /*wrapNegative=*/true, what[i]);
          }
          Value value = extractBroadcast(b, l, values, llvm::to_vector(ivs));
          return {write(b, l, carried[0], at, value)};
        })[0];
  }

  /// A bool `mask` over self dims [first, first + mask rank): the
  /// indexed view is self[:first] + [number of trues] + the dims after the
  /// mask's.
  static FailureOr<Value> putMasked(OpBuilder &rewriter, Location loc,
                                    Value self, Value values, Value mask,
                                    int64_t first, WriteFn write) {
    int64_t rank = cast<RankedTensorType>(self.getType()).getRank();
    int64_t maskRank = cast<RankedTensorType>(mask.getType()).getRank();
    if (maskRank == 0 || first + maskRank > rank)
      return failure();
    SmallVector<Value> selfSizes = getDimSizes(rewriter, loc, self);
    SmallVector<Value> maskSizes = getDimSizes(rewriter, loc, mask);
    SmallVector<Value> otherSizes(selfSizes.begin(), selfSizes.begin() + first);
    otherSizes.append(selfSizes.begin() + first + maskRank, selfSizes.end());
    Value zero = constantIndex(rewriter, loc, 0);
    Value one = constantIndex(rewriter, loc, 1);
    return createLoopNest(
        rewriter, loc, maskSizes, ValueRange{self, zero},
        [&](OpBuilder &b, Location l, ValueRange maskIvs,
            ValueRange carried) -> SmallVector<Value> {
          Value isSet = convertScalar(
              b, l, tensor::ExtractOp::create(b, l, mask, maskIvs),
              b.getI1Type());
          auto ifOp = scf::IfOp::create(
              b, l, isSet,
              [&](OpBuilder &tb, Location tl) {
                Value count = carried[1];
                Value updated = createLoopNest(
                    tb, tl, otherSizes, carried[0],
                    [&](OpBuilder &ib, Location il, ValueRange ivs,
                        ValueRange inner) -> SmallVector<Value> {
                      SmallVector<Value> at =
                          llvm::to_vector(ivs.take_front(first));
                      at.append(maskIvs.begin(), maskIvs.end());
                      at.append(ivs.begin() + first, ivs.end());
                      SmallVector<Value> viewAt =
                          llvm::to_vector(ivs.take_front(first));
                      viewAt.push_back(count);
                      viewAt.append(ivs.begin() + first, ivs.end());
                      Value value = extractBroadcast(ib, il, values, viewAt);
                      return {write(ib, il, inner[0], at, value)};
                    })[0];
                Value next = arith::AddIOp::create(tb, tl, count, one);
                scf::YieldOp::create(tb, tl, ValueRange{updated, next});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, carried);
              });
          return llvm::to_vector_of<Value>(ifOp.getResults());
        })[0];
  }
};

//===----------------------------------------------------------------------===//
// masked_scatter, nonzero
//===----------------------------------------------------------------------===//

/// masked_scatter(self, mask, source): self and mask broadcast together;
/// the k-th set position of the mask (row-major) takes the k-th element of
/// `source` (flattened).
struct ConvertAtenMaskedScatter : OpConversionPattern<AtenMaskedScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenMaskedScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value self = adaptor.getSelf(), mask = adaptor.getMask();
    Value source = adaptor.getSource();
    auto sourceType = cast<RankedTensorType>(source.getType());
    Type element = resultType.getElementType();
    if (sourceType.getElementType() != element)
      return reportFailure(rewriter, op, "source must have self's dtype");
    if (!getTorchDtype(op.getMask()) ||
        !getTorchDtype(op.getMask()).isInteger(1))
      return reportFailure(rewriter, op, "mask must be a bool tensor");
    Location loc = op.getLoc();
    // self and mask at the result's shape.
    Value broadcastSelf = createElementwise(
        rewriter, loc, resultType, ValueRange{self, mask},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    if (!broadcastSelf)
      return reportFailure(rewriter, op, kNotBroadcastable);
    Value broadcastMask = createElementwise(
        rewriter, loc, resultType.clone(rewriter.getI1Type()),
        ValueRange{self, mask},
        [](OpBuilder &, Location, ValueRange args) { return args[1]; });
    if (!broadcastMask)
      return reportFailure(rewriter, op, kNotBroadcastable);
    int64_t numel = 1;
    for (int64_t size : sourceType.getShape())
      numel = ShapedType::isDynamic(size) || ShapedType::isDynamic(numel)
                  ? ShapedType::kDynamic
                  : numel * size;
    Value flat = createReshape(rewriter, loc, source,
                               RankedTensorType::get({numel}, element));
    Value zero = constantIndex(rewriter, loc, 0);
    Value one = constantIndex(rewriter, loc, 1);
    Value result = createLoopNest(
        rewriter, loc, getDimSizes(rewriter, loc, broadcastSelf),
        ValueRange{broadcastSelf, zero},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          Value isSet = tensor::ExtractOp::create(b, l, broadcastMask, ivs);
          auto ifOp = scf::IfOp::create(
              b, l, isSet,
              [&](OpBuilder &tb, Location tl) {
                Value value =
                    tensor::ExtractOp::create(tb, tl, flat, carried[1]);
                Value updated =
                    tensor::InsertOp::create(tb, tl, value, carried[0], ivs);
                Value next = arith::AddIOp::create(tb, tl, carried[1], one);
                scf::YieldOp::create(tb, tl, ValueRange{updated, next});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, carried);
              });
          return llvm::to_vector_of<Value>(ifOp.getResults());
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Whether the element `value` of torch dtype `dtype` is nonzero (NaN is).
static Value isNonzero(OpBuilder &b, Location loc, Value value, Type dtype) {
  if (isa<mlir::FloatType>(value.getType())) {
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(value.getType()));
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                 zero);
  }
  return convertScalar(b, loc, value, b.getI1Type());
}

/// nonzero(x): the [n, rank] int64 positions of the nonzero elements in
/// row-major order. n is known at run time only: one loop nest counts, a
/// second writes the rows.
struct ConvertAtenNonzero : OpConversionPattern<AtenNonzeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenNonzeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    if (!resultType || resultType.getRank() != 2 ||
        resultType.getDimSize(1) != rank ||
        !resultType.getElementType().isInteger(64))
      return reportFailure(rewriter, op,
                           "result must be an int64 tensor of shape [n, " +
                               Twine(rank) + "]");
    Location loc = op.getLoc();
    Type dtype = getTorchDtype(op.getSelf());
    SmallVector<Value> sizes = getDimSizes(rewriter, loc, input);
    Value zero = constantIndex(rewriter, loc, 0);
    Value one = constantIndex(rewriter, loc, 1);
    Value count = createLoopNest(
        rewriter, loc, sizes, zero,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          Value set = isNonzero(
              b, l, tensor::ExtractOp::create(b, l, input, ivs), dtype);
          Value next = arith::AddIOp::create(b, l, carried[0], one);
          return {arith::SelectOp::create(b, l, set, next, carried[0])};
        })[0];
    auto dynamicType = RankedTensorType::get({ShapedType::kDynamic, rank},
                                             rewriter.getI64Type());
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, dynamicType.getShape(),
                                rewriter.getI64Type(), ValueRange{count});
    Value result = createLoopNest(
        rewriter, loc, sizes, ValueRange{empty, zero},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          Value set = isNonzero(
              b, l, tensor::ExtractOp::create(b, l, input, ivs), dtype);
          auto ifOp = scf::IfOp::create(
              b, l, set,
              [&](OpBuilder &tb, Location tl) {
                Value row = carried[0];
                for (int64_t d = 0; d < rank; ++d) {
                  Value position = arith::IndexCastOp::create(
                      tb, tl, tb.getI64Type(), ivs[d]);
                  row = tensor::InsertOp::create(
                      tb, tl, position, row,
                      ValueRange{carried[1], constantIndex(tb, tl, d)});
                }
                Value next = arith::AddIOp::create(tb, tl, carried[1], one);
                scf::YieldOp::create(tb, tl, ValueRange{row, next});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, carried);
              });
          return llvm::to_vector_of<Value>(ifOp.getResults());
        })[0];
    if (result.getType() != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// select_scatter, slice_scatter
//===----------------------------------------------------------------------===//

/// An int operand as an index value: its constant, or its converted value.
static Value getIndexOperand(OpBuilder &b, Location loc, Value torchValue,
                             Value converted) {
  int64_t constant;
  if (matchTorchConstantInt(torchValue, constant))
    return constantIndex(b, loc, constant);
  if (!converted || !isa<IntegerType>(converted.getType()))
    return {};
  return toIndex(b, loc, converted);
}

/// `src` cast to `element` if its element type differs.
static Value castElements(OpBuilder &b, Location loc, Value src, Type srcDtype,
                          Type element, bool dstUnsigned) {
  auto type = cast<RankedTensorType>(src.getType());
  if (type.getElementType() == element)
    return src;
  return createElementwise(b, loc, type.clone(element), ValueRange{src},
                           [&](OpBuilder &nb, Location l, ValueRange args) {
                             return convertScalar(nb, l, args[0], element,
                                                  isUnsignedOrBool(srcDtype),
                                                  dstUnsigned);
                           });
}

/// select_scatter(self, src, dim, index): self with the slice at `index`
/// (negative counts from the end) of `dim` replaced by `src`.
struct ConvertAtenSelectScatter : OpConversionPattern<AtenSelectScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSelectScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value self = adaptor.getSelf(), src = adaptor.getSrc();
    auto selfType = cast<RankedTensorType>(self.getType());
    int64_t rank = selfType.getRank();
    if (selfType != resultType ||
        cast<RankedTensorType>(src.getType()).getRank() != rank - 1)
      return reportFailure(rewriter, op,
                           "src must have self's rank - 1, and the result "
                           "self's type");
    int64_t dim;
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Refuse, dim)))
      return failure();
    Location loc = op.getLoc();
    Value index =
        getIndexOperand(rewriter, loc, op.getIndex(), adaptor.getIndex());
    if (!index)
      return reportFailure(rewriter, op, "index must be an int");
    index = wrapIndex(rewriter, loc, index,
                      tensor::DimOp::create(rewriter, loc, self, dim));
    src = castElements(rewriter, loc, src, getTorchDtype(op.getSrc()),
                       resultType.getElementType(),
                       getTorchDtype(op.getResult()).isUnsignedInteger());
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, src);
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    offsets[dim] = index;
    sizes.insert(sizes.begin() + dim, rewriter.getIndexAttr(1));
    rewriter.replaceOp(op, createInsertSlice(rewriter, loc, src, self, offsets,
                                             sizes, strides));
    return success();
  }
};

/// slice_scatter(self, src, dim, start, end, step): self with
/// self[..., start:end:step, ...] replaced by `src` (whose shape is that
/// slice's). start is wrapped and clamped as slice does.
struct ConvertAtenSliceScatter : OpConversionPattern<AtenSliceScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSliceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value self = adaptor.getSelf(), src = adaptor.getSrc();
    auto selfType = cast<RankedTensorType>(self.getType());
    int64_t rank = selfType.getRank();
    if (selfType != resultType ||
        cast<RankedTensorType>(src.getType()).getRank() != rank)
      return reportFailure(rewriter, op,
                           "src must have self's rank, and the result "
                           "self's type");
    int64_t dim, step;
    if (failed(matchConstantDim(rewriter, op, op.getDim(), rank,
                                ScalarDims::Refuse, dim)))
      return failure();
    if (!matchTorchConstantInt(op.getStep(), step) || step <= 0)
      return reportFailure(rewriter, op, "step must be a positive constant");
    Location loc = op.getLoc();
    Value size = tensor::DimOp::create(rewriter, loc, self, dim);
    Value start = constantIndex(rewriter, loc, 0);
    if (!isTorchNone(op.getStart())) {
      start = getIndexOperand(rewriter, loc, op.getStart(), adaptor.getStart());
      if (!start)
        return reportFailure(rewriter, op, "start must be an int");
      start = wrapIndex(rewriter, loc, start, size);
      start = arith::MaxSIOp::create(rewriter, loc, start,
                                     constantIndex(rewriter, loc, 0));
      start = arith::MinSIOp::create(rewriter, loc, start, size);
    }
    src = castElements(rewriter, loc, src, getTorchDtype(op.getSrc()),
                       resultType.getElementType(),
                       getTorchDtype(op.getResult()).isUnsignedInteger());
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    offsets[dim] = start;
    strides[dim] = rewriter.getIndexAttr(step);
    rewriter.replaceOp(
        op,
        createInsertSlice(rewriter, loc, src, self, offsets,
                          tensor::getMixedSizes(rewriter, loc, src), strides));
    return success();
  }
};

/// diagonal_scatter(self, src, offset, dim1, dim2): self with the
/// diagonal that diagonal(self, offset, dim1, dim2) reads replaced by src
/// (whose last dim runs along the diagonal).
struct ConvertAtenDiagonalScatter : OpConversionPattern<AtenDiagonalScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenDiagonalScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value self = adaptor.getSelf(), src = adaptor.getSrc();
    auto selfType = cast<RankedTensorType>(self.getType());
    int64_t rank = selfType.getRank();
    if (!resultType || selfType != resultType ||
        cast<RankedTensorType>(src.getType()).getRank() != rank - 1)
      return reportFailure(rewriter, op,
                           "src must have self's rank - 1, and the result "
                           "self's type");
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
                           "dim1 and dim2 must be distinct dims of self");
    Location loc = op.getLoc();
    src = castElements(rewriter, loc, src, getTorchDtype(op.getSrc()),
                       resultType.getElementType(),
                       getTorchDtype(op.getResult()).isUnsignedInteger());
    SmallVector<int64_t> kept;
    for (int64_t i = 0; i < rank; ++i)
      if (i != dim1 && i != dim2)
        kept.push_back(i);
    Value result = createLoopNest(
        rewriter, loc, getDimSizes(rewriter, loc, src), self,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          SmallVector<Value> at(rank);
          for (auto [i, dim] : llvm::enumerate(kept))
            at[dim] = ivs[i];
          Value k = ivs.back();
          at[dim1] = arith::AddIOp::create(
              b, l, k, constantIndex(b, l, std::max<int64_t>(-offset, 0)));
          at[dim2] = arith::AddIOp::create(
              b, l, k, constantIndex(b, l, std::max<int64_t>(offset, 0)));
          Value value = tensor::ExtractOp::create(b, l, src, ivs);
          return {tensor::InsertOp::create(b, l, value, carried[0], at)};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// as_strided_scatter(self, src, size, stride, storage_offset) of a
/// contiguous self: flat(self)[storage_offset + sum(p[i] * stride[i])] =
/// src[p] (later positions win where the view overlaps itself).
struct ConvertAtenAsStridedScatter
    : OpConversionPattern<AtenAsStridedScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAsStridedScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value self = adaptor.getSelf(), src = adaptor.getSrc();
    auto selfType = cast<RankedTensorType>(self.getType());
    auto srcType = cast<RankedTensorType>(src.getType());
    if (!resultType || selfType != resultType || !selfType.hasStaticShape() ||
        !srcType.hasStaticShape())
      return reportFailure(rewriter, op,
                           "self and src need static shapes, the result "
                           "self's type");
    int64_t numel = selfType.getNumElements();
    FailureOr<StridedLayout> layout = matchAsStridedLayout(
        rewriter, op, op.getStride(), op.getStorageOffset(), srcType.getShape(),
        numel, "writes", "a self");
    if (failed(layout))
      return failure();
    Location loc = op.getLoc();
    src = castElements(rewriter, loc, src, getTorchDtype(op.getSrc()),
                       resultType.getElementType(),
                       getTorchDtype(op.getResult()).isUnsignedInteger());
    auto flatType = RankedTensorType::get({numel}, resultType.getElementType());
    Value flat = createReshape(rewriter, loc, self, flatType);
    flat = createLoopNest(
        rewriter, loc, getDimSizes(rewriter, loc, src), flat,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          Value value = tensor::ExtractOp::create(b, l, src, ivs);
          return {tensor::InsertOp::create(
              b, l, value, carried[0], createStridedIndex(b, l, ivs, *layout))};
        })[0];
    Value reshaped = createReshape(rewriter, loc, flat, resultType);
    if (!reshaped)
      return reportFailure(rewriter, op, kUnknownReshapeSizes);
    rewriter.replaceOp(op, reshaped);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateScatterPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenScatterSrcOp, AtenScatterValueOp, AtenScatterAddOp,
                    AtenScatterReduceTwoOp, AtenIndexPutOp, AtenMaskedScatterOp,
                    AtenNonzeroOp, AtenSelectScatterOp, AtenSliceScatterOp>(
      target);
  patterns.add<ConvertAtenScatter<AtenScatterSrcOp>,
               ConvertAtenScatter<AtenScatterValueOp>,
               ConvertAtenScatter<AtenScatterAddOp>,
               ConvertAtenScatter<AtenScatterReduceTwoOp>, ConvertAtenIndexPut,
               ConvertAtenMaskedScatter, ConvertAtenNonzero,
               ConvertAtenSelectScatter, ConvertAtenSliceScatter>(typeConverter,
                                                                  context);
  addIllegalCoreOps<AtenScatterReduceOp, AtenScatterValueReduceOp,
                    AtenDiagonalScatterOp, AtenAsStridedScatterOp>(target);
  patterns.add<ConvertAtenScatter<AtenScatterReduceOp>,
               ConvertAtenScatter<AtenScatterValueReduceOp>,
               ConvertAtenDiagonalScatter, ConvertAtenAsStridedScatter>(
      typeConverter, context);
}
