"""full, zeros, ones and arange: tensors made inside the program."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import Fn, register_case


@register_case("full_f32", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x + torch.full((3, 4), 2.5))


@register_case("full_i64", inputs=lambda: (torch.randint(-5, 5, (2, 3)),))
def _() -> nn.Module:
    return Fn(lambda x: x * torch.full((2, 3), 7))


@register_case("full_dtype_arg", inputs=lambda: (torch.randn(4, dtype=torch.float64),))
def _() -> nn.Module:
    return Fn(lambda x: x - torch.full((4,), 3, dtype=torch.float64))


@register_case("full_bool", inputs=lambda: (torch.randn(2, 2),))
def _() -> nn.Module:
    return Fn(lambda x: torch.logical_and(torch.full((2, 2), True), x > 0))


@register_case("arange_f32", inputs=lambda: (torch.randn(10),))
def _() -> nn.Module:
    return Fn(lambda x: x + torch.arange(0, 1, 0.1))


@register_case("arange_i64", inputs=lambda: (torch.randint(0, 5, (4,)),))
def _() -> nn.Module:
    return Fn(lambda x: x * torch.arange(2, 14, 3))


@register_case("arange_negative_step", inputs=lambda: (torch.randn(5),))
def _() -> nn.Module:
    return Fn(lambda x: x * torch.arange(10, 0, -2))


@register_case("arange_end_only", inputs=lambda: (torch.randn(3, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x + torch.arange(5))


@register_case(
    "arange_dtype_arg", inputs=lambda: (torch.randn(6, dtype=torch.float64),)
)
def _() -> nn.Module:
    return Fn(lambda x: x * torch.arange(-3, 3, 1, dtype=torch.float64))


@register_case("arange_start_end", inputs=lambda: (torch.randn(2, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x * torch.arange(3, 7))


@register_case("arange_float_end", inputs=lambda: (torch.randn(4),))
def _() -> nn.Module:
    # A float end makes a float32 range: 0, 1, 2, 3.
    return Fn(lambda x: x + torch.arange(3.5))


@register_case("zeros_ones", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x * torch.ones(3, 4) + torch.zeros(4))


@register_case("zeros_ones_dtype_arg", inputs=lambda: (torch.randint(-5, 5, (2, 3)),))
def _() -> nn.Module:
    return Fn(
        lambda x: (
            x * torch.ones(2, 3, dtype=torch.int64),
            torch.zeros(3, dtype=torch.float64) + 1.5,
            torch.ones(2, dtype=torch.bool),
        )
    )
