"""The zoo's models exported with torch.onnx.export, compiled through the
ONNX path (torch2mlir.compile_onnx), compared with eager PyTorch.

The TorchScript-based exporter (``dynamo=False``) is the one the test
environment can run (the torch.export-based one needs ``onnxscript``); it is
tried at opset 17 and at the newest opset it supports.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from harness import import_torch2mlir

MAX_OPSET = torch.onnx._constants.ONNX_TORCHSCRIPT_EXPORTER_MAX_OPSET


def _models() -> dict:
    from torch2mlir.models import mlp, resnet18, resnet50

    return {
        "mlp": (mlp, (8, 784)),
        "resnet18": (resnet18, (1, 3, 224, 224)),
        "resnet50": (resnet50, (2, 3, 224, 224)),
    }


@pytest.mark.parametrize("opset", [17, MAX_OPSET])
@pytest.mark.parametrize("name", ["mlp", "resnet18", "resnet50"])
def test_exported_model_matches_eager(name: str, opset: int, tmp_path) -> None:
    torch2mlir = import_torch2mlir()
    make, shape = _models()[name]
    model = make().eval()
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(0))
    path = tmp_path / f"{name}.onnx"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the exporter's deprecation notice
        torch.onnx.export(model, (x,), path, dynamo=False, opset_version=opset)
    compiled = torch2mlir.compile_onnx(path)
    with torch.no_grad():
        expected = model(x).numpy()
    (actual,) = compiled(x.numpy())
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    # max abs error <= 1e-4 x output magnitude (float32 through BLAS).
    scale = float(np.abs(expected).max())
    assert float(np.abs(actual - expected).max()) <= 1e-4 * scale
