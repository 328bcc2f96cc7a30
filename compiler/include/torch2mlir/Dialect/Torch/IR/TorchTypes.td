//===- TorchTypes.td - Types of the torch dialect ----------*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_TORCHTYPES
#define TORCH2MLIR_DIALECT_TORCH_IR_TORCHTYPES

include "torch2mlir/Dialect/Torch/IR/TorchBase.td"
include "mlir/IR/AttrTypeBase.td"

class Torch_Type<string name, string typeMnemonic,
                 string baseCppClass = "::mlir::Type">
    : TypeDef<Torch_Dialect, name, [], baseCppClass> {
  let mnemonic = typeMnemonic;
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

class Torch_TensorTypeBase<string name, string typeMnemonic>
    : Torch_Type<name, typeMnemonic,
                 "::mlir::torch2mlir::torch::BaseTensorType"> {
  // `hasSizes` distinguishes "rank unknown" (false) from rank 0 (true, no
  // sizes). A size of kUnknownSize (-1) is a dynamic dimension, printed `?`.
  // A null dtype is an unknown dtype, printed `unk`.
  let parameters = (ins
    "bool":$hasSizes,
    ArrayRefParameter<"int64_t", "sizes">:$sizes,
    "::mlir::Type":$optionalDtype
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilder<(ins "::std::optional<::llvm::ArrayRef<int64_t>>":$optionalSizes,
                     "::mlir::Type":$optionalDtype), [{
      return $_get($_ctxt, optionalSizes.has_value(),
                   optionalSizes.value_or(::llvm::ArrayRef<int64_t>{}), optionalDtype);
    }]>,
    TypeBuilder<(ins), [{
      return $_get($_ctxt, false, ::llvm::ArrayRef<int64_t>{}, ::mlir::Type());
    }]>
  ];
}

def Torch_NonValueTensorType : Torch_TensorTypeBase<"NonValueTensor", "tensor"> {
  let summary = "torch.Tensor with non-value semantics (may alias, may be mutated)";
  let extraClassDeclaration = [{
    /// The value-semantic counterpart with the same sizes and dtype.
    ValueTensorType getWithValueSemantics() const;
  }];
}

def Torch_ValueTensorType : Torch_TensorTypeBase<"ValueTensor", "vtensor"> {
  let summary = "torch.Tensor with value semantics";
  let extraClassDeclaration = [{
    /// The builtin tensor type with the same shape and dtype (signless
    /// integers), or null if the rank or the dtype is unknown.
    ::mlir::TensorType toBuiltinTensor() const;
  }];
}

//===----------------------------------------------------------------------===//
// Scalars and containers
//===----------------------------------------------------------------------===//

def Torch_IntType : Torch_Type<"Int", "int"> {
  let summary = "torch int (a Python int: 64-bit signed)";
}
def Torch_FloatType : Torch_Type<"Float", "float"> {
  let summary = "torch float (a Python float: 64-bit IEEE)";
}
def Torch_BoolType : Torch_Type<"Bool", "bool"> {
  let summary = "torch bool";
}
def Torch_NumberType : Torch_Type<"Number", "number"> {
  let summary = "torch number: an int or a float known only at run time (ATen `Scalar`)";
}
def Torch_StringType : Torch_Type<"String", "str"> {
  let summary = "torch str";
}
def Torch_NoneType : Torch_Type<"None", "none"> {
  let summary = "torch None";
}
def Torch_DeviceType : Torch_Type<"Device", "Device"> {
  let summary = "torch.device";
}
def Torch_GeneratorType : Torch_Type<"Generator", "Generator"> {
  let summary = "torch.Generator";
}

def Torch_ListType : Torch_Type<"List", "list"> {
  let summary = "torch list: a Python list of one element type";
  let parameters = (ins "::mlir::Type":$containedType);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$containedType), [{
      return $_get(containedType.getContext(), containedType);
    }]>
  ];
}

def Torch_OptionalType : Torch_Type<"Optional", "optional"> {
  let summary = "torch Optional[T]: a T or None";
  let parameters = (ins "::mlir::Type":$containedType);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$containedType), [{
      return $_get(containedType.getContext(), containedType);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Type constraints used by the ops.
//===----------------------------------------------------------------------===//

def AnyTorchTensorType : Type<
    CPred<"::llvm::isa<::mlir::torch2mlir::torch::BaseTensorType>($_self)">,
    "any torch tensor type">;
def AnyTorchValueTensorType : Type<
    CPred<"::llvm::isa<::mlir::torch2mlir::torch::ValueTensorType>($_self)">,
    "torch value tensor">;

class ListOf<Pred elemPred, string desc> : Type<And<[
    CPred<"::llvm::isa<::mlir::torch2mlir::torch::ListType>($_self)">,
    SubstLeaves<"$_self",
      "::llvm::cast<::mlir::torch2mlir::torch::ListType>($_self).getContainedType()",
      elemPred>]>, desc>;
class OptionalOf<Type t, string desc> : Type<Or<[
    t.predicate,
    CPred<"::llvm::isa<::mlir::torch2mlir::torch::NoneType>($_self)">,
    And<[CPred<"::llvm::isa<::mlir::torch2mlir::torch::OptionalType>($_self)">,
         SubstLeaves<"$_self",
           "::llvm::cast<::mlir::torch2mlir::torch::OptionalType>($_self).getContainedType()",
           t.predicate>]>]>, desc>;

def AnyTorchScalarType : AnyTypeOf<[Torch_IntType, Torch_FloatType,
    Torch_BoolType, Torch_NumberType], "any torch scalar (ATen Scalar)">;

def AnyTorchOptionalTensorType : OptionalOf<AnyTorchTensorType, "optional tensor">;
def AnyTorchOptionalIntType : OptionalOf<Torch_IntType, "optional int">;
def AnyTorchOptionalFloatType : OptionalOf<Torch_FloatType, "optional float">;
def AnyTorchOptionalBoolType : OptionalOf<Torch_BoolType, "optional bool">;
def AnyTorchOptionalStringType : OptionalOf<Torch_StringType, "optional str">;
def AnyTorchOptionalDeviceType : OptionalOf<Torch_DeviceType, "optional Device">;
def AnyTorchOptionalGeneratorType : OptionalOf<Torch_GeneratorType, "optional Generator">;
def AnyTorchOptionalScalarType : OptionalOf<AnyTorchScalarType, "optional scalar">;

def AnyTorchListOfTensorType : ListOf<AnyTorchTensorType.predicate, "list of tensors">;
def AnyTorchListOfOptionalTensorType : ListOf<AnyTorchOptionalTensorType.predicate, "list of optional tensors">;
def AnyTorchListOfTorchIntType : ListOf<Torch_IntType.predicate, "list of ints">;
def AnyTorchListOfTorchFloatType : ListOf<Torch_FloatType.predicate, "list of floats">;
def AnyTorchListOfTorchBoolType : ListOf<Torch_BoolType.predicate, "list of bools">;
def AnyTorchListOfTorchStringType : ListOf<Torch_StringType.predicate, "list of strs">;
def AnyTorchListOfScalarType : ListOf<AnyTorchScalarType.predicate, "list of scalars">;
def AnyTorchOptionalListOfTorchIntType : OptionalOf<AnyTorchListOfTorchIntType, "optional list of ints">;
def AnyTorchOptionalListOfTorchFloatType : OptionalOf<AnyTorchListOfTorchFloatType, "optional list of floats">;

def AnyTorchType : Type<
    CPred<"::llvm::isa<::mlir::torch2mlir::torch::TorchDialect>($_self.getDialect())">,
    "any torch type">;

#endif // TORCH2MLIR_DIALECT_TORCH_IR_TORCHTYPES
