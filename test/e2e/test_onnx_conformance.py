"""ONNX's node test cases through torch2mlir.compile_onnx (see onnx_conformance.py).

All cases run once per session in worker processes; each case is then one
test, which must pass unless ``xfail/onnx-conformance.toml`` lists it with a reason (and
then it must still fail, so the list cannot go stale).
"""

from __future__ import annotations

import os

import pytest
from onnx_conformance import Result, collect_cases, load_xfails, run_all

CASES = collect_cases()
XFAILS = load_xfails()


@pytest.fixture(scope="session")
def results() -> dict[str, Result]:
    return run_all(sorted(CASES), CASES, jobs=os.cpu_count() or 2)


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
