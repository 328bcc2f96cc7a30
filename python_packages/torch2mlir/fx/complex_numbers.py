"""Complex numbers before import: PyTorch's FFT ops (``aten._fft_r2c``,
``_fft_c2r``, ``_fft_c2c``) as real matmuls, the complex ops that have no
lowering of their own (``polar``; ``angle``, ``sgn``, ``var`` and ``addmm``
of complex tensors), and Python complex scalars (the torch dialect has none:
they become 0-d complex tensors). Complex tensors themselves lower in
``TorchToLinalg/Complex.cpp``.

A transform along one dim works on the real and imaginary parts as two real
tensors (``view_as_real`` of a complex input, ``complex`` of the result):

- a size ``n <= DIRECT_DFT_MAX_SIZE``, or one below
  :data:`BLUESTEIN_MIN_SIZE` without a factor of at least
  :data:`MIN_FACTOR`, is a direct DFT: four real matmuls against the
  ``cos``/``sin`` coefficient matrix (O(n^2) per row, on the GEMM);
- a larger composite size is split ``n = n1 * n2`` (Cooley-Tukey, the
  "four-step" form): ``n2`` DFTs of size ``n1`` as one matmul, a twiddle
  multiply, then ``n1`` DFTs of size ``n2`` (recursively split), O(n (n1 +
  n2 + ...)) per row;
- a larger size without a split (a prime, twice a prime) is Bluestein's
  chirp-z convolution, by split DFTs of a power of two.

The coefficients are computed in the program, in float64 from exact integer
phases ``(j * k) mod n`` (so ``cos(2 pi r / n)`` is rounded once, whatever
``n``), and cast to the transform's dtype. Multi-dim transforms are 1-D
transforms one dim after another; the ``normalization`` argument follows
ATen's ``fft_norm_mode`` (0: none, 1: ``1/sqrt(n)``, 2: ``1/n``, ``n`` the
product of the signal sizes), as ``torch.fft``'s ``norm`` maps onto it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import torch

aten = torch.ops.aten

#: Largest size transformed by one direct DFT matmul (above it a composite
#: size is split, see the module docstring).
DIRECT_DFT_MAX_SIZE = 64

#: The smallest factor worth a split: a size whose factors are all smaller
#: (a prime, or twice a prime) keeps the direct DFT up to
#: :data:`BLUESTEIN_MIN_SIZE`, and takes Bluestein's algorithm from there.
MIN_FACTOR = 4

#: From this size on, a size without a split is a convolution (Bluestein's
#: chirp-z algorithm) computed by split DFTs of a power of two >= 2n - 1:
#: O(n log n) work and O(n) coefficients instead of the direct DFT's n x n
#: matrix.
BLUESTEIN_MIN_SIZE = 256


def _coefficients(
    rows: int, cols: int, n: int, dtype: torch.dtype, start: int = 0
) -> tuple[torch.Tensor, torch.Tensor]:
    """``cos`` and ``sin`` of ``2 pi ((j * k) mod n) / n`` for ``j`` in
    ``[0, rows)`` and ``k`` in ``[start, start + cols)``: two
    ``[rows, cols]`` tensors of ``dtype``."""
    j = torch.arange(rows, dtype=torch.int64)
    k = torch.arange(start, start + cols, dtype=torch.int64)
    phase = torch.remainder(j.unsqueeze(1) * k.unsqueeze(0), n)
    angle = phase.to(torch.float64) * (2.0 * math.pi / n)
    return torch.cos(angle).to(dtype), torch.sin(angle).to(dtype)


def _split(n: int) -> int:
    """The factor ``n1`` of a Cooley-Tukey split of ``n`` (the largest
    divisor up to ``sqrt(n)``), or 0 for a direct DFT."""
    if n <= DIRECT_DFT_MAX_SIZE:
        return 0
    for n1 in range(math.isqrt(n), MIN_FACTOR - 1, -1):
        if n % n1 == 0:
            return n1
    return 0


def _chirp(
    n: int, dtype: torch.dtype, sign: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """``exp(sign i pi m^2 / n)`` for ``m`` in ``[0, n)``, from the exact
    phase ``m^2 mod 2n``: its real and imaginary parts."""
    m = torch.arange(n, dtype=torch.int64)
    angle = torch.remainder(m * m, 2 * n).to(torch.float64) * (math.pi / n)
    return torch.cos(angle).to(dtype), (sign * torch.sin(angle)).to(dtype)


def _bluestein(
    re: torch.Tensor, im: torch.Tensor | None, inverse: bool
) -> tuple[torch.Tensor, torch.Tensor]:
    """The DFT of :func:`_dft_last` by Bluestein's chirp-z algorithm: with
    ``j k = (j^2 + k^2 - (k - j)^2) / 2``, ``X[k] = c[k] sum_j (x[j] c[j])
    conj(c[k - j])`` for the chirp ``c[m] = exp(-+i pi m^2 / n)``: a linear
    convolution, computed as a circular one of a power-of-two size ``>= 2n
    - 1`` by split DFTs."""
    n = re.shape[-1]
    size = 1 << (2 * n - 2).bit_length()
    sign = 1.0 if inverse else -1.0
    cos, sin = _chirp(n, re.dtype, sign)
    a_re = re * cos if im is None else re * cos - im * sin
    a_im = re * sin if im is None else re * sin + im * cos
    pad = [0, size - n]
    a_re = torch.nn.functional.pad(a_re, pad)
    a_im = torch.nn.functional.pad(a_im, pad)
    # conj(c[m]) at m = 0 .. n - 1 and at m = -(n - 1) .. -1 (position size + m).
    gap = torch.zeros(size - 2 * n + 1, dtype=re.dtype)
    b_re = torch.cat([cos, gap, cos[1:].flip(0)])
    b_im = torch.cat([-sin, gap, -sin[1:].flip(0)])
    fa_re, fa_im = _dft_last(a_re, a_im, False)
    fb_re, fb_im = _dft_last(b_re, b_im, False)
    prod_re = fa_re * fb_re - fa_im * fb_im
    prod_im = fa_re * fb_im + fa_im * fb_re
    c_re, c_im = _dft_last(prod_re, prod_im, True)
    c_re, c_im = c_re[..., :n] / size, c_im[..., :n] / size
    return c_re * cos - c_im * sin, c_re * sin + c_im * cos


def _dft_last(
    re: torch.Tensor, im: torch.Tensor | None, inverse: bool
) -> tuple[torch.Tensor, torch.Tensor]:
    """The unnormalized DFT of ``re + i im`` (``im`` None: a real input)
    along the last dim, of its own size ``n``: ``X[k] = sum_j x[j]
    exp(-+2 pi i j k / n)`` (the sign ``+`` when `inverse`)."""
    n = re.shape[-1]
    n1 = _split(n)
    if n1 == 0 and n >= BLUESTEIN_MIN_SIZE:
        return _bluestein(re, im, inverse)
    if n1 == 0:
        cos, sin = _coefficients(n, n, n, re.dtype)
        if inverse:
            sin = -sin
        # (re + i im)(cos - i sin) = (re cos + im sin) + i (im cos - re sin)
        out_re = re @ cos
        out_im = -(re @ sin)
        if im is not None:
            out_re = out_re + im @ sin
            out_im = out_im + im @ cos
        return out_re, out_im
    n2 = n // n1
    batch = re.shape[:-1]

    def columns(x: torch.Tensor) -> torch.Tensor:
        # x[n2 * j1 + j2] as [..., j2, j1]
        return x.reshape(*batch, n1, n2).transpose(-1, -2)

    # n2 DFTs of size n1 over j1: [..., j2, k1].
    step_re, step_im = _dft_last(
        columns(re), None if im is None else columns(im), inverse
    )
    # Twiddles exp(-+2 pi i j2 k1 / n).
    cos, sin = _coefficients(n2, n1, n, re.dtype)
    if inverse:
        sin = -sin
    tw_re = step_re * cos + step_im * sin
    tw_im = step_im * cos - step_re * sin
    # n1 DFTs of size n2 over j2: [..., k1, k2]; X[k1 + n1 * k2].
    out_re, out_im = _dft_last(
        tw_re.transpose(-1, -2).contiguous(),
        tw_im.transpose(-1, -2).contiguous(),
        inverse,
    )
    return (
        out_re.transpose(-1, -2).reshape(*batch, n),
        out_im.transpose(-1, -2).reshape(*batch, n),
    )


def _along(
    dim: int,
    re: torch.Tensor,
    im: torch.Tensor | None,
    transform: Callable[
        [torch.Tensor, torch.Tensor | None], tuple[torch.Tensor, torch.Tensor]
    ],
) -> tuple[torch.Tensor, torch.Tensor]:
    """`transform` (of the last dim) applied along `dim`."""
    re = re.movedim(dim, -1)
    im = None if im is None else im.movedim(dim, -1)
    out_re, out_im = transform(re, im)
    return out_re.movedim(-1, dim), out_im.movedim(-1, dim)


def _parts(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    pairs = torch.view_as_real(x)
    return pairs[..., 0], pairs[..., 1]


def _normalize(
    re: torch.Tensor, im: torch.Tensor | None, normalization: int, size: int
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Scales by ATen's ``fft_norm_mode``: 0 none, 1 ``1/sqrt(size)``, 2
    ``1/size``."""
    if normalization == 0 or size == 0:
        return re, im
    scale = 1.0 / math.sqrt(size) if normalization == 1 else 1.0 / size
    return re * scale, None if im is None else im * scale


def _dims(x: torch.Tensor, dim: Sequence[int]) -> list[int]:
    return [d % x.dim() for d in dim]


def _fft_c2c(
    self: torch.Tensor, dim: Sequence[int], normalization: int, forward: bool
) -> torch.Tensor:
    """``aten._fft_c2c``: the complex DFT over `dim` (inverse unless
    `forward`)."""
    re, im = _parts(self)
    dims = _dims(self, dim)
    for d in dims:
        re, im = _along(d, re, im, lambda r, i: _dft_last(r, i, not forward))
    size = math.prod(self.shape[d] for d in dims)
    re, im_scaled = _normalize(re, im, normalization, size)
    assert im_scaled is not None
    return torch.complex(re, im_scaled)


def _fft_r2c(
    self: torch.Tensor, dim: Sequence[int], normalization: int, onesided: bool
) -> torch.Tensor:
    """``aten._fft_r2c``: the forward DFT of a real tensor over `dim`; with
    `onesided`, only the ``n // 2 + 1`` non-redundant outputs of the last
    dim of `dim` (the others are their conjugates)."""
    dims = _dims(self, dim)
    last = dims[-1]
    n = self.shape[last]

    def half(
        r: torch.Tensor, i: torch.Tensor | None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        out_re, out_im = _dft_last(r, i, False)
        if onesided:
            out_re, out_im = out_re[..., : n // 2 + 1], out_im[..., : n // 2 + 1]
        return out_re, out_im

    re, im = _along(last, self, None, half)
    for d in dims[:-1]:
        re, im = _along(d, re, im, lambda r, i: _dft_last(r, i, False))
    size = math.prod(self.shape[d] for d in dims)
    re, im_scaled = _normalize(re, im, normalization, size)
    assert im_scaled is not None
    return torch.complex(re, im_scaled)


def _c2r_last(re: torch.Tensor, im: torch.Tensor, n: int) -> torch.Tensor:
    """The real inverse DFT of size `n` along the last dim from its
    ``n // 2 + 1`` non-redundant (Hermitian) coefficients: ``y[t] = sum_k
    w_k (re[k] cos(2 pi k t / n) - im[k] sin(2 pi k t / n))`` with ``w_k =
    1`` for ``k = 0`` and ``k = n / 2``, 2 otherwise (the conjugate half).
    As in PyTorch, the imaginary parts of those two terms do not count."""
    h = n // 2 + 1
    re, im = re[..., :h], im[..., :h]
    if _split(n) == 0 and n < BLUESTEIN_MIN_SIZE:
        cos, sin = _coefficients(h, n, n, re.dtype)
        k = torch.arange(h, dtype=torch.int64).unsqueeze(1)
        single = (k == 0) | (2 * k == n)
        weight = torch.where(single, 1.0, 2.0).to(re.dtype)
        return re @ (cos * weight) - im @ (sin * weight)
    # Larger sizes: rebuild the conjugate half and take the complex inverse
    # DFT's real part (split, or Bluestein's).
    tail = slice(1, h - 1) if n % 2 == 0 else slice(1, h)
    full_re = torch.cat([re, re[..., tail].flip(-1)], -1)
    full_im = torch.cat([im, -im[..., tail].flip(-1)], -1)
    # Imaginary parts of the terms k = 0 and k = n / 2 do not count.
    k = torch.arange(n, dtype=torch.int64)
    keep = torch.where((k == 0) | (2 * k == n), 0.0, 1.0).to(re.dtype)
    out_re, _ = _dft_last(full_re, full_im * keep, True)
    return out_re


def _fft_c2r(
    self: torch.Tensor, dim: Sequence[int], normalization: int, last_dim_size: int
) -> torch.Tensor:
    """``aten._fft_c2r``: the inverse of a onesided ``_fft_r2c`` over `dim`,
    whose last dim has `last_dim_size` real outputs."""
    dims = _dims(self, dim)
    re, im = _parts(self)
    for d in dims[:-1]:
        re, im = _along(d, re, im, lambda r, i: _dft_last(r, i, True))
    last = dims[-1]
    out = _c2r_last(re.movedim(last, -1), im.movedim(last, -1), last_dim_size)
    out = out.movedim(-1, last)
    size = math.prod(self.shape[d] for d in dims[:-1]) * last_dim_size
    scaled, _ = _normalize(out, None, normalization, size)
    return scaled


def _polar(abs: torch.Tensor, angle: torch.Tensor) -> torch.Tensor:
    """``aten.polar``: ``abs * (cos(angle) + i sin(angle))``."""
    return torch.complex(abs * torch.cos(angle), abs * torch.sin(angle))


def complex_angle(self: torch.Tensor) -> torch.Tensor:
    """``aten.angle`` of a complex tensor: ``atan2(imag, real)``."""
    re, im = _parts(self)
    return torch.atan2(im, re)


def _sgn(self: torch.Tensor) -> torch.Tensor:
    """``aten.sgn``: ``z / |z|`` for complex ``z`` (0 where ``z`` is 0),
    ``sign`` for real tensors."""
    if not self.is_complex():
        return torch.sign(self)
    magnitude = torch.abs(self)
    # Where |z| is 0 so are both parts: dividing them by 1 gives 0.
    safe = torch.where(magnitude == 0, torch.ones_like(magnitude), magnitude)
    return self / safe


def _part_dtype(dtype: torch.dtype | None) -> torch.dtype:
    """The float dtype of a complex dtype's parts (complex64 for None, the
    default complex dtype)."""
    return torch.float64 if dtype == torch.complex128 else torch.float32


def _complex_scalar_tensor(value: complex, dtype: torch.dtype | None) -> torch.Tensor:
    """A 0-d complex tensor of `value` (the torch dialect has no complex
    scalars: it is assembled from its parts)."""
    part = _part_dtype(dtype or torch.complex128)
    return torch.complex(
        aten.scalar_tensor.default(value.real, dtype=part),
        aten.scalar_tensor.default(value.imag, dtype=part),
    )


def _scalar_tensor(s: Any, **kwargs: Any) -> Any:
    """``aten.scalar_tensor`` of a Python complex (others: unchanged)."""
    if not isinstance(s, complex):
        return NotImplemented
    return _complex_scalar_tensor(s, kwargs.get("dtype"))


def _full(size: Sequence[int], fill_value: Any, **kwargs: Any) -> Any:
    """``aten.full`` with a Python complex fill value."""
    if not isinstance(fill_value, complex):
        return NotImplemented
    dtype = kwargs.get("dtype") or torch.complex64
    value = _complex_scalar_tensor(fill_value, dtype)
    return torch.zeros(size, dtype=dtype) + value


def _full_like(self: torch.Tensor, fill_value: Any, **kwargs: Any) -> Any:
    """``aten.full_like`` with a Python complex fill value."""
    if not isinstance(fill_value, complex):
        return NotImplemented
    dtype = kwargs.get("dtype") or self.dtype
    return torch.zeros(self.shape, dtype=dtype) + _complex_scalar_tensor(
        fill_value, dtype
    )


def _with_complex_scalar(tensor_op: Any) -> Callable[..., Any]:
    """``aten.<op>.Scalar(self, other)`` with a Python complex `other` as
    ``aten.<op>.Tensor`` of a 0-d complex tensor (same promotion: a 0-d
    tensor and a Python scalar of one category do not widen `self`)."""

    def decomposition(self: torch.Tensor, other: Any) -> Any:
        if not isinstance(other, complex):
            return NotImplemented
        dtype = self.dtype if self.is_complex() else torch.complex64
        return tensor_op(self, _complex_scalar_tensor(other, dtype))

    return decomposition


def _var_correction(
    self: torch.Tensor,
    dim: Sequence[int] | None = None,
    *,
    correction: float | None = None,
    keepdim: bool = False,
) -> Any:
    """``aten.var.correction`` of a complex tensor: the variances of its
    parts added (``E|z - E z|^2``), real."""
    if not self.is_complex():
        return NotImplemented
    re, im = _parts(self)
    return aten.var.correction(
        re, dim, correction=correction, keepdim=keepdim
    ) + aten.var.correction(im, dim, correction=correction, keepdim=keepdim)


def _addmm(
    self: torch.Tensor,
    mat1: torch.Tensor,
    mat2: torch.Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
) -> Any:
    """``aten.addmm`` with complex operands: ``beta * self + alpha * (mat1 @
    mat2)`` (beta 0 ignores `self`, NaN included, as PyTorch)."""
    if not mat1.is_complex():
        return NotImplemented
    product = aten.mm.default(mat1, mat2)
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return product + (self if beta == 1 else self * beta)


def _conj_physical(self: torch.Tensor) -> torch.Tensor:
    """``aten._conj_physical``: the conjugate, materialized (the real part
    and the negated imaginary part); a real tensor's copy."""
    if not self.is_complex():
        return aten.clone.default(self)
    re, im = _parts(self)
    return torch.complex(re, -im)


COMPLEX_DECOMPOSITIONS: dict[Any, Callable[..., Any]] = {
    aten._conj_physical.default: _conj_physical,
    aten.var.correction: _var_correction,
    aten.addmm.default: _addmm,
    aten.scalar_tensor.default: _scalar_tensor,
    aten.full.default: _full,
    aten.full_like.default: _full_like,
    aten.mul.Scalar: _with_complex_scalar(aten.mul.Tensor),
    aten.add.Scalar: _with_complex_scalar(aten.add.Tensor),
    aten.sub.Scalar: _with_complex_scalar(aten.sub.Tensor),
    aten.div.Scalar: _with_complex_scalar(aten.div.Tensor),
    aten._fft_c2c.default: _fft_c2c,
    aten._fft_r2c.default: _fft_r2c,
    aten._fft_c2r.default: _fft_c2r,
    aten.polar.default: _polar,
    aten.sgn.default: _sgn,
}
