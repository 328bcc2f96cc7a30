//===- TorchToLinalg.h - ATen ops to linalg-on-tensors ----------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_CONVERSION_TORCHTOLINALG_TORCHTOLINALG_H
#define TORCH2MLIR_CONVERSION_TORCHTOLINALG_TORCHTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir {

/// Each family adds its patterns and marks the ops it lowers illegal.
void populateLinearPatternsAndLegality(TypeConverter &typeConverter,
                                       RewritePatternSet &patterns,
                                       ConversionTarget &target);
void populateElementwisePatternsAndLegality(TypeConverter &typeConverter,
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
/// Padding, N-d pooling, group/batch norm, resampling, bags, distances.
void populateNNPatternsAndLegality(TypeConverter &typeConverter,
                                   RewritePatternSet &patterns,
                                   ConversionTarget &target);
void populateNormalizationPatternsAndLegality(TypeConverter &typeConverter,
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
