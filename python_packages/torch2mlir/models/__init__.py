"""Small reference models written in this repository (no downloads, no torchvision).

They are used by the demo (`nox -s demo`) and by the end-to-end tests. Every
factory builds its weights from a fixed seed without touching PyTorch's global
random state, so two calls give bit-identical models.
"""

from torch2mlir.models.mlp import MLP, FeedForward, feed_forward_stack, mlp
from torch2mlir.models.mobilenet import (
    EfficientNet,
    MobileNetV3,
    efficientnet_b0,
    mobilenet_v3_small,
)
from torch2mlir.models.resnet import BasicBlock, Bottleneck, ResNet, resnet18, resnet50

__all__ = [
    "MLP",
    "BasicBlock",
    "Bottleneck",
    "EfficientNet",
    "FeedForward",
    "MobileNetV3",
    "ResNet",
    "efficientnet_b0",
    "feed_forward_stack",
    "mlp",
    "mobilenet_v3_small",
    "resnet18",
    "resnet50",
]
