//===- Utils.h - Helpers shared by the TorchToLinalg patterns ---*- C++ -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_LIB_CONVERSION_TORCHTOLINALG_UTILS_H
#define TORCH2MLIR_LIB_CONVERSION_TORCHTOLINALG_UTILS_H

#include "torch2mlir/Dialect/Torch/IR/CoreOps.h"

#include "../PatternFailures.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torch2mlir::torch_to_linalg {

/// The builtin ranked tensor type that `torchValue` converts to, or null.
RankedTensorType getConvertedTensorType(const TypeConverter *converter,
                                        Value torchValue);

/// The builtin ranked tensor type of `op`'s (first) result; null after
/// reporting on `op` that the result needs a known rank and dtype.
RankedTensorType getConvertedResultType(ConversionPatternRewriter &rewriter,
                                        Operation *op,
                                        const TypeConverter *converter);

/// How an op takes a dim of a 0-d tensor. PyTorch's maybe_wrap_dim lets the
/// ops that treat a 0-d tensor as one element (softmax, gather, scatter,
/// index_select, flip...) take dim 0 or -1; the others (cat, slice, select)
/// refuse it.
enum class ScalarDims { Wrap, Refuse };

/// Binds `dim` to the constant dim operand `dimValue` of `op`, made a
/// position in [0, rank) (negative dims count from the end; `scalarDims`
/// says what rank 0 accepts); reports on `op` why not otherwise (not a
/// constant, or out of range: eager raises IndexError).
LogicalResult matchConstantDim(ConversionPatternRewriter &rewriter,
                               Operation *op, Value dimValue, int64_t rank,
                               ScalarDims scalarDims, int64_t &dim);

/// The torch dtype of a `!torch.vtensor` value (keeps si/ui signedness).
Type getTorchDtype(Value torchValue);

/// Whether a torch dtype compares and converts as unsigned (ui8, and bool).
bool isUnsignedOrBool(Type torchDtype);

/// The dtype PyTorch computes `operands` in (torch.result_type): tensors
/// with dims first, then 0-d tensors, then Python scalars (!torch.int,
/// !torch.float, !torch.bool), each kind only counting when its category
/// (bool < integer < float) is higher. Torch dtypes keep their signedness
/// (si64, ui8, i1, f32...). Null when an operand has no known dtype.
Type getPromotedDtype(ValueRange operands);

/// The builtin element type of a torch dtype: si64 -> i64, ui8 -> i8.
Type getBuiltinElementType(Type torchDtype);

/// The dtype of a torch tensor or the category dtype of a scalar operand
/// (!torch.int -> si64, !torch.float -> f64, !torch.bool -> i1).
Type getTorchOperandDtype(Value torchValue);

/// The dynamic sizes of a factory's result (full, empty, rand...): the
/// elements of its `sizeList` (a prim.ListConstruct of the result's rank;
/// constants or run-time ints) at the result's dynamic dims, as indices; a
/// reported failure when the list does not give them.
FailureOr<SmallVector<Value>>
getFactoryDynamicSizes(ConversionPatternRewriter &rewriter, Operation *op,
                       const TypeConverter *converter, Value sizeList,
                       RankedTensorType resultType);

/// `tensor.empty` of `type`; dynamic sizes are taken from `like` (same rank).
Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  Value like = Value());

/// A tensor of `type` filled with `value` (an element-typed scalar).
Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   Value value, Value like = Value());

/// `value` cast to `type` (tensor.cast) when their (static/dynamic) shapes
/// differ; `value` itself otherwise.
Value castTo(OpBuilder &b, Location loc, Value value, RankedTensorType type);

/// A tensor of `type` whose dynamic sizes are `dynamicSizes` (in order),
/// filled with `value`.
Value createFilledWithSizes(OpBuilder &b, Location loc, RankedTensorType type,
                            Value value, ValueRange dynamicSizes);

/// Whether `op`, with complex operands or results, has a lowering here
/// (Complex.cpp); the other patterns assume integer and float elements.
bool lowersComplex(Operation *op);

/// The complex constant `re + i im` of `type`.
Value createComplexConstant(OpBuilder &b, Location loc, ComplexType type,
                            double re, double im);

/// The scalar 0 of `type` (an arith constant, or a complex one).
Value createZero(OpBuilder &b, Location loc, Type type);

/// A tensor of `type` filled with zeros.
Value createZeroFilled(OpBuilder &b, Location loc, RankedTensorType type,
                       Value like = Value());

/// Casts a scalar to `dstType` with PyTorch's conversion rules: i1 and
/// unsigned sources are zero-extended, float -> int truncates toward zero.
Value convertScalar(OpBuilder &b, Location loc, Value scalar, Type dstType,
                    bool srcUnsigned = false, bool dstUnsigned = false);

/// An elementwise `linalg.generic` producing `resultType` from `inputs`
/// (builtin tensors, broadcast with PyTorch's rules: trailing dims aligned,
/// size-1 dims stretched). `body` receives one scalar per input. The
/// dynamic result sizes are read from the inputs, or taken from
/// `dynamicSizes` (one index per dynamic dim) when no input has that size.
/// Returns a null Value, creating nothing, when the inputs do not broadcast
/// to `resultType` (an input of higher rank, a static size that is neither
/// 1 nor the result's, a dynamic result size no input gives): patterns
/// whose result type comes from the program must check and report it.
/// Why a pattern refuses an op whose operands do not broadcast to its
/// declared result type (createElementwise returned null).
inline constexpr const char *kNotBroadcastable =
    "the operands do not broadcast to the declared result type (the "
    "program's types contradict each other)";

/// Why a pattern refuses an op whose result type did not convert to a
/// ranked tensor (getConvertedResultType reports it).
inline constexpr const char *kUnknownResultType =
    "result needs a known rank and dtype";

/// Why a pattern refuses an op whose constant dim (or dims) lies outside
/// [-rank, rank) (toPositiveDim returned a negative value).
inline constexpr const char *kDimOutOfRange =
    "dim out of range (eager raises IndexError)";

/// Why a pattern refuses a reshape to a result type whose dynamic sizes
/// cannot be derived (createReshape returned null).
inline constexpr const char *kUnknownReshapeSizes =
    "unsupported: a reshape to a result with several dynamic sizes that "
    "the input's do not give (make the sizes static, e.g. export with "
    "static shapes)";

Value createElementwise(
    OpBuilder &b, Location loc, RankedTensorType resultType, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    ValueRange dynamicSizes = {});

/// Whether each of `converted` is a ranked tensor or an integer/float
/// scalar (not, say, an unconverted !torch.number).
bool areTensorsOrScalars(ValueRange converted);

/// An elementwise op on mixed operands: `torchOperands` are the op's torch
/// tensors and scalars, `converted` their converted values. Tensors become
/// the inputs of one broadcasting createElementwise, scalars are cast before
/// it; every element and scalar is cast from its own dtype to
/// `computeDtype` (a torch dtype, see getPromotedDtype), and `body` gets
/// them in operand order. Null when the tensors do not broadcast to
/// `resultType` (see createElementwise).
Value createElementwiseOnOperands(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange torchOperands, ValueRange converted, Type computeDtype,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// tensor.insert_slice of `source` into `dest`, or `dest` itself when
/// `source` has a static dim of size 0: it writes nothing, and the op's
/// verifier rejects offset 0 into a dim of size 0.
Value createInsertSlice(OpBuilder &b, Location loc, Value source, Value dest,
                        ArrayRef<OpFoldResult> offsets,
                        ArrayRef<OpFoldResult> sizes,
                        ArrayRef<OpFoldResult> strides);

/// The number of elements of a ranked `tensor` (an index value).
Value createElementCount(OpBuilder &b, Location loc, Value tensor);

/// The position an integer `index` element names along a dim of run-time
/// size `size` (an `index` value), checked. With `wrapNegative`, -size <=
/// index < 0 counts from the end (PyTorch's advanced indexing and
/// index_put); without it only 0 <= index < size is in range (gather,
/// scatter, index_select, embedding). An index out of range fails a nested
/// run-time check whose message is `what` (eager PyTorch refuses it), and
/// position 0 is used instead, so compiled code never reads or writes
/// outside the tensor. A dim of size 0 is the caller's to check
/// (assertIndexableDim).
Value createCheckedIndex(OpBuilder &b, Location loc, Value index, Value size,
                         bool wrapNegative, const Twine &what);

/// The position of `index` as createCheckedIndex computes it, with no check
/// (0 when out of range): for bodies whose indices assertIndicesInRange
/// checked before the op, so the loop carries no branch.
Value createClampedIndex(OpBuilder &b, Location loc, Value index, Value size,
                         bool wrapNegative);

/// One top-level run-time check, before the op that reads them, that every
/// element of the integer tensor `indices` is in range along a dim of
/// `size` (as createCheckedIndex, whose message `what` it reports): an
/// or-reduction over `indices`. For indices much smaller than the data they
/// address (index_select, embedding).
void assertIndicesInRange(OpBuilder &b, Location loc, Value indices, Value size,
                          bool wrapNegative, const Twine &what);

/// A top-level run-time check that dim `dim` of `tensor` is not of size 0
/// where the integer tensor `indices` has elements (every index into an
/// empty dim is out of range, and position 0 does not exist). Emits nothing
/// when the types prove it.
void assertIndexableDim(OpBuilder &b, Location loc, Value tensor, int64_t dim,
                        Value indices, const Twine &what);

/// Checks that the integer tensor `index` is no larger than `tensor` (same
/// rank) along every dim but `skipDim` (-1: none), as PyTorch's gather and
/// scatter require (an index reads or writes `tensor` at its own position
/// there). Static sizes that break it fail the pattern with a message
/// naming `op`, `what` (the tensor's name) and the dim; run-time sizes get
/// a run-time check with that message.
LogicalResult checkIndexNotLarger(ConversionPatternRewriter &rewriter,
                                  Operation *op, Value index, Value tensor,
                                  int64_t skipDim, StringRef what);

/// Emits a run-time check (`cf.assert`, see refbackend-lower-asserts) that
/// `input` has as many elements as a tensor of `shape` (`count` when given:
/// the result's element count computed from run-time sizes), or a multiple
/// of its static sizes when `shape` has a dynamic size. Emits nothing when
/// the types prove it.
void assertElementCount(OpBuilder &b, Location loc, Value input,
                        ArrayRef<int64_t> shape, Value count = Value());

/// Reshapes `input` to `resultType` (same number of elements, row-major)
/// with collapse/expand_shape where possible; checks the element count at
/// run time when a dynamic input size makes it unprovable. Null, creating
/// nothing, when more than one dynamic result size has no reassociation to
/// read it from (kUnknownReshapeSizes).
Value createReshape(OpBuilder &b, Location loc, Value input,
                    RankedTensorType resultType);

/// Pads `input` with `padValue`: `low[i]`/`high[i]` elements before/after
/// dim i. `input` itself when every amount is zero.
Value createPad(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, Value padValue);
/// The same with amounts that may be known only at run time (a padded dim
/// is then dynamic).
Value createPad(OpBuilder &b, Location loc, Value input,
                ArrayRef<OpFoldResult> low, ArrayRef<OpFoldResult> high,
                Value padValue);

/// max(lhs, rhs) (or min) of scalars of the torch dtype `dtype`:
/// NaN-propagating on floats, unsigned on ui8 and bool.
Value createMinMax(OpBuilder &b, Location loc, Value lhs, Value rhs, Type dtype,
                   bool isMax);

/// The smallest (`highest` false) or largest value of the torch dtype
/// `dtype` as its builtin element type: -inf/inf for floats, the integer
/// range (unsigned for ui8 and bool) otherwise.
Value createExtremeValue(OpBuilder &b, Location loc, Type dtype, bool highest);

/// An arith.constant of the float `type` holding `value` (rounded to it).
Value createFloatConstant(OpBuilder &b, Location loc, Type type, double value);

/// The float scalar `value` extended or truncated to the float `type` (or
/// the complex one to the complex `type`, part by part).
Value castFloat(OpBuilder &b, Location loc, Value value, Type type);

/// `tensor` with its float elements cast to `resultType`'s (the identity
/// when they already match). Dynamic sizes are read from `tensor`.
Value castFloatTensor(OpBuilder &b, Location loc, Value tensor,
                      RankedTensorType resultType);

/// The type PyTorch's CPU kernels compute `element` in (its opmath type):
/// f32 for f16 and bf16, the type itself otherwise. Matmuls, convolutions
/// and the float math functions compute in it and round once.
Type getOpMathType(Type element);

/// The type a float sum of `element`s accumulates in: f64 for f32 and f64,
/// f32 for f16 and bf16; the type itself for integers. PyTorch sums floats
/// with a cascade whose error stays within a few ulps of the exact sum; a
/// sequential loop in the element type drifts by O(n) ulps, so sums,
/// means and normalization statistics accumulate one step wider instead.
Type getSumAccumulatorType(Type element);

/// The smallest (for max) value of `type`: -inf for floats, INT_MIN for ints.
Value createLowestValue(OpBuilder &b, Location loc, Type type);

/// exp(`x`) for a float `x` known to be <= 0 or NaN (x - max in softmax),
/// computed as exp(max(x, T)) with the results for x < T set to 0. For f32,
/// T = -87.33 is where glibc's vector expf (libmvec) leaves its fast path
/// and calls the scalar expf lane by lane: a causal or padding mask
/// (x = -inf or the dtype's lowest) made a softmax 7x slower. The exact
/// results below T are subnormals (< 1.2e-38), now flushed to 0. Other
/// float types: plain exp.
Value createExpOfNonPositive(OpBuilder &b, Location loc, Value x);

/// One row of createRowForall: its position `ivs` in the leading dims of
/// `input`, the output row `out` (1-D, to be returned once written) and
/// its length (an index).
struct Row {
  Value input;
  ValueRange ivs;
  Value out, length, zero, one;
  /// `input` at (ivs, iv).
  Value read(OpBuilder &b, Location loc, Value iv) const {
    SmallVector<Value> at(ivs.begin(), ivs.end());
    at.push_back(iv);
    return tensor::ExtractOp::create(b, loc, input, at);
  }
  /// An scf.for over the row's positions, in order, carrying `inits`.
  scf::ForOp loop(
      OpBuilder &b, Location loc, ValueRange inits,
      function_ref<void(OpBuilder &, Location, Value, ValueRange)> body) const {
    return scf::ForOp::create(b, loc, zero, length, one, inits, body);
  }
};
using RowBody = llvm::function_ref<Value(OpBuilder &, Location, const Row &)>;

/// A result of `type` (`input`'s shape) computed one row of the last dim at
/// a time: an scf.forall over the leading dims whose body `body` writes the
/// row, an extract_slice of the forall's shared output (so in place after
/// bufferization), which a parallel_insert_slice puts back.
Value createRowForall(OpBuilder &b, Location loc, Value input,
                      RankedTensorType type, RowBody body);

/// A reduction of `input` ([lead..., n], rank >= 2) along its last dim
/// into a tensor [lead...] of `element`: an scf.forall over the leading
/// dims whose `body` returns each row's value, which is then inserted into
/// the Row's `out` (the row's 1x...x1 cell of the forall's shared output,
/// so it is written in place).
Value createRowReduction(
    OpBuilder &b, Location loc, Value input, Type element,
    llvm::function_ref<Value(OpBuilder &, Location, const Row &)> body);

/// Rows of a chunk of a chunked float32 column sum (a sum over dims before
/// the last): float32 partial sums within a chunk, float64 across chunks.
/// Row sums take kRowSumChunk.
inline constexpr int64_t kSumChunk = 64;

/// `count` statistics of each row of `input`'s last dim, computed together
/// while the row is in the cache: a tensor [leading dims..., count] of
/// `element`, from an scf.forall over the rows whose `body` returns the
/// row's `count` values.
Value createRowStatistics(
    OpBuilder &b, Location loc, Value input, Type element, int64_t count,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, const Row &)>
        body);

/// Elements of a chunk of a row sum (createChunkedRowSums): LLVM vectorizes
/// a chunk into 64 partial sums (4 vectors of 16 on AVX-512), each adding 8
/// elements, then adds them pairwise. Chunks of 64 had one element per
/// partial sum: the horizontal step, a chain of dependent additions, ran
/// once per 64 elements and a row sum took 1.3x eager's time.
inline constexpr int64_t kRowSumChunk = 512;

/// For a float32 sum of `input` over `dims` that are its trailing dims
/// (static sizes, at least one leading dim left): the sums [leading dims]
/// computed row by row (createRowReduction over the trailing dims collapsed
/// into one row). Each row adds chunks of kRowSumChunk elements in float32,
/// reassociable so that LLVM vectorizes a chunk into partial sums (chains
/// of a few additions), and carries the chunks' total in float64: the
/// error stays within a few ulps, as PyTorch's cascade sum, at float32's
/// vector width. Null when the sum is not of that form.
Value createChunkedRowSums(OpBuilder &b, Location loc, Value input,
                           ArrayRef<int64_t> dims, Type element,
                           bool srcUnsigned);

/// Reads a constant int list operand, expanding a single value to `count`.
LogicalResult matchIntList(Value list, int64_t count,
                           SmallVectorImpl<int64_t> &out);

/// The converted elements of a `torch.prim.ListConstruct` (of tensors or
/// scalars).
FailureOr<SmallVector<Value>>
getConvertedTensorList(ConversionPatternRewriter &rewriter, Location loc,
                       const TypeConverter *converter, Value list);

/// The constant strides (one per view dim) and storage offset of an
/// as_strided view of a contiguous storage.
struct StridedLayout {
  SmallVector<int64_t> strides;
  int64_t storageOffset = 0;
};

/// Matches the `stride` list and `storageOffset` (None is 0) operands of
/// as_strided/as_strided_scatter as constants, one stride per dim of
/// `viewShape`, and checks that the view stays inside a storage of `numel`
/// elements. Otherwise reports on `op` why; the out-of-range reason reads
/// "<access> element N of <storage> that has numel".
FailureOr<StridedLayout>
matchAsStridedLayout(ConversionPatternRewriter &rewriter, Operation *op,
                     Value stride, Value storageOffset,
                     ArrayRef<int64_t> viewShape, int64_t numel,
                     StringRef access, StringRef storage);

/// The storage index of view element `position`:
/// storageOffset + sum(position[i] * strides[i]).
Value createStridedIndex(OpBuilder &b, Location loc, ValueRange position,
                         const StridedLayout &layout);

/// Checks that the declared size `out` of pooled dim `dim` is what a
/// window of `kernel`, `stride`, `padding` and `dilation` over `in` gives
/// (PyTorch's pooling shape rule: floor((in + 2 * padding - dilation *
/// (kernel - 1) - 1) / stride) + 1, or one more with ceil_mode); reports
/// the contradiction on `op` otherwise.
LogicalResult checkPooledSize(ConversionPatternRewriter &rewriter,
                              Operation *op, int64_t dim, int64_t in,
                              int64_t out, int64_t kernel, int64_t stride,
                              int64_t padding, int64_t dilation);

/// An index constant.
Value cstIndex(OpBuilder &b, Location loc, int64_t value);

/// A linalg.generic whose loops are the dims of `inits` (all of one rank R,
/// read through the identity) followed by one reduction loop per entry of
/// `windowSizes` (ranged by an empty tensor of the window's shape).
/// `inputs` are read through `inputMaps` (over all the loops). `body` gets
/// the block arguments (inputs, the window's element if any, outputs) and
/// returns one value per output.
SmallVector<Value> createWindowGeneric(
    OpBuilder &b, Location loc, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps, ValueRange inits,
    ArrayRef<int64_t> windowSizes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body);
/// createWindowGeneric with window sizes that may be known only at run
/// time.
SmallVector<Value> createDynamicWindowGeneric(
    OpBuilder &b, Location loc, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps, ValueRange inits,
    ArrayRef<OpFoldResult> windowSizes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body);

/// A 1-D constant tensor of `values` as `element` (an integer or float
/// type).
Value createConstantVector(OpBuilder &b, Location loc, Type element,
                           ArrayRef<double> values);

/// Reads a `torch.prim.ListConstruct` of constant floats.
bool matchConstantFloatList(Value list, SmallVectorImpl<double> &out);

/// Whether dims [first, rank) of `type` are static.
bool hasStaticTrailingDims(RankedTensorType type, int64_t first);

using ::mlir::torch2mlir::reportFailure;

/// The pattern of elementwise ops on broadcast tensors (and scalars)
/// computed in the result dtype; `build` gets the operands cast to it, and
/// the result dtype (torch).
template <typename OpTy>
struct ConvertInResultDtype : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  /// Why the op cannot be lowered (empty: it can).
  virtual StringRef unsupported(OpTy op, Type dtype) const = 0;
  virtual Value build(OpTy op, OpBuilder &b, Location loc, ValueRange args,
                      Type dtype) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Type dtype = getTorchDtype(op.getResult());
    StringRef why = unsupported(op, dtype);
    if (!why.empty())
      return reportFailure(rewriter, op, why);
    SmallVector<Value> torchOperands, operands;
    for (auto [torchOperand, operand] :
         llvm::zip(op->getOperands(), adaptor.getOperands())) {
      if (isa<torch::NoneType, torch::StringType>(torchOperand.getType()))
        continue;
      torchOperands.push_back(torchOperand);
      operands.push_back(operand);
    }
    if (!areTensorsOrScalars(operands))
      return reportFailure(rewriter, op, "unsupported: scalar operand type");
    Value result = createElementwiseOnOperands(
        rewriter, op.getLoc(), resultType, torchOperands, operands, dtype,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return build(op, b, loc, args, dtype);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace mlir::torch2mlir::torch_to_linalg

#endif // TORCH2MLIR_LIB_CONVERSION_TORCHTOLINALG_UTILS_H
