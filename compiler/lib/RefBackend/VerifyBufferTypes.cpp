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
      op->emitError() << "the RefBackend cannot yet keep bool tensors in "
                         "memory, and "
                      << (isa<func::FuncOp>(op)
                              ? std::string("a bool input or result of the "
                                            "compiled function")
                              : "'" + op->getName().getStringRef().str() +
                                    "'")
                      << " needs a buffer of type " << type
                      << "; way out: produce uint8 instead of bool here "
                         "(x.to(torch.uint8)), or keep the bool tensor an "
                         "intermediate that feeds an elementwise op";
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
