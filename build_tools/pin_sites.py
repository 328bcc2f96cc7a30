"""Where the LLVM pin is stated, and whether those statements agree.

build_tools/llvm_pin.toml is the one statement of the pin. These repeat it:

    build_tools/requirements/build.in   xtc-*==<[pypi] versions>
    build_tools/requirements/build.txt  the same, locked
    pixi.toml                           [dependencies] llvmdev, mlir,
                                        mlir-python-bindings == <version>
    externals/llvm-project              the gitlink, == [llvm] commit

test/python/test_llvm_pin.py checks them with the functions below, and
build_tools/bump_llvm.py refuses to start from a repository where they
disagree. Each check returns a list of messages, empty when the site agrees;
a message names the file that disagrees and the file it disagrees with.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

PIN_FILE = "build_tools/llvm_pin.toml"
BUILD_REQUIREMENTS = (
    "build_tools/requirements/build.in",
    "build_tools/requirements/build.txt",
)
PIXI_FILE = "pixi.toml"
# conda-forge's prebuilt LLVM/MLIR; the last one may be absent from pixi.toml.
PIXI_LLVM_PACKAGES = ("llvmdev", "mlir", "mlir-python-bindings")
PIXI_OPTIONAL_PACKAGES = frozenset({"mlir-python-bindings"})
SUBMODULE = "externals/llvm-project"
BUMP_HINT = "`nox -s bump-llvm` moves them together"

# `name==version` at the start of a requirements line.
REQUIREMENT_LINE = re.compile(
    r"^(?P<indent>\s*)(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)(?P<op>\s*==\s*)(?P<version>[^\s;#]+)"
)


class GitUnavailable(Exception):
    """git is missing, or the directory is not the top of a git work tree."""


class GitFailed(GitUnavailable):
    """A git command failed."""


def normalize(name: str) -> str:
    """A package name as PyPI compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_toml(repo: Path, relpath: str) -> dict:
    with (repo / relpath).open("rb") as f:
        return tomllib.load(f)


def read_pin(repo: Path) -> dict:
    return read_toml(repo, PIN_FILE)


def requirement_pins(path: Path) -> dict[str, str]:
    """`name==version` lines of a requirements file, by normalized name."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = REQUIREMENT_LINE.match(line)
        if match:
            pins[normalize(match["name"])] = match["version"]
    return pins


def pixi_llvm_specs(repo: Path) -> dict[str, str]:
    """The version specs of the LLVM packages in pixi.toml's [dependencies]
    (`"==22.1.8"`, or the `version` of a table), by package; absent ones left out."""
    dependencies = read_toml(repo, PIXI_FILE).get("dependencies", {})
    specs = {}
    for package in PIXI_LLVM_PACKAGES:
        spec = dependencies.get(package)
        if spec is None:
            continue
        if isinstance(spec, dict):
            spec = spec.get("version", "")
        specs[package] = str(spec)
    return specs


def spec_version(spec: str) -> str:
    """The version that a pixi spec pins: `==22.1.8` and `22.1.8` both pin 22.1.8."""
    return spec.removeprefix("==")


def git(repo: Path, *args: str) -> str:
    """Run git in `repo`, which must be the top of its own work tree."""
    if shutil.which("git") is None:
        raise GitUnavailable("git is not installed")

    def run(*cmd: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *cmd], cwd=repo, capture_output=True, text=True, check=False
        )

    top = run("rev-parse", "--show-toplevel")
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != repo.resolve():
        raise GitUnavailable(f"{repo} is not the top of a git checkout")
    result = run(*args)
    if result.returncode != 0:
        raise GitFailed(f"`git {' '.join(args)}` failed: {result.stderr.strip()}")
    return result.stdout.strip()


def read_gitlink(repo: Path) -> tuple[str, str] | None:
    """(mode, sha) of externals/llvm-project in the git index, or None if it has no entry."""
    entry = git(repo, "ls-files", "--stage", "--", SUBMODULE)
    if not entry:
        return None
    mode, sha, _stage_and_path = entry.split(" ", 2)
    return mode, sha


def pin_file_problems(pin: dict) -> list[str]:
    llvm = pin.get("llvm", {})
    missing = [key for key in ("version", "tag", "commit") if key not in llvm]
    if missing:
        return [f"{PIN_FILE}: [llvm] has no `{key}`" for key in missing]
    problems = []
    if not re.fullmatch(r"[0-9a-f]{40}", llvm["commit"]):
        problems.append(
            f"{PIN_FILE}: [llvm] commit {llvm['commit']!r} is not a full 40-hex SHA"
        )
    if llvm["tag"] != f"llvmorg-{llvm['version']}":
        problems.append(
            f"{PIN_FILE}: tag {llvm['tag']!r} does not match version {llvm['version']!r}"
        )
    if not pin.get("pypi"):
        problems.append(f"{PIN_FILE}: no [pypi] packages")
    for package, version in pin.get("pypi", {}).items():
        if not version.startswith(llvm["version"] + "."):
            problems.append(
                f"{PIN_FILE}: [pypi] {package} = {version!r} is not a build of "
                f"LLVM {llvm['version']}"
            )
    return problems


def requirement_problems(repo: Path, pin: dict, relpath: str) -> list[str]:
    pins = requirement_pins(repo / relpath)
    return [
        f"{relpath} pins {package}=={pins.get(normalize(package))} but {PIN_FILE} "
        f"says {package} = {version!r} ({BUMP_HINT})"
        for package, version in pin["pypi"].items()
        if pins.get(normalize(package)) != version
    ]


def pixi_problems(repo: Path, pin: dict) -> list[str]:
    version = pin["llvm"]["version"]
    specs = pixi_llvm_specs(repo)
    problems = []
    for package in PIXI_LLVM_PACKAGES:
        spec = specs.get(package)
        if spec is None:
            if package not in PIXI_OPTIONAL_PACKAGES:
                problems.append(f"{PIXI_FILE}: [dependencies] has no {package}")
        elif spec_version(spec) != version:
            problems.append(
                f"{PIXI_FILE}: [dependencies] {package} = {spec!r}, but {PIN_FILE} "
                f"pins LLVM {version} ({BUMP_HINT})"
            )
    return problems


def gitmodules_problems(repo: Path) -> list[str]:
    """.gitmodules declares externals/llvm-project (raises GitUnavailable)."""
    if not (repo / ".gitmodules").exists():
        return [f".gitmodules is missing: it must declare {SUBMODULE}"]
    section = f"submodule.{SUBMODULE}"
    problems = []
    try:
        path = git(repo, "config", "-f", ".gitmodules", "--get", f"{section}.path")
        url = git(repo, "config", "-f", ".gitmodules", "--get", f"{section}.url")
    except GitFailed:
        return [f'.gitmodules: no [submodule "{SUBMODULE}"] with a path and a url']
    if path != SUBMODULE:
        problems.append(f'.gitmodules: [submodule "{SUBMODULE}"] path is {path!r}')
    if not url.rstrip("/").removesuffix(".git").endswith("llvm/llvm-project"):
        problems.append(
            f'.gitmodules: [submodule "{SUBMODULE}"] url {url!r} is not llvm/llvm-project'
        )
    return problems


def gitlink_problems(repo: Path, pin: dict) -> list[str]:
    """The gitlink is the pinned commit (raises GitUnavailable)."""
    gitlink = read_gitlink(repo)
    llvm = pin["llvm"]
    if gitlink is None:
        return [
            f"the git index has no entry for {SUBMODULE} (expected a gitlink, mode 160000)"
        ]
    mode, sha = gitlink
    if mode != "160000":
        return [
            f"{SUBMODULE} is in the git index with mode {mode}, not as a submodule (160000)"
        ]
    if sha != llvm["commit"]:
        return [
            (
                f"the gitlink {SUBMODULE} points at {sha}, but {PIN_FILE} pins "
                f"{llvm['commit']} ({llvm['tag']}): run `nox -s bump-llvm` or "
                f"`git update-index --cacheinfo 160000,{llvm['commit']},{SUBMODULE}`"
            )
        ]
    return []


def all_problems(repo: Path) -> dict[str, list[str]]:
    """Every disagreement, by the site that disagrees with the pin file
    (raises GitUnavailable if the gitlink cannot be read)."""
    pin = read_pin(repo)
    problems = {PIN_FILE: pin_file_problems(pin)}
    if not problems[PIN_FILE]:
        for relpath in BUILD_REQUIREMENTS:
            problems[relpath] = requirement_problems(repo, pin, relpath)
        problems[PIXI_FILE] = pixi_problems(repo, pin)
        problems[f"{SUBMODULE} (gitlink)"] = gitlink_problems(repo, pin)
    return {site: found for site, found in problems.items() if found}
