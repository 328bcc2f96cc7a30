//===- ParallelCopies.cpp - Large buffer copies as parallel loops ---------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_PARALLELCOPIES
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

namespace {

/// The size in bytes of a copy of `type`, if static and of integer or float
/// elements.
std::optional<int64_t> staticCopyBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!type.hasStaticShape() || type.getRank() == 0 ||
      !isa<IntegerType, FloatType>(element))
    return std::nullopt;
  int64_t bits = element.getIntOrFloatBitWidth();
  return type.getNumElements() * std::max<int64_t>(bits / 8, 1);
}

struct ParallelCopiesPass
    : public ::mlir::torch2mlir::refbackend::impl::ParallelCopiesBase<
          ParallelCopiesPass> {
  using ParallelCopiesBase::ParallelCopiesBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<memref::CopyOp> copies;
    for (Block &block : func.getBody())
      for (auto copy : block.getOps<memref::CopyOp>()) {
        auto source = dyn_cast<MemRefType>(copy.getSource().getType());
        auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
        if (!source || !target)
          continue;
        std::optional<int64_t> bytes = staticCopyBytes(source);
        if (bytes && *bytes >= minBytes &&
            source.getShape() == target.getShape())
          copies.push_back(copy);
      }
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
