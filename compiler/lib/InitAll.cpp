//===- InitAll.cpp - Register everything torch2mlir has -------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/InitAll.h"
#include "torch2mlir/Conversion/Passes.h"
#include "torch2mlir/Conversion/TorchOnnxToTorch/TorchOnnxToTorch.h"
#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h"
#include "torch2mlir/Dialect/TorchConversion/Transforms/Passes.h"
#include "torch2mlir/RefBackend/RefBackend.h"

#include <mutex>

using namespace mlir;

void mlir::torch2mlir::registerAllDialects(DialectRegistry &registry) {
  registry.insert<torch::TorchDialect, torch_c::TorchConversionDialect>();
}

void mlir::torch2mlir::registerAllPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    torch::registerTorchPasses();
    torch_c::registerTorchConversionPasses();
    registerTorch2MlirConversionPasses();
    onnx_c::registerTorchOnnxToTorchPipeline();
    refbackend::registerRefBackendPipeline();
  });
}
