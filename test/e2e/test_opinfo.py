"""The OpInfo harness (opinfo.py) on a few ops, end to end.

Runs ``opinfo.py`` as `nox -s opinfo` does, in a subprocess with one worker,
on ``add`` and ``nn.functional.relu`` (which pass), ``bernoulli`` (random: not
in scope), ``resize_`` (in-place: not in scope) and ``igammac`` (exports to an
op torch2mlir does not define), then checks the JSON document and the
Markdown table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
OPS = ["add", "nn.functional.relu", "bernoulli", "resize_", "igammac"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("opinfo")
    argv = [sys.executable, str(HERE / "opinfo.py"), "--jobs", "1", "--samples", "2"]
    argv.append("--no-progress")
    for op in OPS:
        argv += ["--op", op]
    for dtype in ("float32", "int64"):
        argv += ["--dtype", dtype]
    argv += ["--json", str(out / "opinfo.json"), "--markdown", str(out / "opinfo.md")]
    env = dict(os.environ, TORCH2MLIR_CACHE_DIR=str(out / "cache"))
    process = subprocess.run(
        argv, capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert process.returncode == 0, process.stderr[-3000:]
    return {
        "stdout": process.stdout,
        "json": json.loads((out / "opinfo.json").read_text()),
        "markdown": (out / "opinfo.md").read_text(),
    }


def _pair(document: dict, op: str, dtype: str) -> dict:
    matches = [p for p in document["pairs"] if (p["op"], p["dtype"]) == (op, dtype)]
    assert len(matches) == 1, f"{op} {dtype}: {matches}"
    return matches[0]


def test_json_schema(run: dict) -> None:
    document = run["json"]
    assert document["schema"] == "torch2mlir-opinfo/1"
    assert set(document) >= {
        "torch",
        "settings",
        "summary",
        "summary_line",
        "top_reasons",
        "pairs",
        "samples",
    }
    assert document["settings"]["samples_per_pair"] == 2
    for pair in document["pairs"]:
        assert set(pair) == {
            "op",
            "dtype",
            "status",
            "reason",
            "reproduce",
            "core_aten",
            "counts",
        }
        assert pair["status"] in ("pass", "fail", "unsupported", "not in scope")
        assert pair["dtype"] in ("float32", "int64")
        # Every pair that does not pass says why.
        assert (pair["status"] == "pass") != bool(pair["reason"]), pair
    for sample in document["samples"]:
        assert sample["status"] in ("pass", "fail", "unsupported", "skip")
        if sample["status"] == "fail":
            assert sample["reproduce"].startswith("python test/e2e/opinfo.py --op ")
    summary = document["summary"]
    for key in ("core_ops", "samples", "pairs"):
        assert 0 <= summary[key + "_passing"] <= summary[key]


def test_passing_ops(run: dict) -> None:
    document = run["json"]
    for op in ("add", "nn.functional.relu"):
        for dtype in ("float32", "int64"):
            pair = _pair(document, op, dtype)
            assert pair["status"] == "pass", pair
            assert pair["core_aten"], pair
            assert pair["counts"] == {"pass": 2}, pair


def test_out_of_scope_ops(run: dict) -> None:
    document = run["json"]
    bernoulli = _pair(document, "bernoulli", "float32")
    assert bernoulli["status"] == "not in scope"
    assert "random op aten." in bernoulli["reason"]
    resize = _pair(document, "resize_", "float32")
    assert resize == {**resize, "status": "not in scope", "counts": {}}
    assert "in-place" in resize["reason"]


def test_unsupported_op_names_the_op(run: dict) -> None:
    # igammac exports to aten.igammac, which torch2mlir does not define (yet:
    # pick another op when it does).
    pair = _pair(run["json"], "igammac", "float32")
    assert pair["status"] == "unsupported", pair
    assert "aten.igammac" in pair["reason"]
    assert pair["reproduce"] == (
        "python test/e2e/opinfo.py --op igammac --dtype float32 --sample 0"
    )


def test_markdown_and_summary_line(run: dict) -> None:
    markdown = run["markdown"]
    assert "| add | yes | ✅ |" in markdown
    assert "| igammac |" in markdown and "aten.igammac" in markdown
    line = run["json"]["summary_line"]
    assert line in markdown
    assert line in run["stdout"]
    assert line.startswith("OpInfo: Core ATen forward ops passing")


def test_index_outputs_may_differ_only_among_ties() -> None:
    """sort/argsort/topk indices are checked by what they select: another
    order among equal values passes, an index of another value fails, and
    stable=True compares exactly."""
    import torch
    from opinfo import _same_up_to_ties
    from torch.testing._internal.opinfo.core import SampleInput

    x = torch.tensor([[3, 1, 3, 2]])
    eager = torch.sort(x, dim=1)
    values = eager.values
    swapped = torch.tensor([[1, 3, 2, 0]])  # the two 3s in the other order
    assert (eager.indices != swapped).any()
    sample = SampleInput(x, args=(1,))
    assert _same_up_to_ties("sort", sample, (values, swapped), tuple(eager))
    wrong = torch.tensor([[1, 3, 0, 0]])  # selects the right values, twice index 0
    assert not _same_up_to_ties("sort", sample, (values, wrong), tuple(eager))
    other = torch.tensor([[1, 0, 2, 3]])  # selects 1, 3, 3, 2: not sorted
    assert not _same_up_to_ties("sort", sample, (values, other), tuple(eager))
    stable = SampleInput(x, args=(1,), kwargs={"stable": True})
    assert not _same_up_to_ties("sort", stable, (values, swapped), tuple(eager))
    assert _same_up_to_ties(
        "argsort", SampleInput(x, args=(1,)), swapped, eager.indices
    )
    top = torch.topk(x, 2, dim=1)
    assert _same_up_to_ties(
        "topk",
        SampleInput(x, args=(2, 1)),
        (top.values, torch.tensor([[2, 0]])),
        tuple(top),
    )
    assert not _same_up_to_ties(
        "topk",
        SampleInput(x, args=(2, 1)),
        (top.values, torch.tensor([[2, 3]])),
        tuple(top),
    )
    assert not _same_up_to_ties("add", sample, swapped, eager.indices)


def test_backend_counts_out_dtypes_it_cannot_express() -> None:
    """With the tosa backend, the pairs of a dtype TOSA 1.0 lacks (float64,
    unsigned, complex) are counted out by rule, before running: not in scope
    with that reason, in no total, listed in the summary; int64 and the
    TOSA dtypes stay in scope, and linalg-on-tensors counts nothing out."""
    from opinfo import (
        DTYPE_NAMES,
        SampleResult,
        backend_scope_reason,
        reproducer,
        summarize_pairs,
        summary,
        summary_line,
    )

    assert "TOSA 1.0 has no float64" in backend_scope_reason("tosa", "float64")
    assert "unsigned" in backend_scope_reason("tosa", "uint8")
    assert "unsigned" in backend_scope_reason("tosa", "uint16")
    assert "complex" in backend_scope_reason("tosa", "complex64")
    for dtype in ("float32", "float16", "bfloat16", "int8", "int16", "int32"):
        assert backend_scope_reason("tosa", dtype) == "", dtype
    assert backend_scope_reason("tosa", "bool") == ""
    assert backend_scope_reason("tosa", "int64") == ""  # narrowed to int32
    assert all(backend_scope_reason("linalg-on-tensors", d) == "" for d in DTYPE_NAMES)

    pairs = [("add", "float32"), ("add", "float64"), ("add", "int64")]
    out_of_scope = {
        pair: backend_scope_reason("tosa", pair[1])
        for pair in pairs
        if backend_scope_reason("tosa", pair[1])
    }
    assert list(out_of_scope) == [("add", "float64")]
    samples = [
        SampleResult("add", "float32", 0, "pass"),
        SampleResult("add", "int64", 0, "fail", "wrong values"),
    ]
    table = summarize_pairs(samples, pairs, out_of_scope, {"add"}, "tosa")
    by_dtype = {p.dtype: p for p in table}
    assert by_dtype["float64"].status == "not in scope"
    assert by_dtype["float64"].reason == out_of_scope[("add", "float64")]
    assert by_dtype["float64"].core_aten
    assert by_dtype["int64"].reproduce == reproducer("add", "int64", 0, "tosa")
    assert by_dtype["int64"].reproduce.endswith(" --backend tosa")
    numbers = summary(table, samples, "tosa")
    assert (numbers["pairs_passing"], numbers["pairs"]) == (1, 2)
    assert (numbers["core_pairs_passing"], numbers["core_pairs"]) == (1, 2)
    assert numbers["counted_out"] == {out_of_scope[("add", "float64")]: 1}
    assert numbers["core_counted_out"] == numbers["counted_out"]
    line = summary_line(numbers)
    assert line.startswith("OpInfo: Core ATen forward ops passing")
    assert "; backend tosa; counted out by rule, in no total: 1 pairs" in line
    assert "TOSA 1.0 has no float64 tensors 1 (Core ATen 1)" in line

    linalg = summary(summarize_pairs(samples, pairs, {}, {"add"}), samples)
    assert linalg["counted_out"] == {}
    assert summary_line(linalg).endswith("; backend linalg-on-tensors")
    assert reproducer("add", "int64", 0) == (
        "python test/e2e/opinfo.py --op add --dtype int64 --sample 0"
    )


def test_expected_failures_give_failing_pairs_their_reason(tmp_path: Path) -> None:
    """A failing pair listed in the expected-failure file becomes xfail with
    the listed reason; an unlisted one stays an unexpected failure; a listed
    pair that passes is stale; the summary line counts both kinds."""
    from opinfo import (
        SampleResult,
        apply_expected_failures,
        load_expected_failures,
        summarize_pairs,
        summary,
        summary_line,
    )

    listing = tmp_path / "opinfo.toml"
    listing.write_text(
        "[linalg-on-tensors]\n"
        '"polygamma.polygamma_n_1 int8" = "eager returns rounding noise at the poles"\n'
        '"add float32" = "was broken once"\n'
        "[tosa]\n"
        '"sin float16" = "other backend"\n'
    )
    expected = load_expected_failures("linalg-on-tensors", listing)
    assert expected == {
        (
            "polygamma.polygamma_n_1",
            "int8",
        ): "eager returns rounding noise at the poles",
        ("add", "float32"): "was broken once",
    }
    assert load_expected_failures("stablehlo", listing) == {}
    assert load_expected_failures("tosa", tmp_path / "missing.toml") == {}

    samples = [
        SampleResult("polygamma.polygamma_n_1", "int8", 0, "fail", "wrong values: x"),
        SampleResult("sin", "int8", 0, "fail", "wrong values: y"),
        SampleResult("add", "float32", 0, "pass"),
    ]
    pairs = [(s.op, s.dtype) for s in samples]
    table = summarize_pairs(samples, pairs, {}, set())
    stale = apply_expected_failures(table, expected)
    assert [p.status for p in table] == ["xfail", "fail", "pass"]
    assert table[0].reason.startswith(
        "expected failure: eager returns rounding noise at the poles (this run: wrong"
    )
    assert stale == ["add float32"]
    numbers = summary(table, samples)
    numbers["stale_expected_failures"] = stale
    assert (numbers["unexpected_failures"], numbers["expected_failures"]) == (1, 1)
    assert numbers["pairs_passing"] == 1
    line = summary_line(numbers)
    assert "failing pairs: 1 unexpected, 1 expected (xfail/opinfo.toml)" in line
    assert "listed as expected failures but passing: add float32" in line

    for bad in (
        '"add" = "no dtype"',
        '"add float8_e4m3b11fnuz" = "r"',
        '"add int8" = " "',
    ):
        listing.write_text(f"[tosa]\n{bad}\n")
        with pytest.raises(ValueError, match="keys are 'op dtype'"):
            load_expected_failures("tosa", listing)


def test_expected_failures_name_real_opinfos() -> None:
    """Every entry of xfail/opinfo.toml names an OpInfo and one of its CPU
    dtypes, for a backend that exists, with a reason."""
    import tomllib

    from opinfo import (
        EXPECTED_FAILURES,
        backend_names,
        load_expected_failures,
        load_op_db,
        op_dtypes,
    )

    ops = load_op_db()
    backends = tomllib.loads(EXPECTED_FAILURES.read_text())
    assert set(backends) <= set(backend_names()), sorted(backends)
    for backend in backends:
        for (op, dtype), reason in load_expected_failures(backend).items():
            assert op in ops, f"[{backend}] {op}: no such OpInfo"
            assert dtype in op_dtypes(ops[op]), f"[{backend}] {op} {dtype}"
            assert len(reason) > 20, f"[{backend}] {op} {dtype}: give the reason"


def test_gradients_run_through_the_joint_graph(tmp_path: Path) -> None:
    """``--gradients``: the backward of a convolution and a max pool (their
    backward ops are torch2mlir's decompositions) pass against autograd;
    an op without a gradient (argmax) is out of scope."""
    argv = [sys.executable, str(HERE / "opinfo.py"), "--gradients", "--jobs", "1"]
    argv += ["--samples", "1", "--no-progress", "--json", str(tmp_path / "g.json")]
    for op in ("nn.functional.conv2d", "nn.functional.max_pool2d", "argmax"):
        argv += ["--op", op]
    env = dict(os.environ, TORCH2MLIR_CACHE_DIR=str(tmp_path / "cache"))
    process = subprocess.run(
        argv, capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert process.returncode == 0, process.stderr[-3000:]
    assert "gradients through the joint graph" in process.stdout
    document = json.loads((tmp_path / "g.json").read_text())
    assert document["settings"]["gradients"] is True
    status = {(p["op"], p["dtype"]): p["status"] for p in document["pairs"]}
    assert status[("nn.functional.conv2d", "float32")] == "pass", process.stdout
    assert status[("nn.functional.max_pool2d", "float32")] == "pass", process.stdout
    assert status[("argmax", "float32")] in ("skip", "not in scope"), status
    assert {dtype for _, dtype in status} == {"float32"}
