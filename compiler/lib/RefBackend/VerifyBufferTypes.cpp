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
  auto integer = dyn_cast<IntegerType>(memref.getElementType());
  return integer && integer.getWidth() < 8;
}

namespace {
struct VerifyBufferTypesPass
    : public ::mlir::torch2mlir::refbackend::impl::VerifyBufferTypesBase<
          VerifyBufferTypesPass> {
  void runOnOperation() override {
    bool ok = true;
    auto report = [&](Operation *op, Type type) {
      InFlightDiagnostic error = op->emitError();
      error << "the RefBackend cannot keep sub-byte integers in memory, and "
            << (isa<func::FuncOp>(op)
                    ? std::string("an input or result of the compiled function")
                    : "'" + op->getName().getStringRef().str() + "'")
            << " needs a buffer of type " << type;
      if (cast<MemRefType>(type).getElementType().isInteger(1))
        error << "; bool buffers are stored as bytes by "
                 "refbackend-widen-bool-buffers, which must run first";
      else
        error << "; way out: use an integer dtype of at least 8 bits";
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
