//===- TorchConversionOps.td - The torch_c dialect ---------*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCHCONVERSION_IR_TORCHCONVERSIONOPS
#define TORCH2MLIR_DIALECT_TORCHCONVERSION_IR_TORCHCONVERSIONOPS

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "torch2mlir/Dialect/Torch/IR/TorchTypes.td"

def TorchConversion_Dialect : Dialect {
  let name = "torch_c";
  let cppNamespace = "::mlir::torch2mlir::torch_c";
  let summary = "Materializations between torch types and builtin types";
  let description = [{
    The ops of this dialect stand at the seams of a partial conversion from
    the torch dialect to a backend: each converts a torch value to the
    builtin value a backend computes with (`!torch.vtensor<[2],f32>` to
    `tensor<2xf32>`, `!torch.int` to `i64`, `!torch.float` to `f64`,
    `!torch.bool` to `i1`) or back. When a conversion is complete they cancel
    out and `torch-finalizing-backend-type-conversion` removes them.
  }];
}

class TorchConversion_Op<string mnemonic, list<Trait> traits = []>
    : Op<TorchConversion_Dialect, mnemonic, traits>;

def TorchConversion_ToBuiltinTensorOp : TorchConversion_Op<"to_builtin_tensor", [Pure]> {
  let summary = "!torch.vtensor to the builtin tensor of the same shape and (signless) dtype";
  let arguments = (ins AnyTorchValueTensorType:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TorchConversion_FromBuiltinTensorOp : TorchConversion_Op<"from_builtin_tensor", [Pure]> {
  let summary = "A builtin tensor to the !torch.vtensor of the same shape and dtype";
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyTorchValueTensorType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TorchConversion_RandomKeyOp
    : TorchConversion_Op<"random_key", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "A fresh 64-bit key for one execution of a random op";
  let description = [{
    The random ops of the torch dialect (`aten.rand`, `aten.randn`,
    `aten.randperm`, `aten.native_dropout`) lower to counter-based
    generators: element `i` of the result is a pure function of a key and
    `i`. This op yields the key; each execution yields a new one (it reads
    and writes the generator state, so it is never CSE'd or hoisted). It is
    part of the linalg-on-tensors backend contract: a backend implements it
    (the RefBackend with a call of its runtime's `torch2mlir_random_key`).
  }];
  let results = (outs I64:$key);
  let assemblyFormat = "attr-dict";
}

class TorchConversion_ScalarCast<string mnemonic, Type from, Type to>
    : TorchConversion_Op<mnemonic, [Pure]> {
  let arguments = (ins from:$operand);
  let results = (outs to:$result);
  let assemblyFormat = "$operand attr-dict";
  let hasFolder = 1;
}

def TorchConversion_ToI64Op : TorchConversion_ScalarCast<"to_i64", Torch_IntType, I64> {
  let summary = "!torch.int to i64";
}
def TorchConversion_FromI64Op : TorchConversion_ScalarCast<"from_i64", I64, Torch_IntType> {
  let summary = "i64 to !torch.int";
}
def TorchConversion_ToF64Op : TorchConversion_ScalarCast<"to_f64", Torch_FloatType, F64> {
  let summary = "!torch.float to f64";
}
def TorchConversion_FromF64Op : TorchConversion_ScalarCast<"from_f64", F64, Torch_FloatType> {
  let summary = "f64 to !torch.float";
}
def TorchConversion_ToI1Op : TorchConversion_ScalarCast<"to_i1", Torch_BoolType, I1> {
  let summary = "!torch.bool to i1";
}
def TorchConversion_FromI1Op : TorchConversion_ScalarCast<"from_i1", I1, Torch_BoolType> {
  let summary = "i1 to !torch.bool";
}

#endif // TORCH2MLIR_DIALECT_TORCHCONVERSION_IR_TORCHCONVERSIONOPS
