"""The project's jobs for anyone with only Python: `pip install nox`, then

    nox -s tests                  # build, then lit + pytest (what CI runs)
    nox -s demo                   # build, then run the demo
    nox -s bench                  # build, then torch2mlir vs eager timings
    nox -s e2e-onnx               # build, then the ONNX conformance suites
    nox -s opinfo                 # build, then PyTorch's OpInfo samples (reports/)
    nox -s build -- --monolithic  # any build_tools/build.py arguments

Sessions stay short: they install the locked requirements
(build_tools/requirements/*.txt) and call build_tools/, lit or pytest.

Every session that builds or runs the package shares ONE environment,
.nox/torch2mlir, so that the build directory (whose CMake cache names that
environment's Python and prebuilt MLIR) and the installed torch serve all of
them: `nox -s tests` then `nox -s demo` installs and configures once. A lock
is installed into it once and again only when the lock file changes (then
the environment is made anew). Delete .nox/torch2mlir to start clean.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["tests"]

REPO = Path(__file__).resolve().parent
REQUIREMENTS = REPO / "build_tools" / "requirements"
BUILD_DIR = REPO / "build"
SHARED_ENV = REPO / ".nox" / "torch2mlir"
SHARED_BIN = SHARED_ENV / ("Scripts" if os.name == "nt" else "bin")
SHARED_PYTHON = SHARED_BIN / ("python.exe" if os.name == "nt" else "python")
LINT_PATHS = ["noxfile.py", "build_tools", "python_packages", "test"]


def _base_python() -> str:
    """The Python the locks were made for (3.11), else the one running nox."""
    return shutil.which("python3.11") or sys.executable


def _shared_env(session: nox.Session, *locks: str) -> dict[str, str]:
    """Make sure the shared environment has `locks` installed; return the
    environment variables that put it (and the built package) first."""
    stamp_file = SHARED_ENV / "installed-locks.json"
    installed: dict[str, str] = (
        json.loads(stamp_file.read_text()) if stamp_file.exists() else {}
    )
    digests = {
        name: hashlib.sha256((REQUIREMENTS / f"{name}.txt").read_bytes()).hexdigest()
        for name in {*installed, *locks}
    }
    stale = any(installed[name] != digests[name] for name in installed)
    if stale or not SHARED_PYTHON.exists():
        session.log(f"creating {SHARED_ENV}")
        session.run(
            _base_python(), "-m", "venv", "--clear", str(SHARED_ENV), external=True
        )
        installed = {}
    missing = [name for name in digests if name not in installed]
    # build.txt first: test.txt is constrained by it.
    for name in sorted(missing, key=lambda n: (n != "build", n)):
        session.run(
            str(SHARED_PYTHON),
            "-m",
            "pip",
            "install",
            "-r",
            str(REQUIREMENTS / f"{name}.txt"),
            external=True,
        )
        installed[name] = digests[name]
        stamp_file.write_text(json.dumps(installed, indent=1, sort_keys=True))
    if not missing:
        session.log(
            f"{SHARED_ENV} is up to date with "
            + ", ".join(f"{n}.txt" for n in sorted(digests))
        )
    return {
        "PATH": os.pathsep.join([str(SHARED_BIN), os.environ.get("PATH", "")]),
        "VIRTUAL_ENV": str(SHARED_ENV),
        "PYTHONPATH": str(BUILD_DIR / "python_packages"),
    }


def _python(session: nox.Session, env: dict[str, str], *args: str) -> None:
    session.run(str(SHARED_PYTHON), *args, env=env, external=True)


def _build(session: nox.Session, env: dict[str, str], *args: str) -> None:
    _python(session, env, "build_tools/build.py", *args)


def _lit(session: nox.Session, env: dict[str, str], *args: str) -> None:
    session.run(
        str(SHARED_BIN / "lit"), "-v", *args, "test/lit", env=env, external=True
    )


@nox.session(venv_backend="none")
def build(session: nox.Session) -> None:
    """Configure and build compiler/ into build/ (posargs go to build_tools/build.py)."""
    env = _shared_env(session, "build")
    _build(session, env, *session.posargs)


@nox.session(venv_backend="none")
def lit(session: nox.Session) -> None:
    """Build, then run the FileCheck tests (posargs go to lit)."""
    env = _shared_env(session, "build", "test")
    _build(session, env)
    _lit(session, env, *session.posargs)


@nox.session(venv_backend="none")
def e2e(session: nox.Session) -> None:
    """Build, then run the end-to-end suites (posargs go to pytest)."""
    env = _shared_env(session, "build", "test")
    _build(session, env)
    _python(session, env, "-m", "pytest", "test/e2e", *session.posargs)


@nox.session(name="e2e-onnx", venv_backend="none")
def e2e_onnx(session: nox.Session) -> None:
    """Build, then the ONNX suites: node conformance (pass counts by op; JSON
    and Markdown in reports/) and the light_* model graphs (posargs go to the
    conformance runner, e.g. `-- -k test_conv --verbose`)."""
    env = _shared_env(session, "build", "test")
    _build(session, env)
    _python(
        session,
        env,
        "test/e2e/onnx_conformance.py",
        "--json",
        "reports/onnx_conformance.json",
        "--markdown",
        "reports/onnx_conformance.md",
        *session.posargs,
    )
    _python(session, env, "-m", "pytest", "test/e2e/test_onnx_light.py")


@nox.session(venv_backend="none")
def opinfo(session: nox.Session) -> None:
    """Build, then PyTorch's OpInfo samples through torch2mlir.compile: the
    coverage table (op x dtype) in reports/opinfo.{json,md} and a summary line
    (posargs go to the harness, e.g. `-- -k softmax --samples 0`)."""
    env = _shared_env(session, "build", "test")
    _build(session, env)
    _python(
        session,
        env,
        "test/e2e/opinfo.py",
        "--json",
        "reports/opinfo.json",
        "--markdown",
        "reports/opinfo.md",
        *session.posargs,
    )


@nox.session(venv_backend="none")
def fuzz(session: nox.Session) -> None:
    """Build, then the three fuzzers of test/fuzz/run.py: ONNX model
    mutations against ONNX's reference, torch2mlir-opt on mutated lit
    inputs, perturbed OpInfo samples against eager (posargs go to run.py;
    default 3,400 cases each, about 10,000 in all; records in
    reports/fuzz.json); fails on a crash, an untyped exception or a wrong
    value, each printed with the command that reruns it."""
    env = _shared_env(session, "build", "test")
    _build(session, env)
    _python(
        session,
        env,
        "test/fuzz/run.py",
        *(session.posargs or ["--cases", "3400"]),
        "--json",
        "reports/fuzz.json",
    )


@nox.session(venv_backend="none")
def tests(session: nox.Session) -> None:
    """Everything a fresh clone needs checked: build, lit, pytest (test/python,
    test/e2e) on every core (pytest-xdist; `-- -n 0` runs it in one process)."""
    env = _shared_env(session, "build", "test")
    _build(session, env)
    _lit(session, env)
    _python(
        session,
        env,
        "-m",
        "pytest",
        "-n",
        "auto",
        # The slowest tests, for keeping CI's time in check.
        "--durations=25",
        "test/python",
        "test/e2e",
        *session.posargs,
    )


@nox.session(name="tests-monolithic", venv_backend="none")
def tests_monolithic(session: nox.Session) -> None:
    """The monolithic build (LLVM, MLIR and torch2mlir from externals/llvm-project
    into build-monolithic/; `git submodule update --init externals/llvm-project`
    first), then lit and pytest against it (posargs go to pytest)."""
    build_dir = REPO / "build-monolithic"
    env = {
        **_shared_env(session, "build", "test"),
        "PYTHONPATH": str(build_dir / "python_packages"),
        "TORCH2MLIR_BUILD_DIR": str(build_dir),
    }
    _build(session, env, "--monolithic", "--build-dir", str(build_dir))
    _lit(session, env)
    _python(session, env, "-m", "pytest", "test/python", "test/e2e", *session.posargs)


@nox.session(venv_backend="none")
def demo(session: nox.Session) -> None:
    """Build, then run `python -m torch2mlir.tools.demo` (posargs go to it)."""
    env = _shared_env(session, "build", "test")
    _build(session, env)
    _python(session, env, "-m", "torch2mlir.tools.demo", *session.posargs)


@nox.session(venv_backend="none")
def wheels(session: nox.Session) -> None:
    """Build the torch2mlir wheel into wheels/dist/, repair it, smoke-test it in a fresh venv."""
    env = _shared_env(session, "build", "test", "wheels")
    _python(session, env, "build_tools/build_wheels.py", *session.posargs)


@nox.session(venv_backend="none")
def bench(session: nox.Session) -> None:
    """Build, then run `python -m torch2mlir.tools.bench` (posargs go to it; JSON in reports/)."""
    env = _shared_env(session, "build", "test")
    _build(session, env)
    _python(session, env, "-m", "torch2mlir.tools.bench", *session.posargs)


@nox.session(name="update-ods", venv_backend="none")
def update_ods(session: nox.Session) -> None:
    """Regenerate GeneratedTorchOps.td from the pinned torch (`-- --check` only checks)."""
    env = _shared_env(session, "build", "test")
    _python(session, env, "build_tools/torch_ods_gen.py", *session.posargs)


@nox.session(name="bump-llvm", venv_backend="none")
def bump_llvm(session: nox.Session) -> None:
    """Move the LLVM pin, then build and test it: `-- --to 22.1.9 --commit SHA` (see README)."""
    verifies = not {"--dry-run", "--no-verify", "--print-newest"} & set(session.posargs)
    # The tool installs the new build lock itself; lit and pytest come from test.txt.
    env = _shared_env(session, "build", *(["test"] if verifies else []))
    _python(session, env, "build_tools/bump_llvm.py", *session.posargs)


@nox.session(reuse_venv=True)
def lint(session: nox.Session) -> None:
    """ruff check the Python sources (posargs go to ruff); without posargs
    also check their formatting (`ruff format --check`; fix with `ruff
    format`), clang-format check the C++ sources (`.clang-format`; fix with
    `clang-format -i $(git ls-files 'compiler/*.cpp' 'compiler/*.h')`),
    check the package's layers (import-linter, `.importlinter`) and type
    check python_packages/torch2mlir (mypy, `mypy.ini`).

    mypy comes from lint.txt but reads torch's, numpy's and onnx's types
    from the shared environment (.nox/torch2mlir, `--python-executable`),
    installing test.txt into it first when it lacks it: after `nox -s
    tests` (as in CI) that costs nothing; on a fresh clone the first lint
    installs what the tests would. No build is needed (mypy.ini)."""
    session.install("-r", str(REQUIREMENTS / "lint.txt"))
    session.run("ruff", "check", *(session.posargs or LINT_PATHS))
    if not session.posargs:
        session.run("ruff", "format", "--check", *LINT_PATHS)
        session.run(
            "clang-format", "--dry-run", "--Werror", *_cxx_sources(), silent=True
        )
        _check_layers(session)
        _shared_env(session, "test")
        session.run("mypy", "--python-executable", str(SHARED_PYTHON))


def _check_layers(session: nox.Session) -> None:
    """The package's layer contract (`.importlinter`), on a copy of the
    sources: `runtime/` is a namespace package there (the build adds MLIR's
    `runtime/__init__.py`), which import-linter does not scan."""
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        package = Path(scratch) / "torch2mlir"
        shutil.copytree(REPO / "python_packages" / "torch2mlir", package)
        (package / "runtime" / "__init__.py").touch()
        session.run("lint-imports", env={"PYTHONPATH": scratch})


def _cxx_sources() -> list[str]:
    """The C++ sources and headers of compiler/ (generated files live in
    build/, not here)."""
    return sorted(
        str(path.relative_to(REPO))
        for pattern in ("*.cpp", "*.h")
        for path in (REPO / "compiler").rglob(pattern)
    )


@nox.session(python="3.11", reuse_venv=True)
def lock(session: nox.Session) -> None:
    """Re-resolve build_tools/requirements/*.txt from their *.in files (posargs go to pip-compile).

    E.g. `nox -s lock -- --upgrade-package numpy`. torch must resolve to its CPU
    build: pip on our machines finds the local 2.13.0+cpu wheel; elsewhere set
    PIP_EXTRA_INDEX_URL to the PyTorch CPU index first.
    """
    session.install("pip-tools==7.6.2")
    session.chdir(REQUIREMENTS)
    # build first: test.in is constrained by build.txt.
    for name in ("build", "test", "wheels", "lint", "nox"):
        session.run(
            "pip-compile",
            "--quiet",
            "--allow-unsafe",
            "--strip-extras",
            "--no-emit-index-url",
            "--no-emit-find-links",
            "--output-file",
            f"{name}.txt",
            *session.posargs,
            f"{name}.in",
            env={"CUSTOM_COMPILE_COMMAND": "nox -s lock"},
        )
