"""Elementwise arithmetic with broadcasting and type promotion, relu, neg,
exp, float math and activations (gelu, silu, hardsigmoid, hardswish), and
dtype casts."""

from __future__ import annotations

import math

import torch
from torch import nn

from cases.registry import Fn, register_case


def _ints(*shape: int, low: int = -20, high: int = 20) -> torch.Tensor:
    return torch.randint(low, high, shape, dtype=torch.int64)


def _nonzero_ints(*shape: int) -> torch.Tensor:
    magnitude = torch.randint(1, 10, shape, dtype=torch.int64)
    sign = torch.randint(0, 2, shape, dtype=torch.int64) * 2 - 1
    return magnitude * sign


def _f64(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, dtype=torch.float64)


# Tensor-tensor, same shape and broadcasting.


@register_case("add_f32", inputs=lambda: (torch.randn(3, 4), torch.randn(3, 4)))
def _() -> nn.Module:
    return Fn(torch.add)


@register_case("add_broadcast_row", inputs=lambda: (torch.randn(3, 4), torch.randn(4)))
def _() -> nn.Module:
    return Fn(lambda x, y: x + y)


@register_case(
    "add_broadcast_both", inputs=lambda: (torch.randn(3, 1), torch.randn(1, 4))
)
def _() -> nn.Module:
    return Fn(lambda x, y: x + y)


@register_case("add_alpha", inputs=lambda: (torch.randn(3, 4), torch.randn(3, 4)))
def _() -> nn.Module:
    return Fn(lambda x, y: torch.add(x, y, alpha=2.5))


@register_case("add_f64", inputs=lambda: (_f64(2, 3, 4), _f64(3, 1)))
def _() -> nn.Module:
    return Fn(torch.add)


def _bf16(*shape: int) -> torch.Tensor:
    return torch.randn(*shape).to(torch.bfloat16)


# bfloat16 computes in float32 and rounds after each op, as eager PyTorch
# does, with __truncsfbf2/__truncdfbf2 from the RefBackend runtime (libgcc
# before 13 lacks them).
@register_case("add_bf16", inputs=lambda: (_bf16(3, 4), _bf16(4)))
def _() -> nn.Module:
    return Fn(lambda x, y: x * y + x)


@register_case("to_bf16", inputs=lambda: (torch.randn(4, 5) * 100,))
def _() -> nn.Module:
    return Fn(lambda x: x.to(torch.bfloat16))


@register_case(
    "to_bf16_from_f64",
    inputs=lambda: (
        torch.tensor(
            [1e300, -1e300, 1e-300, 1.0 + 2**-9, 1.0 + 2**-9 + 2**-40],
            dtype=torch.float64,
        ),
    ),
)
def _() -> nn.Module:
    return Fn(lambda x: x.to(torch.bfloat16))


# One bfloat16 ulp (2**-8 relative): libm's expf and PyTorch's may round
# differently before the rounding to bfloat16 (assert_close's bf16 default).
@register_case("exp_bf16", inputs=lambda: (_bf16(3, 4),), rtol=1.6e-2, atol=1e-5)
def _() -> nn.Module:
    return Fn(torch.exp)


@register_case("add_i64", inputs=lambda: (_ints(3, 4), _ints(4)))
def _() -> nn.Module:
    return Fn(lambda x, y: torch.add(x, y, alpha=3))


@register_case("sub_f32", inputs=lambda: (torch.randn(3, 4), torch.randn(3, 4)))
def _() -> nn.Module:
    return Fn(torch.sub)


@register_case(
    "sub_alpha_broadcast", inputs=lambda: (torch.randn(2, 3, 4), torch.randn(4))
)
def _() -> nn.Module:
    return Fn(lambda x, y: torch.sub(x, y, alpha=0.5))


@register_case(
    "mul_broadcast_3d", inputs=lambda: (torch.randn(2, 1, 4), torch.randn(3, 1))
)
def _() -> nn.Module:
    return Fn(lambda x, y: x * y)


@register_case("mul_i64", inputs=lambda: (_ints(2, 3), _ints(2, 3)))
def _() -> nn.Module:
    return Fn(torch.mul)


@register_case("div_f32", inputs=lambda: (torch.randn(3, 4), torch.rand(3, 4) + 0.5))
def _() -> nn.Module:
    return Fn(torch.div)


@register_case(
    "div_broadcast_f64", inputs=lambda: (_f64(4, 1, 3), _f64(2, 1).abs() + 0.5)
)
def _() -> nn.Module:
    return Fn(lambda x, y: x / y)


# Tensor-scalar.


@register_case("add_scalar", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x + 1.5)


@register_case("sub_scalar", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x - 2)


@register_case("rsub_scalar", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: 1.0 - x)


@register_case("mul_scalar", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x * 0.25)


@register_case("div_scalar", inputs=lambda: (torch.randn(5),))
def _() -> nn.Module:
    return Fn(lambda x: x / 3.0)


@register_case("mul_scalar_i64", inputs=lambda: (_ints(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x * 3 - 7)


# Type promotion.


@register_case("add_i64_f32", inputs=lambda: (_ints(3, 4), torch.randn(3, 4)))
def _() -> nn.Module:
    return Fn(torch.add)


@register_case("mul_f32_i64_broadcast", inputs=lambda: (torch.randn(2, 3), _ints(3)))
def _() -> nn.Module:
    return Fn(torch.mul)


@register_case("add_f32_f64", inputs=lambda: (torch.randn(3, 4), _f64(3, 4)))
def _() -> nn.Module:
    return Fn(torch.add)


@register_case(
    "div_i64_i64_true_division", inputs=lambda: (_ints(3, 4), _nonzero_ints(3, 4))
)
def _() -> nn.Module:
    return Fn(torch.div)


@register_case("add_i64_float_scalar", inputs=lambda: (_ints(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x + 0.5)


@register_case("div_i64_int_scalar", inputs=lambda: (_ints(6),))
def _() -> nn.Module:
    return Fn(lambda x: x / 4)


# Unary ops.


@register_case("relu_f32", inputs=lambda: (torch.randn(4, 5),))
def _() -> nn.Module:
    return nn.ReLU()


@register_case("relu_functional_4d", inputs=lambda: (torch.randn(2, 3, 4, 5),))
def _() -> nn.Module:
    return Fn(torch.relu)


@register_case("relu_i64", inputs=lambda: (_ints(3, 4),))
def _() -> nn.Module:
    return Fn(torch.relu)


@register_case("neg_f32", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(torch.neg)


@register_case("neg_i64", inputs=lambda: (_ints(7),))
def _() -> nn.Module:
    return Fn(lambda x: -x)


@register_case("exp_f32", inputs=lambda: (torch.randn(3, 4) * 4,))
def _() -> nn.Module:
    return Fn(torch.exp)


@register_case("exp_f64", inputs=lambda: (_f64(3, 4) * 4,))
def _() -> nn.Module:
    return Fn(torch.exp)


# Casts.


@register_case("to_f64", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x.to(torch.float64))


@register_case("float_of_i64", inputs=lambda: (_ints(3, 4, low=-1000, high=1000),))
def _() -> nn.Module:
    return Fn(lambda x: x.float())


@register_case("f64_to_f32", inputs=lambda: (_f64(3, 4) * 1e3,))
def _() -> nn.Module:
    return Fn(lambda x: x.to(torch.float32))


@register_case("f32_to_i64_truncates", inputs=lambda: (torch.randn(3, 4) * 10,))
def _() -> nn.Module:
    return Fn(lambda x: x.to(torch.int64))


# Chains.


@register_case(
    "affine_relu_chain",
    inputs=lambda: (torch.randn(4, 6), torch.randn(6), torch.randn(6)),
)
def _() -> nn.Module:
    return Fn(lambda x, w, b: torch.relu(x * w + b) - 0.5 * x)


@register_case("cast_then_promote", inputs=lambda: (_ints(3, 4), torch.randn(4)))
def _() -> nn.Module:
    return Fn(lambda x, y: x.float() * y + x / 2)


# Float math (int inputs promote to the default float dtype).


@register_case("log_f32", inputs=lambda: (torch.rand(3, 4) + 0.1,))
def _() -> nn.Module:
    return Fn(torch.log)


@register_case(
    "sqrt_rsqrt_f64", inputs=lambda: (torch.rand(2, 5, dtype=torch.float64) + 0.1,)
)
def _() -> nn.Module:
    return Fn(lambda x: torch.sqrt(x) + torch.rsqrt(x))


@register_case("abs_f32_i64", inputs=lambda: (torch.randn(4, 3), _ints(4, 3)))
def _() -> nn.Module:
    return Fn(lambda x, y: (torch.abs(x), torch.abs(y)))


@register_case("erf_tanh_sigmoid", inputs=lambda: (torch.randn(2, 3, 4) * 3,))
def _() -> nn.Module:
    return Fn(lambda x: torch.erf(x) + torch.tanh(x) * torch.sigmoid(x))


@register_case("sigmoid_of_i64", inputs=lambda: (_ints(5),))
def _() -> nn.Module:
    return Fn(torch.sigmoid)


@register_case("reciprocal_f32", inputs=lambda: (torch.rand(6) + 0.5,))
def _() -> nn.Module:
    return Fn(torch.reciprocal)


@register_case("gelu_exact", inputs=lambda: (torch.randn(3, 8) * 2,))
def _() -> nn.Module:
    return nn.GELU()


@register_case("gelu_tanh", inputs=lambda: (torch.randn(3, 8) * 2,))
def _() -> nn.Module:
    return nn.GELU(approximate="tanh")


def _activation_inputs() -> torch.Tensor:
    """Both sides of the kinks at -3 and 3, the kinks themselves, large
    magnitudes, infinities and NaN."""
    special = [
        -3.0,
        3.0,
        -100.0,
        100.0,
        -0.0,
        float("inf"),
        -float("inf"),
        float("nan"),
    ]
    return torch.cat([torch.randn(40) * 4, torch.tensor(special)]).reshape(6, 8)


@register_case("silu", inputs=lambda: (_activation_inputs(),))
def _() -> nn.Module:
    return nn.SiLU()


@register_case("hardsigmoid", inputs=lambda: (_activation_inputs(),))
def _() -> nn.Module:
    return nn.Hardsigmoid()


@register_case("hardswish", inputs=lambda: (_activation_inputs(),))
def _() -> nn.Module:
    return nn.Hardswish()


@register_case("hardswish_f64", inputs=lambda: (_f64(3, 5) * 4,))
def _() -> nn.Module:
    return Fn(lambda x: nn.functional.hardswish(x) + nn.functional.silu(x))


# Bool tensors in memory: inputs, outputs, weights and constants (the
# RefBackend stores bools as bytes).


def _bools(*shape: int) -> torch.Tensor:
    return torch.randint(0, 2, shape, dtype=torch.bool)


@register_case("bool_output", inputs=lambda: (torch.randn(3, 4).round(),))
def _() -> nn.Module:
    return Fn(lambda x: x.to(torch.bool))


@register_case("bool_input", inputs=lambda: (_bools(3, 4), torch.randn(3, 4)))
def _() -> nn.Module:
    return Fn(lambda mask, x: x * mask)


@register_case("bool_input_and_output", inputs=lambda: (_bools(2, 5),))
def _() -> nn.Module:
    return Fn(lambda mask: (mask.to(torch.float32) * 2).to(torch.bool))


@register_case("bool_input_to_i64", inputs=lambda: (_bools(7),))
def _() -> nn.Module:
    return Fn(lambda mask: mask.to(torch.int64) + 1)


class _BoolBuffer(nn.Module):
    """A bool buffer (bound as a weight) and a bool tensor constant."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("mask", torch.tensor([True, False, True, True]))
        self.constant = torch.tensor([False, True, True, False])

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return x * self.mask, (x * self.constant).to(torch.bool)


@register_case("bool_buffer_and_constant", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return _BoolBuffer()


# Rounding and trigonometry.


@register_case("floor_ceil_f32", inputs=lambda: (torch.randn(3, 4) * 3,))
def _() -> nn.Module:
    return Fn(lambda x: (torch.floor(x), torch.ceil(x)))


@register_case("floor_ceil_i64", inputs=lambda: (_ints(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: (torch.floor(x), torch.ceil(x)))


@register_case("sin_cos_f32", inputs=lambda: (torch.randn(2, 3, 4) * 4,))
def _() -> nn.Module:
    return Fn(lambda x: (torch.sin(x), torch.cos(x)))


@register_case("sin_of_i64", inputs=lambda: (_ints(6),))
def _() -> nn.Module:
    return Fn(torch.sin)


@register_case("sign_f32", inputs=lambda: ((torch.randn(4, 5) * 2).round(),))
def _() -> nn.Module:
    return Fn(torch.sign)


@register_case("sign_i64", inputs=lambda: (_ints(4, 5, low=-3, high=4),))
def _() -> nn.Module:
    return Fn(torch.sign)


def _log1p_inputs() -> tuple[torch.Tensor, ...]:
    # Magnitudes from 1e-9 (where log(1 + x) would lose every digit) to 10,
    # and values close to -1.
    magnitude = 10.0 ** torch.linspace(-9, 1, 24)
    sign = torch.where(torch.arange(24) % 2 == 0, 1.0, -1.0)
    x = torch.maximum(magnitude * sign, torch.tensor(-0.999))
    return (x.reshape(4, 6),)


@register_case("log1p_small_and_large", inputs=_log1p_inputs)
def _() -> nn.Module:
    return Fn(torch.log1p)


@register_case("leaky_relu_default", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return nn.LeakyReLU()


@register_case("leaky_relu_slope", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return nn.LeakyReLU(0.2)


# pow, maximum/minimum, clamp.


@register_case("pow_square", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x**2)


@register_case("pow_sqrt_one_zero", inputs=lambda: (torch.rand(3, 4) * 5,))
def _() -> nn.Module:
    return Fn(lambda x: (x**0.5, x**1, x**0))


@register_case("pow_general_f32", inputs=lambda: (torch.rand(3, 4) * 3 + 0.1,))
def _() -> nn.Module:
    return Fn(lambda x: (x**2.7, x**-1.5))


@register_case("pow_cube_negative_base", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x**3)


@register_case(
    "pow_reciprocals",
    inputs=lambda: (
        torch.cat(
            [
                torch.rand(3, 4) * 3 + 0.1,
                torch.tensor([[0.0, -0.0, math.inf, math.nan]]),
            ]
        ),
    ),
)
def _() -> nn.Module:
    # Computed as PyTorch's CPU kernel does: 1 / x, 1 / (x * x), 1 / sqrt(x).
    return Fn(lambda x: (x**-1, x**-2.0, x**-0.5, x**3.0))


@register_case("pow_i64_scalar", inputs=lambda: (_ints(3, 4, low=-6, high=6),))
def _() -> nn.Module:
    return Fn(lambda x: (x**3, x**2))


@register_case("pow_i64_float_exponent", inputs=lambda: (_ints(5, low=1, high=9),))
def _() -> nn.Module:
    return Fn(lambda x: x**0.5)


@register_case(
    "pow_tensor_tensor_f32",
    inputs=lambda: (torch.rand(3, 4) * 3 + 0.1, torch.randn(4)),
)
def _() -> nn.Module:
    return Fn(torch.pow)


@register_case(
    "pow_tensor_tensor_i64",
    inputs=lambda: (_ints(3, 4, low=-5, high=5), _ints(3, 4, low=0, high=6)),
)
def _() -> nn.Module:
    return Fn(torch.pow)


@register_case(
    "pow_i64_negative_exponents",
    inputs=lambda: (
        torch.tensor([[-3, -2, -1, 0, 1, 2, 3], [-1, 0, 1, 5, -1, 1, 0]]),
        torch.tensor([[-1, -2, -3, -1, -5, -1, -2], [-2, -7, -4, 0, 3, 2, 0]]),
    ),
)
def _() -> nn.Module:
    # PyTorch's integer pow: a negative exponent gives 1 for base 1, +-1 for
    # base -1 (by parity), 0 otherwise (a zero base included).
    return Fn(torch.pow)


@register_case(
    "shifts_out_of_range",
    inputs=lambda: (
        torch.tensor([5, -3, 7, -100, 1, -1]),
        torch.tensor([-1, 64, 65, 70, 63, 200]),
        torch.tensor([5, -3, 7, -100, 1, -1], dtype=torch.int8),
        torch.tensor([-1, 8, 9, 100, 7, 3], dtype=torch.int8),
        torch.tensor([5, 200, 7, 100, 1, 255], dtype=torch.uint8),
        torch.tensor([255, 8, 9, 100, 7, 3], dtype=torch.uint8),
    ),
)
def _() -> nn.Module:
    # A shift amount that is negative or at least the bit width: 0 for a
    # left shift, the sign fill for a signed right shift (ATen's lshift and
    # rshift).
    return Fn(
        lambda a, b, c, d, e, f: tuple(
            op(x, y)
            for x, y in ((a, b), (c, d), (e, f))
            for op in (torch.bitwise_left_shift, torch.bitwise_right_shift)
        )
    )


def _with_nans(*shape: int) -> torch.Tensor:
    x = torch.randn(*shape)
    x.view(-1)[::5] = float("nan")
    return x


@register_case(
    "maximum_minimum_nan", inputs=lambda: (_with_nans(4, 5), torch.randn(4, 5))
)
def _() -> nn.Module:
    return Fn(lambda x, y: (torch.maximum(x, y), torch.minimum(y, x)))


@register_case("min_max_other", inputs=lambda: (_with_nans(3, 4), torch.randn(4)))
def _() -> nn.Module:
    # torch.min/max of two tensors: aten.min.other/max.other without
    # decompositions, NaN-propagating like minimum/maximum.
    return Fn(lambda x, y: (torch.min(x, y), torch.max(y, x)))


@register_case("maximum_broadcast", inputs=lambda: (torch.randn(3, 1), torch.randn(4)))
def _() -> nn.Module:
    return Fn(torch.maximum)


@register_case("minimum_i64_f32", inputs=lambda: (_ints(3, 4), torch.randn(3, 4) * 10))
def _() -> nn.Module:
    return Fn(torch.minimum)


@register_case(
    "maximum_u8",
    inputs=lambda: (
        torch.randint(0, 256, (8,), dtype=torch.uint8),
        torch.randint(0, 256, (8,), dtype=torch.uint8),
    ),
)
def _() -> nn.Module:
    return Fn(lambda x, y: (torch.maximum(x, y), torch.minimum(x, y)))


@register_case("clamp_min_max", inputs=lambda: (_with_nans(3, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.clamp(x, -0.5, 0.5))


@register_case("clamp_min_only", inputs=lambda: (torch.randn(3, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.clamp(x, min=0.1))


@register_case("clamp_max_only_i64", inputs=lambda: (_ints(3, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.clamp(x, max=4))


@register_case("clamp_i64_float_bounds", inputs=lambda: (_ints(3, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.clamp(x, min=-2.5, max=7.5))


@register_case("clamp_min_above_max", inputs=lambda: (torch.randn(6),))
def _() -> nn.Module:
    return Fn(lambda x: torch.clamp(x, min=1.0, max=-1.0))


@register_case(
    "clamp_tensor_broadcast",
    inputs=lambda: (torch.randn(3, 4), torch.randn(4) - 0.5, torch.randn(3, 1) + 0.5),
)
def _() -> nn.Module:
    return Fn(lambda x, lo, hi: torch.clamp(x, lo, hi))


@register_case(
    "clamp_tensor_min_only", inputs=lambda: (torch.randn(3, 4), torch.randn(4))
)
def _() -> nn.Module:
    return Fn(lambda x, lo: torch.clamp(x, min=lo))


# Division with rounding.


def _mixed_signs(*shape: int) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.randn(*shape) * 10, (torch.rand(*shape) + 0.5) * torch.sign(
        torch.randn(*shape)
    )


@register_case("div_trunc_f32", inputs=lambda: _mixed_signs(4, 5))
def _() -> nn.Module:
    return Fn(lambda x, y: torch.div(x, y, rounding_mode="trunc"))


@register_case("div_floor_f32", inputs=lambda: _mixed_signs(4, 5))
def _() -> nn.Module:
    return Fn(lambda x, y: torch.div(x, y, rounding_mode="floor"))


@register_case(
    "div_floor_f32_exact_and_zero",
    inputs=lambda: (
        torch.tensor([-7.0, 7.0, -6.0, 6.0, 0.0, -0.0, 1.0, -1.0]),
        torch.tensor([2.0, -2.0, 3.0, -3.0, 5.0, 5.0, 0.0, 0.0]),
    ),
)
def _() -> nn.Module:
    return Fn(lambda x, y: torch.div(x, y, rounding_mode="floor"))


@register_case("div_trunc_floor_i64", inputs=lambda: (_ints(4, 5), _nonzero_ints(4, 5)))
def _() -> nn.Module:
    return Fn(
        lambda x, y: (
            torch.div(x, y, rounding_mode="trunc"),
            torch.div(x, y, rounding_mode="floor"),
        )
    )


@register_case(
    "div_floor_broadcast_i64_f32", inputs=lambda: (_ints(3, 4), torch.rand(4) + 0.5)
)
def _() -> nn.Module:
    return Fn(lambda x, y: torch.div(x, y, rounding_mode="floor"))


@register_case("floor_divide_operator", inputs=lambda: (_ints(3, 4), _nonzero_ints(4)))
def _() -> nn.Module:
    return Fn(lambda x, y: x // y)


# More float math: hyperbolic and inverse functions, log2/log10, expm1 (exact
# for tiny x), round (half to even) and trunc, isnan/isinf, atan2.

_SPECIAL = torch.tensor(
    [0.0, -0.0, 1e-30, -1e-7, 0.5, -2.5, 3.5, math.inf, -math.inf, math.nan]
)


@register_case("hyperbolic_and_inverse_f32", inputs=lambda: (torch.rand(4, 6) * 0.9,))
def _() -> nn.Module:
    return Fn(
        lambda x: (
            torch.tan(x),
            torch.sinh(x),
            torch.cosh(x),
            torch.asinh(x),
            torch.acosh(x + 1),
            torch.atanh(x),
        )
    )


@register_case("hyperbolic_f64_and_int_input", inputs=lambda: (_f64(3, 5), _ints(4)))
def _() -> nn.Module:
    return Fn(lambda x, n: (torch.sinh(x), torch.asinh(x), torch.tan(n)))


@register_case("log2_log10_f32", inputs=lambda: (torch.rand(3, 5) * 100,))
def _() -> nn.Module:
    return Fn(lambda x: (torch.log2(x), torch.log10(x), torch.log2(x - 50)))


@register_case(
    "expm1_tiny_and_special", inputs=lambda: (_SPECIAL, torch.randn(64) * 1e-6)
)
def _() -> nn.Module:
    return Fn(lambda s, tiny: (torch.expm1(s), torch.expm1(tiny), torch.expm1(s * 100)))


@register_case(
    "round_trunc_halves_f32_and_i64",
    inputs=lambda: (
        torch.tensor(
            [0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, -2.6, 1e20, math.inf, math.nan]
        ),
        _ints(5),
    ),
)
def _() -> nn.Module:
    return Fn(
        lambda x, n: (torch.round(x), torch.trunc(x), torch.round(n), torch.trunc(n))
    )


@register_case("isnan_isinf", inputs=lambda: (_SPECIAL, _ints(4), _SPECIAL.half()))
def _() -> nn.Module:
    return Fn(
        lambda x, n, h: (torch.isnan(x), torch.isinf(x), torch.isnan(n), torch.isinf(h))
    )


@register_case(
    "atan2_quadrants_and_zeros",
    inputs=lambda: (
        torch.tensor([1.0, 1.0, -1.0, -1.0, 0.0, -0.0, 0.0, -0.0]),
        torch.tensor([1.0, -1.0, 1.0, -1.0, 0.0, 0.0, -0.0, -0.0]),
    ),
)
def _() -> nn.Module:
    return Fn(torch.atan2)


@register_case("atan2_broadcast_int", inputs=lambda: (_ints(3, 4), torch.randn(4)))
def _() -> nn.Module:
    return Fn(torch.atan2)


# fmod (sign of the dividend) and remainder (sign of the divisor).

_SIGNS = (
    torch.tensor([7.0, -7.0, 7.0, -7.0, 6.0, -6.0, 0.5, 5.5]),
    torch.tensor([3.0, 3.0, -3.0, -3.0, 3.0, -3.0, math.inf, 0.0]),
)


@register_case("fmod_remainder_signs_f32", inputs=lambda: _SIGNS)
def _() -> nn.Module:
    return Fn(lambda x, y: (torch.fmod(x, y), torch.remainder(x, y), x % y))


@register_case("fmod_remainder_i64", inputs=lambda: (_ints(4, 5), _nonzero_ints(4, 5)))
def _() -> nn.Module:
    return Fn(lambda x, y: (torch.fmod(x, y), torch.remainder(x, y)))


@register_case(
    "fmod_remainder_scalar", inputs=lambda: (torch.randn(3, 4) * 10, _ints(6))
)
def _() -> nn.Module:
    return Fn(
        lambda x, n: (
            torch.fmod(x, 2.5),
            torch.remainder(x, -1.5),
            torch.fmod(n, -4),
            torch.remainder(n, 3),
        )
    )


@register_case(
    "remainder_int_min_by_minus_one",
    inputs=lambda: (
        torch.tensor([-(2**63), 5, -5], dtype=torch.int64),
        torch.tensor([-1, -1, -1], dtype=torch.int64),
    ),
)
def _() -> nn.Module:
    return Fn(lambda x, y: (torch.fmod(x, y), torch.remainder(x, y)))


@register_case("elu_hardtanh", inputs=lambda: (torch.randn(4, 8) * 3, _ints(10)))
def _() -> nn.Module:
    return Fn(
        lambda x, n: (
            nn.functional.elu(x),
            nn.functional.elu(x, alpha=0.5),
            torch.ops.aten.elu(x, 1.5, 2.0, 0.5),
            nn.functional.hardtanh(x),
            nn.functional.hardtanh(x, -0.5, 2.0),
            torch.ops.aten.hardtanh(n, -3, 4),
        )
    )


@register_case(
    "pow_scalar_base", inputs=lambda: (torch.randn(3, 4), _ints(5, low=0, high=10))
)
def _() -> nn.Module:
    return Fn(lambda x, n: (torch.pow(2.0, x), 3**n, torch.pow(0.5, n)))


@register_case("div_scalar_mode", inputs=lambda: (torch.randn(3, 4) * 10, _ints(6)))
def _() -> nn.Module:
    return Fn(
        lambda x, n: (
            torch.div(x, 3, rounding_mode="floor"),
            torch.div(x, -2.5, rounding_mode="trunc"),
            torch.div(n, 4, rounding_mode="floor"),
            torch.div(n, -3, rounding_mode="trunc"),
        )
    )


@register_case(
    "bitwise_scalar",
    inputs=lambda: (_ints(3, 4, low=-100, high=100), torch.rand(5) > 0.5),
)
def _() -> nn.Module:
    return Fn(
        lambda n, b: (
            torch.bitwise_and(n, 12),
            torch.bitwise_or(n, -3),
            torch.bitwise_xor(n, 7),
            torch.bitwise_and(b, True),
            torch.bitwise_xor(b, True),
        )
    )


@register_case("round_decimals", inputs=lambda: (torch.randn(4, 5) * 1000,))
def _() -> nn.Module:
    return Fn(
        lambda x: (
            torch.round(x, decimals=2),
            torch.round(x, decimals=0),
            torch.round(x, decimals=-2),
        )
    )
