"""Python scalar arguments of a compiled model.

A model may take Python ``int``, ``float`` and ``bool`` arguments next to its
tensors (``forward(self, x, n: int)``). torch.export bakes such a value into
the program; torch2mlir keeps it an input instead, as torch-mlir's importer
does (``!torch.int``, ``!torch.float``, ``!torch.bool``): :func:`compile`
exports the model with each scalar passed as a 0-d tensor (int64, float64,
bool) and read back with ``.item()``, so a call with another value computes
with that value.

Where the model branches on a scalar (``if flag:``), its value decides the
program and torch.export cannot trace it as data ("could not guard on
data-dependent expression"). Then the scalars are specialized: the program
is compiled for the example values, and a call with other values compiles
(once per distinct set of values) the program those values give, as
``torch.compile`` recompiles when a guard fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch
from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

from ..errors import CompileError, InputError

__all__ = [
    "SCALAR_DTYPES",
    "ScalarsAsTensors",
    "SpecializedScalars",
    "is_data_dependent_failure",
    "scalar_positions",
]

#: The 0-d tensor dtype that carries each Python scalar type.
SCALAR_DTYPES: dict[type, torch.dtype] = {
    bool: torch.bool,
    int: torch.int64,
    float: torch.float64,
}


def scalar_positions(args: Sequence[Any]) -> dict[int, type]:
    """The positions of the Python scalars in `args`, with their types
    (``bool`` before ``int``: a bool is an int in Python)."""
    kinds: dict[int, type] = {}
    for index, value in enumerate(args):
        for kind in (bool, int, float):
            if isinstance(value, kind):
                kinds[index] = kind
                break
    return kinds


def as_tensor(value: Any, kind: type, what: str) -> torch.Tensor:
    """A Python scalar argument as the 0-d tensor the compiled code takes.

    Raises:
        InputError: `value` is not of the scalar type the model was
            compiled for (an int where a float was is accepted).
    """
    accepted = (int, float) if kind is float else (kind,)
    if isinstance(value, torch.Tensor) or not isinstance(value, accepted):
        raise InputError(
            f"{what}: expected a Python {kind.__name__} (the example was one), "
            f"got {type(value).__name__}"
        )
    if kind is int and isinstance(value, bool):
        raise InputError(f"{what}: expected a Python int, got bool")
    return torch.tensor(value, dtype=SCALAR_DTYPES[kind])


class ScalarsAsTensors(torch.nn.Module):
    """`model` with its Python-scalar arguments taken as 0-d tensors and
    passed to it as ``tensor.item()`` (a symbolic scalar in torch.export)."""

    def __init__(self, model: torch.nn.Module, kinds: dict[int, type]) -> None:
        super().__init__()
        self.model = model
        self.kinds = kinds

    def forward(self, *args: Any) -> Any:
        return self.model(
            *(arg.item() if i in self.kinds else arg for i, arg in enumerate(args))
        )


class FixedScalars(torch.nn.Module):
    """`model` with its Python-scalar arguments fixed to `values` (by
    position); it takes the other arguments."""

    def __init__(self, model: torch.nn.Module, values: dict[int, Any]) -> None:
        super().__init__()
        self.model = model
        self.values = values

    def forward(self, *args: Any) -> Any:
        rest = iter(args)
        count = len(args) + len(self.values)
        return self.model(
            *(self.values[i] if i in self.values else next(rest) for i in range(count))
        )


class SpecializedScalars:
    """A compiled model whose Python-scalar arguments are compiled in: one
    compiled program per distinct set of scalar values, made on first use.

    Args:
        compile_for: compiles the model for a dict of scalar values (by
            position) and returns a callable taking the other arguments.
        kinds: the position and type of each scalar argument.
        example: the example values (compiled eagerly).
    """

    def __init__(
        self,
        compile_for: Callable[[dict[int, Any]], Any],
        kinds: dict[int, type],
        example: dict[int, Any],
    ) -> None:
        self._compile_for = compile_for
        self._kinds = kinds
        self._programs: dict[tuple[Any, ...], Any] = {}
        first = self._program(example)
        self.timings = first.timings
        self.cache = first.cache
        self.inputs = first.inputs
        self.outputs = first.outputs

    def _program(self, values: dict[int, Any]) -> Any:
        key = tuple((type(values[i]), values[i]) for i in sorted(values))
        program = self._programs.get(key)
        if program is None:
            program = self._programs[key] = self._compile_for(values)
        return program

    def __call__(self, *args: Any) -> Any:
        """Runs the program compiled for these scalar values (compiling it
        first if they are new).

        Raises:
            InputError: a scalar argument of another type than the example's,
                or (from the program) a tensor that does not match.
            CompileError: the program for new scalar values does not compile.
        """
        values: dict[int, Any] = {}
        for position, kind in self._kinds.items():
            if position < len(args):
                as_tensor(args[position], kind, f"argument {position}")  # the type
                values[position] = args[position]
        if len(values) != len(self._kinds):
            raise InputError(
                f"expected {len(self._kinds)} scalar arguments at positions "
                f"{sorted(self._kinds)}, got {len(args)} arguments"
            )
        rest = [arg for i, arg in enumerate(args) if i not in self._kinds]
        return self._program(values)(*rest)


def is_data_dependent_failure(error: CompileError) -> bool:
    """Whether torch.export failed because the program branches on (or
    specializes) a value that only the data knows."""
    cause = error.__cause__
    while cause is not None:
        if isinstance(cause, GuardOnDataDependentSymNode):
            return True
        cause = cause.__cause__
    return "data-dependent" in str(error)
