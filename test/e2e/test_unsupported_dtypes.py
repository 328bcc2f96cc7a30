"""Dtypes torch2mlir does not support are refused with an error, never a signal.

Complex dtypes are supported (they run and must equal eager); quantized,
sparse and nested tensors are refused like the unsupported dtypes.

The prebuilt LLVM keeps its assertions on: an unchecked ``cast<>`` of an
unexpected element type (complex, float8, sub-byte) would abort the whole
Python process. Every (dtype, program) below runs in one child process that
prints each outcome as it goes; the parent asserts that the child exited
normally and that each outcome is a :class:`torch2mlir.CompileError` /
:class:`torch2mlir.InputError` naming the dtype, or a run whose result equals
eager's. A signal names the last case the child reached.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

#: PyTorch dtypes outside the dialect's element types (float8, sub-byte and
#: bit-packed), and complex, which runs.
TORCH_DTYPES = [
    "complex64",
    "complex128",
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "int4",
    "uint4",
    "bits8",
    "float4_e2m1fn_x2",
]

#: ONNX element types (``onnx.TensorProto`` names) outside what the importer
#: maps to the torch dialect, and complex (which it maps, and an Identity
#: runs).
ONNX_DTYPES = [
    "COMPLEX64",
    "COMPLEX128",
    "FLOAT8E4M3FN",
    "FLOAT8E5M2",
    "FLOAT8E4M3FNUZ",
    "FLOAT8E5M2FNUZ",
    "INT4",
    "UINT4",
    "STRING",
]

_CHILD = textwrap.dedent(
    """
    import json, sys
    import torch
    import torch2mlir

    torch_dtypes, onnx_dtypes = json.loads(sys.argv[1])

    def report(case, outcome, message=""):
        print(json.dumps([case, outcome, message]), flush=True)

    class Add(torch.nn.Module):
        def forward(self, x):
            return x + x

    class Reshape(torch.nn.Module):
        def forward(self, x):
            return x.reshape(-1)

    class RoundTrip(torch.nn.Module):
        def __init__(self, dtype):
            super().__init__()
            self.dtype = dtype

        def forward(self, x):
            return x.to(self.dtype).to(torch.float32)

    def attempt(case, module, x):
        print(json.dumps([case, "started", ""]), flush=True)
        try:
            got = torch2mlir.compile(module, (x,), cache=False)(x)
        except (torch2mlir.CompileError, torch2mlir.InputError) as error:
            report(case, type(error).__name__, str(error))
            return
        except Exception as error:
            report(case, "untyped " + type(error).__name__, str(error))
            return
        want = module(x)
        same = got.dtype == want.dtype and torch.equal(got, want)
        report(case, "ran" if same else "wrong value", f"{got.dtype}")

    x = torch.randn(2, 3)
    layouts = {
        "quantized": lambda: torch.quantize_per_tensor(x, 0.1, 0, torch.qint8),
        "sparse_coo": lambda: x.to_sparse(),
        "sparse_csr": lambda: x.to_sparse_csr(),
        "nested": lambda: torch.nested.nested_tensor([torch.randn(2), torch.randn(3)]),
    }
    for name, make in layouts.items():
        attempt(f"{name} input add", Add(), make())

    for name in torch_dtypes:
        dtype = getattr(torch, name)
        attempt(f"{name} round trip", RoundTrip(dtype), torch.randn(2, 3))
        try:
            x = torch.randn(2, 3, dtype=dtype) if dtype.is_complex else (
                torch.randn(2, 3).to(dtype))
        except Exception:
            continue  # PyTorch itself has no such tensors (sub-byte, bits)
        attempt(f"{name} input add", Add(), x)
        attempt(f"{name} input reshape", Reshape(), x)

    import numpy as np
    from onnx import TensorProto, helper

    for name in onnx_dtypes:
        case = f"onnx {name} Identity"
        print(json.dumps([case, "started", ""]), flush=True)
        element = getattr(TensorProto, name)
        graph = helper.make_graph(
            [helper.make_node("Identity", ["x"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", element, [2, 3])],
            [helper.make_tensor_value_info("y", element, [2, 3])],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
        try:
            compiled = torch2mlir.compile_onnx(model)
        except (torch2mlir.CompileError, torch2mlir.InputError) as error:
            report(case, type(error).__name__, str(error))
        except Exception as error:
            report(case, "untyped " + type(error).__name__, str(error))
        else:
            # Only complex has a numpy dtype among these: Identity moves it.
            x = (np.arange(6) * (1 + 2j)).reshape(2, 3).astype(name.lower())
            (y,) = compiled(x)
            same = y.dtype == x.dtype and np.array_equal(y, x)
            report(case, "ran" if same else "wrong value", str(y.dtype))
    """
)


@pytest.fixture(scope="module")
def outcomes() -> dict[str, tuple[str, str]]:
    process = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps([TORCH_DTYPES, ONNX_DTYPES])],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = [json.loads(line) for line in process.stdout.splitlines() if line]
    last = lines[-1][0] if lines else "(none)"
    assert process.returncode == 0, (
        f"the child died with status {process.returncode} at case {last!r}"
        f" (a negative status is a signal): {process.stderr[-2000:]}"
    )
    return {case: (outcome, message) for case, outcome, message in lines}


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_torch_dtype_is_refused_with_its_name(
    outcomes: dict[str, tuple[str, str]], dtype: str
) -> None:
    cases = {c: o for c, o in outcomes.items() if c.split()[0] == dtype}
    assert f"{dtype} round trip" in cases, sorted(outcomes)
    for case, (outcome, message) in cases.items():
        if dtype.startswith("complex"):
            # Complex tensors lower (TorchToLinalg/Complex.cpp): each
            # program runs and equals eager.
            assert outcome == "ran", (case, outcome, message)
            continue
        assert outcome in ("CompileError", "InputError"), (case, outcome, message)
        assert dtype in message, (case, message)


@pytest.mark.parametrize("layout", ["quantized", "sparse_coo", "sparse_csr", "nested"])
def test_tensor_layout_is_refused(
    outcomes: dict[str, tuple[str, str]], layout: str
) -> None:
    outcome, message = outcomes[f"{layout} input add"]
    assert outcome in ("CompileError", "InputError"), (outcome, message)


@pytest.mark.parametrize("dtype", ONNX_DTYPES)
def test_onnx_dtype_is_refused_with_its_name(
    outcomes: dict[str, tuple[str, str]], dtype: str
) -> None:
    outcome, message = outcomes[f"onnx {dtype} Identity"]
    if dtype.startswith("COMPLEX"):
        # The importer maps complex tensors; an op that only moves them runs.
        assert outcome == "ran", (outcome, message)
        return
    assert outcome in ("CompileError", "InputError"), (outcome, message)
    assert dtype.lower() in message.lower(), message
