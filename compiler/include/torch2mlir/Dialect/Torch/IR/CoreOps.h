//===- CoreOps.h - The backend contract's core op set -----------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_DIALECT_TORCH_IR_COREOPS_H
#define TORCH2MLIR_DIALECT_TORCH_IR_COREOPS_H

#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"

#include "llvm/ADT/StringSet.h"
#include <type_traits>

namespace mlir::torch2mlir::torch {

/// Whether `OpTy` is in the backend contract's core op set (CoreOps.def), at
/// compile time.
template <typename OpTy> struct IsCoreOp : std::false_type {};
#define TORCH2MLIR_CORE_OP(OpClass)                                            \
  template <> struct IsCoreOp<OpClass> : std::true_type {};
#include "torch2mlir/Dialect/Torch/IR/CoreOps.def"

/// Marks `OpTys` illegal on a ConversionTarget: the ops a conversion to a
/// backend lowers. Each must be core (a compile-time error otherwise), so
/// that TorchToLinalg lowers the core set and nothing else.
template <typename... OpTys, typename ConversionTargetT>
void addIllegalCoreOps(ConversionTargetT &target) {
  static_assert((IsCoreOp<OpTys>::value && ...),
                "a conversion lowers only core ops: add the op to "
                "torch2mlir/Dialect/Torch/IR/CoreOps.def or decompose it in "
                "torch-decompose-complex-ops");
  target.template addIllegalOp<OpTys...>();
}

/// Whether `op` is in the backend contract's core op set (CoreOps.def).
bool isCoreOp(Operation *op);

/// Whether `opName` (`torch.aten.linear`) is in `legalOps`, the non-core ops
/// a backend lowers itself (`legal-ops`), which users name with or without
/// the `torch.` prefix.
bool isLegalOpName(const llvm::StringSet<> &legalOps, StringRef opName);

/// Whether a backend that keeps `aten.scaled_dot_product_attention` whole
/// (`legal-ops`) lowers `op` as one fused attention, so that the contract
/// leaves it undecomposed: float32 query, key and value of one rank >= 3
/// whose batch dims (all but the last two) are known and equal (no
/// broadcast, no grouped heads), a known head size shared by query and key,
/// dropout_p = 0, constant is_causal, enable_gqa and scale, and a mask that
/// is none, or bool or float32 with known sizes, each 1 or the size of its
/// dim of the [batch..., L, S] scores. Every other attention decomposes
/// into matmul, softmax and matmul.
bool isFusableAttention(AtenScaledDotProductAttentionOp op);

/// Whether a backend that keeps `aten.native_group_norm` whole (`legal-ops`)
/// lowers `op` group by group, so that the contract leaves it undecomposed:
/// an input [N, C, *] of known sizes and no elements missing, float32,
/// float16 or bfloat16, a constant group count dividing C, a weight and a
/// bias that are none or [C] of the input's dtype, and the mean and rstd
/// results unused (inference; training's backward reads them). Every other
/// group norm decomposes into a layer norm's statistics and elementwise ops.
bool isRowGroupNorm(AtenNativeGroupNormOp op);

} // namespace mlir::torch2mlir::torch

#endif // TORCH2MLIR_DIALECT_TORCH_IR_COREOPS_H
