"""The TOSA backend (`compile(..., backend="tosa")`): zoo models compiled
through TOSA 1.0, validated for their declared target, run by MLIR's TOSA
to linalg lowering and the RefBackend, and compared with eager PyTorch
(max abs error <= 1e-4 x the output's magnitude, as for linalg-on-tensors).
The op-level cases run in test_e2e.py (config "tosa", expected failures in
xfail/tosa.toml)."""

from __future__ import annotations

import pytest
import torch
from harness import import_torch2mlir

torch2mlir = import_torch2mlir()
from torch2mlir.models import (
    efficientnet_b0,
    mobilenet_v3_small,
    resnet18,
    resnet50,
)

transformer = pytest.importorskip("torch2mlir.models.transformer")
pytest.importorskip("transformers")

ZOO = {
    "resnet18": (resnet18, lambda: transformer.images(1, 64)),
    "resnet50": (resnet50, lambda: transformer.images(1, 64)),
    "mobilenet_v3_small": (mobilenet_v3_small, lambda: transformer.images(1, 64)),
    "efficientnet_b0": (efficientnet_b0, lambda: transformer.images(1, 64)),
    "vit": (transformer.vit, lambda: transformer.images(2, 64)),
    "bert": (transformer.bert, lambda: transformer.token_ids(2, 32)),
    "gpt2": (transformer.gpt2, lambda: transformer.token_ids(2, 32)),
    "llama": (transformer.llama, lambda: transformer.token_ids(2, 32)),
}


@pytest.mark.parametrize("name", sorted(ZOO))
def test_zoo_model_matches_eager_on_tosa(name: str) -> None:
    factory, make_input = ZOO[name]
    model = factory().eval()
    x = make_input()
    compiled = torch2mlir.compile(model, (x,), backend="tosa", cache=False)
    with torch.no_grad():
        want = model(x)
    got = compiled(x)
    bound = 1e-4 * max(1.0, want.abs().max().item())
    error = (got - want).abs().max().item()
    assert error <= bound, f"max abs error {error:.3g} > {bound:.3g}"


def test_emitted_tosa_declares_its_target_and_only_tosa() -> None:
    module = torch2mlir.export_and_import(
        resnet18().eval(), transformer.images(1, 32), output_type="tosa"
    )
    text = str(module)
    assert (
        '#tosa.target_env<specification_version = "1.0", level = "8k", '
        "profiles = [pro_int, pro_fp], extensions = [bf16]>" in text
    )
    dialects = {
        op.operation.name.split(".")[0]
        for func in module.body.operations
        for block in func.regions[0].blocks
        for op in block.operations
    }
    assert dialects <= {"tosa", "func"}, dialects


def test_unsupported_dtype_is_a_compile_error_naming_the_op() -> None:
    """x * 2**40 fits int32 for no int64 x but 0: it stays si64, refused."""

    class Index(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * 2**40

    with pytest.raises(torch2mlir.CompileError, match=r"aten\.mul.*si64"):
        torch2mlir.compile(Index(), (torch.arange(4),), backend="tosa", cache=False)


class _Lookup(torch.nn.Module):
    """Token ids -> embedding rows, plus the int64 positions and argmax."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(10, 4)

    def forward(self, ids: torch.Tensor) -> tuple[torch.Tensor, ...]:
        rows = self.embed(ids)
        positions = torch.arange(ids.shape[1]).expand_as(ids) + 1
        return rows, positions, rows.sum(-1).argmax(-1)


def test_int64_ids_run_as_int32_checked_against_the_embedding_size() -> None:
    """TOSA 1.0 has no int64: the ids argument runs as int32 and each call
    checks it holds [0, 9] (the rows of the embedding, as eager's
    IndexError would); int64 results come back as int64."""
    model = _Lookup().eval()
    ids = torch.tensor([[0, 3, 9], [2, 2, 5]])
    compiled = torch2mlir.compile(model, (ids,), backend="tosa", cache=False)
    assert [spec.value_range for spec in compiled.inputs] == [(0, 9)]
    got, want = compiled(ids), model(ids)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        torch.testing.assert_close(g, w, rtol=0, atol=0)
    with pytest.raises(
        torch2mlir.InputError, match=r"values in \[0, 9\].*got values in \[0, 10\]"
    ):
        compiled(torch.tensor([[0, 3, 10], [2, 2, 5]]))
    with pytest.raises(torch2mlir.InputError, match=r"got values in \[-1, 5\]"):
        compiled(torch.tensor([[0, 3, -1], [2, 2, 5]]))


def test_int64_arithmetic_assumes_a_checked_range() -> None:
    """a + b of int64 arguments runs in int32 when both hold 31-bit values:
    that range is assumed and checked at each call, never wrapped."""

    class Add(torch.nn.Module):
        def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
            return a + b

    a, b = torch.tensor([1, -5, 2**30 - 1]), torch.tensor([7, 3, 2**30 - 1])
    compiled = torch2mlir.compile(Add(), (a, b), backend="tosa", cache=False)
    assert [spec.value_range for spec in compiled.inputs] == [(-(2**30), 2**30 - 1)] * 2
    got = compiled(a, b)
    assert got.dtype == torch.int64
    torch.testing.assert_close(got, a + b, rtol=0, atol=0)
    with pytest.raises(torch2mlir.InputError, match=r"got values in \[1, 1073741824\]"):
        compiled(torch.tensor([1, 2, 2**30]), b)


def test_uint8_runs_as_int16_unless_it_may_wrap() -> None:
    """TOSA 1.0 has no unsigned integers: uint8 values that no op wraps
    modulo 256 run as int16 (arguments and results converted by the
    runtime, bit for bit); a uint8 sum, which may wrap, is refused."""

    class MaxXor(torch.nn.Module):
        def forward(self, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, ...]:
            return torch.maximum(a, b) ^ 200, a > b

    a = torch.tensor([0, 255, 128, 7], dtype=torch.uint8)
    b = torch.tensor([255, 0, 129, 7], dtype=torch.uint8)
    compiled = torch2mlir.compile(MaxXor(), (a, b), backend="tosa", cache=False)
    assert [spec.abi_dtype for spec in compiled.inputs] == [torch.int16] * 2
    for got, want in zip(compiled(a, b), MaxXor()(a, b)):
        assert got.dtype == want.dtype
        torch.testing.assert_close(got, want, rtol=0, atol=0)

    class Add(torch.nn.Module):
        def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
            return a + b

    with pytest.raises(torch2mlir.CompileError, match=r"aten\.add\.Tensor.*ui8"):
        torch2mlir.compile(Add(), (a, b), backend="tosa", cache=False)


def test_int8_matmul_matches_eager() -> None:
    """int8 mm/bmm accumulate in int32 (tosa.matmul) and wrap to int8 as
    eager does; this used to crash the process in the TOSA builder."""

    class Mm(torch.nn.Module):
        def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
            return torch.mm(a, b), torch.bmm(a[None], b[None])

    torch.manual_seed(0)
    a = torch.randint(-128, 128, (5, 16), dtype=torch.int8)
    b = torch.randint(-128, 128, (16, 3), dtype=torch.int8)
    compiled = torch2mlir.compile(Mm(), (a, b), backend="tosa", cache=False)
    for got, want in zip(compiled(a, b), Mm()(a, b)):
        torch.testing.assert_close(got, want, rtol=0, atol=0)
