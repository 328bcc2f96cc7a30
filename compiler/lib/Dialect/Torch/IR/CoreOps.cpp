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

bool mlir::torch2mlir::torch::isLegalOpName(const llvm::StringSet<> &legalOps,
                                            StringRef opName) {
  return legalOps.contains(opName) ||
         (opName.consume_front("torch.") && legalOps.contains(opName));
}
