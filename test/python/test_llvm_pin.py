"""Everything that names the LLVM version agrees with build_tools/llvm_pin.toml.

The pin file is the one statement of the pin; the requirement files,
pixi.toml and the externals/llvm-project gitlink repeat it, and
`nox -s bump-llvm` rewrites them together. Each test names the file that
disagrees.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PIN_FILE = REPO / "build_tools" / "llvm_pin.toml"
REQUIREMENTS = REPO / "build_tools" / "requirements"
SUBMODULE = "externals/llvm-project"


@pytest.fixture(scope="module")
def pin() -> dict:
    with PIN_FILE.open("rb") as f:
        return tomllib.load(f)


def requirement_pins(path: Path) -> dict[str, str]:
    """`name==version` lines of a requirements file, by normalized name."""
    pins = {}
    for line in path.read_text().splitlines():
        match = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#]+)", line)
        if match:
            pins[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = match.group(2)
    return pins


def git(*args: str) -> str:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    result = subprocess.run(
        ["git", *args], cwd=REPO, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        pytest.skip(
            f"`git {' '.join(args)}` failed (not a git checkout?): {result.stderr.strip()}"
        )
    return result.stdout.strip()


def test_pin_file_is_complete(pin: dict) -> None:
    llvm = pin.get("llvm", {})
    for key in ("version", "tag", "commit"):
        assert key in llvm, f"{PIN_FILE.relative_to(REPO)}: [llvm] has no `{key}`"
    assert re.fullmatch(r"[0-9a-f]{40}", llvm["commit"]), (
        f"{PIN_FILE.relative_to(REPO)}: [llvm] commit {llvm['commit']!r} is not a full 40-hex SHA"
    )
    assert llvm["tag"] == f"llvmorg-{llvm['version']}", (
        f"{PIN_FILE.relative_to(REPO)}: tag {llvm['tag']!r} does not match version {llvm['version']!r}"
    )
    assert pin.get("pypi"), f"{PIN_FILE.relative_to(REPO)}: no [pypi] packages"
    for package, version in pin["pypi"].items():
        assert version.startswith(llvm["version"] + "."), (
            f"{PIN_FILE.relative_to(REPO)}: [pypi] {package} = {version!r} is not a build of "
            f"LLVM {llvm['version']}"
        )


@pytest.mark.parametrize("name", ["build.txt", "build.in"])
def test_build_requirements_pin_the_prebuilt_llvm(pin: dict, name: str) -> None:
    path = REQUIREMENTS / name
    pins = requirement_pins(path)
    for package, version in pin["pypi"].items():
        found = pins.get(package)
        assert found == version, (
            f"{path.relative_to(REPO)} pins {package}=={found} but "
            f"{PIN_FILE.relative_to(REPO)} says {package} = {version!r} "
            "(`nox -s bump-llvm` moves them together)"
        )


def test_pixi_llvm_and_mlir_match_the_pin(pin: dict) -> None:
    path = REPO / "pixi.toml"
    with path.open("rb") as f:
        manifest = tomllib.load(f)
    version = pin["llvm"]["version"]
    dependencies = manifest.get("dependencies", {})
    for package in ("llvmdev", "mlir", "mlir-python-bindings"):
        if package == "mlir-python-bindings" and package not in dependencies:
            continue
        spec = dependencies.get(package)
        assert spec is not None, f"pixi.toml: [dependencies] has no {package}"
        if isinstance(spec, dict):
            spec = spec.get("version", "")
        assert spec.removeprefix("==") == version, (
            f"pixi.toml: [dependencies] {package} = {spec!r}, but "
            f"{PIN_FILE.relative_to(REPO)} pins LLVM {version}"
        )


def test_gitmodules_declares_llvm_project() -> None:
    gitmodules = REPO / ".gitmodules"
    assert gitmodules.exists(), (
        ".gitmodules is missing: it must declare externals/llvm-project"
    )
    section = f"submodule.{SUBMODULE}"
    path = git("config", "-f", ".gitmodules", "--get", f"{section}.path")
    assert path == SUBMODULE, f'.gitmodules: [submodule "{SUBMODULE}"] path is {path!r}'
    url = git("config", "-f", ".gitmodules", "--get", f"{section}.url")
    assert url.rstrip("/").removesuffix(".git").endswith("llvm/llvm-project"), (
        f'.gitmodules: [submodule "{SUBMODULE}"] url {url!r} is not llvm/llvm-project'
    )


def test_submodule_gitlink_is_the_pinned_commit(pin: dict) -> None:
    entry = git("ls-files", "--stage", "--", SUBMODULE)
    assert entry, (
        f"the git index has no entry for {SUBMODULE} (expected a gitlink, mode 160000)"
    )
    mode, sha, _stage_and_path = entry.split(" ", 2)
    assert mode == "160000", (
        f"{SUBMODULE} is in the git index with mode {mode}, not as a submodule (160000)"
    )
    assert sha == pin["llvm"]["commit"], (
        f"the gitlink {SUBMODULE} points at {sha}, but {PIN_FILE.relative_to(REPO)} pins "
        f"{pin['llvm']['commit']} ({pin['llvm']['tag']}): run `nox -s bump-llvm` or "
        f"`git update-index --cacheinfo 160000,{pin['llvm']['commit']},{SUBMODULE}`"
    )


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
