//===- TileLoops.cpp - linalg.generic tiles for parallelism, locality -----===//
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
#define GEN_PASS_DEF_TILELOOPS
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

/// Tile edge of a transposed read: 64 x 64 floats are 16 KiB, in L1.
constexpr int64_t kTransposeTile = 64;

/// Tile sizes for an all-parallel `generic` (loop sizes `ranges`) that
/// reads an operand transposed: its last dim indexed by a loop other than
/// the innermost. That loop and the innermost one get kTransposeTile, the
/// others 1. Empty when no operand is read so, or either loop is shorter
/// than two tiles.
static SmallVector<int64_t> getTransposeTileSizes(linalg::GenericOp generic,
                                                  ArrayRef<int64_t> ranges) {
  int64_t loops = static_cast<int64_t>(ranges.size());
  if (loops < 2 || generic.getNumReductionLoops() != 0)
    return {};
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (map.getNumResults() < 2 || !map.isProjectedPermutation())
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || last.getPosition() == static_cast<unsigned>(loops - 1))
      continue;
    int64_t dim = last.getPosition();
    if (ranges[dim] < 2 * kTransposeTile ||
        ranges[loops - 1] < 2 * kTransposeTile)
      continue;
    SmallVector<int64_t> sizes(loops, 1);
    sizes[dim] = kTransposeTile;
    sizes[loops - 1] = kTransposeTile;
    return sizes;
  }
  return {};
}

/// The tile sizes for `generic`: those of a transposed read
/// (getTransposeTileSizes), or those that split its first parallel loop
/// after an outermost reduction loop into up to kMaxTiles tiles of at
/// least kMinTileExtent iterations and kMinTileWork iterations of work.
/// Empty for dynamic loop sizes, too little work, or neither shape.
static SmallVector<int64_t> getTileSizes(linalg::GenericOp generic) {
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  if (iterators.empty() || llvm::any_of(ranges, ShapedType::isDynamic))
    return {};
  int64_t work = 1;
  for (int64_t size : ranges)
    work *= size;
  if (work < kMinTileWork)
    return {};
  if (iterators.front() != utils::IteratorType::reduction)
    return getTransposeTileSizes(generic, ranges);
  auto parallel = llvm::find(iterators, utils::IteratorType::parallel);
  if (parallel == iterators.end())
    return {};
  int64_t dim = parallel - iterators.begin();
  int64_t tiles =
      std::min({kMaxTiles, ranges[dim] / kMinTileExtent, work / kMinTileWork});
  if (tiles < 2)
    return {};
  SmallVector<int64_t> sizes(ranges.size(), 0);
  sizes[dim] = llvm::divideCeil(ranges[dim], tiles);
  return sizes;
}

namespace {
struct TileLoopsPass
    : public ::mlir::torch2mlir::refbackend::impl::TileLoopsBase<
          TileLoopsPass> {
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
