"""Compile and run real models with torch2mlir, side by side with eager PyTorch.

For each model: the time spent in torch.export, import, lowering (all
pipelines), JIT compilation and one run; the eager run time; the largest
absolute difference from eager; PASS when it is within
``1e-4 * max(1, max|eager output|)``.

With ``--backend linalg-on-tensors,tosa`` each model compiles for every
backend listed, and the lines after the first give the run time as a ratio
to the first backend's.

Usage:
    python -m torch2mlir.tools.demo [--backend NAMES] [--repeat N] [MODEL ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from functools import partial

import torch

#: name -> (model factory, example input factory)
MODELS: dict[str, tuple[Callable[[], torch.nn.Module], Callable[[], torch.Tensor]]] = {}


def _register_models() -> None:
    from ..models import efficientnet_b0, mlp, mobilenet_v3_small, resnet18, resnet50

    MODELS["mlp"] = (
        mlp,
        lambda: torch.randn(8, 784, generator=torch.Generator().manual_seed(0)),
    )
    MODELS["resnet18"] = (
        resnet18,
        lambda: torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(0)),
    )
    MODELS["resnet50"] = (
        resnet50,
        lambda: torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(0)),
    )
    MODELS["mobilenet_v3_small"] = (
        mobilenet_v3_small,
        lambda: torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(0)),
    )
    MODELS["efficientnet_b0"] = (
        efficientnet_b0,
        lambda: torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(0)),
    )
    # transformers zoo (needs the `transformers` package; imported on use).
    for name in ("bert", "gpt2", "t5", "llama", "mixtral"):
        MODELS[name] = (
            _zoo_factory(name),
            lambda: _transformer().token_ids(2, 128),
        )
    MODELS["vit"] = (
        lambda: _transformer().vit(image_size=224, patch_size=16),
        lambda: _transformer().images(2, 224),
    )


def _zoo_factory(name: str) -> Callable[[], torch.nn.Module]:
    """The factory of the transformers zoo's model `name` (imported on use)."""
    return lambda: getattr(_transformer(), name)()


def _transformer():
    from ..models import transformer

    return transformer


def _median_seconds(call: Callable[[], object], repeat: int) -> float:
    """The median wall time of `repeat` calls of `call`, in seconds."""
    return statistics.median(timeit.repeat(call, number=1, repeat=repeat))


def run_model(name: str, backends: list[str], repeat: int = 1) -> bool:
    """Compiles model `name` for each of `backends` (names of
    ``torch2mlir.compiler.backends.BACKENDS``), runs it and prints one line
    per backend: compile phases (seconds), the run time (the first call for
    `repeat` 1, else the median of `repeat` calls after it), eager's (the
    median of `repeat` calls after a warm-up), the max abs error against
    eager and PASS when it is within ``1e-4 * max(1, max|eager output|)``.
    Returns whether every backend passed."""
    import torch2mlir

    factory, make_input = MODELS[name]
    model = factory().eval()
    x = make_input()
    with torch.no_grad():
        want = model(x)  # also the warm-up
        eager = _median_seconds(lambda: model(x), repeat)
    bound = 1e-4 * max(1.0, want.abs().max().item())
    ok, first_run = True, None
    for backend in backends:
        compiled = torch2mlir.compile(model, (x,), backend=backend)
        start = time.perf_counter()
        got = compiled(x)
        run = time.perf_counter() - start
        if repeat > 1:
            run = _median_seconds(partial(compiled, x), repeat)
        error = (got - want).abs().max().item()
        ok &= error <= bound
        t = compiled.timings
        versus = "" if first_run is None else f" ({run / first_run:.2f}x {backends[0]})"
        first_run = first_run or run
        label = name if len(backends) == 1 else f"{name} [{backend}]"
        print(
            f"{label:18s} export {t['export']:7.3f} s | import {t['import']:7.3f} s | "
            f"lowering {t['lowering']:7.3f} s | jit {t['jit']:7.3f} s | "
            f"run {run:8.4f} s{versus} | eager {eager:8.4f} s | "
            f"max abs err {error:.2e} (bound {bound:.1e}) | "
            f"{'PASS' if error <= bound else 'FAIL'}",
            flush=True,
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    from ..compiler.backends import BACKENDS

    _register_models()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "models",
        nargs="*",
        metavar="MODEL",
        help=f"models to run, of {', '.join(sorted(MODELS))} (default: mlp resnet18)",
    )
    parser.add_argument(
        "--backend",
        default="linalg-on-tensors",
        help="comma-separated backends to compile for, of "
        f"{', '.join(BACKENDS)} (default: linalg-on-tensors)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="time the median of this many runs (default 1: the first call)",
    )
    args = parser.parse_args(argv)
    backends = args.backend.split(",")
    if unknown_backends := [b for b in backends if b not in BACKENDS]:
        parser.error(
            f"unknown backend(s) {', '.join(unknown_backends)}; choose from "
            f"{', '.join(BACKENDS)}"
        )
    if args.repeat < 1:
        parser.error("--repeat takes a positive count")
    unknown = [name for name in args.models if name not in MODELS]
    if unknown:
        parser.error(
            f"unknown model(s) {', '.join(unknown)}; choose from {', '.join(sorted(MODELS))}"
        )
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads for eager")
    results = [
        run_model(name, backends, args.repeat)
        for name in args.models or ["mlp", "resnet18"]
    ]
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
