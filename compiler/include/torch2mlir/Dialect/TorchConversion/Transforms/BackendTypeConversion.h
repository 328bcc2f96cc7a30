//===- BackendTypeConversion.h - torch types to builtin types ---*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_BACKENDTYPECONVERSION_H
#define TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_BACKENDTYPECONVERSION_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir::torch_c {

/// Teaches `typeConverter` the backend types of torch types
/// (`!torch.vtensor` -> `tensor`, `!torch.int` -> `i64`, `!torch.float` ->
/// `f64`, `!torch.bool` -> `i1`) with `torch_c` materializations both ways,
/// and marks the `torch_c` dialect legal in `target`.
void setupBackendTypeConversion(ConversionTarget &target,
                                TypeConverter &typeConverter);

} // namespace mlir::torch2mlir::torch_c

#endif // TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_BACKENDTYPECONVERSION_H
