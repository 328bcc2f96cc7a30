"""Whole models: the ones in torch2mlir.models, and a small CNN."""

from __future__ import annotations

import torch
from torch import nn

from cases.norm import randomize_batch_norm
from cases.registry import register_case


@register_case("mlp", inputs=lambda: (torch.randn(4, 1, 28, 28),))
def _() -> nn.Module:
    # Imported here: torch2mlir is the built package, needed only to run.
    from torch2mlir.models import mlp

    return mlp()


@register_case(
    "resnet18_small", inputs=lambda: (torch.randn(1, 3, 64, 64),), rtol=1e-4, atol=1e-4
)
def _() -> nn.Module:
    # Imported here: torch2mlir is the built package, needed only to run.
    from torch2mlir.models import resnet18

    # Random batch-norm statistics, so that eval-mode batch norm is not the identity.
    return randomize_batch_norm(resnet18())


class SmallCNN(nn.Module):
    """conv-bn-relu-maxpool, conv-relu-avgpool, flatten, linear, log_softmax."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1, bias=False),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(2),
        )
        self.classifier = nn.Linear(64, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(
            self.classifier(torch.flatten(self.features(x), 1)), dim=1
        )


@register_case("small_cnn", inputs=lambda: (torch.randn(2, 1, 16, 16),))
def _() -> nn.Module:
    return randomize_batch_norm(SmallCNN())
