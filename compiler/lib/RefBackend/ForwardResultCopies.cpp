//===- ForwardResultCopies.cpp - Results computed in their out-params -----===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_FORWARDRESULTCOPIES
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

/// A static shape, identity-layout memref of rank >= 1: the only kind of
/// buffer this pass reshapes (contiguous, so any reshape is a view).
static MemRefType getContiguousType(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
      !type.getLayout().isIdentity())
    return nullptr;
  return type;
}

/// The allocation `view` reshapes, following expand_shape and collapse_shape
/// of contiguous buffers; null when the chain starts elsewhere.
static memref::AllocOp getReshapedAlloc(Value view) {
  while (getContiguousType(view)) {
    if (auto alloc = view.getDefiningOp<memref::AllocOp>())
      return alloc;
    if (auto expand = view.getDefiningOp<memref::ExpandShapeOp>())
      view = expand.getSrc();
    else if (auto collapse = view.getDefiningOp<memref::CollapseShapeOp>())
      view = collapse.getSrc();
    else
      return nullptr;
  }
  return nullptr;
}

/// `buffer` (contiguous) viewed as `type` (contiguous, as many elements):
/// collapsed to one dim, then expanded.
static Value createReshapedView(OpBuilder &b, Location loc, Value buffer,
                                MemRefType type) {
  auto from = cast<MemRefType>(buffer.getType());
  if (from.getShape() == type.getShape())
    return buffer;
  auto all = [](int64_t rank) {
    ReassociationIndices indices;
    for (int64_t i = 0; i < rank; ++i)
      indices.push_back(i);
    return SmallVector<ReassociationIndices>{indices};
  };
  Value flat = buffer;
  if (from.getRank() != 1)
    flat = memref::CollapseShapeOp::create(b, loc, buffer, all(from.getRank()));
  if (type.getRank() == 1)
    return flat;
  return memref::ExpandShapeOp::create(b, loc, type.getShape(), flat,
                                       all(type.getRank()));
}

namespace {
struct ForwardResultCopiesPass
    : public ::mlir::torch2mlir::refbackend::impl::ForwardResultCopiesBase<
          ForwardResultCopiesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &entry = func.getBody().front();
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      auto out = dyn_cast<BlockArgument>(copy.getTarget());
      if (!out || out.getOwner() != &entry || !out.hasOneUse() ||
          copy->getBlock() != &entry)
        continue;
      MemRefType outType = getContiguousType(out);
      MemRefType sourceType = getContiguousType(copy.getSource());
      if (!outType || !sourceType ||
          outType.getElementType() != sourceType.getElementType() ||
          outType.getNumElements() != sourceType.getNumElements())
        continue;
      memref::AllocOp alloc = getReshapedAlloc(copy.getSource());
      // An allocation inside a loop or branch is a fresh buffer each time
      // it runs: only one of the entry block stands for the whole call.
      if (!alloc || alloc->getBlock() != &entry)
        continue;
      OpBuilder builder(alloc);
      Value view =
          createReshapedView(builder, alloc.getLoc(), out, alloc.getType());
      alloc.getResult().replaceAllUsesWith(view);
      alloc.erase();
      copy.erase();
    }
  }
};
} // namespace
