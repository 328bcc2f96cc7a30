//===- Passes.td - Conversions out of the torch dialect ----*- tablegen -*-===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_CONVERSION_PASSES
#define TORCH2MLIR_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTorchToLinalg : Pass<"convert-torch-to-linalg", "func::FuncOp"> {
  let summary = "Lower ATen tensor ops to linalg-on-tensors";
  let description = [{
    Lowers the ATen tensor ops of the backend contract to the linalg, tensor,
    arith and math dialects on builtin tensors: matmuls, convolutions,
    pooling, reductions, softmax, elementwise ops with PyTorch's
    broadcasting, shape ops. Ops without a lowering are left for
    `torch-verify-linalg-on-tensors-backend-contract` to report; an op whose
    pattern gives up reports why (the op, its location, the reason).
  }];
  let dependentDialects = [
    "arith::ArithDialect", "cf::ControlFlowDialect",
    "complex::ComplexDialect", "linalg::LinalgDialect", "math::MathDialect",
    "scf::SCFDialect", "tensor::TensorDialect",
    "torch2mlir::torch_c::TorchConversionDialect"
  ];
}

def ConvertTorchToTosa : Pass<"convert-torch-to-tosa", "func::FuncOp"> {
  let summary = "Lower ATen tensor ops to TOSA 1.0";
  let description = [{
    Lowers the ATen tensor ops of the backend contract that TOSA expresses
    to the tosa dialect on builtin tensors of TOSA's element types (f32,
    f16, bf16, i8, i16, i32, i1): elementwise arithmetic, comparisons and
    activations with TOSA's equal-rank broadcasting, matmuls (rank-3
    `tosa.matmul`), 1-/2-D and depthwise convolutions (NHWC), pooling,
    reductions, softmax, layer and inference batch norm, views, slices,
    concatenation, broadcasts, pads and literals. Ops without a lowering
    are left for `torch-verify-tosa-backend-contract` to report; an op
    whose pattern gives up reports why.
  }];
  let dependentDialects = [
    "tosa::TosaDialect", "torch2mlir::torch_c::TorchConversionDialect"
  ];
}

def ConvertTorchToArith : Pass<"convert-torch-to-arith", "func::FuncOp"> {
  let summary = "Lower torch scalars, scalar arithmetic and literals to arith";
  let description = [{
    `torch.constant.int/float/bool` become `arith.constant` of i64/f64/i1,
    `torch.vtensor.literal` a tensor `arith.constant`, and the Python scalar
    ops (`aten.add.int`, `aten.floordiv.int`, `aten.mul.float`, ...) arith
    ops with Python semantics (floor division rounds toward -inf).
  }];
  let dependentDialects = [
    "arith::ArithDialect", "cf::ControlFlowDialect", "tensor::TensorDialect",
    "torch2mlir::torch_c::TorchConversionDialect"
  ];
}

def ConvertTorchOnnxToTorch
    : Pass<"convert-torch-onnx-to-torch", "func::FuncOp"> {
  let summary = "Give each imported ONNX op its meaning in the torch dialect";
  let description = [{
    Rewrites every `torch.operator "onnx.<Op>"` that the ONNX importer emits
    into ATen ops of the torch dialect, following the ONNX operator spec of
    the function's opset (`torch.onnx_meta.opset_version`): one lowering per
    (op, since-version), all attributes the spec defines for that version.
    An op that cannot be lowered is an error naming the op, the opset, the
    ONNX node and the reason (an unsupported attribute value, a shape that
    must be constant, or no lowering yet); the pass never lowers an op
    partially or to something with other semantics.
  }];
  let dependentDialects = ["torch2mlir::torch::TorchDialect"];
}

#endif // TORCH2MLIR_CONVERSION_PASSES
