//===- TorchOps.td - Ops of the torch dialect --------------*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
// Hand-written ops. The ATen ops are generated from the PyTorch operator
// registry into GeneratedTorchOps.td by build_tools/torch_ods_gen.py.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_TORCHOPS
#define TORCH2MLIR_DIALECT_TORCH_IR_TORCHOPS

include "torch2mlir/Dialect/Torch/IR/TorchTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

include "torch2mlir/Dialect/Torch/IR/GeneratedTorchOps.td"

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

class Torch_ConstantOp<string mnemonic, list<Trait> traits = []>
    : Torch_Op<mnemonic, !listconcat(traits, [ConstantLike, Pure,
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>])> {
  let hasFolder = 1;
}

def Torch_ConstantIntOp : Torch_ConstantOp<"constant.int"> {
  let summary = "A Python int literal";
  let arguments = (ins I64Attr:$value);
  let results = (outs Torch_IntType:$result);
  let assemblyFormat = "$value attr-dict";
  let builders = [OpBuilder<(ins "int64_t":$value)>];
}

def Torch_ConstantFloatOp : Torch_ConstantOp<"constant.float"> {
  let summary = "A Python float literal";
  let arguments = (ins F64Attr:$value);
  let results = (outs Torch_FloatType:$result);
  let assemblyFormat = "$value attr-dict";
  let builders = [OpBuilder<(ins "double":$value)>];
}

def Torch_ConstantBoolOp : Torch_ConstantOp<"constant.bool"> {
  let summary = "A Python bool literal";
  let arguments = (ins BoolAttr:$value);
  let results = (outs Torch_BoolType:$result);
  let assemblyFormat = "$value attr-dict";
  let builders = [OpBuilder<(ins "bool":$value)>];
}

def Torch_ConstantNoneOp : Torch_ConstantOp<"constant.none"> {
  let summary = "The Python None";
  let arguments = (ins);
  let results = (outs Torch_NoneType:$result);
  let assemblyFormat = "attr-dict";
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state,
          ::mlir::torch2mlir::torch::NoneType::get($_builder.getContext()));
  }]>];
}

def Torch_ConstantStrOp : Torch_ConstantOp<"constant.str"> {
  let summary = "A Python str literal";
  let arguments = (ins StrAttr:$value);
  let results = (outs Torch_StringType:$result);
  let assemblyFormat = "$value attr-dict";
}

def Torch_ConstantDeviceOp : Torch_ConstantOp<"constant.device"> {
  let summary = "A torch.device literal, such as \"cpu\"";
  let arguments = (ins StrAttr:$value);
  let results = (outs Torch_DeviceType:$result);
  let assemblyFormat = "$value attr-dict";
}

//===----------------------------------------------------------------------===//
// Lists and tensors literals
//===----------------------------------------------------------------------===//

def Torch_PrimListConstructOp : Torch_Op<"prim.ListConstruct", [Pure,
    AllowsTypeRefinement]> {
  let summary = "Builds a Python list from its elements";
  let description = [{
    Every element must have the list's element type (or refine it: a
    `!torch.vtensor<[2],f32>` is a valid element of `!torch.list<vtensor>`).
  }];
  let arguments = (ins Variadic<AnyTorchType>:$elements);
  let results = (outs Torch_ListType:$result);
  let assemblyFormat = "$elements attr-dict `:` functional-type($elements, $result)";
  let hasVerifier = 1;
}

def Torch_PrimListUnpackOp : Torch_Op<"prim.ListUnpack", [Pure,
    AllowsTypeRefinement]> {
  let summary = "The elements of a Python list of known length";
  let description = [{
    The results of an op that returns a list (`aten.split_with_sizes`
    returns `Tensor[]`): one result per element, each typed as the FX
    graph's `getitem` of it.
  }];
  let arguments = (ins Torch_ListType:$operand);
  let results = (outs Variadic<AnyTorchType>:$results);
  let assemblyFormat = "$operand attr-dict `:` qualified(type($operand)) `->` type($results)";
}

def Torch_ValueTensorLiteralOp : Torch_Op<"vtensor.literal", [ConstantLike,
    Pure, AllowsTypeRefinement]> {
  let summary = "A tensor literal with value semantics (weights, constants)";
  let description = [{
    The payload is any `ElementsAttr`: `dense<...>` for small values,
    `dense_resource<...>` for weights. Its shape must equal the result's
    sizes and its element type must be the result's dtype (integer dtypes
    may be given as signless integers of the same width).
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Torch_ValueTensorType:$result);
  let assemblyFormat = "`(` $value `)` attr-dict `:` qualified(type($result))";
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// The generic op
//===----------------------------------------------------------------------===//

def Torch_TensorStaticInfoCastOp : Torch_Op<"tensor_static_info_cast", [
    Pure, AllowsTypeRefinement]> {
  let summary = "Changes how much static information a tensor type carries";
  let description = [{
    The same tensor value with a type that has more or fewer known sizes
    (or a known dtype where the operand's was unknown): e.g. when an ONNX
    value flows into a use whose inferred type is more general. The two
    types must agree wherever both are known; it lowers to `tensor.cast`.
  }];
  let arguments = (ins AnyTorchTensorType:$operand);
  let results = (outs AnyTorchTensorType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torch_RuntimeAssertOp : Torch_Op<"runtime.assert", []> {
  let summary = "Checks a condition when the program runs";
  let description = [{
    A fact the program assumes but its types cannot prove (a run-time axes
    input of an ONNX reduction naming the dims the static sizes imply). It
    lowers to `cf.assert` (convert-torch-to-arith); the RefBackend reports a
    failure as an `InputError` with `message` and the location, and returns
    without results (refbackend-lower-asserts).
  }];
  let arguments = (ins Torch_BoolType:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict";
}

def Torch_OperatorOp : Torch_Op<"operator", []> {
  let summary = "Any op without a definition of its own (ATen, ONNX, custom)";
  let description = [{
    `torch.operator "aten.some_op.overload"(...)` stands for an op the
    dialect has no ODS definition for, so that importing never fails on an
    unknown op. The ONNX importer emits `torch.operator "onnx.<Op>"` with
    the ONNX attributes as `torch.onnx.<name>` attributes and subgraphs as
    regions. Backends reject it: the backend contract verifier names the op
    and the source location.
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region VariadicRegion<AnyRegion>:$regions);
  let assemblyFormat = [{
    $name `(` $operands `)` attr-dict `:` functional-type($operands, $results) $regions
  }];
}

def Torch_OperatorTerminatorOp : Torch_Op<"operator_terminator",
    [Pure, Terminator, HasParent<"::mlir::torch2mlir::torch::OperatorOp">]> {
  let summary = "Yields the results of a `torch.operator` region";
  let description = [{
    Ends each block of a `torch.operator` region, e.g. the `then_branch` and
    `else_branch` subgraphs of `onnx.If` or the body of `onnx.Loop`. Its
    operands are the subgraph's outputs, in the order the subgraph declares
    them.
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "($operands^ `:` type($operands))? attr-dict";
}

#endif // TORCH2MLIR_DIALECT_TORCH_IR_TORCHOPS
