//===- TorchToArith.cpp - torch scalars and literals to arith -------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToArith/TorchToArith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "torch2mlir/Conversion/Passes.h"
#include "torch2mlir/Dialect/Torch/IR/CoreOps.h"
#include "torch2mlir/Dialect/TorchConversion/Transforms/BackendTypeConversion.h"

namespace mlir::torch2mlir {
#define GEN_PASS_DEF_CONVERTTORCHTOARITH
#include "torch2mlir/Conversion/Passes.h.inc"
} // namespace mlir::torch2mlir

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;

namespace {

/// torch.constant.{int,float,bool} -> arith.constant of the builtin type.
template <typename OpTy> struct ConvertConstant : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    TypedAttr value;
    if constexpr (std::is_same_v<OpTy, ConstantFloatOp>)
      value = rewriter.getF64FloatAttr(op.getValue().convertToDouble());
    else if constexpr (std::is_same_v<OpTy, ConstantBoolOp>)
      value = rewriter.getBoolAttr(op.getValue());
    else
      value = rewriter.getIntegerAttr(type, op.getValue());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};

/// torch.vtensor.literal -> arith.constant of the builtin tensor.
struct ConvertValueTensorLiteral : OpConversionPattern<ValueTensorLiteralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ValueTensorLiteralOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "needs known sizes and dtype");
    TypedAttr value = cast<TypedAttr>(op.getValue());
    if (value.getType() != type) {
      auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
      if (!dense)
        return rewriter.notifyMatchFailure(
            op, "unsupported: signed/unsigned resource literal");
      value = dense.bitcast(type.getElementType());
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};

/// Python int/float binary arithmetic.
template <typename OpTy, typename ArithOp>
struct ConvertScalarBinary : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ArithOp>(op, adaptor.getA(), adaptor.getB());
    return success();
  }
};

/// Python int comparisons.
template <typename OpTy, arith::CmpIPredicate predicate>
struct ConvertIntCompare : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, predicate, adaptor.getA(),
                                               adaptor.getB());
    return success();
  }
};

struct ConvertAtenNegInt : OpConversionPattern<AtenNegIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenNegIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value zero = arith::ConstantOp::create(rewriter, op.getLoc(),
                                           rewriter.getI64IntegerAttr(0));
    rewriter.replaceOpWithNewOp<arith::SubIOp>(op, zero, adaptor.getA());
    return success();
  }
};

/// aten.dim: the rank, a constant.
struct ConvertAtenDim : OpConversionPattern<AtenDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenDimOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<BaseTensorType>(op.getSelf().getType());
    if (!type || !type.hasSizes())
      return rewriter.notifyMatchFailure(op, "needs a known rank");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getI64IntegerAttr(type.getSizes().size()));
    return success();
  }
};

/// aten.size.int: a constant when known, else tensor.dim.
struct ConvertAtenSizeInt : OpConversionPattern<AtenSizeIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenSizeIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<BaseTensorType>(op.getSelf().getType());
    int64_t dim;
    if (!type || !type.hasSizes() || !matchTorchConstantInt(op.getDim(), dim))
      return rewriter.notifyMatchFailure(op,
                                         "needs a known rank and constant dim");
    int64_t rank = type.getSizes().size();
    dim = toPositiveDim(dim, rank);
    if (dim < 0)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    int64_t size = type.getSizes()[dim];
    if (size != kUnknownSize) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, rewriter.getI64IntegerAttr(size));
      return success();
    }
    Value index =
        tensor::DimOp::create(rewriter, op.getLoc(), adaptor.getSelf(), dim);
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getI64Type(),
                                                    index);
    return success();
  }
};

/// runtime.assert(cond, message) = cf.assert on the i1 of `cond`.
struct ConvertRuntimeAssert : OpConversionPattern<RuntimeAssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RuntimeAssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!adaptor.getCondition().getType().isInteger(1))
      return rewriter.notifyMatchFailure(op, "condition must convert to i1");
    cf::AssertOp::create(rewriter, op.getLoc(), adaptor.getCondition(),
                         op.getMessage());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertTorchToArithPass
    : public ::mlir::torch2mlir::impl::ConvertTorchToArithBase<
          ConvertTorchToArithPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                           tensor::TensorDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    TypeConverter typeConverter;
    torch_c::setupBackendTypeConversion(target, typeConverter);
    RewritePatternSet patterns(context);
    populateTorchToArithPatternsAndLegality(typeConverter, patterns, target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::torch2mlir::populateTorchToArithPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<ConstantIntOp, ConstantFloatOp, ConstantBoolOp,
                    ValueTensorLiteralOp>(target);
  patterns.add<ConvertConstant<ConstantIntOp>, ConvertConstant<ConstantFloatOp>,
               ConvertConstant<ConstantBoolOp>, ConvertValueTensorLiteral>(
      typeConverter, context);
  addIllegalCoreOps<AtenAddIntOp, AtenSubIntOp, AtenMulIntOp, AtenFloordivIntOp,
                    AtenNegIntOp, AtenEqIntOp, AtenLtIntOp, AtenGtIntOp,
                    AtenAddFloatOp, AtenSubFloatOp, AtenMulFloatOp,
                    AtenDivFloatOp, AtenDimOp, AtenSizeIntOp>(target);
  patterns.add<ConvertScalarBinary<AtenAddIntOp, arith::AddIOp>,
               ConvertScalarBinary<AtenSubIntOp, arith::SubIOp>,
               ConvertScalarBinary<AtenMulIntOp, arith::MulIOp>,
               ConvertScalarBinary<AtenFloordivIntOp, arith::FloorDivSIOp>,
               ConvertScalarBinary<AtenAddFloatOp, arith::AddFOp>,
               ConvertScalarBinary<AtenSubFloatOp, arith::SubFOp>,
               ConvertScalarBinary<AtenMulFloatOp, arith::MulFOp>,
               ConvertScalarBinary<AtenDivFloatOp, arith::DivFOp>,
               ConvertIntCompare<AtenEqIntOp, arith::CmpIPredicate::eq>,
               ConvertIntCompare<AtenLtIntOp, arith::CmpIPredicate::slt>,
               ConvertIntCompare<AtenGtIntOp, arith::CmpIPredicate::sgt>,
               ConvertAtenNegInt, ConvertAtenDim, ConvertAtenSizeInt>(
      typeConverter, context);
  addIllegalCoreOps<RuntimeAssertOp>(target);
  patterns.add<ConvertRuntimeAssert>(typeConverter, context);
}
