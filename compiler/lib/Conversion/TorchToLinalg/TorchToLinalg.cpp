//===- TorchToLinalg.cpp - The convert-torch-to-linalg pass ---------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"
#include "torch2mlir/Conversion/Passes.h"
#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"
#include "torch2mlir/Dialect/TorchConversion/Transforms/BackendTypeConversion.h"

#include "Utils.h"

namespace mlir::torch2mlir {
#define GEN_PASS_DEF_CONVERTTORCHTOLINALG
#include "torch2mlir/Conversion/Passes.h.inc"
} // namespace mlir::torch2mlir

using namespace mlir;
using namespace mlir::torch2mlir;

namespace {
struct ConvertTorchToLinalgPass
    : public ::mlir::torch2mlir::impl::ConvertTorchToLinalgBase<
          ConvertTorchToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // Only the ops of lowersComplex take complex tensors (the other patterns
    // and scalar helpers assume ints and floats): any other op that has one
    // is an error here, not an assertion deep in a pattern.
    WalkResult complex = getOperation().walk([](Operation *op) {
      if (!isa<torch::TorchDialect>(op->getDialect()) ||
          torch_to_linalg::lowersComplex(op))
        return WalkResult::advance();
      auto isComplex = [](Type type) {
        auto tensor = dyn_cast<torch::BaseTensorType>(type);
        return tensor && tensor.hasDtype() &&
               isa<ComplexType>(tensor.getDtype());
      };
      if (llvm::none_of(op->getOperandTypes(), isComplex) &&
          llvm::none_of(op->getResultTypes(), isComplex))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' could not be lowered to linalg-on-tensors: "
                         "unsupported: complex dtypes for this op (way out: "
                         "compute on torch.view_as_real pairs)";
      return WalkResult::interrupt();
    });
    if (complex.wasInterrupted())
      return signalPassFailure();
    ConversionTarget target(*context);
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect,
                           func::FuncDialect>();
    // Run-time size checks (refbackend-lower-asserts reports them).
    target.addLegalDialect<cf::ControlFlowDialect>();
    // Ops without a lowering here stay, for a later pass or the backend
    // contract verifier to report.
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    TypeConverter typeConverter;
    torch_c::setupBackendTypeConversion(target, typeConverter);

    RewritePatternSet patterns(context);
    populateLinearPatternsAndLegality(typeConverter, patterns, target);
    populateAttentionPatternsAndLegality(typeConverter, patterns, target);
    populateElementwisePatternsAndLegality(typeConverter, patterns, target);
    populateComplexPatternsAndLegality(typeConverter, patterns, target);
    populateComparisonPatternsAndLegality(typeConverter, patterns, target);
    populateDataMovementPatternsAndLegality(typeConverter, patterns, target);
    populateIndexingPatternsAndLegality(typeConverter, patterns, target);
    populateCreationPatternsAndLegality(typeConverter, patterns, target);
    populateReductionPatternsAndLegality(typeConverter, patterns, target);
    populatePoolingPatternsAndLegality(typeConverter, patterns, target);
    populateResamplingPatternsAndLegality(typeConverter, patterns, target);
    populateEmbeddingBagPatternsAndLegality(typeConverter, patterns, target);
    populateNormalizationPatternsAndLegality(typeConverter, patterns, target);
    populatePolynomialPatternsAndLegality(typeConverter, patterns, target);
    populateRandomPatternsAndLegality(typeConverter, patterns, target);
    populateScatterPatternsAndLegality(typeConverter, patterns, target);
    populateSortPatternsAndLegality(typeConverter, patterns, target);

    if (failed(applyConversionExplained(
            getOperation(), target, std::move(patterns), "linalg-on-tensors")))
      return signalPassFailure();
  }
};
} // namespace
