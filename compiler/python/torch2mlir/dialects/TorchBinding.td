//===- TorchBinding.td - Python bindings of the torch dialect -*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_PYTHON_TORCHBINDING
#define TORCH2MLIR_PYTHON_TORCHBINDING

include "torch2mlir/Dialect/Torch/IR/TorchOps.td"

#endif // TORCH2MLIR_PYTHON_TORCHBINDING
