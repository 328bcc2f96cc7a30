"""Mutation fuzzing of ``torch2mlir-opt`` on the lit tests' inputs.

Each case takes one RUN line of one ``test/lit`` file (the ``torch2mlir-opt``
options it names, ``-verify-diagnostics`` dropped so that errors are just
errors), applies one mutation chosen by the case's seed to the file's text
(a tensor type's size, rank or dtype, an integer or float constant, a
``dense<>`` literal, two operands swapped, an op renamed to another op of
the file, a line deleted or duplicated, the text truncated), and runs the
tool on it in a child process.

Outcomes: ``ok`` (exit 0), ``clean`` (exit 1 with an ``error:``
diagnostic), ``crash`` (a signal: an LLVM assertion's SIGABRT, a SIGSEGV;
or a timeout), ``untyped`` (any other exit).
"""

from __future__ import annotations

import os
import random
import re
import shlex
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
LIT = REPO / "test" / "lit"
MUTATIONS = (
    "dim-size",
    "dim-dynamic",
    "rank",
    "dtype",
    "int-constant",
    "float-constant",
    "dense",
    "swap-operands",
    "rename-op",
    "delete-line",
    "duplicate-line",
    "truncate",
)
_TYPE = re.compile(r"!torch\.vtensor<\[([^\]]*)\],(\w+)>|tensor<([0-9x?]*)x?(\w+)>")
_INT = re.compile(r"(torch\.constant\.int )(-?\d+)")
_FLOAT = re.compile(r"(torch\.constant\.float )(\S+)")
_DENSE = re.compile(r"dense<([^>]*)>")
_OPERANDS = re.compile(r"(%[\w#]+), (%[\w#]+)")
_OP = re.compile(r"= ((?:torch|tosa|linalg|tensor|arith)\.[\w.]+)")


def _tool() -> Path:
    build = Path(os.environ.get("TORCH2MLIR_BUILD_DIR", REPO / "build"))
    return build / "bin" / "torch2mlir-opt"


def _inputs() -> list[tuple[Path, list[str]]]:
    """(lit file, torch2mlir-opt options) for each RUN line, in a fixed order."""
    runs = []
    for path in sorted(LIT.rglob("*.mlir")):
        for line in path.read_text().splitlines():
            if not line.startswith("// RUN:") or "torch2mlir-opt" not in line:
                continue
            command = line.split("torch2mlir-opt", 1)[1].split("|")[0]
            options = [
                o
                for o in shlex.split(command)
                if o not in ("%s", "-verify-diagnostics")
                and not o.startswith((">", "2>"))  # shell redirections
            ]
            runs.append((path, options))
    return runs


def _mutate(text: str, kind: str, rng: random.Random) -> str:
    """`text` with one mutation of `kind` (unchanged when it has no target)."""

    def at(pattern: re.Pattern[str], replace) -> str:
        matches = list(pattern.finditer(text))
        if not matches:
            return text
        m = rng.choice(matches)
        return text[: m.start()] + replace(m) + text[m.end() :]

    def sizes(m: re.Match[str]) -> tuple[list[str], str, bool]:
        if m.group(2) is not None:
            return [s for s in m.group(1).split(",") if s], m.group(2), True
        return [s for s in m.group(3).split("x") if s], m.group(4), False

    def spell(dims: list[str], dtype: str, torch: bool) -> str:
        if torch:
            return f"!torch.vtensor<[{','.join(dims)}],{dtype}>"
        return f"tensor<{''.join(d + 'x' for d in dims)}{dtype}>"

    if kind in ("dim-size", "dim-dynamic", "rank", "dtype"):

        def retype(m: re.Match[str]) -> str:
            dims, dtype, torch = sizes(m)
            if kind == "dtype":
                choices = ["f16", "bf16", "f64", "si64", "i1", "si8", "ui8", "f32"]
                if not torch:
                    choices = ["f16", "bf16", "f64", "i64", "i1", "i8", "f32"]
                return spell(dims, rng.choice(choices), torch)
            if kind == "rank":
                if dims and rng.random() < 0.5:
                    dims.pop(rng.randrange(len(dims)))
                else:
                    dims.insert(rng.randrange(len(dims) + 1), rng.choice(["1", "3"]))
                return spell(dims, dtype, torch)
            if not dims:
                return m.group(0)
            i = rng.randrange(len(dims))
            dims[i] = (
                "?"
                if kind == "dim-dynamic"
                else rng.choice(["0", "1", "7", "2147483648"])
            )
            return spell(dims, dtype, torch)

        return at(_TYPE, retype)
    if kind == "int-constant":
        return at(
            _INT,
            lambda m: m.group(1) + str(rng.choice([-7, -1, 0, 1, 5, 2**31, 2**62])),
        )
    if kind == "float-constant":
        return at(
            _FLOAT,
            lambda m: m.group(1) + rng.choice(["0.0", "-1.0", "1.0e+30", "0x7FC00000"]),
        )
    if kind == "dense":
        return at(
            _DENSE, lambda m: f"dense<{rng.choice(['0', '-1', '1.5', '[1, 2]'])}>"
        )
    if kind == "swap-operands":
        return at(_OPERANDS, lambda m: f"{m.group(2)}, {m.group(1)}")
    if kind == "rename-op":
        names = sorted({m.group(1) for m in _OP.finditer(text)})
        if len(names) < 2:
            return text
        return at(_OP, lambda m: "= " + rng.choice(names))
    lines = text.splitlines(keepends=True)
    body = [i for i, line in enumerate(lines) if line.startswith("  ") and "=" in line]
    if kind in ("delete-line", "duplicate-line") and body:
        i = rng.choice(body)
        lines.insert(i, lines[i]) if kind == "duplicate-line" else lines.pop(i)
        return "".join(lines)
    if kind == "truncate":
        return text[: rng.randrange(max(1, len(text)))]
    return text


def run_case(seed: int) -> dict[str, Any]:
    """Runs case `seed`; returns its record (seed, model, mutation, outcome,
    detail)."""
    runs = _inputs()
    path, options = runs[(seed * 7919) % len(runs)]
    rng = random.Random(seed)
    kind = rng.choice(MUTATIONS)
    record = {
        "seed": seed,
        "model": f"{path.relative_to(LIT)} {' '.join(options)}",
        "mutation": kind,
    }
    text = _mutate(path.read_text(), kind, rng)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as file:
        file.write(text)
    try:
        child = subprocess.run(
            [str(_tool()), file.name, *options, "-o", os.devnull],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {**record, "outcome": "crash", "detail": "timeout (60 s)"}
    finally:
        os.unlink(file.name)
    stderr = child.stderr.strip()
    if child.returncode < 0:
        name = signal.Signals(-child.returncode).name
        lines = [ln for ln in stderr.splitlines() if "Assertion" in ln or "error" in ln]
        detail = (lines[:1] or stderr.splitlines()[:1] or [""])[0]
        return {**record, "outcome": "crash", "detail": f"{name}: {detail}"[:300]}
    if child.returncode == 0:
        return {**record, "outcome": "ok", "detail": ""}
    if "error:" in stderr:
        first = next(ln for ln in stderr.splitlines() if "error:" in ln)
        return {**record, "outcome": "clean", "detail": first[:200]}
    return {
        **record,
        "outcome": "untyped",
        "detail": f"exit {child.returncode}: {stderr[:200]}",
    }
