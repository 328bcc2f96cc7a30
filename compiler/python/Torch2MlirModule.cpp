//===- Torch2MlirModule.cpp - The _torch2mlir Python extension ------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"
#include "torch2mlir/CAPI/Registration.h"

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
}
