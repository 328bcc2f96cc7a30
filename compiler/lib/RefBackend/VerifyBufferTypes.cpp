//===- VerifyBufferTypes.cpp - Buffers the LLVM lowering can hold ---------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_VERIFYBUFFERTYPES
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

/// Whether values of `type` are buffers of sub-byte integers.
static bool isSubByteBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  Type element = memref.getElementType();
  return isa<IntegerType, FloatType>(element) &&
         element.getIntOrFloatBitWidth() < 8;
}

namespace {
struct VerifyBufferTypesPass
    : public ::mlir::torch2mlir::refbackend::impl::VerifyBufferTypesBase<
          VerifyBufferTypesPass> {
  void runOnOperation() override {
    bool ok = true;
    auto report = [&](Operation *op, Type type) {
      InFlightDiagnostic error = op->emitError();
      error << "the RefBackend cannot keep sub-byte elements in memory, and "
            << (isa<func::FuncOp>(op)
                    ? std::string("an input or result of the compiled function")
                    : "'" + op->getName().getStringRef().str() + "'")
            << " needs a buffer of type " << type;
      error << "; such buffers are stored as bytes by "
               "refbackend-widen-sub-byte-buffers, which must run first";
      ok = false;
    };
    getOperation()->walk([&](Operation *op) {
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        for (Type type : func.getFunctionType().getInputs())
          if (isSubByteBuffer(type))
            return report(op, type);
        return;
      }
      for (Type type : op->getResultTypes())
        if (isSubByteBuffer(type))
          return report(op, type);
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
