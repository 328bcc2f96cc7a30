//===- torch2mlir-opt.cpp - The torch2mlir optimizer driver ---------------===//
//
// Part of the torch2mlir project.
//
// mlir-opt with the torch and torch_c dialects, their passes and pipelines
// (torch-lower-to-backend-contract,
// torch-backend-to-linalg-on-tensors-backend-pipeline,
// torch2mlir-refbackend-pipeline), and every upstream dialect and pass.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::torch2mlir::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::torch2mlir::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "torch2mlir optimizer driver\n", registry));
}
