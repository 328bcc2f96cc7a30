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
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"

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
    populateElementwisePatternsAndLegality(typeConverter, patterns, target);
    populateComparisonPatternsAndLegality(typeConverter, patterns, target);
    populateDataMovementPatternsAndLegality(typeConverter, patterns, target);
    populateIndexingPatternsAndLegality(typeConverter, patterns, target);
    populateCreationPatternsAndLegality(typeConverter, patterns, target);
    populateReductionPatternsAndLegality(typeConverter, patterns, target);
    populatePoolingPatternsAndLegality(typeConverter, patterns, target);
    populateNNPatternsAndLegality(typeConverter, patterns, target);
    populateNormalizationPatternsAndLegality(typeConverter, patterns, target);
    populateRandomPatternsAndLegality(typeConverter, patterns, target);
    populateScatterPatternsAndLegality(typeConverter, patterns, target);
    populateSortPatternsAndLegality(typeConverter, patterns, target);

    // The reason a pattern gave up, by op location, so that a failure to
    // legalize an op says why instead of only "failed to legalize".
    torch_to_linalg::FailureReasons reasons;
    torch_to_linalg::setFailureReasons(&reasons);
    auto resetReasons = llvm::make_scope_exit(
        [] { torch_to_linalg::setFailureReasons(nullptr); });

    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error ||
          !StringRef(diag.str()).starts_with("failed to legalize operation"))
        return failure(); // Not ours: let it through.
      std::string message = diag.str();
      StringRef opName =
          StringRef(message).split('\'').second.split('\'').first;
      auto reason = reasons.find(diag.getLocation());
      InFlightDiagnostic error =
          emitError(diag.getLocation())
          << "'" << opName << "' could not be lowered to linalg-on-tensors";
      if (reason != reasons.end())
        error << ": " << reason->second;
      return success();
    });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
