"""Decompositions of the ops whose result sizes come from the data.

``nonzero`` is the one such op that torch2mlir lowers (TorchToLinalg: a
count, then the coordinates written row by row); the others are written
here on top of it, so the data-dependent size has one source:

- ``masked_select(x, mask)``: the elements of the broadcast `x` where the
  broadcast `mask` is true, in row-major order;
- ``index.Tensor`` with bool (or byte) indices (``x[mask]``): each mask
  replaced by the coordinates ``nonzero`` gives (PyTorch's own rule);
- ``_unique2`` (``torch.unique`` without ``dim``) and ``unique_consecutive``:
  the starts of runs of equal values (after a stable sort for ``unique``)
  found by ``nonzero``, counts as differences of the starts, the inverse as
  the run index of each element;
- ``repeat_interleave.Tensor`` (a tensor of repeats): position ``j`` of the
  result is the number of cumulative repeats ``<= j``;
- ``unique_dim`` and ``unique_consecutive`` with ``dim``: the slices along
  ``dim`` compared whole (lexicographically, by their first differing
  element);
- ``bincount``: a ``scatter_add`` into ``max(self) + 1`` (at least
  ``minlength``) bins, a size read from the data with ``item()``.

Each is traced by ``ExportedProgram.run_decompositions``: the sizes they
create are fresh unbacked symbols, as ``nonzero``'s are in eager tracing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch

aten = torch.ops.aten

__all__ = ["DATA_DEPENDENT_DECOMPOSITIONS"]


def _flatten(tensor: torch.Tensor) -> torch.Tensor:
    """`tensor` as 1-D, its size the product of its sizes (``view(-1)``
    would trace ``sym_numel``, which has no lowering)."""
    return aten.view.default(tensor, [math.prod(tensor.shape)])


def _flat_nonzero(mask: torch.Tensor) -> torch.Tensor:
    """The positions (int64, 1-D) of the true elements of the 1-D `mask`."""
    return aten.squeeze.dims(aten.nonzero.default(mask), [1])


def _masked_select(self: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``aten.masked_select``: 1-D, the elements of `self` where `mask` is
    true, both broadcast to one shape first (PyTorch's broadcasting rule)."""
    shape = list(torch.broadcast_shapes(self.shape, mask.shape))
    values = _flatten(aten.expand.default(self, shape).contiguous())
    flat_mask = _flatten(aten.expand.default(mask, shape).contiguous())
    return aten.index_select.default(values, 0, _flat_nonzero(flat_mask))


def _index_tensor(
    self: torch.Tensor, indices: list[torch.Tensor | None]
) -> torch.Tensor:
    """``aten.index.Tensor`` with bool/uint8 masks among `indices`: each mask
    of k dims becomes the k coordinate tensors ``nonzero`` gives (as
    PyTorch's ``expandTensors``); long indices are left to the op itself
    (``NotImplemented``: no decomposition)."""
    masks = (torch.bool, torch.uint8)
    if not any(index is not None and index.dtype in masks for index in indices):
        return NotImplemented
    expanded: list[torch.Tensor | None] = []
    for index in indices:
        if index is None or index.dtype not in masks:
            expanded.append(index)
            continue
        coordinates = aten.nonzero.default(index)
        expanded.extend(aten.unbind.int(coordinates, 1))
    return aten.index.Tensor(self, expanded)


def _runs(
    values: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """For the 1-D `values`: the first value of each run of equal values,
    the run index of each element (int64), and each run's length (int64).
    For 2-D `values`, the same over its rows (equal when every element is).
    NaNs are never equal: each is a run of its own (as PyTorch's CPU
    kernels)."""
    n = values.shape[0]
    starts_mask = aten.ones.default([n], dtype=torch.bool)
    if n > 1:
        differs = aten.ne.Tensor(
            aten.slice.Tensor(values, 0, 1, n), aten.slice.Tensor(values, 0, 0, n - 1)
        )
        if values.dim() == 2:
            differs = aten.any.dim(differs, 1)
        starts_mask = aten.cat.default(
            [aten.ones.default([1], dtype=torch.bool), differs]
        )
    starts = _flat_nonzero(starts_mask)
    run_values = aten.index_select.default(values, 0, starts)
    run_of = aten.sub.Tensor(aten.cumsum.default(starts_mask, 0, dtype=torch.int64), 1)
    # Counted by run index rather than as differences of the starts: that
    # would tie the run count to itself minus one plus one, a size the
    # tracer cannot prove equal.
    counts = aten.scatter_add.default(
        aten.zeros.default([starts.shape[0]], dtype=torch.int64),
        0,
        run_of,
        aten.ones_like.default(run_of),
    )
    return run_values, run_of, counts


def _unique2(
    self: torch.Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``aten._unique2`` (``torch.unique`` without ``dim``): the distinct
    values, always in ascending order (PyTorch's CPU kernel sorts for
    ``sorted=False`` too, except for bool), the inverse (each element's
    index in them, of `self`'s shape) and the counts. Unrequested outputs
    are empty, as PyTorch's."""
    del sorted
    flat = _flatten(self)
    values, order = aten.sort.stable(flat, stable=True)
    unique, run_of, counts = _runs(values)
    inverse = aten.empty.memory_format([0], dtype=torch.int64)
    if return_inverse:
        inverse = aten.scatter.src(aten.zeros_like.default(run_of), 0, order, run_of)
        inverse = aten.view.default(inverse, list(self.shape))
    if not return_counts:
        counts = aten.empty.memory_format([0], dtype=torch.int64)
    return unique, inverse, counts


def _unique_consecutive(
    self: torch.Tensor,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``aten.unique_consecutive`` without ``dim``: the first value of each
    run of equal consecutive elements (of `self` flattened), the inverse
    (of `self`'s shape) and the run lengths. With ``dim``:
    `_unique_consecutive_dim`."""
    if dim is not None:
        return _unique_consecutive_dim(self, return_inverse, return_counts, dim)
    values, run_of, counts = _runs(_flatten(self))
    inverse = (
        aten.view.default(run_of, list(self.shape))
        if return_inverse
        else aten.empty.memory_format([0], dtype=torch.int64)
    )
    if not return_counts:
        counts = aten.empty.memory_format([0], dtype=torch.int64)
    return values, inverse, counts


def _repeat_interleave(
    repeats: torch.Tensor, *, output_size: int | None = None
) -> torch.Tensor:
    """``aten.repeat_interleave.Tensor``: ``i`` repeated ``repeats[i]``
    times, for each i in order (1-D int64). Position j of the result holds
    the number of cumulative repeats ``<= j``; its length is the total of the
    repeats (or `output_size` when given, as PyTorch trusts it)."""
    ends = aten.cumsum.default(repeats, 0, dtype=torch.int64)
    if output_size is None:
        if repeats.shape[0] == 0:
            return aten.empty.memory_format([0], dtype=torch.int64)
        output_size = aten.select.int(ends, 0, -1).item()
        torch._check(output_size >= 0)
    positions = aten.arange.default(output_size, dtype=torch.int64)
    before = aten.le.Tensor(
        aten.unsqueeze.default(ends, 0), aten.unsqueeze.default(positions, 1)
    )
    return aten.sum.dim_IntList(before, [1], dtype=torch.int64)


def _slices_as_rows(self: torch.Tensor, dim: int) -> torch.Tensor:
    """The slices of `self` along `dim` as the rows of a 2-D tensor (row i
    is ``self.select(dim, i)`` flattened)."""
    moved = aten.movedim.int(self, dim, 0)
    n = self.shape[dim]
    return aten.view.default(moved.contiguous(), [n, math.prod(moved.shape[1:])])


def _rows_back(rows: torch.Tensor, like: torch.Tensor, dim: int) -> torch.Tensor:
    """Rows made by `_slices_as_rows(like, dim)` (any number of them) back
    into slices along `dim`."""
    moved_shape = list(aten.movedim.int(like, dim, 0).shape[1:])
    count = rows.shape[0]
    return aten.movedim.int(aten.view.default(rows, [count, *moved_shape]), 0, dim)


def _unique_dim(
    self: torch.Tensor,
    dim: int,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``aten.unique_dim`` (``torch.unique(x, dim=d)``): the distinct slices
    along `dim` in ascending lexicographic order, the inverse (each slice's
    index among them, 1-D int64) and the counts. PyTorch's CPU kernel sorts
    for ``sorted=False`` too and returns the inverse and counts whatever the
    flags say; so does this.

    Slices are compared pairwise (row i < row j where their first differing
    element is smaller), which costs n * n * (elements per slice) compares:
    no sort, and a graph whose size does not grow with the slice length.
    A slice holding NaN is equal to no slice, itself included, so each is
    its own entry; PyTorch's order among them is unspecified."""
    del sorted, return_inverse, return_counts
    dim = dim % max(self.dim(), 1)
    rows = _slices_as_rows(self, dim)
    n = rows.shape[0]
    left, right = aten.unsqueeze.default(rows, 1), aten.unsqueeze.default(rows, 0)
    ne = aten.ne.Tensor(left, right)
    differs = aten.any.dim(ne, 2)
    # less[i, j]: row i < row j, decided where no element differed before.
    differed_before = aten.sub.Tensor(aten.cumsum.default(ne, 2, dtype=torch.int32), ne)
    less = aten.any.dim(
        aten.logical_and.default(
            aten.lt.Tensor(left, right), aten.eq.Scalar(differed_before, 0)
        ),
        2,
    )
    equal = aten.logical_not.default(differs)
    # A row is the representative of its class when no earlier row equals it.
    earlier = aten.tril.default(aten.ones.default([n, n], dtype=torch.bool), -1)
    first_of_kind = aten.logical_not.default(
        aten.any.dim(aten.logical_and.default(equal, earlier), 1)
    )
    # inverse[i]: the representatives below row i.
    inverse = aten.sum.dim_IntList(
        aten.logical_and.default(less, aten.unsqueeze.default(first_of_kind, 1)),
        [0],
        dtype=torch.int64,
    )
    representatives = _flat_nonzero(first_of_kind)
    ranks = aten.index_select.default(inverse, 0, representatives)
    unique_rows = aten.index_select.default(rows, 0, representatives)
    unique_rows = aten.scatter.src(
        aten.zeros_like.default(unique_rows),
        0,
        aten.expand.default(aten.unsqueeze.default(ranks, 1), list(unique_rows.shape)),
        unique_rows,
    )
    counts = aten.scatter_add.default(
        aten.zeros.default([representatives.shape[0]], dtype=torch.int64),
        0,
        inverse,
        aten.ones_like.default(inverse),
    )
    return _rows_back(unique_rows, self, dim), inverse, counts


def _unique_consecutive_dim(
    self: torch.Tensor, return_inverse: bool, return_counts: bool, dim: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``aten.unique_consecutive`` with ``dim``: the first slice of each run
    of equal consecutive slices along `dim`, the run index of each slice and
    the run lengths (all three always, as PyTorch's CPU kernel)."""
    del return_inverse, return_counts
    dim = dim % max(self.dim(), 1)
    firsts, run_of, counts = _runs(_slices_as_rows(self, dim))
    return _rows_back(firsts, self, dim), run_of, counts


def _bincount(
    self: torch.Tensor, weights: torch.Tensor | None = None, minlength: int = 0
) -> torch.Tensor:
    """``aten.bincount``: for 1-D non-negative integers `self`, bin v holds
    the count of v (int64), or the sum of the `weights` at v: float32 and
    float64 weights keep their dtype, others sum as float64 (PyTorch's CPU
    kernel). There are ``max(self) + 1`` bins, at least `minlength`; a
    negative value is an index out of range, which the compiled code
    refuses at run time as PyTorch raises."""
    if self.shape[0] == 0:
        size = minlength
    else:
        largest = aten.add.Tensor(aten.max.default(self), 1)
        size = aten.clamp_min.default(largest, minlength).item()
        torch._check(size >= 0)
    if weights is None:
        values = aten.ones_like.default(self, dtype=torch.int64)
    elif weights.dtype in (torch.float32, torch.float64):
        values = weights
    else:
        values = aten._to_copy.default(weights, dtype=torch.float64)
    # scatter_add takes int64 (or int32) indices; int8/int16/uint8 widen.
    index = self if self.dtype in (torch.int32, torch.int64) else self.long()
    return aten.scatter_add.default(
        aten.zeros.default([size], dtype=values.dtype), 0, index, values
    )


#: The decompositions of this module, for ``decompositions="core-aten"``.
DATA_DEPENDENT_DECOMPOSITIONS: dict[torch._ops.OperatorBase, Callable[..., Any]] = {
    aten.masked_select.default: _masked_select,
    aten.index.Tensor: _index_tensor,
    aten._unique2.default: _unique2,
    aten.unique_consecutive.default: _unique_consecutive,
    aten.unique_dim.default: _unique_dim,
    aten.bincount.default: _bincount,
    aten.repeat_interleave.Tensor: _repeat_interleave,
}
