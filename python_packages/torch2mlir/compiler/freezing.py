"""What ``compile(..., freeze=True)`` does to a model before export: fold
each inference batch norm into the convolution or linear layer before it.

With frozen weights, ``batch_norm(conv(x, W, b))`` in eval mode is
``conv(x, W * s, (b - mean) * s + beta)`` with ``s = gamma / sqrt(var +
eps)``: one pass over the activations instead of two. torch.fx's own pass
(``torch.fx.experimental.optimization.fuse``, on a copy of the model) does
the folding; it applies to ``Conv1d/2d/3d`` + ``BatchNorm1d/2d/3d`` and
``Linear`` + ``BatchNorm1d`` pairs whose first layer feeds only the batch
norm, as inductor's ``freezing`` folds them.
"""

from __future__ import annotations

import torch
from torch.fx.experimental.optimization import fuse

__all__ = ["fold_batch_norms"]

_FIRST = (torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d, torch.nn.Linear)


def fold_batch_norms(model: torch.nn.Module) -> torch.nn.Module:
    """A copy of `model` with every foldable batch norm folded into the
    layer before it (see the module's docstring), or `model` itself when
    it is in training mode, has no such pair, or torch.fx cannot trace it
    symbolically (control flow on tensor values, for one): it then compiles
    as it is, with the same results up to rounding.

    The folded weights are computed once, now, in the weights' dtype: the
    results can differ from eager's by the rounding of ``W * s`` (a few
    ulps), as with inductor's freezing.
    """
    if model.training:
        return model
    modules = list(model.modules())
    has_norm = any(
        isinstance(m, torch.nn.modules.batchnorm._BatchNorm) and m.track_running_stats
        for m in modules
    )
    if not has_norm or not any(isinstance(m, _FIRST) for m in modules):
        return model
    try:
        return fuse(model)
    except Exception:  # noqa: BLE001 - any tracing failure: compile unfolded
        return model
