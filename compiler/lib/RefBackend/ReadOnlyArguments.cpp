//===- ReadOnlyArguments.cpp - Tensor arguments are not writable ----------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_READONLYARGUMENTS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

namespace {
struct ReadOnlyArgumentsPass
    : public ::mlir::torch2mlir::refbackend::impl::ReadOnlyArgumentsBase<
          ReadOnlyArgumentsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.isPublic())
      return;
    auto readOnly = BoolAttr::get(&getContext(), false);
    for (BlockArgument argument : func.getArguments())
      if (isa<TensorType>(argument.getType()))
        func.setArgAttr(argument.getArgNumber(),
                        bufferization::BufferizationDialect::kWritableAttrName,
                        readOnly);
  }
};
} // namespace
