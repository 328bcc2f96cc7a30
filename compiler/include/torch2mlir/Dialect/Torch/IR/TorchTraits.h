//===- TorchTraits.h - Traits of torch ops ----------------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_TORCHTRAITS_H
#define TORCH2MLIR_DIALECT_TORCH_IR_TORCHTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::torch2mlir::torch::OpTrait {

/// The op's tensor operands and results have value semantics: it reads its
/// operands and produces new values, with no aliasing.
template <typename ConcreteType>
class HasValueSemantics
    : public ::mlir::OpTrait::TraitBase<ConcreteType, HasValueSemantics> {};

/// The op writes none of its operands (its schema has no `(a!)` argument).
template <typename ConcreteType>
class ReadOnly : public ::mlir::OpTrait::TraitBase<ConcreteType, ReadOnly> {};

/// The op's result types may be replaced by more refined types (known sizes
/// or dtype) without changing its meaning.
template <typename ConcreteType>
class AllowsTypeRefinement
    : public ::mlir::OpTrait::TraitBase<ConcreteType, AllowsTypeRefinement> {};

} // namespace mlir::torch2mlir::torch::OpTrait

#endif // TORCH2MLIR_DIALECT_TORCH_IR_TORCHTRAITS_H
