"""ResNet-18 and ResNet-50 (He et al., 2015) with the layout of the usual
ImageNet models.

Written for this repository: a 7x7/2 stem convolution, 3x3/2 max pooling,
four stages of residual blocks (base widths 64, 128, 256, 512; stages 2-4
halve the resolution), global average pooling and a linear classifier.
ResNet-18 has two `BasicBlock`s per stage; ResNet-50 has 3, 4, 6, 3
`Bottleneck` blocks (1x1 reduce, 3x3 carrying the stride, 1x1 expand by 4,
so the stages output 256, 512, 1024, 2048 channels). The parameter and
buffer names match the common ImageNet checkpoints (`conv1`, `bn1`,
`layer1.0.conv1`, ..., `layer2.0.downsample.0`, `fc`).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn


def _conv3x3(in_channels: int, out_channels: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=1, bias=False)


def _shortcut(in_channels: int, out_channels: int, stride: int) -> nn.Module | None:
    """None (identity) when shapes agree, else a strided 1x1 conv + batch norm."""
    if stride == 1 and in_channels == out_channels:
        return None
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, 1, stride=stride, bias=False),
        nn.BatchNorm2d(out_channels),
    )


class BasicBlock(nn.Module):
    """Two 3x3 convolutions with batch norm and a residual connection.

    `out = relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut(x))`, where the
    shortcut is the identity, or a strided 1x1 convolution plus batch norm
    when the block changes the resolution or the channel count. The block
    outputs `width * expansion` = `width` channels.
    """

    #: output channels / `width`
    expansion = 1

    def __init__(self, in_channels: int, width: int, stride: int = 1) -> None:
        super().__init__()
        out_channels = width * self.expansion
        self.conv1 = _conv3x3(in_channels, width, stride)
        self.bn1 = nn.BatchNorm2d(width)
        # One ReLU module per use: PT2E quantizers annotate by module (a
        # shared one would be one partition with two outputs).
        self.relu1 = nn.ReLU()
        self.conv2 = _conv3x3(width, out_channels)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample = _shortcut(in_channels, out_channels, stride)
        self.relu2 = nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """`[N, in_channels, H, W]` -> `[N, out_channels, ceil(H/stride), ceil(W/stride)]`."""
        shortcut = x if self.downsample is None else self.downsample(x)
        y = self.relu1(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return self.relu2(y + shortcut)


class Bottleneck(nn.Module):
    """1x1 reduce, 3x3 (with the block's stride), 1x1 expand, plus a residual.

    `out = relu(bn3(conv3(relu(bn2(conv2(relu(bn1(conv1(x)))))))) + shortcut(x))`
    with `conv1: in -> width` (1x1), `conv2: width -> width` (3x3, stride),
    `conv3: width -> 4 * width` (1x1). The stride sits on the 3x3 convolution
    (the "v1.5" placement of the common ImageNet checkpoints). The shortcut is
    the identity, or a strided 1x1 convolution plus batch norm when the block
    changes the resolution or the channel count.
    """

    #: output channels / `width`
    expansion = 4

    def __init__(self, in_channels: int, width: int, stride: int = 1) -> None:
        super().__init__()
        out_channels = width * self.expansion
        self.conv1 = nn.Conv2d(in_channels, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = _conv3x3(width, width, stride)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, out_channels, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels)
        # One ReLU module per use (see BasicBlock).
        self.relu1, self.relu2, self.relu3 = nn.ReLU(), nn.ReLU(), nn.ReLU()
        self.downsample = _shortcut(in_channels, out_channels, stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """`[N, in_channels, H, W]` -> `[N, 4 * width, ceil(H/stride), ceil(W/stride)]`."""
        shortcut = x if self.downsample is None else self.downsample(x)
        y = self.relu1(self.bn1(self.conv1(x)))
        y = self.relu2(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        return self.relu3(y + shortcut)


class ResNet(nn.Module):
    """A ResNet with `blocks_per_stage[i]` blocks of type `block` in stage i.

    `block` is `BasicBlock` (ResNet-18/34) or `Bottleneck` (ResNet-50/101/152);
    the classifier reads `512 * block.expansion` features.
    """

    # The stages, which __init__ adds with add_module.
    layer1: nn.Sequential
    layer2: nn.Sequential
    layer3: nn.Sequential
    layer4: nn.Sequential

    def __init__(
        self,
        blocks_per_stage: Sequence[int],
        num_classes: int = 1000,
        block: type[BasicBlock | Bottleneck] = BasicBlock,
    ) -> None:
        super().__init__()
        if len(blocks_per_stage) != 4:
            raise ValueError(
                f"ResNet has 4 stages, got blocks_per_stage={list(blocks_per_stage)}"
            )
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        widths = (64, 128, 256, 512)
        in_channels = 64
        for index, (width, count) in enumerate(zip(widths, blocks_per_stage)):
            first_stride = 1 if index == 0 else 2
            out_channels = width * block.expansion
            blocks: list[nn.Module] = [block(in_channels, width, first_stride)]
            blocks += [block(out_channels, width) for _ in range(count - 1)]
            self.add_module(f"layer{index + 1}", nn.Sequential(*blocks))
            in_channels = out_channels
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * block.expansion, num_classes)
        self._init_weights()

    def _init_weights(self) -> None:
        for module in self.modules():
            if isinstance(module, nn.Conv2d):
                nn.init.kaiming_normal_(
                    module.weight, mode="fan_out", nonlinearity="relu"
                )
            elif isinstance(module, nn.BatchNorm2d):
                nn.init.ones_(module.weight)
                nn.init.zeros_(module.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Class logits.

        Args:
            x: float32 images `[N, 3, H, W]`; H and W of at least 32 keep every
                stage non-empty (224x224 is the ImageNet size).

        Returns:
            float32 logits `[N, num_classes]`.
        """
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def resnet18(num_classes: int = 1000, *, seed: int = 0) -> ResNet:
    """ResNet-18 with random weights, in eval mode.

    Convolutions use Kaiming-normal initialization (fan-out, ReLU gain), batch
    norms start as the identity (weight 1, bias 0, running mean 0, running
    variance 1) and the classifier uses `nn.Linear`'s default initialization,
    all drawn from `seed`; the global random state is left as it was.

    Args:
        num_classes: width of the classifier.
        seed: seed of the weight initialization.

    Returns:
        A `ResNet` with float32 parameters (about 11.7M for 1000 classes) that
        maps float32 images `[N, 3, H, W]` to float32 logits `[N, num_classes]`.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = ResNet((2, 2, 2, 2), num_classes)
    return model.eval()


def resnet50(num_classes: int = 1000, *, seed: int = 0) -> ResNet:
    """ResNet-50 (3, 4, 6, 3 `Bottleneck` blocks) with random weights, in eval mode.

    Initialized like :func:`resnet18`: Kaiming-normal convolutions (fan-out,
    ReLU gain), identity batch norms (weight 1, bias 0, running mean 0,
    running variance 1) and `nn.Linear`'s default classifier, all drawn from
    `seed`; the global random state is left as it was.

    Args:
        num_classes: width of the classifier.
        seed: seed of the weight initialization.

    Returns:
        A `ResNet` with float32 parameters (about 25.6M for 1000 classes) that
        maps float32 images `[N, 3, H, W]` to float32 logits `[N, num_classes]`
        (about 4.1 GMAC per 224x224 image).
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = ResNet((3, 4, 6, 3), num_classes, Bottleneck)
    return model.eval()
