//===- TorchToArith.h - torch scalars to arith ------------------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_CONVERSION_TORCHTOARITH_TORCHTOARITH_H
#define TORCH2MLIR_CONVERSION_TORCHTOARITH_TORCHTOARITH_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir {

void populateTorchToArithPatternsAndLegality(TypeConverter &typeConverter,
                                             RewritePatternSet &patterns,
                                             ConversionTarget &target);

} // namespace mlir::torch2mlir

#endif // TORCH2MLIR_CONVERSION_TORCHTOARITH_TORCHTOARITH_H
