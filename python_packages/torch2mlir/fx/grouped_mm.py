"""Grouped matrix multiplication, as mixture-of-experts layers export it.

``aten._grouped_mm(input [S, K], weight [E, K, N], offs [E])`` multiplies
the rows of each group by its expert's weight: rows ``offs[e-1] <= s <
offs[e]`` (``offs[-1]`` = 0) by ``weight[e]``; rows past ``offs[E-1]`` are
zero. ``transformers`` exports its MoE experts through the same operation,
as its own custom op ``transformers::grouped_mm_fallback`` (registered with
a fake kernel, so torch.export keeps it whole) on the CPU and for float32.

The decomposition computes every row against every expert (one ``bmm`` of
``[E, S, K] x [E, K, N]``) and keeps, per row, its expert's product: E
times the arithmetic of the grouped product, with static sizes (the group
sizes are data). Good enough for small expert counts; a grouped kernel is
the way for large ones.
"""

from __future__ import annotations

from typing import Any

import torch

aten = torch.ops.aten

__all__ = ["grouped_mm_decompositions"]


def _grouped_mm(
    input: torch.Tensor,
    weight: torch.Tensor,
    offs: torch.Tensor | None = None,
    bias: torch.Tensor | None = None,
    out_dtype: torch.dtype | None = None,
) -> Any:
    """``aten._grouped_mm`` of a 2-D input and a 3-D weight with offsets
    (see the module's docstring); other forms: no decomposition
    (``NotImplemented``)."""
    if (
        input.dim() != 2
        or weight.dim() != 3
        or offs is None
        or bias is not None
        or out_dtype not in (None, input.dtype)
    ):
        return NotImplemented
    rows, experts = input.shape[0], weight.shape[0]
    position = aten.arange.default(rows, dtype=torch.int64)
    # expert[s] = how many group ends are <= s: the group row s is in
    # (E for rows past the last group, which match no expert: zeros).
    ends = aten._to_copy.default(offs, dtype=torch.int64)
    expert = aten.sum.dim_IntList(
        aten.le.Tensor(
            aten.unsqueeze.default(ends, 0), aten.unsqueeze.default(position, 1)
        ),
        [1],
        dtype=torch.int64,
    )
    chosen = aten.eq.Tensor(
        aten.unsqueeze.default(aten.arange.default(experts, dtype=torch.int64), 1),
        aten.unsqueeze.default(expert, 0),
    )  # [E, S]
    every = aten.bmm.default(
        aten.expand.default(aten.unsqueeze.default(input, 0), [experts, *input.shape]),
        weight,
    )  # [E, S, N]
    kept = aten.where.self(
        aten.unsqueeze.default(chosen, 2), every, aten.zeros_like.default(every)
    )
    return aten.sum.dim_IntList(kept, [0])


def _grouped_mm_fallback(
    input: torch.Tensor,
    weight: torch.Tensor,
    offs: torch.Tensor,
) -> Any:
    """``transformers::grouped_mm_fallback``: ``aten._grouped_mm``'s 2-D x
    3-D form."""
    return _grouped_mm(input, weight, offs)


def grouped_mm_decompositions() -> dict[Any, Any]:
    """``aten._grouped_mm``, and ``transformers::grouped_mm_fallback`` when
    ``transformers`` has registered it in this process."""
    table: dict[Any, Any] = {aten._grouped_mm.default: _grouped_mm}
    try:
        fallback = torch.ops.transformers.grouped_mm_fallback.default
    except (AttributeError, RuntimeError):
        return table
    table[fallback] = _grouped_mm_fallback
    return table
