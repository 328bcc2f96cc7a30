"""The wheel's extras (wheels/torch2mlir/pyproject.toml) admit the versions
the tests run with (build_tools/requirements/test.txt): a user installing
``torch2mlir[torch,onnx,quantization]`` gets a tested torch, onnx and
torchao."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "build_tools"))
import pin_sites  # build_tools/ is not a package

PYPROJECT = REPO / "wheels" / "torch2mlir" / "pyproject.toml"


def extras() -> dict[str, list[str]]:
    with PYPROJECT.open("rb") as file:
        return tomllib.load(file)["project"]["optional-dependencies"]


@pytest.mark.parametrize(
    ("extra", "package"),
    [
        ("torch", "torch"),
        ("onnx", "onnx"),
        ("quantization", "torchao"),
        ("mkl", "mkl"),
    ],
)
def test_extra_admits_the_locked_version(extra: str, package: str) -> None:
    (text,) = extras()[extra]
    requirement = Requirement(text)
    assert pin_sites.normalize(requirement.name) == package
    locked = pin_sites.requirement_pins(REPO / "build_tools/requirements/test.txt")[
        package
    ]
    version = locked.split("+")[0]  # 2.13.0+cpu: the local label is the build
    assert requirement.specifier.contains(version), (
        f"{extra} = {text!r} excludes the locked {package}=={locked}"
    )
