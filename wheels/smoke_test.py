"""Smoke test of an installed torch2mlir wheel (run by build_tools/build_wheels.py
in a fresh virtual environment, from outside the repository).

Checks: the package imports from site-packages (not a build tree), reports
what it was built with, compiles and runs an MLP against eager PyTorch, and
the torch2mlir-opt console tool runs the torch pipelines.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

import torch2mlir
from torch2mlir.fx import export_and_import


def main() -> int:
    location = Path(torch2mlir.__file__).resolve()
    assert "site-packages" in location.parts, f"torch2mlir imported from {location}"
    info = torch2mlir.version_info()
    print("version_info:", info)
    assert info["llvm"] and info["torch"], info

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
    print("smoke test: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
