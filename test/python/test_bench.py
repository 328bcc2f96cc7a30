"""The pure logic of `python -m torch2mlir.tools.bench`, on made-up timings.

Statistics, geometric means, ratios, the text table, the JSON report and the
command line. Nothing here compiles a model or asserts anything about how
fast something runs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

try:
    from torch2mlir.tools import bench
except ImportError as error:  # fail loudly: a test that cannot run is a defect
    raise ImportError(
        f"{error}; build first: nox -s build (PYTHONPATH=build/python_packages)"
    ) from error


def _stats(median_ms: float) -> dict[str, Any]:
    return bench.summarize([median_ms / 1e3] * 3)


def _result(
    name: str,
    ours: tuple[float, float] | None,
    eager: tuple[float, float] | None,
    error: str | None = None,
    inductor: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """A workload result as run_workload makes it; `ours`/`eager`/`inductor`
    are the (all threads, one thread) medians in ms, or None if not measured."""
    result: dict[str, Any] = {
        "name": name,
        "description": name,
        "repeat": 3,
        "warmup": 1,
        "eager": {},
        "torch2mlir": {},
        "max_abs_error": None,
        "error": error,
        "peak_rss_mb": 512.0,
    }
    if ours is not None and eager is not None:
        result["torch2mlir"] = {
            "compile": {"export": 1.5, "import": 0.25, "lowering": 0.125, "jit": 2.0},
            "ready_s": 4.0,
            "first_ms": 10.0,
            "steady": {"all": _stats(ours[0]), "one": _stats(ours[1])},
        }
        result["eager"] = {
            "first_ms": 20.0,
            "ready_s": 0.02,
            "steady": {"all": _stats(eager[0]), "one": _stats(eager[1])},
        }
        result["max_abs_error"] = 1.5e-6
    if inductor is not None:
        result["inductor"] = {
            "first_ms": 16000.0,
            "ready_s": 16.0,
            "steady": {"all": _stats(inductor[0]), "one": _stats(inductor[1])},
        }
    return bench.add_ratios(result)


def _report(results: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "meta": {"threads": {"torch": 2, "torch2mlir": 2}},
        "workloads": results,
        "geomean": bench.summary(results),
        "rss_growth": {
            "workload": "mlp",
            "calls": 10000,
            "before_mb": 500.0,
            "after_mb": 500.25,
            "growth_mb": 0.25,
            "seconds": 3.0,
            "error": None,
        },
    }


def test_summarize_converts_to_milliseconds() -> None:
    stats = bench.summarize([0.003, 0.001, 0.002, 0.010])
    assert stats["n"] == 4
    assert stats["median"] == pytest.approx(2.5)
    assert stats["mean"] == pytest.approx(4.0)
    assert (stats["min"], stats["max"]) == (pytest.approx(1.0), pytest.approx(10.0))
    assert stats["samples"] == pytest.approx([3.0, 1.0, 2.0, 10.0])
    assert stats["stdev"] > 0


def test_summarize_one_sample_and_none() -> None:
    assert bench.summarize([0.5])["stdev"] == 0.0
    assert bench.summarize([0.5])["median"] == pytest.approx(500.0)
    with pytest.raises(ValueError, match="no samples"):
        bench.summarize([])


def test_geomean() -> None:
    assert bench.geomean([2.0, 8.0]) == pytest.approx(4.0)
    assert bench.geomean([0.5, 2.0, 1.0]) == pytest.approx(1.0)
    # Failed or unmeasured workloads are left out, not counted as 0 or inf.
    assert bench.geomean([4.0, None, 0.0, -1.0, math.nan, math.inf]) == pytest.approx(
        4.0
    )
    assert bench.geomean([None, None]) is None
    assert bench.geomean([]) is None


def test_ratio() -> None:
    assert bench.ratio(3.0, 2.0) == pytest.approx(1.5)
    assert bench.ratio(None, 2.0) is None
    assert bench.ratio(3.0, None) is None
    assert bench.ratio(3.0, 0.0) is None


def test_ratios_and_their_geomean() -> None:
    results = [
        _result("a", ours=(2.0, 4.0), eager=(1.0, 4.0), inductor=(4.0, 2.0)),
        _result("b", ours=(1.0, 1.0), eager=(2.0, 4.0), inductor=(4.0, 8.0)),
        _result("broken", ours=None, eager=None, error="CompileError: nope"),
    ]
    assert results[0]["ratio"] == {"all": pytest.approx(2.0), "one": pytest.approx(1.0)}
    assert results[1]["ratio"] == {
        "all": pytest.approx(0.5),
        "one": pytest.approx(0.25),
    }
    assert results[0]["ratio_inductor"] == {
        "all": pytest.approx(0.5),
        "one": pytest.approx(2.0),
    }
    assert results[0]["compile_ratio_inductor"] == pytest.approx(0.25)
    assert results[2]["ratio"] == {"all": None, "one": None}
    assert results[2]["ratio_inductor"] == {"all": None, "one": None}
    geo = bench.summary(results)
    assert geo["all"] == pytest.approx(1.0)
    assert geo["one"] == pytest.approx(0.5)
    assert geo["workloads"] == {"all": ["a", "b"], "one": ["a", "b"]}
    assert geo["inductor"]["all"] == pytest.approx(0.125**0.5)
    assert geo["inductor"]["one"] == pytest.approx(0.5)
    assert geo["compile_inductor"] == pytest.approx(0.25)


def test_ratios_without_inductor() -> None:
    result = _result("a", ours=(2.0, 4.0), eager=(1.0, 4.0))
    assert result["ratio_inductor"] == {"all": None, "one": None}
    assert result["compile_ratio_inductor"] is None
    assert bench.summary([result])["inductor"]["all"] is None


def test_table() -> None:
    results = [
        _result("matmul512", ours=(2.0, 4.0), eager=(1.0, 4.0), inductor=(4.0, 2.0)),
        _result("resnet50", ours=(1.0, 1.0), eager=(2.0, 4.0), inductor=(4.0, 8.0)),
        _result("broken", ours=None, eager=None, error="CompileError: no lowering"),
    ]
    results[2]["inductor"] = {"error": "BackendCompilerFailed: gcc"}
    text = bench.format_tables(_report(results))
    lines = text.splitlines()

    compile_header = next(
        i for i, line in enumerate(lines) if line.startswith("workload")
    )
    row = lines[compile_header + 1].split()
    assert row == [
        "matmul512",
        "1.500",
        "0.250",
        "0.125",
        "2.000",
        "3.875",
        "4.00",
        "16.00",
        "0.250",
    ]

    run_header = next(
        i
        for i, line in enumerate(lines)
        if line.startswith("workload") and "/eager" in line
    )
    header = lines[run_header]
    assert "t2m 2T" in header and "eager 1T" in header and "ind 1T" in header
    rows = {}
    for line in lines[run_header + 1 :]:
        if not line.strip() or line.startswith("noise"):
            break
        rows[line.split()[0]] = line
    # Right-aligned columns: every number ends where its header ends.
    for column, values in (
        ("/eager", {"matmul512": "2.00", "resnet50": "0.50", "geomean": "1.00"}),
        ("/ind", {"matmul512": "0.50", "resnet50": "0.25", "geomean": "0.35"}),
        ("/ind 1T", {"matmul512": "2.00", "resnet50": "0.12", "geomean": "0.50"}),
    ):
        end = header.index(f"{column}  ") + len(column)
        for name, value in values.items():
            assert rows[name][:end].endswith(value), (column, name, rows[name])
    # Nothing measured but the peak RSS.
    assert rows["broken"].split()[1:] == ["-"] * 11 + ["512", "-"]
    assert "FAILED broken: CompileError: no lowering" in text
    assert "inductor FAILED on broken: BackendCompilerFailed: gcc" in text
    noise = lines.index(next(line for line in lines if line.startswith("noise")))
    assert lines[noise + 2].split() == [
        "matmul512",
        "2T",
        "1.00/1.00/1.00",
        "2.00/2.00/2.00",
        "4.00/4.00/4.00",
        "-",
    ]
    assert "+0.25 MB (500.0 -> 500.2 MB" in text
    assert "own process" in text
    assert (
        "headline: torch2mlir / inductor, geomean over 2 workloads: 0.35 (2T)" in text
    )
    assert "WARNING" not in text


def test_round_ratios_pair_the_blocks_of_each_round() -> None:
    result = _result("vit", ours=(2.0, 4.0), eager=(1.0, 4.0), inductor=(4.0, 2.0))
    # Three rounds: torch2mlir's blocks, then inductor's, on all threads.
    result["torch2mlir"]["steady"]["all"]["block_medians"] = [2.0, 3.0, 1.0]
    result["inductor"]["steady"]["all"]["block_medians"] = [4.0, 2.0, 1.0]
    # One thread: inductor lost a round (a failed block): no pairing.
    result["torch2mlir"]["steady"]["one"]["block_medians"] = [4.0, 4.0]
    result["inductor"]["steady"]["one"]["block_medians"] = [2.0]
    bench.add_ratios(result)
    assert result["round_ratio_inductor"] == {
        "all": pytest.approx([0.5, 1.5, 1.0]),
        "one": [],
    }
    assert bench.round_ratios(result, "eager", "all") == []
    lines = bench.format_tables(_report([result])).splitlines()
    noise = lines.index(next(line for line in lines if line.startswith("noise")))
    assert "per round" in lines[noise + 1]
    assert lines[noise + 2].split()[-1] == "0.50-1.50"
    assert lines[noise + 3].split()[-1] == "-"


def test_table_warns_when_the_machine_was_busy() -> None:
    quiet = _result("mlp", ours=(1.0, 1.0), eager=(1.0, 1.0))
    quiet["others_cores"] = 0.01
    busy = _result("resnet18", ours=(1.0, 1.0), eager=(1.0, 1.0))
    busy["others_cores"] = 1.5
    text = bench.format_tables(_report([quiet, busy]))
    run_table = text.split("steady state")[1].split("noise")[0]
    rows = {
        line.split()[0]: line.split()
        for line in run_table.splitlines()[1:]
        if line.strip()
    }
    assert rows["mlp"][-1] == "0.01" and rows["resnet18"][-1] == "1.50"
    warning = next(line for line in text.splitlines() if line.startswith("WARNING"))
    assert "during resnet18 " in warning


def test_others_cores() -> None:
    # 10 s of wall time; the machine used 25 CPU-seconds, this process 5.
    assert bench.others_cores((100.0, 1.0), (125.0, 6.0), 10.0) == pytest.approx(2.0)
    # Clock granularity can make it slightly negative: clamp to 0.
    assert bench.others_cores((100.0, 1.0), (100.0, 1.5), 10.0) == 0.0
    assert bench.others_cores(None, (1.0, 1.0), 1.0) is None
    assert bench.others_cores((1.0, 1.0), (2.0, 1.0), 0.0) is None
    snapshot = bench.cpu_snapshot()
    assert snapshot is None or (snapshot[0] >= 0 and snapshot[1] >= 0)


def test_table_with_nothing_measured() -> None:
    text = bench.format_tables(
        _report([_result("broken", ours=None, eager=None, error="RuntimeError: x")])
    )
    compile_line, run_line = (
        line for line in text.splitlines() if line.startswith("geomean")
    )
    assert compile_line.split() == ["geomean", "-"]
    assert run_line.split() == ["geomean", "-", "-", "-", "-"]


def test_write_json_creates_directory(tmp_path: Path) -> None:
    report = _report([_result("mlp", ours=(0.5, 0.25), eager=(1.0, 1.0))])
    path = bench.write_json(report, tmp_path / "reports" / "nested" / "bench.json")
    assert path.is_file()
    loaded = json.loads(path.read_text())
    assert loaded["workloads"][0]["name"] == "mlp"
    assert loaded["workloads"][0]["ratio"]["all"] == pytest.approx(0.5)
    assert loaded["geomean"]["one"] == pytest.approx(0.25)
    assert loaded["rss_growth"]["growth_mb"] == pytest.approx(0.25)


@pytest.mark.parametrize(
    ("warmup", "repeat", "rounds", "expected"),
    [
        # One round: each fn in its own block, warm-up calls first.
        (2, 3, 1, "aaaaabbbbb"),
        # Rounds of 2, 2 and 1 timed calls, each block after one warm-up
        # call, the order rotating: a b, b a, a b.
        (1, 5, 3, "aaabbbbbbaaaaabb"),
    ],
)
def test_time_blocks_runs_each_function_in_blocks(
    warmup: int, repeat: int, rounds: int, expected: str
) -> None:
    calls: list[str] = []
    samples = bench.time_blocks(
        [lambda: calls.append("a"), lambda: calls.append("b")],
        warmup=warmup,
        repeat=repeat,
        pause=0,
        rounds=rounds,
    )
    assert "".join(calls) == expected
    assert [len(s) for s in samples] == [repeat, repeat]
    assert all(t >= 0 for s in samples for t in s)


def test_time_blocks_settles_before_each_block() -> None:
    """With `settle`, each block (not each call) starts after it: the op
    sweep waits there for other processes to be idle."""
    calls: list[str] = []
    bench.time_blocks(
        [lambda: calls.append("a"), lambda: calls.append("b")],
        warmup=1,
        repeat=2,
        rounds=2,
        settle=lambda: calls.append("|"),
    )
    assert "".join(calls) == "|aa|bb|bb|aa"


def test_command_line() -> None:
    args = bench.parse_args([])
    assert args.workloads == list(bench.WORKLOADS)
    assert args.json == Path("reports") / "bench.json"
    assert args.repeat is None and args.warmup is None and not args.quick
    args = bench.parse_args(
        ["--workloads", "mlp, resnet50", "--repeat", "4", "--warmup", "0", "--quick"]
    )
    assert args.workloads == ["mlp", "resnet50"]
    assert (args.repeat, args.warmup, args.quick) == (4, 0, True)
    for bad in (["--workloads", "mlp,vgg"], ["--workloads", ","], ["--repeat", "0"]):
        with pytest.raises(SystemExit) as exit_info:
            bench.parse_args(bad)
        assert exit_info.value.code == 2


def test_workloads_are_the_documented_ones() -> None:
    assert list(bench.WORKLOADS) == [
        "matmul512",
        "matmul1024",
        "mlp",
        "resnet18",
        "resnet50",
        "bert",
        "gpt2",
        "llama_step",
        "vit",
        "mlp_dynamic",
    ]
    assert all(w.repeat >= 1 and w.warmup >= 0 for w in bench.WORKLOADS.values())
    # The quantized ones and their float twin run only when named.
    assert list(bench.QUANTIZED_WORKLOADS) == ["resnet18_int8", "ffn", "ffn_int8"]
    args = bench.parse_args(["--workloads", "resnet18,resnet18_int8,ffn_int8"])
    assert args.workloads == ["resnet18", "resnet18_int8", "ffn_int8"]


def test_thread_count_sizes_the_compiled_code_too() -> None:
    import torch
    from torch2mlir.runtime import refbackend

    before = torch.get_num_threads()
    with bench.thread_count(1):
        assert torch.get_num_threads() == 1
        assert refbackend.max_threads() == 1
    assert torch.get_num_threads() == before


def test_rss_readers() -> None:
    assert bench.peak_rss_mb() > 0
    current = bench.current_rss_mb()
    assert current is None or 0 < current <= bench.peak_rss_mb() + 1


def _op_result(name: str, eager: float, ours: float, inductor: float | None) -> dict:
    def side(ms: float) -> dict:
        return {"1": {"median_ms": ms, "min_ms": ms * 0.9, "max_ms": ms * 1.1}}

    result = {"family": "f", "name": name, "error": None, "eager": side(eager)}
    result["torch2mlir"] = side(ours)
    if inductor is not None:
        result["inductor"] = side(inductor)
    return result


def test_op_sweep_table_puts_the_worst_ratio_first() -> None:
    from torch2mlir.tools import bench_ops

    fast = _op_result("fast op", 2.0, 1.0, 1.0)
    slow = _op_result("slow op", 1.0, 8.0, None)
    failed = {"family": "f", "name": "broken op", "error": "CompileError: no"}
    assert bench_ops.worst_ratio(slow) == 8.0
    assert bench_ops.worst_ratio(failed) == float("inf")
    lines = bench_ops.format_table([fast, slow, failed], [1]).splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["broken", "slow", "fast"]
    assert "FAILED: CompileError: no" in lines[1]
    # torch2mlir / eager, then torch2mlir / inductor ("-" without inductor).
    assert lines[2].split()[-2:] == ["8.00", "-"]
    assert lines[3].split()[-2:] == ["0.50", "1.00"]


def test_op_sweep_cases_are_named_uniquely() -> None:
    from torch2mlir.tools import bench_ops

    names = [case.name for case in bench_ops._cases()]
    assert len(names) == len(set(names))
    assert {"conv", "norm", "softmax", "attention", "reduction"} <= {
        case.family for case in bench_ops._cases()
    }


def test_each_side_runs_in_its_own_process() -> None:
    workload = bench.WORKLOADS["matmul512"]
    outputs = {}
    for side in ("eager", "torch2mlir"):
        # No waiting for an idle machine: the other tests' workers keep it
        # busy (the timings are not what this test checks).
        result, outputs[side] = bench.run_side_process(
            workload,
            side,
            repeat=1,
            warmup=0,
            quiet_timeout=0.0,
            settle=lambda threads: 0.0,
        )
        assert result["error"] is None, result
        assert result["steady"]["all"]["n"] == 1 and result["ready_s"] > 0
        assert result["peak_rss_mb"] > 0
    assert "jit" in result["compile"]
    error, scale = bench.max_abs_difference(outputs["torch2mlir"], outputs["eager"])
    assert error <= 1e-4 * scale and scale > 1


def test_sides_are_interleaved_over_rounds() -> None:
    settled: list[int] = []

    def settle(threads: int) -> float:
        settled.append(threads)
        return 0.5

    results, outputs = bench.measure_sides(
        bench.WORKLOADS["matmul512"],
        ["eager", "torch2mlir"],
        repeat=3,
        warmup=0,
        rounds=2,
        threads=2,
        log=lambda message: None,
        quiet_timeout=0.0,
        settle=settle,
    )
    for side in ("eager", "torch2mlir"):
        result = results[side]
        assert result["error"] is None, result
        # 2 + 1 timed runs per thread setting; before each block, the host
        # at speed on the block's threads, then a quiet wait.
        assert result["steady"]["all"]["n"] == 3 and result["steady"]["one"]["n"] == 3
        assert result["rounds"] == 2 and len(result["quiet_wait_s"]) == 4
        assert result["fast_wait_s"] == [0.5] * 4
        # One median per round's block: the 2 runs of round 1, the 1 of round 2.
        for label in ("all", "one"):
            steady = result["steady"][label]
            assert len(steady["block_medians"]) == 2
            assert steady["block_medians"][1] == steady["samples"][2]
        assert outputs[side] is not None
    # Per round: both sides on all threads, then both on one.
    assert settled == [2, 2, 1, 1, 2, 2, 1, 1]


def test_settle_host_probes_on_the_blocks_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import torch

    seen: list[tuple[int, int]] = []

    def wait_until_fast(**kwargs: Any) -> float:
        seen.append((kwargs["key"], torch.get_num_threads()))
        return 1.5

    monkeypatch.setattr(bench, "wait_until_fast", wait_until_fast)
    monkeypatch.setattr(bench, "PAUSE", 0.0)
    before = torch.get_num_threads()
    assert bench.settle_host(1) == 1.5 and bench.settle_host(2) == 1.5
    assert seen == [(1, 1), (2, 2)] and torch.get_num_threads() == before


def test_a_side_that_fails_to_build_is_reported() -> None:
    def broken() -> tuple[object, tuple[object, ...]]:
        raise RuntimeError("no such model")

    workload = bench.Workload("broken", "raises", broken, repeat=1, warmup=0)
    result, call, output = bench.prepare_side(
        workload, "eager", log=lambda message: None
    )
    assert result["error"] == "RuntimeError: no such model"
    assert call is None and output is None


def test_a_frozen_side_packs_its_weights() -> None:
    """--freeze: the torch2mlir side compiles with freeze=True (its matmul
    weight packed at the first call, with MKL) and matches eager."""
    import torch
    from torch2mlir.runtime import refbackend

    refbackend.load_runtime()
    library = refbackend.blas_library()
    before = refbackend.packed_bytes()
    result, call, output = bench.prepare_side(
        bench.ALL_WORKLOADS["matmul512"],
        "torch2mlir",
        freeze=True,
        log=lambda message: None,
    )
    assert result["error"] is None and call is not None
    model, inputs = bench.ALL_WORKLOADS["matmul512"].make()
    with torch.no_grad():
        torch.testing.assert_close(output, model(*inputs), rtol=1e-4, atol=1e-4)
    if library is not None and "mkl" in library.name:
        assert refbackend.packed_bytes() > before


def test_max_abs_difference_walks_nested_outputs() -> None:
    import torch

    want = (torch.tensor([1.0, -4.0]), [torch.tensor([[2.0]])])
    got = (torch.tensor([1.5, -4.0]), [torch.tensor([[1.0]])])
    assert bench.max_abs_difference(got, want) == (1.0, 4.0)
    with pytest.raises(ValueError, match="2 output tensors where eager returns 3"):
        bench.max_abs_difference(got[0:1] + (got[1][0],), (*want, want[0]))
    with pytest.raises(ValueError, match="shape"):
        bench.max_abs_difference(torch.zeros(2), torch.zeros(3))


def test_peak_fraction_uses_the_peak_of_the_same_thread_count() -> None:
    # matmul1024: 2 * 1024**3 operations; 10 ms at 2 threads and 20 ms at
    # one are 214.7 and 107.4 GFLOP/s.
    results = [
        _result("matmul1024", (10.0, 20.0), (8.0, 16.0)),
        _result("mlp", (1.0, 2.0), (1.0, 2.0)),  # no operation count: left out
    ]
    peaks = {"2": {"gflops": 400.0, "lanes": 16}, "1": {"gflops": 200.0, "lanes": 16}}
    rows = bench.peak_fraction(results, peaks, {"all": 2, "one": 1})
    assert [(r["workload"], r["threads"]) for r in rows] == [
        ("matmul1024", 2),
        ("matmul1024", 1),
    ]
    two, one = rows
    assert two["torch2mlir_median_gflops"] == pytest.approx(214.748, rel=1e-4)
    assert two["torch2mlir_median_of_peak"] == pytest.approx(214.748 / 400, rel=1e-4)
    assert one["torch2mlir_median_of_peak"] == pytest.approx(107.374 / 200, rel=1e-4)
    assert two["eager_median_of_peak"] == pytest.approx(268.435 / 400, rel=1e-4)
    report = _report(results)
    report["peak_fraction"] = rows
    text = bench.format_tables(report)
    assert "fraction of the fp32 peak" in text
    assert "214.7 (54%)" in text and "107.4 (54%)" in text


def test_peak_fraction_without_a_peak_is_empty_of_ratios() -> None:
    rows = bench.peak_fraction(
        [_result("matmul512", (1.0, 2.0), (1.0, 2.0))], {}, {"all": 2, "one": 1}
    )
    assert all("torch2mlir_median_of_peak" not in r for r in rows)


def _fake_cpu(busy_cores: list[float], window: float = 0.5):
    """A snapshot and a sleep for wait_until_quiet: over the k-th window,
    other processes use busy_cores[k] cores (the last value repeats)."""
    clock = {"t": 0.0, "others": 0.0, "k": 0}

    def snapshot() -> tuple[float, float]:
        return clock["others"], 0.0

    def sleep(seconds: float) -> None:
        k = min(clock["k"], len(busy_cores) - 1)
        clock["others"] += busy_cores[k] * seconds
        clock["t"] += seconds
        clock["k"] += 1

    return snapshot, sleep, clock


def test_wait_until_quiet_waits_for_the_compile_workers() -> None:
    snapshot, sleep, clock = _fake_cpu([1.2, 0.9, 0.5, 0.02])
    waited = bench.wait_until_quiet(snapshot=snapshot, sleep=sleep)
    assert waited == pytest.approx(2.0) and clock["t"] == pytest.approx(2.0)


def test_wait_until_quiet_returns_at_once_on_a_quiet_machine() -> None:
    snapshot, sleep, _ = _fake_cpu([0.0])
    assert bench.wait_until_quiet(snapshot=snapshot, sleep=sleep) == pytest.approx(0.5)


def test_wait_until_quiet_gives_up_after_the_timeout() -> None:
    snapshot, sleep, _ = _fake_cpu([1.0])
    waited = bench.wait_until_quiet(snapshot=snapshot, sleep=sleep, timeout=3.0)
    assert waited == pytest.approx(3.0)


def _fake_probe(speeds: list[float]) -> tuple[Any, Any, dict[str, float]]:
    """A probe giving `speeds` in turn (the last one from then on), and a
    sleep that advances a fake clock."""
    clock = {"t": 0.0, "probes": 0}
    values = iter(speeds)
    last = {"v": speeds[-1]}

    def probe() -> float:
        clock["probes"] += 1
        last["v"] = next(values, last["v"])
        return last["v"]

    def sleep(seconds: float) -> None:
        clock["t"] += seconds

    return probe, sleep, clock


def test_wait_until_fast_waits_out_a_slow_spell() -> None:
    # Calibrated at 100 GFLOP/s (the best of 5), then a spell at half speed
    # for 3 probes: it waits 3 windows and goes on at 90 (above 75%).
    probe, sleep, clock = _fake_probe([80, 100, 90, 95, 99, 50, 40, 60, 90])
    best: dict[int, float] = {}
    waited = bench.wait_until_fast(key=2, best=best, probe=probe, sleep=sleep)
    assert waited == pytest.approx(0.75) and clock["t"] == pytest.approx(0.75)
    assert best == {2: 100} and clock["probes"] == 9


def test_wait_until_fast_keeps_a_best_per_key_and_gives_up() -> None:
    best = {1: 50.0}
    probe, sleep, _ = _fake_probe([10])
    waited = bench.wait_until_fast(
        key=1, best=best, probe=probe, sleep=sleep, timeout=2.0
    )
    assert waited == pytest.approx(2.0) and best == {1: 50.0}
    # A faster probe raises the best: the next block must reach 75% of it.
    probe, sleep, _ = _fake_probe([60])
    assert bench.wait_until_fast(key=1, best=best, probe=probe, sleep=sleep) == 0.0
    assert best == {1: 60.0}
