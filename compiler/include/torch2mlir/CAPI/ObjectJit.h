/*===- ObjectJit.h - Compile to objects and run them --------------*- C -*-===*\
|*                                                                            *|
|* Part of the torch2mlir project.                                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TORCH2MLIR_C_OBJECTJIT_H
#define TORCH2MLIR_C_OBJECTJIT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Translates `module` (LLVM dialect) to LLVM IR, optimizes it at
/// `optLevel` (0-3) and emits object code for the host CPU. With
/// `vectorMath`, loops calling exp, log, sin, cos, tan, pow, tanh, erf
/// (f32/f64) vectorize into calls of glibc's libmvec (`_ZGV...` symbols;
/// the JIT session must then resolve them). A large module is split into
/// partitions compiled on up to `threads` threads (0: one per hardware
/// thread), each to an object of its own. On success calls `onObject` with
/// the object code (one object, or several in one blob) and returns true;
/// on failure calls `onError` with the reason and returns false. The object
/// code is what the RefBackend caches on disk.
MLIR_CAPI_EXPORTED bool
torch2mlirCompileToObject(MlirModule module, int optLevel, bool vectorMath,
                          int threads, MlirStringCallback onObject,
                          MlirStringCallback onError, void *userData);

/// An object file linked into a JIT session of its own.
typedef struct {
  void *ptr;
} Torch2MlirObjectJit;

/// Links `object` (object code from torch2mlirCompileToObject: all its
/// objects) into a new JIT session
/// whose external symbols resolve in the process and in `sharedLibs`. On
/// failure calls `onError` and returns a null session.
MLIR_CAPI_EXPORTED Torch2MlirObjectJit
torch2mlirObjectJitCreate(MlirStringRef object, intptr_t numSharedLibs,
                          const MlirStringRef *sharedLibs,
                          MlirStringCallback onError, void *userData);

/// The address of symbol `name` in `jit`. On failure (no such symbol, or
/// one it needs does not resolve: the JIT links lazily, at the first lookup)
/// calls `onError` with the JIT's reason and returns 0.
MLIR_CAPI_EXPORTED uint64_t
torch2mlirObjectJitLookup(Torch2MlirObjectJit jit, MlirStringRef name,
                          MlirStringCallback onError, void *userData);

/// Frees the session and its code.
MLIR_CAPI_EXPORTED void torch2mlirObjectJitDestroy(Torch2MlirObjectJit jit);

#ifdef __cplusplus
}
#endif

#endif // TORCH2MLIR_C_OBJECTJIT_H
