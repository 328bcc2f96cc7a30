"""torch.nn.functional.scaled_dot_product_attention, decomposed by torch2mlir
(torch-decompose-complex-ops), against eager PyTorch: masks, causal, scale,
grouped-query attention, ranks and dtypes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
import torch.nn.functional as F
from harness import DECOMPOSITION_CONFIGS, import_torch2mlir

torch2mlir = import_torch2mlir()


class Attention(torch.nn.Module):
    def __init__(self, fn: Callable[..., torch.Tensor]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: torch.Tensor) -> torch.Tensor:
        return self.fn(*args)


def _qkv(
    batch=2,
    heads=4,
    kv_heads=None,
    target=8,
    source=8,
    head=16,
    dtype=torch.float32,
    seed=0,
):
    g = torch.Generator().manual_seed(seed)
    kv_heads = kv_heads or heads
    q = torch.randn(batch, heads, target, head, generator=g, dtype=dtype)
    k = torch.randn(batch, kv_heads, source, head, generator=g, dtype=dtype)
    v = torch.randn(batch, kv_heads, source, head, generator=g, dtype=dtype)
    return q, k, v


def _check(fn: Callable[..., torch.Tensor], *args: torch.Tensor, config: str) -> None:
    compiled = torch2mlir.compile(
        Attention(fn), args, decompositions=config, cache=False
    )
    torch.testing.assert_close(compiled(*args), fn(*args))
    # Other values, same shapes.
    others = tuple(torch.randn_like(a) if a.is_floating_point() else a for a in args)
    torch.testing.assert_close(compiled(*others), fn(*others))


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
def test_plain(config: str) -> None:
    _check(F.scaled_dot_product_attention, *_qkv(), config=config)


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
def test_causal_with_other_lengths(config: str) -> None:
    _check(
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
        *_qkv(target=6, source=10),
        config=config,
    )


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
def test_scale(config: str) -> None:
    _check(
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, scale=0.3),
        *_qkv(),
        config=config,
    )


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
def test_bool_mask_broadcast(config: str) -> None:
    q, k, v = _qkv(target=5, source=7)
    mask = torch.rand(5, 7, generator=torch.Generator().manual_seed(3)) > 0.3
    mask[:, 0] = True  # no row fully masked (that row is NaN in both)
    _check(
        lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m),
        q,
        k,
        v,
        mask,
        config=config,
    )


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
def test_float_mask(config: str) -> None:
    q, k, v = _qkv()
    mask = torch.randn(2, 1, 8, 8)
    _check(
        lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m),
        q,
        k,
        v,
        mask,
        config=config,
    )


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
def test_grouped_query_attention(config: str) -> None:
    _check(
        lambda q, k, v: F.scaled_dot_product_attention(
            q, k, v, is_causal=True, enable_gqa=True
        ),
        *_qkv(heads=8, kv_heads=2),
        config=config,
    )


def test_rank_three_and_float64() -> None:
    q, k, v = (t[0] for t in _qkv(dtype=torch.float64))
    _check(F.scaled_dot_product_attention, q, k, v, config="none")


def test_the_imported_ir_has_no_attention_op_left() -> None:
    module = torch2mlir.export_and_import(
        Attention(
            lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True)
        ),
        *_qkv(),
        decompositions="none",
    )
    text = str(module)
    assert "scaled_dot_product_attention" not in text
    assert "torch.aten._softmax" in text
