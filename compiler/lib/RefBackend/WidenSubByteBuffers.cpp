//===- WidenSubByteBuffers.cpp - Sub-byte buffers stored as bytes ---------===//
//
// Part of the torch2mlir project.
//
// MLIR's LLVM lowering of memref loads and stores cannot address sub-byte
// elements, and PyTorch stores a bool as one byte (0 or 1), as ml_dtypes
// (what onnx and numpy hold ONNX's int4/uint4/int2/uint2/float4e2m1
// tensors in) stores a 4- or 2-bit element in the low bits of one byte.
// This pass gives every buffer of elements narrower than 8 bits (i1, i2,
// i4, f4E2M1FN, ...) the element type i8: function signatures, calls and
// returns, scf/cf structural ops, memref.global (whose initializer becomes
// bytes) and every memref op that only moves or views buffers. Loads and
// stores are the only ops whose meaning changes: a load becomes load +
// arith.trunci (+ arith.bitcast for a float), a store (arith.bitcast +)
// arith.extui + store, so the bytes hold the element zero-extended, as
// ml_dtypes writes them. Scalars keep their type, so the arithmetic on them
// is untouched.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_WIDENSUBBYTEBUFFERS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

/// Whether `element` is an integer or float narrower than a byte.
static bool isSubByte(Type element) {
  return isa<IntegerType, FloatType>(element) &&
         element.getIntOrFloatBitWidth() < 8;
}

/// The byte-wide counterpart of a buffer of sub-byte elements; other types
/// unchanged.
static Type widenSubByteBuffer(Type type) {
  auto i8 = [&] { return IntegerType::get(type.getContext(), 8); };
  if (auto memref = dyn_cast<MemRefType>(type))
    if (isSubByte(memref.getElementType()))
      return memref.cloneWith(std::nullopt, i8());
  if (auto unranked = dyn_cast<UnrankedMemRefType>(type))
    if (isSubByte(unranked.getElementType()))
      return UnrankedMemRefType::get(i8(), unranked.getMemorySpace());
  return type;
}

/// The bits of a sub-byte element (integer or float) as an integer.
static IntegerType getBitsType(Type element) {
  return IntegerType::get(element.getContext(),
                          element.getIntOrFloatBitWidth());
}

namespace {

/// memref.load of a sub-byte buffer: load the byte, keep its low bits.
struct WidenLoad : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto load =
        memref::LoadOp::create(rewriter, op.getLoc(), adaptor.getMemref(),
                               adaptor.getIndices(), op.getNontemporal());
    Type element = op.getType();
    Value bits = arith::TruncIOp::create(rewriter, op.getLoc(),
                                         getBitsType(element), load);
    if (isa<FloatType>(element))
      bits = arith::BitcastOp::create(rewriter, op.getLoc(), element, bits);
    rewriter.replaceOp(op, bits);
    return success();
  }
};

/// memref.store into a sub-byte buffer: store the element's bits
/// zero-extended to a byte (a bool as 0 or 1).
struct WidenStore : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type byte =
        cast<MemRefType>(adaptor.getMemref().getType()).getElementType();
    Value value = adaptor.getValue();
    if (isa<FloatType>(value.getType()))
      value = arith::BitcastOp::create(rewriter, op.getLoc(),
                                       getBitsType(value.getType()), value);
    value = arith::ExtUIOp::create(rewriter, op.getLoc(), byte, value);
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, value, adaptor.getMemref(),
                                                 adaptor.getIndices(),
                                                 op.getNontemporal());
    return success();
  }
};

/// memref.global of sub-byte elements (constants): bytes, initializer
/// included.
struct WidenGlobal : OpConversionPattern<memref::GlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::GlobalOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    Attribute initial = op.getInitialValue().value_or(Attribute());
    if (auto elements = dyn_cast_or_null<DenseElementsAttr>(initial)) {
      auto bytesType =
          RankedTensorType::get(type.getShape(), type.getElementType());
      SmallVector<APInt> bytes;
      Type element = elements.getElementType();
      if (element.isInteger(1)) {
        for (bool value : elements.getValues<bool>())
          bytes.push_back(APInt(8, value ? 1 : 0));
      } else if (isa<FloatType>(element)) {
        for (APFloat value : elements.getValues<APFloat>())
          bytes.push_back(value.bitcastToAPInt().zext(8));
      } else {
        for (APInt value : elements.getValues<APInt>())
          bytes.push_back(value.zext(8));
      }
      initial = DenseElementsAttr::get(bytesType, bytes);
    } else if (initial && !isa<UnitAttr>(initial)) {
      return rewriter.notifyMatchFailure(op, "unknown initializer kind");
    }
    rewriter.modifyOpInPlace(op, [&] {
      op.setType(type);
      if (initial)
        op.setInitialValueAttr(initial);
    });
    return success();
  }
};

/// Any other memref op (alloc, dealloc, subview, cast, copy, collapse and
/// expand_shape, get_global, extract_strided_metadata, ...): only the types
/// change, since byte elements are addressed like the sub-byte ones were.
struct WidenMemRefOp : ConversionPattern {
  WidenMemRefOp(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<memref::MemRefDialect>(op->getDialect()) ||
        isa<memref::LoadOp, memref::StoreOp, memref::GlobalOp,
            memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op))
      return rewriter.notifyMatchFailure(op, "not a type-agnostic memref op");
    if (op->getNumRegions() != 0 || op->getNumSuccessors() != 0)
      return rewriter.notifyMatchFailure(op, "ops with regions not handled");
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return rewriter.notifyMatchFailure(op, "result types not convertible");
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// func.func: the signature and the arguments of every block (MLIR's
/// function signature pattern converts the entry block only).
struct WidenFunc : OpConversionPattern<func::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(func::FuncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion entry(type.getNumInputs());
    SmallVector<Type> results;
    if (failed(converter.convertSignatureArgs(type.getInputs(), entry)) ||
        failed(converter.convertTypes(type.getResults(), results)))
      return rewriter.notifyMatchFailure(op, "signature not convertible");
    if (!op.isExternal() &&
        failed(rewriter.convertRegionTypes(&op.getBody(), converter, &entry)))
      return rewriter.notifyMatchFailure(op, "block types not convertible");
    rewriter.modifyOpInPlace(op, [&] {
      op.setType(
          FunctionType::get(getContext(), entry.getConvertedTypes(), results));
    });
    return success();
  }
};

struct WidenSubByteBuffersPass
    : public ::mlir::torch2mlir::refbackend::impl::WidenSubByteBuffersBase<
          WidenSubByteBuffersPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return widenSubByteBuffer(type); });

    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>([&](func::ReturnOp op) {
      return isLegalForReturnOpTypeConversionPattern(op, converter);
    });
    target.addDynamicallyLegalOp<memref::GlobalOp>(
        [&](memref::GlobalOp op) { return converter.isLegal(op.getType()); });

    RewritePatternSet patterns(context);
    patterns.add<WidenLoad, WidenStore, WidenGlobal, WidenMemRefOp, WidenFunc>(
        converter, context);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    cf::populateCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
