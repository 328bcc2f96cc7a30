"""Perturbed OpInfo samples through ``torch2mlir.compile``, compared with
eager PyTorch.

Each case takes one in-scope OpInfo of PyTorch's ``op_db`` (the OpInfo
harness's selection, ``test/e2e/opinfo.py``), one CPU dtype it declares,
one of its first samples, and one perturbation chosen by the case's seed:
the sample as is, its tensors as non-contiguous views or channels-last
(same values, other strides), extreme values written into them (inf, -inf,
NaN, the largest and smallest finite values, -0.0; integer extremes), or
its floats' zeros made negative. The program is exported, compiled and run
on the perturbed tensors and compared with eager (the harness's
tolerances; NaN where eager has NaN; indices among equal values and
results no farther than eager's from the float64 computation pass, the
harness's rules). A layout perturbation also passes when the result
matches eager on contiguous copies of the same values: eager's kernels
pick their arithmetic by layout (``native_batch_norm`` of a non-contiguous
float16 input rounds after each of its four operations, of a contiguous
one once), and a compiled program, built for values, not strides, computes
one of them.

Outcomes: ``ok``, ``clean`` (a Torch2MlirError), ``skip`` (torch2mlir does
not define an op of the program, or the sample is not tensors in, tensors
out), ``unverified`` (eager raised), ``untyped`` (another exception from
torch2mlir), ``wrong`` (a value, dtype or shape differs without an error).
"""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))

MUTATIONS = (
    "unperturbed",
    "noncontiguous",
    "channels-last",
    "extreme-values",
    "negative-zero",
)
DTYPES = ("float32", "float16", "int64", "int32", "bool")
#: Ops whose integer overflow or division by zero kills eager PyTorch
#: itself (SIGFPE): no integer extremes for them.
_INT_TRAPS = ("div", "remainder", "fmod", "floor_divide", "true_divide", "gcd", "lcm")

#: Ops whose integer index inputs eager trusts (see _perturb).
_TRUSTED_INDICES = ("_unsafe", "_segment_reduce", "segment_reduce")

_SELECTION: list[str] | None = None


def _selection() -> tuple[dict[str, Any], list[str]]:
    """The OpInfos by name, and the in-scope names in a fixed order."""
    global _SELECTION
    import opinfo as harness

    db = harness.load_op_db()
    if _SELECTION is None:
        _SELECTION = sorted(
            name for name, info in db.items() if not harness.scope_reason(info)
        )
    return db, _SELECTION


def _perturb(tensors: tuple, kind: str, op_name: str, rng: random.Random) -> tuple:
    import torch

    def one(t: torch.Tensor) -> torch.Tensor:
        if t.numel() == 0:
            return t
        if kind == "noncontiguous" and t.dim() >= 1:
            base = torch.empty(*t.shape[:-1], t.shape[-1] * 2, dtype=t.dtype)
            base[..., ::2] = t
            return base[..., ::2]
        if kind == "channels-last" and t.dim() == 4:
            return t.contiguous(memory_format=torch.channels_last)
        if kind == "extreme-values":
            flat = t.clone().reshape(-1)
            count = max(1, flat.numel() // 4)
            where = torch.tensor(rng.sample(range(flat.numel()), count))
            if t.dtype.is_floating_point:
                info = torch.finfo(t.dtype)
                choices = [
                    float("inf"),
                    float("-inf"),
                    float("nan"),
                    info.max,
                    -info.max,
                    info.tiny,
                    -0.0,
                ]
            elif t.dtype == torch.bool or any(w in op_name for w in _INT_TRAPS):
                return t
            else:
                info = torch.iinfo(t.dtype)
                choices = [info.max, info.min, info.max - 1, 0, -1]
            values = torch.tensor([rng.choice(choices) for _ in range(count)])
            flat[where] = values.to(t.dtype)
            return flat.reshape(t.shape)
        if kind == "negative-zero" and t.dtype.is_floating_point:
            return torch.where(t == 0, torch.tensor(-0.0, dtype=t.dtype), t)
        return t

    if kind == "extreme-values" and op_name.startswith(_TRUSTED_INDICES):
        # _unsafe_index and kin assume their index tensors in range (their
        # contract; PyTorch's decompositions and kernels clamp them
        # differently), and eager's segment_reduce reads out of bounds
        # (SIGSEGV) at an offset of 2**63 - 1 even with unsafe=False: only
        # the indexed tensor gets extremes.
        return (one(tensors[0]), *tensors[1:])
    return tuple(one(t) for t in tensors)


def _differs_from_contiguous_eager(module, tensors, actual, rtol, atol) -> str:
    """How `actual` differs from eager's result on contiguous copies of
    `tensors` (the harness's comparison), or ''."""
    import opinfo as harness
    import torch

    with torch.no_grad():
        expected = module(*(t.contiguous() for t in tensors))
    return harness._compare(actual, expected, rtol, atol)


def run_case(seed: int) -> dict[str, Any]:
    """Runs case `seed`; returns its record (seed, model, mutation, outcome,
    detail)."""
    import opinfo as harness
    import torch
    import torch2mlir
    from torch2mlir.fx import export

    warnings.simplefilter("ignore")
    rng = random.Random(seed)
    db, names = _selection()
    name = names[(seed * 7919) % len(names)]
    info = db[name]
    kind = rng.choice(MUTATIONS)
    dtypes = [d for d in harness.op_dtypes(info) if d in DTYPES]
    record: dict[str, Any] = {"seed": seed, "model": name, "mutation": kind}
    if not dtypes:
        return {**record, "outcome": "skip", "detail": "no dtype of DTYPES"}
    dtype = rng.choice(dtypes)
    record["model"] = f"{name} {dtype}"
    try:
        samples = harness.generate_samples(info, dtype, 6)
    except Exception as error:  # noqa: BLE001 - PyTorch's sample generator
        return {**record, "outcome": "skip", "detail": f"samples: {error}"[:200]}
    if not samples:
        return {**record, "outcome": "skip", "detail": "no samples"}
    index = rng.randrange(len(samples))
    record["model"] += f" sample {index}"
    module, tensors = harness.sample_module(info, samples[index])
    if any(t.layout != torch.strided for t in tensors):
        # Sparse inputs are refused by design (InputError, tested elsewhere).
        return {**record, "outcome": "skip", "detail": "a non-strided input"}
    tensors = _perturb(tensors, kind, name, rng)
    try:
        with torch.no_grad():
            expected = module(*tensors)
    except Exception as error:  # noqa: BLE001 - eager rejects the sample
        return {**record, "outcome": "unverified", "detail": f"eager: {error}"[:200]}
    leaves = torch.utils._pytree.tree_leaves(expected)
    if not leaves or not all(isinstance(x, torch.Tensor) for x in leaves):
        return {**record, "outcome": "skip", "detail": "not tensors out"}
    try:
        prog = export(module, tensors)
    except torch2mlir.Torch2MlirError as error:
        return {**record, "outcome": "clean", "detail": str(error)[:200]}
    except Exception as error:  # noqa: BLE001 - torch.export's own failures
        return {**record, "outcome": "skip", "detail": f"export: {error}"[:200]}
    unclaimed, random_ops = harness._unclaimed_ops(prog)
    if unclaimed or random_ops:
        detail = f"not defined or random: {', '.join(unclaimed + random_ops)}"
        return {**record, "outcome": "skip", "detail": detail[:200]}
    rtol, atol = harness.tolerances(info, getattr(torch, dtype))
    try:
        compiled = torch2mlir.compile(prog, tensors, decompositions="none", cache=False)
        actual = compiled(*tensors)
    except torch2mlir.Torch2MlirError as error:
        return {**record, "outcome": "clean", "detail": str(error)[:200]}
    except Exception as error:  # noqa: BLE001 - what the fuzzer looks for
        return {
            **record,
            "outcome": "untyped",
            "detail": f"{type(error).__name__}: {error}"[:300],
        }
    problem = harness._compare(
        actual,
        expected,
        rtol,
        atol,
        values=info.name not in harness.UNINITIALIZED_OUTPUTS,
    )
    # The harness's two rules: indices among equal values, and results that
    # differ from eager's only where they are closer to the exact value.
    if problem and (
        harness._same_up_to_ties(
            info.name, samples[index], actual, expected, x=tensors[0]
        )
        or harness.no_farther_from_exact(module, tensors, actual, expected, rtol, atol)
        or (
            kind in ("noncontiguous", "channels-last")
            and not _differs_from_contiguous_eager(module, tensors, actual, rtol, atol)
        )
    ):
        problem = ""
    return {**record, "outcome": "wrong" if problem else "ok", "detail": problem}
