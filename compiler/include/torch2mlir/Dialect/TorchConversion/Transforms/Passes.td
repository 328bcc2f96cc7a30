//===- Passes.td - Backend type conversion passes ----------*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_PASSES
#define TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def FuncBackendTypeConversion : Pass<"torch-func-backend-type-conversion", "ModuleOp"> {
  let summary = "Convert function signatures, calls and returns to builtin types";
  let description = [{
    `!torch.vtensor<[2],f32>` becomes `tensor<2xf32>`, `!torch.int` becomes
    `i64`, `!torch.float` `f64` and `!torch.bool` `i1`, at function
    boundaries. Inside the bodies, `torch_c` materializations bridge the
    values that are still of torch types.
  }];
  let dependentDialects = ["torch2mlir::torch_c::TorchConversionDialect"];
}

def FinalizingBackendTypeConversion
    : Pass<"torch-finalizing-backend-type-conversion", "func::FuncOp"> {
  let summary = "Remove the torch_c materializations left by a complete conversion";
  let description = [{
    After every torch op has been converted, the only torch-typed values
    left are those that `torch_c` ops convert back and forth; this pass
    folds those pairs away. A `torch_c` op that cannot be removed means some
    torch op was not converted: it is reported.
  }];
}

def VerifyLinalgOnTensorsBackendContract
    : Pass<"torch-verify-linalg-on-tensors-backend-contract", "ModuleOp"> {
  let summary = "Check that only linalg-on-tensors backend ops and types remain";
  let description = [{
    The linalg-on-tensors contract: builtin types only, and ops of the
    func, linalg, tensor, arith, math, scf and cf dialects. Any leftover op
    is reported at its location with its name.
  }];
}

def VerifyTosaBackendContract
    : Pass<"torch-verify-tosa-backend-contract", "ModuleOp"> {
  let summary = "Check that only TOSA backend ops and types remain";
  let description = [{
    The TOSA contract: builtin types only, and ops of the tosa and func
    dialects. Any leftover op is reported at its location with its name.
  }];
}

#endif // TORCH2MLIR_DIALECT_TORCHCONVERSION_TRANSFORMS_PASSES
