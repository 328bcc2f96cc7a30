//===- TorchOps.cpp - Ops of the torch dialect ----------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;

//===----------------------------------------------------------------------===//
// The default assembly of generated ops
//===----------------------------------------------------------------------===//

ParseResult mlir::torch2mlir::torch::parseDefaultTorchOp(OpAsmParser &parser,
                                                         OperationState &result,
                                                         int numOperands,
                                                         int numResults) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  llvm::SMLoc operandsLoc = parser.getCurrentLocation();
  if (numOperands > 0 && parser.parseOperandList(operands, numOperands))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SmallVector<Type> operandTypes;
  if (numOperands > 0 && parser.parseTypeList(operandTypes))
    return failure();
  if (numResults > 0) {
    if (parser.parseArrow() || parser.parseTypeList(result.types))
      return failure();
    if (static_cast<int>(result.types.size()) != numResults)
      return parser.emitError(parser.getCurrentLocation())
             << "expected " << numResults << " result types";
  }
  return parser.resolveOperands(operands, operandTypes, operandsLoc,
                                result.operands);
}

void mlir::torch2mlir::torch::printDefaultTorchOp(OpAsmPrinter &p,
                                                  Operation *op,
                                                  int numOperands,
                                                  int numResults) {
  if (numOperands > 0) {
    p << ' ';
    p.printOperands(op->getOperands());
  }
  p.printOptionalAttrDict(op->getAttrs());
  p << " : ";
  llvm::interleaveComma(op->getOperandTypes(), p);
  if (numResults > 0) {
    p << " -> ";
    llvm::interleaveComma(op->getResultTypes(), p);
  }
}

#define GET_OP_CLASSES
#include "torch2mlir/Dialect/Torch/IR/TorchOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Matchers
//===----------------------------------------------------------------------===//

bool mlir::torch2mlir::torch::matchTorchConstantInt(Value value, int64_t &out) {
  if (auto op = value.getDefiningOp<ConstantIntOp>()) {
    out = op.getValue();
    return true;
  }
  return false;
}

bool mlir::torch2mlir::torch::matchTorchConstantFloat(Value value,
                                                      double &out) {
  if (auto op = value.getDefiningOp<ConstantFloatOp>()) {
    out = op.getValue().convertToDouble();
    return true;
  }
  int64_t integer;
  if (matchTorchConstantInt(value, integer)) {
    out = static_cast<double>(integer);
    return true;
  }
  return false;
}

bool mlir::torch2mlir::torch::matchTorchConstantBool(Value value, bool &out) {
  if (auto op = value.getDefiningOp<ConstantBoolOp>()) {
    out = op.getValue();
    return true;
  }
  return false;
}

bool mlir::torch2mlir::torch::matchTorchConstantIntList(
    Value value, SmallVectorImpl<int64_t> &out) {
  auto list = value.getDefiningOp<PrimListConstructOp>();
  if (!list)
    return false;
  out.clear();
  for (Value element : list.getElements()) {
    int64_t integer;
    if (!matchTorchConstantInt(element, integer))
      return false;
    out.push_back(integer);
  }
  return true;
}

bool mlir::torch2mlir::torch::isTorchNone(Value value) {
  return isa<torch::NoneType>(value.getType());
}

int64_t mlir::torch2mlir::torch::toPositiveDim(int64_t dim, int64_t rank) {
  int64_t positive = dim < 0 ? dim + rank : dim;
  return (positive >= 0 && positive < std::max<int64_t>(rank, 1)) ? positive
                                                                  : -1;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

void ConstantIntOp::build(OpBuilder &builder, OperationState &state,
                          int64_t value) {
  build(builder, state, IntType::get(builder.getContext()),
        builder.getI64IntegerAttr(value));
}

void ConstantFloatOp::build(OpBuilder &builder, OperationState &state,
                            double value) {
  build(builder, state, torch::FloatType::get(builder.getContext()),
        builder.getF64FloatAttr(value));
}

void ConstantBoolOp::build(OpBuilder &builder, OperationState &state,
                           bool value) {
  build(builder, state, BoolType::get(builder.getContext()),
        builder.getBoolAttr(value));
}

OpFoldResult ConstantIntOp::fold(FoldAdaptor) { return getValueAttr(); }
OpFoldResult ConstantFloatOp::fold(FoldAdaptor) { return getValueAttr(); }
OpFoldResult ConstantBoolOp::fold(FoldAdaptor) { return getValueAttr(); }
OpFoldResult ConstantNoneOp::fold(FoldAdaptor) {
  return UnitAttr::get(getContext());
}
OpFoldResult ConstantStrOp::fold(FoldAdaptor) { return getValueAttr(); }
OpFoldResult ConstantDeviceOp::fold(FoldAdaptor) { return getValueAttr(); }

void ConstantIntOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(),
            ("int" + llvm::Twine(static_cast<int64_t>(getValue()))).str());
}
void ConstantFloatOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "float");
}
void ConstantBoolOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), getValue() ? "true" : "false");
}
void ConstantNoneOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "none");
}
void ConstantStrOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "str");
}
void ConstantDeviceOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), getValue());
}

//===----------------------------------------------------------------------===//
// PrimListConstructOp
//===----------------------------------------------------------------------===//

/// Whether a value of type `sub` may stand where `super` is expected: equal
/// types, a tensor with more known sizes/dtype than the expected one, None or
/// a T for Optional[T].
static bool isValidSubtype(Type sub, Type super) {
  if (sub == super)
    return true;
  if (auto superOpt = dyn_cast<OptionalType>(super))
    return isa<torch::NoneType>(sub) ||
           isValidSubtype(sub, superOpt.getContainedType());
  if (isa<NumberType>(super))
    return isa<IntType, torch::FloatType>(sub);
  auto subTensor = dyn_cast<BaseTensorType>(sub);
  auto superTensor = dyn_cast<BaseTensorType>(super);
  if (!subTensor || !superTensor ||
      subTensor.hasValueSemantics() != superTensor.hasValueSemantics())
    return false;
  if (superTensor.hasDtype() &&
      subTensor.getOptionalDtype() != superTensor.getOptionalDtype())
    return false;
  if (superTensor.hasSizes()) {
    if (!subTensor.hasSizes() ||
        subTensor.getSizes().size() != superTensor.getSizes().size())
      return false;
    for (auto [subSize, superSize] :
         llvm::zip(subTensor.getSizes(), superTensor.getSizes()))
      if (superSize != kUnknownSize && subSize != superSize)
        return false;
  }
  return true;
}

LogicalResult PrimListConstructOp::verify() {
  Type elementType = getType().getContainedType();
  for (auto [index, element] : llvm::enumerate(getElements()))
    if (!isValidSubtype(element.getType(), elementType))
      return emitOpError() << "element #" << index << " of type "
                           << element.getType() << " is not a valid element of "
                           << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ValueTensorLiteralOp
//===----------------------------------------------------------------------===//

LogicalResult ValueTensorLiteralOp::verify() {
  auto resultType = getType();
  auto valueType = cast<ShapedType>(getValue().getType());
  if (!resultType.hasSizes() || !resultType.hasDtype())
    return emitOpError("result type must have known sizes and dtype, got ")
           << resultType;
  if (valueType.getShape() != resultType.getSizes())
    return emitOpError("literal shape [")
           << valueType.getShape() << "] does not match the result sizes ["
           << resultType.getSizes() << "]";
  Type dtype = resultType.getDtype();
  Type element = valueType.getElementType();
  if (element != dtype && element != getBuiltinElementType(dtype))
    return emitOpError("literal element type ")
           << element << " does not match the result dtype " << dtype;
  return success();
}

OpFoldResult ValueTensorLiteralOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// TensorStaticInfoCastOp
//===----------------------------------------------------------------------===//

LogicalResult TensorStaticInfoCastOp::verify() {
  auto from = cast<BaseTensorType>(getOperand().getType());
  auto to = cast<BaseTensorType>(getType());
  if (from.hasValueSemantics() != to.hasValueSemantics())
    return emitOpError("cannot change value semantics: ")
           << from << " to " << to;
  if (from.hasDtype() && to.hasDtype() && from.getDtype() != to.getDtype())
    return emitOpError("cannot change the dtype: ") << from << " to " << to;
  if (from.hasSizes() && to.hasSizes()) {
    ArrayRef<int64_t> a = from.getSizes(), b = to.getSizes();
    if (a.size() != b.size())
      return emitOpError("cannot change the rank: ") << from << " to " << to;
    for (auto [x, y] : llvm::zip_equal(a, b))
      if (x != kUnknownSize && y != kUnknownSize && x != y)
        return emitOpError("incompatible sizes: ") << from << " to " << to;
  }
  return success();
}

OpFoldResult TensorStaticInfoCastOp::fold(FoldAdaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // A cast of a cast: one cast from the original value.
  if (auto inner = getOperand().getDefiningOp<TensorStaticInfoCastOp>();
      inner && inner.getOperand().getType() == getType())
    return inner.getOperand();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Builders shared by the transformations
//===----------------------------------------------------------------------===//

Value mlir::torch2mlir::torch::createConstantInt(OpBuilder &b, Location loc,
                                                 int64_t value) {
  return ConstantIntOp::create(b, loc, value);
}

Value mlir::torch2mlir::torch::createConstantFloat(OpBuilder &b, Location loc,
                                                   double value) {
  return ConstantFloatOp::create(b, loc, value);
}

Value mlir::torch2mlir::torch::createConstantBool(OpBuilder &b, Location loc,
                                                  bool value) {
  return ConstantBoolOp::create(b, loc, value);
}

Value mlir::torch2mlir::torch::createConstantNone(OpBuilder &b, Location loc) {
  return ConstantNoneOp::create(b, loc);
}

Value mlir::torch2mlir::torch::createIntList(OpBuilder &b, Location loc,
                                             ArrayRef<int64_t> values) {
  SmallVector<Value> elements;
  for (int64_t value : values)
    elements.push_back(createConstantInt(b, loc, value));
  return PrimListConstructOp::create(
      b, loc, ListType::get(IntType::get(b.getContext())), elements);
}

Value mlir::torch2mlir::torch::createTensorList(OpBuilder &b, Location loc,
                                                ValueRange tensors) {
  Type element = tensors.empty() ? ValueTensorType::get(b.getContext())
                                 : tensors.front().getType();
  // Elements of different static types share the least static tensor type.
  for (Value tensor : tensors)
    if (tensor.getType() != element)
      element = ValueTensorType::get(b.getContext());
  return PrimListConstructOp::create(b, loc, ListType::get(element), tensors);
}

std::optional<int64_t> mlir::torch2mlir::torch::getScalarTypeCode(Type dtype) {
  if (!dtype)
    return std::nullopt;
  if (dtype.isUnsignedInteger(8))
    return 0;
  if (dtype.isSignedInteger(8))
    return 1;
  if (dtype.isSignedInteger(16))
    return 2;
  if (dtype.isSignedInteger(32))
    return 3;
  if (dtype.isSignedInteger(64))
    return 4;
  if (dtype.isF16())
    return 5;
  if (dtype.isF32())
    return 6;
  if (dtype.isF64())
    return 7;
  if (dtype.isInteger(1))
    return 11;
  if (dtype.isBF16())
    return 15;
  if (dtype.isUnsignedInteger(16))
    return 27;
  if (dtype.isUnsignedInteger(32))
    return 28;
  if (dtype.isUnsignedInteger(64))
    return 29;
  // c10::ScalarType's Float8_e5m2 .. Float8_e4m3fnuz, UInt1..7, Int1..7,
  // Float8_e8m0fnu.
  if (isa<Float8E5M2Type>(dtype))
    return 23;
  if (isa<Float8E4M3FNType>(dtype))
    return 24;
  if (isa<Float8E5M2FNUZType>(dtype))
    return 25;
  if (isa<Float8E4M3FNUZType>(dtype))
    return 26;
  if (dtype.isUnsignedInteger(2))
    return 31;
  if (dtype.isUnsignedInteger(4))
    return 33;
  if (dtype.isSignedInteger(2))
    return 38;
  if (dtype.isSignedInteger(4))
    return 40;
  if (isa<Float8E8M0FNUType>(dtype))
    return 44;
  if (auto complex = dyn_cast<ComplexType>(dtype)) {
    if (complex.getElementType().isF32())
      return 9;
    if (complex.getElementType().isF64())
      return 10;
  }
  return std::nullopt;
}
