//===- Utils.h - Helpers shared by the TorchToTosa patterns -----*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_LIB_CONVERSION_TORCHTOTOSA_UTILS_H
#define TORCH2MLIR_LIB_CONVERSION_TORCHTOTOSA_UTILS_H

#include "../PatternFailures.h"
#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir::torch_to_tosa {

using ::mlir::torch2mlir::reportFailure;

/// The builtin ranked tensor type `torchValue` converts to (null when its
/// rank or dtype is unknown).
RankedTensorType getConvertedType(const TypeConverter *converter,
                                  Value torchValue);

/// Whether TOSA 1.0's profiles (pro_fp, pro_int and the bf16 extension)
/// have tensors of `element`: f32, f16, bf16, i8, i16, i32 and i1. Not
/// i64, f64 or unsigned integers.
bool isTosaElementType(Type element);

/// Checks that `torchValue` is a tensor of static shape and a TOSA element
/// type (and a signed or bool torch dtype); reports on `op` otherwise.
LogicalResult checkTosaTensor(ConversionPatternRewriter &rewriter,
                              Operation *op, Value torchValue,
                              RankedTensorType type, StringRef what);

/// The converted types of `op`'s result 0 (`type`) and operand 0
/// (`inputType`), each checked with checkTosaTensor.
LogicalResult checkResultAndInput(ConversionPatternRewriter &rewriter,
                                  const TypeConverter *converter, Operation *op,
                                  RankedTensorType &type,
                                  RankedTensorType &inputType);

/// A `tosa.const` of `rank` dims of size 1 holding `value` as `element`
/// (float elements take it as is, integers rounded toward zero).
Value createScalar(OpBuilder &b, Location loc, Type element, double value,
                   int64_t rank);

/// A `tosa.const_shape` holding `values` (the shape operands of reshape,
/// slice, tile and pad).
Value createConstShape(OpBuilder &b, Location loc, ArrayRef<int64_t> values);

/// `tosa.reshape` of `value` to `shape` (static), or `value` itself.
Value createReshape(OpBuilder &b, Location loc, Value value,
                    ArrayRef<int64_t> shape);

/// `value` with size-1 dims prepended up to `rank` (broadcasting aligns
/// trailing dims; TOSA's elementwise ops need equal ranks).
Value expandRank(OpBuilder &b, Location loc, Value value, int64_t rank);

/// `tosa.transpose` of `value` by `perms` (result dim i = input dim
/// perms[i]).
Value createTranspose(OpBuilder &b, Location loc, Value value,
                      ArrayRef<int32_t> perms);

/// `tosa.cast` of `value` to `element`, or `value` itself.
Value createCast(OpBuilder &b, Location loc, Value value, Type element);

/// The tensor operand an elementwise op computes with: a converted tensor
/// cast to `element` and ranked up to `rank`, or a constant torch scalar
/// (`torch.constant.int/float/bool`) as a `tosa.const`. Null when the
/// operand is a scalar computed at run time.
Value getElementwiseOperand(OpBuilder &b, Location loc, Value torchOperand,
                            Value converted, Type element, int64_t rank);

/// `tosa.pad` of `value` by `padding` ([before, after] per dim) with the
/// one-element `padConst`. The leading dims without padding are merged
/// first: TOSA's level checks count the padding shape's 2 * rank values
/// against the maximum rank (6 at level 8k).
Value createPad(OpBuilder &b, Location loc, Value value,
                ArrayRef<int64_t> padding, Value padConst);

/// `tosa.mul` (shift 0).
Value createMul(OpBuilder &b, Location loc, Type type, Value lhs, Value rhs);

/// The shape `type` would have with each dim of `perms` moved (result dim
/// i = dim perms[i]).
SmallVector<int64_t> permuteShape(ArrayRef<int64_t> shape,
                                  ArrayRef<int32_t> perms);

/// The converted type of `op`'s result `index`, checked with
/// checkTosaTensor.
FailureOr<RankedTensorType> getResult(ConversionPatternRewriter &rewriter,
                                      const TypeConverter *converter,
                                      Operation *op, unsigned index = 0);

/// Operand `index` of `op` (its converted value in `converted`) as an
/// elementwise operand of `type`'s element type and rank (see
/// getElementwiseOperand), or a failure on `op` naming why it cannot be:
/// unsigned, of dynamic shape, of a dtype TOSA lacks, or a scalar computed
/// at run time.
FailureOr<Value> getOperand(ConversionPatternRewriter &rewriter, Operation *op,
                            ValueRange converted, unsigned index,
                            RankedTensorType type);

/// Reads `torchValue`, a `torch.constant.int` or a splat integer literal,
/// as the nonzero constant integer divisor of `op`; reports why not
/// otherwise (TOSA cannot raise on a zero divisor at run time, as PyTorch
/// does for integers).
FailureOr<int64_t> getConstantDivisor(ConversionPatternRewriter &rewriter,
                                      Operation *op, Value torchValue);

/// The accumulator element type for `element` (f32 for floats, i32 for
/// i8, i48 for i16), or null when TOSA has no matmul/convolution of it.
Type getAccumulatorType(Type element);

/// lhs [..., M, K] @ rhs [K, N] or [B, K, N] (same leading dims as lhs)
/// into `resultType`, through one tosa.matmul (explicit zero points).
/// Null when the batch dims do not fit TOSA's form (broadcast batches) or
/// TOSA has no matmul of the dtype.
Value createMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                   RankedTensorType resultType);

/// Reads `torchDim`, a constant dim of a tensor of `rank` (a 0-d tensor
/// has dim 0, or -1), as a non-negative dim; reports on `op` why not.
FailureOr<int64_t> getConstantDim(ConversionPatternRewriter &rewriter,
                                  Operation *op, Value torchDim, int64_t rank);

/// x / y of integers (of `type`, i32), rounded toward negative infinity
/// (PyTorch's rounding_mode="floor"): tosa.intdiv, which truncates, minus
/// one where the division is inexact and the signs differ. y must not be
/// 0 (TOSA leaves that undefined).
Value createIntegerFloorDiv(OpBuilder &b, Location loc, RankedTensorType type,
                            Value x, Value y);

/// The product of the integers `x` (i32) over `dim`, kept with size 1
/// (TOSA 1.0's reduce_product takes floats): the dim padded with ones to a
/// power of two, then its halves multiplied until one is left (wrapping
/// as PyTorch's integer products do).
Value createIntegerProduct(OpBuilder &b, Location loc, Value x, int64_t dim);

/// The product of `shape`'s sizes (1 for none; 0 with a zero size, where
/// mlir::computeProduct asserts).
int64_t countElements(ArrayRef<int64_t> shape);

/// Whether `type`'s elements are floats.
bool isFloat(RankedTensorType type);

/// The type math runs in for a result of `type`: f32 for f16 and bf16
/// (PyTorch's CPU kernels compute 16-bit floats in f32 and round once per
/// op); i32 for i8 and i16 (TOSA 1.0's pro_int has add, sub, mul, maximum,
/// minimum, abs... in i32 only; the cast back truncates, which wraps as
/// PyTorch's 8- and 16-bit integer arithmetic does); else `type`.
RankedTensorType getOpMathType(RankedTensorType type);

/// Replaces `op` by `value` rounded to `resultType`'s element type.
void replaceRounded(ConversionPatternRewriter &rewriter, Operation *op,
                    Value value, RankedTensorType resultType);

} // namespace mlir::torch2mlir::torch_to_tosa

#endif // TORCH2MLIR_LIB_CONVERSION_TORCHTOTOSA_UTILS_H
