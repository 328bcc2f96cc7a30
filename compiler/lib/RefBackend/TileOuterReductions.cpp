//===- TileOuterReductions.cpp - Parallel tiles inside outer reductions ---===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_TILEOUTERREDUCTIONS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

/// Iterations a tile should have at least (a few microseconds of work).
constexpr int64_t kMinTileWork = int64_t(1) << 16;
/// Tiles of one loop at most: enough for the machines this backend runs on.
constexpr int64_t kMaxTiles = 16;
/// Iterations of the tiled loop per tile at least: each step of the
/// reduction then reads runs of a few KiB, which the prefetchers follow
/// (with runs of 1 KiB, a sum over dim 0 of [1024, 4096] on two threads
/// took 0.97 ms, against 0.75-0.8 ms with runs of 4 KiB).
constexpr int64_t kMinTileExtent = 1024;

/// The tile sizes that split `generic`'s first parallel loop after its
/// outermost loop, a reduction, into up to kMaxTiles tiles of at least
/// kMinTileWork iterations; empty when it has no such loop, dynamic loop
/// sizes, or too little work to split.
static SmallVector<int64_t> getTileSizes(linalg::GenericOp generic) {
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  if (iterators.empty() || iterators.front() != utils::IteratorType::reduction)
    return {};
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return {};
  auto parallel = llvm::find(iterators, utils::IteratorType::parallel);
  if (parallel == iterators.end())
    return {};
  int64_t dim = parallel - iterators.begin();
  int64_t work = 1;
  for (int64_t size : ranges)
    work *= size;
  int64_t tiles =
      std::min({kMaxTiles, ranges[dim] / kMinTileExtent, work / kMinTileWork});
  if (tiles < 2)
    return {};
  SmallVector<int64_t> sizes(ranges.size(), 0);
  sizes[dim] = llvm::divideCeil(ranges[dim], tiles);
  return sizes;
}

namespace {
struct TileOuterReductionsPass
    : public ::mlir::torch2mlir::refbackend::impl::TileOuterReductionsBase<
          TileOuterReductionsPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp generic) {
      if (generic.hasPureTensorSemantics() &&
          !generic->getParentOfType<scf::ForallOp>())
        generics.push_back(generic);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp generic : generics) {
      SmallVector<int64_t> sizes = getTileSizes(generic);
      if (sizes.empty())
        continue;
      scf::SCFTilingOptions options;
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
      rewriter.setInsertionPoint(generic);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(generic.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(generic, tiled->replacements);
    }
  }
};
} // namespace
