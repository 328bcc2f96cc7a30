"""The decompositions torch2mlir adds to PyTorch's Core ATen table.

``decompositions="core-aten"`` runs ``torch.export.default_decompositions()``
plus :data:`EXTRA_CORE_ATEN_DECOMPOSITIONS`:

- PyTorch's own decompositions (``torch._decomp``) of ops that survive the
  Core ATen table and that torch2mlir does not lower whole
  (:data:`PYTORCH_DECOMPOSED`: ``linalg_vector_norm``, ``unfold``,
  ``var_mean.correction``, ``fmax``/``fmin``, the random distributions...);
- torch2mlir's own, below, where PyTorch has none: each follows the op's
  definition in PyTorch's documentation (``native_functions.yaml`` for the
  signature) and is checked against eager by the e2e tests
  (``test/e2e/test_decompositions.py``).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
import torch
from torch._decomp import get_decompositions

from ..errors import CompileError
from .backward import BACKWARD_DECOMPOSITIONS
from .bits import BITS_DECOMPOSITIONS, SAME_WIDTH_INT
from .complex_numbers import COMPLEX_DECOMPOSITIONS, complex_angle
from .data_dependent import DATA_DEPENDENT_DECOMPOSITIONS
from .float8 import FLOAT8_DECOMPOSITIONS
from .quantization import QUANTIZED_DECOMPOSITIONS
from .special import SPECIAL_DECOMPOSITIONS, result_float_dtype

aten = torch.ops.aten
prims = torch.ops.prims


def _split_with_sizes(
    self: torch.Tensor, split_sizes: list[int], dim: int = 0
) -> list[torch.Tensor]:
    """``aten.split_with_sizes`` as one ``aten.slice.Tensor`` per piece
    (PyTorch's own decomposition uses ``as_strided``, which the torch
    dialect cannot express without strides)."""
    pieces, start = [], 0
    for size in split_sizes:
        pieces.append(aten.slice.Tensor(self, dim, start, start + size))
        start = start + size
    return pieces


def _rand_like(self: torch.Tensor, **kwargs: object) -> torch.Tensor:
    """``aten.rand_like``: ``aten.rand`` of the input's shape (dtype from
    kwargs, else the input's)."""
    return aten.rand.default(
        self.shape, dtype=kwargs.get("dtype") or self.dtype, device=self.device
    )


def _randn_like(self: torch.Tensor, **kwargs: object) -> torch.Tensor:
    """``aten.randn_like``: ``aten.randn`` of the input's shape."""
    return aten.randn.default(
        self.shape, dtype=kwargs.get("dtype") or self.dtype, device=self.device
    )


def _uniform_integers(
    low: int, high: int, size: Sequence[int], dtype: torch.dtype | None
) -> torch.Tensor:
    """Integers uniform on [low, high): ``floor(low + (high - low) * U)``
    with U uniform on [0, 1) in float64 (exact for ranges below 2**53),
    clamped to high - 1 against rounding up."""
    u = aten.rand.default(size, dtype=torch.float64)
    value = aten.floor.default(u * (high - low) + low)
    value = aten.clamp.default(value, None, high - 1)
    return aten._to_copy.default(value, dtype=dtype or torch.int64)


def _randint_low(
    low: int, high: int, size: Sequence[int], **kwargs: Any
) -> torch.Tensor:
    """``aten.randint.low``: uniform integers on [low, high) (the same
    distribution as PyTorch's, not the same stream)."""
    return _uniform_integers(low, high, size, kwargs.get("dtype"))


def _randint(high: int, size: Sequence[int], **kwargs: Any) -> torch.Tensor:
    """``aten.randint``: uniform integers on [0, high)."""
    return _uniform_integers(0, high, size, kwargs.get("dtype"))


def _randint_like_low(
    self: torch.Tensor, low: int, high: int, **kwargs: Any
) -> torch.Tensor:
    """``aten.randint_like.low_dtype``: uniform integers on [low, high) of
    the input's shape and dtype."""
    return _uniform_integers(low, high, self.shape, kwargs.get("dtype") or self.dtype)


def _randint_like(self: torch.Tensor, high: int, **kwargs: Any) -> torch.Tensor:
    """``aten.randint_like``: uniform integers on [0, high)."""
    return _uniform_integers(0, high, self.shape, kwargs.get("dtype") or self.dtype)


def _addbmm(
    self: torch.Tensor,
    batch1: torch.Tensor,
    batch2: torch.Tensor,
    *,
    beta: float = 1,
    alpha: float = 1,
) -> torch.Tensor:
    """``aten.addbmm``: ``beta * self + alpha * sum_b batch1[b] @ batch2[b]``
    (``self`` is ignored when beta is 0, NaN included, as in PyTorch). For
    16-bit floats, as PyTorch's CPU kernel: one ``addmm`` per batch, each
    computed in float32 and rounded into the running result."""
    dtype = self.dtype
    if not dtype.is_floating_point and not dtype.is_complex:
        # PyTorch converts the scalars to the (integer) dtype.
        alpha, beta = int(alpha), int(beta)
    if dtype in _HALF_DTYPES:
        f32 = torch.float32
        result = aten._to_copy.default(self, dtype=f32)
        result = aten.mul.Tensor(result, beta) if beta != 1 else result
        if beta == 0:
            result = aten.zeros_like.default(result)
        result = aten._to_copy.default(result, dtype=dtype)
        for b in range(batch1.shape[0]):
            product = aten.mm.default(
                aten._to_copy.default(aten.select.int(batch1, 0, b), dtype=f32),
                aten._to_copy.default(aten.select.int(batch2, 0, b), dtype=f32),
            )
            total = aten.add.Tensor(
                aten._to_copy.default(result, dtype=f32),
                aten.mul.Tensor(product, alpha),
            )
            result = aten._to_copy.default(total, dtype=dtype)
        return result
    product = aten.sum.dim_IntList(
        aten.bmm.default(batch1, batch2), [0], dtype=batch1.dtype
    )
    if alpha != 1:
        product = aten.mul.Tensor(product, alpha)
    if beta == 0:
        return product
    return aten.add.Tensor(aten.mul.Tensor(self, beta) if beta != 1 else self, product)


def _conv_tbc(
    self: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, pad: int = 0
) -> torch.Tensor:
    """``aten.conv_tbc``: a 1-D convolution of input [time, batch, channels]
    by weight [kernel, in, out]: ``conv1d`` of the permuted operands."""
    out = aten.convolution.default(
        aten.permute.default(self, [1, 2, 0]),
        aten.permute.default(weight, [2, 1, 0]),
        bias,
        [1],
        [pad],
        [1],
        False,
        [0],
        1,
    )
    return aten.permute.default(out, [2, 0, 1])


def _kthvalue(
    self: torch.Tensor, k: int, dim: int = -1, keepdim: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.kthvalue``: the k-th smallest along `dim` (1-based) and its
    index, from a stable ascending sort (NaN sorts last, as in PyTorch)."""
    if self.dim() == 0:
        return aten.clone.default(self), aten.zeros_like.default(
            self, dtype=torch.int64
        )
    values, indices = aten.sort.stable(self, stable=True, dim=dim)
    value = aten.select.int(values, dim, k - 1)
    index = aten.select.int(indices, dim, k - 1)
    if keepdim:
        value = aten.unsqueeze.default(value, dim)
        index = aten.unsqueeze.default(index, dim)
    return value, index


def _histc(
    self: torch.Tensor, bins: int = 100, min: float = 0, max: float = 0
) -> torch.Tensor:
    """``aten.histc``: counts of `bins` equal-width bins over [min, max]
    (the data's min and max when min == max, widened by 1 on each side if
    those are equal too: ``histc_select_outer_bin_edges`` in PyTorch's
    Histogram.cpp); elements outside are ignored and max falls in the last
    bin. The bin of x is ``int((x - min) * bins / (max - min))`` in the
    input's dtype, PyTorch's CPU arithmetic (``HistogramKernel.cpp``).
    Returns the counts in the input's dtype."""

    def scalar(value: float) -> torch.Tensor:
        return aten.scalar_tensor.default(value, dtype=self.dtype)

    if min == max:
        low, high = aten.min.default(self), aten.max.default(self)
        same = aten.eq.Tensor(low, high)
        low = aten.where.self(same, aten.sub.Tensor(low, 1), low)
        high = aten.where.self(same, aten.add.Tensor(high, 1), high)
    else:
        low, high = scalar(min), scalar(max)
    flat = aten.view.default(self, [-1])
    inside = aten.logical_and.default(
        aten.ge.Tensor(flat, low), aten.le.Tensor(flat, high)
    )
    scaled = aten.mul.Tensor(aten.sub.Tensor(flat, low), bins)
    position = aten._to_copy.default(
        aten.div.Tensor(scaled, aten.sub.Tensor(high, low)), dtype=torch.int64
    )
    position = aten.clamp.default(position, 0, bins - 1)
    ones = aten._to_copy.default(inside, dtype=self.dtype)
    counts = aten.zeros.default([bins], dtype=self.dtype, device=self.device)
    return aten.index_put.default(counts, [position], ones, True)


def _trilinear(
    i1: torch.Tensor,
    i2: torch.Tensor,
    i3: torch.Tensor,
    expand1: Sequence[int],
    expand2: Sequence[int],
    expand3: Sequence[int],
    sumdim: Sequence[int],
    unroll_dim: int = 1,
) -> torch.Tensor:
    """``aten._trilinear`` (``nn.Bilinear``): each input unsqueezed at its
    ``expand`` dims, the three multiplied (broadcast), summed over
    ``sumdim``. `unroll_dim` only chooses PyTorch's loop order."""
    del unroll_dim

    def expand(value: torch.Tensor, dims: Sequence[int]) -> torch.Tensor:
        for d in sorted(dims):
            value = aten.unsqueeze.default(value, d)
        return value

    dtype = i1.dtype
    if dtype in _HALF_DTYPES:  # float32 products and sums, rounded once
        i1, i2, i3 = (
            aten._to_copy.default(t, dtype=torch.float32) for t in (i1, i2, i3)
        )
    product = aten.mul.Tensor(
        aten.mul.Tensor(expand(i1, expand1), expand(i2, expand2)), expand(i3, expand3)
    )
    if sumdim:
        product = aten.sum.dim_IntList(product, list(sumdim), dtype=product.dtype)
    return (
        aten._to_copy.default(product, dtype=dtype)
        if product.dtype != dtype
        else product
    )


def _rrelu_with_noise_functional(
    self: torch.Tensor,
    noise: torch.Tensor,
    lower: float = 0.125,
    upper: float = 1.0 / 3.0,
    training: bool = False,
    generator: object = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.rrelu_with_noise_functional``: in eval mode a leaky ReLU of
    slope (lower + upper) / 2 (noise unchanged); in training each negative
    element is scaled by a slope uniform on [lower, upper], and the noise
    records the slope (1 for non-negative elements)."""
    del generator
    if not training:
        slope = (lower + upper) / 2
        return aten.where.self(self >= 0, self, self * slope), aten.clone.default(noise)
    slopes = aten.rand.default(self.shape, dtype=self.dtype) * (upper - lower) + lower
    negative = aten.lt.Scalar(self, 0)
    new_noise = aten.where.self(negative, slopes, aten.ones_like.default(self))
    return aten.mul.Tensor(self, new_noise), aten._to_copy.default(
        new_noise, dtype=noise.dtype
    )


def _prims_sum(
    inp: torch.Tensor, dims: Sequence[int] | None, *, output_dtype: object = None
) -> torch.Tensor:
    """``prims.sum``: ``aten.sum.dim_IntList`` over `dims` (all if None)."""
    return aten.sum.dim_IntList(
        inp, list(dims) if dims is not None else None, dtype=output_dtype
    )


def _prims_prod(
    inp: torch.Tensor, dims: Sequence[int] | None, *, output_dtype: object = None
) -> torch.Tensor:
    """``prims.prod``: ``aten.prod.dim_int`` over each of `dims`, last
    first (all dims if None)."""
    dims = list(range(inp.dim())) if dims is None else list(dims)
    result = (
        inp if output_dtype is None else aten._to_copy.default(inp, dtype=output_dtype)
    )
    for d in sorted((d % max(inp.dim(), 1) for d in dims), reverse=True):
        result = aten.prod.dim_int(result, d)
    return result


def _prims_convert_element_type(a: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """``prims.convert_element_type``: ``aten._to_copy`` to `dtype`."""
    return aten._to_copy.default(a, dtype=dtype)


def _prims_iota(
    length: int,
    *,
    start: int,
    step: int,
    dtype: torch.dtype,
    device: object,
    requires_grad: bool,
) -> torch.Tensor:
    """``prims.iota``: ``start + step * i`` for i < length."""
    del requires_grad
    return aten.arange.start_step(
        start, start + step * length, step, dtype=dtype, device=device
    )


def _prims_collapse(a: torch.Tensor, start: int, end: int) -> torch.Tensor:
    """``prims.collapse``: dims start..end (inclusive) merged into one."""
    shape = list(a.shape)
    merged = 1
    for size in shape[start : end + 1]:
        merged = merged * size
    return aten.view.default(
        aten.clone.default(a), [*shape[:start], merged, *shape[end + 1 :]]
    )


def _nan_after_an_infinity(
    x: torch.Tensor, dims: list[int] | None, keepdim: bool, mean: torch.Tensor
) -> torch.Tensor:
    """`mean` (the mean of `x` over `dims`) with NaN where an infinite element
    of `x` precedes another element of its reduction (row-major over
    `dims`): what a Welford reduction computes (see _var_mean_correction)."""
    rank = x.dim()
    if rank == 0:  # one element (a 0-d tensor takes dim 0 or -1)
        return mean
    reduced = sorted({d % rank for d in dims} if dims else range(rank))
    kept = [d for d in range(rank) if d not in reduced]
    count = 1
    for d in reduced:
        count *= x.shape[d]
    if count <= 1:
        return mean
    rows = aten.view.default(
        aten.clone.default(
            aten.permute.default(x, kept + reduced),
            memory_format=torch.contiguous_format,
        ),
        [*(x.shape[d] for d in kept), count],
    )
    head = aten.slice.Tensor(rows, -1, 0, count - 1)
    stray = aten.any.dim(aten.isinf.default(head), -1, False)
    if keepdim:
        stray = aten.view.default(
            stray, [1 if d in reduced else x.shape[d] for d in range(rank)]
        )
    return aten.where.self(
        stray, aten.scalar_tensor.default(float("nan"), dtype=mean.dtype), mean
    )


def _upsample_linear_weighted(
    input: torch.Tensor,
    output_size: Sequence[int] | None,
    align_corners: bool,
    scale_factors: Sequence[float | None] | None,
) -> torch.Tensor:
    """``aten.upsample_linear1d.vec``/``upsample_trilinear3d.vec`` (input
    [N, C, *spatial], float): one linear pass per spatial dim, the last
    first, each output the weighted sum ``x[i0] * (1 - l) + x[i1] * l`` as
    PyTorch's CPU kernel nests them (UpSampleKernel.cpp), with the source
    index of ``area_pixel_compute_source_index`` in the op-math dtype
    (float32 for float16/bfloat16/float32). PyTorch's Python decomposition
    writes ``x0 + (x1 - x0) * l``, NaN where x0 is infinite and l is 0;
    the kernel's sum is not."""
    spatial = input.dim() - 2
    compute = torch.float64 if input.dtype == torch.float64 else torch.float32
    x = input
    if input.dtype != compute:
        x = aten._to_copy.default(input, dtype=compute)
    for d in reversed(range(spatial)):
        dim = d + 2
        size = input.shape[dim]
        scale = scale_factors[d] if scale_factors else None
        # aten gives output_size or, failing that, every scale factor.
        out = output_size[d] if output_size else int(size * cast(float, scale))
        position = aten.arange.default(out, dtype=compute)
        if align_corners:
            step = (size - 1) / (out - 1) if out > 1 else 0.0
            source = aten.mul.Tensor(position, step)
        else:
            step = 1.0 / scale if scale is not None and scale > 0 else size / out
            source = aten.clamp_min.default(
                aten.sub.Tensor(
                    aten.mul.Tensor(aten.add.Tensor(position, 0.5), step), 0.5
                ),
                0.0,
            )
        low = aten.clamp_max.default(
            aten._to_copy.default(source, dtype=torch.int64), size - 1
        )
        high = aten.clamp_max.default(aten.add.Tensor(low, 1), size - 1)
        far = aten.clamp.default(
            aten.sub.Tensor(source, aten._to_copy.default(low, dtype=compute)), 0.0, 1.0
        )
        near = aten.rsub.Scalar(far, 1.0)
        shape = [out] + [1] * (input.dim() - 1 - dim)
        x = aten.add.Tensor(
            aten.mul.Tensor(
                aten.index_select.default(x, dim, low), aten.view.default(near, shape)
            ),
            aten.mul.Tensor(
                aten.index_select.default(x, dim, high), aten.view.default(far, shape)
            ),
        )
    if x.dtype != input.dtype:
        x = aten._to_copy.default(x, dtype=input.dtype)
    return x


def _upsample_linear_sizes(
    input: torch.Tensor,
    output_size: Sequence[int],
    align_corners: bool,
    *scales: float | None,
) -> torch.Tensor:
    """``aten.upsample_linear1d``/``upsample_trilinear3d`` (sizes and
    optional per-dim scales): see _upsample_linear_weighted."""
    factors = None if all(f is None for f in scales) else list(scales)
    return _upsample_linear_weighted(input, output_size, align_corners, factors)


def _var_mean_correction(
    self: torch.Tensor,
    dim: Sequence[int] | None = None,
    *,
    correction: float | None = None,
    keepdim: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.var_mean.correction``: ``aten.var.correction`` and
    ``aten.mean.dim`` over the same dims, both computed in float64 for a
    float `self` and rounded to its dtype (PyTorch's CPU kernel is a Welford
    reduction with double accumulators: the mean of float32 3e38s is 3e38,
    not a float32 sum's inf). As that reduction's update, ``mean += (x -
    mean) / n``, turns a mean made infinite by an infinite element into NaN
    at the next element (inf - inf), the mean is NaN where an infinite
    element is not the last one reduced (in row-major order over the reduced
    dims, the order of a contiguous input)."""
    dims = list(dim) if dim is not None else None
    x = self
    if self.is_floating_point() and self.dtype != torch.float64:
        x = aten._to_copy.default(self, dtype=torch.float64)
    var = aten.var.correction(x, dims, correction=correction, keepdim=keepdim)
    mean = aten.mean.dim(x, dims, keepdim)
    if self.is_floating_point():
        mean = _nan_after_an_infinity(x, dims, keepdim, mean)
    if x is not self:
        var = aten._to_copy.default(var, dtype=self.dtype)
        mean = aten._to_copy.default(mean, dtype=self.dtype)
    return var, mean


def _float_operand(x: torch.Tensor) -> torch.Tensor:
    """`x` as a float (or complex) tensor: integers and bool to the default
    dtype (the result dtype of PyTorch's unary float ops)."""
    if x.is_floating_point() or x.is_complex():
        return x
    return aten._to_copy.default(x, dtype=torch.get_default_dtype())


def _exp2(self: torch.Tensor) -> torch.Tensor:
    """``aten.exp2``: ``2 ** x`` (``aten.pow.Scalar``, exact at integers);
    of a complex tensor, ``exp(x ln 2)``."""
    if self.is_complex():
        return aten.exp.default(aten.mul.Tensor(self, math.log(2.0)))
    return aten.pow.Scalar(2.0, _float_operand(self))


def _nan_aware_extreme(
    self: torch.Tensor,
    other: torch.Tensor,
    extreme: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
) -> torch.Tensor:
    """`extreme` (maximum/minimum) of the promoted operands, except that a
    NaN operand yields the other one (NaN only where both are)."""
    result = extreme(self, other)
    if not result.is_floating_point():
        return result
    dtype = result.dtype
    a = aten._to_copy.default(self, dtype=dtype) if self.dtype != dtype else self
    b = aten._to_copy.default(other, dtype=dtype) if other.dtype != dtype else other
    result = aten.where.self(aten.isnan.default(a), b, result)
    return aten.where.self(aten.isnan.default(b), a, result)


def _fmax(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.fmax``: the maximum, ignoring a NaN operand (IEEE fmax)."""
    return _nan_aware_extreme(self, other, aten.maximum.default)


def _fmin(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.fmin``: the minimum, ignoring a NaN operand (IEEE fmin)."""
    return _nan_aware_extreme(self, other, aten.minimum.default)


#: The integer dtype of each float dtype's width (signbit reads the bits).
def _signbit(self: torch.Tensor) -> torch.Tensor:
    """``aten.signbit``: whether the sign bit is set (true for -0.0 and
    negative NaN), read from the float's bits; ``x < 0`` for integers."""
    if self.dtype == torch.bool:
        return aten.zeros_like.default(self)
    if not self.is_floating_point():
        return aten.lt.Scalar(self, 0)
    bits = aten.view.dtype(self, SAME_WIDTH_INT[self.dtype])
    return aten.lt.Scalar(bits, 0)


def _normal_tensor_float(
    mean: torch.Tensor, std: float = 1.0, *, generator: object = None
) -> torch.Tensor:
    """``aten.normal.Tensor_float``: ``mean + std * N(0, 1)``."""
    del generator
    noise = aten.randn.default(mean.shape, dtype=mean.dtype)
    return aten.add.Tensor(mean, aten.mul.Tensor(noise, std))


def _normal_float_tensor(
    mean: float, std: torch.Tensor, *, generator: object = None
) -> torch.Tensor:
    """``aten.normal.float_Tensor``: ``mean + std * N(0, 1)``."""
    del generator
    noise = aten.randn.default(std.shape, dtype=std.dtype)
    return aten.add.Tensor(aten.mul.Tensor(noise, std), mean)


def _normal_tensor_tensor(
    mean: torch.Tensor, std: torch.Tensor, *, generator: object = None
) -> torch.Tensor:
    """``aten.normal.Tensor_Tensor``: ``mean + std * N(0, 1)`` broadcast."""
    del generator
    shape = torch.broadcast_shapes(mean.shape, std.shape)
    noise = aten.randn.default(shape, dtype=mean.dtype)
    return aten.add.Tensor(mean, aten.mul.Tensor(noise, std))


def _normal_float_float(
    mean: float,
    std: float,
    size: Sequence[int],
    *,
    generator: object = None,
    dtype: torch.dtype | None = None,
    **kwargs: object,
) -> torch.Tensor:
    """``aten.normal.float_float``: ``mean + std * N(0, 1)`` of `size`."""
    del generator, kwargs
    noise = aten.randn.default(size, dtype=dtype or torch.get_default_dtype())
    return aten.add.Tensor(aten.mul.Tensor(noise, std), mean)


def _normal_functional(
    self: torch.Tensor, mean: float = 0.0, std: float = 1.0, *, generator: object = None
) -> torch.Tensor:
    """``aten.normal_functional`` (``Tensor.normal_``): ``mean + std * N(0,
    1)`` of the input's shape and dtype."""
    del generator
    noise = aten.randn.default(self.shape, dtype=self.dtype)
    return aten.add.Tensor(aten.mul.Tensor(noise, std), mean)


def _uniform(
    self: torch.Tensor, low: float = 0.0, high: float = 1.0, *, generator: object = None
) -> torch.Tensor:
    """``aten.uniform`` (``Tensor.uniform_``): ``low + (high - low) * U`` of
    the input's shape, U uniform on [0, 1)."""
    del generator
    u = aten.rand.default(self.shape, dtype=self.dtype)
    return aten.add.Tensor(aten.mul.Tensor(u, high - low), low)


def _multinomial(
    self: torch.Tensor,
    num_samples: int,
    replacement: bool = False,
    *,
    generator: object = None,
) -> torch.Tensor:
    """``aten.multinomial``: `num_samples` category indices per row of the
    (unnormalized, non-negative) weights. With replacement, inverse
    transform sampling: the number of normalized cumulative weights below a
    uniform draw; without, the Gumbel-top-k trick (the k largest of
    ``log w - log(-log U))``), which draws without replacement in
    proportion to the weights. The same distributions as PyTorch's, not the
    same stream."""
    del generator
    weights = self if self.dim() == 2 else aten.unsqueeze.default(self, 0)
    rows, categories = weights.shape
    if replacement:
        cdf = aten.cumsum.default(weights, 1)
        total = aten.slice.Tensor(cdf, 1, categories - 1, categories)
        u = aten.rand.default([rows, num_samples], dtype=weights.dtype)
        draw = aten.mul.Tensor(u, total)  # [rows, samples]
        below = aten.le.Tensor(
            aten.unsqueeze.default(cdf, 1), aten.unsqueeze.default(draw, 2)
        )  # [rows, samples, categories]
        index = aten.sum.dim_IntList(
            aten._to_copy.default(below, dtype=torch.int64), [2]
        )
        samples = aten.clamp.default(index, None, categories - 1)
    else:
        u = aten.rand.default([rows, categories], dtype=weights.dtype)
        gumbel = aten.neg.default(
            aten.log.default(aten.neg.default(aten.log.default(u)))
        )
        keys = aten.add.Tensor(aten.log.default(weights), gumbel)
        samples = aten.topk.default(keys, num_samples, 1)[1]
    return samples if self.dim() == 2 else aten.squeeze.dims(samples, [0])


def _logcumsumexp(self: torch.Tensor, dim: int) -> torch.Tensor:
    """``aten.logcumsumexp``: ``log(sum_{j <= i} exp(x_j))`` along `dim`, as
    a log-sum-exp (stable for any range of values) over the [n, n] lower
    triangle of the values (n the length of `dim`; memory n**2 per row)."""
    if self.dim() == 0:
        return aten.clone.default(self)
    dim = dim % self.dim()
    n = self.shape[dim]
    x = aten.movedim.int(self, dim, -1)
    rows = aten.unsqueeze.default(x, -2)  # [..., 1, n]: x_j
    rows = aten.expand.default(rows, [*x.shape[:-1], n, n])
    index = aten.arange.default(n)
    later = aten.gt.Tensor(
        aten.unsqueeze.default(index, 0), aten.unsqueeze.default(index, 1)
    )  # [i, j]: j > i
    masked = aten.where.self(
        later, aten.scalar_tensor.default(float("-inf"), dtype=self.dtype), rows
    )
    return aten.movedim.int(aten.logsumexp.default(masked, [-1]), -1, dim)


def _adaptive_window(size: int, out: int) -> tuple:
    """For one spatial dim of an adaptive pooling: the longest window, and
    (as [out, longest] tensors) each output's input positions and whether
    each lies inside its window [floor(i * size / out), ceil((i + 1) * size
    / out))."""
    starts = [(i * size) // out for i in range(out)]
    ends = [-((-(i + 1) * size) // out) for i in range(out)]
    longest = max(e - s for s, e in zip(starts, ends, strict=True))
    i = aten.arange.default(out)
    k = aten.arange.default(longest)
    start = aten.floor_divide.default(aten.mul.Tensor(i, size), out)
    end = aten.neg.default(
        aten.floor_divide.default(aten.mul.Tensor(aten.add.Tensor(i, 1), -size), out)
    )
    position = aten.add.Tensor(aten.unsqueeze.default(start, 1), k)  # [out, longest]
    valid = aten.lt.Tensor(position, aten.unsqueeze.default(end, 1))
    position = aten.clamp.default(position, None, size - 1)
    return longest, position, valid


def _adaptive_max_pool(
    self: torch.Tensor, output_size: Sequence[int]
) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.adaptive_max_pool2d``/``3d``: per output cell (i, j, ...), the
    maximum of input rows [floor(i*H/OH), ceil((i+1)*H/OH)), the same along
    each spatial dim, and its index into the flattened spatial dims (the
    first maximum; NaN wins). The windows are gathered as [.., OH, OW, ...,
    KH * KW * ...] with cells outside a window masked to the lowest value."""
    spatial = len(output_size)
    batched = self.dim() == spatial + 2
    x = self if batched else aten.unsqueeze.default(self, 0)
    n, c, *sizes = x.shape
    cells = list(output_size)
    windows = [_adaptive_window(size, out) for size, out in zip(sizes, cells)]
    kernel = [k for k, _, _ in windows]
    # Flat input positions and their validity, [OH, OW, ..., KH, KW, ...].
    flat: torch.Tensor | None = None
    ok: torch.Tensor | None = None
    stride = 1
    for d in reversed(range(spatial)):
        shape = [1] * (2 * spatial)
        shape[d], shape[spatial + d] = cells[d], kernel[d]
        _, positions, valid = windows[d]
        term = aten.mul.Tensor(aten.view.default(positions, shape), stride)
        valid = aten.view.default(valid, shape)
        flat = term if flat is None else aten.add.Tensor(flat, term)
        ok = valid if ok is None else aten.logical_and.default(ok, valid)
        stride *= sizes[d]
    assert flat is not None and ok is not None
    flat = aten.expand.default(flat, cells + kernel)
    window_size = math.prod(kernel)
    gathered = aten.index_select.default(
        aten.view.default(x, [n, c, stride]), 2, aten.view.default(flat, [-1])
    )
    gathered = aten.view.default(gathered, [n, c, *cells, window_size])
    lowest = aten.scalar_tensor.default(float("-inf"), dtype=self.dtype)
    if not self.is_floating_point():
        lowest = aten.scalar_tensor.default(
            torch.iinfo(self.dtype).min, dtype=self.dtype
        )
    mask = aten.view.default(
        aten.expand.default(ok, cells + kernel), [*cells, window_size]
    )
    window = aten.where.self(mask, gathered, lowest)
    arg = aten.argmax.default(window, -1, True)
    values = aten.squeeze.dims(aten.gather.default(window, -1, arg), [-1])
    positions = aten.view.default(flat, [1, 1, *cells, window_size])
    positions = aten.expand.default(positions, [n, c, *cells, window_size])
    indices = aten.squeeze.dims(aten.gather.default(positions, -1, arg), [-1])
    if not batched:
        values = aten.squeeze.dims(values, [0])
        indices = aten.squeeze.dims(indices, [0])
    return values, indices


#: 16-bit float dtypes, which PyTorch's CPU kernels compute in float32
#: (their "opmath" type) and round once.
_HALF_DTYPES = (torch.float16, torch.bfloat16)


def _round_to(value: float, dtype: torch.dtype) -> float:
    """`value` rounded to the nearest `dtype` value (ties to even), as a
    Python float: the constant PyTorch's kernels see after
    ``Scalar.to<scalar_t>()``."""
    if dtype == torch.float64:
        return value
    if dtype == torch.float16:
        return float(np.float16(value))
    single = float(np.float32(value))
    if dtype == torch.float32:
        return single
    bits = struct.unpack("<I", struct.pack("<f", single))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # bfloat16
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _logit(self: torch.Tensor, eps: float | None = None) -> torch.Tensor:
    """``aten.logit``: ``log(x / (1 - x))`` of x clamped to [lo, hi], where
    lo is eps rounded to the dtype and hi is ``1 - lo`` rounded (unclamped
    when eps is None), each step rounded to the dtype: PyTorch's CPU
    ``logit_kernel`` (16-bit floats round after every operation there, and
    ``1 - x`` cancels, so the bounds must be the kernel's to the last bit).
    Integer inputs give the default float dtype."""
    x = self
    if not x.is_floating_point():
        x = aten._to_copy.default(x, dtype=torch.get_default_dtype())
    if eps is not None:
        low = _round_to(eps, x.dtype)
        x = aten.clamp.default(x, low, _round_to(1 - low, x.dtype))
    return aten.log.default(aten.div.Tensor(x, aten.rsub.Scalar(x, 1)))


_CORE_TABLE = torch.export.default_decompositions()


def _batch_norm_with_update_functional(
    input: torch.Tensor,
    weight: torch.Tensor | None,
    bias: torch.Tensor | None,
    running_mean: torch.Tensor,
    running_var: torch.Tensor,
    momentum: float,
    eps: float,
) -> tuple[torch.Tensor, ...]:
    """``aten._batch_norm_with_update_functional`` (training-mode batch norm
    as ``torch.export`` emits it): ``_native_batch_norm_legit_functional``
    in training mode, with the empty uint8 ``reserve`` that PyTorch's CPU
    kernel returns (cuDNN's workspace elsewhere)."""
    out, mean, rstd, new_mean, new_var = (
        aten._native_batch_norm_legit_functional.default(
            input, weight, bias, running_mean, running_var, True, momentum, eps
        )
    )
    reserve = aten.empty.memory_format([0], dtype=torch.uint8, device=input.device)
    return out, mean, rstd, reserve, new_mean, new_var


def _upsample_bicubic2d(
    input: torch.Tensor,
    output_size: Sequence[int] | None,
    align_corners: bool,
    scale_factors: Sequence[float] | None,
) -> torch.Tensor:
    """``aten.upsample_bicubic2d.vec``: PyTorch's Core ATen decomposition,
    refused for uint8, where it differs from eager's kernel (which rounds
    with its own fixed-point weights) by one in some elements.

    Raises:
        CompileError: a uint8 input.
    """
    if input.dtype == torch.uint8:
        raise CompileError(
            "aten.upsample_bicubic2d of uint8 is not supported: PyTorch's "
            "uint8 kernel rounds with its own fixed-point weights, which no "
            "decomposition reproduces bit for bit. Way out: interpolate "
            "x.float() and round back (.round().clamp(0, 255).to(torch.uint8))"
        )
    return _CORE_TABLE[aten.upsample_bicubic2d.vec](
        input, output_size, align_corners, scale_factors
    )


def _promoted_float(*tensors: torch.Tensor) -> list[torch.Tensor]:
    """The operands in their promoted dtype, made a float dtype (the default
    one) when the promotion is integral: the inputs of PyTorch's binary
    float ops (copysign, ldexp, hypot)."""
    dtype = result_float_dtype(*tensors)
    return [
        t if t.dtype == dtype else aten._to_copy.default(t, dtype=dtype)
        for t in tensors
    ]


def _erfc(self: torch.Tensor) -> torch.Tensor:
    """``aten.erfc``: ``1 - erf(x)``, in float64 (and rounded once) for
    narrower floats, so that the absolute error stays near float64's
    (erfc underflows below float32's smallest normal for x > 9.2 anyway)."""
    dtype = self.dtype if self.is_floating_point() else torch.get_default_dtype()
    x = aten._to_copy.default(self, dtype=torch.float64)
    result = aten.rsub.Scalar(aten.erf.default(x), 1)
    return (
        aten._to_copy.default(result, dtype=dtype) if dtype != torch.float64 else result
    )


def _copysign(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.copysign.Tensor``: |self| with the sign bit of other (a
    -0.0 or negative NaN counts as negative), in the promoted float dtype."""
    a, b = _promoted_float(self, other)
    magnitude = aten.abs.default(a)
    return aten.where.self(_signbit(b), aten.neg.default(magnitude), magnitude)


def _copysign_scalar(self: torch.Tensor, other: float) -> torch.Tensor:
    """``aten.copysign.Scalar``: |self| with the sign of the scalar."""
    (a,) = _promoted_float(self)
    magnitude = aten.abs.default(a)
    negative = other < 0 or (other == 0 and math.copysign(1.0, other) < 0)
    return aten.neg.default(magnitude) if negative else magnitude


def _ldexp(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.ldexp.Tensor``: ``self * 2 ** other`` in the promoted float
    dtype (``torch.ldexp``'s own definition); a complex `self` is scaled
    by the real ``2 ** other``."""
    if self.is_complex():
        scale = aten.pow.Scalar(2.0, _float_operand(other))
        return aten.mul.Tensor(self, scale)
    a, b = _promoted_float(self, other)
    return aten.mul.Tensor(a, aten.pow.Scalar(2.0, b))


def _hypot(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.hypot``: ``sqrt(a**2 + b**2)`` without overflow or
    underflow: ``m * sqrt(1 + (n / m)**2)`` with m = max(|a|, |b|), n the
    other (0 when both are 0; inf when either is inf, even with a NaN)."""
    a, b = _promoted_float(self, other)
    a, b = aten.abs.default(a), aten.abs.default(b)
    big, small = aten.maximum.default(a, b), aten.minimum.default(a, b)
    zero = aten.eq.Scalar(big, 0)
    ratio = aten.div.Tensor(
        small, aten.where.self(zero, aten.ones_like.default(big), big)
    )
    result = aten.mul.Tensor(
        big, aten.sqrt.default(aten.add.Tensor(aten.mul.Tensor(ratio, ratio), 1))
    )
    infinite = aten.logical_or.default(aten.isinf.default(a), aten.isinf.default(b))
    inf = aten.scalar_tensor.default(float("inf"), dtype=result.dtype)
    return aten.where.self(infinite, inf, result)


def _angle(self: torch.Tensor) -> torch.Tensor:
    """``aten.angle`` of a real tensor: pi for negative values, 0 otherwise
    (-0.0 included), NaN for NaN; integers give the default float dtype.
    Of a complex tensor: ``atan2(imag, real)``."""
    if self.is_complex():
        return complex_angle(self)
    (x,) = _promoted_float(self)
    zero = aten.zeros_like.default(x)
    result = aten.where.self(aten.lt.Scalar(x, 0), aten.add.Tensor(zero, math.pi), zero)
    return aten.where.self(aten.isnan.default(x), x, result)


def _addmv(
    self: torch.Tensor,
    mat: torch.Tensor,
    vec: torch.Tensor,
    *,
    beta: float = 1,
    alpha: float = 1,
) -> torch.Tensor:
    """``aten.addmv``: ``beta * self + alpha * (mat @ vec)`` (self ignored,
    NaN included, when beta is 0; for integers the scalars are converted to
    the dtype first, as PyTorch does). 16-bit floats compute in float32 and
    round once, as PyTorch's CPU gemv: a product rounded to float16 first
    can overflow to inf where eager's float32 sum with ``self`` does not."""
    dtype = torch.promote_types(self.dtype, mat.dtype)
    if not dtype.is_floating_point:
        alpha, beta = int(alpha), int(beta)
    if dtype in _HALF_DTYPES:
        f32 = torch.float32
        wide = _addmv(
            aten._to_copy.default(self, dtype=f32),
            aten._to_copy.default(mat, dtype=f32),
            aten._to_copy.default(vec, dtype=f32),
            beta=beta,
            alpha=alpha,
        )
        return aten._to_copy.default(wide, dtype=dtype)
    product = aten.squeeze.dims(
        aten.mm.default(mat, aten.unsqueeze.default(vec, 1)), [1]
    )
    if alpha != 1:
        product = aten.mul.Tensor(product, alpha)
    if beta == 0:
        return aten.add.Tensor(product, aten.zeros_like.default(self))
    scaled = aten.mul.Tensor(self, beta) if beta != 1 else self
    return aten.add.Tensor(scaled, product)


def _dist(self: torch.Tensor, other: torch.Tensor, p: float = 2) -> torch.Tensor:
    """``aten.dist``: the p-norm of ``self - other`` (broadcast)."""
    return aten.linalg_vector_norm.default(aten.sub.Tensor(self, other), p)


def _triangle(x: torch.Tensor) -> torch.Tensor:
    """[..., n] -> [..., n (i), n (j)]: x_j, for the prefix scans below."""
    n = x.shape[-1]
    return aten.expand.default(aten.unsqueeze.default(x, -2), [*x.shape[:-1], n, n])


def _cumulative_extreme(
    self: torch.Tensor, dim: int, largest: bool
) -> tuple[torch.Tensor, torch.Tensor]:
    """cummax/cummin: for each i along `dim`, the extreme of x_0..x_i (NaN
    once one is seen) and the last index j <= i holding it, as PyTorch's CPU
    kernel (``>=``/``<=``: a later equal value takes the index). Computed
    over the [n, n] lower triangle (memory n**2 per row)."""
    if self.dim() == 0:
        return aten.clone.default(self), aten.zeros_like.default(
            self, dtype=torch.int64
        )
    dim = dim % self.dim()
    x = aten.movedim.int(self, dim, -1)
    n = x.shape[-1]
    rows = _triangle(x)
    index = aten.arange.default(n)
    later = aten.gt.Tensor(
        aten.unsqueeze.default(index, 0), aten.unsqueeze.default(index, 1)
    )
    if x.is_floating_point():
        fill = float("-inf") if largest else float("inf")
    elif x.dtype == torch.bool:
        fill = not largest
    else:
        info = torch.iinfo(x.dtype)
        fill = info.min if largest else info.max
    masked = aten.where.self(
        later, aten.scalar_tensor.default(fill, dtype=x.dtype), rows
    )
    extreme = aten.amax.default if largest else aten.amin.default
    values = extreme(masked, [-1], True)  # NaN propagates
    holds = aten.eq.Tensor(rows, values)
    if x.is_floating_point():
        holds = aten.logical_or.default(
            holds,
            aten.logical_and.default(
                aten.isnan.default(rows), aten.isnan.default(values)
            ),
        )
    holds = aten.logical_and.default(holds, aten.logical_not.default(later))
    positions = aten.where.self(
        holds, index, aten.scalar_tensor.default(-1, dtype=torch.int64)
    )
    indices = aten.amax.default(positions, [-1])
    values = aten.squeeze.dims(values, [-1])
    return aten.movedim.int(values, -1, dim), aten.movedim.int(indices, -1, dim)


def _cummax(self: torch.Tensor, dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.cummax`` (see _cumulative_extreme)."""
    return _cumulative_extreme(self, dim, True)


def _cummin(self: torch.Tensor, dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.cummin`` (see _cumulative_extreme)."""
    return _cumulative_extreme(self, dim, False)


def _median_along(
    self: torch.Tensor, dim: int, keepdim: bool, ignore_nan: bool
) -> tuple[torch.Tensor, torch.Tensor]:
    """The lower median along `dim` (element (n - 1) // 2 of the sorted
    values) and its index. NaNs sort last: with `ignore_nan` the median is
    of the non-NaN values (NaN when all are), else NaN when any is (its
    index that of a NaN)."""
    if self.dim() == 0:
        return aten.clone.default(self), aten.zeros_like.default(
            self, dtype=torch.int64
        )
    values, indices = aten.sort.stable(self, stable=True, dim=dim)
    n = self.shape[dim]
    if self.is_floating_point():
        nans = aten.sum.dim_IntList(aten.isnan.default(self), [dim], True)
        if ignore_nan:
            count = aten.sub.Tensor(n, nans)
            k = aten.floor_divide.default(aten.sub.Tensor(count, 1), 2)
            k = aten.clamp.default(k, 0)
        else:
            # Any NaN: the first NaN (sorted last), else the lower median.
            k = aten.where.self(
                aten.gt.Scalar(nans, 0),
                aten.sub.Tensor(n, nans),
                aten.full_like.default(nans, (n - 1) // 2),
            )
    else:
        shape = list(self.shape)
        shape[dim] = 1
        k = aten.full.default(shape, (n - 1) // 2, dtype=torch.int64)
    value = aten.gather.default(values, dim, k)
    index = aten.gather.default(indices, dim, k)
    if not keepdim:
        value, index = aten.squeeze.dims(value, [dim]), aten.squeeze.dims(index, [dim])
    return value, index


def _median(self: torch.Tensor) -> torch.Tensor:
    """``aten.median``: the lower median of all elements, NaN if any is."""
    return _median_along(aten.view.default(self, [-1]), 0, False, False)[0]


def _nanmedian(self: torch.Tensor) -> torch.Tensor:
    """``aten.nanmedian``: the lower median of the non-NaN elements."""
    return _median_along(aten.view.default(self, [-1]), 0, False, True)[0]


def _median_dim(
    self: torch.Tensor, dim: int, keepdim: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.median.dim`` (see _median_along)."""
    return _median_along(self, dim, keepdim, False)


def _nanmedian_dim(
    self: torch.Tensor, dim: int, keepdim: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.nanmedian.dim`` (see _median_along)."""
    return _median_along(self, dim, keepdim, True)


def _mode(
    self: torch.Tensor, dim: int = -1, keepdim: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.mode``: the most frequent value along `dim` and the index of
    its last occurrence; of equally frequent values the smallest, as
    PyTorch's CPU kernel, which scans the (value, index) pairs in sorted
    order and keeps the first run longer than all before it. Here: a stable
    sort, each sorted position's count within its run of equal values
    (position minus the run's start, a running maximum of the starts), and
    the first position of the largest count, which ends that run."""
    if self.dim() == 0:
        return aten.clone.default(self), aten.zeros_like.default(
            self, dtype=torch.int64
        )
    dim = dim % self.dim()
    values, indices = aten.sort.stable(self, stable=True, dim=dim)
    n = self.shape[dim]
    shape = [1] * self.dim()
    shape[dim] = n
    positions = aten.view.default(aten.arange.default(n, dtype=torch.int64), shape)
    previous = aten.cat.default(
        [
            aten.slice.Tensor(values, dim, 0, 1),
            aten.slice.Tensor(values, dim, 0, n - 1),
        ],
        dim,
    )
    starts = aten.logical_or.default(
        aten.ne.Tensor(values, previous), aten.eq.Scalar(positions, 0)
    )
    run_start = aten.where.self(starts, positions, aten.zeros_like.default(positions))
    run_start = aten.cummax.default(
        aten.expand.default(run_start, list(self.shape)), dim
    )[0]
    counts = aten.sub.Tensor(positions, run_start)
    best = aten.argmax.default(counts, dim, True)
    value = aten.gather.default(values, dim, best)
    index = aten.gather.default(indices, dim, best)
    if not keepdim:
        value, index = aten.squeeze.dims(value, [dim]), aten.squeeze.dims(index, [dim])
    return value, index


def _count_below(
    sequence: torch.Tensor, values: torch.Tensor, right: bool, out_int32: bool
) -> torch.Tensor:
    """For each value, how many elements of its row of the sorted
    `sequence` (last dim; the leading dims match the values', or sequence
    is 1-D) are < it (<= with `right`): the insertion index of a binary
    search, computed as a comparison count."""
    if sequence.dim() == 1:
        row = sequence
        expanded = aten.unsqueeze.default(values, -1)
    else:
        row = aten.unsqueeze.default(sequence, -2)  # [..., 1, m]
        expanded = aten.unsqueeze.default(values, -1)  # [..., k, 1]
    before = aten.le.Tensor(row, expanded) if right else aten.lt.Tensor(row, expanded)
    count = aten.sum.dim_IntList(before, [-1])
    return aten._to_copy.default(count, dtype=torch.int32 if out_int32 else torch.int64)


def _bucketize(
    self: torch.Tensor,
    boundaries: torch.Tensor,
    *,
    out_int32: bool = False,
    right: bool = False,
) -> torch.Tensor:
    """``aten.bucketize.Tensor``: the index of each value's bucket in the
    sorted 1-D `boundaries` (see _count_below)."""
    return _count_below(boundaries, self, right, out_int32)


def _searchsorted(
    sorted_sequence: torch.Tensor,
    self: torch.Tensor,
    *,
    out_int32: bool = False,
    right: bool = False,
    side: str | None = None,
    sorter: torch.Tensor | None = None,
) -> torch.Tensor:
    """``aten.searchsorted.Tensor``: insertion indices of `self` in the
    sorted last dim of `sorted_sequence` (sorted through `sorter` when
    given); ``side="right"`` or `right` for the right-most place."""
    if sorter is not None:
        sorted_sequence = aten.gather.default(sorted_sequence, -1, sorter)
    return _count_below(sorted_sequence, self, right or side == "right", out_int32)


def _nonzero_static(
    self: torch.Tensor, *, size: int, fill_value: int = -1
) -> torch.Tensor:
    """``aten.nonzero_static``: the coordinates [size, ndim] of the first
    `size` nonzero elements in row-major order, rows past their count
    filled with `fill_value`. Each nonzero element's rank (a cumulative sum
    of the mask) is its row; the others and those past `size` go to a
    spare row that is dropped."""
    flat = aten.ne.Scalar(aten.view.default(self, [-1]), 0)
    count = flat.shape[0]
    rank = aten.sub.Tensor(aten.cumsum.default(flat, 0), 1)
    keep = aten.logical_and.default(flat, aten.lt.Scalar(rank, size))
    row = aten.where.self(
        keep, rank, aten.scalar_tensor.default(size, dtype=torch.int64)
    )
    if self.dim() == 0:
        table = aten.full.default([size + 1, 0], fill_value, dtype=torch.int64)
        return aten.slice.Tensor(table, 0, 0, size)
    position = aten.arange.default(count)
    coordinates = []
    for extent in reversed(list(self.shape)):
        coordinates.append(aten.remainder.Scalar(position, extent))
        position = aten.floor_divide.default(position, extent)
    coordinates = aten.stack.default(list(reversed(coordinates)), 1)
    table = aten.full.default([size + 1, self.dim()], fill_value, dtype=torch.int64)
    table = aten.index_put.default(table, [row], coordinates)
    return aten.slice.Tensor(table, 0, 0, size)


def _index_reduce(
    self: torch.Tensor,
    dim: int,
    index: torch.Tensor,
    source: torch.Tensor,
    reduce: str,
    *,
    include_self: bool = True,
) -> torch.Tensor:
    """``aten.index_reduce``: ``scatter_reduce`` along `dim` with the 1-D
    `index` broadcast to `source`'s shape (the same reductions: prod, mean,
    amax, amin)."""
    if self.dim() == 0:
        return aten.scatter_reduce.two(
            self,
            0,
            aten.view.default(index, []),
            source,
            reduce,
            include_self=include_self,
        )
    dim = dim % self.dim()
    shape = [1] * source.dim()
    shape[dim] = -1
    expanded = aten.expand.default(aten.view.default(index, shape), list(source.shape))
    return aten.scatter_reduce.two(
        self, dim, expanded, source, reduce, include_self=include_self
    )


def _put(
    self: torch.Tensor,
    index: torch.Tensor,
    source: torch.Tensor,
    accumulate: bool = False,
) -> torch.Tensor:
    """``aten.put``: self viewed as 1-D, ``index_put`` of source (flattened)
    at index (flattened; negative counts from the end)."""
    flat = aten.view.default(aten.clone.default(self), [-1])
    index = aten.view.default(index, [-1])
    index = aten.where.self(
        aten.lt.Scalar(index, 0), aten.add.Tensor(index, flat.shape[0]), index
    )
    result = aten.index_put.default(
        flat, [index], aten.view.default(source, [-1]), accumulate
    )
    return aten.view.default(result, list(self.shape))


def _embedding_renorm(
    self: torch.Tensor, indices: torch.Tensor, max_norm: float, norm_type: float
) -> torch.Tensor:
    """``aten.embedding_renorm`` (the functional form of the in-place renorm
    ``F.embedding(..., max_norm=...)`` applies to the weight [num_rows, dim]
    before the lookup): each row of `self` that `indices` (any shape,
    integer) selects and whose `norm_type`-norm exceeds `max_norm` is scaled
    by ``max_norm / (norm + 1e-7)``, the others are left as they are.

    As PyTorch's CPU kernel (``embedding_renorm_cpu_``): the norm is taken in
    the weight's dtype, the scale computed in float64 and applied in the
    weight's dtype; a row selected twice is scaled once (both writes of
    ``index_put`` carry the same row, computed from the original weight).
    Only the selected rows are read, so the cost follows `indices`, not the
    vocabulary."""
    flat = aten.view.default(indices, [-1])
    rows = aten.index.Tensor(self, [flat])
    norms = aten.linalg_vector_norm.default(rows, norm_type, [1], True)
    wide = aten._to_copy.default(norms, dtype=torch.float64)
    scale = aten.div.Tensor(
        aten.full_like.default(wide, max_norm), aten.add.Tensor(wide, 1e-7)
    )
    scale = aten.where.self(
        aten.gt.Scalar(wide, max_norm), scale, aten.ones_like.default(wide)
    )
    scaled = aten.mul.Tensor(rows, aten._to_copy.default(scale, dtype=self.dtype))
    return aten.index_put.default(self, [flat], scaled)


def _copy_of(view: Callable[..., object]) -> Callable[..., object]:
    """The decomposition of an ``aten.X_copy`` op: ``aten.X`` then a clone
    of each result (a functional copy of the view)."""

    def decomposition(*args: object, **kwargs: object) -> object:
        result = view(*args, **kwargs)
        if isinstance(result, (list, tuple)):
            return [aten.clone.default(r) for r in result]
        return aten.clone.default(result)

    return decomposition


#: ``aten.X_copy`` ops and their views ``aten.X``.
def _lu_partial_pivoting(
    a: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """LU factorization with partial pivoting of the square matrices
    `a` [..., n, n] (float32 or float64), as LAPACK's ``getrf`` defines it:
    at step k the row of largest magnitude in column k (the first of equal
    ones) is swapped to row k, the column below is scaled by the pivot's
    reciprocal and the trailing block gets the rank-1 update. Returns the
    packed LU ([..., n, n]: L's multipliers below the diagonal, U on and
    above), the 1-based pivot rows (int32 [..., n]) and the number of rows
    actually swapped (int64 [...]). A zero pivot (a singular matrix) leaves
    its column unscaled, as ``getrf`` does. Unrolled over n: n steps of
    tensor ops, meant for the small matrices models hold."""
    n = a.shape[-1]
    rows = aten.arange.default(n, dtype=torch.int64)
    lu = a
    pivots = []
    swaps = aten.zeros.default(list(a.shape[:-2]), dtype=torch.int64)
    for k in range(n):
        column = aten.abs.default(aten.select.int(aten.slice.Tensor(lu, -2, k), -1, k))
        pivot_row = aten.add.Tensor(aten.argmax.default(column, -1), k)
        target = aten.unsqueeze.default(pivot_row, -1)
        permutation = aten.where.self(
            aten.eq.Scalar(rows, k),
            target,
            aten.where.ScalarSelf(aten.eq.Tensor(rows, target), k, rows),
        )
        lu = aten.gather.default(
            lu,
            -2,
            aten.expand.default(
                aten.unsqueeze.default(permutation, -1), list(lu.shape)
            ),
        )
        pivots.append(aten.add.Tensor(pivot_row, 1))
        swaps = aten.add.Tensor(swaps, aten.ne.Scalar(pivot_row, k))
        if k == n - 1:
            break
        pivot = aten.select.int(aten.select.int(lu, -2, k), -1, k)
        safe = aten.where.ScalarSelf(aten.eq.Scalar(pivot, 0), 1.0, pivot)
        below = aten.select.int(aten.slice.Tensor(lu, -2, k + 1), -1, k)
        multipliers = aten.mul.Tensor(
            below, aten.unsqueeze.default(aten.reciprocal.default(safe), -1)
        )
        pivot_rest = aten.slice.Tensor(aten.slice.Tensor(lu, -2, k, k + 1), -1, k + 1)
        trailing = aten.sub.Tensor(
            aten.slice.Tensor(aten.slice.Tensor(lu, -2, k + 1), -1, k + 1),
            aten.mul.Tensor(aten.unsqueeze.default(multipliers, -1), pivot_rest),
        )
        lower = aten.cat.default(
            [
                aten.slice.Tensor(aten.slice.Tensor(lu, -2, k + 1), -1, 0, k),
                aten.unsqueeze.default(multipliers, -1),
                trailing,
            ],
            -1,
        )
        lu = aten.cat.default([aten.slice.Tensor(lu, -2, 0, k + 1), lower], -2)
    shape = list(a.shape[:-1])
    pivot_rows = (
        aten.stack.default(pivots, -1)
        if pivots
        else aten.zeros.default(shape, dtype=torch.int64)
    )
    return lu, aten._to_copy.default(pivot_rows, dtype=torch.int32), swaps


def _permutation_sign(swaps: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """-1 where an odd number of rows were swapped, else 1 (of `dtype`)."""
    odd = aten.eq.Scalar(aten.remainder.Scalar(swaps, 2), 1)
    one = aten.ones_like.default(swaps, dtype=dtype)
    return aten.where.self(odd, aten.neg.default(one), one)


def _linalg_det(a: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``aten._linalg_det``: the determinant of each matrix of `a`
    [..., n, n] as PyTorch computes it, the product of U's diagonal times
    the sign of the row permutation, plus the LU factorization and pivots
    (``torch.linalg.det``; `_lu_partial_pivoting`). Like PyTorch, which hands
    the row-major matrix to column-major LAPACK, this factors the transpose
    ``a.mT``: the LU and pivots are those of ``a.mT`` (equal to eager's
    bit for bit on the tested sizes). The determinant of a 0 x 0 matrix is
    1."""
    lu, pivots, swaps = _lu_partial_pivoting(aten.transpose.int(a, -2, -1))
    diagonal = aten.diagonal.default(lu, 0, -2, -1)
    det = aten.mul.Tensor(
        aten.prod.dim_int(diagonal, -1), _permutation_sign(swaps, a.dtype)
    )
    return det, lu, pivots


def _linalg_slogdet(
    a: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """``aten._linalg_slogdet``: the sign and the log of the absolute value
    of each determinant of `a` [..., n, n] (``torch.linalg.slogdet``): the
    signs of U's diagonal and of the permutation multiplied, the logs of
    |U's diagonal| summed; a singular matrix has sign 0 and -inf. Also the
    LU factorization and pivots of ``a.mT``, as `_linalg_det`. A complex
    `a` has a complex sign (``sgn``: the unit-modulus phase)."""
    lu, pivots, swaps = _lu_partial_pivoting(aten.transpose.int(a, -2, -1))
    diagonal = aten.diagonal.default(lu, 0, -2, -1)
    unit = aten.sgn.default if a.is_complex() else aten.sign.default
    sign = aten.mul.Tensor(
        aten.prod.dim_int(unit(diagonal), -1),
        _permutation_sign(swaps, a.dtype),
    )
    logabsdet = aten.sum.dim_IntList(aten.log.default(aten.abs.default(diagonal)), [-1])
    return sign, logabsdet, lu, pivots


def _threshold_backward(
    grad_output: torch.Tensor, self: torch.Tensor, threshold: float
) -> torch.Tensor:
    """``aten.threshold_backward``: `grad_output` where `self` > `threshold`,
    else 0, of the dtype both promote to (PyTorch's CPU kernel is a
    TensorIterator over both: an int64 gradient of a float32 input gives
    float32; ``torch._decomp``'s version keeps the gradient's dtype)."""
    dtype = torch.promote_types(grad_output.dtype, self.dtype)
    grad = aten._to_copy.default(grad_output, dtype=dtype)
    return aten.where.ScalarSelf(aten.le.Scalar(self, threshold), 0, grad)


_VIEW_COPIES = {
    aten.view_copy.default: aten.view.default,
    aten.view_copy.dtype: aten.view.dtype,
    aten.permute_copy.default: aten.permute.default,
    aten.narrow_copy.default: aten.narrow.default,
    aten.unbind_copy.int: aten.unbind.int,
    aten.as_strided_copy.default: aten.as_strided.default,
}


#: Ops that survive the Core ATen table and that PyTorch's own
#: decompositions (``torch._decomp``) turn into ops torch2mlir lowers.
PYTORCH_DECOMPOSED = [
    aten.linalg_vector_norm,
    aten.unfold,
    aten.tril_indices,
    aten.triu_indices,
    aten.cumprod,
    aten.exponential,
    aten.geometric,
    aten.cauchy,
    aten.log_normal,
]

#: The decompositions ``decompositions="core-aten"`` adds to PyTorch's Core
#: ATen table.
EXTRA_CORE_ATEN_DECOMPOSITIONS: dict[torch._ops.OperatorBase, Callable[..., Any]] = {
    **get_decompositions(PYTORCH_DECOMPOSED),
    **DATA_DEPENDENT_DECOMPOSITIONS,
    **QUANTIZED_DECOMPOSITIONS,
    **COMPLEX_DECOMPOSITIONS,
    **FLOAT8_DECOMPOSITIONS,
    aten.split_with_sizes.default: _split_with_sizes,
    aten.rand_like.default: _rand_like,
    aten.randn_like.default: _randn_like,
    aten.randint.default: _randint,
    aten.randint.low: _randint_low,
    aten.randint_like.default: _randint_like,
    aten.randint_like.low_dtype: _randint_like_low,
    aten.addbmm.default: _addbmm,
    aten.conv_tbc.default: _conv_tbc,
    aten.kthvalue.default: _kthvalue,
    aten.histc.default: _histc,
    aten._trilinear.default: _trilinear,
    aten.rrelu_with_noise_functional.default: _rrelu_with_noise_functional,
    aten.var_mean.correction: _var_mean_correction,
    aten.upsample_linear1d.vec: _upsample_linear_weighted,
    aten.upsample_trilinear3d.vec: _upsample_linear_weighted,
    aten.upsample_linear1d.default: _upsample_linear_sizes,
    aten.upsample_trilinear3d.default: _upsample_linear_sizes,
    aten.exp2.default: _exp2,
    aten.fmax.default: _fmax,
    aten.fmin.default: _fmin,
    aten.signbit.default: _signbit,
    aten.normal.Tensor_float: _normal_tensor_float,
    aten.normal.float_Tensor: _normal_float_tensor,
    aten.normal.Tensor_Tensor: _normal_tensor_tensor,
    aten.normal.float_float: _normal_float_float,
    aten.normal_functional.default: _normal_functional,
    aten.uniform.default: _uniform,
    aten.multinomial.default: _multinomial,
    aten.logcumsumexp.default: _logcumsumexp,
    aten.adaptive_max_pool2d.default: _adaptive_max_pool,
    aten.adaptive_max_pool3d.default: _adaptive_max_pool,
    aten.logit.default: _logit,
    aten.erfc.default: _erfc,
    aten.copysign.Tensor: _copysign,
    aten.copysign.Scalar: _copysign_scalar,
    aten.ldexp.Tensor: _ldexp,
    aten.hypot.default: _hypot,
    aten.angle.default: _angle,
    aten.addmv.default: _addmv,
    aten.dist.default: _dist,
    aten.cummax.default: _cummax,
    aten.cummin.default: _cummin,
    aten.median.default: _median,
    aten.median.dim: _median_dim,
    aten.nanmedian.default: _nanmedian,
    aten.nanmedian.dim: _nanmedian_dim,
    aten.mode.default: _mode,
    aten.bucketize.Tensor: _bucketize,
    aten.searchsorted.Tensor: _searchsorted,
    aten.nonzero_static.default: _nonzero_static,
    aten.index_reduce.default: _index_reduce,
    aten.put.default: _put,
    aten.embedding_renorm.default: _embedding_renorm,
    **{copy: _copy_of(view) for copy, view in _VIEW_COPIES.items()},
    aten.upsample_bicubic2d.vec: _upsample_bicubic2d,
    aten._batch_norm_with_update_functional.default: _batch_norm_with_update_functional,
    **SPECIAL_DECOMPOSITIONS,
    **BITS_DECOMPOSITIONS,
    **BACKWARD_DECOMPOSITIONS,
    aten._linalg_det.default: _linalg_det,
    aten.threshold_backward.default: _threshold_backward,
    aten._linalg_slogdet.default: _linalg_slogdet,
    prims.sum.default: _prims_sum,
    prims.prod.default: _prims_prod,
    prims.convert_element_type.default: _prims_convert_element_type,
    prims.iota.default: _prims_iota,
    prims.collapse.default: _prims_collapse,
}
