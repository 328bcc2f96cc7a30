//===- Torch2MlirModule.cpp - The _torch2mlir Python extension ------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"
#include "torch2mlir/CAPI/Registration.h"

#include <string>
#include <vector>

namespace nb = nanobind;

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
}
