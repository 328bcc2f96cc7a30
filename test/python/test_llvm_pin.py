"""Everything that names the LLVM version agrees with build_tools/llvm_pin.toml.

The pin file is the one statement of the pin; the requirement files,
pixi.toml and the externals/llvm-project gitlink repeat it, and
`nox -s bump-llvm` rewrites them together. The checks live in
build_tools/pin_sites.py, which build_tools/bump_llvm.py uses too; each
message names the file that disagrees.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "build_tools"))
import pin_sites  # build_tools/ is not a package


@pytest.fixture(scope="module")
def pin() -> dict:
    return pin_sites.read_pin(REPO)


def git_checked(check, *args):
    """Run a check that reads git; skip where git or the checkout is missing."""
    try:
        return check(REPO, *args)
    except pin_sites.GitUnavailable as e:
        pytest.skip(f"{e} (not a git checkout?)")


def test_pin_file_is_complete(pin: dict) -> None:
    problems = pin_sites.pin_file_problems(pin)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("relpath", pin_sites.BUILD_REQUIREMENTS)
def test_build_requirements_pin_the_prebuilt_llvm(pin: dict, relpath: str) -> None:
    problems = pin_sites.requirement_problems(REPO, pin, relpath)
    assert not problems, "\n".join(problems)


def test_pixi_llvm_and_mlir_match_the_pin(pin: dict) -> None:
    problems = pin_sites.pixi_problems(REPO, pin)
    assert not problems, "\n".join(problems)


def test_gitmodules_declares_llvm_project() -> None:
    problems = git_checked(pin_sites.gitmodules_problems)
    assert not problems, "\n".join(problems)


def test_submodule_gitlink_is_the_pinned_commit(pin: dict) -> None:
    problems = git_checked(pin_sites.gitlink_problems, pin)
    assert not problems, "\n".join(problems)


def test_generated_torch_ods_is_up_to_date() -> None:
    if importlib.util.find_spec("torch") is None:
        pytest.skip(
            "torch is not importable here; the ODS is generated from the pinned torch"
        )
    result = subprocess.run(
        [sys.executable, str(REPO / "build_tools" / "torch_ods_gen.py"), "--check"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, (
        "compiler/include/torch2mlir/Dialect/Torch/IR/GeneratedTorchOps.td is not what "
        "build_tools/torch_ods_gen.py generates from this torch; run `nox -s update-ods`.\n"
        + result.stdout[-4000:]
        + result.stderr[-2000:]
    )
