//===- TorchBase.td - The torch dialect --------------------*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_TORCHBASE
#define TORCH2MLIR_DIALECT_TORCH_IR_TORCHBASE

include "mlir/IR/OpBase.td"

def Torch_Dialect : Dialect {
  let name = "torch";
  let cppNamespace = "::mlir::torch2mlir::torch";
  let summary = "PyTorch programs in MLIR: ATen ops on torch types.";
  let description = [{
    The `torch` dialect models PyTorch programs as they come out of
    `torch.export` (ATen ops named like `torch.aten.convolution`, Python-level
    scalars, lists and optionals) and as the ONNX importer emits them
    (`torch.operator "onnx.<Op>"`).

    Tensors come in two flavours: `!torch.tensor` (non-value semantics: it may
    alias and be mutated) and `!torch.vtensor` (value semantics). Both carry an
    optional list of sizes (`?` for a dynamic size) and an optional dtype.
  }];
  let useDefaultTypePrinterParser = 0;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;
  private:
    void registerTypes();
  }];
}

class Torch_Op<string mnemonic, list<Trait> traits = []>
    : Op<Torch_Dialect, mnemonic, traits>;

// Traits of ops whose ODS is generated from the PyTorch operator registry.
class Torch_OpTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::torch2mlir::torch::OpTrait";
}
def HasValueSemantics : Torch_OpTrait<"HasValueSemantics">;
def ReadOnly : Torch_OpTrait<"ReadOnly">;
def AllowsTypeRefinement : Torch_OpTrait<"AllowsTypeRefinement">;

#endif // TORCH2MLIR_DIALECT_TORCH_IR_TORCHBASE
