"""sum and mean over dimensions and over the whole tensor."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import Fn, register_case


@register_case("sum_dim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x.sum(1))


@register_case("sum_dim_keepdim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.sum(x, 2, keepdim=True))


@register_case("sum_negative_dims", inputs=lambda: (torch.randn(2, 3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x.sum((-1, -3)))


@register_case("sum_all", inputs=lambda: (torch.randn(4, 5, 6),))
def _() -> nn.Module:
    return Fn(torch.sum)


@register_case("sum_i64", inputs=lambda: (torch.randint(-100, 100, (3, 7)),))
def _() -> nn.Module:
    return Fn(lambda x: (x.sum(0), x.sum()))


@register_case(
    "sum_f64_keepdim", inputs=lambda: (torch.randn(3, 4, 5, dtype=torch.float64),)
)
def _() -> nn.Module:
    return Fn(lambda x: x.sum((0, 2), keepdim=True))


@register_case("mean_dim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x.mean(0))


@register_case("mean_spatial_keepdim", inputs=lambda: (torch.randn(2, 3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x.mean((2, 3), keepdim=True))


@register_case("mean_negative_dim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.mean(x, -1))


@register_case("mean_all", inputs=lambda: (torch.randn(5, 6),))
def _() -> nn.Module:
    return Fn(torch.mean)


@register_case("mean_f64", inputs=lambda: (torch.randn(4, 6, dtype=torch.float64),))
def _() -> nn.Module:
    return Fn(lambda x: (x.mean(1), x.mean()))
