//===- Torch2MlirModule.cpp - The _torch2mlir Python extension ------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"
#include "torch2mlir/CAPI/ObjectJit.h"
#include "torch2mlir/CAPI/Registration.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

namespace nb = nanobind;

namespace {
/// Appends a C API string callback's text to a std::string.
void appendTo(MlirStringRef text, void *userData) {
  static_cast<std::string *>(userData)->append(text.data, text.length);
}

/// A linked object (torch2mlirObjectJitCreate), freed with the Python object.
class ObjectJit {
public:
  ObjectJit(nb::bytes object, const std::vector<std::string> &sharedLibs) {
    std::vector<MlirStringRef> libs;
    for (const std::string &lib : sharedLibs)
      libs.push_back(mlirStringRefCreate(lib.data(), lib.size()));
    std::string error;
    jit = torch2mlirObjectJitCreate(
        mlirStringRefCreate(static_cast<const char *>(object.data()),
                            object.size()),
        static_cast<intptr_t>(libs.size()), libs.data(), appendTo, &error);
    if (!jit.ptr)
      throw std::runtime_error(error);
  }
  ObjectJit(const ObjectJit &) = delete;
  ObjectJit &operator=(const ObjectJit &) = delete;
  ~ObjectJit() { torch2mlirObjectJitDestroy(jit); }

  uint64_t lookup(const std::string &name) {
    std::string error;
    uint64_t address = torch2mlirObjectJitLookup(
        jit, mlirStringRefCreate(name.data(), name.size()), appendTo, &error);
    if (!address)
      throw std::runtime_error(error);
    return address;
  }

private:
  Torch2MlirObjectJit jit;
};
} // namespace

NB_MODULE(_torch2mlir, m) {
  m.doc() = "torch2mlir's dialect and pass registration";
  torch2mlirRegisterAllPasses();
  m.def(
      "register_dialects",
      [](MlirDialectRegistry registry) {
        torch2mlirRegisterAllDialects(registry);
      },
      nb::arg("registry"),
      "Adds the torch and torch_c dialects to a DialectRegistry.");
  m.def(
      "set_llvm_options",
      [](const std::vector<std::string> &options) {
        std::vector<const char *> argv{"torch2mlir"};
        for (const std::string &option : options)
          argv.push_back(option.c_str());
        return torch2mlirSetLLVMOptions(static_cast<int>(argv.size()),
                                        argv.data());
      },
      nb::arg("options"),
      "Sets LLVM command-line options (e.g. code generation limits) for "
      "this process; returns False if one is not recognized.");
  m.def(
      "compile_to_object",
      [](MlirModule module, int optLevel, bool vectorMath, int threads) {
        // One userData serves both callbacks: each appends to its own
        // member.
        struct Outputs {
          std::string object, error;
        } outputs;
        bool ok;
        {
          nb::gil_scoped_release release;
          ok = torch2mlirCompileToObject(
              module, optLevel, vectorMath, threads,
              [](MlirStringRef text, void *data) {
                static_cast<Outputs *>(data)->object.append(text.data,
                                                            text.length);
              },
              [](MlirStringRef text, void *data) {
                static_cast<Outputs *>(data)->error.append(text.data,
                                                           text.length);
              },
              &outputs);
        }
        if (!ok)
          throw std::runtime_error(outputs.error);
        return nb::bytes(outputs.object.data(), outputs.object.size());
      },
      nb::arg("module"), nb::arg("opt_level") = 2,
      nb::arg("vector_math") = false, nb::arg("threads") = 0,
      "Compiles a module in the LLVM dialect to a relocatable object for "
      "the host CPU (bytes); with vector_math, math-function loops call "
      "glibc's libmvec. Raises RuntimeError on failure.");
  nb::class_<ObjectJit>(m, "ObjectJit",
                        "An object file linked into its own JIT session.")
      .def(nb::init<nb::bytes, const std::vector<std::string> &>(),
           nb::arg("object"), nb::arg("shared_libs"),
           "Links `object`; external symbols resolve in the process and "
           "in `shared_libs`. Raises RuntimeError on failure.")
      .def("lookup", &ObjectJit::lookup, nb::arg("name"),
           "The address of symbol `name`. Raises RuntimeError with the "
           "JIT's reason if it has none or a symbol it needs does not "
           "resolve.");
}
