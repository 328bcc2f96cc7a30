"""The FX importer: ``torch.export`` programs into the ``torch`` dialect."""

from __future__ import annotations

import warnings
from typing import Any

import torch

from ..errors import CompileError
from ..program import TORCH_DTYPE_TO_MLIR
from .decompositions import EXTRA_CORE_ATEN_DECOMPOSITIONS
from .grouped_mm import grouped_mm_decompositions
from .importer import FxImporter, import_exported_program
from .quantization import fuse_quantized_contractions

__all__ = [
    "TORCH_DTYPE_TO_MLIR",
    "FxImporter",
    "decompose",
    "export",
    "import_exported_program",
]


def export(
    model: torch.nn.Module,
    args: tuple[Any, ...],
    *,
    decompositions: str | dict | None = "core-aten",
    dynamic_shapes: Any = None,
    strict: bool = False,
) -> torch.export.ExportedProgram:
    """Runs ``torch.export.export`` and the chosen decompositions.

    Args:
        model: the module to export (put it in eval mode for inference).
        args: example positional inputs (tensors).
        decompositions: ``"core-aten"`` (the default: PyTorch's Core ATen
            table, ``torch.export.default_decompositions()``, plus the
            decompositions of :data:`EXTRA_CORE_ATEN_DECOMPOSITIONS`),
            ``"none"``/``None`` (keep torch.export's training-IR ops such as
            ``aten.linear``; torch2mlir's own ``torch-decompose-complex-ops``
            handles them), or a decomposition table (dict) passed to
            ``run_decompositions``.
        dynamic_shapes: forwarded to ``torch.export.export``.
        strict: forwarded to ``torch.export.export``.

    Raises:
        ValueError: an unknown ``decompositions`` name.
        CompileError: torch.export failed (its message is included).
    """
    _check_decompositions(decompositions)
    try:
        prog = torch.export.export(
            model, tuple(args), dynamic_shapes=dynamic_shapes, strict=strict
        )
    except Exception as error:  # torch.export raises many types
        raise CompileError(f"torch.export failed: {error}") from error
    return decompose(prog, decompositions)


def _check_decompositions(decompositions: str | dict | None) -> None:
    if isinstance(decompositions, str) and decompositions not in ("core-aten", "none"):
        raise ValueError(
            f"decompositions={decompositions!r}: expected 'core-aten', 'none' or a table"
        )


def decompose(
    prog: torch.export.ExportedProgram, decompositions: str | dict | None
) -> torch.export.ExportedProgram:
    """Runs the chosen decompositions on an exported program (see
    :func:`export` for `decompositions`); ``"none"``/None returns it as is.
    First, whatever the table, the quantized convolutions and matmuls of a
    PT2E-quantized program become integer contractions
    (:func:`torch2mlir.fx.quantization.fuse_quantized_contractions`).

    Raises:
        ValueError: an unknown ``decompositions`` name.
        CompileError: a decomposition failed (its message is included).
    """
    _check_decompositions(decompositions)
    prog = fuse_quantized_contractions(prog)
    table = None
    if decompositions == "core-aten":
        table = core_aten_decompositions()
    elif isinstance(decompositions, dict):
        table = decompositions
    if table is None:
        return prog
    try:
        with warnings.catch_warnings():
            # run_decompositions deep-copies the program's pytree specs,
            # and PyTorch's own copy of a LeafSpec warns that isinstance
            # checks on it are deprecated: nothing the user can act on.
            warnings.filterwarnings(
                "ignore", message=r".*isinstance\(treespec, LeafSpec\)"
            )
            return prog.run_decompositions(table)
    except CompileError:  # a decomposition's own refusal
        raise
    except Exception as error:  # decompositions raise many types
        raise CompileError(
            f"decomposing the exported program failed: {error}"
        ) from error


#: Ops that ``decompositions="core-aten"`` keeps whole, for torch2mlir's own
#: decomposition (``torch-decompose-complex-ops``): PyTorch's decomposition
#: of scaled-dot-product attention fails on GPT-2 in torch 2.13 ("Cannot view
#: a tensor with shape ... and strides ...").
KEPT_WHOLE = (torch.ops.aten.scaled_dot_product_attention.default,)


def core_aten_decompositions() -> dict:
    """The decomposition table of ``decompositions="core-aten"``: PyTorch's
    Core ATen table plus :data:`EXTRA_CORE_ATEN_DECOMPOSITIONS` and the
    grouped matmuls of mixture-of-experts layers
    (:func:`~torch2mlir.fx.grouped_mm.grouped_mm_decompositions`)."""
    table = torch.export.default_decompositions()
    table.update(EXTRA_CORE_ATEN_DECOMPOSITIONS)
    table.update(grouped_mm_decompositions())
    for op in KEPT_WHOLE:
        table.pop(op, None)
    return table
