"""Neural-network ops (TorchToLinalg/Pooling.cpp, Resampling.cpp,
EmbeddingBag.cpp, DataMovement.cpp's padding, Linear.cpp's convolution
and col2im, and the normalization and distance decompositions).

Padding (reflection, replication), pooling (max with indices, average,
adaptive average), convolutions (1-3 D, transposed, grouped, dilated),
group and training-mode batch norm, upsampling, grid sampling, embedding
bags and distances, each compiled and compared with eager PyTorch. The
modules call the ATen ops themselves (``torch.ops.aten.X``) so that the
program reaches torch2mlir's lowering of that op rather than PyTorch's
decomposition of it; a few go through the ``nn.functional`` API as users
write it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from harness import Call, cpu_info, import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()
aten = torch.ops.aten


def check(
    fn: Callable[..., Any],
    *inputs: torch.Tensor,
    rtol: float | None = None,
    atol: float | None = None,
    dynamic_shapes: Any = None,
    run_with: tuple[torch.Tensor, ...] | None = None,
) -> None:
    """Compiles `fn`, runs it on `inputs` (or `run_with`) and compares with
    eager (same dtypes and shapes, NaN where eager has NaN)."""
    module = Call(fn).eval()
    compiled = torch2mlir.compile(
        module, inputs, dynamic_shapes=dynamic_shapes, cache=False
    )
    args = run_with if run_with is not None else inputs
    expected = module(*args)
    actual = compiled(*args)
    torch.testing.assert_close(
        actual, expected, rtol=rtol, atol=atol, equal_nan=True, check_stride=False
    )


def randn(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.randn(*shape, dtype=torch.float32).to(dtype)


def randint(*shape: int, dtype: torch.dtype = torch.int64) -> torch.Tensor:
    low = 0 if dtype == torch.uint8 else -50
    return torch.randint(low, 50, shape, dtype=dtype)


@pytest.fixture(autouse=True)
def _seed() -> None:
    torch.manual_seed(0)


# ---------------------------------------------------------------------------
# Padding
# ---------------------------------------------------------------------------

PADS = [
    (aten.reflection_pad1d, (3, 5), [2, 1]),
    (aten.reflection_pad1d, (2, 3, 5), [0, 4]),
    (aten.reflection_pad2d, (2, 4, 5), [1, 2, 3, 0]),
    (aten.reflection_pad2d, (1, 2, 4, 5), [3, 3, 2, 1]),
    (aten.reflection_pad3d, (1, 2, 3, 4, 5), [1, 2, 2, 1, 0, 2]),
    (aten.replication_pad1d, (2, 3, 4), [3, 1]),
    (aten.replication_pad2d, (1, 2, 3, 4), [4, 0, 1, 5]),
    (aten.replication_pad2d, (2, 3, 4), [-1, 2, 1, -2]),
    (aten.replication_pad3d, (2, 2, 3, 4), [1, 1, 2, 0, 0, 3]),
]


@pytest.mark.parametrize(("op", "shape", "padding"), PADS)
def test_padding_float(op: Any, shape: tuple[int, ...], padding: list[int]) -> None:
    check(lambda x: op(x, padding), randn(*shape))


@pytest.mark.parametrize("dtype", [torch.int64, torch.int8, torch.uint8, torch.float16])
def test_padding_dtypes(dtype: torch.dtype) -> None:
    x = (
        randint(2, 3, 4, dtype=dtype)
        if not dtype.is_floating_point
        else randn(2, 3, 4, dtype=dtype)
    )
    check(lambda a: aten.reflection_pad2d(a, [2, 1, 1, 2]), x)
    check(lambda a: aten.replication_pad1d(a, [2, 3]), x)


def test_padding_non_contiguous() -> None:
    x = randn(2, 5, 4).transpose(1, 2)
    check(lambda a: aten.reflection_pad1d(a, [3, 2]), x)


def test_padding_dynamic_batch() -> None:
    batch = torch.export.Dim("batch", min=1, max=8)
    check(
        lambda a: aten.replication_pad2d(a, [1, 2, 2, 1]),
        randn(3, 2, 4, 5),
        dynamic_shapes=(({0: batch},),),
        run_with=(randn(5, 2, 4, 5),),
    )


def test_pad_functional() -> None:
    check(lambda a: F.pad(a, (1, 2, 2, 1), mode="reflect"), randn(1, 2, 4, 5))
    check(
        lambda a: F.pad(a, (1, 2, 2, 1, 1, 1), mode="replicate"), randn(1, 2, 3, 4, 5)
    )


@pytest.mark.parametrize(
    ("shape", "pad"),
    [((0, 3, 3), [1, 2]), ((2, 0, 3), [1, 1, 2, 0]), ((0, 2), [0, 0, 1, 1])],
    ids=["empty_batch", "pad_the_empty_dim", "empty_result_rows_filled"],
)
def test_constant_pad_of_an_empty_tensor(shape, pad) -> None:
    """constant_pad_nd of a tensor without elements: every result element
    is the pad value (the OpInfo sample [0, 3, 3] padded (1, 2) failed to
    compile)."""
    check(lambda a: aten.constant_pad_nd(a, pad, 1.5), randn(*shape))


# ---------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kernel", "stride", "padding", "dilation", "ceil"),
    [
        ([2, 2], [], [0, 0], [1, 1], False),
        ([3, 2], [2, 1], [1, 1], [1, 1], False),
        ([3, 3], [2, 2], [1, 0], [2, 1], True),
        ([2, 3], [3, 2], [1, 1], [1, 2], True),
    ],
)
def test_max_pool2d_with_indices(kernel, stride, padding, dilation, ceil) -> None:
    check(
        lambda x: aten.max_pool2d_with_indices(
            x, kernel, stride, padding, dilation, ceil
        ),
        randn(2, 3, 7, 8),
    )


def test_max_pool_indices_nan_and_ties() -> None:
    x = torch.tensor([[[[float("nan"), 1.0, float("nan"), 2.0], [2.0, 2.0, 1.0, 1.0]]]])
    check(lambda a: aten.max_pool2d_with_indices(a, [1, 4], [1, 1]), x)
    check(lambda a: aten.max_pool2d_with_indices(a, [2, 2], [1, 1], [1, 1]), x)
    inf = torch.full((1, 1, 1, 3), float("-inf"))
    check(lambda a: aten.max_pool2d_with_indices(a, [1, 2], [1, 1], [0, 1]), inf)


@pytest.mark.parametrize(
    "dtype", [torch.int64, torch.int8, torch.uint8, torch.bfloat16]
)
def test_max_pool_dtypes(dtype: torch.dtype) -> None:
    x = (
        randn(2, 5, 6, dtype=dtype)
        if dtype.is_floating_point
        else randint(2, 5, 6, dtype=dtype)
    )
    check(lambda a: aten.max_pool2d_with_indices(a, [2, 3], [2, 2], [1, 1]), x)
    check(lambda a: F.max_pool2d(a, 2), x)


def test_max_pool3d_with_indices() -> None:
    check(
        lambda x: aten.max_pool3d_with_indices(
            x, [2, 3, 2], [1, 2, 2], [1, 1, 0], [1, 1, 2], True
        ),
        randn(2, 2, 5, 6, 7),
    )
    check(lambda x: F.max_pool3d(x, 2, return_indices=True), randn(2, 4, 6, 4))


def test_max_pool1d() -> None:
    check(lambda x: F.max_pool1d(x, 3, 2, 1, return_indices=True), randn(2, 3, 9))


@pytest.mark.parametrize(
    ("kernel", "stride", "padding", "ceil", "include_pad", "divisor"),
    [
        ([2, 2], [], [0, 0], False, True, None),
        ([3, 3], [2, 2], [1, 1], True, True, None),
        ([3, 2], [2, 1], [1, 1], True, False, None),
        ([2, 3], [1, 2], [1, 0], False, True, 5),
    ],
)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64])
def test_avg_pool2d(kernel, stride, padding, ceil, include_pad, divisor, dtype) -> None:
    x = (
        randn(2, 3, 6, 7, dtype=dtype)
        if dtype.is_floating_point
        else randint(2, 3, 6, 7)
    )
    check(
        lambda a: aten.avg_pool2d(
            a, kernel, stride, padding, ceil, include_pad, divisor
        ),
        x,
        atol=1e-3 if dtype == torch.float16 else None,
        rtol=1e-3 if dtype == torch.float16 else None,
    )


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64])
def test_avg_pool1d_3d(dtype: torch.dtype) -> None:
    x1 = randn(2, 3, 9, dtype=dtype) if dtype.is_floating_point else randint(2, 3, 9)
    check(lambda a: aten.avg_pool1d(a, [3], [2], [1], True, False), x1)
    check(lambda a: aten.avg_pool1d(a, [2]), x1[0])
    x3 = (
        randn(2, 2, 5, 6, 4, dtype=dtype)
        if dtype.is_floating_point
        else randint(2, 2, 5, 6, 4)
    )
    check(
        lambda a: aten.avg_pool3d(a, [2, 3, 2], [2, 2, 1], [1, 1, 0], True, True, None),
        x3,
    )
    check(
        lambda a: aten.avg_pool3d(a, [2, 2, 2], [1, 2, 2], [0, 1, 1], False, False, 3),
        x3,
    )


@pytest.mark.parametrize(
    ("op", "shape", "out"),
    [
        (aten._adaptive_avg_pool2d, (2, 3, 7, 5), [3, 2]),
        (aten._adaptive_avg_pool2d, (3, 5, 9), [4, 9]),
        (aten._adaptive_avg_pool3d, (1, 2, 5, 7, 4), [2, 3, 3]),
        (aten.adaptive_avg_pool1d, (2, 3, 10), [4]),
    ],
)
def test_adaptive_avg_pool(op: Any, shape: tuple[int, ...], out: list[int]) -> None:
    check(lambda x: op(x, out), randn(*shape))


def test_adaptive_avg_pool_half() -> None:
    check(
        lambda x: aten._adaptive_avg_pool2d(x, [3, 4]),
        randn(1, 2, 7, 9, dtype=torch.bfloat16),
    )


# ---------------------------------------------------------------------------
# Convolution
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "stride", "padding", "dilation", "groups"),
    [
        ((2, 4, 11), (6, 2, 3), [2], [1], [2], 2),
        ((1, 3, 10), (5, 3, 4), [1], [0], [1], 1),
        ((2, 4, 5, 6, 7), (4, 2, 2, 3, 2), [1, 2, 1], [1, 0, 1], [1, 1, 2], 2),
        ((1, 2, 4, 4, 4), (3, 2, 3, 3, 3), [2, 2, 2], [1, 1, 1], [1, 1, 1], 1),
    ],
)
def test_convolution_1d_3d(x_shape, w_shape, stride, padding, dilation, groups) -> None:
    x, w, b = randn(*x_shape), randn(*w_shape), randn(w_shape[0])
    check(
        lambda a, c, d: aten.convolution(
            a, c, d, stride, padding, dilation, False, [0], groups
        ),
        x,
        w,
        b,
        rtol=1e-5,
        atol=1e-5,
    )


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "stride", "padding", "dilation", "out_pad", "groups"),
    [
        ((2, 4, 5), (4, 3, 3), [2], [1], [1], [1], 1),
        ((1, 4, 5, 6), (4, 2, 3, 2), [2, 3], [1, 0], [1, 2], [1, 2], 2),
        ((1, 2, 4, 5), (2, 3, 2, 2), [1, 1], [2, 1], [1, 1], [0, 0], 1),
        (
            (1, 2, 3, 3, 4),
            (2, 2, 2, 3, 2),
            [2, 1, 2],
            [0, 1, 1],
            [1, 1, 1],
            [1, 0, 0],
            1,
        ),
        # Kernel 1, stride 3: two of three phases have no tap (bias only).
        ((1, 3, 5), (3, 2, 1), [3], [0], [1], [0], 1),
        # Padding beyond the kernel's reach, output padding on both dims.
        ((1, 3, 4, 4), (3, 2, 2, 3), [3, 2], [2, 2], [1, 1], [2, 1], 1),
        # Stride 1: one phase, the flipped kernel.
        ((2, 3, 6), (3, 4, 4), [1], [1], [1], [0], 1),
        # Grouped 3-D and dilated: the general form.
        (
            (2, 4, 3, 3, 3),
            (4, 1, 2, 2, 2),
            [2, 2, 2],
            [0, 1, 0],
            [1, 1, 1],
            [0, 0, 1],
            2,
        ),
        ((1, 2, 5), (2, 2, 3), [2], [1], [2], [1], 1),
    ],
)
def test_convolution_transposed(
    x_shape, w_shape, stride, padding, dilation, out_pad, groups
) -> None:
    x, w, b = randn(*x_shape), randn(*w_shape), randn(w_shape[1] * groups)
    check(
        lambda a, c, d: aten.convolution(
            a, c, d, stride, padding, dilation, True, out_pad, groups
        ),
        x,
        w,
        b,
        rtol=1e-5,
        atol=1e-5,
    )


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize(
    "stride, padding, dilation",
    [([2, 2], [0, 0], [1, 1]), ([1, 1], [1, 1], [1, 1]), ([3, 2], [1, 0], [2, 1])],
)
def test_convolution_transposed_inf_weight(dtype, stride, padding, dilation) -> None:
    # PyTorch multiplies only the input's own elements by the weight (a GEMM
    # into columns, then col2im): an inf weight makes inf or NaN only where
    # its tap lands. A convolution over a zero-spread or zero-padded input
    # multiplied inserted zeros by it: NaN where eager has finite values.
    # The reference is eager in float64 (its slow kernel, which forms only
    # those products), rounded to the dtype: eager's own float16 kernel on a
    # CPU with native float16 (oneDNN, AVX512-FP16) spreads zeros and gives
    # NaN at outputs whose float64 value is finite.
    x, w = randn(1, 2, 4, 4, dtype=dtype), randn(2, 3, 3, 3, dtype=dtype)
    w[0, 1, 0, 0] = float("inf")
    w[1, 2, 2, 1] = float("-inf")
    module = Call(
        lambda a, c: F.conv_transpose2d(
            a, c, stride=stride, padding=padding, dilation=dilation
        )
    )
    expected = module(x.double(), w.double()).to(dtype)
    assert expected.isinf().any() and expected.isfinite().any()
    torch.testing.assert_close(
        torch2mlir.compile(module, (x, w), cache=False)(x, w),
        expected,
        rtol=1e-3 if dtype == torch.float16 else None,
        atol=1e-3 if dtype == torch.float16 else None,
        equal_nan=True,
    )


@pytest.mark.parametrize("mode, dims", [("linear", 1), ("trilinear", 3)])
@pytest.mark.parametrize("align_corners", [True, False])
def test_linear_upsampling_weights_infinite_neighbours(mode, dims, align_corners):
    # An output on a source sample takes that sample with weight 1 and its
    # neighbour with weight 0: PyTorch's kernel sums x0 * 1 + x1 * 0 (inf
    # where x0 is inf), its Python decomposition x0 + (x1 - x0) * 0 (NaN).
    x = randn(2, 3, *[4] * dims)
    x.view(-1)[::5] = float("inf")
    x.view(-1)[3::7] = float("-inf")
    size = [7] * dims if align_corners else [8] * dims
    check(
        lambda a: F.interpolate(a, size=size, mode=mode, align_corners=align_corners),
        x,
    )
    check(
        lambda a: F.interpolate(
            a, scale_factor=1.5, mode=mode, align_corners=align_corners
        ),
        x.half(),
        rtol=1e-3,
        atol=1e-3,
    )


def _mkl_on_amd() -> bool:
    """Whether the kernels' GEMM is MKL's on an AMD CPU."""
    from torch2mlir.runtime import refbackend

    blas = refbackend.blas_library()
    amd = "AuthenticAMD" in cpu_info()
    return amd and blas is not None and blas.name.startswith("libmkl")


@pytest.mark.parametrize("channels", [4, 40])  # direct loops; im2col + GEMM
@pytest.mark.parametrize("groups", [1, 2])
def test_convolution_accumulates_with_fused_multiply_adds(channels, groups) -> None:
    # Per group, channel 0's product is -1.2e77 (-inf in float32) and channel
    # 1's +1.1e39: the exact sum is -1.2e77, -inf once rounded. A product
    # rounded alone overflows to +inf and the sum becomes -inf + inf = NaN.
    # Each multiply-add is fused (one rounding), as the BLAS does. (Eager's
    # own kernels differ here by path: oneDNN's direct convolution gives
    # -inf, its 1x1 path NaN; so the check is against the exact value.)
    x = torch.zeros(1, channels, 3, 3)
    w = torch.zeros(2, channels // groups, 1, 1)
    for g in range(groups):
        first = g * (channels // groups)
        x[0, first : first + 2] = 3.4e38
        w[g, 0], w[g, 1] = -3.4e38, 3.11
    module = Call(lambda a, b: F.conv2d(a, b, groups=groups))
    got = torch2mlir.compile(module, (x, w), cache=False)(x, w)
    if channels // groups > 32 and _mkl_on_amd() and got.isnan().any():
        pytest.xfail(
            "MKL's sgemm on an AMD CPU (its Zen kernel) adds the products in "
            "more than one partial sum: -inf + inf = NaN, as eager's 1x1 path"
        )
    for g in range(groups):
        assert torch.equal(got[0, g], torch.full((3, 3), float("-inf")))
    x64 = F.conv2d(x.double(), w.double(), groups=groups)
    assert torch.equal(got, x64.float())


@pytest.mark.parametrize(
    "module",
    [
        nn.Conv1d(4, 6, 3, stride=2, padding=1),
        nn.Conv3d(3, 4, (2, 3, 3), stride=(1, 2, 1), padding=1, dilation=(2, 1, 1)),
        nn.ConvTranspose1d(4, 3, 4, stride=2, padding=1),
        nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1, groups=1),
        nn.ConvTranspose3d(2, 3, 3, stride=2, padding=1),
    ],
    ids=lambda m: type(m).__name__,
)
def test_convolution_float64(module: nn.Module) -> None:
    """The f64 GEMM kernels (the named-convolution forms of 1-D, 3-D and
    transposed convolutions) against eager, to f64 precision."""
    module = module.double().eval()
    rank = {nn.Conv1d: 3, nn.ConvTranspose1d: 3, nn.ConvTranspose2d: 4}.get(
        type(module), 5
    )
    x = randn(2, module.in_channels, *[6] * (rank - 2), dtype=torch.float64)
    compiled = torch2mlir.compile(module, (x,), cache=False)
    torch.testing.assert_close(compiled(x), module(x), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("module", "shape"),
    [
        # x stride 2 through im2col. ResNet's stem: rows of 112 outputs read
        # every other input.
        (nn.Conv2d(3, 64, 7, stride=2, padding=3), (1, 3, 64, 64)),
        # Output rows of 16, 17 and 5 (the vector step, its remainder).
        (nn.Conv2d(4, 8, 3, stride=2, padding=1), (2, 4, 9, 32)),
        (nn.Conv2d(4, 8, 3, stride=2), (1, 4, 5, 35)),
        (nn.Conv2d(4, 8, (1, 3), stride=(1, 2)), (1, 4, 3, 11)),
        (nn.Conv1d(16, 8, 5, stride=2, padding=2), (2, 16, 100)),
        # Direct tiles (convDirectTiledAvx512, on AVX-512 machines; a GEMM
        # of im2col elsewhere): at most 16 output channels per group over
        # rows at least 16 wide, where the wide tiles do not apply (a y
        # stride, planes of fewer than 512 outputs).
        # Rows of 56: a full tile of 32 columns and a masked one of 24.
        (nn.Conv2d(64, 64, 3, stride=(2, 1), padding=1, groups=4), (1, 64, 56, 56)),
        # 12 and 5 channels per group: a tile of 8 and one of 4 or 5.
        (nn.Conv2d(24, 24, 3, padding=1, groups=2), (2, 24, 9, 33)),
        (nn.Conv2d(16, 10, (2, 3), groups=2, bias=False), (1, 16, 5, 20)),
        # A row of exactly 16 (the masks' edge), dilation, a row stride (x
        # stride 1). Windows of more than 32 taps (fewer take another path).
        (nn.Conv2d(8, 16, 3, padding=2, dilation=2), (1, 8, 6, 16)),
        (nn.Conv2d(8, 8, 3, stride=(2, 1), padding=1, dilation=(1, 3)), (2, 8, 7, 34)),
        (nn.Conv3d(16, 16, 3), (1, 16, 6, 8, 20)),
        (nn.Conv1d(8, 16, 5, padding=2), (3, 8, 40)),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, nn.Module) else str(v),
)
def test_convolution_runtime_paths(module: nn.Module, shape: tuple[int, ...]) -> None:
    """Convolutions through the runtime's vector paths match eager: im2col
    rows of x stride 2 (every other input element, a vector permute on
    AVX-512) and the direct tiles."""
    module = module.eval()
    x = randn(*shape)
    compiled = torch2mlir.compile(module, (x,), cache=False)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), module(x), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    ("module", "shape", "dtype"),
    [
        (nn.ConvTranspose2d(8, 4, 2, stride=2), (2, 8, 5, 7), torch.float32),
        (nn.ConvTranspose1d(6, 4, 3, stride=3, groups=2), (3, 6, 11), torch.float32),
        (
            nn.ConvTranspose3d(4, 6, 2, stride=2, bias=False),
            (1, 4, 3, 5, 4),
            torch.float32,
        ),
        (nn.ConvTranspose2d(4, 4, (1, 2), stride=(1, 2)), (2, 4, 3, 3), torch.float32),
        (nn.ConvTranspose2d(6, 4, 2, stride=2, groups=2), (2, 6, 4, 4), torch.float16),
        (nn.ConvTranspose2d(4, 2, 2, stride=2), (1, 4, 3, 3), torch.float64),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, nn.Module) else str(v),
)
def test_conv_transpose_kernel_equals_stride(
    module: nn.Module, shape: tuple[int, ...], dtype: torch.dtype
) -> None:
    """A transposed convolution whose kernel equals its stride (no padding,
    no output padding): its taps tile the output and col2im is one
    transpose of the GEMM's columns, the bias added (grouped, batched, 1-,
    2- and 3-D, f16 and f64 included)."""
    module = module.to(dtype).eval()
    x = randn(*shape, dtype=dtype)
    compiled = torch2mlir.compile(module, (x,), cache=False)
    with torch.no_grad():
        expected = module(x) if dtype != torch.float16 else module.float()(x.float())
    tolerance = {torch.float16: 2e-3, torch.float64: 1e-12}.get(dtype, 1e-5)
    torch.testing.assert_close(
        compiled(x).to(expected.dtype), expected, rtol=tolerance, atol=tolerance
    )


def test_conv_functional_forms() -> None:
    x, w = randn(2, 4, 9), randn(4, 2, 3)
    check(
        lambda a, c: F.conv_transpose1d(
            a, c, stride=2, padding=1, output_padding=1, groups=2
        ),
        x,
        w,
        rtol=1e-5,
        atol=1e-5,
    )
    check(
        lambda a, c: F.conv1d(a, c, padding="same"),
        x,
        randn(3, 4, 3),
        rtol=1e-5,
        atol=1e-5,
    )


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.int64])
def test_convolution_dtypes(dtype: torch.dtype) -> None:
    def make(*shape: int) -> torch.Tensor:
        return (
            randn(*shape, dtype=dtype)
            if dtype.is_floating_point
            else randint(*shape) // 10
        )

    x, w = make(1, 4, 6, 6), make(2, 4, 3, 3)
    tol = {"rtol": 1e-2, "atol": 1e-2} if dtype.is_floating_point else {}
    check(
        lambda a, c: aten.convolution(
            a, c, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1
        ),
        x,
        w,
        **tol,
    )
    check(
        lambda a, c: aten.convolution(
            a, c, None, [2, 2], [0, 0], [1, 1], True, [1, 0], 1
        ),
        x,
        w.transpose(0, 1),
        **tol,
    )


# ---------------------------------------------------------------------------
# Normalization
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "groups", "affine"),
    [
        ((2, 6, 5), 3, True),
        ((3, 4, 2, 3), 2, False),
        ((2, 4), 2, True),
        ((1, 6, 2, 2, 2), 1, True),
        # Rows of 2 * 63 (statistics row by row, vector loops and remainder).
        ((3, 8, 7, 9), 4, True),
        # No batch: no rows (the statistics' passes, not the row form).
        ((0, 4, 3), 2, True),
    ],
)
def test_native_group_norm(shape: tuple[int, ...], groups: int, affine: bool) -> None:
    x = randn(*shape) * 3 + 1
    c = shape[1]
    hxw = math.prod(shape[2:])
    if affine:
        w, b = randn(c), randn(c)
        check(
            lambda a, ww, bb: aten.native_group_norm(
                a, ww, bb, shape[0], c, hxw, groups, 1e-5
            ),
            x,
            w,
            b,
        )
    else:
        check(
            lambda a: aten.native_group_norm(
                a, None, None, shape[0], c, hxw, groups, 1e-3
            ),
            x,
        )


@pytest.mark.parametrize(
    ("shape", "groups", "affine", "dtype"),
    [
        ((2, 6, 5), 3, True, torch.float32),
        ((3, 4, 2, 3), 2, False, torch.float32),
        ((2, 4), 2, True, torch.float32),
        ((1, 6, 2, 2, 2), 1, True, torch.float32),
        ((2, 8, 3, 3), 8, True, torch.float32),
        # Groups of 8 channels of 7 * 9: the vector loops and their remainder.
        ((3, 16, 7, 9), 2, True, torch.float32),
        ((2, 64, 14, 14), 8, True, torch.float32),
        ((2, 6, 4, 4), 3, True, torch.float16),
        ((2, 6, 4, 4), 2, False, torch.bfloat16),
    ],
)
def test_group_norm_group_by_group(
    shape: tuple[int, ...], groups: int, affine: bool, dtype: torch.dtype
) -> None:
    """F.group_norm (the normalized result alone) stays whole at the
    linalg-on-tensors contract (isRowGroupNorm), is lowered one task per
    group, and matches eager; the statistics' and the affine's rounding
    are PyTorch's (y = x * scale + shift)."""
    from torch2mlir.compiler.backends import BACKENDS
    from torch2mlir.compiler.pipelines import lower_to_backend_contract

    x = (randn(*shape) * 3 + 1).to(dtype)
    c = shape[1]
    w, b = randn(c).to(dtype), randn(c).to(dtype)
    args = (x, w, b) if affine else (x,)

    def fn(a: torch.Tensor, *wb: torch.Tensor) -> torch.Tensor:
        return F.group_norm(a, groups, *wb, eps=1e-5)

    module = torch2mlir.export_and_import(Call(fn).eval(), *args, output_type="raw")
    backend = BACKENDS["linalg-on-tensors"]
    lower_to_backend_contract(module, backend.legal_ops, backend.float64)
    assert "torch.aten.native_group_norm" in str(module)
    tolerance = {torch.float16: 1e-3, torch.bfloat16: 1.6e-2}.get(dtype)
    check(fn, *args, rtol=tolerance, atol=tolerance)


def test_group_norm_bf16() -> None:
    x = randn(2, 4, 3, 3, dtype=torch.bfloat16)
    check(lambda a: F.group_norm(a, 2), x, rtol=1.6e-2, atol=1e-2)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_functional(training: bool) -> None:
    x, w, b = randn(4, 3, 5) * 2 + 1, randn(3), randn(3)
    rm, rv = randn(3), torch.rand(3) + 0.5
    check(
        lambda a, ww, bb, m, v: aten._native_batch_norm_legit_functional(
            a, ww, bb, m, v, training, 0.1, 1e-5
        ),
        x,
        w,
        b,
        rm,
        rv,
    )


def test_batch_norm_half_computes_in_float32() -> None:
    # Inference batch norm of float16 computes in float32 and rounds once,
    # as PyTorch's CPU kernel: within an ulp of the exact value (four
    # roundings in float16 were several ulps off).
    x, w, b = randn(8, 6, 50, dtype=torch.float16) * 4, randn(6), randn(6)
    rm, rv = randn(6) * 3, torch.rand(6) * 4 + 0.5
    stats = [t.half() for t in (w, b, rm, rv)]

    def fn(a, ww, bb, m, v):
        return F.batch_norm(a, m, v, ww, bb, training=False, eps=1e-5)

    compiled = torch2mlir.compile(Call(fn), (x, *stats), cache=False)
    exact = fn(x.double(), *(t.double() for t in stats))
    eps = torch.finfo(torch.float16).eps
    torch.testing.assert_close(
        compiled(x, *stats).double(), exact, rtol=eps, atol=eps * 2**-6
    )


def test_batch_norm_no_stats() -> None:
    x = randn(2, 4, 3, 3)
    check(
        lambda a: aten._native_batch_norm_legit.no_stats(
            a, None, None, True, 0.1, 1e-5
        ),
        x,
    )


def test_batch_norm_training_module() -> None:
    # F.batch_norm(training=True) on a module's inputs: the export has
    # _native_batch_norm_legit_functional.
    x, rm, rv = randn(3, 2, 4, 4), torch.zeros(2), torch.ones(2)
    check(
        lambda a, m, v: F.batch_norm(a, m.clone(), v.clone(), training=True), x, rm, rv
    )


# ---------------------------------------------------------------------------
# Resampling
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "scales"),
    [
        ([8, 10], None),
        ([5, 7], None),
        ([3, 2], None),
        (None, [2.0, 3.0]),
        (None, [1.7, 0.6]),
    ],
)
@pytest.mark.parametrize("dtype", [torch.float32, torch.uint8])
def test_upsample_nearest2d(size, scales, dtype) -> None:
    x = (
        randn(2, 3, 4, 5)
        if dtype.is_floating_point
        else randint(2, 3, 4, 5, dtype=dtype)
    )
    check(lambda a: aten.upsample_nearest2d.vec(a, size, scales), x)


@pytest.mark.parametrize("align_corners", [True, False])
@pytest.mark.parametrize(
    ("size", "scales"),
    [
        ([8, 10], None),
        ([3, 7], None),
        ([1, 1], None),
        (None, [1.5, 0.7]),
        ([4, 5], None),
    ],
)
def test_upsample_bilinear2d(align_corners, size, scales) -> None:
    check(
        lambda a: aten.upsample_bilinear2d.vec(a, size, align_corners, scales),
        randn(2, 3, 4, 5),
    )


def test_interpolate_bilinear_f64() -> None:
    x = randn(1, 2, 3, 4, dtype=torch.float64)
    check(lambda a: F.interpolate(a, scale_factor=2.5, mode="bilinear"), x)


@pytest.mark.parametrize("mode", [0, 1])
@pytest.mark.parametrize("padding", [0, 1, 2])
@pytest.mark.parametrize("align_corners", [True, False])
def test_grid_sampler_2d(mode: int, padding: int, align_corners: bool) -> None:
    x, grid = randn(2, 3, 5, 6), randn(2, 4, 7, 2) * 1.4
    check(
        lambda a, g: aten.grid_sampler_2d(a, g, mode, padding, align_corners), x, grid
    )


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize("padding", [1, 2])
@pytest.mark.parametrize("mode", [0, 1])
def test_grid_sampler_2d_nan_coordinates(dtype, padding: int, mode: int) -> None:
    # PyTorch's kernel clips (border, reflection) a NaN or -inf coordinate
    # to pixel 0 and +inf to the last: x86's max returns its second operand
    # on NaN. A NaN-propagating clip gave NaN outputs.
    x = torch.arange(1.0, 101.0).view(1, 1, 5, 20).to(dtype)
    nan, inf = float("nan"), float("inf")
    grid = torch.tensor(
        [[0.0, nan], [nan, 0.0], [nan, nan], [0.0, inf], [-inf, 0.3], [0.2, -0.7]]
    )
    check(
        lambda a, g: aten.grid_sampler_2d(a, g, mode, padding, False),
        x,
        grid.view(1, 1, -1, 2).to(dtype),
    )


# ---------------------------------------------------------------------------
# Embedding bags and distances
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("include_last_offset", [False, True])
def test_embedding_bag(mode: str, include_last_offset: bool) -> None:
    weight = randn(10, 4)
    indices = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0])
    offsets = (
        torch.tensor([0, 3, 3, 7])
        if not include_last_offset
        else torch.tensor([0, 3, 3, 7, 9])
    )
    check(
        lambda w, i, o: F.embedding_bag(
            i, w, o, mode=mode, include_last_offset=include_last_offset
        ),
        weight,
        indices,
        offsets,
    )
    check(
        lambda w, i, o: F.embedding_bag(
            i, w, o, mode=mode, include_last_offset=include_last_offset, padding_idx=4
        ),
        weight,
        indices,
        offsets,
    )


def test_embedding_bag_per_sample_weights() -> None:
    weight, indices = randn(10, 3), torch.tensor([[1, 2, 4], [4, 3, 9]])
    psw = randn(2, 3)
    check(
        lambda w, i, p: F.embedding_bag(i, w, per_sample_weights=p, mode="sum"),
        weight,
        indices,
        psw,
    )


@pytest.mark.parametrize(
    ("max_norm", "norm_type"), [(1.0, 2.0), (0.5, 1.0), (2.0, 3.0)]
)
def test_embedding_max_norm_renormalizes_the_weight_in_place(
    max_norm: float, norm_type: float
) -> None:
    # F.embedding(max_norm=...) scales the looked-up rows of the weight whose
    # norm exceeds max_norm, in place (aten.embedding_renorm_ on the
    # parameter), then looks them up: after each call the compiled module's
    # weight must equal eager's, and rows no index selects must be untouched.
    eager = nn.Embedding(10, 4, max_norm=max_norm, norm_type=norm_type)
    with torch.no_grad():
        eager.weight.mul_(3)
    ours = nn.Embedding(10, 4, max_norm=max_norm, norm_type=norm_type)
    ours.load_state_dict(eager.state_dict())
    indices = torch.tensor([[1, 2, 2], [5, 9, 1]])
    compiled = torch2mlir.compile(ours, (indices,), cache=False)
    before = eager.weight.detach().clone()
    for ids in (indices, torch.tensor([[0, 2, 7], [7, 7, 3]])):
        torch.testing.assert_close(compiled(ids), eager(ids))
        torch.testing.assert_close(ours.weight, eager.weight)
    untouched = [4, 6, 8]
    assert torch.equal(ours.weight[untouched], before[untouched])
    assert not torch.equal(ours.weight, before)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_max_norm(mode: str) -> None:
    eager = nn.EmbeddingBag(10, 4, max_norm=1.0, mode=mode)
    with torch.no_grad():
        eager.weight.mul_(3)
    ours = nn.EmbeddingBag(10, 4, max_norm=1.0, mode=mode)
    ours.load_state_dict(eager.state_dict())
    indices = torch.tensor([[1, 2, 2], [5, 9, 1]])
    compiled = torch2mlir.compile(ours, (indices,), cache=False)
    torch.testing.assert_close(compiled(indices), eager(indices))
    torch.testing.assert_close(ours.weight, eager.weight)


def test_embedding_max_norm_of_a_weight_passed_as_input() -> None:
    # The renorm updates a user input in place, as eager does.
    def fn(w: torch.Tensor, i: torch.Tensor) -> torch.Tensor:
        return F.embedding(i, w, max_norm=0.5)

    weight, indices = randn(10, 4), torch.tensor([3, 3, 7, 0])
    ours = weight.clone()
    compiled = torch2mlir.compile(Call(fn), (weight.clone(), indices), cache=False)
    torch.testing.assert_close(compiled(ours, indices), fn(weight, indices))
    torch.testing.assert_close(ours, weight)


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, float("inf")])
def test_cdist(p: float) -> None:
    x1, x2 = randn(2, 5, 3), randn(2, 4, 3)
    x2[0, 1] = x1[0, 2]  # a zero distance
    check(lambda a, b: aten._cdist_forward(a, b, p, None), x1, x2)
    check(lambda a, b: torch.cdist(a, b, p=p), x1[0], x2[0])


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 0.5, float("inf")])
def test_pdist(p: float) -> None:
    x = randn(6, 4, dtype=torch.float64)
    check(lambda a: F.pdist(a, p), x)


# ---------------------------------------------------------------------------
# Unsupported cases: a clear error, never a wrong result
# ---------------------------------------------------------------------------


@pytest.mark.xfail(
    strict=True,
    raises=torch2mlir.Torch2MlirError,
    reason="grid_sampler_2d bicubic mode (2) is not lowered",
)
def test_grid_sampler_bicubic() -> None:
    x, grid = randn(1, 1, 4, 4), randn(1, 2, 2, 2)
    check(lambda a, g: aten.grid_sampler_2d(a, g, 2, 0, False), x, grid)


@pytest.mark.xfail(
    strict=True,
    raises=torch2mlir.Torch2MlirError,
    reason="uint8 bilinear upsampling uses PyTorch's fixed-point weights; not lowered",
)
def test_upsample_bilinear_uint8() -> None:
    x = randint(1, 1, 4, 4, dtype=torch.uint8)
    check(lambda a: aten.upsample_bilinear2d.vec(a, [7, 7], False, None), x)


@pytest.mark.parametrize(
    ("size", "kernel", "dilation", "padding", "stride"),
    [
        ((4, 5), (2, 2), 1, 0, 1),
        ((7, 6), (3, 2), (1, 2), (1, 0), (2, 1)),
        ((5, 5), 3, 1, 1, 2),
    ],
)
@pytest.mark.parametrize("batched", [True, False])
def test_col2im(size, kernel, dilation, padding, stride, batched: bool) -> None:
    image = randn(2, 3, *size)
    cols = F.unfold(image, kernel, dilation, padding, stride)
    x = cols if batched else cols[0]
    check(lambda a: F.fold(a, size, kernel, dilation, padding, stride), x)


def test_col2im_dtypes() -> None:
    cols = F.unfold(randn(1, 2, 4, 4), 2, 1, 0, 1)
    for dtype in (torch.float64, torch.bfloat16):
        check(
            lambda a: aten.col2im(a, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1]),
            cols.to(dtype),
        )


@pytest.mark.parametrize(
    "conv",
    [
        {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "padding": 1},
        {
            "in_channels": 3,
            "out_channels": 5,
            "kernel_size": (3, 2),
            "stride": 2,
            "dilation": (1, 2),
            "padding": (1, 0),
            "bias": False,
        },
    ],
    ids=["same", "strided_dilated"],
)
def test_conv2d_with_dynamic_batch_and_spatial_sizes(conv: dict) -> None:
    """One compile runs any batch, height and width in the declared ranges
    (the output sizes are computed at run time)."""
    from torch.export import Dim

    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(**conv), nn.ReLU()).eval()
    dims = {
        0: Dim("b", min=1, max=8),
        2: Dim("h", min=6, max=64),
        3: Dim("w", min=6, max=64),
    }
    compiled = torch2mlir.compile(
        model, (torch.randn(2, 3, 16, 16),), dynamic_shapes=(dims,), cache=False
    )
    for shape in [(1, 3, 8, 9), (3, 3, 20, 17), (8, 3, 64, 6)]:
        x = torch.randn(*shape)
        with torch.no_grad():
            expected = model(x)
        torch.testing.assert_close(compiled(x), expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("fn", [F.softmax, F.log_softmax], ids=["softmax", "log"])
def test_half_softmax_computes_in_float32(fn, dtype: torch.dtype) -> None:
    # Computed in float32 and rounded once, the result is within an ulp of
    # the exact value; a sum of the exps in the 16-bit type was off by
    # several ulps on long rows. (Eager's float16 log_softmax is itself
    # several ulps off at some elements here, so the exact value is the
    # reference, not eager.)
    x = randn(4, 3, 700, dtype=dtype) * 4
    eps = torch.finfo(dtype).eps
    for dim in (-1, 1):
        module = Call(lambda t, dim=dim: fn(t, dim=dim))
        compiled = torch2mlir.compile(module, (x,), cache=False)
        torch.testing.assert_close(
            compiled(x).double(),
            fn(x.double(), dim=dim),
            rtol=eps,
            atol=eps * 2**-6,
        )


@pytest.mark.parametrize("fn", [F.softmax, F.log_softmax], ids=["softmax", "log"])
@pytest.mark.parametrize("dim", [-1, 2])
def test_masked_softmax_far_below_the_max(fn, dim: int) -> None:
    # x - max far below -87.3 (masks: -inf, the float32 lowest, -1e4; the
    # bounds of the vector exp's fast path): softmax's probabilities are
    # exactly 0 there, as eager's; log_softmax keeps the exact differences.
    mask = torch.triu(torch.ones(33, 33, dtype=torch.bool), 1)
    x = randn(2, 3, 33, 33) * 3
    for fill in (float("-inf"), torch.finfo(torch.float32).min, -1e4, -87.3, -90.0):
        masked = x.masked_fill(mask, fill)
        module = Call(lambda t: fn(t, dim=dim))
        compiled = torch2mlir.compile(module, (masked,), cache=False)
        got, want = compiled(masked), fn(masked, dim=dim)
        torch.testing.assert_close(got, want, msg=lambda m, f=fill: f"{f}: {m}")
        if fn is F.softmax and fill < -100:
            assert (got[..., mask] == 0).all()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
@pytest.mark.parametrize("shape", [(4, 33, 77), (3, 768), (2, 5, 3)])
def test_layer_norm_over_the_last_dim(dtype, affine: bool, shape) -> None:
    # nn.LayerNorm(n): its statistics are unused, so each row is normalized
    # in one place (three loops over the row); f16/bf16 compute in f32.
    torch.manual_seed(0)
    norm = nn.LayerNorm(shape[-1], elementwise_affine=affine).to(dtype).eval()
    if affine:
        with torch.no_grad():
            norm.weight.normal_()
            norm.bias.normal_()
    x = (randn(*shape) * 3 + 1).to(dtype)
    compiled = torch2mlir.compile(norm, (x,), cache=False)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), norm(x))


def test_layer_norm_statistics_stay_available() -> None:
    # The statistics used too (native_layer_norm's mean and rstd): the
    # whole-tensor path, same values.
    x = randn(6, 40)
    module = Call(lambda t: torch.native_layer_norm(t, [40], None, None, 1e-5))
    compiled = torch2mlir.compile(module, (x,), cache=False)
    for got, want in zip(compiled(x), module(x)):
        torch.testing.assert_close(got, want)


@pytest.mark.parametrize("shape", [(0, 1), (0, 3, 4)])
def test_layer_norm_of_no_rows(shape: tuple[int, ...]) -> None:
    # All three results of no rows: canonicalization folds the statistics
    # to the empty init of the normalized result, and the three results must
    # still be three buffers (buffer-results-to-out-params crashed, a
    # segfault at compile time, when two shared one).
    x = randn(*shape)
    w, b = randn(shape[-1]), randn(shape[-1])
    module = Call(
        lambda t, ww, bb: torch.native_layer_norm(t, [shape[-1]], ww, bb, 1e-5)
    )
    compiled = torch2mlir.compile(module, (x, w, b), cache=False)
    for got, want in zip(compiled(x, w, b), module(x, w, b)):
        torch.testing.assert_close(got, want)


@pytest.mark.parametrize(
    ("shape", "dims"),
    [
        ((3, 100_003), (-1,)),
        ((4, 5, 37, 41), (2, 3)),
        ((6, 7), (1,)),
        ((2, 512), (1,)),
        ((20_000, 33), (0,)),
        ((3, 1000, 16), (1,)),
        ((5, 64, 7, 9), (1, 2)),
        ((10_007, 5), (0,)),
    ],
)
def test_float32_sums_stay_within_a_few_ulps(shape, dims) -> None:
    # Sums over the trailing dims run row by row: float32 partial sums within
    # chunks of 512, the chunks' total in float64. Against the exact
    # (float64) sum, the error stays within eps * sum(|x|) (measured: at
    # most 0.12 of it; eager's 0.24). A plain float32 running sum of the
    # 100,003 elements is off by 3 to 5 times that. Sums over dims before
    # the last add chunks of up to 64 rows in float32, columns innermost,
    # the chunk sums in float64 (10,007, a prime, has no chunk size: one
    # float64 sum).
    x = randn(*shape) * 10 + 3  # a mean far from 0: a running sum drifts
    module = Call(lambda t: (t.sum(dims), t.mean(dims)))
    compiled = torch2mlir.compile(module, (x,), cache=False)
    got_sum, got_mean = compiled(x)
    exact = x.double().sum(dims)
    scale = x.double().abs().sum(dims)
    eps = torch.finfo(torch.float32).eps
    assert ((got_sum.double() - exact).abs() <= eps * scale).all()
    count = math.prod(shape[d] for d in dims)
    assert ((got_mean.double() - exact / count).abs() <= 8 * eps * scale / count).all()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_global_average_pooling(dtype) -> None:
    # AdaptiveAvgPool2d(1) and avg_pool2d over the whole input (with a
    # divisor_override): row sums of each channel, divided once.
    x = (randn(3, 17, 7, 9) * 4 + 2).to(dtype)
    for module in (
        nn.AdaptiveAvgPool2d(1),
        nn.AvgPool2d((7, 9)),
        nn.AvgPool2d((7, 9), divisor_override=5),
        nn.AdaptiveAvgPool1d(1),
    ):
        inputs = (x.flatten(2),) if isinstance(module, nn.AdaptiveAvgPool1d) else (x,)
        compiled = torch2mlir.compile(module, inputs, cache=False)
        torch.testing.assert_close(compiled(*inputs), module(*inputs))


@pytest.mark.parametrize("width", [5, 8, 13, 18, 56, 64, 70, 130, 150])
@pytest.mark.parametrize(
    "conv",
    [
        {
            "in_channels": 8,
            "out_channels": 8,
            "kernel_size": 3,
            "padding": 1,
            "groups": 8,
        },
        {
            "in_channels": 6,
            "out_channels": 6,
            "kernel_size": (5, 3),
            "dilation": (1, 2),
            "groups": 6,
        },
        {
            "in_channels": 4,
            "out_channels": 6,
            "kernel_size": 3,
            "stride": (2, 1),
            "groups": 2,
        },
    ],
    ids=["depthwise", "dilated", "grouped_strided_rows"],
)
def test_direct_convolutions(conv: dict, width: int) -> None:
    # Convolutions of at most 32 taps per output (depthwise, small groups)
    # run output-stationary: a block of a row's outputs in registers while
    # every tap adds in. With AVX-512, blocks of 128, then one block of the
    # rest with its last vector masked (rows of 16 fill it exactly; 148 is
    # a full block and 20 more); with AVX2, blocks of 64, the remaining
    # vectors, then single outputs.
    torch.manual_seed(0)
    module = nn.Conv2d(**conv).eval()
    x = randn(2, conv["in_channels"], 9, width)
    compiled = torch2mlir.compile(module, (x,), cache=False)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), module(x), rtol=1e-5, atol=1e-5)


def _assert_matches_on(threads: int, compiled: Any, module: nn.Module, x: Any) -> None:
    """compiled(x) matches module(x) (rtol = atol = 1e-5) on `threads`
    threads."""
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with torch.no_grad():
            torch.testing.assert_close(compiled(x), module(x), rtol=1e-5, atol=1e-5)
    finally:
        torch.set_num_threads(old)


def _assert_conv_matches(module: nn.Module, shape, columns, threads: int) -> None:
    """The compiled `module` (eval mode) matches eager on a random input of
    `shape` (only its first `columns` columns seen by the convolution when
    not None: rows longer than the window's) on `threads` threads."""
    module = module.eval()
    if columns is not None:
        inner = module
        module = Call(lambda a: inner(a[..., :columns]))
    x = randn(*shape)
    compiled = torch2mlir.compile(module, (x,), cache=False)
    _assert_matches_on(threads, compiled, module, x)


@pytest.mark.parametrize(
    ("module", "shape"),
    [
        (nn.Conv2d(16, 24, 3, stride=(1, 2), padding=1), (2, 16, 70, 140)),
        (nn.Conv2d(8, 16, 5, stride=2, dilation=2, padding=3), (1, 8, 150, 150)),
        (nn.Conv2d(32, 32, 3, padding=1, groups=2), (1, 32, 64, 64)),
        (nn.Conv1d(32, 32, 9, padding=4), (1, 32, 5000)),
        (nn.Conv3d(4, 8, 3, padding=1), (1, 4, 20, 40, 40)),
        (nn.Conv2d(8, 8, 3).double(), (1, 8, 60, 60)),
    ],
    ids=["padded", "strided_dilated", "grouped", "1d", "3d", "float64"],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_convolutions_in_im2col_blocks(module: nn.Module, shape, threads: int) -> None:
    # An im2col larger than 512 KiB is built and multiplied a block of
    # output columns at a time (the last block partial), the blocks split
    # across the threads: each case here has several blocks.
    dtype = next(module.parameters()).dtype
    x = randn(*shape, dtype=dtype)
    module = module.eval()
    compiled = torch2mlir.compile(module, (x,), cache=False)
    _assert_matches_on(threads, compiled, module, x)


@pytest.mark.parametrize(
    ("module", "shape", "columns"),
    [
        # Runs of rows per task (rows of 72 wide positions: 56 rows a run,
        # so two runs), three blocks of 8 output channels, one of 16 input
        # channels, a bias (the output accumulates).
        (nn.Conv2d(16, 24, 3, padding=1), (2, 16, 70, 70), None),
        # 20 input channels (a block of 16, one of 4), 12 output channels (a
        # tile of 8, one of 4 whose zero-padded channels are dropped),
        # dilation, no bias (the output is not read).
        (
            nn.Conv2d(20, 12, 3, dilation=2, padding=2, bias=False),
            (1, 20, 40, 45),
            None,
        ),
        # Groups; rows of 54 outputs in rows of 56 inputs.
        (nn.Conv2d(64, 64, 3, groups=4), (1, 64, 56, 56), None),
        # A kernel one column wide: no dropped columns; 3 runs of rows.
        (nn.Conv2d(8, 8, (3, 1)), (1, 8, 400, 24), None),
        # Planes of a 3-D convolution, the taps' offsets across planes.
        (nn.Conv3d(4, 8, 3, padding=1), (1, 4, 12, 40, 40), None),
        # Input rows longer than the output's window (a narrowed input: the
        # row pitch is 50, the convolution sees 45 columns).
        (nn.Conv2d(16, 16, 3), (1, 16, 40, 50), 45),
        # Planes of one output row: computed in place in the output (whole
        # tiles of channels; the bias read first), or in runs of 4096
        # columns through the scratch (12 channels).
        (nn.Conv2d(8, 16, 3), (2, 8, 3, 700), None),
        (nn.Conv2d(8, 12, 3, bias=False), (1, 8, 3, 5000), None),
        # Rows of 20 outputs: narrower than the implicit GEMM's rows, so
        # the AVX2 wide tiles run them on CPUs without AVX-512 too.
        (nn.Conv2d(8, 8, 3), (1, 8, 300, 22), None),
    ],
    ids=[
        "runs",
        "blocks",
        "groups",
        "one_column",
        "3d",
        "narrowed",
        "one_row_in_place",
        "one_row_runs",
        "narrow_rows",
    ],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_wide_direct_convolutions(module: nn.Module, shape, columns, threads) -> None:
    # Float32 convolutions of stride 1 with a kernel more than one row
    # high, over planes of at least 512 outputs, run as wide direct tiles
    # on AVX-512 machines (convDirectWide; a GEMM of im2col elsewhere):
    # each plane computed as if its rows were as long as the input's, 48
    # positions at a time across row ends, the extra columns dropped. On
    # AVX2 machines, the implicit GEMM takes the rows of 24 outputs and
    # more (test_implicit_gemm_convolutions), the AVX2 wide tiles the
    # narrower ones ("narrow_rows"). test_cpu_capability runs them with
    # the AVX2 kernels on AVX-512 machines.
    _assert_conv_matches(module, shape, columns, threads)


@pytest.mark.parametrize(
    ("module", "shape", "columns"),
    [
        # 24 output channels (a block of 16, one of 8 whose zero-padded
        # channels are dropped), rows of 30 (5 tiles of 6), a bias (the
        # output accumulates), two batch elements (in a parallel region).
        (nn.Conv2d(16, 24, 3, padding=1), (2, 16, 30, 30), None),
        # 12 output channels, dilation, rows of 41 (6 tiles and one of 5),
        # no bias (the output is not read).
        (nn.Conv2d(20, 12, 3, dilation=2, bias=False), (1, 20, 40, 45), None),
        # Groups of 16 channels.
        (nn.Conv2d(64, 64, 3, groups=4), (1, 64, 20, 56), None),
        # The taps' offsets across planes.
        (nn.Conv3d(4, 8, 3, padding=1), (1, 4, 10, 30, 30), None),
        # The longest reduction it takes (128 x 9 = 1152) on the narrowest
        # rows (24), and the next ones that go to im2col + GEMM (129 x 9;
        # rows of 23).
        (nn.Conv2d(128, 16, 3), (1, 128, 8, 26), None),
        (nn.Conv2d(129, 16, 3), (1, 129, 8, 26), None),
        (nn.Conv2d(16, 16, 3), (1, 16, 8, 25), None),
        # Input rows longer than the window's (a row pitch of 50, the
        # convolution sees 45 columns).
        (nn.Conv2d(16, 16, 3), (1, 16, 40, 50), 45),
    ],
    ids=[
        "bias_batch",
        "dilated_no_bias",
        "groups",
        "3d",
        "longest",
        "too_long",
        "too_narrow",
        "narrowed",
    ],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_implicit_gemm_convolutions(module: nn.Module, shape, columns, threads) -> None:
    # On CPUs with AVX2 but not AVX-512, float32 convolutions of stride 1
    # whose rows have 24 outputs or more and whose reduction (channels x
    # window) is at most 1152 run as an implicit GEMM (convImplicitAvx2):
    # tiles of 16 output channels x 6 positions of a row in registers, the
    # input broadcast where each tap reads it, the row's last tile
    # narrower. test_cpu_capability runs them with the AVX2 kernels on
    # AVX-512 machines.
    _assert_conv_matches(module, shape, columns, threads)


# ---------------------------------------------------------------------------
# Reductions and normalizations over sizes known only at run time
# ---------------------------------------------------------------------------


def _dims(*names: str) -> dict[int, Any]:
    """Dynamic dims of a [N, C, H, W] input: ``n``, ``h``, ``w``."""
    from torch.export import Dim

    at = {"n": 0, "h": 2, "w": 3}
    return {at[name]: Dim(name, min=2, max=64) for name in names}


#: Run shapes for a [2, 4, 8, 8] example input, each dim in its range: a
#: size of 2 along every dynamic dim, then larger and odd ones.
_RUN_SHAPES = [(2, 4, 2, 2), (3, 4, 13, 8), (5, 4, 9, 17)]


def _run_shape(shape: tuple[int, ...], dynamic: dict[int, Any]) -> tuple[int, ...]:
    return tuple(s if i in dynamic else (2, 4, 8, 8)[i] for i, s in enumerate(shape))


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.mean(-1),
        lambda x: x.mean((0, 2), keepdim=True),
        lambda x: x.mean(),
        lambda x: x.var(-1),
        lambda x: x.var((0, 2, 3), correction=0),
        lambda x: x.std((1, 2)),
        lambda x: torch.var_mean(x, -1, keepdim=True),
        lambda x: F.adaptive_avg_pool2d(x, 1),
        lambda x: F.rms_norm(x, x.shape[-2:]),
        lambda x: F.layer_norm(x, x.shape[-2:]),
    ],
    ids=[
        "mean_last",
        "mean_0_2",
        "mean_all",
        "var_last",
        "var_biased",
        "std",
        "var_mean",
        "global_avg_pool",
        "rms_norm",
        "layer_norm_unweighted",
    ],
)
@pytest.mark.parametrize("names", [("w",), ("n", "h", "w")], ids=["w", "nhw"])
def test_reductions_over_sizes_known_at_run_time(fn, names: tuple[str, ...]) -> None:
    """mean/var/std and the norms built on them divide by the number of
    elements reduced, computed from the sizes at run time when the program's
    sizes are symbolic (one compile, any size in the range)."""
    dynamic = _dims(*names)
    module = Call(fn).eval()
    compiled = torch2mlir.compile(
        module, (randn(2, 4, 8, 8),), dynamic_shapes=((dynamic,),), cache=False
    )
    for shape in _RUN_SHAPES:
        x = randn(*_run_shape(shape, dynamic))
        torch.testing.assert_close(
            compiled(x), module(x), equal_nan=True, check_stride=False
        )


@pytest.mark.parametrize(
    "make",
    [
        lambda: nn.BatchNorm2d(4).train(),
        lambda: nn.InstanceNorm2d(4),
        lambda: nn.InstanceNorm2d(4, affine=True),
        lambda: nn.GroupNorm(2, 4),
    ],
    ids=["batch_norm_training", "instance_norm", "instance_norm_affine", "group_norm"],
)
@pytest.mark.parametrize(
    "names", [("n",), ("h", "w"), ("n", "h", "w")], ids=["n", "hw", "nhw"]
)
def test_normalizations_with_sizes_known_at_run_time(
    make, names: tuple[str, ...]
) -> None:
    """Batch, instance and group norm over an unknown batch and/or spatial
    size: one compile, numerics of eager at every size (the running stats
    too, for training batch norm)."""
    import copy

    dynamic = _dims(*names)
    torch.manual_seed(0)
    model = make()
    for p in model.parameters():
        nn.init.normal_(p)
    compiled = torch2mlir.compile(
        copy.deepcopy(model),
        (randn(2, 4, 8, 8),),
        dynamic_shapes=(dynamic,),
        cache=False,
    )
    for shape in _RUN_SHAPES:
        x = randn(*_run_shape(shape, dynamic)) * 3 + 1
        eager = copy.deepcopy(model)
        with torch.no_grad():
            expected = eager(x)
        torch.testing.assert_close(compiled(x), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_training_batch_norm_with_unknown_sizes_rounds_as_the_kernel_does(
    dtype: torch.dtype,
) -> None:
    """The count N*H*W known only at run time still converts to the
    statistics' dtype before dividing (c10's ``BFloat16 / int64_t``): the
    bfloat16 results are eager's bit for bit, as with known sizes. 2046 =
    2 * 33 * 31 is not a bfloat16 number."""
    fn = lambda x: F.batch_norm(x, None, None, training=True)
    check(
        fn,
        randn(2, 3, 8, 8, dtype=dtype),
        dynamic_shapes=((_dims("n", "h", "w"),),),
        run_with=(randn(2, 3, 33, 31, dtype=dtype) * 2 + 5,),
        rtol=0 if dtype == torch.bfloat16 else None,
        atol=0 if dtype == torch.bfloat16 else None,
    )


def test_repeat_by_a_size_known_at_run_time() -> None:
    """repeat's counts may be symbolic sizes of the program (instance norm's
    decomposition repeats its weight N times)."""
    from torch.export import Dim

    n = Dim("n", min=1, max=64)
    check(
        lambda x, w: (w.repeat(x.shape[0]), w.repeat(2, x.shape[0])),
        randn(3, 5),
        randn(4),
        dynamic_shapes=(({0: n}, None),),
        run_with=(randn(7, 5), randn(4)),
    )


@pytest.mark.parametrize(
    ("pool", "forms"),
    [
        ({"kernel_size": 3, "stride": 2, "padding": 1}, ((1, 0), (1, 0))),  # stem
        ({"kernel_size": 2}, ((1, 0), (1, 0))),
        (
            {"kernel_size": 2, "stride": 2, "dilation": 2, "padding": 1},
            ((1, 0), (1, 0)),
        ),
        # torch.export takes ceil_mode's sizes only where one branch of its
        # output size holds for all of them: even sizes here (the ceiling
        # adds a window, which the padding after the input completes)...
        ({"kernel_size": 3, "stride": 2, "ceil_mode": True}, ((2, 0), (2, 0))),
        # ... and 3k + 1 (the ceiling's last window would start in the
        # padding after the input: dropped).
        (
            {"kernel_size": (3, 2), "stride": (2, 3), "padding": 1, "ceil_mode": True},
            ((2, 0), (3, 1)),
        ),
    ],
    ids=["stem", "k2", "dilated", "ceil", "ceil_dropped"],
)
def test_max_pool2d_with_sizes_known_at_run_time(pool: dict, forms) -> None:
    """Each output size is PyTorch's pooling_output_shape of the run-time
    input size (with ceil_mode, a last window that starts in the padding
    after the input is dropped), and the input is padded after by what the
    last window needs. `forms`: per spatial dim, (scale, offset) of its
    sizes, a plain Dim for (1, 0)."""
    from torch.export import Dim

    model = nn.MaxPool2d(**pool)
    h, w = (
        Dim(name, min=9, max=64)
        if scale == 1
        else scale * Dim(name, min=5, max=21) + offset
        for name, (scale, offset) in zip("hw", forms)
    )
    compiled = torch2mlir.compile(
        model,
        (randn(2, 3, *(scale * 12 + offset for scale, offset in forms)),),
        dynamic_shapes=({0: Dim("n", min=1, max=8), 2: h, 3: w},),
        cache=False,
    )
    for k in (5, 7, 12, 21):
        size = [scale * k + offset + (scale == 1) * 4 for scale, offset in forms]
        x = randn(k % 3 + 1, 3, *size)
        torch.testing.assert_close(compiled(x), model(x), rtol=0, atol=0)


def _pooling_dims(forms, low: int = 9):
    """Per pooled dim, a Dim of its size: plain for (1, 0), else `scale *
    Dim + offset` (sizes that keep one branch of ceil_mode's output size)."""
    from torch.export import Dim

    return [
        Dim(name, min=low, max=64)
        if scale == 1
        else scale * Dim(name, min=max(low // scale, 2), max=21) + offset
        for name, (scale, offset) in zip("dhw", forms)
    ]


def _pooled_sizes(forms, k: int) -> list[int]:
    """A run-time size per pooled dim of `forms` (see _pooling_dims)."""
    return [scale * k + offset + (scale == 1) * 4 for scale, offset in forms]


@pytest.mark.parametrize(
    ("make", "forms"),
    [
        (lambda: nn.AvgPool2d(3, stride=2, padding=1), ((1, 0), (1, 0))),
        (
            lambda: nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False),
            ((1, 0), (1, 0)),
        ),
        (lambda: nn.AvgPool2d((2, 3), divisor_override=5), ((1, 0), (1, 0))),
        # ceil_mode: sizes 2k (an added window, clipped to the input plus
        # padding) and 3k + 1 (the last window dropped).
        (
            lambda: nn.AvgPool2d(3, stride=2, ceil_mode=True, count_include_pad=False),
            ((2, 0), (2, 0)),
        ),
        (
            lambda: nn.AvgPool2d((3, 2), stride=(2, 3), padding=1, ceil_mode=True),
            ((2, 0), (3, 1)),
        ),
        (lambda: nn.AvgPool1d(4, stride=3, padding=2), ((1, 0),)),
        (lambda: nn.AvgPool3d(2, stride=(1, 2, 2), padding=1), ((1, 0),) * 3),
        (
            lambda: nn.MaxPool2d(3, stride=2, padding=1, return_indices=True),
            ((1, 0),) * 2,
        ),
        (lambda: nn.MaxPool1d(3, stride=2, return_indices=True), ((1, 0),)),
        (
            lambda: nn.MaxPool3d(
                (2, 3, 2), stride=2, ceil_mode=True, return_indices=True
            ),
            ((2, 0),) * 3,
        ),
    ],
    ids=[
        "avg2d",
        "avg2d_exclude_pad",
        "avg2d_divisor",
        "avg2d_ceil",
        "avg2d_ceil_dropped",
        "avg1d",
        "avg3d",
        "max2d_indices",
        "max1d_indices",
        "max3d_indices_ceil",
    ],
)
def test_pooling_with_sizes_known_at_run_time(make, forms) -> None:
    """Average pooling and max pooling with indices over dynamic batch and
    pooled sizes: the output sizes, the padding after the input and each
    window's divisor come from the run-time sizes, as PyTorch's CPU kernels
    compute them (bit for bit: the same sums in the same order)."""
    from torch.export import Dim

    model = make()
    d = len(forms)
    dims = _pooling_dims(forms, low=9 if d < 3 else 5)
    spatial = {2 + i: dim for i, dim in enumerate(dims)}
    compiled = torch2mlir.compile(
        model,
        (randn(2, 3, *_pooled_sizes(forms, 12 if d < 3 else 6)),),
        dynamic_shapes=({0: Dim("n", min=1, max=8), **spatial},),
        cache=False,
    )
    for k in (5, 7, 12, 21) if d < 3 else (3, 5, 6):
        x = randn(k % 3 + 1, 3, *_pooled_sizes(forms, k))
        torch.testing.assert_close(compiled(x), model(x), rtol=0, atol=0)


@pytest.mark.parametrize(
    ("make", "shape"),
    [
        (lambda: nn.AdaptiveAvgPool2d((7, 7)), (2, 3, 20, 20)),
        (lambda: nn.AdaptiveAvgPool2d((3, 5)), (2, 3, 20, 20)),
        (lambda: nn.AdaptiveAvgPool2d(1), (2, 3, 20, 20)),
        (lambda: nn.AdaptiveAvgPool1d(6), (2, 3, 20)),
        (lambda: nn.AdaptiveAvgPool3d((2, 3, 4)), (2, 3, 8, 8, 8)),
    ],
    ids=["7x7", "3x5", "global", "1d", "3d"],
)
def test_adaptive_avg_pool_with_sizes_known_at_run_time(make, shape) -> None:
    """Adaptive average pooling of dynamic input sizes to a fixed output:
    each window [floor(o * I / O), ceil((o + 1) * I / O)) from the run-time
    size I, inputs both larger and smaller than the output included."""
    from torch.export import Dim

    model = make()
    dynamic = {0: Dim("n", min=1, max=8)}
    dynamic.update({i: Dim(f"s{i}", min=2, max=64) for i in range(2, len(shape))})
    compiled = torch2mlir.compile(
        model, (randn(*shape),), dynamic_shapes=(dynamic,), cache=False
    )
    for sizes in ((3, 4, 5), (7, 9, 2), (13, 64, 11), (30, 21, 16)):
        x = randn(sizes[0] % 4 + 1, 3, *sizes[: len(shape) - 2])
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    ("make", "shape", "dims"),
    [
        (lambda: nn.Conv1d(4, 6, 3, padding=1), (2, 4, 20), ("n", "l")),
        (lambda: nn.Conv1d(4, 6, 5, stride=2, dilation=2), (2, 4, 40), ("l",)),
        (lambda: nn.Conv2d(8, 8, 3, padding=1, groups=8), (2, 8, 16, 16), ("n", "h")),
        (lambda: nn.Conv2d(8, 6, 3, stride=2, groups=2), (2, 8, 16, 16), ("h", "w")),
        # Transposed convolutions of floats: a GEMM and col2im of run-time
        # sizes.
        (lambda: nn.ConvTranspose2d(4, 6, 4, stride=2), (2, 4, 8, 8), ("n",)),
        (
            lambda: nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, groups=2),
            (2, 4, 9),
            ("n",),
        ),
        (lambda: nn.Conv3d(2, 3, 3, padding=1), (2, 2, 6, 6, 6), ("n",)),
    ],
    ids=[
        "conv1d",
        "conv1d_strided_dilated",
        "depthwise",
        "grouped",
        "transposed2d",
        "transposed1d_grouped",
        "conv3d",
    ],
)
def test_conv_with_sizes_known_at_run_time(make, shape, dims) -> None:
    """1-D (a 2-D one of height 1), depthwise and grouped convolutions over
    an unknown batch and/or spatial size: the RefBackend's GEMM kernels
    take the run-time sizes."""
    from torch.export import Dim

    torch.manual_seed(0)
    model = make().eval()
    at = {"n": 0, "l": 2, "h": 2, "w": 3}
    dynamic = {
        at[name]: Dim(name, min=1 if name == "n" else 12, max=64) for name in dims
    }
    compiled = torch2mlir.compile(
        model, (randn(*shape),), dynamic_shapes=(dynamic,), cache=False
    )
    for scale in (0.75, 1.5):
        run = tuple(int(s * scale) if i in dynamic else s for i, s in enumerate(shape))
        x = randn(*run)
        with torch.no_grad():
            expected = model(x)
        torch.testing.assert_close(compiled(x), expected, rtol=1e-4, atol=1e-4)


def test_resnet_with_a_dynamic_batch_and_image_size() -> None:
    """ResNet-18 (torch2mlir.models) exported once for any batch and any
    image size that is a multiple of 32 (derived dims, 32 * Dim): the
    derived sizes bind from the input at run time, and a size off the
    multiple is an InputError naming the dim."""
    from torch.export import Dim
    from torch2mlir.models import resnet18

    torch.manual_seed(0)
    model = resnet18().eval()
    dims = {
        0: Dim("n", min=1, max=8),
        2: 32 * Dim("h", min=2, max=8),
        3: 32 * Dim("w", min=2, max=8),
    }
    compiled = torch2mlir.compile(
        model, (randn(2, 3, 64, 64),), dynamic_shapes=(dims,), cache=False
    )
    for shape in [(1, 3, 96, 64), (3, 3, 64, 128)]:
        x = randn(*shape)
        with torch.no_grad():
            expected = model(x)
        torch.testing.assert_close(compiled(x), expected, rtol=1e-4, atol=1e-4)
    with pytest.raises(
        torch2mlir.InputError, match=r"dim 2 is 100.*only sizes 32 \* k"
    ):
        compiled(randn(1, 3, 100, 64))
    with pytest.raises(
        torch2mlir.InputError,
        match=r"dim 3 is 320, outside the range \[64, 256\] \(32 \* k, k in \[2, 8\]\)",
    ):
        compiled(randn(1, 3, 64, 320))


@pytest.mark.parametrize(
    ("make", "shape", "dims", "dtype"),
    [
        # linalg.conv_3d_ncdhw_fcdhw of run-time sizes (the runtime's GEMM).
        (lambda: nn.Conv3d(2, 3, 3, padding=1), (2, 2, 6, 6, 6), "ndhw", torch.float32),
        (
            lambda: nn.Conv3d(2, 3, (1, 3, 2), stride=(1, 2, 1), dilation=(1, 1, 2)),
            (1, 2, 6, 9, 8),
            "dhw",
            torch.float64,
        ),
        # Grouped 3-D and 16-bit convolutions: the general convolution,
        # accumulating in float32 for float16/bfloat16.
        (
            lambda: nn.Conv3d(4, 6, 3, stride=2, padding=1, groups=2),
            (2, 4, 7, 6, 8),
            "ndw",
            torch.float32,
        ),
        (lambda: nn.Conv2d(4, 6, 3, padding=1), (2, 4, 10, 9), "nhw", torch.float16),
        (
            lambda: nn.Conv1d(4, 6, 3, stride=2, groups=2),
            (2, 4, 21),
            "l",
            torch.bfloat16,
        ),
    ],
    ids=[
        "conv3d",
        "conv3d_strided_dilated_f64",
        "conv3d_grouped",
        "conv2d_f16",
        "conv1d_bf16",
    ],
)
def test_conv_with_spatial_sizes_known_at_run_time(make, shape, dims, dtype) -> None:
    """3-D, grouped 3-D and 16-bit convolutions over unknown batch and
    spatial sizes: the output sizes (PyTorch's (I + 2p - d(K - 1) - 1) / s + 1)
    are computed at run time, including sizes where the last window does not
    fit whole."""
    from torch.export import Dim

    torch.manual_seed(0)
    model = make().to(dtype).eval()
    rank = len(shape)
    at = {"n": 0, "l": 2, "d": 2, "h": rank - 2, "w": rank - 1}
    dynamic = {
        at[name]: Dim(name, min=1 if name == "n" else 6, max=64) for name in dims
    }
    compiled = torch2mlir.compile(
        model,
        (randn(*shape).to(dtype),),
        dynamic_shapes=(dynamic,),
        cache=False,
    )
    for scale in (0.75, 1.5):
        run = tuple(
            max(int(s * scale), 6) if i in dynamic else s for i, s in enumerate(shape)
        )
        x = randn(*run).to(dtype)
        with torch.no_grad():
            expected = model(x)
        actual = compiled(x)
        assert actual.shape == expected.shape
        torch.testing.assert_close(actual, expected)


@pytest.mark.parametrize(
    ("make", "shape", "dims"),
    [
        # DCGAN's upsampling: taps overlap, the first and last rows get fewer.
        (lambda: nn.ConvTranspose2d(4, 6, 4, stride=2, padding=1), (2, 4, 8, 8), "nhw"),
        # U-Net's: kernel = stride, the taps tile the output.
        (lambda: nn.ConvTranspose2d(4, 6, 2, stride=2), (2, 4, 8, 8), "nhw"),
        (
            lambda: nn.ConvTranspose2d(
                4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=2
            ),
            (2, 4, 8, 8),
            "hw",
        ),
        (lambda: nn.ConvTranspose1d(4, 6, 5, stride=3, padding=2), (2, 4, 9), "nl"),
        (lambda: nn.ConvTranspose3d(2, 3, 3, stride=2), (1, 2, 4, 4, 4), "dhw"),
    ],
    ids=["dcgan", "unet", "grouped_dilated_output_padding", "1d", "3d"],
)
def test_transposed_conv_with_sizes_known_at_run_time(make, shape, dims) -> None:
    """Transposed convolutions over dynamic batch and spatial sizes: the
    GEMM's columns, the output sizes and each tap's columns in col2im come
    from the run-time sizes, including sizes too small for some taps to
    reach the output."""
    from torch.export import Dim

    torch.manual_seed(0)
    model = make().eval()
    rank = len(shape)
    at = {"n": 0, "l": 2, "d": 2, "h": rank - 2, "w": rank - 1}
    dynamic = {
        at[name]: Dim(name, min=1 if name == "n" else 2, max=32) for name in dims
    }
    compiled = torch2mlir.compile(
        model, (randn(*shape),), dynamic_shapes=(dynamic,), cache=False
    )
    for scale in (0.25, 0.5, 1.5, 3):
        run = tuple(
            max(int(s * scale), 2) if i in dynamic else s for i, s in enumerate(shape)
        )
        x = randn(*run)
        with torch.no_grad():
            expected = model(x)
        torch.testing.assert_close(compiled(x), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"),
        lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
        lambda x: F.interpolate(x, scale_factor=1.7, mode="bilinear"),
        lambda x: F.interpolate(x, size=(x.shape[2] * 3 // 2, 7), mode="bilinear"),
        lambda x: F.interpolate(x, scale_factor=2, mode="nearest"),
        lambda x: F.interpolate(x, size=(x.shape[2] * 3, 5), mode="nearest"),
    ],
    ids=[
        "bilinear2",
        "bilinear2_corners",
        "bilinear1.7",
        "bilinear_size",
        "nearest2",
        "nearest_size",
    ],
)
def test_upsampling_with_sizes_known_at_run_time(fn) -> None:
    """Upsampling over unknown spatial sizes: the output size (output_size,
    or floor(size * scale_factor)), source indices and weights come from
    the run-time sizes, with the arithmetic the static sizes use at compile
    time: the same values, bit for bit, as a compile for each shape."""
    from torch.export import Dim

    module = Call(fn)
    dims = {
        0: Dim("n", min=1, max=8),
        2: Dim("h", min=2, max=64),
        3: Dim("w", min=2, max=64),
    }
    compiled = torch2mlir.compile(
        module, (randn(2, 3, 8, 8),), dynamic_shapes=((dims,),), cache=False
    )
    for shape in [(1, 3, 5, 8), (2, 3, 13, 9), (3, 3, 8, 8), (1, 3, 64, 2)]:
        x = randn(*shape)
        got = compiled(x)
        torch.testing.assert_close(got, module(x))
        static = torch2mlir.compile(module, (x,), cache=False)
        torch.testing.assert_close(got, static(x), rtol=0, atol=0)
