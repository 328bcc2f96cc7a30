"""Dynamic sizes of a compiled program: checking inputs, computing output shapes.

``torch.export`` with ``dynamic_shapes=`` gives every dynamic size a symbol
(``s0``, ``s1``...) with a range (``ExportedProgram.range_constraints``, from
the ``torch.export.Dim(min=, max=)`` the user declared), and describes every
output size as an expression of those symbols. The RefBackend passes outputs
as caller-allocated buffers, so before each call it needs their shapes:
:class:`DynamicShapes` binds the symbols from the input sizes, checks each
against its range, and evaluates the output sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy
import torch

from .errors import InputError


@dataclass(frozen=True)
class _Binding:
    """Where a symbol is read: dim `dim` of input `input` (its name), whose
    size is ``scale * symbol + offset`` (a derived ``Dim``, such as
    ``32 * Dim("h")``, has a scale; a plain one is 1 and 0)."""

    input: int
    dim: int
    name: str
    scale: int = 1
    offset: int = 0

    @property
    def derived(self) -> bool:
        return self.scale != 1 or self.offset != 0

    def form(self) -> str:
        """The sizes it takes, ``32 * k`` or ``2 * k + 1``, k an integer."""
        return f"{self.scale} * k" + (f" + {self.offset}" if self.offset else "")

    def size(self, value: int | None) -> int | None:
        """The dim's size for the symbol's `value` (None stays None)."""
        return None if value is None else self.scale * value + self.offset

    def solve(self, size: int) -> int | None:
        """The symbol's value for the dim's `size`; None when no integer
        gives it."""
        if (size - self.offset) % self.scale:
            return None
        return (size - self.offset) // self.scale


def _linear_in(expr: Any, symbol: Any) -> tuple[int, int] | None:
    """(scale, offset) with ``expr == scale * symbol + offset``, integers,
    scale > 0; None when `expr` is not of that form."""
    try:
        poly = sympy.Poly(expr, symbol)
    except sympy.PolynomialError:
        return None
    if poly.degree() != 1:
        return None
    scale, offset = poly.all_coeffs()
    if not (scale.is_Integer and offset.is_Integer) or scale <= 0:
        return None
    return int(scale), int(offset)


class DynamicShapes:
    """The symbolic sizes of a program's inputs and outputs.

    Args:
        input_sizes: per user input, its sizes (``int`` or ``torch.SymInt``),
            from the exported program's placeholder ``meta["val"]``.
        output_sizes: per output, its sizes, from the output node's values.
        ranges: ``ExportedProgram.range_constraints`` (symbol -> range with
            ``lower``/``upper``; an upper bound may be infinite).
        input_names: the user input names, for error messages.
    """

    def __init__(
        self,
        input_sizes: Sequence[Sequence[Any]],
        output_sizes: Sequence[Sequence[Any]],
        ranges: dict[Any, Any],
        input_names: Sequence[str],
    ) -> None:
        self._bindings: dict[Any, _Binding] = {}
        # Checks of input dims that are expressions or repeated symbols.
        self._input_exprs: list[tuple[int, int, Any]] = []
        for index, sizes in enumerate(input_sizes):
            for dim, size in enumerate(sizes):
                if not isinstance(size, torch.SymInt):
                    continue
                expr = size.node.expr
                if expr.is_Symbol and expr not in self._bindings:
                    self._bindings[expr] = _Binding(index, dim, input_names[index])
                else:
                    self._input_exprs.append((index, dim, expr))
        # A symbol seen only in an expression of a dim (a derived Dim, e.g.
        # 32 * h): bound from that dim when the expression is linear in it.
        for index, dim, expr in list(self._input_exprs):
            unbound = expr.free_symbols - self._bindings.keys()
            if len(unbound) != 1:
                continue
            (symbol,) = unbound
            coefficients = _linear_in(expr, symbol)
            if coefficients is None:
                continue
            scale, offset = coefficients
            self._bindings[symbol] = _Binding(
                index, dim, input_names[index], scale, offset
            )
            self._input_exprs.remove((index, dim, expr))
        self._ranges = {}
        for symbol in self._bindings:
            value_range = ranges.get(symbol)
            if value_range is not None:
                self._ranges[symbol] = (
                    _as_int(value_range.lower),
                    _as_int(value_range.upper),
                )
        self._outputs: list[list[Any] | None] = []
        for sizes in output_sizes:
            shape: list[Any] = []
            for size in sizes:
                if isinstance(size, torch.SymInt):
                    expr = size.node.expr
                    if expr.free_symbols - self._bindings.keys():
                        self._outputs.append(
                            None
                        )  # data-dependent: the callee allocates
                        break
                    shape.append(int(expr) if expr.is_Integer else expr)
                else:
                    shape.append(int(size))
            else:
                self._outputs.append(shape)

    @property
    def is_static(self) -> bool:
        """Whether no size is symbolic."""
        return not self._bindings and not self.data_dependent

    @property
    def data_dependent(self) -> bool:
        """Whether an output size is known only once the program has run
        (then the compiled code allocates every result)."""
        return any(shape is None for shape in self._outputs)

    def describe_ranges(self) -> str:
        """``batch in [1, 16], seq in [2, 256]``-style text of the ranges."""
        parts = []
        for symbol, binding in self._bindings.items():
            low, high = self._ranges.get(symbol, (None, None))
            where = f"{binding.name}.shape[{binding.dim}]"
            low, high = binding.size(low), binding.size(high)
            part = f"{where} in [{low}, {'inf' if high is None else high}]"
            if binding.derived:
                part += f" ({binding.form()})"
            parts.append(part)
        return ", ".join(parts)

    def bind(self, tensors: Sequence[torch.Tensor]) -> dict[Any, int]:
        """The value of every symbol in the call `tensors` (the user inputs).

        Raises:
            InputError: a size is outside the range declared at export
                (``torch.export.Dim(min=, max=)``), or two sizes that must
                agree (the same ``Dim``) differ.
        """
        values: dict[Any, int] = {}
        for symbol, binding in self._bindings.items():
            size = int(tensors[binding.input].shape[binding.dim])
            where = f"argument {binding.input} ({binding.name}): dim {binding.dim} is {size}"
            value = binding.solve(size)
            if value is None:
                raise InputError(
                    f"{where}, but the exported program takes only sizes "
                    f"{binding.form()} for an integer k there (a derived "
                    "torch.export.Dim)"
                )
            low, high = self._ranges.get(symbol, (None, None))
            if (low is not None and value < low) or (high is not None and value > high):
                declared = f"[{binding.size(low)}, {'inf' if high is None else binding.size(high)}]"
                if binding.derived:
                    declared += f" ({binding.form()}, k in [{low}, {'inf' if high is None else high}])"
                raise InputError(
                    f"{where}, outside the range {declared} declared at export "
                    "(torch.export.Dim); recompile with a wider range to accept it"
                )
            values[symbol] = value
        for index, dim, expr in self._input_exprs:
            if expr.free_symbols - values.keys():
                continue  # not checkable here: the program's own checks apply
            want = int(expr.xreplace(values))
            got = int(tensors[index].shape[dim])
            if want != got:
                raise InputError(
                    f"argument {index}: dim {dim} is {got}, but the exported program "
                    f"requires {expr} = {want} (sizes tied together at export)"
                )
        return values

    def output_shapes(self, values: dict[Any, int]) -> list[tuple[int, ...]]:
        """The output shapes for the symbol `values` of :meth:`bind`.

        Raises:
            ValueError: an output size is data-dependent (see
                :attr:`data_dependent`).
        """
        if self.data_dependent:
            raise ValueError("an output size is data-dependent")
        return [
            tuple(s if isinstance(s, int) else int(s.xreplace(values)) for s in shape)
            for shape in self._outputs
            if shape is not None
        ]


def _as_int(bound: Any) -> int | None:
    """A range bound as an int; None for an infinite one."""
    try:
        return int(bound)
    except (TypeError, OverflowError, AttributeError, ValueError):
        return None
