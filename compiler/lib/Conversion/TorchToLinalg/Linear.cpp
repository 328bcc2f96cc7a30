//===- Linear.cpp - Matmuls and convolutions to linalg --------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

/// Checks that every operand has the result's element type (mm, bmm and
/// convolution do not promote in PyTorch).
static LogicalResult checkSameElementType(ConversionPatternRewriter &rewriter,
                                          Operation *op, ValueRange operands,
                                          Type element) {
  for (Value operand : operands)
    if (cast<RankedTensorType>(operand.getType()).getElementType() != element)
      return reportFailure(rewriter, op,
                           "unsupported: operands of different dtypes");
  return success();
}

/// A zero-filled tensor of `type`.
static Value createZeros(OpBuilder &b, Location loc, RankedTensorType type,
                         ValueRange dynamicSizes) {
  Value zero = createZero(b, loc, type.getElementType());
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), dynamicSizes);
  return linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
      .getResult(0);
}

/// linalg.matmul of `lhs` by the torch value `rhs` (`rhsConverted` is its
/// builtin tensor) accumulating into `init`. When `rhs` is
/// `aten.permute(w, [1, 0])` (how nn.Linear's weight arrives) the matmul
/// reads `w` through transposed indexing maps instead of materializing the
/// transpose on every call.
static Value createMatmul(ConversionPatternRewriter &rewriter,
                          const TypeConverter *converter, Location loc,
                          RankedTensorType resultType, Value lhs, Value rhs,
                          Value rhsConverted, Value init) {
  SmallVector<int64_t> dims;
  auto permute = rhs.getDefiningOp<AtenPermuteOp>();
  if (permute && matchTorchConstantIntList(permute.getDims(), dims) &&
      dims.size() == 2 && toPositiveDim(dims[0], 2) == 1 &&
      toPositiveDim(dims[1], 2) == 0) {
    Value source = permute.getSelf();
    Type sourceType = converter->convertType(source.getType());
    if (sourceType)
      source = converter->materializeTargetConversion(rewriter, loc, sourceType,
                                                      source);
    if (sourceType && source) {
      auto maps = rewriter.getAffineMapArrayAttr(
          getTransposedRhsMatmulMaps(rewriter.getContext()));
      return linalg::MatmulOp::create(
                 rewriter, loc, TypeRange{resultType}, ValueRange{lhs, source},
                 ValueRange{init},
                 ArrayRef<NamedAttribute>{
                     rewriter.getNamedAttr("indexing_maps", maps)})
          .getResult(0);
    }
  }
  return linalg::MatmulOp::create(rewriter, loc, TypeRange{resultType},
                                  ValueRange{lhs, rhsConverted},
                                  ValueRange{init})
      .getResult(0);
}

/// mm(a, b) = linalg.matmul into a zero-filled [M, N], and
/// bmm(a, b) = linalg.batch_matmul into a zero-filled [B, M, N]. Result
/// dims come from `a` except the last, from `b`. f16/bf16 accumulate in
/// f32 and round once (getOpMathType).
template <typename OpTy, typename LinalgOpTy, int64_t rank>
struct ConvertMatmulLike : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(this->getTypeConverter(), op.getResult());
    if (!resultType || resultType.getRank() != rank)
      return reportFailure(rewriter, op,
                           "needs a result of rank " + Twine(rank) +
                               " and known dtype");
    Value lhs = adaptor.getSelf(), rhs = adaptor.getMat2();
    if (failed(checkSameElementType(rewriter, op, {lhs, rhs},
                                    resultType.getElementType())))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < rank; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, i == rank - 1 ? rhs : lhs, i));
    auto accType = resultType.clone(getOpMathType(resultType.getElementType()));
    Value init = createZeros(rewriter, loc, accType, dynamicSizes);
    Value product;
    if constexpr (std::is_same_v<LinalgOpTy, linalg::MatmulOp>)
      product = createMatmul(rewriter, this->getTypeConverter(), loc, accType,
                             lhs, op.getMat2(), rhs, init);
    else
      product = LinalgOpTy::create(rewriter, loc, TypeRange{accType},
                                   ValueRange{lhs, rhs}, ValueRange{init})
                    .getResult(0);
    rewriter.replaceOp(op, castFloatTensor(rewriter, loc, product, resultType));
    return success();
  }
};
using ConvertAtenMm = ConvertMatmulLike<AtenMmOp, linalg::MatmulOp, 2>;
using ConvertAtenBmm = ConvertMatmulLike<AtenBmmOp, linalg::BatchMatmulOp, 3>;

/// addmm(self, a, b, beta, alpha) = beta * self + alpha * (a @ b). With
/// beta = alpha = 1 the matmul accumulates straight into broadcast `self`.
/// f16/bf16 compute in f32 and round once, as PyTorch's CPU gemm does.
struct ConvertAtenAddmm : OpConversionPattern<AtenAddmmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenAddmmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    if (!resultType || resultType.getRank() != 2)
      return reportFailure(rewriter, op, "needs a 2-D result of known dtype");
    Type element = resultType.getElementType();
    Value self = adaptor.getSelf(), lhs = adaptor.getMat1(),
          rhs = adaptor.getMat2();
    if (failed(checkSameElementType(rewriter, op, {self, lhs, rhs}, element)))
      return failure();
    Location loc = op.getLoc();
    // Rows come from mat1, columns from mat2 (self may be a broadcast row).
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i < 2; ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, i == 0 ? lhs : rhs, i));
    Type accElement = getOpMathType(element);
    auto accType = resultType.clone(accElement);
    auto toAcc = [&](OpBuilder &b, Location l, Value x) -> Value {
      return accElement == element ? x : castFloat(b, l, x, accElement);
    };
    double beta = 0, alpha = 0;
    bool unitScales = matchTorchConstantFloat(op.getBeta(), beta) &&
                      matchTorchConstantFloat(op.getAlpha(), alpha) &&
                      beta == 1.0 && alpha == 1.0;
    if (unitScales) {
      Value init = createElementwise(
          rewriter, loc, accType, ValueRange{self},
          [&](OpBuilder &b, Location l, ValueRange args) {
            return toAcc(b, l, args[0]);
          },
          dynamicSizes);
      Value sum = createMatmul(rewriter, getTypeConverter(), loc, accType, lhs,
                               op.getMat2(), rhs, init);
      rewriter.replaceOp(op, castFloatTensor(rewriter, loc, sum, resultType));
      return success();
    }
    if (!isa<IntegerType, mlir::FloatType>(adaptor.getBeta().getType()) ||
        !isa<IntegerType, mlir::FloatType>(adaptor.getAlpha().getType()))
      return reportFailure(rewriter, op, "unsupported: beta/alpha type");
    Value betaValue =
        convertScalar(rewriter, loc, adaptor.getBeta(), accElement);
    Value alphaValue =
        convertScalar(rewriter, loc, adaptor.getAlpha(), accElement);
    Value product = createMatmul(
        rewriter, getTypeConverter(), loc, accType, lhs, op.getMat2(), rhs,
        createZeros(rewriter, loc, accType, dynamicSizes));
    bool isFloat = isa<mlir::FloatType>(element);
    Value result = createElementwise(
        rewriter, loc, resultType, ValueRange{self, product},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          if (isFloat) {
            Value scaledSelf =
                arith::MulFOp::create(b, l, toAcc(b, l, args[0]), betaValue);
            Value scaledProduct =
                arith::MulFOp::create(b, l, args[1], alphaValue);
            Value sum = arith::AddFOp::create(b, l, scaledSelf, scaledProduct);
            return castFloat(b, l, sum, element);
          }
          Value scaledSelf = arith::MulIOp::create(b, l, args[0], betaValue);
          Value scaledProduct =
              arith::MulIOp::create(b, l, args[1], alphaValue);
          return arith::AddIOp::create(b, l, scaledSelf, scaledProduct);
        });
    if (!result)
      return reportFailure(rewriter, op, kNotBroadcastable);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The dynamic sizes of a plain (not transposed) convolution's result of
/// `resultType` [N, F, O...], read from its zero-padded input [N, C, P...]:
/// the batch, and per spatial dim (P - dilation * (K - 1) - 1) / stride + 1
/// (`kernel` holds the K). Only the dims dynamic in `resultType`, in order.
static SmallVector<Value>
getConvResultSizes(OpBuilder &b, Location loc, Value padded,
                   ArrayRef<int64_t> kernel, RankedTensorType resultType,
                   ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation) {
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < resultType.getRank(); ++i) {
    if (!resultType.isDynamicDim(i) || i == 1)
      continue;
    Value size = tensor::DimOp::create(b, loc, padded, i);
    if (i >= 2) {
      int64_t span = dilation[i - 2] * (kernel[i - 2] - 1) + 1;
      size = arith::SubIOp::create(
          b, loc, size, arith::ConstantIndexOp::create(b, loc, span));
      size = arith::DivUIOp::create(
          b, loc, size, arith::ConstantIndexOp::create(b, loc, stride[i - 2]));
      size = arith::AddIOp::create(b, loc, size,
                                   arith::ConstantIndexOp::create(b, loc, 1));
    }
    sizes.push_back(size);
  }
  return sizes;
}

/// Any convolution as one linalg.generic over the grouped form
///   out[n, g, f, o...] += x[n, g, c, o * stride + k * dilation] * w[g, f, c,
///   k]
/// (reduction over c and k), accumulating in getOpMathType.
/// Plain convolutions zero-pad x. A transposed convolution (weight
/// [G*C, F, K...]) is the plain convolution, stride 1, of x spread out by
/// `stride` (stride - 1 zeros between elements) and padded by
/// dilation * (K - 1) - padding before (cropped where negative), with the
/// weight flipped along its spatial dims and its channel dims swapped.
static Value createGeneralConvolution(OpBuilder &rewriter, Location loc,
                                      Value input, Value weight, Value bias,
                                      RankedTensorType resultType,
                                      ArrayRef<int64_t> stride,
                                      ArrayRef<int64_t> padding,
                                      ArrayRef<int64_t> dilation,
                                      bool transposed, int64_t groups) {
  MLIRContext *context = rewriter.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  int64_t d = inputType.getRank() - 2;
  Type element = resultType.getElementType();
  Type accType = getOpMathType(element);
  bool isFloat = isa<mlir::FloatType>(element);
  int64_t n = inputType.getDimSize(0), cin = inputType.getDimSize(1);
  int64_t perGroupIn = cin / groups;
  int64_t perGroupOut = resultType.getDimSize(1) / groups;
  ArrayRef<int64_t> kernel = weightType.getShape().drop_front(2);
  auto cst = [&](OpBuilder &b, Location l, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, l, v);
  };

  // The (padded or spread) input and the grouped weight [G, F, C, K...].
  Value source;
  SmallVector<int64_t> convStride(stride);
  Value groupedWeight;
  if (!transposed) {
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    SmallVector<int64_t> low{0, 0};
    low.append(padding.begin(), padding.end());
    source = createPad(rewriter, loc, input, low, low, zero);
    SmallVector<int64_t> shape{groups, perGroupOut, perGroupIn};
    shape.append(kernel.begin(), kernel.end());
    SmallVector<ReassociationIndices> split{{0, 1}};
    for (int64_t i = 0; i < d + 1; ++i)
      split.push_back({i + 2});
    groupedWeight = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(shape, element), weight, split);
  } else {
    SmallVector<int64_t> shape{n, cin}, offsets;
    for (int64_t i = 0; i < d; ++i) {
      shape.push_back(resultType.getDimSize(2 + i) +
                      (kernel[i] - 1) * dilation[i]);
      offsets.push_back((kernel[i] - 1) * dilation[i] - padding[i]);
    }
    auto spreadType = RankedTensorType::get(shape, element);
    SmallVector<int64_t> inSizes(inputType.getShape().drop_front(2));
    source =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{spreadType}, ValueRange{},
            ValueRange{tensor::EmptyOp::create(rewriter, loc, shape, element)},
            ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(d + 2)},
            SmallVector<utils::IteratorType>(d + 2,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange) {
              Value valid =
                  arith::ConstantOp::create(b, l, b.getBoolAttr(true));
              SmallVector<Value> indices{linalg::IndexOp::create(b, l, 0),
                                         linalg::IndexOp::create(b, l, 1)};
              for (int64_t i = 0; i < d; ++i) {
                Value j = arith::SubIOp::create(
                    b, l, linalg::IndexOp::create(b, l, 2 + i),
                    cst(b, l, offsets[i]));
                Value q = arith::DivSIOp::create(b, l, j, cst(b, l, stride[i]));
                Value r = arith::RemSIOp::create(b, l, j, cst(b, l, stride[i]));
                Value inside = arith::AndIOp::create(
                    b, l,
                    arith::AndIOp::create(
                        b, l,
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                                              j, cst(b, l, 0)),
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, r,
                                              cst(b, l, 0))),
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, q,
                                          cst(b, l, inSizes[i])));
                valid = arith::AndIOp::create(b, l, valid, inside);
                indices.push_back(
                    arith::SelectOp::create(b, l, inside, q, cst(b, l, 0)));
              }
              Value value = tensor::ExtractOp::create(b, l, input, indices);
              Value zero =
                  arith::ConstantOp::create(b, l, b.getZeroAttr(element));
              linalg::YieldOp::create(
                  b, l,
                  ValueRange{arith::SelectOp::create(b, l, valid, value, zero)
                                 .getResult()});
            })
            .getResult(0);
    convStride.assign(d, 1);
    // weight [G*C, F, K...] read as [G, C, F, K...] into [G, F, C, K...],
    // flipped.
    SmallVector<int64_t> splitShape{groups, perGroupIn, perGroupOut};
    splitShape.append(kernel.begin(), kernel.end());
    SmallVector<ReassociationIndices> split{{0, 1}};
    for (int64_t i = 0; i < d + 1; ++i)
      split.push_back({i + 2});
    Value splitWeight = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(splitShape, element), weight,
        split);
    SmallVector<int64_t> shapeOut{groups, perGroupOut, perGroupIn};
    shapeOut.append(kernel.begin(), kernel.end());
    SmallVector<AffineExpr> exprs{getAffineDimExpr(0, context),
                                  getAffineDimExpr(2, context),
                                  getAffineDimExpr(1, context)};
    for (int64_t i = 0; i < d; ++i)
      exprs.push_back(kernel[i] - 1 - getAffineDimExpr(3 + i, context));
    auto flippedType = RankedTensorType::get(shapeOut, element);
    groupedWeight =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{flippedType}, ValueRange{splitWeight},
            ValueRange{
                tensor::EmptyOp::create(rewriter, loc, shapeOut, element)},
            ArrayRef<AffineMap>{AffineMap::get(d + 3, 0, exprs, context),
                                rewriter.getMultiDimIdentityMap(d + 3)},
            SmallVector<utils::IteratorType>(d + 3,
                                             utils::IteratorType::parallel),
            [](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(b, l, args[0]);
            })
            .getResult(0);
  }
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> groupedSourceShape{n, groups, perGroupIn};
  groupedSourceShape.append(sourceType.getShape().begin() + 2,
                            sourceType.getShape().end());
  SmallVector<ReassociationIndices> splitChannels{{0}, {1, 2}};
  for (int64_t i = 0; i < d; ++i)
    splitChannels.push_back({i + 3});
  Value groupedSource = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get(groupedSourceShape, element), source,
      splitChannels);

  // The accumulator [N, G, F, O...]: the bias or zeros. Its dynamic sizes
  // (batch and spatial; a transposed convolution has none) are the
  // result's.
  SmallVector<int64_t> accShape{n, groups, perGroupOut};
  accShape.append(resultType.getShape().begin() + 2,
                  resultType.getShape().end());
  auto accTensorType = RankedTensorType::get(accShape, accType);
  SmallVector<Value> accSizes;
  if (!transposed)
    accSizes = getConvResultSizes(rewriter, loc, source, kernel, resultType,
                                  stride, dilation);
  Value init;
  if (!bias) {
    init = createFilledWithSizes(rewriter, loc, accTensorType,
                                 createZero(rewriter, loc, accType), accSizes);
  } else {
    Value groupedBias = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({groups, perGroupOut}, element),
        bias, SmallVector<ReassociationIndices>{{0, 1}});
    init =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{accTensorType}, ValueRange{groupedBias},
            ValueRange{tensor::EmptyOp::create(rewriter, loc, accShape, accType,
                                               accSizes)},
            ArrayRef<AffineMap>{AffineMap::get(d + 3, 0,
                                               {getAffineDimExpr(1, context),
                                                getAffineDimExpr(2, context)},
                                               context),
                                rewriter.getMultiDimIdentityMap(d + 3)},
            SmallVector<utils::IteratorType>(d + 3,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value value = args[0];
              if (isFloat)
                value = castFloat(b, l, value, accType);
              linalg::YieldOp::create(b, l, value);
            })
            .getResult(0);
  }

  // Loops: n, g, f, o..., c, k...
  int64_t loops = 2 * d + 4;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, context); };
  SmallVector<AffineExpr> sourceExprs{dim(0), dim(1), dim(3 + d)};
  SmallVector<AffineExpr> weightExprs{dim(1), dim(2), dim(3 + d)};
  SmallVector<AffineExpr> outExprs{dim(0), dim(1), dim(2)};
  for (int64_t i = 0; i < d; ++i) {
    sourceExprs.push_back(dim(3 + i) * convStride[i] +
                          dim(4 + d + i) * dilation[i]);
    weightExprs.push_back(dim(4 + d + i));
    outExprs.push_back(dim(3 + i));
  }
  SmallVector<utils::IteratorType> iterators(3 + d,
                                             utils::IteratorType::parallel);
  iterators.append(d + 1, utils::IteratorType::reduction);
  Value conv =
      linalg::GenericOp::create(
          rewriter, loc, TypeRange{accTensorType},
          ValueRange{groupedSource, groupedWeight}, ValueRange{init},
          ArrayRef<AffineMap>{AffineMap::get(loops, 0, sourceExprs, context),
                              AffineMap::get(loops, 0, weightExprs, context),
                              AffineMap::get(loops, 0, outExprs, context)},
          iterators,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value sum;
            if (isFloat) {
              Value product =
                  arith::MulFOp::create(b, l, castFloat(b, l, args[0], accType),
                                        castFloat(b, l, args[1], accType));
              sum = arith::AddFOp::create(b, l, args[2], product);
            } else {
              sum = arith::AddIOp::create(
                  b, l, args[2], arith::MulIOp::create(b, l, args[0], args[1]));
            }
            linalg::YieldOp::create(b, l, sum);
          })
          .getResult(0);
  SmallVector<ReassociationIndices> mergeChannels{{0}, {1, 2}};
  for (int64_t i = 0; i < d; ++i)
    mergeChannels.push_back({i + 3});
  auto mergedType = RankedTensorType::get(resultType.getShape(), accType);
  Value merged = tensor::CollapseShapeOp::create(rewriter, loc, mergedType,
                                                 conv, mergeChannels);
  if (accType == element)
    return merged;
  return createElementwise(rewriter, loc, resultType, ValueRange{merged},
                           [&](OpBuilder &b, Location l, ValueRange args) {
                             return castFloat(b, l, args[0], element);
                           });
}

/// The accumulator of a convolution result of `type` [N, F, O...]: `bias`
/// [F] broadcast along dim 1, or zeros.
static Value createBiasInit(OpBuilder &b, Location loc, Value bias,
                            RankedTensorType type, ValueRange dynamicSizes) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), dynamicSizes);
  if (!bias) {
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    return linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
        .getResult(0);
  }
  int64_t rank = type.getRank();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{bias}, ValueRange{empty},
             ArrayRef<AffineMap>{AffineMap::get(rank, 0, b.getAffineDimExpr(1)),
                                 b.getMultiDimIdentityMap(rank)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

/// A 2-D convolution (input [N, C, H, W], weight [F, C / groups, KH, KW],
/// result [N, F, OH, OW]) as linalg.conv_2d_nchw_fchw, or
/// linalg.conv_2d_ngchw_gfchw when grouped, on the zero-padded input,
/// accumulating into the bias: the forms refbackend-runtime-kernels hands
/// to the runtime's GEMM kernels. The batch and spatial sizes may be
/// dynamic.
static Value createConv2d(OpBuilder &b, Location loc, Value input, Value weight,
                          Value bias, RankedTensorType resultType,
                          ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                          ArrayRef<int64_t> dilation, int64_t groups) {
  Type element = resultType.getElementType();
  auto weightType = cast<RankedTensorType>(weight.getType());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  input = createPad(b, loc, input, {0, 0, padding[0], padding[1]},
                    {0, 0, padding[0], padding[1]}, zero);

  Value init = createBiasInit(
      b, loc, bias, resultType,
      getConvResultSizes(b, loc, input, weightType.getShape().drop_front(2),
                         resultType, stride, dilation));
  auto strides = b.getI64TensorAttr(stride);
  auto dilations = b.getI64TensorAttr(dilation);
  if (groups == 1)
    return linalg::Conv2DNchwFchwOp::create(
               b, loc, TypeRange{resultType}, ValueRange{input, weight},
               ValueRange{init}, strides, dilations)
        .getResult(0);

  // Grouped: split the channel dims into (groups, channels per group).
  auto paddedType = cast<RankedTensorType>(input.getType());
  int64_t n = paddedType.getDimSize(0), c = paddedType.getDimSize(1);
  int64_t f = weightType.getDimSize(0);
  auto groupedInputType =
      RankedTensorType::get({n, groups, c / groups, paddedType.getDimSize(2),
                             paddedType.getDimSize(3)},
                            element);
  auto groupedWeightType = RankedTensorType::get(
      {groups, f / groups, weightType.getDimSize(1), weightType.getDimSize(2),
       weightType.getDimSize(3)},
      element);
  auto groupedResultType = RankedTensorType::get(
      {resultType.getDimSize(0), groups, f / groups, resultType.getDimSize(2),
       resultType.getDimSize(3)},
      element);
  SmallVector<ReassociationIndices> splitDim1{{0}, {1, 2}, {3}, {4}};
  SmallVector<ReassociationIndices> splitDim0{{0, 1}, {2}, {3}, {4}};
  Value groupedInput =
      tensor::ExpandShapeOp::create(b, loc, groupedInputType, input, splitDim1);
  Value groupedWeight = tensor::ExpandShapeOp::create(b, loc, groupedWeightType,
                                                      weight, splitDim0);
  Value groupedInit =
      tensor::ExpandShapeOp::create(b, loc, groupedResultType, init, splitDim1);
  Value conv = linalg::Conv2DNgchwGfchwOp::create(
                   b, loc, TypeRange{groupedResultType},
                   ValueRange{groupedInput, groupedWeight},
                   ValueRange{groupedInit}, strides, dilations)
                   .getResult(0);
  return tensor::CollapseShapeOp::create(b, loc, resultType, conv, splitDim1);
}

/// A plain 1-, 2- or 3-D convolution as the named linalg convolution the
/// RefBackend's GEMM kernels run: a 1-D convolution is the 2-D one of
/// height 1, a 3-D one is linalg.conv_3d_ncdhw_fcdhw (ungrouped only).
/// Returns null for a grouped 3-D convolution.
static Value
createNamedConvolution(OpBuilder &b, Location loc, Value input, Value weight,
                       Value bias, RankedTensorType resultType,
                       ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                       ArrayRef<int64_t> dilation, int64_t groups) {
  int64_t d = resultType.getRank() - 2;
  if (d == 2)
    return createConv2d(b, loc, input, weight, bias, resultType, stride,
                        padding, dilation, groups);
  if (d == 1) {
    // [N, C, L] as [N, C, 1, L].
    SmallVector<ReassociationIndices> addHeight{{0}, {1}, {2, 3}};
    auto withHeight = [&](Value value) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      auto expanded = RankedTensorType::get(
          {type.getDimSize(0), type.getDimSize(1), 1, type.getDimSize(2)},
          type.getElementType());
      return tensor::ExpandShapeOp::create(b, loc, expanded, value, addHeight);
    };
    auto result2d = RankedTensorType::get({resultType.getDimSize(0),
                                           resultType.getDimSize(1), 1,
                                           resultType.getDimSize(2)},
                                          resultType.getElementType());
    Value conv = createConv2d(b, loc, withHeight(input), withHeight(weight),
                              bias, result2d, {1, stride[0]}, {0, padding[0]},
                              {1, dilation[0]}, groups);
    return tensor::CollapseShapeOp::create(b, loc, resultType, conv, addHeight);
  }
  if (d != 3 || groups != 1)
    return nullptr;
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(resultType.getElementType()));
  SmallVector<int64_t> low{0, 0};
  low.append(padding.begin(), padding.end());
  input = createPad(b, loc, input, low, low, zero);
  auto weightType = cast<RankedTensorType>(weight.getType());
  Value init = createBiasInit(
      b, loc, bias, resultType,
      getConvResultSizes(b, loc, input, weightType.getShape().drop_front(2),
                         resultType, stride, dilation));
  return linalg::Conv3DNcdhwFcdhwOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input, weight},
             ValueRange{init}, b.getI64TensorAttr(stride),
             b.getI64TensorAttr(dilation))
      .getResult(0);
}

/// A transposed convolution of floats (input [N, G*C, I...], weight
/// [G*C, F, K...], result [N, G*F, O...]; the batch and spatial sizes may
/// be dynamic: the output sizes and each tap's count of columns are then
/// computed at run time) as PyTorch's CPU
/// kernel computes it (slow_conv_transpose2d/3d): a GEMM into columns,
///   cols[g, f, k..., n, i...] = sum_c w[g*C + c, f, k...] * x[n, g*C + c,
///   i...]
/// (linalg.batch_matmul over the groups: the form the RefBackend hands to
/// its GEMM kernels), then col2im, which adds each tap's columns into the
/// output positions o = i * stride - padding + k * dilation that fall inside
/// it, tap after tap in kernel order, then the bias. All of it accumulates
/// in getOpMathType (f32 for f16/bf16) and rounds once at the end, as
/// oneDNN's kernel, which eager runs for f16/bf16 on CPUs with native
/// support for them, does (rounding the columns to f16 first, as the slow
/// kernel does, lands up to several ulps farther from the exact result).
/// Only products of the input's own elements are formed: no zero is
/// multiplied by an inf or NaN weight, as a convolution over a zero-spread
/// input would.
static Value createCol2ImTransposedConvolution(
    OpBuilder &b, Location loc, Value input, Value weight, Value bias,
    RankedTensorType resultType, ArrayRef<int64_t> stride,
    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
    ArrayRef<int64_t> outputPadding, int64_t groups) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  MLIRContext *context = b.getContext();
  Type element = resultType.getElementType();
  Type accType = getOpMathType(element);
  int64_t d = resultType.getRank() - 2;
  int64_t n = inputType.getDimSize(0);
  int64_t perGroupIn = inputType.getDimSize(1) / groups;
  int64_t perGroupOut = weightType.getDimSize(1);
  ArrayRef<int64_t> kernel = weightType.getShape().drop_front(2);
  ArrayRef<int64_t> inSizes = inputType.getShape().drop_front(2);
  ArrayRef<int64_t> outSizes = resultType.getShape().drop_front(2);
  // The batch and spatial sizes, static or read at run time; an unknown
  // output size is PyTorch's (in - 1) * stride - 2 * padding + dilation *
  // (kernel - 1) + output_padding + 1 of the run-time input size.
  OpFoldResult batch = tensor::getMixedSize(b, loc, input, 0);
  SmallVector<OpFoldResult> inMixed, outMixed;
  for (int64_t i = 0; i < d; ++i) {
    inMixed.push_back(tensor::getMixedSize(b, loc, input, 2 + i));
    if (!ShapedType::isDynamic(outSizes[i])) {
      outMixed.push_back(b.getIndexAttr(outSizes[i]));
      continue;
    }
    Value in = getValueOrCreateConstantIndexOp(b, loc, inMixed.back());
    outMixed.push_back(
        arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, in, cstIndex(b, loc, stride[i])),
            cstIndex(b, loc,
                     dilation[i] * (kernel[i] - 1) + outputPadding[i] + 1 -
                         stride[i] - 2 * padding[i]))
            .getResult());
  }
  auto product = [](int64_t x, int64_t y) {
    return ShapedType::isDynamic(x) || ShapedType::isDynamic(y)
               ? ShapedType::kDynamic
               : x * y;
  };
  int64_t taps = 1, pixels = 1;
  for (int64_t i = 0; i < d; ++i) {
    taps *= kernel[i];
    pixels = product(pixels, inSizes[i]);
  }
  auto type = [&](ArrayRef<int64_t> shape, Type t) {
    return RankedTensorType::get(shape, t);
  };
  auto transpose = [&](Value value, ArrayRef<int64_t> permutation) {
    auto valueType = cast<RankedTensorType>(value.getType());
    SmallVector<OpFoldResult> sizes;
    for (int64_t i : permutation)
      sizes.push_back(tensor::getMixedSize(b, loc, value, i));
    Value init =
        tensor::EmptyOp::create(b, loc, sizes, valueType.getElementType());
    return linalg::TransposeOp::create(b, loc, value, init, permutation)
        .getResult()[0];
  };
  // `value` collapsed by `reassociation` (the result type inferred), then
  // cast to `target` (a size the result type knows and the input's type
  // does not).
  auto collapseTo = [&](Value value,
                        ArrayRef<ReassociationIndices> reassociation,
                        RankedTensorType target) -> Value {
    return castTo(b, loc,
                  tensor::CollapseShapeOp::create(b, loc, value, reassociation),
                  target);
  };
  SmallVector<ReassociationIndices> trailing{{0}, {1}};
  trailing.push_back(llvm::to_vector(llvm::seq<int64_t>(2, d + 2)));

  // lhs [G, F*K, C]: the weight [G*C, F*K] split by group, transposed.
  Value flatWeight = tensor::CollapseShapeOp::create(
      b, loc, type({groups * perGroupIn, perGroupOut * taps}, element), weight,
      SmallVector<ReassociationIndices>{
          {0}, llvm::to_vector(llvm::seq<int64_t>(1, d + 2))});
  Value splitWeight = tensor::ExpandShapeOp::create(
      b, loc, type({groups, perGroupIn, perGroupOut * taps}, element),
      flatWeight, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  Value lhs = transpose(splitWeight, {0, 2, 1});
  // rhs [G, C, N*I]: the input [N, G, C, I] with the batch moved inside.
  Value flatInput = tensor::CollapseShapeOp::create(
      b, loc, type({n, groups * perGroupIn, pixels}, element), input, trailing);
  Value splitInput = tensor::ExpandShapeOp::create(
      b, loc, type({n, groups, perGroupIn, pixels}, element), flatInput,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
  Value rhs = tensor::CollapseShapeOp::create(
      b, loc, type({groups, perGroupIn, product(n, pixels)}, element),
      n == 1 ? splitInput : transpose(splitInput, {1, 2, 0, 3}),
      n == 1 ? SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}}
             : SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
  auto colsAccType =
      type({groups, perGroupOut * taps, product(n, pixels)}, accType);
  Value cols = linalg::BatchMatmulOp::create(
                   b, loc, TypeRange{colsAccType}, ValueRange{lhs, rhs},
                   ValueRange{createZeroFilled(b, loc, colsAccType, rhs)})
                   .getResult(0);
  // cols as [G, F, K..., N, I...].
  SmallVector<int64_t> colsShape{groups, perGroupOut};
  colsShape.append(kernel.begin(), kernel.end());
  colsShape.push_back(n);
  colsShape.append(inSizes.begin(), inSizes.end());
  SmallVector<OpFoldResult> colsMixed = llvm::map_to_vector(
      ArrayRef(colsShape).take_front(d + 2),
      [&](int64_t size) -> OpFoldResult { return b.getIndexAttr(size); });
  colsMixed.push_back(batch);
  colsMixed.append(inMixed);
  SmallVector<ReassociationIndices> colsSplit{{0}};
  colsSplit.push_back(llvm::to_vector(llvm::seq<int64_t>(1, d + 2)));
  colsSplit.push_back(llvm::to_vector(llvm::seq<int64_t>(d + 2, 2 * d + 3)));
  // memref.expand_shape takes at most one dynamic size per group (its
  // strides are computed from the others): with more (the batch and the
  // spatial sizes of a dynamic [N*I...]), a tensor.reshape to the run-time
  // sizes instead.
  if (llvm::count(ArrayRef(colsShape).drop_front(d + 2),
                  ShapedType::kDynamic) <= 1) {
    cols = tensor::ExpandShapeOp::create(b, loc, type(colsShape, accType), cols,
                                         colsSplit, colsMixed);
  } else {
    SmallVector<Value> sizes =
        llvm::map_to_vector(colsMixed, [&](OpFoldResult size) -> Value {
          return getValueOrCreateConstantIndexOp(b, loc, size);
        });
    Value shape = tensor::FromElementsOp::create(
        b, loc,
        RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                              b.getIndexType()),
        sizes);
    cols = tensor::ReshapeOp::create(b, loc, type(colsShape, accType), cols,
                                     shape);
  }

  SmallVector<int64_t> outShape{n, groups, perGroupOut};
  outShape.append(outSizes.begin(), outSizes.end());
  SmallVector<OpFoldResult> outShapeMixed{batch, b.getIndexAttr(groups),
                                          b.getIndexAttr(perGroupOut)};
  outShapeMixed.append(outMixed);
  SmallVector<ReassociationIndices> mergeChannels{{0}, {1, 2}};
  for (int64_t i = 0; i < d; ++i)
    mergeChannels.push_back({i + 3});

  // Kernel = stride, no padding, dilation 1 and no output padding (the
  // upsampling of a U-Net decoder): the taps tile the output, each output
  // position o = i * stride + k receives exactly one column. col2im is then
  // a transpose of cols into out viewed [N, G, F, I0, K0, I1, K1, ...], the
  // bias added on the way: one pass, where the taps' read-modify-write
  // passes over a zero-filled output took 2 + taps (ConvTranspose3d(16, 8,
  // 2, stride=2): ten parallel loops, slower with 2 threads than with 1).
  bool tiles = true;
  for (int64_t i = 0; i < d; ++i)
    tiles &= stride[i] == kernel[i] && dilation[i] == 1 && padding[i] == 0 &&
             outputPadding[i] == 0;
  if (tiles) {
    int64_t loops = 3 + 2 * d;
    SmallVector<int64_t> tiledShape{n, groups, perGroupOut};
    SmallVector<OpFoldResult> tiledMixed{batch, b.getIndexAttr(groups),
                                         b.getIndexAttr(perGroupOut)};
    SmallVector<AffineExpr> colsExprs{b.getAffineDimExpr(1),
                                      b.getAffineDimExpr(2)};
    SmallVector<ReassociationIndices> untile{{0}, {1}, {2}};
    for (int64_t i = 0; i < d; ++i) {
      tiledShape.append({inSizes[i], kernel[i]});
      tiledMixed.append({inMixed[i], b.getIndexAttr(kernel[i])});
      colsExprs.push_back(b.getAffineDimExpr(4 + 2 * i));
      untile.push_back({3 + 2 * i, 4 + 2 * i});
    }
    colsExprs.push_back(b.getAffineDimExpr(0));
    for (int64_t i = 0; i < d; ++i)
      colsExprs.push_back(b.getAffineDimExpr(3 + 2 * i));
    SmallVector<Value> ins{cols};
    SmallVector<AffineMap> maps{AffineMap::get(loops, 0, colsExprs, context)};
    if (bias) {
      ins.push_back(tensor::ExpandShapeOp::create(
          b, loc, type({groups, perGroupOut}, element), bias,
          SmallVector<ReassociationIndices>{{0, 1}}));
      maps.push_back(AffineMap::get(
          loops, 0, {b.getAffineDimExpr(1), b.getAffineDimExpr(2)}, context));
    }
    maps.push_back(b.getMultiDimIdentityMap(loops));
    Value tiled =
        linalg::GenericOp::create(
            b, loc, TypeRange{type(tiledShape, element)}, ins,
            ValueRange{tensor::EmptyOp::create(b, loc, tiledMixed, element)},
            maps,
            SmallVector<utils::IteratorType>(loops,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value y = args[0];
              if (bias)
                y = arith::AddFOp::create(nb, l, y,
                                          castFloat(nb, l, args[1], accType));
              linalg::YieldOp::create(nb, l, castFloat(nb, l, y, element));
            })
            .getResult(0);
    Value untiled = tensor::CollapseShapeOp::create(b, loc, tiled, untile);
    return collapseTo(untiled, mergeChannels, resultType);
  }

  // col2im into out [N, G, F, O...], zeros first.
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(accType));
  Value out =
      linalg::FillOp::create(
          b, loc, ValueRange{zero},
          ValueRange{tensor::EmptyOp::create(b, loc, outShapeMixed, accType)})
          .getResult(0);
  int64_t loops = d + 3;
  SmallVector<AffineExpr> colsExprs{
      b.getAffineDimExpr(1), b.getAffineDimExpr(2), b.getAffineDimExpr(0)};
  for (int64_t i = 0; i < d; ++i)
    colsExprs.push_back(b.getAffineDimExpr(3 + i));
  AffineMap colsMap = AffineMap::get(loops, 0, colsExprs, context);
  // A parallel generic over `init`'s [N, G, F, O...] space yielding the
  // sum of its first two operands (ins, then init's elements).
  auto addElementwise = [&](ValueRange ins, Value init,
                            ArrayRef<AffineMap> maps) -> Value {
    return linalg::GenericOp::create(
               b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
               SmallVector<utils::IteratorType>(loops,
                                                utils::IteratorType::parallel),
               [](OpBuilder &nb, Location l, ValueRange args) {
                 linalg::YieldOp::create(
                     nb, l,
                     ValueRange{arith::AddFOp::create(nb, l, args[0], args[1])
                                    .getResult()});
               })
        .getResult(0);
  };
  SmallVector<int64_t> tap(d, 0);
  for (int64_t t = 0; t < taps; ++t) {
    // The i with 0 <= i * s - p + k * dil < O, per dim: from `first`,
    // `count` of them (computed at run time, at least 0, where a size is
    // unknown).
    SmallVector<int64_t> first(d);
    SmallVector<OpFoldResult> count(d);
    SmallVector<int64_t> countShape(d);
    bool any = true;
    for (int64_t i = 0; i < d; ++i) {
      int64_t shift = tap[i] * dilation[i] - padding[i];
      int64_t lo = shift >= 0 ? 0 : (-shift + stride[i] - 1) / stride[i];
      first[i] = lo;
      if (!ShapedType::isDynamic(inSizes[i]) &&
          !ShapedType::isDynamic(outSizes[i])) {
        int64_t hi = std::min(inSizes[i] - 1,
                              outSizes[i] - 1 - shift < 0
                                  ? -1
                                  : (outSizes[i] - 1 - shift) / stride[i]);
        countShape[i] = hi - lo + 1;
        count[i] = b.getIndexAttr(countShape[i]);
        any &= countShape[i] > 0;
        continue;
      }
      Value in = getValueOrCreateConstantIndexOp(b, loc, inMixed[i]);
      Value o = getValueOrCreateConstantIndexOp(b, loc, outMixed[i]);
      Value hi = arith::MinSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, in, cstIndex(b, loc, 1)),
          arith::FloorDivSIOp::create(
              b, loc,
              arith::SubIOp::create(b, loc, o, cstIndex(b, loc, 1 + shift)),
              cstIndex(b, loc, stride[i])));
      count[i] =
          arith::MaxSIOp::create(
              b, loc,
              arith::SubIOp::create(b, loc, hi, cstIndex(b, loc, lo - 1)),
              cstIndex(b, loc, 0))
              .getResult();
      countShape[i] = ShapedType::kDynamic;
    }
    if (any) {
      SmallVector<OpFoldResult> colsOffsets{b.getIndexAttr(0),
                                            b.getIndexAttr(0)},
          colsSizes{b.getIndexAttr(groups), b.getIndexAttr(perGroupOut)};
      for (int64_t i = 0; i < d; ++i) {
        colsOffsets.push_back(b.getIndexAttr(tap[i]));
        colsSizes.push_back(b.getIndexAttr(1));
      }
      colsOffsets.push_back(b.getIndexAttr(0));
      colsSizes.push_back(batch);
      SmallVector<int64_t> sliceShape{groups, perGroupOut, n};
      SmallVector<int64_t> outSliceShape{n, groups, perGroupOut};
      SmallVector<OpFoldResult> outOffsets(3, b.getIndexAttr(0)),
          outSizesMixed{batch, b.getIndexAttr(groups),
                        b.getIndexAttr(perGroupOut)},
          outStrides(3, b.getIndexAttr(1));
      for (int64_t i = 0; i < d; ++i) {
        colsOffsets.push_back(b.getIndexAttr(first[i]));
        colsSizes.push_back(count[i]);
        sliceShape.push_back(countShape[i]);
        outSliceShape.push_back(countShape[i]);
        outOffsets.push_back(b.getIndexAttr(first[i] * stride[i] +
                                            tap[i] * dilation[i] - padding[i]));
        outSizesMixed.push_back(count[i]);
        outStrides.push_back(b.getIndexAttr(stride[i]));
      }
      SmallVector<OpFoldResult> ones(2 * d + 3, b.getIndexAttr(1));
      // The tap's columns [G, F, N, count...]: a rank-reducing slice, or,
      // when a size is dynamic, the full-rank one [G, F, 1..., N, count...]
      // read at tap index 0 (which unit dims a rank-reducing slice drops is
      // inferred from the sizes, and with G or F = 1 the lowering of
      // dynamic sizes can pick the wrong ones).
      AffineMap sliceMap = colsMap;
      if (llvm::is_contained(sliceShape, ShapedType::kDynamic)) {
        sliceShape.insert(sliceShape.begin() + 2, d, 1);
        SmallVector<AffineExpr> exprs(colsExprs);
        exprs.insert(exprs.begin() + 2, d, b.getAffineConstantExpr(0));
        sliceMap = AffineMap::get(loops, 0, exprs, context);
      }
      Value slice =
          tensor::ExtractSliceOp::create(b, loc, type(sliceShape, accType),
                                         cols, colsOffsets, colsSizes, ones);
      Value window = tensor::ExtractSliceOp::create(
          b, loc, type(outSliceShape, accType), out, outOffsets, outSizesMixed,
          outStrides);
      Value sum = addElementwise(ValueRange{slice}, window,
                                 {sliceMap, b.getMultiDimIdentityMap(loops)});
      out = tensor::InsertSliceOp::create(b, loc, sum, out, outOffsets,
                                          outSizesMixed, outStrides);
    }
    // The next tap, the last dim fastest (PyTorch's col2im order).
    for (int64_t i = d - 1; i >= 0 && ++tap[i] == kernel[i]; --i)
      tap[i] = 0;
  }
  if (bias) {
    Value groupedBias = tensor::ExpandShapeOp::create(
        b, loc, type({groups, perGroupOut}, element), bias,
        SmallVector<ReassociationIndices>{{0, 1}});
    groupedBias = castFloatTensor(b, loc, groupedBias,
                                  type({groups, perGroupOut}, accType));
    out = addElementwise(
        ValueRange{out, groupedBias},
        createEmpty(b, loc, type(outShape, accType), out),
        {b.getMultiDimIdentityMap(loops),
         AffineMap::get(
             loops, 0, {b.getAffineDimExpr(1), b.getAffineDimExpr(2)}, context),
         b.getMultiDimIdentityMap(loops)});
  }
  out = castFloatTensor(b, loc, out, type(outShape, element));
  return collapseTo(out, mergeChannels, resultType);
}

/// aten.convolution: 1-, 2- and 3-D, plain or transposed, with stride,
/// zero padding, dilation, output_padding and groups. Plain convolutions of
/// f32, f64 or integers become named linalg convolutions, which the
/// RefBackend runs with its GEMM kernels (createNamedConvolution);
/// transposed ones of floats are a GEMM plus col2im
/// (createCol2ImTransposedConvolution); the others (16-bit floats, grouped
/// 3-D, transposed integers) use createGeneralConvolution.
struct ConvertAtenConvolution : OpConversionPattern<AtenConvolutionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenConvolutionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    int64_t rank = inputType.getRank();
    if (!resultType || rank < 3 || rank > 5 || resultType.getRank() != rank ||
        weightType.getRank() != rank)
      return reportFailure(rewriter, op,
                           "unsupported: only 1-D, 2-D and 3-D convolution of "
                           "batched input");
    int64_t d = rank - 2;
    bool transposed;
    if (!matchTorchConstantBool(op.getTransposed(), transposed))
      return reportFailure(rewriter, op, "transposed must be a constant");
    SmallVector<int64_t> stride, padding, dilation, outputPadding;
    int64_t groups;
    if (failed(matchIntList(op.getStride(), d, stride)) ||
        failed(matchIntList(op.getPadding(), d, padding)) ||
        failed(matchIntList(op.getDilation(), d, dilation)) ||
        !matchTorchConstantInt(op.getGroups(), groups))
      return reportFailure(
          rewriter, op,
          "stride, padding, dilation and groups must be constants");
    if (transposed &&
        failed(matchIntList(op.getOutputPadding(), d, outputPadding)))
      return reportFailure(rewriter, op, "output_padding must be constant");
    Type element = resultType.getElementType();
    if (failed(checkSameElementType(rewriter, op, {input, weight}, element)))
      return failure();
    if (element.isInteger(1))
      return reportFailure(rewriter, op, "unsupported: bool convolution");
    // Dynamic batch and spatial sizes: every convolution that is not
    // transposed (the named linalg convolutions of f32/f64, else the
    // general one, with the output sizes computed at run time), and the
    // transposed convolutions of floats (a GEMM and col2im of run-time
    // sizes); the channels and the weight stay static.
    bool dynamic = !resultType.hasStaticShape() || !inputType.hasStaticShape();
    if (!weightType.hasStaticShape() || inputType.isDynamicDim(1) ||
        resultType.isDynamicDim(1))
      return reportFailure(rewriter, op,
                           "unsupported: a dynamic weight or channel count");
    // Transposed integer convolutions take a dynamic batch only: one
    // sample at a time (see below).
    bool col2im = transposed && isa<mlir::FloatType>(element);
    bool perSample = dynamic && transposed && !col2im;
    if (perSample && (!hasStaticTrailingDims(inputType, 1) ||
                      !hasStaticTrailingDims(resultType, 1)))
      return reportFailure(rewriter, op,
                           "unsupported: dynamic spatial sizes of a "
                           "transposed integer convolution (export with "
                           "static spatial sizes)");
    // The output sizes PyTorch computes, checked against the result type.
    int64_t cin = inputType.getDimSize(1);
    int64_t cout = transposed ? weightType.getDimSize(1) * groups
                              : weightType.getDimSize(0);
    int64_t weightIn = transposed ? weightType.getDimSize(0)
                                  : weightType.getDimSize(1) * groups;
    if (groups <= 0 || cin % groups != 0 || cout % groups != 0 ||
        weightIn != cin || resultType.getDimSize(1) != cout)
      return reportFailure(rewriter, op,
                           "channels of input, weight and result do not match "
                           "the groups");
    for (int64_t i = 0; i < d; ++i) {
      int64_t in = inputType.getDimSize(2 + i);
      int64_t k = weightType.getDimSize(2 + i);
      if (stride[i] <= 0 || dilation[i] <= 0 || padding[i] < 0)
        return reportFailure(rewriter, op, "invalid stride/dilation/padding");
      if (ShapedType::isDynamic(in) || resultType.isDynamicDim(2 + i))
        continue; // Checked by the program's shape guards at run time.
      int64_t expected =
          transposed
              ? (in - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k - 1) +
                    outputPadding[i] + 1
              : (in + 2 * padding[i] - dilation[i] * (k - 1) - 1) / stride[i] +
                    1;
      if (expected != resultType.getDimSize(2 + i) || expected <= 0)
        return reportFailure(rewriter, op,
                             "result size does not match the convolution");
    }
    Value bias;
    if (!isTorchNone(op.getBias())) {
      bias = adaptor.getBias();
      auto biasType = dyn_cast<RankedTensorType>(bias.getType());
      if (!biasType || biasType.getRank() != 1 ||
          biasType.getElementType() != element)
        return reportFailure(rewriter, op,
                             "bias must be 1-D of the result dtype");
    }
    Location loc = op.getLoc();
    auto lower = [&](OpBuilder &b, Value in, RankedTensorType type) -> Value {
      if (col2im)
        return createCol2ImTransposedConvolution(b, loc, in, weight, bias, type,
                                                 stride, padding, dilation,
                                                 outputPadding, groups);
      if (!transposed && getOpMathType(element) == element) {
        // The named-op forms the RefBackend hands to its GEMM kernels.
        if (Value conv =
                createNamedConvolution(b, loc, in, weight, bias, type, stride,
                                       padding, dilation, groups))
          return conv;
      }
      return createGeneralConvolution(b, loc, in, weight, bias, type, stride,
                                      padding, dilation, transposed, groups);
    };
    if (!perSample) {
      rewriter.replaceOp(op, lower(rewriter, input, resultType));
      return success();
    }
    // A dynamic batch: an scf.for over the samples, each the convolution of
    // static sizes of a [1, C, ...] slice, inserted into the result.
    auto sampleShape = [](RankedTensorType type) {
      SmallVector<int64_t> shape(type.getShape());
      shape[0] = 1;
      return RankedTensorType::get(shape, type.getElementType());
    };
    RankedTensorType inSample = sampleShape(inputType);
    RankedTensorType outSample = sampleShape(resultType);
    Value batch = tensor::DimOp::create(rewriter, loc, input, 0);
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         element, ValueRange{batch});
    auto at = [&](OpBuilder &b, Value index, RankedTensorType sample,
                  SmallVector<OpFoldResult> &offsets,
                  SmallVector<OpFoldResult> &sizes,
                  SmallVector<OpFoldResult> &strides) {
      offsets.assign(sample.getRank(), b.getIndexAttr(0));
      offsets[0] = index;
      for (int64_t size : sample.getShape())
        sizes.push_back(b.getIndexAttr(size));
      strides.assign(sample.getRank(), b.getIndexAttr(1));
    };
    auto loop = scf::ForOp::create(
        rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, 0), batch,
        arith::ConstantIndexOp::create(rewriter, loc, 1), ValueRange{init},
        [&](OpBuilder &b, Location l, Value index, ValueRange carried) {
          SmallVector<OpFoldResult> offsets, sizes, strides;
          at(b, index, inSample, offsets, sizes, strides);
          Value slice = tensor::ExtractSliceOp::create(b, l, inSample, input,
                                                       offsets, sizes, strides);
          Value sample = lower(b, slice, outSample);
          SmallVector<OpFoldResult> outOffsets, outSizes, outStrides;
          at(b, index, outSample, outOffsets, outSizes, outStrides);
          scf::YieldOp::create(
              b, l,
              tensor::InsertSliceOp::create(b, l, sample, carried[0],
                                            outOffsets, outSizes, outStrides)
                  .getResult());
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Integer contractions (quantized programs)
//===----------------------------------------------------------------------===//

/// Whether `value` is a torch tensor of dtype int8 (si8).
static bool isInt8Tensor(Value value) {
  auto type = dyn_cast<ValueTensorType>(value.getType());
  return type && type.hasDtype() && type.getDtype().isSignedInteger(8);
}

/// aten._int_mm(a [M, K] int8, b [K, N] int8) -> [M, N] int32: linalg.matmul
/// of the sign-extended products into a zero-filled int32 accumulator (the
/// form refbackend-runtime-kernels hands to its int8 GEMM). A transposed
/// weight (`aten.permute(w, [1, 0])`) is read in place, as for aten.mm.
struct ConvertAtenIntMm : OpConversionPattern<Aten_IntMmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Aten_IntMmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    if (resultType.getRank() != 2 ||
        !resultType.getElementType().isInteger(32) ||
        !isInt8Tensor(op.getSelf()) || !isInt8Tensor(op.getMat2()))
      return reportFailure(rewriter, op,
                           "needs 2-D int8 operands and an int32 result");
    Location loc = op.getLoc();
    Value lhs = adaptor.getSelf(), rhs = adaptor.getMat2();
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0))
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, lhs, 0));
    if (resultType.isDynamicDim(1))
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, rhs, 1));
    Value init = createZeros(rewriter, loc, resultType, dynamicSizes);
    rewriter.replaceOp(op,
                       createMatmul(rewriter, getTypeConverter(), loc,
                                    resultType, lhs, op.getMat2(), rhs, init));
    return success();
  }
};

/// torch2mlir.int_conv2d(input [N, C, H, W] int8, input_zero_point, weight
/// [F, C, KH, KW] int8, stride, padding, dilation) -> [N, F, OH, OW] int32:
/// the input padded with its zero point, then linalg.conv_2d_nchw_fchw_q
/// (sum of (input - zero point) * (weight - 0), sign-extended to int32).
struct ConvertIntConv2d : OpConversionPattern<Torch2mlirIntConv2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Torch2mlirIntConv2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        getConvertedResultType(rewriter, op, getTypeConverter());
    if (!resultType)
      return failure();
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    auto weightType = dyn_cast<RankedTensorType>(weight.getType());
    if (!inputType || !weightType || inputType.getRank() != 4 ||
        weightType.getRank() != 4 || resultType.getRank() != 4 ||
        !resultType.getElementType().isInteger(32) ||
        !isInt8Tensor(op.getInput()) || !isInt8Tensor(op.getWeight()))
      return reportFailure(rewriter, op,
                           "needs 4-D int8 input and weight and an int32 "
                           "result");
    if (!inputType.hasStaticShape() || !weightType.hasStaticShape() ||
        !resultType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: dynamic sizes");
    int64_t zeroPoint;
    SmallVector<int64_t> stride, padding, dilation;
    if (!matchTorchConstantInt(op.getInputZeroPoint(), zeroPoint) ||
        failed(matchIntList(op.getStride(), 2, stride)) ||
        failed(matchIntList(op.getPadding(), 2, padding)) ||
        failed(matchIntList(op.getDilation(), 2, dilation)))
      return reportFailure(rewriter, op,
                           "zero point, stride, padding and dilation must be "
                           "constants");
    if (zeroPoint < -128 || zeroPoint > 127)
      return reportFailure(rewriter, op, "the zero point is not an int8");
    if (inputType.getDimSize(1) != weightType.getDimSize(1) ||
        resultType.getDimSize(1) != weightType.getDimSize(0))
      return reportFailure(rewriter, op,
                           "channels of input, weight and result differ");
    for (int64_t i = 0; i < 2; ++i) {
      if (stride[i] <= 0 || dilation[i] <= 0 || padding[i] < 0)
        return reportFailure(rewriter, op, "invalid stride/dilation/padding");
      int64_t span = dilation[i] * (weightType.getDimSize(2 + i) - 1) + 1;
      int64_t expected =
          (inputType.getDimSize(2 + i) + 2 * padding[i] - span) / stride[i] + 1;
      if (expected != resultType.getDimSize(2 + i))
        return reportFailure(rewriter, op,
                             "result size does not match the convolution");
    }
    Location loc = op.getLoc();
    Value padValue = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getIntegerAttr(rewriter.getI8Type(), zeroPoint));
    input = createPad(rewriter, loc, input, {0, 0, padding[0], padding[1]},
                      {0, 0, padding[0], padding[1]}, padValue);
    Value inputZero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getI32IntegerAttr(zeroPoint));
    Value weightZero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    Value init = createZeros(rewriter, loc, resultType, {});
    Value conv = linalg::Conv2DNchwFchwQOp::create(
                     rewriter, loc, TypeRange{resultType},
                     ValueRange{input, weight, inputZero, weightZero},
                     ValueRange{init}, rewriter.getI64TensorAttr(stride),
                     rewriter.getI64TensorAttr(dilation))
                     .getResult(0);
    rewriter.replaceOp(op, conv);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// col2im
//===----------------------------------------------------------------------===//

/// col2im(x [N, C*kh*kw, L], output_size, kernel, dilation, padding,
/// stride): the sum of the sliding blocks (fold), in opmath. Output (c, h, w)
/// adds, over the taps (i, j) in order, x[c*kh*kw + i*kw + j, bh*nbw + bw]
/// where h + pad - i*dilation = bh*stride (and likewise for w) lands on a
/// block.
struct ConvertCol2Im : OpConversionPattern<AtenCol2imOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtenCol2imOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getConvertedTensorType(getTypeConverter(), op.getResult());
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    if (!resultType || (rank != 2 && rank != 3) ||
        resultType.getRank() != rank + 1)
      return reportFailure(rewriter, op, "expects a 2-D or 3-D input");
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
      return reportFailure(rewriter, op, "unsupported: dynamic shapes");
    SmallVector<int64_t> size, kernel, dilation, padding, stride;
    if (failed(matchIntList(op.getOutputSize(), 2, size)) ||
        failed(matchIntList(op.getKernelSize(), 2, kernel)) ||
        failed(matchIntList(op.getDilation(), 2, dilation)) ||
        failed(matchIntList(op.getPadding(), 2, padding)) ||
        failed(matchIntList(op.getStride(), 2, stride)))
      return reportFailure(rewriter, op,
                           "output_size, kernel_size, dilation, padding and "
                           "stride must be constants");
    SmallVector<int64_t> blocks;
    for (int i = 0; i < 2; ++i) {
      if (kernel[i] <= 0 || dilation[i] <= 0 || stride[i] <= 0 ||
          padding[i] < 0)
        return reportFailure(rewriter, op, "invalid col2im parameters");
      blocks.push_back(
          (size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) /
              stride[i] +
          1);
    }
    if (inputType.getDimSize(rank - 1) != blocks[0] * blocks[1] ||
        inputType.getDimSize(rank - 2) % (kernel[0] * kernel[1]) != 0)
      return reportFailure(rewriter, op, "input sizes do not match the blocks");
    Type element = resultType.getElementType();
    if (!isa<mlir::FloatType>(element))
      return reportFailure(rewriter, op,
                           "unsupported: col2im of integers (PyTorch has no "
                           "integer kernel)");
    Type acc = getOpMathType(element);
    Location loc = op.getLoc();
    int64_t lead = rank - 2; // 1 when batched
    auto accType = RankedTensorType::get(resultType.getShape(), acc);
    Value sum =
        createWindowGeneric(
            rewriter, loc, {}, {}, {createZeroFilled(rewriter, loc, accType)},
            kernel,
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              SmallVector<Value> position;
              for (int64_t i = 0; i < lead; ++i)
                position.push_back(linalg::IndexOp::create(b, l, i));
              Value c = linalg::IndexOp::create(b, l, lead);
              Value valid =
                  arith::ConstantOp::create(b, l, b.getBoolAttr(true));
              Value zero = cstIndex(b, l, 0);
              SmallVector<Value> blockIndex;
              for (int64_t i = 0; i < 2; ++i) {
                Value out = linalg::IndexOp::create(b, l, lead + 1 + i);
                Value tap = linalg::IndexOp::create(b, l, lead + 3 + i);
                Value shifted = arith::SubIOp::create(
                    b, l,
                    arith::AddIOp::create(b, l, out,
                                          cstIndex(b, l, padding[i])),
                    arith::MulIOp::create(b, l, tap,
                                          cstIndex(b, l, dilation[i])));
                Value q = arith::DivSIOp::create(b, l, shifted,
                                                 cstIndex(b, l, stride[i]));
                Value r = arith::RemSIOp::create(b, l, shifted,
                                                 cstIndex(b, l, stride[i]));
                Value inside = arith::AndIOp::create(
                    b, l,
                    arith::AndIOp::create(
                        b, l,
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                                              shifted, zero),
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, r,
                                              zero)),
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, q,
                                          cstIndex(b, l, blocks[i])));
                valid = arith::AndIOp::create(b, l, valid, inside);
                blockIndex.push_back(
                    arith::SelectOp::create(b, l, inside, q, zero));
              }
              Value tapH = linalg::IndexOp::create(b, l, lead + 3);
              Value tapW = linalg::IndexOp::create(b, l, lead + 4);
              Value row = arith::AddIOp::create(
                  b, l,
                  arith::MulIOp::create(b, l, c,
                                        cstIndex(b, l, kernel[0] * kernel[1])),
                  arith::AddIOp::create(
                      b, l,
                      arith::MulIOp::create(b, l, tapH,
                                            cstIndex(b, l, kernel[1])),
                      tapW));
              Value column = arith::AddIOp::create(
                  b, l,
                  arith::MulIOp::create(b, l, blockIndex[0],
                                        cstIndex(b, l, blocks[1])),
                  blockIndex[1]);
              position.push_back(row);
              position.push_back(column);
              Value value = tensor::ExtractOp::create(b, l, input, position);
              Value updated = arith::AddFOp::create(
                  b, l, args.back(), castFloat(b, l, value, acc));
              return {
                  arith::SelectOp::create(b, l, valid, updated, args.back())};
            })
            .front();
    if (acc != element)
      sum = castFloatTensor(rewriter, loc, sum, resultType);
    rewriter.replaceOp(op, sum);
    return success();
  }
};

} // namespace

void mlir::torch2mlir::populateLinearPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<AtenMmOp, AtenBmmOp, AtenAddmmOp, AtenConvolutionOp,
                    AtenCol2imOp, Aten_IntMmOp, Torch2mlirIntConv2dOp>(target);
  patterns.add<ConvertAtenMm, ConvertAtenBmm, ConvertAtenAddmm,
               ConvertAtenConvolution, ConvertCol2Im, ConvertAtenIntMm,
               ConvertIntConv2d>(typeConverter, context);
}
