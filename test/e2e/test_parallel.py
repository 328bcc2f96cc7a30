"""Parallel loops: the compiled code splits top-level loops across PyTorch's
OpenMP threads (refbackend-parallelize-loops + the runtime's
torch2mlir_parallel_for). The results must not depend on the thread count,
including for trip counts that do not divide evenly, reductions, dynamic
sizes and bool buffers; and `torch.set_num_threads(1)` must keep the code on
one thread."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import torch
from harness import import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()
from torch2mlir.runtime import refbackend


@pytest.fixture
def threads() -> Iterator[None]:
    old = torch.get_num_threads()
    yield
    torch.set_num_threads(old)


class Mixed(nn.Module):
    """Elementwise math, a row reduction, broadcasting and a comparison."""

    def forward(self, x: torch.Tensor, y: torch.Tensor):
        z = torch.tanh(x) * y + 0.5
        s = torch.softmax(z, dim=-1)
        return s, z.sum(dim=0), (z > 0.25)


def _inputs(rows: int, cols: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(rows * 7919 + cols)
    return torch.randn(rows, cols, generator=g), torch.randn(cols, generator=g)


@pytest.mark.skipif(
    refbackend.openmp_library() is None, reason="PyTorch loaded no OpenMP runtime"
)
@pytest.mark.parametrize(("rows", "cols"), [(509, 1031), (2, 40000), (4096, 3)])
def test_parallel_matches_eager(threads: None, rows: int, cols: int) -> None:
    x, y = _inputs(rows, cols)
    compiled = torch2mlir.compile(Mixed(), (x, y), cache=False)
    expected = Mixed()(x, y)

    torch.set_num_threads(2)
    before = refbackend.parallel_regions()
    actual = compiled(x, y)
    assert refbackend.parallel_regions() > before, "no loop ran on two threads"
    for got, want in zip(actual, expected):
        torch.testing.assert_close(got, want)

    torch.set_num_threads(1)
    before = refbackend.parallel_regions()
    single = compiled(x, y)
    assert refbackend.parallel_regions() == before, "a loop ran on two threads"
    for got, want in zip(single, actual):
        torch.testing.assert_close(got, want, rtol=0, atol=0)


def test_small_loops_stay_on_the_calling_thread(threads: None) -> None:
    x, y = _inputs(4, 8)
    compiled = torch2mlir.compile(Mixed(), (x, y), cache=False)
    torch.set_num_threads(2)
    before = refbackend.parallel_regions()
    for got, want in zip(compiled(x, y), Mixed()(x, y)):
        torch.testing.assert_close(got, want)
    assert refbackend.parallel_regions() == before


@pytest.mark.skipif(
    refbackend.openmp_library() is None, reason="PyTorch loaded no OpenMP runtime"
)
def test_dynamic_batch_splits_at_run_time(threads: None) -> None:
    model = nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.LayerNorm(512)).eval()
    batch = torch.export.Dim("batch", min=1, max=4096)
    example = torch.randn(8, 256)
    compiled = torch2mlir.compile(
        model, (example,), dynamic_shapes=({0: batch},), cache=False
    )
    torch.set_num_threads(2)
    for rows in (1, 3, 1000):
        x = torch.randn(rows, 256, generator=torch.Generator().manual_seed(rows))
        with torch.no_grad():
            expected = model(x)
        torch.testing.assert_close(compiled(x), expected, rtol=1e-5, atol=1e-5)


class Padded(nn.Module):
    """A padded copy large enough for the runtime's threaded memrefCopy
    (>= 256 KiB), split along the first dim of more than one element."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.pad(x, (1, 2, 3, 0, 0, 1), value=-1.5)


@pytest.mark.parametrize(
    "shape", [(1, 64, 40, 40), (3, 8, 50, 30), (1, 1, 300, 300), (2, 1, 1, 70000)]
)
def test_large_padded_copies(threads: None, shape: tuple[int, ...]) -> None:
    x = torch.randn(shape)
    compiled = torch2mlir.compile(Padded(), (x,), cache=False)
    for count in (2, 1):
        torch.set_num_threads(count)
        torch.testing.assert_close(compiled(x), Padded()(x), rtol=0, atol=0)


class Cumsum(nn.Module):
    def __init__(self, dim: int, dtype: torch.dtype | None) -> None:
        super().__init__()
        self.dim = dim
        self.dtype = dtype

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, self.dim, dtype=self.dtype)


@pytest.mark.parametrize(
    ("shape", "dim", "dtype", "out_dtype"),
    [
        ((300, 4096), -1, torch.float32, None),  # rows in parallel
        ((4097,), 0, torch.float32, None),  # one row
        ((3, 4, 700), 2, torch.float32, torch.float64),
        ((5, 3, 100), -1, torch.float16, None),
        ((6, 9), 1, torch.complex64, None),
        ((7, 33), 1, torch.bool, torch.int64),
        ((4, 0), 1, torch.float32, None),
        ((5, 0, 0), -1, torch.float32, None),  # no elements, no rows
        ((0, 3), 0, torch.int64, None),
        ((4, 0, 3), 2, torch.float16, None),
        ((64, 500), 0, torch.int32, None),  # an outer dim: slices per step
    ],
)
def test_cumsum_matches_eager(
    threads: None,
    shape: tuple[int, ...],
    dim: int,
    dtype: torch.dtype,
    out_dtype: torch.dtype | None,
) -> None:
    g = torch.Generator().manual_seed(len(shape) * 31 + shape[-1])
    x = torch.randn(shape, generator=g, dtype=torch.float32) * 10
    x = x > 0 if dtype == torch.bool else x.to(dtype)
    model = Cumsum(dim, out_dtype)
    compiled = torch2mlir.compile(model, (x,), cache=False)
    for count in (2, 1):
        torch.set_num_threads(count)
        # PyTorch's CPU kernel also carries float sums one step wider and
        # rounds each output: the same values.
        torch.testing.assert_close(compiled(x), model(x), rtol=0, atol=0)


class OuterSum(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.sum(0)


@pytest.mark.skipif(
    refbackend.openmp_library() is None, reason="PyTorch loaded no OpenMP runtime"
)
def test_outer_dim_sum_runs_in_parallel(threads: None) -> None:
    # The columns (and the chunks of 64 rows, createChunkedColumnSums) run
    # on both threads; each column sums in the same order with one thread or
    # two. Against the exact (float64) sum, within eps * sum(|x|), the
    # bound of test_float32_sums_stay_within_a_few_ulps: eager's float32
    # cascade is itself up to 1.5e-5 off the exact sums here, so two
    # float32 sums in different orders may differ by more than
    # assert_close's float32 atol (1e-5).
    x = torch.randn(1024, 2048)
    compiled = torch2mlir.compile(OuterSum(), (x,), cache=False)
    torch.set_num_threads(2)
    before = refbackend.parallel_regions()
    two = compiled(x)
    assert refbackend.parallel_regions() > before, "no loop ran on two threads"
    exact, scale = x.double().sum(0), x.double().abs().sum(0)
    eps = torch.finfo(torch.float32).eps
    assert ((two.double() - exact).abs() <= eps * scale).all()
    torch.set_num_threads(1)
    torch.testing.assert_close(compiled(x), two, rtol=0, atol=0)


def test_fp32_peak_reports_the_widest_vectors() -> None:
    # The benchmarks' yardstick (Runtime/Peak.cpp): a positive rate, on the
    # widest vectors the CPU has. Nothing about how fast.
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "")
    except OSError:
        pass
    words = set(flags.split())
    expected = 16 if "avx512f" in words else 8 if {"avx2", "fma"} <= words else 1
    flops, lanes = refbackend.fp32_peak(seconds=0.01, trials=1)
    assert flops > 0
    assert lanes == expected


class Skinny(nn.Module):
    """A linear layer (B transposed, C initialized with the bias) and a
    product with a plain weight (B as is, C not read)."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(256, 688)
        self.weight = nn.Parameter(torch.randn(688, 300) / 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x) @ self.weight


@pytest.mark.skipif(
    refbackend.openmp_library() is None, reason="PyTorch loaded no OpenMP runtime"
)
@pytest.mark.parametrize("rows", [1, 3, 8, 9])
def test_skinny_gemms_split_their_columns(threads: None, rows: int) -> None:
    # Up to 8 rows (a decode step's token, a small batch), the runtime
    # splits B's columns across the team (each GEMM reads all of B for few
    # products); 300 columns leave a last task of another width. 9 rows
    # take the BLAS's own threads (MKL) or the other split; every count
    # matches eager.
    torch.manual_seed(rows)
    model, x = Skinny().eval(), torch.randn(rows, 256)
    compiled = torch2mlir.compile(model, (x,), cache=False)
    with torch.no_grad():
        want = model(x)
    torch.set_num_threads(2)
    before = refbackend.parallel_regions()
    two = compiled(x)
    if rows <= 8:
        assert refbackend.parallel_regions() > before, "no GEMM ran on two threads"
    torch.testing.assert_close(two, want, rtol=1e-5, atol=1e-5)
    torch.set_num_threads(1)
    before = refbackend.parallel_regions()
    one = compiled(x)
    assert refbackend.parallel_regions() == before, "a GEMM ran on two threads"
    torch.testing.assert_close(one, want, rtol=1e-5, atol=1e-5)
