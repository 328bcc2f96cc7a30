//===- TorchToLinalg.h - ATen ops to linalg-on-tensors ----------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_CONVERSION_TORCHTOLINALG_TORCHTOLINALG_H
#define TORCH2MLIR_CONVERSION_TORCHTOLINALG_TORCHTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir {

/// Discardable attributes the sort lowering (Sort.cpp) puts on the
/// linalg.generic ops of its two n^2 steps, so a backend may run them as
/// library calls instead (the RefBackend's refbackend-runtime-kernels
/// does): the ranks step, {dim, descending, limit (optional)}, whose output
/// is the position of each element in its slice's stable sort (only the
/// ranks below `limit` are used: any rank >= limit may stand for the
/// others); the order step, {dim}, whose output at r is the position of
/// rank r.
inline constexpr llvm::StringLiteral kSortRanksAttr = "torch2mlir.sort_ranks";
inline constexpr llvm::StringLiteral kSortOrderAttr = "torch2mlir.sort_order";

/// The indexing maps of a linalg.matmul C[m, n] += A[m, k] * B[n, k] that
/// reads B transposed in place (nn.Linear's weight, attention's keys): a
/// backend may hand B to GEMM as a transposed operand (the RefBackend's
/// refbackend-runtime-kernels does).
inline SmallVector<AffineMap> getTransposedRhsMatmulMaps(MLIRContext *context) {
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  return {AffineMap::get(3, 0, {m, k}, context),
          AffineMap::get(3, 0, {n, k}, context),
          AffineMap::get(3, 0, {m, n}, context)};
}

/// Each family adds its patterns and marks the ops it lowers illegal.
void populateAttentionPatternsAndLegality(TypeConverter &typeConverter,
                                          RewritePatternSet &patterns,
                                          ConversionTarget &target);
void populateLinearPatternsAndLegality(TypeConverter &typeConverter,
                                       RewritePatternSet &patterns,
                                       ConversionTarget &target);
void populateElementwisePatternsAndLegality(TypeConverter &typeConverter,
                                            RewritePatternSet &patterns,
                                            ConversionTarget &target);
void populateComplexPatternsAndLegality(TypeConverter &typeConverter,
                                        RewritePatternSet &patterns,
                                        ConversionTarget &target);
void populateComparisonPatternsAndLegality(TypeConverter &typeConverter,
                                           RewritePatternSet &patterns,
                                           ConversionTarget &target);
void populateCreationPatternsAndLegality(TypeConverter &typeConverter,
                                         RewritePatternSet &patterns,
                                         ConversionTarget &target);
void populateIndexingPatternsAndLegality(TypeConverter &typeConverter,
                                         RewritePatternSet &patterns,
                                         ConversionTarget &target);
void populateDataMovementPatternsAndLegality(TypeConverter &typeConverter,
                                             RewritePatternSet &patterns,
                                             ConversionTarget &target);
void populateReductionPatternsAndLegality(TypeConverter &typeConverter,
                                          RewritePatternSet &patterns,
                                          ConversionTarget &target);
void populatePoolingPatternsAndLegality(TypeConverter &typeConverter,
                                        RewritePatternSet &patterns,
                                        ConversionTarget &target);
void populateResamplingPatternsAndLegality(TypeConverter &typeConverter,
                                           RewritePatternSet &patterns,
                                           ConversionTarget &target);
void populateEmbeddingBagPatternsAndLegality(TypeConverter &typeConverter,
                                             RewritePatternSet &patterns,
                                             ConversionTarget &target);
void populateNormalizationPatternsAndLegality(TypeConverter &typeConverter,
                                              RewritePatternSet &patterns,
                                              ConversionTarget &target);
void populatePolynomialPatternsAndLegality(TypeConverter &typeConverter,
                                           RewritePatternSet &patterns,
                                           ConversionTarget &target);
void populateRandomPatternsAndLegality(TypeConverter &typeConverter,
                                       RewritePatternSet &patterns,
                                       ConversionTarget &target);
void populateScatterPatternsAndLegality(TypeConverter &typeConverter,
                                        RewritePatternSet &patterns,
                                        ConversionTarget &target);
void populateSortPatternsAndLegality(TypeConverter &typeConverter,
                                     RewritePatternSet &patterns,
                                     ConversionTarget &target);

} // namespace mlir::torch2mlir

#endif // TORCH2MLIR_CONVERSION_TORCHTOLINALG_TORCHTOLINALG_H
