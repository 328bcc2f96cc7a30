//===- NarrowIntegers.cpp - The torch-narrow-si64 pass --------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//
//
// TOSA 1.0 has no 64-bit integers, and PyTorch makes every integer tensor
// si64: token ids, positions, `arange`, gather indices. This pass rewrites
// a si64 tensor to si32 where its values provably fit, and leaves it (for
// the backend to refuse, naming it) where they may not.
//
// The proof is a forward interval analysis over the function, with the
// arithmetic of upstream's integer range inference (ConstantIntRanges,
// int64 wraparound: a sum that may wrap has the full range):
//   - literals, constant `full`/`arange`: their values;
//   - ops that only move elements (views, permutations, slices, expand,
//     cat, gathers...): their input's range;
//   - add, sub, mul, pow by a constant, neg, abs, min/max, clamp, hardtanh,
//   fmod and
//     remainder by a constant, where, cumsum, sum: the interval arithmetic
//     of their formula;
//   - argmax/argmin: [0, size - 1]; casts from narrower integers and bool:
//     the source dtype's range.
// A function argument has the range its index uses require (an
// `embedding`, `gather` or `index_select` reading it, through element
// moving ops, needs it in [0, size - 1], as does a scatter's; an index of
// `index.Tensor` in
// [-size, size - 1]), within si32. The caller cannot
// be trusted for that, so the argument carries the range as
// `torch2mlir.value_range = array<i64: lo, hi>` and the runtime checks
// every call's values against it (torch2mlir.program.TensorSpec.value_range).
// A si8/si16/si32 argument read as indices gets the attribute too (its
// type stays).
//
// Index operands whose range lies within the size they index get the unit
// attribute `torch2mlir.indices_in_bounds`: a backend without run-time
// checks (TOSA) lowers the gather only then.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"

#include "mlir/Interfaces/Utils/InferIntRangeCommon.h"

#include <cmath>
#include <limits>

namespace mlir::torch2mlir::torch {
#define GEN_PASS_DEF_NARROWSI64
#include "torch2mlir/Dialect/Torch/Transforms/Passes.h.inc"
} // namespace mlir::torch2mlir::torch

using namespace mlir;
using namespace mlir::torch2mlir::torch;

namespace {

using Range = ConstantIntRanges;

Range signedRange(int64_t lo, int64_t hi) {
  return Range::fromSigned(APInt(64, lo, /*isSigned=*/true),
                           APInt(64, hi, /*isSigned=*/true));
}

Range constantRange(int64_t value) { return signedRange(value, value); }

Range int32Range() {
  return signedRange(std::numeric_limits<int32_t>::min(),
                     std::numeric_limits<int32_t>::max());
}

bool fitsInt32(const Range &range) {
  return range.smin().sge(std::numeric_limits<int32_t>::min()) &&
         range.smax().sle(std::numeric_limits<int32_t>::max());
}

/// `type` if it is a value tensor of known sizes whose dtype is the
/// integer of `width` bits and `signedness`, else null.
ValueTensorType getIntegerTensor(Type type, unsigned width,
                                 IntegerType::SignednessSemantics signedness) {
  auto tensor = dyn_cast<ValueTensorType>(type);
  if (!tensor || !tensor.hasSizes() || !tensor.hasDtype())
    return {};
  auto integer = dyn_cast<IntegerType>(tensor.getDtype());
  if (!integer || integer.getSignedness() != signedness ||
      integer.getWidth() != width)
    return {};
  return tensor;
}

ValueTensorType getSi64Tensor(Type type) {
  return getIntegerTensor(type, 64, IntegerType::Signed);
}

ValueTensorType getUi8Tensor(Type type) {
  return getIntegerTensor(type, 8, IntegerType::Unsigned);
}

bool fitsUint8(const Range &range) {
  return range.smin().sge(0) && range.smax().sle(255);
}

/// The static size of dim `dim` of tensor `value`, if known.
std::optional<int64_t> getStaticSize(Value value, int64_t dim) {
  auto tensor = dyn_cast<BaseTensorType>(value.getType());
  if (!tensor || !tensor.hasSizes())
    return std::nullopt;
  ArrayRef<int64_t> sizes = tensor.getSizes();
  // A 0-d tensor indexes as one of size 1 along dim 0 (or -1).
  if (sizes.empty())
    return dim == 0 || dim == -1 ? std::optional<int64_t>(1) : std::nullopt;
  dim = toPositiveDim(dim, static_cast<int64_t>(sizes.size()));
  if (dim < 0 || dim >= static_cast<int64_t>(sizes.size()) ||
      sizes[dim] == kUnknownSize)
    return std::nullopt;
  return sizes[dim];
}

/// The number of elements of `value`, if its sizes are static.
std::optional<int64_t> getNumElements(Value value) {
  auto tensor = dyn_cast<BaseTensorType>(value.getType());
  if (!tensor || !tensor.hasSizes() || !tensor.areAllSizesKnown())
    return std::nullopt;
  int64_t count = 1;
  for (int64_t size : tensor.getSizes())
    count *= size;
  return count;
}

/// Ops whose result elements are some of their operand 0's elements (the
/// gathers' too: their operand 0 is what they read from).
bool movesElements(Operation *op) {
  return isa<AtenViewOp, Aten_UnsafeViewOp, AtenReshapeOp, AtenUnsqueezeOp,
             AtenSqueezeOp, AtenSqueezeDimOp, AtenSqueezeDimsOp,
             AtenFlattenUsingIntsOp, AtenPermuteOp, AtenTransposeIntOp, AtenTOp,
             AtenSliceTensorOp, AtenSelectIntOp, AtenExpandOp, AtenCloneOp,
             AtenContiguousOp, AtenDetachOp, AtenAliasOp, AtenRepeatOp,
             AtenEmbeddingOp, AtenGatherOp, AtenIndexSelectOp,
             AtenIndexTensorOp>(op);
}

/// The values index operand `operand` of `op` must take to be in bounds,
/// if `op` reads it as indices: [0, size - 1] of the dim it indexes, and
/// for an element of index.Tensor's list of indices (`op` is the list)
/// [-size, size - 1] (negative indices count from the end).
std::optional<std::pair<int64_t, int64_t>> getIndexBounds(Operation *op,
                                                          unsigned operand) {
  std::optional<int64_t> size;
  int64_t dim;
  if (auto embedding = dyn_cast<AtenEmbeddingOp>(op)) {
    if (operand == 1)
      size = getStaticSize(embedding.getWeight(), 0);
  } else if (auto gather = dyn_cast<AtenGatherOp>(op)) {
    if (operand == 2 && matchTorchConstantInt(gather.getDim(), dim))
      size = getStaticSize(gather.getSelf(), dim);
  } else if (auto select = dyn_cast<AtenIndexSelectOp>(op)) {
    if (operand == 2 && matchTorchConstantInt(select.getDim(), dim))
      size = getStaticSize(select.getSelf(), dim);
  } else if (isa<AtenScatterSrcOp, AtenScatterAddOp, AtenScatterReduceTwoOp>(
                 op)) {
    // scatter(self, dim, index, src...).
    if (operand == 2 && matchTorchConstantInt(op->getOperand(1), dim))
      size = getStaticSize(op->getOperand(0), dim);
  } else if (auto list = dyn_cast<PrimListConstructOp>(op)) {
    for (Operation *user : list->getUsers()) {
      auto index = dyn_cast<AtenIndexTensorOp>(user);
      std::optional<int64_t> indexed =
          index && index.getIndices() == list.getResult()
              ? getStaticSize(index.getSelf(), operand)
              : std::nullopt;
      if (!indexed || *indexed <= 0 || (size && *size != *indexed))
        return std::nullopt;
      size = indexed;
    }
    if (!size)
      return std::nullopt;
    return std::make_pair(-*size, *size - 1);
  }
  if (!size || *size <= 0)
    return std::nullopt;
  return std::make_pair(int64_t{0}, *size - 1);
}

/// The ranges of the si64 tensors and `!torch.int` values of one function.
class RangeAnalysis {
public:
  /// The range of `value`'s elements: what the analysis found, a constant
  /// int's value, an integer or bool tensor's dtype range, else the full
  /// int64 range.
  Range get(Value value) const {
    if (auto found = ranges.find(value); found != ranges.end())
      return found->second;
    int64_t constant;
    if (matchTorchConstantInt(value, constant))
      return constantRange(constant);
    bool flag;
    if (matchTorchConstantBool(value, flag))
      return constantRange(flag);
    if (auto tensor = dyn_cast<ValueTensorType>(value.getType());
        tensor && tensor.hasDtype()) {
      auto integer = dyn_cast<IntegerType>(tensor.getDtype());
      if (integer && integer.getWidth() == 1)
        return signedRange(0, 1);
      if (integer && integer.getWidth() < 64) {
        unsigned width = integer.getWidth();
        if (integer.isUnsigned())
          return signedRange(0, APInt::getMaxValue(width).getZExtValue());
        return signedRange(APInt::getSignedMinValue(width).getSExtValue(),
                           APInt::getSignedMaxValue(width).getSExtValue());
      }
    }
    return Range::maxRange(64);
  }

  /// Whether the analysis knows a range for `value` (its op is one it
  /// understands), which narrowing requires.
  bool knows(Value value) const { return ranges.contains(value); }

  void set(Value value, Range range) { ranges.try_emplace(value, range); }

  /// Records the ranges of `op`'s si64 tensor results it understands.
  void visit(Operation *op);

private:
  std::optional<Range> infer(Operation *op);
  /// `range` (of a bitwise and/or/xor) within the narrowest signed width
  /// that holds both operands: bitwise ops of sign-extended values stay
  /// sign-extended (upstream's transfer is loose for negative ranges).
  Range withinOperandBits(Operation *op, Range range) {
    unsigned bits = 1;
    for (Value operand : op->getOperands().take_front(2)) {
      Range own = get(operand);
      bits = std::max({bits, own.smin().getSignificantBits(),
                       own.smax().getSignificantBits()});
    }
    if (bits >= 64)
      return range;
    return range.intersection(
        signedRange(APInt::getSignedMinValue(bits).getSExtValue(),
                    APInt::getSignedMaxValue(bits).getSExtValue()));
  }
  DenseMap<Value, Range> ranges;
};

std::optional<Range> RangeAnalysis::infer(Operation *op) {
  using namespace intrange;
  Value result = op->getResult(0);
  if (auto literal = dyn_cast<ValueTensorLiteralOp>(op)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(literal.getValue());
    if (!dense || dense.empty())
      return std::nullopt;
    // Elements of any width, as 64-bit values of the signedness of the
    // result's dtype (the attribute's integers are signless).
    bool isUnsigned = static_cast<bool>(getUi8Tensor(result.getType()));
    auto widen = [&](const APInt &value) {
      return isUnsigned ? value.zext(64) : value.sext(64);
    };
    APInt lo = widen(*dense.value_begin<APInt>()), hi = lo;
    for (APInt element : dense.getValues<APInt>()) {
      APInt value = widen(element);
      if (value.slt(lo))
        lo = value;
      if (value.sgt(hi))
        hi = value;
    }
    return Range::fromSigned(lo, hi);
  }
  if (movesElements(op))
    return get(op->getOperand(0));
  if (auto cat = dyn_cast<AtenCatOp>(op)) {
    auto list = cat.getTensors().getDefiningOp<PrimListConstructOp>();
    if (!list || list.getElements().empty())
      return std::nullopt;
    Range range = get(list.getElements().front());
    for (Value element : list.getElements())
      range = range.rangeUnion(get(element));
    return range;
  }
  if (auto arange = dyn_cast<AtenArangeStartStepOp>(op)) {
    int64_t start, step;
    std::optional<int64_t> count = getNumElements(result);
    if (!matchTorchConstantInt(arange.getStart(), start) ||
        !matchTorchConstantInt(arange.getStep(), step) || !count || *count == 0)
      return std::nullopt;
    Range last =
        inferAdd({constantRange(start),
                  inferMul({constantRange(step), constantRange(*count - 1)})});
    return constantRange(start).rangeUnion(last);
  }
  if (isa<AtenFullOp, AtenFullLikeOp>(op)) {
    int64_t fill;
    if (!matchTorchConstantInt(op->getOperand(1), fill))
      return std::nullopt;
    return constantRange(fill);
  }
  if (auto scalar = dyn_cast<AtenScalarTensorOp>(op))
    return get(scalar.getS());
  if (isa<AtenAddTensorOp, AtenAddScalarOp>(op))
    return inferAdd(
        {get(op->getOperand(0)),
         inferMul({get(op->getOperand(1)), get(op->getOperand(2))})});
  if (isa<AtenSubTensorOp, AtenSubScalarOp>(op))
    return inferSub(
        {get(op->getOperand(0)),
         inferMul({get(op->getOperand(1)), get(op->getOperand(2))})});
  if (isa<AtenMulTensorOp, AtenMulScalarOp>(op))
    return inferMul({get(op->getOperand(0)), get(op->getOperand(1))});
  if (auto pow = dyn_cast<AtenPowTensorScalarOp>(op)) {
    // x^e for a constant e in [0, 64]: the interval product, e times.
    int64_t exponent;
    if (!matchTorchConstantInt(pow.getExponent(), exponent) || exponent < 0 ||
        exponent > 64)
      return std::nullopt;
    Range base = get(pow.getSelf()), range = constantRange(1);
    for (int64_t i = 0; i < exponent; ++i) {
      range = inferMul({range, base});
      if (!fitsInt32(range))
        return Range::maxRange(64);
    }
    return range;
  }
  if (isa<AtenNegOp>(op))
    return inferSub({constantRange(0), get(op->getOperand(0))});
  if (isa<AtenAbsOp>(op)) {
    Range self = get(op->getOperand(0));
    return inferMaxS({self, inferSub({constantRange(0), self})});
  }
  if (isa<AtenReluOp>(op))
    return inferMaxS({get(op->getOperand(0)), constantRange(0)});
  if (isa<AtenSignOp>(op))
    return signedRange(-1, 1);
  // Rounding an integer keeps it.
  if (isa<AtenFloorOp, AtenCeilOp, AtenRoundOp, AtenTruncOp>(op))
    return get(op->getOperand(0));
  if (auto pad = dyn_cast<AtenConstantPadNdOp>(op))
    return get(pad.getSelf()).rangeUnion(get(pad.getValue()));
  if (isa<AtenBitwiseAndTensorOp, AtenBitwiseAndScalarOp>(op))
    return withinOperandBits(
        op, inferAnd({get(op->getOperand(0)), get(op->getOperand(1))}));
  if (isa<AtenBitwiseOrTensorOp, AtenBitwiseOrScalarOp>(op))
    return withinOperandBits(
        op, inferOr({get(op->getOperand(0)), get(op->getOperand(1))}));
  if (isa<AtenBitwiseXorTensorOp, AtenBitwiseXorScalarOp>(op))
    return withinOperandBits(
        op, inferXor({get(op->getOperand(0)), get(op->getOperand(1))}));
  if (isa<AtenMaximumOp>(op))
    return inferMaxS({get(op->getOperand(0)), get(op->getOperand(1))});
  if (isa<AtenMinimumOp>(op))
    return inferMinS({get(op->getOperand(0)), get(op->getOperand(1))});
  if (auto clamp = dyn_cast<AtenClampOp>(op)) {
    Range range = get(clamp.getSelf());
    if (!isTorchNone(clamp.getMin()))
      range = inferMaxS({range, get(clamp.getMin())});
    if (!isTorchNone(clamp.getMax()))
      range = inferMinS({range, get(clamp.getMax())});
    return range;
  }
  if (auto hardtanh = dyn_cast<AtenHardtanhOp>(op)) {
    double low, high;
    if (!matchTorchConstantFloat(hardtanh.getMinVal(), low) ||
        !matchTorchConstantFloat(hardtanh.getMaxVal(), high) ||
        !(std::abs(low) < 0x1p62 && std::abs(high) < 0x1p62))
      return std::nullopt;
    // min(max(x, low), high), the bounds truncated as PyTorch's integer
    // kernel converts them.
    Range range =
        inferMaxS({get(hardtanh.getSelf()),
                   constantRange(static_cast<int64_t>(std::trunc(low)))});
    return inferMinS(
        {range, constantRange(static_cast<int64_t>(std::trunc(high)))});
  }
  if (auto div = dyn_cast<AtenDivTensorModeOp>(op)) {
    // Integer division (the result is si64 only for integer operands) by
    // a divisor that cannot be zero.
    auto mode = div.getRoundingMode().getDefiningOp<ConstantStrOp>();
    Range divisor = get(div.getOther());
    if (!mode ||
        (divisor.smin().isNonPositive() && divisor.smax().isNonNegative()))
      return std::nullopt;
    if (mode.getValue() == "trunc")
      return inferDivS({get(div.getSelf()), divisor});
    if (mode.getValue() == "floor")
      return inferFloorDivS({get(div.getSelf()), divisor});
    return std::nullopt;
  }
  if (auto fmod = dyn_cast<AtenFmodScalarOp>(op)) {
    // C's fmod: |result| < |divisor|, with the dividend's sign.
    int64_t divisor;
    if (!matchTorchConstantInt(fmod.getOther(), divisor) || divisor == 0 ||
        divisor == std::numeric_limits<int64_t>::min())
      return std::nullopt;
    int64_t bound = std::abs(divisor) - 1;
    return signedRange(-bound, bound);
  }
  if (auto where = dyn_cast<AtenWhereSelfOp>(op))
    return get(where.getSelf()).rangeUnion(get(where.getOther()));
  if (auto remainder = dyn_cast<AtenRemainderScalarOp>(op)) {
    // PyTorch's remainder takes the divisor's sign.
    int64_t divisor;
    if (!matchTorchConstantInt(remainder.getOther(), divisor) || divisor == 0)
      return std::nullopt;
    return divisor > 0 ? signedRange(0, divisor - 1)
                       : signedRange(divisor + 1, 0);
  }
  if (isa<Aten_ToCopyOp, AtenToDtypeOp>(op)) {
    // Widening an integer or bool tensor keeps its values; a float source
    // can hold anything.
    auto source = dyn_cast<ValueTensorType>(op->getOperand(0).getType());
    if (!source || !source.hasDtype() || !isa<IntegerType>(source.getDtype()))
      return std::nullopt;
    return get(op->getOperand(0));
  }
  if (auto cumsum = dyn_cast<AtenCumsumOp>(op)) {
    // A prefix of k elements sums into [k * lo, k * hi], k in [1, size].
    int64_t dim;
    std::optional<int64_t> size;
    if (matchTorchConstantInt(cumsum.getDim(), dim))
      size = getStaticSize(cumsum.getSelf(), dim);
    if (!size || *size == 0)
      return std::nullopt;
    return inferMul({get(cumsum.getSelf()), signedRange(1, *size)});
  }
  if (isa<AtenSumDimIntListOp, AtenSumOp>(op)) {
    std::optional<int64_t> in = getNumElements(op->getOperand(0));
    std::optional<int64_t> out = getNumElements(result);
    if (!in || !out || *out == 0)
      return std::nullopt;
    return inferMul({get(op->getOperand(0)), constantRange(*in / *out)});
  }
  if (isa<AtenAmaxOp, AtenAminOp>(op))
    return get(op->getOperand(0));
  if (isa<AtenProdDimIntOp>(op)) {
    // A product of n factors in [lo, hi]: the interval product, n times
    // (empty products are 1).
    std::optional<int64_t> in = getNumElements(op->getOperand(0));
    std::optional<int64_t> out = getNumElements(result);
    if (!in || !out || *out == 0)
      return std::nullopt;
    Range factor = get(op->getOperand(0));
    Range range = constantRange(1);
    for (int64_t i = 0, n = *in / *out; i < n; ++i) {
      Range next = inferMul({range, factor});
      if (next == range)
        break;
      range = next;
      if (!fitsInt32(range))
        return Range::maxRange(64);
    }
    return range;
  }
  if (isa<AtenArgmaxOp, AtenArgminOp>(op)) {
    int64_t dim;
    std::optional<int64_t> size = matchTorchConstantInt(op->getOperand(1), dim)
                                      ? getStaticSize(op->getOperand(0), dim)
                                      : getNumElements(op->getOperand(0));
    if (!size || *size == 0)
      return std::nullopt;
    return signedRange(0, *size - 1);
  }
  return std::nullopt;
}

void RangeAnalysis::visit(Operation *op) {
  if (op->getNumResults() != 1)
    return;
  Type type = op->getResult(0).getType();
  if (!getSi64Tensor(type) && !getUi8Tensor(type))
    return;
  if (std::optional<Range> range = infer(op))
    set(op->getResult(0), *range);
}

/// The range the index uses of argument `value` require of it (see the
/// file comment), within si32.
Range getRequiredRange(Value value) {
  int64_t lo = std::numeric_limits<int32_t>::min();
  int64_t hi = std::numeric_limits<int32_t>::max();
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    for (OpOperand &use : current.getUses()) {
      Operation *user = use.getOwner();
      if (movesElements(user) && use.getOperandNumber() == 0) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (auto bounds = getIndexBounds(user, use.getOperandNumber())) {
        lo = std::max(lo, bounds->first);
        hi = std::min(hi, bounds->second);
      }
    }
  }
  // Index uses that disagree leave no valid value: every call fails in
  // eager PyTorch too; keep the si32 range and let the op report.
  if (lo > hi)
    return int32Range();
  return signedRange(lo, hi);
}

/// Whether some user of `value` reads its bits, not its values.
bool hasBitLevelUser(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    return isa<AtenViewDtypeOp>(user);
  });
}

/// The ranges of `body`'s values when its si64 arguments hold `required`
/// (what their index uses need), within `bits`-bit signed integers.
RangeAnalysis analyze(Block &body, const DenseMap<Value, Range> &required,
                      unsigned bits) {
  RangeAnalysis ranges;
  Range bound = signedRange(APInt::getSignedMinValue(bits).getSExtValue(),
                            APInt::getSignedMaxValue(bits).getSExtValue());
  for (auto [argument, range] : required)
    ranges.set(argument, range.intersection(bound));
  for (Operation &op : body)
    ranges.visit(&op);
  return ranges;
}

/// How many si64 results `ranges` bounds outside si32.
unsigned countUnfit(Block &body, const RangeAnalysis &ranges) {
  unsigned count = 0;
  for (Operation &op : body)
    for (Value result : op.getResults())
      if (getSi64Tensor(result.getType()) && ranges.knows(result) &&
          !fitsInt32(ranges.get(result)))
        ++count;
  return count;
}

void narrowFunction(func::FuncOp func) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return;
  Block &body = func.getBody().front();
  MLIRContext *context = func.getContext();
  DenseMap<Value, Range> required;
  for (BlockArgument argument : body.getArguments())
    if (getSi64Tensor(argument.getType()))
      required.try_emplace(argument, getRequiredRange(argument));
  // The si64 arguments' range: what their index uses require, within
  // [-2^(bits-1), 2^(bits-1) - 1] for the widest `bits` (32 down to 8)
  // that leaves the fewest si64 values the analysis bounds outside si32:
  // x + y of two arguments fits for 31 bits, x * y for 16, x^3 for 11, a
  // product of four for 8. A narrower
  // assumption is checked at each call like the index ranges. Without si64
  // arguments, `bits` changes nothing: one analysis.
  RangeAnalysis ranges = analyze(body, required, 32);
  unsigned fewest = required.empty() ? 0 : countUnfit(body, ranges);
  for (unsigned bits = 31; bits >= 8 && fewest; --bits) {
    RangeAnalysis narrower = analyze(body, required, bits);
    unsigned count = countUnfit(body, narrower);
    if (count < fewest) {
      fewest = count;
      ranges = std::move(narrower);
    }
  }
  for (BlockArgument argument : body.getArguments()) {
    if (getSi64Tensor(argument.getType()))
      continue;
    // A narrower integer argument keeps its type; its index uses still
    // need a checked range (TOSA reads out of bounds otherwise).
    auto tensor = dyn_cast<ValueTensorType>(argument.getType());
    auto integer = tensor && tensor.hasDtype()
                       ? dyn_cast<IntegerType>(tensor.getDtype())
                       : IntegerType();
    if (!integer || integer.getWidth() == 1)
      continue;
    Range own = ranges.get(argument);
    Range required = getRequiredRange(argument).intersection(own);
    if (required.smin() != own.smin() || required.smax() != own.smax()) {
      ranges.set(argument, required);
      func.setArgAttr(
          argument.getArgNumber(), "torch2mlir.value_range",
          DenseI64ArrayAttr::get(context, {required.smin().getSExtValue(),
                                           required.smax().getSExtValue()}));
    }
  }

  // Index operands provably in bounds.
  for (Operation &op : body) {
    if (auto index = dyn_cast<AtenIndexTensorOp>(op)) {
      // Every tensor of its list of indices.
      auto list = index.getIndices().getDefiningOp<PrimListConstructOp>();
      bool inBounds = list && llvm::any_of(list.getElements(), [](Value v) {
                        return isa<BaseTensorType>(v.getType());
                      });
      for (OpOperand &element :
           list ? list->getOpOperands() : MutableArrayRef<OpOperand>()) {
        if (!isa<BaseTensorType>(element.get().getType()))
          continue;
        auto bounds = getIndexBounds(list, element.getOperandNumber());
        Range range = ranges.get(element.get());
        inBounds &= bounds && range.smin().sge(bounds->first) &&
                    range.smax().sle(bounds->second);
      }
      if (inBounds)
        op.setAttr("torch2mlir.indices_in_bounds", UnitAttr::get(context));
      continue;
    }
    for (OpOperand &operand : op.getOpOperands()) {
      auto bounds = getIndexBounds(&op, operand.getOperandNumber());
      if (!bounds)
        continue;
      Range range = ranges.get(operand.get());
      if (range.smin().sge(bounds->first) && range.smax().sle(bounds->second))
        op.setAttr("torch2mlir.indices_in_bounds", UnitAttr::get(context));
    }
  }

  // Retypes the arguments and single results that `retypable` accepts to
  // the signed integer of `width` bits (literals converted with `convert`);
  // the arguments carry their range as torch2mlir.value_range, which the
  // runtime checks and converts each call's tensors by.
  auto retype = [&](function_ref<bool(Value)> retypable, unsigned width,
                    function_ref<APInt(const APInt &)> convert) {
    auto retyped = [&](Type type) {
      auto tensor = cast<ValueTensorType>(type);
      return tensor.getWithSizesAndDtype(
          tensor.getOptionalSizes(),
          IntegerType::get(context, width, IntegerType::Signed));
    };
    for (BlockArgument argument : body.getArguments()) {
      if (!retypable(argument))
        continue;
      Range range = ranges.get(argument);
      argument.setType(retyped(argument.getType()));
      func.setArgAttr(
          argument.getArgNumber(), "torch2mlir.value_range",
          DenseI64ArrayAttr::get(context, {range.smin().getSExtValue(),
                                           range.smax().getSExtValue()}));
    }
    for (Operation &op : body) {
      if (op.getNumResults() != 1 || !retypable(op.getResult(0)))
        continue;
      if (auto literal = dyn_cast<ValueTensorLiteralOp>(op)) {
        auto dense = cast<DenseIntElementsAttr>(literal.getValue());
        literal.setValueAttr(
            dense.mapValues(IntegerType::get(context, width), convert));
      }
      op.getResult(0).setType(retyped(op.getResult(0).getType()));
    }
  };
  // si64 tensors whose values provably fit in si32.
  retype(
      [&](Value value) {
        return getSi64Tensor(value.getType()) && ranges.knows(value) &&
               fitsInt32(ranges.get(value)) && !hasBitLevelUser(value);
      },
      32, [](const APInt &value) { return value.trunc(32); });
  // ui8 tensors whose values provably stay in [0, 255] (no op wrapped
  // them modulo 256) hold the same integers as si16 ones: every PyTorch op
  // but a bit reinterpretation (`view.dtype`) depends on the values only.
  // A ui8 argument's range is its dtype's unless index uses narrow it.
  retype(
      [&](Value value) {
        return getUi8Tensor(value.getType()) &&
               (isa<BlockArgument>(value) || ranges.knows(value)) &&
               fitsUint8(ranges.get(value)) && !hasBitLevelUser(value);
      },
      16, [](const APInt &value) { return value.zext(16); });

  auto terminator = body.getTerminator();
  func.setType(FunctionType::get(context, body.getArgumentTypes(),
                                 terminator->getOperandTypes()));
}

struct NarrowSi64Pass
    : public ::mlir::torch2mlir::torch::impl::NarrowSi64Base<NarrowSi64Pass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      narrowFunction(func);
  }
};

} // namespace
