//===- Comparison.cpp - Comparisons, logical ops and where to linalg ------===//
//
// Part of the torch2mlir project.
//
// Comparisons compute in the dtype PyTorch promotes their operands to
// (torch.result_type, which the bool result does not show): int64 > 0.5
// compares in float32, uint8 < int8 in int16. Logical ops read each operand
// as a bool (non-zero; NaN is true).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

enum class CompareKind { Eq, Ne, Lt, Le, Gt, Ge };

/// `lhs <kind> rhs` on scalars of the torch dtype `dtype`: ordered float
/// predicates except ne (NaN != NaN), unsigned ones on ui8 and bool.
static Value createCompare(OpBuilder &b, Location loc, CompareKind kind,
                           Value lhs, Value rhs, Type dtype) {
  if (isa<mlir::FloatType>(dtype)) {
    arith::CmpFPredicate predicate;
    switch (kind) {
    case CompareKind::Eq:
      predicate = arith::CmpFPredicate::OEQ;
      break;
    case CompareKind::Ne:
      predicate = arith::CmpFPredicate::UNE;
      break;
    case CompareKind::Lt:
      predicate = arith::CmpFPredicate::OLT;
      break;
    case CompareKind::Le:
      predicate = arith::CmpFPredicate::OLE;
      break;
    case CompareKind::Gt:
      predicate = arith::CmpFPredicate::OGT;
      break;
    case CompareKind::Ge:
      predicate = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, predicate, lhs, rhs);
  }
  bool isUnsigned = isUnsignedOrBool(dtype);
  arith::CmpIPredicate predicate;
  switch (kind) {
  case CompareKind::Eq:
    predicate = arith::CmpIPredicate::eq;
    break;
  case CompareKind::Ne:
    predicate = arith::CmpIPredicate::ne;
    break;
  case CompareKind::Lt:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CompareKind::Le:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CompareKind::Gt:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case CompareKind::Ge:
    predicate =
        isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
}

/// The bool `value` as the result element type (itself for bool results).
static Value convertBool(OpBuilder &b, Location loc, Value value,
                         Type element) {
  return convertScalar(b, loc, value, element, /*srcUnsigned=*/true);
}

/// eq/ne/lt/le/gt/ge, .Tensor and .Scalar.
template <typename OpTy, CompareKind kind>
struct ConvertCompare : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Type dtype = getPromotedDtype({op.getSelf(), op.getOther()});
    if (!dtype || !isa<mlir::FloatType, IntegerType>(dtype))
      return reportFailure(rewriter, op,
                           "unsupported: comparison of these dtypes");
    Type element = resultType.getElementType();
    Value result = createElementwiseOnOperands(
        rewriter, op.getLoc(), resultType, {op.getSelf(), op.getOther()},
        {adaptor.getSelf(), adaptor.getOther()}, dtype,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return convertBool(
              b, loc, createCompare(b, loc, kind, args[0], args[1], dtype),
              element);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

enum class LogicalKind { And, Or, Xor };

/// The integer op of a logical/bitwise kind on two same-typed values.
static Value createBitwise(OpBuilder &b, Location loc, LogicalKind kind,
                           Value lhs, Value rhs) {
  switch (kind) {
  case LogicalKind::And:
    return arith::AndIOp::create(b, loc, lhs, rhs);
  case LogicalKind::Or:
    return arith::OrIOp::create(b, loc, lhs, rhs);
  case LogicalKind::Xor:
    return arith::XOrIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown kind");
}

/// logical_and/or/xor: both operands read as bools.
template <typename OpTy, LogicalKind kind>
struct ConvertLogicalBinary : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    if (!resultType || !getTorchDtype(op.getSelf()) ||
        !getTorchDtype(op.getOther()))
      return reportFailure(rewriter, op, "operands and result need a dtype");
    Type element = resultType.getElementType();
    Value result = createElementwiseOnOperands(
        rewriter, op.getLoc(), resultType, {op.getSelf(), op.getOther()},
        {adaptor.getSelf(), adaptor.getOther()}, rewriter.getI1Type(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return convertBool(
              b, loc, createBitwise(b, loc, kind, args[0], args[1]), element);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// logical_not(x) = (x == 0).
struct ConvertLogicalNot : OpConversionPattern<AtenLogicalNotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenLogicalNotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || !getTorchDtype(op.getSelf()))
      return reportFailure(rewriter, op, "operand and result need a dtype");
    Type element = resultType.getElementType();
    Value result = createElementwiseOnOperands(
        rewriter, op.getLoc(), resultType, {op.getSelf()}, {adaptor.getSelf()},
        rewriter.getI1Type(), [&](OpBuilder &b, Location loc, ValueRange args) {
          Value one = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
          return convertBool(
              b, loc, arith::XOrIOp::create(b, loc, args[0], one), element);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// where.self(condition, self, other): a select in the result dtype, the
/// three operands broadcast together.
struct ConvertWhereSelf : OpConversionPattern<AtenWhereSelfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenWhereSelfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Type conditionDtype = getTorchDtype(op.getCondition());
    if (!resultType || !conditionDtype)
      return reportFailure(rewriter, op, "operands and result need a dtype");
    Type element = resultType.getElementType();
    Type dtype = getTorchDtype(op.getResult());
    bool dstUnsigned = dtype.isUnsignedInteger();
    bool conditionUnsigned = isUnsignedOrBool(conditionDtype);
    bool selfUnsigned = isUnsignedOrBool(getTorchDtype(op.getSelf()));
    bool otherUnsigned = isUnsignedOrBool(getTorchDtype(op.getOther()));
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType,
        {adaptor.getCondition(), adaptor.getSelf(), adaptor.getOther()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value condition =
              convertScalar(b, loc, args[0], b.getI1Type(), conditionUnsigned);
          Value self = convertScalar(b, loc, args[1], element, selfUnsigned,
                                     dstUnsigned);
          Value other = convertScalar(b, loc, args[2], element, otherUnsigned,
                                      dstUnsigned);
          return arith::SelectOp::create(b, loc, condition, self, other);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateComparisonPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenEqTensorOp, AtenNeTensorOp, AtenLtTensorOp,
                    AtenLeTensorOp, AtenGtTensorOp, AtenGeTensorOp,
                    AtenEqScalarOp, AtenNeScalarOp, AtenLtScalarOp,
                    AtenLeScalarOp, AtenGtScalarOp, AtenGeScalarOp>(target);
  patterns.add<ConvertCompare<AtenEqTensorOp, CompareKind::Eq>,
               ConvertCompare<AtenNeTensorOp, CompareKind::Ne>,
               ConvertCompare<AtenLtTensorOp, CompareKind::Lt>,
               ConvertCompare<AtenLeTensorOp, CompareKind::Le>,
               ConvertCompare<AtenGtTensorOp, CompareKind::Gt>,
               ConvertCompare<AtenGeTensorOp, CompareKind::Ge>,
               ConvertCompare<AtenEqScalarOp, CompareKind::Eq>,
               ConvertCompare<AtenNeScalarOp, CompareKind::Ne>,
               ConvertCompare<AtenLtScalarOp, CompareKind::Lt>,
               ConvertCompare<AtenLeScalarOp, CompareKind::Le>,
               ConvertCompare<AtenGtScalarOp, CompareKind::Gt>,
               ConvertCompare<AtenGeScalarOp, CompareKind::Ge>>(typeConverter,
                                                                context);
  addIllegalCoreOps<AtenLogicalNotOp, AtenLogicalAndOp, AtenLogicalOrOp,
                    AtenLogicalXorOp, AtenWhereSelfOp>(target);
  patterns.add<ConvertLogicalNot,
               ConvertLogicalBinary<AtenLogicalAndOp, LogicalKind::And>,
               ConvertLogicalBinary<AtenLogicalOrOp, LogicalKind::Or>,
               ConvertLogicalBinary<AtenLogicalXorOp, LogicalKind::Xor>,
               ConvertWhereSelf>(typeConverter, context);
}
