"""A bounded run of each fuzzer (test/fuzz/run.py; about 30 s each): no
crash, no untyped exception, no wrong value, except the seeds
test/fuzz/xfail.toml lists with their reason. `nox -s fuzz` runs the long
campaign."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
#: fuzzer -> seeds run in CI (0 .. N-1).
SEEDS = {"onnx": 200, "opt": 150, "opinfo": 100}


@pytest.mark.parametrize("fuzzer", sorted(SEEDS))
def test_bounded_fuzzing(fuzzer: str, tmp_path: Path) -> None:
    table = tomllib.loads((FUZZ / "xfail.toml").read_text()).get(fuzzer, {})
    known = {int(seed): reason for seed, reason in table.items()}
    report = tmp_path / "fuzz.json"
    run = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "run.py"),
            "--fuzzer",
            fuzzer,
            "--cases",
            str(SEEDS[fuzzer]),
            "--json",
            str(report),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert report.exists(), run.stdout + run.stderr
    records = {record["seed"]: record for record in json.loads(report.read_text())}
    assert len(records) == SEEDS[fuzzer], run.stdout
    failing = {
        seed
        for seed, record in records.items()
        if record["outcome"] in ("crash", "untyped", "wrong")
    }
    new = sorted(failing - set(known))
    assert not new, "new fuzz failures:\n" + "\n".join(
        f"{records[s]}\n  rerun: python test/fuzz/run.py --fuzzer {fuzzer} --case {s}"
        for s in new
    )
    fixed = sorted(set(known) - failing)
    assert not fixed, (
        f"{fuzzer} seeds {fixed} pass now: remove them from test/fuzz/xfail.toml"
    )
