//===- Registration.cpp - C API of torch2mlir -----------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/CAPI/Registration.h"
#include "torch2mlir/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

void torch2mlirRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::torch2mlir::registerAllDialects(*unwrap(registry));
}

void torch2mlirRegisterAllPasses(void) {
  mlir::torch2mlir::registerAllPasses();
}

bool torch2mlirSetLLVMOptions(int argc, const char *const *argv) {
  return llvm::cl::ParseCommandLineOptions(argc, argv, "", &llvm::errs());
}
