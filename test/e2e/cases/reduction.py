"""sum, mean, amax/amin, prod and argmax/argmin over dimensions and over the
whole tensor."""

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


# Long float sums: PyTorch's cascade summation stays within a few ulps of the
# exact sum, where a sequential f32 (or f16) loop drifts by O(n) ulps (about
# 1e-4 relative here); torch2mlir accumulates one step wider.
@register_case("sum_long_f32", inputs=lambda: (torch.rand(1 << 20),))
def _() -> nn.Module:
    return Fn(lambda x: (x.sum(), x.view(256, 4096).sum(1)))


@register_case(
    "mean_long_f16", inputs=lambda: (torch.rand(16, 4096, dtype=torch.float16),)
)
def _() -> nn.Module:
    return Fn(lambda x: (x.mean(), x.mean(1)))


@register_case("mean_dim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x.mean(0))


# A 0-d tensor: dim 0 names its one element (this aborted in the
# decomposition, found by the OpInfo harness).
@register_case("mean_0d_dim", inputs=lambda: (torch.tensor(-8.5),))
def _() -> nn.Module:
    return Fn(lambda x: x.mean(0, keepdim=True))


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


# amax/amin, prod, argmax/argmin.


def _ints(*shape: int, low: int = -3, high: int = 3) -> torch.Tensor:
    return torch.randint(low, high, shape, dtype=torch.int64)


def _with_nans(*shape: int) -> torch.Tensor:
    x = torch.randn(*shape)
    x.view(-1)[::7] = float("nan")
    return x


@register_case("amax_dims", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.amax(x, (0, 2)))


@register_case("amax_keepdim_negative_dim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.amax(x, -1, keepdim=True))


@register_case("amin_all", inputs=lambda: (torch.randn(4, 6),))
def _() -> nn.Module:
    return Fn(torch.amin)


def _rows_with_nan_and_zeros() -> torch.Tensor:
    """[4, 150] float32: a NaN mid-row (in the vector loop) and in the last
    column (the remainder), a row whose extremes are -0.0 and +0.0, and a
    plain row."""
    x = torch.randn(4, 150)
    x[0, 70] = float("nan")
    x[1, 149] = float("nan")
    x[2] = -torch.rand(150) - 1.0
    x[2, 5], x[2, 140] = -0.0, 0.0
    x[3, 0] = float("-inf")
    return x


# amax/amin may treat -0.0 and +0.0 alike (nsz) but must propagate a NaN
# anywhere in the reduced row.
@register_case(
    "amax_amin_nan_and_signed_zeros", inputs=lambda: (_rows_with_nan_and_zeros(),)
)
def _() -> nn.Module:
    return Fn(
        lambda x: (
            torch.amax(x, -1),
            torch.amin(x, -1),
            torch.amax(x, 0),
            -torch.amin(-x, 1),
        )
    )


@register_case("amax_amin_i64", inputs=lambda: (_ints(4, 5, low=-100, high=100),))
def _() -> nn.Module:
    return Fn(lambda x: (torch.amax(x, 1), torch.amin(x, 0, keepdim=True)))


@register_case("amax_amin_nan", inputs=lambda: (_with_nans(4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: (torch.amax(x, 1), torch.amin(x, 1)))


@register_case(
    "amax_bool", inputs=lambda: (torch.randint(0, 2, (3, 4), dtype=torch.bool),)
)
def _() -> nn.Module:
    return Fn(lambda x: (torch.amax(x, 1), torch.amin(x, 1)))


@register_case("prod_dim", inputs=lambda: (torch.rand(3, 4, 5) + 0.5,))
def _() -> nn.Module:
    return Fn(lambda x: torch.prod(x, 1))


@register_case("prod_keepdim_i64", inputs=lambda: (_ints(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: torch.prod(x, -1, keepdim=True))


@register_case("prod_dtype_arg", inputs=lambda: (_ints(2, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.prod(x, 0, dtype=torch.float32))


@register_case("prod_of_bool", inputs=lambda: (torch.rand(3, 4) > 0.2,))
def _() -> nn.Module:
    return Fn(lambda x: torch.prod(x, 1))


@register_case("argmax_dim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.argmax(x, 1))


@register_case("argmax_keepdim_negative_dim", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.argmax(x, -1, keepdim=True))


@register_case("argmax_flattened", inputs=lambda: (torch.randn(3, 4, 5),))
def _() -> nn.Module:
    return Fn(torch.argmax)


@register_case("argmin_flattened_keepdim", inputs=lambda: (torch.randn(4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.argmin(x, keepdim=True))


@register_case("argmax_argmin_i64_ties", inputs=lambda: (_ints(4, 8),))
def _() -> nn.Module:
    # Values in [-3, 3): many ties; PyTorch returns the first index.
    return Fn(lambda x: (torch.argmax(x, 1), torch.argmin(x, 0), torch.argmax(x)))


@register_case("argmax_argmin_nan", inputs=lambda: (_with_nans(5, 6),))
def _() -> nn.Module:
    return Fn(lambda x: (torch.argmax(x, 1), torch.argmin(x, 1)))


@register_case(
    "argmax_u8", inputs=lambda: (torch.randint(0, 256, (3, 7), dtype=torch.uint8),)
)
def _() -> nn.Module:
    return Fn(lambda x: (torch.argmax(x, 1), torch.argmin(x, 1)))


# cumsum: running sums in the result dtype.


@register_case("cumsum_f32_dim1", inputs=lambda: (torch.randn(3, 7, 2),))
def _() -> nn.Module:
    return Fn(lambda x: torch.cumsum(x, 1))


@register_case("cumsum_f32_long_rows", inputs=lambda: (torch.randn(4, 4096) * 10,))
def _() -> nn.Module:
    # PyTorch accumulates a float32 cumsum in float64: a float32 running sum
    # drifts by 1e-3 along 4096 elements.
    return Fn(lambda x: torch.cumsum(x, -1))


@register_case("cumsum_negative_dim_f64", inputs=lambda: (torch.randn(4, 5).double(),))
def _() -> nn.Module:
    return Fn(lambda x: torch.cumsum(x, -1))


@register_case(
    "cumsum_bool_to_int64",
    inputs=lambda: (torch.randint(0, 2, (2, 9), dtype=torch.bool),),
)
def _() -> nn.Module:
    # As transformers builds position ids from an attention mask.
    return Fn(lambda m: torch.cumsum(m, dim=1) - 1)


@register_case(
    "cumsum_int32_with_dtype",
    inputs=lambda: (torch.randint(-9, 9, (6,), dtype=torch.int32),),
)
def _() -> nn.Module:
    return Fn(lambda x: torch.cumsum(x, 0, dtype=torch.float32))


# max.dim / min.dim (values and first index), prod over everything, var.


@register_case("max_min_dim", inputs=lambda: (torch.randn(3, 4, 5), _ints(4, 8)))
def _() -> nn.Module:
    return Fn(
        lambda x, n: (
            *torch.max(x, dim=1),
            *torch.min(x, dim=-1, keepdim=True),
            *torch.max(n, dim=0),
            *torch.min(n, dim=1),
        )
    )


@register_case("max_dim_nan", inputs=lambda: (_with_nans(5, 6),))
def _() -> nn.Module:
    return Fn(lambda x: (*torch.max(x, dim=1), *torch.min(x, dim=0)))


@register_case(
    "prod_all", inputs=lambda: (torch.rand(3, 4) + 0.5, _ints(2, 3), torch.tensor(3.0))
)
def _() -> nn.Module:
    return Fn(
        lambda x, n, s: (
            torch.prod(x),
            torch.prod(n),
            torch.prod(s),
            torch.prod(x, dtype=torch.float64),
        )
    )


@register_case("var_forms", inputs=lambda: (torch.randn(3, 4, 5) * 3 + 1,))
def _() -> nn.Module:
    return Fn(
        lambda x: (
            torch.var(x),
            torch.var(x, dim=1),
            torch.var(x, dim=(0, 2), keepdim=True, unbiased=False),
            torch.var(x, dim=-1, correction=2),
            torch.ops.aten.var.dim(x, [1], True, False),
        )
    )


def _huge_and_infinite() -> torch.Tensor:
    inf = float("inf")
    x = torch.randn(5, 2, 3)
    x[0] = 3e38  # a float32 sum overflows; PyTorch's double accumulators do not
    x[1, 1, 2] = inf  # last of its row: the mean is inf
    x[2, 0, 1] = inf  # not last: PyTorch's Welford update makes the mean NaN
    x[3, 1, 0] = -inf
    x[3, 0, 2] = inf
    return x


@register_case("var_mean_huge_and_infinite", inputs=lambda: (_huge_and_infinite(),))
def _() -> nn.Module:
    return Fn(
        lambda x: (
            *torch.var_mean(x, dim=(1, 2)),
            *torch.var_mean(x, dim=-1, keepdim=True),
            *torch.std_mean(x, dim=(0, 2), correction=0),
            *torch.var_mean(x.half(), dim=(1, 2)),
            torch.var(x, dim=(1, 2)),
            torch.std(x, dim=-1),
        )
    )


@register_case(
    "var_single_element_is_nan", inputs=lambda: (torch.randn(4, 1).double(),)
)
def _() -> nn.Module:
    return Fn(lambda x: (torch.var(x, dim=1), torch.var(x, dim=1, unbiased=False)))


@register_case(
    "max_min_all", inputs=lambda: (torch.randn(3, 4), _ints(5), _with_nans(2, 7))
)
def _() -> nn.Module:
    return Fn(lambda x, n, z: (torch.max(x), torch.min(x), torch.max(n), torch.min(z)))
