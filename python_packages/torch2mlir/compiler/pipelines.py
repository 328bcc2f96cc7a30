"""The pass pipelines, by the names they have here, in ``torch2mlir-opt``
and in the README:

- ``torch-lower-to-backend-contract``: imported torch IR to the backend
  contract (decompositions, verification);
- ``torch-backend-to-linalg-on-tensors-backend-pipeline``: backend contract
  to linalg-on-tensors;
- ``torch2mlir-refbackend-pipeline``: linalg-on-tensors to the LLVM dialect
  for the RefBackend.

Every failure is a :class:`~torch2mlir.CompileError` listing each
diagnostic with its source location (``file.py:12 (node conv2d)``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .. import ir, passmanager
from ..errors import CompileError

__all__ = [
    "BACKEND_CONTRACT_PIPELINE",
    "LINALG_ON_TENSORS_PIPELINE",
    "REFBACKEND_PIPELINE",
    "TOSA_PIPELINE",
    "TOSA_TO_LINALG_PIPELINE",
    "format_location",
    "lower_to_backend_contract",
    "lower_to_linalg_on_tensors",
    "lower_to_llvm",
    "run_pipeline",
]

BACKEND_CONTRACT_PIPELINE = "torch-lower-to-backend-contract"
LINALG_ON_TENSORS_PIPELINE = "torch-backend-to-linalg-on-tensors-backend-pipeline"
TOSA_PIPELINE = "torch-backend-to-tosa-backend-pipeline"
TOSA_TO_LINALG_PIPELINE = "tosa-backend-to-linalg-on-tensors-pipeline"
REFBACKEND_PIPELINE = "torch2mlir-refbackend-pipeline"

_FILE_LOC = re.compile(r'"([^"]+)":(\d+):\d+')
_NAME_LOC = re.compile(r'^loc\("([^"]+)"\(')


def format_location(location: ir.Location) -> str:
    """``file.py:12 (node conv2d)`` from an FX-imported location."""
    text = str(location)
    where = _FILE_LOC.search(text)
    name = _NAME_LOC.match(text)
    parts = []
    if where:
        parts.append(f"{where.group(1)}:{where.group(2)}")
    if name:
        parts.append(f"(node {name.group(1)})")
    return " ".join(parts) or text


def _format_diagnostic(diag: Any) -> str:
    lines = [f"{format_location(diag.location)}: {diag.message}"]
    for note in diag.notes:
        lines.append(f"  note: {format_location(note.location)}: {note.message}")
    return "\n".join(lines)


def run_pipeline(module: ir.Module, pipeline: str, description: str) -> None:
    """Runs a textual pass pipeline on `module` in place.

    Args:
        module: the module to transform.
        pipeline: passes as in ``torch2mlir-opt --pass-pipeline``, without
            the ``builtin.module(...)`` wrapper.
        description: what the pipeline does, for error messages.

    Raises:
        CompileError: a pass failed; the message lists each diagnostic with
            its source location.
    """
    with module.context:
        pm = passmanager.PassManager.parse(f"builtin.module({pipeline})")
        try:
            pm.run(module.operation)
        except ir.MLIRError as error:
            diagnostics = [_format_diagnostic(d) for d in error.error_diagnostics]
            body = "\n".join(diagnostics) or str(error)
            raise CompileError(f"{description} failed:\n{body}", diagnostics) from None


def lower_to_backend_contract(
    module: ir.Module, legal_ops: Sequence[str] = (), float64: bool = True
) -> None:
    """Imported torch IR -> backend contract (in place).

    Args:
        legal_ops: ATen ops (``aten.linear``...) to keep rather than decompose.
        float64: the backend has float64 tensors (``aten.var`` accumulates
            in them, as PyTorch's kernel; TOSA 1.0 has none).

    Raises:
        CompileError: an op has no definition or lowering (the message names
            it and its Python source line).
    """
    options = [f"float64={'true' if float64 else 'false'}"]
    if legal_ops:
        options.append("legal-ops=" + ",".join(legal_ops))
    pipeline = BACKEND_CONTRACT_PIPELINE + "{" + " ".join(options) + "}"
    run_pipeline(module, pipeline, "lowering to the backend contract")


def lower_to_linalg_on_tensors(module: ir.Module) -> None:
    """Backend contract -> linalg-on-tensors (in place). Raises CompileError."""
    run_pipeline(module, LINALG_ON_TENSORS_PIPELINE, "lowering to linalg-on-tensors")


def lower_to_llvm(
    module: ir.Module,
    func_name: str = "main",
    *,
    callee_allocated: bool = False,
    frozen: Sequence[int] = (),
) -> None:
    """linalg-on-tensors -> LLVM dialect with C-interface entry (in place).

    Args:
        callee_allocated: the compiled code allocates the results and
            returns them (for results whose sizes only the computation
            knows), instead of writing caller-allocated out-params.
        frozen: positions of arguments whose contents never change while
            the compiled module lives (weights of ``compile(...,
            freeze=True)``): they get the ``torch2mlir.frozen`` argument
            attribute, and ``refbackend-runtime-kernels`` packs the ones a
            matmul reads as its right operand once.
    """
    with module.context:
        for op in module.body.operations:
            if (
                op.operation.name == "func.func"
                and ir.StringAttr(op.attributes["sym_name"]).value == func_name
            ):
                op.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
                if frozen:
                    _mark_arguments(op, frozen, "torch2mlir.frozen")
    options = "{callee-allocated-results=true}" if callee_allocated else ""
    run_pipeline(module, REFBACKEND_PIPELINE + options, "lowering to LLVM (RefBackend)")


def _mark_arguments(func: Any, positions: Sequence[int], name: str) -> None:
    """Adds the unit attribute `name` to the arguments of `func` (a
    ``func.func``) at `positions`, keeping their other attributes."""
    count = len(
        ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).inputs
    )
    old = (
        ir.ArrayAttr(func.attributes["arg_attrs"])
        if "arg_attrs" in func.attributes
        else None
    )
    marked = set(positions)
    dicts = []
    for i in range(count):
        entries: dict[str, ir.Attribute] = {}
        if old is not None:
            for named in ir.DictAttr(old[i]):
                entries[named.name] = named.attr
        if i in marked:
            entries[name] = ir.UnitAttr.get()
        dicts.append(ir.DictAttr.get(entries))
    func.attributes["arg_attrs"] = ir.ArrayAttr.get(dicts)
