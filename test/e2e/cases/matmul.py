"""Matrix products: mm, addmm, bmm, nn.Linear, torch.matmul."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import Fn, register_case


def _ints(*shape: int) -> torch.Tensor:
    return torch.randint(-8, 8, shape, dtype=torch.int64)


@register_case("mm_f32", inputs=lambda: (torch.randn(4, 5), torch.randn(5, 3)))
def _() -> nn.Module:
    return Fn(torch.mm)


@register_case(
    "mm_f32_row_vector", inputs=lambda: (torch.randn(1, 33), torch.randn(33, 17))
)
def _() -> nn.Module:
    return Fn(torch.mm)


@register_case(
    "mm_f64",
    inputs=lambda: (
        torch.randn(6, 7, dtype=torch.float64),
        torch.randn(7, 2, dtype=torch.float64),
    ),
)
def _() -> nn.Module:
    return Fn(torch.mm)


@register_case("mm_i64", inputs=lambda: (_ints(3, 4), _ints(4, 5)))
def _() -> nn.Module:
    return Fn(torch.mm)


@register_case(
    "addmm_bias_1d",
    inputs=lambda: (torch.randn(3), torch.randn(4, 5), torch.randn(5, 3)),
)
def _() -> nn.Module:
    return Fn(torch.addmm)


@register_case(
    "addmm_beta_alpha",
    inputs=lambda: (torch.randn(4, 3), torch.randn(4, 5), torch.randn(5, 3)),
)
def _() -> nn.Module:
    return Fn(lambda bias, a, b: torch.addmm(bias, a, b, beta=0.5, alpha=2.0))


@register_case(
    "addmm_beta_zero_f64",
    inputs=lambda: tuple(
        torch.randn(*s, dtype=torch.float64) for s in ((1, 3), (2, 4), (4, 3))
    ),
)
def _() -> nn.Module:
    return Fn(lambda bias, a, b: torch.addmm(bias, a, b, beta=0.0, alpha=-1.5))


@register_case("bmm_f32", inputs=lambda: (torch.randn(2, 3, 4), torch.randn(2, 4, 5)))
def _() -> nn.Module:
    return Fn(torch.bmm)


@register_case(
    "bmm_f64",
    inputs=lambda: (
        torch.randn(3, 1, 6, dtype=torch.float64),
        torch.randn(3, 6, 2, dtype=torch.float64),
    ),
)
def _() -> nn.Module:
    return Fn(torch.bmm)


@register_case("linear_2d", inputs=lambda: (torch.randn(3, 8),))
def _() -> nn.Module:
    return nn.Linear(8, 4)


@register_case("linear_3d", inputs=lambda: (torch.randn(2, 3, 8),))
def _() -> nn.Module:
    return nn.Linear(8, 4)


@register_case("linear_no_bias", inputs=lambda: (torch.randn(5, 16),))
def _() -> nn.Module:
    return nn.Linear(16, 7, bias=False)


@register_case(
    "linear_f64", inputs=lambda: (torch.randn(2, 2, 6, dtype=torch.float64),)
)
def _() -> nn.Module:
    return nn.Linear(6, 3).double()


@register_case("matmul_2d_2d", inputs=lambda: (torch.randn(5, 6), torch.randn(6, 4)))
def _() -> nn.Module:
    return Fn(torch.matmul)


@register_case(
    "matmul_3d_3d", inputs=lambda: (torch.randn(2, 5, 6), torch.randn(2, 6, 4))
)
def _() -> nn.Module:
    return Fn(torch.matmul)


@register_case("matmul_3d_2d", inputs=lambda: (torch.randn(3, 5, 6), torch.randn(6, 4)))
def _() -> nn.Module:
    return Fn(torch.matmul)


@register_case("matmul_operator_i64", inputs=lambda: (_ints(2, 3, 4), _ints(4, 2)))
def _() -> nn.Module:
    return Fn(lambda a, b: a @ b)


@register_case(
    "matmul_4d_4d_broadcast",
    inputs=lambda: (torch.randn(2, 1, 5, 6), torch.randn(1, 3, 6, 4)),
)
def _() -> nn.Module:
    return Fn(torch.matmul)


@register_case(
    "matmul_4d_3d_attention_scores",
    inputs=lambda: (torch.randn(2, 4, 8, 16), torch.randn(4, 16, 8)),
)
def _() -> nn.Module:
    return Fn(torch.matmul)
