//===- DecomposeComplexOps.cpp - ATen ops in terms of simpler ones --------===//
//
// Part of the torch2mlir project.
//
// The pass: the decompositions of every family (Decompose/), minus those of
// the ops the backend keeps (`legal-ops`), applied greedily; for a backend
// that keeps attention, attention written out as matmuls around a softmax
// is first recomposed into it.
//
//===----------------------------------------------------------------------===//

#include "Decompose/Utils.h"
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::torch2mlir::torch {
#define GEN_PASS_DEF_DECOMPOSECOMPLEXOPS
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h.inc"
} // namespace mlir::torch2mlir::torch

using namespace mlir;
using namespace mlir::torch2mlir::torch;

namespace {
struct DecomposeComplexOpsPass
    : public ::mlir::torch2mlir::torch::impl::DecomposeComplexOpsBase<
          DecomposeComplexOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::StringSet<> legal;
    for (const std::string &name : legalOps)
      legal.insert(name);
    RewritePatternSet patterns(&getContext());
    decompose::DecompositionPatterns set(patterns, legal, float64);
    if (set.keeps<AtenScaledDotProductAttentionOp>()) {
      RewritePatternSet recompositions(&getContext());
      decompose::populateAttentionRecompositions(recompositions);
      if (failed(
              applyPatternsGreedily(getOperation(), std::move(recompositions))))
        return signalPassFailure();
    }
    decompose::populateLinearDecompositions(set);
    decompose::populateShapeDecompositions(set);
    decompose::populateNormalizationDecompositions(set);
    decompose::populateReductionDecompositions(set);
    decompose::populatePoolingDecompositions(set);
    decompose::populateFactoryDecompositions(set);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
