"""Smoke test of an installed torch2mlir wheel (run by build_tools/build_wheels.py
in a fresh virtual environment, from outside the repository).

Checks: the package imports from site-packages (not a build tree), reports
what it was built with, compiles and runs an MLP against eager PyTorch, and
the torch2mlir-opt console tool runs the torch pipelines; compiles and runs
an ONNX model, and the torch2mlir-import-onnx tool's output lowers through
torch2mlir-opt.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import torch
import torch2mlir
from torch2mlir import export_and_import


def main() -> int:
    location = Path(torch2mlir.__file__).resolve()
    assert "site-packages" in location.parts, f"torch2mlir imported from {location}"
    info = torch2mlir.version_info()
    print("version_info:", info)
    assert info["llvm"] and info["torch"], info
    distribution = importlib.metadata.version("torch2mlir")
    assert distribution == torch2mlir.__version__, (distribution, torch2mlir.__version__)
    assert f"+llvm{info['llvm']}.torch{info['torch']}" in distribution, distribution

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)
    ).eval()
    x = torch.randn(3, 16)
    compiled = torch2mlir.compile(model, (x,))
    with torch.no_grad():
        want = model(x)
    torch.testing.assert_close(compiled(x), want, rtol=1e-5, atol=1e-5)
    print("MLP: matches eager")

    opt = shutil.which("torch2mlir-opt") or str(Path(sys.executable).parent / "torch2mlir-opt")
    help_text = subprocess.run([opt, "--help"], capture_output=True, text=True, check=True).stdout
    for pipeline in (
        "torch-lower-to-backend-contract",
        "torch-backend-to-linalg-on-tensors-backend-pipeline",
        "torch2mlir-refbackend-pipeline",
    ):
        assert pipeline in help_text, f"{pipeline} missing from torch2mlir-opt --help"
    module = export_and_import(model, x, output_type="torch")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mlp.mlir"
        path.write_text(str(module))
        lowered = subprocess.run(
            [opt, str(path), "--torch-backend-to-linalg-on-tensors-backend-pipeline"],
            capture_output=True, text=True, check=True,
        ).stdout
    assert "linalg.matmul" in lowered
    print("torch2mlir-opt: runs the pipelines")

    # ONNX: compile_onnx, and the import tool feeding torch2mlir-opt.
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    weight = rng.standard_normal((4, 8)).astype(np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("Gemm", ["x", "w"], ["y"], transB=1),
            helper.make_node("Relu", ["y"], ["z"]),
        ],
        "gemm_relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 8])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [3, 4])],
        [numpy_helper.from_array(weight, "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = rng.standard_normal((3, 8)).astype(np.float32)
    (z,) = torch2mlir.compile_onnx(model)(x)
    np.testing.assert_allclose(z, np.maximum(x @ weight.T, 0), rtol=1e-5, atol=1e-5)
    print("ONNX Gemm+Relu: matches numpy")
    importer = shutil.which("torch2mlir-import-onnx") or str(
        Path(sys.executable).parent / "torch2mlir-import-onnx"
    )
    with tempfile.TemporaryDirectory() as tmp:
        onnx.save(model, Path(tmp) / "model.onnx")
        subprocess.run(
            [importer, str(Path(tmp) / "model.onnx"), "-o", str(Path(tmp) / "model.mlir")],
            check=True,
        )
        lowered = subprocess.run(
            [opt, str(Path(tmp) / "model.mlir"), "--torch-onnx-to-torch-backend-pipeline"],
            capture_output=True, text=True, check=True,
        ).stdout
    assert "torch.aten.mm" in lowered and "onnx." not in lowered, lowered
    print("torch2mlir-import-onnx | torch2mlir-opt: ONNX to the backend contract")
    print("smoke test: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
