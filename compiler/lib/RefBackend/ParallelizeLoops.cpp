//===- ParallelizeLoops.cpp - Top-level parallel loops on threads ---------===//
//
// Part of the torch2mlir project.
//
// Outlines the body of each top-level scf.parallel into a function of a
// chunk [lo, hi) of one dimension and calls the runtime's
// torch2mlir_parallel_for with it (see Runtime/Parallel.cpp for the
// runtime side and Passes.td for the contract).
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_PARALLELIZELOOPS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kParallelFor = "torch2mlir_parallel_for";
/// Assumed trip count of a loop whose bounds are not constants.
constexpr double kUnknownTripCount = 32;
/// A dimension at least this long (or dynamic) is split before any longer
/// dimension nested in it: outer chunks touch contiguous memory.
constexpr int64_t kMinSplitTripCount = 16;

std::optional<int64_t> staticTripCount(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb),
                         u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0)
    return std::nullopt;
  return *u <= *l ? 0 : llvm::divideCeil(*u - *l, *s);
}

double tripCountEstimate(std::optional<int64_t> trip) {
  return trip ? static_cast<double>(*trip) : kUnknownTripCount;
}

/// Ops executed by one run of `region`, nested loops counted per iteration.
double estimateCost(Region &region) {
  double cost = 0;
  for (Block &block : region) {
    for (Operation &op : block) {
      double inner = 0;
      for (Region &nested : op.getRegions())
        inner += estimateCost(nested);
      double trips = 1;
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        trips = tripCountEstimate(staticTripCount(
            loop.getLowerBound(), loop.getUpperBound(), loop.getStep()));
      } else if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        for (auto [lb, ub, step] : llvm::zip(
                 loop.getLowerBound(), loop.getUpperBound(), loop.getStep()))
          trips *= tripCountEstimate(staticTripCount(lb, ub, step));
      }
      // A copy (a slice moved by a gather, say) is a loop of its own.
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        auto type = dyn_cast<MemRefType>(copy.getSource().getType());
        if (type && type.hasStaticShape())
          inner = static_cast<double>(type.getNumElements());
      }
      cost += 1 + inner * trips;
    }
  }
  return cost;
}

/// The dimension of `loop` to split across threads, or nullopt when every
/// dimension has at most one iteration.
std::optional<unsigned> pickSplitDim(scf::ParallelOp loop) {
  std::optional<unsigned> longest;
  int64_t longestTrip = 1;
  for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d) {
    std::optional<int64_t> trip = staticTripCount(
        loop.getLowerBound()[d], loop.getUpperBound()[d], loop.getStep()[d]);
    if (!trip || *trip >= kMinSplitTripCount)
      return d;
    if (*trip > longestTrip) {
      longestTrip = *trip;
      longest = d;
    }
  }
  return longest;
}

/// The LLVM type a captured value travels as in the context struct, or
/// null when the value cannot be passed (the loop then stays sequential).
Type fieldType(const LLVMTypeConverter &converter, Type type) {
  if (isa<IndexType>(type))
    return IntegerType::get(type.getContext(), 64);
  if (isa<MemRefType, IntegerType, FloatType>(type))
    return converter.convertType(type);
  return nullptr;
}

bool isClonableConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         def->hasTrait<OpTrait::ConstantLike>();
}

struct ParallelizeLoopsPass
    : public ::mlir::torch2mlir::refbackend::impl::ParallelizeLoopsBase<
          ParallelizeLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<scf::ParallelOp> loops;
    module.walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<LoopLikeOpInterface>() &&
          loop.getInitVals().empty() && loop->getParentOfType<func::FuncOp>())
        loops.push_back(loop);
    });
    if (loops.empty())
      return;
    LLVMTypeConverter converter(&getContext());
    SymbolTable symbols(module);
    func::FuncOp runtime;
    // Bodies follow their function, in the order of the loops.
    DenseMap<Operation *, Operation *> lastBody;
    for (scf::ParallelOp loop : loops) {
      std::optional<unsigned> dim = pickSplitDim(loop);
      if (!dim)
        continue;
      if (!runtime)
        runtime = declareRuntime(module, symbols);
      auto parent = loop->getParentOfType<func::FuncOp>();
      Operation *&after = lastBody[parent];
      if (func::FuncOp body = outline(loop, *dim, converter, symbols, runtime,
                                      after ? after : parent))
        after = body;
    }
  }

  func::FuncOp declareRuntime(ModuleOp module, SymbolTable &symbols) {
    if (auto existing = symbols.lookup<func::FuncOp>(kParallelFor))
      return existing;
    MLIRContext *context = &getContext();
    auto builder = OpBuilder::atBlockEnd(module.getBody());
    Type ptr = LLVM::LLVMPointerType::get(context);
    Type i64 = IntegerType::get(context, 64);
    auto type =
        builder.getFunctionType({bodyType(), ptr, i64, i64}, /*results=*/{});
    auto decl =
        func::FuncOp::create(builder, module.getLoc(), kParallelFor, type);
    decl.setPrivate();
    symbols.insert(decl);
    return decl;
  }

  FunctionType bodyType() {
    MLIRContext *context = &getContext();
    Type i64 = IntegerType::get(context, 64);
    return FunctionType::get(
        context, {LLVM::LLVMPointerType::get(context), i64, i64}, {});
  }

  /// Replaces `loop` by a runtime call of a new body function placed after
  /// `after`; returns the body, or null if the loop stays as it is.
  func::FuncOp outline(scf::ParallelOp loop, unsigned dim,
                       const LLVMTypeConverter &converter, SymbolTable &symbols,
                       func::FuncOp runtime, Operation *after) {
    MLIRContext *context = &getContext();
    Location loc = loop.getLoc();
    // Everything the chunk needs from outside: the bounds and the values
    // the body uses.
    llvm::SetVector<Value> used;
    getUsedValuesDefinedAbove(loop.getRegion(), used);
    used.insert(loop->operand_begin(), loop->operand_end());
    SmallVector<Value> packed, constants;
    SmallVector<Type> fields;
    for (Value value : used) {
      if (isClonableConstant(value)) {
        constants.push_back(value);
        continue;
      }
      Type field = fieldType(converter, value.getType());
      if (!field)
        return nullptr; // A value we cannot pass: the loop stays sequential.
      packed.push_back(value);
      fields.push_back(field);
    }
    auto structType = LLVM::LLVMStructType::getLiteral(context, fields);
    Type ptr = LLVM::LLVMPointerType::get(context);
    Type i64 = IntegerType::get(context, 64);

    // The body: (ctx, lo, hi) -> the loop with dimension `dim` narrowed to
    // iterations [lo, hi).
    auto parent = loop->getParentOfType<func::FuncOp>();
    OpBuilder moduleBuilder(after);
    moduleBuilder.setInsertionPointAfter(after);
    auto body = func::FuncOp::create(
        moduleBuilder, loc, (parent.getName() + "_parallel").str(), bodyType());
    body.setPrivate();
    symbols.insert(body); // Renames it if the name is taken.
    Block *entry = body.addEntryBlock();
    auto builder = OpBuilder::atBlockBegin(entry);
    IRMapping mapping;
    for (auto [index, value] : llvm::enumerate(packed)) {
      auto address = LLVM::GEPOp::create(
          builder, loc, ptr, structType, entry->getArgument(0),
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)});
      Value field = LLVM::LoadOp::create(builder, loc, fields[index], address);
      Type type = value.getType();
      if (isa<IndexType>(type))
        field = arith::IndexCastOp::create(builder, loc, type, field);
      else if (isa<MemRefType>(type))
        field = UnrealizedConversionCastOp::create(builder, loc, type, field)
                    .getResult(0);
      mapping.map(value, field);
    }
    for (Value value : constants)
      builder.clone(*value.getDefiningOp(), mapping);
    Type index = builder.getIndexType();
    Value lo =
        arith::IndexCastOp::create(builder, loc, index, entry->getArgument(1));
    Value hi =
        arith::IndexCastOp::create(builder, loc, index, entry->getArgument(2));
    Value lb = mapping.lookup(loop.getLowerBound()[dim]);
    Value ub = mapping.lookup(loop.getUpperBound()[dim]);
    Value step = mapping.lookup(loop.getStep()[dim]);
    Value chunkLb = arith::AddIOp::create(
        builder, loc, lb, arith::MulIOp::create(builder, loc, lo, step));
    Value chunkUb = arith::MinSIOp::create(
        builder, loc, ub,
        arith::AddIOp::create(builder, loc, lb,
                              arith::MulIOp::create(builder, loc, hi, step)));
    auto chunk = cast<scf::ParallelOp>(builder.clone(*loop, mapping));
    chunk.getLowerBoundMutable()[dim].set(chunkLb);
    chunk.getUpperBoundMutable()[dim].set(chunkUb);
    func::ReturnOp::create(builder, loc);

    // The call site: pack the context, count the iterations of `dim`.
    builder.setInsertionPoint(loop);
    Value one = LLVM::ConstantOp::create(builder, loc, i64,
                                         builder.getI64IntegerAttr(1));
    Value ctx = LLVM::AllocaOp::create(builder, loc, ptr, structType, one);
    for (auto [index, value] : llvm::enumerate(packed)) {
      Value field = value;
      if (isa<IndexType>(value.getType()))
        field = arith::IndexCastOp::create(builder, loc, i64, value);
      else if (isa<MemRefType>(value.getType()))
        field = UnrealizedConversionCastOp::create(builder, loc, fields[index],
                                                   value)
                    .getResult(0);
      auto address = LLVM::GEPOp::create(
          builder, loc, ptr, structType, ctx,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)});
      LLVM::StoreOp::create(builder, loc, field, address);
    }
    Value extent = arith::SubIOp::create(
        builder, loc, loop.getUpperBound()[dim], loop.getLowerBound()[dim]);
    Value trips =
        arith::CeilDivSIOp::create(builder, loc, extent, loop.getStep()[dim]);
    double iterationCost = estimateCost(loop.getRegion());
    for (unsigned d = 0, e = loop.getNumLoops(); d < e; ++d)
      if (d != dim)
        iterationCost *= tripCountEstimate(
            staticTripCount(loop.getLowerBound()[d], loop.getUpperBound()[d],
                            loop.getStep()[d]));
    auto grain = static_cast<int64_t>(std::max(
        1.0, std::ceil(static_cast<double>(minTaskCost) / iterationCost)));
    Value function = func::ConstantOp::create(
        builder, loc, bodyType(), FlatSymbolRefAttr::get(body.getNameAttr()));
    Value count = arith::IndexCastOp::create(builder, loc, i64, trips);
    Value minChunk = LLVM::ConstantOp::create(builder, loc, i64,
                                              builder.getI64IntegerAttr(grain));
    func::CallOp::create(builder, loc, runtime,
                         ValueRange{function, ctx, count, minChunk});
    loop.erase();
    return body;
  }
};

} // namespace
