"""Backends: an output dialect of the backend contract, and how its programs
are compiled and run.

A backend names the ops it keeps legal at the contract (they reach it whole
instead of decomposed), lowers a contract module to its dialect (its
pipeline, by the name ``torch2mlir-opt`` registers), and turns a lowered
:class:`~torch2mlir.program.Program` into something to call. The names are
the same for ``torch2mlir.compile(..., backend=...)``,
``torch2mlir.export_and_import(..., output_type=...)`` and the
``torch2mlir-opt`` pipelines.

| name | pipeline from the contract | runs on |
| --- | --- | --- |
| ``linalg-on-tensors`` | ``torch-backend-to-linalg-on-tensors-backend-pipeline`` | the RefBackend (LLVM, CPU) |
| ``tosa`` | ``torch-backend-to-tosa-backend-pipeline`` (TOSA 1.0, ``pro_int`` + ``pro_fp`` + ``bf16``, level ``8k``, validated) | ``tosa-backend-to-linalg-on-tensors-pipeline``, then the RefBackend |
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..errors import CompileError
from ..program import Program
from ..runtime.refbackend import RefBackendModule
from .pipelines import (
    LINALG_ON_TENSORS_PIPELINE,
    TOSA_PIPELINE,
    TOSA_TO_LINALG_PIPELINE,
    lower_to_llvm,
    run_pipeline,
)

__all__ = [
    "BACKENDS",
    "Backend",
    "LinalgOnTensorsBackend",
    "TosaBackend",
    "get_backend",
]


@dataclass(frozen=True)
class Backend:
    """An output dialect of the backend contract.

    Attributes:
        name: the name users give (``backend=``, ``output_type=``).
        pipeline: the ``torch2mlir-opt`` pipeline from the contract.
        legal_ops: ATen ops (``aten.linear``...) the backend takes whole,
            kept out of the contract's decompositions.
        float64: whether the backend has float64 tensors; the contract then
            computes ``aten.var`` in float64 as PyTorch does (see the
            ``torch-decompose-complex-ops`` pass).
    """

    name: str
    pipeline: str
    legal_ops: tuple[str, ...] = ()
    float64: bool = True

    def lower(self, module: ir.Module) -> None:
        """Backend contract -> this backend's dialect (in place).

        Raises:
            CompileError: an op has no lowering (the message names it and
                its source line).
        """
        run_pipeline(module, self.pipeline, f"lowering to {self.name}")

    def load(
        self,
        program: Program,
        *,
        opt_level: int = 2,
        cache: bool = True,
        object_code: bytes | None = None,
        freeze: bool = False,
    ) -> RefBackendModule:
        """The callable of a lowered `program` (or of `object_code`, machine
        code an earlier load made, when `program.module` is None). With
        `freeze`, the weights the program does not update are copied once
        and taken as constants (see ``torch2mlir.compile``); `object_code`
        must then come from a frozen load too.

        Raises:
            CompileError: code generation or linking failed.
        """
        raise NotImplementedError


class LinalgOnTensorsBackend(Backend):
    """linalg-on-tensors, compiled by the RefBackend to machine code for
    this CPU and run in process (weights bound by reference)."""

    def load(
        self,
        program: Program,
        *,
        opt_level: int = 2,
        cache: bool = True,
        object_code: bytes | None = None,
        freeze: bool = False,
    ) -> RefBackendModule:
        frozen = program.frozen_arguments if freeze else []
        if object_code is None:
            lower_to_llvm(
                program.module,
                program.func_name,
                callee_allocated=program.callee_allocated,
                frozen=frozen,
            )
        try:
            return RefBackendModule(
                program.module if object_code is None else None,
                program.func_name,
                program.arguments,
                program.results,
                opt_level=opt_level,
                bound_inputs=program.weights,
                frozen_weights=[i - len(program.inputs) for i in frozen],
                shapes=program.shapes,
                object_code=object_code,
                cache=cache,
            )
        except RuntimeError as error:
            raise CompileError(f"JIT compilation failed: {error}") from error


class TosaBackend(LinalgOnTensorsBackend):
    """TOSA 1.0 (the TOSA specification, version 1.0: profiles ``pro_int``
    and ``pro_fp``, extension ``bf16``, level ``8k``): every module the
    pipeline emits declares that target (``tosa-attach-target``) and passes
    ``tosa-validate`` with strict op spec alignment against it. It runs by
    MLIR's own TOSA to linalg lowering, then the RefBackend, like
    linalg-on-tensors."""

    def load(
        self,
        program: Program,
        *,
        opt_level: int = 2,
        cache: bool = True,
        object_code: bytes | None = None,
        freeze: bool = False,
    ) -> RefBackendModule:
        if object_code is None:
            run_pipeline(
                program.module, TOSA_TO_LINALG_PIPELINE, "lowering TOSA to linalg"
            )
        return super().load(
            program,
            opt_level=opt_level,
            cache=cache,
            object_code=object_code,
            freeze=freeze,
        )


#: The backends, by name.
BACKENDS: dict[str, Backend] = {
    # Attention stays whole where TorchToLinalg fuses it (isFusableAttention:
    # one scf.forall over batch x heads x query blocks, see
    # TorchToLinalg/Attention.cpp), and so does an inference group norm
    # (isRowGroupNorm: one task per group, TorchToLinalg/Normalization.cpp);
    # their other forms still decompose.
    "linalg-on-tensors": LinalgOnTensorsBackend(
        "linalg-on-tensors",
        LINALG_ON_TENSORS_PIPELINE,
        legal_ops=("aten.scaled_dot_product_attention", "aten.native_group_norm"),
    ),
    "tosa": TosaBackend("tosa", TOSA_PIPELINE, float64=False),
}


def get_backend(name: str) -> Backend:
    """The backend called `name`.

    Raises:
        ValueError: no backend has that name (the message lists them).
    """
    backend = BACKENDS.get(name)
    if backend is None:
        raise ValueError(
            f"backend={name!r}: expected one of {', '.join(sorted(BACKENDS))}"
        )
    return backend
