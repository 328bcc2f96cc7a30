"""What the end-to-end tests share: configs, expected failures, comparison."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import torch
from cases import Case
from torch import nn

#: The configs the suite runs: name -> `torch2mlir.compile` options. Each
#: has its expected failures in `xfail/<name>.toml`.
CONFIG_OPTIONS: dict[str, dict[str, str]] = {
    "core-aten": {"decompositions": "core-aten"},
    "none": {"decompositions": "none"},
    "tosa": {"decompositions": "core-aten", "backend": "tosa"},
}
CONFIGS = tuple(CONFIG_OPTIONS)
#: The configs that differ only in `decompositions=` (linalg-on-tensors).
DECOMPOSITION_CONFIGS = ("core-aten", "none")

XFAIL_DIR = Path(__file__).resolve().parent / "xfail"

#: Default (rtol, atol) of floating-point outputs; integer outputs must be equal.
DEFAULT_TOLERANCE: dict[torch.dtype, tuple[float, float]] = {
    torch.float32: (1e-5, 1e-5),
    torch.float64: (1e-9, 1e-9),
}


class Call(nn.Module):
    """A module calling `fn` on its inputs (constants baked into `fn`), to
    compile a function or a lambda."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *inputs: Any) -> Any:
        return self.fn(*inputs)


def import_torch2mlir() -> ModuleType:
    """Import the built package, or fail with what to do about it."""
    try:
        return importlib.import_module("torch2mlir")
    except ImportError as error:
        raise ImportError(
            f"the e2e tests need the torch2mlir package, which cannot be imported ({error}). "
            "build first: nox -s build (it puts the package in build/python_packages; "
            "run pytest with PYTHONPATH=build/python_packages)"
        ) from error


def cpu_info() -> str:
    """/proc/cpuinfo (vendor, flags), or "" where it cannot be read."""
    try:
        return Path("/proc/cpuinfo").read_text()
    except OSError:
        return ""


def run_child(
    env: dict[str, str], *args: str, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """Runs ``python *args`` in test/e2e with the environment variables
    `env` added and this process's import path (made absolute), its
    output captured as text; `timeout` in seconds. For settings read once
    per process (the BLAS, the CPU capability)."""
    here = Path(__file__).resolve().parent
    path = os.pathsep.join(str(Path(p).resolve()) for p in sys.path if p)
    return subprocess.run(
        [sys.executable, *args],
        check=False,
        cwd=here,
        env=dict(os.environ, **env, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def xfail_path(config: str) -> Path:
    return XFAIL_DIR / f"{config}.toml"


def load_xfails(config: str) -> dict[str, str]:
    """The expected failures of `config`: case name -> reason.

    Raises ValueError when the file is not a flat table of non-empty strings.
    """
    path = xfail_path(config)
    with path.open("rb") as file:
        table = tomllib.load(file)
    for name, reason in table.items():
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError(
                f"{path}: the reason of {name!r} must be a non-empty string, got {reason!r}"
            )
    return table


def tolerance(case: Case, dtype: torch.dtype) -> tuple[float, float]:
    """(rtol, atol) for an output of `dtype` in `case`: exact unless floating point."""
    if not dtype.is_floating_point:
        return 0.0, 0.0
    if case.rtol is not None and case.atol is not None:
        return case.rtol, case.atol
    return DEFAULT_TOLERANCE.get(dtype, (1e-5, 1e-5))


def flatten_outputs(value: object, what: str) -> list[torch.Tensor]:
    """The tensors of a tensor-or-tuple output, with `what` in any error."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, tuple) and all(isinstance(v, torch.Tensor) for v in value):
        return list(value)
    raise AssertionError(
        f"{what} is a {type(value).__name__}, expected a tensor or a tuple of tensors"
    )


def assert_outputs_match(case: Case, expected: object, actual: object) -> None:
    """Compare the compiled outputs with eager ones: structure, shape, dtype, values."""
    expected_list = flatten_outputs(expected, "the eager output")
    actual_list = flatten_outputs(actual, "the compiled output")
    assert isinstance(actual, tuple) == isinstance(expected, tuple), (
        f"eager returned {type(expected).__name__}, compiled returned {type(actual).__name__}"
    )
    assert len(actual_list) == len(expected_list), (
        f"eager returned {len(expected_list)} tensors, compiled returned {len(actual_list)}"
    )
    for index, (want, got) in enumerate(zip(expected_list, actual_list)):
        where = f"output {index}"
        assert got.dtype == want.dtype, (
            f"{where}: dtype {got.dtype}, expected {want.dtype}"
        )
        assert got.shape == want.shape, (
            f"{where}: shape {list(got.shape)}, expected {list(want.shape)}"
        )
        rtol, atol = tolerance(case, want.dtype)
        # NaN must be where eager has NaN (maximum, clamp... propagate it).
        torch.testing.assert_close(
            got,
            want,
            rtol=rtol,
            atol=atol,
            equal_nan=True,
            msg=lambda m, w=where: f"{w}: {m}",
        )
