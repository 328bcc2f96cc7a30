"""The registry of end-to-end test cases.

A case is a module factory and an input factory. Both run under a fixed seed
(`torch.manual_seed(case.seed)` before each), so every run of a case sees the
same weights and the same inputs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn

ModuleFactory = Callable[[], nn.Module]
InputFactory = Callable[[], tuple[torch.Tensor, ...]]

_NAME = re.compile(r"[a-z0-9_]+")


@dataclass(frozen=True)
class Case:
    """One program to compile, run and compare with eager PyTorch.

    `rtol`/`atol` override the per-dtype defaults of `harness.tolerance` for
    floating-point outputs; integer outputs are always compared exactly.
    """

    name: str
    module_factory: ModuleFactory
    input_factory: InputFactory
    seed: int = 0
    rtol: float | None = None
    atol: float | None = None

    def build_module(self) -> nn.Module:
        """The case's module, in eval mode, with parameters drawn from `seed`."""
        torch.manual_seed(self.seed)
        return self.module_factory().eval()

    def build_inputs(self) -> tuple[torch.Tensor, ...]:
        """The case's inputs, drawn from `seed`."""
        torch.manual_seed(self.seed)
        inputs = self.input_factory()
        if not isinstance(inputs, tuple) or not all(
            isinstance(t, torch.Tensor) for t in inputs
        ):
            raise TypeError(f"case {self.name}: inputs must be a tuple of tensors")
        return inputs


_CASES: dict[str, Case] = {}


def register_case(
    name: str,
    *,
    inputs: InputFactory,
    seed: int = 0,
    rtol: float | None = None,
    atol: float | None = None,
) -> Callable[[ModuleFactory], ModuleFactory]:
    """Register the decorated module factory as the case `name`.

    Example:
        @register_case("add_broadcast", inputs=lambda: (torch.randn(3, 4), torch.randn(4)))
        def _() -> nn.Module:
            return Binary(torch.add)

    Set `rtol` and `atol` together or not at all.
    """
    if not _NAME.fullmatch(name):
        raise ValueError(f"case name {name!r} must match {_NAME.pattern}")
    if (rtol is None) != (atol is None):
        raise ValueError(f"case {name}: set rtol and atol together")

    def decorate(factory: ModuleFactory) -> ModuleFactory:
        if name in _CASES:
            raise ValueError(f"case {name} is registered twice")
        _CASES[name] = Case(name, factory, inputs, seed, rtol, atol)
        return factory

    return decorate


def registered_cases() -> dict[str, Case]:
    """The cases registered so far, by name, in registration order."""
    return dict(_CASES)


class Fn(nn.Module):
    """A module whose forward is `fn(*inputs)`; for cases that are one expression."""

    def __init__(
        self, fn: Callable[..., torch.Tensor | tuple[torch.Tensor, ...]]
    ) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *inputs: torch.Tensor) -> torch.Tensor | tuple[torch.Tensor, ...]:
        return self.fn(*inputs)
