"""Python scalars in and out of compiled models: int/float/bool arguments
are inputs of the program (a call with another value computes with that
value), or, where the model branches on them, compiled in per value; scalar
results come back as Python scalars."""

from __future__ import annotations

import pytest
import torch
from harness import import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()


class TimesInt(nn.Module):
    def forward(self, x: torch.Tensor, n: int) -> torch.Tensor:
        return x * n


class PlusFloat(nn.Module):
    def forward(self, x: torch.Tensor, s: float) -> torch.Tensor:
        return torch.tanh(x + s)


class Branches(nn.Module):
    def forward(self, x: torch.Tensor, flag: bool) -> torch.Tensor:
        return x + 1 if flag else x - 1


class ScaleAndShift(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(4, 3)

    def forward(self, x: torch.Tensor, scale: float, shift: int) -> torch.Tensor:
        return self.linear(x) * scale + shift


class ReturnsSizeTimesFloat(nn.Module):
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, float]:
        return x * 2, x.shape[0] * 2.5


class ReturnsScalarInput(nn.Module):
    def forward(self, x: torch.Tensor, n: int) -> tuple[torch.Tensor, int]:
        return x + 1, n


@pytest.mark.parametrize(
    ("model", "example", "others"),
    [
        (TimesInt(), 3, [3, -7, 0, 12345]),
        (PlusFloat(), 0.5, [0.5, -2.25, 1e-3, 1e3]),
    ],
    ids=["int", "float"],
)
def test_a_scalar_input_is_an_input(model, example, others) -> None:
    x = torch.randn(4, 5)
    compiled = torch2mlir.compile(model, (x, example), cache=False)
    for value in others:
        y = torch.randn(4, 5)
        torch.testing.assert_close(compiled(y, value), model(y, value))


def test_several_scalars_with_weights() -> None:
    model = ScaleAndShift().eval()
    x = torch.randn(2, 4)
    compiled = torch2mlir.compile(model, (x, 1.5, 2), cache=False)
    with torch.no_grad():
        for scale, shift in [(1.5, 2), (-0.25, 7), (3.0, -4)]:
            torch.testing.assert_close(
                compiled(x, scale, shift), model(x, scale, shift)
            )


def test_a_bool_the_model_branches_on_is_compiled_per_value() -> None:
    model = Branches()
    x = torch.randn(3)
    compiled = torch2mlir.compile(model, (x, True), cache=False)
    for flag in (True, False, True):
        torch.testing.assert_close(compiled(x, flag), model(x, flag))


def test_scalar_results_are_python_scalars() -> None:
    x = torch.randn(4, 2)
    compiled = torch2mlir.compile(ReturnsSizeTimesFloat(), (x,), cache=False)
    tensor, number = compiled(x)
    torch.testing.assert_close(tensor, x * 2)
    assert number == 10.0 and isinstance(number, float)

    compiled = torch2mlir.compile(ReturnsScalarInput(), (x, 4), cache=False)
    for n in (4, -9):
        tensor, value = compiled(x, n)
        torch.testing.assert_close(tensor, x + 1)
        assert value == n and type(value) is int


@pytest.mark.parametrize(
    ("given", "message"),
    [(2.5, "expected a Python int"), (torch.tensor(3), "expected a Python int")],
)
def test_a_scalar_of_another_type_is_an_input_error(given, message: str) -> None:
    compiled = torch2mlir.compile(TimesInt(), (torch.randn(3), 2), cache=False)
    with pytest.raises(torch2mlir.InputError, match=message):
        compiled(torch.randn(3), given)


def test_scalar_inputs_import_as_torch_scalars() -> None:
    from torch2mlir import export_and_import

    module = export_and_import(
        TimesInt(), torch.randn(3), 2, dynamic_shapes=(None, torch.export.Dim.DYNAMIC)
    )
    text = str(module)
    assert "!torch.int" in text.split("func.func")[1].split("{")[0], text
