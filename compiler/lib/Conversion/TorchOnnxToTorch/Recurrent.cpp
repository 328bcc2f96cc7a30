//===- Recurrent.cpp - ONNX RNN, GRU and LSTM to ATen ---------------------===//
//
// Part of the torch2mlir project.
//
// RNN, GRU and LSTM (opset 7, 14, 22), unrolled over the sequence length,
// which must be static: the torch dialect has no loop. For each direction d
// the input projections of all steps are one matmul,
//
//   XW = X @ W[d]^T + Wb[d] (+ Rb[d] where the spec simply adds it),
//
// then step t (0..S-1 forward, S-1..0 reverse) builds the gates of
// onnx/docs/Operators.md from XW[t] and H @ R[d]^T:
//
//   RNN:  H = f(XW_i + H Ri^T)
//   GRU:  z = f(XW_z + H Rz^T), r = f(XW_r + H Rr^T)
//         h = g(XW_h + (r . H) Rh^T + Rbh)      (linear_before_reset = 0)
//         h = g(XW_h + r . (H Rh^T + Rbh))      (linear_before_reset = 1)
//         H = (1 - z) . h + z . H
//   LSTM: i = f(XW_i + H Ri^T + Pi . C), f = f(XW_f + H Rf^T + Pf . C)
//         C = f . C + i . g(XW_c + H Rc^T)
//         o = f(XW_o + H Ro^T + Po . C),  H = o . h(C)
//
// Gates are stacked in W, R and B as RNN [i], GRU [z, r, h], LSTM
// [i, o, f, c]; P is [i, o, f]. `clip` clamps the input of every gate
// activation to [-clip, clip]. With sequence_lens, batch entry b keeps its
// state at steps t >= sequence_lens[b] and outputs 0 there (so a reverse
// pass starts at its last valid step), as onnxruntime does.
//
// Y is [S, D, B, H] (layout 1: [B, S, D, H]); Y_h and Y_c are [D, B, H]
// (layout 1: [B, D, H]).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

namespace {

enum class CellKind { Rnn, Gru, Lstm };

/// The gates stacked in W, R and B.
int64_t getNumGates(CellKind kind) {
  switch (kind) {
  case CellKind::Rnn:
    return 1;
  case CellKind::Gru:
    return 3;
  case CellKind::Lstm:
    return 4;
  }
  llvm_unreachable("unknown cell kind");
}

/// The activations of one direction when `activations` is absent: f (RNN),
/// f, g (GRU), f, g, h (LSTM).
ArrayRef<StringRef> getDefaultActivations(CellKind kind) {
  static const StringRef rnn[] = {"Tanh"};
  static const StringRef gru[] = {"Sigmoid", "Tanh"};
  static const StringRef lstm[] = {"Sigmoid", "Tanh", "Tanh"};
  switch (kind) {
  case CellKind::Rnn:
    return rnn;
  case CellKind::Gru:
    return gru;
  case CellKind::Lstm:
    return lstm;
  }
  llvm_unreachable("unknown cell kind");
}

/// An activation function of the `activations` attribute.
struct Activation {
  enum Kind { Sigmoid, Tanh, Relu, LeakyRelu, HardSigmoid, Softsign } kind;
  double alpha = 0.0, beta = 0.0;
};

/// How an activation spelled `name` (case-insensitive, as onnxruntime
/// reads it) uses activation_alpha / activation_beta, with the defaults of
/// the ONNX op of the same name.
struct ActivationSpec {
  StringLiteral name;
  Activation::Kind kind;
  bool usesAlpha, usesBeta;
  double alpha, beta;
};

constexpr ActivationSpec kActivationSpecs[] = {
    {"sigmoid", Activation::Sigmoid, false, false, 0.0, 0.0},
    {"tanh", Activation::Tanh, false, false, 0.0, 0.0},
    {"relu", Activation::Relu, false, false, 0.0, 0.0},
    {"leakyrelu", Activation::LeakyRelu, true, false, 0.01, 0.0},
    {"hardsigmoid", Activation::HardSigmoid, true, true, 0.2, 0.5},
    {"softsign", Activation::Softsign, false, false, 0.0, 0.0},
};

/// The attributes of one RNN/GRU/LSTM node, checked.
struct RecurrentAttrs {
  int64_t hiddenSize = 0;
  int64_t numDirections = 1;
  bool reverseOnly = false;
  bool batchFirst = false;        // layout = 1
  bool linearBeforeReset = false; // GRU
  std::optional<double> clip;
  /// numDirections * (activations per direction), forward first.
  SmallVector<Activation> activations;
};

/// Reads the attributes of `binder`'s node; on failure has called
/// `binder.fail`.
LogicalResult readRecurrentAttrs(const OpBinder &binder,
                                 PatternRewriter &rewriter, CellKind kind,
                                 RecurrentAttrs &attrs) {
  std::string direction;
  if (failed(binder.getString("direction", direction, "forward")))
    return binder.fail(rewriter, "attribute 'direction' must be a string");
  if (direction == "bidirectional")
    attrs.numDirections = 2;
  else if (direction == "reverse")
    attrs.reverseOnly = true;
  else if (direction != "forward")
    return binder.fail(rewriter, "unsupported value '" + direction +
                                     "' of attribute 'direction' (expected "
                                     "forward, reverse or bidirectional)");

  if (binder.hasAttr("hidden_size") &&
      (failed(binder.getInt("hidden_size", attrs.hiddenSize)) ||
       attrs.hiddenSize <= 0))
    return binder.fail(rewriter,
                       "attribute 'hidden_size' must be a positive int");

  int64_t layout;
  if (failed(binder.getInt("layout", layout, 0)) ||
      (layout != 0 && layout != 1))
    return binder.fail(rewriter, "attribute 'layout' must be 0 or 1");
  attrs.batchFirst = layout == 1;

  if (kind == CellKind::Gru) {
    int64_t linearBeforeReset;
    if (failed(binder.getInt("linear_before_reset", linearBeforeReset, 0)))
      return binder.fail(rewriter,
                         "attribute 'linear_before_reset' must be an int");
    attrs.linearBeforeReset = linearBeforeReset != 0;
  }
  if (kind == CellKind::Lstm) {
    int64_t inputForget;
    if (failed(binder.getInt("input_forget", inputForget, 0)))
      return binder.fail(rewriter, "attribute 'input_forget' must be an int");
    if (inputForget != 0)
      return binder.fail(rewriter, "unsupported: attribute 'input_forget' = " +
                                       Twine(inputForget) +
                                       " (coupled input and forget gates)");
  }

  if (binder.hasAttr("clip")) {
    double clip;
    if (failed(binder.getFloat("clip", clip)) || !(clip > 0.0))
      return binder.fail(rewriter, "attribute 'clip' must be a positive float");
    attrs.clip = clip;
  }

  // The activations: one set per direction; a single set given for a
  // bidirectional node serves both directions.
  ArrayRef<StringRef> defaults = getDefaultActivations(kind);
  size_t perDirection = defaults.size();
  SmallVector<std::string> names;
  if (Attribute attr = binder.getAttr("activations")) {
    auto array = dyn_cast<ArrayAttr>(attr);
    if (!array)
      return binder.fail(rewriter,
                         "attribute 'activations' must be a list of strings");
    for (Attribute element : array) {
      auto name = dyn_cast<StringAttr>(element);
      if (!name)
        return binder.fail(rewriter,
                           "attribute 'activations' must be a list of strings");
      names.push_back(name.getValue().str());
    }
    if (names.size() == perDirection && attrs.numDirections == 2)
      names.append(SmallVector<std::string>(names));
    if (names.size() != perDirection * attrs.numDirections)
      return binder.fail(rewriter,
                         "attribute 'activations' lists " +
                             Twine(names.size()) + " functions; expected " +
                             Twine(perDirection * attrs.numDirections) + " (" +
                             Twine(perDirection) + " per direction)");
  } else {
    for (int64_t d = 0; d < attrs.numDirections; ++d)
      for (StringRef name : defaults)
        names.push_back(name.str());
  }
  SmallVector<double> alphas, betas;
  if ((binder.hasAttr("activation_alpha") &&
       failed(binder.getFloats("activation_alpha", alphas))) ||
      (binder.hasAttr("activation_beta") &&
       failed(binder.getFloats("activation_beta", betas))))
    return binder.fail(rewriter, "attributes 'activation_alpha' and "
                                 "'activation_beta' must be lists of floats");
  // The alphas and betas are consumed in order by the activations that
  // take them (as onnxruntime reads them); missing ones take the defaults.
  size_t nextAlpha = 0, nextBeta = 0;
  for (const std::string &name : names) {
    std::string lower = StringRef(name).lower();
    const ActivationSpec *spec =
        llvm::find_if(kActivationSpecs,
                      [&](const ActivationSpec &s) { return s.name == lower; });
    if (spec == std::end(kActivationSpecs))
      return binder.fail(rewriter,
                         "unsupported activation '" + name +
                             "' in attribute 'activations' (supported: "
                             "Sigmoid, Tanh, Relu, LeakyRelu, HardSigmoid, "
                             "Softsign)");
    Activation activation{spec->kind, spec->alpha, spec->beta};
    if (spec->usesAlpha && nextAlpha < alphas.size())
      activation.alpha = alphas[nextAlpha++];
    if (spec->usesBeta && nextBeta < betas.size())
      activation.beta = betas[nextBeta++];
    attrs.activations.push_back(activation);
  }
  return success();
}

ArrayRef<int64_t> sizesOf(Value value) {
  return cast<ValueTensorType>(value.getType()).getSizes();
}

/// Builds the static-shaped ATen ops of one recurrent node in one dtype.
class RecurrentBuilder {
public:
  RecurrentBuilder(PatternRewriter &rewriter, Location loc, Type dtype,
                   std::optional<double> clip)
      : rewriter(rewriter), loc(loc), dtype(dtype), clip(clip) {}

  ValueTensorType type(ArrayRef<int64_t> sizes, Type elementType) const {
    return getTensorType(rewriter.getContext(), sizes, elementType);
  }
  ValueTensorType type(ArrayRef<int64_t> sizes) const {
    return type(sizes, dtype);
  }
  Value constInt(int64_t value) {
    return createConstantInt(rewriter, loc, value);
  }
  Value constFloat(double value) {
    return createConstantFloat(rewriter, loc, value);
  }

  Value add(Value a, Value b) {
    return AtenAddTensorOp::create(rewriter, loc, broadcastType(a, b), a, b,
                                   constInt(1));
  }
  Value mul(Value a, Value b) {
    return AtenMulTensorOp::create(rewriter, loc, broadcastType(a, b), a, b);
  }
  /// 1 - a.
  Value oneMinus(Value a) {
    return AtenRsubScalarOp::create(rewriter, loc, a.getType(), a,
                                    constFloat(1.0), constInt(1));
  }
  Value where(Value condition, Value a, Value b) {
    return AtenWhereSelfOp::create(rewriter, loc, broadcastType(a, b),
                                   condition, a, b);
  }

  /// `value` without dim `dim`, at `index`.
  Value select(Value value, int64_t dim, int64_t index) {
    SmallVector<int64_t> sizes(sizesOf(value));
    sizes.erase(sizes.begin() + dim);
    return AtenSelectIntOp::create(rewriter, loc, withSizes(value, sizes),
                                   value, constInt(dim), constInt(index));
  }
  /// `value[..., start:end, ...]` along `dim`.
  Value slice(Value value, int64_t dim, int64_t start, int64_t end) {
    SmallVector<int64_t> sizes(sizesOf(value));
    if (start == 0 && end == sizes[dim])
      return value;
    sizes[dim] = end - start;
    return AtenSliceTensorOp::create(rewriter, loc, withSizes(value, sizes),
                                     value, constInt(dim), constInt(start),
                                     constInt(end), constInt(1));
  }
  /// Gate `gate` of `hidden` columns each of a [rows, gates * hidden]
  /// (or [gates * hidden]) value.
  Value gate(Value value, int64_t gate, int64_t hidden) {
    int64_t dim = sizesOf(value).size() - 1;
    return slice(value, dim, gate * hidden, (gate + 1) * hidden);
  }
  Value unsqueeze(Value value, int64_t dim) {
    SmallVector<int64_t> sizes(sizesOf(value));
    sizes.insert(sizes.begin() + dim, 1);
    return AtenUnsqueezeOp::create(rewriter, loc, withSizes(value, sizes),
                                   value, constInt(dim));
  }
  /// The values, each unsqueezed at `dim`, concatenated along `dim`.
  Value stack(ArrayRef<Value> values, int64_t dim) {
    SmallVector<Value> pieces;
    for (Value value : values)
      pieces.push_back(unsqueeze(value, dim));
    if (pieces.size() == 1)
      return pieces.front();
    SmallVector<int64_t> sizes(sizesOf(pieces.front()));
    sizes[dim] = pieces.size();
    return AtenCatOp::create(rewriter, loc, withSizes(pieces.front(), sizes),
                             createTensorList(rewriter, loc, pieces),
                             constInt(dim));
  }
  /// The transpose of a 2-D value.
  Value transpose(Value value) {
    ArrayRef<int64_t> sizes = sizesOf(value);
    return AtenTransposeIntOp::create(rewriter, loc,
                                      withSizes(value, {sizes[1], sizes[0]}),
                                      value, constInt(0), constInt(1));
  }
  /// a [..., K] @ b [K, N].
  Value matmul(Value a, Value b) {
    SmallVector<int64_t> sizes(sizesOf(a));
    sizes.back() = sizesOf(b)[1];
    if (sizes.size() == 2)
      return AtenMmOp::create(rewriter, loc, type(sizes), a, b);
    return AtenMatmulOp::create(rewriter, loc, type(sizes), a, b);
  }

  /// `activation(x)`, with `x` clipped first if the node has `clip` and
  /// `clipInput`.
  Value activate(const Activation &activation, Value x, bool clipInput = true) {
    if (clip && clipInput)
      x = AtenClampOp::create(rewriter, loc, x.getType(), x, constFloat(-*clip),
                              constFloat(*clip));
    Type t = x.getType();
    switch (activation.kind) {
    case Activation::Sigmoid:
      return AtenSigmoidOp::create(rewriter, loc, t, x);
    case Activation::Tanh:
      return AtenTanhOp::create(rewriter, loc, t, x);
    case Activation::Relu:
      return AtenReluOp::create(rewriter, loc, t, x);
    case Activation::LeakyRelu:
      return AtenLeakyReluOp::create(rewriter, loc, t, x,
                                     constFloat(activation.alpha));
    case Activation::HardSigmoid: {
      // clamp(alpha * x + beta, 0, 1)
      Value scaled = AtenMulScalarOp::create(rewriter, loc, t, x,
                                             constFloat(activation.alpha));
      Value shifted = AtenAddScalarOp::create(
          rewriter, loc, t, scaled, constFloat(activation.beta), constInt(1));
      return AtenClampOp::create(rewriter, loc, t, shifted, constFloat(0.0),
                                 constFloat(1.0));
    }
    case Activation::Softsign: {
      // x / (1 + |x|)
      Value magnitude = AtenAbsOp::create(rewriter, loc, t, x);
      Value denominator = AtenAddScalarOp::create(rewriter, loc, t, magnitude,
                                                  constFloat(1.0), constInt(1));
      return AtenDivTensorOp::create(rewriter, loc, t, x, denominator);
    }
    }
    llvm_unreachable("unknown activation");
  }

private:
  ValueTensorType broadcastType(Value a, Value b) const {
    auto sizes = broadcastSizes(sizesOf(a), sizesOf(b));
    assert(succeeded(sizes) && "operands checked to broadcast");
    return type(*sizes);
  }

  PatternRewriter &rewriter;
  Location loc;
  Type dtype;
  std::optional<double> clip;
};

/// Whether `value` is a tensor of exactly `sizes` and `dtype`.
bool hasType(Value value, ArrayRef<int64_t> sizes, Type dtype) {
  auto type = getKnownTensorType(value);
  return type && type.getSizes() == sizes && type.getDtype() == dtype;
}

/// The inputs of one direction, and what the steps carry.
struct DirectionState {
  Value xw;         // [S, B, G*H]: X @ W^T plus the foldable biases
  Value rT;         // [H, G*H]
  Value rTzr, rTh;  // GRU (linear_before_reset = 0): [H, 2H], [H, H]
  Value rb;         // [G*H] or null: the recurrence bias not in `xw`
  Value pi, po, pf; // LSTM peepholes, [H] each, or null
  Value h, c;       // [B, H]: the state
  ArrayRef<Activation> activations;
};

/// One step of `kind` from the state in `s` and the input projection `gx`
/// ([B, G*H]); returns the new H and sets `newC` for LSTM.
Value buildCellStep(RecurrentBuilder &b, CellKind kind, bool linearBeforeReset,
                    int64_t hidden, DirectionState &s, Value gx, Value &newC) {
  ArrayRef<Activation> act = s.activations;
  switch (kind) {
  case CellKind::Rnn:
    return b.activate(act[0], b.add(gx, b.matmul(s.h, s.rT)));
  case CellKind::Lstm: {
    Value gates = b.add(gx, b.matmul(s.h, s.rT));
    Value gi = b.gate(gates, 0, hidden), go = b.gate(gates, 1, hidden),
          gf = b.gate(gates, 2, hidden), gc = b.gate(gates, 3, hidden);
    if (s.pi) {
      gi = b.add(gi, b.mul(s.pi, s.c));
      gf = b.add(gf, b.mul(s.pf, s.c));
    }
    Value i = b.activate(act[0], gi), f = b.activate(act[0], gf);
    Value candidate = b.activate(act[1], gc);
    newC = b.add(b.mul(f, s.c), b.mul(i, candidate));
    if (s.po)
      go = b.add(go, b.mul(s.po, newC));
    Value o = b.activate(act[0], go);
    // h(C) is not a gate: `clip` does not apply to it (onnxruntime).
    return b.mul(o, b.activate(act[2], newC, /*clipInput=*/false));
  }
  case CellKind::Gru: {
    Value gxzr = b.slice(gx, 1, 0, 2 * hidden), gxh = b.gate(gx, 2, hidden);
    Value zr, recurrentH;
    if (linearBeforeReset) {
      Value hr = b.matmul(s.h, s.rT);
      if (s.rb)
        hr = b.add(hr, s.rb);
      zr = b.add(gxzr, b.slice(hr, 1, 0, 2 * hidden));
      recurrentH = b.gate(hr, 2, hidden);
    } else {
      zr = b.add(gxzr, b.matmul(s.h, s.rTzr));
    }
    Value z = b.activate(act[0], b.gate(zr, 0, hidden));
    Value r = b.activate(act[0], b.gate(zr, 1, hidden));
    Value preH = linearBeforeReset ? b.add(gxh, b.mul(r, recurrentH))
                                   : b.add(gxh, b.matmul(b.mul(r, s.h), s.rTh));
    Value candidate = b.activate(act[1], preH);
    return b.add(b.mul(b.oneMinus(z), candidate), b.mul(z, s.h));
  }
  }
  llvm_unreachable("unknown cell kind");
}

/// RNN-7/14/22, GRU-7/14/22, LSTM-7/14/22(X, W, R, B?, sequence_lens?,
/// initial_h?, initial_c?, P?) -> (Y?, Y_h?, Y_c?).
template <CellKind kind>
LogicalResult lowerRecurrent(const OpBinder &binder,
                             PatternRewriter &rewriter) {
  RecurrentAttrs attrs;
  if (failed(readRecurrentAttrs(binder, rewriter, kind, attrs)))
    return failure();
  bool isLstm = kind == CellKind::Lstm;
  Value x = binder.getOperand(0), w = binder.getOperand(1),
        r = binder.getOperand(2), bias = binder.getOperand(3),
        seqLens = binder.getOperand(4), initialH = binder.getOperand(5),
        initialC = isLstm ? binder.getOperand(6) : Value(),
        peepholes = isLstm ? binder.getOperand(7) : Value();
  auto xType = getKnownTensorType(x);
  if (!xType || xType.getSizes().size() != 3)
    return binder.fail(rewriter, "needs an input X of rank 3 with a known "
                                 "dtype");
  if (!xType.areAllSizesKnown())
    return binder.fail(rewriter,
                       "unsupported: X has dynamic sizes; the recurrence is "
                       "unrolled over time and needs a static sequence "
                       "length and batch size");
  Type dtype = xType.getDtype();
  if (!isa<mlir::FloatType>(dtype))
    return binder.fail(rewriter, "unsupported: a non-float input X");
  ArrayRef<int64_t> xSizes = xType.getSizes();
  int64_t seqLength = xSizes[attrs.batchFirst ? 1 : 0];
  int64_t batch = xSizes[attrs.batchFirst ? 0 : 1];
  int64_t inputSize = xSizes[2];
  if (seqLength == 0 || batch == 0)
    return binder.fail(rewriter, "unsupported: an empty sequence or batch");
  int64_t dirs = attrs.numDirections;
  int64_t numGates = getNumGates(kind);
  auto rType = r ? getKnownTensorType(r) : nullptr;
  if (!rType || rType.getSizes().size() != 3 || !rType.areAllSizesKnown())
    return binder.fail(rewriter, "needs a static R of rank 3");
  int64_t hidden = attrs.hiddenSize ? attrs.hiddenSize : rType.getSizes()[2];
  int64_t gh = numGates * hidden;
  if (!w || !hasType(w, {dirs, gh, inputSize}, dtype) ||
      !hasType(r, {dirs, gh, hidden}, dtype))
    return binder.fail(rewriter, "W must be [" + Twine(dirs) + ", " +
                                     Twine(gh) + ", " + Twine(inputSize) +
                                     "] and R [" + Twine(dirs) + ", " +
                                     Twine(gh) + ", " + Twine(hidden) +
                                     "] of X's dtype (num_directions, gates * "
                                     "hidden_size, ...)");
  if (bias && !hasType(bias, {dirs, 2 * gh}, dtype))
    return binder.fail(rewriter, "B must be [" + Twine(dirs) + ", " +
                                     Twine(2 * gh) + "] of X's dtype");
  SmallVector<int64_t> stateSizes =
      attrs.batchFirst ? SmallVector<int64_t>{batch, dirs, hidden}
                       : SmallVector<int64_t>{dirs, batch, hidden};
  if ((initialH && !hasType(initialH, stateSizes, dtype)) ||
      (initialC && !hasType(initialC, stateSizes, dtype)))
    return binder.fail(rewriter, "initial_h and initial_c must be [" +
                                     Twine(stateSizes[0]) + ", " +
                                     Twine(stateSizes[1]) + ", " +
                                     Twine(stateSizes[2]) + "] of X's dtype");
  if (peepholes && !hasType(peepholes, {dirs, 3 * hidden}, dtype))
    return binder.fail(rewriter, "P must be [" + Twine(dirs) + ", " +
                                     Twine(3 * hidden) + "] of X's dtype");
  if (seqLens) {
    auto lensType = getKnownTensorType(seqLens);
    if (!lensType || lensType.getSizes() != ArrayRef<int64_t>{batch} ||
        !lensType.getDtype().isInteger())
      return binder.fail(rewriter, "sequence_lens must be an int tensor of [" +
                                       Twine(batch) + "]");
    // Constant full lengths need no masking.
    SmallVector<int64_t> lengths;
    if (succeeded(binder.getConstantInts(4, lengths)) &&
        llvm::all_of(lengths, [&](int64_t n) { return n == seqLength; }))
      seqLens = Value();
  }
  if (binder.getNumResults() > (isLstm ? 3u : 2u))
    return binder.fail(rewriter, "too many results");
  SmallVector<int64_t> ySizes =
      attrs.batchFirst ? SmallVector<int64_t>{batch, seqLength, dirs, hidden}
                       : SmallVector<int64_t>{seqLength, dirs, batch, hidden};
  for (unsigned i = 0, e = binder.getNumResults(); i < e; ++i) {
    auto resultType = binder.getAnyResultType(i);
    ArrayRef<int64_t> want = i == 0 ? ArrayRef<int64_t>(ySizes) : stateSizes;
    if (!resultType ||
        (resultType.hasDtype() && resultType.getDtype() != dtype))
      return binder.fail(rewriter, "result " + Twine(i) +
                                       " must be a tensor of X's dtype");
    if (resultType.hasSizes() &&
        (resultType.getSizes().size() != want.size() ||
         llvm::any_of(llvm::zip(resultType.getSizes(), want), [](auto pair) {
           auto [got, expected] = pair;
           return got != kUnknownSize && got != expected;
         })))
      return binder.fail(rewriter, "result " + Twine(i) +
                                       " has sizes that do not match the "
                                       "inputs");
  }

  Location loc = binder.getLoc();
  RecurrentBuilder b(rewriter, loc, dtype, attrs.clip);
  // Everything in the layout-0 order: X [S, B, I], states [D, B, H].
  if (attrs.batchFirst) {
    x = createPermute(rewriter, loc, x, {1, 0, 2});
    if (initialH)
      initialH = createPermute(rewriter, loc, initialH, {1, 0, 2});
    if (initialC)
      initialC = createPermute(rewriter, loc, initialC, {1, 0, 2});
  }
  // The masks of the steps with sequence_lens: [B, 1], true where t is
  // within the sequence of batch entry b.
  SmallVector<Value> masks(seqLength);
  auto stepMask = [&](int64_t t) {
    if (!masks[t])
      masks[t] =
          b.unsqueeze(AtenGtScalarOp::create(
                          rewriter, loc, b.type({batch}, rewriter.getI1Type()),
                          seqLens, b.constInt(t)),
                      1);
    return masks[t];
  };
  Value zero = createScalarLiteral(rewriter, loc, dtype, 0.0);
  size_t perDirection = attrs.activations.size() / dirs;
  // GRU with linear_before_reset adds Rbh inside r . (...): that bias stays
  // in the step; every other recurrence bias is folded into XW.
  bool foldRecurrentBias = !(kind == CellKind::Gru && attrs.linearBeforeReset);

  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < dirs; ++d) {
    bool reverse = attrs.reverseOnly || d == 1;
    DirectionState s;
    s.activations = ArrayRef<Activation>(attrs.activations)
                        .slice(d * perDirection, perDirection);
    s.xw = b.matmul(x, b.transpose(b.select(w, 0, d)));
    s.rT = b.transpose(b.select(r, 0, d));
    if (bias) {
      Value biasD = b.select(bias, 0, d);
      Value wb = b.slice(biasD, 0, 0, gh), rb = b.slice(biasD, 0, gh, 2 * gh);
      if (foldRecurrentBias)
        wb = b.add(wb, rb);
      else
        s.rb = rb;
      s.xw = b.add(s.xw, wb);
    }
    s.h = initialH ? b.select(initialH, 0, d)
                   : createZeros(rewriter, loc, {batch, hidden}, dtype);
    if (isLstm)
      s.c = initialC ? b.select(initialC, 0, d)
                     : createZeros(rewriter, loc, {batch, hidden}, dtype);
    if (peepholes) {
      Value p = b.select(peepholes, 0, d);
      s.pi = b.gate(p, 0, hidden);
      s.po = b.gate(p, 1, hidden);
      s.pf = b.gate(p, 2, hidden);
    }
    if (kind == CellKind::Gru && !attrs.linearBeforeReset) {
      s.rTzr = b.slice(s.rT, 1, 0, 2 * hidden);
      s.rTh = b.gate(s.rT, 2, hidden);
    }

    SmallVector<Value> outputs(seqLength);
    for (int64_t step = 0; step < seqLength; ++step) {
      int64_t t = reverse ? seqLength - 1 - step : step;
      Value newC;
      Value newH = buildCellStep(b, kind, attrs.linearBeforeReset, hidden, s,
                                 b.select(s.xw, 0, t), newC);
      if (seqLens) {
        Value valid = stepMask(t);
        outputs[t] = b.where(valid, newH, zero);
        s.h = b.where(valid, newH, s.h);
        if (isLstm)
          s.c = b.where(valid, newC, s.c);
      } else {
        outputs[t] = s.h = newH;
        s.c = newC;
      }
    }
    ys.push_back(b.stack(outputs, 0)); // [S, B, H]
    hs.push_back(s.h);
    cs.push_back(s.c);
  }

  Value y = b.stack(ys, 1);  // [S, D, B, H]
  Value yh = b.stack(hs, 0); // [D, B, H]
  Value yc = isLstm ? b.stack(cs, 0) : Value();
  if (attrs.batchFirst) {
    y = createPermute(rewriter, loc, y, {2, 0, 1, 3});
    yh = createPermute(rewriter, loc, yh, {1, 0, 2});
    if (yc)
      yc = createPermute(rewriter, loc, yc, {1, 0, 2});
  }
  SmallVector<Value> results{y, yh, yc};
  results.resize(binder.getNumResults());
  replaceOpWithCastResults(rewriter, binder.getOp(), results);
  return success();
}

} // namespace

void mlir::torch2mlir::onnx_c::populateOnnxRecurrentLowerings(
    OnnxLoweringSet &lowerings) {
  // Opset 14 adds `layout`, 22 more types; one lowering serves all three.
  lowerings.on("RNN", 7, lowerRecurrent<CellKind::Rnn>);
  lowerings.on("GRU", 7, lowerRecurrent<CellKind::Gru>);
  lowerings.on("LSTM", 7, lowerRecurrent<CellKind::Lstm>);
}
