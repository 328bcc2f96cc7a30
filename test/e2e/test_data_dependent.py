"""Outputs whose sizes only the computation knows: ``nonzero``,
``masked_select``, boolean-mask indexing, ``unique`` (sorted, with inverse
and counts; of elements or of slices along a dim), ``unique_consecutive``,
one-argument ``where``, ``repeat_interleave`` with a tensor of repeats and
``bincount``. Each program is compiled
once and called with inputs of three sizes (and different data, so the
result sizes differ from the example's), compared with eager PyTorch. The
compiled code allocates such results (the RefBackend's
``callee-allocated-results``); the tensors over that memory are checked to
outlive the call and to be freed with torch's tensors.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import pytest
import torch
from harness import import_torch2mlir
from test_decompositions import Call

torch2mlir = import_torch2mlir()

SIZES = [(3, 4), (17, 9), (64, 130)]


def _compile_dynamic(fn: Callable[..., Any], *inputs: torch.Tensor) -> Any:
    """`fn` compiled with every dim of every input dynamic."""
    dims = [{d: torch.export.Dim.AUTO for d in range(x.dim())} for x in inputs]
    return torch2mlir.compile(
        Call(fn), inputs, dynamic_shapes=(tuple(dims),), cache=False
    )


def _assert_same(actual: Any, expected: Any) -> None:
    if isinstance(expected, torch.Tensor):
        expected, actual = (expected,), (actual,)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert a.shape == e.shape and a.dtype == e.dtype, (a, e)
        # Selections, coordinates and counts are exact; a float sum of the
        # selection may add in another order (the dtype's tolerance).
        exact = {"rtol": 0, "atol": 0} if e.dim() or not e.is_floating_point() else {}
        torch.testing.assert_close(a, e, equal_nan=True, **exact)


def _inputs(shape: tuple[int, ...], kind: str) -> tuple[torch.Tensor, ...]:
    x = torch.randn(*shape)
    x[x.abs() < 0.5] = 0.0  # about 40% zeros
    if kind == "x":
        return (x,)
    if kind == "x,mask":
        return (x, torch.rand(*shape) > 0.6)
    if kind == "ints":
        return (torch.randint(0, 6, shape),)
    raise AssertionError(kind)


CASES = {
    "nonzero": (torch.nonzero, "x"),
    "nonzero_of_comparison": (lambda x: torch.nonzero(x > 0.3), "x"),
    "argwhere": (torch.argwhere, "x"),
    "where_one_argument": (lambda x: torch.where(x > 0), "x"),
    "nonzero_as_tuple": (lambda x: torch.nonzero(x, as_tuple=True), "x"),
    "masked_select": (torch.masked_select, "x,mask"),
    "masked_select_broadcast": (
        lambda x, m: torch.masked_select(x[:1], m),
        "x,mask",
    ),
    "mask_index": (lambda x, m: x[m], "x,mask"),
    "mask_index_then_compute": (lambda x, m: (x[m] * 2).sum() + x[m].max(), "x,mask"),
    "mask_index_rows": (lambda x, m: x[m[:, 0]] + 1, "x,mask"),
    "mask_index_columns": (lambda x, m: x[:, m[0]], "x,mask"),
    "unique": (torch.unique, "ints"),
    "unique_inverse_counts": (
        lambda x: torch.unique(x, return_inverse=True, return_counts=True),
        "ints",
    ),
    "unique_of_floats": (lambda x: torch.unique(x, return_counts=True), "x"),
    "unique_consecutive": (
        lambda x: torch.unique_consecutive(
            x.flatten().sort().values, return_inverse=True, return_counts=True
        ),
        "ints",
    ),
    "unique_consecutive_unsorted": (
        lambda x: torch.unique_consecutive(x, return_counts=True),
        "ints",
    ),
    "repeat_interleave": (
        lambda x: torch.repeat_interleave(x.flatten().clamp(0, 3)),
        "ints",
    ),
    "repeat_interleave_rows": (
        lambda x: torch.repeat_interleave(x, x[:, 0].clamp(0, 3), dim=0),
        "ints",
    ),
    # Slices compared whole; values in {0, 1} so that rows repeat.
    "unique_dim_rows": (
        lambda x: torch.unique(x % 2, dim=0, return_inverse=True, return_counts=True),
        "ints",
    ),
    "unique_dim_columns_of_floats": (
        lambda x: torch.unique((x > 0).float(), dim=1, return_counts=True),
        "x",
    ),
    "unique_consecutive_dim": (
        lambda x: torch.unique_consecutive(
            (x % 2).sort(dim=0).values, dim=0, return_inverse=True, return_counts=True
        ),
        "ints",
    ),
    "bincount": (lambda x: torch.bincount(x.flatten()), "ints"),
    "bincount_weights_minlength": (
        lambda x: (
            torch.bincount(x.flatten(), x.flatten() * 0.5, minlength=9),
            torch.bincount(x.flatten(), x.flatten(), minlength=2),
        ),
        "ints",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_data_dependent_sizes(name: str) -> None:
    fn, kind = CASES[name]
    torch.manual_seed(0)
    compiled = _compile_dynamic(fn, *_inputs(SIZES[0], kind))
    for shape in SIZES:
        inputs = _inputs(shape, kind)
        _assert_same(compiled(*inputs), fn(*inputs))


def test_static_input_sizes() -> None:
    """Without dynamic input sizes, the result's size still comes from the
    data: each call may return another number of rows."""
    compiled = torch2mlir.compile(Call(torch.nonzero), (torch.ones(3, 4),), cache=False)
    for fill in (0.0, 1.0):
        x = torch.full((3, 4), fill)
        x[1, 2] = 1.0 - fill
        _assert_same(compiled(x), torch.nonzero(x))


def test_no_nonzero_element_and_zero_size() -> None:
    compiled = _compile_dynamic(torch.nonzero, torch.randn(3, 4))
    _assert_same(compiled(torch.zeros(5, 2)), torch.nonzero(torch.zeros(5, 2)))
    _assert_same(compiled(torch.ones(0, 7)), torch.nonzero(torch.ones(0, 7)))


def test_nan_and_negative_zero() -> None:
    x = torch.tensor([[float("nan"), -0.0, 0.0, 1.0], [0.0, float("inf"), -2.0, 0.0]])
    compiled = torch2mlir.compile(Call(torch.nonzero), (x,), cache=False)
    _assert_same(compiled(x), torch.nonzero(x))


@pytest.mark.parametrize("dtype", [torch.bool, torch.int32, torch.float16])
def test_dtypes(dtype: torch.dtype) -> None:
    x = (torch.randn(6, 5) > 0).to(dtype)
    compiled = torch2mlir.compile(
        Call(lambda t: (torch.nonzero(t), t[t != 0])), (x,), cache=False
    )
    _assert_same(compiled(x), (torch.nonzero(x), x[x != 0]))


def test_results_are_callee_allocated_and_outlive_the_call() -> None:
    """The results live in memory the compiled code allocated; they stay
    valid after more calls, and each call's results are distinct tensors."""
    compiled = _compile_dynamic(lambda x, m: (x[m], x * 2), *_inputs((3, 4), "x,mask"))
    keep = []
    for shape in SIZES:
        inputs = _inputs(shape, "x,mask")
        keep.append((inputs, compiled(*inputs)))
    gc.collect()
    for (x, m), (selected, doubled) in keep:
        _assert_same(selected, x[m])
        _assert_same(doubled, x * 2)
    assert keep[0][1][0].data_ptr() != keep[1][1][0].data_ptr()


def test_memory_is_freed_with_the_tensors() -> None:
    """10,000 calls whose results are dropped do not grow the process by
    more than a few MB (each result is ~40 KB: without the free, ~400 MB)."""
    compiled = torch2mlir.compile(
        Call(torch.nonzero), (torch.ones(100, 50),), cache=False
    )
    x = torch.ones(100, 50)

    def rss() -> int:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4096

    for _ in range(200):
        compiled(x)
    gc.collect()
    before = rss()
    for _ in range(10_000):
        compiled(x)
    gc.collect()
    assert rss() - before < 32 * 2**20


def test_failed_check_with_callee_allocated_results() -> None:
    """A run-time check that fails in a program with data-dependent results
    (an integer division by zero) raises InputError; the results the code
    allocated are freed, and the next call works."""

    def fn(x: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> Any:
        return torch.nonzero(x), a // b

    ints = torch.tensor([7, -9, 4]), torch.tensor([2, 4, -3])
    compiled = torch2mlir.compile(Call(fn), (torch.randn(3, 4), *ints), cache=False)
    x = torch.randn(3, 4)
    _assert_same(compiled(x, *ints), fn(x, *ints))
    with pytest.raises(torch2mlir.InputError, match="division by zero"):
        compiled(x, ints[0], torch.tensor([1, 0, 1]))
    _assert_same(compiled(x, *ints), fn(x, *ints))


def test_cache_hit_keeps_callee_allocated_results(tmp_path, monkeypatch) -> None:
    """A program cache hit loads the machine code compiled for callee-
    allocated results and calls it that way."""
    monkeypatch.setenv("TORCH2MLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TORCH2MLIR_CACHE", raising=False)

    def fn(x: torch.Tensor, m: torch.Tensor) -> Any:
        return x[m], x + 1

    inputs = _inputs((5, 6), "x,mask")
    assert torch2mlir.compile(Call(fn), inputs).cache == "miss"
    compiled = torch2mlir.compile(Call(fn), inputs)
    assert compiled.cache == "program"
    for shape in [(5, 6)] * 3:
        inputs = _inputs(shape, "x,mask")
        _assert_same(compiled(*inputs), fn(*inputs))
