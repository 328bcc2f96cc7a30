"""2-D convolution: stride, padding, dilation, groups (incl. depthwise), bias."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import register_case


@register_case("conv2d_basic", inputs=lambda: (torch.randn(1, 3, 10, 10),))
def _() -> nn.Module:
    return nn.Conv2d(3, 8, 3)


@register_case("conv2d_batch2_no_bias", inputs=lambda: (torch.randn(2, 3, 9, 9),))
def _() -> nn.Module:
    return nn.Conv2d(3, 4, 3, bias=False)


@register_case("conv2d_stride2_padding1", inputs=lambda: (torch.randn(1, 4, 11, 11),))
def _() -> nn.Module:
    return nn.Conv2d(4, 6, 3, stride=2, padding=1)


@register_case("conv2d_dilation2", inputs=lambda: (torch.randn(1, 2, 12, 12),))
def _() -> nn.Module:
    return nn.Conv2d(2, 4, 3, dilation=2, padding=1)


@register_case("conv2d_asymmetric", inputs=lambda: (torch.randn(2, 3, 9, 13),))
def _() -> nn.Module:
    return nn.Conv2d(3, 5, (3, 5), stride=(2, 1), padding=(1, 2), dilation=(1, 2))


@register_case("conv2d_1x1", inputs=lambda: (torch.randn(2, 8, 5, 5),))
def _() -> nn.Module:
    return nn.Conv2d(8, 3, 1)


@register_case("conv2d_groups2", inputs=lambda: (torch.randn(1, 4, 8, 8),))
def _() -> nn.Module:
    return nn.Conv2d(4, 6, 3, padding=1, groups=2)


@register_case("conv2d_depthwise", inputs=lambda: (torch.randn(2, 8, 7, 7),))
def _() -> nn.Module:
    return nn.Conv2d(8, 8, 3, padding=1, groups=8)


@register_case(
    "conv2d_depthwise_multiplier2_no_bias", inputs=lambda: (torch.randn(1, 4, 9, 9),)
)
def _() -> nn.Module:
    return nn.Conv2d(4, 8, 3, stride=2, groups=4, bias=False)


@register_case("conv2d_padding_same", inputs=lambda: (torch.randn(1, 3, 8, 8),))
def _() -> nn.Module:
    # padding="same" exports as aten.conv2d.padding (a string padding).
    return nn.Conv2d(3, 4, 3, padding="same")


@register_case(
    "conv2d_f64", inputs=lambda: (torch.randn(1, 3, 8, 8, dtype=torch.float64),)
)
def _() -> nn.Module:
    return nn.Conv2d(3, 4, 3, stride=2, padding=1).double()


@register_case("conv2d_relu_conv", inputs=lambda: (torch.randn(1, 3, 12, 12),))
def _() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 4, 3, stride=2)
    )
