//===- Random.cpp - rand, randn, randperm, native_dropout to linalg -------===//
//
// Part of the torch2mlir project.
//
// Random numbers are counter-based: the bits of element `i` of a random op's
// result are a pure function of a 64-bit key and `i`, so the elements can be
// computed in any order and in parallel. The function is the output function
// of SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number
// Generators", OOPSLA 2014) at the state key + (i + 1) * 0x9E3779B97F4A7C15.
// The key comes from `torch_c.random_key`, a new one per execution of the op
// (the RefBackend derives them from a seed drawn from PyTorch's default
// generator at each call, so `torch.manual_seed` makes runs reproducible).
// The numbers do not match eager PyTorch's (mt19937 on CPU): tests compare
// distributions, not values.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

Value constantI64(OpBuilder &b, Location loc, uint64_t value) {
  return arith::ConstantIntOp::create(b, loc, static_cast<int64_t>(value), 64);
}

/// 64 random bits for the counter `counter` (i64) under `key` (i64).
Value randomBits(OpBuilder &b, Location loc, Value key, Value counter) {
  auto xorShift = [&](Value x, uint64_t shift) {
    return arith::XOrIOp::create(
        b, loc, x,
        arith::ShRUIOp::create(b, loc, x, constantI64(b, loc, shift)));
  };
  Value next = arith::AddIOp::create(b, loc, counter, constantI64(b, loc, 1));
  Value x = arith::AddIOp::create(
      b, loc, key,
      arith::MulIOp::create(b, loc, next,
                            constantI64(b, loc, 0x9E3779B97F4A7C15ull)));
  x = arith::MulIOp::create(b, loc, xorShift(x, 30),
                            constantI64(b, loc, 0xBF58476D1CE4E5B9ull));
  x = arith::MulIOp::create(b, loc, xorShift(x, 27),
                            constantI64(b, loc, 0x94D049BB133111EBull));
  return xorShift(x, 31);
}

/// The type uniforms and normals of `element` are computed in: f64 for f64,
/// f32 for the narrower float types.
mlir::FloatType computeType(Type element) {
  Builder b(element.getContext());
  return element.isF64() ? b.getF64Type() : b.getF32Type();
}

/// A uniform number in [0, 1) of `type` (f32 or f64) from 64 random bits:
/// the top p bits (p: the type's precision, 24 or 53) times 2^-p, so every
/// value is exact and 1.0 is never reached. Narrowing the result to f16 or
/// bf16 may round up to 1.0; callers narrow uniformOf instead.
Value uniform(OpBuilder &b, Location loc, Value bits, mlir::FloatType type,
              unsigned precision) {
  Value top =
      arith::ShRUIOp::create(b, loc, bits, constantI64(b, loc, 64 - precision));
  Value value = arith::UIToFPOp::create(b, loc, type, top);
  return arith::MulFOp::create(
      b, loc, value,
      createFloatConstant(b, loc, type,
                          std::ldexp(1.0, -static_cast<int>(precision))));
}

/// A uniform number in [0, 1) of the float type `element` (any width).
Value uniformOf(OpBuilder &b, Location loc, Value bits, Type element) {
  auto floatType = cast<mlir::FloatType>(element);
  mlir::FloatType type = computeType(element);
  Value value = uniform(b, loc, bits, type, floatType.getFPMantissaWidth());
  if (type != element)
    value = arith::TruncFOp::create(b, loc, element, value); // exact
  return value;
}

/// The row-major linear index (i64) of the current element of a
/// linalg.generic over a tensor of `sizes` (index values).
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    linear = arith::MulIOp::create(b, loc, linear, size);
    linear = arith::AddIOp::create(b, loc, linear,
                                   linalg::IndexOp::create(b, loc, dim));
  }
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), linear);
}

/// The sizes (index values) of the tensor `value`.
SmallVector<Value> tensorSizes(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    sizes.push_back(tensor::DimOp::create(b, loc, value, dim));
  return sizes;
}

/// A tensor of `type` whose element at linear index i is `body(i)` (i64).
Value createFromIndex(
    OpBuilder &b, Location loc, RankedTensorType type, ValueRange dynamicSizes,
    ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> body) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), dynamicSizes);
  SmallVector<Value> sizes = tensorSizes(b, loc, empty);
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{empty}, maps,
             iterators,
             [&](OpBuilder &nested, Location l, ValueRange args) {
               Value index = linearIndex(nested, l, sizes);
               linalg::YieldOp::create(
                   nested, l, body(nested, l, index, args.drop_back()));
             })
      .getResult(0);
}

/// rand(size, dtype, ...) and randn(size, dtype, ...): each element from its
/// own counter. randn uses the Box-Muller transform of two uniforms (the
/// counters 2i and 2i+1): sqrt(-2 ln(1 - u1)) * cos(2 pi u2), in f32 (f64
/// for f64 results).
template <typename OpTy, bool Normal>
struct ConvertRandomFactory : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedResultType(rewriter, op, this->getTypeConverter());
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op,
                           "unsupported: a random factory of a non-float "
                           "dtype (PyTorch only defines floating ones)");
    FailureOr<SmallVector<Value>> dynamicSizes = getFactoryDynamicSizes(
        rewriter, op, this->getTypeConverter(), op.getSize(), resultType);
    if (failed(dynamicSizes))
      return failure();
    Location loc = op.getLoc();
    Value key =
        torch_c::RandomKeyOp::create(rewriter, loc, rewriter.getI64Type());
    Value result = createFromIndex(
        rewriter, loc, resultType, *dynamicSizes, ValueRange{},
        [&](OpBuilder &b, Location l, Value index, ValueRange) -> Value {
          if (!Normal)
            return uniformOf(b, l, randomBits(b, l, key, index), element);
          mlir::FloatType type = computeType(element);
          unsigned precision = type.getFPMantissaWidth();
          Value first =
              arith::ShLIOp::create(b, l, index, constantI64(b, l, 1));
          Value second =
              arith::AddIOp::create(b, l, first, constantI64(b, l, 1));
          Value u1 =
              uniform(b, l, randomBits(b, l, key, first), type, precision);
          Value u2 =
              uniform(b, l, randomBits(b, l, key, second), type, precision);
          Value one = createFloatConstant(b, l, type, 1.0);
          // 1 - u1 is in (0, 1]: the logarithm is finite.
          Value log =
              math::LogOp::create(b, l, arith::SubFOp::create(b, l, one, u1));
          Value radius = math::SqrtOp::create(
              b, l,
              arith::MulFOp::create(b, l, createFloatConstant(b, l, type, -2.0),
                                    log));
          Value angle = arith::MulFOp::create(
              b, l, createFloatConstant(b, l, type, 2 * llvm::numbers::pi), u2);
          Value normal = arith::MulFOp::create(
              b, l, radius, math::CosOp::create(b, l, angle));
          if (type != element)
            normal = arith::TruncFOp::create(b, l, element, normal);
          return normal;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// native_dropout(input, p, train) -> (output, mask), as PyTorch's CPU
/// kernel: when training (train true or None), mask = uniform < 1 - p and
/// output = input * mask * scale with scale = 1 / (1 - p) (0 when p = 1);
/// otherwise output = input and mask is all true.
struct ConvertAtenNativeDropout : OpConversionPattern<AtenNativeDropoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenNativeDropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto outputType =
        getConvertedTensorType(getTypeConverter(), op.getResult0());
    auto maskType = getConvertedTensorType(getTypeConverter(), op.getResult1());
    if (!outputType || !maskType)
      return reportFailure(rewriter, op, "results need a known rank and dtype");
    Type element = outputType.getElementType();
    if (!isa<mlir::FloatType>(element) ||
        !maskType.getElementType().isInteger(1))
      return reportFailure(rewriter, op,
                           "unsupported: dropout of a non-float input");
    Value input = adaptor.getInput();
    Value p = adaptor.getP();
    if (!isa<mlir::FloatType>(p.getType()))
      return reportFailure(rewriter, op, "p must be a float");
    Location loc = op.getLoc();
    // train: None means training, as in PyTorch.
    Value train;
    bool constantTrain;
    if (isa<torch::NoneType>(op.getTrain().getType()))
      train = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    else if (matchTorchConstantBool(op.getTrain(), constantTrain))
      train = arith::ConstantIntOp::create(rewriter, loc, constantTrain, 1);
    else if (adaptor.getTrain().getType().isInteger(1))
      train = adaptor.getTrain();
    else
      return reportFailure(rewriter, op, "train must be a bool or None");

    mlir::FloatType type = computeType(element);
    Value pCompute = convertScalar(rewriter, loc, p, rewriter.getF64Type());
    Value oneF64 =
        createFloatConstant(rewriter, loc, rewriter.getF64Type(), 1.0);
    Value zeroF64 =
        createFloatConstant(rewriter, loc, rewriter.getF64Type(), 0.0);
    Value keepProbability =
        arith::SubFOp::create(rewriter, loc, oneF64, pCompute);
    Value noneKept = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OEQ, keepProbability, zeroF64);
    Value scale = arith::SelectOp::create(
        rewriter, loc, noneKept, zeroF64,
        arith::DivFOp::create(rewriter, loc, oneF64, keepProbability));
    scale = arith::SelectOp::create(rewriter, loc, train, scale, oneF64);
    scale = convertScalar(rewriter, loc, scale, element);
    Value threshold = convertScalar(rewriter, loc, keepProbability, type);
    Value key =
        torch_c::RandomKeyOp::create(rewriter, loc, rewriter.getI64Type());

    SmallVector<Value> sizes = tensorSizes(rewriter, loc, input);
    SmallVector<Value> dynamicSizes;
    for (int64_t dim = 0; dim < outputType.getRank(); ++dim)
      if (outputType.isDynamicDim(dim))
        dynamicSizes.push_back(sizes[dim]);
    int64_t rank = outputType.getRank();
    Value outputInit = tensor::EmptyOp::create(
        rewriter, loc, outputType.getShape(), element, dynamicSizes);
    Value maskInit =
        tensor::EmptyOp::create(rewriter, loc, maskType.getShape(),
                                maskType.getElementType(), dynamicSizes);
    SmallVector<AffineMap> maps(3, rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{outputType, maskType}, ValueRange{input},
        ValueRange{outputInit, maskInit}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value index = linearIndex(b, l, sizes);
          Value u = uniform(b, l, randomBits(b, l, key, index), type,
                            type.getFPMantissaWidth());
          Value drawn = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT,
                                              u, threshold);
          Value notTraining = arith::XOrIOp::create(
              b, l, train, arith::ConstantIntOp::create(b, l, 1, 1));
          Value keep = arith::OrIOp::create(b, l, drawn, notTraining);
          Value keepValue = arith::UIToFPOp::create(b, l, element, keep);
          Value output = arith::MulFOp::create(
              b, l, arith::MulFOp::create(b, l, args[0], keepValue), scale);
          linalg::YieldOp::create(b, l, ValueRange{output, keep});
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// randperm(n, dtype, ...): 0..n-1 in the result dtype, shuffled in place by
/// Fisher-Yates (for i = n-1 down to 1: swap elements i and j, j uniform in
/// [0, i], from the counter i); a sequential scf.for.
struct ConvertAtenRandperm : OpConversionPattern<AtenRandpermOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenRandpermOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || resultType.getRank() != 1)
      return reportFailure(rewriter, op, "result must be a 1-d tensor");
    Type element = resultType.getElementType();
    if (element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: a bool permutation");
    Value n = adaptor.getN();
    if (!n.getType().isInteger(64))
      return reportFailure(rewriter, op, "n must be an int");
    Location loc = op.getLoc();
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0))
      dynamicSizes.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), n));
    Value identity =
        createFromIndex(rewriter, loc, resultType, dynamicSizes, ValueRange{},
                        [&](OpBuilder &b, Location l, Value index, ValueRange) {
                          return convertScalar(b, l, index, element);
                        });
    Value key =
        torch_c::RandomKeyOp::create(rewriter, loc, rewriter.getI64Type());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value length = tensor::DimOp::create(rewriter, loc, identity, 0);
    Value last = arith::SubIOp::create(rewriter, loc, length, one);
    // k = 0 .. n-2 visits i = n-1-k = n-1 .. 1 (no iteration when n <= 1).
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, arith::MaxSIOp::create(rewriter, loc, last, zero),
        one, ValueRange{identity},
        [&](OpBuilder &b, Location l, Value k, ValueRange iterArgs) {
          Value perm = iterArgs[0];
          Value i = arith::SubIOp::create(b, l, last, k);
          Value i64 = arith::IndexCastOp::create(b, l, b.getI64Type(), i);
          Value bound = arith::AddIOp::create(b, l, i64, constantI64(b, l, 1));
          Value j64 =
              arith::RemUIOp::create(b, l, randomBits(b, l, key, i64), bound);
          Value j = arith::IndexCastOp::create(b, l, b.getIndexType(), j64);
          Value atI = tensor::ExtractOp::create(b, l, perm, ValueRange{i});
          Value atJ = tensor::ExtractOp::create(b, l, perm, ValueRange{j});
          perm = tensor::InsertOp::create(b, l, atJ, perm, ValueRange{i});
          perm = tensor::InsertOp::create(b, l, atI, perm, ValueRange{j});
          scf::YieldOp::create(b, l, perm);
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateRandomPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenRandOp, AtenRandnOp, AtenRandpermOp,
                    AtenNativeDropoutOp>(target);
  patterns.add<ConvertRandomFactory<AtenRandOp, /*Normal=*/false>,
               ConvertRandomFactory<AtenRandnOp, /*Normal=*/true>,
               ConvertAtenRandperm, ConvertAtenNativeDropout>(typeConverter,
                                                              context);
}
