//===- ObjectJit.cpp - Compile to objects and run them --------------------===//
//
// Part of the torch2mlir project.
//
// The RefBackend's code generation, split in two so its result can be
// cached: the LLVM-dialect module becomes an object file (the expensive
// part), and an object file becomes callable code in an ORC LLJIT session
// (cheap). A cached object skips the first step in a new process.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/CAPI/ObjectJit.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

static void initializeNativeTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

static void report(MlirStringCallback callback, void *userData,
                   const llvm::Twine &message) {
  std::string text = message.str();
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
}

/// glibc's vector variants (libmvec, glibc >= 2.35) of math functions that
/// LLVM's own LIBMVEC table leaves out; the RefBackend's code calls them
/// through convert-math-to-libm (tanh, erf: GELU). `_ZGVbN4v`: SSE, 4 x f32
/// or 2 x f64 lanes; `_ZGVdN8v`: AVX2, 8 x f32 or 4 x f64.
struct VectorVariant {
  const char *scalar, *vector;
  unsigned lanes;
  const char *abi;
};
constexpr VectorVariant kExtraLibmvec[] = {
    {"tanhf", "_ZGVbN4v_tanhf", 4, "_ZGV_LLVM_N4v"},
    {"tanhf", "_ZGVdN8v_tanhf", 8, "_ZGV_LLVM_N8v"},
    {"tanh", "_ZGVbN2v_tanh", 2, "_ZGV_LLVM_N2v"},
    {"tanh", "_ZGVdN4v_tanh", 4, "_ZGV_LLVM_N4v"},
    // The optimizer turns tanhf calls into the tanh intrinsic.
    {"llvm.tanh.f32", "_ZGVbN4v_tanhf", 4, "_ZGV_LLVM_N4v"},
    {"llvm.tanh.f32", "_ZGVdN8v_tanhf", 8, "_ZGV_LLVM_N8v"},
    {"llvm.tanh.f64", "_ZGVbN2v_tanh", 2, "_ZGV_LLVM_N2v"},
    {"llvm.tanh.f64", "_ZGVdN4v_tanh", 4, "_ZGV_LLVM_N4v"},
    {"erff", "_ZGVbN4v_erff", 4, "_ZGV_LLVM_N4v"},
    {"erff", "_ZGVdN8v_erff", 8, "_ZGV_LLVM_N8v"},
    {"erf", "_ZGVbN2v_erf", 2, "_ZGV_LLVM_N2v"},
    {"erf", "_ZGVdN4v_erf", 4, "_ZGV_LLVM_N4v"},
};

/// The libraries the optimizer may assume: the host's C library, plus the
/// vector math of libmvec with `vectorMath`.
static llvm::TargetLibraryInfoImpl libraryInfo(const llvm::TargetMachine &tm,
                                               bool vectorMath) {
  llvm::TargetLibraryInfoImpl info(tm.getTargetTriple());
  if (vectorMath && tm.getTargetTriple().isX86() &&
      tm.getTargetTriple().isOSLinux()) {
    info.addVectorizableFunctionsFromVecLib(llvm::VectorLibrary::LIBMVEC,
                                            tm.getTargetTriple());
    std::vector<llvm::VecDesc> extra;
    for (const VectorVariant &v : kExtraLibmvec)
      extra.emplace_back(v.scalar, v.vector,
                         llvm::ElementCount::getFixed(v.lanes),
                         /*Masked=*/false, v.abi, std::nullopt);
    info.addVectorizableFunctions(extra);
  }
  return info;
}

/// LLVM's default optimization pipeline at `optLevel` (as clang -O<n>),
/// with `libraries` as what the optimizer knows of the C library.
static void optimize(llvm::Module &module, llvm::TargetMachine &tm,
                     int optLevel,
                     const llvm::TargetLibraryInfoImpl &libraries) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&tm);
  // Registered first, so the default registration below keeps it.
  functions.registerPass(
      [&] { return llvm::TargetLibraryAnalysis(libraries); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::OptimizationLevel level = optLevel <= 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager passes =
      optLevel <= 0 ? builder.buildO0DefaultPipeline(level)
                    : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, modules);
}

bool torch2mlirCompileToObject(MlirModule module, int optLevel, bool vectorMath,
                               MlirStringCallback onObject,
                               MlirStringCallback onError, void *userData) {
  initializeNativeTarget();
  ModuleOp op = unwrap(module);
  MLIRContext *context = op.getContext();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  context->appendDialectRegistry(registry);

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    report(onError, userData,
           "no target for this CPU: " + llvm::toString(builder.takeError()));
    return false;
  }
  // Position-independent code: the JIT may place it anywhere relative to
  // the C library and the runtime it calls.
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(static_cast<llvm::CodeGenOptLevel>(optLevel));
  auto machine = builder->createTargetMachine();
  if (!machine) {
    report(onError, userData,
           "cannot create a target machine: " +
               llvm::toString(machine.takeError()));
    return false;
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(op, llvmContext);
  if (!llvmModule) {
    report(onError, userData, "translation to LLVM IR failed");
    return false;
  }
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvm::TargetLibraryInfoImpl libraries = libraryInfo(**machine, vectorMath);
  optimize(*llvmModule, **machine, optLevel, libraries);

  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager codegen;
  // Code generation replaces vector math intrinsics left by the optimizer
  // with the same library's calls.
  codegen.add(new llvm::TargetLibraryInfoWrapperPass(libraries));
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr,
                                      llvm::CodeGenFileType::ObjectFile)) {
    report(onError, userData, "this target cannot emit object files");
    return false;
  }
  codegen.run(*llvmModule);
  onObject(mlirStringRefCreate(object.data(), object.size()), userData);
  return true;
}

namespace {
/// A JIT session and the errors its execution session reported: ORC tells
/// the reporter which symbols did not resolve, and the failing lookup only
/// that the lookup failed.
struct ObjectJitSession {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::string sessionErrors;
};
} // namespace

Torch2MlirObjectJit torch2mlirObjectJitCreate(MlirStringRef object,
                                              intptr_t numSharedLibs,
                                              const MlirStringRef *sharedLibs,
                                              MlirStringCallback onError,
                                              void *userData) {
  initializeNativeTarget();
  auto fail = [&](const llvm::Twine &why, llvm::Error error) {
    report(onError, userData, why + llvm::toString(std::move(error)));
    return Torch2MlirObjectJit{nullptr};
  };
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return fail("cannot create a JIT session: ", jit.takeError());
  llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return fail("cannot search the process's symbols: ", process.takeError());
  dylib.addGenerator(std::move(*process));
  for (intptr_t i = 0; i < numSharedLibs; ++i) {
    std::string path = unwrap(sharedLibs[i]).str();
    auto library =
        llvm::orc::DynamicLibrarySearchGenerator::Load(path.c_str(), prefix);
    if (!library)
      return fail("cannot load " + path + ": ", library.takeError());
    dylib.addGenerator(std::move(*library));
  }
  auto buffer =
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(object), "torch2mlir-object");
  if (llvm::Error error = (*jit)->addObjectFile(std::move(buffer)))
    return fail("cannot link the object: ", std::move(error));
  auto *session = new ObjectJitSession{std::move(*jit), {}};
  session->jit->getExecutionSession().setErrorReporter(
      [session](llvm::Error error) {
        if (!session->sessionErrors.empty())
          session->sessionErrors += "; ";
        session->sessionErrors += llvm::toString(std::move(error));
      });
  return Torch2MlirObjectJit{session};
}

uint64_t torch2mlirObjectJitLookup(Torch2MlirObjectJit jit, MlirStringRef name,
                                   MlirStringCallback onError, void *userData) {
  auto *session = static_cast<ObjectJitSession *>(jit.ptr);
  session->sessionErrors.clear();
  auto address = session->jit->lookup(unwrap(name));
  if (!address) {
    std::string why = llvm::toString(address.takeError());
    if (!session->sessionErrors.empty())
      why = session->sessionErrors;
    report(onError, userData, why);
    return 0;
  }
  return address->getValue();
}

void torch2mlirObjectJitDestroy(Torch2MlirObjectJit jit) {
  delete static_cast<ObjectJitSession *>(jit.ptr);
}
