//===- TorchToTosa.cpp - The convert-torch-to-tosa pass -------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Conversion/TorchToTosa/TorchToTosa.h"
#include "torch2mlir/Conversion/Passes.h"
#include "torch2mlir/Dialect/TorchConversion/Transforms/BackendTypeConversion.h"

#include "../PatternFailures.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace mlir::torch2mlir {
#define GEN_PASS_DEF_CONVERTTORCHTOTOSA
#include "torch2mlir/Conversion/Passes.h.inc"
} // namespace mlir::torch2mlir

using namespace mlir;
using namespace mlir::torch2mlir;

namespace {
struct ConvertTorchToTosaPass
    : public ::mlir::torch2mlir::impl::ConvertTorchToTosaBase<
          ConvertTorchToTosaPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addLegalDialect<tosa::TosaDialect, func::FuncDialect>();
    // Ops without a lowering here stay, for the backend contract verifier
    // to report.
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    TypeConverter typeConverter;
    torch_c::setupBackendTypeConversion(target, typeConverter);

    RewritePatternSet patterns(context);
    populateTosaElementwisePatternsAndLegality(typeConverter, patterns, target);
    populateTosaMathPatternsAndLegality(typeConverter, patterns, target);
    populateTosaLinearPatternsAndLegality(typeConverter, patterns, target);
    populateTosaDataMovementPatternsAndLegality(typeConverter, patterns,
                                                target);
    populateTosaIndexingPatternsAndLegality(typeConverter, patterns, target);
    populateTosaReductionPatternsAndLegality(typeConverter, patterns, target);
    populateTosaPoolingPatternsAndLegality(typeConverter, patterns, target);
    if (failed(applyConversionExplained(getOperation(), target,
                                        std::move(patterns), "TOSA")))
      return signalPassFailure();
  }
};
} // namespace
