"""The FX importer and the IR levels of export_and_import, on real models.

These check the IR itself (what the e2e suite cannot see): typed values,
literals that hold the weights bit for bit, locations, the generic
``torch.operator`` for ops without a definition, and that importer output
round-trips through ``torch2mlir-opt``.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch

try:
    import torch2mlir
except ImportError as error:  # fail loudly: a test that cannot run is a defect
    raise ImportError(
        f"{error}; build first: nox -s build (PYTHONPATH=build/python_packages)"
    ) from error
from torch2mlir import export_and_import, ir

REPO = Path(__file__).resolve().parents[2]
OPT = (
    Path(os.environ.get("TORCH2MLIR_BUILD_DIR", REPO / "build"))
    / "bin"
    / "torch2mlir-opt"
)


class LinearRelu(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.linear = torch.nn.Linear(4, 3)
        self.register_buffer(
            "offset", torch.arange(3, dtype=torch.float32), persistent=False
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.linear(x)) + self.offset


class UsesIgammac(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.igammac(x, x) * 2


def _literals(module: ir.Module) -> list[np.ndarray]:
    arrays = []
    for op in module.body.operations[0].regions[0].blocks[0].operations:
        if op.operation.name == "torch.vtensor.literal":
            arrays.append(np.array(ir.DenseElementsAttr(op.attributes["value"])))
    return arrays


def test_raw_import_types_and_weights() -> None:
    model = LinearRelu().eval()
    module = export_and_import(model, torch.randn(2, 4), output_type="raw")
    text = str(module)
    assert (
        "func.func @main(%arg0: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,3],f32>"
        in text
    )
    assert "torch.aten.addmm" in text and "torch.aten.relu" in text
    literals = _literals(module)
    expected = [
        model.linear.weight.detach().numpy(),
        model.linear.bias.detach().numpy(),
        model.offset.numpy(),
    ]
    # Every parameter and the non-persistent buffer is a literal, bit for bit.
    for want in expected:
        assert any(
            got.shape == want.shape and np.array_equal(got, want) for got in literals
        ), want


def test_integer_and_bool_dtypes_are_typed() -> None:
    class Cast(torch.nn.Module):
        def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
            return a + b.to(torch.int64)

    module = export_and_import(
        Cast(),
        torch.ones(3, dtype=torch.int64),
        torch.ones(3, dtype=torch.bool),
        output_type="raw",
    )
    text = str(module)
    assert "!torch.vtensor<[3],si64>" in text
    assert "!torch.vtensor<[3],i1>" in text


def test_locations_point_at_the_model_source() -> None:
    module = export_and_import(UsesIgammac(), torch.randn(3), output_type="raw")
    text = module.operation.get_asm(enable_debug_info=True)
    line = UsesIgammac.forward.__code__.co_firstlineno + 1
    assert re.search(rf'"{re.escape(__file__)}":{line}:', text), text


def test_unknown_op_imports_as_torch_operator_and_fails_with_its_name() -> None:
    module = export_and_import(UsesIgammac(), torch.randn(3), output_type="raw")
    assert 'torch.operator "aten.igammac"' in str(module)
    with pytest.raises(torch2mlir.CompileError) as info:
        export_and_import(UsesIgammac(), torch.randn(3), output_type="torch")
    message = str(info.value)
    line = UsesIgammac.forward.__code__.co_firstlineno + 1
    assert "aten.igammac" in message and f"{Path(__file__).name}:{line}" in message


@pytest.mark.parametrize(
    "output_type, marker",
    [
        ("torch", "torch.aten.addmm"),
        ("linalg-on-tensors", "linalg.matmul"),
    ],
)
def test_output_types(output_type: str, marker: str) -> None:
    module = export_and_import(
        LinearRelu().eval(), torch.randn(2, 4), output_type=output_type
    )
    text = str(module)
    assert marker in text
    if output_type == "linalg-on-tensors":
        assert "torch." not in text


def test_bad_output_type() -> None:
    with pytest.raises(ValueError, match="output_type"):
        export_and_import(LinearRelu(), torch.randn(2, 4), output_type="tosa-ish")


@pytest.mark.parametrize("output_type", ["raw", "torch", "linalg-on-tensors"])
def test_importer_output_round_trips_through_opt(
    output_type: str, tmp_path: Path
) -> None:
    module = export_and_import(
        LinearRelu().eval(), torch.randn(2, 4), output_type=output_type
    )
    source = tmp_path / "model.mlir"
    source.write_text(str(module))
    once = subprocess.run(
        [str(OPT), str(source)], capture_output=True, text=True, check=True
    ).stdout
    source.write_text(once)
    twice = subprocess.run(
        [str(OPT), str(source)], capture_output=True, text=True, check=True
    ).stdout
    assert once == twice
    assert once.count("torch.vtensor.literal") == str(module).count(
        "torch.vtensor.literal"
    )


def test_bool_tensors_are_bytes_in_memory() -> None:
    class Flip(torch.nn.Module):
        def forward(self, mask: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
            return (x * mask).to(torch.bool)

    mask = torch.tensor([[True, False, True], [False, False, True]])
    x = torch.tensor([[1.0, 2.0, 0.0], [3.0, 0.0, -1.0]])
    compiled = torch2mlir.compile(Flip(), (mask, x))
    result = compiled(mask, x)
    assert result.dtype == torch.bool
    assert torch.equal(result, Flip()(mask, x))


def test_list_result_imports_as_list_unpack() -> None:
    # split_with_sizes returns Tensor[]: the op makes the list and
    # prim.ListUnpack gives its typed pieces; decomposition makes them
    # slices.
    class Split(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
            return torch.split(x, [1, 3], dim=1)

    raw = str(
        export_and_import(
            Split(), torch.randn(2, 4), output_type="raw", decompositions="none"
        )
    )
    assert "torch.aten.split_with_sizes" in raw and "-> !torch.list<vtensor>" in raw
    assert (
        "torch.prim.ListUnpack %1 : !torch.list<vtensor> -> "
        "!torch.vtensor<[2,1],f32>, !torch.vtensor<[2,3],f32>" in raw
    ), raw
    lowered = str(
        export_and_import(
            Split(), torch.randn(2, 4), output_type="torch", decompositions="none"
        )
    )
    assert "ListUnpack" not in lowered and lowered.count("torch.aten.slice.Tensor") == 2


def test_size_assertions_of_data_dependent_sizes_are_not_imported() -> None:
    # nonzero's row count is data-dependent: torch.export asserts u0 >= 0
    # with operator.ge on the symbolic size; neither is imported.
    class Nonzero(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.nonzero(x)

    raw = str(export_and_import(Nonzero(), torch.randn(3, 2), output_type="raw"))
    assert "torch.aten.nonzero" in raw and "!torch.vtensor<[?,2],si64>" in raw
    assert "torch.operator" not in raw
