"""Benchmark torch2mlir against eager PyTorch on CPU, in one process.

For every workload (the same model object, the same input tensor):

- torch2mlir compile phases, in seconds: ``export``, ``import``,
  ``lowering`` (all pipelines), ``jit`` (LLVM code generation), from
  ``CompiledModule.timings``;
- first run after compilation and the steady state (median over
  ``--repeat`` runs after ``--warmup`` runs), for torch2mlir and eager
  PyTorch (under ``torch.no_grad()``, ``model.eval()``), in milliseconds;
- the same steady state with one thread: ``torch.set_num_threads(1)``,
  which sizes both eager PyTorch and the compiled code (its parallel loops
  and BLAS kernels run on PyTorch's OpenMP team; OpenBLAS itself is
  single-threaded);
- the largest absolute difference between the two outputs;
- the peak resident set size after the workload, in MB (2**20 bytes), from
  ``getrusage``: process-wide and monotonic, so it includes every workload
  before it.

Workloads compile with ``cache=False`` so their compile phases are real; a
separate check compiles ResNet-18 in two new processes sharing an empty
compile cache (cold, then warm) and reports both times. The
``mlp_dynamic`` workload is compiled with a dynamic batch and timed at
another batch size.

Steady-state runs are timed in blocks, eager then torch2mlir, each after a
short pause and its warm-up runs (see :func:`time_blocks`). Then a leak check: RSS (current, from
``/proc/self/statm``) before and after 10,000 calls of the compiled MLP.

The ratio is torch2mlir time / eager time (below 1: torch2mlir is faster);
the last line of the table is the geometric mean of the ratios. Nothing is
asserted about timings: the tool exits 0 when every workload compiled and
ran, 1 when one failed (its error is printed and kept in the JSON), 2 for
bad arguments.

``--ops`` runs the op-level sweep instead (see bench_ops.py): each op
family alone, eager vs torch2mlir vs ``torch.compile`` (inductor), 1 and
all threads, worst ratio first (JSON in reports/bench_ops.json).

Usage:
    python -m torch2mlir.tools.bench [--workloads matmul512,mlp] [--repeat N]
        [--warmup N] [--threads N] [--json reports/bench.json] [--quick]
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


def _steady(result: Mapping[str, Any], side: str, threads: str) -> float | None:
    """Median steady-state time in ms of `side` ("torch2mlir"/"eager") for
    `threads` ("all"/"one"), or None if not measured."""
    stats = result.get(side, {}).get("steady", {}).get(threads)
    return None if not stats else stats["median"]


def add_ratios(result: dict[str, Any]) -> dict[str, Any]:
    """Sets ``result["ratio"] = {"all": r, "one": r}`` (torch2mlir / eager
    median steady-state time, all threads and one thread); returns `result`."""
    result["ratio"] = {
        threads: ratio(
            _steady(result, "torch2mlir", threads), _steady(result, "eager", threads)
        )
        for threads in ("all", "one")
    }
    return result


def summary(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Geometric means of the ratios over the workloads that have them:
    ``{"all": g, "one": g, "workloads": {"all": [...], "one": [...]}}``."""
    out: dict[str, Any] = {"workloads": {}}
    for threads in ("all", "one"):
        names = [
            r["name"] for r in results if r.get("ratio", {}).get(threads) is not None
        ]
        out[threads] = geomean(
            [r["ratio"][threads] for r in results if r["name"] in names]
        )
        out["workloads"][threads] = names
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


def format_tables(report: Mapping[str, Any]) -> str:
    """The report as plain aligned text: compile phases (s), run times (ms)
    with the ratios and their geometric mean, then the RSS figures and notes."""
    results = report["workloads"]
    meta = report.get("meta", {})
    out: list[str] = []

    rows = [["workload", "export s", "import s", "lowering s", "jit s", "total s"]]
    for r in results:
        t = r.get("torch2mlir", {}).get("compile")
        if not t:
            rows.append([r["name"], *(["-"] * 5)])
            continue
        rows.append(
            [
                r["name"],
                *(
                    _fmt(t.get(k), ".3f")
                    for k in ("export", "import", "lowering", "jit")
                ),
                _fmt(
                    sum(t.get(k, 0.0) for k in ("export", "import", "lowering", "jit")),
                    ".3f",
                ),
            ]
        )
    out.append("torch2mlir compile phases (seconds)")
    out += _align(rows)
    out.append("")

    threads = meta.get("threads", {})
    all_label = f"{threads.get('torch', '?')}T"
    header = [
        "workload",
        "t2m 1st",
        "eager 1st",
        f"t2m {all_label}",
        f"eager {all_label}",
        "ratio",
        "t2m 1T",
        "eager 1T",
        "ratio 1T",
        "max abs err",
        "peak RSS MB",
        "others",
    ]
    rows = [header]
    for r in results:
        t2m = r.get("torch2mlir", {})
        eager = r.get("eager", {})
        rows.append(
            [
                r["name"],
                _fmt(t2m.get("first_ms"), ".2f"),
                _fmt(eager.get("first_ms"), ".2f"),
                _fmt(_steady(r, "torch2mlir", "all"), ".2f"),
                _fmt(_steady(r, "eager", "all"), ".2f"),
                _fmt(r.get("ratio", {}).get("all"), ".2f"),
                _fmt(_steady(r, "torch2mlir", "one"), ".2f"),
                _fmt(_steady(r, "eager", "one"), ".2f"),
                _fmt(r.get("ratio", {}).get("one"), ".2f"),
                _fmt(r.get("max_abs_error"), ".2e"),
                _fmt(r.get("peak_rss_mb"), ".0f"),
                _fmt(r.get("others_cores"), ".2f"),
            ]
        )
    geo = report.get("geomean", {})
    rows.append(
        ["geomean", *[""] * 4, _fmt(geo.get("all"), ".2f")]
        + [""] * 2
        + [_fmt(geo.get("one"), ".2f")]
        + [""] * 3
    )
    out.append(
        "run times (milliseconds; steady state = median; ratio = torch2mlir / eager, "
        "below 1 = torch2mlir faster)"
    )
    lines = _align(rows)
    out += lines[:-1] + ["-" * len(lines[0]), lines[-1]]

    busy = [r["name"] for r in results if (r.get("others_cores") or 0.0) > BUSY_CORES]
    if busy:
        out.append(
            f"WARNING: other processes kept the CPU busy during {', '.join(busy)} "
            f"(column 'others', in cores): those timings, all-threads ones above "
            f"all, are not the code's speed. Run again on an idle machine."
        )
    failed = [r for r in results if r.get("error")]
    for r in failed:
        out.append(f"FAILED {r['name']}: {r['error']}")

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
        "peak RSS: getrusage ru_maxrss after each workload; process-wide and "
        "monotonic (includes all earlier workloads)."
    )
    out.append(
        f"threads: all = {threads.get('torch', '?')} (torch.set_num_threads, for "
        f"both); 1T = 1. "
        f"repeat/warmup per workload are in the JSON. others: mean number of "
        f"cores that other processes used during the workload (0 when idle)."
    )
    return "\n".join(out)


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


def time_blocks(
    fns: Sequence[Callable[[], Any]], warmup: int, repeat: int, pause: float = PAUSE
) -> list[list[float]]:
    """For each fn in turn, a block: `pause` seconds idle, `warmup` untimed
    calls, `repeat` timed calls. Returns the durations (seconds) per fn.

    Blocks rather than alternating calls: both eager PyTorch (OpenMP) and
    OpenBLAS keep their worker threads spinning for a while after a parallel
    call, and on a machine with few cores the other side's spinning threads
    would be measured too.
    """
    samples: list[list[float]] = []
    for fn in fns:
        time.sleep(pause)
        with _no_gc():
            for _ in range(warmup):
                fn()
            samples.append([_timed(fn)[0] for _ in range(repeat)])
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
    """A model and its input; `repeat`/`warmup` are the default run counts."""

    name: str
    description: str
    make: Callable[[], tuple[Any, Any]]  # () -> (model in eval mode, input)
    repeat: int
    warmup: int
    #: For a dynamic-shape workload: () -> (example input to compile with,
    #: ``dynamic_shapes``); the timed runs use the input of `make`, another
    #: size in the declared range.
    dynamic: Callable[[], tuple[Any, Any]] | None = None


def _randn(*shape: int, seed: int = 0) -> Any:
    import torch

    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _matmul(n: int) -> tuple[Any, Any]:
    import torch

    class MatMul(torch.nn.Module):
        """`x @ weight` with a fixed `[n, n]` float32 weight."""

        def __init__(self) -> None:
            super().__init__()
            self.weight = torch.nn.Parameter(_randn(n, n, seed=1))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.mm(x, self.weight)

    return MatMul().eval(), _randn(n, n)


def _mlp() -> tuple[Any, Any]:
    from ..models.mlp import mlp

    return mlp(), _randn(8, 784)


def _resnet18() -> tuple[Any, Any]:
    from ..models.resnet import resnet18

    return resnet18(), _randn(1, 3, 224, 224)


def _resnet50() -> tuple[Any, Any]:
    from ..models.resnet import resnet50

    return resnet50(), _randn(1, 3, 224, 224)


def _bert() -> tuple[Any, Any]:
    from ..models import transformer

    return transformer.bert(), transformer.token_ids(2, 128)


def _gpt2() -> tuple[Any, Any]:
    from ..models import transformer

    return transformer.gpt2(), transformer.token_ids(2, 128)


def _mlp_dynamic_batch() -> tuple[Any, Any]:
    import torch

    batch = torch.export.Dim("batch", min=1, max=512)
    return _randn(8, 784), ({0: batch},)


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in (
        Workload(
            "matmul512",
            "torch.mm, [512,512] x [512,512] fp32",
            lambda: _matmul(512),
            50,
            5,
        ),
        Workload(
            "matmul1024",
            "torch.mm, [1024,1024] x [1024,1024] fp32",
            lambda: _matmul(1024),
            20,
            3,
        ),
        Workload("mlp", "MLP 784-512-256-10, batch 8", _mlp, 200, 20),
        Workload("resnet18", "ResNet-18, [1,3,224,224]", _resnet18, 10, 2),
        Workload("resnet50", "ResNet-50, [1,3,224,224]", _resnet50, 10, 1),
        Workload(
            "bert",
            "BERT (transformers, 4 layers, hidden 256), ids [2,128]",
            _bert,
            20,
            3,
        ),
        Workload(
            "gpt2",
            "GPT-2 (transformers, 4 layers, hidden 256), ids [2,128]",
            _gpt2,
            20,
            3,
        ),
        Workload(
            "mlp_dynamic",
            "MLP compiled for batch in [1, 512] (example 8), run at batch 64",
            lambda: (_mlp()[0], _randn(64, 784)),
            100,
            10,
            dynamic=_mlp_dynamic_batch,
        ),
    )
}
#: --quick: run counts for every workload, and calls of the RSS check.
QUICK_REPEAT, QUICK_WARMUP, QUICK_RSS_CALLS = 3, 1, 2_000


def run_workload(
    workload: Workload,
    *,
    repeat: int,
    warmup: int,
    opt_level: int = 2,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Measures one workload (see the module docstring); never raises: an
    error is returned in ``"error"`` with whatever was measured before it.

    Returns:
        ``name``, ``description``, ``repeat``, ``warmup``; ``eager`` and
        ``torch2mlir`` with ``first_ms`` and ``steady`` ``{"all": stats,
        "one": stats}`` (see :func:`summarize`), ``torch2mlir.compile``
        (seconds per phase); ``max_abs_error``, ``max_abs_eager``;
        ``peak_rss_mb``; ``others_cores`` (see :func:`others_cores`);
        ``ratio``; ``error`` (None or the message).
    """
    import torch

    import torch2mlir

    result: dict[str, Any] = {
        "name": workload.name,
        "description": workload.description,
        "repeat": repeat,
        "warmup": warmup,
        "eager": {},
        "torch2mlir": {},
        "max_abs_error": None,
        "error": None,
    }
    cpu_before, start_wall = cpu_snapshot(), time.perf_counter()
    try:
        model, x = workload.make()
        model.eval()

        def eager() -> Any:
            with torch.no_grad():
                return model(x)

        seconds, want = _timed(eager)
        result["eager"]["first_ms"] = seconds * 1e3

        log(f"[{workload.name}] compiling")
        start = time.perf_counter()
        # cache=False: the compile phases are measured, not read from disk
        # (see compile_cache_check for the cache).
        if workload.dynamic is not None:
            example, dynamic_shapes = workload.dynamic()
            compiled = torch2mlir.compile(
                model,
                (example,),
                dynamic_shapes=dynamic_shapes,
                opt_level=opt_level,
                cache=False,
            )
        else:
            compiled = torch2mlir.compile(model, (x,), opt_level=opt_level, cache=False)
        result["torch2mlir"]["compile"] = dict(compiled.timings)
        result["torch2mlir"]["compile"]["wall"] = time.perf_counter() - start

        def ours() -> Any:
            return compiled(x)

        seconds, got = _timed(ours)
        result["torch2mlir"]["first_ms"] = seconds * 1e3
        result["max_abs_error"] = (got - want).abs().max().item()
        result["max_abs_eager"] = want.abs().max().item()

        log(
            f"[{workload.name}] steady state, all threads: {warmup} + {repeat} runs each"
        )
        t_eager, t_ours = time_blocks([eager, ours], warmup, repeat)
        result["eager"]["steady"] = {"all": summarize(t_eager)}
        result["torch2mlir"]["steady"] = {"all": summarize(t_ours)}

        log(
            f"[{workload.name}] steady state, 1 thread: {max(warmup, 1)} + {repeat} runs each"
        )
        with thread_count(1):
            t_eager, t_ours = time_blocks([eager, ours], max(warmup, 1), repeat)
        result["eager"]["steady"]["one"] = summarize(t_eager)
        result["torch2mlir"]["steady"]["one"] = summarize(t_ours)
    except Exception as error:  # noqa: BLE001 - report it, go on with the next workload
        result["error"] = f"{type(error).__name__}: {error}"
        result["traceback"] = traceback.format_exc()
    result["peak_rss_mb"] = peak_rss_mb()
    result["others_cores"] = others_cores(
        cpu_before, cpu_snapshot(), time.perf_counter() - start_wall
    )
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

        model, x = _mlp()
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
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown workload(s) {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(WORKLOADS)}"
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
        help=f"comma-separated, of {','.join(WORKLOADS)} (default: all)",
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
        help="with --ops: no torch.compile(backend='inductor') column",
    )
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
        "quick": args.quick,
        "argv": list(sys.argv[1:] if argv is None else argv),
        "units": {
            "compile": "seconds",
            "first_ms, steady": "milliseconds",
            "peak_rss_mb, rss_growth": "MB (2**20 bytes)",
            "ratio": "torch2mlir time / eager time",
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

    results = []
    for name in args.workloads:
        workload = WORKLOADS[name]
        repeat = args.repeat or (QUICK_REPEAT if args.quick else workload.repeat)
        warmup = args.warmup
        if warmup is None:
            warmup = QUICK_WARMUP if args.quick else workload.warmup
        result = run_workload(
            workload,
            repeat=repeat,
            warmup=warmup,
            opt_level=args.opt_level,
            log=log,
        )
        if result["error"]:
            log(f"[{name}] FAILED: {result['error']}")
        results.append(result)

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
