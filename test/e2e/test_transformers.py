"""The model zoo (torch2mlir.models.transformer, and the MobileNetV3 and
EfficientNet of torch2mlir.models.mobilenet) and dynamic shapes, compiled and
compared with eager PyTorch (max abs error <= 1e-4 x the output's magnitude,
float32)."""

from __future__ import annotations

import pytest
import torch
import torch2mlir
from torch2mlir import InputError
from torch2mlir.models import efficientnet_b0, mlp, mobilenet_v3_small

transformer = pytest.importorskip("torch2mlir.models.transformer")
pytest.importorskip("transformers")


def _assert_matches(got: torch.Tensor, want: torch.Tensor) -> None:
    bound = 1e-4 * max(1.0, want.abs().max().item())
    error = (got - want).abs().max().item()
    assert error <= bound, f"max abs error {error:.3g} > {bound:.3g}"


@pytest.mark.parametrize("name", ["bert", "gpt2"])
def test_zoo_model_matches_eager(name: str) -> None:
    model = getattr(transformer, name)()
    ids = transformer.token_ids(2, 128)
    compiled = torch2mlir.compile(model, (ids,))
    with torch.no_grad():
        want = model(ids)
    _assert_matches(compiled(ids), want)
    # Other token ids, same shape: the same compiled module.
    other = transformer.token_ids(2, 128, seed=1)
    with torch.no_grad():
        _assert_matches(compiled(other), model(other))


@pytest.mark.parametrize("config", ["auto", "core-aten"])
def test_gpt2_with_its_default_sdpa_attention(config: str) -> None:
    """transformers' default attention (aten.scaled_dot_product_attention,
    causal), decomposed by torch2mlir; PyTorch's decomposition of it fails."""
    model = transformer.gpt2(layers=2, attention="sdpa")
    ids = transformer.token_ids(2, 64)
    compiled = torch2mlir.compile(model, (ids,), decompositions=config)
    with torch.no_grad():
        _assert_matches(compiled(ids), model(ids))


def test_llama_decode_step_grows_the_kv_cache_as_eager() -> None:
    """One decode step after a 31-token key/value cache (the bench's
    llama_step, smaller): the new token's hidden state and the grown cache
    match eager's, for another token and cache too."""
    model, (ids, keys, values) = transformer.llama_step(layers=2, past=31)
    compiled = torch2mlir.compile(model, (ids, keys, values))
    for args in (
        (ids, keys, values),
        (transformer.token_ids(1, 1, seed=3), keys.flip(3), 2 * values),
    ):
        with torch.no_grad():
            want = model(*args)
        got = compiled(*args)
        assert [g.shape for g in got] == [w.shape for w in want]
        assert want[1].shape[3] == 32  # the cache grew by one token
        for g, w in zip(got, want):
            _assert_matches(g, w)


#: Small configs of the newer zoo models: name -> (model factory, input factory).
SMALL_ZOO = {
    "t5": (transformer.t5, lambda seed: transformer.token_ids(2, 32, seed=seed)),
    "llama": (transformer.llama, lambda seed: transformer.token_ids(2, 32, seed=seed)),
    # Top-2 of 4 experts per token (router, sort by expert, grouped matmul).
    "mixtral": (
        transformer.mixtral,
        lambda seed: transformer.token_ids(2, 32, seed=seed),
    ),
    "vit": (transformer.vit, lambda seed: transformer.images(2, 64, seed=seed)),
    "mobilenet_v3_small": (
        mobilenet_v3_small,
        lambda seed: transformer.images(1, 64, seed=seed),
    ),
    "efficientnet_b0": (
        efficientnet_b0,
        lambda seed: transformer.images(1, 64, seed=seed),
    ),
}


@pytest.mark.parametrize("name", sorted(SMALL_ZOO))
def test_small_zoo_model_matches_eager(name: str) -> None:
    factory, make_input = SMALL_ZOO[name]
    model = factory()
    x = make_input(0)
    compiled = torch2mlir.compile(model, (x,))
    with torch.no_grad():
        _assert_matches(compiled(x), model(x))
        other = make_input(1)
        _assert_matches(compiled(other), model(other))


def test_zoo_imports_without_torch_operator() -> None:
    from torch2mlir import export_and_import

    for name in ("bert", "gpt2"):
        module = export_and_import(
            getattr(transformer, name)(),
            transformer.token_ids(1, 16),
            output_type="raw",
        )
        assert "torch.operator" not in str(module), name
    for name, (factory, make_input) in SMALL_ZOO.items():
        module = export_and_import(factory(), make_input(0), output_type="raw")
        assert "torch.operator" not in str(module), name


def test_dynamic_batch_runs_at_any_size_in_range() -> None:
    model = mlp().eval()
    batch = torch.export.Dim("batch", min=1, max=300)
    compiled = torch2mlir.compile(
        model, (torch.randn(8, 784),), dynamic_shapes=({0: batch},)
    )
    for size in (1, 37, 300):
        x = torch.randn(size, 784)
        got = compiled(x)
        assert got.shape == (size, 10)
        with torch.no_grad():
            _assert_matches(got, model(x))
    with pytest.raises(InputError, match=r"dim 0 is 301, outside the range \[1, 300\]"):
        compiled(torch.randn(301, 784))
    with pytest.raises(InputError, match="expected shape"):
        compiled(torch.randn(4, 785))


@pytest.mark.parametrize("name", ["bert", "gpt2", "llama"])
def test_zoo_model_with_dynamic_batch_and_sequence(name: str) -> None:
    model = getattr(transformer, name)()
    batch = torch.export.Dim("batch", min=1, max=8)
    seq = torch.export.Dim("seq", min=2, max=256)
    compiled = torch2mlir.compile(
        model,
        (transformer.token_ids(2, 128),),
        dynamic_shapes=({0: batch, 1: seq},),
    )
    for size in ((2, 128), (1, 17), (4, 64)):
        ids = transformer.token_ids(*size, seed=size[1])
        got = compiled(ids)
        assert got.shape == (*size, 256)
        with torch.no_grad():
            _assert_matches(got, model(ids))
    with pytest.raises(InputError, match="outside the range"):
        compiled(transformer.token_ids(9, 16))
