//===- FuseElementwise.cpp - Elementwise producer/consumer fusion ---------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

namespace {
/// Whether `op`'s body holds a division, a remainder or a math function:
/// an op that costs many multiplies.
bool hasCostlyOp(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp,
            arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
            arith::CeilDivUIOp, arith::FloorDivSIOp>(nested) ||
        isa<math::MathDialect>(nested->getDialect()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// linalg.transpose and linalg.broadcast as linalg.generic, which the
/// elementwise fusion patterns take (they only fuse generics): a transpose
/// or broadcast then fuses into its consumer instead of being materialized.
template <typename OpTy> struct GeneralizeLayoutOp : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

struct FuseElementwisePass
    : public ::mlir::torch2mlir::refbackend::impl::FuseElementwiseBase<
          FuseElementwisePass> {
  using FuseElementwiseBase::FuseElementwiseBase;
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // A producer with several users would be recomputed in each of them.
    // Each fusion copies the producer's body into the consumer's, so a long
    // chain fused into one op costs the square of its length: bodies stop
    // growing at max-body-size ops (a 5,000-op chain took 37 s).
    size_t maxSize = maxBodySize;
    linalg::ControlFusionFn control = [maxSize](OpOperand *fusedOperand) {
      Operation *producer = fusedOperand->get().getDefiningOp();
      if (!producer || !producer->hasOneUse())
        return false;
      // A producer that the consumer reads through a broadcast (fewer dims
      // than its loops: a per-row 1 / sum) would be recomputed at every
      // element of the broadcast dims: fused only when its body is cheap.
      auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
      if (consumer &&
          !consumer.getMatchingIndexingMap(fusedOperand).isPermutation() &&
          hasCostlyOp(producer))
        return false;
      auto bodySize = [](Operation *op) -> size_t {
        auto generic = dyn_cast<linalg::GenericOp>(op);
        return generic ? generic.getBody()->getOperations().size() : 1;
      };
      return bodySize(producer) + bodySize(fusedOperand->getOwner()) <= maxSize;
    };
    patterns.add<GeneralizeLayoutOp<linalg::TransposeOp>,
                 GeneralizeLayoutOp<linalg::BroadcastOp>>(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    // Fusion only merges ops: IR that has not reached a fixed point within
    // the driver's iteration limit (long chains of elementwise ops, such
    // as the 50-term series of torch.special.i1) is still correct, just
    // less fused, so that is no failure.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};
} // namespace
