"""Decompositions computed on integers and on the bits of floats.

- ``gcd``, ``lcm``: Euclid's algorithm on the absolute values, as PyTorch's
  ``calc_gcd`` (``aten/src/ATen/native/Math.h``), unrolled to Lamé's bound
  for the dtype (at most five steps per decimal digit of the smaller
  operand: 15 for 8-bit integers, 25, 50 and 95 for 16, 32 and 64 bits),
  each step masked once the remainder is 0. ``abs`` wraps as in PyTorch
  (``gcd(-128, -128)`` is -128 in int8).
- ``nextafter``: C's ``nextafter`` on the IEEE-754 bits (``view.dtype`` to
  the integer of the same width, plus or minus one).
- ``frexp``: the exponent and mantissa fields of the bits, subnormals
  scaled into the normal range first; 0, infinities and NaN give
  themselves and exponent 0 (glibc's ``frexp``, which PyTorch calls).
- the shift overloads with a number operand, and ``__lshift__``/
  ``__rshift__``: ``bitwise_left_shift``/``bitwise_right_shift`` of two
  tensors (the number filled to the tensor operand's dtype, which it takes
  in PyTorch's promotion).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch

aten = torch.ops.aten

__all__ = ["BITS_DECOMPOSITIONS", "SAME_WIDTH_INT"]

#: Lamé's bound on Euclid's steps, by the width of the integer dtype.
_EUCLID_STEPS = {8: 15, 16: 25, 32: 50, 64: 95}

#: The integer dtype of the same width as a float dtype.
SAME_WIDTH_INT = {
    torch.float64: torch.int64,
    torch.float32: torch.int32,
    torch.float16: torch.int16,
    torch.bfloat16: torch.int16,
}


def _gcd(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.gcd``: the greatest common divisor of integer tensors, >= 0
    (0 for gcd(0, 0))."""
    dtype = torch.result_type(self, other)
    a = aten.abs.default(aten._to_copy.default(self, dtype=dtype))
    b = aten.abs.default(aten._to_copy.default(other, dtype=dtype))
    a, b = aten.broadcast_tensors.default([a, b])
    for _ in range(_EUCLID_STEPS[torch.iinfo(dtype).bits]):
        nonzero = aten.ne.Scalar(a, 0)
        divisor = aten.where.ScalarOther(nonzero, a, 1)
        remainder = aten.fmod.Tensor(b, divisor)
        a, b = (
            aten.where.self(nonzero, remainder, a),
            aten.where.self(nonzero, a, b),
        )
    return b


def _lcm(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.lcm``: ``|a / gcd(a, b) * b|``, 0 when the gcd is 0."""
    dtype = torch.result_type(self, other)
    a = aten._to_copy.default(self, dtype=dtype)
    b = aten._to_copy.default(other, dtype=dtype)
    g = _gcd(a, b)
    zero = aten.eq.Scalar(g, 0)
    quotient = aten.div.Tensor_mode(
        a, aten.where.ScalarSelf(zero, 1, g), rounding_mode="trunc"
    )
    # C++ promotes 8- and 16-bit integers to int before the product and
    # abs; the result wraps back to the dtype.
    wide = torch.int32 if torch.iinfo(dtype).bits < 32 else dtype
    product = aten.mul.Tensor(
        aten._to_copy.default(quotient, dtype=wide),
        aten._to_copy.default(b, dtype=wide),
    )
    result = aten._to_copy.default(aten.abs.default(product), dtype=dtype)
    return aten.where.ScalarSelf(zero, 0, result)


def _nextafter(self: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    """``aten.nextafter``: the float next to `self` toward `other` (`other`
    itself when they are equal, NaN when either is; from zero, the smallest
    subnormal with `other`'s sign)."""
    dtype = torch.result_type(self, other)
    x = aten._to_copy.default(self, dtype=dtype)
    y = aten._to_copy.default(other, dtype=dtype)
    x, y = aten.broadcast_tensors.default([x, y])
    integer = SAME_WIDTH_INT[dtype]
    bits = aten.view.dtype(x, integer)
    # Away from zero when moving up from a positive x or down from a
    # negative one: the magnitude's bits grow by one; else they shrink.
    away = aten.eq.Tensor(aten.lt.Tensor(x, y), aten.gt.Scalar(x, 0))
    step = aten.where.Scalar(away, 1, -1)
    moved = aten.view.dtype(
        aten.add.Tensor(bits, aten._to_copy.default(step, dtype=integer)), dtype
    )
    one = aten.full_like.default(bits, 1)
    tiny = aten.view.dtype(one, dtype)
    from_zero = aten.where.self(aten.lt.Scalar(y, 0), aten.neg.default(tiny), tiny)
    result = aten.where.self(aten.eq.Scalar(x, 0), from_zero, moved)
    result = aten.where.self(aten.eq.Tensor(x, y), y, result)
    nan = aten.logical_or.default(aten.isnan.default(x), aten.isnan.default(y))
    return aten.where.ScalarSelf(nan, math.nan, result)


def _frexp(self: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``aten.frexp``: (mantissa, exponent) with ``self = mantissa *
    2**exponent``, |mantissa| in [0.5, 1), exponent int32."""
    dtype = self.dtype
    info = torch.finfo(dtype)
    fraction_bits = -round(math.log2(info.eps))
    exponent_bits = info.bits - 1 - fraction_bits
    bias = (1 << (exponent_bits - 1)) - 1
    integer = SAME_WIDTH_INT[dtype]
    exponent_mask = (1 << exponent_bits) - 1
    # Subnormals times 2^(fraction_bits + 2) are normal, exactly.
    shift = fraction_bits + 2
    subnormal = aten.lt.Scalar(aten.abs.default(self), info.tiny)
    scaled = aten.where.self(subnormal, aten.mul.Scalar(self, 2.0**shift), self)
    bits = aten.view.dtype(scaled, integer)
    shifted = aten.bitwise_right_shift.Tensor(
        bits, aten.full_like.default(bits, fraction_bits)
    )
    field = aten.bitwise_and.Scalar(shifted, exponent_mask)
    exponent = aten.sub.Tensor(
        aten.sub.Scalar(field, bias - 1),
        aten.where.Scalar(subnormal, shift, 0),
    )
    # The mantissa: the bits with the exponent field of 2^-1.
    cleared = aten.bitwise_and.Scalar(bits, ~(exponent_mask << fraction_bits))
    mantissa_bits = aten.bitwise_or.Scalar(cleared, (bias - 1) << fraction_bits)
    mantissa = aten.view.dtype(mantissa_bits, dtype)
    special = aten.logical_or.default(
        aten.eq.Scalar(self, 0), aten.logical_not.default(aten.isfinite.default(self))
    )
    mantissa = aten.where.self(special, self, mantissa)
    exponent = aten.where.ScalarSelf(special, 0, exponent)
    return mantissa, aten._to_copy.default(exponent, dtype=torch.int32)


def _shift_with_number(
    shift: Any, scalar_first: bool
) -> Callable[[Any, Any], torch.Tensor]:
    """A shift overload with a number operand (``Tensor_Scalar``,
    ``Scalar_Tensor``) as `shift` (``aten.bitwise_*_shift.Tensor``) of a
    tensor of the tensor operand's dtype filled with the number."""

    def decomposition(first: Any, second: Any) -> torch.Tensor:
        tensor, number = (second, first) if scalar_first else (first, second)
        filled = aten.full_like.default(tensor, number)
        return shift(filled, tensor) if scalar_first else shift(tensor, filled)

    return decomposition


#: The decompositions of this module (part of ``decompositions="core-aten"``).
BITS_DECOMPOSITIONS: dict[torch._ops.OperatorBase, Callable[..., Any]] = {
    aten.gcd.default: _gcd,
    aten.lcm.default: _lcm,
    aten.nextafter.default: _nextafter,
    aten.frexp.Tensor: _frexp,
    aten.__rshift__.Tensor: aten.bitwise_right_shift.Tensor,
    aten.__lshift__.Tensor: aten.bitwise_left_shift.Tensor,
    aten.__rshift__.Scalar: _shift_with_number(aten.bitwise_right_shift.Tensor, False),
    aten.__lshift__.Scalar: _shift_with_number(aten.bitwise_left_shift.Tensor, False),
    aten.bitwise_right_shift.Tensor_Scalar: _shift_with_number(
        aten.bitwise_right_shift.Tensor, False
    ),
    aten.bitwise_left_shift.Tensor_Scalar: _shift_with_number(
        aten.bitwise_left_shift.Tensor, False
    ),
    aten.bitwise_right_shift.Scalar_Tensor: _shift_with_number(
        aten.bitwise_right_shift.Tensor, True
    ),
    aten.bitwise_left_shift.Scalar_Tensor: _shift_with_number(
        aten.bitwise_left_shift.Tensor, True
    ),
}
