//===- DistinctResults.cpp - One value per function result ----------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_DISTINCTRESULTS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

namespace {
struct DistinctResultsPass
    : public ::mlir::torch2mlir::refbackend::impl::DistinctResultsBase<
          DistinctResultsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallPtrSet<Value, 4> seen;
      OpBuilder builder(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        // A returned tensor.empty that something else also uses (the init
        // of an op whose result is returned too: canonicalization folds a
        // zero-size result, such as a layer norm's statistics of no rows,
        // to an empty) would share that op's buffer: its own empty instead.
        if (auto empty = operand.get().getDefiningOp<tensor::EmptyOp>();
            empty && !empty->hasOneUse())
          operand.set(builder.clone(*empty)->getResult(0));
        Value value = operand.get();
        auto type = dyn_cast<RankedTensorType>(value.getType());
        if (!type || seen.insert(value).second)
          continue;
        // A repeated result: a fresh tensor holding a copy of the value.
        Value copy = bufferization::AllocTensorOp::create(
            builder, ret.getLoc(), type, /*dynamicSizes=*/ValueRange(), value);
        operand.set(copy);
      }
    });
  }
};
} // namespace
