"""A compiled model, called like the model: :class:`CompiledModule`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
import torch.utils._pytree as pytree

from ..errors import InputError
from ..program import Program
from ..runtime.refbackend import RefBackendModule
from .scalars import as_tensor

__all__ = ["CompiledModule"]


class CompiledModule:
    """A model compiled for the CPU by the RefBackend; call it like the model.

    Attributes:
        timings: seconds spent per phase: ``export`` (torch.export and
            decompositions), ``cache`` (keying and reading the compile
            cache), ``import``, ``lowering`` (all pipelines) and ``jit``
            (LLVM code generation, or loading cached code); zeros for
            phases a cache hit skipped.
        cache: ``"program"``, ``"object"``, ``"miss"`` or ``"off"``: what
            the on-disk compile cache provided (see :func:`compile`).
        inputs, outputs: the compiled signature (TensorSpec per tensor).
    """

    def __init__(
        self, runner: RefBackendModule, program: Program, timings: dict[str, float]
    ) -> None:
        self._runner = runner
        self._out_spec = program.out_spec
        #: The model returns one tensor: no pytree to rebuild.
        self._one_leaf = program.out_spec is not None and program.out_spec.is_leaf()
        self._mutated = list(program.mutated_arguments)
        self._layouts = dict(program.layouts)
        self._output_kinds = list(program.output_kinds)
        #: Positions of Python-scalar arguments and their types (they are
        #: passed to the compiled code as 0-d tensors).
        self.scalar_inputs: dict[int, type] = program.scalar_inputs
        self.timings = timings
        self.cache = "off"
        self.inputs = runner.inputs
        self.outputs = runner.outputs

    def __call__(self, *args: Any) -> Any:
        """Runs the compiled model on tensors shaped like the example inputs.

        Inputs and buffers the model updates in place (``x.add_(1)``, a
        training-mode BatchNorm's running statistics) are updated as eager
        PyTorch updates them.

        Raises:
            InputError: an argument does not match the compiled signature.
        """
        if self.scalar_inputs:
            args = tuple(
                as_tensor(arg, self.scalar_inputs[i], f"argument {i}")
                if i in self.scalar_inputs
                else arg
                for i, arg in enumerate(args)
            )
        for position, strides in self._layouts.items():
            self._check_layout(args, position, strides)
        results: list[Any] = self._runner(*args)
        if self._mutated:
            kept = len(results) - len(self._mutated)
            results, updates = results[:kept], results[kept:]
            self._write_back(args, updates)
        if self._output_kinds:
            results = _user_outputs(results, self._output_kinds)
        if self._one_leaf:
            return results[0]
        if self._out_spec is None:
            return results[0] if len(results) == 1 else tuple(results)
        return pytree.tree_unflatten(results, self._out_spec)

    def _check_layout(
        self, args: tuple[Any, ...], position: int, strides: tuple[int, ...]
    ) -> None:
        """The program reads the storage of argument `position` (as_strided):
        it was compiled for `strides`, and eager PyTorch's result depends on
        them."""
        if position >= len(args) or not isinstance(args[position], torch.Tensor):
            return  # the runner reports the count or the type
        value = args[position]
        if value.dim() != len(strides) or all(
            size == 1 or got == want
            for size, got, want in zip(value.shape, value.stride(), strides)
        ):
            return
        spec = self._runner.inputs[position]
        raise InputError(
            f"argument {position} ({spec.name}): the program reads this "
            f"tensor's storage (as_strided), compiled for strides {strides}, "
            f"got strides {tuple(value.stride())}; pass a tensor laid out "
            "like the example (e.g. .contiguous() or .to(memory_format=...))"
        )

    def _write_back(self, args: tuple[Any, ...], updates: Sequence[Any]) -> None:
        """Copies each new value of mutated state into its tensor: a user
        argument, or a bound buffer of the model."""
        user = len(self._runner.inputs)
        with torch.no_grad():
            for position, value in zip(self._mutated, updates):
                if position < user:
                    args[position].copy_(value)
                else:
                    self._runner.update_bound_tensor(position - user, value)


def _user_outputs(
    results: Sequence[torch.Tensor], kinds: Sequence[tuple[str, Any]]
) -> list[Any]:
    """The model's outputs from the compiled code's tensor results: Python
    scalars from their 0-d tensors, constants where the program returns one
    (see ``FxImporter.output_kinds``)."""
    outputs: list[Any] = []
    tensors = iter(results)
    for kind, value in kinds:
        if kind == "constant":
            outputs.append(value)
        elif kind == "tensor":
            outputs.append(next(tensors))
        else:
            outputs.append(
                {"int": int, "float": float, "bool": bool}[kind](next(tensors).item())
            )
    return outputs
