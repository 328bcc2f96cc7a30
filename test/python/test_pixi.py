"""pixi.toml, the conda-forge route, checked without pixi or conda-forge.

pixi.lock cannot be solved on the development machines (no conda channel is
reachable): the `lock` workflow solves it where conda-forge is. What can be
checked here is checked here:

- pixi.toml parses, and every key in it is one that pixi documents (an
  allow-list taken from pixi's manifest reference, below), so a typo such as
  `chanels` or `comand` fails here instead of in the first CI run;
- the platforms and the channel are the ones the project supports;
- its Python, torch, onnx, nanobind and pinned Python tools agree with the pip
  locks build_tools/requirements/*.txt (the LLVM packages are
  test_llvm_pin.py's);
- the tasks: the ones the project promises exist, run the same build_tools/
  scripts as the nox sessions, name files that exist, depend on tasks that
  exist in each of their environments, and never make `pixi run NAME` ask
  which environment to use.
"""

from __future__ import annotations

import ast
import copy
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "build_tools"))
import pin_sites  # build_tools/ is not a package

PIXI_FILE = REPO / "pixi.toml"
REQUIREMENTS = REPO / "build_tools" / "requirements"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"

# ---------------------------------------------------------------------------
# The keys pixi documents.
#
# From pixi's manifest reference, https://pixi.sh/latest/reference/pixi_manifest/,
# whose field tables are generated from pixi's schema (schema/model.py) into
# docs/reference/_schema_tables.txt of github.com/prefix-dev/pixi; target
# selectors from https://pixi.sh/latest/workspace/multi_platform_configuration/.
# No copy of pixi's JSON schema is installed here (check-jsonschema vendors
# none for pixi), hence the lists. Sub-tables that the project does not use
# (package, dev, exclude-newer maps) are allowed but not descended into.
# ---------------------------------------------------------------------------
TOP_LEVEL = frozenset(
    {
        "workspace",
        "project",  # the older name of [workspace]
        "package",
        "dependencies",
        "host-dependencies",
        "build-dependencies",
        "constraints",
        "exclude-newer",
        "pypi-dependencies",
        "pypi-exclude-newer",
        "dev",
        "tasks",
        "system-requirements",
        "environments",
        "feature",
        "activation",
        "target",
        "pypi-options",
    }
)
WORKSPACE = frozenset(
    {
        "name",
        "version",
        "description",
        "authors",
        "channels",
        "channel-priority",
        "solve-strategy",
        "exclude-newer",
        "platforms",
        "license",
        "license-file",
        "readme",
        "homepage",
        "repository",
        "documentation",
        "conda-pypi-map",
        "pypi-options",
        "s3-options",
        "preview",
        "build-variants-files",
        "build-variants",
        "requires-pixi",
        "dependencies",
    }
)
CHANNEL_TABLE = frozenset({"channel", "priority", "exclude-newer"})
WORKSPACE_PLATFORM_TABLE = frozenset(
    {
        "name",
        "platform",
        "cuda",
        "archspec",
        "glibc",
        "linux",
        "macos",
        "osx",
        "windows",
    }
)
# The conda subdirs pixi knows.
PLATFORMS = frozenset(
    {
        "emscripten-wasm32",
        "linux-32",
        "linux-64",
        "linux-aarch64",
        "linux-armv6l",
        "linux-armv7l",
        "linux-ppc64",
        "linux-ppc64le",
        "linux-riscv32",
        "linux-riscv64",
        "linux-s390x",
        "noarch",
        "osx-64",
        "osx-arm64",
        "unknown",
        "wasi-wasm32",
        "win-32",
        "win-64",
        "win-arm64",
        "zos-z",
    }
)
# [target.<selector>]: a platform, or one of these families of platforms.
TARGET_SELECTORS = {
    "unix": ("linux-", "osx-"),
    "linux": ("linux-",),
    "osx": ("osx-",),
    "win": ("win-",),
}
FEATURE = frozenset(
    {
        "channels",
        "channel-priority",
        "solve-strategy",
        "platforms",
        "dependencies",
        "host-dependencies",
        "build-dependencies",
        "constraints",
        "pypi-dependencies",
        "dev",
        "tasks",
        "activation",
        "system-requirements",
        "target",
        "pypi-options",
    }
)
TARGET = frozenset(
    {
        "dependencies",
        "host-dependencies",
        "build-dependencies",
        "constraints",
        "pypi-dependencies",
        "dev",
        "tasks",
        "activation",
    }
)
CONDA_DEPENDENCY_TABLES = (
    "dependencies",
    "host-dependencies",
    "build-dependencies",
    "constraints",
)
# A conda dependency given as a table (MatchspecTable).
MATCHSPEC_TABLE = frozenset(
    {
        "version",
        "build",
        "build-number",
        "file-name",
        "channel",
        "subdir",
        "extras",
        "flags",
        "license",
        "license-family",
        "when",
        "track-features",
        "path",
        "url",
        "md5",
        "sha256",
        "git",
        "rev",
        "tag",
        "branch",
        "subdirectory",
    }
)
# A PyPI dependency given as a table is one of these forms (their keys do not mix).
PYPI_TABLE_FORMS = (
    frozenset({"version", "index", "extras"}),
    frozenset({"path", "editable", "subdirectory", "extras"}),
    frozenset({"url", "extras"}),
    frozenset({"git", "branch", "subdirectory", "extras"}),
    frozenset({"git", "tag", "subdirectory", "extras"}),
    frozenset({"git", "rev", "subdirectory", "extras"}),
)
# `depends_on` is documented too, but deprecated since pixi 0.21: not allowed here.
TASK = frozenset(
    {
        "cmd",
        "cwd",
        "depends-on",
        "inputs",
        "outputs",
        "env",
        "default-environment",
        "description",
        "clean-env",
        "args",
    }
)
TASK_ARG = frozenset({"arg", "default", "choices"})
TASK_DEPENDENCY = frozenset({"task", "args", "environment"})
ENVIRONMENT = frozenset({"features", "solve-group", "no-default-feature"})
ENVIRONMENT_NAME = re.compile(r"[a-z\d\-]+")
ACTIVATION = frozenset({"scripts", "env"})
SYSTEM_REQUIREMENTS = frozenset({"linux", "unix", "libc", "cuda", "archspec", "macos"})
PYPI_OPTIONS = frozenset(
    {
        "index-url",
        "extra-index-urls",
        "find-links",
        "no-build-isolation",
        "index-strategy",
        "no-build",
        "dependency-overrides",
        "no-binary",
        "prerelease-mode",
        "skip-wheel-filename-check",
    }
)


# ---------------------------------------------------------------------------
# The checker.
# ---------------------------------------------------------------------------
def _unknown(where: str, table: object, allowed: frozenset[str]) -> list[str]:
    if not isinstance(table, dict):
        return [f"[{where}] is a {type(table).__name__}, not a table"]
    return [
        f"[{where}] has `{key}`, which pixi does not document"
        for key in sorted(set(table) - allowed)
    ]


def _workspace_problems(workspace: object, where: str) -> list[str]:
    problems = _unknown(where, workspace, WORKSPACE)
    if not isinstance(workspace, dict):
        return problems
    for channel in workspace.get("channels", []):
        if isinstance(channel, dict):
            problems += _unknown(f"{where}.channels", channel, CHANNEL_TABLE)
    for platform in workspace.get("platforms", []):
        if isinstance(platform, dict):
            problems += _unknown(
                f"{where}.platforms", platform, WORKSPACE_PLATFORM_TABLE
            )
        elif platform not in PLATFORMS:
            problems.append(f"[{where}] platforms: {platform!r} is no conda platform")
    return problems


def _pypi_dependency_problems(where: str, table: object) -> list[str]:
    if not isinstance(table, dict):
        return [f"[{where}] is not a table"]
    problems = []
    for name, spec in table.items():
        if isinstance(spec, dict) and not any(
            set(spec) <= form for form in PYPI_TABLE_FORMS
        ):
            problems.append(
                f"[{where}] {name} = {spec}: keys {sorted(spec)} match none of "
                "pixi's PyPI requirement forms (version/index, path, url, git)"
            )
    return problems


def _task_problems(where: str, task: object) -> list[str]:
    if isinstance(task, str):  # `name = "cmd"`
        return []
    if isinstance(task, list):  # an alias: a list of tasks to run
        dependencies, problems = task, []
    else:
        problems = _unknown(where, task, TASK)
        if not isinstance(task, dict):
            return problems
        if "cmd" not in task and "depends-on" not in task:
            problems.append(f"[{where}] has neither cmd nor depends-on")
        dependencies = task.get("depends-on", [])
        if isinstance(dependencies, str):
            dependencies = [dependencies]
        for arg in task.get("args", []):
            if isinstance(arg, dict):
                problems += _unknown(f"{where}.args", arg, TASK_ARG)
    for dependency in dependencies:
        if isinstance(dependency, dict):
            problems += _unknown(f"{where}.depends-on", dependency, TASK_DEPENDENCY)
    return problems


def _target_name_problem(where: str, name: str, platforms: set[str]) -> list[str]:
    if name in platforms:
        return []
    prefixes = TARGET_SELECTORS.get(name)
    if prefixes and any(p.startswith(prefixes) for p in platforms):
        return []
    return [
        (
            f"[{where}.{name}]: {name!r} is neither a platform of [workspace] nor a "
            f"selector ({', '.join(TARGET_SELECTORS)}) that matches one"
        )
    ]


def _tables_problems(
    where: str, tables: dict, allowed: frozenset[str], platforms: set[str]
) -> list[str]:
    """The sub-tables that the top level, features and targets share."""
    problems = _unknown(where, tables, allowed)
    prefix = f"{where}." if where else ""
    for key in CONDA_DEPENDENCY_TABLES:
        for name, spec in tables.get(key, {}).items():
            if isinstance(spec, dict):
                problems += _unknown(f"{prefix}{key}.{name}", spec, MATCHSPEC_TABLE)
    if "pypi-dependencies" in tables:
        problems += _pypi_dependency_problems(
            f"{prefix}pypi-dependencies", tables["pypi-dependencies"]
        )
    for name, task in tables.get("tasks", {}).items():
        problems += _task_problems(f"{prefix}tasks.{name}", task)
    if "activation" in tables:
        problems += _unknown(f"{prefix}activation", tables["activation"], ACTIVATION)
    if "system-requirements" in tables:
        problems += _unknown(
            f"{prefix}system-requirements",
            tables["system-requirements"],
            SYSTEM_REQUIREMENTS,
        )
    if "pypi-options" in tables:
        problems += _unknown(
            f"{prefix}pypi-options", tables["pypi-options"], PYPI_OPTIONS
        )
    for name, target in tables.get("target", {}).items():
        problems += _target_name_problem(f"{prefix}target", name, platforms)
        if isinstance(target, dict):
            problems += _tables_problems(
                f"{prefix}target.{name}", target, TARGET, platforms
            )
        else:
            problems.append(f"[{prefix}target.{name}] is not a table")
    return problems


def manifest_problems(manifest: dict) -> list[str]:
    """Every key of a parsed pixi.toml that pixi does not document, as
    messages that say where; empty when there is none."""
    workspace = manifest.get("workspace", manifest.get("project", {}))
    platforms = {
        p if isinstance(p, str) else p.get("name", p.get("platform", ""))
        for p in (workspace.get("platforms", []) if isinstance(workspace, dict) else [])
    }
    problems = []
    for key in ("workspace", "project"):
        if key in manifest:
            problems += _workspace_problems(manifest[key], key)
    problems += _tables_problems("", manifest, TOP_LEVEL, platforms)
    for name, feature in manifest.get("feature", {}).items():
        if name == "default":
            problems.append("[feature.default] is the top level's: write it there")
        if not isinstance(feature, dict):
            problems.append(f"[feature.{name}] is not a table")
            continue
        problems += _tables_problems(f"feature.{name}", feature, FEATURE, platforms)
        for platform in feature.get("platforms", []):
            if platform not in platforms:
                problems.append(
                    f"[feature.{name}] platforms: {platform!r} is not in [workspace] platforms"
                )
    for name, environment in manifest.get("environments", {}).items():
        if not ENVIRONMENT_NAME.fullmatch(name):
            problems.append(f"[environments] {name!r} is not a valid environment name")
        if not isinstance(environment, list):
            problems += _unknown(f"environments.{name}", environment, ENVIRONMENT)
    return problems


# ---------------------------------------------------------------------------
# Reading the manifest: features, environments, tasks, dependencies.
# ---------------------------------------------------------------------------
def read_manifest(text: str | None = None) -> dict:
    return tomllib.loads(text if text is not None else PIXI_FILE.read_text())


@pytest.fixture(scope="module")
def manifest() -> dict:
    return read_manifest()


def features(manifest: dict) -> dict[str, dict]:
    """Every feature by name, the top level as "default"."""
    return {"default": manifest, **manifest.get("feature", {})}


def environment_features(manifest: dict) -> dict[str, list[str]]:
    """The features of each environment, "default" included where pixi adds it."""
    environments = {"default": {"features": []}, **manifest.get("environments", {})}
    result = {}
    for name, environment in environments.items():
        if isinstance(environment, list):
            environment = {"features": environment}
        names = list(environment.get("features", []))
        if not environment.get("no-default-feature", False):
            names.insert(0, "default")
        result[name] = names
    return result


def feature_tasks(feature: dict) -> dict[str, dict]:
    """The tasks of a feature (its targets' included), each as a table."""
    tasks: dict[str, dict] = {}
    tables = [feature.get("tasks", {})] + [
        target.get("tasks", {}) for target in feature.get("target", {}).values()
    ]
    for table in tables:
        for name, task in table.items():
            if isinstance(task, str):
                task = {"cmd": task}
            elif isinstance(task, list):
                task = {"depends-on": task}
            tasks.setdefault(name, {}).update(task)
    return tasks


def task_variants(manifest: dict) -> list[tuple[str, str, dict]]:
    """(feature, task name, definition) of every task definition, targets' included."""
    variants = []
    for feature_name, feature in features(manifest).items():
        tables = [feature.get("tasks", {})] + [
            target.get("tasks", {}) for target in feature.get("target", {}).values()
        ]
        for table in tables:
            for name, task in table.items():
                if isinstance(task, str):
                    task = {"cmd": task}
                elif isinstance(task, list):
                    task = {"depends-on": task}
                variants.append((feature_name, name, task))
    return variants


def dependency_names(task: dict) -> list[str]:
    dependencies = task.get("depends-on", [])
    if isinstance(dependencies, str):
        dependencies = [dependencies]
    return [d if isinstance(d, str) else d["task"] for d in dependencies]


def environment_tasks(manifest: dict) -> dict[str, dict[str, set[str]]]:
    """For each environment, each of its tasks and the features that define it."""
    by_feature = {
        name: feature_tasks(feature) for name, feature in features(manifest).items()
    }
    result: dict[str, dict[str, set[str]]] = {}
    for environment, names in environment_features(manifest).items():
        tasks: dict[str, set[str]] = {}
        for feature in names:
            for task in by_feature.get(feature, {}):
                tasks.setdefault(task, set()).add(feature)
        result[environment] = tasks
    return result


def all_tasks(manifest: dict) -> set[str]:
    return {name for _feature, name, _task in task_variants(manifest)}


def dependency_specs(manifest: dict, key: str) -> dict[str, list[tuple[str, object]]]:
    """Every spec of each package in the `key` tables (dependencies or
    pypi-dependencies) of features and targets, with where it is."""
    specs: dict[str, list[tuple[str, object]]] = {}
    for feature_name, feature in features(manifest).items():
        prefix = "" if feature_name == "default" else f"feature.{feature_name}."
        tables = [(f"{prefix}{key}", feature.get(key, {}))] + [
            (f"{prefix}target.{target_name}.{key}", target.get(key, {}))
            for target_name, target in feature.get("target", {}).items()
        ]
        for where, table in tables:
            for package, spec in table.items():
                specs.setdefault(pin_sites.normalize(package), []).append((where, spec))
    return specs


def locked_versions() -> dict[str, tuple[str, str]]:
    """(version, lock file) of every package pinned in build_tools/requirements/*.txt."""
    locked: dict[str, tuple[str, str]] = {}
    for path in sorted(REQUIREMENTS.glob("*.txt")):
        for package, version in pin_sites.requirement_pins(path).items():
            previous = locked.setdefault(package, (version, path.name))
            assert previous[0] == version, (
                f"{package} is locked at {previous[0]} in {previous[1]} but at "
                f"{version} in {path.name}"
            )
    return locked


def lock_python() -> str:
    """The Python the pip locks were made for, from their pip-compile headers."""
    pythons = {}
    for path in sorted(REQUIREMENTS.glob("*.txt")):
        match = re.search(
            r"autogenerated by pip-compile with Python (\S+)", path.read_text()
        )
        assert match, f"build_tools/requirements/{path.name} has no pip-compile header"
        pythons[path.name] = match.group(1)
    assert len(set(pythons.values())) == 1, f"the locks disagree on Python: {pythons}"
    return next(iter(pythons.values()))


def version_spec(spec: object) -> str:
    return spec.get("version", "*") if isinstance(spec, dict) else str(spec)


def specifier(spec: str) -> SpecifierSet:
    """A conda or PEP 440 version spec as a PEP 440 SpecifierSet: `*` is any,
    `2.9.*` and a bare `2.9.2` are `==` (conda's default operator)."""
    parts = []
    for part in spec.replace(" ", "").split(","):
        if part in ("", "*"):
            continue
        if part[0].isdigit():
            part = f"=={part}"
        parts.append(part)
    return SpecifierSet(",".join(parts))


def exact_version(spec: object) -> str | None:
    """The version `spec` pins exactly (`==X`, no wildcard), else None."""
    text = version_spec(spec)
    match = re.fullmatch(r"==\s*([^*,<>=!~\s]+)", text)
    return match.group(1) if match else None


# ---------------------------------------------------------------------------
# The tests.
# ---------------------------------------------------------------------------
def test_pixi_toml_uses_only_the_keys_pixi_documents(manifest: dict) -> None:
    problems = manifest_problems(manifest)
    assert not problems, "pixi.toml:\n" + "\n".join(problems)


def _set(path: tuple[str, ...], value: object) -> Callable[[dict], None]:
    def mutate(manifest: dict) -> None:
        table = manifest
        for key in path[:-1]:
            table = table.setdefault(key, {})
        table[path[-1]] = value

    return mutate


def _rename(path: tuple[str, ...], new: str) -> Callable[[dict], None]:
    def mutate(manifest: dict) -> None:
        table = manifest
        for key in path[:-1]:
            table = table[key]
        table[new] = table.pop(path[-1])

    return mutate


@pytest.mark.parametrize(
    ("mutate", "named"),
    [
        (_rename(("tasks",), "taks"), "`taks`"),
        (_rename(("workspace", "platforms"), "platform"), "`platform`"),
        (_set(("feature", "test", "dependecies"), {"lit": "*"}), "`dependecies`"),
        (_rename(("feature", "build", "tasks", "build", "cmd"), "comand"), "`comand`"),
        (
            _set(("feature", "test", "tasks", "e2e", "depends_on"), ["build"]),
            "`depends_on`",
        ),
        (
            _set(
                ("feature", "test", "tasks", "e2e", "depends-on"), [{"taks": "build"}]
            ),
            "`taks`",
        ),
        (_set(("environments", "test", "solve_group"), "default"), "`solve_group`"),
        (_set(("environments", "Test"), ["test"]), "'Test'"),
        (
            _set(
                ("feature", "test", "pypi-dependencies", "torch"),
                {"version": "==2.13.0", "index-url": TORCH_CPU_INDEX},
            ),
            "'index-url'",
        ),
        (
            _set(
                ("dependencies", "cmake"),
                {"version": ">=3.25", "chanel": "conda-forge"},
            ),
            "`chanel`",
        ),
        (_set(("target", "linux-65", "dependencies"), {"gcc": "*"}), "'linux-65'"),
        (_set(("target", "osx-64", "dependencies"), {"gcc": "*"}), "'osx-64'"),
        (_set(("feature", "build", "target", "win-64", "taks"), {}), "`taks`"),
        (_set(("activation", "script"), ["setup.sh"]), "`script`"),
        (
            _set(("workspace", "platforms"), ["linux-64", "macos-arm64"]),
            "'macos-arm64'",
        ),
    ],
    ids=lambda value: value.strip("`'") if isinstance(value, str) else "mutation",
)
def test_the_checker_rejects_keys_pixi_does_not_document(
    manifest: dict, mutate: Callable[[dict], None], named: str
) -> None:
    # The check must be able to fail: each mutation makes one key unknown.
    broken = copy.deepcopy(manifest)
    mutate(broken)
    problems = manifest_problems(broken)
    assert any(named in problem for problem in problems), problems


def test_the_checker_rejects_a_typo_in_the_file_itself() -> None:
    text = PIXI_FILE.read_text()
    assert 'channels = ["conda-forge"]' in text
    broken = read_manifest(
        text.replace('channels = ["conda-forge"]', 'chanels = ["conda-forge"]', 1)
    )
    assert (
        "[workspace] has `chanels`, which pixi does not document"
        in manifest_problems(broken)
    )


def test_platforms_and_channels(manifest: dict) -> None:
    workspace = manifest["workspace"]
    assert workspace["channels"] == ["conda-forge"]
    assert sorted(workspace["platforms"]) == sorted(
        ["linux-64", "linux-aarch64", "osx-arm64", "win-64"]
    )
    for name, feature in manifest.get("feature", {}).items():
        assert "channels" not in feature, f"[feature.{name}] adds channels"


def test_python_is_the_python_of_the_locks(manifest: dict) -> None:
    python = lock_python()
    specs = dependency_specs(manifest, "dependencies").get("python")
    assert specs == [("dependencies", f"{python}.*")], (
        f'pixi.toml must ask for python = "{python}.*" in [dependencies] only '
        f"(the locks are made with Python {python}); it has {specs}"
    )


def test_torch_is_the_locked_cpu_build_from_the_cpu_index(manifest: dict) -> None:
    specs = dependency_specs(manifest, "pypi-dependencies").get("torch", [])
    assert len(specs) == 1, f"pixi.toml should name torch once: {specs}"
    where, spec = specs[0]
    locked = pin_sites.requirement_pins(REQUIREMENTS / "test.txt")["torch"]
    # The lock has the CPU build's local label (2.13.0+cpu); the index serves it.
    assert isinstance(spec, dict) and exact_version(spec) == locked.split("+")[0], (
        f"[{where}] torch = {spec}, but test.txt locks torch=={locked}"
    )
    assert spec.get("index") == TORCH_CPU_INDEX, (
        f"[{where}] torch must come from {TORCH_CPU_INDEX} (PyPI's torch pulls CUDA)"
    )
    assert "torch" not in dependency_specs(manifest, "dependencies"), (
        "torch is a PyPI dependency (the CPU index), not conda-forge's pytorch"
    )


@pytest.mark.parametrize(
    ("package", "lock"),
    [
        ("onnx", "test.txt"),
        ("lit", "test.txt"),
        ("pytest", "test.txt"),
        ("scipy-openblas32", "test.txt"),
        ("mkl", "test.txt"),
        ("torchao", "test.txt"),
        ("nox", "nox.txt"),
        ("ruff", "lint.txt"),
        ("mypy", "lint.txt"),
    ],
)
def test_python_tools_are_pinned_as_locked(
    manifest: dict, package: str, lock: str
) -> None:
    specs = dependency_specs(manifest, "pypi-dependencies").get(package, [])
    assert specs, f"pixi.toml has no PyPI dependency {package}"
    locked = pin_sites.requirement_pins(REQUIREMENTS / lock)[package]
    for where, spec in specs:
        assert exact_version(spec) == locked, (
            f"[{where}] {package} = {spec!r}, but {lock} locks {package}=={locked}"
        )


def test_nanobind_is_2x_and_the_locked_series(manifest: dict) -> None:
    specs = dependency_specs(manifest, "dependencies").get("nanobind", [])
    assert specs, "pixi.toml has no nanobind"
    locked = pin_sites.requirement_pins(REQUIREMENTS / "build.txt")["nanobind"]
    assert Version(locked).major == 2, f"build.txt locks nanobind {locked}"
    for where, spec in specs:
        allowed = specifier(version_spec(spec))
        assert Version(locked) in allowed, (
            f"[{where}] nanobind = {spec!r} excludes build.txt's nanobind=={locked}"
        )
        assert Version("3.0.0") not in allowed and Version("1.9.0") not in allowed, (
            f"[{where}] nanobind = {spec!r} must stay within 2.x (MLIR's CMake asks for it)"
        )


def test_every_package_in_both_agrees_with_the_locks(manifest: dict) -> None:
    """Any package that pixi.toml and a pip lock both name: the locked version
    satisfies pixi.toml's spec (so the two routes can resolve the same)."""
    locked = locked_versions()
    problems = []
    for key in ("dependencies", "pypi-dependencies"):
        for package, specs in dependency_specs(manifest, key).items():
            if package not in locked:
                continue
            version, lock = locked[package]
            for where, spec in specs:
                if Version(version) not in specifier(version_spec(spec)):
                    problems.append(
                        f"[{where}] {package} = {spec!r} excludes {lock}'s {package}=={version}"
                    )
    assert not problems, "\n".join(problems)


def test_the_llvm_packages_are_where_the_pin_tools_read_them(manifest: dict) -> None:
    # pin_sites.pixi_llvm_specs reads, and bump_llvm.py rewrites, the top-level
    # [dependencies] only (test_llvm_pin.py checks their versions): a copy in a
    # feature or target would escape both.
    for key in (
        "dependencies",
        "host-dependencies",
        "build-dependencies",
        "constraints",
    ):
        for package, specs in dependency_specs(manifest, key).items():
            if package in pin_sites.PIXI_LLVM_PACKAGES:
                assert [where for where, _ in specs] == ["dependencies"], (
                    f"{package} must be in [dependencies] only: {specs}"
                )
    assert set(pin_sites.pixi_llvm_specs(REPO)) >= {"llvmdev", "mlir"}


# The tasks the project promises (the issue, README, DESIGN), and the nox
# session each mirrors with the build_tools/ (or test/) script both run.
PROMISED_TASKS = {
    "build": ("build", "build_tools/build.py"),
    "test": ("tests", None),
    "lit": ("lit", None),
    "e2e": ("e2e", None),
    "e2e-onnx": ("e2e-onnx", "test/e2e/onnx_conformance.py"),
    "opinfo": ("opinfo", "test/e2e/opinfo.py"),
    "wheels": ("wheels", "build_tools/build_wheels.py"),
    "demo": ("demo", "torch2mlir.tools.demo"),
    "bench": ("bench", "torch2mlir.tools.bench"),
    "update-ods": ("update-ods", "build_tools/torch_ods_gen.py"),
    "bump-llvm": ("bump-llvm", "build_tools/bump_llvm.py"),
    "lint": ("lint", None),
    "docs": (None, None),
}


def nox_session_sources() -> dict[str, str]:
    """The source of each nox session, followed by that of the noxfile's
    helpers it calls (`_build` runs build_tools/build.py)."""
    source = (REPO / "noxfile.py").read_text()
    functions = {
        node.name: node
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef)
    }
    sessions = {}
    for node in functions.values():
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call else decorator
            if isinstance(target, ast.Attribute) and target.attr == "session":
                name = node.name
                for keyword in call.keywords if call else []:
                    if keyword.arg == "name" and isinstance(
                        keyword.value, ast.Constant
                    ):
                        name = keyword.value.value
                called = {
                    inner.func.id
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
                }
                sessions[name] = "\n".join(
                    ast.get_source_segment(source, function) or ""
                    for function in [
                        node,
                        *(functions[c] for c in sorted(called & set(functions))),
                    ]
                )
    return sessions


@pytest.mark.parametrize("task", sorted(PROMISED_TASKS))
def test_the_promised_task_exists_and_runs_what_nox_runs(
    manifest: dict, task: str
) -> None:
    variants = [t for _f, name, t in task_variants(manifest) if name == task]
    assert variants, f"pixi.toml has no task {task!r}"
    session, script = PROMISED_TASKS[task]
    if session is not None:
        sessions = nox_session_sources()
        assert session in sessions, f"noxfile.py has no session {session!r}"
        if script is not None:
            assert script in sessions[session], (
                f"nox -s {session} does not run {script}: update this table"
            )
    if script is not None:
        for variant in variants:
            assert script in str(variant.get("cmd", "")), (
                f"pixi task {task!r} should run {script}, as `nox -s {session}` does: {variant}"
            )


FILE_IN_CMD = re.compile(r"(?<![\w/.$-])((?:build_tools|test)/[\w./-]+)")


def test_the_files_the_tasks_run_exist(manifest: dict) -> None:
    missing = []
    for feature, name, task in task_variants(manifest):
        cmd = task.get("cmd", "")
        cmd = " ".join(cmd) if isinstance(cmd, list) else cmd
        for path in FILE_IN_CMD.findall(cmd):
            if not (REPO / path).exists():
                missing.append(
                    f"task {name!r} ({feature}) names {path}, which does not exist"
                )
    assert not missing, "\n".join(missing)
    # Guards the pattern: it finds the scripts of the build and wheels tasks.
    found = {
        path
        for _f, _n, task in task_variants(manifest)
        for path in FILE_IN_CMD.findall(str(task.get("cmd", "")))
    }
    assert {"build_tools/build.py", "build_tools/build_wheels.py", "test/lit"} <= found


def test_the_build_directory_is_per_environment(manifest: dict) -> None:
    # build, lit and the pytest tasks must agree on one directory per
    # environment: CMake's cache names the environment's Python and MLIR.
    for feature, name, task in task_variants(manifest):
        cmd = str(task.get("cmd", ""))
        for match in re.finditer(r"build-pixi(\S*)", cmd):
            assert match.group(1).startswith("/$PIXI_ENVIRONMENT_NAME"), (
                f"task {name!r} ({feature}) uses build-pixi{match.group(1)}, "
                "not build-pixi/$PIXI_ENVIRONMENT_NAME"
            )


def test_environments_name_existing_features_and_every_feature_is_used(
    manifest: dict,
) -> None:
    defined = set(manifest.get("feature", {}))
    used = set()
    for environment, names in environment_features(manifest).items():
        for feature in names:
            assert feature == "default" or feature in defined, (
                f"environment {environment!r} names feature {feature!r}, which is not defined"
            )
            used.add(feature)
    assert defined <= used, f"features in no environment: {sorted(defined - used)}"
    assert {"default", "build", "test", "docs"} <= set(environment_features(manifest))


def test_the_environments_share_one_solve_group(manifest: dict) -> None:
    groups = {
        name: (env.get("solve-group") if isinstance(env, dict) else None)
        for name, env in manifest.get("environments", {}).items()
    }
    assert set(groups.values()) == {"default"}, (
        f'every environment should be in solve-group "default" (one version of '
        f"each package across them): {groups}"
    )


def test_task_dependencies_exist_in_each_environment_of_the_task(
    manifest: dict,
) -> None:
    problems = []
    tasks_by_environment = environment_tasks(manifest)
    definitions: dict[str, list[dict]] = {}
    for _feature, name, task in task_variants(manifest):
        definitions.setdefault(name, []).append(task)
    for environment, tasks in tasks_by_environment.items():
        for name in tasks:
            for task in definitions[name]:
                for dependency in dependency_names(task):
                    if dependency not in tasks:
                        problems.append(
                            f"task {name!r} depends on {dependency!r}, which environment "
                            f"{environment!r} does not have"
                        )
    assert not problems, "\n".join(problems)
    # Every depends-on names a task somewhere (the check above only sees
    # environments, so also check tasks that are in none).
    every = all_tasks(manifest)
    for _feature, name, task in task_variants(manifest):
        for dependency in dependency_names(task):
            assert dependency in every, (
                f"task {name!r} depends on {dependency!r}, no task"
            )


def test_pixi_run_never_has_to_ask_for_an_environment(manifest: dict) -> None:
    # pixi asks which environment to use when a task is defined differently in
    # several of them, and picks the default environment when the task is the
    # same everywhere and the default has it
    # (https://pixi.sh/latest/workspace/multi_environment/). CI runs
    # `pixi run test` without a terminal: keep every task in one feature, and
    # in the default environment or in one environment only.
    owners: dict[str, set[str]] = {}
    for feature, name, _task in task_variants(manifest):
        owners.setdefault(name, set()).add(feature)
    shared = {name: sorted(f) for name, f in owners.items() if len(f) > 1}
    assert not shared, f"tasks defined in several features: {shared}"
    tasks_by_environment = environment_tasks(manifest)
    for name in owners:
        environments = sorted(
            e for e, tasks in tasks_by_environment.items() if name in tasks
        )
        assert environments, f"task {name!r} is in no environment"
        assert "default" in environments or len(environments) == 1, (
            f"`pixi run {name}` would ask which of {environments} to use"
        )
    for name in ("build", "test", "e2e", "e2e-onnx", "demo", "bump-llvm", "lint"):
        assert name in tasks_by_environment["default"], (
            f"`pixi run {name}` should run in the default environment"
        )
