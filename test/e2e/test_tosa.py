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

#: TOSA 1.0 has no 64-bit integers: the token and position ids of these
#: models are si64 tensors (narrowing them needs a proof that they fit).
_NO_I64 = pytest.mark.xfail(
    strict=True,
    raises=torch2mlir.CompileError,
    reason="si64 token/position ids: TOSA 1.0 has no 64-bit integers (issue #16)",
)

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
XFAIL = {"vit", "bert", "gpt2", "llama"}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=[_NO_I64] if name in XFAIL else [])
        for name in sorted(ZOO)
    ],
)
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
    class Index(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * 3

    with pytest.raises(torch2mlir.CompileError, match=r"aten\.mul.*si64"):
        torch2mlir.compile(Index(), (torch.arange(4),), backend="tosa", cache=False)
