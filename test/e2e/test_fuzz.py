"""A bounded run of the ONNX mutation fuzzer (test/fuzz/run.py, seeds 0-199,
about 30 s): no crash, no untyped exception, no wrong value, except the
seeds test/fuzz/xfail.toml lists with their reason. `nox -s fuzz` runs the
long campaign."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
SEEDS = 200


def test_bounded_onnx_mutation_fuzzing(tmp_path: Path) -> None:
    known = {
        int(seed): reason
        for seed, reason in tomllib.loads((FUZZ / "xfail.toml").read_text()).items()
    }
    report = tmp_path / "fuzz.json"
    run = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "run.py"),
            "--cases",
            str(SEEDS),
            "--json",
            str(report),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert report.exists(), run.stdout + run.stderr
    records = {record["seed"]: record for record in json.loads(report.read_text())}
    assert len(records) == SEEDS, run.stdout
    failing = {
        seed
        for seed, record in records.items()
        if record["outcome"] in ("crash", "untyped", "wrong")
    }
    new = sorted(failing - set(known))
    assert not new, "new fuzz failures:\n" + "\n".join(
        f"{records[s]}\n  rerun: python test/fuzz/run.py --case {s}" for s in new
    )
    fixed = sorted(set(known) - failing)
    assert not fixed, f"seeds {fixed} pass now: remove them from test/fuzz/xfail.toml"
