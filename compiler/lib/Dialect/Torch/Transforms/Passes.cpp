//===- Passes.cpp - Pipelines of the torch dialect ------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::torch2mlir::torch;

void mlir::torch2mlir::torch::createLowerToBackendContractPipeline(
    OpPassManager &pm, const BackendContractPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  DecomposeComplexOpsOptions decompose;
  decompose.legalOps.assign(options.legalOps.begin(), options.legalOps.end());
  decompose.float64 = options.float64;
  pm.addNestedPass<func::FuncOp>(createDecomposeComplexOps(decompose));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  VerifyBackendContractOptions verify;
  verify.legalOps.assign(options.legalOps.begin(), options.legalOps.end());
  pm.addPass(createVerifyBackendContract(verify));
}

void mlir::torch2mlir::torch::registerTorchPasses() {
  registerTorchTransformsPasses();
  PassPipelineRegistration<BackendContractPipelineOptions>(
      "torch-lower-to-backend-contract",
      "From imported torch IR to the backend contract (value semantics, "
      "known ranks and dtypes, decompositions done)",
      createLowerToBackendContractPipeline);
}
