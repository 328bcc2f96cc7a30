"""The CI workflows, and the commands that they and the docs tell people to run.

- every .github/workflows/*.yml is valid against GitHub's workflow schema
  (check-jsonschema's vendored copy: no network);
- every `nox -s NAME` and `pixi run NAME` in the workflows, README.md,
  .ci/run, noxfile.py and pixi.toml names a session of noxfile.py or a task
  of pixi.toml.

pixi.toml itself (documented keys, pins, tasks, environments) is checked by
test_pixi.py.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

WORKFLOWS_DIR = REPO / ".github" / "workflows"
WORKFLOWS = sorted(WORKFLOWS_DIR.glob("*.yml"))
# Where the project tells people (and CI) which sessions and tasks to run.
SCANNED = [
    *WORKFLOWS,
    REPO / "README.md",
    REPO / ".ci" / "run",
    REPO / "noxfile.py",
    REPO / "pixi.toml",
]

# Named before they exist: `nox -s wheels` (wheels.yml, README) is being
# written alongside. Remove a name here once its session exists.
PENDING_NOX_SESSIONS = {"wheels"}
PENDING_PIXI_TASKS: set[str] = set()

NOX_CALL = re.compile(r"""\bnox["']?\s+(?:-s|--sessions?|-e)\s+([A-Za-z0-9_-]+)""")
# `pixi run [-e|--environment ENV] NAME`
PIXI_CALL = re.compile(
    r"\bpixi\s+run\s+(?:(?:-e|--environment)[\s=]+[A-Za-z0-9_-]+\s+)?([A-Za-z0-9_-]+)"
)


def nox_sessions() -> set[str]:
    """The session names of noxfile.py: `@nox.session(name=...)` or the function's name."""
    sessions = set()
    for node in ast.parse((REPO / "noxfile.py").read_text()).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call else decorator
            if not (isinstance(target, ast.Attribute) and target.attr == "session"):
                continue
            name = node.name
            for keyword in call.keywords if call else []:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                    name = keyword.value.value
            sessions.add(name)
    return sessions


def pixi_manifest() -> dict:
    with (REPO / "pixi.toml").open("rb") as f:
        return tomllib.load(f)


def pixi_task_tables(manifest: dict) -> dict[str, dict]:
    """Every [tasks] table, by where it is: top level, targets, features."""
    tables = {"tasks": manifest.get("tasks", {})}
    for platform, target in manifest.get("target", {}).items():
        tables[f"target.{platform}.tasks"] = target.get("tasks", {})
    for name, feature in manifest.get("feature", {}).items():
        tables[f"feature.{name}.tasks"] = feature.get("tasks", {})
        for platform, target in feature.get("target", {}).items():
            tables[f"feature.{name}.target.{platform}.tasks"] = target.get("tasks", {})
    return tables


def pixi_tasks() -> set[str]:
    return {
        name for table in pixi_task_tables(pixi_manifest()).values() for name in table
    }


def references(pattern: re.Pattern[str]) -> dict[str, set[str]]:
    """The names that `pattern` finds, by the file that names them."""
    found: dict[str, set[str]] = {}
    for path in SCANNED:
        if path.exists():
            for name in pattern.findall(path.read_text(encoding="utf-8")):
                found.setdefault(name, set()).add(str(path.relative_to(REPO)))
    return found


def test_the_workflows_are_there() -> None:
    names = {path.name for path in WORKFLOWS}
    assert {"ci.yml", "bump-llvm.yml", "lock.yml", "wheels.yml"} <= names, names


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_workflow_is_valid_for_github(workflow: Path) -> None:
    if importlib.util.find_spec("check_jsonschema") is None:
        pytest.skip(
            "check-jsonschema is not installed (it is in build_tools/requirements/test.txt)"
        )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-workflows",
            str(workflow),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, (
        f"{workflow.relative_to(REPO)} is not a valid GitHub workflow:\n"
        + result.stdout
        + result.stderr
    )


def test_the_patterns_find_the_calls() -> None:
    # Guards the two regexes: a pattern that finds nothing checks nothing.
    assert ".ci/run" in references(NOX_CALL).get("tests", set())
    assert ".github/workflows/ci.yml" in references(PIXI_CALL).get("test", set())


def test_every_nox_session_named_exists() -> None:
    sessions = nox_sessions()
    missing = {
        name: sorted(where)
        for name, where in references(NOX_CALL).items()
        if name not in sessions | PENDING_NOX_SESSIONS
    }
    assert not missing, (
        f"`nox -s NAME` with no such session in noxfile.py: {missing} "
        f"(sessions: {sorted(sessions)})"
    )


def test_every_pixi_task_named_exists() -> None:
    tasks = pixi_tasks()
    missing = {
        name: sorted(where)
        for name, where in references(PIXI_CALL).items()
        if name not in tasks | PENDING_PIXI_TASKS
    }
    assert not missing, (
        f"`pixi run NAME` with no such task in pixi.toml: {missing} (tasks: {sorted(tasks)})"
    )
