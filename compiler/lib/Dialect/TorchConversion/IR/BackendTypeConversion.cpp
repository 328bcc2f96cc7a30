//===- BackendTypeConversion.cpp - torch types to builtin types -----------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/TorchConversion/Transforms/BackendTypeConversion.h"
#include "torch2mlir/Dialect/Torch/IR/TorchTypes.h"
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch_c;

/// Registers one torch type <-> builtin type pair: the conversion, and the
/// materializations that `To` and `From` ops provide.
template <typename TorchTy, typename ToOp, typename FromOp>
static void addScalarConversion(TypeConverter &converter,
                                Type (*getBuiltin)(MLIRContext *)) {
  converter.addConversion(
      [getBuiltin](TorchTy type) { return getBuiltin(type.getContext()); });
  converter.addTargetMaterialization([getBuiltin](OpBuilder &b, Type type,
                                                  ValueRange inputs,
                                                  Location loc) -> Value {
    if (inputs.size() != 1 || !isa<TorchTy>(inputs[0].getType()) ||
        type != getBuiltin(b.getContext()))
      return Value();
    return ToOp::create(b, loc, type, inputs[0]);
  });
  converter.addSourceMaterialization([getBuiltin](OpBuilder &b, Type type,
                                                  ValueRange inputs,
                                                  Location loc) -> Value {
    if (!isa<TorchTy>(type) || inputs.size() != 1 ||
        inputs[0].getType() != getBuiltin(b.getContext()))
      return Value();
    return FromOp::create(b, loc, type, inputs[0]);
  });
}

static Type getI64(MLIRContext *context) {
  return IntegerType::get(context, 64);
}
static Type getF64(MLIRContext *context) { return Float64Type::get(context); }
static Type getI1(MLIRContext *context) { return IntegerType::get(context, 1); }

void mlir::torch2mlir::torch_c::setupBackendTypeConversion(
    ConversionTarget &target, TypeConverter &typeConverter) {
  target.addLegalDialect<TorchConversionDialect>();
  typeConverter.addConversion([](Type type) { return type; });

  typeConverter.addConversion(
      [](torch::ValueTensorType type) -> std::optional<Type> {
        if (TensorType builtin = type.toBuiltinTensor())
          return builtin;
        return std::nullopt;
      });
  typeConverter.addTargetMaterialization([](OpBuilder &b, TensorType type,
                                            ValueRange inputs,
                                            Location loc) -> Value {
    if (inputs.size() != 1)
      return Value();
    auto vtensor = dyn_cast<torch::ValueTensorType>(inputs[0].getType());
    if (!vtensor || vtensor.toBuiltinTensor() != type)
      return Value();
    return ToBuiltinTensorOp::create(b, loc, type, inputs[0]);
  });
  typeConverter.addSourceMaterialization(
      [](OpBuilder &b, torch::ValueTensorType type, ValueRange inputs,
         Location loc) -> Value {
        if (inputs.size() != 1 || !isa<TensorType>(inputs[0].getType()) ||
            type.toBuiltinTensor() != inputs[0].getType())
          return Value();
        return FromBuiltinTensorOp::create(b, loc, type, inputs[0]);
      });

  addScalarConversion<torch::IntType, ToI64Op, FromI64Op>(typeConverter,
                                                          getI64);
  addScalarConversion<torch::FloatType, ToF64Op, FromF64Op>(typeConverter,
                                                            getF64);
  addScalarConversion<torch::BoolType, ToI1Op, FromI1Op>(typeConverter, getI1);
}
