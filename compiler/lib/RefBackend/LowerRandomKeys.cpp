//===- LowerRandomKeys.cpp - torch_c.random_key to a runtime call ---------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_LOWERRANDOMKEYS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

/// The runtime function that hands out keys (Runtime.cpp).
static constexpr StringLiteral kRandomKeyFunction = "torch2mlir_random_key";

namespace {
struct LowerRandomKeysPass
    : public ::mlir::torch2mlir::refbackend::impl::LowerRandomKeysBase<
          LowerRandomKeysPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<torch2mlir::torch_c::RandomKeyOp> keys;
    module.walk(
        [&](torch2mlir::torch_c::RandomKeyOp op) { keys.push_back(op); });
    if (keys.empty())
      return;
    OpBuilder builder(module.getBodyRegion());
    auto type = builder.getFunctionType({}, {builder.getI64Type()});
    FailureOr<func::FuncOp> callee =
        torch2mlir::refbackend::declareRuntimeFunction(
            module, kRandomKeyFunction, type);
    if (failed(callee))
      return signalPassFailure();
    for (auto key : keys) {
      builder.setInsertionPoint(key);
      auto call = func::CallOp::create(builder, key.getLoc(), *callee);
      key.replaceAllUsesWith(call.getResult(0));
      key.erase();
    }
  }
};
} // namespace
