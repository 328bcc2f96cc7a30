//===- TorchTypes.cpp - Types of the torch dialect ------------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/TorchTypes.h"
#include "torch2mlir/Dialect/Torch/IR/TorchDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;

#define GET_TYPEDEF_CLASSES
#include "torch2mlir/Dialect/Torch/IR/TorchTypes.cpp.inc"

void TorchDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "torch2mlir/Dialect/Torch/IR/TorchTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Dialect type parsing and printing
//===----------------------------------------------------------------------===//

/// Parses a nested type: any type spelled in full (`!torch.int`, `f32`), or
/// a torch type spelled without its `!torch.` prefix (`!torch.list<int>`).
static ParseResult parseNestedType(AsmParser &parser, Type &type) {
  OptionalParseResult full = parser.parseOptionalType(type);
  if (full.has_value())
    return *full;
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  OptionalParseResult result = generatedTypeParser(parser, &mnemonic, type);
  if (result.has_value())
    return *result;
  return parser.emitError(loc, "unknown torch type '") << mnemonic << "'";
}

/// Prints torch types nested in torch types without their prefix, except
/// those whose short name is also a builtin type (`tensor`, `none`).
static void printNestedType(AsmPrinter &printer, Type type) {
  if (isa<TorchDialect>(type.getDialect()) &&
      !isa<NonValueTensorType, torch::NoneType>(type) &&
      succeeded(generatedTypePrinter(type, printer)))
    return;
  printer.printType(type);
}

Type TorchDialect::parseType(DialectAsmParser &parser) const {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Type type;
  OptionalParseResult result = generatedTypeParser(parser, &mnemonic, type);
  if (result.has_value())
    return succeeded(*result) ? type : Type();
  parser.emitError(loc, "unknown torch type '") << mnemonic << "'";
  return Type();
}

void TorchDialect::printType(Type type, DialectAsmPrinter &printer) const {
  if (failed(generatedTypePrinter(type, printer)))
    llvm_unreachable("unknown torch type");
}

//===----------------------------------------------------------------------===//
// List and Optional
//===----------------------------------------------------------------------===//

Type ListType::parse(AsmParser &parser) {
  Type contained;
  if (parser.parseLess() || parseNestedType(parser, contained) ||
      parser.parseGreater())
    return Type();
  return ListType::get(contained);
}

void ListType::print(AsmPrinter &printer) const {
  printer << "<";
  printNestedType(printer, getContainedType());
  printer << ">";
}

Type OptionalType::parse(AsmParser &parser) {
  Type contained;
  if (parser.parseLess() || parseNestedType(parser, contained) ||
      parser.parseGreater())
    return Type();
  return OptionalType::get(contained);
}

void OptionalType::print(AsmPrinter &printer) const {
  printer << "<";
  printNestedType(printer, getContainedType());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Tensor types
//===----------------------------------------------------------------------===//

bool mlir::torch2mlir::torch::isValidTorchDtype(Type type) {
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return true;
  // The float8 storage dtypes (torch.float8_*): casts and data movement.
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
          Float8E5M2FNUZType, Float8E8M0FNUType>(type))
    return true;
  if (auto complex = dyn_cast<ComplexType>(type))
    return isa<Float32Type, Float64Type>(complex.getElementType());
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (integer.isSignless())
      return width == 1;
    // si8..si64 and ui8..ui64 (torch.uint16/32/64 are PyTorch's "limited
    // support" unsigned dtypes; ONNX models use them), and the sub-byte
    // si2/si4/ui2/ui4 (torch.int2/int4/uint2/uint4; ONNX's INT4, UINT4,
    // INT2, UINT2).
    return width == 2 || width == 4 || width == 8 || width == 16 ||
           width == 32 || width == 64;
  }
  return false;
}

Type mlir::torch2mlir::torch::getBuiltinElementType(Type dtype) {
  if (auto integer = dyn_cast<IntegerType>(dtype))
    return IntegerType::get(dtype.getContext(), integer.getWidth());
  return dtype;
}

/// Parses `<[2,?,3],f32>`, `<*,f32>` or `<[],unk>` (the angle brackets are
/// optional as a whole: `!torch.vtensor` has unknown rank and dtype).
static ParseResult parseTensorParams(AsmParser &parser, bool &hasSizes,
                                     SmallVectorImpl<int64_t> &sizes,
                                     Type &dtype) {
  hasSizes = false;
  dtype = Type();
  if (failed(parser.parseOptionalLess()))
    return success();
  if (succeeded(parser.parseOptionalStar())) {
    hasSizes = false;
  } else {
    hasSizes = true;
    if (parser.parseLSquare())
      return failure();
    if (failed(parser.parseOptionalRSquare())) {
      do {
        if (succeeded(parser.parseOptionalQuestion())) {
          sizes.push_back(kUnknownSize);
          continue;
        }
        int64_t size;
        if (parser.parseInteger(size))
          return failure();
        sizes.push_back(size);
      } while (succeeded(parser.parseOptionalComma()));
      if (parser.parseRSquare())
        return failure();
    }
  }
  if (parser.parseComma())
    return failure();
  if (failed(parser.parseOptionalKeyword("unk"))) {
    if (parser.parseType(dtype))
      return failure();
  }
  return parser.parseGreater();
}

static void printTensorParams(AsmPrinter &printer, bool hasSizes,
                              ArrayRef<int64_t> sizes, Type dtype) {
  if (!hasSizes && !dtype)
    return;
  printer << "<";
  if (hasSizes) {
    printer << "[";
    llvm::interleave(
        sizes, printer,
        [&](int64_t size) {
          if (size == kUnknownSize)
            printer << "?";
          else
            printer << size;
        },
        ",");
    printer << "]";
  } else {
    printer << "*";
  }
  printer << ",";
  if (dtype)
    printer.printType(dtype);
  else
    printer << "unk";
  printer << ">";
}

static LogicalResult
verifyTensorParams(function_ref<InFlightDiagnostic()> emitError, bool hasSizes,
                   ArrayRef<int64_t> sizes, Type dtype) {
  if (!hasSizes && !sizes.empty())
    return emitError() << "a tensor type of unknown rank cannot have sizes";
  for (int64_t size : sizes)
    if (size < 0 && size != kUnknownSize)
      return emitError() << "invalid tensor size " << size
                         << " (sizes are >= 0, or ? when dynamic)";
  if (dtype && !isValidTorchDtype(dtype))
    return emitError()
           << "invalid dtype " << dtype
           << " for a torch tensor (expected one of f16, bf16, "
              "f32, f64, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, "
              "f8E8M0FNU, si2, si4, si8, si16, si32, si64, ui2, ui4, ui8, "
              "ui16, ui32, ui64, i1, complex<f32>, complex<f64>)";
  return success();
}

#define DEFINE_TENSOR_TYPE_ASM(TYPE)                                           \
  Type TYPE::parse(AsmParser &parser) {                                        \
    bool hasSizes;                                                             \
    SmallVector<int64_t> sizes;                                                \
    Type dtype;                                                                \
    if (failed(parseTensorParams(parser, hasSizes, sizes, dtype)))             \
      return Type();                                                           \
    return TYPE::getChecked(                                                   \
        [&] { return parser.emitError(parser.getNameLoc()); },                 \
        parser.getContext(), hasSizes, sizes, dtype);                          \
  }                                                                            \
  void TYPE::print(AsmPrinter &printer) const {                                \
    printTensorParams(printer, getHasSizes(), getSizes(), getOptionalDtype()); \
  }                                                                            \
  LogicalResult TYPE::verify(function_ref<InFlightDiagnostic()> emitError,     \
                             bool hasSizes, ArrayRef<int64_t> sizes,           \
                             Type dtype) {                                     \
    return verifyTensorParams(emitError, hasSizes, sizes, dtype);              \
  }

DEFINE_TENSOR_TYPE_ASM(ValueTensorType)
DEFINE_TENSOR_TYPE_ASM(NonValueTensorType)
#undef DEFINE_TENSOR_TYPE_ASM

bool BaseTensorType::classof(Type type) {
  return isa<ValueTensorType, NonValueTensorType>(type);
}

bool BaseTensorType::hasSizes() const {
  if (auto v = dyn_cast<ValueTensorType>(*this))
    return v.getHasSizes();
  return cast<NonValueTensorType>(*this).getHasSizes();
}

ArrayRef<int64_t> BaseTensorType::getSizes() const {
  if (auto v = dyn_cast<ValueTensorType>(*this))
    return v.getSizes();
  return cast<NonValueTensorType>(*this).getSizes();
}

Type BaseTensorType::getOptionalDtype() const {
  if (auto v = dyn_cast<ValueTensorType>(*this))
    return v.getOptionalDtype();
  return cast<NonValueTensorType>(*this).getOptionalDtype();
}

bool BaseTensorType::areAllSizesKnown() const {
  return hasSizes() && llvm::none_of(getSizes(), [](int64_t size) {
           return size == kUnknownSize;
         });
}

bool BaseTensorType::hasValueSemantics() const {
  return isa<ValueTensorType>(*this);
}

BaseTensorType
BaseTensorType::getWithSizesAndDtype(std::optional<ArrayRef<int64_t>> sizes,
                                     Type dtype) const {
  if (isa<ValueTensorType>(*this))
    return ValueTensorType::get(getContext(), sizes, dtype);
  return NonValueTensorType::get(getContext(), sizes, dtype);
}

ValueTensorType BaseTensorType::getWithValueSemantics() const {
  return ValueTensorType::get(getContext(), getOptionalSizes(),
                              getOptionalDtype());
}

ValueTensorType NonValueTensorType::getWithValueSemantics() const {
  return cast<BaseTensorType>(*this).getWithValueSemantics();
}

TensorType ValueTensorType::toBuiltinTensor() const {
  if (!getHasSizes() || !getOptionalDtype())
    return nullptr;
  Type element = getBuiltinElementType(getOptionalDtype());
  SmallVector<int64_t> shape;
  for (int64_t size : getSizes())
    shape.push_back(size == kUnknownSize ? ShapedType::kDynamic : size);
  return RankedTensorType::get(shape, element);
}
