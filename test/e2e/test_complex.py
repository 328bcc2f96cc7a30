"""Complex tensors (complex64, complex128) and PyTorch's FFT ops, compiled
and compared with eager PyTorch at ``torch.testing.assert_close``'s default
tolerances for the dtype.

Complex tensors lower to the builtin ``complex<f32>``/``complex<f64>`` with
the ``complex`` dialect (``TorchToLinalg/Complex.cpp``) and cross the
RefBackend ABI as they are; the FFT ops decompose into real matmuls
(``torch2mlir/fx/complex_numbers.py``): the sizes below cover the direct DFT (up to 64
points, and primes up to 256), the Cooley-Tukey splits above it, Bluestein's
algorithm for larger sizes without a split, and each ``norm`` mode.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
import torch
from harness import import_torch2mlir
from test_decompositions import Call

torch2mlir = import_torch2mlir()


def check(fn: Callable[..., Any], *inputs: torch.Tensor) -> None:
    """Compiles `fn`, runs it on `inputs` and on other values of the same
    shapes (the op is computed, not folded), and compares with eager."""
    module = Call(fn)
    compiled = torch2mlir.compile(module, inputs, cache=False)
    others = tuple(
        torch.randn_like(x) * 2 if x.is_floating_point() or x.is_complex() else x
        for x in inputs
    )
    for args in (inputs, others):
        torch.testing.assert_close(
            compiled(*args), module(*args), equal_nan=True, check_stride=False
        )


@pytest.fixture(autouse=True)
def _seed() -> None:
    torch.manual_seed(0)


def crandn(*shape: int, dtype: torch.dtype = torch.complex64) -> torch.Tensor:
    return torch.randn(*shape, dtype=dtype)


COMPLEX_DTYPES = [torch.complex64, torch.complex128]


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
@pytest.mark.parametrize(
    "op",
    [torch.add, torch.sub, torch.mul, torch.div],
    ids=["add", "sub", "mul", "div"],
)
def test_binary_broadcasts_and_promotes(
    op: Callable[..., Any], dtype: torch.dtype
) -> None:
    real = torch.float32 if dtype == torch.complex64 else torch.float64
    check(op, crandn(3, 4, dtype=dtype), crandn(4, dtype=dtype))
    # A real operand promotes to complex (imaginary part 0).
    check(op, crandn(3, 4, dtype=dtype), torch.randn(3, 1, dtype=real))
    check(lambda z: op(z, 2.5), crandn(5, dtype=dtype))


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
@pytest.mark.parametrize(
    "op",
    [
        torch.neg,
        torch.exp,
        torch.log,
        torch.sqrt,
        torch.rsqrt,
        torch.tanh,
        torch.sin,
        torch.cos,
        torch.tan,
        torch.expm1,
        torch.log1p,
        torch.sigmoid,
        torch.reciprocal,
        torch.abs,
        torch.angle,
        torch.sgn,
        torch.conj_physical,
        lambda z: z.conj() * 1,
        torch.real,
        torch.imag,
    ],
    ids=[
        "neg",
        "exp",
        "log",
        "sqrt",
        "rsqrt",
        "tanh",
        "sin",
        "cos",
        "tan",
        "expm1",
        "log1p",
        "sigmoid",
        "reciprocal",
        "abs",
        "angle",
        "sgn",
        "conj_physical",
        "conj",
        "real",
        "imag",
    ],
)
def test_unary(op: Callable[..., Any], dtype: torch.dtype) -> None:
    check(op, crandn(4, 5, dtype=dtype))


@pytest.mark.parametrize(
    "op",
    [
        torch.log2,
        torch.log10,
        torch.sinh,
        torch.cosh,
        torch.exp2,
        lambda z: z**2.5,
        lambda z: torch.pow(z, z),
        lambda z: 2.0**z,
        lambda z: torch.ldexp(z, torch.arange(5)),
        torch.asin,
        torch.acos,
        torch.atan,
        torch.asinh,
        torch.acosh,
        torch.atanh,
    ],
    ids=[
        "log2",
        "log10",
        "sinh",
        "cosh",
        "exp2",
        "pow_scalar",
        "pow_tensor",
        "rpow",
        "ldexp",
        "asin",
        "acos",
        "atan",
        "asinh",
        "acosh",
        "atanh",
    ],
)
def test_more_math(op: Callable[..., Any]) -> None:
    check(op, crandn(4, 5))


def test_nan_and_inf_tests() -> None:
    nan, inf = float("nan"), float("inf")
    z = torch.tensor(
        [complex(nan, 0), complex(0, nan), complex(inf, 1), complex(1, -inf), 1 + 1j],
        dtype=torch.complex64,
    )
    compiled = torch2mlir.compile(
        Call(lambda t: (t.isnan(), t.isinf())), (z,), cache=False
    )
    got_nan, got_inf = compiled(z)
    assert got_nan.tolist() == [True, True, False, False, False]
    assert got_inf.tolist() == [False, False, True, True, False]


def test_complex_python_scalars() -> None:
    check(lambda z: z * (2 + 1j), crandn(3, 4))
    check(lambda x: torch.ops.aten.mul.Scalar(x, 2 - 1j), torch.randn(3))
    check(lambda z: z + 1j, crandn(3))
    check(lambda z: torch.full((2, 3), 1 + 2j) + z.sum(), crandn(3))
    check(lambda z: torch.full_like(z, 1 - 2j), crandn(3))
    check(lambda t: torch.exp(1j * t), torch.randn(6))


def test_zero_d_and_logsumexp() -> None:
    z = torch.tensor(-8.4 - 1.7j, dtype=torch.complex64)
    check(lambda t: torch.logsumexp(t, (0,), True), z)
    check(torch.view_as_real, z)


def test_indexing_and_scatter() -> None:
    z = crandn(3, 4)
    check(lambda t: t[torch.tensor([0, 2])], z)
    check(lambda t: t.gather(1, torch.tensor([[0, 3], [1, 1], [2, 0]])), z)
    check(lambda t: t.scatter_add(0, torch.tensor([[0, 1, 0, 1]]), t[:1]), z)
    check(lambda t: t.index_put((torch.tensor([0, 0]),), t[1:3], accumulate=True), z)
    check(lambda t: t.diagonal(), z)
    check(lambda t: t.repeat(2, 1), z)


def test_sgn_of_zero_is_zero() -> None:
    z = torch.tensor([0j, 3 + 4j, -2j], dtype=torch.complex64)
    compiled = torch2mlir.compile(Call(torch.sgn), (z,), cache=False)
    torch.testing.assert_close(compiled(z), torch.sgn(z))


def test_views_parts_and_assembly() -> None:
    x = torch.randn(3, 4, 2)
    check(lambda t: torch.view_as_real(torch.view_as_complex(t) * 2), x)
    check(lambda a, b: torch.complex(a, b), torch.randn(3, 4), torch.randn(4))
    check(torch.polar, torch.rand(3, 4), torch.randn(3, 4))
    check(lambda z: torch.view_as_real(z).sum(-1), crandn(6))


def test_casts_and_comparisons() -> None:
    check(lambda z: z.to(torch.complex128), crandn(5))
    check(lambda z: z.to(torch.complex64), crandn(5, dtype=torch.complex128))
    check(lambda x: x.to(torch.complex64) * 1j, torch.randn(5))
    z = crandn(6)
    w = torch.where(torch.rand(6) > 0.5, z, crandn(6))
    check(lambda a, b: (a == b, a != b), z, w)
    # A real operand compares as its complex value (complex128 for float64).
    real = torch.tensor([1.0, 0.5, 2.0, -1.0, 0.0, 3.0], dtype=torch.float64)
    check(
        lambda a, b: (a == b, a != b),
        torch.complex(real, real * 0).to(torch.complex64),
        real,
    )
    check(lambda c, a, b: torch.where(c, a, b), torch.rand(6) > 0.5, z, crandn(6))


def test_reductions_matmul_and_data_movement() -> None:
    check(lambda z: (z.sum(), z.sum(0), z.mean(-1)), crandn(4, 5))
    check(lambda z: (z.var(), z.var(0, correction=0)), crandn(4, 5))
    check(lambda z: (z.prod(1), z.cumsum(0), z.cumprod(1)), crandn(4, 5))
    check(
        lambda z: (z.any(1), torch.nonzero(z)), crandn(3, 4) * (torch.rand(3, 4) > 0.5)
    )
    check(lambda z: (torch.linalg.det(z), torch.linalg.slogdet(z)), crandn(2, 3, 3))
    check(
        lambda c, a, b: torch.addmm(c, a, b, beta=0.5, alpha=2 - 1j),
        crandn(3, 5),
        crandn(3, 4),
        crandn(4, 5),
    )
    check(torch.nn.functional.linear, crandn(3, 4), crandn(5, 4), crandn(5))
    check(torch.mm, crandn(3, 4), crandn(4, 5))
    check(torch.bmm, crandn(2, 3, 4), crandn(2, 4, 5))
    check(torch.matmul, crandn(2, 3, 4), crandn(4))
    check(
        lambda a, b: (
            torch.cat([a, b]),
            a.T,
            a.reshape(-1),
            a[:, 1:3],
            a[1],
            a.flip(0),
            torch.nn.functional.pad(a, (1, 2)),
            a.expand(2, 3, 4),
            a.index_select(1, torch.tensor([2, 0])),
        ),
        crandn(3, 4),
        crandn(2, 4),
    )


#: Direct DFTs (1 to 64, and 97: prime), Cooley-Tukey splits (96 to 4096),
#: Bluestein's algorithm (257 and 1031: primes; 1018: twice a prime).
SIZES = [1, 2, 7, 16, 64, 96, 97, 257, 360, 1000, 1018, 1024, 1031, 4096]

#: The unit roundoff of float32.
_U32 = 2.0**-24


def check_fft(fn: Callable[..., Any], x: torch.Tensor) -> None:
    """Compares the compiled transform of `x` with the transform computed
    in double precision: the normwise relative error must stay within
    ``2 u log2(n)`` (u the float32 unit roundoff), the bound of a float32
    FFT (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
    section 24.1). Elementwise, two float32 FFTs of 1000 points (eager's
    and ours) differ from each other by more than ``assert_close``'s
    defaults: eager's own result is 1.8e-5 away from the exact one there,
    and ours as close to it (1.96e-5)."""
    compiled = torch2mlir.compile(Call(fn), (x,), cache=False)
    got = compiled(x)
    exact = fn(x.to(torch.complex128 if x.is_complex() else torch.float64))
    assert got.dtype == fn(x).dtype and got.shape == exact.shape
    error = torch.linalg.vector_norm((got.to(exact.dtype) - exact).flatten())
    scale = torch.linalg.vector_norm(exact.flatten())
    n = max(x.shape[-1], 2)
    bound = 2 * _U32 * math.log2(n)
    assert error <= bound * scale, (float(error / scale), bound)


@pytest.mark.parametrize("n", SIZES)
def test_fft_sizes(n: int) -> None:
    check_fft(torch.fft.fft, crandn(3, n))
    check_fft(torch.fft.rfft, torch.randn(3, n))
    check_fft(lambda z: torch.fft.irfft(z, n), crandn(3, n // 2 + 1))
    check_fft(torch.fft.ifft, crandn(3, n))


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_fft_norms(norm: str) -> None:
    check(lambda z: torch.fft.fft(z, norm=norm), crandn(2, 12))
    check(lambda z: torch.fft.ifft(z, norm=norm), crandn(2, 12))
    check(lambda x: torch.fft.rfft(x, norm=norm), torch.randn(2, 12))
    check(lambda z: torch.fft.irfft(z, 12, norm=norm), crandn(2, 7))
    check(lambda x: torch.fft.rfftn(x, norm=norm), torch.randn(2, 6, 10))
    check(lambda z: torch.fft.irfftn(z, s=(6, 10), norm=norm), crandn(2, 6, 6))


def test_fft_dims_padding_and_float64() -> None:
    check(lambda z: torch.fft.fft(z, dim=0), crandn(5, 3))
    check(lambda z: torch.fft.fft(z, n=8), crandn(3, 5))  # zero-padded
    check(lambda z: torch.fft.fft(z, n=3), crandn(3, 5))  # trimmed
    check(torch.fft.fft2, crandn(2, 8, 6))
    check(lambda z: torch.fft.fftn(z, dim=(0, 2)), crandn(4, 3, 6))
    check(torch.fft.rfft2, torch.randn(2, 8, 6))
    check(torch.fft.hfft, crandn(3, 9))
    check(torch.fft.ihfft, torch.randn(3, 10))
    check(torch.fft.fft, crandn(2, 360, dtype=torch.complex128))
    check(torch.fft.rfft, torch.randn(2, 1000, dtype=torch.float64))
    check(lambda x: torch.fft.fftshift(torch.fft.fft(x)), crandn(2, 10))


def test_stft_and_istft() -> None:
    window = torch.hann_window(16)
    check(
        lambda x: torch.stft(x, 16, hop_length=4, window=window, return_complex=True),
        torch.randn(2, 100),
    )
    spec = torch.stft(
        torch.randn(2, 100), 16, hop_length=4, window=window, return_complex=True
    )
    check(lambda s: torch.istft(s, 16, hop_length=4, window=window, length=100), spec)


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_with_reduce(dtype: torch.dtype, reduce: str) -> None:
    # scatter(reduce=...) with a tensor or a scalar: repeated positions
    # combine in PyTorch's order (complex products do not associate exactly
    # in floating point).
    z = crandn(3, 5).to(dtype)
    index = torch.tensor([[0, 1, 0, 2], [4, 4, 4, 1], [3, 2, 1, 0]])
    check(lambda t, s: t.scatter(1, index, s, reduce=reduce), z, crandn(3, 4).to(dtype))
    check(lambda t: t.scatter(1, index, 1.5, reduce=reduce), z)
    check(lambda t: t.scatter(1, index, 2.0), z)


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce(dtype: torch.dtype, reduce: str, include_self: bool) -> None:
    rows = torch.tensor([[0, 1, 0, 1, 2], [2, 2, 0, 1, 0]])
    check(
        lambda t, s: t.scatter_reduce(0, rows, s, reduce, include_self=include_self),
        crandn(3, 5).to(dtype),
        crandn(2, 5).to(dtype),
    )


def test_unsupported_complex_op_names_itself() -> None:
    # amax of complex numbers is undefined; eager refuses it too.
    index = torch.tensor([[0, 1, 0, 1]])
    with pytest.raises(
        torch2mlir.CompileError,
        match="aten.scatter_reduce.two' could not be lowered .* complex numbers "
        "have no order",
    ):
        torch2mlir.compile(
            Call(lambda z: z.scatter_reduce(0, index, z[:1], "amax")),
            (crandn(3, 4),),
            cache=False,
        )


@pytest.mark.parametrize("fn", [torch.tan, torch.tanh], ids=["tan", "tanh"])
def test_tan_and_tanh_near_a_pole(fn) -> None:
    # tan near -pi/2 (tanh near i pi/2): complex64 computes in complex128
    # and rounds once, within an ulp of the exact value (MLIR's float32
    # expansion lost 30 ulps at -1.545 - 0.120i).
    z = torch.tensor(
        [-1.5449834 - 0.12048293j, 1.5707 + 0.001j, -1.56 + 2.0j, 0.3 - 0.2j],
        dtype=torch.complex64,
    )
    if fn is torch.tanh:
        z = z * 1j
    compiled = torch2mlir.compile(Call(fn), (z,), cache=False)
    exact = fn(z.to(torch.complex128))
    got = compiled(z).to(torch.complex128)
    eps = torch.finfo(torch.float32).eps
    assert ((got - exact).abs() <= 2 * eps * exact.abs()).all()
