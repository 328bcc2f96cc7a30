//===- CoreOps.h - The backend contract's core op set -----------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_COREOPS_H
#define TORCH2MLIR_DIALECT_TORCH_IR_COREOPS_H

#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"

#include <type_traits>

namespace mlir::torch2mlir::torch {

/// Whether `OpTy` is in the backend contract's core op set (CoreOps.def), at
/// compile time.
template <typename OpTy> struct IsCoreOp : std::false_type {};
#define TORCH2MLIR_CORE_OP(OpClass)                                            \
  template <> struct IsCoreOp<OpClass> : std::true_type {};
#include "torch2mlir/Dialect/Torch/IR/CoreOps.def"

/// Marks `OpTys` illegal on a ConversionTarget: the ops a conversion to a
/// backend lowers. Each must be core (a compile-time error otherwise), so
/// that TorchToLinalg lowers the core set and nothing else.
template <typename... OpTys, typename ConversionTargetT>
void addIllegalCoreOps(ConversionTargetT &target) {
  static_assert((IsCoreOp<OpTys>::value && ...),
                "a conversion lowers only core ops: add the op to "
                "torch2mlir/Dialect/Torch/IR/CoreOps.def or decompose it in "
                "torch-decompose-complex-ops");
  target.template addIllegalOp<OpTys...>();
}

/// Whether `op` is in the backend contract's core op set (CoreOps.def).
bool isCoreOp(Operation *op);

/// The names of the core ops (`torch.aten.add.Tensor`...), in the order of
/// CoreOps.def.
ArrayRef<StringRef> getCoreOpNames();

} // namespace mlir::torch2mlir::torch

#endif // TORCH2MLIR_DIALECT_TORCH_IR_COREOPS_H
