//===- TorchOnnxToTorch.cpp - The convert-torch-onnx-to-torch pass --------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/Passes.h"

#include "torch2mlir/Dialect/Torch/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir::torch2mlir {
#define GEN_PASS_DEF_CONVERTTORCHONNXTOTORCH
#include "torch2mlir/Conversion/Passes.h.inc"
} // namespace mlir::torch2mlir

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::onnx_c;

static constexpr StringLiteral kAttrPrefix = "torch.onnx.";
static constexpr StringLiteral kOpsetAttr = "torch.onnx_meta.opset_version";
static constexpr StringLiteral kOpPrefix = "onnx.";

/// Why each op was not lowered, while the pass runs on this thread.
static thread_local llvm::DenseMap<Operation *, std::string> *failureReasons;

//===----------------------------------------------------------------------===//
// OpBinder
//===----------------------------------------------------------------------===//

Value OpBinder::getOperand(unsigned i) const {
  if (i >= op->getNumOperands())
    return Value();
  Value operand = op->getOperand(i);
  return isa<torch::NoneType>(operand.getType()) ? Value() : operand;
}

LogicalResult OpBinder::getTensorOperands(SmallVectorImpl<Value> &out) const {
  for (unsigned i = 0, e = getNumOperands(); i < e; ++i) {
    Value operand = getOperand(i);
    if (!operand || !isa<ValueTensorType>(operand.getType()))
      return failure();
    out.push_back(operand);
  }
  return success();
}

ValueTensorType OpBinder::getResultType(unsigned i) const {
  auto type = getAnyResultType(i);
  if (!type || !type.hasSizes() || !type.hasDtype())
    return nullptr;
  return type;
}

ValueTensorType OpBinder::getAnyResultType(unsigned i) const {
  if (i >= op->getNumResults())
    return nullptr;
  return dyn_cast<ValueTensorType>(op->getResult(i).getType());
}

Attribute OpBinder::getAttr(StringRef name) const {
  return op->getAttr((kAttrPrefix + name).str());
}

bool OpBinder::hasAttr(StringRef name) const {
  return static_cast<bool>(getAttr(name));
}

LogicalResult OpBinder::getInt(StringRef name, int64_t &out,
                               std::optional<int64_t> defaultValue) const {
  Attribute attr = getAttr(name);
  if (!attr) {
    if (!defaultValue)
      return failure();
    out = *defaultValue;
    return success();
  }
  auto intAttr = dyn_cast<IntegerAttr>(attr);
  if (!intAttr)
    return failure();
  out = intAttr.getValue().getSExtValue();
  return success();
}

LogicalResult OpBinder::getFloat(StringRef name, double &out,
                                 std::optional<double> defaultValue) const {
  Attribute attr = getAttr(name);
  if (!attr) {
    if (!defaultValue)
      return failure();
    out = *defaultValue;
    return success();
  }
  if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    out = floatAttr.getValueAsDouble();
    return success();
  }
  return failure();
}

LogicalResult OpBinder::getString(StringRef name, std::string &out,
                                  std::optional<StringRef> defaultValue) const {
  Attribute attr = getAttr(name);
  if (!attr) {
    if (!defaultValue)
      return failure();
    out = defaultValue->str();
    return success();
  }
  auto stringAttr = dyn_cast<StringAttr>(attr);
  if (!stringAttr)
    return failure();
  out = stringAttr.getValue().str();
  return success();
}

LogicalResult OpBinder::getInts(StringRef name, SmallVectorImpl<int64_t> &out,
                                ArrayRef<int64_t> defaultValue) const {
  Attribute attr = getAttr(name);
  if (!attr) {
    out.assign(defaultValue.begin(), defaultValue.end());
    return success();
  }
  auto array = dyn_cast<ArrayAttr>(attr);
  if (!array)
    return failure();
  for (Attribute element : array) {
    auto intAttr = dyn_cast<IntegerAttr>(element);
    if (!intAttr)
      return failure();
    out.push_back(intAttr.getValue().getSExtValue());
  }
  return success();
}

LogicalResult OpBinder::getFloats(StringRef name,
                                  SmallVectorImpl<double> &out) const {
  auto array = dyn_cast_or_null<ArrayAttr>(getAttr(name));
  if (!array)
    return failure();
  for (Attribute element : array) {
    auto floatAttr = dyn_cast<FloatAttr>(element);
    if (!floatAttr)
      return failure();
    out.push_back(floatAttr.getValueAsDouble());
  }
  return success();
}

LogicalResult OpBinder::getConstantInts(unsigned i,
                                        SmallVectorImpl<int64_t> &out) const {
  return getConstantTensorInts(getOperand(i), out);
}

LogicalResult
mlir::torch2mlir::onnx_c::getConstantTensorInts(Value value,
                                                SmallVectorImpl<int64_t> &out) {
  if (!value)
    return failure();
  Attribute attr;
  if (auto literal = value.getDefiningOp<ValueTensorLiteralOp>())
    attr = literal.getValue();
  else if (auto constant = value.getDefiningOp<OperatorOp>();
           constant && constant.getName() == "onnx.Constant")
    attr = constant->getAttr("torch.onnx.value");
  auto elements = dyn_cast_or_null<DenseIntElementsAttr>(attr);
  if (!elements || elements.getElementType().isInteger(1))
    return failure();
  // The importer's literals are signless: the torch dtype says whether the
  // bytes are unsigned (dense<-56> of a ui8 tensor is 200).
  auto type = dyn_cast<ValueTensorType>(value.getType());
  bool isUnsigned =
      elements.getElementType().isUnsignedInteger() ||
      (type && type.hasDtype() && type.getDtype().isUnsignedInteger());
  for (const APInt &element : elements.getValues<APInt>())
    out.push_back(isUnsigned ? static_cast<int64_t>(element.getZExtValue())
                             : element.getSExtValue());
  return success();
}

LogicalResult OpBinder::fail(PatternRewriter &rewriter,
                             const Twine &reason) const {
  if (failureReasons)
    (*failureReasons)[op.getOperation()] = reason.str();
  return rewriter.notifyMatchFailure(op, reason);
}

//===----------------------------------------------------------------------===//
// OnnxLoweringSet
//===----------------------------------------------------------------------===//

void OnnxLoweringSet::on(StringRef opName, int64_t sinceVersion,
                         OnnxLowering lowering) {
  auto &versions = byName[opName];
  versions.emplace_back(sinceVersion, std::move(lowering));
  llvm::sort(versions, [](const auto &a, const auto &b) {
    return a.first > b.first; // Newest first.
  });
}

const OnnxLowering *OnnxLoweringSet::lookup(StringRef opName,
                                            int64_t opsetVersion) const {
  auto it = byName.find(opName);
  if (it == byName.end())
    return nullptr;
  for (const auto &[since, lowering] : it->second)
    if (since <= opsetVersion)
      return &lowering;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The pattern and the pass
//===----------------------------------------------------------------------===//

/// The default-domain opset of the function holding `op` (0 if unknown).
static int64_t getOpsetVersion(Operation *op) {
  for (Operation *parent = op; parent; parent = parent->getParentOp())
    if (auto version = parent->getAttrOfType<IntegerAttr>(kOpsetAttr))
      return version.getValue().getSExtValue();
  return 0;
}

/// The ONNX node name the importer put in the location, or "".
static std::string getNodeName(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string name = getNodeName(inner); !name.empty())
        return name;
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  return "";
}

namespace {
struct LowerOnnxOperator : OpRewritePattern<OperatorOp> {
  LowerOnnxOperator(MLIRContext *context, const OnnxLoweringSet &lowerings)
      : OpRewritePattern(context), lowerings(lowerings) {}

  LogicalResult matchAndRewrite(OperatorOp op,
                                PatternRewriter &rewriter) const override {
    StringRef name = op.getName();
    if (!name.consume_front(kOpPrefix))
      return rewriter.notifyMatchFailure(op, "not an ONNX default-domain op");
    int64_t version = getOpsetVersion(op);
    OpBinder binder(op, version);
    const OnnxLowering *lowering = lowerings.lookup(name, version);
    if (!lowering) {
      if (lowerings.contains(name))
        return binder.fail(rewriter, "no lowering for this opset version");
      return binder.fail(rewriter, "no lowering for this op");
    }
    return (*lowering)(binder, rewriter);
  }

  const OnnxLoweringSet &lowerings;
};

struct ConvertTorchOnnxToTorchPass
    : public mlir::torch2mlir::impl::ConvertTorchOnnxToTorchBase<
          ConvertTorchOnnxToTorchPass> {
  LogicalResult initialize(MLIRContext *context) override {
    populateOnnxElementwiseLowerings(lowerings);
    populateOnnxNeuralNetLowerings(lowerings);
    populateOnnxShapeLowerings(lowerings);
    populateOnnxReductionLowerings(lowerings);
    populateOnnxActivationLowerings(lowerings);
    populateOnnxTensorLowerings(lowerings);
    populateOnnxNormalizationLowerings(lowerings);
    populateOnnxLossLowerings(lowerings);
    populateOnnxAttentionLowerings(lowerings);
    populateOnnxResizeLowerings(lowerings);
    populateOnnxRecurrentLowerings(lowerings);
    populateOnnxUnpoolLowerings(lowerings);
    RewritePatternSet set(context);
    populateTorchOnnxToTorchPatterns(set, lowerings);
    patterns = FrozenRewritePatternSet(std::move(set));
    RewritePatternSet fusionSet(context);
    populateOnnxQdqFusionPatterns(fusionSet);
    fusions = FrozenRewritePatternSet(std::move(fusionSet));
    return success();
  }

  void runOnOperation() override {
    llvm::DenseMap<Operation *, std::string> reasons;
    failureReasons = &reasons;
    auto reset = llvm::make_scope_exit([] { failureReasons = nullptr; });
    // Quantized contractions of a QDQ model first: the lowering would
    // dequantize their operands (the rewritten DequantizeLinear ops are
    // left without users and fold away).
    (void)applyPatternsGreedily(getOperation(), fusions);
    // Constants and unused values fold away as lowering proceeds.
    (void)applyPatternsGreedily(getOperation(), patterns);

    bool failed = false;
    getOperation()->walk([&](OperatorOp op) {
      StringRef name = op.getName();
      if (!name.consume_front(kOpPrefix))
        return;
      failed = true;
      InFlightDiagnostic diag = op.emitError()
                                << "'onnx." << name << "' (opset "
                                << getOpsetVersion(op);
      if (std::string node = getNodeName(op.getLoc()); !node.empty())
        diag << ", node '" << node << "'";
      diag << ") could not be lowered to the torch dialect: ";
      auto reason = reasons.find(op.getOperation());
      diag << (reason != reasons.end() ? reason->second
                                       : "no lowering for this op");
      diag << "; convert the model to another opset (--opset-version) or "
              "report the op";
    });
    if (failed)
      signalPassFailure();
  }

  OnnxLoweringSet lowerings;
  FrozenRewritePatternSet patterns, fusions;
};
} // namespace

void mlir::torch2mlir::onnx_c::populateTorchOnnxToTorchPatterns(
    RewritePatternSet &patterns, const OnnxLoweringSet &lowerings) {
  patterns.add<LowerOnnxOperator>(patterns.getContext(), lowerings);
}

void mlir::torch2mlir::onnx_c::registerTorchOnnxToTorchPipeline() {
  PassPipelineRegistration<torch::BackendContractPipelineOptions>(
      "torch-onnx-to-torch-backend-pipeline",
      "From imported ONNX (torch.operator \"onnx.*\") to the backend contract",
      [](OpPassManager &pm,
         const torch::BackendContractPipelineOptions &options) {
        pm.addNestedPass<func::FuncOp>(createConvertTorchOnnxToTorch());
        torch::createLowerToBackendContractPipeline(pm, options);
      });
}

//===----------------------------------------------------------------------===//
// Helpers shared by the lowerings (Utils.h)
//===----------------------------------------------------------------------===//

ValueTensorType mlir::torch2mlir::onnx_c::getKnownTensorType(Value value) {
  auto type =
      dyn_cast_or_null<ValueTensorType>(value ? value.getType() : Type());
  if (!type || !type.hasSizes() || !type.hasDtype())
    return nullptr;
  return type;
}

ValueTensorType mlir::torch2mlir::onnx_c::withSizes(Value value,
                                                    ArrayRef<int64_t> sizes) {
  auto type = cast<ValueTensorType>(value.getType());
  return ValueTensorType::get(value.getContext(), sizes,
                              type.getOptionalDtype());
}

LogicalResult mlir::torch2mlir::onnx_c::normalizeAxis(int64_t &axis,
                                                      int64_t rank) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    return failure();
  if (axis < 0)
    axis += rank;
  return success();
}

Value mlir::torch2mlir::onnx_c::createPermute(PatternRewriter &rewriter,
                                              Location loc, Value value,
                                              ArrayRef<int64_t> dims) {
  auto type = cast<ValueTensorType>(value.getType());
  SmallVector<int64_t> sizes;
  if (type.hasSizes())
    for (int64_t dim : dims)
      sizes.push_back(type.getSizes()[dim]);
  auto resultType = type.hasSizes()
                        ? ValueTensorType::get(value.getContext(), sizes,
                                               type.getOptionalDtype())
                        : type;
  return AtenPermuteOp::create(rewriter, loc, resultType, value,
                               createIntList(rewriter, loc, dims));
}

Value mlir::torch2mlir::onnx_c::createView(PatternRewriter &rewriter,
                                           Location loc, Value value,
                                           ArrayRef<int64_t> sizes,
                                           ValueTensorType resultType) {
  return AtenViewOp::create(rewriter, loc, resultType, value,
                            createIntList(rewriter, loc, sizes));
}

Value mlir::torch2mlir::onnx_c::createScalarLiteral(PatternRewriter &rewriter,
                                                    Location loc, Type dtype,
                                                    double value) {
  Type element = getBuiltinElementType(dtype);
  auto tensorType = RankedTensorType::get({}, element);
  Attribute attr;
  if (isa<mlir::FloatType>(element))
    attr = DenseElementsAttr::get(tensorType,
                                  rewriter.getFloatAttr(element, value));
  else
    attr = DenseElementsAttr::get(
        tensorType,
        rewriter.getIntegerAttr(element, static_cast<int64_t>(value)));
  return ValueTensorLiteralOp::create(
      rewriter, loc,
      ValueTensorType::get(rewriter.getContext(), ArrayRef<int64_t>{}, dtype),
      cast<ElementsAttr>(attr));
}

ValueTensorType mlir::torch2mlir::onnx_c::getTensorType(MLIRContext *context,
                                                        ArrayRef<int64_t> sizes,
                                                        Type dtype) {
  return ValueTensorType::get(context, sizes, dtype);
}

Type mlir::torch2mlir::onnx_c::getSi64Type(MLIRContext *context) {
  return IntegerType::get(context, 64, IntegerType::Signed);
}

Value mlir::torch2mlir::onnx_c::createToDtype(PatternRewriter &rewriter,
                                              Location loc, Value value,
                                              Type dtype) {
  auto type = cast<ValueTensorType>(value.getType());
  if (type.getDtype() == dtype)
    return value;
  Value f = createConstantBool(rewriter, loc, false);
  return AtenToDtypeOp::create(
      rewriter, loc,
      ValueTensorType::get(rewriter.getContext(), type.getOptionalSizes(),
                           dtype),
      value, createConstantInt(rewriter, loc, *getScalarTypeCode(dtype)), f, f,
      createConstantNone(rewriter, loc));
}

Value mlir::torch2mlir::onnx_c::createArange(PatternRewriter &rewriter,
                                             Location loc, int64_t n) {
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  Value none = createConstantNone(rewriter, loc);
  return AtenArangeStartStepOp::create(
      rewriter, loc, ValueTensorType::get(context, ArrayRef<int64_t>{n}, si64),
      createConstantInt(rewriter, loc, 0), createConstantInt(rewriter, loc, n),
      createConstantInt(rewriter, loc, 1),
      createConstantInt(rewriter, loc, *getScalarTypeCode(si64)), none, none,
      none);
}

SmallVector<Value>
mlir::torch2mlir::onnx_c::createUnravelIndex(PatternRewriter &rewriter,
                                             Location loc, Value flat,
                                             ArrayRef<int64_t> sizes) {
  MLIRContext *context = rewriter.getContext();
  Type type = flat.getType();
  Value floor = ConstantStrOp::create(rewriter, loc, StringType::get(context),
                                      rewriter.getStringAttr("floor"));
  auto floorDiv = [&](int64_t divisor) -> Value {
    if (divisor == 1)
      return flat;
    return AtenDivTensorModeOp::create(
        rewriter, loc, type, flat,
        createScalarLiteral(rewriter, loc, getSi64Type(context), divisor),
        floor);
  };
  int64_t stride = 1;
  for (int64_t size : sizes)
    stride *= size;
  SmallVector<Value> coordinates;
  for (auto [d, size] : llvm::enumerate(sizes)) {
    int64_t outer = stride;
    stride /= size;
    Value coordinate = floorDiv(stride);
    if (d > 0)
      coordinate = AtenSubTensorOp::create(
          rewriter, loc, type, coordinate,
          AtenMulScalarOp::create(rewriter, loc, type, floorDiv(outer),
                                  createConstantInt(rewriter, loc, size)),
          createConstantInt(rewriter, loc, 1));
    coordinates.push_back(coordinate);
  }
  return coordinates;
}

Value mlir::torch2mlir::onnx_c::createZeros(PatternRewriter &rewriter,
                                            Location loc,
                                            ArrayRef<int64_t> sizes,
                                            Type dtype) {
  Value none = createConstantNone(rewriter, loc);
  return AtenZerosOp::create(
      rewriter, loc, ValueTensorType::get(rewriter.getContext(), sizes, dtype),
      createIntList(rewriter, loc, sizes),
      createConstantInt(rewriter, loc, *getScalarTypeCode(dtype)), none, none,
      none);
}

void mlir::torch2mlir::onnx_c::replaceOpWithCastResults(
    PatternRewriter &rewriter, Operation *op, ArrayRef<Value> results) {
  assert(results.size() == op->getNumResults() && "one value per result");
  SmallVector<Value> replacements(results);
  for (auto [value, result] : llvm::zip(replacements, op->getResults()))
    if (value.getType() != result.getType())
      value = TensorStaticInfoCastOp::create(rewriter, op->getLoc(),
                                             result.getType(), value);
  rewriter.replaceOp(op, replacements);
}

void mlir::torch2mlir::onnx_c::assertDimSize(PatternRewriter &rewriter,
                                             Location loc, Value value,
                                             int64_t dim, int64_t size,
                                             const Twine &message) {
  MLIRContext *context = rewriter.getContext();
  Value actual =
      AtenSizeIntOp::create(rewriter, loc, IntType::get(context), value,
                            createConstantInt(rewriter, loc, dim));
  RuntimeAssertOp::create(
      rewriter, loc,
      AtenEqIntOp::create(rewriter, loc, BoolType::get(context), actual,
                          createConstantInt(rewriter, loc, size)),
      rewriter.getStringAttr(message));
}

Value mlir::torch2mlir::onnx_c::assertStaticLength(PatternRewriter &rewriter,
                                                   Location loc, Value values,
                                                   int64_t count,
                                                   const Twine &message) {
  assertDimSize(rewriter, loc, values, 0, count, message);
  return TensorStaticInfoCastOp::create(rewriter, loc,
                                        withSizes(values, {count}), values);
}

LogicalResult mlir::torch2mlir::onnx_c::assertValuesEqual(
    PatternRewriter &rewriter, Location loc, Value values,
    ArrayRef<int64_t> expected, StringRef what) {
  SmallVector<SmallVector<int64_t, 2>> accepted;
  for (int64_t value : expected)
    accepted.push_back({value});
  return assertValuesIn(rewriter, loc, values, accepted, what);
}

LogicalResult mlir::torch2mlir::onnx_c::assertValuesIn(
    PatternRewriter &rewriter, Location loc, Value values,
    ArrayRef<SmallVector<int64_t, 2>> accepted, StringRef what) {
  auto type = getKnownTensorType(values);
  if (!type || type.getSizes().size() > 1 ||
      !isa<IntegerType, mlir::FloatType>(type.getDtype()))
    return failure();
  int64_t count = type.getSizes().empty() ? 1 : type.getSizes()[0];
  MLIRContext *context = rewriter.getContext();
  if (count == kUnknownSize) {
    // A run-time length: checked first, so the reads below stay in bounds.
    count = accepted.size();
    values = assertStaticLength(
        rewriter, loc, values, count,
        "this " + what + " at run time are not " + Twine(count) +
            " values, as its declared result types need");
  }
  if (count != static_cast<int64_t>(accepted.size()))
    return failure();
  Type si64 = getSi64Type(context);
  Value flat = createToDtype(
      rewriter, loc,
      createView(rewriter, loc, values, {count}, withSizes(values, {count})),
      si64);
  auto scalarType = getTensorType(context, {}, si64);
  auto boolType = getTensorType(context, {}, rewriter.getI1Type());
  Value zero = createConstantInt(rewriter, loc, 0);
  Value all;
  for (auto [i, values] : llvm::enumerate(accepted)) {
    if (values.empty())
      continue; // any value
    Value element =
        AtenSelectIntOp::create(rewriter, loc, scalarType, flat, zero,
                                createConstantInt(rewriter, loc, i));
    Value any;
    for (int64_t value : values) {
      Value equal =
          AtenEqScalarOp::create(rewriter, loc, boolType, element,
                                 createConstantInt(rewriter, loc, value));
      any = any ? AtenLogicalOrOp::create(rewriter, loc, boolType, any, equal)
                      .getResult()
                : equal;
    }
    all = all ? AtenLogicalAndOp::create(rewriter, loc, boolType, all, any)
                    .getResult()
              : any;
  }
  if (!all)
    return success();
  Value holds = AtenItemOp::create(rewriter, loc, BoolType::get(context), all);
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "this " << what << " at run time are not [";
  llvm::interleaveComma(accepted, os, [&](ArrayRef<int64_t> values) {
    if (values.empty())
      os << "any";
    llvm::interleave(values, os, " or ");
  });
  os << "], the sizes its declared result types give (a graph output or "
        "value_info declaration the data contradicts)";
  RuntimeAssertOp::create(rewriter, loc, holds,
                          rewriter.getStringAttr(message));
  return success();
}

Value mlir::torch2mlir::onnx_c::matchesAxes(PatternRewriter &rewriter,
                                            Location loc, Value axes,
                                            ArrayRef<int64_t> candidate) {
  MLIRContext *context = rewriter.getContext();
  auto axesType = cast<ValueTensorType>(axes.getType());
  auto boolType =
      getTensorType(context, axesType.getSizes(), rewriter.getI1Type());
  Value listed;
  for (int64_t d : candidate) {
    Value equal = AtenEqScalarOp::create(rewriter, loc, boolType, axes,
                                         createConstantInt(rewriter, loc, d));
    listed =
        listed ? AtenLogicalOrOp::create(rewriter, loc, boolType, listed, equal)
                     .getResult()
               : equal;
  }
  Type si64 = getSi64Type(context);
  Value count = AtenSumOp::create(
      rewriter, loc, getTensorType(context, {}, si64),
      createToDtype(rewriter, loc, listed, si64),
      createConstantInt(rewriter, loc, *getScalarTypeCode(si64)));
  return AtenEqScalarOp::create(
      rewriter, loc, getTensorType(context, {}, rewriter.getI1Type()), count,
      createConstantInt(rewriter, loc, candidate.size()));
}

LogicalResult mlir::torch2mlir::onnx_c::assertAxesName(
    PatternRewriter &rewriter, Location loc, Value axes, int64_t rank,
    ArrayRef<int64_t> named, bool allowEmpty, StringRef what) {
  auto type = getKnownTensorType(axes);
  if (!type || type.getSizes().size() != 1 ||
      !isa<IntegerType>(type.getDtype()))
    return failure();
  MLIRContext *context = rewriter.getContext();
  Type si64 = getSi64Type(context);
  auto boolType = getTensorType(context, {}, rewriter.getI1Type());
  Value wrapped = wrapNegativeIndices(
      rewriter, loc, createToDtype(rewriter, loc, axes, si64), rank);
  auto boolsType =
      getTensorType(context, type.getSizes(), rewriter.getI1Type());
  auto all = [&](Value bools) -> Value {
    // all(b) = !any(!b).
    Value none = AtenAnyOp::create(
        rewriter, loc, boolType,
        AtenLogicalNotOp::create(rewriter, loc, bools.getType(), bools));
    return AtenLogicalNotOp::create(rewriter, loc, boolType, none);
  };
  auto both = [&](Value a, Value b) -> Value {
    return AtenLogicalAndOp::create(rewriter, loc, boolType, a, b);
  };
  // Every axis in [0, rank) once wrapped.
  Value holds = all(AtenLogicalAndOp::create(
      rewriter, loc, boolsType,
      AtenGeScalarOp::create(rewriter, loc, boolsType, wrapped,
                             createConstantInt(rewriter, loc, 0)),
      AtenLtScalarOp::create(rewriter, loc, boolsType, wrapped,
                             createConstantInt(rewriter, loc, rank))));
  for (auto [d, mustName] : llvm::enumerate(named)) {
    if (mustName < 0)
      continue;
    Value listed = AtenAnyOp::create(
        rewriter, loc, boolType,
        AtenEqScalarOp::create(rewriter, loc, boolsType, wrapped,
                               createConstantInt(rewriter, loc, d)));
    if (!mustName)
      listed = AtenLogicalNotOp::create(rewriter, loc, boolType, listed);
    holds = both(holds, listed);
  }
  if (!allowEmpty) {
    Value length =
        AtenSizeIntOp::create(rewriter, loc, IntType::get(context), axes,
                              createConstantInt(rewriter, loc, 0));
    RuntimeAssertOp::create(
        rewriter, loc,
        AtenGtIntOp::create(rewriter, loc, BoolType::get(context), length,
                            createConstantInt(rewriter, loc, 0)),
        rewriter.getStringAttr("this " + what +
                               " at run time are empty, which names every "
                               "dim, unlike its declared result sizes"));
  }
  RuntimeAssertOp::create(
      rewriter, loc,
      AtenItemOp::create(rewriter, loc, BoolType::get(context), holds),
      rewriter.getStringAttr(
          "this " + what +
          " at run time name other dims than its declared input and result "
          "sizes imply (a graph output or value_info declaration the data "
          "contradicts)"));
  return success();
}

Value mlir::torch2mlir::onnx_c::wrapNegativeIndices(PatternRewriter &rewriter,
                                                    Location loc, Value indices,
                                                    int64_t dimSize) {
  auto type = cast<ValueTensorType>(indices.getType());
  auto boolType = ValueTensorType::get(
      rewriter.getContext(), type.getOptionalSizes(), rewriter.getI1Type());
  Value zero = createConstantInt(rewriter, loc, 0);
  Value negative =
      AtenLtScalarOp::create(rewriter, loc, boolType, indices, zero);
  Value shifted = AtenAddScalarOp::create(
      rewriter, loc, type, indices, createConstantInt(rewriter, loc, dimSize),
      createConstantInt(rewriter, loc, 1));
  return AtenWhereSelfOp::create(rewriter, loc, type, negative, shifted,
                                 indices);
}

FailureOr<SmallVector<int64_t>>
mlir::torch2mlir::onnx_c::broadcastSizes(ArrayRef<int64_t> a,
                                         ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> sizes(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return failure();
    sizes[i] = x == 1 ? y : x;
  }
  return sizes;
}
