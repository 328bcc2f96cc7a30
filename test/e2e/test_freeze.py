"""compile(..., freeze=True): weights taken as constants, matmuls on MKL's
packed GEMM. Numerics against eager PyTorch; the frozen copy's semantics
(later changes to the model are not seen); the packed copies' lifetime."""

from __future__ import annotations

import gc

import pytest
import torch
import torch2mlir
from torch import nn
from torch2mlir.runtime import refbackend


def _has_mkl() -> bool:
    refbackend.load_runtime()
    library = refbackend.blas_library()
    return library is not None and "mkl" in library.name


class _MatMul(nn.Module):
    """``x @ weight`` (B not transposed, as ``torch.mm`` reads a parameter)."""

    def __init__(self, k: int, n: int, dtype: torch.dtype = torch.float32) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(k, n, dtype=dtype))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mm(x, self.weight)


@pytest.mark.parametrize(
    ("make", "shape", "dtype"),
    [
        # Linear layers read their weight transposed; the last one is too
        # small to pack (runs the plain GEMM).
        (
            lambda: nn.Sequential(
                nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.Linear(256, 10)
            ),
            (8, 784),
            torch.float32,
        ),
        (lambda: _MatMul(512, 384), (96, 512), torch.float32),
        # A 3-D input: the linear's rows are batch x sequence.
        (lambda: nn.Linear(256, 512), (2, 24, 256), torch.float32),
        (lambda: _MatMul(256, 256, torch.float64), (32, 256), torch.float64),
    ],
    ids=["mlp", "mm", "linear_3d", "mm_f64"],
)
def test_frozen_weights_match_eager(make, shape, dtype) -> None:
    torch.manual_seed(0)
    model = make().to(dtype).eval()
    x = torch.randn(*shape, dtype=dtype)
    before = refbackend.packed_bytes()
    compiled = torch2mlir.compile(model, (x,), freeze=True, cache=False)
    with torch.no_grad():
        expected = model(x)
    for _ in range(2):  # packs at the first call, reuses at the second
        torch.testing.assert_close(compiled(x), expected, rtol=1e-5, atol=1e-5)
    if _has_mkl():
        assert refbackend.packed_bytes() > before
    del compiled
    gc.collect()
    assert refbackend.packed_bytes() == before


def test_frozen_weights_are_copied_at_compile_time() -> None:
    """Frozen: an in-place update of the model's weight after compile is not
    seen (as with inductor's freezing); without freeze it is."""
    torch.manual_seed(0)
    model = nn.Linear(256, 384).eval()
    x = torch.randn(16, 256)
    frozen = torch2mlir.compile(model, (x,), freeze=True, cache=False)
    live = torch2mlir.compile(model, (x,), cache=False)
    with torch.no_grad():
        old = model(x)
        frozen(x)  # packs the weight as it is now
        model.weight.mul_(2.0)
        model.weight.data.add_(1.0)  # does not bump the version counter
        new = model(x)
    torch.testing.assert_close(frozen(x), old, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(live(x), new, rtol=1e-5, atol=1e-5)


def test_frozen_dynamic_batch_packs_per_row_count() -> None:
    """A packed B is for one row count of A: more row counts than the
    runtime keeps packed copies for (4) fall back to the plain GEMM, and
    every call is right."""
    from torch.export import Dim

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(256, 512), nn.Tanh(), nn.Linear(512, 256)).eval()
    compiled = torch2mlir.compile(
        model,
        (torch.randn(8, 256),),
        dynamic_shapes=({0: Dim("n", min=2, max=128)},),
        freeze=True,
        cache=False,
    )
    for n in (8, 5, 64, 17, 100, 33, 8, 64):
        x = torch.randn(n, 256)
        with torch.no_grad():
            expected = model(x)
        torch.testing.assert_close(compiled(x), expected, rtol=1e-5, atol=1e-5)


def test_freeze_leaves_updated_buffers_live() -> None:
    """A training-mode BatchNorm updates its running statistics in place:
    those buffers are not frozen, and are updated as in eager."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 256), nn.BatchNorm1d(256)).train()
    reference = nn.Sequential(nn.Linear(64, 256), nn.BatchNorm1d(256)).train()
    reference.load_state_dict(model.state_dict())
    x = torch.randn(16, 64)
    compiled = torch2mlir.compile(model, (x,), freeze=True, cache=False)
    for _ in range(2):
        actual = compiled(x)
        expected = reference(x)
        torch.testing.assert_close(actual, expected.detach(), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(
        model[1].running_mean, reference[1].running_mean, rtol=1e-5, atol=1e-6
    )
    torch.testing.assert_close(
        model[1].running_var, reference[1].running_var, rtol=1e-5, atol=1e-6
    )
    # The running statistics are read in place (not copied), the frozen
    # linear weight is a copy of its own.
    runner = compiled._runner
    bound = []
    while True:
        try:
            bound.append(runner.bound_tensor(len(bound)).data_ptr())
        except IndexError:
            break
    assert model[1].running_mean.data_ptr() in bound
    assert model[0].weight.data_ptr() not in bound


def test_freeze_is_part_of_the_cache_key(tmp_path, monkeypatch) -> None:
    """A program compiled with freeze calls the packing kernel: a compile
    without freeze must not get it from the cache (it would pack weights
    that may change), nor the reverse."""
    monkeypatch.setenv("TORCH2MLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TORCH2MLIR_CACHE", raising=False)
    torch.manual_seed(0)
    model = nn.Linear(256, 256).eval()
    x = torch.randn(8, 256)
    assert torch2mlir.compile(model, (x,)).cache == "miss"
    frozen = torch2mlir.compile(model, (x,), freeze=True)
    assert frozen.cache == "miss"
    assert torch2mlir.compile(model, (x,), freeze=True).cache == "program"
    live = torch2mlir.compile(model, (x,))
    assert live.cache == "program"
    with torch.no_grad():
        model.weight.add_(1.0)
        expected = model(x)
    torch.testing.assert_close(live(x), expected, rtol=1e-5, atol=1e-5)


class _ConvBlock(nn.Module):
    """Conv -> BatchNorm -> ReLU twice, then a linear -> BatchNorm1d."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, bias=False)
        self.bn2 = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 16)
        self.bn3 = nn.BatchNorm1d(16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.bn2(self.conv2(x)))
        return self.bn3(self.fc(x.mean((2, 3))))


def _trained_block() -> nn.Module:
    """A _ConvBlock whose batch norms have non-trivial statistics."""
    torch.manual_seed(0)
    model = _ConvBlock()
    for module in model.modules():
        if isinstance(module, nn.modules.batchnorm._BatchNorm):
            module.running_mean.uniform_(-1, 1)
            module.running_var.uniform_(0.5, 2)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.5, 0.5)
    return model.eval()


def test_freeze_folds_batch_norms() -> None:
    """Frozen, each inference batch norm is folded into the convolution or
    linear layer before it (torch.fx's fuse, on a copy): the model itself is
    left as it is, and the results match eager's up to the rounding of the
    folded weights."""
    from torch2mlir.compiler.freezing import fold_batch_norms

    model = _trained_block()
    weight = model.conv1.weight.detach().clone()
    folded = fold_batch_norms(model)
    assert not any(
        isinstance(m, nn.modules.batchnorm._BatchNorm) for m in folded.modules()
    )
    assert isinstance(model.bn1, nn.BatchNorm2d)
    assert torch.equal(model.conv1.weight, weight)
    x = torch.randn(4, 3, 16, 16)
    compiled = torch2mlir.compile(model, (x,), freeze=True, cache=False)
    with torch.no_grad():
        expected = model(x)
    torch.testing.assert_close(compiled(x), expected, rtol=1e-5, atol=1e-5)


def test_batch_norms_stay_where_folding_does_not_apply() -> None:
    """In training mode, or when torch.fx cannot trace the model (a branch
    on a tensor's value), the model compiles unfolded."""
    from torch2mlir.compiler.freezing import fold_batch_norms

    model = _trained_block()
    assert fold_batch_norms(model.train()) is model
    model.eval()

    class Branchy(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.block = model

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.block(x)
            return y if y.sum() > 0 else -y

    branchy = Branchy().eval()
    assert fold_batch_norms(branchy) is branchy


def test_compile_onnx_freeze_packs_the_initializers() -> None:
    """compile_onnx(freeze=True): a MatMul and a Gemm (transB) whose B are
    initializers run the packed GEMM; results match ONNX's reference
    evaluator, and the packed copies go with the model."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from onnx.reference import ReferenceEvaluator

    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((256, 512)).astype(np.float32)
    w2 = rng.standard_normal((128, 512)).astype(np.float32)
    bias = rng.standard_normal(128).astype(np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["x", "w1"], ["h"]),
            helper.make_node("Relu", ["h"], ["r"]),
            helper.make_node("Gemm", ["r", "w2", "b"], ["y"], transB=1),
        ],
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [16, 256])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16, 128])],
        [
            numpy_helper.from_array(w1, "w1"),
            numpy_helper.from_array(w2, "w2"),
            numpy_helper.from_array(bias, "b"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    x = rng.standard_normal((16, 256)).astype(np.float32)
    (expected,) = ReferenceEvaluator(model).run(None, {"x": x})
    before = refbackend.packed_bytes()
    compiled = torch2mlir.compile_onnx(model, freeze=True)
    for _ in range(2):
        (actual,) = compiled(x)
        np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4)
    if _has_mkl():
        assert refbackend.packed_bytes() > before
    del compiled
    gc.collect()
    assert refbackend.packed_bytes() == before
