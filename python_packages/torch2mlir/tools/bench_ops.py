"""The op-level sweep of ``python -m torch2mlir.tools.bench --ops``.

Each op family alone, at a realistic size, as one small module: eager
PyTorch, ``torch2mlir.compile`` and ``torch.compile(backend="inductor")``
(unless ``--no-inductor``), all in this process, at 1 thread and at all
threads (``torch.set_num_threads``). Per (op, side, threads): the median,
min and max of ``repeat`` steady-state runs after ``warmup`` runs, in
milliseconds, timed in blocks interleaved over 6 rounds (see
:func:`bench.time_blocks`), each block once other processes are idle
(:data:`QUIET_CORES`) and the host runs at speed (an FMA loop on the
block's threads, :func:`bench.wait_until_fast`). The table is
sorted by the worse of the two torch2mlir / eager ratios, worst first, so
the cliffs lead; the torch2mlir / inductor ratio is printed next to it.

Every torch2mlir output is compared with eager (``torch.allclose``, rtol and
atol 1e-4 for float32): a mismatch is reported as an error for that op,
never timed as if it were right.
"""

from __future__ import annotations

import math
import statistics
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: Runs per (op, side, threads), warm-up runs before each block of them, and
#: the rounds of blocks they are spread over. A slow spell of a shared host
#: (seconds long, unseen by :data:`QUIET_CORES`: 2-thread medians of both
#: eager and ours at 5x their usual) fell on one block of 3 and moved a
#: side's median; over 6 rounds it is one block in 6, under the median.
DEFAULT_REPEAT, DEFAULT_WARMUP, DEFAULT_ROUNDS = 36, 3, 6

#: Each block of timed runs starts once other processes have used under
#: this many cores for a window of QUIET_WINDOW seconds (at most
#: QUIET_TIMEOUT seconds of waiting): on a shared host, one op's runs
#: ranged from 1.3 to 33 ms with a fixed pause before each block.
QUIET_CORES, QUIET_WINDOW, QUIET_TIMEOUT = 0.1, 0.25, 30.0

#: Then the host must run at speed (:func:`bench.wait_until_fast`), against
#: the best FMA-loop GFLOP/s seen in this process per thread count
#: (``bench._CANARY_BEST``, shared with the workload bench).


@dataclass(frozen=True)
class OpCase:
    """One op family at one size: ``make() -> (module in eval mode, inputs)``."""

    family: str
    name: str
    make: Callable[[], tuple[Any, tuple[Any, ...]]]


def _cases() -> list[OpCase]:
    import torch
    import torch.nn.functional as F
    from torch import nn

    def randn(*shape: int) -> Any:
        return torch.randn(*shape, generator=torch.Generator().manual_seed(0))

    class Fn(nn.Module):
        def __init__(self, fn: Callable[..., Any]) -> None:
            super().__init__()
            self.fn = fn

        def forward(self, *xs: Any) -> Any:
            return self.fn(*xs)

    def module(m: nn.Module, *shapes: tuple[int, ...]) -> Callable[[], Any]:
        return lambda: (m.eval(), tuple(randn(*s) for s in shapes))

    def fn(f: Callable[..., Any], *shapes: tuple[int, ...]) -> Callable[[], Any]:
        return module(Fn(f), *shapes)

    def indices(high: int, *shape: int) -> Any:
        return torch.randint(high, shape, generator=torch.Generator().manual_seed(1))

    def with_index(
        f: Callable[..., Any],
        shape: tuple[int, ...],
        high: int,
        ishape: tuple[int, ...],
    ) -> Callable[[], Any]:
        return lambda: (Fn(f).eval(), (randn(*shape), indices(high, *ishape)))

    torch.manual_seed(0)
    return [
        OpCase(
            "conv",
            "Conv2d(64,64,3) [1,64,56,56]",
            module(nn.Conv2d(64, 64, 3), (1, 64, 56, 56)),
        ),
        OpCase(
            "conv",
            "Conv2d 1x1 (256,64) [1,256,56,56]",
            module(nn.Conv2d(256, 64, 1), (1, 256, 56, 56)),
        ),
        OpCase(
            "conv",
            "Conv2d(64,128,3,s2) [1,64,56,56]",
            module(nn.Conv2d(64, 128, 3, stride=2, padding=1), (1, 64, 56, 56)),
        ),
        OpCase(
            "conv",
            "Conv2d dilated(64,64,3,d2) [1,64,56,56]",
            module(nn.Conv2d(64, 64, 3, dilation=2), (1, 64, 56, 56)),
        ),
        OpCase(
            "conv",
            "depthwise Conv2d(64,64,3,g64) [1,64,56,56]",
            module(nn.Conv2d(64, 64, 3, groups=64), (1, 64, 56, 56)),
        ),
        OpCase(
            "conv",
            "grouped Conv2d(64,64,3,g4) [1,64,56,56]",
            module(nn.Conv2d(64, 64, 3, groups=4), (1, 64, 56, 56)),
        ),
        OpCase(
            "conv",
            "Conv1d(64,64,3) [1,64,3199]",
            module(nn.Conv1d(64, 64, 3), (1, 64, 3199)),
        ),
        OpCase(
            "conv",
            "Conv1d(64,64,3,s2) [1,64,3199]",
            module(nn.Conv1d(64, 64, 3, stride=2), (1, 64, 3199)),
        ),
        OpCase(
            "conv",
            "Conv3d(16,16,3) [1,16,16,32,32]",
            module(nn.Conv3d(16, 16, 3), (1, 16, 16, 32, 32)),
        ),
        OpCase(
            "conv",
            "ConvTranspose2d(64,32,4,s2) [1,64,28,28]",
            module(nn.ConvTranspose2d(64, 32, 4, stride=2), (1, 64, 28, 28)),
        ),
        OpCase(
            "conv",
            "ConvTranspose1d(64,32,4,s2) [1,64,1024]",
            module(nn.ConvTranspose1d(64, 32, 4, stride=2), (1, 64, 1024)),
        ),
        OpCase(
            "conv",
            "ConvTranspose3d(16,8,2,s2) [1,16,8,16,16]",
            module(nn.ConvTranspose3d(16, 8, 2, stride=2), (1, 16, 8, 16, 16)),
        ),
        OpCase(
            "pool",
            "MaxPool2d(3,2) [1,64,112,112]",
            module(nn.MaxPool2d(3, 2, 1), (1, 64, 112, 112)),
        ),
        OpCase(
            "pool",
            "AvgPool2d(2) [1,64,56,56]",
            module(nn.AvgPool2d(2), (1, 64, 56, 56)),
        ),
        OpCase(
            "pool",
            "AdaptiveAvgPool2d(1) [8,512,7,7]",
            module(nn.AdaptiveAvgPool2d(1), (8, 512, 7, 7)),
        ),
        OpCase(
            "norm",
            "BatchNorm2d(64) [8,64,56,56]",
            module(nn.BatchNorm2d(64), (8, 64, 56, 56)),
        ),
        OpCase("norm", "LayerNorm(768) [64,768]", module(nn.LayerNorm(768), (64, 768))),
        OpCase(
            "norm",
            "LayerNorm(768) [8,128,768]",
            module(nn.LayerNorm(768), (8, 128, 768)),
        ),
        OpCase(
            "norm",
            "GroupNorm(8,64) [8,64,56,56]",
            module(nn.GroupNorm(8, 64), (8, 64, 56, 56)),
        ),
        OpCase(
            "norm", "RMSNorm(768) [8,128,768]", module(nn.RMSNorm(768), (8, 128, 768))
        ),
        OpCase(
            "softmax",
            "Softmax(-1) [8,12,128,128]",
            module(nn.Softmax(-1), (8, 12, 128, 128)),
        ),
        OpCase(
            "softmax",
            "LogSoftmax(-1) [64,32000]",
            module(nn.LogSoftmax(-1), (64, 32000)),
        ),
        OpCase(
            "softmax", "Softmax(1) [64,1000,16]", module(nn.Softmax(1), (64, 1000, 16))
        ),
        OpCase(
            "attention",
            "SDPA [8,12,128,64]",
            fn(
                F.scaled_dot_product_attention,
                (8, 12, 128, 64),
                (8, 12, 128, 64),
                (8, 12, 128, 64),
            ),
        ),
        OpCase(
            "attention",
            "SDPA causal [8,12,128,64]",
            fn(
                lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                (8, 12, 128, 64),
                (8, 12, 128, 64),
                (8, 12, 128, 64),
            ),
        ),
        OpCase(
            "reduction", "sum(-1) [1024,4096]", fn(lambda x: x.sum(-1), (1024, 4096))
        ),
        OpCase("reduction", "sum(0) [1024,4096]", fn(lambda x: x.sum(0), (1024, 4096))),
        OpCase(
            "reduction", "mean(-1) [1024,4096]", fn(lambda x: x.mean(-1), (1024, 4096))
        ),
        OpCase(
            "reduction", "amax(-1) [1024,4096]", fn(lambda x: x.amax(-1), (1024, 4096))
        ),
        OpCase(
            "reduction", "var(-1) [1024,4096]", fn(lambda x: x.var(-1), (1024, 4096))
        ),
        OpCase(
            "reduction",
            "argmax(-1) [1024,4096]",
            fn(lambda x: x.argmax(-1), (1024, 4096)),
        ),
        OpCase(
            "elementwise",
            "gelu(x*y+z) [4M]",
            fn(lambda x, y, z: F.gelu(x * y + z), (4 << 20,), (4 << 20,), (4 << 20,)),
        ),
        OpCase(
            "elementwise",
            "sigmoid*tanh [1024,4096]",
            fn(lambda x: torch.sigmoid(x) * torch.tanh(x), (1024, 4096)),
        ),
        OpCase(
            "elementwise",
            "add broadcast [1024,4096]+[4096]",
            fn(torch.add, (1024, 4096), (4096,)),
        ),
        OpCase(
            "elementwise",
            "transpose+add [1024,4096]",
            fn(lambda x, y: x.t() + y, (4096, 1024), (1024, 4096)),
        ),
        OpCase("matmul", "matmul 1024^2", fn(torch.matmul, (1024, 1024), (1024, 1024))),
        OpCase(
            "matmul",
            "Linear(768,3072) [1024,768]",
            module(nn.Linear(768, 3072), (1024, 768)),
        ),
        OpCase(
            "matmul",
            "bmm [96,128,64]x[96,64,128]",
            fn(torch.bmm, (96, 128, 64), (96, 64, 128)),
        ),
        OpCase(
            "indexing",
            "embedding [32000,768] x [8,128]",
            lambda: (nn.Embedding(32000, 768).eval(), (indices(32000, 8, 128),)),
        ),
        OpCase(
            "indexing",
            "gather(-1) [1024,4096]",
            with_index(lambda x, i: x.gather(-1, i), (1024, 4096), 4096, (1024, 512)),
        ),
        OpCase(
            "indexing",
            "index_select(0) [32000,768]",
            with_index(lambda x, i: x.index_select(0, i), (32000, 768), 32000, (4096,)),
        ),
        OpCase(
            "indexing",
            "scatter_add(-1) [1024,4096]",
            with_index(
                lambda x, i: x.scatter_add(-1, i, torch.ones_like(i, dtype=x.dtype)),
                (1024, 4096),
                4096,
                (1024, 512),
            ),
        ),
        OpCase(
            "scan", "cumsum(-1) [1024,4096]", fn(lambda x: x.cumsum(-1), (1024, 4096))
        ),
        OpCase("sort", "sort(-1) [256,4096]", fn(lambda x: x.sort(-1)[0], (256, 4096))),
        OpCase(
            "sort", "topk(16) [256,4096]", fn(lambda x: x.topk(16, -1)[0], (256, 4096))
        ),
        OpCase(
            "interpolate",
            "nearest x2 [1,64,56,56]",
            fn(lambda x: F.interpolate(x, scale_factor=2.0), (1, 64, 56, 56)),
        ),
        OpCase(
            "interpolate",
            "bilinear x2 [1,64,56,56]",
            fn(
                lambda x: F.interpolate(x, scale_factor=2.0, mode="bilinear"),
                (1, 64, 56, 56),
            ),
        ),
    ]


def _stats(samples: Sequence[float]) -> dict[str, float]:
    ms = [s * 1e3 for s in samples]
    return {"median_ms": statistics.median(ms), "min_ms": min(ms), "max_ms": max(ms)}


def _close(got: Any, want: Any) -> bool:
    import torch

    if isinstance(want, torch.Tensor):
        if want.is_floating_point():
            return bool(torch.allclose(got, want, rtol=1e-4, atol=1e-4))
        return bool(torch.equal(got, want))
    return all(_close(g, w) for g, w in zip(got, want, strict=True))


def run_case(
    case: OpCase,
    *,
    repeat: int,
    warmup: int,
    threads: Sequence[int],
    inductor: bool,
    log: Callable[[str], None],
    rounds: int = DEFAULT_ROUNDS,
) -> dict[str, Any]:
    """Times one op (see the module docstring), its sides' blocks
    interleaved over `rounds` (see :func:`bench.time_blocks`); never raises:
    an error is returned in ``"error"`` with what was measured before it."""
    import torch

    import torch2mlir

    from .bench import (
        _CANARY_BEST,
        thread_count,
        time_blocks,
        wait_until_fast,
        wait_until_quiet,
    )

    def settle() -> None:
        wait_until_quiet(
            threshold=QUIET_CORES, window=QUIET_WINDOW, timeout=QUIET_TIMEOUT
        )
        wait_until_fast(
            key=torch.get_num_threads(),
            best=_CANARY_BEST,
            window=QUIET_WINDOW,
            timeout=QUIET_TIMEOUT,
        )

    result: dict[str, Any] = {"family": case.family, "name": case.name, "error": None}
    try:
        model, inputs = case.make()
        with torch.no_grad():
            want = model(*inputs)
        sides: dict[str, Callable[[], Any]] = {}

        def eager() -> Any:
            with torch.no_grad():
                return model(*inputs)

        sides["eager"] = eager
        log(f"[{case.name}] torch2mlir compile")
        compiled = torch2mlir.compile(model, inputs, cache=False)
        if not _close(compiled(*inputs), want):
            raise AssertionError("torch2mlir's output does not match eager")
        sides["torch2mlir"] = lambda: compiled(*inputs)
        if inductor:
            log(f"[{case.name}] inductor compile")
            optimized = torch.compile(model, backend="inductor")
            with torch.no_grad():
                optimized(*inputs)

            def run_inductor() -> Any:
                with torch.no_grad():
                    return optimized(*inputs)

            sides["inductor"] = run_inductor
        for count in threads:
            with thread_count(count):
                samples = time_blocks(
                    list(sides.values()), warmup, repeat, rounds=rounds, settle=settle
                )
            for side, timing in zip(sides, samples, strict=True):
                result.setdefault(side, {})[str(count)] = _stats(timing)
    except Exception as error:  # noqa: BLE001 - report it, go on with the next op
        result["error"] = f"{type(error).__name__}: {error}"
        result["traceback"] = traceback.format_exc()
    return result


def _ratio(result: dict[str, Any], side: str, base: str, threads: str) -> float | None:
    try:
        return result[side][threads]["median_ms"] / result[base][threads]["median_ms"]
    except (KeyError, ZeroDivisionError):
        return None


def worst_ratio(result: dict[str, Any]) -> float:
    """The larger torch2mlir / eager ratio over the thread settings (inf for
    an op that failed): the sort key of the table."""
    ratios = [_ratio(result, "torch2mlir", "eager", t) for t in result.get("eager", {})]
    known = [r for r in ratios if r is not None]
    return max(known) if known and not result["error"] else math.inf


def format_table(results: Sequence[dict[str, Any]], threads: Sequence[int]) -> str:
    """The sweep as a text table, worst torch2mlir / eager ratio first: per
    thread count, eager median and torch2mlir median / min / max (ms), and
    the ratios to eager and to inductor."""
    header = ["op"]
    for t in threads:
        header += [
            f"eager {t}t",
            f"ours {t}t (min-max)",
            f"/eager {t}t",
            f"/inductor {t}t",
        ]
    rows = [header]
    for r in sorted(results, key=worst_ratio, reverse=True):
        if r["error"]:
            rows.append([r["name"], f"FAILED: {r['error'][:90]}"])
            continue
        row = [r["name"]]
        for key in map(str, threads):
            ours = r["torch2mlir"][key]
            row.append(f"{r['eager'][key]['median_ms']:.3f}")
            row.append(
                f"{ours['median_ms']:.3f} ({ours['min_ms']:.3f}-{ours['max_ms']:.3f})"
            )
            eager_ratio = _ratio(r, "torch2mlir", "eager", key)
            inductor_ratio = _ratio(r, "torch2mlir", "inductor", key)
            row.append(f"{eager_ratio:.2f}" if eager_ratio else "-")
            row.append(f"{inductor_ratio:.2f}" if inductor_ratio else "-")
        rows.append(row)
    widths = [
        max(len(row[i]) for row in rows if i < len(row)) for i in range(len(header))
    ]
    return "\n".join(
        "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        )
        for row in rows
    )


def run_sweep(
    *,
    names: str | None,
    repeat: int | None,
    warmup: int | None,
    threads: Sequence[int],
    inductor: bool,
    log: Callable[[str], None],
    rounds: int | None = None,
) -> list[dict[str, Any]]:
    """Runs the cases whose name or family contains one of the
    comma-separated `names` (all when None)."""
    wanted = [n.strip().lower() for n in names.split(",")] if names else None
    results = []
    for case in _cases():
        if wanted and not any(
            w in case.name.lower() or w == case.family for w in wanted
        ):
            continue
        result = run_case(
            case,
            repeat=repeat or DEFAULT_REPEAT,
            warmup=DEFAULT_WARMUP if warmup is None else warmup,
            threads=threads,
            inductor=inductor,
            log=log,
            rounds=rounds or DEFAULT_ROUNDS,
        )
        if result["error"]:
            log(f"[{case.name}] FAILED: {result['error']}")
        results.append(result)
    return results
