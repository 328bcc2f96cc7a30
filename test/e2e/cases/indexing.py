"""index_select, gather and embedding: reads at positions an index tensor
holds."""

from __future__ import annotations

import torch
from torch import nn

from cases.registry import Fn, register_case


@register_case(
    "index_select_dim0", inputs=lambda: (torch.randn(5, 3), torch.tensor([4, 0, 2, 2]))
)
def _() -> nn.Module:
    return Fn(lambda x, i: torch.index_select(x, 0, i))


@register_case(
    "index_select_negative_dim",
    inputs=lambda: (torch.randn(2, 3, 6), torch.tensor([5, 1])),
)
def _() -> nn.Module:
    return Fn(lambda x, i: torch.index_select(x, -1, i))


@register_case(
    "index_select_i64_int32_index",
    inputs=lambda: (
        torch.randint(-9, 9, (4, 5), dtype=torch.int64),
        torch.tensor([3, 3, 0], dtype=torch.int32),
    ),
)
def _() -> nn.Module:
    return Fn(lambda x, i: torch.index_select(x, 1, i))


@register_case(
    "gather_dim1", inputs=lambda: (torch.randn(3, 4), torch.randint(0, 4, (3, 6)))
)
def _() -> nn.Module:
    return Fn(lambda x, i: torch.gather(x, 1, i))


@register_case(
    "gather_dim0_smaller_index",
    inputs=lambda: (torch.randn(5, 4, 2), torch.randint(0, 5, (3, 2, 2))),
)
def _() -> nn.Module:
    return Fn(lambda x, i: torch.gather(x, 0, i))


@register_case(
    "gather_negative_dim_i64",
    inputs=lambda: (
        torch.randint(-50, 50, (2, 6), dtype=torch.int64),
        torch.randint(0, 6, (2, 3)),
    ),
)
def _() -> nn.Module:
    return Fn(lambda x, i: torch.gather(x, -1, i))


@register_case("embedding", inputs=lambda: (torch.randint(0, 10, (2, 5)),))
def _() -> nn.Module:
    return nn.Embedding(10, 4)


@register_case("embedding_padding_idx", inputs=lambda: (torch.tensor([0, 3, 1, 0]),))
def _() -> nn.Module:
    return nn.Embedding(4, 3, padding_idx=0)


class _TokenAndPosition(nn.Module):
    """Token plus position embeddings, as a transformer's input layer."""

    def __init__(self) -> None:
        super().__init__()
        self.tokens = nn.Embedding(20, 8)
        self.positions = nn.Embedding(6, 8)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(0, ids.shape[1], 1)
        return self.tokens(ids) + self.positions(positions)


@register_case(
    "embedding_token_and_position", inputs=lambda: (torch.randint(0, 20, (2, 6)),)
)
def _() -> nn.Module:
    return _TokenAndPosition()


# Advanced indexing (aten.index.Tensor).


@register_case(
    "index_tensor_two_dims_broadcast",
    inputs=lambda: (
        torch.randn(4, 5, 3),
        torch.tensor([[0], [3], [-1]]),
        torch.tensor([1, -2, 4, 0]),
    ),
)
def _() -> nn.Module:
    # [3, 1] and [4] broadcast to [3, 4]; the last dim is kept: [3, 4, 3].
    return Fn(lambda x, i, j: x[i, j])


@register_case(
    "index_tensor_middle_dim",
    inputs=lambda: (torch.randn(2, 6, 3), torch.tensor([[5, 0], [2, -6]])),
)
def _() -> nn.Module:
    return Fn(lambda x, i: x[:, i])


@register_case(
    "index_tensor_int32_indices_int64_data",
    inputs=lambda: (
        torch.randint(-100, 100, (7,)),
        torch.tensor([6, 0, 3, 3], dtype=torch.int32),
    ),
)
def _() -> nn.Module:
    return Fn(lambda x, i: x[i])
