//===- VerifyBackendContract.cpp - Check the backend contract -------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/CoreOps.h"
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::torch2mlir::torch {
#define GEN_PASS_DEF_VERIFYBACKENDCONTRACT
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h.inc"
} // namespace mlir::torch2mlir::torch

using namespace mlir;
using namespace mlir::torch2mlir::torch;

/// Why `type` breaks the backend contract, or "" if it does not.
static std::string whyNotBackendType(Type type) {
  auto tensor = dyn_cast<BaseTensorType>(type);
  // Lists and optionals are containers: the tensors put in them are checked
  // where they are produced.
  if (!tensor)
    return "";
  if (!tensor.hasValueSemantics())
    return "a tensor without value semantics (!torch.tensor)";
  if (!tensor.hasSizes())
    return "a tensor of unknown rank";
  if (!tensor.hasDtype())
    return "a tensor of unknown dtype";
  return "";
}

/// The advice for an op the backend cannot take: how a user of `func`
/// (from FX or from ONNX) avoids it.
static void addWayOut(InFlightDiagnostic &diag, Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (func && func->hasAttr("torch.onnx_meta.ir_version")) {
    diag << "Way out: express this node of the model with supported ONNX "
            "ops, or convert the model to an opset whose version of the op "
            "is lowered (compile_onnx(..., opset_version=N))";
    return;
  }
  diag << "Way out: rewrite this line of the model with supported ops, or "
          "decompose the op before import: "
          "torch2mlir.compile(model, args, decompositions=table) or "
          "torch2mlir.export_and_import(model, *args, decompositions=table), "
          "with a table such as torch.export.default_decompositions()";
}

namespace {
struct VerifyBackendContractPass
    : public ::mlir::torch2mlir::torch::impl::VerifyBackendContractBase<
          VerifyBackendContractPass> {
  using VerifyBackendContractBase::VerifyBackendContractBase;

  void runOnOperation() override {
    llvm::StringSet<> legal;
    for (const std::string &name : legalOps)
      legal.insert(name);
    bool ok = true;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto unknown = dyn_cast<OperatorOp>(op)) {
        InFlightDiagnostic diag = unknown.emitError();
        diag << "unsupported op '" << unknown.getName()
             << "': torch2mlir has no lowering for it. ";
        addWayOut(diag, op);
        ok = false;
        return WalkResult::skip();
      }
      if (isa<TorchDialect>(op->getDialect()) && !isCoreOp(op) &&
          !isLegalOpName(legal, op->getName().getStringRef())) {
        InFlightDiagnostic diag = op->emitError();
        diag << "'" << op->getName()
             << "' is not in the backend contract's core op set and the "
                "backend does not lower it itself; torch-decompose-complex-"
                "ops could not rewrite it (it needs known sizes and dtypes, "
                "and constant arguments such as dims and flags). ";
        addWayOut(diag, op);
        ok = false;
        return WalkResult::advance();
      }
      auto check = [&](Type type, StringRef what) {
        std::string why = whyNotBackendType(type);
        if (why.empty())
          return;
        op->emitError() << "'" << op->getName() << "' " << what << " " << why
                        << " (" << type
                        << "); the backend contract needs every tensor to be "
                           "a !torch.vtensor of known rank and dtype";
        ok = false;
      };
      for (Type type : op->getResultTypes())
        check(type, "produces");
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            check(arg.getType(), "has an argument that is");
      return WalkResult::advance();
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
