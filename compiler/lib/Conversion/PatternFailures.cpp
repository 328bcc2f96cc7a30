//===- PatternFailures.cpp - Why conversion patterns gave up --------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "PatternFailures.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::torch2mlir;

/// The reasons of the conversion in progress on this thread, by op.
static thread_local llvm::DenseMap<Operation *, std::string> *failureReasons =
    nullptr;

LogicalResult
mlir::torch2mlir::reportFailure(ConversionPatternRewriter &rewriter,
                                Operation *op, const Twine &reason) {
  if (failureReasons)
    (*failureReasons)[op] = reason.str();
  return rewriter.notifyMatchFailure(op, reason);
}

LogicalResult mlir::torch2mlir::applyConversionExplained(
    Operation *root, const ConversionTarget &target,
    const FrozenRewritePatternSet &patterns, StringRef into) {
  llvm::DenseMap<Operation *, std::string> reasons;
  llvm::DenseMap<Operation *, std::string> *outer = failureReasons;
  failureReasons = &reasons;
  auto restore = llvm::make_scope_exit([&] { failureReasons = outer; });
  // Where the conversion stopped: "failed to legalize operation '<name>'".
  std::optional<std::pair<Location, std::string>> stopped;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler handler(
        root->getContext(), [&](Diagnostic &diag) -> LogicalResult {
          std::string message = diag.str();
          if (diag.getSeverity() != DiagnosticSeverity::Error ||
              !StringRef(message).starts_with("failed to legalize operation"))
            return failure(); // Not ours: let it through.
          if (!stopped)
            stopped.emplace(
                diag.getLocation(),
                StringRef(message).split('\'').second.split('\'').first.str());
          return success();
        });
    result = applyPartialConversion(root, target, patterns);
  }
  if (succeeded(result))
    return success();
  // The conversion was rolled back: the ops it could not legalize are
  // still in place, with the reasons recorded against them.
  bool reported = false;
  root->walk([&](Operation *op) {
    auto reason = reasons.find(op);
    bool isStop = stopped && op->getLoc() == stopped->first &&
                  op->getName().getStringRef() == stopped->second;
    if (!target.isIllegal(op) || (reason == reasons.end() && !isStop))
      return;
    InFlightDiagnostic error = op->emitError()
                               << "'" << op->getName()
                               << "' could not be lowered to " << into;
    if (reason != reasons.end())
      error << ": " << reason->second;
    reported = true;
  });
  if (!reported && stopped)
    emitError(stopped->first)
        << "'" << stopped->second << "' could not be lowered to " << into;
  return failure();
}
