//===- Attention.cpp - ONNX Attention to ATen -----------------------------===//
//
// Part of the torch2mlir project.
//
// Attention (opset 23, 24, 25) as a composition of matmuls and a softmax:
//
//   Y = softmax(softcap(Q*s @ (K*s)^T) + bias) @ V,   s = sqrt(scale)
//
// Q is [B, Hq, S, D] (or [B, S, Hq*D] with q_num_heads), K and V are
// [B, Hkv, L, D] / [B, Hkv, L, Dv]. past_key/past_value are prepended to K
// and V along the sequence and returned as present_key/present_value. With
// Hq a multiple of Hkv (grouped-query attention) each K/V head serves
// Hq/Hkv consecutive query heads.
//
// The additive bias combines attn_mask (bool: false -> -inf; float: as
// is; padded with -inf to L keys), the causal mask and the sliding window
// (opset 25), both aligned bottom-right by an offset (past length, or
// nonpad_kv_seqlen[b] - S per batch), and the padding of keys beyond
// nonpad_kv_seqlen[b] (opset 24). A query row whose bias is -inf for every
// key has no key to attend: its probabilities are 0, so is its Y.
//
// RotaryEmbedding (opset 23) rotates feature pairs of Q or K by cached
// cos/sin values of each position, with slices, products and concats;
// TensorScatter (opset 24) writes new entries into a KV cache;
// LinearAttention (opset 27) runs its state recurrence unrolled over time.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// The dtype of an ONNX TensorProto float element type, or null.
Type getOnnxFloatType(MLIRContext *context, int64_t onnxType) {
  switch (onnxType) {
  case 1:
    return Float32Type::get(context);
  case 10:
    return Float16Type::get(context);
  case 11:
    return Float64Type::get(context);
  case 16:
    return BFloat16Type::get(context);
  default:
    return nullptr;
  }
}

ArrayRef<int64_t> sizesOf(Value value) {
  return cast<ValueTensorType>(value.getType()).getSizes();
}

/// Builds the ops of one Attention node; all sizes are static.
class AttentionBuilder {
public:
  AttentionBuilder(PatternRewriter &rewriter, Location loc, Type dtype)
      : rewriter(rewriter), loc(loc), context(rewriter.getContext()),
        dtype(dtype) {}

  ValueTensorType type(ArrayRef<int64_t> sizes, Type elementType) {
    return getTensorType(context, sizes, elementType);
  }
  ValueTensorType type(ArrayRef<int64_t> sizes) { return type(sizes, dtype); }
  Value intList(ArrayRef<int64_t> values) {
    return createIntList(rewriter, loc, values);
  }
  Value constInt(int64_t value) {
    return createConstantInt(rewriter, loc, value);
  }
  Value constFloat(double value) {
    return createConstantFloat(rewriter, loc, value);
  }

  Value view(Value value, ArrayRef<int64_t> sizes) {
    if (sizesOf(value) == sizes)
      return value;
    auto valueType = cast<ValueTensorType>(value.getType());
    return createView(rewriter, loc, value, sizes,
                      type(sizes, valueType.getDtype()));
  }

  /// [B, S, H*D] -> [B, H, S, D].
  Value splitHeads(Value value, int64_t heads) {
    ArrayRef<int64_t> sizes = sizesOf(value);
    Value split = view(value, {sizes[0], sizes[1], heads, sizes[2] / heads});
    return createPermute(rewriter, loc, split, {0, 2, 1, 3});
  }

  /// [B, H, S, D] -> [B, S, H*D].
  Value mergeHeads(Value value) {
    Value permuted = createPermute(rewriter, loc, value, {0, 2, 1, 3});
    ArrayRef<int64_t> sizes = sizesOf(permuted);
    return view(permuted, {sizes[0], sizes[1], sizes[2] * sizes[3]});
  }

  /// [B, Hkv, L, D] -> [B, Hkv * repeats, L, D], each head repeated
  /// `repeats` times in a row.
  Value repeatHeads(Value value, int64_t repeats) {
    if (repeats == 1)
      return value;
    ArrayRef<int64_t> s = sizesOf(value);
    SmallVector<int64_t> unsqueezed{s[0], s[1], 1, s[2], s[3]};
    SmallVector<int64_t> expanded{s[0], s[1], repeats, s[2], s[3]};
    Value one = AtenUnsqueezeOp::create(rewriter, loc,
                                        type(unsqueezed, elementType(value)),
                                        value, constInt(2));
    Value broadcast = AtenExpandOp::create(
        rewriter, loc, type(expanded, elementType(value)), one,
        intList(expanded), createConstantBool(rewriter, loc, false));
    return view(broadcast, {s[0], s[1] * repeats, s[2], s[3]});
  }

  Type elementType(Value value) {
    return cast<ValueTensorType>(value.getType()).getDtype();
  }

  Value binary(StringRef kind, Value a, Value b, Type resultDtype) {
    auto sizes = broadcastSizes(sizesOf(a), sizesOf(b));
    assert(succeeded(sizes) && "operands checked to broadcast");
    auto resultType = type(*sizes, resultDtype);
    if (kind == "add")
      return AtenAddTensorOp::create(rewriter, loc, resultType, a, b,
                                     constInt(1));
    if (kind == "sub")
      return AtenSubTensorOp::create(rewriter, loc, resultType, a, b,
                                     constInt(1));
    if (kind == "div")
      return AtenDivTensorOp::create(rewriter, loc, resultType, a, b);
    if (kind == "and")
      return AtenLogicalAndOp::create(rewriter, loc, resultType, a, b);
    if (kind == "lt")
      return AtenLtTensorOp::create(rewriter, loc, resultType, a, b);
    llvm_unreachable("unknown binary op");
  }

  /// where(condition, onTrue, onFalse) with scalars in `resultDtype`.
  Value select(Value condition, double onTrue, double onFalse,
               Type resultDtype) {
    return AtenWhereSelfOp::create(
        rewriter, loc, type(sizesOf(condition), resultDtype), condition,
        createScalarLiteral(rewriter, loc, resultDtype, onTrue),
        createScalarLiteral(rewriter, loc, resultDtype, onFalse));
  }

  /// where(condition, 0, value).
  Value zeroWhere(Value condition, Value value) {
    auto valueType = cast<ValueTensorType>(value.getType());
    return AtenWhereSelfOp::create(
        rewriter, loc, valueType, condition,
        createScalarLiteral(rewriter, loc, valueType.getDtype(), 0.0), value);
  }

  /// A boolean tensor of `sizes` that is true where `value` compares to
  /// `scalar` with `AtenCmpOp`.
  template <typename AtenCmpOp> Value compare(Value value, Value scalar) {
    return AtenCmpOp::create(rewriter, loc,
                             type(sizesOf(value), rewriter.getI1Type()), value,
                             scalar);
  }

  /// The si64 literal of `sizes` whose element (i, j) is f(i, j).
  Value indexLiteral(int64_t rows, int64_t cols,
                     function_ref<int64_t(int64_t, int64_t)> f) {
    SmallVector<int64_t> values;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        values.push_back(f(i, j));
    return ValueTensorLiteralOp::create(
        rewriter, loc, type({rows, cols}, getSi64Type(context)),
        DenseElementsAttr::get(
            RankedTensorType::get({rows, cols}, rewriter.getI64Type()),
            ArrayRef<int64_t>(values)));
  }

  /// A `dtype` literal of [rows, cols]: 0 where allowed(i, j), else -inf.
  Value biasLiteral(int64_t rows, int64_t cols,
                    function_ref<bool(int64_t, int64_t)> allowed) {
    Type element = getBuiltinElementType(dtype);
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        values.push_back(
            rewriter.getFloatAttr(element, allowed(i, j) ? 0.0 : kNegInf));
    return ValueTensorLiteralOp::create(
        rewriter, loc, type({rows, cols}),
        DenseElementsAttr::get(RankedTensorType::get({rows, cols}, element),
                               values));
  }

  /// The float type that float16/bfloat16 arithmetic accumulates in (as
  /// numpy, the reference, does), or `type` itself.
  Type accumulatorType(Type type) {
    return type.getIntOrFloatBitWidth() < 32 ? Float32Type::get(context) : type;
  }

  /// matmul(a, b) of `dtype` tensors, accumulated in float32 for
  /// float16/bfloat16 and rounded once.
  Value matmul(Value a, Value b, ArrayRef<int64_t> sizes) {
    Type accumulator = accumulatorType(dtype);
    Value product =
        AtenMatmulOp::create(rewriter, loc, type(sizes, accumulator),
                             createToDtype(rewriter, loc, a, accumulator),
                             createToDtype(rewriter, loc, b, accumulator));
    return createToDtype(rewriter, loc, product, dtype);
  }

  /// Softmax along the last dim that gives 0 (not NaN) for a row that is
  /// -inf everywhere: exp(x - m) / sum with m = 0 for such rows and the
  /// sum of a row of zeros taken as 1. The sum rounds as the reference's.
  Value safeSoftmax(Value x) {
    ArrayRef<int64_t> sizes = sizesOf(x);
    Type xDtype = elementType(x);
    SmallVector<int64_t> rowSizes(sizes);
    rowSizes.back() = 1;
    Value lastDim = intList({static_cast<int64_t>(sizes.size()) - 1});
    Value t = createConstantBool(rewriter, loc, true);
    Value max = AtenAmaxOp::create(rewriter, loc, type(rowSizes, xDtype), x,
                                   lastDim, t);
    Value safeMax =
        zeroWhere(compare<AtenEqScalarOp>(max, constFloat(kNegInf)), max);
    Value exp = AtenExpOp::create(rewriter, loc, type(sizes, xDtype),
                                  binary("sub", x, safeMax, xDtype));
    Value sum;
    if (xDtype.isBF16()) {
      // The reference (numpy with ml_dtypes) sums bfloat16 left to right,
      // rounding after each add; float16 and wider it sums in float32.
      int64_t last = sizes.size() - 1;
      for (int64_t j = 0; j < sizes.back(); ++j) {
        Value column = AtenSliceTensorOp::create(
            rewriter, loc, type(rowSizes, xDtype), exp, constInt(last),
            constInt(j), constInt(j + 1), constInt(1));
        sum = sum ? binary("add", sum, column, xDtype) : column;
      }
    } else {
      Type accumulator = accumulatorType(xDtype);
      sum = createToDtype(rewriter, loc,
                          AtenSumDimIntListOp::create(
                              rewriter, loc, type(rowSizes, accumulator),
                              createToDtype(rewriter, loc, exp, accumulator),
                              lastDim, t, createConstantNone(rewriter, loc)),
                          xDtype);
    }
    Value safeSum = AtenWhereSelfOp::create(
        rewriter, loc, type(rowSizes, xDtype),
        compare<AtenEqScalarOp>(sum, constFloat(0.0)),
        createScalarLiteral(rewriter, loc, xDtype, 1.0), sum);
    return binary("div", exp, safeSum, xDtype);
  }

  PatternRewriter &rewriter;
  Location loc;
  MLIRContext *context;
  /// The dtype of Q, K, V, Y and the bias.
  Type dtype;
};

/// The attributes of an Attention node.
struct AttentionParams {
  int64_t isCausal, mode, leftWindow, rightWindow;
  std::optional<int64_t> qNumHeads, kvNumHeads;
  std::optional<double> scale;
  double softcap;
  Type softmaxType;
};

LogicalResult getAttentionParams(const OpBinder &binder,
                                 PatternRewriter &rewriter,
                                 AttentionParams &params) {
  int64_t value;
  if (failed(binder.getInt("is_causal", params.isCausal, 0)) ||
      failed(binder.getInt("qk_matmul_output_mode", params.mode, 0)) ||
      failed(binder.getInt("left_window_size", params.leftWindow, -1)) ||
      failed(binder.getInt("right_window_size", params.rightWindow, -1)) ||
      failed(binder.getFloat("softcap", params.softcap, 0.0)))
    return binder.fail(rewriter, "is_causal, qk_matmul_output_mode and the "
                                 "window sizes must be ints, softcap a float");
  if (binder.hasAttr("q_num_heads")) {
    if (failed(binder.getInt("q_num_heads", value)) || value <= 0)
      return binder.fail(rewriter, "q_num_heads must be a positive int");
    params.qNumHeads = value;
  }
  if (binder.hasAttr("kv_num_heads")) {
    if (failed(binder.getInt("kv_num_heads", value)) || value <= 0)
      return binder.fail(rewriter, "kv_num_heads must be a positive int");
    params.kvNumHeads = value;
  }
  if (binder.hasAttr("scale")) {
    double scale;
    if (failed(binder.getFloat("scale", scale)))
      return binder.fail(rewriter, "scale must be a float");
    params.scale = scale;
  }
  if (params.mode < 0 || params.mode > 3)
    return binder.fail(rewriter, "unsupported qk_matmul_output_mode " +
                                     Twine(params.mode) + " (expects 0 to 3)");
  if (params.leftWindow < -1 || params.rightWindow < -1)
    return binder.fail(rewriter, "left_window_size and right_window_size must "
                                 "be -1 or nonnegative");
  if (binder.hasAttr("softmax_precision")) {
    if (failed(binder.getInt("softmax_precision", value)) ||
        !(params.softmaxType = getOnnxFloatType(rewriter.getContext(), value)))
      return binder.fail(rewriter, "unsupported softmax_precision (expects 1 "
                                   "FLOAT, 10 FLOAT16, 11 DOUBLE or 16 "
                                   "BFLOAT16)");
  }
  return success();
}

LogicalResult lowerAttention(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  Value q = binder.getOperand(0), k = binder.getOperand(1),
        v = binder.getOperand(2), mask = binder.getOperand(3),
        pastKey = binder.getOperand(4), pastValue = binder.getOperand(5),
        nonpad = binder.getOperand(6);
  for (Value operand : {q, k, v, mask, pastKey, pastValue, nonpad}) {
    auto type = operand ? getKnownTensorType(operand) : nullptr;
    if (operand && (!type || !type.areAllSizesKnown()))
      return binder.fail(rewriter, "unsupported: inputs without static sizes "
                                   "and dtypes");
  }
  if (!q || !k || !v)
    return binder.fail(rewriter, "expects Q, K and V");
  AttentionParams params;
  if (failed(getAttentionParams(binder, rewriter, params)))
    return failure();
  auto qType = getKnownTensorType(q);
  Type dtype = qType.getDtype();
  if (!isa<mlir::FloatType>(dtype))
    return binder.fail(rewriter, "unsupported: a non-float Q");
  if (getKnownTensorType(k).getDtype() != dtype ||
      getKnownTensorType(v).getDtype() != dtype)
    return binder.fail(rewriter, "Q, K and V must have one dtype");
  if (static_cast<bool>(pastKey) != static_cast<bool>(pastValue))
    return binder.fail(rewriter, "past_key and past_value must be given "
                                 "together");
  if (nonpad && pastKey)
    return binder.fail(rewriter, "nonpad_kv_seqlen cannot be combined with "
                                 "past_key/past_value");
  int64_t rank = qType.getSizes().size();
  if ((rank != 3 && rank != 4) || sizesOf(k).size() != size_t(rank) ||
      sizesOf(v).size() != size_t(rank))
    return binder.fail(rewriter, "Q, K and V must all be 3-D or all 4-D");

  // The 4-D sizes: [B, H, S, D].
  auto headSizes = [&](Value value,
                       std::optional<int64_t> heads) -> SmallVector<int64_t> {
    ArrayRef<int64_t> s = sizesOf(value);
    if (rank == 4)
      return SmallVector<int64_t>(s);
    return {s[0], *heads, s[1], s[2] / *heads};
  };
  if (rank == 3) {
    if (!params.qNumHeads || !params.kvNumHeads)
      return binder.fail(rewriter, "3-D inputs need q_num_heads and "
                                   "kv_num_heads");
    if (sizesOf(q)[2] % *params.qNumHeads ||
        sizesOf(k)[2] % *params.kvNumHeads ||
        sizesOf(v)[2] % *params.kvNumHeads)
      return binder.fail(rewriter, "the hidden sizes of Q, K and V must be "
                                   "multiples of q_num_heads/kv_num_heads");
  }
  SmallVector<int64_t> qs = headSizes(q, params.qNumHeads),
                       ks = headSizes(k, params.kvNumHeads),
                       vs = headSizes(v, params.kvNumHeads);
  int64_t batch = qs[0], qHeads = qs[1], qLen = qs[2], headSize = qs[3];
  int64_t kvHeads = ks[1];
  if (ks[0] != batch || vs[0] != batch || ks[3] != headSize ||
      vs[1] != kvHeads || vs[2] != ks[2])
    return binder.fail(rewriter, "mismatched Q, K and V sizes");
  if (qHeads % kvHeads)
    return binder.fail(rewriter, "the query heads must be a multiple of the "
                                 "key/value heads");
  int64_t pastLen = 0;
  if (pastKey) {
    ArrayRef<int64_t> pk = sizesOf(pastKey), pv = sizesOf(pastValue);
    if (pk.size() != 4 || pv.size() != 4 || pk[0] != batch ||
        pk[1] != kvHeads || pk[3] != headSize || pv[0] != batch ||
        pv[1] != kvHeads || pv[2] != pk[2] || pv[3] != vs[3] ||
        getKnownTensorType(pastKey).getDtype() != dtype ||
        getKnownTensorType(pastValue).getDtype() != dtype)
      return binder.fail(rewriter, "past_key/past_value sizes or dtypes do "
                                   "not match K and V");
    pastLen = pk[2];
  }
  int64_t kvLen = ks[2] + pastLen;
  SmallVector<int64_t> scoreSizes{batch, qHeads, qLen, kvLen};
  if (mask) {
    SmallVector<int64_t> ms(sizesOf(mask));
    Type maskDtype = getKnownTensorType(mask).getDtype();
    if (!maskDtype.isInteger(1) && !isa<mlir::FloatType>(maskDtype))
      return binder.fail(rewriter, "attn_mask must be bool or float");
    if (ms.empty() || ms.back() > kvLen)
      return binder.fail(rewriter, "attn_mask must have at most as many keys "
                                   "as K (with past_key)");
    ms.back() = kvLen;
    auto sizes = broadcastSizes(ms, scoreSizes);
    if (failed(sizes) || *sizes != scoreSizes)
      return binder.fail(rewriter, "attn_mask does not broadcast to [batch, "
                                   "q_num_heads, q_sequence_length, "
                                   "kv_sequence_length]");
  }
  if (nonpad && sizesOf(nonpad) != ArrayRef<int64_t>{batch})
    return binder.fail(rewriter, "nonpad_kv_seqlen must have one length per "
                                 "batch");
  for (unsigned i = 0, e = binder.getNumResults(); i < e; ++i)
    if (i > 3 || (!binder.getOp()->getResult(i).use_empty() &&
                  !binder.getAnyResultType(i)))
      return binder.fail(rewriter, "unexpected output " + Twine(i));

  Location loc = binder.getLoc();
  AttentionBuilder b(rewriter, loc, dtype);
  if (rank == 3) {
    q = b.splitHeads(q, *params.qNumHeads);
    k = b.splitHeads(k, *params.kvNumHeads);
    v = b.splitHeads(v, *params.kvNumHeads);
  }
  if (pastKey) {
    auto concat = [&](Value past, Value current) -> Value {
      SmallVector<int64_t> sizes(sizesOf(current));
      sizes[2] += pastLen;
      return AtenCatOp::create(rewriter, loc, b.type(sizes),
                               createTensorList(rewriter, loc, {past, current}),
                               b.constInt(2));
    };
    k = concat(pastKey, k);
    v = concat(pastValue, v);
  }
  Value presentKey = k, presentValue = v;

  // The additive bias: the mask, then the structural masks as one
  // boolean `allowed` (causal, window, key padding).
  Value bias;
  if (mask) {
    ArrayRef<int64_t> ms = sizesOf(mask);
    if (b.elementType(mask).isInteger(1))
      bias = b.select(mask, 0.0, kNegInf, dtype);
    else
      bias = createToDtype(rewriter, loc, mask, dtype);
    if (ms.back() < kvLen) {
      SmallVector<int64_t> padded(ms);
      padded.back() = kvLen;
      bias = AtenConstantPadNdOp::create(rewriter, loc, b.type(padded), bias,
                                         b.intList({0, kvLen - ms.back()}),
                                         b.constFloat(kNegInf));
    }
  }
  bool window = params.leftWindow >= 0 || params.rightWindow >= 0;
  int64_t left = params.leftWindow, right = params.rightWindow;
  // Whether a key `diff` = (query position + offset) - key index before
  // the query is attended.
  auto isAllowed = [&](int64_t diff) {
    return (!params.isCausal || diff >= 0) && (left < 0 || diff <= left) &&
           (right < 0 || -diff <= right);
  };
  Value structural;
  if (!nonpad && (params.isCausal || window)) {
    structural = b.biasLiteral(qLen, kvLen, [&](int64_t i, int64_t j) {
      return isAllowed(i + pastLen - j);
    });
  } else if (nonpad) {
    // Per batch: diff = i + (nonpad[b] - S) - j, keys j >= nonpad[b] out.
    Type si64 = getSi64Type(rewriter.getContext());
    Value lengths = createToDtype(rewriter, loc, nonpad, si64);
    Value perBatch = b.view(lengths, {batch, 1, 1});
    Value keys = b.indexLiteral(1, kvLen, [](int64_t, int64_t j) { return j; });
    Value allowed = b.binary("lt", keys, perBatch, rewriter.getI1Type());
    if (params.isCausal || window) {
      Value diff = b.binary(
          "add",
          b.indexLiteral(qLen, kvLen,
                         [&](int64_t i, int64_t j) { return i - qLen - j; }),
          perBatch, si64);
      auto both = [&](Value condition) {
        allowed = b.binary("and", allowed, condition, rewriter.getI1Type());
      };
      if (params.isCausal)
        both(b.compare<AtenGeScalarOp>(diff, b.constInt(0)));
      if (left >= 0)
        both(b.compare<AtenLeScalarOp>(diff, b.constInt(left)));
      if (right >= 0)
        both(b.compare<AtenGeScalarOp>(diff, b.constInt(-right)));
    }
    ArrayRef<int64_t> as = sizesOf(allowed);
    structural = b.view(b.select(allowed, 0.0, kNegInf, dtype),
                        {batch, 1, as[1], kvLen});
  }
  if (structural)
    bias = bias ? b.binary("add", bias, structural, dtype) : structural;

  // Scores: (Q * sqrt(scale)) @ (K * sqrt(scale))^T.
  double scale = params.scale ? *params.scale : 1.0 / std::sqrt(headSize);
  // The reference casts sqrt(scale) to Q's dtype before the products.
  APFloat rounded(std::sqrt(scale));
  bool losesInfo;
  rounded.convert(cast<mlir::FloatType>(dtype).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &losesInfo);
  rounded.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  Value sqrtScale = b.constFloat(rounded.convertToDouble());
  int64_t repeats = qHeads / kvHeads;
  Value scaledQ =
      AtenMulScalarOp::create(rewriter, loc, q.getType(), q, sqrtScale);
  Value scaledK =
      AtenMulScalarOp::create(rewriter, loc, k.getType(), k, sqrtScale);
  Value keysT = createPermute(rewriter, loc, b.repeatHeads(scaledK, repeats),
                              {0, 1, 3, 2});
  Value scores = b.matmul(scaledQ, keysT, scoreSizes);
  Value rawScores = scores;
  if (params.softcap > 0.0) {
    Value cap = b.constFloat(params.softcap);
    Value tanh =
        AtenTanhOp::create(rewriter, loc, b.type(scoreSizes),
                           AtenDivScalarOp::create(
                               rewriter, loc, b.type(scoreSizes), scores, cap));
    scores =
        AtenMulScalarOp::create(rewriter, loc, b.type(scoreSizes), tanh, cap);
  }
  Value cappedScores = scores;
  if (bias)
    scores = b.binary("add", scores, bias, dtype);

  Value logits = params.softmaxType
                     ? createToDtype(rewriter, loc, scores, params.softmaxType)
                     : scores;
  Value probs = b.safeSoftmax(logits);
  if (bias) {
    // Rows with no attendable key give 0.
    SmallVector<int64_t> rowSizes(sizesOf(bias));
    rowSizes.back() = 1;
    Value rowMax = AtenAmaxOp::create(
        rewriter, loc, b.type(rowSizes), bias,
        b.intList({static_cast<int64_t>(rowSizes.size()) - 1}),
        createConstantBool(rewriter, loc, true));
    probs = b.zeroWhere(
        b.compare<AtenEqScalarOp>(rowMax, b.constFloat(kNegInf)), probs);
  }
  probs = createToDtype(rewriter, loc, probs, dtype);
  Value values = b.repeatHeads(v, repeats);
  Value y = b.matmul(probs, values, {batch, qHeads, qLen, sizesOf(v)[3]});
  if (rank == 3)
    y = b.mergeHeads(y);

  Value qkOutput;
  switch (params.mode) {
  case 0:
    qkOutput = rawScores;
    break;
  case 1:
    qkOutput = cappedScores;
    break;
  case 2:
    qkOutput = scores;
    break;
  default:
    qkOutput = probs;
    break;
  }

  Operation *op = binder.getOp();
  SmallVector<Value> results{y, presentKey, presentValue, qkOutput};
  results.resize(op->getNumResults());
  for (unsigned i = 0, e = results.size(); i < e; ++i) {
    auto resultType = binder.getAnyResultType(i);
    if (!op->getResult(i).use_empty() && results[i].getType() != resultType)
      results[i] =
          TensorStaticInfoCastOp::create(rewriter, loc, resultType, results[i]);
  }
  rewriter.replaceOp(op, results);
  return success();
}

/// RotaryEmbedding-23(X, cos_cache, sin_cache, position_ids?): X as
/// [B, S, H, D] (from [B, H, S, D], or [B, S, H*D] with num_heads), the
/// first R = rotary_embedding_dim (0: D) features of each head split into
/// halves x1, x2 (interleaved: even and odd features), rotated by the cached
/// cos/sin of each position ([B, S, R/2], gathered by position_ids from a
/// [P, R/2] cache when given):
///   real = cos * x1 - sin * x2,   imag = sin * x1 + cos * x2
/// and put back in place (interleaved: real and imag alternate); the other
/// D - R features pass through. Static sizes.
LogicalResult lowerRotaryEmbedding(const OpBinder &binder,
                                   PatternRewriter &rewriter) {
  Value x = binder.getOperand(0), cosCache = binder.getOperand(1),
        sinCache = binder.getOperand(2), positions = binder.getOperand(3);
  auto inputType = getKnownTensorType(x);
  auto cosType = cosCache ? getKnownTensorType(cosCache) : nullptr;
  auto sinType = sinCache ? getKnownTensorType(sinCache) : nullptr;
  auto resultType = binder.getResultType();
  int64_t interleaved, rotaryDim, numHeads;
  if (failed(binder.getInt("interleaved", interleaved, 0)) ||
      failed(binder.getInt("rotary_embedding_dim", rotaryDim, 0)) ||
      failed(binder.getInt("num_heads", numHeads, 0)))
    return binder.fail(rewriter, "attributes interleaved, "
                                 "rotary_embedding_dim and num_heads must be "
                                 "ints");
  if (!inputType || !cosType || !sinType || !resultType ||
      !inputType.areAllSizesKnown() || !cosType.areAllSizesKnown() ||
      cosType != sinType || cosType.getDtype() != inputType.getDtype())
    return binder.fail(rewriter, "needs static sizes, and caches of one type "
                                 "with the input's dtype");
  ArrayRef<int64_t> in = inputType.getSizes();
  int64_t rank = in.size();
  if (rank != 3 && rank != 4)
    return binder.fail(rewriter, "the input must be 3-D or 4-D");
  if (rank == 3 && (numHeads <= 0 || in[2] % numHeads != 0))
    return binder.fail(rewriter, "a 3-D input needs num_heads dividing its "
                                 "hidden size");
  int64_t batch = in[0], seq = rank == 4 ? in[2] : in[1],
          heads = rank == 4 ? in[1] : numHeads,
          headSize = rank == 4 ? in[3] : in[2] / numHeads;
  if (rotaryDim == 0)
    rotaryDim = headSize;
  if (rotaryDim < 0 || rotaryDim > headSize || rotaryDim % 2 != 0)
    return binder.fail(rewriter, "rotary_embedding_dim must be even and at "
                                 "most the head size");
  int64_t half = rotaryDim / 2;
  ArrayRef<int64_t> cacheSizes = cosType.getSizes();
  if (cacheSizes.back() != half ||
      (positions ? cacheSizes.size() != 2
                 : cacheSizes != ArrayRef<int64_t>{batch, seq, half}))
    return binder.fail(rewriter, "the caches must be [P, R/2] with "
                                 "position_ids, else [B, S, R/2]");
  auto positionsType = positions ? getKnownTensorType(positions) : nullptr;
  if (positions && (!positionsType ||
                    positionsType.getSizes() != ArrayRef<int64_t>{batch, seq}))
    return binder.fail(rewriter, "position_ids must be [B, S]");

  Location loc = binder.getLoc();
  AttentionBuilder b(rewriter, loc, inputType.getDtype());
  auto slice = [&](Value value, int64_t start, int64_t end, int64_t step) {
    SmallVector<int64_t> sizes(sizesOf(value));
    sizes.back() = (end - start + step - 1) / step;
    return AtenSliceTensorOp::create(rewriter, loc, b.type(sizes), value,
                                     b.constInt(3), b.constInt(start),
                                     b.constInt(end), b.constInt(step))
        .getResult();
  };
  auto cat = [&](ArrayRef<Value> parts, int64_t dim) {
    SmallVector<int64_t> sizes(sizesOf(parts.front()));
    sizes[dim] = 0;
    for (Value part : parts)
      sizes[dim] += sizesOf(part)[dim];
    return AtenCatOp::create(rewriter, loc, b.type(sizes),
                             createTensorList(rewriter, loc, parts),
                             b.constInt(dim))
        .getResult();
  };
  auto one = b.constInt(1);
  SmallVector<int64_t> bshh{batch, seq, heads, half};
  auto mul = [&](Value lhs, Value rhs) -> Value {
    return AtenMulTensorOp::create(rewriter, loc, b.type(bshh), lhs, rhs);
  };

  Value input = rank == 4 ? createPermute(rewriter, loc, x, {0, 2, 1, 3})
                          : b.view(x, {batch, seq, heads, headSize});
  // cos/sin as [B, S, 1, R/2].
  auto perPosition = [&](Value cache) {
    if (positions) {
      Type si64 = getSi64Type(rewriter.getContext());
      Value flat =
          b.view(createToDtype(rewriter, loc, positions, si64), {batch * seq});
      cache =
          AtenIndexSelectOp::create(rewriter, loc, b.type({batch * seq, half}),
                                    cache, b.constInt(0), flat);
    }
    return b.view(cache, {batch, seq, 1, half});
  };
  Value cos = perPosition(cosCache), sin = perPosition(sinCache);
  Value rotated = rotaryDim == headSize ? input : slice(input, 0, rotaryDim, 1);
  Value x1 = interleaved ? slice(rotated, 0, rotaryDim, 2)
                         : slice(rotated, 0, half, 1);
  Value x2 = interleaved ? slice(rotated, 1, rotaryDim, 2)
                         : slice(rotated, half, rotaryDim, 1);
  Value real = AtenSubTensorOp::create(rewriter, loc, b.type(bshh),
                                       mul(cos, x1), mul(sin, x2), one);
  Value imag = AtenAddTensorOp::create(rewriter, loc, b.type(bshh),
                                       mul(sin, x1), mul(cos, x2), one);
  Value output;
  if (interleaved) {
    SmallVector<int64_t> pairSizes{batch, seq, heads, half, 1};
    Value pairs = cat({b.view(real, pairSizes), b.view(imag, pairSizes)}, 4);
    output = b.view(pairs, {batch, seq, heads, rotaryDim});
  } else {
    output = cat({real, imag}, 3);
  }
  if (rotaryDim < headSize)
    output = cat({output, slice(input, rotaryDim, headSize, 1)}, 3);
  output = rank == 4 ? createPermute(rewriter, loc, output, {0, 2, 1, 3})
                     : b.view(output, in);
  if (output.getType() != resultType)
    output = TensorStaticInfoCastOp::create(rewriter, loc, resultType, output);
  rewriter.replaceOp(binder.getOp(), output);
  return success();
}

/// TensorScatter-24(past_cache, update, write_indices?; mode, axis): the
/// cache with update's L entries along `axis` written from write_indices[b]
/// on (mode "circular": modulo the cache length M). As a select: position p
/// of batch b takes update entry k = p - write_indices[b] (mod M) when
/// 0 <= k < L, else keeps the cache's. Static sizes; axis is not 0.
LogicalResult lowerTensorScatter(const OpBinder &binder,
                                 PatternRewriter &rewriter) {
  Value cache = binder.getOperand(0), update = binder.getOperand(1),
        writeIndices = binder.getOperand(2);
  auto cacheType = getKnownTensorType(cache);
  auto updateType = update ? getKnownTensorType(update) : nullptr;
  auto resultType = binder.getResultType();
  std::string mode;
  int64_t axis;
  if (failed(binder.getString("mode", mode, "linear")) ||
      failed(binder.getInt("axis", axis, -2)))
    return binder.fail(rewriter, "attributes mode (string) and axis (int) "
                                 "expected");
  if (mode != "linear" && mode != "circular")
    return binder.fail(rewriter, "unsupported mode '" + mode + "'");
  if (!cacheType || !updateType || !resultType ||
      !cacheType.areAllSizesKnown() || !updateType.areAllSizesKnown() ||
      cacheType.getDtype() != updateType.getDtype())
    return binder.fail(rewriter, "needs static sizes and one dtype");
  ArrayRef<int64_t> sizes = cacheType.getSizes();
  int64_t rank = sizes.size();
  if (failed(normalizeAxis(axis, rank)) || axis == 0)
    return binder.fail(rewriter, "axis must be a dim other than the batch");
  ArrayRef<int64_t> updateSizes = updateType.getSizes();
  int64_t cacheLen = sizes[axis], updateLen = updateSizes[axis];
  if (static_cast<int64_t>(updateSizes.size()) != rank || updateLen > cacheLen)
    return binder.fail(rewriter, "update must have the cache's rank and at "
                                 "most its length along the axis");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && updateSizes[d] != sizes[d])
      return binder.fail(rewriter, "update and cache sizes differ off the "
                                   "axis");
  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  Type si64 = getSi64Type(context);
  auto cst = [&](int64_t v) { return createConstantInt(rewriter, loc, v); };
  auto si64Type = [&](ArrayRef<int64_t> shape) {
    return getTensorType(context, shape, si64);
  };
  SmallVector<int64_t> batchShape(rank, 1), posShape(rank, 1),
      bothShape(rank, 1);
  posShape[axis] = bothShape[axis] = cacheLen;
  // Without write_indices every batch writes from 0.
  Value start = createScalarLiteral(rewriter, loc, si64, 0);
  if (writeIndices) {
    batchShape[0] = bothShape[0] = sizes[0];
    start = createView(rewriter, loc,
                       createToDtype(rewriter, loc, writeIndices, si64),
                       batchShape, si64Type(batchShape));
  }
  Value positions =
      createView(rewriter, loc, createArange(rewriter, loc, cacheLen), posShape,
                 si64Type(posShape));
  Value k = AtenSubTensorOp::create(rewriter, loc, si64Type(bothShape),
                                    positions, start, cst(1));
  if (mode == "circular") {
    Value length = createScalarLiteral(rewriter, loc, si64, cacheLen);
    Value quotient = AtenDivTensorModeOp::create(
        rewriter, loc, si64Type(bothShape), k, length,
        ConstantStrOp::create(rewriter, loc, StringType::get(context),
                              rewriter.getStringAttr("floor")));
    k = AtenSubTensorOp::create(
        rewriter, loc, si64Type(bothShape), k,
        AtenMulScalarOp::create(rewriter, loc, si64Type(bothShape), quotient,
                                cst(cacheLen)),
        cst(1));
  }
  auto boolType = getTensorType(context, bothShape, rewriter.getI1Type());
  Value valid = AtenLogicalAndOp::create(
      rewriter, loc, boolType,
      AtenGeScalarOp::create(rewriter, loc, boolType, k, cst(0)),
      AtenLtScalarOp::create(rewriter, loc, boolType, k, cst(updateLen)));
  Value index =
      AtenClampOp::create(rewriter, loc, si64Type(bothShape), k, cst(0),
                          cst(std::max<int64_t>(updateLen - 1, 0)));
  Value f = createConstantBool(rewriter, loc, false);
  Value sizeList = createIntList(rewriter, loc, sizes);
  index =
      AtenExpandOp::create(rewriter, loc, si64Type(sizes), index, sizeList, f);
  valid = AtenExpandOp::create(
      rewriter, loc, getTensorType(context, sizes, rewriter.getI1Type()), valid,
      sizeList, f);
  Value written = AtenGatherOp::create(rewriter, loc, cacheType, update,
                                       cst(axis), index, f);
  rewriter.replaceOpWithNewOp<AtenWhereSelfOp>(binder.getOp(), resultType,
                                               valid, written, cache);
  return success();
}

/// LinearAttention-27(query, key, value, past_state?, decay?, beta?): the
/// recurrence over the T (static) time steps, unrolled, in float32 with a
/// state S [B, Hkv, dk, dv] (past_state or zeros). Step t, with q, k, v the
/// heads of step t:
///   gated rules:  S *= exp(decay_t)            (per head or per key dim)
///   delta rules:  v = beta_t * (v - k @ S)
///   S += k^T v;   o_t = scale * q @ S           (S repeated per query head)
/// The outputs o_t are concatenated along time; present_state is S.
LogicalResult lowerLinearAttention(const OpBinder &binder,
                                   PatternRewriter &rewriter) {
  Value query = binder.getOperand(0), key = binder.getOperand(1),
        value = binder.getOperand(2), past = binder.getOperand(3),
        decay = binder.getOperand(4), beta = binder.getOperand(5);
  int64_t qHeads, kvHeads;
  double scale;
  std::string rule;
  if (failed(binder.getInt("q_num_heads", qHeads)) ||
      failed(binder.getInt("kv_num_heads", kvHeads)) ||
      failed(binder.getFloat("scale", scale, 0.0)) ||
      failed(binder.getString("update_rule", rule, "gated_delta")))
    return binder.fail(rewriter, "needs int q_num_heads and kv_num_heads, a "
                                 "float scale and a string update_rule");
  if (rule != "linear" && rule != "gated" && rule != "delta" &&
      rule != "gated_delta")
    return binder.fail(rewriter, "unsupported update_rule '" + rule + "'");
  bool gating = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  if (gating != static_cast<bool>(decay) || delta != static_cast<bool>(beta))
    return binder.fail(rewriter, "update_rule '" + rule +
                                     "' does not match the decay/beta inputs "
                                     "given");
  auto qType = getKnownTensorType(query);
  auto kType = key ? getKnownTensorType(key) : nullptr;
  auto vType = value ? getKnownTensorType(value) : nullptr;
  auto resultType = binder.getResultType();
  if (!qType || !kType || !vType || !resultType || !qType.areAllSizesKnown() ||
      !kType.areAllSizesKnown() || !vType.areAllSizesKnown() ||
      qType.getSizes().size() != 3 || kType.getSizes().size() != 3 ||
      vType.getSizes().size() != 3)
    return binder.fail(rewriter, "needs static [B, T, H*D] query, key and "
                                 "value");
  if (qHeads <= 0 || kvHeads <= 0 || qHeads % kvHeads != 0)
    return binder.fail(rewriter, "q_num_heads must be a positive multiple of "
                                 "kv_num_heads");
  ArrayRef<int64_t> qs = qType.getSizes();
  int64_t batch = qs[0], steps = qs[1];
  if (qs[2] % qHeads != 0 || vType.getSizes()[2] % kvHeads != 0)
    return binder.fail(rewriter, "head counts must divide the hidden sizes");
  int64_t dk = qs[2] / qHeads, dv = vType.getSizes()[2] / kvHeads;
  if (kType.getSizes() != ArrayRef<int64_t>{batch, steps, kvHeads * dk} ||
      vType.getSizes()[0] != batch || vType.getSizes()[1] != steps)
    return binder.fail(rewriter, "key must be [B, T, kv_num_heads * dk] and "
                                 "value [B, T, kv_num_heads * dv]");
  if (scale == 0.0)
    scale = 1.0 / std::sqrt(static_cast<double>(dk));

  MLIRContext *context = rewriter.getContext();
  Location loc = binder.getLoc();
  Type f32 = Float32Type::get(context);
  AttentionBuilder b(rewriter, loc, f32);
  auto toF32 = [&](Value v) { return createToDtype(rewriter, loc, v, f32); };
  auto one = b.constInt(1);
  // Input `v` ([B, T, X]) at step t, viewed to `sizes`.
  auto at = [&](Value v, int64_t t, ArrayRef<int64_t> sizes) {
    int64_t width = sizesOf(v)[2];
    Value step = AtenSelectIntOp::create(rewriter, loc, b.type({batch, width}),
                                         v, one, b.constInt(t));
    return b.view(step, sizes);
  };
  int64_t decayWidth = 0, betaHeads = 0;
  if (decay) {
    auto decayType = getKnownTensorType(decay);
    if (!decayType || decayType.getSizes().size() != 3 ||
        (decayType.getSizes()[2] != kvHeads &&
         decayType.getSizes()[2] != kvHeads * dk))
      return binder.fail(rewriter, "decay must be [B, T, kv_num_heads] or "
                                   "[B, T, kv_num_heads * dk]");
    decayWidth = decayType.getSizes()[2] / kvHeads;
  }
  if (beta) {
    auto betaType = getKnownTensorType(beta);
    if (!betaType || betaType.getSizes().size() != 3 ||
        (betaType.getSizes()[2] != kvHeads && betaType.getSizes()[2] != 1))
      return binder.fail(rewriter, "beta must be [B, T, kv_num_heads] or "
                                   "[B, T, 1]");
    betaHeads = betaType.getSizes()[2];
  }
  SmallVector<int64_t> stateSizes{batch, kvHeads, dk, dv};
  Type stateDtype = qType.getDtype();
  Value state;
  if (past) {
    auto pastType = getKnownTensorType(past);
    if (!pastType || pastType.getSizes() != ArrayRef<int64_t>(stateSizes))
      return binder.fail(rewriter, "past_state must be [B, kv_num_heads, dk, "
                                   "dv]");
    stateDtype = pastType.getDtype();
    state = toF32(past);
  } else {
    Value none = createConstantNone(rewriter, loc);
    state = AtenZerosOp::create(
        rewriter, loc, b.type(stateSizes), b.intList(stateSizes),
        b.constInt(*getScalarTypeCode(f32)), none, none, none);
  }
  Value q = toF32(query), k = toF32(key), v = toF32(value);
  Value decay32 = decay ? toF32(decay) : Value();
  Value beta32 = beta ? toF32(beta) : Value();
  int64_t group = qHeads / kvHeads;
  SmallVector<Value> outputs;
  for (int64_t t = 0; t < steps; ++t) {
    if (gating) {
      Value g = at(decay32, t, {batch, kvHeads, decayWidth, 1});
      g = AtenExpOp::create(rewriter, loc, cast<ValueTensorType>(g.getType()),
                            g);
      state =
          AtenMulTensorOp::create(rewriter, loc, b.type(stateSizes), state, g);
    }
    Value kt = at(k, t, {batch, kvHeads, 1, dk});
    Value vt = at(v, t, {batch, kvHeads, 1, dv});
    if (delta) {
      Value retrieved = b.matmul(kt, state, {batch, kvHeads, 1, dv});
      Value diff = AtenSubTensorOp::create(
          rewriter, loc, b.type({batch, kvHeads, 1, dv}), vt, retrieved, one);
      Value bt = at(beta32, t, {batch, betaHeads, 1, 1});
      vt = AtenMulTensorOp::create(rewriter, loc,
                                   b.type({batch, kvHeads, 1, dv}), bt, diff);
    }
    Value outer =
        AtenMulTensorOp::create(rewriter, loc, b.type(stateSizes),
                                b.view(kt, {batch, kvHeads, dk, 1}), vt);
    state = AtenAddTensorOp::create(rewriter, loc, b.type(stateSizes), state,
                                    outer, one);
    Value read = b.repeatHeads(state, group);
    Value qt = at(q, t, {batch, qHeads, 1, dk});
    Value ot = b.matmul(qt, read, {batch, qHeads, 1, dv});
    ot = AtenMulScalarOp::create(rewriter, loc, b.type({batch, qHeads, 1, dv}),
                                 ot, b.constFloat(scale));
    outputs.push_back(b.view(ot, {batch, 1, qHeads * dv}));
  }
  Value output = outputs.front();
  if (steps > 1)
    output =
        AtenCatOp::create(rewriter, loc, b.type({batch, steps, qHeads * dv}),
                          createTensorList(rewriter, loc, outputs), one);
  output = createToDtype(rewriter, loc, output, qType.getDtype());
  Operation *op = binder.getOp();
  SmallVector<Value> results{output};
  if (op->getNumResults() > 1)
    results.push_back(createToDtype(rewriter, loc, state, stateDtype));
  replaceOpWithCastResults(rewriter, op, results);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxAttentionLowerings(
    OnnxLoweringSet &lowerings) {
  lowerings.on("Attention", 23, lowerAttention);
  lowerings.on("RotaryEmbedding", 23, lowerRotaryEmbedding);
  lowerings.on("TensorScatter", 24, lowerTensorScatter);
  lowerings.on("LinearAttention", 27, lowerLinearAttention);
}
