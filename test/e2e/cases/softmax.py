"""softmax and log_softmax over one dimension."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import Fn, register_case


@register_case("softmax_dim1", inputs=lambda: (torch.randn(3, 5),))
def _() -> nn.Module:
    return nn.Softmax(dim=1)


@register_case("softmax_last_dim_3d", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: torch.softmax(x, -1))


@register_case("softmax_dim0", inputs=lambda: (torch.randn(4, 3, 2),))
def _() -> nn.Module:
    return Fn(lambda x: x.softmax(0))


@register_case("softmax_middle_dim_slabs", inputs=lambda: (torch.randn(5, 70, 3, 4),))
def _() -> nn.Module:
    # A middle dim: slab by slab ([70, 12] slabs, 5 of them, in parallel).
    return Fn(lambda x: torch.softmax(x, 1))


@register_case(
    "log_softmax_middle_dim_large_logits",
    inputs=lambda: (torch.randn(3, 40, 9) * 100,),
)
def _() -> nn.Module:
    return Fn(lambda x: torch.log_softmax(x, 1))


@register_case("softmax_large_logits", inputs=lambda: (torch.randn(2, 8) * 100,))
def _() -> nn.Module:
    # exp of the raw logits overflows float32: the max must be subtracted first.
    return Fn(lambda x: torch.softmax(x, 1))


@register_case("softmax_f64", inputs=lambda: (torch.randn(3, 6, dtype=torch.float64),))
def _() -> nn.Module:
    return Fn(lambda x: torch.softmax(x, 1))


@register_case("log_softmax_dim1", inputs=lambda: (torch.randn(3, 5),))
def _() -> nn.Module:
    return nn.LogSoftmax(dim=1)


@register_case(
    "log_softmax_last_dim_large_logits", inputs=lambda: (torch.randn(2, 3, 7) * 100,)
)
def _() -> nn.Module:
    return Fn(lambda x: torch.log_softmax(x, -1))


@register_case(
    "log_softmax_f64", inputs=lambda: (torch.randn(4, 5, dtype=torch.float64),)
)
def _() -> nn.Module:
    return Fn(lambda x: torch.nn.functional.log_softmax(x, dim=0))


@register_case(
    "attention_scores",
    inputs=lambda: (torch.randn(2, 5, 8), torch.randn(2, 5, 8), torch.randn(2, 5, 8)),
)
def _() -> nn.Module:
    # softmax(q k^T / sqrt(d)) v with bmm-shaped matmuls.
    return Fn(
        lambda q, k, v: torch.matmul(
            torch.softmax(torch.matmul(q, k.transpose(1, 2)) / 8**0.5, -1), v
        )
    )


def _rows_of_extremes() -> torch.Tensor:
    """[6, 130] float32 rows, each long enough for the vector loop and its
    remainder: a NaN (mid-row, and last), +inf, -inf, a row of -inf only,
    -0.0 next to +0.0 as the largest values, and a plain row."""
    x = torch.randn(6, 130)
    x[0, 77] = float("nan")
    x[1, 129] = float("nan")
    x[2, 3] = float("inf")
    x[3, :] = float("-inf")
    x[4, :] = -torch.rand(130) - 1.0
    x[4, 10], x[4, 100] = -0.0, 0.0
    x[5, 40] = float("-inf")
    return x


# softmax's max treats -0.0 and +0.0 alike (nsz): a NaN must still make its
# whole row NaN, +inf its row NaN but for the other entries' 0, a row of
# -inf NaN, and a row whose max is a zero of either sign the same values,
# as in eager; along the last dim (row by row), along a middle dim (slab
# by slab) and along dim 0 (whole-tensor passes).
@register_case("softmax_rows_of_extremes", inputs=lambda: (_rows_of_extremes(),))
def _() -> nn.Module:
    return Fn(
        lambda x: (
            torch.softmax(x, -1),
            torch.log_softmax(x, -1),
            torch.softmax(x.reshape(2, 3, 130), 1),
            torch.log_softmax(x.t(), 0),
        )
    )


@register_case("softmax_of_empty_tensors", inputs=lambda: (torch.randn(5, 0, 3),))
def _() -> nn.Module:
    # No element: an empty result along every dim (rows, slabs, passes).
    return Fn(
        lambda x: (torch.softmax(x, -1), torch.log_softmax(x, 1), torch.softmax(x, 0))
    )
