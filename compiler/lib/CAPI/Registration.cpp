//===- Registration.cpp - C API of torch2mlir -----------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/CAPI/Registration.h"
#include "torch2mlir/InitAll.h"

#include "mlir/CAPI/IR.h"

void torch2mlirRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::torch2mlir::registerAllDialects(*unwrap(registry));
}

void torch2mlirRegisterAllPasses(void) {
  mlir::torch2mlir::registerAllPasses();
}
