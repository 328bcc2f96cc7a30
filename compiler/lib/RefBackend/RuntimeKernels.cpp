//===- RuntimeKernels.cpp - Contractions as runtime kernel calls ----------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_RUNTIMEKERNELS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;
using namespace mlir::torch2mlir;

/// `memref<?x...x?xT, strided<[?, ...], offset: ?>>` of `rank`: the type
/// every kernel operand is passed as.
static MemRefType getFullyDynamicType(MLIRContext *context, int64_t rank,
                                      Type element) {
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(context, ShapedType::kDynamic, strides);
  return MemRefType::get(shape, element, layout);
}

/// The kernel suffix of an input element type, or "" when there is no
/// kernel.
static StringRef getKernelSuffix(Type element) {
  if (element.isF32())
    return "f32";
  if (element.isF64())
    return "f64";
  if (element.isInteger(8))
    return "i8";
  return "";
}

/// The kernel suffix of a sort's values, or "" when no kernel sorts them.
static StringRef getSortSuffix(Type element) {
  return element.isF32()         ? "f32"
         : element.isF64()       ? "f64"
         : element.isInteger(32) ? "i32"
         : element.isInteger(64) ? "i64"
                                 : "";
}

/// The element type a kernel accumulates into for inputs of `element`:
/// int32 for int8 (sign-extended products), else the input's.
static Type getAccumulatorType(Type element) {
  if (element.isInteger(8))
    return IntegerType::get(element.getContext(), 32);
  return element;
}

/// Declares (once) `func.func private @name(...)` with the C interface.
static func::FuncOp getOrDeclareKernel(ModuleOp module, StringRef name,
                                       FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto kernel = func::FuncOp::create(builder, module.getLoc(), name, type);
  kernel.setPrivate();
  kernel->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  return kernel;
}

/// Whether the init buffer of `op` (a fresh memref.alloc, or an argument of
/// the function: a result's out-parameter) was last written by a
/// linalg.fill of +0.0 that no op reads before `op`; if so, erases that
/// fill: the kernel then writes its result without reading the buffer (a
/// GEMM with beta = 0), so the zeroing pass over the result is saved. Both
/// the fill and the kernel write the whole buffer, so erasing the fill
/// leaves the same contents whatever else the buffer is. Views of the
/// buffer (casts, subviews, reshapes) count as the buffer.
static bool takeZeroFill(linalg::LinalgOp op) {
  Value init = op.getDpsInitOperand(0)->get();
  auto argument = dyn_cast<BlockArgument>(init);
  bool functionArgument =
      argument && isa<func::FuncOp>(argument.getOwner()->getParentOp()) &&
      argument.getOwner()->isEntryBlock();
  if (!init.getDefiningOp<memref::AllocOp>() && !functionArgument)
    return false;
  // Every op that uses the buffer or one of its views, except the views.
  SmallVector<Operation *> users;
  SmallVector<Value> worklist{init};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == value)
        llvm::append_range(worklist, user->getResults());
      else
        users.push_back(user);
    }
  }
  auto touches = [&](Operation *candidate) {
    return llvm::any_of(
        users, [&](Operation *user) { return candidate->isAncestor(user); });
  };
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (!touches(prev))
      continue;
    auto fill = dyn_cast<linalg::FillOp>(prev);
    if (!fill || fill.getDpsInitOperand(0)->get() != init ||
        !matchPattern(fill.getInputs()[0], m_PosZeroFloat()))
      return false;
    fill->erase();
    return true;
  }
  return false;
}

/// Replaces `op` by a call of kernel `base_<suffix>` on its memref operands
/// (cast to fully dynamic strided memrefs), then its scalar operands (the
/// zero points of a quantized convolution), then `scalars` (i64), then, for
/// a float kernel, whether it adds to the init (1) or overwrites it (0,
/// takeZeroFill). The inputs share one element type, the kernel's suffix;
/// the output has its accumulator type (getAccumulatorType).
static LogicalResult replaceWithKernelCall(ModuleOp module, linalg::LinalgOp op,
                                           StringRef base,
                                           ArrayRef<int64_t> scalars,
                                           bool transposeRhs = false,
                                           bool hasIntegerKernel = false) {
  if (!op.hasPureBufferSemantics())
    return failure();
  auto firstType = dyn_cast<MemRefType>(op->getOperand(0).getType());
  if (!firstType)
    return failure();
  Type element = firstType.getElementType();
  StringRef suffix = getKernelSuffix(element);
  if (suffix.empty() || (isa<IntegerType>(element) && !hasIntegerKernel))
    return failure();
  SmallVector<Value> buffers, scalarOperands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type) {
      if (!value.getType().isIntOrIndexOrFloat())
        return failure();
      scalarOperands.push_back(value);
      continue;
    }
    Type expected =
        op.isDpsInit(&operand) ? getAccumulatorType(element) : element;
    if (type.getElementType() != expected)
      return failure();
    buffers.push_back(value);
  }
  // Before any cast of the output is created next to `op`.
  SmallVector<int64_t> allScalars(scalars);
  if (isa<FloatType>(element))
    allScalars.push_back(takeZeroFill(op) ? 0 : 1);
  OpBuilder builder(op);
  Location loc = op.getLoc();
  MLIRContext *context = builder.getContext();
  if (transposeRhs) {
    // B is read as its transpose: pass a transposed (strided) view, which
    // the kernel hands to GEMM as a transposed operand.
    auto permutation = AffineMapAttr::get(
        AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, context));
    buffers[1] =
        memref::TransposeOp::create(builder, loc, buffers[1], permutation);
  }
  SmallVector<Value> args;
  SmallVector<Type> argTypes;
  for (Value operand : buffers) {
    auto type = cast<MemRefType>(operand.getType());
    MemRefType dynamic =
        getFullyDynamicType(context, type.getRank(), type.getElementType());
    args.push_back(memref::CastOp::create(builder, loc, dynamic, operand));
    argTypes.push_back(dynamic);
  }
  for (Value operand : scalarOperands) {
    args.push_back(operand);
    argTypes.push_back(operand.getType());
  }
  llvm::SmallDenseMap<int64_t, Value> constants;
  for (int64_t scalar : allScalars) {
    Value &constant = constants[scalar];
    if (!constant)
      constant = arith::ConstantIntOp::create(builder, loc, scalar, 64);
    args.push_back(constant);
    argTypes.push_back(builder.getI64Type());
  }
  std::string name = (base + "_" + suffix).str();
  func::FuncOp kernel = getOrDeclareKernel(
      module, name, FunctionType::get(context, argTypes, {}));
  func::CallOp::create(builder, loc, kernel, args);
  op->erase();
  return success();
}

/// The strides then the dilations of a convolution ({sh, sw, dh, dw} in
/// 2-D).
template <typename ConvOp>
static SmallVector<int64_t> getConvScalars(ConvOp op) {
  SmallVector<int64_t> scalars;
  for (APInt v : op.getStrides().template getValues<APInt>())
    scalars.push_back(v.getSExtValue());
  for (APInt v : op.getDilations().template getValues<APInt>())
    scalars.push_back(v.getSExtValue());
  return scalars;
}

/// The function argument attribute that marks a weight frozen by
/// `compile(freeze=True)`: its contents never change while the compiled
/// module lives.
static constexpr StringLiteral kFrozenAttr = "torch2mlir.frozen";

/// Whether `value` is (a view of) an entry argument of its function marked
/// kFrozenAttr.
static bool isFrozenArgument(Value value) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Block *block = arg.getOwner();
      auto func = dyn_cast_or_null<func::FuncOp>(block->getParentOp());
      return func && block->isEntryBlock() &&
             func.getArgAttr(arg.getArgNumber(), kFrozenAttr);
    }
    Operation *op = value.getDefiningOp();
    if (auto cast = dyn_cast_or_null<memref::CastOp>(op))
      value = cast.getSource();
    else if (auto transpose = dyn_cast_or_null<memref::TransposeOp>(op))
      value = transpose.getIn();
    else if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(op))
      value = view.getViewSource();
    else
      return false;
  }
}

/// Whether `matmul` computes C[m, n] += A[m, k] * B[n, k].
static bool isTransposedRhsMatmul(linalg::MatmulOp matmul) {
  return matmul.getIndexingMapsArray() ==
         getTransposedRhsMatmulMaps(matmul.getContext());
}

/// Calls the sort kernel `name` before `at` on `source` and `target` (cast
/// to unranked memrefs), then `scalars` as i64 constants.
static void createSortCall(ModuleOp module, Operation *at, StringRef name,
                           Value source, Value target,
                           ArrayRef<int64_t> scalars) {
  OpBuilder builder(at);
  Location loc = at->getLoc();
  SmallVector<Value> args;
  for (Value operand : {source, target}) {
    auto type = cast<MemRefType>(operand.getType());
    auto unranked =
        UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace());
    args.push_back(memref::CastOp::create(builder, loc, unranked, operand));
  }
  for (int64_t scalar : scalars)
    args.push_back(arith::ConstantIntOp::create(builder, loc, scalar, 64));
  SmallVector<Type> argTypes = llvm::to_vector(ValueRange(args).getTypes());
  func::FuncOp kernel = getOrDeclareKernel(
      module, name, FunctionType::get(builder.getContext(), argTypes, {}));
  func::CallOp::create(builder, loc, kernel, args);
}

/// Replaces a sort step of the sort lowering (its generic marked with
/// kSortRanksAttr or kSortOrderAttr) by a call of its runtime kernel on
/// unranked memrefs: `torch2mlir_sort_ranks_<f32|f64|i32|i64>(x, ranks,
/// dim, descending, limit)` (limit -1: none) or `torch2mlir_sort_order(ranks,
/// order, dim)`.
static void replaceSortStep(ModuleOp module, linalg::GenericOp op) {
  auto ranksAttr = op->getAttrOfType<DictionaryAttr>(kSortRanksAttr);
  auto orderAttr = op->getAttrOfType<DictionaryAttr>(kSortOrderAttr);
  DictionaryAttr attr = ranksAttr ? ranksAttr : orderAttr;
  if (!attr || !op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() < 1)
    return;
  auto dim = dyn_cast_or_null<IntegerAttr>(attr.get("dim"));
  auto descending = dyn_cast_or_null<BoolAttr>(attr.get("descending"));
  if (!dim || (ranksAttr && !descending))
    return;
  Value source = op.getDpsInputs()[0], target = op.getDpsInits()[0];
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  auto targetType = dyn_cast<MemRefType>(target.getType());
  if (!sourceType || !targetType || !targetType.getElementType().isInteger(64))
    return;
  std::string name = "torch2mlir_sort_order";
  if (ranksAttr) {
    StringRef suffix = getSortSuffix(sourceType.getElementType());
    if (suffix.empty())
      return;
    name = ("torch2mlir_sort_ranks_" + suffix).str();
  } else if (!sourceType.getElementType().isInteger(64)) {
    return;
  }
  SmallVector<int64_t> scalars{dim.getInt()};
  if (ranksAttr) {
    auto limit = dyn_cast_or_null<IntegerAttr>(attr.get("limit"));
    scalars.append({descending.getValue(), limit ? limit.getInt() : -1});
  }
  createSortCall(module, op, name, source, target, scalars);
  op->erase();
}

/// Replaces a sort's ranks step and the order step that reads its ranks
/// by one call of `torch2mlir_sort_positions_<suffix>(x, order, dim,
/// descending, limit)` when nothing else uses the ranks buffer (its zero
/// fill and deallocation aside): the ranks, as large as the input, are
/// then neither written nor read. Returns the order step it erased (a key,
/// not to be dereferenced), or null when it left both alone.
static Operation *fuseSortSteps(ModuleOp module, linalg::GenericOp ranksOp) {
  auto ranksAttr = ranksOp->getAttrOfType<DictionaryAttr>(kSortRanksAttr);
  if (!ranksAttr || !ranksOp.hasPureBufferSemantics() ||
      ranksOp.getNumDpsInits() != 1 || ranksOp.getNumDpsInputs() < 1)
    return nullptr;
  auto dim = dyn_cast_or_null<IntegerAttr>(ranksAttr.get("dim"));
  auto descending = dyn_cast_or_null<BoolAttr>(ranksAttr.get("descending"));
  Value ranks = ranksOp.getDpsInits()[0];
  auto alloc = ranks.getDefiningOp<memref::AllocOp>();
  if (!dim || !descending || !alloc)
    return nullptr;
  linalg::GenericOp orderOp;
  SmallVector<Operation *> erase;
  for (Operation *user : ranks.getUsers()) {
    if (user == ranksOp.getOperation())
      continue;
    if (auto generic = dyn_cast<linalg::GenericOp>(user);
        generic && generic->hasAttr(kSortOrderAttr) && !orderOp &&
        generic.getNumDpsInputs() >= 1 && generic.getDpsInputs()[0] == ranks &&
        generic.getNumDpsInits() == 1 && generic.getDpsInits()[0] != ranks) {
      orderOp = generic;
      continue;
    }
    auto fill = dyn_cast<linalg::FillOp>(user);
    if ((fill && fill.getDpsInits()[0] == ranks &&
         fill->isBeforeInBlock(ranksOp)) ||
        isa<memref::DeallocOp>(user)) {
      erase.push_back(user);
      continue;
    }
    return nullptr;
  }
  if (!orderOp || orderOp->getBlock() != ranksOp->getBlock() ||
      !ranksOp->isBeforeInBlock(orderOp))
    return nullptr;
  auto orderDim = dyn_cast_or_null<IntegerAttr>(
      orderOp->getAttrOfType<DictionaryAttr>(kSortOrderAttr).get("dim"));
  Value source = ranksOp.getDpsInputs()[0];
  Value target = orderOp.getDpsInits()[0];
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  auto targetType = dyn_cast<MemRefType>(target.getType());
  if (!orderDim || orderDim.getInt() != dim.getInt() || !sourceType ||
      !targetType || !targetType.getElementType().isInteger(64))
    return nullptr;
  StringRef suffix = getSortSuffix(sourceType.getElementType());
  if (suffix.empty())
    return nullptr;
  auto limit = dyn_cast_or_null<IntegerAttr>(ranksAttr.get("limit"));
  createSortCall(
      module, orderOp, ("torch2mlir_sort_positions_" + suffix).str(), source,
      target,
      {dim.getInt(), descending.getValue(), limit ? limit.getInt() : -1});
  Operation *erased = orderOp.getOperation();
  orderOp->erase();
  ranksOp->erase();
  for (Operation *op : erase)
    op->erase();
  alloc->erase();
  return erased;
}

namespace {
struct RuntimeKernelsPass
    : public ::mlir::torch2mlir::refbackend::impl::RuntimeKernelsBase<
          RuntimeKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::GenericOp> sortSteps;
    module.walk([&](linalg::GenericOp op) {
      if (op->hasAttr(kSortRanksAttr) || op->hasAttr(kSortOrderAttr))
        sortSteps.push_back(op);
    });
    // Fused pairs first; each step left alone then gets its own kernel.
    // (Erased steps stay in `sortSteps` as keys of `fused` only.)
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (linalg::GenericOp op : sortSteps) {
      Operation *self = op.getOperation();
      if (fused.contains(self) || !op->hasAttr(kSortRanksAttr))
        continue;
      if (Operation *order = fuseSortSteps(module, op)) {
        fused.insert(self);
        fused.insert(order);
      }
    }
    for (linalg::GenericOp op : sortSteps)
      if (!fused.contains(op.getOperation()))
        replaceSortStep(module, op);
    SmallVector<linalg::LinalgOp> candidates;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::Conv2DNchwFchwOp,
              linalg::Conv2DNgchwGfchwOp, linalg::Conv3DNcdhwFcdhwOp,
              linalg::Conv2DNchwFchwQOp>(op))
        candidates.push_back(op);
    });
    for (linalg::LinalgOp op : candidates) {
      if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
        // The kernels sign-extend integer inputs.
        if (matmul.getCast() != linalg::TypeFn::cast_signed)
          continue;
        // A frozen float weight as B: the kernel that packs it once.
        Value rhs = matmul.getInputs()[1];
        bool frozen = isa<FloatType>(getElementTypeOrSelf(rhs.getType())) &&
                      isFrozenArgument(rhs);
        StringRef base =
            frozen ? "torch2mlir_matmul_frozen" : "torch2mlir_matmul";
        if (!matmul.hasUserDefinedMaps())
          (void)replaceWithKernelCall(module, op, base, {},
                                      /*transposeRhs=*/false,
                                      /*hasIntegerKernel=*/!frozen);
        else if (isTransposedRhsMatmul(matmul))
          (void)replaceWithKernelCall(module, op, base, {},
                                      /*transposeRhs=*/true,
                                      /*hasIntegerKernel=*/!frozen);
      } else if (auto bmm =
                     dyn_cast<linalg::BatchMatmulOp>(op.getOperation())) {
        if (!bmm.hasUserDefinedMaps())
          (void)replaceWithKernelCall(module, op, "torch2mlir_batch_matmul",
                                      {});
      } else if (auto conv =
                     dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation())) {
        (void)replaceWithKernelCall(module, op, "torch2mlir_conv2d_nchw_fchw",
                                    getConvScalars(conv));
      } else if (auto conv =
                     dyn_cast<linalg::Conv2DNgchwGfchwOp>(op.getOperation())) {
        (void)replaceWithKernelCall(module, op, "torch2mlir_conv2d_ngchw_gfchw",
                                    getConvScalars(conv));
      } else if (auto conv =
                     dyn_cast<linalg::Conv3DNcdhwFcdhwOp>(op.getOperation())) {
        (void)replaceWithKernelCall(module, op, "torch2mlir_conv3d_ncdhw_fcdhw",
                                    getConvScalars(conv));
      } else if (auto conv =
                     dyn_cast<linalg::Conv2DNchwFchwQOp>(op.getOperation())) {
        // (in, w, out, inZero, wZero, strides, dilations): int8 only.
        (void)replaceWithKernelCall(
            module, op, "torch2mlir_conv2d_nchw_fchw_q", getConvScalars(conv),
            /*transposeRhs=*/false, /*hasIntegerKernel=*/true);
      }
    }
  }
};
} // namespace
