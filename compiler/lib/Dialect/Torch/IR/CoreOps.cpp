//===- CoreOps.cpp - The backend contract's core op set -------------------===//
//
// Part of the torch2mlir project.
//
//===----------------------------------------------------------------------===//

#include "torch2mlir/Dialect/Torch/IR/CoreOps.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::torch2mlir::torch;

bool mlir::torch2mlir::torch::isCoreOp(Operation *op) {
  static const llvm::DenseSet<TypeID> ids = {
#define TORCH2MLIR_CORE_OP(OpClass) TypeID::get<OpClass>(),
#include "torch2mlir/Dialect/Torch/IR/CoreOps.def"
  };
  std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
  return name && ids.contains(name->getTypeID());
}

bool mlir::torch2mlir::torch::isLegalOpName(const llvm::StringSet<> &legalOps,
                                            StringRef opName) {
  return legalOps.contains(opName) ||
         (opName.consume_front("torch.") && legalOps.contains(opName));
}

bool mlir::torch2mlir::torch::isFusableAttention(
    AtenScaledDotProductAttentionOp op) {
  auto known = [](Value value) -> BaseTensorType {
    auto type = dyn_cast<BaseTensorType>(value.getType());
    return type && type.hasSizes() && type.hasDtype() ? type : nullptr;
  };
  BaseTensorType query = known(op.getQuery()), key = known(op.getKey()),
                 value = known(op.getValue()), result = known(op.getResult());
  if (!query || !key || !value || !result)
    return false;
  for (BaseTensorType type : {query, key, value, result})
    if (!type.getDtype().isF32())
      return false;
  ArrayRef<int64_t> q = query.getSizes(), k = key.getSizes(),
                    v = value.getSizes();
  size_t rank = q.size();
  if (rank < 3 || k.size() != rank || v.size() != rank ||
      result.getSizes().size() != rank)
    return false;
  for (size_t i = 0; i + 2 < rank; ++i)
    if (q[i] == kUnknownSize || k[i] != q[i] || v[i] != q[i])
      return false;
  if (q.back() == kUnknownSize || k.back() != q.back())
    return false;
  if (k[rank - 2] != v[rank - 2] && k[rank - 2] != kUnknownSize &&
      v[rank - 2] != kUnknownSize)
    return false;
  double dropout, scale;
  bool causal, gqa;
  if (!matchTorchConstantFloat(op.getDropoutP(), dropout) || dropout != 0.0 ||
      !matchTorchConstantBool(op.getIsCausal(), causal) ||
      !matchTorchConstantBool(op.getEnableGqa(), gqa) ||
      (!isTorchNone(op.getScale()) &&
       !matchTorchConstantFloat(op.getScale(), scale)))
    return false;
  if (isTorchNone(op.getAttnMask()))
    return true;
  BaseTensorType mask = known(op.getAttnMask());
  if (!mask || !(mask.getDtype().isF32() || mask.getDtype().isInteger(1)))
    return false;
  // The scores' sizes [batch..., L, S], right-aligned with the mask's.
  SmallVector<int64_t> scores(q.drop_back());
  scores.push_back(k[rank - 2]);
  ArrayRef<int64_t> m = mask.getSizes();
  if (m.size() > rank)
    return false;
  for (size_t i = 0; i < m.size(); ++i) {
    int64_t target = scores[rank - m.size() + i];
    if (m[i] != 1 && (m[i] == kUnknownSize || m[i] != target))
      return false;
  }
  return true;
}

bool mlir::torch2mlir::torch::isRowGroupNorm(AtenNativeGroupNormOp op) {
  auto input = dyn_cast<BaseTensorType>(op.getInput().getType());
  if (!input || !input.hasSizes() || !input.hasDtype())
    return false;
  Type dtype = input.getDtype();
  if (!dtype.isF32() && !dtype.isF16() && !dtype.isBF16())
    return false;
  ArrayRef<int64_t> sizes = input.getSizes();
  if (sizes.size() < 2 || llvm::is_contained(sizes, kUnknownSize) ||
      llvm::is_contained(sizes, 0))
    return false;
  int64_t groups;
  if (!matchTorchConstantInt(op.getGroup(), groups) || groups <= 0 ||
      sizes[1] % groups != 0)
    return false;
  for (Value affine : {op.getWeight(), op.getBias()}) {
    if (isTorchNone(affine))
      continue;
    auto type = dyn_cast<BaseTensorType>(affine.getType());
    if (!type || !type.hasSizes() || !type.hasDtype() ||
        type.getDtype() != dtype ||
        type.getSizes() != ArrayRef<int64_t>{sizes[1]})
      return false;
  }
  auto result = dyn_cast<BaseTensorType>(op.getResult0().getType());
  return result && result.hasDtype() && result.getDtype() == dtype &&
         op.getResult1().use_empty() && op.getResult2().use_empty();
}
