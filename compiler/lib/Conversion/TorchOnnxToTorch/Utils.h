//===- Utils.h - Helpers shared by the ONNX lowerings -----------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_LIB_CONVERSION_TORCHONNXTOTORCH_UTILS_H
#define TORCH2MLIR_LIB_CONVERSION_TORCHONNXTOTORCH_UTILS_H

#include "torch2mlir/Conversion/TorchOnnxToTorch/TorchOnnxToTorch.h"

namespace mlir::torch2mlir::onnx_c {

/// The tensor type of `value` if its sizes and dtype are known, else null.
torch::ValueTensorType getKnownTensorType(Value value);

/// `value`'s type with other sizes (same dtype).
torch::ValueTensorType withSizes(Value value, ArrayRef<int64_t> sizes);

/// ONNX axis `axis` (negative counts from the end) as a dim in [0, rank).
/// Fails if out of range.
LogicalResult normalizeAxis(int64_t &axis, int64_t rank);

/// `aten.permute(value, dims)`.
Value createPermute(PatternRewriter &rewriter, Location loc, Value value,
                    ArrayRef<int64_t> dims);

/// `aten.view(value, sizes)` (at most one -1 among `sizes`).
Value createView(PatternRewriter &rewriter, Location loc, Value value,
                 ArrayRef<int64_t> sizes, torch::ValueTensorType resultType);

/// A 0-d literal tensor of `dtype` holding `value`.
Value createScalarLiteral(PatternRewriter &rewriter, Location loc,
                          Type dtype, double value);

} // namespace mlir::torch2mlir::onnx_c

#endif // TORCH2MLIR_LIB_CONVERSION_TORCHONNXTOTORCH_UTILS_H
