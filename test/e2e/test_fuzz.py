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


def test_the_onnx_fuzzers_float64_rule_accepts_only_results_no_farther() -> None:
    # y = Softmax(x) @ v in float16: the reference rounds every op to
    # float16. A result nearer the float64 computation (summed distances)
    # passes; one farther, or with an overflow the reference lacks, does not.
    sys.path.insert(0, str(FUZZ))
    import numpy as np
    import onnx_mutations
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    f16 = TensorProto.FLOAT16
    model = helper.make_model(
        helper.make_graph(
            [
                helper.make_node("Softmax", ["x"], ["p"], axis=-1),
                helper.make_node("MatMul", ["p", "v"], ["y"]),
            ],
            "g",
            [
                helper.make_tensor_value_info("x", f16, [4, 16]),
                helper.make_tensor_value_info("v", f16, [16, 8]),
            ],
            [helper.make_tensor_value_info("y", f16, [4, 8])],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    rng = np.random.default_rng(0)
    feeds = [rng.standard_normal(s).astype(np.float16) for s in ((4, 16), (16, 8))]
    want = ReferenceEvaluator(model).run(None, {"x": feeds[0], "v": feeds[1]})
    wide = onnx_mutations._widened(model)
    exact = ReferenceEvaluator(wide).run(
        None, {"x": feeds[0].astype(np.float64), "v": feeds[1].astype(np.float64)}
    )[0]

    def passes(got: np.ndarray) -> bool:
        return onnx_mutations._no_farther_from_exact(
            model, feeds, ["x", "v"], [got], want
        )

    assert passes(exact.astype(np.float16))  # rounded once: nearest
    assert passes(want[0])
    worse = want[0] + (want[0] - exact).astype(np.float16) * 4
    assert not passes(worse.astype(np.float16))
    overflow = want[0].copy()
    overflow[0, 0] = np.inf
    assert not passes(overflow)
