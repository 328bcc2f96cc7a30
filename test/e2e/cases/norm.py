"""BatchNorm2d in eval mode (running statistics), alone and after a conv."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import register_case


def randomize_batch_norm(module: nn.Module) -> nn.Module:
    """Give every BatchNorm2d in `module` non-trivial running statistics and
    affine parameters (the defaults make eval-mode batch norm the identity)."""
    for bn in module.modules():
        if isinstance(bn, nn.BatchNorm2d):
            channels = bn.num_features
            with torch.no_grad():
                bn.running_mean.copy_(torch.randn(channels) * 0.5)
                bn.running_var.copy_(torch.rand(channels) + 0.5)
                if bn.affine:
                    bn.weight.copy_(torch.rand(channels) + 0.5)
                    bn.bias.copy_(torch.randn(channels) * 0.5)
    return module


@register_case("batchnorm2d_eval", inputs=lambda: (torch.randn(2, 4, 5, 5),))
def _() -> nn.Module:
    return randomize_batch_norm(nn.BatchNorm2d(4))


@register_case("batchnorm2d_eval_no_affine", inputs=lambda: (torch.randn(1, 3, 4, 6),))
def _() -> nn.Module:
    return randomize_batch_norm(nn.BatchNorm2d(3, affine=False))


@register_case("batchnorm2d_eval_eps", inputs=lambda: (torch.randn(1, 2, 3, 3),))
def _() -> nn.Module:
    return randomize_batch_norm(nn.BatchNorm2d(2, eps=0.1))


@register_case(
    "batchnorm2d_eval_f64",
    inputs=lambda: (torch.randn(2, 3, 4, 4, dtype=torch.float64),),
)
def _() -> nn.Module:
    return randomize_batch_norm(nn.BatchNorm2d(3)).double()


@register_case("conv_batchnorm_relu", inputs=lambda: (torch.randn(2, 3, 8, 8),))
def _() -> nn.Module:
    return randomize_batch_norm(
        nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU()
        )
    )


def _randomized_layer_norm(*args, **kwargs) -> nn.LayerNorm:
    norm = nn.LayerNorm(*args, **kwargs)
    if norm.elementwise_affine:
        with torch.no_grad():
            norm.weight.copy_(torch.rand(norm.weight.shape) + 0.5)
            if norm.bias is not None:
                norm.bias.copy_(torch.randn(norm.bias.shape))
    return norm


@register_case("layernorm_last_dim", inputs=lambda: (torch.randn(2, 5, 16) * 3 + 1,))
def _() -> nn.Module:
    return _randomized_layer_norm(16)


@register_case("layernorm_two_dims", inputs=lambda: (torch.randn(3, 4, 6),))
def _() -> nn.Module:
    return _randomized_layer_norm([4, 6], eps=1e-3)


@register_case("layernorm_no_affine", inputs=lambda: (torch.randn(4, 8),))
def _() -> nn.Module:
    return nn.LayerNorm(8, elementwise_affine=False)


@register_case(
    "layernorm_no_bias_f64", inputs=lambda: (torch.randn(2, 7, dtype=torch.float64),)
)
def _() -> nn.Module:
    return _randomized_layer_norm(7, bias=False).double()
