"""torch.nn.functional.scaled_dot_product_attention against eager PyTorch:
masks, causal, scale, grouped-query attention, ranks and dtypes. The
linalg-on-tensors backend keeps float32 attention whole and fuses it
(TorchToLinalg/Attention.cpp); its other forms, and every form on the other
backends, are decomposed by torch-decompose-complex-ops."""

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
    mask[:, 0] = True  # no row fully masked (test_fully_masked_rows_are_zero)
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


# The fused lowering (TorchToLinalg/Attention.cpp): linalg-on-tensors keeps
# float32 attention whole; each task of one scf.forall computes a block of
# query rows (a power of two of at most 128 rows, fewer the longer the keys)
# against all keys. The shapes below leave a partial last block.


def _fused_ir(fn: Callable[..., torch.Tensor], *args: torch.Tensor) -> str:
    return str(
        torch2mlir.export_and_import(
            Attention(fn), *args, output_type="linalg-on-tensors"
        )
    )


@pytest.mark.parametrize(
    ("target", "source", "head", "causal"),
    [
        (200, 197, 32, False),  # blocks of 64 rows: 64, 64, 64, 8
        (197, 197, 64, True),
        (1, 256, 64, False),  # one decoding step against a cache
        (130, 1100, 16, True),  # blocks of 8 rows, causal past the diagonal
        (3, 1, 8, False),
    ],
)
def test_fused_attention_blocks(target, source, head, causal) -> None:
    def fn(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    args = _qkv(batch=2, heads=3, target=target, source=source, head=head)
    ir = _fused_ir(fn, *args)
    assert "scf.forall" in ir and "linalg.matmul" in ir
    assert "linalg.batch_matmul" not in ir
    _check(fn, *args, config="none")


@pytest.mark.parametrize(
    "mask_shape",
    [(2, 1, 70, 90), (70, 90), (1, 3, 1, 90), (2, 3, 70, 1), (1, 90)],
)
@pytest.mark.parametrize("dtype", [torch.bool, torch.float32])
def test_fused_attention_masks(mask_shape, dtype) -> None:
    q, k, v = _qkv(batch=2, heads=3, target=70, source=90, head=16)
    g = torch.Generator().manual_seed(5)
    if dtype == torch.bool:
        mask = torch.rand(mask_shape, generator=g) > 0.4
        mask[..., 0] = True  # no row fully masked (NaN in both)
    else:
        mask = torch.randn(mask_shape, generator=g) * 3

    def fn(q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m, scale=0.2)

    assert "scf.forall" in _fused_ir(fn, q, k, v, mask)
    _check(fn, q, k, v, mask, config="none")


def test_fused_attention_rank_three_and_five() -> None:
    q, k, v = (t[0] for t in _qkv(target=40, source=24, head=8))
    _check(F.scaled_dot_product_attention, q, k, v, config="none")
    q, k, v = (t.reshape(2, 2, 2, 8, 16) for t in _qkv())
    _check(F.scaled_dot_product_attention, q, k, v, config="none")


def test_forms_the_fused_lowering_leaves_decompose() -> None:
    # Grouped heads and float64 are not fused; they still compile, through
    # the decomposition (two batch matmuls around a softmax).
    def gqa(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)

    args = _qkv(heads=8, kv_heads=2)
    assert "linalg.batch_matmul" in _fused_ir(gqa, *args)
    _check(gqa, *args, config="none")
    args = _qkv(dtype=torch.float64)
    assert "linalg.batch_matmul" in _fused_ir(F.scaled_dot_product_attention, *args)


def test_fused_attention_with_a_dynamic_sequence_length() -> None:
    class Causal(torch.nn.Module):
        def forward(self, q, k, v):
            return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    q, k, v = _qkv(target=40, source=40)
    seq = torch.export.Dim("seq", min=2, max=512)
    spec = {2: seq}
    compiled = torch2mlir.compile(
        Causal(), (q, k, v), dynamic_shapes=(spec, spec, spec), cache=False
    )
    for length in (40, 77, 300):
        q, k, v = _qkv(target=length, source=length, seed=length)
        torch.testing.assert_close(
            compiled(q, k, v), F.scaled_dot_product_attention(q, k, v, is_causal=True)
        )


def test_fused_attention_steps_over_key_blocks() -> None:
    # 1100 keys: steps of 512, 512 and 76 keys, the running max and sum
    # rescaled at each. Some rows keep no key of the first step (their
    # exps there must be 0, not NaN); one row keeps none at all (0, as
    # eager).
    q, k, v = _qkv(batch=1, heads=2, target=24, source=1100, head=16)
    g = torch.Generator().manual_seed(11)
    mask = torch.rand(24, 1100, generator=g) > 0.5
    mask[:8, :600] = False
    mask[:8, 1099] = True
    mask[20] = False

    def fn(q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m)

    compiled = torch2mlir.compile(Attention(fn), (q, k, v, mask), cache=False)
    got, want = compiled(q, k, v, mask), fn(q, k, v, mask)
    assert (want[:, :, 20] == 0).all()
    assert not torch.isnan(want).any()
    torch.testing.assert_close(got, want)
    # Large scores: the running max moves by hundreds between steps.
    q = q * 30
    torch.testing.assert_close(compiled(q, k, v, mask), fn(q, k, v, mask))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("mask_dtype", [torch.bool, None])
def test_fully_masked_rows_are_zero(dtype, mask_dtype) -> None:
    # PyTorch's attention gives 0 for a query whose every key is masked
    # (_safe_softmax), where a plain softmax of -inf scores is NaN. float32
    # goes through the fused lowering, float64 through the decomposition.
    q, k, v = _qkv(target=5, source=7, dtype=dtype)
    mask = torch.ones(5, 7, dtype=torch.bool)
    mask[1] = False
    mask[3, :4] = False
    if mask_dtype is None:  # a float mask of -inf and 0
        mask = torch.zeros(5, 7, dtype=dtype).masked_fill(~mask, float("-inf"))

    def fn(q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m)

    want = fn(q, k, v, mask)
    assert (want[:, :, 1] == 0).all()
    _check(fn, q, k, v, mask, config="none")


def test_fused_causal_attention_over_key_blocks() -> None:
    # A causal task stops at the key of its last query row: 700 queries
    # and keys, blocks of 32 rows, steps of 512 keys.
    def fn(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    _check(fn, *_qkv(batch=1, heads=2, target=700, source=700, head=8), config="none")
    # More queries than keys: the rows past the last key see every key.
    _check(fn, *_qkv(batch=1, heads=1, target=40, source=530, head=8), config="none")
