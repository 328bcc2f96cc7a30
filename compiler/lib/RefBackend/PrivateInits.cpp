//===- PrivateInits.cpp - One filled init per destination-style op --------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_PRIVATEINITS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

namespace {
struct PrivateInitsPass
    : public ::mlir::torch2mlir::refbackend::impl::PrivateInitsBase<
          PrivateInitsPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->getResult(0).hasOneUse())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills) {
      Value filled = fill->getResult(0);
      SmallVector<OpOperand *> inits;
      size_t uses = 0;
      for (OpOperand &use : filled.getUses()) {
        ++uses;
        auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
        if (dps && dps.isDpsInit(&use))
          inits.push_back(&use);
      }
      // Without readers of the shared value, one writer keeps the original:
      // the first in its block, so the IR reads in program order.
      OpOperand *keep = nullptr;
      if (!inits.empty() && inits.size() == uses) {
        keep = inits.front();
        for (OpOperand *use : inits)
          if (use->getOwner()->getBlock() == keep->getOwner()->getBlock() &&
              use->getOwner()->isBeforeInBlock(keep->getOwner()))
            keep = use;
      }
      for (OpOperand *use : inits) {
        if (use == keep)
          continue;
        OpBuilder builder(use->getOwner());
        IRMapping mapping;
        Value dest = fill.getDpsInitOperand(0)->get();
        if (auto empty = dest.getDefiningOp<tensor::EmptyOp>())
          mapping.map(dest, builder.clone(*empty)->getResult(0));
        use->set(builder.clone(*fill, mapping)->getResult(0));
      }
    }
  }
};
} // namespace
