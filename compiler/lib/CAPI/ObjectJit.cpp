//===- ObjectJit.cpp - Compile to objects and run them --------------------===//
//
// Part of the torch2mlir project.
//
// The RefBackend's code generation, split in two so its result can be
// cached: the LLVM-dialect module becomes object code (the expensive part),
// and object code becomes callable code in an ORC LLJIT session (cheap). A
// cached object skips the first step in a new process. A large module is
// split into partitions that are optimized and compiled on threads of
// their own, each to an object; the objects travel together in one blob.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/CAPI/ObjectJit.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <deque>
#include <thread>

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

/// A math function that glibc's libmvec (glibc >= 2.35) has in vector
/// form: its f64 and f32 names, and whether it takes two arguments (pow).
struct VectorMathFunction {
  const char *f64, *f32;
  bool binary;
};

/// What LLVM's own LIBMVEC table leaves out: tanh and erf (GELU) at every
/// width, and every function at AVX-512's width.
constexpr VectorMathFunction kOnlyInLibmvec[] = {
    {"tanh", "tanhf", false},
    {"erf", "erff", false},
};
constexpr VectorMathFunction kAllOfLibmvec[] = {
    {"sin", "sinf", false},   {"cos", "cosf", false}, {"tan", "tanf", false},
    {"exp", "expf", false},   {"log", "logf", false}, {"pow", "powf", true},
    {"tanh", "tanhf", false}, {"erf", "erff", false},
};

/// Adds the vector variants of `function` for the x86 vector ISA `isa`
/// ('b' SSE, 'd' AVX2, 'e' AVX-512: the x86-64 vector function ABI's
/// letters) whose registers hold `bytes` bytes, under the scalar names and
/// the LLVM intrinsics (the optimizer turns tanhf calls into llvm.tanh).
static void addVariants(std::vector<llvm::VecDesc> &out,
                        std::deque<std::string> &names,
                        const VectorMathFunction &function, char isa,
                        unsigned bytes) {
  for (bool isF32 : {false, true}) {
    unsigned lanes = bytes / (isF32 ? 4 : 8);
    std::string args = function.binary ? "vv" : "v";
    std::string scalar = isF32 ? function.f32 : function.f64;
    std::string vector = (llvm::Twine("_ZGV") + llvm::Twine(isa) + "N" +
                          llvm::Twine(lanes) + args + "_" + scalar)
                             .str();
    std::string abi =
        (llvm::Twine("_ZGV_LLVM_N") + llvm::Twine(lanes) + args).str();
    std::string intrinsic =
        (llvm::Twine("llvm.") + function.f64 + (isF32 ? ".f32" : ".f64")).str();
    for (std::string *name : {&scalar, &intrinsic}) {
      // VecDesc holds StringRefs: the strings live in `names`.
      names.push_back(*name);
      names.push_back(vector);
      names.push_back(abi);
      size_t n = names.size();
      out.emplace_back(names[n - 3], names[n - 2],
                       llvm::ElementCount::getFixed(lanes), /*Masked=*/false,
                       names[n - 1], std::nullopt);
    }
  }
}

/// The libraries the optimizer may assume: the host's C library, plus the
/// vector math of libmvec with `vectorMath` (with its AVX-512 variants when
/// `avx512` says the code uses 512-bit vectors).
static llvm::TargetLibraryInfoImpl libraryInfo(const llvm::TargetMachine &tm,
                                               bool vectorMath, bool avx512) {
  llvm::TargetLibraryInfoImpl info(tm.getTargetTriple());
  if (vectorMath && tm.getTargetTriple().isX86() &&
      tm.getTargetTriple().isOSLinux()) {
    info.addVectorizableFunctionsFromVecLib(llvm::VectorLibrary::LIBMVEC,
                                            tm.getTargetTriple());
    // TargetLibraryInfoImpl keeps StringRefs into these: static storage
    // (a deque does not move its strings as it grows).
    static std::deque<std::string> names;
    static std::vector<llvm::VecDesc> narrow, wide;
    static bool built = [] {
      for (const VectorMathFunction &f : kOnlyInLibmvec) {
        addVariants(narrow, names, f, 'b', 16);
        addVariants(narrow, names, f, 'd', 32);
      }
      for (const VectorMathFunction &f : kAllOfLibmvec)
        addVariants(wide, names, f, 'e', 64);
      return true;
    }();
    (void)built;
    info.addVectorizableFunctions(narrow);
    if (avx512)
      info.addVectorizableFunctions(wide);
  }
  return info;
}

/// LLVM's default optimization pipeline at `optLevel` (as clang -O<n>),
/// with `libraries` as what the optimizer knows of the C library, with
/// MergeFunctions before and after it (as clang's -fmerge-functions, plus
/// one run first). The parallel loop bodies outlined from the layers of a
/// model are the same function once per layer (BERT's 76 functions are 19
/// distinct ones): merged first, the copies are optimized as one, but the
/// inliner puts the optimized body back into most of the thunks; merged
/// again after optimization, they are compiled once. Thread CPU seconds of
/// optimization + code generation (one run each, BERT's the mean of two),
/// none -> first only -> both: BERT 1.98 -> 1.77 -> 1.20, GPT-2 1.84 -> 1.68
/// -> 1.19, the LLaMA step 2.23 -> 2.04 -> 1.62, ViT 1.93 -> 1.84 -> 1.27,
/// ResNet-50 (no layers alike) 1.91 -> 1.90 -> 1.77.
static void optimize(llvm::Module &module, llvm::TargetMachine &tm,
                     int optLevel,
                     const llvm::TargetLibraryInfoImpl &libraries) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.MergeFunctions = true;
  llvm::PassBuilder builder(&tm, tuning);
  // Registered first, so the default registration below keeps it.
  functions.registerPass(
      [&] { return llvm::TargetLibraryAnalysis(libraries); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  builder.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
        passes.addPass(llvm::MergeFunctionsPass());
      });
  llvm::OptimizationLevel level = optLevel <= 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager passes =
      optLevel <= 0 ? builder.buildO0DefaultPipeline(level)
                    : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, modules);
}

namespace {
/// How each partition is compiled: the host's target machine (each thread
/// makes its own from the builder) and the options of this compilation.
struct CodegenOptions {
  llvm::orc::JITTargetMachineBuilder builder;
  int optLevel;
  bool vectorMath;
  bool avx512;
};
} // namespace

/// Optimizes `module` and emits its object code into `object`. Returns the
/// reason on failure, "" on success.
static std::string emitObject(llvm::Module &module, CodegenOptions options,
                              std::string &object) {
  auto machine = options.builder.createTargetMachine();
  if (!machine)
    return "cannot create a target machine: " +
           llvm::toString(machine.takeError());
  llvm::TargetLibraryInfoImpl libraries =
      libraryInfo(**machine, options.vectorMath, options.avx512);
  optimize(module, **machine, options.optLevel, libraries);

  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager codegen;
  // Code generation replaces vector math intrinsics left by the optimizer
  // with the same library's calls.
  codegen.add(new llvm::TargetLibraryInfoWrapperPass(libraries));
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return "this target cannot emit object files";
  codegen.run(module);
  object.assign(buffer.begin(), buffer.end());
  return "";
}

/// The instructions below which a partition costs more (a thread, a copy of
/// the module through bitcode) than it saves.
static constexpr unsigned kMinPartitionInstructions = 500;

/// Which partition each defined function of `module` goes to, for up to
/// `threads` threads; empty for one partition. Partition 0 holds the entry
/// points (the functions nothing references) and every function they call
/// directly, transitively: the straight-line code that calls the kernels
/// and hands the loop bodies to the runtime's parallel loop. The loop bodies
/// (referenced only by address, or called by another body: a merged copy)
/// are spread over the other partitions, largest first onto the lightest.
/// The two kinds cost about the same to compile (BERT, `opt`/`llc` on its
/// IR with -mcpu=native: the entry function 0.16 s to optimize and 0.34 s
/// to compile, the 75 bodies 0.27 s and 0.21 s).
static llvm::DenseMap<const llvm::Function *, unsigned>
partitionFunctions(llvm::Module &module, unsigned threads) {
  llvm::DenseMap<const llvm::Function *, unsigned> partition;
  if (threads < 2)
    return partition;
  for (const llvm::GlobalVariable &global : module.globals())
    if (global.hasAppendingLinkage())
      return partition; // llvm.used & co.: not worth splitting for
  llvm::SmallVector<llvm::Function *> worklist;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.use_empty())
      worklist.push_back(&function);
  uint64_t entryInstructions = 0;
  while (!worklist.empty()) {
    llvm::Function *function = worklist.pop_back_val();
    if (!partition.try_emplace(function, 0).second)
      continue;
    entryInstructions += function->getInstructionCount();
    for (llvm::Instruction &instruction : llvm::instructions(*function))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (llvm::Function *callee = call->getCalledFunction();
            callee && !callee->isDeclaration())
          worklist.push_back(callee);
  }
  llvm::SmallVector<llvm::Function *> bodies;
  uint64_t bodyInstructions = 0;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !partition.count(&function)) {
      bodies.push_back(&function);
      bodyInstructions += function.getInstructionCount();
    }
  unsigned bodyParts = static_cast<unsigned>(
      std::min<uint64_t>({threads - 1, bodies.size(),
                          bodyInstructions / kMinPartitionInstructions}));
  if (entryInstructions < kMinPartitionInstructions || bodyParts == 0) {
    partition.clear();
    return partition;
  }
  llvm::stable_sort(bodies, [](llvm::Function *a, llvm::Function *b) {
    return a->getInstructionCount() > b->getInstructionCount();
  });
  llvm::SmallVector<uint64_t> load(bodyParts, 0);
  for (llvm::Function *body : bodies) {
    unsigned lightest =
        std::min_element(load.begin(), load.end()) - load.begin();
    load[lightest] += body->getInstructionCount();
    partition[body] = lightest + 1;
  }
  return partition;
}

/// Several objects in one blob: the magic, then per object its size (8
/// bytes, little endian) and its bytes. A single object travels as itself.
static constexpr llvm::StringLiteral kObjectsMagic = "T2MOBJS1";

static std::string packObjects(llvm::ArrayRef<std::string> objects) {
  if (objects.size() == 1)
    return objects.front();
  std::string blob(kObjectsMagic);
  for (const std::string &object : objects) {
    char size[8];
    llvm::support::endian::write64le(size, object.size());
    blob.append(size, sizeof(size));
    blob += object;
  }
  return blob;
}

/// The objects of a blob made by packObjects; none if it is malformed.
static llvm::SmallVector<llvm::StringRef> unpackObjects(llvm::StringRef blob) {
  if (!blob.consume_front(kObjectsMagic))
    return {blob};
  llvm::SmallVector<llvm::StringRef> objects;
  while (!blob.empty()) {
    if (blob.size() < 8)
      return {};
    uint64_t size = llvm::support::endian::read64le(blob.data());
    blob = blob.drop_front(8);
    if (size > blob.size())
      return {};
    objects.push_back(blob.take_front(size));
    blob = blob.drop_front(size);
  }
  return objects;
}

/// Compiles `module` in the partitions of `partition` (see
/// partitionFunctions), each optimized and compiled on a thread of its own
/// in an LLVM context of its own. Local symbols become external (each
/// defined in one partition, declared in the others); global variables go
/// to partition 0. Returns the reason on failure, "" on success.
static std::string emitPartitionedObjects(
    llvm::Module &module,
    const llvm::DenseMap<const llvm::Function *, unsigned> &partition,
    const CodegenOptions &options, std::vector<std::string> &objects) {
  unsigned parts = 0;
  for (const auto &entry : partition)
    parts = std::max(parts, entry.second + 1);
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || !value.hasLocalLinkage())
      continue;
    if (!value.hasName())
      value.setName("__torch2mlir_local");
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
  std::vector<std::string> bitcode(parts);
  for (unsigned part = 0; part < parts; ++part) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> copy =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
          auto *function = llvm::dyn_cast<llvm::Function>(value);
          unsigned owner = function ? partition.lookup(function) : 0;
          return owner == part;
        });
    llvm::raw_string_ostream stream(bitcode[part]);
    llvm::WriteBitcodeToFile(*copy, stream);
  }
  objects.assign(bitcode.size(), "");
  std::vector<std::string> errors(bitcode.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < bitcode.size(); ++i)
    threads.emplace_back([&, i] {
      llvm::LLVMContext context;
      auto part = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(bitcode[i], "torch2mlir-partition"), context);
      if (!part) {
        errors[i] =
            "cannot read a partition back: " + llvm::toString(part.takeError());
        return;
      }
      errors[i] = emitObject(**part, options, objects[i]);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &error : errors)
    if (!error.empty())
      return error;
  return "";
}

bool torch2mlirCompileToObject(MlirModule module, int optLevel, bool vectorMath,
                               int threads, MlirStringCallback onObject,
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
  // 512-bit vectors where the CPU has AVX-512, as PyTorch's own kernels
  // (its AVX512 CPU capability): LLVM's x86 tuning prefers 256-bit ones on
  // every AVX-512 CPU, for the clock that older ones lowered under 512-bit
  // work. Measured here (1 thread): tanh-GELU [256, 1024] 0.37 -> 0.24 ms,
  // log_softmax [2, 4, 128, 128] 0.22 -> 0.11 ms.
  bool avx512 =
      llvm::StringRef(builder->getFeatures().getString()).contains("+avx512f");
  if (avx512)
    for (llvm::Function &function : *llvmModule)
      if (!function.isDeclaration())
        function.addFnAttr("prefer-vector-width", "512");

  CodegenOptions options{*builder, optLevel, vectorMath, avx512};
  unsigned available = std::max(1u, std::thread::hardware_concurrency());
  // The copies of a function (the bodies of a model's repeated layers)
  // are merged first, so that each is compiled once whatever partition
  // it lands in.
  if (threads != 1 && available > 1)
    llvm::MergeFunctionsPass::runOnModule(*llvmModule);
  auto partition = partitionFunctions(
      *llvmModule, threads > 0 ? static_cast<unsigned>(threads) : available);
  std::vector<std::string> objects(1);
  std::string error =
      partition.empty()
          ? emitObject(*llvmModule, options, objects.front())
          : emitPartitionedObjects(*llvmModule, partition, options, objects);
  if (!error.empty()) {
    report(onError, userData, error);
    return false;
  }
  std::string blob = packObjects(objects);
  onObject(mlirStringRefCreate(blob.data(), blob.size()), userData);
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
  llvm::SmallVector<llvm::StringRef> objects = unpackObjects(unwrap(object));
  if (objects.empty()) {
    report(onError, userData, "malformed object code (a truncated blob?)");
    return Torch2MlirObjectJit{nullptr};
  }
  for (llvm::StringRef bytes : objects) {
    auto buffer =
        llvm::MemoryBuffer::getMemBufferCopy(bytes, "torch2mlir-object");
    if (llvm::Error error = (*jit)->addObjectFile(std::move(buffer)))
      return fail("cannot link the object: ", std::move(error));
  }
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
