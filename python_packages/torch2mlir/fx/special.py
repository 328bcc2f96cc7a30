"""Decompositions of special functions: the gamma family (``lgamma``,
``digamma``, ``polygamma``, ``special.zeta``: Hurwitz's zeta), the scaled
complementary error function ``special.erfcx``, ``erfinv`` and the modified Bessel
functions of the first kind (``i0``, ``special.i0e``/``i1``/``i1e``,
``special.modified_bessel_i0``/``i1``).

PyTorch computes them with the Cephes library's algorithms in the input's
own dtype. Here each is computed in float64 and rounded once to the result
dtype, so a float32 result is within half an ulp of the float64 value (the
OpInfo tolerances compare it with eager's few-ulp kernel). The methods are
textbook ones, written here:

- ``lgamma``: the recurrence ``lgamma(z) = lgamma(z + 8) - log|z (z+1) ...
  (z+7)|`` brings z to at least 8, where Stirling's series (Bernoulli
  numbers up to B14) is accurate to float64; negative arguments use the
  reflection formula ``lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x)``.
- ``digamma``: the same shift (``psi(z) = psi(z + 8) - sum 1/(z+i)``), the
  asymptotic series of psi, and the reflection ``psi(x) = psi(1 - x) -
  pi / tan(pi x)``.
- ``erfcx``: from erf below 3, Laplace's continued fraction above;
- ``erfinv``: Winitzki's approximation refined by Newton's method (on erfc
  in the tails);
- ``I_0``, ``I_1``: the power series below 30, the asymptotic expansion
  above (each exp(-|x|)-scaled for ``i0e``/``i1e`` without overflow);
- ``zeta(x, q)``: the Euler-Maclaurin formula: 24 terms of the sum, then the
  integral, the endpoint term and seven Bernoulli corrections at
  ``q + 24``; ``polygamma(n, x)`` for n >= 1 is ``(-1)**(n+1) n! zeta(n+1, x)``.

Edge values follow PyTorch's kernels (``aten/src/ATen/native/Math.h``):
poles give +-inf or NaN as there, integer and bool inputs give float32.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch

aten = torch.ops.aten

__all__ = ["SPECIAL_DECOMPOSITIONS", "result_float_dtype"]

#: How far the recurrences shift an argument before the asymptotic series.
_SHIFT = 8
#: Terms of zeta's sum before the Euler-Maclaurin tail (enough for q > -15).
_ZETA_TERMS = 24
#: B_2j / (2j)! for j = 1..7 (Bernoulli numbers B2 = 1/6 ... B14 = 7/6).
_BERNOULLI_OVER_FACTORIAL = (
    1 / 12,
    -1 / 720,
    1 / 30240,
    -1 / 1209600,
    1 / 47900160,
    -691 / 1307674368000,
    1 / 74724249600,
)


def result_float_dtype(*tensors: torch.Tensor) -> torch.dtype:
    """The floating dtype of the result: the promoted dtype of the inputs,
    float32 (the default dtype) when that is an integer or bool."""
    dtype = tensors[0].dtype
    for tensor in tensors[1:]:
        dtype = torch.promote_types(dtype, tensor.dtype)
    return dtype if dtype.is_floating_point else torch.get_default_dtype()


def _reduced(x: torch.Tensor) -> torch.Tensor:
    """x minus its nearest integer, in [-1/2, 1/2]: sin(pi x) and tan(pi x)
    of it are exact zeros at the integers, up to sign."""
    return x - torch.round(x)


def _lgamma_at_least_zero(z: torch.Tensor) -> torch.Tensor:
    """lgamma of float64 `z` >= 0 (+-0 gives +inf)."""
    small = z < _SHIFT
    product = z
    for i in range(1, _SHIFT):
        product = product * (z + i)
    shifted = torch.where(small, z + _SHIFT, z)
    correction = torch.where(small, torch.log(torch.abs(product)), 0.0)
    inverse = 1.0 / shifted
    inverse2 = inverse * inverse
    # sum_j B_2j / (2j (2j - 1) z^(2j - 1)), Horner in 1 / z^2.
    series: torch.Tensor | float = 0.0
    for j in range(len(_BERNOULLI_OVER_FACTORIAL), 0, -1):
        coefficient = (
            _BERNOULLI_OVER_FACTORIAL[j - 1]
            * math.factorial(2 * j)
            / (2 * j * (2 * j - 1))
        )
        series = series * inverse2 + coefficient
    stirling = (
        (shifted - 0.5) * torch.log(shifted)
        - shifted
        + 0.5 * math.log(2 * math.pi)
        + series * inverse
    )
    return stirling - correction


def _lgamma64(x: torch.Tensor) -> torch.Tensor:
    """lgamma of float64 `x`: +inf at 0, the negative integers and +-inf."""
    negative = x < 0
    positive = _lgamma_at_least_zero(torch.where(negative, 1.0 - x, x))
    reflected = (
        math.log(math.pi)
        - torch.log(torch.abs(torch.sin(math.pi * _reduced(x))))
        - positive
    )
    result = torch.where(negative, reflected, positive)
    return torch.where(torch.isinf(x), math.inf, result)


def _digamma_at_least_zero(z: torch.Tensor) -> torch.Tensor:
    """psi of float64 `z` >= 0 (psi(+0) = -inf, psi(-0) = +inf)."""
    small = z < _SHIFT
    reciprocals = 1.0 / z
    for i in range(1, _SHIFT):
        reciprocals = reciprocals + 1.0 / (z + i)
    shifted = torch.where(small, z + _SHIFT, z)
    inverse2 = 1.0 / (shifted * shifted)
    # sum_j B_2j / (2j z^(2j)), Horner in 1 / z^2.
    series: torch.Tensor | float = 0.0
    for j in range(len(_BERNOULLI_OVER_FACTORIAL), 0, -1):
        coefficient = _BERNOULLI_OVER_FACTORIAL[j - 1] * math.factorial(2 * j) / (2 * j)
        series = series * inverse2 + coefficient
    asymptotic = torch.log(shifted) - 0.5 / shifted - series * inverse2
    return asymptotic - torch.where(small, reciprocals, 0.0)


def _digamma64(x: torch.Tensor) -> torch.Tensor:
    """psi of float64 `x`: NaN at the negative integers and -inf."""
    negative = x < 0
    positive = _digamma_at_least_zero(torch.where(negative, 1.0 - x, x))
    reflected = positive - math.pi / torch.tan(math.pi * _reduced(x))
    result = torch.where(negative, reflected, positive)
    return torch.where(negative & (x == torch.floor(x)), math.nan, result)


def _zeta64(x: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    """Hurwitz's zeta(x, q) = sum_k (q + k)^-x of float64 tensors (broadcast),
    with Cephes' edge values: +inf at x = 1 and at integer q <= 0, NaN for
    x < 1, for non-integer q < 0 with non-integer x, and for q = +inf."""
    total = torch.zeros_like(x + q)
    for k in range(_ZETA_TERMS):
        total = total + torch.pow(q + k, -x)
    w = q + _ZETA_TERMS
    last = torch.pow(w, -x)
    total = total + w * last / (x - 1.0) + 0.5 * last
    # sum_j B_2j/(2j)! x (x+1) ... (x+2j-2) w^(-x-2j+1)
    rising = x
    power = last / w
    for j, coefficient in enumerate(_BERNOULLI_OVER_FACTORIAL):
        if j:
            rising = rising * (x + 2 * j - 1) * (x + 2 * j)
            power = power / (w * w)
        total = total + coefficient * rising * power
    integer_q = q == torch.floor(q)
    result = torch.where((q <= 0) & integer_q, math.inf, total)
    nan = (x < 1) | ((q < 0) & ~integer_q & (x != torch.floor(x))) | torch.isposinf(q)
    result = torch.where(nan, math.nan, result)
    return torch.where(x == 1, math.inf, result)


def _zeta(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.special_zeta`` (Tensor, Tensor): Hurwitz's zeta(self, other)."""
    dtype = result_float_dtype(self, other)
    return _zeta64(self.to(torch.float64), other.to(torch.float64)).to(dtype)


def _zeta_self_scalar(self: torch.Tensor, other: float) -> torch.Tensor:
    """``aten.special_zeta.self_scalar``: zeta(self, q) for a number q."""
    return _zeta(self, torch.scalar_tensor(other, dtype=torch.float64))


def _zeta_other_scalar(self: float, other: torch.Tensor) -> torch.Tensor:
    """``aten.special_zeta.other_scalar``: zeta(x, other) for a number x."""
    return _zeta(torch.scalar_tensor(self, dtype=torch.float64), other)


def _polygamma(n: int, self: torch.Tensor) -> torch.Tensor:
    """``aten.polygamma``: the n-th derivative of digamma; n = 0 is digamma,
    n >= 1 is ``(-1)**(n+1) n! zeta(n + 1, x)`` (PyTorch raises for n < 0)."""
    if n < 0:
        raise ValueError(f"polygamma(n, x) does not support negative n (n = {n})")
    x = self.to(torch.float64)
    if n == 0:
        result = _digamma64(x)
    else:
        sign = 1.0 if n % 2 else -1.0
        result = sign * math.factorial(n) * _zeta64(torch.full_like(x, n + 1.0), x)
        if n == 1:
            # PyTorch's trigamma (not zeta) gives 0 at +inf.
            result = torch.where(torch.isposinf(x), 0.0, result)
    return result.to(result_float_dtype(self))


#: Terms of erfcx's continued fraction (x >= _ERFCX_FRACTION_FROM).
_ERFCX_TERMS = 60
_ERFCX_FRACTION_FROM = 3.0


def _erfcx64(x: torch.Tensor) -> torch.Tensor:
    """exp(x^2) erfc(x) of float64 `x`. Below 3, from erf (erfc >= 2e-5
    there, so 1 - erf keeps 11 digits); from 3 up, Laplace's continued
    fraction erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x +
    (3/2) / (x + ...)))), evaluated from its 60th term back. +inf below
    -26.6, where exp(x^2) overflows (as eager)."""
    large = x >= _ERFCX_FRACTION_FROM
    z = torch.where(large, x, _ERFCX_FRACTION_FROM)
    fraction = z
    for k in range(_ERFCX_TERMS, 0, -1):
        fraction = z + (k / 2) / fraction
    continued = 1.0 / (math.sqrt(math.pi) * fraction)
    small = torch.where(large, 0.0, x)
    direct = torch.exp(small * small) * (1.0 - torch.erf(small))
    return torch.where(large, continued, direct)


#: Newton steps of erfinv from Winitzki's approximation (relative error
#: below 2e-3): the error squares at each step, 4 reach float64's.
_ERFINV_NEWTON_STEPS = 4


def _erfinv64(y: torch.Tensor) -> torch.Tensor:
    """The inverse error function of float64 `y`: Winitzki's closed-form
    approximation, then Newton's method on erf(x) = y for |y| <= 1/2 and on
    erfc(x) = 1 - |y| (with erfc = erfcx * exp(-x^2), accurate where erf is
    near 1) above. +-inf at +-1, NaN outside [-1, 1]; the sign of zero is
    kept."""
    z = torch.abs(y)
    a = 0.147
    log_term = torch.log((1.0 - z) * (1.0 + z))
    t = 2.0 / (math.pi * a) + log_term / 2.0
    x = torch.sqrt(torch.sqrt(t * t - log_term / a) - t)
    x = torch.where(z < 1, x, 1.0)
    tail = z > 0.5
    complement = 1.0 - z
    half_sqrt_pi = math.sqrt(math.pi) / 2.0
    for _ in range(_ERFINV_NEWTON_STEPS):
        near_zero = (torch.erf(x) - z) * half_sqrt_pi * torch.exp(x * x)
        in_tail = (_erfcx64(x) - complement * torch.exp(x * x)) * half_sqrt_pi
        x = torch.where(tail, x + in_tail, x - near_zero)
    x = torch.where(z == 1, math.inf, x)
    x = torch.where(z > 1, math.nan, x)
    result = torch.where(y < 0, -x, x)
    return torch.where(y == 0, y, result)


#: Where the modified Bessel functions switch from the power series to the
#: asymptotic expansion, and the terms of each.
_BESSEL_ASYMPTOTIC_FROM = 30.0
_BESSEL_SERIES_TERMS = 50
_BESSEL_ASYMPTOTIC_TERMS = 24


def _bessel_i64(x: torch.Tensor, order: int, scaled: bool) -> torch.Tensor:
    """The modified Bessel function I_order(x), order 0 or 1, of float64 `x`
    (times exp(-|x|) when `scaled`). For |x| < 30 the power series
    sum_k (x/2)^(2k + order) / (k! (k + order)!), all terms positive; above,
    the asymptotic expansion exp(|x|) / sqrt(2 pi |x|) sum_k (-1)^k a_k / |x|^k
    with a_k = prod_{j<=k} (4 order^2 - (2j - 1)^2) / (k! 8^k). I_1 is odd."""
    magnitude = torch.abs(x)
    near = magnitude < _BESSEL_ASYMPTOTIC_FROM
    small = torch.where(near, magnitude, 0.0)
    y = small * small / 4.0
    term = torch.ones_like(small) if order == 0 else small / 2.0
    series = term
    for k in range(1, _BESSEL_SERIES_TERMS):
        term = term * y / (k * (k + order))
        series = series + term
    if scaled:
        series = series * torch.exp(-small)
    far = torch.where(near, _BESSEL_ASYMPTOTIC_FROM, magnitude)
    coefficient = 1.0
    expansion = torch.ones_like(far)
    power = torch.ones_like(far)
    for k in range(1, _BESSEL_ASYMPTOTIC_TERMS):
        coefficient *= -(4 * order * order - (2 * k - 1) ** 2) / (k * 8)
        power = power / far
        expansion = expansion + coefficient * power
    expansion = expansion / torch.sqrt(2 * math.pi * far)
    if not scaled:
        expansion = expansion * torch.exp(far)
    result = torch.where(near, series, expansion)
    if order == 1:
        result = torch.where(x < 0, -result, result)
    return result


def _in_float64(
    function: Callable[[torch.Tensor], torch.Tensor],
) -> Callable[[torch.Tensor], torch.Tensor]:
    """The decomposition of a unary op that `function` computes on float64:
    the input widened, the result rounded once to the op's result dtype."""

    def decomposition(self: torch.Tensor) -> torch.Tensor:
        return function(self.to(torch.float64)).to(result_float_dtype(self))

    return decomposition


#: The orthogonal polynomials torch2mlir lowers (TorchToLinalg's
#: Polynomials.cpp: a recurrence per element), by the name of their ops.
_POLYNOMIALS = (
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
)


def _polynomial_of_scalar_x(op: Any) -> Callable[..., torch.Tensor]:
    """The ``x_scalar`` overload of polynomial `op`: a number x, a tensor n."""

    def decomposition(x: float, n: torch.Tensor) -> torch.Tensor:
        return op(torch.scalar_tensor(x, dtype=torch.result_type(x, n)), n)

    return decomposition


def _polynomial_of_scalar_n(op: Any) -> Callable[..., torch.Tensor]:
    """The ``n_scalar`` overload of polynomial `op`: a tensor x, a number n."""

    def decomposition(x: torch.Tensor, n: float) -> torch.Tensor:
        return op(x, torch.scalar_tensor(n, dtype=torch.result_type(x, n)))

    return decomposition


def _shifted(op: Any) -> Callable[..., torch.Tensor]:
    """``special_shifted_chebyshev_polynomial_*``: the polynomial of `op` at
    ``2x - 1`` (computed ``x + x - 1`` in the result dtype, as PyTorch's
    kernels do), which maps [0, 1] onto [-1, 1]."""

    def decomposition(x: Any, n: Any) -> torch.Tensor:
        x = x if isinstance(x, torch.Tensor) else torch.scalar_tensor(x)
        n = n if isinstance(n, torch.Tensor) else torch.scalar_tensor(n)
        y = x.to(result_float_dtype(x, n))
        return op(y + y - 1, n)

    return decomposition


def _polynomial_decompositions() -> dict[Any, Callable[..., Any]]:
    """The scalar overloads of the polynomials and the shifted Chebyshev
    ones (all of their overloads)."""
    table: dict[Any, Callable[..., Any]] = {}
    for name in _POLYNOMIALS:
        packet = getattr(aten, f"special_{name}")
        table[packet.x_scalar] = _polynomial_of_scalar_x(packet.default)
        table[packet.n_scalar] = _polynomial_of_scalar_n(packet.default)
        if name.startswith("chebyshev"):
            shifted = getattr(aten, f"special_shifted_{name}")
            for overload in ("default", "x_scalar", "n_scalar"):
                table[getattr(shifted, overload)] = _shifted(packet.default)
    return table


#: The decompositions of this module (part of ``decompositions="core-aten"``).
SPECIAL_DECOMPOSITIONS: dict[torch._ops.OperatorBase, Callable[..., Any]] = {
    aten.lgamma.default: _in_float64(_lgamma64),
    aten.digamma.default: _in_float64(_digamma64),
    aten.polygamma.default: _polygamma,
    aten.special_zeta.default: _zeta,
    aten.special_zeta.self_scalar: _zeta_self_scalar,
    aten.special_zeta.other_scalar: _zeta_other_scalar,
    aten.special_erfcx.default: _in_float64(_erfcx64),
    aten.erfinv.default: _in_float64(_erfinv64),
    aten.i0.default: _in_float64(lambda x: _bessel_i64(x, 0, scaled=False)),
    aten.special_i0e.default: _in_float64(lambda x: _bessel_i64(x, 0, scaled=True)),
    aten.special_i1.default: _in_float64(lambda x: _bessel_i64(x, 1, scaled=False)),
    aten.special_i1e.default: _in_float64(lambda x: _bessel_i64(x, 1, scaled=True)),
    aten.special_modified_bessel_i0.default: _in_float64(
        lambda x: _bessel_i64(x, 0, scaled=False)
    ),
    aten.special_modified_bessel_i1.default: _in_float64(
        lambda x: _bessel_i64(x, 1, scaled=False)
    ),
    **_polynomial_decompositions(),
}
