//===- VerifyBackendContract.cpp - Check the backend contract -------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"

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

namespace {
struct VerifyBackendContractPass
    : public ::mlir::torch2mlir::torch::impl::VerifyBackendContractBase<
          VerifyBackendContractPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](Operation *op) {
      if (auto unknown = dyn_cast<OperatorOp>(op)) {
        InFlightDiagnostic diag = unknown.emitError();
        diag << "unsupported op '" << unknown.getName()
             << "': torch2mlir has no lowering for it. ";
        auto func = unknown->getParentOfType<func::FuncOp>();
        bool fromOnnx = func && func->hasAttr("torch.onnx_meta.ir_version");
        if (fromOnnx)
          diag << "Way out: express this node of the model with supported "
                  "ONNX ops, or convert the model to an opset whose version "
                  "of the op is lowered (compile_onnx(..., opset_version=N))";
        else
          diag << "Way out: rewrite this line of the model with supported "
                  "ops, or decompose the op before import: "
                  "torch2mlir.compile(model, args, decompositions=table) or "
                  "torch2mlir.export_and_import(model, *args, "
                  "decompositions=table), with a table such as "
                  "torch.export.default_decompositions()";
        ok = false;
        return;
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
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
