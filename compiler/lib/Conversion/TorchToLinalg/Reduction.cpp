//===- Reduction.cpp - Reductions and softmax to linalg -------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

/// A map from the input's dims to the kept (non-reduced) dims.
static AffineMap getReducedMap(int64_t rank, ArrayRef<int64_t> reducedDims,
                               MLIRContext *context) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(reducedDims, i))
      exprs.push_back(getAffineDimExpr(i, context));
  return AffineMap::get(rank, 0, exprs, context);
}

/// Reduces `input` over `reducedDims` (removing them) with `combine`,
/// starting from `initValue`; each element is first cast by `convert`.
static Value createReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> reducedDims,
    Value initValue,
    function_ref<Value(OpBuilder &, Location, Value element, Value acc)>
        combine) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < rank; ++i) {
    if (llvm::is_contained(reducedDims, i))
      continue;
    shape.push_back(inputType.getDimSize(i));
    if (inputType.isDynamicDim(i))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, input, i));
  }
  auto resultType = RankedTensorType::get(shape, initValue.getType());
  Value empty = tensor::EmptyOp::create(b, loc, shape, initValue.getType(),
                                        dynamicSizes);
  Value init = linalg::FillOp::create(b, loc, ValueRange{initValue},
                                      ValueRange{empty})
                   .getResult(0);
  MLIRContext *context = b.getContext();
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i)
    iterators.push_back(llvm::is_contained(reducedDims, i)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input}, ValueRange{init},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                                 getReducedMap(rank, reducedDims, context)},
             iterators,
             [&](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(nested, l,
                                       combine(nested, l, args[0], args[1]));
             })
      .getResult(0);
}

/// Applies `body(x, r)` to each element x of `input` and the element r of
/// `reduced` (input with `dim` removed) at the same position.
static Value createWithReduced(
    OpBuilder &b, Location loc, Value input, Value reduced, int64_t dim,
    function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  MLIRContext *context = b.getContext();
  Value init = createEmpty(b, loc, inputType, input);
  return linalg::GenericOp::create(
             b, loc, TypeRange{inputType}, ValueRange{input, reduced},
             ValueRange{init},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                                 getReducedMap(rank, {dim}, context),
                                 b.getMultiDimIdentityMap(rank)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(nested, l,
                                       body(nested, l, args[0], args[1]));
             })
      .getResult(0);
}

namespace {

/// sum.dim_IntList(x, dims, keepdim, dtype): accumulates in the result dtype.
struct ConvertAtenSumDimIntList : OpConversionPattern<AtenSumDimIntListOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSumDimIntListOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType)
      return reportFailure(rewriter, op, "result needs a known rank and dtype");
    Value input = adaptor.getSelf();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    SmallVector<int64_t> dims;
    if (!isTorchNone(op.getDim()) && !matchTorchConstantIntList(op.getDim(), dims))
      return reportFailure(rewriter, op, "dims must be constants");
    if (dims.empty())
      dims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    for (int64_t &dim : dims) {
      dim = toPositiveDim(dim, rank);
      if (dim < 0)
        return reportFailure(rewriter, op, "dim out of range");
    }
    Type element = resultType.getElementType();
    if (element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: bool sum result");
    Type inputDtype = getTorchDtype(op.getSelf());
    bool srcUnsigned = inputDtype && inputDtype.isUnsignedInteger();
    Location loc = op.getLoc();
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    bool isFloat = isa<mlir::FloatType>(element);
    Value sum = createReduction(
        rewriter, loc, input, dims, zero,
        [&](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          x = convertScalar(b, l, x, element, srcUnsigned);
          if (isFloat)
            return arith::AddFOp::create(b, l, x, acc);
          return arith::AddIOp::create(b, l, x, acc);
        });
    rewriter.replaceOp(op, createReshape(rewriter, loc, sum, resultType));
    return success();
  }
};

/// _softmax(x, dim) = exp(x - max) / sum(exp(x - max)), and
/// _log_softmax(x, dim) = (x - max) - log(sum(exp(x - max))).
template <typename OpTy, bool isLog>
struct ConvertSoftmax : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (!resultType || resultType != inputType)
      return reportFailure(rewriter, 
          op, "unsupported: softmax whose result dtype differs from its input");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op, "unsupported: non-float softmax");
    int64_t dim;
    if (!matchTorchConstantInt(op.getDim(), dim))
      return reportFailure(rewriter, op, "dim must be a constant");
    int64_t rank = inputType.getRank();
    if (rank == 0)
      return reportFailure(rewriter, op, "unsupported: 0-d softmax");
    dim = toPositiveDim(dim, rank);
    if (dim < 0)
      return reportFailure(rewriter, op, "dim out of range");
    Location loc = op.getLoc();
    Value lowest = createLowestValue(rewriter, loc, element);
    Value max = createReduction(
        rewriter, loc, input, {dim}, lowest,
        [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          return arith::MaximumFOp::create(b, l, x, acc);
        });
    Value shifted = createWithReduced(
        rewriter, loc, input, max, dim,
        [](OpBuilder &b, Location l, Value x, Value m) -> Value {
          return arith::SubFOp::create(b, l, x, m);
        });
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    Value sum = createReduction(
        rewriter, loc, shifted, {dim}, zero,
        [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          return arith::AddFOp::create(b, l, math::ExpOp::create(b, l, x), acc);
        });
    Value result = createWithReduced(
        rewriter, loc, shifted, sum, dim,
        [](OpBuilder &b, Location l, Value x, Value s) -> Value {
          if constexpr (isLog)
            return arith::SubFOp::create(b, l, x, math::LogOp::create(b, l, s));
          return arith::DivFOp::create(b, l, math::ExpOp::create(b, l, x), s);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateReductionPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  target.addIllegalOp<AtenSumDimIntListOp, Aten_SoftmaxOp, Aten_LogSoftmaxOp>();
  patterns.add<ConvertAtenSumDimIntList, ConvertSoftmax<Aten_SoftmaxOp, false>,
               ConvertSoftmax<Aten_LogSoftmaxOp, true>>(typeConverter, context);
}
