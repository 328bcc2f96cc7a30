"""The ONNX conformance suite: ONNX's node test cases, compiled and run.

The installed ``onnx`` package generates its node test cases
(``onnx.backend.test.case.node``: one small model per op and variant, with
inputs and expected outputs from the ONNX reference). Each case whose inputs
and outputs are tensors (any element type) is compiled with
:func:`torch2mlir.compile_onnx`, run on every data set and compared with the
expected outputs: rtol 1e-3 / atol 1e-5 for floating point, exact for
integers and bools.

Cases run in worker processes, so a crash (an abort in code generation, a
hang) fails that case only::

    python test/e2e/onnx_conformance.py                # all, summary by op
    python test/e2e/onnx_conformance.py -k test_conv   # names containing it
    python test/e2e/onnx_conformance.py --case test_relu --verbose  # one, in-process

The summary goes to stdout; ``--json``/``--markdown`` write the full table.
Expected failures are listed in ``xfail/onnx-conformance.toml`` (case name ->
reason, whole).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
import tomllib
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from workers import Worker, pool_map, serve

HERE = Path(__file__).resolve().parent
XFAIL_FILE = HERE / "xfail" / "onnx-conformance.toml"

#: (rtol, atol) of floating-point outputs; the ONNX backend test defaults.
RTOL, ATOL = 1e-3, 1e-5

#: Seconds one case may take (import + compile + run) before it is killed.
CASE_TIMEOUT = 120.0

# TensorProto element types the suite runs: every tensor element type. A
# type the importer refuses (STRING, FLOAT4E2M1) counts as an error.
_TENSOR_TYPES = set(range(1, 27))


@dataclass
class Result:
    """The outcome of one case.

    ``status``: ``pass``, ``fail`` (wrong values), ``error`` (import or
    compile raised a torch2mlir error), ``crash`` (the worker died or
    raised something else) or ``timeout``.
    """

    name: str
    op: str
    status: str
    message: str = ""
    seconds: float = 0.0


def _is_numeric_tensor(value_info: Any) -> bool:
    kind = value_info.type.WhichOneof("value")
    return (
        kind == "tensor_type" and value_info.type.tensor_type.elem_type in _TENSOR_TYPES
    )


def _op_of(case: Any) -> str:
    """The op under test: the single node's type, else the case's name root."""
    nodes = case.model.graph.node
    if len(nodes) == 1:
        return nodes[0].op_type
    types = {node.op_type for node in nodes}
    name = case.name.removeprefix("test_")
    for op in sorted(types, key=len, reverse=True):
        if name.startswith(op.lower()):
            return op
    return "(" + nodes[0].op_type + " graph)"


def collect_cases() -> dict[str, Any]:
    """The eligible node test cases by name (tensor inputs and outputs)."""
    import warnings

    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    eligible = {}
    for case in cases:
        graph = case.model.graph
        if all(_is_numeric_tensor(v) for v in [*graph.input, *graph.output]):
            eligible[case.name] = case
    return eligible


def load_xfails() -> dict[str, str]:
    """Expected failures: case name -> reason (non-empty)."""
    with XFAIL_FILE.open("rb") as file:
        table = tomllib.load(file)
    for name, reason in table.items():
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError(f"{XFAIL_FILE}: {name!r} needs a non-empty reason")
    return table


def compare(expected: np.ndarray, actual: np.ndarray, what: str) -> str:
    """'' if `actual` matches `expected`, else why not."""
    expected = np.asarray(expected)
    if actual.shape != expected.shape:
        return f"{what}: shape {actual.shape}, expected {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"{what}: dtype {actual.dtype}, expected {expected.dtype}"
    if expected.dtype.name == "bfloat16" or expected.dtype.name.startswith(
        ("float8", "float4")
    ):
        # ml_dtypes' bfloat16 and float8 are not np.floating: compare their
        # values (exactly widened to float32) so that NaN matches NaN.
        expected, actual = expected.astype(np.float32), actual.astype(np.float32)
    if np.issubdtype(expected.dtype, np.floating):
        close = np.isclose(actual, expected, rtol=RTOL, atol=ATOL, equal_nan=True)
    else:
        close = actual == expected
    if close.all():
        return ""
    bad = np.argwhere(~close)[0]
    index = tuple(int(i) for i in bad)
    return (
        f"{what}: {int((~close).sum())} of {close.size} elements differ, e.g. at "
        f"{index}: {actual[index]!r} vs expected {expected[index]!r}"
    )


def _as_arrays(values: list[Any]) -> list[Any]:
    """The data set's values as numpy arrays (some cases, e.g. CastLike's,
    store TensorProtos)."""
    import onnx
    from onnx import numpy_helper

    return [
        numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v
        for v in values
    ]


def run_case(case: Any) -> Result:
    """Compiles and runs one case in this process."""
    import torch2mlir

    op = _op_of(case)
    start = time.perf_counter()
    try:
        compiled = torch2mlir.compile_onnx(case.model)
        for index, (inputs, outputs) in enumerate(case.data_sets):
            inputs, outputs = _as_arrays(inputs), _as_arrays(outputs)
            actual = compiled(*inputs)
            for i, (want, got) in enumerate(zip(outputs, actual)):
                problem = compare(want, got, f"data set {index}, output {i}")
                if problem:
                    return Result(
                        case.name, op, "fail", problem, time.perf_counter() - start
                    )
    except torch2mlir.Torch2MlirError as error:
        message = str(error).strip().splitlines()
        return Result(
            case.name, op, "error", " | ".join(message[:4]), time.perf_counter() - start
        )
    except Exception as error:  # noqa: BLE001 - any other failure is a crash
        return Result(
            case.name,
            op,
            "crash",
            f"{type(error).__name__}: {error}".splitlines()[0],
            time.perf_counter() - start,
        )
    return Result(case.name, op, "pass", "", time.perf_counter() - start)


def _worker() -> None:
    """Reads case names on stdin, writes one JSON result per line."""
    cases = collect_cases()
    serve(lambda name: [asdict(run_case(cases[name]))])


def run_all(
    names: list[str], cases: dict[str, Any], jobs: int = 2
) -> dict[str, Result]:
    """Runs `names` in `jobs` worker processes; a dead worker is replaced."""
    results: dict[str, Result] = {}

    def work(worker: Worker, name: str) -> None:
        start = time.perf_counter()
        raw = worker.receive(CASE_TIMEOUT) if worker.send(name) else None
        if raw is None:
            elapsed = time.perf_counter() - start
            if worker.timed_out:
                result = Result(
                    name,
                    _op_of(cases[name]),
                    "timeout",
                    f"killed after {CASE_TIMEOUT:.0f} s",
                    elapsed,
                )
            else:
                result = Result(
                    name,
                    _op_of(cases[name]),
                    "crash",
                    f"the worker process died (exit code {worker.exit_code()})",
                    elapsed,
                )
            worker.restart()
        else:
            result = Result(**raw)
        results[name] = result

    pool_map(names, work, [sys.executable, __file__, "--worker"], jobs)
    return results


def summarize(results: dict[str, Result]) -> str:
    """Pass counts by op, most failing first, and the totals."""
    by_op: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for result in results.values():
        by_op[result.op][result.status] += 1
    lines = [f"{'op':<28} {'pass':>5} {'total':>6}  not passing"]
    for op, counts in sorted(
        by_op.items(),
        key=lambda item: (item[1]["pass"] - sum(item[1].values()), item[0]),
    ):
        total = sum(counts.values())
        rest = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != "pass")
        lines.append(f"{op:<28} {counts['pass']:>5} {total:>6}  {rest}")
    passed = sum(r.status == "pass" for r in results.values())
    ops_all = sum(c["pass"] == sum(c.values()) for c in by_op.values())
    lines.append(
        f"ONNX node conformance: {passed}/{len(results)} cases pass "
        f"({100.0 * passed / max(1, len(results)):.1f}%); {ops_all}/{len(by_op)} ops "
        "pass every case"
    )
    return "\n".join(lines)


def reason_of(result: Result) -> str:
    """A one-line expected-failure reason from a result's message."""
    import re

    message = result.message
    if result.status == "fail":
        return "wrong values: " + message
    if result.status in ("crash", "timeout"):
        return f"{result.status}: {message}"
    # "<description> failed: | loc(...): <the diagnostic> | note: ..."
    parts = [p.strip() for p in message.split(" | ")]
    main = parts[1] if len(parts) > 1 and parts[0].endswith("failed:") else parts[0]
    main = re.sub(r"^loc\([^)]*\)(\([^)]*\))?: ", "", main)
    return main.split("; convert the model")[0]


def write_xfails(results: dict[str, Result]) -> None:
    """Rewrites xfail/onnx-conformance.toml: every failing case, with its reason (an
    existing reason is kept while the case still fails)."""
    old = load_xfails() if XFAIL_FILE.exists() else {}
    lines = [
        '# ONNX node conformance cases that do not pass yet: case = "reason".',
        "# Regenerate after a change: python test/e2e/onnx_conformance.py --write-xfails",
        "",
    ]
    for name in sorted(results):
        result = results[name]
        if result.status == "pass":
            continue
        reason = old.get(name) or reason_of(result)
        lines.append(f"{name} = {json.dumps(reason)}")
    XFAIL_FILE.write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "-k", dest="filter", default="", help="run names containing this"
    )
    parser.add_argument("--case", help="run one case in this process")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--json", type=Path, help="write every result here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    parser.add_argument("--verbose", action="store_true", help="print every failure")
    parser.add_argument(
        "--write-xfails",
        action="store_true",
        help="rewrite xfail/onnx-conformance.toml from this run (all cases only)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker()
        return 0
    cases = collect_cases()
    if args.case:
        try:
            result = run_case(cases[args.case])
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            return 1
        print(f"{result.name}: {result.status} {result.message}")
        return 0 if result.status == "pass" else 1
    names = sorted(n for n in cases if args.filter in n)
    start = time.perf_counter()
    results = run_all(names, cases, args.jobs)
    xfails = load_xfails()
    unexpected = [
        r for r in results.values() if (r.status == "pass") == (r.name in xfails)
    ]
    if args.verbose:
        for result in sorted(results.values(), key=lambda r: r.name):
            if result.status != "pass":
                print(f"{result.name} [{result.op}] {result.status}: {result.message}")
    print(summarize(results))
    print(f"{len(results)} cases in {time.perf_counter() - start:.0f} s")
    for result in sorted(unexpected, key=lambda r: r.name):
        kind = "unexpected pass" if result.status == "pass" else "unexpected failure"
        print(f"{kind}: {result.name}: {result.message}")
    if args.write_xfails:
        if args.filter:
            parser.error("--write-xfails needs a run of all cases (no -k)")
        write_xfails(results)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                [asdict(r) for r in sorted(results.values(), key=lambda r: r.name)],
                indent=1,
            )
        )
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        rows = ["| case | op | status | reason |", "| --- | --- | --- | --- |"]
        for r in sorted(results.values(), key=lambda r: r.name):
            rows.append(
                f"| {r.name} | {r.op} | {r.status} | {r.message.replace('|', '/')} |"
            )
        args.markdown.write_text("\n".join(rows) + "\n")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
