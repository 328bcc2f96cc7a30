"""The real model graphs shipped with onnx (``onnx/backend/test/data/light``).

Each ``light_<name>.onnx`` is compiled with torch2mlir.compile_onnx, run on
the input that ONNX's backend test runner generates for it (its
``generate_dummy_data(seed=0, random=False)``) and compared with the stored
``light_<name>_output_0.pb`` at the tolerances of ONNX's own model tests.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from harness import import_torch2mlir
from onnx import numpy_helper
from onnx.backend.test.runner import Runner

LIGHT_DIR = Path(onnx.__file__).parent / "backend/test/data/light"

#: name -> (rtol, atol), as in onnx.backend.test.case.model.
MODELS = {
    "bvlc_alexnet": (1e-3, 1e-7),
    "densenet121": (2e-3, 1e-7),
    "inception_v1": (1e-3, 1e-7),
    "inception_v2": (1e-3, 1e-7),
    "resnet50": (1e-3, 1e-7),
    "shufflenet": (1e-3, 1e-7),
    "squeezenet": (1e-3, 1e-7),
    "vgg19": (1e-3, 1e-7),
    "zfnet512": (1e-3, 1e-7),
}


def light_inputs(name: str) -> list[np.ndarray]:
    """The inputs ONNX's backend test runner feeds the light model `name`."""
    model = onnx.load(LIGHT_DIR / f"light_{name}.onnx", load_external_data=False)
    initializers = {t.name for t in model.graph.initializer}
    return [
        Runner.generate_dummy_data(value, seed=0, name=name, random=False)
        for value in model.graph.input
        if value.name not in initializers
    ]


@pytest.mark.parametrize("name", sorted(MODELS))
def test_light_model(name: str) -> None:
    torch2mlir = import_torch2mlir()
    rtol, atol = MODELS[name]
    compiled = torch2mlir.compile_onnx(LIGHT_DIR / f"light_{name}.onnx")
    (actual,) = compiled(*light_inputs(name))
    expected = numpy_helper.to_array(
        onnx.load_tensor(str(LIGHT_DIR / f"light_{name}_output_0.pb"))
    )
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)
