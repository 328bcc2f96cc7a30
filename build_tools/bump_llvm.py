#!/usr/bin/env python3
"""Move the LLVM pin: every file that states it, together.

    python build_tools/bump_llvm.py --to 22.1.9 --commit <sha of llvmorg-22.1.9>
    python build_tools/bump_llvm.py --to 22.1.9 --commit <sha> --dry-run
    python build_tools/bump_llvm.py --print-newest

The pin sites (build_tools/pin_sites.py): build_tools/llvm_pin.toml
([llvm] version, tag, commit; [pypi] xtc-* versions), the xtc-* lines of
build_tools/requirements/build.in and build.txt, pixi.toml's llvmdev, mlir
and mlir-python-bindings, and the externals/llvm-project gitlink. The xtc-*
versions are the newest PyPI release of each package whose version starts
with "<VERSION>." (PyPI's JSON API, or --pypi-versions FILE offline).

All or nothing: the tool refuses to start if the sites disagree with each
other, computes every new file first, checks that each old statement is
found exactly where expected, and only then writes them all. Bumping to the
current pin changes nothing.

Then, unless --no-verify: install the new build lock into this Python, run
build_tools/build.py, `lit -v test/lit` and `pytest test/e2e`, and write a
Markdown report (default reports/bump-llvm-<VERSION>.md; full logs beside it
in reports/bump-llvm-<VERSION>-logs/): what changed, compile errors by
file:line, failing lit tests, failing pytest tests.

Exit status: 0 done (or nothing to do), 1 verification failed, 2 refused
(nothing written).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pin_sites

REPO = Path(__file__).resolve().parent.parent
PYPI_JSON_URL = "https://pypi.org/pypi/{package}/json"
LLVM_REMOTE = "https://github.com/llvm/llvm-project"
VERSION_RE = re.compile(r"\d+\.\d+\.\d+")
COMMIT_RE = re.compile(r"[0-9a-f]{40}")
NUMERIC_RELEASE_RE = re.compile(r"\d+(\.\d+)*")
# Caps that keep a report under GitHub's 65,536-character PR body.
MAX_LISTED = 100
LOG_TAIL_LINES = 60
MAX_REPORT_CHARS = 60_000


class Refused(Exception):
    """The bump cannot be done as asked; nothing was written."""


# --- The plan: every statement of the pin, old and new ----------------------


@dataclass
class Change:
    what: str  # e.g. "[llvm] version", "xtc-mlir-dev", "gitlink"
    old: str
    new: str


@dataclass
class FileEdit:
    path: str  # relative to the repository
    old_text: str
    new_text: str
    changes: list[Change] = field(default_factory=list)


@dataclass
class Plan:
    old_version: str
    new_version: str
    commit: str
    edits: list[FileEdit]
    gitlink: Change | None

    @property
    def changes(self) -> list[tuple[str, Change]]:
        rows = [(edit.path, change) for edit in self.edits for change in edit.changes]
        if self.gitlink:
            rows.append((pin_sites.SUBMODULE, self.gitlink))
        return rows


_SECTION_RE = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")


def set_toml_string(
    text: str, path: str, section: str, key: str, old: str, new: str
) -> str:
    """Replace the string `old` by `new` in the one `key = ...` line of
    [section] (inline tables included: `key = { version = "old", ... }`)."""
    lines = text.splitlines(keepends=True)
    current = None
    hits = []
    key_re = re.compile(
        rf"""^\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*="""
    )
    for number, line in enumerate(lines):
        header = _SECTION_RE.match(line)
        if header:
            current = header.group(1)
        elif current == section and key_re.match(line):
            hits.append(number)
    if len(hits) != 1:
        raise Refused(
            f"{path}: expected one `{key} = ...` line in [{section}], found {len(hits)}"
        )
    number = hits[0]
    line = lines[number]
    found = [quoted for quoted in (f'"{old}"', f"'{old}'") if quoted in line]
    if len(found) != 1 or line.count(found[0]) != 1:
        raise Refused(
            f"{path}:{number + 1}: expected the value {old!r} once in [{section}] "
            f"{key}, found: {line.strip()}"
        )
    quote = found[0][0]
    lines[number] = line.replace(found[0], f"{quote}{new}{quote}")
    return "".join(lines)


def set_requirement(text: str, path: str, package: str, old: str, new: str) -> str:
    """Replace `package==old` by `package==new` on its one line."""
    lines = text.splitlines(keepends=True)
    hits = [
        number
        for number, line in enumerate(lines)
        if (match := pin_sites.REQUIREMENT_LINE.match(line))
        and pin_sites.normalize(match["name"]) == pin_sites.normalize(package)
    ]
    if len(hits) != 1:
        raise Refused(f"{path}: expected one `{package}==` line, found {len(hits)}")
    number = hits[0]
    match = pin_sites.REQUIREMENT_LINE.match(lines[number])
    assert match is not None
    if match["version"] != old:
        raise Refused(
            f"{path}:{number + 1}: expected {package}=={old}, found {match['version']}"
        )
    line = lines[number]
    lines[number] = line[: match.start("version")] + new + line[match.end("version") :]
    return "".join(lines)


class _Editor:
    """Accumulates the edits of one file and the changes they make."""

    def __init__(self, repo: Path, path: str) -> None:
        # Bytes, not read_text(): keep the file's line endings as they are.
        text = (repo / path).read_bytes().decode("utf-8")
        self.edit = FileEdit(path, old_text=text, new_text=text)

    def toml(self, section: str, key: str, old: str, new: str, what: str) -> None:
        # Always rewrite, even to the same value: that checks the site is where we expect.
        self.edit.new_text = set_toml_string(
            self.edit.new_text, self.edit.path, section, key, old, new
        )
        if old != new:
            self.edit.changes.append(Change(what, old, new))

    def requirement(self, package: str, old: str, new: str) -> None:
        self.edit.new_text = set_requirement(
            self.edit.new_text, self.edit.path, package, old, new
        )
        if old != new:
            self.edit.changes.append(Change(package, old, new))


def check_agreement(repo: Path) -> None:
    try:
        problems = pin_sites.all_problems(repo)
    except pin_sites.GitUnavailable as e:
        raise Refused(
            f"cannot read the {pin_sites.SUBMODULE} gitlink in {repo}: {e}. The bump "
            "moves the gitlink with the files, so it needs the git checkout."
        ) from e
    if problems:
        listing = "\n".join(f"  {msg}" for found in problems.values() for msg in found)
        raise Refused(
            "the pin sites already disagree, so there is no one pin to move from. "
            f"Files that disagree with {pin_sites.PIN_FILE}: "
            + ", ".join(problems)
            + f"\n{listing}\nMake them agree first (or `git checkout` them), then bump."
        )


def missing_commit_message(version: str) -> str:
    tag = f"llvmorg-{version}"
    return (
        f"--commit is required to move to LLVM {version}: the gitlink and [llvm] "
        f"commit must name the commit of tag {tag}, and this tool does not guess it. "
        f"Find it with\n    git ls-remote {LLVM_REMOTE} 'refs/tags/{tag}^{{}}'\n"
        f"(the peeled `^{{}}` line is the commit of an annotated tag), then pass "
        "--commit <40-hex sha>."
    )


def plan_bump(
    repo: Path, version: str, commit: str | None, releases: dict[str, list[str]]
) -> Plan:
    """Every new file content, checked; writes nothing."""
    check_agreement(repo)
    pin = pin_sites.read_pin(repo)
    llvm = pin["llvm"]
    if commit is None:
        if version != llvm["version"]:
            raise Refused(missing_commit_message(version))
        commit = llvm["commit"]
    pypi = {
        package: newest_release(package, version, releases[package])
        for package in pin["pypi"]
    }

    pin_file = _Editor(repo, pin_sites.PIN_FILE)
    pin_file.toml("llvm", "version", llvm["version"], version, "[llvm] version")
    pin_file.toml("llvm", "tag", llvm["tag"], f"llvmorg-{version}", "[llvm] tag")
    pin_file.toml("llvm", "commit", llvm["commit"], commit, "[llvm] commit")
    for package, new in pypi.items():
        pin_file.toml("pypi", package, pin["pypi"][package], new, f"[pypi] {package}")

    edits = [pin_file.edit]
    for path in pin_sites.BUILD_REQUIREMENTS:
        requirements = _Editor(repo, path)
        for package, new in pypi.items():
            requirements.requirement(package, pin["pypi"][package], new)
        edits.append(requirements.edit)

    pixi = _Editor(repo, pin_sites.PIXI_FILE)
    for package, spec in pin_sites.pixi_llvm_specs(repo).items():
        # "==22.1.8" -> "==22.1.9" (pin_sites checked that it ends in the version).
        new_spec = spec.removesuffix(llvm["version"]) + version
        pixi.toml("dependencies", package, spec, new_spec, f"[dependencies] {package}")
    edits.append(pixi.edit)

    gitlink = (
        None if commit == llvm["commit"] else Change("gitlink", llvm["commit"], commit)
    )
    return Plan(
        llvm["version"], version, commit, [e for e in edits if e.changes], gitlink
    )


def apply_plan(repo: Path, plan: Plan) -> None:
    """Write every file and the gitlink, or none: the new contents go to
    temporary files first, then the gitlink, then the renames."""
    staged: list[tuple[Path, Path]] = []
    try:
        for edit in plan.edits:
            target = repo / edit.path
            temporary = target.with_name(f".{target.name}.bump-llvm")
            temporary.write_bytes(edit.new_text.encode("utf-8"))
            shutil.copymode(target, temporary)
            staged.append((temporary, target))
        if plan.gitlink:
            pin_sites.git(
                repo,
                "update-index",
                "--cacheinfo",
                f"160000,{plan.gitlink.new},{pin_sites.SUBMODULE}",
            )
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise
    for temporary, target in staged:
        os.replace(temporary, target)


def render_diff(plan: Plan) -> str:
    parts = []
    for edit in plan.edits:
        parts.extend(
            difflib.unified_diff(
                edit.old_text.splitlines(keepends=True),
                edit.new_text.splitlines(keepends=True),
                f"a/{edit.path}",
                f"b/{edit.path}",
            )
        )
    if plan.gitlink:
        path = pin_sites.SUBMODULE
        parts += [
            f"--- a/{path}\n",
            f"+++ b/{path}\n",
            "@@ -1 +1 @@\n",
            f"-Subproject commit {plan.gitlink.old}\n",
            f"+Subproject commit {plan.gitlink.new}\n",
        ]
    return "".join(part if part.endswith("\n") else part + "\n" for part in parts)


def render_changes(plan: Plan) -> str:
    return "\n".join(
        f"  {path}: {change.what}: {change.old} -> {change.new}"
        for path, change in plan.changes
    )


# --- PyPI: which xtc-* release builds which LLVM ----------------------------


def pypi_releases(package: str) -> list[str]:
    """The versions of `package` on PyPI that have files, not all of them yanked."""
    url = PYPI_JSON_URL.format(package=package)
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            data = json.load(response)
    except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as e:
        raise Refused(
            f"could not read {url}: {e}. Without network, pass --pypi-versions FILE "
            '(JSON: {"package": ["version", ...]}).'
        ) from e
    return [
        version
        for version, files in data.get("releases", {}).items()
        if files and not all(f.get("yanked") for f in files)
    ]


def load_releases(
    packages: list[str], versions_file: Path | None
) -> dict[str, list[str]]:
    if versions_file is None:
        return {package: pypi_releases(package) for package in packages}
    data = json.loads(versions_file.read_text(encoding="utf-8"))
    releases = {}
    for package in packages:
        if package not in data:
            raise Refused(f"{versions_file} lists no versions of {package}")
        found = data[package]
        releases[package] = [found] if isinstance(found, str) else list(found)
    return releases


def _release_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def newest_release(package: str, llvm_version: str, versions: list[str]) -> str:
    prefix = f"{llvm_version}."
    builds = [
        v for v in versions if v.startswith(prefix) and NUMERIC_RELEASE_RE.fullmatch(v)
    ]
    if not builds:
        known = ", ".join(sorted(versions)) or "none"
        raise Refused(
            f"PyPI has no release of {package} for LLVM {llvm_version} (no version "
            f"starting with {prefix!r}; it has: {known}). Pick an LLVM version that "
            "the prebuilt packages exist for (--print-newest)."
        )
    return max(builds, key=_release_key)


def newest_llvm(releases: dict[str, list[str]]) -> str:
    """The newest LLVM version that every package has a build of."""
    per_package = [
        {
            ".".join(v.split(".")[:3])
            for v in versions
            if NUMERIC_RELEASE_RE.fullmatch(v) and v.count(".") >= 3
        }
        for versions in releases.values()
    ]
    common = set.intersection(*per_package) if per_package else set()
    if not common:
        raise Refused(
            "no LLVM version has a release of every package: "
            + ", ".join(sorted(releases))
        )
    return max(common, key=_release_key)


# --- Verification and the report --------------------------------------------


@dataclass
class StepResult:
    name: str
    command: list[str]
    returncode: int | None  # None: not run
    output: str = ""
    seconds: float = 0.0
    log: Path | None = None
    note: str = ""

    @property
    def passed(self) -> bool:
        return self.returncode == 0


def verify_commands(repo: Path) -> list[tuple[str, list[str]]]:
    python = sys.executable
    lit = (
        shutil.which("lit", path=str(Path(python).parent))
        or shutil.which("lit")
        or "lit"
    )
    return [
        (
            "install",
            [
                python,
                "-m",
                "pip",
                "install",
                "-r",
                "build_tools/requirements/build.txt",
            ],
        ),
        ("build", [python, "build_tools/build.py"]),
        ("lit", [lit, "-v", "test/lit"]),
        ("e2e", [python, "-m", "pytest", "-rfE", "test/e2e"]),
    ]


def run_step(repo: Path, name: str, command: list[str], log: Path) -> StepResult:
    """Run a command in `repo`, echoing its output and keeping it."""
    print(f"bump-llvm: [{name}] {' '.join(command)}", flush=True)
    start = time.monotonic()
    lines = []
    env = dict(os.environ)
    # The e2e suites import the package from the build, as `nox -s e2e` runs them.
    built = str(repo / "build" / "python_packages")
    if built not in env.get("PYTHONPATH", "").split(os.pathsep):
        env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [built, env.get("PYTHONPATH")])
        )
    with subprocess.Popen(
        command,
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            sys.stdout.write(line)
            lines.append(line)
    output = "".join(lines)
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(output, encoding="utf-8")
    return StepResult(
        name, command, process.returncode, output, time.monotonic() - start, log
    )


def verify(repo: Path, logs: Path) -> list[StepResult]:
    results: list[StepResult] = []
    for name, command in verify_commands(repo):
        blocker = next(
            (r for r in results if r.name in ("install", "build") and not r.passed),
            None,
        )
        if blocker:
            results.append(
                StepResult(name, command, None, note=f"skipped: {blocker.name} failed")
            )
            continue
        try:
            results.append(run_step(repo, name, command, logs / f"{name}.log"))
        except OSError as e:
            results.append(StepResult(name, command, 127, output=str(e), note=str(e)))
    return results


_COMPILE_ERROR_RE = re.compile(
    r"^(?P<file>[^\s:][^:\n]*):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<message>.*)$",
    re.MULTILINE,
)
_CMAKE_ERROR_RE = re.compile(
    r"^CMake Error at (?P<file>[^:\n]+):(?P<line>\d+)", re.MULTILINE
)
_LINK_ERROR_RE = re.compile(
    r"^\S*(?:ld(?:\.lld|\.gold)?|collect2)(?:\.exe)?: error: (.*)$", re.MULTILINE
)
_LIT_FAILURE_RE = re.compile(
    r"^(?P<status>FAIL|XPASS|UNRESOLVED|TIMEOUT): (?P<test>.+?)(?: \(\d+ of \d+\))?$",
    re.MULTILINE,
)
_PYTEST_FAILURE_RE = re.compile(
    r"^(?P<status>FAILED|ERROR) (?P<test>\S+)(?: - (?P<reason>.*))?$", re.MULTILINE
)


def _relative(path: str, repo: Path) -> str:
    for root in {str(repo), str(repo.resolve())}:
        if path.startswith(root + os.sep):
            return path[len(root) + 1 :]
    return path


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def compile_errors(output: str, repo: Path) -> list[str]:
    """`file:line:col: message` of every compiler error, paths relative to the repo."""
    return _unique(
        [
            f"{_relative(m['file'], repo)}:{m['line']}:{m['col']}: {m['message'].strip()}"
            for m in _COMPILE_ERROR_RE.finditer(output)
        ]
    )


def cmake_errors(output: str, repo: Path) -> list[str]:
    return _unique(
        [
            f"{_relative(m['file'], repo)}:{m['line']}"
            for m in _CMAKE_ERROR_RE.finditer(output)
        ]
    )


def link_errors(output: str) -> list[str]:
    return _unique([m.group(1).strip() for m in _LINK_ERROR_RE.finditer(output)])


def lit_failures(output: str) -> list[str]:
    """The tests of lit's `FAIL:` (and XPASS/UNRESOLVED/TIMEOUT) lines."""
    return _unique(
        [
            m["test"] if m["status"] == "FAIL" else f"{m['test']} ({m['status']})"
            for m in _LIT_FAILURE_RE.finditer(output)
        ]
    )


def pytest_failures(output: str) -> list[str]:
    """The `FAILED ...` / `ERROR ...` lines of pytest's short summary."""
    return _unique(
        [
            m["test"]
            + (f" ({m['status']})" if m["status"] == "ERROR" else "")
            + (f" - {m['reason'].strip()}" if m["reason"] else "")
            for m in _PYTEST_FAILURE_RE.finditer(output)
        ]
    )


def _listing(title: str, items: list[str]) -> list[str]:
    if not items:
        return []
    lines = [f"### {title} ({len(items)})", ""]
    lines += [f"- `{item[:300]}`" for item in items[:MAX_LISTED]]
    if len(items) > MAX_LISTED:
        lines.append(f"- ... and {len(items) - MAX_LISTED} more (see the log)")
    return lines + [""]


def render_report(
    repo: Path, plan: Plan, results: list[StepResult] | None, command: str
) -> str:
    """The Markdown report: what changed, then what the verification found."""
    lines = [
        f"# Bump LLVM {plan.old_version} -> {plan.new_version}",
        "",
        f"Made by `{command}`: tag `llvmorg-{plan.new_version}`, commit `{plan.commit}`.",
        "",
        "## What changed",
        "",
        "| file | statement | old | new |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| `{path}` | {change.what} | `{change.old}` | `{change.new}` |"
        for path, change in plan.changes
    ]
    lines += ["", "## Verification", ""]
    if results is None:
        lines += ["Not run (`--no-verify`). Run `nox -s tests` (or `pixi run test`)."]
        return "\n".join(lines) + "\n"

    failed = [r for r in results if r.returncode not in (0, None)]
    verdict = "passed" if not failed else "FAILED: " + ", ".join(r.name for r in failed)
    lines += [
        f"**{verdict}**",
        "",
        "| step | command | result | time |",
        "| --- | --- | --- | --- |",
    ]
    for r in results:
        shown = " ".join(_relative(c, repo) for c in r.command).replace("|", "\\|")
        result = r.note or ("ok" if r.passed else f"failed (exit {r.returncode})")
        lines.append(f"| {r.name} | `{shown}` | {result} | {r.seconds:.0f} s |")
    lines.append("")

    by_name = {r.name: r for r in results}
    build_output = "".join(
        by_name[n].output for n in ("install", "build") if n in by_name
    )
    lines += _listing("Compile errors", compile_errors(build_output, repo))
    lines += _listing("CMake errors", cmake_errors(build_output, repo))
    lines += _listing("Link errors", link_errors(build_output))
    if "lit" in by_name:
        lines += _listing("Failing lit tests", lit_failures(by_name["lit"].output))
    if "e2e" in by_name:
        lines += _listing(
            "Failing pytest tests", pytest_failures(by_name["e2e"].output)
        )

    logs = [r for r in results if r.log]
    if logs:
        lines += ["### Logs", ""]
        lines += [f"- {r.name}: `{_relative(str(r.log), repo)}`" for r in logs]
        lines.append("")
    tails = []
    for r in failed:
        tail = [line[:300] for line in r.output.splitlines()[-LOG_TAIL_LINES:]]
        tails += [
            f"<details><summary>last {len(tail)} lines of {r.name}</summary>",
            "",
            "```",
            *tail,
            "```",
            "",
            "</details>",
            "",
        ]
    report = "\n".join(lines + tails)
    if len(report) > MAX_REPORT_CHARS:
        report = "\n".join(lines) + "\n(log tails left out: the report is too long)\n"
    return report[:MAX_REPORT_CHARS]


# --- Command line -----------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="See the module docstring (head of build_tools/bump_llvm.py) for the sites and the report.",
    )
    parser.add_argument(
        "--to", metavar="VERSION", help="the LLVM version to pin, e.g. 22.1.9"
    )
    parser.add_argument(
        "--commit",
        help="the 40-hex commit of tag llvmorg-VERSION (required unless VERSION is the current pin)",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the planned changes as diffs; write nothing",
    )
    parser.add_argument(
        "--no-verify",
        action="store_true",
        help="rewrite the pin only: no build, lit or pytest",
    )
    parser.add_argument(
        "--report",
        type=Path,
        help="where to write the Markdown report (default: reports/bump-llvm-VERSION.md)",
    )
    parser.add_argument(
        "--pypi-versions",
        type=Path,
        metavar="FILE",
        help='JSON {"package": ["version", ...]} to use instead of asking PyPI',
    )
    parser.add_argument(
        "--print-newest",
        action="store_true",
        help="print the newest LLVM version that every pinned xtc-* package has a release of, and exit",
    )
    parser.add_argument(
        "--repo",
        type=Path,
        default=REPO,
        help="the repository to rewrite (default: this one)",
    )
    args = parser.parse_args(argv)
    repo = args.repo.resolve()

    try:
        if args.print_newest:
            packages = list(pin_sites.read_pin(repo).get("pypi", {}))
            print(newest_llvm(load_releases(packages, args.pypi_versions)))
            return 0
        if not args.to:
            parser.error("--to VERSION is required (or --print-newest)")
        if not VERSION_RE.fullmatch(args.to):
            raise Refused(
                f"--to {args.to!r} is not an LLVM release version like 22.1.8"
            )
        commit = args.commit.lower() if args.commit else None
        if commit is not None and not COMMIT_RE.fullmatch(commit):
            raise Refused(f"--commit {args.commit!r} is not a full 40-hex commit SHA")
        check_agreement(repo)  # before asking PyPI anything
        packages = list(pin_sites.read_pin(repo)["pypi"])
        plan = plan_bump(
            repo, args.to, commit, load_releases(packages, args.pypi_versions)
        )
    except (Refused, OSError, ValueError) as e:  # ValueError: bad TOML or JSON
        print(f"bump-llvm: refused, nothing written: {e}", file=sys.stderr)
        return 2

    if not plan.changes:
        print(
            f"bump-llvm: LLVM is already pinned to {plan.new_version} (commit {plan.commit}) "
            "and the xtc-* packages to its newest builds: nothing to change."
        )
        return 0
    print(
        f"bump-llvm: LLVM {plan.old_version} -> {plan.new_version}:\n{render_changes(plan)}"
    )
    if args.dry_run:
        sys.stdout.write(render_diff(plan))
        print("bump-llvm: dry run, nothing written.")
        return 0

    try:
        apply_plan(repo, plan)
    except (OSError, pin_sites.GitUnavailable) as e:
        print(f"bump-llvm: refused, nothing written: {e}", file=sys.stderr)
        return 2
    print(
        f"bump-llvm: rewrote {', '.join(e.path for e in plan.edits)}"
        + (f" and the {pin_sites.SUBMODULE} gitlink" if plan.gitlink else "")
    )
    if plan.gitlink and (repo / pin_sites.SUBMODULE / ".git").exists():
        print(
            f"bump-llvm: {pin_sites.SUBMODULE} is checked out at the old commit; before "
            "`git commit -a`, move it too: `git submodule update --init --depth 1 "
            f"{pin_sites.SUBMODULE}` (or the gitlink goes back)."
        )

    report_path = args.report or repo / "reports" / f"bump-llvm-{plan.new_version}.md"
    logs = report_path.parent / f"{report_path.stem}-logs"
    results = None if args.no_verify else verify(repo, logs)
    command = shlex.join(
        ["build_tools/bump_llvm.py", *(argv if argv is not None else sys.argv[1:])]
    )
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(
        render_report(repo, plan, results, command), encoding="utf-8"
    )
    print(f"bump-llvm: report in {report_path}")
    if results is not None and any(r.returncode not in (0, None) for r in results):
        print("bump-llvm: verification failed; see the report.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
