"""Comparisons (in the promoted dtype of their operands), logical ops and
where; their bool results are outputs of the compiled program."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import Fn, register_case


def _ints(*shape: int, low: int = -5, high: int = 5) -> torch.Tensor:
    return torch.randint(low, high, shape, dtype=torch.int64)


def _bools(*shape: int) -> torch.Tensor:
    return torch.randint(0, 2, shape, dtype=torch.bool)


def _u8(*shape: int) -> torch.Tensor:
    return torch.randint(0, 256, shape, dtype=torch.uint8)


def _with_nans(*shape: int) -> torch.Tensor:
    x = torch.randn(*shape).round()
    x.view(-1)[::4] = float("nan")
    return x


# Comparisons.


@register_case("gt_scalar_f32", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x > 0.5)


@register_case(
    "lt_tensor_broadcast", inputs=lambda: (torch.randn(3, 1, 4), torch.randn(2, 1))
)
def _() -> nn.Module:
    return Fn(lambda x, y: x < y)


@register_case("eq_ne_i64", inputs=lambda: (_ints(4, 5), _ints(4, 5)))
def _() -> nn.Module:
    return Fn(lambda x, y: (x == y, x != y))


@register_case(
    "le_ge_f32", inputs=lambda: (torch.randn(4, 5).round(), torch.randn(5).round())
)
def _() -> nn.Module:
    return Fn(lambda x, y: (x <= y, x >= y))


@register_case("scalar_comparisons_i64", inputs=lambda: (_ints(12),))
def _() -> nn.Module:
    return Fn(lambda x: (x == 1, x != 1, x < 0, x <= 0, x > -2, x >= 3))


@register_case("comparisons_with_nan", inputs=lambda: (_with_nans(3, 4), _with_nans(4)))
def _() -> nn.Module:
    # x != x is the NaN test.
    return Fn(lambda x, y: (x == y, x != y, x < y, x >= y, x != x))  # noqa: PLR0124


@register_case("i64_vs_float_scalar", inputs=lambda: (_ints(10),))
def _() -> nn.Module:
    # Compares in float32: with the scalar truncated to int64, 0 > 0.5 would
    # be 0 > 0 (false, correct by luck) but 0 == 0.5 / -1 < -1.5 would not.
    return Fn(lambda x: (x > 0.5, x == 0.5, x < -1.5))


@register_case("f32_vs_i64_tensor", inputs=lambda: (torch.randn(3, 4) * 3, _ints(4)))
def _() -> nn.Module:
    return Fn(lambda x, y: (x > y, torch.floor(x) == y))


@register_case("u8_unsigned_compare", inputs=lambda: (_u8(16), _u8(16)))
def _() -> nn.Module:
    return Fn(lambda x, y: (x > y, x < 200, x >= 128))


@register_case(
    "u8_vs_i8_promotes_to_i16",
    inputs=lambda: (_u8(16), torch.randint(-128, 128, (16,), dtype=torch.int8)),
)
def _() -> nn.Module:
    return Fn(lambda x, y: (x > y, x == y))


@register_case("bool_compare", inputs=lambda: (_bools(8), _bools(8)))
def _() -> nn.Module:
    return Fn(lambda x, y: (x > y, x == y, x < 1))


@register_case("compare_0d_tensor", inputs=lambda: (_ints(6), torch.tensor(0.5)))
def _() -> nn.Module:
    # A 0-d float tensor promotes an int64 tensor to float.
    return Fn(lambda x, y: x > y)


# Logical ops.


@register_case("logical_not_bool", inputs=lambda: (_bools(3, 4),))
def _() -> nn.Module:
    return Fn(torch.logical_not)


@register_case("logical_not_f32_nan", inputs=lambda: (_with_nans(3, 4),))
def _() -> nn.Module:
    return Fn(torch.logical_not)


@register_case("logical_and_or_xor_bool", inputs=lambda: (_bools(3, 4), _bools(4)))
def _() -> nn.Module:
    return Fn(
        lambda x, y: (
            torch.logical_and(x, y),
            torch.logical_or(x, y),
            torch.logical_xor(x, y),
        )
    )


@register_case(
    "logical_mixed_dtypes", inputs=lambda: (torch.randn(3, 4).round(), _ints(3, 1))
)
def _() -> nn.Module:
    return Fn(
        lambda x, y: (
            torch.logical_and(x, y),
            torch.logical_or(y, x),
            torch.logical_xor(x, y),
        )
    )


@register_case("mask_from_comparisons", inputs=lambda: (torch.randn(4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.logical_and(x > -0.5, x < 0.5).to(torch.float32) * x)


# where.


@register_case(
    "where_f32", inputs=lambda: (_bools(3, 4), torch.randn(3, 4), torch.randn(3, 4))
)
def _() -> nn.Module:
    return Fn(torch.where)


@register_case(
    "where_broadcast",
    inputs=lambda: (_bools(3, 1), torch.randn(4), torch.randn(2, 1, 1)),
)
def _() -> nn.Module:
    return Fn(torch.where)


@register_case(
    "where_promotes_i64_f32", inputs=lambda: (_bools(5), _ints(5), torch.randn(5))
)
def _() -> nn.Module:
    return Fn(torch.where)


@register_case(
    "where_of_comparison", inputs=lambda: (torch.randn(4, 5), torch.randn(4, 5))
)
def _() -> nn.Module:
    return Fn(lambda x, y: torch.where(x > y, x, y * 2))


@register_case("where_bool_values", inputs=lambda: (_bools(6), _bools(6), _bools(6)))
def _() -> nn.Module:
    return Fn(torch.where)


@register_case(
    "where_scalar_other_self",
    inputs=lambda: (_bools(3, 4), torch.randn(3, 4), torch.randn(4)),
)
def _() -> nn.Module:
    # where.ScalarOther and where.ScalarSelf without decompositions.
    return Fn(lambda c, x, y: (torch.where(c, x, 0.5), torch.where(c, -1.0, y)))


@register_case("where_scalar_promotes", inputs=lambda: (_bools(2, 5), _ints(2, 5)))
def _() -> nn.Module:
    # An int64 tensor and a float scalar give float32; an int scalar keeps int64.
    return Fn(lambda c, i: (torch.where(c, i, 2.5), torch.where(c, 3, i)))


class _MaskedFill(nn.Module):
    """Attention-style masking: scores where the mask allows, else -inf."""

    def forward(self, scores: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(0, scores.shape[-1], 1)
        mask = positions < lengths.unsqueeze(-1)
        lowest = torch.full(scores.shape, float("-inf"))
        return torch.softmax(torch.where(mask, scores, lowest), dim=-1)


@register_case(
    "where_masked_softmax",
    inputs=lambda: (torch.randn(3, 6), torch.tensor([2, 6, 4])),
)
def _() -> nn.Module:
    return _MaskedFill()


# Bitwise ops: integers and bools, operands promoted to the result dtype.


@register_case(
    "bitwise_and_or_xor_int64_int32",
    inputs=lambda: (_ints(3, 4, low=-50, high=50), _ints(4, low=0, high=64).int()),
)
def _() -> nn.Module:
    return Fn(
        lambda x, y: (
            torch.bitwise_and(x, y),
            torch.bitwise_or(x, y),
            torch.bitwise_xor(x, y),
        )
    )


@register_case(
    "bitwise_and_bool_broadcast", inputs=lambda: (_bools(2, 1, 5), _bools(3, 5))
)
def _() -> nn.Module:
    return Fn(lambda x, y: (torch.bitwise_and(x, y), torch.bitwise_or(x, y)))


@register_case("bitwise_xor_uint8", inputs=lambda: (_u8(4, 6), _u8(4, 6)))
def _() -> nn.Module:
    return Fn(lambda x, y: torch.bitwise_xor(x, y))
