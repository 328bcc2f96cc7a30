//===- CoreOps.cpp - The backend contract's core op set -------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/CoreOps.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::torch2mlir::torch;

bool mlir::torch2mlir::torch::isCoreOp(Operation *op) {
  static const llvm::DenseSet<TypeID> ids = {
#define TORCH2MLIR_CORE_OP(OpClass) TypeID::get<OpClass>(),
#include "torch2mlir/Dialect/Torch/IR/CoreOps.def"
  };
  std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
  return name && ids.contains(name->getTypeID());
}

ArrayRef<StringRef> mlir::torch2mlir::torch::getCoreOpNames() {
  static const StringRef names[] = {
#define TORCH2MLIR_CORE_OP(OpClass) OpClass::getOperationName(),
#include "torch2mlir/Dialect/Torch/IR/CoreOps.def"
  };
  return names;
}
