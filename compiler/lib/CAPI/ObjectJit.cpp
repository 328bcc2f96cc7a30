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
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
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

bool torch2mlirCompileToObject(MlirModule module, int optLevel,
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
  auto optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                            machine->get());
  if (llvm::Error error = optimize(llvmModule.get())) {
    report(onError, userData,
           "LLVM optimization failed: " + llvm::toString(std::move(error)));
    return false;
  }

  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr,
                                      llvm::CodeGenFileType::ObjectFile)) {
    report(onError, userData, "this target cannot emit object files");
    return false;
  }
  codegen.run(*llvmModule);
  onObject(mlirStringRefCreate(object.data(), object.size()), userData);
  return true;
}

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
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(unwrap(object),
                                                     "torch2mlir-object");
  if (llvm::Error error = (*jit)->addObjectFile(std::move(buffer)))
    return fail("cannot link the object: ", std::move(error));
  return Torch2MlirObjectJit{jit->release()};
}

uint64_t torch2mlirObjectJitLookup(Torch2MlirObjectJit jit,
                                   MlirStringRef name) {
  auto *session = static_cast<llvm::orc::LLJIT *>(jit.ptr);
  auto address = session->lookup(unwrap(name));
  if (!address) {
    llvm::consumeError(address.takeError());
    return 0;
  }
  return address->getValue();
}

void torch2mlirObjectJitDestroy(Torch2MlirObjectJit jit) {
  delete static_cast<llvm::orc::LLJIT *>(jit.ptr);
}
