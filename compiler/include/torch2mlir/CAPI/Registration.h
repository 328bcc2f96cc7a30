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

/// Parses LLVM command-line options (argv[0] is a program name) into the
/// process's LLVM (the one the ExecutionEngine compiles with). Returns
/// false, and prints why, if an option is unknown.
MLIR_CAPI_EXPORTED bool torch2mlirSetLLVMOptions(int argc,
                                                 const char *const *argv);

#ifdef __cplusplus
}
#endif

#endif // TORCH2MLIR_C_REGISTRATION_H
