"""Compile and run real models with torch2mlir, side by side with eager PyTorch.

For each model: the time spent in torch.export, import, lowering (all
pipelines), JIT compilation and one run; the eager run time; the largest
absolute difference from eager; PASS when it is within
``1e-4 * max(1, max|eager output|)``.

Usage:
    python -m torch2mlir.tools.demo [MODEL ...]   # default: mlp resnet18
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

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


def run_model(name: str) -> bool:
    """Compiles and runs model `name`; prints its figures; returns PASS."""
    import torch2mlir

    factory, make_input = MODELS[name]
    model = factory().eval()
    x = make_input()
    compiled = torch2mlir.compile(model, (x,))
    start = time.perf_counter()
    got = compiled(x)
    run = time.perf_counter() - start
    with torch.no_grad():
        model(x)  # warm-up
        start = time.perf_counter()
        want = model(x)
        eager = time.perf_counter() - start
    error = (got - want).abs().max().item()
    bound = 1e-4 * max(1.0, want.abs().max().item())
    ok = error <= bound
    t = compiled.timings
    print(
        f"{name:18s} export {t['export']:7.3f} s | import {t['import']:7.3f} s | "
        f"lowering {t['lowering']:7.3f} s | jit {t['jit']:7.3f} s | run {run:8.4f} s | "
        f"eager {eager:8.4f} s | max abs err {error:.2e} (bound {bound:.1e}) | "
        f"{'PASS' if ok else 'FAIL'}",
        flush=True,
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    _register_models()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "models",
        nargs="*",
        metavar="MODEL",
        help=f"models to run, of {', '.join(sorted(MODELS))} (default: mlp resnet18)",
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.models if name not in MODELS]
    if unknown:
        parser.error(
            f"unknown model(s) {', '.join(unknown)}; choose from {', '.join(sorted(MODELS))}"
        )
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads for eager")
    results = [run_model(name) for name in args.models or ["mlp", "resnet18"]]
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
