"""What every front end hands to the compiler: a :class:`Program`.

A front end (the FX importer for ``torch.export`` programs, the ONNX
importer) returns the ``torch``-dialect module together with its typed
signature, built from the front end's own metadata (the exported program's
``meta["val"]``, the ONNX value infos): what each argument is (a user input,
a Python scalar carried as a 0-d tensor, a weight with the tensor to bind),
its name, dtype and shape, and what each result is (a user output, a scalar,
the new value of mutated state). Nothing downstream re-parses MLIR text or
recomputes which argument is a weight. The compile flow runs one way:
front end -> Program -> backend contract -> backend -> runtime.

The one dtype table of the package lives here too: the dtypes of
``!torch.vtensor<[...],dtype>`` and their torch counterparts.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

import torch

from . import ir

__all__ = [
    "MLIR_TO_TORCH_DTYPE",
    "TORCH_DTYPE_TO_MLIR",
    "ArgumentKind",
    "Program",
    "ResultKind",
    "TensorSpec",
]

#: torch dtype -> the dtype spelled in ``!torch.vtensor<[...],dtype>``.
TORCH_DTYPE_TO_MLIR: dict[torch.dtype, str] = {
    torch.float32: "f32",
    torch.float64: "f64",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.int8: "si8",
    torch.int16: "si16",
    torch.int32: "si32",
    torch.int64: "si64",
    torch.uint8: "ui8",
    torch.uint16: "ui16",
    torch.uint32: "ui32",
    torch.uint64: "ui64",
    torch.bool: "i1",
    torch.complex64: "complex<f32>",
    torch.complex128: "complex<f64>",
    # Storage dtypes: casts and data movement (one byte per element).
    torch.float8_e4m3fn: "f8E4M3FN",
    torch.float8_e5m2: "f8E5M2",
    torch.float8_e4m3fnuz: "f8E4M3FNUZ",
    torch.float8_e5m2fnuz: "f8E5M2FNUZ",
    torch.float8_e8m0fnu: "f8E8M0FNU",
    torch.int4: "si4",  # type: ignore[attr-defined]
    torch.uint4: "ui4",  # type: ignore[attr-defined]
    torch.int2: "si2",  # type: ignore[attr-defined]
    torch.uint2: "ui2",  # type: ignore[attr-defined]
}

#: The inverse of :data:`TORCH_DTYPE_TO_MLIR`.
MLIR_TO_TORCH_DTYPE: dict[str, torch.dtype] = {
    spelling: dtype for dtype, spelling in TORCH_DTYPE_TO_MLIR.items()
}


class ArgumentKind(enum.Enum):
    """What an argument of a compiled function is."""

    #: A tensor the caller passes.
    INPUT = "input"
    #: A Python ``int``/``float``/``bool`` the caller passes, carried to the
    #: compiled code as a 0-d tensor (int64, float64, bool).
    SCALAR = "scalar"
    #: A weight (parameter, buffer, constant tensor) bound at compile time.
    WEIGHT = "weight"


class ResultKind(enum.Enum):
    """What a result of a compiled function is."""

    #: A tensor the model returns.
    OUTPUT = "output"
    #: A Python scalar the model returns, carried as a 0-d tensor.
    SCALAR = "scalar"
    #: The new value of an input or buffer the model updates in place.
    MUTATION = "mutation"


#: The dtype a backend without 64-bit or unsigned integers (TOSA 1.0) takes
#: a tensor of these dtypes as, when its values fit (``torch-narrow-si64``).
_ABI_DTYPES = {torch.int64: torch.int32, torch.uint8: torch.int16}


@dataclass(frozen=True)
class TensorSpec:
    """What a compiled function takes or returns at one position.

    ``shape`` holds one entry per dim, ``None`` for a dynamic size.
    ``value_range`` is set when the backend's code assumes the values lie
    in ``[lo, hi]`` (see the ``torch-narrow-si64`` pass, TOSA): for an
    argument, the range its index uses allow (each call checks it: the
    backend has no run-time index checks), within int32 for an int64 one,
    which the code then takes as int32 (TOSA 1.0 has no 64-bit integers),
    and within [0, 255] for a uint8 one, which the code takes as int16
    (TOSA 1.0 has no unsigned integers); for an int64 result, int32's
    range, and for a uint8 one [0, 255]: the code returns it as int32 or
    int16 and the runtime converts it back.
    """

    name: str
    shape: tuple[int | None, ...]
    dtype: torch.dtype
    kind: ArgumentKind | ResultKind = ArgumentKind.INPUT
    value_range: tuple[int, int] | None = None

    @property
    def abi_dtype(self) -> torch.dtype:
        """The dtype the compiled code takes or returns (int32 for an int64
        tensor with a value range, int16 for a uint8 one)."""
        if self.value_range is not None:
            return _ABI_DTYPES.get(self.dtype, self.dtype)
        return self.dtype

    def describe(self) -> str:
        """``[2, ?] float32``."""
        dims = ", ".join("?" if s is None else str(s) for s in self.shape)
        return f"[{dims}] {str(self.dtype).removeprefix('torch.')}"

    @classmethod
    def of(cls, name: str, value: Any, kind: ArgumentKind | ResultKind) -> TensorSpec:
        """The spec of a tensor or fake tensor (symbolic sizes -> None)."""
        shape = tuple(s if isinstance(s, int) else None for s in value.shape)
        return cls(name, shape, value.dtype, kind)


@dataclass
class Program:
    """A program in the ``torch`` dialect with its typed signature.

    Attributes:
        module: the module, as the front end imported it (the compile flow
            lowers it in place); None for a program rebuilt from the
            compile cache, which has its machine code instead.
        func_name: its entry function.
        arguments: one spec per function argument: the caller's arguments
            (``INPUT``, ``SCALAR``) in call order, then the ``WEIGHT`` ones.
        results: one spec per function result: the model's outputs
            (``OUTPUT``, ``SCALAR``) in order, then ``MUTATION`` ones.
        weights: the tensors bound to the ``WEIGHT`` arguments, in order
            (referenced, not copied).
        weight_names: per weight, its qualified name in the model (the
            exported program's ``state_dict`` or ``constants`` key).
        mutated_arguments: per ``MUTATION`` result, the index (in
            `arguments`) of the argument it updates.
        output_kinds: per output of the model, ``tensor``, ``int``,
            ``float``, ``bool`` (a scalar result) or ``constant`` (a value
            the program returns as is, given next to it; no result).
        layouts: caller arguments whose strides the program reads
            (``as_strided`` of their storage), by index: the strides.
        out_spec: the pytree spec of the model's outputs, if any.
        shapes: the dynamic sizes (``torch2mlir.shapes.DynamicShapes``) when the
            program has symbolic sizes, else None.
    """

    module: ir.Module | None
    func_name: str
    arguments: list[TensorSpec]
    results: list[TensorSpec]
    weights: list[torch.Tensor] = field(default_factory=list)
    weight_names: list[str] = field(default_factory=list)
    mutated_arguments: list[int] = field(default_factory=list)
    output_kinds: list[tuple[str, Any]] = field(default_factory=list)
    layouts: dict[int, tuple[int, ...]] = field(default_factory=dict)
    out_spec: Any = None
    shapes: Any = None

    @property
    def callee_allocated(self) -> bool:
        """Whether an output's size is known only once the program has run
        (``nonzero``, ``unique``...): then the compiled code allocates the
        results (see :attr:`torch2mlir.shapes.DynamicShapes.data_dependent`)."""
        return self.shapes is not None and self.shapes.data_dependent

    @property
    def inputs(self) -> list[TensorSpec]:
        """The arguments the caller passes (all but the weights)."""
        return self.arguments[: len(self.arguments) - len(self.weights)]

    @property
    def frozen_arguments(self) -> list[int]:
        """The positions of the weight arguments that ``compile(...,
        freeze=True)`` freezes: every weight the program does not update in
        place."""
        mutated = set(self.mutated_arguments)
        return [
            i
            for i, spec in enumerate(self.arguments)
            if spec.kind is ArgumentKind.WEIGHT and i not in mutated
        ]

    @property
    def scalar_inputs(self) -> dict[int, type]:
        """Caller arguments that are Python scalars: index -> type."""
        types = {torch.bool: bool, torch.int64: int, torch.float64: float}
        return {
            i: types[spec.dtype]
            for i, spec in enumerate(self.inputs)
            if spec.kind is ArgumentKind.SCALAR
        }

    def adopt_value_ranges(self) -> None:
        """Records, after the backend lowered :attr:`module`, the value
        ranges its entry function assumes (``TensorSpec.value_range``): of
        the arguments with a ``torch2mlir.value_range`` attribute, and of
        the int64 results it returns as int32 and the uint8 ones it returns
        as int16."""
        assert self.module is not None, "adopt_value_ranges needs the module"
        func = next(
            op
            for op in self.module.body.operations
            if op.operation.name == "func.func"
            and op.attributes["sym_name"].value == self.func_name
        )
        function_type = func.attributes["function_type"].value
        if "arg_attrs" in func.attributes:
            for i, attrs in enumerate(func.attributes["arg_attrs"]):
                if "torch2mlir.value_range" in attrs:
                    bounds = tuple(attrs["torch2mlir.value_range"])
                    self.arguments[i] = replace(self.arguments[i], value_range=bounds)
        for i, (spec, mlir_type) in enumerate(zip(self.results, function_type.results)):
            element = getattr(mlir_type, "element_type", None)
            if not isinstance(element, ir.IntegerType):
                continue
            if spec.dtype == torch.int64 and element.width == 32:
                self.results[i] = replace(spec, value_range=(-(2**31), 2**31 - 1))
            elif spec.dtype == torch.uint8 and element.width == 16:
                self.results[i] = replace(spec, value_range=(0, 255))
