"""Indexing, scatter, sorting and data-movement ops against eager PyTorch.

index_put (accumulate, negative indices, None entries, broadcast and
non-consecutive index tensors, bool masks), scatter / scatter_add /
scatter_reduce (every reduction, include_self), select_scatter,
slice_scatter, masked_scatter, sort (stable ties, NaN, descending), topk,
flip, repeat, diagonal, as_strided, split_with_sizes, copy, fill, empty,
nonzero: static and dynamic shapes, integer and bool dtypes. Every program
is exported with the Core ATen decompositions, which keep these ops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from harness import import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()


class Fn(nn.Module):
    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: torch.Tensor) -> Any:
        return self.fn(*args)


def _flatten(value: Any) -> list[torch.Tensor]:
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _flatten(v)]
    return [value]


def check(
    fn: Callable[..., Any],
    *args: torch.Tensor,
    dynamic_shapes: Any = None,
    inputs: tuple[torch.Tensor, ...] | None = None,
    exact_values_only: bool = False,
) -> None:
    """Compiles `fn` for `args` and compares it with eager on `inputs`
    (default: `args`): same dtypes and shapes, equal integers, floats within
    assert_close's default tolerances, NaN where eager has NaN."""
    compiled = torch2mlir.compile(
        Fn(fn),
        args,
        decompositions="core-aten",
        # forward(*args): the shapes of the args go in one tuple.
        dynamic_shapes=None if dynamic_shapes is None else (dynamic_shapes,),
        cache=False,
    )
    run_on = inputs if inputs is not None else args
    expected = _flatten(fn(*[a.clone() for a in run_on]))
    given = [a.clone() for a in run_on]
    actual = _flatten(compiled(*given))
    for before, after in zip(run_on, given):
        # These programs are out of place: the caller's tensors stay as
        # they were.
        torch.testing.assert_close(after, before, rtol=0, atol=0, equal_nan=True)
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected):
        if exact_values_only:
            assert got.shape == want.shape and got.dtype == want.dtype
            continue
        torch.testing.assert_close(got, want, equal_nan=True)


def _ints(*shape: int, low: int = -5, high: int = 5, dtype=torch.int64):
    return torch.randint(low, high, shape, dtype=dtype)


# ---------------------------------------------------------------------------
# index_put
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_1d_duplicates_and_negative(accumulate: bool) -> None:
    torch.manual_seed(0)
    x = torch.randn(6)
    i = torch.tensor([0, -1, 2, 0, 5])
    v = torch.randn(5)
    if accumulate:
        check(lambda x, i, v: torch.index_put(x, (i,), v, accumulate=True), x, i, v)
    else:
        # Without accumulate, a repeated position takes one of its values
        # (PyTorch does not say which): no repeats here.
        i = torch.tensor([0, -1, 2, 3])
        check(lambda x, i, v: torch.index_put(x, (i,), v), x, i, v[:4])


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.float16, torch.int64, torch.int8, torch.uint8]
)
def test_index_put_dtypes_accumulate(dtype: torch.dtype) -> None:
    torch.manual_seed(1)
    x = torch.randint(0, 9, (4, 3)).to(dtype)
    i = torch.tensor([1, 1, 3])
    v = torch.randint(0, 9, (3, 3)).to(dtype)
    check(lambda x, i, v: torch.index_put(x, (i,), v, accumulate=True), x, i, v)


def test_index_put_bool_tensor_accumulate() -> None:
    x = torch.tensor([[True, False], [False, False]])
    i = torch.tensor([1, 1])
    v = torch.tensor([[True, False], [False, True]])
    check(lambda x, i, v: torch.index_put(x, (i,), v, accumulate=True), x, i, v)


def test_index_put_none_entry_and_broadcast_values() -> None:
    # x[:, i] = v with v broadcast along the rows.
    torch.manual_seed(2)
    x = torch.randn(3, 5, 2)
    i = torch.tensor([4, 0, -2])
    v = torch.randn(3, 2)

    def fn(x, i, v):
        y = x.clone()
        y[:, i] = v
        return y

    check(fn, x, i, v)


def test_index_put_two_broadcast_index_tensors() -> None:
    torch.manual_seed(3)
    x = torch.randn(4, 5, 3)
    rows = torch.tensor([[0], [3]])
    cols = torch.tensor([1, 4, 2])
    v = torch.randn(2, 3, 3)
    check(
        lambda x, r, c, v: torch.index_put(x, (r, c), v, accumulate=True),
        x,
        rows,
        cols,
        v,
    )


def test_index_put_non_consecutive_indices() -> None:
    # x[i, :, j]: the broadcast dim comes first in the indexed view.
    torch.manual_seed(4)
    x = torch.randn(3, 4, 5)
    i = torch.tensor([0, 2])
    j = torch.tensor([4, 1])
    v = torch.randn(2, 4)

    def fn(x, i, j, v):
        y = x.clone()
        y[i, :, j] = v
        return y

    check(fn, x, i, j, v)


def test_index_put_scalar_value_and_0d_index() -> None:
    x = torch.zeros(3, 4)
    i = torch.tensor(2)
    check(lambda x, i: torch.index_put(x, (i,), torch.tensor(7.0)), x, i)


def test_index_put_bool_mask() -> None:
    torch.manual_seed(5)
    x = torch.randn(3, 4)
    mask = x > 0
    v = torch.randn(int(mask.sum()))
    check(lambda x, m, v: torch.index_put(x, (m,), v), x, mask, v)


def test_index_put_bool_mask_broadcast_value() -> None:
    torch.manual_seed(6)
    x = torch.randn(3, 4)

    def fn(x):
        y = x.clone()
        y[x < 0] = 0.0
        return y

    check(fn, x)


def test_index_put_bool_mask_after_none() -> None:
    torch.manual_seed(7)
    x = torch.randn(2, 5, 3)
    mask = torch.tensor([True, False, True, True, False])
    v = torch.randn(2, 3, 3)
    check(lambda x, m, v: torch.ops.aten.index_put(x, [None, m], v, True), x, mask, v)


def test_index_put_dynamic() -> None:
    torch.manual_seed(8)
    x = torch.randn(6, 3)
    i = torch.tensor([5, 0, 5])
    v = torch.randn(3, 3)
    n = torch.export.Dim("n", min=2, max=64)
    k = torch.export.Dim("k", min=2, max=64)
    check(
        lambda x, i, v: torch.index_put(x, (i,), v, accumulate=True),
        x,
        i,
        v,
        dynamic_shapes=({0: n}, {0: k}, {0: k}),
        inputs=(torch.randn(9, 3), torch.tensor([8, 1, 1, -1]), torch.randn(4, 3)),
    )


# ---------------------------------------------------------------------------
# scatter
# ---------------------------------------------------------------------------


def test_scatter_src() -> None:
    x = torch.zeros(3, 5)
    index = torch.tensor([[0, 1, 2, 0], [2, 0, 1, 1]])
    src = torch.arange(1.0, 11.0).reshape(2, 5)
    check(lambda x, i, s: torch.scatter(x, 0, i, s), x, index, src)


def test_scatter_value_negative_dim() -> None:
    x = torch.zeros(2, 4, dtype=torch.int32)
    index = torch.tensor([[1], [3]])
    check(lambda x, i: torch.scatter(x, -1, i, 7), x, index)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
def test_scatter_add_duplicates(dtype: torch.dtype) -> None:
    torch.manual_seed(9)
    x = torch.randint(0, 2, (3, 4)).to(dtype)
    index = torch.randint(0, 3, (5, 4))
    src = torch.randint(0, 2, (5, 4)).to(dtype)
    check(lambda x, i, s: torch.scatter_add(x, 0, i, s), x, index, src)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64])
def test_scatter_reduce(reduce: str, include_self: bool, dtype: torch.dtype) -> None:
    torch.manual_seed(10)
    x = torch.randint(-9, 9, (4, 3)).to(dtype)
    index = torch.tensor([[0, 1, 1], [0, 0, 3], [2, 1, 0], [0, 1, 1], [2, 2, 2]])
    src = torch.randint(-9, 9, (5, 3)).to(dtype)
    check(
        lambda x, i, s: torch.scatter_reduce(
            x, 0, i, s, reduce, include_self=include_self
        ),
        x,
        index,
        src,
    )


def test_prod_of_bool_along_a_dim() -> None:
    # The product of bools is their logical and; eager gives int64 unless
    # dtype=torch.bool is asked for.
    x = torch.tensor([[1.0, 0.0, 2.0], [3.0, 4.0, -5.0]])
    check(lambda x: torch.prod(x > 0, 1), x)
    check(lambda x: torch.prod(x != 0, 0, keepdim=True, dtype=torch.bool), x)
    check(lambda x: torch.prod(x, 1, dtype=torch.bool), x)


def test_scatter_reduce_amax_nan() -> None:
    x = torch.tensor([1.0, float("nan"), 3.0])
    index = torch.tensor([0, 0, 2, 2])
    src = torch.tensor([float("nan"), 2.0, 1.0, 5.0])
    check(lambda x, i, s: torch.scatter_reduce(x, 0, i, s, "amax"), x, index, src)


def test_scatter_empty_index() -> None:
    x = torch.randn(3, 2)
    index = torch.zeros(0, 2, dtype=torch.int64)
    src = torch.randn(0, 2)
    check(lambda x, i, s: torch.scatter_add(x, 0, i, s), x, index, src)


def test_scatter_add_dynamic() -> None:
    n = torch.export.Dim("n", min=2, max=64)
    check(
        lambda x, i, s: torch.scatter_add(x, 1, i, s),
        torch.randn(3, 5),
        torch.randint(0, 5, (3, 4)),
        torch.randn(3, 4),
        dynamic_shapes=({1: n}, None, None),
        inputs=(torch.randn(3, 9), torch.randint(0, 9, (3, 4)), torch.randn(3, 4)),
    )


# ---------------------------------------------------------------------------
# select_scatter, slice_scatter, masked_scatter
# ---------------------------------------------------------------------------


def test_select_scatter_negative_index() -> None:
    check(
        lambda x, s: torch.select_scatter(x, s, 1, -1),
        torch.randn(3, 4, 2),
        torch.randn(3, 2),
    )


@pytest.mark.parametrize(
    ("start", "end", "step", "length"),
    [(1, 5, 2, 2), (-3, None, 1, 3), (None, None, 3, 2), (2, 2, 1, 0), (6, None, 1, 0)],
)
def test_slice_scatter(start, end, step, length: int) -> None:
    check(
        lambda x, s: torch.slice_scatter(x, s, 0, start, end, step),
        torch.randn(6, 3),
        torch.randn(length, 3),
    )


def test_slice_scatter_int_dim1() -> None:
    check(
        lambda x, s: torch.slice_scatter(x, s, dim=-1, start=1, end=3),
        _ints(2, 4),
        _ints(2, 2),
    )


def test_masked_scatter_broadcast_mask() -> None:
    torch.manual_seed(11)
    x = torch.randn(3, 4)
    mask = torch.tensor([True, False, True, True])
    source = torch.randn(5, 4)
    check(lambda x, m, s: x.masked_scatter(m, s), x, mask, source)


def test_masked_scatter_int() -> None:
    x = _ints(2, 3)
    mask = torch.tensor([[True, False, True], [False, False, True]])
    check(lambda x, m, s: x.masked_scatter(m, s), x, mask, _ints(7))


# ---------------------------------------------------------------------------
# sort, topk
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("stable", [False, True])
def test_sort_ties_in_index_order(descending: bool, stable: bool) -> None:
    x = torch.tensor([[3, 1, 3, 1, 2, 1], [0, 0, 0, 5, 5, 0]])
    check(lambda x: torch.sort(x, dim=1, descending=descending, stable=stable), x)


@pytest.mark.parametrize("descending", [False, True])
def test_sort_nan_and_inf(descending: bool) -> None:
    nan, inf = float("nan"), float("inf")
    x = torch.tensor([1.0, nan, -inf, 0.0, inf, nan, -0.0, 2.0])
    check(lambda x: torch.sort(x, descending=descending), x)


@pytest.mark.parametrize(
    "dtype", [torch.float64, torch.float16, torch.bfloat16, torch.uint8, torch.bool]
)
def test_sort_dtypes_dim0(dtype: torch.dtype) -> None:
    torch.manual_seed(12)
    x = torch.randint(0, 4, (5, 3)).to(dtype)
    check(lambda x: torch.sort(x, dim=0), x)


def test_sort_0d_and_empty() -> None:
    check(lambda x: torch.sort(x), torch.tensor(3.0))
    check(lambda x: torch.sort(x, dim=0), torch.randn(0, 3))


def test_sort_dynamic() -> None:
    n = torch.export.Dim("n", min=2, max=64)
    check(
        lambda x: torch.sort(x, dim=-1, descending=True),
        torch.randn(2, 5),
        dynamic_shapes=({1: n},),
        inputs=(torch.randn(2, 11),),
    )


def test_argsort() -> None:
    check(lambda x: torch.argsort(x, dim=0, stable=True), _ints(6, 2))


@pytest.mark.parametrize("largest", [True, False])
def test_topk(largest: bool) -> None:
    torch.manual_seed(13)
    x = torch.randn(4, 7)
    check(lambda x: torch.topk(x, 3, dim=1, largest=largest), x)
    check(lambda x: torch.topk(x, 2, dim=0, largest=largest), x)


def test_topk_nan_largest() -> None:
    x = torch.tensor([1.0, float("nan"), 3.0, -1.0])
    check(lambda x: torch.topk(x, 2), x)


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.float64, torch.int32, torch.int64]
)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_sort_and_topk_long_slices(dtype: torch.dtype, dim: int) -> None:
    # Slices of hundreds of elements with ties (and NaN, for floats) along
    # each dim of a non-contiguous input: the RefBackend's library sort
    # (float32, float64, int32, int64) against eager's stable sort, and a
    # topk whose k values are distinct.
    torch.manual_seed(14)
    base = torch.randint(-40, 40, (300, 2, 257)).to(dtype)
    if dtype.is_floating_point:
        base[::7, 0, ::5] = float("nan")
    x = base[:, 1, :]
    for descending in (False, True):
        check(
            lambda t, d=descending: torch.sort(t, dim=dim, descending=d, stable=True),
            x,
        )
    distinct = torch.randperm(300 * 257).reshape(300, 257).to(dtype)
    for largest in (True, False):
        check(lambda t, k=largest: torch.topk(t, 9, dim=dim, largest=k), distinct)


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.float64, torch.int32, torch.int64]
)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_long_slices_of_extremes(dtype: torch.dtype, descending: bool) -> None:
    # Slices long enough for the library's radix sort, of the values whose
    # integer keys sit at the ends or straddle the sign: -0.0 next to +0.0
    # (equal: ties in index order), infinities, NaN, the smallest
    # subnormal, the dtype's own limits.
    torch.manual_seed(15)
    if dtype.is_floating_point:
        info = torch.finfo(dtype)
        pool = [
            -0.0,
            0.0,
            float("inf"),
            -float("inf"),
            float("nan"),
            info.max,
            info.min,
            info.tiny,
            -info.tiny,
            1.0,
            -1.0,
            1e-45 if dtype == torch.float32 else 5e-324,
        ]
    else:
        info = torch.iinfo(dtype)
        pool = [info.min, info.max, 0, -1, 1, info.min + 1, info.max - 1]
    values = torch.tensor(pool, dtype=dtype)
    x = values[torch.randint(len(pool), (3, 600))]
    check(lambda t: torch.sort(t, dim=-1, descending=descending, stable=True), x)
    check(
        lambda t: torch.argsort(t, dim=0, descending=descending, stable=True),
        x.T.contiguous(),
    )


# ---------------------------------------------------------------------------
# flip, repeat, diagonal, as_strided, split_with_sizes
# ---------------------------------------------------------------------------


def test_flip() -> None:
    x = torch.arange(24).reshape(2, 3, 4)
    check(lambda x: torch.flip(x, (0, -1)), x)
    check(lambda x: torch.flip(x, ()), x)


def test_flip_dynamic() -> None:
    n = torch.export.Dim("n", min=2, max=64)
    check(
        lambda x: torch.flip(x, (1,)),
        torch.randn(3, 5),
        dynamic_shapes=({1: n},),
        inputs=(torch.randn(3, 8),),
    )


def test_flip_non_contiguous_input() -> None:
    x = torch.randn(4, 3).t()
    check(lambda x: torch.flip(x, (0,)), x)


def test_repeat() -> None:
    x = torch.arange(6).reshape(2, 3)
    check(lambda x: x.repeat(2, 1, 3), x)
    check(lambda x: x.repeat(1, 0), x)
    check(lambda x: x.repeat(3, 2), torch.tensor(5))


def test_repeat_bool_and_dynamic() -> None:
    check(lambda x: x.repeat(3, 2), torch.tensor([True, False]))
    n = torch.export.Dim("n", min=2, max=64)
    check(
        lambda x: x.repeat(2, 3),
        torch.randn(2, 3),
        dynamic_shapes=({1: n},),
        inputs=(torch.randn(2, 6),),
    )


@pytest.mark.parametrize(
    ("offset", "dim1", "dim2"),
    [(0, 0, 1), (1, 0, 1), (-2, 1, 0), (2, -1, 0), (7, 0, 2)],
)
def test_diagonal(offset: int, dim1: int, dim2: int) -> None:
    x = torch.arange(60.0).reshape(3, 4, 5)
    check(lambda x: torch.diagonal(x, offset, dim1, dim2), x)


def test_as_strided() -> None:
    x = torch.arange(12.0)
    check(lambda x: torch.as_strided(x, (3, 2), (2, 3)), x)
    check(lambda x: torch.as_strided(x, (2, 2), (1, 4), 3), x)


# as_strided reads its input's *storage*, which a view shares with its base:
# after any view, the result must be eager's (it used to read the view's own
# values row-major, a wrong value without an error).
AS_STRIDED_AFTER_VIEW = {
    "permute": lambda x: x.permute(1, 0).as_strided((3, 2), (1, 3)),
    "transpose": lambda x: x.transpose(0, 1).as_strided((2, 3), (3, 1), 2),
    "t": lambda x: x.t().as_strided((2, 2), (2, 1), 1),
    "movedim": lambda x: torch.movedim(x, 0, 1).as_strided((4,), (2,)),
    "numpy_T": lambda x: x.T.as_strided((3,), (4,)),
    "alias": lambda x: torch.ops.aten.alias(x).as_strided((2, 2), (1, 3)),
    "detach": lambda x: x.detach().as_strided((2, 2), (1, 3)),
    "_unsafe_view": lambda x: torch.ops.aten._unsafe_view(x, (3, 4)).as_strided(
        (2, 2), (4, 1)
    ),
    "slice_offset": lambda x: x[1:].as_strided((2, 2), (1, 2)),
    "diagonal": lambda x: x.diagonal().as_strided((2,), (4,)),
    "narrow": lambda x: x.narrow(1, 1, 2).as_strided((2, 2), (3, 1)),
    "select": lambda x: x[1].as_strided((2,), (2,)),
    "unfold": lambda x: x.unfold(0, 2, 1).as_strided((3,), (5,)),
    "channels_last": lambda x: (
        x.reshape(1, 2, 2, 3)
        .to(memory_format=torch.channels_last)
        .as_strided((4,), (3,))
    ),
    "relu_of_channels_last": lambda x: torch.relu(
        x.reshape(1, 2, 2, 3).to(memory_format=torch.channels_last)
    ).as_strided((4,), (3,)),
    "nested": lambda x: x.as_strided((3, 3), (1, 2), 1).as_strided((2, 2), (2, 1)),
    "after_add": lambda x: (x + 1).t().as_strided((2, 3), (1, 2)),
}


@pytest.mark.parametrize("view", list(AS_STRIDED_AFTER_VIEW))
def test_as_strided_after_a_view(view: str) -> None:
    fn = AS_STRIDED_AFTER_VIEW[view]
    x = torch.arange(12.0).reshape(4, 3)
    check(fn, x)
    check(fn, torch.randn(4, 3))


def test_as_strided_of_a_channels_last_input() -> None:
    fn = lambda x: x.as_strided((6,), (2,))
    x = torch.arange(24.0).reshape(1, 2, 3, 4).to(memory_format=torch.channels_last)
    check(fn, x)
    compiled = torch2mlir.compile(Fn(fn), (x,), cache=False)
    # The result depends on the input's strides: other strides are refused.
    with pytest.raises(torch2mlir.InputError, match="reads this tensor's storage"):
        compiled(x.contiguous())


def test_as_strided_of_a_transposed_parameter() -> None:
    class Weighted(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.weight = torch.nn.Parameter(torch.randn(3, 4).t())

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x + self.weight.as_strided((2, 3), (1, 4))

    model = Weighted()
    x = torch.randn(2, 3)
    compiled = torch2mlir.compile(model, (x,), cache=False)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))


@pytest.mark.parametrize("dim", [0, -1])
def test_split_with_sizes(dim: int) -> None:
    x = torch.arange(42).reshape(6, 7)
    check(lambda x: torch.split(x, [1, 4, 1] if dim == 0 else [3, 0, 4], dim), x)


def test_split_chunk_unbind() -> None:
    x = torch.randn(5, 4)
    check(lambda x: torch.split(x, 2), x)
    check(lambda x: torch.chunk(x, 2, dim=1), x)
    check(lambda x: torch.unbind(x, 1), x)


def test_slice_and_cat_at_the_end() -> None:
    # Empty pieces at the end of a dim (offset == size).
    x = torch.randn(5, 3)
    check(lambda x: x[5:], x)
    check(lambda x: torch.cat([x, x[5:], x[:0]]), x)
    check(lambda x: torch.cat([x[5:], x[:0]]), x)


def test_index_select_0d() -> None:
    check(
        lambda x, i: torch.index_select(x, 0, i), torch.tensor(2.5), torch.tensor([0])
    )
    check(lambda x, i: torch.index_select(x, -1, i), torch.tensor(2.5), torch.tensor(0))


def test_index_mixed_none_and_tensors() -> None:
    # x[i, :, j]: the broadcast dims go first.
    x = torch.randn(3, 4, 5)
    i = torch.tensor([[0], [2]])
    j = torch.tensor([4, -1, 0])
    check(lambda x, i, j: x[i, :, j], x, i, j)
    check(lambda x, j: x[:, 1:3, j], x, j)


# ---------------------------------------------------------------------------
# copy, fill, empty, nonzero
# ---------------------------------------------------------------------------


def test_copy_broadcast_and_cast() -> None:
    x = torch.zeros(2, 3, dtype=torch.int32)
    src = torch.tensor([1.7, -2.2, 3.9])
    check(lambda x, s: torch.ops.aten.copy(x, s), x, src)
    check(
        lambda x, s: torch.ops.aten.copy(x, s),
        torch.zeros(3, dtype=torch.float32),
        torch.tensor([True, False, True]),
    )


def test_fill() -> None:
    check(lambda x: torch.ops.aten.fill(x, 2.5), torch.zeros(2, 3))
    check(lambda x: torch.ops.aten.fill(x, 3), torch.zeros(4, dtype=torch.uint8))
    check(lambda x: torch.ops.aten.fill(x, True), torch.zeros(2, dtype=torch.int64))


def test_empty_shapes_and_dtypes() -> None:
    check(
        lambda x: (torch.empty(2, 3, dtype=torch.int32), x + 1),
        torch.zeros(2),
        exact_values_only=True,
    )
    # Eager's contents are arbitrary (maybe NaN): only dtypes and shapes.
    check(
        lambda x: (torch.empty_strided((2, 3), (1, 2)), x + 1),
        torch.ones(3),
        exact_values_only=True,
    )


def test_nonzero_inside_the_program() -> None:
    # The number of rows is known at run time only: fine inside the
    # program (NaN is nonzero).
    x = torch.tensor([[0.0, 1.0, float("nan")], [0.0, 0.0, -2.0]])
    check(lambda x: torch.nonzero(x).sum(0), x)
    check(
        lambda x: torch.nonzero(x).sum(0),
        torch.tensor([[True, False], [False, True]]),
        inputs=(torch.tensor([[True, True], [False, True]]),),
    )
    check(
        lambda x: torch.nonzero(x).sum(0), torch.tensor([[0, 3, 0]], dtype=torch.int8)
    )


def test_nonzero_as_output() -> None:
    # A data-dependent output size: the compiled code allocates the result
    # (test_data_dependent.py has the rest).
    x = torch.tensor([[0.0, 1.0, float("nan")], [0.0, 0.0, -2.0]])
    check(lambda x: torch.nonzero(x), x, inputs=(torch.ones(2, 3),))


@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_reduce_overload(reduce: str) -> None:
    x = torch.arange(1.0, 13.0).reshape(3, 4)
    index = torch.tensor([[0, 1, 0, 2], [2, 1, 0, 0]])
    src = torch.arange(2.0, 10.0).reshape(2, 4)
    check(lambda x, i, s: torch.scatter(x, 0, i, s, reduce=reduce), x, index, src)
    check(lambda x, i: torch.scatter(x, 1, i, 2.0, reduce=reduce), x, index[:, :2])


@pytest.mark.parametrize(("offset", "dim1", "dim2"), [(0, 0, 1), (1, 1, 0), (-1, 0, 2)])
def test_diagonal_scatter(offset: int, dim1: int, dim2: int) -> None:
    x = torch.zeros(3, 4, 5)
    src = torch.diagonal(x, offset, dim1, dim2)
    src = torch.arange(src.numel(), dtype=torch.float32).reshape(src.shape) + 1
    check(lambda x, s: torch.diagonal_scatter(x, s, offset, dim1, dim2), x, src)


def test_as_strided_scatter() -> None:
    x = torch.zeros(12, dtype=torch.int64)
    src = torch.arange(1, 7).reshape(3, 2)
    check(lambda x, s: torch.as_strided_scatter(x, s, (3, 2), (4, 1), 1), x, src)


def test_new_empty_and_empty_permuted_shapes() -> None:
    x = torch.ones(2, 3, dtype=torch.int32)
    check(lambda x: x.new_empty((4, 1)), x, exact_values_only=True)
    check(lambda x: x.new_empty_strided((2, 2), (1, 2)), x, exact_values_only=True)
    check(
        lambda x: (torch.empty_permuted((2, 3, 4), (2, 0, 1)), x + 1),
        x,
        exact_values_only=True,
    )


def test_gather_0d_and_empty_index() -> None:
    # A 0-d input or index counts as 1-d of one element; an empty index
    # gives an empty result whatever its rank.
    x = torch.tensor(3.5)
    check(lambda x, i: torch.gather(x, 0, i), x, torch.tensor([0]))
    check(lambda x, i: torch.gather(x, 0, i), x, torch.tensor(0))
    check(lambda x, i: torch.gather(x, 0, i), torch.randn(5), torch.tensor(3))
    check(
        lambda x, i: torch.gather(x, 0, i),
        torch.randn(5),
        torch.zeros(2, 0, dtype=torch.int64),
    )


# ---------------------------------------------------------------------------
# Indices out of range: PyTorch raises IndexError; compiled code must never
# read or write outside the tensor.
# ---------------------------------------------------------------------------

_X = torch.arange(20.0).reshape(5, 4)

_OUT_OF_RANGE = {
    # name: (program, valid index, index out of range); the program takes
    # (x, index) with x = _X.
    "gather": (lambda x, i: torch.gather(x, 1, i), [[0, 3]], [[0, 4]]),
    "gather_negative": (lambda x, i: torch.gather(x, 1, i), [[0, 3]], [[-1, 0]]),
    "index_select": (lambda x, i: torch.index_select(x, 0, i), [4, 0], [0, 5]),
    "embedding": (lambda x, i: nn.functional.embedding(i, x), [[4, 1]], [[5, 1]]),
    "index": (lambda x, i: x[i], [-5, 4], [1, -6]),
    "index_2d": (lambda x, i: x[i, i], [-4, 3], [0, 4]),
    "scatter": (lambda x, i: x.scatter(0, i, 7.0), [[4, 0, 1, 2]], [[1, 5, 0, 0]]),
    "scatter_add": (
        lambda x, i: x.scatter_add(1, i, torch.ones(1, 2)),
        [[3, 3]],
        [[3, -1]],
    ),
    "index_put": (lambda x, i: x.index_put((i,), torch.tensor(1.0)), [-5, 1], [1, 7]),
    "index_put_accumulate": (
        lambda x, i: x.index_put((i,), torch.tensor(1.0), accumulate=True),
        [-1, -1],
        [1, -7],
    ),
}


@pytest.mark.parametrize("name", sorted(_OUT_OF_RANGE))
def test_an_index_out_of_range_is_an_input_error(name: str) -> None:
    fn, valid, invalid = _OUT_OF_RANGE[name]
    valid, invalid = torch.tensor(valid), torch.tensor(invalid)
    with pytest.raises((IndexError, RuntimeError), match="out of (range|bounds)"):
        fn(_X, invalid)  # eager's verdict, which the compiled code must share
    compiled = torch2mlir.compile(Fn(fn), (_X, valid), cache=False)
    torch.testing.assert_close(compiled(_X, valid), fn(_X, valid))
    with pytest.raises(torch2mlir.InputError, match="out of range for dim"):
        compiled(_X, invalid)
    # The failed call left the module usable and the input as it was.
    torch.testing.assert_close(compiled(_X, valid), fn(_X, valid))
    assert torch.equal(_X, torch.arange(20.0).reshape(5, 4))


def test_an_index_into_an_empty_dim_is_an_input_error() -> None:
    fn = Fn(lambda x, i: torch.index_select(x, 0, i))
    x, index = torch.zeros(3, 2), torch.tensor([0])
    compiled = torch2mlir.compile(
        fn,
        (x, index),
        dynamic_shapes=(({0: torch.export.Dim("n", min=0)}, None),),
        cache=False,
    )
    torch.testing.assert_close(compiled(torch.ones(2, 2), index), torch.ones(1, 2))
    with pytest.raises(torch2mlir.InputError, match="out of range for dim 0"):
        compiled(torch.zeros(0, 2), index)


def test_a_gather_index_larger_than_the_input_is_refused() -> None:
    # Along the other dims a gather index reads the input at its own
    # position: PyTorch refuses an index larger than the input there.
    # torch.export checks it itself (static sizes, and it guards dynamic
    # ones); ONNX GatherElements reaches our lowering's checks (see
    # test_onnx_checks.py).
    fn = Fn(lambda x, i: torch.gather(x, 0, i))
    x, index = torch.randn(3, 4), torch.zeros(2, 5, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="Size does not match"):
        fn(x, index)  # eager's verdict
    with pytest.raises(torch2mlir.CompileError, match="no larger than"):
        torch2mlir.compile(fn, (x, index), cache=False)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x, i: x.index_put((i,), torch.tensor(1.0), accumulate=True),
        lambda x, i: x.index_put((i,), torch.tensor(1.0)),
        lambda x, i: x.scatter(0, i.view(2, 1).expand(2, 4), 1.0),
        lambda x, i: x.index_fill(0, i, 3.0),
        lambda x, i: x.index_add(0, i, torch.ones(2, 4)),
    ],
    ids=["index_put_accumulate", "index_put", "scatter", "index_fill", "index_add"],
)
def test_out_of_place_updates_leave_the_callers_tensor(fn) -> None:
    # Bufferization took function arguments as writable and updated the
    # caller's input in place (refbackend-read-only-arguments).
    x, index = torch.zeros(5, 4), torch.tensor([0, 0])
    compiled = torch2mlir.compile(Fn(fn), (x, index), cache=False)
    for _ in range(2):
        torch.testing.assert_close(compiled(x, index), fn(torch.zeros(5, 4), index))
    assert torch.equal(x, torch.zeros(5, 4))
