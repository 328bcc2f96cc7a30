//===- Creation.cpp - Tensor factories (full, arange, ...) to linalg ------===//
//
// Part of the torch2mlir project.
//
// The result dtype and static shape come from the op's result type, which
// the importer took from PyTorch (dtype= argument or default dtype).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

/// The scalar a factory fills its result with, the tensor whose dynamic
/// sizes the result takes, and the size list that gives them otherwise
/// (null when there is none).
template <typename OpTy> struct FillOperands;
template <> struct FillOperands<AtenFullOp> {
  static Value fill(AtenFullOp::Adaptor a) { return a.getFillValue(); }
  static Value like(AtenFullOp::Adaptor) { return {}; }
  static Value sizeList(AtenFullOp op) { return op.getSize(); }
};
template <> struct FillOperands<AtenFullLikeOp> {
  static Value fill(AtenFullLikeOp::Adaptor a) { return a.getFillValue(); }
  static Value like(AtenFullLikeOp::Adaptor a) { return a.getSelf(); }
  static Value sizeList(AtenFullLikeOp) { return {}; }
};
template <> struct FillOperands<AtenScalarTensorOp> {
  static Value fill(AtenScalarTensorOp::Adaptor a) { return a.getS(); }
  static Value like(AtenScalarTensorOp::Adaptor) { return {}; }
  static Value sizeList(AtenScalarTensorOp) { return {}; }
};
template <> struct FillOperands<AtenFillScalarOp> {
  static Value fill(AtenFillScalarOp::Adaptor a) { return a.getValue(); }
  static Value like(AtenFillScalarOp::Adaptor a) { return a.getSelf(); }
  static Value sizeList(AtenFillScalarOp) { return {}; }
};

/// full(size, fill_value, dtype, ...), full_like(self, fill_value, dtype,
/// ...), scalar_tensor(s, dtype, ...) and fill.Scalar(self, value):
/// linalg.fill of the value cast to the result dtype. full_like and
/// fill.Scalar take the dynamic sizes of `self`.
template <typename OpTy> struct ConvertFillFactory : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Value like = FillOperands<OpTy>::like(adaptor);
    SmallVector<Value> dynamicSizes;
    if (!resultType.hasStaticShape() && !like) {
      // full: the run-time sizes of its size list.
      FailureOr<SmallVector<Value>> sizes =
          getFactoryDynamicSizes(rewriter, op, this->getTypeConverter(),
                                 FillOperands<OpTy>::sizeList(op), resultType);
      if (failed(sizes))
        return failure();
      dynamicSizes = std::move(*sizes);
    } else if (!resultType.hasStaticShape() &&
               cast<RankedTensorType>(like.getType()).getRank() !=
                   resultType.getRank()) {
      return reportFailure(rewriter, op,
                           "unsupported: a dynamic size not given by a tensor");
    }
    Value fill = FillOperands<OpTy>::fill(adaptor);
    if (!isa<IntegerType, mlir::FloatType>(fill.getType()))
      return reportFailure(rewriter, op, "unsupported: fill value type");
    Location loc = op.getLoc();
    fill = convertScalar(rewriter, loc, fill, resultType.getElementType(),
                         /*srcUnsigned=*/fill.getType().isInteger(1),
                         getTorchDtype(op.getResult()).isUnsignedInteger());
    if (!like && !dynamicSizes.empty()) {
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                  resultType.getElementType(), dynamicSizes);
      rewriter.replaceOp(op,
                         linalg::FillOp::create(rewriter, loc, ValueRange{fill},
                                                ValueRange{empty})
                             .getResult(0));
      return success();
    }
    rewriter.replaceOp(op, createFilled(rewriter, loc, resultType, fill, like));
    return success();
  }
};

/// arange.start_step(start, end, step, dtype, ...): result[i] =
/// start + i * step, computed in f64 (float results, as PyTorch's double
/// accumulation) or i64, then cast. The length is the result's static size.
struct ConvertAtenArangeStartStep : OpConversionPattern<AtenArangeStartStepOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenArangeStartStepOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || resultType.getRank() != 1)
      return reportFailure(rewriter, op, "result must be a 1-d tensor");
    Value start = adaptor.getStart(), step = adaptor.getStep();
    Value end = adaptor.getEnd();
    for (Value scalar : {start, end, step})
      if (!isa<IntegerType, mlir::FloatType>(scalar.getType()))
        return reportFailure(rewriter, op, "unsupported: start/end/step type");
    Type element = resultType.getElementType();
    if (element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: bool arange");
    Location loc = op.getLoc();
    bool isFloat = isa<mlir::FloatType>(element);
    Type computeType =
        isFloat ? Type(rewriter.getF64Type()) : Type(rewriter.getI64Type());
    start = convertScalar(rewriter, loc, start, computeType);
    step = convertScalar(rewriter, loc, step, computeType);
    bool dstUnsigned = getTorchDtype(op.getResult()).isUnsignedInteger();
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0)) {
      // The length known at run time: max(0, ceil((end - start) / step)),
      // in the type of the computation.
      end = convertScalar(rewriter, loc, end, computeType);
      Value length;
      if (isFloat) {
        Value quotient = arith::DivFOp::create(
            rewriter, loc, arith::SubFOp::create(rewriter, loc, end, start),
            step);
        length = arith::FPToSIOp::create(
            rewriter, loc, rewriter.getI64Type(),
            math::CeilOp::create(rewriter, loc, quotient));
      } else {
        length = arith::CeilDivSIOp::create(
            rewriter, loc, arith::SubIOp::create(rewriter, loc, end, start),
            step);
      }
      Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 64);
      length = arith::MaxSIOp::create(rewriter, loc, length, zero);
      dynamicSizes.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), length));
    }
    Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                          element, dynamicSizes);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{resultType}, ValueRange{},
            ValueRange{empty}, rewriter.getMultiDimIdentityMap(1),
            utils::IteratorType::parallel,
            [&](OpBuilder &b, Location l, ValueRange) {
              Value i = arith::IndexCastOp::create(
                  b, l, b.getI64Type(), linalg::IndexOp::create(b, l, 0));
              Value value;
              if (isFloat) {
                Value offset = arith::MulFOp::create(
                    b, l, arith::SIToFPOp::create(b, l, computeType, i), step);
                value = arith::AddFOp::create(b, l, start, offset);
              } else {
                value = arith::AddIOp::create(
                    b, l, start, arith::MulIOp::create(b, l, i, step));
              }
              linalg::YieldOp::create(
                  b, l,
                  convertScalar(b, l, value, element, false, dstUnsigned));
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// empty.memory_format(size, ...), empty_strided(size, stride, ...),
/// empty_permuted(size, physical_layout, ...), new_empty(self, size, ...)
/// and new_empty_strided(self, size, stride, ...): PyTorch leaves the
/// contents undefined; here they are zeros, so that no uninitialized memory
/// is ever read. Strides, memory formats and physical layouts only describe
/// a layout, which value semantics does not have.
template <typename OpTy>
struct ConvertEmptyFactory : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    FailureOr<SmallVector<Value>> dynamicSizes = getFactoryDynamicSizes(
        rewriter, op, this->getTypeConverter(), op.getSize(), resultType);
    if (failed(dynamicSizes))
      return failure();
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                resultType.getElementType(), *dynamicSizes);
    Value zero = createZero(rewriter, loc, resultType.getElementType());
    rewriter.replaceOp(op,
                       linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                              ValueRange{empty})
                           .getResult(0));
    return success();
  }
};

/// item(self): the one element of `self` as the result's scalar type
/// (i64, f64 or i1): `tensor.extract` at index 0 of every dim. A dynamic
/// size is checked to be 1 at run time.
struct ConvertAtenItem : OpConversionPattern<AtenItemOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenItemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getSelf();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!inputType)
      return reportFailure(rewriter, op, "input needs a known rank and dtype");
    Type resultType = getTypeConverter()->convertType(op.getResult().getType());
    if (!resultType || !isa<IntegerType, mlir::FloatType>(resultType))
      return reportFailure(rewriter, op,
                           "result must be an int, a float or a bool");
    if (llvm::any_of(inputType.getShape(), [](int64_t size) {
          return !ShapedType::isDynamic(size) && size != 1;
        }))
      return reportFailure(rewriter, op,
                           "item() of a tensor with more than one element");
    Location loc = op.getLoc();
    assertElementCount(rewriter, loc, input,
                       SmallVector<int64_t>(inputType.getRank(), 1));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(inputType.getRank(), zero);
    Value element = tensor::ExtractOp::create(rewriter, loc, input, indices);
    Type dtype = getTorchDtype(op.getSelf());
    rewriter.replaceOp(op, convertScalar(rewriter, loc, element, resultType,
                                         dtype && isUnsignedOrBool(dtype),
                                         /*dstUnsigned=*/false));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateCreationPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenFullOp, AtenFullLikeOp, AtenScalarTensorOp,
                    AtenArangeStartStepOp, AtenItemOp>(target);
  patterns.add<ConvertAtenItem>(typeConverter, context);
  patterns
      .add<ConvertFillFactory<AtenFullOp>, ConvertFillFactory<AtenFullLikeOp>,
           ConvertFillFactory<AtenScalarTensorOp>, ConvertAtenArangeStartStep>(
          typeConverter, context);
  addIllegalCoreOps<AtenFillScalarOp, AtenEmptyMemoryFormatOp,
                    AtenEmptyStridedOp, AtenEmptyPermutedOp, AtenNewEmptyOp,
                    AtenNewEmptyStridedOp>(target);
  patterns.add<ConvertFillFactory<AtenFillScalarOp>,
               ConvertEmptyFactory<AtenEmptyMemoryFormatOp>,
               ConvertEmptyFactory<AtenEmptyStridedOp>,
               ConvertEmptyFactory<AtenEmptyPermutedOp>,
               ConvertEmptyFactory<AtenNewEmptyOp>,
               ConvertEmptyFactory<AtenNewEmptyStridedOp>>(typeConverter,
                                                           context);
}
