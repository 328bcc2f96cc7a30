"""MaxPool2d, AvgPool2d and AdaptiveAvgPool2d."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import register_case


@register_case("maxpool2d_k2", inputs=lambda: (torch.randn(1, 3, 8, 8),))
def _() -> nn.Module:
    return nn.MaxPool2d(2)


@register_case("maxpool2d_k3_s2_p1", inputs=lambda: (torch.randn(2, 4, 9, 9),))
def _() -> nn.Module:
    # The ResNet stem pooling; inputs are mostly negative near the padding.
    return nn.MaxPool2d(3, stride=2, padding=1)


@register_case(
    "maxpool2d_negative_inputs_padding", inputs=lambda: (-torch.rand(1, 2, 6, 6) - 1.0,)
)
def _() -> nn.Module:
    # Every input is < -1: padding must not contribute a 0 to the max.
    return nn.MaxPool2d(3, stride=1, padding=1)


@register_case("maxpool2d_dilation", inputs=lambda: (torch.randn(1, 2, 10, 10),))
def _() -> nn.Module:
    return nn.MaxPool2d(3, stride=2, dilation=2)


@register_case("maxpool2d_ceil_mode", inputs=lambda: (torch.randn(1, 2, 7, 7),))
def _() -> nn.Module:
    return nn.MaxPool2d(2, stride=2, ceil_mode=True)


@register_case("maxpool2d_ceil_mode_padding", inputs=lambda: (torch.randn(1, 2, 6, 8),))
def _() -> nn.Module:
    return nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)


@register_case("maxpool2d_rect", inputs=lambda: (torch.randn(2, 3, 7, 9),))
def _() -> nn.Module:
    return nn.MaxPool2d((2, 3), stride=(1, 2), padding=(1, 0))


@register_case(
    "maxpool2d_f64", inputs=lambda: (torch.randn(1, 2, 6, 6, dtype=torch.float64),)
)
def _() -> nn.Module:
    return nn.MaxPool2d(2)


@register_case("avgpool2d_k2", inputs=lambda: (torch.randn(1, 3, 8, 8),))
def _() -> nn.Module:
    return nn.AvgPool2d(2)


@register_case(
    "avgpool2d_padding_count_include_pad", inputs=lambda: (torch.randn(1, 2, 7, 7),)
)
def _() -> nn.Module:
    return nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=True)


@register_case(
    "avgpool2d_padding_exclude_pad", inputs=lambda: (torch.randn(1, 2, 7, 7),)
)
def _() -> nn.Module:
    return nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)


@register_case("avgpool2d_ceil_mode", inputs=lambda: (torch.randn(1, 2, 7, 7),))
def _() -> nn.Module:
    return nn.AvgPool2d(2, stride=2, ceil_mode=True)


@register_case(
    "avgpool2d_ceil_mode_padding_include_pad", inputs=lambda: (torch.randn(1, 2, 6, 6),)
)
def _() -> nn.Module:
    # The last window runs past the padded input; PyTorch divides by the part
    # of the window that lies inside input + padding.
    return nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=True)


@register_case(
    "avgpool2d_ceil_mode_padding_exclude_pad", inputs=lambda: (torch.randn(1, 2, 6, 6),)
)
def _() -> nn.Module:
    return nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)


@register_case(
    "avgpool2d_rect_f64", inputs=lambda: (torch.randn(2, 2, 6, 9, dtype=torch.float64),)
)
def _() -> nn.Module:
    return nn.AvgPool2d((2, 3), stride=(2, 3))


@register_case("adaptive_avgpool2d_1x1", inputs=lambda: (torch.randn(2, 4, 7, 7),))
def _() -> nn.Module:
    return nn.AdaptiveAvgPool2d(1)


@register_case(
    "adaptive_avgpool2d_8x8_to_4x4", inputs=lambda: (torch.randn(1, 3, 8, 8),)
)
def _() -> nn.Module:
    return nn.AdaptiveAvgPool2d((4, 4))


@register_case("adaptive_avgpool2d_rect", inputs=lambda: (torch.randn(1, 2, 6, 12),))
def _() -> nn.Module:
    return nn.AdaptiveAvgPool2d((3, 4))
