//===- Passes.cpp - Backend type conversion passes and pipelines ----------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/TorchConversion/Transforms/Passes.h"
#include "torch2mlir/Conversion/Passes.h"
#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"
#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"
#include "torch2mlir/Dialect/TorchConversion/Transforms/BackendTypeConversion.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::torch2mlir::torch_c {
#define GEN_PASS_DEF_FUNCBACKENDTYPECONVERSION
#define GEN_PASS_DEF_FINALIZINGBACKENDTYPECONVERSION
#define GEN_PASS_DEF_VERIFYLINALGONTENSORSBACKENDCONTRACT
#define GEN_PASS_DEF_VERIFYTOSABACKENDCONTRACT
#include "torch2mlir/Dialect/TorchConversion/Transforms/Passes.h.inc"
} // namespace mlir::torch2mlir::torch_c

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch_c;

namespace {

struct FuncBackendTypeConversionPass
    : public ::mlir::torch2mlir::torch_c::impl::FuncBackendTypeConversionBase<
          FuncBackendTypeConversionPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter typeConverter;
    ConversionTarget target(*context);
    setupBackendTypeConversion(target, typeConverter);

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(
        patterns, typeConverter);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return typeConverter.isSignatureLegal(op.getFunctionType()) &&
             typeConverter.isLegal(&op.getBody());
    });
    populateCallOpTypeConversionPattern(patterns, typeConverter);
    target.addDynamicallyLegalOp<func::CallOp>(
        [&](func::CallOp op) { return typeConverter.isLegal(op); });
    populateReturnOpTypeConversionPattern(patterns, typeConverter);
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [&](func::ReturnOp op) { return typeConverter.isLegal(op); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

/// A torch_c op converting between a torch type and a builtin type (all of
/// the dialect but `torch_c.random_key`, which stays for the backend).
static bool isMaterialization(Operation *op) {
  return isa<TorchConversionDialect>(op->getDialect()) && !isa<RandomKeyOp>(op);
}

struct FinalizingBackendTypeConversionPass
    : public ::mlir::torch2mlir::torch_c::impl::
          FinalizingBackendTypeConversionBase<
              FinalizingBackendTypeConversionPass> {
  void runOnOperation() override {
    // Fold `to(from(x))` pairs, then erase materializations left unused.
    bool changed = true;
    while (changed) {
      changed = false;
      getOperation().walk([&](Operation *op) {
        if (!isMaterialization(op))
          return;
        Value operand = op->getOperand(0);
        Operation *producer = operand.getDefiningOp();
        if (producer && isa<TorchConversionDialect>(producer->getDialect()) &&
            producer->getOperand(0).getType() == op->getResult(0).getType()) {
          op->getResult(0).replaceAllUsesWith(producer->getOperand(0));
          changed = true;
        }
        if (op->use_empty()) {
          op->erase();
          changed = true;
        }
      });
    }
    // An op of the torch dialect left over is what the user needs to hear
    // about: it had no lowering (its converter already said why, if any).
    WalkResult unlowered = getOperation().walk([&](Operation *op) {
      if (!isa_and_nonnull<torch::TorchDialect>(op->getDialect()) ||
          op->hasTrait<OpTrait::ConstantLike>() ||
          isa<torch::PrimListConstructOp>(op))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' was not lowered to the backend: no lowering for "
                         "this op (or its operands) yet";
      return WalkResult::interrupt();
    });
    if (unlowered.wasInterrupted())
      return signalPassFailure();
    WalkResult leftover = getOperation().walk([&](Operation *op) {
      if (!isMaterialization(op))
        return WalkResult::advance();
      Operation *user = op->use_empty() ? nullptr : *op->user_begin();
      Operation *producer = op->getOperand(0).getDefiningOp();
      Operation *culprit =
          producer && !isa<TorchConversionDialect>(producer->getDialect())
              ? producer
              : user;
      InFlightDiagnostic diag =
          op->emitError("could not finalize the backend type conversion: a "
                        "torch-typed value is still produced or used");
      if (culprit)
        diag.attachNote(culprit->getLoc())
            << "by '" << culprit->getName()
            << "', which was not converted to the backend";
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};

/// Reports every op outside `isLegal`, and every torch type left, naming
/// `backend`.
static LogicalResult
verifyBackendContract(Operation *root, StringRef backend,
                      function_ref<bool(Operation *)> isLegal) {
  bool ok = true;
  root->walk([&](Operation *op) {
    if (isa<ModuleOp>(op))
      return;
    if (!isLegal(op)) {
      op->emitError() << "'" << op->getName() << "' is not supported by the "
                      << backend << " backend (no lowering for it)";
      ok = false;
      return;
    }
    auto isTorchType = [](Type type) {
      return isa<torch::TorchDialect>(type.getDialect());
    };
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      FunctionType type = func.getFunctionType();
      if (llvm::any_of(type.getInputs(), isTorchType) ||
          llvm::any_of(type.getResults(), isTorchType)) {
        op->emitError() << "function '" << func.getSymName()
                        << "' still has torch types in its signature " << type;
        ok = false;
      }
    }
    if (llvm::any_of(op->getResultTypes(), isTorchType) ||
        llvm::any_of(op->getOperandTypes(), isTorchType)) {
      op->emitError() << "'" << op->getName()
                      << "' still uses torch types after conversion";
      ok = false;
    }
  });
  return success(ok);
}

struct VerifyLinalgOnTensorsBackendContractPass
    : public ::mlir::torch2mlir::torch_c::impl::
          VerifyLinalgOnTensorsBackendContractBase<
              VerifyLinalgOnTensorsBackendContractPass> {
  void runOnOperation() override {
    if (failed(verifyBackendContract(
            getOperation(), "linalg-on-tensors", [](Operation *op) {
              return isa_and_nonnull<func::FuncDialect, linalg::LinalgDialect,
                                     tensor::TensorDialect, arith::ArithDialect,
                                     math::MathDialect, scf::SCFDialect,
                                     cf::ControlFlowDialect,
                                     complex::ComplexDialect>(
                         op->getDialect()) ||
                     isa<RandomKeyOp>(op);
            })))
      signalPassFailure();
  }
};

struct VerifyTosaBackendContractPass
    : public ::mlir::torch2mlir::torch_c::impl::VerifyTosaBackendContractBase<
          VerifyTosaBackendContractPass> {
  void runOnOperation() override {
    if (failed(verifyBackendContract(getOperation(), "TOSA", [](Operation *op) {
          return isa_and_nonnull<func::FuncDialect, tosa::TosaDialect>(
              op->getDialect());
        })))
      signalPassFailure();
  }
};

} // namespace

void mlir::torch2mlir::torch_c::
    createTorchBackendToLinalgOnTensorsBackendPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createConvertTorchToLinalg());
  pm.addNestedPass<func::FuncOp>(createConvertTorchToArith());
  pm.addPass(createFuncBackendTypeConversion());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createFinalizingBackendTypeConversion());
  pm.addPass(createCSEPass());
  pm.addPass(createVerifyLinalgOnTensorsBackendContract());
}

void mlir::torch2mlir::torch_c::createTorchBackendToTosaBackendPipeline(
    OpPassManager &pm) {
  pm.addPass(torch::createNarrowSi64());
  pm.addNestedPass<func::FuncOp>(createConvertTorchToTosa());
  pm.addPass(createFuncBackendTypeConversion());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createFinalizingBackendTypeConversion());
  pm.addPass(createCSEPass());
  pm.addPass(createVerifyTosaBackendContract());
  tosa::TosaAttachTargetOptions target;
  target.specificationVersion = tosa::SpecificationVersion::V_1_0;
  target.level = tosa::Level::eightK;
  target.profiles = {"pro_int", "pro_fp"};
  target.extensions = {"bf16"};
  pm.addPass(tosa::createTosaAttachTarget(target));
  tosa::TosaValidationOptions validation;
  validation.strictOpSpecAlignment = true;
  validation.allowInvalidOpDatatypeCombinations = false;
  pm.addPass(tosa::createTosaValidation(validation));
}

void mlir::torch2mlir::torch_c::createTosaBackendToLinalgOnTensorsPipeline(
    OpPassManager &pm) {
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(), std::nullopt);
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
}

void mlir::torch2mlir::torch_c::registerTorchConversionPasses() {
  registerTorchConversionTransformsPasses();
  PassPipelineRegistration<>(
      "torch-backend-to-linalg-on-tensors-backend-pipeline",
      "From the backend contract to linalg-on-tensors (builtin types; linalg, "
      "tensor, arith, math ops)",
      createTorchBackendToLinalgOnTensorsBackendPipeline);
  PassPipelineRegistration<>(
      "torch-backend-to-tosa-backend-pipeline",
      "From the backend contract to TOSA 1.0 (builtin types; tosa ops; the "
      "module declares and is validated against its TOSA target)",
      createTorchBackendToTosaBackendPipeline);
  PassPipelineRegistration<>(
      "tosa-backend-to-linalg-on-tensors-pipeline",
      "A TOSA backend module to linalg-on-tensors, for the RefBackend",
      createTosaBackendToLinalgOnTensorsPipeline);
}
