//===- PatternFailures.h - Why conversion patterns gave up ------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// Release builds of MLIR drop match-failure diagnostics, so a conversion
// that fails says only "failed to legalize operation". The conversions out
// of the torch dialect record each pattern's reason instead, keyed by the
// op it gave up on, and report the ops left illegal with their reasons.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_LIB_CONVERSION_PATTERNFAILURES_H
#define TORCH2MLIR_LIB_CONVERSION_PATTERNFAILURES_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir {

/// rewriter.notifyMatchFailure(op, reason), and records `reason` for `op`
/// (the last reason given for an op wins) when a conversion run by
/// applyConversionExplained is in progress on this thread.
LogicalResult reportFailure(ConversionPatternRewriter &rewriter, Operation *op,
                            const Twine &reason);

/// applyPartialConversion of `root`; on failure, each op left illegal that
/// a pattern gave a reason for (and the op the conversion stopped at) is
/// an error "'<op>' could not be lowered to <into>: <reason>" at its
/// location, instead of the bare "failed to legalize operation".
LogicalResult applyConversionExplained(Operation *root,
                                       const ConversionTarget &target,
                                       const FrozenRewritePatternSet &patterns,
                                       StringRef into);

} // namespace mlir::torch2mlir

#endif // TORCH2MLIR_LIB_CONVERSION_PATTERNFAILURES_H
