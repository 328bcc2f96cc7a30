"""Vectorized math functions: with glibc's libmvec, loops that call exp,
log, sin, cos, pow, tanh and erf compile to its vector variants
(``_ZGV...``). Results must stay within PyTorch's default tolerances of
eager PyTorch, special values (NaN, infinities, signed zeros, overflow and
underflow ranges) and loop tails (sizes that are not a multiple of the
vector width) included."""

from __future__ import annotations

import math

import pytest
import torch
from harness import import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()
from torch2mlir.runtime import refbackend

pytestmark = pytest.mark.skipif(
    refbackend.vector_math_library() is None,
    reason="no glibc libmvec with the tanh/erf variants (x86-64 Linux, glibc >= 2.35)",
)

SPECIAL = [
    math.nan,
    math.inf,
    -math.inf,
    0.0,
    -0.0,
    1e-30,
    -1e-30,
    88.7,
    -103.9,
    709.0,
    -745.0,
    20.0,
    -20.0,
    4.0,
    -4.0,
]


class MathFns(nn.Module):
    def forward(self, x: torch.Tensor):
        return (
            torch.exp(x),
            torch.log(x),
            torch.sin(x),
            torch.cos(x),
            torch.pow(torch.abs(x), 0.37),
            torch.tanh(x),
            torch.erf(x),
        )


def _input(dtype: torch.dtype, size: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(size)
    x = torch.randn(size, generator=g, dtype=torch.float64) * 6
    x[: len(SPECIAL)] = torch.tensor(SPECIAL, dtype=torch.float64)
    return x.to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("size", [1003, 16])
def test_math_matches_eager(dtype: torch.dtype, size: int) -> None:
    x = _input(dtype, size)
    compiled = torch2mlir.compile(MathFns(), (x,), cache=False)
    names = ("exp", "log", "sin", "cos", "pow", "tanh", "erf")
    for name, got, want in zip(names, compiled(x), MathFns()(x)):
        torch.testing.assert_close(
            got, want, equal_nan=True, msg=lambda m, n=name: f"{n}: {m}"
        )


def test_loops_call_the_vector_variants() -> None:
    x = _input(torch.float32, 1003)
    compiled = torch2mlir.compile(MathFns(), (x,), cache=False)
    code = compiled._runner.object_code
    for function in ("expf", "logf", "sinf", "cosf", "tanhf", "erff"):
        assert f"v_{function}".encode() in code, f"no vector variant of {function}"


def _has_avx512f() -> bool:
    try:
        with open("/proc/cpuinfo") as f:
            return any(line.startswith("flags") and " avx512f" in line for line in f)
    except OSError:
        return False


@pytest.mark.skipif(not _has_avx512f(), reason="the CPU has no AVX-512")
def test_avx512_cpus_get_512_bit_variants() -> None:
    # LLVM's own libmvec table stops at AVX2 (8 x f32); with 512-bit vectors
    # the loops must call the AVX-512 variants (16 x f32, 8 x f64), not
    # split each vector into two AVX2 calls or scalar ones.
    for dtype, lanes in ((torch.float32, 16), (torch.float64, 8)):
        x = _input(dtype, 1003)
        compiled = torch2mlir.compile(MathFns(), (x,), cache=False)
        code = compiled._runner.object_code
        suffix = "f" if dtype == torch.float32 else ""
        for function in ("exp", "log", "sin", "tanh", "erf"):
            name = f"_ZGVeN{lanes}v_{function}{suffix}".encode()
            assert name in code, f"no AVX-512 variant of {function}{suffix}"
        assert f"_ZGVeN{lanes}vv_pow{suffix}".encode() in code
