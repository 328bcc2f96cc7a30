"""MobileNetV3-Small (Howard et al., "Searching for MobileNetV3", 2019) and an
EfficientNet-B0-style network (Tan and Le, "EfficientNet", 2019).

Written for this repository from the architecture tables of the two papers
(MobileNetV3 Table 2, EfficientNet Table 1). Both are stacks of inverted
residual blocks: an optional 1x1 expansion convolution, a depthwise k x k
convolution that carries the stride, an optional squeeze-and-excitation gate,
and a 1x1 linear projection, with a residual connection when the block keeps
the resolution and the channel count. Every convolution but the classifier's
is followed by batch norm.

- MobileNetV3-Small: hardswish / ReLU activations (per block), SE gates with
  ReLU and hardsigmoid and a bottleneck of ``expanded / 4`` channels rounded
  to a multiple of 8; head: 1x1 conv to 576 channels, global average pooling,
  1x1 conv (here an ``nn.Linear``) to 1024 with hardswish, classifier.
- EfficientNet-B0: SiLU everywhere, SE gates with SiLU and sigmoid and a
  bottleneck of ``block input / 4`` channels; head: 1x1 conv to 1280
  channels, global average pooling, classifier. (No dropout or stochastic
  depth: they are the identity in eval mode.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

import torch
from torch import nn

#: An activation module factory (``nn.ReLU``, ``nn.Hardswish``, ``nn.SiLU``).
Activation = Callable[[], nn.Module]


def _round_to_8(channels: float) -> int:
    """`channels` rounded to the nearest multiple of 8 (at least 8), never
    more than 10% below `channels` (the usual MobileNet channel rounding)."""
    rounded = max(8, int(channels + 4) // 8 * 8)
    if rounded < 0.9 * channels:
        rounded += 8
    return rounded


def _conv_bn(
    in_channels: int,
    out_channels: int,
    kernel: int,
    stride: int = 1,
    groups: int = 1,
    activation: Activation | None = None,
) -> nn.Sequential:
    """k x k convolution ('same' padding for odd k, no bias), batch norm, and
    `activation` when given."""
    layers: list[nn.Module] = [
        nn.Conv2d(
            in_channels,
            out_channels,
            kernel,
            stride=stride,
            padding=kernel // 2,
            groups=groups,
            bias=False,
        ),
        nn.BatchNorm2d(out_channels),
    ]
    if activation is not None:
        layers.append(activation())
    return nn.Sequential(*layers)


class SqueezeExcitation(nn.Module):
    """Channel gate: `x * gate(fc2(act(fc1(mean_hw(x)))))`.

    `fc1: channels -> squeezed` and `fc2: squeezed -> channels` are 1x1
    convolutions with bias; `gate` is hardsigmoid (MobileNetV3) or sigmoid
    (EfficientNet).
    """

    def __init__(
        self,
        channels: int,
        squeezed: int,
        activation: Activation = nn.ReLU,
        gate: Activation = nn.Hardsigmoid,
    ) -> None:
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(channels, squeezed, 1)
        self.act = activation()
        self.fc2 = nn.Conv2d(squeezed, channels, 1)
        self.gate = gate()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """`[N, C, H, W]` -> `[N, C, H, W]`."""
        scale = self.gate(self.fc2(self.act(self.fc1(self.pool(x)))))
        return x * scale


class InvertedResidual(nn.Module):
    """Expand (1x1, skipped when `expanded == in_channels`), depthwise k x k
    with `stride`, optional squeeze-and-excitation, project (1x1, linear),
    plus the input when `stride == 1` and `in_channels == out_channels`."""

    def __init__(
        self,
        in_channels: int,
        kernel: int,
        expanded: int,
        out_channels: int,
        stride: int,
        activation: Activation,
        se: SqueezeExcitation | None = None,
    ) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        if expanded != in_channels:
            layers.append(_conv_bn(in_channels, expanded, 1, activation=activation))
        layers.append(
            _conv_bn(
                expanded,
                expanded,
                kernel,
                stride,
                groups=expanded,
                activation=activation,
            )
        )
        if se is not None:
            layers.append(se)
        layers.append(_conv_bn(expanded, out_channels, 1))
        self.block = nn.Sequential(*layers)
        self.residual = stride == 1 and in_channels == out_channels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """`[N, in, H, W]` -> `[N, out, ceil(H/stride), ceil(W/stride)]`."""
        y = self.block(x)
        return x + y if self.residual else y


def _init_weights(model: nn.Module) -> None:
    """Kaiming-normal convolutions (fan-in, ReLU gain: fan-in counts one
    group's input channels, so depthwise convolutions keep the signal's
    scale) with zero bias, identity batch norms, N(0, 0.01) linear layers
    with zero bias."""
    for module in model.modules():
        if isinstance(module, nn.Conv2d):
            nn.init.kaiming_normal_(module.weight, mode="fan_in", nonlinearity="relu")
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.BatchNorm2d):
            nn.init.ones_(module.weight)
            nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, 0.0, 0.01)
            nn.init.zeros_(module.bias)


class MobileNetBlock(NamedTuple):
    """One row of MobileNetV3's architecture table."""

    kernel: int
    expanded: int
    out_channels: int
    se: bool
    hardswish: bool
    stride: int


#: MobileNetV3-Small, Table 2 of the paper (after the 3x3/2 stem of 16 channels).
MOBILENET_V3_SMALL: tuple[MobileNetBlock, ...] = (
    MobileNetBlock(3, 16, 16, True, False, 2),
    MobileNetBlock(3, 72, 24, False, False, 2),
    MobileNetBlock(3, 88, 24, False, False, 1),
    MobileNetBlock(5, 96, 40, True, True, 2),
    MobileNetBlock(5, 240, 40, True, True, 1),
    MobileNetBlock(5, 240, 40, True, True, 1),
    MobileNetBlock(5, 120, 48, True, True, 1),
    MobileNetBlock(5, 144, 48, True, True, 1),
    MobileNetBlock(5, 288, 96, True, True, 2),
    MobileNetBlock(5, 576, 96, True, True, 1),
    MobileNetBlock(5, 576, 96, True, True, 1),
)


class MobileNetV3(nn.Module):
    """MobileNetV3 from a table of `MobileNetBlock` rows.

    Stem: 3x3/2 conv to `stem` channels with hardswish. Head: 1x1 conv to
    `last_conv` channels with hardswish, global average pooling, linear to
    `last_linear` with hardswish, linear classifier.
    """

    def __init__(
        self,
        blocks: Sequence[MobileNetBlock] = MOBILENET_V3_SMALL,
        *,
        stem: int = 16,
        last_conv: int = 576,
        last_linear: int = 1024,
        num_classes: int = 1000,
    ) -> None:
        super().__init__()
        layers: list[nn.Module] = [_conv_bn(3, stem, 3, 2, activation=nn.Hardswish)]
        channels = stem
        for row in blocks:
            se = None
            if row.se:
                se = SqueezeExcitation(row.expanded, _round_to_8(row.expanded / 4))
            layers.append(
                InvertedResidual(
                    channels,
                    row.kernel,
                    row.expanded,
                    row.out_channels,
                    row.stride,
                    nn.Hardswish if row.hardswish else nn.ReLU,
                    se,
                )
            )
            channels = row.out_channels
        layers.append(_conv_bn(channels, last_conv, 1, activation=nn.Hardswish))
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Sequential(
            nn.Linear(last_conv, last_linear),
            nn.Hardswish(),
            nn.Linear(last_linear, num_classes),
        )
        _init_weights(self)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Class logits.

        Args:
            x: float32 images `[N, 3, H, W]` (224x224 is the ImageNet size;
                any H, W >= 32 works: the network strides by 32 in total).

        Returns:
            float32 logits `[N, num_classes]`.
        """
        return self.classifier(torch.flatten(self.pool(self.features(x)), 1))


class EfficientNetStage(NamedTuple):
    """One row of EfficientNet's architecture table (a stage of MBConv blocks;
    the first block of the stage carries the stride)."""

    expand_ratio: int
    kernel: int
    stride: int
    out_channels: int
    layers: int


#: EfficientNet-B0, Table 1 of the paper (after the 3x3/2 stem of 32 channels).
EFFICIENTNET_B0: tuple[EfficientNetStage, ...] = (
    EfficientNetStage(1, 3, 1, 16, 1),
    EfficientNetStage(6, 3, 2, 24, 2),
    EfficientNetStage(6, 5, 2, 40, 2),
    EfficientNetStage(6, 3, 2, 80, 3),
    EfficientNetStage(6, 5, 1, 112, 3),
    EfficientNetStage(6, 5, 2, 192, 4),
    EfficientNetStage(6, 3, 1, 320, 1),
)


class EfficientNet(nn.Module):
    """EfficientNet from a table of `EfficientNetStage` rows.

    Stem: 3x3/2 conv to `stem` channels with SiLU. Blocks: MBConv (inverted
    residuals with SiLU and an SE gate squeezing to a quarter of the block's
    input channels). Head: 1x1 conv to `head` channels with SiLU, global
    average pooling, linear classifier.
    """

    def __init__(
        self,
        stages: Sequence[EfficientNetStage] = EFFICIENTNET_B0,
        *,
        stem: int = 32,
        head: int = 1280,
        num_classes: int = 1000,
    ) -> None:
        super().__init__()
        layers: list[nn.Module] = [_conv_bn(3, stem, 3, 2, activation=nn.SiLU)]
        channels = stem
        for stage in stages:
            for index in range(stage.layers):
                expanded = channels * stage.expand_ratio
                se = SqueezeExcitation(
                    expanded, max(1, channels // 4), nn.SiLU, nn.Sigmoid
                )
                layers.append(
                    InvertedResidual(
                        channels,
                        stage.kernel,
                        expanded,
                        stage.out_channels,
                        stage.stride if index == 0 else 1,
                        nn.SiLU,
                        se,
                    )
                )
                channels = stage.out_channels
        layers.append(_conv_bn(channels, head, 1, activation=nn.SiLU))
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(head, num_classes)
        _init_weights(self)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Class logits.

        Args:
            x: float32 images `[N, 3, H, W]` (224x224 is B0's ImageNet size;
                any H, W >= 32 works: the network strides by 32 in total).

        Returns:
            float32 logits `[N, num_classes]`.
        """
        return self.classifier(torch.flatten(self.pool(self.features(x)), 1))


_Model = TypeVar("_Model", bound=nn.Module)


def _build(factory: Callable[[], _Model], seed: int) -> _Model:
    """`factory()` under `seed`, with batch-norm statistics calibrated.

    With random weights and identity batch norms the activations shrink
    layer after layer (the SE gates alone halve them), and the logits end up
    too small for a comparison with eager PyTorch to mean much. So the batch
    norms' running mean and variance are set from one training-mode pass over
    a batch of 4 random 96x96 images (cumulative averaging, ``momentum=None``,
    so they are exactly that batch's statistics): every batch norm then
    normalizes to about unit scale, as in a trained network.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = factory()
        batch_norms = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
        for bn in batch_norms:
            bn.momentum = None
        model.train()
        with torch.no_grad():
            model(torch.randn(4, 3, 96, 96))
        for bn in batch_norms:
            bn.momentum = 0.1
    return model.eval()


def mobilenet_v3_small(num_classes: int = 1000, *, seed: int = 0) -> MobileNetV3:
    """MobileNetV3-Small with random weights, in eval mode.

    Kaiming-normal (fan-in) convolutions, batch norms with weight 1 and bias
    0 whose running statistics are those of one batch of 4 random 96x96
    images, N(0, 0.01) linear layers, all drawn from `seed`; the global
    random state is left as it was.

    Args:
        num_classes: width of the classifier.
        seed: seed of the weight initialization.

    Returns:
        A `MobileNetV3` (about 2.5M float32 parameters for 1000 classes) that
        maps float32 images `[N, 3, H, W]` to float32 logits `[N, num_classes]`.
    """
    return _build(lambda: MobileNetV3(num_classes=num_classes), seed)


def efficientnet_b0(num_classes: int = 1000, *, seed: int = 0) -> EfficientNet:
    """EfficientNet-B0 with random weights, in eval mode.

    Initialized like :func:`mobilenet_v3_small` (Kaiming-normal fan-in
    convolutions, batch norms calibrated on one random batch, N(0, 0.01)
    linear layers), all drawn from `seed`; the global random state is left
    as it was.

    Args:
        num_classes: width of the classifier.
        seed: seed of the weight initialization.

    Returns:
        An `EfficientNet` (about 5.3M float32 parameters for 1000 classes) that
        maps float32 images `[N, 3, H, W]` to float32 logits `[N, num_classes]`.
    """
    return _build(lambda: EfficientNet(num_classes=num_classes), seed)
