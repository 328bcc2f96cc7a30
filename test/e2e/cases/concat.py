"""torch.cat over several dimensions and operand counts."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import Fn, register_case


@register_case("cat_dim0_two", inputs=lambda: (torch.randn(2, 3), torch.randn(4, 3)))
def _() -> nn.Module:
    return Fn(lambda a, b: torch.cat([a, b]))


@register_case(
    "cat_dim1_three",
    inputs=lambda: (torch.randn(2, 1, 4), torch.randn(2, 3, 4), torch.randn(2, 2, 4)),
)
def _() -> nn.Module:
    return Fn(lambda a, b, c: torch.cat((a, b, c), dim=1))


@register_case(
    "cat_last_dim_four",
    inputs=lambda: tuple(torch.randn(3, 2, n) for n in (1, 2, 3, 4)),
)
def _() -> nn.Module:
    return Fn(lambda a, b, c, d: torch.cat([a, b, c, d], -1))


@register_case("cat_same_tensor_twice", inputs=lambda: (torch.randn(2, 3),))
def _() -> nn.Module:
    return Fn(lambda a: torch.cat([a, a * 2], 1))


@register_case(
    "cat_i64", inputs=lambda: (torch.randint(0, 9, (2, 2)), torch.randint(0, 9, (2, 3)))
)
def _() -> nn.Module:
    return Fn(lambda a, b: torch.cat([a, b], dim=-1))


@register_case(
    "cat_f64_4d_channels",
    inputs=lambda: (
        torch.randn(1, 2, 3, 3, dtype=torch.float64),
        torch.randn(1, 5, 3, 3, dtype=torch.float64),
    ),
)
def _() -> nn.Module:
    return Fn(lambda a, b: torch.cat([a, b], 1))
