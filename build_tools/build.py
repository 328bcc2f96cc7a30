#!/usr/bin/env python3
"""Configure and build compiler/ (component build, or monolithic).

Component build (default): CMake + Ninja against the prebuilt LLVM/MLIR that
the pinned `xtc-*` wheels install into the running Python's site-packages
(or any prefix given with --mlir-prefix). Produces build/bin/torch2mlir-opt
and the Python package in build/python_packages/torch2mlir.

Monolithic build (--monolithic): configures externals/llvm-project/llvm with
LLVM_ENABLE_PROJECTS=mlir and LLVM_EXTERNAL_PROJECTS=torch2mlir into
build-monolithic/, host target only.

Usage:
    python build_tools/build.py [--build-dir build] [--monolithic] [-j N]
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def find_mlir_prefix() -> Path:
    """The install prefix of the prebuilt MLIR (the `mlir` dir of xtc-mlir-dev)."""
    spec = importlib.util.find_spec("mlir")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            "build.py: no prebuilt MLIR found in this Python environment. Install the "
            "pinned packages (pip install -r build_tools/requirements/build.txt) or "
            "pass --mlir-prefix."
        )
    prefix = Path(next(iter(spec.submodule_search_locations)))
    if not (prefix / "lib/cmake/mlir/MLIRConfig.cmake").exists():
        raise SystemExit(f"build.py: {prefix} has no lib/cmake/mlir/MLIRConfig.cmake")
    return prefix


def run(cmd: list[str], **kwargs) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


def cmake_common() -> list[str]:
    args = [
        "-G",
        "Ninja",
        "-DCMAKE_BUILD_TYPE=Release",
        f"-DPython3_EXECUTABLE={sys.executable}",
        "-DLLVM_ENABLE_ASSERTIONS=OFF",
    ]
    if shutil.which("ccache"):
        args += [
            "-DCMAKE_C_COMPILER_LAUNCHER=ccache",
            "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
        ]
    if shutil.which("ld.lld") or shutil.which("lld"):
        args += ["-DLLVM_USE_LINKER=lld"]
    return args


def configure_component(build_dir: Path, mlir_prefix: Path) -> None:
    import nanobind

    llvm_prefix = mlir_prefix.parent / "llvm"
    run(
        [
            "cmake",
            "-S",
            str(REPO / "compiler"),
            "-B",
            str(build_dir),
            *cmake_common(),
            f"-DMLIR_DIR={mlir_prefix / 'lib/cmake/mlir'}",
            f"-DLLVM_DIR={llvm_prefix / 'lib/cmake/llvm'}",
            f"-Dnanobind_DIR={nanobind.cmake_dir()}",
            f"-DLLVM_EXTERNAL_LIT={shutil.which('lit') or 'lit'}",
        ]
    )


def configure_monolithic(build_dir: Path) -> None:
    llvm_src = REPO / "externals/llvm-project/llvm"
    if not (llvm_src / "CMakeLists.txt").exists():
        raise SystemExit(
            "build.py: the monolithic build needs the LLVM sources, but the submodule "
            "externals/llvm-project is not checked out. Run\n"
            "    git submodule update --init --depth 1 externals/llvm-project\n"
            "(it is pinned to the commit in build_tools/llvm_pin.toml), or use the "
            "component build (the default)."
        )
    import nanobind

    run(
        [
            "cmake",
            "-S",
            str(llvm_src),
            "-B",
            str(build_dir),
            *cmake_common(),
            "-DLLVM_ENABLE_PROJECTS=mlir",
            "-DLLVM_EXTERNAL_PROJECTS=torch2mlir",
            f"-DLLVM_EXTERNAL_TORCH2MLIR_SOURCE_DIR={REPO / 'compiler'}",
            "-DLLVM_TARGETS_TO_BUILD=host",
            "-DMLIR_ENABLE_BINDINGS_PYTHON=ON",
            "-DMLIR_ENABLE_EXECUTION_ENGINE=ON",
            "-DLLVM_INSTALL_UTILS=ON",
            f"-Dnanobind_DIR={nanobind.cmake_dir()}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # When ccache is the compiler launcher: hash paths relative to the
    # checkout, so worktrees and clones at other paths share cache entries.
    os.environ.setdefault("CCACHE_BASEDIR", str(REPO))
    # ccache caches a compilation that uses a precompiled header only when told
    # that the header's macros and timestamps may be ignored (ccache manual,
    # "Precompiled headers"); the build uses one (TORCH2MLIR_ENABLE_PCH).
    os.environ.setdefault(
        "CCACHE_SLOPPINESS",
        "pch_defines,time_macros,include_file_mtime,include_file_ctime",
    )
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=None,
        help="default: build/ (build-monolithic/ with --monolithic)",
    )
    parser.add_argument(
        "--monolithic",
        action="store_true",
        help="build LLVM/MLIR from externals/llvm-project with torch2mlir as an external project",
    )
    parser.add_argument(
        "--mlir-prefix",
        type=Path,
        default=None,
        help="prefix of a prebuilt MLIR (default: the xtc-mlir-dev wheel in this Python)",
    )
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument(
        "--target",
        action="append",
        default=None,
        help="build only these targets (default: all)",
    )
    args = parser.parse_args(argv)

    build_dir = (
        args.build_dir or REPO / ("build-monolithic" if args.monolithic else "build")
    ).resolve()
    start = time.monotonic()
    # Configure every time: it is quick once cached, and it re-globs the
    # Python sources (a new module under python_packages/ needs it).
    if args.monolithic:
        configure_monolithic(build_dir)
    else:
        configure_component(build_dir, args.mlir_prefix or find_mlir_prefix())
    targets = args.target or (
        ["torch2mlir-opt", "Torch2MlirPythonModules"] if args.monolithic else []
    )
    run(["ninja", "-C", str(build_dir), f"-j{args.jobs}", *targets])
    # Byte-compile the package, as installing a wheel does: a process that
    # may not write bytecode (PYTHONDONTWRITEBYTECODE) would otherwise
    # compile every module's source on import, 0.1-0.25 s of each
    # torch2mlir.compile's first call. Stale files are recompiled on import.
    packages = build_dir / "python_packages"
    if packages.is_dir():
        compileall.compile_dir(packages, quiet=1, workers=args.jobs)
    print(
        f"build.py: built {build_dir} in {time.monotonic() - start:.1f} s", flush=True
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
