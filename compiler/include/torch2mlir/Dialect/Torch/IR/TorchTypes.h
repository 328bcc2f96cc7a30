//===- TorchTypes.h - Types of the torch dialect ----------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_TORCHTYPES_H
#define TORCH2MLIR_DIALECT_TORCH_IR_TORCHTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include <optional>

namespace mlir::torch2mlir::torch {

/// The size of a dynamic dimension in a tensor type (printed `?`).
constexpr int64_t kUnknownSize = -1;

class ValueTensorType;
class NonValueTensorType;

/// Common interface of `!torch.tensor` and `!torch.vtensor`.
class BaseTensorType : public Type {
public:
  using Type::Type;
  static bool classof(Type type);

  bool hasSizes() const;
  ArrayRef<int64_t> getSizes() const;
  std::optional<ArrayRef<int64_t>> getOptionalSizes() const {
    if (!hasSizes())
      return std::nullopt;
    return getSizes();
  }
  /// The dtype, or null if unknown.
  Type getOptionalDtype() const;
  bool hasDtype() const { return static_cast<bool>(getOptionalDtype()); }
  Type getDtype() const {
    assert(hasDtype() && "the dtype of this tensor type is unknown");
    return getOptionalDtype();
  }
  /// True when the rank and every size are known.
  bool areAllSizesKnown() const;
  bool hasValueSemantics() const;
  /// The same kind of tensor type with other sizes and dtype.
  BaseTensorType getWithSizesAndDtype(std::optional<ArrayRef<int64_t>> sizes,
                                      Type dtype) const;
  ValueTensorType getWithValueSemantics() const;
};

/// Whether `type` is a dtype a torch tensor may have (f16, bf16, f32, f64,
/// si8..si64, ui8, i1, complex<f32|f64>).
bool isValidTorchDtype(Type type);

/// The builtin (signless) form of a torch dtype: si64 -> i64, ui8 -> i8.
Type getBuiltinElementType(Type dtype);

} // namespace mlir::torch2mlir::torch

#define GET_TYPEDEF_CLASSES
#include "torch2mlir/Dialect/Torch/IR/TorchTypes.h.inc"

#endif // TORCH2MLIR_DIALECT_TORCH_IR_TORCHTYPES_H
