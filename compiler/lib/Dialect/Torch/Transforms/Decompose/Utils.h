//===- Utils.h - Shared by the torch-decompose-complex-ops files -*- C++
//-*-===//
//
// Part of the torch2mlir project.
//
// Each file of Decompose/ rewrites one family of ATen ops into ops that the
// backends lower directly (the core op set, CoreOps.def), so that the op
// semantics are derived once here and not once per backend. A pattern only
// fires when it can compute every result type.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_LIB_DIALECT_TORCH_TRANSFORMS_DECOMPOSE_UTILS_H
#define TORCH2MLIR_LIB_DIALECT_TORCH_TRANSFORMS_DECOMPOSE_UTILS_H

#include "torch2mlir/Dialect/Torch/IR/CoreOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::torch2mlir::torch::decompose {

/// The decompositions of one run of the pass: each is added unless the
/// backend keeps its op whole (`legal-ops`).
class DecompositionPatterns {
public:
  DecompositionPatterns(RewritePatternSet &patterns,
                        const llvm::StringSet<> &legal, bool float64)
      : float64(float64), patterns(patterns), legal(legal) {}

  /// Adds `PatternTy` (constructed with the context and `args`) unless
  /// `OpTy` is legal (isLegalOpName).
  template <typename PatternTy, typename OpTy, typename... Args>
  void add(Args &&...args) {
    if (keeps<OpTy>())
      return;
    patterns.add<PatternTy>(patterns.getContext(), std::forward<Args>(args)...);
  }

  /// Adds `PatternTy` (constructed with the context, whether the backend
  /// keeps `OpTy` (isLegalOpName), then `args`) whatever the backend keeps:
  /// for a decomposition that still applies to the forms of a kept op the
  /// backend cannot lower whole.
  template <typename PatternTy, typename OpTy, typename... Args>
  void addForUnkeptForms(Args &&...args) {
    patterns.add<PatternTy>(patterns.getContext(), keeps<OpTy>(),
                            std::forward<Args>(args)...);
  }

  /// Whether the backend keeps `OpTy` (isLegalOpName).
  template <typename OpTy> bool keeps() const {
    return isLegalOpName(legal, OpTy::getOperationName());
  }

  /// The backend has float64 tensors (see the pass's `float64` option).
  const bool float64;

private:
  RewritePatternSet &patterns;
  const llvm::StringSet<> &legal;
};

void populateLinearDecompositions(DecompositionPatterns &set);

/// Attention written out as matmuls around a softmax, recomposed into
/// scaled_dot_product_attention for a backend that keeps that op: applied
/// before the decompositions, which would take its parts apart.
void populateAttentionRecompositions(RewritePatternSet &patterns);
void populateShapeDecompositions(DecompositionPatterns &set);
void populateNormalizationDecompositions(DecompositionPatterns &set);
void populateReductionDecompositions(DecompositionPatterns &set);
void populatePoolingDecompositions(DecompositionPatterns &set);
void populateFactoryDecompositions(DecompositionPatterns &set);

/// The tensor type of `value` if it has known sizes and dtype.
BaseTensorType getRankedTensorType(Value value);

/// The product of `sizes`, or kUnknownSize if one is unknown.
int64_t productOfSizes(ArrayRef<int64_t> sizes);

/// `aten.view` of `value` to `sizes` (at most one unknown size, given as
/// -1); `value` itself when it has those sizes.
Value createView(PatternRewriter &rewriter, Location loc, Value value,
                 ArrayRef<int64_t> sizes);

/// `aten.view` of `value` to `sizes` (!torch.int values, any of them
/// unknown at compile time); the result's size is static where the value is
/// a constant.
Value createDynamicView(PatternRewriter &rewriter, Location loc, Value value,
                        ArrayRef<Value> sizes);

/// The size of dim `dim` of `value` (a tensor of known sizes) as a
/// !torch.int: a constant when it is known, else `aten.size.int`.
Value createSize(PatternRewriter &rewriter, Location loc, Value value,
                 int64_t dim);

/// The sizes of `value` (a tensor of known sizes) as !torch.int values
/// (createSize of each dim).
SmallVector<Value> createSizes(PatternRewriter &rewriter, Location loc,
                               Value value);

/// The number of elements of `value` (a tensor of known sizes) in `dims`,
/// the count a reduction over them divides by, as a !torch.int: a constant
/// when their sizes are known, else the product of the constant part and the
/// `aten.size.int` of each unknown size.
Value createCount(PatternRewriter &rewriter, Location loc, Value value,
                  ArrayRef<int64_t> dims);

/// `aten.scalar_tensor(value, dtype)`: a 0-d tensor of `dtype` holding the
/// !torch.int or !torch.float `value`.
Value createScalarTensor(PatternRewriter &rewriter, Location loc, Value value,
                         Type dtype);

/// `_to_copy(value, dtype)` to the same sizes.
Value createCast(PatternRewriter &rewriter, Location loc, Value value,
                 Type dtype);

/// `value` cast to `dtype` unless it has it already.
Value castTo(PatternRewriter &rewriter, Location loc, Value value, Type dtype);

} // namespace mlir::torch2mlir::torch::decompose

#endif // TORCH2MLIR_LIB_DIALECT_TORCH_TRANSFORMS_DECOMPOSE_UTILS_H
