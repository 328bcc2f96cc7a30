//===- Utils.h - Helpers shared by the ONNX lowerings -----------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_LIB_CONVERSION_TORCHONNXTOTORCH_UTILS_H
#define TORCH2MLIR_LIB_CONVERSION_TORCHONNXTOTORCH_UTILS_H

#include "torch2mlir/Conversion/TorchOnnxToTorch/TorchOnnxToTorch.h"

namespace mlir::torch2mlir::onnx_c {

/// The elements of `value` when it is a constant integer tensor
/// (`torch.vtensor.literal` or an unlowered `onnx.Constant`), read with the
/// signedness of its torch dtype; fails otherwise.
LogicalResult getConstantTensorInts(Value value, SmallVectorImpl<int64_t> &out);

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
Value createScalarLiteral(PatternRewriter &rewriter, Location loc, Type dtype,
                          double value);

/// sum((a - aZero) * (b - bZero)) as int32 [M, N] for 8-bit a [M, K] and
/// b [K, N] (signed or unsigned), on aten._int_mm (see Quantized.cpp).
/// aZero: null or one value; bZero: null, one value or one per column.
/// Fails (building nothing) for other operands.
FailureOr<Value> createIntegerMatmul(PatternRewriter &rewriter, Location loc,
                                     Value a, Value aZero, Value b,
                                     Value bZero);

/// The QDQ fusions (onnx.DequantizeLinear -> Conv/MatMul as integer
/// contractions), applied before the lowering (see Quantized.cpp).
void populateOnnxQdqFusionPatterns(RewritePatternSet &patterns);

/// createIntegerMatmul for a of any rank >= 2 and a 2-D b (a's leading
/// dims flattened, then restored); null (building nothing) when it does not
/// apply.
Value createIntegerMatmulOfRank(PatternRewriter &rewriter, Location loc,
                                Value a, Value aZero, Value b, Value bZero);

/// The 2-D convolution sum((x - xZero) * (w - wZero)) as int32 of
/// `resultSizes`, for 8-bit x [N, C, H, W] and w [F, C, KH, KW], on
/// torch2mlir.int_conv2d (see Quantized.cpp). xZero: null or one value;
/// wZero: null, one value or one per output channel. Fails (building
/// nothing) for other operands.
FailureOr<Value> createIntegerConv2d(PatternRewriter &rewriter, Location loc,
                                     Value x, Value xZero, Value w, Value wZero,
                                     ArrayRef<int64_t> resultSizes,
                                     ArrayRef<int64_t> stride,
                                     ArrayRef<int64_t> padding,
                                     ArrayRef<int64_t> dilation);

/// createIntegerConv2d with the node's convolution attributes (strides,
/// pads, dilations, auto_pad, group: 1); reports on the node why not.
FailureOr<Value> createIntegerConvolution(const OpBinder &binder,
                                          PatternRewriter &rewriter, Value x,
                                          Value xZero, Value w, Value wZero,
                                          ArrayRef<int64_t> resultSizes);

/// The `!torch.vtensor` type of `sizes` and `dtype`.
torch::ValueTensorType getTensorType(MLIRContext *context,
                                     ArrayRef<int64_t> sizes, Type dtype);

/// The dtype of ONNX int64 tensors (si64).
Type getSi64Type(MLIRContext *context);

/// `value` converted to `dtype` (aten.to.dtype), or `value` if it has it.
/// `value` must have known sizes and dtype.
Value createToDtype(PatternRewriter &rewriter, Location loc, Value value,
                    Type dtype);

/// ONNX indices may be negative (counting from the end of a dim of size
/// `dimSize`): where(indices < 0, indices + dimSize, indices).
Value wrapNegativeIndices(PatternRewriter &rewriter, Location loc,
                          Value indices, int64_t dimSize);

/// The sizes of `a` and `b` broadcast (numpy rules, static sizes), or
/// failure if they do not broadcast.
FailureOr<SmallVector<int64_t>> broadcastSizes(ArrayRef<int64_t> a,
                                               ArrayRef<int64_t> b);

/// `aten.arange.start_step(0, n, 1)`: the si64 tensor [0, 1, ..., n-1].
Value createArange(PatternRewriter &rewriter, Location loc, int64_t n);

/// The coordinates of the row-major flat positions `flat` (an si64 tensor)
/// in a tensor of `sizes`: per dim d, (p // stride_d) - (p // stride_{d-1})
/// * sizes[d], each of `flat`'s type.
SmallVector<Value> createUnravelIndex(PatternRewriter &rewriter, Location loc,
                                      Value flat, ArrayRef<int64_t> sizes);

/// `aten.zeros(sizes, dtype)`.
Value createZeros(PatternRewriter &rewriter, Location loc,
                  ArrayRef<int64_t> sizes, Type dtype);

/// Replaces `op` by `results` (one per result of `op`), each cast with
/// `torch.tensor_static_info_cast` where its type is more precise than the
/// result's (e.g. an omitted optional output, imported as `!torch.vtensor`).
void replaceOpWithCastResults(PatternRewriter &rewriter, Operation *op,
                              ArrayRef<Value> results);

/// Emits a run-time check (`torch.runtime.assert` with `message`) that dim
/// `dim` of the tensor `value` has size `size`.
void assertDimSize(PatternRewriter &rewriter, Location loc, Value value,
                   int64_t dim, int64_t size, const Twine &message);

/// Emits a run-time check (`torch.runtime.assert` with `message`) that the
/// 1-D `values` of a run-time length has `count` elements, and returns
/// `values` cast to that static length (reads of it then stay in bounds).
Value assertStaticLength(PatternRewriter &rewriter, Location loc, Value values,
                         int64_t count, const Twine &message);

/// Emits a run-time check (`torch.runtime.assert`) that the integer or
/// float tensor `values` (at most 1-D; a run-time length is checked first)
/// holds `expected`, one element each (in order), for a lowering that
/// sizes its result from a declared type where the sizes come from data (a
/// Split's run-time `split`, a OneHot's `depth`): a false declaration is an
/// InputError at call time, never compiled code sized wrong. `what` names the
/// values in the message ("Split node's split sizes").
LogicalResult assertValuesEqual(PatternRewriter &rewriter, Location loc,
                                Value values, ArrayRef<int64_t> expected,
                                StringRef what);

/// Like assertValuesEqual, with a set of accepted values per element
/// (e.g. a Reshape's size, -1 or 0 for one dim); an empty set accepts any
/// value (an element the lowering does not read).
LogicalResult assertValuesIn(PatternRewriter &rewriter, Location loc,
                             Value values,
                             ArrayRef<SmallVector<int64_t, 2>> accepted,
                             StringRef what);

/// Whether the run-time `axes` (an si64 tensor, normalized) hold exactly
/// the dims `candidate` (as many as `axes` has, distinct): a 0-d bool
/// tensor.
Value matchesAxes(PatternRewriter &rewriter, Location loc, Value axes,
                  ArrayRef<int64_t> candidate);

/// Emits a run-time check that the 1-D integer tensor `axes` (dims of a
/// rank-`rank` tensor; negative ones count from the end) are all in range
/// and name dim d where `named[d]` is 1, do not name it where it is 0 (-1:
/// either), and, unless `allowEmpty`, are not empty: for a lowering built
/// for the dims its declared result sizes imply.
LogicalResult assertAxesName(PatternRewriter &rewriter, Location loc,
                             Value axes, int64_t rank, ArrayRef<int64_t> named,
                             bool allowEmpty, StringRef what);

} // namespace mlir::torch2mlir::onnx_c

#endif // TORCH2MLIR_LIB_CONVERSION_TORCHONNXTOTORCH_UTILS_H
