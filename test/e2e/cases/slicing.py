"""slice, select and constant_pad_nd: static windows of a tensor, with
PyTorch's clamping of out-of-range bounds and negative indices."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from cases.registry import Fn, register_case


def _ints(*shape: int) -> torch.Tensor:
    return torch.randint(-100, 100, shape, dtype=torch.int64)


@register_case("slice_step", inputs=lambda: (torch.randn(5, 7),))
def _() -> nn.Module:
    return Fn(lambda x: x[1:4, ::2])


@register_case("slice_negative_bounds", inputs=lambda: (torch.randn(4, 6),))
def _() -> nn.Module:
    return Fn(lambda x: x[:, -4:-1])


@register_case("slice_out_of_range_end", inputs=lambda: (torch.randn(5, 3),))
def _() -> nn.Module:
    return Fn(lambda x: x[2:100])


@register_case("slice_clamped_start_step", inputs=lambda: (torch.randn(3, 8),))
def _() -> nn.Module:
    return Fn(lambda x: x[:, -100:7:3])


@register_case("slice_end_before_start", inputs=lambda: (torch.randn(4, 3),))
def _() -> nn.Module:
    return Fn(lambda x: x[3:1] + 1)


@register_case("slice_i64_3d", inputs=lambda: (_ints(4, 5, 6),))
def _() -> nn.Module:
    return Fn(lambda x: x[1:, :4, 1::2])


@register_case("narrow_f32", inputs=lambda: (torch.randn(3, 10),))
def _() -> nn.Module:
    return Fn(lambda x: torch.narrow(x, 1, 2, 5))


@register_case("select_int", inputs=lambda: (torch.randn(4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x[1])


@register_case("select_negative_index_dim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.select(x, -1, -2))


@register_case("select_to_0d_i64", inputs=lambda: (_ints(6),))
def _() -> nn.Module:
    return Fn(lambda x: x[-1] * 2)


@register_case("slice_then_select", inputs=lambda: (torch.randn(4, 6, 3),))
def _() -> nn.Module:
    return Fn(lambda x: x[1:3, :, 0] + x[:2, :, -1])


# constant_pad_nd: torch.constant_pad_nd exports as itself with both
# configs; F.pad only reaches it through the core-aten decompositions.


@register_case("constant_pad_nd_f32", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: torch.constant_pad_nd(x, [1, 2, 0, 3], 0.5))


@register_case("constant_pad_nd_negative_crops", inputs=lambda: (torch.randn(4, 6),))
def _() -> nn.Module:
    return Fn(lambda x: torch.constant_pad_nd(x, [-1, 2, 1, -2], -1.0))


@register_case("constant_pad_nd_i64", inputs=lambda: (_ints(3, 3),))
def _() -> nn.Module:
    return Fn(lambda x: torch.constant_pad_nd(x, [2, 1], 7))


@register_case("pad_functional", inputs=lambda: (torch.randn(1, 2, 3, 3),))
def _() -> nn.Module:
    return Fn(lambda x: F.pad(x, (1, 1, 2, 0), value=3.0))


@register_case("pad_functional_negative", inputs=lambda: (torch.randn(2, 5, 5),))
def _() -> nn.Module:
    return Fn(lambda x: F.pad(x, (-1, -2, 1, 0)))
