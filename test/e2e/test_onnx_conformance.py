"""ONNX's node test cases through torch2mlir.compile_onnx (see onnx_conformance.py).

All cases run once per session in worker processes; each case is then one
test, which must pass unless ``xfail/onnx-conformance.toml`` lists it with a reason (and
then it must still fail, so the list cannot go stale). Under pytest-xdist,
the first pytest worker to ask runs them and shares the results with the
others through a file (each worker ran every case, on every core, before).
"""

from __future__ import annotations

import dataclasses
import json
import os

import pytest
from filelock import FileLock
from onnx_conformance import Result, collect_cases, load_xfails, run_all

CASES = collect_cases()
XFAILS = load_xfails()


def _run_cases() -> dict[str, Result]:
    return run_all(sorted(CASES), CASES, jobs=os.cpu_count() or 2)


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Result]:
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return _run_cases()
    # The pytest workers' base temporary folders share this run's parent.
    shared = tmp_path_factory.getbasetemp().parent / "onnx-conformance.json"
    with FileLock(f"{shared}.lock"):
        if shared.is_file():
            saved = json.loads(shared.read_text())
            return {name: Result(**fields) for name, fields in saved.items()}
        found = _run_cases()
        shared.write_text(
            json.dumps({name: dataclasses.asdict(r) for name, r in found.items()})
        )
        return found


def test_xfail_entries_name_cases() -> None:
    unknown = sorted(set(XFAILS) - set(CASES))
    assert not unknown, (
        f"xfail/onnx-conformance.toml lists cases that do not exist: {unknown}"
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_node_case(name: str, results: dict[str, Result]) -> None:
    result = results[name]
    reproduce = f"python test/e2e/onnx_conformance.py --case {name}"
    if name in XFAILS:
        assert result.status != "pass", (
            f"{name} passes now: remove it from xfail/onnx-conformance.toml "
            f"(listed as: {XFAILS[name]})"
        )
        pytest.xfail(XFAILS[name])
    assert result.status == "pass", f"{result.status}: {result.message} ({reproduce})"
