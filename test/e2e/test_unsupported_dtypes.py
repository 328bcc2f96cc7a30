"""Dtypes torch2mlir does not support are refused with an error, never a signal.

Complex and float8 dtypes are supported (they run and must equal eager; a
program eager has no kernel for, such as float8 addition, runs in float32 and
rounds once), and so are ONNX's int4/uint4/int2/uint2 tensors and strings
(on the host); the bit-packed dtypes, ONNX's FLOAT4E2M1, and quantized,
sparse and nested tensors are refused.

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

#: PyTorch dtypes: complex and float8 run; the sub-byte integers (which
#: eager cannot fill) compile; the bit-packed ones are refused.
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

#: ONNX element types (``onnx.TensorProto`` names): those the importer maps
#: and STRING (an Identity runs, strings on the host), and FLOAT4E2M1, which
#: is refused.
ONNX_DTYPES = [
    "COMPLEX64",
    "COMPLEX128",
    "FLOAT8E4M3FN",
    "FLOAT8E5M2",
    "FLOAT8E4M3FNUZ",
    "FLOAT8E5M2FNUZ",
    "FLOAT8E8M0",
    "INT4",
    "UINT4",
    "INT2",
    "UINT2",
    "FLOAT4E2M1",
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
        try:
            want = module(x)
        except Exception as error:
            report(case, "ran where eager has no kernel", str(error))
            return
        if want.dtype.itemsize == 1 and want.is_floating_point():
            # float8: compare bits (NaN against NaN whatever its payload).
            nan = got.float().isnan() & want.float().isnan()
            same = got.dtype == want.dtype and torch.equal(
                got.view(torch.uint8)[~nan], want.view(torch.uint8)[~nan])
        else:
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
            # Identity moves the values: complex, and the float8 and
            # sub-byte integer types (ml_dtypes arrays, as onnx makes them).
            import ml_dtypes
            if name.startswith("COMPLEX"):
                x = (np.arange(6) * (1 + 2j)).reshape(2, 3).astype(name.lower())
            elif name == "STRING":
                x = np.array([["a", "bc", ""], ["d", "é", "f"]], dtype=object)
            else:
                spelling = {"FLOAT8E8M0": "float8_e8m0fnu"}.get(name) or (
                    name.lower().replace("float8", "float8_"))
                x = np.arange(6).reshape(2, 3).astype(getattr(ml_dtypes, spelling))
            (y,) = compiled(x)
            bytewise = x.dtype != object and x.itemsize == 1
            same = y.dtype == x.dtype and np.array_equal(
                y.view(np.uint8) if bytewise else y,
                x.view(np.uint8) if bytewise else x)
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


#: The dtypes whose programs run (a result equal to eager's, or one eager has
#: no kernel for); the others are refused with an error naming them.
RUNNING_TORCH_DTYPES = set(TORCH_DTYPES) - {"bits8", "float4_e2m1fn_x2"}
RUNNING_ONNX_DTYPES = set(ONNX_DTYPES) - {"FLOAT4E2M1"}


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_torch_dtype_runs_or_is_refused_with_its_name(
    outcomes: dict[str, tuple[str, str]], dtype: str
) -> None:
    cases = {c: o for c, o in outcomes.items() if c.split()[0] == dtype}
    assert f"{dtype} round trip" in cases, sorted(outcomes)
    for case, (outcome, message) in cases.items():
        if dtype in RUNNING_TORCH_DTYPES:
            # Complex (TorchToLinalg/Complex.cpp) and float8
            # (refbackend-expand-small-floats): each program runs and equals
            # eager, where eager has a kernel.
            allowed = ["ran", "ran where eager has no kernel"]
            if dtype.startswith("complex"):
                allowed = ["ran"]
            assert outcome in allowed, (case, outcome, message)
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
def test_onnx_dtype_runs_or_is_refused_with_its_name(
    outcomes: dict[str, tuple[str, str]], dtype: str
) -> None:
    outcome, message = outcomes[f"onnx {dtype} Identity"]
    if dtype in RUNNING_ONNX_DTYPES:
        # The importer maps these (strings run on the host); an op that
        # only moves them runs.
        assert outcome == "ran", (outcome, message)
        return
    assert outcome in ("CompileError", "InputError"), (outcome, message)
    assert dtype.lower() in message.lower(), message
