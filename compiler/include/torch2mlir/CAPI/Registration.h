/*===- Registration.h - C API of torch2mlir -----------------------*- C -*-===*\
|*                                                                            *|
|* Part of the torch2mlir project.                                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TORCH2MLIR_C_REGISTRATION_H
#define TORCH2MLIR_C_REGISTRATION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds the torch and torch_c dialects to `registry`.
MLIR_CAPI_EXPORTED void
torch2mlirRegisterAllDialects(MlirDialectRegistry registry);

/// Registers the torch2mlir passes and pipelines with the global registry.
MLIR_CAPI_EXPORTED void torch2mlirRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // TORCH2MLIR_C_REGISTRATION_H
