//===- LowerAsserts.cpp - cf.assert to a reported failure -----------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/RefBackend/RefBackend.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::torch2mlir::refbackend {
#define GEN_PASS_DEF_LOWERASSERTS
#include "torch2mlir/RefBackend/Passes.h.inc"
} // namespace mlir::torch2mlir::refbackend

using namespace mlir;

/// The runtime function that records a failed check (Runtime.cpp).
static constexpr StringLiteral kFailFunction = "torch2mlir_runtime_fail";

/// `loc` as a user reads it: `file:line:col`, a node name, or both.
static void printLocation(llvm::raw_ostream &os, Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
    return;
  }
  if (auto name = dyn_cast<NameLoc>(loc)) {
    os << name.getName().getValue();
    if (!isa<UnknownLoc>(name.getChildLoc())) {
      os << " ";
      printLocation(os, name.getChildLoc());
    }
    return;
  }
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return printLocation(os, callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      if (!isa<UnknownLoc>(inner))
        return printLocation(os, inner);
    return;
  }
  os << loc;
}

/// The NUL-terminated message a failed `assertOp` reports: its own text
/// and where it is.
static std::string failureMessage(cf::AssertOp assertOp) {
  std::string message = assertOp.getMsg().str();
  llvm::raw_string_ostream os(message);
  Location loc = assertOp.getLoc();
  if (!isa<UnknownLoc>(loc)) {
    os << " (at ";
    printLocation(os, loc);
    os << ")";
  }
  message.push_back('\0');
  return message;
}

/// Whether a failed check at the top level of `func` can return at once:
/// it returns nothing (results are out-params) or only memrefs (results it
/// allocates, which can be returned empty).
static bool canReturnEarly(func::FuncOp func) {
  return llvm::all_of(func.getResultTypes(),
                      [](Type type) { return isa<MemRefType>(type); });
}

/// A memref of `type` with every dynamic size 0, returned by a function
/// whose check failed.
static Value createEmptyResult(OpBuilder &b, Location loc, MemRefType type) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> sizes(type.getNumDynamicDims(), zero);
  return memref::AllocOp::create(b, loc, type, sizes);
}

namespace {
struct LowerAssertsPass
    : public ::mlir::torch2mlir::refbackend::impl::LowerAssertsBase<
          LowerAssertsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) { asserts.push_back(op); });
    if (asserts.empty())
      return;

    OpBuilder builder(module.getBodyRegion());
    auto ptrType = LLVM::LLVMPointerType::get(&getContext());
    auto type = builder.getFunctionType({ptrType}, {});
    FailureOr<func::FuncOp> callee =
        torch2mlir::refbackend::declareRuntimeFunction(module, kFailFunction,
                                                       type);
    if (failed(callee))
      return signalPassFailure();

    unsigned counter = 0;
    for (cf::AssertOp assertOp : asserts) {
      Location loc = assertOp.getLoc();
      std::string name = "__torch2mlir_check_" + std::to_string(counter++);
      while (module.lookupSymbol(name))
        name = "__torch2mlir_check_" + std::to_string(counter++);
      auto report = [&](OpBuilder &b) {
        Value text = LLVM::createGlobalString(
            loc, b, name, failureMessage(assertOp), LLVM::Linkage::Internal);
        func::CallOp::create(b, loc, *callee, ValueRange{text});
      };

      auto func = dyn_cast<func::FuncOp>(assertOp->getParentOp());
      if (func && canReturnEarly(func)) {
        // Top level: branch to a block that reports and returns (results
        // the function allocates are returned empty, for the caller to
        // free: it reads the failure and drops them).
        Block *block = assertOp->getBlock();
        Block *rest = block->splitBlock(
            std::next(Block::iterator(assertOp.getOperation())));
        Block *failed = builder.createBlock(rest);
        report(builder);
        SmallVector<Value> empties;
        for (Type type : func.getResultTypes())
          empties.push_back(
              createEmptyResult(builder, loc, cast<MemRefType>(type)));
        func::ReturnOp::create(builder, loc, empties);
        builder.setInsertionPoint(assertOp);
        cf::CondBranchOp::create(builder, loc, assertOp.getArg(), rest,
                                 ValueRange{}, failed, ValueRange{});
        assertOp.erase();
        continue;
      }
      // Nested: report under scf.if and go on.
      builder.setInsertionPoint(assertOp);
      Value trueValue = arith::ConstantIntOp::create(builder, loc, 1, 1);
      Value failedCond =
          arith::XOrIOp::create(builder, loc, assertOp.getArg(), trueValue);
      auto ifOp = scf::IfOp::create(builder, loc, failedCond,
                                    /*withElseRegion=*/false);
      builder.setInsertionPointToStart(ifOp.thenBlock());
      report(builder);
      assertOp.erase();
    }
  }
};
} // namespace
