//===- TorchToTosa.h - ATen ops to TOSA -------------------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_CONVERSION_TORCHTOTOSA_TORCHTOTOSA_H
#define TORCH2MLIR_CONVERSION_TORCHTOTOSA_TORCHTOTOSA_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir {

/// Each family adds its patterns and marks the ops it lowers illegal.
void populateTosaElementwisePatternsAndLegality(TypeConverter &typeConverter,
                                                RewritePatternSet &patterns,
                                                ConversionTarget &target);
/// Math functions TOSA lacks (inverse trigonometric and hyperbolic,
/// log1p, expm1, rounding, fmod, remainder, classifiers), composed.
void populateTosaMathPatternsAndLegality(TypeConverter &typeConverter,
                                         RewritePatternSet &patterns,
                                         ConversionTarget &target);
/// mm, bmm, matmul, linear, addmm, 1-/2-D convolution.
void populateTosaLinearPatternsAndLegality(TypeConverter &typeConverter,
                                           RewritePatternSet &patterns,
                                           ConversionTarget &target);
/// Views, permutations, slices, select, cat, expand, constant pads,
/// literals, constant full, arange and scalar_tensor.
void populateTosaDataMovementPatternsAndLegality(TypeConverter &typeConverter,
                                                 RewritePatternSet &patterns,
                                                 ConversionTarget &target);
/// embedding, index_select, gather (indices proved in bounds).
void populateTosaIndexingPatternsAndLegality(TypeConverter &typeConverter,
                                             RewritePatternSet &patterns,
                                             ConversionTarget &target);
/// Sums, means, min/max, products, argmax/argmin, softmax, layer norm,
/// inference batch norm.
void populateTosaReductionPatternsAndLegality(TypeConverter &typeConverter,
                                              RewritePatternSet &patterns,
                                              ConversionTarget &target);
/// 2-D max, average and adaptive average pooling.
void populateTosaPoolingPatternsAndLegality(TypeConverter &typeConverter,
                                            RewritePatternSet &patterns,
                                            ConversionTarget &target);

} // namespace mlir::torch2mlir

#endif // TORCH2MLIR_CONVERSION_TORCHTOTOSA_TORCHTOTOSA_H
