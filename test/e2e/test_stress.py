"""Programs at the edges of size: a 5,000-op chain and a model with 1,000
outputs compile (or fail cleanly) and match eager; no signal, no stack
overflow, no time quadratic in the length."""

from __future__ import annotations

import torch
from harness import import_torch2mlir

torch2mlir = import_torch2mlir()


class Chain(torch.nn.Module):
    """`length` elementwise ops in a row (tanh, then x * 1.0001 + 0.5, ...)."""

    def __init__(self, length: int) -> None:
        super().__init__()
        self.length = length

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i in range(self.length):
            x = x * 1.0001 + 0.5 if i % 2 else torch.tanh(x)
        return x


class ManyOutputs(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return tuple(x + i for i in range(1000))


def test_a_5000_op_chain() -> None:
    model = Chain(5000)
    x = torch.randn(4, 8)
    compiled = torch2mlir.compile(model, (x,), cache=False)
    torch.testing.assert_close(compiled(x), model(x))


def test_a_thousand_outputs() -> None:
    model = ManyOutputs()
    x = torch.randn(3)
    compiled = torch2mlir.compile(model, (x,), cache=False)
    results = compiled(x)
    assert len(results) == 1000
    for got, want in zip(results, model(x)):
        torch.testing.assert_close(got, want)
