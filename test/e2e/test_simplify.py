"""``torch2mlir.fx.simplify``: the forms torch.export leaves that torch2mlir
rewrites into ops it defines, so ``decompositions="auto"`` imports the
program as exported (no Core ATen re-trace). Each case checks that the
rewrite made every op defined, and compares the compiled module (default
options, which take that path) with eager PyTorch on two sets of inputs.
"""

from __future__ import annotations

import operator

import pytest
import torch
from harness import Call, import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()

from torch2mlir.compiler import _defines_every_op
from torch2mlir.fx import export
from torch2mlir.fx.simplify import simplify_exported_program

aten = torch.ops.aten


class Constant(nn.Module):
    """``torch.tensor`` in forward: lift_fresh_copy + detach_."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.tensor([1.0, -2.0, 3.0, 0.5])


class NoGradRegion(nn.Module):
    """A rotary-style table computed under ``torch.no_grad()``, with
    ``.to(device=..., dtype=...)`` and a stack inside the region."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("inv_freq", torch.linspace(0.1, 1.0, 4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            freq = self.inv_freq.to(device=x.device, dtype=torch.float32)
            angles = x[..., :4] * freq
            table = torch.stack([angles.cos(), angles.sin()], dim=-1)
        return x[..., :4, None] * table


CASES = {
    "constant": (Constant(), (torch.randn(3, 4),)),
    "split": (
        Call(lambda x: [t * (i + 1) for i, t in enumerate(x.split(3, dim=1))]),
        (torch.randn(2, 8, 5),),
    ),
    "split_last_dim_some_taken": (
        Call(lambda x: x.split(4, dim=-1)[1] + x.split(4, dim=-1)[2]),
        (torch.randn(3, 12),),
    ),
    "unbind": (
        Call(lambda x: sum(t * t for t in x.unbind(1))),
        (torch.randn(2, 3, 4),),
    ),
    "stack_negative_dim": (
        Call(lambda a, b: torch.stack([a, b, a * b], dim=-2)),
        (torch.randn(2, 5), torch.randn(2, 5)),
    ),
    "to_dtype_layout": (
        Call(lambda x: x.to(dtype=torch.float64, device="cpu") * 2),
        (torch.randn(4, 4),),
    ),
    "no_grad_region": (NoGradRegion(), (torch.randn(2, 6),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rewritten_program_imports_as_exported(name: str) -> None:
    module, inputs = CASES[name]
    module.eval()
    prog = export(module, inputs, decompositions="none")
    assert not _defines_every_op(prog)
    assert simplify_exported_program(prog) > 0
    assert _defines_every_op(prog), prog.graph

    compiled = torch2mlir.compile(module, inputs, cache=False)
    for args in (inputs, tuple(torch.randn_like(x) for x in inputs)):
        with torch.no_grad():
            expected = module(*args)
        torch.testing.assert_close(compiled(*args), expected, check_stride=False)


def test_split_becomes_slices_of_the_taken_elements() -> None:
    """split(x, 4, dim=-1) of 12: one slice per element taken, [4, 8) and
    [8, 12) on dim -1 (export may keep the element not taken)."""
    module, inputs = CASES["split_last_dim_some_taken"]
    prog = export(module, inputs, decompositions="none")
    simplify_exported_program(prog)
    targets = [n.target for n in prog.graph.nodes if n.op == "call_function"]
    assert aten.split.Tensor not in targets
    assert operator.getitem not in targets
    slices = [n for n in prog.graph.nodes if n.target is aten.slice.Tensor]
    bounds = {(n.args[1], n.args[2], n.args[3]) for n in slices}
    assert {(-1, 4, 8), (-1, 8, 12)} <= bounds <= {(-1, 0, 4), (-1, 4, 8), (-1, 8, 12)}


class Mutates(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x * 2
        y.add_(1)
        return torch.stack([y, x])


def test_program_with_a_mutation_is_left_alone() -> None:
    """A mutation other than detach_: no rewrite (functionalization is the
    Core ATen table's job); the compiled result is still right."""
    module, inputs = Mutates().eval(), (torch.randn(3),)
    prog = export(module, inputs, decompositions="none")
    before = [str(n.target) for n in prog.graph.nodes]
    assert simplify_exported_program(prog) == 0
    assert [str(n.target) for n in prog.graph.nodes] == before
    compiled = torch2mlir.compile(module, inputs, cache=False)
    torch.testing.assert_close(compiled(*inputs), module(*inputs))


class SplitColumns(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        first, second = x.split(2, dim=1)
        return first * 3 - second


def test_split_of_a_static_dim_beside_a_dynamic_one() -> None:
    """The batch is dynamic, the split dim static: rewritten, and the
    compiled module takes any batch in the range."""
    module = SplitColumns().eval()
    inputs = (torch.randn(6, 4),)
    shapes = ({0: torch.export.Dim("batch", min=2, max=64)},)
    prog = export(module, inputs, decompositions="none", dynamic_shapes=shapes)
    assert simplify_exported_program(prog) > 0
    assert _defines_every_op(prog)
    compiled = torch2mlir.compile(module, inputs, dynamic_shapes=shapes, cache=False)
    for rows in (6, 7, 2):
        x = torch.randn(rows, 4)
        torch.testing.assert_close(compiled(x), module(x))
