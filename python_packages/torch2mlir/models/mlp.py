"""A multi-layer perceptron: Linear + ReLU layers, then a Linear classifier."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn


class MLP(nn.Module):
    """Fully connected network `in -> hidden[0] -> ... -> hidden[-1] -> out`.

    Every hidden layer is `nn.Linear` followed by ReLU; the last layer is a
    plain `nn.Linear` that returns logits.
    """

    def __init__(
        self, in_features: int, hidden: Sequence[int], out_features: int
    ) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = in_features
        for size in hidden:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        layers.append(nn.Linear(width, out_features))
        self.layers = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits for a batch.

        Args:
            x: float32 tensor `[N, in_features]`, or `[N, *dims]` whose trailing
                dims multiply to `in_features` (e.g. `[N, 1, 28, 28]` for 784);
                they are flattened.

        Returns:
            float32 tensor `[N, out_features]`.
        """
        return self.layers(torch.flatten(x, 1))


def mlp(
    in_features: int = 784,
    hidden: Sequence[int] = (512, 256),
    out_features: int = 10,
    *,
    seed: int = 0,
) -> MLP:
    """An MNIST-sized MLP, 784-512-256-10 with ReLU by default, in eval mode.

    Weights are PyTorch's default `nn.Linear` initialization drawn from `seed`;
    the global random state is left as it was.

    Args:
        in_features: width of the input (784 = 28 * 28).
        hidden: widths of the hidden layers.
        out_features: number of classes.
        seed: seed of the weight initialization.

    Returns:
        An `MLP` with float32 parameters that maps `[N, in_features]` (or
        `[N, 1, 28, 28]`) float32 inputs to `[N, out_features]` float32 logits.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = MLP(in_features, hidden, out_features)
    return model.eval()


class FeedForward(nn.Module):
    """A BERT encoder layer's feed-forward half:
    `LayerNorm(x + W2 GELU(W1 x))`, `W1: hidden -> 4 * hidden`."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.intermediate = nn.Linear(hidden, 4 * hidden)
        self.act = nn.GELU()
        self.output = nn.Linear(4 * hidden, hidden)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """float32 `[..., hidden]` -> float32 `[..., hidden]`."""
        return self.norm(x + self.output(self.act(self.intermediate(x))))


def feed_forward_stack(
    layers: int = 4, hidden: int = 768, *, seed: int = 0
) -> nn.Module:
    """`layers` BERT feed-forward layers (:class:`FeedForward`; BERT-base
    width by default), `nn.Linear`'s default initialization from `seed`, in
    eval mode: the linear stack of a transformer encoder, for int8
    quantization (8 linears, 4.7M multiply-adds per token at width 768)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = nn.Sequential(*[FeedForward(hidden) for _ in range(layers)])
    return model.eval()
