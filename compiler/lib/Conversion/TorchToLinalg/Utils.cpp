//===- Utils.cpp - Helpers shared by the TorchToLinalg patterns -----------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"

#include <variant>

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch_to_linalg;

RankedTensorType
torch_to_linalg::getConvertedTensorType(const TypeConverter *converter,
                                        Value torchValue) {
  return dyn_cast_or_null<RankedTensorType>(
      converter->convertType(torchValue.getType()));
}

Type torch_to_linalg::getTorchDtype(Value torchValue) {
  auto type = dyn_cast<torch::BaseTensorType>(torchValue.getType());
  return type ? type.getOptionalDtype() : Type();
}

bool torch_to_linalg::isUnsignedOrBool(Type torchDtype) {
  return torchDtype &&
         (torchDtype.isUnsignedInteger() || torchDtype.isInteger(1));
}

Type torch_to_linalg::getTorchOperandDtype(Value torchValue) {
  Type type = torchValue.getType();
  MLIRContext *context = type.getContext();
  if (isa<torch::IntType>(type))
    return IntegerType::get(context, 64, IntegerType::Signed);
  if (isa<torch::FloatType>(type))
    return Float64Type::get(context);
  if (isa<torch::BoolType>(type))
    return IntegerType::get(context, 1);
  return getTorchDtype(torchValue);
}

Type torch_to_linalg::getBuiltinElementType(Type torchDtype) {
  if (auto integer = dyn_cast<IntegerType>(torchDtype))
    return IntegerType::get(torchDtype.getContext(), integer.getWidth());
  return torchDtype;
}

/// PyTorch's promoteTypes on two dtypes (null: the other one); null when
/// the pair has no promotion here (complex).
static Type promoteTwo(Type a, Type b) {
  if (!a || a == b)
    return b;
  if (!b)
    return a;
  if (a.isInteger(1))
    return b;
  if (b.isInteger(1))
    return a;
  auto floatA = dyn_cast<mlir::FloatType>(a);
  auto floatB = dyn_cast<mlir::FloatType>(b);
  if (floatA && floatB) {
    if (floatA.getWidth() == floatB.getWidth()) // f16 and bf16.
      return Float32Type::get(a.getContext());
    return floatA.getWidth() > floatB.getWidth() ? a : b;
  }
  if (floatA || floatB) {
    if (!isa<IntegerType>(floatA ? b : a))
      return Type();
    return floatA ? a : b;
  }
  auto intA = dyn_cast<IntegerType>(a);
  auto intB = dyn_cast<IntegerType>(b);
  if (!intA || !intB)
    return Type();
  if (intA.isUnsigned() != intB.isUnsigned()) {
    // ui8 with a signed integer: the signed one if it is wider, else si16.
    IntegerType signedType = intA.isUnsigned() ? intB : intA;
    if (signedType.getWidth() > 8)
      return signedType;
    return IntegerType::get(a.getContext(), 16, IntegerType::Signed);
  }
  return intA.getWidth() >= intB.getWidth() ? a : b;
}

/// PyTorch's combine_categories: `lower` only counts when its category is
/// higher than that of `higher`.
static Type combineCategories(Type higher, Type lower) {
  if (higher && isa<mlir::FloatType>(higher))
    return higher;
  if ((higher && higher.isInteger(1)) || (lower && isa<mlir::FloatType>(lower)))
    return promoteTwo(higher, lower);
  return higher ? higher : lower;
}

Type torch_to_linalg::getPromotedDtype(ValueRange operands) {
  Type dimResult, zeroDimResult, scalarResult;
  for (Value operand : operands) {
    Type dtype = getTorchOperandDtype(operand);
    if (!dtype)
      return Type();
    Type *slot;
    if (auto tensor = dyn_cast<torch::BaseTensorType>(operand.getType())) {
      if (!tensor.hasSizes())
        return Type();
      slot = tensor.getSizes().empty() ? &zeroDimResult : &dimResult;
    } else {
      // A Python float counts as the default dtype, float32.
      if (isa<mlir::FloatType>(dtype))
        dtype = Float32Type::get(dtype.getContext());
      slot = &scalarResult;
    }
    *slot = promoteTwo(*slot, dtype);
    if (!*slot)
      return Type();
  }
  return combineCategories(dimResult,
                           combineCategories(zeroDimResult, scalarResult));
}

Value torch_to_linalg::createEmpty(OpBuilder &b, Location loc,
                                   RankedTensorType type, Value like) {
  SmallVector<Value> dynamicSizes;
  for (auto [i, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size)) {
      assert(like && "a dynamic size needs a tensor to take it from");
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, like, i));
    }
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynamicSizes);
}

Value torch_to_linalg::createFilled(OpBuilder &b, Location loc,
                                    RankedTensorType type, Value value,
                                    Value like) {
  Value empty = createEmpty(b, loc, type, like);
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

Value torch_to_linalg::castTo(OpBuilder &b, Location loc, Value value,
                              RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

Value torch_to_linalg::createFilledWithSizes(OpBuilder &b, Location loc,
                                             RankedTensorType type, Value value,
                                             ValueRange dynamicSizes) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), dynamicSizes);
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

Value torch_to_linalg::createComplexConstant(OpBuilder &b, Location loc,
                                             ComplexType type, double re,
                                             double im) {
  return complex::ConstantOp::create(
      b, loc, type,
      b.getArrayAttr({b.getFloatAttr(type.getElementType(), re),
                      b.getFloatAttr(type.getElementType(), im)}));
}

Value torch_to_linalg::createZero(OpBuilder &b, Location loc, Type type) {
  if (auto complexType = dyn_cast<ComplexType>(type))
    return createComplexConstant(b, loc, complexType, 0, 0);
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

Value torch_to_linalg::createZeroFilled(OpBuilder &b, Location loc,
                                        RankedTensorType type, Value like) {
  return createFilled(b, loc, type, createZero(b, loc, type.getElementType()),
                      like);
}

Value torch_to_linalg::createMinMax(OpBuilder &b, Location loc, Value lhs,
                                    Value rhs, Type dtype, bool isMax) {
  if (isa<mlir::FloatType>(dtype))
    return isMax ? arith::MaximumFOp::create(b, loc, lhs, rhs).getResult()
                 : arith::MinimumFOp::create(b, loc, lhs, rhs).getResult();
  if (isUnsignedOrBool(dtype))
    return isMax ? arith::MaxUIOp::create(b, loc, lhs, rhs).getResult()
                 : arith::MinUIOp::create(b, loc, lhs, rhs).getResult();
  return isMax ? arith::MaxSIOp::create(b, loc, lhs, rhs).getResult()
               : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
}

Value torch_to_linalg::createExtremeValue(OpBuilder &b, Location loc,
                                          Type dtype, bool highest) {
  Type element = getBuiltinElementType(dtype);
  if (auto floatType = dyn_cast<mlir::FloatType>(element))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(element, APFloat::getInf(floatType.getFloatSemantics(),
                                                /*Negative=*/!highest)));
  unsigned width = cast<IntegerType>(element).getWidth();
  APInt value;
  if (isUnsignedOrBool(dtype))
    value = highest ? APInt::getMaxValue(width) : APInt::getMinValue(width);
  else
    value = highest ? APInt::getSignedMaxValue(width)
                    : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, value));
}

/// The scf.forall of createRowForall and createRowReduction: over the
/// leading dims of `input` (all but the last), with `init` as its shared
/// output, of `input`'s rank (a whole row per iteration) or one less (an
/// element). `body` gets the Row, whose `out` is the iteration's slice of
/// the output (of `sliceType`), and returns the slice to put back.
static Value createForallOverRows(OpBuilder &b, Location loc, Value input,
                                  Value init, RankedTensorType sliceType,
                                  RowBody body) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t lead = inputType.getRank() - 1;
  bool wholeRows = cast<RankedTensorType>(init.getType()).getRank() == lead + 1;
  SmallVector<OpFoldResult> rows;
  for (int64_t i = 0; i < lead; ++i)
    rows.push_back(tensor::getMixedSize(b, loc, input, i));
  auto forall = scf::ForallOp::create(b, loc, rows, ValueRange{init},
                                      /*mapping=*/std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  // getInductionVars returns a vector: a ValueRange of it would dangle.
  SmallVector<Value> ivs = forall.getInductionVars();
  Value shared = forall.getRegionIterArgs()[0];
  SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
  SmallVector<OpFoldResult> sizes(lead, b.getIndexAttr(1));
  if (wholeRows) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(tensor::getMixedSize(b, loc, init, lead));
  }
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, shared,
                                               offsets, sizes, strides);
  Row row{input,
          ivs,
          slice,
          tensor::DimOp::create(b, loc, input, lead),
          arith::ConstantIndexOp::create(b, loc, 0),
          arith::ConstantIndexOp::create(b, loc, 1)};
  Value written = body(b, loc, row);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, written, shared, offsets, sizes,
                                        strides);
  return forall.getResult(0);
}

Value torch_to_linalg::createRowForall(OpBuilder &b, Location loc, Value input,
                                       RankedTensorType type, RowBody body) {
  auto rowType =
      RankedTensorType::get({type.getShape().back()}, type.getElementType());
  return createForallOverRows(b, loc, input, createEmpty(b, loc, type, input),
                              rowType, body);
}

/// A tensor.empty of `element` shaped as `input`'s leading dims (all but
/// the last, dynamic ones read from `input`) followed by `trailing`.
static Value createEmptyOfRows(OpBuilder &b, Location loc, Value input,
                               Type element, ArrayRef<int64_t> trailing) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0, lead = inputType.getRank() - 1; i < lead; ++i)
    if (inputType.isDynamicDim(i))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, input, i));
  SmallVector<int64_t> shape(inputType.getShape().drop_back());
  shape.append(trailing.begin(), trailing.end());
  return tensor::EmptyOp::create(b, loc, RankedTensorType::get(shape, element),
                                 dynamicSizes);
}

Value torch_to_linalg::createRowReduction(
    OpBuilder &b, Location loc, Value input, Type element,
    llvm::function_ref<Value(OpBuilder &, Location, const Row &)> body) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t lead = inputType.getRank() - 1;
  Value empty = createEmptyOfRows(b, loc, input, element, {});
  auto cellType = RankedTensorType::get(SmallVector<int64_t>(lead, 1), element);
  return createForallOverRows(
      b, loc, input, empty, cellType,
      [&](OpBuilder &rb, Location rl, const Row &row) -> Value {
        Value value = body(rb, rl, row);
        return tensor::InsertOp::create(rb, rl, value, row.out,
                                        SmallVector<Value>(lead, row.zero));
      });
}

Value torch_to_linalg::createRowStatistics(
    OpBuilder &b, Location loc, Value input, Type element, int64_t count,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, const Row &)>
        body) {
  Value empty = createEmptyOfRows(b, loc, input, element, {count});
  return createForallOverRows(
      b, loc, input, empty, RankedTensorType::get({count}, element),
      [&](OpBuilder &rb, Location rl, const Row &row) -> Value {
        Value cell = row.out;
        for (auto [i, value] : llvm::enumerate(body(rb, rl, row)))
          cell = tensor::InsertOp::create(
              rb, rl, value, cell,
              ValueRange{arith::ConstantIndexOp::create(rb, rl, i)});
        return cell;
      });
}

Value torch_to_linalg::createChunkedRowSums(OpBuilder &b, Location loc,
                                            Value input, ArrayRef<int64_t> dims,
                                            Type element, bool srcUnsigned) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> sorted(dims);
  llvm::sort(sorted);
  sorted.erase(llvm::unique(sorted), sorted.end());
  int64_t first = rank - static_cast<int64_t>(sorted.size());
  if (!element.isF32() || first < 1 ||
      !llvm::equal(sorted, llvm::seq<int64_t>(first, rank)))
    return Value();
  int64_t length = 1;
  for (int64_t d = first; d < rank; ++d) {
    if (inputType.isDynamicDim(d))
      return Value();
    length *= inputType.getDimSize(d);
  }
  if (length == 0)
    return Value();
  Value rows = input;
  if (rank - first > 1) {
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < first; ++d)
      groups.push_back({d});
    groups.emplace_back(llvm::to_vector(llvm::seq<int64_t>(first, rank)));
    rows = tensor::CollapseShapeOp::create(b, loc, input, groups);
  }
  Type f64 = b.getF64Type();
  auto reassoc = arith::FastMathFlags::reassoc;
  return createRowReduction(
      b, loc, rows, element,
      [&](OpBuilder &rb, Location rl, const Row &row) -> Value {
        Value chunk = arith::ConstantIndexOp::create(rb, rl, kRowSumChunk);
        Value zero64 = arith::ConstantOp::create(rb, rl, rb.getF64FloatAttr(0));
        Value zero32 = arith::ConstantOp::create(rb, rl, rb.getF32FloatAttr(0));
        auto chunks = scf::ForOp::create(
            rb, rl, row.zero, row.length, chunk, ValueRange{zero64},
            [&](OpBuilder &cb, Location cl, Value start, ValueRange total) {
              Value end = arith::MinSIOp::create(
                  cb, cl, arith::AddIOp::create(cb, cl, start, chunk),
                  row.length);
              auto partial = scf::ForOp::create(
                  cb, cl, start, end, row.one, ValueRange{zero32},
                  [&](OpBuilder &nb, Location l, Value iv, ValueRange acc) {
                    Value x = convertScalar(nb, l, row.read(nb, l, iv), element,
                                            srcUnsigned);
                    scf::YieldOp::create(
                        nb, l,
                        arith::AddFOp::create(nb, l, x, acc[0], reassoc)
                            .getResult());
                  });
              Value wide =
                  arith::ExtFOp::create(cb, cl, f64, partial.getResult(0));
              scf::YieldOp::create(
                  cb, cl,
                  arith::AddFOp::create(cb, cl, total[0], wide).getResult());
            });
        return arith::TruncFOp::create(rb, rl, element, chunks.getResult(0));
      });
}

Value torch_to_linalg::createExpOfNonPositive(OpBuilder &b, Location loc,
                                              Value x) {
  if (!x.getType().isF32())
    return math::ExpOp::create(b, loc, x);
  // The bound of libmvec's _ZGVdN8v_expf_avx2 fast path: |x| <= 0x42AEAC4F.
  Value bound = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(llvm::bit_cast<float>(0xC2AEAC4Fu)));
  Value e =
      math::ExpOp::create(b, loc, arith::MaximumFOp::create(b, loc, x, bound));
  Value below =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, bound);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  return arith::SelectOp::create(b, loc, below, zero, e);
}

Value torch_to_linalg::createLowestValue(OpBuilder &b, Location loc,
                                         Type type) {
  if (auto floatType = dyn_cast<mlir::FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                             /*Negative=*/true)));
  auto intType = cast<IntegerType>(type);
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(type, APInt::getSignedMinValue(intType.getWidth())));
}

Value torch_to_linalg::convertScalar(OpBuilder &b, Location loc, Value scalar,
                                     Type dstType, bool srcUnsigned,
                                     bool dstUnsigned) {
  Type srcType = scalar.getType();
  if (srcType == dstType)
    return scalar;
  // Complex: a real value is the real part (imaginary part 0); a complex
  // value converts to a real dtype through its real part, as PyTorch's
  // casts do (they warn that the imaginary part is discarded), except that
  // bool is "nonzero", either part.
  if (auto dstComplex = dyn_cast<ComplexType>(dstType)) {
    if (isa<ComplexType>(srcType))
      return castFloat(b, loc, scalar, dstType);
    Type part = dstComplex.getElementType();
    Value re = convertScalar(b, loc, scalar, part, srcUnsigned);
    Value im = arith::ConstantOp::create(b, loc, b.getFloatAttr(part, 0.0));
    return complex::CreateOp::create(b, loc, dstComplex, re, im);
  }
  if (isa<ComplexType>(srcType)) {
    Value re = complex::ReOp::create(b, loc, scalar);
    if (!dstType.isInteger(1))
      return convertScalar(b, loc, re, dstType, false, dstUnsigned);
    Value im = complex::ImOp::create(b, loc, scalar);
    return arith::OrIOp::create(b, loc, convertScalar(b, loc, re, dstType),
                                convertScalar(b, loc, im, dstType));
  }
  // float8 <-> integer or bool: through float32, as c10's Float8_* types
  // convert.
  auto isSmallFloat = [](Type type) {
    return isa<mlir::FloatType>(type) && type.getIntOrFloatBitWidth() <= 8;
  };
  if (isSmallFloat(srcType) && !isa<mlir::FloatType>(dstType))
    return convertScalar(b, loc,
                         arith::ExtFOp::create(b, loc, b.getF32Type(), scalar),
                         dstType, srcUnsigned, dstUnsigned);
  if (isSmallFloat(dstType) && !isa<mlir::FloatType>(srcType))
    return castFloat(
        b, loc,
        convertScalar(b, loc, scalar, b.getF32Type(), srcUnsigned, false),
        dstType);
  auto srcInt = dyn_cast<IntegerType>(srcType);
  auto dstInt = dyn_cast<IntegerType>(dstType);
  bool srcZeroExtends = srcInt && (srcUnsigned || srcInt.getWidth() == 1);
  if (srcInt && dstInt) {
    if (dstInt.getWidth() == 1) {
      Value zero =
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(srcType, 0));
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, scalar,
                                   zero);
    }
    if (dstInt.getWidth() > srcInt.getWidth())
      return srcZeroExtends
                 ? arith::ExtUIOp::create(b, loc, dstType, scalar).getResult()
                 : arith::ExtSIOp::create(b, loc, dstType, scalar).getResult();
    return arith::TruncIOp::create(b, loc, dstType, scalar);
  }
  if (srcInt && isa<mlir::FloatType>(dstType))
    return srcZeroExtends
               ? arith::UIToFPOp::create(b, loc, dstType, scalar).getResult()
               : arith::SIToFPOp::create(b, loc, dstType, scalar).getResult();
  if (isa<mlir::FloatType>(srcType) && dstInt) {
    if (dstInt.getWidth() == 1) {
      Value zero =
          arith::ConstantOp::create(b, loc, b.getFloatAttr(srcType, 0));
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, scalar,
                                   zero);
    }
    return dstUnsigned
               ? arith::FPToUIOp::create(b, loc, dstType, scalar).getResult()
               : arith::FPToSIOp::create(b, loc, dstType, scalar).getResult();
  }
  return castFloat(b, loc, scalar, dstType);
}

Value torch_to_linalg::createElementwise(
    OpBuilder &b, Location loc, RankedTensorType resultType, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    ValueRange givenSizes) {
  int64_t rank = resultType.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps;
  // The tensor each dynamic result size is read from: an input whose size
  // in that dim is not a broadcast 1.
  SmallVector<Value> dynamicSizes;
  SmallVector<Value> sizeSources(rank);
  // Dynamic input sizes read at a static result size: (input, dim, size).
  SmallVector<std::tuple<Value, int64_t, int64_t>> dynamicAgainstStatic;
  for (Value input : inputs) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    // The op's declared result type may contradict its operands (an ONNX
    // declaration, a hand-written test): no broadcast gives it.
    if (!type || type.getRank() > rank)
      return Value();
    int64_t offset = rank - type.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t size = type.getDimSize(i);
      int64_t resultSize = resultType.getDimSize(offset + i);
      if (size == 1 && resultSize != 1) {
        exprs.push_back(getAffineConstantExpr(0, context));
        continue;
      }
      if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(resultSize) &&
          size != resultSize)
        return Value();
      if (ShapedType::isDynamic(size) && !ShapedType::isDynamic(resultSize))
        dynamicAgainstStatic.push_back({input, i, resultSize});
      exprs.push_back(getAffineDimExpr(offset + i, context));
      if (!sizeSources[offset + i] && size != 1)
        sizeSources[offset + i] = input;
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, context));
  }
  for (int64_t i = 0, given = 0; i < rank; ++i) {
    if (!resultType.isDynamicDim(i))
      continue;
    if (!givenSizes.empty()) {
      if (given >= static_cast<int64_t>(givenSizes.size()))
        return Value();
      dynamicSizes.push_back(givenSizes[given++]);
      continue;
    }
    Value source = sizeSources[i];
    if (!source) {
      // Every input that has this dim has size 1 there: so has the result.
      bool covered = llvm::any_of(inputs, [&](Value input) {
        return cast<RankedTensorType>(input.getType()).getRank() >= rank - i;
      });
      if (!covered)
        return Value();
      dynamicSizes.push_back(arith::ConstantIndexOp::create(b, loc, 1));
      continue;
    }
    auto sourceType = cast<RankedTensorType>(source.getType());
    dynamicSizes.push_back(tensor::DimOp::create(
        b, loc, source, i - (rank - sourceType.getRank())));
  }
  // The loops run over the static result size and read the input there:
  // a run-time size that is not it (a broadcast 1 included, which the
  // indexing map does not stretch) would be read out of bounds.
  for (auto [input, dim, size] : dynamicAgainstStatic) {
    Value actual = tensor::DimOp::create(b, loc, input, dim);
    Value ok =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, actual,
                              arith::ConstantIndexOp::create(b, loc, size));
    cf::AssertOp::create(
        b, loc, ok,
        "an operand's run-time size in dim " + std::to_string(dim) +
            " is not " + std::to_string(size) +
            ", the size of the op's static result there (the input sizes "
            "contradict what the program assumes)");
  }
  Value init = tensor::EmptyOp::create(
      b, loc, resultType.getShape(), resultType.getElementType(), dynamicSizes);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

bool torch_to_linalg::areTensorsOrScalars(ValueRange converted) {
  return llvm::all_of(converted, [](Value value) {
    return isa<RankedTensorType, IntegerType, mlir::FloatType>(value.getType());
  });
}

Value torch_to_linalg::createElementwiseOnOperands(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange torchOperands, ValueRange converted, Type computeDtype,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Type element = getBuiltinElementType(computeDtype);
  bool dstUnsigned = computeDtype.isUnsignedInteger();
  SmallVector<Value> tensors;
  SmallVector<bool> tensorUnsigned;
  // Per operand: the index of its tensor input, or the cast scalar.
  SmallVector<std::variant<size_t, Value>> slots;
  for (auto [torchOperand, value] : llvm::zip(torchOperands, converted)) {
    bool srcUnsigned = isUnsignedOrBool(getTorchOperandDtype(torchOperand));
    if (isa<RankedTensorType>(value.getType())) {
      slots.push_back(tensors.size());
      tensors.push_back(value);
      tensorUnsigned.push_back(srcUnsigned);
      continue;
    }
    slots.push_back(
        convertScalar(b, loc, value, element, srcUnsigned, dstUnsigned));
  }
  return createElementwise(
      b, loc, resultType, tensors,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        SmallVector<Value> operands;
        for (auto &slot : slots) {
          if (auto *scalar = std::get_if<Value>(&slot)) {
            operands.push_back(*scalar);
            continue;
          }
          size_t index = std::get<size_t>(slot);
          operands.push_back(convertScalar(nested, l, args[index], element,
                                           tensorUnsigned[index], dstUnsigned));
        }
        return body(nested, l, operands);
      });
}

/// Groups the dims of `big` into runs whose products are the dims of
/// `small` (size-1 dims join a neighbouring run). Static shapes only.
/// A dynamic dim only groups with one dynamic dim (plus size-1 dims).
static std::optional<SmallVector<ReassociationIndices>>
getReassociation(ArrayRef<int64_t> big, ArrayRef<int64_t> small) {
  if (llvm::is_contained(big, 0) || llvm::is_contained(small, 0))
    return std::nullopt;
  SmallVector<ReassociationIndices> result;
  if (small.empty()) {
    if (llvm::all_of(big, [](int64_t size) { return size == 1; }))
      return result;
    return std::nullopt;
  }
  size_t i = 0;
  for (size_t j = 0; j < small.size(); ++j) {
    ReassociationIndices group;
    if (ShapedType::isDynamic(small[j])) {
      while (i < big.size() && big[i] == 1)
        group.push_back(i++);
      if (i == big.size() || !ShapedType::isDynamic(big[i]))
        return std::nullopt;
      group.push_back(i++);
      if (j + 1 == small.size())
        while (i < big.size() && big[i] == 1)
          group.push_back(i++);
      result.push_back(group);
      continue;
    }
    int64_t product = 1;
    while (i < big.size()) {
      if (ShapedType::isDynamic(big[i]))
        return std::nullopt;
      group.push_back(i);
      product *= big[i++];
      if (product == small[j])
        break;
      if (product > small[j])
        return std::nullopt;
    }
    // Each group takes at least one dim (a trailing 1 of `small` may find
    // none left: [9, 1] is no grouping of [1, 1, 9]).
    if (group.empty() || product != small[j])
      return std::nullopt;
    if (j + 1 == small.size())
      while (i < big.size() && big[i] == 1)
        group.push_back(i++);
    result.push_back(group);
  }
  if (i != big.size())
    return std::nullopt;
  return result;
}

Value torch_to_linalg::createElementCount(OpBuilder &b, Location loc,
                                          Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t i = 0; i < type.getRank(); ++i)
    count = arith::MulIOp::create(b, loc, count,
                                  tensor::DimOp::create(b, loc, tensor, i));
  return count;
}

/// `index` as a position along a dim of `size` (negative ones counted from
/// the end with `wrapNegative`), and whether it is in [0, size).
static std::pair<Value, Value> createPosition(OpBuilder &b, Location loc,
                                              Value index, Value size,
                                              bool wrapNegative) {
  Value position =
      index.getType().isIndex()
          ? index
          : arith::IndexCastOp::create(b, loc, b.getIndexType(), index)
                .getResult();
  if (wrapNegative) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           position, zero);
    position = arith::SelectOp::create(
        b, loc, negative, arith::AddIOp::create(b, loc, position, size),
        position);
  }
  // Unsigned: a position still negative is out of range too.
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, position, size);
  return {position, inRange};
}

Value torch_to_linalg::createCheckedIndex(OpBuilder &b, Location loc,
                                          Value index, Value size,
                                          bool wrapNegative,
                                          const Twine &what) {
  auto [position, inRange] = createPosition(b, loc, index, size, wrapNegative);
  cf::AssertOp::create(b, loc, inRange, what.str());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return arith::SelectOp::create(b, loc, inRange, position, zero);
}

Value torch_to_linalg::createClampedIndex(OpBuilder &b, Location loc,
                                          Value index, Value size,
                                          bool wrapNegative) {
  auto [position, inRange] = createPosition(b, loc, index, size, wrapNegative);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return arith::SelectOp::create(b, loc, inRange, position, zero);
}

void torch_to_linalg::assertIndicesInRange(OpBuilder &b, Location loc,
                                           Value indices, Value size,
                                           bool wrapNegative,
                                           const Twine &what) {
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  // Whether any element is out of range: an or-reduction over every dim.
  Value falseValue = arith::ConstantIntOp::create(b, loc, 0, 1);
  auto flagType = RankedTensorType::get({}, b.getI1Type());
  Value init =
      linalg::FillOp::create(b, loc, ValueRange{falseValue},
                             ValueRange{tensor::EmptyOp::create(
                                 b, loc, ArrayRef<int64_t>{}, b.getI1Type())})
          .getResult(0);
  Value any =
      linalg::GenericOp::create(
          b, loc, TypeRange{flagType}, ValueRange{indices}, ValueRange{init},
          ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                              AffineMap::get(rank, 0, {}, context)},
          SmallVector<utils::IteratorType>(rank,
                                           utils::IteratorType::reduction),
          [&](OpBuilder &nested, Location l, ValueRange args) {
            Value inRange =
                createPosition(nested, l, args[0], size, wrapNegative).second;
            Value trueValue = arith::ConstantIntOp::create(nested, l, 1, 1);
            Value outside =
                arith::XOrIOp::create(nested, l, inRange, trueValue);
            linalg::YieldOp::create(
                nested, l,
                arith::OrIOp::create(nested, l, outside, args[1]).getResult());
          })
          .getResult(0);
  Value flag = tensor::ExtractOp::create(b, loc, any, ValueRange{});
  Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
  cf::AssertOp::create(b, loc, arith::XOrIOp::create(b, loc, flag, trueValue),
                       what.str());
}

void torch_to_linalg::assertIndexableDim(OpBuilder &b, Location loc,
                                         Value tensor, int64_t dim,
                                         Value indices, const Twine &what) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  if (!type.isDynamicDim(dim) && type.getDimSize(dim) != 0)
    return;
  if (indicesType.hasStaticShape() && indicesType.getNumElements() == 0)
    return;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value nonEmptyDim =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            tensor::DimOp::create(b, loc, tensor, dim), zero);
  Value noIndices =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            createElementCount(b, loc, indices), zero);
  cf::AssertOp::create(
      b, loc, arith::OrIOp::create(b, loc, nonEmptyDim, noIndices), what.str());
}

LogicalResult
torch_to_linalg::checkIndexNotLarger(ConversionPatternRewriter &rewriter,
                                     Operation *op, Value index, Value tensor,
                                     int64_t skipDim, StringRef what) {
  auto indexType = cast<RankedTensorType>(index.getType());
  auto tensorType = cast<RankedTensorType>(tensor.getType());
  if (indexType.hasStaticShape() && indexType.getNumElements() == 0)
    return success(); // PyTorch checks nothing for an empty index.
  Location loc = op->getLoc();
  for (int64_t i = 0; i < indexType.getRank(); ++i) {
    if (i == skipDim)
      continue;
    std::string message =
        (op->getName().getStringRef() + ": the index is larger than " + what +
         " along dim " + Twine(i) +
         ", which eager PyTorch refuses; index.size(d) <= " + what +
         ".size(d) must hold")
            .str();
    int64_t indexSize = indexType.getDimSize(i);
    int64_t size = tensorType.getDimSize(i);
    if (!ShapedType::isDynamic(indexSize) && !ShapedType::isDynamic(size)) {
      if (indexSize > size)
        return reportFailure(rewriter, op, message);
      continue;
    }
    Value fits =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle,
                              tensor::DimOp::create(rewriter, loc, index, i),
                              tensor::DimOp::create(rewriter, loc, tensor, i));
    cf::AssertOp::create(rewriter, loc, fits, message);
  }
  return success();
}

void torch_to_linalg::assertElementCount(OpBuilder &b, Location loc,
                                         Value input, ArrayRef<int64_t> shape,
                                         Value count) {
  auto inputType = cast<RankedTensorType>(input.getType());
  if (inputType.hasStaticShape() && !count)
    return; // The types prove it (or the reassociation failed to build).
  int64_t staticProduct = 1, inputStatic = 1;
  bool dynamicResult = false;
  for (int64_t size : shape) {
    if (ShapedType::isDynamic(size))
      dynamicResult = true;
    else
      staticProduct *= size;
  }
  for (int64_t size : inputType.getShape())
    if (!ShapedType::isDynamic(size))
      inputStatic *= size;
  // With a dynamic result size (the element count over the static ones),
  // the count must divide; it does whenever the input's static sizes alone
  // are a multiple of the result's.
  if (!count && dynamicResult &&
      (staticProduct == 1 ||
       (staticProduct != 0 && inputStatic % staticProduct == 0)))
    return;
  Value inputCount = createElementCount(b, loc, input);
  Value ok;
  if (count) {
    ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, inputCount,
                               count);
  } else if (!dynamicResult || staticProduct == 0) {
    Value expected = arith::ConstantIndexOp::create(b, loc, staticProduct);
    ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, inputCount,
                               expected);
  } else {
    Value divisor = arith::ConstantIndexOp::create(b, loc, staticProduct);
    Value rest = arith::RemUIOp::create(b, loc, inputCount, divisor);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rest, zero);
  }
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "a tensor of shape [";
  llvm::interleaveComma(inputType.getShape(), os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
  });
  os << "] was reshaped to [";
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
  });
  os << "], which needs another number of elements than the input's run-time "
        "sizes give; the input sizes contradict what the program assumes";
  cf::AssertOp::create(b, loc, ok, message);
}

Value torch_to_linalg::createReshape(OpBuilder &b, Location loc, Value input,
                                     RankedTensorType resultType) {
  auto inputType = cast<RankedTensorType>(input.getType());
  ArrayRef<int64_t> from = inputType.getShape(), to = resultType.getShape();
  if (from == to)
    return input;
  // Only sizes forgotten: the same tensor, less precisely typed.
  if (from.size() == to.size() &&
      llvm::all_of(llvm::zip(from, to), [](auto pair) {
        auto [a, b] = pair;
        return a == b || ShapedType::isDynamic(b);
      }))
    return tensor::CastOp::create(b, loc, resultType, input);
  std::optional<SmallVector<ReassociationIndices>> collapse, expand;
  if (from.size() > to.size())
    collapse = getReassociation(from, to);
  if (from.size() < to.size())
    expand = getReassociation(to, from);
  bool dynamic = !inputType.hasStaticShape() || !resultType.hasStaticShape();
  // Without a reassociation, only one dynamic result size can be derived
  // (from the element count).
  int64_t staticProduct = 1;
  for (int64_t size : to)
    if (!ShapedType::isDynamic(size))
      staticProduct *= size;
  // A static input with as many elements as the result's static sizes:
  // every dynamic result size is 1.
  bool dynamicOnes = inputType.hasStaticShape() && staticProduct != 0 &&
                     inputType.getNumElements() == staticProduct &&
                     !resultType.hasStaticShape();
  if (!collapse && !expand && dynamic && !dynamicOnes &&
      llvm::count_if(to, ShapedType::isDynamic) > 1)
    return Value();
  // A dynamic input size reshaped to static ones: the types cannot prove
  // that the element counts agree, so the code checks it before reading.
  assertElementCount(b, loc, input, to);
  if (collapse)
    return tensor::CollapseShapeOp::create(b, loc, resultType, input,
                                           *collapse);
  if (expand)
    return tensor::ExpandShapeOp::create(b, loc, resultType, input, *expand);
  if (dynamicOnes) {
    SmallVector<Value> ones(llvm::count_if(to, ShapedType::isDynamic),
                            arith::ConstantIndexOp::create(b, loc, 1));
    Value flat = createReshape(
        b, loc, input,
        RankedTensorType::get({staticProduct}, inputType.getElementType()));
    SmallVector<Value> sizes;
    for (int64_t size : to)
      sizes.push_back(ShapedType::isDynamic(size)
                          ? ones.front()
                          : arith::ConstantIndexOp::create(b, loc, size));
    Value shape = tensor::FromElementsOp::create(b, loc, sizes);
    return tensor::ReshapeOp::create(b, loc, resultType, flat, shape);
  }
  if (dynamic) {
    // General dynamic case: an explicit shape operand, whose one dynamic
    // size is the element count divided by the static sizes.
    Value count = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t i = 0; i < inputType.getRank(); ++i)
      count = arith::MulIOp::create(b, loc, count,
                                    tensor::DimOp::create(b, loc, input, i));
    SmallVector<Value> sizes;
    for (int64_t size : to)
      sizes.push_back(
          ShapedType::isDynamic(size)
              ? arith::DivUIOp::create(
                    b, loc, count,
                    arith::ConstantIndexOp::create(b, loc, staticProduct))
                    .getResult()
              : arith::ConstantIndexOp::create(b, loc, size).getResult());
    Value shape = tensor::FromElementsOp::create(b, loc, sizes);
    return tensor::ReshapeOp::create(b, loc, resultType, input, shape);
  }
  // No elements: nothing to move (and no reassociation may exist).
  if (inputType.getNumElements() == 0)
    return tensor::EmptyOp::create(b, loc, to, resultType.getElementType());
  // Through a 1-D tensor of all the elements (each step has a
  // reassociation: all dims into one, one into all).
  int64_t count = inputType.getNumElements();
  auto flatType = RankedTensorType::get({count}, inputType.getElementType());
  if (inputType == flatType || resultType == flatType) {
    SmallVector<Value> sizes;
    for (int64_t size : to)
      sizes.push_back(arith::ConstantIndexOp::create(b, loc, size));
    Value shape = tensor::FromElementsOp::create(b, loc, sizes);
    return tensor::ReshapeOp::create(b, loc, resultType, input, shape);
  }
  Value flat = createReshape(b, loc, input, flatType);
  return createReshape(b, loc, flat, resultType);
}

Value torch_to_linalg::createPad(OpBuilder &b, Location loc, Value input,
                                 ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                                 Value padValue) {
  auto attrs = [&](ArrayRef<int64_t> values) {
    return llvm::map_to_vector(
        values, [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); });
  };
  return createPad(b, loc, input, attrs(low), attrs(high), padValue);
}

Value torch_to_linalg::createPad(OpBuilder &b, Location loc, Value input,
                                 ArrayRef<OpFoldResult> low,
                                 ArrayRef<OpFoldResult> high, Value padValue) {
  if (llvm::all_of(llvm::concat<const OpFoldResult>(low, high),
                   [](OpFoldResult v) { return isZeroInteger(v); }))
    return input;
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < inputType.getRank(); ++i) {
    std::optional<int64_t> before = getConstantIntValue(low[i]);
    std::optional<int64_t> after = getConstantIntValue(high[i]);
    int64_t size = inputType.getDimSize(i);
    shape.push_back(ShapedType::isDynamic(size) || !before || !after
                        ? ShapedType::kDynamic
                        : size + *before + *after);
  }
  auto resultType = RankedTensorType::get(shape, inputType.getElementType());
  return tensor::PadOp::create(b, loc, resultType, input, low, high, padValue);
}

LogicalResult torch_to_linalg::matchIntList(Value list, int64_t count,
                                            SmallVectorImpl<int64_t> &out) {
  if (!torch::matchTorchConstantIntList(list, out))
    return failure();
  if (out.size() == 1 && count > 1)
    out.assign(count, out[0]);
  return success(static_cast<int64_t>(out.size()) == count);
}

FailureOr<SmallVector<Value>> torch_to_linalg::getConvertedTensorList(
    ConversionPatternRewriter &rewriter, Location loc,
    const TypeConverter *converter, Value list) {
  auto construct = list.getDefiningOp<torch::PrimListConstructOp>();
  if (!construct)
    return failure();
  SmallVector<Value> converted;
  for (Value element : construct.getElements()) {
    Type type = converter->convertType(element.getType());
    if (!type)
      return failure();
    Value value =
        converter->materializeTargetConversion(rewriter, loc, type, element);
    if (!value)
      return failure();
    converted.push_back(value);
  }
  return converted;
}

Value mlir::torch2mlir::torch_to_linalg::createInsertSlice(
    OpBuilder &b, Location loc, Value source, Value dest,
    ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
    ArrayRef<OpFoldResult> strides) {
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  if (sourceType && llvm::is_contained(sourceType.getShape(), 0))
    return dest;
  return tensor::InsertSliceOp::create(b, loc, source, dest, offsets, sizes,
                                       strides);
}

Value mlir::torch2mlir::torch_to_linalg::castFloat(OpBuilder &b, Location loc,
                                                   Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    // complex64 <-> complex128: each part.
    Type part = complexType.getElementType();
    Value re = castFloat(b, loc, complex::ReOp::create(b, loc, value), part);
    Value im = castFloat(b, loc, complex::ImOp::create(b, loc, value), part);
    return complex::CreateOp::create(b, loc, complexType, re, im);
  }
  unsigned from = cast<mlir::FloatType>(value.getType()).getWidth();
  unsigned to = cast<mlir::FloatType>(type).getWidth();
  if (from < to)
    return arith::ExtFOp::create(b, loc, type, value);
  // f16 <-> bf16, float8 <-> float8: exactly to f32, then one rounding (as
  // PyTorch converts).
  if (from == to)
    value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  // c10::Float8_e4m3fn saturates: finite values and infinities beyond its
  // largest, 448, become +-448 (NaN stays NaN); arith.truncf, like
  // APFloat, would give NaN. The other float8 dtypes overflow to inf or NaN
  // in PyTorch too.
  if (isa<Float8E4M3FNType>(type)) {
    Type wide = value.getType();
    Value max = arith::ConstantOp::create(b, loc, b.getFloatAttr(wide, 448.0));
    Value min = arith::ConstantOp::create(b, loc, b.getFloatAttr(wide, -448.0));
    value = arith::MinimumFOp::create(b, loc, value, max);
    value = arith::MaximumFOp::create(b, loc, value, min);
  }
  return arith::TruncFOp::create(b, loc, type, value);
}

Value mlir::torch2mlir::torch_to_linalg::castFloatTensor(
    OpBuilder &b, Location loc, Value tensor, RankedTensorType resultType) {
  if (cast<RankedTensorType>(tensor.getType()).getElementType() ==
      resultType.getElementType())
    return tensor;
  return createElementwise(b, loc, resultType, ValueRange{tensor},
                           [&](OpBuilder &nb, Location l, ValueRange args) {
                             return castFloat(nb, l, args[0],
                                              resultType.getElementType());
                           });
}

Type mlir::torch2mlir::torch_to_linalg::getOpMathType(Type element) {
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

Type mlir::torch2mlir::torch_to_linalg::getSumAccumulatorType(Type element) {
  if (auto complexType = dyn_cast<ComplexType>(element))
    return ComplexType::get(
        getSumAccumulatorType(complexType.getElementType()));
  if (element.isF32() || element.isF64())
    return Float64Type::get(element.getContext());
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

Value mlir::torch2mlir::torch_to_linalg::createFloatConstant(OpBuilder &b,
                                                             Location loc,
                                                             Type type,
                                                             double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

FailureOr<StridedLayout>
mlir::torch2mlir::torch_to_linalg::matchAsStridedLayout(
    ConversionPatternRewriter &rewriter, Operation *op, Value stride,
    Value storageOffset, ArrayRef<int64_t> viewShape, int64_t numel,
    StringRef access, StringRef storage) {
  StridedLayout layout;
  int64_t rank = viewShape.size();
  if (!torch::matchTorchConstantIntList(stride, layout.strides) ||
      static_cast<int64_t>(layout.strides.size()) != rank ||
      (!torch::isTorchNone(storageOffset) &&
       !torch::matchTorchConstantInt(storageOffset, layout.storageOffset))) {
    (void)reportFailure(rewriter, op,
                        "stride and storage_offset must be constants, one "
                        "stride per dim of the view");
    return failure();
  }
  if (layout.storageOffset < 0 ||
      llvm::any_of(layout.strides, [](int64_t s) { return s < 0; })) {
    (void)reportFailure(rewriter, op,
                        "strides and storage_offset must be >= 0");
    return failure();
  }
  if (llvm::is_contained(viewShape, 0))
    return layout;
  int64_t last = layout.storageOffset;
  for (int64_t i = 0; i < rank; ++i)
    last += (viewShape[i] - 1) * layout.strides[i];
  if (last >= numel) {
    (void)reportFailure(rewriter, op,
                        access + " element " + Twine(last) + " of " + storage +
                            " that has " + Twine(numel));
    return failure();
  }
  return layout;
}

Value mlir::torch2mlir::torch_to_linalg::createStridedIndex(
    OpBuilder &b, Location loc, ValueRange position,
    const StridedLayout &layout) {
  Value index = arith::ConstantIndexOp::create(b, loc, layout.storageOffset);
  for (auto [i, stride] : llvm::enumerate(layout.strides))
    index = arith::AddIOp::create(
        b, loc, index,
        arith::MulIOp::create(b, loc, position[i],
                              arith::ConstantIndexOp::create(b, loc, stride)));
  return index;
}

LogicalResult
torch_to_linalg::checkPooledSize(ConversionPatternRewriter &rewriter,
                                 Operation *op, int64_t dim, int64_t in,
                                 int64_t out, int64_t kernel, int64_t stride,
                                 int64_t padding, int64_t dilation) {
  int64_t span = in + 2 * padding - dilation * (kernel - 1) - 1;
  int64_t floorOut = span < 0 ? 0 : span / stride + 1;
  if (out == floorOut || out == floorOut + 1)
    return success();
  return reportFailure(rewriter, op,
                       "the declared result size " + Twine(out) +
                           " of pooled dim " + Twine(dim) +
                           " is not what the window parameters give (" +
                           Twine(floorOut) + ")");
}
/// The dynamic sizes of a factory's result: the elements of its `size`
/// list (a prim.ListConstruct) at the result's dynamic dims.
FailureOr<SmallVector<Value>> torch_to_linalg::getFactoryDynamicSizes(
    ConversionPatternRewriter &rewriter, Operation *op,
    const TypeConverter *converter, Value sizeList,
    RankedTensorType resultType) {
  SmallVector<Value> sizes;
  if (resultType.hasStaticShape())
    return sizes;
  auto list = sizeList ? sizeList.getDefiningOp<torch::PrimListConstructOp>()
                       : torch::PrimListConstructOp();
  if (!list ||
      static_cast<int64_t>(list.getElements().size()) != resultType.getRank())
    return reportFailure(rewriter, op,
                         "unsupported: a dynamic size not given by a "
                         "prim.ListConstruct of the result's rank");
  Location loc = op->getLoc();
  for (int64_t dim = 0; dim < resultType.getRank(); ++dim) {
    if (!resultType.isDynamicDim(dim))
      continue;
    Value size = converter->materializeTargetConversion(
        rewriter, loc, rewriter.getI64Type(), list.getElements()[dim]);
    if (!size)
      return reportFailure(rewriter, op, "sizes must be ints");
    sizes.push_back(arith::IndexCastOp::create(rewriter, loc,
                                               rewriter.getIndexType(), size));
  }
  return sizes;
}

Value mlir::torch2mlir::torch_to_linalg::cstIndex(OpBuilder &b, Location loc,
                                                  int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

SmallVector<Value> mlir::torch2mlir::torch_to_linalg::createWindowGeneric(
    OpBuilder &b, Location loc, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps, ValueRange inits,
    ArrayRef<int64_t> windowSizes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  return createDynamicWindowGeneric(
      b, loc, inputs, inputMaps, inits,
      llvm::map_to_vector(
          windowSizes,
          [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); }),
      body);
}

SmallVector<Value>
mlir::torch2mlir::torch_to_linalg::createDynamicWindowGeneric(
    OpBuilder &b, Location loc, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps, ValueRange inits,
    ArrayRef<OpFoldResult> windowSizes,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *context = b.getContext();
  int64_t rank = cast<RankedTensorType>(inits[0].getType()).getRank();
  int64_t windowRank = windowSizes.size();
  int64_t loops = rank + windowRank;
  SmallVector<Value> allInputs(inputs);
  SmallVector<AffineMap> maps(inputMaps);
  if (windowRank > 0) {
    allInputs.push_back(
        tensor::EmptyOp::create(b, loc, windowSizes, b.getI8Type()));
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < windowRank; ++i)
      exprs.push_back(getAffineDimExpr(rank + i, context));
    maps.push_back(AffineMap::get(loops, 0, exprs, context));
  }
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < rank; ++i)
    outExprs.push_back(getAffineDimExpr(i, context));
  maps.append(inits.size(), AffineMap::get(loops, 0, outExprs, context));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(windowRank, utils::IteratorType::reduction);
  SmallVector<Type> types;
  for (Value init : inits)
    types.push_back(init.getType());
  auto generic = linalg::GenericOp::create(
      b, loc, types, allInputs, inits, maps, iterators,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        linalg::YieldOp::create(nested, l, body(nested, l, args));
      });
  return SmallVector<Value>(generic.getResults());
}

Value mlir::torch2mlir::torch_to_linalg::createConstantVector(
    OpBuilder &b, Location loc, Type element, ArrayRef<double> values) {
  auto type =
      RankedTensorType::get({static_cast<int64_t>(values.size())}, element);
  SmallVector<Attribute> attrs;
  for (double value : values)
    attrs.push_back(isa<mlir::FloatType>(element)
                        ? Attribute(b.getFloatAttr(element, value))
                        : Attribute(b.getIntegerAttr(
                              element, static_cast<int64_t>(value))));
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, attrs));
}

bool mlir::torch2mlir::torch_to_linalg::matchConstantFloatList(
    Value list, SmallVectorImpl<double> &out) {
  auto construct = list.getDefiningOp<torch::PrimListConstructOp>();
  if (!construct)
    return false;
  for (Value element : construct.getElements()) {
    double value;
    if (!torch::matchTorchConstantFloat(element, value))
      return false;
    out.push_back(value);
  }
  return true;
}

bool mlir::torch2mlir::torch_to_linalg::hasStaticTrailingDims(
    RankedTensorType type, int64_t first) {
  for (int64_t i = first; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      return false;
  return true;
}

RankedTensorType mlir::torch2mlir::torch_to_linalg::getConvertedResultType(
    ConversionPatternRewriter &rewriter, Operation *op,
    const TypeConverter *converter) {
  RankedTensorType type = getConvertedTensorType(converter, op->getResult(0));
  if (!type)
    (void)reportFailure(rewriter, op, kUnknownResultType);
  return type;
}

LogicalResult mlir::torch2mlir::torch_to_linalg::matchConstantDim(
    ConversionPatternRewriter &rewriter, Operation *op, Value dimValue,
    int64_t rank, ScalarDims scalarDims, int64_t &dim) {
  if (!torch::matchTorchConstantInt(dimValue, dim))
    return reportFailure(rewriter, op, "dim must be a constant");
  if (rank == 0 && scalarDims == ScalarDims::Wrap)
    rank = 1;
  dim = torch::toPositiveDim(dim, rank);
  if (dim < 0)
    return reportFailure(rewriter, op, kDimOutOfRange);
  return success();
}
