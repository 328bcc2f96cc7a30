//===- TorchOnnxToTorch.h - ONNX ops to the torch dialect -------*- C++ -*-===//
//
// Part of the torch2mlir project.
//
// The ONNX importer emits each node as `torch.operator "onnx.<Op>"` with its
// attributes as `torch.onnx.<name>` and the model's default-domain opset on
// the enclosing function (`torch.onnx_meta.opset_version`). A lowering is
// registered per (op, since-version), as in the ONNX operator changelog: the
// lowering with the largest since-version not above the model's opset
// applies.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH2MLIR_CONVERSION_TORCHONNXTOTORCH_TORCHONNXTOTORCH_H
#define TORCH2MLIR_CONVERSION_TORCHONNXTOTORCH_TORCHONNXTOTORCH_H

#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

namespace mlir::torch2mlir::onnx_c {

/// Read access to one `torch.operator "onnx.<Op>"`: operands, attributes
/// with the defaults of the ONNX spec, result types, and the failure reason
/// shown to the user when the lowering gives up.
class OpBinder {
public:
  OpBinder(torch::OperatorOp op, int64_t opsetVersion)
      : op(op), opsetVersion(opsetVersion) {}

  torch::OperatorOp getOp() const { return op; }
  Location getLoc() const { return op.getLoc(); }
  int64_t getOpsetVersion() const { return opsetVersion; }

  /// The operands that are present: a trailing or `torch.constant.none`
  /// operand is an omitted optional input.
  unsigned getNumOperands() const { return op->getNumOperands(); }
  /// Operand `i`, or null when it is absent or omitted.
  Value getOperand(unsigned i) const;
  /// All operands; fails if any is omitted.
  LogicalResult getTensorOperands(SmallVectorImpl<Value> &out) const;

  unsigned getNumResults() const { return op->getNumResults(); }
  /// The type of result `i` if it is a `!torch.vtensor` with known sizes
  /// and dtype, else null.
  torch::ValueTensorType getResultType(unsigned i = 0) const;
  /// The type of result `i` as a `!torch.vtensor` (maybe with unknowns).
  torch::ValueTensorType getAnyResultType(unsigned i = 0) const;

  bool hasAttr(StringRef name) const;
  /// The attribute `torch.onnx.<name>`, or null.
  Attribute getAttr(StringRef name) const;
  LogicalResult getInt(StringRef name, int64_t &out,
                       std::optional<int64_t> defaultValue = {}) const;
  LogicalResult getFloat(StringRef name, double &out,
                         std::optional<double> defaultValue = {}) const;
  LogicalResult getString(StringRef name, std::string &out,
                          std::optional<StringRef> defaultValue = {}) const;
  /// An INTS attribute; absent gives `defaultValue` (empty by default).
  LogicalResult getInts(StringRef name, SmallVectorImpl<int64_t> &out,
                        ArrayRef<int64_t> defaultValue = {}) const;
  LogicalResult getFloats(StringRef name, SmallVectorImpl<double> &out) const;

  /// The values of operand `i` when it is a constant integer tensor
  /// (`torch.vtensor.literal` or an unlowered `onnx.Constant`).
  LogicalResult getConstantInts(unsigned i,
                                SmallVectorImpl<int64_t> &out) const;

  /// Records why this op was not lowered and returns failure.
  LogicalResult fail(PatternRewriter &rewriter, const Twine &reason) const;

private:
  mutable torch::OperatorOp op;
  int64_t opsetVersion;
};

/// Lowers one ONNX op; replaces `binder.getOp()` or returns `binder.fail`.
using OnnxLowering =
    std::function<LogicalResult(const OpBinder &binder, PatternRewriter &)>;

/// The lowerings of the ONNX ops, by op name (`"Conv"`) and since-version.
class OnnxLoweringSet {
public:
  /// Registers `lowering` for `opName` of `domain` from opset `sinceVersion`.
  void on(StringRef opName, int64_t sinceVersion, OnnxLowering lowering);
  /// The lowering for `opName` at `opsetVersion`, or null.
  const OnnxLowering *lookup(StringRef opName, int64_t opsetVersion) const;
  /// Whether any version of `opName` has a lowering.
  bool contains(StringRef opName) const { return byName.contains(opName); }

private:
  llvm::StringMap<SmallVector<std::pair<int64_t, OnnxLowering>>> byName;
};

/// Elementwise math, comparisons, logic, bitwise ops and shifts, casts and
/// variadic ops.
void populateOnnxElementwiseLowerings(OnnxLoweringSet &lowerings);
/// Conv, ConvTranspose, pooling (incl. LpPool), normalization, Gemm/MatMul,
/// softmax, LRN.
void populateOnnxNeuralNetLowerings(OnnxLoweringSet &lowerings);
/// Reshape, Transpose, Concat, (Un)Squeeze, Constant*, Shape, Gather,
/// GatherND, Scatter(Elements/ND), ...
void populateOnnxShapeLowerings(OnnxLoweringSet &lowerings);
/// Reductions (ReduceSum, ReduceMean, ReduceL2, ArgMax, ...), CumSum,
/// CumProd, TopK.
void populateOnnxReductionLowerings(OnnxLoweringSet &lowerings);
/// Activations and math functions decomposed into core elementwise ops
/// (Elu, Softplus, HardSwish, Swish, Sinh, Round, Mod, IsInf, CastLike...).
void populateOnnxActivationLowerings(OnnxLoweringSet &lowerings);
/// Split, Tile, Pad, Trilu, Range, Size, Hardmax, EyeLike, OneHot,
/// DepthToSpace, SpaceToDepth, Einsum, DFT, Hann/Hamming/BlackmanWindow.
void populateOnnxTensorLowerings(OnnxLoweringSet &lowerings);
/// Layer-, RMS-, Lp-, Instance-, Group- and MeanVarianceNormalization.
void populateOnnxNormalizationLowerings(OnnxLoweringSet &lowerings);
/// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss.
void populateOnnxLossLowerings(OnnxLoweringSet &lowerings);
/// Attention (opset 23+): masks, caches, grouped-query attention.
void populateOnnxAttentionLowerings(OnnxLoweringSet &lowerings);
/// Resize and GridSample (nearest, linear, cubic interpolation).
void populateOnnxResizeLowerings(OnnxLoweringSet &lowerings);
/// RNN, GRU and LSTM, unrolled over a static sequence length.
void populateOnnxRecurrentLowerings(OnnxLoweringSet &lowerings);
/// MaxUnpool and Col2Im: scatters into a zero image.
void populateOnnxUnpoolLowerings(OnnxLoweringSet &lowerings);

/// Adds the pattern that applies `lowerings` to `torch.operator "onnx.*"`.
void populateTorchOnnxToTorchPatterns(RewritePatternSet &patterns,
                                      const OnnxLoweringSet &lowerings);

/// Registers `torch-onnx-to-torch-backend-pipeline`: imported ONNX ->
/// torch ops (convert-torch-onnx-to-torch) -> the backend contract.
void registerTorchOnnxToTorchPipeline();

} // namespace mlir::torch2mlir::onnx_c

#endif // TORCH2MLIR_CONVERSION_TORCHONNXTOTORCH_TORCHONNXTOTORCH_H
