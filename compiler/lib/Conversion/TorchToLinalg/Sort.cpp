//===- Sort.cpp - sort and topk to linalg ---------------------------------===//
//
// Part of the torch2mlir project.
//
// A sort along a dim of size n, as two linalg.generic reductions and a
// gather, with no data-dependent control flow:
//   1. rank[p] = the number of elements of p's slice that come before x[p]
//      in the order (the comparison, then the position for ties: a stable
//      sort, PyTorch's order for stable=True);
//   2. order[q] = the position j of q's slice whose rank is q[dim] (ranks
//      are a permutation, so exactly one j matches);
//   3. values[q] = x[q with q[dim] = order[q]].
// Steps 1 and 2 take n^2 comparisons per slice; the RefBackend runs them
// as runtime kernels (a stable sort per slice) for f32, f64, si32 and si64,
// marked by the kSortRanksAttr and kSortOrderAttr attributes. NaN sorts
// above every number, as in PyTorch. topk is the first k of the sort (largest:
// the descending one).
//
// With stable=False PyTorch leaves the order of ties unspecified; its CPU
// kernel runs std::sort (libstdc++'s introsort), which keeps index order
// for slices of up to 16 elements only. Here ties always keep index order,
// so indices of ties in longer slices can differ from eager PyTorch's
// (values never do); likewise for topk, which PyTorch computes with
// std::partial_sort / std::nth_element.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

/// Whether `lhs` comes strictly before `rhs` in the order (ascending, or
/// descending), for elements of the torch dtype `dtype`; NaN is the largest
/// value.
static Value createPrecedes(OpBuilder &b, Location loc, Value lhs, Value rhs,
                            Type dtype, bool descending) {
  if (isa<mlir::FloatType>(dtype)) {
    Value ordered = arith::CmpFOp::create(
        b, loc,
        descending ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, lhs,
        rhs);
    // NaN comes last ascending, first descending.
    Value lhsNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, lhs, lhs);
    Value rhsNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, rhs, rhs);
    Value one = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    Value nanOrder =
        descending
            ? arith::AndIOp::create(b, loc, lhsNan,
                                    arith::XOrIOp::create(b, loc, rhsNan, one))
                  .getResult()
            : arith::AndIOp::create(b, loc, rhsNan,
                                    arith::XOrIOp::create(b, loc, lhsNan, one))
                  .getResult();
    return arith::OrIOp::create(b, loc, ordered, nanOrder);
  }
  bool isUnsigned = isUnsignedOrBool(dtype);
  arith::CmpIPredicate predicate =
      descending
          ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
          : (isUnsigned ? arith::CmpIPredicate::ult
                        : arith::CmpIPredicate::slt);
  return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
}

/// Whether `lhs` and `rhs` tie (NaNs tie with each other).
static Value createTies(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<mlir::FloatType>(lhs.getType())) {
    Value equal =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, lhs, rhs);
    Value lhsNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, lhs, lhs);
    Value rhsNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, rhs, rhs);
    return arith::OrIOp::create(b, loc, equal,
                                arith::AndIOp::create(b, loc, lhsNan, rhsNan));
  }
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
}

/// The map from the (rank + 1)-d iteration space (the last dim is the one
/// compared with) to a tensor of `rank` dims read at the iteration position,
/// except along `dim`, read at the last iteration dim (`other`) or not
/// (`!other`).
static AffineMap getSliceMap(int64_t rank, int64_t dim, bool other,
                             MLIRContext *context) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    exprs.push_back(getAffineDimExpr(other && i == dim ? rank : i, context));
  return AffineMap::get(rank + 1, 0, exprs, context);
}

/// A zero-filled int64 tensor of `shape` whose dynamic sizes are those of
/// `like` (along `dim`: `dimSize` when given).
static Value createZeroIndices(OpBuilder &b, Location loc, Value like,
                               int64_t dim, ArrayRef<int64_t> shape,
                               Value dimSize) {
  SmallVector<Value> dynamicSizes;
  for (auto [i, size] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(static_cast<int64_t>(i) == dim && dimSize
                                 ? dimSize
                                 : tensor::DimOp::create(b, loc, like, i));
  Value empty =
      tensor::EmptyOp::create(b, loc, shape, b.getI64Type(), dynamicSizes);
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  return linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
      .getResult(0);
}

/// The iterators of the (rank + 1)-d space: parallel, then the reduction.
static SmallVector<utils::IteratorType> getIterators(int64_t rank) {
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  return iterators;
}

/// Sorts `input` (of torch dtype `dtype`) along `dim` and keeps the first
/// `count` positions (a static size, or `dynamicCount` when dynamic):
/// returns the values (`valuesType`) and their int64 positions
/// (`indicesType`).
static std::pair<Value, Value>
createSort(OpBuilder &b, Location loc, Value input, Type dtype, int64_t dim,
           bool descending, RankedTensorType valuesType,
           RankedTensorType indicesType, Value dynamicCount) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  MLIRContext *context = b.getContext();
  AffineMap at = getSliceMap(rank, dim, /*other=*/false, context);
  AffineMap atOther = getSliceMap(rank, dim, /*other=*/true, context);
  auto asI64 = [](OpBuilder &nb, Location l, Value index) -> Value {
    return arith::IndexCastOp::create(nb, l, nb.getI64Type(), index);
  };

  // 1. ranks: the elements of the slice that come before x[p].
  Value ranksInit =
      createZeroIndices(b, loc, input, dim, inputType.getShape(), Value());
  Value ranks =
      linalg::GenericOp::create(
          b, loc, TypeRange{ranksInit.getType()}, ValueRange{input, input},
          ValueRange{ranksInit}, ArrayRef<AffineMap>{at, atOther, at},
          getIterators(rank),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value self = args[0], other = args[1];
            Value i = linalg::IndexOp::create(nb, l, dim);
            Value j = linalg::IndexOp::create(nb, l, rank);
            Value earlier =
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult, j, i);
            Value before = arith::OrIOp::create(
                nb, l, createPrecedes(nb, l, other, self, dtype, descending),
                arith::AndIOp::create(nb, l, createTies(nb, l, other, self),
                                      earlier));
            Value one = arith::ExtUIOp::create(nb, l, nb.getI64Type(), before);
            linalg::YieldOp::create(
                nb, l, arith::AddIOp::create(nb, l, args[2], one).getResult());
          })
          .getResult(0);
  // The RefBackend replaces steps 1 and 2 by runtime calls (a stable sort
  // per slice: O(n log n)) where the dtype has a kernel.
  auto marker = [&](bool forRanks) {
    SmallVector<NamedAttribute> fields{
        b.getNamedAttr("dim", b.getI64IntegerAttr(dim))};
    if (forRanks) {
      fields.push_back(b.getNamedAttr("descending", b.getBoolAttr(descending)));
      // Only ranks below the kept count matter to step 2 (topk's k).
      int64_t kept = indicesType.getDimSize(dim);
      if (!ShapedType::isDynamic(kept))
        fields.push_back(b.getNamedAttr("limit", b.getI64IntegerAttr(kept)));
    }
    return b.getDictionaryAttr(fields);
  };
  bool hasKernel = dtype.isF32() || dtype.isF64() ||
                   dtype.isSignedInteger(32) || dtype.isSignedInteger(64);
  if (hasKernel)
    ranks.getDefiningOp()->setAttr(kSortRanksAttr, marker(/*forRanks=*/true));

  // 2. order: for output position q, the j whose rank is q[dim].
  Value orderInit = createZeroIndices(b, loc, input, dim,
                                      indicesType.getShape(), dynamicCount);
  Value order =
      linalg::GenericOp::create(
          b, loc, TypeRange{indicesType}, ValueRange{ranks},
          ValueRange{orderInit}, ArrayRef<AffineMap>{atOther, at},
          getIterators(rank),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value r = asI64(nb, l, linalg::IndexOp::create(nb, l, dim));
            Value j = asI64(nb, l, linalg::IndexOp::create(nb, l, rank));
            Value match = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                                args[0], r);
            Value zero =
                arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(0));
            Value picked = arith::SelectOp::create(nb, l, match, j, zero);
            linalg::YieldOp::create(
                nb, l,
                arith::AddIOp::create(nb, l, args[1], picked).getResult());
          })
          .getResult(0);
  if (hasKernel)
    order.getDefiningOp()->setAttr(kSortOrderAttr, marker(/*forRanks=*/false));

  // 3. values: x gathered at the order.
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < rank; ++i)
    if (valuesType.isDynamicDim(i))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, order, i));
  Value valuesInit = tensor::EmptyOp::create(
      b, loc, valuesType.getShape(), valuesType.getElementType(), dynamicSizes);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  Value values =
      linalg::GenericOp::create(
          b, loc, TypeRange{valuesType}, ValueRange{order},
          ValueRange{valuesInit}, ArrayRef<AffineMap>{identity, identity},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> position;
            for (int64_t i = 0; i < rank; ++i)
              position.push_back(
                  i == dim ? arith::IndexCastOp::create(
                                 nb, l, nb.getIndexType(), args[0])
                                 .getResult()
                           : linalg::IndexOp::create(nb, l, i).getResult());
            linalg::YieldOp::create(
                nb, l,
                tensor::ExtractOp::create(nb, l, input, position).getResult());
          })
          .getResult(0);
  return {values, order};
}

namespace {

/// The operands of the sort overloads.
template <typename OpTy> struct SortTraits;
template <> struct SortTraits<AtenSortOp> {
  static LogicalResult checkStable(AtenSortOp) { return success(); }
};
template <> struct SortTraits<AtenSortStableOp> {
  /// stable=None/False/True all give the stable order here.
  static LogicalResult checkStable(AtenSortStableOp op) {
    bool stable;
    return success(isTorchNone(op.getStable()) ||
                   matchTorchConstantBool(op.getStable(), stable));
  }
};

/// sort(x, dim, descending) and sort.stable(x, stable, dim, descending):
/// (values, indices) of the stable sort along `dim`.
template <typename OpTy> struct ConvertAtenSort : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = this->getTypeConverter();
    auto valuesType = getConvertedTensorType(converter, op.getValues());
    auto indicesType = getConvertedTensorType(converter, op.getIndices());
    if (!valuesType || !indicesType)
      return reportFailure(rewriter, op, "results need known ranks and dtypes");
    if (failed(SortTraits<OpTy>::checkStable(op)))
      return reportFailure(rewriter, op, "stable must be a constant");
    int64_t dim;
    bool descending;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "dim must be a constant");
    if (!matchTorchConstantBool(op.getDescending(), descending))
      return reportFailure(rewriter, op, "descending must be a constant");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    dim = toPositiveDim(dim, std::max<int64_t>(rank, 1));
    if (dim < 0)
      return reportFailure(rewriter, op, kDimOutOfRange);
    if (valuesType != inputType || !indicesType.getElementType().isInteger(64))
      return reportFailure(rewriter, op,
                           "values must have the input's type and indices "
                           "be int64");
    Location loc = op.getLoc();
    if (rank == 0) {
      rewriter.replaceOp(op,
                         {input, createZeroFilled(rewriter, loc, indicesType)});
      return success();
    }
    auto [values, indices] =
        createSort(rewriter, loc, input, getTorchDtype(op.getSelf()), dim,
                   descending, valuesType, indicesType,
                   tensor::DimOp::create(rewriter, loc, input, dim));
    rewriter.replaceOp(op, {values, indices});
    return success();
  }
};

/// topk(x, k, dim, largest, sorted): the first k of the stable sort along
/// `dim` (descending when `largest`). The result is sorted whatever
/// `sorted` says (PyTorch leaves the order unspecified then). k larger than
/// a dynamic dim is not checked (PyTorch raises).
struct ConvertAtenTopk : OpConversionPattern<AtenTopkOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenTopkOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter *converter = getTypeConverter();
    auto valuesType = getConvertedTensorType(converter, op.getValues());
    auto indicesType = getConvertedTensorType(converter, op.getIndices());
    if (!valuesType || !indicesType)
      return reportFailure(rewriter, op, "results need known ranks and dtypes");
    int64_t dim;
    bool largest, sorted;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "dim must be a constant");
    if (!matchTorchConstantBool(op.getLargest(), largest) ||
        !matchTorchConstantBool(op.getSorted(), sorted))
      return reportFailure(rewriter, op,
                           "largest and sorted must be constants");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    dim = toPositiveDim(dim, std::max<int64_t>(rank, 1));
    if (dim < 0)
      return reportFailure(rewriter, op, kDimOutOfRange);
    if (valuesType.getElementType() != inputType.getElementType() ||
        valuesType.getRank() != rank ||
        !indicesType.getElementType().isInteger(64))
      return reportFailure(rewriter, op,
                           "values must have the input's dtype and rank, "
                           "indices be int64");
    Location loc = op.getLoc();
    if (rank == 0) {
      // k is 0 or 1; a 0-d result holds the input.
      rewriter.replaceOp(op, {createReshape(rewriter, loc, input, valuesType),
                              createZeroFilled(rewriter, loc, indicesType)});
      return success();
    }
    Value count;
    if (valuesType.isDynamicDim(dim)) {
      Value k = adaptor.getK();
      if (!isa<IntegerType>(k.getType()))
        return reportFailure(rewriter, op, "k must be an int");
      count =
          arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), k);
    }
    auto [values, indices] =
        createSort(rewriter, loc, input, getTorchDtype(op.getSelf()), dim,
                   largest, valuesType, indicesType, count);
    rewriter.replaceOp(op, {values, indices});
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateSortPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenSortOp, AtenSortStableOp, AtenTopkOp>(target);
  patterns.add<ConvertAtenSort<AtenSortOp>, ConvertAtenSort<AtenSortStableOp>,
               ConvertAtenTopk>(typeConverter, context);
}
