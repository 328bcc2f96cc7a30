"""Shape and layout ops: transpose, permute, view/reshape, flatten, unsqueeze,
squeeze, expand, clone."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import Fn, register_case


@register_case("transpose_2d", inputs=lambda: (torch.randn(3, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.transpose(x, 0, 1))


@register_case("transpose_3d_negative_dims", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x.transpose(-1, -3))


@register_case(
    "transpose_then_add", inputs=lambda: (torch.randn(4, 3), torch.randn(3, 4))
)
def _() -> nn.Module:
    # The transposed operand reaches an elementwise op without a copy.
    return Fn(lambda x, y: x.transpose(0, 1) + y)


@register_case("permute_3d", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x.permute(2, 0, 1))


@register_case("permute_4d_negative_dims", inputs=lambda: (torch.randn(2, 3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x.permute(0, -1, 1, -2))


@register_case("view_merge_dims", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x.view(6, 4))


@register_case("view_split_dims_infer", inputs=lambda: (torch.randn(12, 5),))
def _() -> nn.Module:
    return Fn(lambda x: x.view(3, -1, 5))


@register_case("view_regroup", inputs=lambda: (torch.randn(4, 6),))
def _() -> nn.Module:
    # [4, 6] -> [3, 8]: neither a pure merge nor a pure split of dimensions.
    return Fn(lambda x: x.view(3, 8))


@register_case("view_trailing_unit_dim", inputs=lambda: (torch.randn(9, 1),))
def _() -> nn.Module:
    # [9, 1] -> [1, 1, 9]: no grouping of dims, through a flat tensor.
    return Fn(lambda x: x.view(1, 1, 9))


@register_case("view_dtype_same_width", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    # The bits of float32 read as int32, and of bool as uint8.
    return Fn(lambda x: (x.view(torch.int32), (x > 0).view(torch.uint8)))


@register_case(
    "view_dtype_other_widths",
    inputs=lambda: (
        torch.randn(3, 4),
        torch.randint(-128, 128, (2, 8), dtype=torch.int8),
    ),
)
def _() -> nn.Module:
    # Wide -> narrow (float32 as int16 pairs, as bool bytes) and narrow ->
    # wide (int8 octets as float64, quartets as int32).
    return Fn(
        lambda x, b: (
            x.view(torch.int16),
            (x > 0).to(torch.int32).view(torch.bool),
            b.view(torch.float64),
            b.view(torch.int32),
        )
    )


@register_case("reshape_to_1d", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x.reshape(-1))


@register_case("reshape_after_transpose", inputs=lambda: (torch.randn(3, 4, 2),))
def _() -> nn.Module:
    # reshape of a non-contiguous tensor: eager PyTorch copies here.
    return Fn(lambda x: x.transpose(0, 1).reshape(4, 6))


@register_case("reshape_i64", inputs=lambda: (torch.randint(-100, 100, (6, 4)),))
def _() -> nn.Module:
    return Fn(lambda x: x.reshape(2, 2, 6))


@register_case("flatten_all", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(torch.flatten)


@register_case("flatten_start_end", inputs=lambda: (torch.randn(2, 3, 4, 5),))
def _() -> nn.Module:
    return Fn(lambda x: torch.flatten(x, 1, 2))


@register_case("flatten_module", inputs=lambda: (torch.randn(2, 4, 3, 3),))
def _() -> nn.Module:
    return nn.Flatten()


@register_case("unsqueeze_front_and_back", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: (x.unsqueeze(0), x.unsqueeze(-1)))


@register_case("unsqueeze_middle", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: torch.unsqueeze(x, 1))


@register_case("squeeze_dim", inputs=lambda: (torch.randn(3, 1, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x.squeeze(1))


@register_case("squeeze_all", inputs=lambda: (torch.randn(1, 3, 1, 4, 1),))
def _() -> nn.Module:
    return Fn(torch.squeeze)


@register_case("squeeze_dims_negative", inputs=lambda: (torch.randn(1, 3, 1, 4, 1),))
def _() -> nn.Module:
    return Fn(lambda x: x.squeeze((0, -1)))


@register_case("expand_unit_dim", inputs=lambda: (torch.randn(3, 1),))
def _() -> nn.Module:
    return Fn(lambda x: x.expand(3, 4))


@register_case("expand_new_leading_dims", inputs=lambda: (torch.randn(4),))
def _() -> nn.Module:
    return Fn(lambda x: x.expand(2, 3, 4))


@register_case(
    "expand_keep_dims_then_mul",
    inputs=lambda: (torch.randn(2, 1, 4), torch.randn(2, 3, 4)),
)
def _() -> nn.Module:
    return Fn(lambda x, y: x.expand(-1, 3, -1) * y)


@register_case("expand_i64", inputs=lambda: (torch.randint(0, 50, (1, 3)),))
def _() -> nn.Module:
    return Fn(lambda x: x.expand(2, 3))


@register_case("clone", inputs=lambda: (torch.randn(3, 4),))
def _() -> nn.Module:
    return Fn(torch.clone)


@register_case("clone_of_permute", inputs=lambda: (torch.randn(2, 3, 4),))
def _() -> nn.Module:
    return Fn(lambda x: x.permute(1, 2, 0).clone())
