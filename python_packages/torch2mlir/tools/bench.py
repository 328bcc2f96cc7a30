"""Benchmark torch2mlir against eager PyTorch and ``torch.compile`` on CPU.

Every workload (a model and its inputs, built from fixed seeds) is measured
on three sides, each in its own new Python process so that thread pools,
JITs and caches do not interfere: eager PyTorch (under ``torch.no_grad()``,
``model.eval()``), ``torch2mlir.compile`` and ``torch.compile(backend=
"inductor")`` (the peer a PyTorch user reaches for first; ``--no-inductor``
leaves it out). Per side:

- the time from the model to its first result (``ready_s``, seconds:
  compile and first call; inductor compiles on the first call, with its
  on-disk caches off, as torch2mlir compiles with ``cache=False``), and for
  torch2mlir its compile phases ``export``, ``import``, ``lowering`` (all
  pipelines), ``jit`` (LLVM code generation), from ``CompiledModule.timings``;
- the steady state: median, min and max over ``--repeat`` runs after
  ``--warmup`` runs, in milliseconds, with all threads and with one
  (``torch.set_num_threads(1)``, which sizes eager PyTorch, inductor's
  OpenMP loops and the compiled code's parallel loops and BLAS kernels).
  The processes stay alive and the runs are spread over ``--rounds``
  rounds (default 10), each a block per side in turn, so a slow spell of a
  shared host falls on every side alike, not on whichever side ran then;
- the peak resident set size of the process (MB, 2**20 bytes, getrusage).

The parent compares the outputs (largest absolute difference to eager's,
every output tensor) and computes the ratios torch2mlir / eager and
torch2mlir / inductor (below 1: torch2mlir is faster) with their geometric
means over the workloads; the one against inductor is the headline. A
separate check compiles ResNet-18 in two new processes sharing an empty
compile cache (cold, then warm) and reports both times. The
``mlp_dynamic`` workload is compiled with a dynamic batch (inductor:
``dynamic=True``) and timed at another batch size. Then a leak check: RSS
(current, from ``/proc/self/statm``) before and after 10,000 calls of the
compiled MLP.

Nothing is asserted about timings: the tool exits 0 when every workload
compiled and ran on eager and torch2mlir (an inductor failure is printed,
not counted), 1 when one failed (its error is printed and kept in the
JSON), 2 for bad arguments.

``--ops`` runs the op-level sweep instead (see bench_ops.py): each op
family alone, eager vs torch2mlir vs ``torch.compile`` (inductor), 1 and
all threads, worst ratio first (JSON in reports/bench_ops.json).

Usage:
    python -m torch2mlir.tools.bench [--workloads matmul512,mlp] [--repeat N]
        [--warmup N] [--rounds N] [--threads N] [--json reports/bench.json]
        [--quick]
        [--no-inductor]
    python -m torch2mlir.tools.bench --ops [conv,softmax] [--no-inductor]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import math
import os
import platform
import resource
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Calls of the compiled MLP in the RSS-growth measurement.
RSS_CALLS = 10_000
#: Above this many cores used by other processes during a workload
#: (`others_cores`), the table warns that its timings are not trustworthy.
BUSY_CORES = 0.2
#: Default location of the JSON report (relative to the working directory).
DEFAULT_JSON = Path("reports") / "bench.json"
_MB = float(1 << 20)


# --------------------------------------------------------------------------
# Pure logic: statistics, report, table (no torch; unit-tested).


def summarize(samples: Sequence[float]) -> dict[str, Any]:
    """Statistics of timings.

    Args:
        samples: durations in seconds (at least one).

    Returns:
        ``n`` and, in milliseconds, ``median``, ``mean``, ``min``, ``max``,
        ``stdev`` (sample standard deviation; 0 for a single sample), and
        ``samples`` (every duration, in milliseconds, in the order measured).

    Raises:
        ValueError: no samples.
    """
    if not samples:
        raise ValueError("summarize: no samples")
    ms = [s * 1e3 for s in samples]
    return {
        "n": len(ms),
        "median": statistics.median(ms),
        "mean": statistics.fmean(ms),
        "min": min(ms),
        "max": max(ms),
        "stdev": statistics.stdev(ms) if len(ms) > 1 else 0.0,
        "samples": ms,
    }


def geomean(values: Sequence[float | None]) -> float | None:
    """Geometric mean of the positive finite values; None if there are none.

    ``None``, zero, negative and non-finite values (a failed or unmeasured
    workload) are left out rather than poisoning the mean.
    """
    kept = [v for v in values if v is not None and math.isfinite(v) and v > 0]
    if not kept:
        return None
    return math.exp(math.fsum(math.log(v) for v in kept) / len(kept))


def ratio(ours: float | None, eager: float | None) -> float | None:
    """``ours / eager`` (dimensionless), or None if either is missing or eager is 0."""
    if ours is None or eager is None or eager <= 0:
        return None
    return ours / eager


#: The sides every workload is measured on, each in its own process: eager
#: PyTorch, torch2mlir and ``torch.compile(backend="inductor")``.
SIDES = ("eager", "torch2mlir", "inductor")


def _steady(result: Mapping[str, Any], side: str, threads: str) -> float | None:
    """Median steady-state time in ms of `side` (one of :data:`SIDES`) for
    `threads` ("all"/"one"), or None if not measured."""
    stats = (result.get(side) or {}).get("steady", {}).get(threads)
    return None if not stats else stats["median"]


def _ready(result: Mapping[str, Any], side: str) -> float | None:
    """Seconds from the model to its first result on `side` (compile and
    first call), or None if not measured."""
    return (result.get(side) or {}).get("ready_s")


def add_ratios(result: dict[str, Any]) -> dict[str, Any]:
    """Sets, from the median steady-state times (all threads and one
    thread), ``result["ratio"] = {"all": r, "one": r}`` (torch2mlir / eager)
    and ``result["ratio_inductor"]`` (torch2mlir / inductor), and
    ``result["compile_ratio_inductor"]``: torch2mlir's time to the first
    result over inductor's, and ``result["round_ratio_inductor"]``
    ``{"all": [...], "one": [...]}`` (:func:`round_ratios`). Returns
    `result`."""
    for key, base in (("ratio", "eager"), ("ratio_inductor", "inductor")):
        result[key] = {
            threads: ratio(
                _steady(result, "torch2mlir", threads), _steady(result, base, threads)
            )
            for threads in ("all", "one")
        }
    result["compile_ratio_inductor"] = ratio(
        _ready(result, "torch2mlir"), _ready(result, "inductor")
    )
    result["round_ratio_inductor"] = {
        threads: round_ratios(result, "inductor", threads) for threads in ("all", "one")
    }
    return result


def round_ratios(result: Mapping[str, Any], base: str, threads: str) -> list[float]:
    """torch2mlir / `base` per round: the median of torch2mlir's block of
    runs on `threads` ("all"/"one") over the median of `base`'s block of
    the same round (``steady[threads]["block_medians"]``, milliseconds).
    The blocks of one round run seconds apart, so where a shared host
    moves between fast and slow spells from one minute to the next, the
    spread of these ratios says how far the ratio of the medians over all
    rounds is the host's doing. Empty when a side has no blocks or the two
    sides' rounds differ in number (a side failed)."""

    def blocks(side: str) -> list[float]:
        stats = (result.get(side) or {}).get("steady", {}).get(threads) or {}
        return stats.get("block_medians") or []

    ours, theirs = blocks("torch2mlir"), blocks(base)
    if not ours or len(ours) != len(theirs):
        return []
    return [a / b for a, b in zip(ours, theirs) if b > 0]


def summary(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Geometric means of the ratios over the workloads that have them:
    ``{"all": g, "one": g, "workloads": {"all": [...], "one": [...]},
    "inductor": {"all": g, "one": g, "workloads": {...}}, "compile_inductor":
    g}``: torch2mlir / eager at the top level, torch2mlir / inductor under
    ``inductor`` (the headline), and the time-to-first-result ratio."""

    def means(key: str) -> dict[str, Any]:
        out: dict[str, Any] = {"workloads": {}}
        for threads in ("all", "one"):
            kept = [r for r in results if (r.get(key) or {}).get(threads) is not None]
            out[threads] = geomean([r[key][threads] for r in kept])
            out["workloads"][threads] = [r["name"] for r in kept]
        return out

    out = means("ratio")
    out["inductor"] = means("ratio_inductor")
    out["compile_inductor"] = geomean(
        [r.get("compile_ratio_inductor") for r in results]
    )
    return out


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _align(rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first `left` columns are
    left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.ljust(w) if i < left else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def _with_total(rows: list[list[str]]) -> list[str]:
    """Aligned rows whose last one (a geomean) is set off by a rule."""
    lines = _align(rows)
    return lines[:-1] + ["-" * len(lines[0]), lines[-1]]


def format_tables(report: Mapping[str, Any]) -> str:
    """The report as plain aligned text: compile phases (s) against
    inductor's, run times (ms) with the ratios to eager and to inductor and
    their geometric means, the noise (min/median/max), then the RSS figures
    and notes."""
    results = report["workloads"]
    meta = report.get("meta", {})
    geo = report.get("geomean", {})
    out: list[str] = []

    phases = ("export", "import", "lowering", "jit")
    rows = [
        [
            "workload",
            *(f"{k} s" for k in phases),
            "total s",
            "t2m ready s",
            "inductor ready s",
            "t2m/ind",
        ]
    ]
    for r in results:
        t = (r.get("torch2mlir") or {}).get("compile") or {}
        rows.append(
            [
                r["name"],
                *(_fmt(t.get(k), ".3f") for k in phases),
                _fmt(sum(t.get(k, 0.0) for k in phases) if t else None, ".3f"),
                _fmt(_ready(r, "torch2mlir"), ".2f"),
                _fmt(_ready(r, "inductor"), ".2f"),
                _fmt(r.get("compile_ratio_inductor"), ".3f"),
            ]
        )
    rows.append(["geomean", *[""] * 7, _fmt(geo.get("compile_inductor"), ".3f")])
    out.append(
        "compile (seconds): torch2mlir phases; ready = from the model to the "
        "first result (compile + first call); t2m/ind = torch2mlir ready / "
        "inductor ready"
    )
    out += _with_total(rows)
    out.append("")

    threads = meta.get("threads", {})
    label = f"{threads.get('torch', '?')}T"
    rows = [
        [
            "workload",
            f"t2m {label}",
            f"eager {label}",
            f"ind {label}",
            "/eager",
            "/ind",
            "t2m 1T",
            "eager 1T",
            "ind 1T",
            "/eager 1T",
            "/ind 1T",
            "max abs err",
            "peak RSS MB",
            "others",
        ]
    ]
    columns = ("torch2mlir", "eager", "inductor")
    for r in results:
        row = [r["name"]]
        for team in ("all", "one"):
            row += [_fmt(_steady(r, side, team), ".2f") for side in columns]
            row += [
                _fmt((r.get(key) or {}).get(team), ".2f")
                for key in ("ratio", "ratio_inductor")
            ]
        rows.append(
            [
                *row,
                _fmt(r.get("max_abs_error"), ".2e"),
                _fmt(r.get("peak_rss_mb"), ".0f"),
                _fmt(r.get("others_cores"), ".2f"),
            ]
        )
    versus = geo.get("inductor") or {}
    rows.append(
        ["geomean", "", "", "", _fmt(geo.get("all"), ".2f")]
        + [_fmt(versus.get("all"), ".2f"), "", "", ""]
        + [_fmt(geo.get("one"), ".2f"), _fmt(versus.get("one"), ".2f")]
        + [""] * 3
    )
    out.append(
        "steady state (milliseconds, median); /eager, /ind = torch2mlir time / "
        "eager's, inductor's (below 1 = torch2mlir faster)"
    )
    out += _with_total(rows)
    out.append("")

    rows = [
        [
            "workload",
            "threads",
            *(f"{side} min/median/max" for side in SIDES),
            "t2m/ind per round",
        ]
    ]
    for r in results:
        for key, name in (("all", label), ("one", "1T")):
            cells = []
            for side in SIDES:
                stats = (r.get(side) or {}).get("steady", {}).get(key)
                cells.append(
                    "-"
                    if not stats
                    else f"{stats['min']:.2f}/{stats['median']:.2f}/{stats['max']:.2f}"
                )
            per_round = (r.get("round_ratio_inductor") or {}).get(key) or []
            cells.append(
                f"{min(per_round):.2f}-{max(per_round):.2f}" if per_round else "-"
            )
            rows.append([r["name"], name, *cells])
    out.append(
        "noise: steady-state min/median/max (milliseconds); t2m/ind per round: "
        "the lowest and highest ratio of the two sides' block medians within "
        "one round (blocks seconds apart)"
    )
    out += _align(rows, left=2)

    busy = [r["name"] for r in results if (r.get("others_cores") or 0.0) > BUSY_CORES]
    if busy:
        out.append(
            f"WARNING: other processes kept the CPU busy during {', '.join(busy)} "
            f"(column 'others', in cores): those timings, all-threads ones above "
            f"all, are not the code's speed. Run again on an idle machine."
        )
    for r in results:
        if r.get("error"):
            out.append(f"FAILED {r['name']}: {r['error']}")
        peer = (r.get("inductor") or {}).get("error")
        if peer:
            out.append(f"inductor FAILED on {r['name']}: {peer}")

    fractions = report.get("peak_fraction") or []
    if fractions:
        out.append("")
        out.append(
            "fraction of the fp32 peak (GFLOP/s of the fastest / median run; "
            "peak: the runtime's register-only FMA loop on every thread, the "
            "best of its runs before and after the workloads)"
        )
        rows = [
            [
                "workload",
                "threads",
                "peak GFLOP/s",
                "t2m min",
                "t2m median",
                "eager min",
                "eager median",
            ]
        ]
        for f in fractions:
            cells = [
                f["workload"],
                f"{f['threads']}T",
                _fmt(f.get("peak_gflops"), ".1f"),
            ]
            for side in ("torch2mlir", "eager"):
                for key in ("min", "median"):
                    g = f.get(f"{side}_{key}_gflops")
                    cells.append(
                        "-"
                        if g is None
                        else f"{g:.1f} ({f[f'{side}_{key}_of_peak']:.0%})"
                    )
            rows.append(cells)
        out += _align(rows, left=2)

    rss = report.get("rss_growth")
    out.append("")
    if rss and rss.get("error"):
        out.append(f"RSS growth: FAILED: {rss['error']}")
    elif rss:
        out.append(
            f"RSS growth over {rss['calls']} calls of the compiled {rss['workload']} "
            f"(1 thread): "
            f"{_fmt(rss.get('growth_mb'), '+.2f')} MB "
            f"({_fmt(rss.get('before_mb'), '.1f')} -> {_fmt(rss.get('after_mb'), '.1f')} MB, "
            f"current RSS from /proc/self/statm; {_fmt(rss.get('seconds'), '.2f')} s)"
        )
    cache = report.get("compile_cache")
    if cache and cache.get("error"):
        out.append(f"compile cache: FAILED: {cache['error']}")
    elif cache:
        out.append(
            f"compile cache, {cache['workload']} nn.Module -> ready to run in a new "
            f"process: cold {cache['cold']['seconds']:.2f} s ({cache['cold']['cache']}), "
            f"warm {cache['warm']['seconds']:.2f} s ({cache['warm']['cache']}); "
            f"process start-up (imports, model) {cache['warm']['startup_seconds']:.2f} s "
            "not included"
        )
    out.append(
        "each (workload, side) ran in its own process"
        + (
            f", the sides' runs interleaved over {rounds} rounds"
            if (rounds := max((r.get("rounds") or 1 for r in results), default=1)) > 1
            else ""
        )
        + "; peak RSS: getrusage ru_maxrss of the torch2mlir process."
    )
    out.append(
        f"threads: {label} = {threads.get('torch', '?')} (torch.set_num_threads, for "
        f"all sides); 1T = 1. "
        f"repeat/warmup per workload are in the JSON. others: mean number of "
        f"cores that other processes used during the workload (0 when idle)."
    )
    if versus.get("all") is not None:
        out.append(
            f"headline: torch2mlir / inductor, geomean over "
            f"{len(versus['workloads']['all'])} workloads: "
            f"{versus['all']:.2f} ({label}), {_fmt(versus.get('one'), '.2f')} (1T); "
            f"/ eager {_fmt(geo.get('all'), '.2f')} ({label}), "
            f"{_fmt(geo.get('one'), '.2f')} (1T)"
        )
    return "\n".join(out)


def measure_peak(threads: Sequence[int]) -> dict[str, Any]:
    """The machine's float32 peak with each thread count in `threads`
    (``torch.set_num_threads``; restored after): ``{"<threads>": {"gflops":
    GFLOP/s, "lanes": vector lanes}}``, from the runtime's register-only FMA
    loop (:func:`refbackend.fp32_peak`: the best of 5 runs of 0.2 s on every
    thread)."""
    import torch

    from ..runtime import refbackend

    before = torch.get_num_threads()
    peaks: dict[str, Any] = {}
    try:
        for n in threads:
            torch.set_num_threads(n)
            flops, lanes = refbackend.fp32_peak()
            peaks[str(n)] = {"gflops": flops / 1e9, "lanes": lanes}
    finally:
        torch.set_num_threads(before)
    return peaks


def peak_fraction(
    results: Sequence[Mapping[str, Any]],
    peaks: Mapping[str, Any],
    threads: Mapping[str, int],
) -> list[dict[str, Any]]:
    """For each workload with a known operation count, torch2mlir's (and
    eager's) GFLOP/s at its fastest (min) and median steady-state run and
    their fraction of the measured peak at the same thread count; `threads`
    maps the report's team keys ("all", "one") to thread counts."""
    rows = []
    for r in results:
        workload = ALL_WORKLOADS.get(r["name"])
        if workload is None or not workload.flops:
            continue
        for team, n in threads.items():
            peak = (peaks.get(str(n)) or {}).get("gflops")
            row: dict[str, Any] = {
                "workload": r["name"],
                "threads": n,
                "peak_gflops": peak,
            }
            for side in ("torch2mlir", "eager"):
                stats = (r.get(side) or {}).get("steady", {}).get(team)
                if not stats or not peak:
                    continue
                for key in ("min", "median"):
                    gflops = workload.flops / (stats[key] * 1e-3) / 1e9
                    row[f"{side}_{key}_gflops"] = gflops
                    row[f"{side}_{key}_of_peak"] = gflops / peak
            rows.append(row)
    return rows


def write_json(report: Mapping[str, Any], path: Path) -> Path:
    """Writes `report` as indented JSON to `path`, creating its directory;
    returns `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, sort_keys=False) + "\n")
    return path


# --------------------------------------------------------------------------
# Measurement helpers.


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (2**20 bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KB, macOS bytes.
    return peak / _MB if sys.platform == "darwin" else peak / 1024.0


def current_rss_mb() -> float | None:
    """Current resident set size in MB (2**20 bytes), from /proc/self/statm;
    None where there is no /proc."""
    try:
        resident_pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return resident_pages * os.sysconf("SC_PAGE_SIZE") / _MB


def cpu_snapshot() -> tuple[float, float] | None:
    """(CPU seconds all processes have used, CPU seconds this process has
    used), all cores and threads summed; None where there is no /proc/stat.
    Two snapshots give :func:`others_cores`."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    if fields[0] != "cpu" or len(fields) < 8:
        return None
    # user nice system idle iowait irq softirq [steal ...]: all but idle/iowait.
    ticks = [int(v) for v in fields[1:]]
    busy = sum(ticks[:3]) + sum(ticks[5:8])
    own = os.times()
    return busy / os.sysconf("SC_CLK_TCK"), own.user + own.system


def others_cores(
    before: tuple[float, float] | None, after: tuple[float, float] | None, wall: float
) -> float | None:
    """Mean number of cores that other processes kept busy over `wall`
    seconds between two :func:`cpu_snapshot`s (0 on an idle machine); None
    if unknown. Above about 0.1, the timings share the CPU with something."""
    if before is None or after is None or wall <= 0:
        return None
    return max(0.0, ((after[0] - before[0]) - (after[1] - before[1])) / wall)


def wait_until_quiet(
    *,
    threshold: float = BUSY_CORES / 2,
    window: float = 0.5,
    timeout: float = 60.0,
    sleep: Callable[[float], None] = time.sleep,
    snapshot: Callable[[], tuple[float, float] | None] = cpu_snapshot,
) -> float:
    """Waits (at most `timeout` seconds) until other processes keep less than
    `threshold` cores busy over a `window` (seconds), spending each window
    in ``sleep(window)`` (which may run the workload meanwhile): inductor
    compiles again, with g++ in child processes, when a call comes with
    another thread count, and that compilation would otherwise count as
    other processes' use (or share the CPU with the timed runs).
    Returns the seconds waited; one window where /proc/stat is missing."""
    waited = 0.0
    while waited < timeout:
        before = snapshot()
        sleep(window)
        waited += window
        busy = others_cores(before, snapshot(), window)
        if busy is None or busy < threshold:
            break
    return waited


#: Before a block of timed runs, the runtime's register-only FMA loop on
#: the block's threads (:func:`fp32_gflops`, CANARY_SECONDS) must reach
#: CANARY_FRACTION of its best in this process (:func:`wait_until_fast`).
CANARY_SECONDS, CANARY_FRACTION, CANARY_TRIALS = 0.01, 0.75, 5


def fp32_gflops(seconds: float = CANARY_SECONDS) -> float:
    """GFLOP/s of the runtime's FMA loop on ``torch.get_num_threads()``
    threads over about `seconds` (:func:`refbackend.fp32_peak`, one run)."""
    from ..runtime import refbackend

    return refbackend.fp32_peak(seconds, 1)[0] / 1e9


def wait_until_fast(
    *,
    key: Any,
    best: dict[Any, float],
    fraction: float = CANARY_FRACTION,
    window: float = 0.25,
    timeout: float = 60.0,
    probe: Callable[[], float] = fp32_gflops,
    sleep: Callable[[float], None] = time.sleep,
) -> float:
    """Waits (at most `timeout` seconds, `window` at a time) until
    ``probe()`` reaches `fraction` of ``best[key]``, the best it has given
    for `key` (e.g. a thread count; the best of CANARY_TRIALS probes the
    first time). A shared host has slow spells that other processes' CPU
    time does not show (:func:`wait_until_quiet`): a hypervisor running
    another guest on one of the vCPUs, or a neighbour on the sibling
    hyperthread. In one op sweep, both eager's and torch2mlir's 2-thread
    convolutions ran 5-40x slower than at one thread for minutes. An FMA
    loop on every thread of the block sees them: a spell halved its 2-thread
    GFLOP/s (151 against 240), where quiet probes vary by about 15% (240
    against a best of 284), hence 75%. Returns the seconds waited."""
    if key not in best:
        best[key] = max(probe() for _ in range(CANARY_TRIALS))
    waited = 0.0
    while True:
        speed = probe()
        best[key] = max(best[key], speed)
        if speed >= fraction * best[key] or waited >= timeout:
            return waited
        sleep(window)
        waited += window


@contextmanager
def _no_gc() -> Iterator[None]:
    """Collects garbage, then keeps the collector off while timing."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(seconds, result) of one call of `fn`."""
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


#: Seconds of idle time before each block of runs: long enough for the
#: worker threads of the other side (OpenMP, OpenBLAS) to stop spinning.
PAUSE = 0.25


def round_robin(count: int, repeat: int, rounds: int) -> list[list[tuple[int, int]]]:
    """The blocks of `rounds` rounds over `count` items that each run
    `repeat` times in all: per round, (item, runs) in that round's order,
    which rotates by one item per round; each round gives an item
    ceil(repeat / rounds) runs, the last ones what is left (a round may have
    none)."""
    rounds = max(rounds, 1)
    per_round = max(1, math.ceil(repeat / rounds))
    schedule = []
    for index in range(rounds):
        runs = min(per_round, repeat - index * per_round)
        if runs <= 0:
            break
        shift = index % max(count, 1)
        order = list(range(shift, count)) + list(range(shift))
        schedule.append([(item, runs) for item in order])
    return schedule


def time_blocks(
    fns: Sequence[Callable[[], Any]],
    warmup: int,
    repeat: int,
    pause: float = PAUSE,
    rounds: int = 1,
    settle: Callable[[], Any] | None = None,
) -> list[list[float]]:
    """For each fn in turn, a block: `pause` seconds idle, `warmup` untimed
    calls, then its share of `repeat` timed calls; with `rounds` > 1 the
    blocks repeat that many times (the order rotating by one fn per round),
    the `repeat` calls split over them, so that a slow spell of a shared
    host falls on every fn alike. With `settle` (e.g. a
    :func:`wait_until_quiet`), each block starts after ``settle()`` instead
    of the idle pause. Returns the durations (seconds) per fn.

    Blocks rather than alternating calls: both eager PyTorch (OpenMP) and
    OpenBLAS keep their worker threads spinning for a while after a parallel
    call, and on a machine with few cores the other side's spinning threads
    would be measured too.
    """
    samples: list[list[float]] = [[] for _ in fns]
    for blocks in round_robin(len(fns), repeat, rounds):
        for position, runs in blocks:
            fn = fns[position]
            if settle is None:
                time.sleep(pause)
            else:
                settle()
            with _no_gc():
                for _ in range(warmup):
                    fn()
                samples[position] += [_timed(fn)[0] for _ in range(runs)]
    return samples


@contextmanager
def thread_count(threads: int) -> Iterator[None]:
    """Runs the body with ``torch.set_num_threads(threads)``: the OpenMP team
    of eager PyTorch, which the compiled code's parallel loops and BLAS
    kernels share."""
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(old)


# --------------------------------------------------------------------------
# Workloads.


@dataclass(frozen=True)
class Workload:
    """A model and its inputs; `repeat`/`warmup` are the default run counts."""

    name: str
    description: str
    make: Callable[
        [], tuple[Any, tuple[Any, ...]]
    ]  # () -> (model in eval mode, inputs)
    repeat: int
    warmup: int
    #: For a dynamic-shape workload: () -> (example inputs to compile with,
    #: ``dynamic_shapes``); the timed runs use the inputs of `make`, another
    #: size in the declared range.
    dynamic: Callable[[], tuple[tuple[Any, ...], Any]] | None = None
    #: Float operations of one call when known exactly (a matmul's 2n^3),
    #: for the fraction of the machine's peak (:func:`peak_fraction`).
    flops: int | None = None


def _randn(*shape: int, seed: int = 0) -> Any:
    import torch

    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _matmul(n: int) -> tuple[Any, tuple[Any, ...]]:
    import torch

    class MatMul(torch.nn.Module):
        """`x @ weight` with a fixed `[n, n]` float32 weight."""

        def __init__(self) -> None:
            super().__init__()
            self.weight = torch.nn.Parameter(_randn(n, n, seed=1))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.mm(x, self.weight)

    return MatMul().eval(), (_randn(n, n),)


def _mlp() -> tuple[Any, tuple[Any, ...]]:
    from ..models.mlp import mlp

    return mlp(), (_randn(8, 784),)


def _resnet18() -> tuple[Any, tuple[Any, ...]]:
    from ..models.resnet import resnet18

    return resnet18(), (_randn(1, 3, 224, 224),)


def _resnet50() -> tuple[Any, tuple[Any, ...]]:
    from ..models.resnet import resnet50

    return resnet50(), (_randn(1, 3, 224, 224),)


def _bert() -> tuple[Any, tuple[Any, ...]]:
    from ..models import transformer

    return transformer.bert(), (transformer.token_ids(2, 128),)


def _gpt2() -> tuple[Any, tuple[Any, ...]]:
    from ..models import transformer

    return transformer.gpt2(), (transformer.token_ids(2, 128),)


def _llama_step() -> tuple[Any, tuple[Any, ...]]:
    from ..models import transformer

    return transformer.llama_step(batch=1, past=255)


def _vit() -> tuple[Any, tuple[Any, ...]]:
    from ..models import transformer

    model = transformer.vit(layers=4, image_size=224, patch_size=16)
    return model, (transformer.images(1, 224),)


def _ffn() -> tuple[Any, tuple[Any, ...]]:
    from ..models.mlp import feed_forward_stack

    return feed_forward_stack(), (_randn(1, 128, 768),)


def _int8(
    make: Callable[[], tuple[Any, tuple[Any, ...]]],
) -> Callable[[], tuple[Any, tuple[Any, ...]]]:
    """The workload of `make`, PT2E-quantized to int8 (torchao, x86 quantizer;
    see :func:`torch2mlir.fx.quantization.quantize_pt2e`), calibrated on 4
    random batches shaped like its inputs."""

    def make_int8() -> tuple[Any, tuple[Any, ...]]:
        from ..fx.quantization import quantize_pt2e

        model, inputs = make()
        calibration = [
            tuple(_randn(*x.shape, seed=10 + i) for x in inputs) for i in range(4)
        ]
        return quantize_pt2e(model, inputs, calibration), inputs

    return make_int8


def _mlp_dynamic_batch() -> tuple[tuple[Any, ...], Any]:
    import torch

    batch = torch.export.Dim("batch", min=1, max=512)
    return (_randn(8, 784),), ({0: batch},)


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in (
        Workload(
            "matmul512",
            "torch.mm, [512,512] x [512,512] fp32",
            lambda: _matmul(512),
            60,
            5,
            flops=2 * 512**3,
        ),
        Workload(
            "matmul1024",
            "torch.mm, [1024,1024] x [1024,1024] fp32",
            lambda: _matmul(1024),
            60,
            3,
            flops=2 * 1024**3,
        ),
        Workload("mlp", "MLP 784-512-256-10, batch 8", _mlp, 200, 20),
        Workload("resnet18", "ResNet-18, [1,3,224,224]", _resnet18, 60, 2),
        Workload("resnet50", "ResNet-50, [1,3,224,224]", _resnet50, 60, 2),
        Workload(
            "bert",
            "BERT (transformers, 4 layers, hidden 256), ids [2,128]",
            _bert,
            60,
            3,
        ),
        Workload(
            "gpt2",
            "GPT-2 (transformers, 4 layers, hidden 256), ids [2,128]",
            _gpt2,
            60,
            3,
        ),
        Workload(
            "llama_step",
            "LLaMA decode step (transformers, 4 layers, hidden 256, GQA 4/2 "
            "heads), 1 new token after a 255-token KV cache",
            _llama_step,
            100,
            10,
        ),
        Workload(
            "vit",
            "ViT (transformers, 4 layers, hidden 256, 16x16 patches), [1,3,224,224]",
            _vit,
            60,
            3,
        ),
        Workload(
            "mlp_dynamic",
            "MLP compiled for batch in [1, 512] (example 8), run at batch 64",
            lambda: (_mlp()[0], (_randn(64, 784),)),
            100,
            10,
            dynamic=_mlp_dynamic_batch,
        ),
    )
}
#: Quantized workloads and their float32 twins, run only when named (e.g.
#: ``--workloads resnet18,resnet18_int8,ffn,ffn_int8``): int8 against fp32
#: on each side. Eager runs the converted int8 program in float (PyTorch's
#: reference: dequantize, float op, quantize); inductor lowers it to its
#: own int8 kernels.
QUANTIZED_WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in (
        Workload(
            "resnet18_int8",
            "ResNet-18 PT2E int8 (x86 quantizer), [1,3,224,224]",
            _int8(_resnet18),
            20,
            2,
        ),
        Workload(
            "ffn",
            "4 BERT-base feed-forward layers (8 linears), [1,128,768] fp32",
            _ffn,
            20,
            3,
        ),
        Workload(
            "ffn_int8",
            "4 BERT-base feed-forward layers PT2E int8, [1,128,768]",
            _int8(_ffn),
            20,
            3,
        ),
    )
}
ALL_WORKLOADS = {**WORKLOADS, **QUANTIZED_WORKLOADS}
#: --quick: run counts for every workload, and calls of the RSS check.
QUICK_REPEAT, QUICK_WARMUP, QUICK_RSS_CALLS = 3, 1, 2_000


def _leaves(value: Any) -> list[Any]:
    """The tensors of a (possibly nested) model output, in order."""
    import torch.utils._pytree as pytree

    return pytree.tree_leaves(value)


def max_abs_difference(got: Any, want: Any) -> tuple[float, float]:
    """(largest |got - want|, largest |want|) over every tensor of two
    model outputs of the same structure (float64 differences).

    Raises:
        ValueError: the outputs hold different numbers of tensors or shapes.
    """
    got_leaves, want_leaves = _leaves(got), _leaves(want)
    if len(got_leaves) != len(want_leaves):
        raise ValueError(
            f"{len(got_leaves)} output tensors where eager returns {len(want_leaves)}"
        )
    error = scale = 0.0
    for a, b in zip(got_leaves, want_leaves):
        if a.shape != b.shape:
            raise ValueError(
                f"output of shape {tuple(a.shape)}, eager's {tuple(b.shape)}"
            )
        if b.numel():
            error = max(error, (a.double() - b.double()).abs().max().item())
            scale = max(scale, b.double().abs().max().item())
    return error, scale


def prepare_side(
    workload: Workload,
    side: str,
    *,
    opt_level: int = 2,
    freeze: bool = False,
    log: Callable[[str], None] = print,
) -> tuple[dict[str, Any], Callable[[], Any] | None, Any]:
    """Builds one side (of :data:`SIDES`) of one workload in this process and
    calls it once; never raises: an error is returned in ``"error"``. With
    `freeze`, both compilers take the weights as constants: torch2mlir's
    ``compile(..., freeze=True)`` and inductor's ``freezing`` option.

    Returns:
        (``result``, ``call``, the first call's output): ``result`` holds
        ``ready_s`` (seconds from the model to its first result: for
        torch2mlir ``compile`` + first call, for inductor ``torch.compile``
        + the first call, which compiles), ``first_ms``, for torch2mlir
        ``compile`` (seconds per phase and ``wall``) and ``error`` (None or
        the message); ``call`` runs the side once more (None after an error).
    """
    import torch

    result: dict[str, Any] = {"error": None}
    try:
        model, inputs = workload.make()
        model.eval()
        start = time.perf_counter()
        if side == "eager":
            run = model
        elif side == "torch2mlir":
            import torch2mlir

            log(f"[{workload.name}] torch2mlir compile")
            # cache=False: the compile phases are measured, not read from disk
            # (see compile_cache_check for the cache).
            if workload.dynamic is not None:
                example, dynamic_shapes = workload.dynamic()
                run = torch2mlir.compile(
                    model,
                    example,
                    dynamic_shapes=dynamic_shapes,
                    opt_level=opt_level,
                    cache=False,
                    freeze=freeze,
                )
            else:
                run = torch2mlir.compile(
                    model, inputs, opt_level=opt_level, cache=False, freeze=freeze
                )
            result["compile"] = dict(run.timings)
            result["compile"]["wall"] = time.perf_counter() - start
        elif side == "inductor":
            log(f"[{workload.name}] inductor compile (on the first call)")
            if freeze:
                import torch._inductor.config

                torch._inductor.config.freezing = True
            run = torch.compile(
                model, backend="inductor", dynamic=workload.dynamic is not None
            )
        else:
            raise ValueError(f"unknown side {side!r}; one of {', '.join(SIDES)}")

        def call() -> Any:
            with torch.no_grad():
                return run(*inputs)

        seconds, output = _timed(call)
        result["first_ms"] = seconds * 1e3
        result["ready_s"] = time.perf_counter() - start
        return result, call, output
    except Exception as error:  # noqa: BLE001 - report it, go on with the next side
        result["error"] = f"{type(error).__name__}: {error}"
        result["traceback"] = traceback.format_exc()
        return result, None, None


#: Seconds a block of timed runs waits at most for other processes to go
#: idle (:func:`wait_until_quiet`).
QUIET_TIMEOUT = 120.0


def time_side_block(
    call: Callable[[], Any],
    *,
    one_thread: bool,
    warmup: int,
    repeat: int,
    quiet_timeout: float = QUIET_TIMEOUT,
) -> dict[str, Any]:
    """One block of timed runs of `call` in this process: with all threads or
    with one (:func:`thread_count`), `warmup` untimed calls, `repeat` timed
    ones, once other processes are idle (:func:`wait_until_quiet`, at most
    `quiet_timeout` seconds, calling `call` meanwhile: inductor compiles
    again for another thread count, with g++ in child processes).

    Returns:
        ``samples`` (seconds), ``others_cores`` over the timed runs (see
        :func:`others_cores`), ``quiet_wait_s``.
    """

    def keep_calling(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            call()

    def block() -> dict[str, Any]:
        waited = wait_until_quiet(sleep=keep_calling, timeout=quiet_timeout)
        before, began = cpu_snapshot(), time.perf_counter()
        samples = time_blocks([call], warmup, repeat)[0]
        busy = others_cores(before, cpu_snapshot(), time.perf_counter() - began)
        return {"samples": samples, "others_cores": busy, "quiet_wait_s": waited}

    if not one_thread:
        return block()
    with thread_count(1):
        return block()


#: Environment of the inductor side's process: its on-disk caches off, so
#: its compile time is real (torch2mlir compiles with ``cache=False``).
INDUCTOR_ENV = {"TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"}
#: Prefix of the side process's replies on its stdout (other lines there,
#: from the libraries it runs, are passed on to stderr).
_REPLY = "@@bench "


class SideProcess:
    """One side of one workload in a new Python process (``python -m
    torch2mlir.tools.bench --side WORKLOAD SIDE ...``), so the sides' thread
    pools, JITs and caches do not interfere, kept alive so that the parent
    can interleave blocks of timed runs of every side (:func:`run_workload`):
    a slow spell of a shared host then falls on every side alike. Its log
    goes to stderr; commands go to its stdin, one JSON line each, and
    replies come back on its stdout (:data:`_REPLY` lines).
    """

    def __init__(
        self,
        workload: Workload,
        side: str,
        *,
        opt_level: int = 2,
        threads: int | None = None,
        freeze: bool = False,
    ) -> None:
        import subprocess
        import tempfile

        self.side = side
        self._folder = tempfile.TemporaryDirectory(prefix="torch2mlir-bench-")
        command = [
            sys.executable,
            "-m",
            "torch2mlir.tools.bench",
            "--side",
            workload.name,
            side,
            "--side-dir",
            self._folder.name,
            "--opt-level",
            str(opt_level),
        ]
        if threads is not None:
            command += ["--threads", str(threads)]
        if freeze:
            command.append("--freeze")
        env = {**os.environ, **(INDUCTOR_ENV if side == "inductor" else {})}
        self._proc = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def _reply(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            if line.startswith(_REPLY):
                reply: dict[str, Any] = json.loads(line[len(_REPLY) :])
                return reply
            sys.stderr.write(line)
        status = self._proc.wait()
        return {
            "error": f"the {self.side} process exited with status {status} "
            "before replying"
        }

    def ready(self) -> dict[str, Any]:
        """Waits for the side to be built and called once: what
        :func:`prepare_side` returned (``error`` if the process died)."""
        return self._reply()

    def time_block(
        self,
        *,
        one_thread: bool,
        warmup: int,
        repeat: int,
        quiet_timeout: float = QUIET_TIMEOUT,
    ) -> dict[str, Any]:
        """:func:`time_side_block` in the side's process (``error`` if it
        failed or the process died)."""
        assert self._proc.stdin is not None
        command = {
            "one_thread": one_thread,
            "warmup": warmup,
            "repeat": repeat,
            "quiet_timeout": quiet_timeout,
        }
        try:
            self._proc.stdin.write(json.dumps(command) + "\n")
            self._proc.stdin.flush()
        except OSError as error:
            return {"error": f"the {self.side} process is gone: {error}"}
        return self._reply()

    def close(self) -> tuple[float | None, Any]:
        """Ends the process. Returns (its peak RSS in MB or None, the first
        call's output or None)."""
        import torch

        try:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        except OSError:
            pass
        if self._proc.stdout is not None:
            for line in self._proc.stdout:
                sys.stderr.write(line)
        self._proc.wait()
        folder = Path(self._folder.name)
        rss_file, output_file = folder / "rss.json", folder / "output.pt"
        rss = json.loads(rss_file.read_text()) if rss_file.exists() else None
        output = torch.load(output_file) if output_file.exists() else None
        self._folder.cleanup()
        return rss, output


def _side_main(args: argparse.Namespace) -> int:
    """``--side WORKLOAD SIDE --side-dir DIR``: build the side, reply with
    :func:`prepare_side`'s result, then time a block for each command line
    on stdin (:class:`SideProcess`) until stdin closes; writes
    ``DIR/output.pt`` and ``DIR/rss.json`` (peak RSS, MB)."""
    import torch

    def reply(value: Mapping[str, Any]) -> None:
        print(_REPLY + json.dumps(value), flush=True)

    name, side = args.side
    if name not in ALL_WORKLOADS or side not in SIDES:
        print(f"unknown workload or side: {name} {side}", file=sys.stderr)
        return 2
    result, call, output = prepare_side(
        ALL_WORKLOADS[name],
        side,
        opt_level=args.opt_level,
        freeze=args.freeze,
        log=lambda message: print(message, file=sys.stderr, flush=True),
    )
    folder = Path(args.side_dir)
    if output is not None:
        torch.save(output, folder / "output.pt")
    reply(result)
    for line in sys.stdin:
        command = json.loads(line)
        if call is None:
            reply({"error": result["error"]})
            continue
        try:
            reply(time_side_block(call, **command))
        except Exception as error:  # noqa: BLE001 - the parent reports it
            reply({"error": f"{type(error).__name__}: {error}"})
    (folder / "rss.json").write_text(json.dumps(peak_rss_mb()))
    return 0


#: Rounds of blocks per side and thread setting (:func:`run_workload`): 10
#: blocks of 6 runs for the workloads of 60, so that a slow spell of the
#: shared host that one side's block meets is one block in 10 of its median.
#: (With 5 blocks of 4 runs, ViT's one-thread ratio to inductor read 0.87,
#: 0.90, 1.04 and 0.92 in four runs of one build: its per-block ratios
#: spanned 0.71-1.13 as the host's speed moved by minutes.)
ROUNDS = 10


#: Seconds a block waits at most for the host to run at speed
#: (:func:`settle_host`).
FAST_TIMEOUT = 30.0
#: The best FMA-loop GFLOP/s of the parent process, per thread count
#: (:func:`settle_host`).
_CANARY_BEST: dict[int, float] = {}


def settle_host(threads: int, *, timeout: float = FAST_TIMEOUT) -> float:
    """Before a side process's block of runs on `threads` threads: `PAUSE`
    seconds idle (the previous block's worker threads stop spinning), then
    :func:`wait_until_fast` with the runtime's FMA loop run here, in the
    parent, on `threads` threads (at most `timeout` seconds), so that the
    eager and inductor processes never load torch2mlir's runtime. The side
    then waits for other processes to go idle (:func:`time_side_block`).
    Returns the seconds waited for speed."""
    time.sleep(PAUSE)
    with thread_count(threads):
        return wait_until_fast(key=threads, best=_CANARY_BEST, timeout=timeout)


def measure_sides(
    workload: Workload,
    sides: Sequence[str],
    *,
    repeat: int,
    warmup: int,
    rounds: int = ROUNDS,
    opt_level: int = 2,
    threads: int | None = None,
    log: Callable[[str], None] = print,
    quiet_timeout: float = QUIET_TIMEOUT,
    freeze: bool = False,
    settle: Callable[[int], float] = settle_host,
) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """Measures `sides` of one workload, each in its own
    :class:`SideProcess`: builds them one after the other, then `rounds`
    rounds, each a block of runs with all threads then with one thread for
    every side in turn (the order rotating by one side per round), so that
    each side's samples are spread over the same minutes. `repeat` timed
    runs per side and thread setting in all, split over the rounds; the
    first block of each side and setting follows `warmup` untimed runs
    (at least one with one thread), later blocks one. Each block starts
    after ``settle(threads)`` (:func:`settle_host`: the host at speed), then
    waits at most `quiet_timeout` seconds for other processes to go idle
    (:func:`time_side_block`). Never raises.

    Returns:
        ({side: result}, {side: the first call's output or None}): each
        result holds what :func:`prepare_side` gives, ``steady``
        ``{"all": stats, "one": stats}`` (see :func:`summarize`: the samples
        of every round; plus ``block_medians``, the median of each round's
        block in milliseconds), ``rounds``, ``quiet_wait_s`` and ``fast_wait_s``
        (per block),
        ``others_cores`` (the largest over its blocks, timed runs only),
        ``peak_rss_mb`` and ``error``.
    """
    procs: dict[str, SideProcess] = {}
    results: dict[str, dict[str, Any]] = {}
    for side in sides:
        log(f"[{workload.name}] {side}, in its own process")
        procs[side] = SideProcess(
            workload, side, opt_level=opt_level, threads=threads, freeze=freeze
        )
        results[side] = procs[side].ready()
    samples: dict[str, dict[str, list[float]]] = {
        side: {"all": [], "one": []} for side in sides
    }
    block_medians: dict[str, dict[str, list[float]]] = {
        side: {"all": [], "one": []} for side in sides
    }
    busy: dict[str, list[float]] = {side: [] for side in sides}
    waits: dict[str, list[float]] = {side: [] for side in sides}
    fast_waits: dict[str, list[float]] = {side: [] for side in sides}
    # The side processes' "all threads": --threads, else PyTorch's default,
    # the same in this process.
    import torch

    all_threads = threads or torch.get_num_threads()
    for index, blocks in enumerate(round_robin(len(sides), repeat, rounds)):
        for label in ("all", "one"):
            for position, count in blocks:
                side = sides[position]
                if results[side].get("error"):
                    continue
                first = index == 0
                before = warmup if first else 1
                if label == "one":
                    before = max(before, 1)
                log(
                    f"[{workload.name}] {side}: round {index + 1}/{rounds}, "
                    f"{before} + {count} runs, "
                    + ("all threads" if label == "all" else "1 thread")
                )
                fast_waits[side].append(settle(1 if label == "one" else all_threads))
                reply = procs[side].time_block(
                    one_thread=label == "one",
                    warmup=before,
                    repeat=count,
                    quiet_timeout=quiet_timeout,
                )
                if reply.get("error"):
                    results[side]["error"] = reply["error"]
                    continue
                samples[side][label] += reply["samples"]
                block_medians[side][label].append(summarize(reply["samples"])["median"])
                waits[side].append(reply["quiet_wait_s"])
                if reply["others_cores"] is not None:
                    busy[side].append(reply["others_cores"])
    outputs = {}
    for side in sides:
        rss, outputs[side] = procs[side].close()
        result = results[side]
        if samples[side]["all"]:
            result["steady"] = {
                label: {
                    **summarize(values),
                    "block_medians": block_medians[side][label],
                }
                for label, values in samples[side].items()
            }
        result["rounds"] = rounds
        result["quiet_wait_s"] = waits[side]
        result["fast_wait_s"] = fast_waits[side]
        result["others_cores"] = max(busy[side]) if busy[side] else None
        result["peak_rss_mb"] = rss
    return results, outputs


def run_side_process(
    workload: Workload,
    side: str,
    *,
    repeat: int,
    warmup: int,
    opt_level: int = 2,
    threads: int | None = None,
    quiet_timeout: float = QUIET_TIMEOUT,
    settle: Callable[[int], float] = settle_host,
) -> tuple[dict[str, Any], Any]:
    """One side of one workload alone, in a new process (one round of
    :func:`measure_sides`; `quiet_timeout` and `settle` as there).

    Returns:
        (``result``, the first call's output or None), as
        :func:`measure_sides` gives them for the side.
    """
    results, outputs = measure_sides(
        workload,
        [side],
        repeat=repeat,
        warmup=warmup,
        rounds=1,
        opt_level=opt_level,
        threads=threads,
        log=lambda message: print(message, file=sys.stderr, flush=True),
        quiet_timeout=quiet_timeout,
        settle=settle,
    )
    return results[side], outputs[side]


def run_workload(
    workload: Workload,
    *,
    repeat: int,
    warmup: int,
    rounds: int = ROUNDS,
    opt_level: int = 2,
    threads: int | None = None,
    inductor: bool = True,
    freeze: bool = False,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Measures one workload on every side, interleaved in `rounds` (see
    :func:`measure_sides`); never raises.

    Returns:
        ``name``, ``description``, ``repeat``, ``warmup``; per side of
        :data:`SIDES` (inductor unless ``inductor=False``) what
        :func:`measure_sides` returns; ``max_abs_error`` (torch2mlir against
        eager) and ``max_abs_error_inductor``, ``max_abs_eager``;
        ``peak_rss_mb`` (the torch2mlir process); ``others_cores`` (the
        largest of the sides); the ratios of :func:`add_ratios`; ``error``
        (None or the message of eager's or torch2mlir's failure: inductor's
        stays in ``result["inductor"]["error"]``).
    """
    result: dict[str, Any] = {
        "name": workload.name,
        "description": workload.description,
        "repeat": repeat,
        "warmup": warmup,
        "rounds": rounds,
        "max_abs_error": None,
        "error": None,
    }
    sides, outputs = measure_sides(
        workload,
        SIDES if inductor else SIDES[:2],
        repeat=repeat,
        warmup=warmup,
        rounds=rounds,
        opt_level=opt_level,
        threads=threads,
        log=log,
        freeze=freeze,
    )
    result.update(sides)
    errors = [
        f"{side}: {result[side]['error']}"
        for side in SIDES[:2]
        if result[side].get("error")
    ]
    try:
        if outputs["eager"] is not None:
            for side, key in (
                ("torch2mlir", "max_abs_error"),
                ("inductor", "max_abs_error_inductor"),
            ):
                if outputs.get(side) is not None:
                    result[key], result["max_abs_eager"] = max_abs_difference(
                        outputs[side], outputs["eager"]
                    )
    except ValueError as error:
        errors.append(f"torch2mlir: {error}")
    result["error"] = "; ".join(errors) or None
    result["peak_rss_mb"] = result["torch2mlir"].get("peak_rss_mb")
    busy = [result[s].get("others_cores") for s in outputs]
    result["others_cores"] = max((b for b in busy if b is not None), default=None)
    return add_ratios(result)


def rss_growth(calls: int, opt_level: int = 2) -> dict[str, Any]:
    """Current RSS (MB) before and after `calls` calls of the compiled MLP
    (after 100 warm-up calls); never raises (``error`` holds a failure).

    The calls run on one thread: what is checked is memory, and a threaded
    small workload can take 30x longer when other processes keep the cores
    busy.
    """
    out: dict[str, Any] = {
        "workload": "mlp",
        "calls": calls,
        "threads": 1,
        "error": None,
    }
    try:
        import torch2mlir

        model, (x,) = _mlp()
        compiled = torch2mlir.compile(model, (x,), opt_level=opt_level)
        with thread_count(1):
            for _ in range(100):
                compiled(x)
            gc.collect()
            before = current_rss_mb()
            start = time.perf_counter()
            for _ in range(calls):
                compiled(x)
            out["seconds"] = time.perf_counter() - start
            gc.collect()
            after = current_rss_mb()
        out["before_mb"], out["after_mb"] = before, after
        out["growth_mb"] = None if before is None or after is None else after - before
    except Exception as error:  # noqa: BLE001 - report it in the JSON
        out["error"] = f"{type(error).__name__}: {error}"
        out["traceback"] = traceback.format_exc()
    return out


_CACHE_SCRIPT = """
import sys, time
start = time.perf_counter()
import torch, torch2mlir
from torch2mlir.models import resnet18
model, x = resnet18().eval(), torch.randn(1, 3, 224, 224)
imported = time.perf_counter()
compiled = torch2mlir.compile(model, (x,))
done = time.perf_counter()
compiled(x)
print(f"{imported - start} {done - imported} {compiled.cache}")
"""


def compile_cache_check() -> dict[str, Any]:
    """ResNet-18 from ``nn.Module`` to a ready-to-run compiled module in a
    new process, with an empty compile cache (cold) and then with the cache
    the first process filled (warm), in seconds; also the time the process
    spent importing torch/torch2mlir and building the model, which both
    pay. Never raises (``error`` holds a failure)."""
    import subprocess
    import tempfile

    out: dict[str, Any] = {"workload": "resnet18", "error": None}
    with tempfile.TemporaryDirectory(prefix="torch2mlir-bench-cache-") as folder:
        env = {**os.environ, "TORCH2MLIR_CACHE_DIR": folder}
        env.pop("TORCH2MLIR_CACHE", None)
        for run in ("cold", "warm"):
            try:
                proc = subprocess.run(
                    [sys.executable, "-c", _CACHE_SCRIPT],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                startup, seconds, status = proc.stdout.split()[-3:]
            except (subprocess.CalledProcessError, ValueError) as error:
                out["error"] = f"{run}: {error}"
                return out
            out[run] = {
                "seconds": float(seconds),
                "startup_seconds": float(startup),
                "cache": status,
            }
    return out


# --------------------------------------------------------------------------
# Command line.


def _parse_workloads(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in ALL_WORKLOADS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown workload(s) {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(ALL_WORKLOADS)}"
        )
    return names


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {value}")
    return value


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m torch2mlir.tools.bench",
        description=__doc__.splitlines()[0],
    )
    parser.add_argument(
        "--workloads",
        type=_parse_workloads,
        default=list(WORKLOADS),
        help=f"comma-separated, of {','.join(ALL_WORKLOADS)} (default: "
        f"{','.join(WORKLOADS)}; the quantized ones only when named)",
    )
    parser.add_argument(
        "--repeat",
        type=_positive,
        help="timed steady-state runs per side and thread setting (default: per "
        "workload, "
        + ", ".join(f"{w.name} {w.repeat}" for w in WORKLOADS.values())
        + ")",
    )
    parser.add_argument(
        "--warmup",
        type=_non_negative,
        help="untimed runs before them (default: per workload, "
        + ", ".join(f"{w.name} {w.warmup}" for w in WORKLOADS.values())
        + ")",
    )
    parser.add_argument(
        "--rounds",
        type=_positive,
        help=f"rounds over which each side's runs are spread, the sides' blocks "
        f"interleaved (default: {ROUNDS}, 1 with --quick)",
    )
    parser.add_argument(
        "--threads",
        type=_positive,
        help="threads of the 'all threads' measurement, for eager and OpenBLAS "
        "(default: as they start, torch's and OpenBLAS's defaults)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=DEFAULT_JSON,
        help=f"where to write the JSON report (default: {DEFAULT_JSON})",
    )
    parser.add_argument(
        "--rss-calls",
        type=_non_negative,
        help=f"calls of the compiled MLP in the RSS-growth check, 0 to skip "
        f"(default: {RSS_CALLS}, {QUICK_RSS_CALLS} with --quick)",
    )
    parser.add_argument(
        "--opt-level",
        type=int,
        default=2,
        choices=range(4),
        help="JIT opt level (default 2)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"repeat {QUICK_REPEAT}, warmup {QUICK_WARMUP} for every workload unless "
        "given, and a shorter RSS check: a smoke run, not figures to quote",
    )
    parser.add_argument(
        "--ops",
        nargs="?",
        const="",
        metavar="NAMES",
        help="instead of the workloads, the op-level sweep (tools/bench_ops.py): "
        "each op family alone, eager vs torch2mlir vs inductor at 1 and all "
        "threads, worst ratio first; NAMES: comma-separated families or name "
        "parts (default: all)",
    )
    parser.add_argument(
        "--no-inductor",
        action="store_true",
        help="no torch.compile(backend='inductor') side (workloads and --ops)",
    )
    parser.add_argument(
        "--freeze",
        action="store_true",
        help="weights as constants on both compilers: torch2mlir.compile(..., "
        "freeze=True) (MKL's packed GEMM) and inductor's freezing option",
    )
    parser.add_argument("--side", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--side-dir", help=argparse.SUPPRESS)
    parser.add_argument(
        "--no-cache-check",
        action="store_true",
        help="skip the compile-cache check (ResNet-18 compiled in two new processes)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    import torch

    from ..runtime import refbackend

    if args.threads is not None:
        torch.set_num_threads(args.threads)
    if args.side:
        return _side_main(args)
    rss_calls = args.rss_calls
    if rss_calls is None:
        rss_calls = QUICK_RSS_CALLS if args.quick else RSS_CALLS

    meta = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "threads": {
            "torch": torch.get_num_threads(),
            "torch2mlir": refbackend.max_threads(),
        },
        "openmp_library": refbackend.openmp_library(),
        "opt_level": args.opt_level,
        "freeze": args.freeze,
        "quick": args.quick,
        "argv": list(sys.argv[1:] if argv is None else argv),
        "units": {
            "compile": "seconds",
            "first_ms, steady": "milliseconds",
            "peak_rss_mb, rss_growth": "MB (2**20 bytes)",
            "ratio": "torch2mlir time / eager time",
            "ratio_inductor": "torch2mlir time / inductor time",
            "ready_s": "seconds from the model to its first result",
            "others_cores": "cores kept busy by other processes (mean)",
        },
    }
    print(
        f"torch {meta['torch']}, {meta['cpu_count']} CPUs; all threads = "
        f"{meta['threads']['torch']} (torch2mlir parallel loops: "
        f"{meta['threads']['torch2mlir']} threads on {meta['openmp_library']})",
        flush=True,
    )

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    if args.ops is not None:
        return _op_sweep(args, meta, log)

    before_peaks = None
    if any(ALL_WORKLOADS[name].flops for name in args.workloads):
        log("[peak] fp32 FMA peak")
        before_peaks = measure_peak(sorted({1, meta["threads"]["torch"]}))

    results = []
    for name in args.workloads:
        workload = ALL_WORKLOADS[name]
        repeat = args.repeat or (QUICK_REPEAT if args.quick else workload.repeat)
        warmup = args.warmup
        if warmup is None:
            warmup = QUICK_WARMUP if args.quick else workload.warmup
        result = run_workload(
            workload,
            repeat=repeat,
            warmup=warmup,
            rounds=args.rounds or (1 if args.quick else ROUNDS),
            opt_level=args.opt_level,
            threads=args.threads,
            inductor=not args.no_inductor,
            freeze=args.freeze,
            log=log,
        )
        if result["error"]:
            log(f"[{name}] FAILED: {result['error']}")
        results.append(result)

    peaks = None
    if before_peaks is not None:
        # The best of the runs before and after the workloads: on a shared
        # host a slow spell during one of them must not lower the peak.
        log("[peak] fp32 FMA peak, again")
        after_peaks = measure_peak(sorted({1, meta["threads"]["torch"]}))
        peaks = {
            n: max(before_peaks[n], after_peaks[n], key=lambda p: p["gflops"])
            for n in before_peaks
        }

    rss = None
    if rss_calls:
        log(f"[rss] {rss_calls} calls of the compiled MLP")
        rss = rss_growth(rss_calls, args.opt_level)

    cache_check = None
    if not args.no_cache_check:
        log("[cache] ResNet-18 compile in new processes, cold then warm cache")
        cache_check = compile_cache_check()

    report = {
        "meta": meta,
        "workloads": results,
        "geomean": summary(results),
        "rss_growth": rss,
        "compile_cache": cache_check,
        "peak": peaks,
        "peak_fraction": peak_fraction(
            results, peaks or {}, {"all": meta["threads"]["torch"], "one": 1}
        ),
    }
    print()
    print(format_tables(report))
    path = write_json(report, args.json)
    print(f"\nJSON report: {path}")
    failed = [r["name"] for r in results if r["error"]]
    if rss and rss["error"]:
        failed.append("rss_growth")
    if cache_check and cache_check["error"]:
        failed.append("compile_cache")
    return 1 if failed else 0


def _op_sweep(
    args: argparse.Namespace, meta: dict[str, Any], log: Callable[[str], None]
) -> int:
    """``--ops``: the op-level sweep of bench_ops.py, its table and JSON."""
    import torch

    from . import bench_ops

    threads = sorted({1, torch.get_num_threads()})
    results = bench_ops.run_sweep(
        names=args.ops or None,
        repeat=args.repeat or (QUICK_REPEAT if args.quick else None),
        warmup=args.warmup
        if args.warmup is not None
        else (QUICK_WARMUP if args.quick else None),
        threads=threads,
        inductor=not args.no_inductor,
        log=log,
        rounds=args.rounds or (1 if args.quick else None),
    )
    print()
    print(bench_ops.format_table(results, threads))
    json_path = args.json
    if json_path == DEFAULT_JSON:
        json_path = DEFAULT_JSON.with_name("bench_ops.json")
    path = write_json({"meta": meta, "ops": results}, json_path)
    print(f"\nJSON report: {path}")
    return 1 if any(r["error"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
