"""Decompositions of special functions: the gamma family (``lgamma``,
``digamma``, ``polygamma``, ``special.zeta``: Hurwitz's zeta), the scaled
complementary error function ``special.erfcx``, ``erfinv`` and
``special.ndtri``, the Bessel functions (``special.bessel_j0``/``j1``/
``y0``/``y1``, the modified ones ``i0``, ``special.i0e``/``i1``/``i1e``,
``special.modified_bessel_i0``/``i1``/``k0``/``k1`` and the scaled K,
``special.spherical_bessel_j0``), ``special.airy_ai``; and the scalar
overloads and shifted forms of the orthogonal polynomials (which
TorchToLinalg lowers: ``Polynomials.cpp``).

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
- ``J_0``, ``J_1``, ``Y_0``, ``Y_1``: the power series up to 12, Hankel's
  asymptotic expansion above; ``K_0``, ``K_1``: the series below 2, the
  integral of exp(-x cosh t) cosh(nu t) by the trapezoidal rule above;
  ``Ai``: Maclaurin's series on [-6, 2], K_1/3 above, the oscillating
  expansion below. Eager's float64 J_0, Y_1 and Ai are off by up to 3e-6
  in places (against mpmath); these are not.
- ``ndtri``: erfinv's Newton steps, on log erfc in the tails.
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


def _erfinv_abs64(z: torch.Tensor, complement: torch.Tensor) -> torch.Tensor:
    """erfinv(z) for float64 `z` in [0, 1], given ``complement = 1 - z``
    exactly (ndtri passes a small one that 1 - z would round away):
    Winitzki's closed-form approximation, then Newton's method on
    erf(x) = z for z <= 1/2 and above on log erfc(x) = log(complement)
    (with log erfc = log erfcx - x^2, accurate where erf is near 1 and
    nearly linear in x^2, so that it converges from the approximation even
    for complement = 1e-300). +inf at z = 1."""
    a = 0.147
    log_term = torch.log(complement * (1.0 + z))
    t = 2.0 / (math.pi * a) + log_term / 2.0
    x = torch.sqrt(torch.sqrt(t * t - log_term / a) - t)
    x = torch.where(complement > 0, x, 1.0)
    tail = z > 0.5
    log_complement = torch.log(torch.where(complement > 0, complement, 1.0))
    half_sqrt_pi = math.sqrt(math.pi) / 2.0
    for _ in range(_ERFINV_NEWTON_STEPS):
        near_zero = (torch.erf(x) - z) * half_sqrt_pi * torch.exp(x * x)
        erfcx = _erfcx64(x)
        residual = torch.log(erfcx) - x * x - log_complement
        x = torch.where(tail, x + residual * erfcx * half_sqrt_pi, x - near_zero)
    return torch.where(complement == 0, math.inf, x)


def _erfinv64(y: torch.Tensor) -> torch.Tensor:
    """The inverse error function of float64 `y` (see _erfinv_abs64): odd,
    +-inf at +-1, NaN outside [-1, 1]; the sign of zero is kept."""
    z = torch.abs(y)
    x = _erfinv_abs64(torch.where(z > 1, 0.0, z), torch.where(z > 1, 1.0, 1.0 - z))
    x = torch.where(z > 1, math.nan, x)
    result = torch.where(y < 0, -x, x)
    return torch.where(y == 0, y, result)


def _ndtri64(p: torch.Tensor) -> torch.Tensor:
    """The inverse of the standard normal CDF at float64 `p`:
    ``sqrt(2) erfinv(2p - 1)``, with the complement ``2 min(p, 1 - p)``
    passed exactly (so that p = 1e-300 keeps its digits); -inf at 0, +inf
    at 1, NaN outside [0, 1]."""
    lower = p < 0.5
    tail = torch.where(lower, p, 1.0 - p)  # exact for p >= 1/2 (Sterbenz)
    inside = (p >= 0) & (p <= 1)
    complement = torch.where(inside, 2.0 * tail, 1.0)
    x = math.sqrt(2.0) * _erfinv_abs64(1.0 - complement, complement)
    x = torch.where(lower, -x, x)
    return torch.where(inside, x, math.nan)


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


#: Bessel J and Y: the power series up to this |x|, Hankel's asymptotic
#: expansion above (its smallest term there is below 1e-10 of the value).
_BESSEL_JY_SERIES_TO = 12.0
_BESSEL_JY_SERIES_TERMS = 40
_BESSEL_JY_ASYMPTOTIC_TERMS = 20
_EULER_GAMMA = 0.5772156649015329


def _hankel_pq(x: torch.Tensor, order: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Hankel's asymptotic series P and Q of order `order` at float64 `x`
    (large): J = sqrt(2 / (pi x)) (P cos w - Q sin w), Y = sqrt(2 / (pi x))
    (P sin w + Q cos w), w = x - (order / 2 + 1/4) pi (DLMF 10.17)."""
    mu = 4.0 * order * order
    p = torch.ones_like(x)
    q = torch.zeros_like(x)
    coefficient = 1.0
    power = torch.ones_like(x)
    for k in range(1, 2 * _BESSEL_JY_ASYMPTOTIC_TERMS):
        coefficient *= (mu - (2 * k - 1) ** 2) / (k * 8.0)
        power = power / x
        term = coefficient * power
        # a_k(order) / x^k: even k go to P, odd to Q, with alternating signs.
        if k % 2 == 0:
            p = p + (term if k % 4 == 0 else -term)
        else:
            q = q + (term if k % 4 == 1 else -term)
    return p, q


def _bessel_jy64(x: torch.Tensor, order: int, second_kind: bool) -> torch.Tensor:
    """J_order(x) or Y_order(x), order 0 or 1, of float64 `x`. Below
    |x| = 12 the power series (DLMF 10.2.2 for J, 10.8.1 for Y: J times
    (2/pi) log(x/2) plus a series with harmonic numbers); above, Hankel's
    expansion. J_0 is even and J_1 odd; Y is NaN for x < 0 and -inf at 0;
    both are NaN at +-inf (as PyTorch's kernels)."""
    magnitude = torch.abs(x)
    near = magnitude <= _BESSEL_JY_SERIES_TO
    small = torch.where(near, magnitude, 1.0)
    half = small / 2.0
    y = -half * half
    # J: sum_k (-1)^k (x/2)^(2k + order) / (k! (k + order)!); Y's series
    # weighs the same terms with harmonic numbers.
    term = torch.ones_like(small) if order == 0 else half
    j = term
    if order == 0:
        harmonic, weighted = 0.0, torch.zeros_like(small)
    else:
        # Y_1 = (2/pi) J_1 log(x/2) - 2/(pi x) - (1/pi) sum_k (-1)^k
        # (psi(k+1) + psi(k+2)) (x/2)^(2k+1) / (k! (k+1)!).
        psi_sum = -2.0 * _EULER_GAMMA + 1.0
        weighted = psi_sum * term
        harmonic = 0.0
    for k in range(1, _BESSEL_JY_SERIES_TERMS):
        term = term * y / (k * (k + order))
        j = j + term
        if order == 0:
            harmonic += 1.0 / k
            weighted = weighted - harmonic * term
        else:
            psi_sum += 1.0 / k + 1.0 / (k + 1)
            weighted = weighted + psi_sum * term
    if second_kind:
        log_half = torch.log(half)
        if order == 0:
            series = (2.0 / math.pi) * ((log_half + _EULER_GAMMA) * j + weighted)
        else:
            series = (2.0 / math.pi) * j * log_half - 2.0 / (math.pi * small)
            series = series - weighted / math.pi
    else:
        series = j
    far = torch.where(near, 2 * _BESSEL_JY_SERIES_TO, magnitude)
    p, q = _hankel_pq(far, order)
    w = far - (order / 2.0 + 0.25) * math.pi
    scale = torch.sqrt(2.0 / (math.pi * far))
    if second_kind:
        expansion = scale * (p * torch.sin(w) + q * torch.cos(w))
    else:
        expansion = scale * (p * torch.cos(w) - q * torch.sin(w))
    result = torch.where(near, series, expansion)
    if second_kind:
        result = torch.where(x == 0, -math.inf, result)
        return torch.where((x < 0) | torch.isinf(x), math.nan, result)
    if order == 1:
        result = torch.where(x < 0, -result, result)
        result = torch.where(x == 0, x, result)
    return torch.where(torch.isinf(x), math.nan, result)


#: The modified Bessel functions K_0, K_1: below x = 2 their power series
#: (DLMF 10.31.1-2), from 2 on the integral K_nu(x) = int_0^inf exp(-x
#: cosh t) cosh(nu t) dt (DLMF 10.32.9) by the trapezoidal rule on this
#: many nodes, of step min(0.2, 0.6 / sqrt(x)): the integrand is analytic in
#: |Im t| < pi/2 and, for large x, a Gaussian of width 1/sqrt(x), so the
#: error stays below exp(-45) while the nodes reach x (cosh t - 1) > 60.
_BESSEL_K_SERIES_TO = 2.0
_BESSEL_K_SERIES_TERMS = 30
_BESSEL_K_NODES = 48


def _bessel_k_integral64(x: torch.Tensor, order: float, scaled: bool) -> torch.Tensor:
    """K_order(x) (times exp(x) when `scaled`) of float64 `x` >= 2 by the
    trapezoidal rule on the integral (see _BESSEL_K_NODES)."""
    step = torch.clamp(0.6 / torch.sqrt(x), max=0.2).unsqueeze(-1)
    t = torch.arange(_BESSEL_K_NODES, dtype=torch.float64) * step
    weights = torch.cosh(order * t) * step
    # exp(-x (cosh t - 1)): the exp(x)-scaled integrand, never overflowing.
    cosh_minus_one = 2.0 * torch.sinh(t / 2.0) ** 2
    integral = (torch.exp(-x.unsqueeze(-1) * cosh_minus_one) * weights).sum(-1)
    # The first node (t = 0, where the integrand is 1) has half weight.
    integral = integral - step.squeeze(-1) / 2.0
    return integral if scaled else integral * torch.exp(-x)


def _bessel_k64(x: torch.Tensor, order: int, scaled: bool) -> torch.Tensor:
    """K_order(x), order 0 or 1, of float64 `x` (times exp(x) when
    `scaled`): +inf at 0, 0 at +inf, NaN for x < 0 and NaN."""
    near = x < _BESSEL_K_SERIES_TO
    small = torch.where(near & (x > 0), x, 1.0)
    half = small / 2.0
    y = half * half
    log_half = torch.log(half)
    if order == 0:
        # -(log(x/2) + gamma) I_0(x) + sum_k H_k (x^2/4)^k / (k!)^2.
        term = torch.ones_like(small)
        i_series, weighted, harmonic = term, torch.zeros_like(small), 0.0
        for k in range(1, _BESSEL_K_SERIES_TERMS):
            term = term * y / (k * k)
            harmonic += 1.0 / k
            i_series = i_series + term
            weighted = weighted + harmonic * term
        series = weighted - (log_half + _EULER_GAMMA) * i_series
    else:
        # 1/x + log(x/2) I_1(x) - (x/4) sum_k (psi(k+1) + psi(k+2))
        # (x^2/4)^k / (k! (k+1)!).
        term = torch.ones_like(small)
        psi_sum = -2.0 * _EULER_GAMMA + 1.0
        i_series, weighted = term, psi_sum * term
        for k in range(1, _BESSEL_K_SERIES_TERMS):
            term = term * y / (k * (k + 1))
            psi_sum += 1.0 / k + 1.0 / (k + 1)
            i_series = i_series + term
            weighted = weighted + psi_sum * term
        series = 1.0 / small + log_half * half * i_series - half / 2.0 * weighted
    if scaled:
        series = series * torch.exp(small)
    large = torch.where(near | ~torch.isfinite(x), _BESSEL_K_SERIES_TO, x)
    result = torch.where(near, series, _bessel_k_integral64(large, order, scaled))
    result = torch.where(x == 0, math.inf, result)
    result = torch.where(torch.isposinf(x), 0.0, result)
    return torch.where((x < 0) | torch.isnan(x), math.nan, result)


#: Airy Ai: Maclaurin's series on [-6, 2], the K_1/3 integral above 2
#: (zeta = 2/3 x^1.5 >= 1.88), the oscillating expansion below -6.
_AIRY_SERIES_FROM, _AIRY_SERIES_TO = -6.0, 2.0
_AIRY_SERIES_TERMS = 40
_AIRY_ASYMPTOTIC_TERMS = 12
_AIRY_AI_0 = 0.35502805388781723926  # Ai(0) = 1 / (3^(2/3) Gamma(2/3))
_AIRY_AI_PRIME_0 = -0.25881940379280679840  # Ai'(0) = -1 / (3^(1/3) Gamma(1/3))


def _airy_ai64(x: torch.Tensor) -> torch.Tensor:
    """Airy's Ai(x) of float64 `x` (DLMF 9.4.1 series, 9.6.1 with K_1/3,
    9.7.9 for x < -6); NaN at +-inf and NaN, 0 where it underflows."""
    inside = (x >= _AIRY_SERIES_FROM) & (x <= _AIRY_SERIES_TO)
    near = torch.where(inside, x, 0.0)
    cube = near * near * near
    f_term, g_term = torch.ones_like(near), near
    f, g = f_term, g_term
    for k in range(1, _AIRY_SERIES_TERMS):
        f_term = f_term * cube / ((3 * k - 1) * (3 * k))
        g_term = g_term * cube / ((3 * k) * (3 * k + 1))
        f, g = f + f_term, g + g_term
    series = _AIRY_AI_0 * f + _AIRY_AI_PRIME_0 * g
    # x > 2: Ai(x) = sqrt(x / 3) / pi K_1/3(zeta).
    right = torch.where(x > _AIRY_SERIES_TO, x, 4.0)
    right = torch.where(torch.isfinite(right), right, 4.0)
    zeta = 2.0 / 3.0 * right * torch.sqrt(right)
    decaying = (
        torch.sqrt(right / 3.0) / math.pi * _bessel_k_integral64(zeta, 1 / 3, False)
    )
    # x < -6: Ai(-z) = z^(-1/4) / sqrt(pi) (cos(w) P - ... ), w = zeta - pi/4,
    # with u_k = (6k-5)(6k-3)(6k-1) / ((2k-1) 216 k) u_(k-1).
    left = torch.where(x < _AIRY_SERIES_FROM, -x, 8.0)
    left = torch.where(torch.isfinite(left), left, 8.0)
    zeta = 2.0 / 3.0 * left * torch.sqrt(left)
    even, odd = torch.ones_like(left), torch.zeros_like(left)
    u, power = 1.0, torch.ones_like(left)
    for k in range(1, 2 * _AIRY_ASYMPTOTIC_TERMS):
        u *= (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216 * k)
        power = power / zeta
        sign = 1.0 if (k // 2) % 2 == 0 else -1.0
        if k % 2 == 0:
            even = even + sign * u * power
        else:
            odd = odd + sign * u * power
    w = zeta - math.pi / 4.0
    oscillating = (torch.cos(w) * even + torch.sin(w) * odd) / (
        math.sqrt(math.pi) * left**0.25
    )
    result = torch.where(x > _AIRY_SERIES_TO, decaying, series)
    result = torch.where(x < _AIRY_SERIES_FROM, oscillating, result)
    return torch.where(torch.isfinite(x), result, math.nan)


def _spherical_bessel_j0_64(x: torch.Tensor) -> torch.Tensor:
    """sin(x) / x of float64 `x`: 1 at 0, 0 at +-inf."""
    nonzero = torch.where(x == 0, 1.0, x)
    result = torch.where(x == 0, 1.0, torch.sin(nonzero) / nonzero)
    return torch.where(torch.isinf(x), 0.0, result)


def _in_float64(
    function: Callable[[torch.Tensor], torch.Tensor],
) -> Callable[[torch.Tensor], torch.Tensor]:
    """The decomposition of a unary op that `function` computes on float64:
    the input widened, the result rounded once to the op's result dtype."""

    def decomposition(self: torch.Tensor) -> torch.Tensor:
        return function(self.to(torch.float64)).to(result_float_dtype(self))

    return decomposition


def _in_float64_of(
    function: Callable[..., torch.Tensor], *args: Any, **kwargs: Any
) -> Callable[[torch.Tensor], torch.Tensor]:
    """_in_float64 of ``function(x, *args, **kwargs)``."""
    return _in_float64(lambda x: function(x, *args, **kwargs))


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
    aten.i0.default: _in_float64_of(_bessel_i64, 0, scaled=False),
    aten.special_i0e.default: _in_float64_of(_bessel_i64, 0, scaled=True),
    aten.special_i1.default: _in_float64_of(_bessel_i64, 1, scaled=False),
    aten.special_i1e.default: _in_float64_of(_bessel_i64, 1, scaled=True),
    aten.special_modified_bessel_i0.default: _in_float64_of(
        _bessel_i64, 0, scaled=False
    ),
    aten.special_modified_bessel_i1.default: _in_float64_of(
        _bessel_i64, 1, scaled=False
    ),
    aten.special_bessel_j0.default: _in_float64_of(_bessel_jy64, 0, second_kind=False),
    aten.special_bessel_j1.default: _in_float64_of(_bessel_jy64, 1, second_kind=False),
    aten.special_bessel_y0.default: _in_float64_of(_bessel_jy64, 0, second_kind=True),
    aten.special_bessel_y1.default: _in_float64_of(_bessel_jy64, 1, second_kind=True),
    aten.special_modified_bessel_k0.default: _in_float64_of(
        _bessel_k64, 0, scaled=False
    ),
    aten.special_modified_bessel_k1.default: _in_float64_of(
        _bessel_k64, 1, scaled=False
    ),
    aten.special_scaled_modified_bessel_k0.default: _in_float64_of(
        _bessel_k64, 0, scaled=True
    ),
    aten.special_scaled_modified_bessel_k1.default: _in_float64_of(
        _bessel_k64, 1, scaled=True
    ),
    aten.special_spherical_bessel_j0.default: _in_float64(_spherical_bessel_j0_64),
    aten.special_airy_ai.default: _in_float64(_airy_ai64),
    aten.special_ndtri.default: _in_float64(_ndtri64),
    **_polynomial_decompositions(),
}
