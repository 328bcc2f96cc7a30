"""Fuzzing torch2mlir: ``nox -s fuzz`` (``-- --cases N --seed S``).

Three fuzzers, each a module with ``run_case(seed) -> record``:

- ``onnx`` (``onnx_mutations.py``): ONNX's node test models mutated
  (attributes, dims, ranks, dtypes, initializers, opsets, truncation),
  through ``compile_onnx``, compared with ONNX's reference evaluator;
- ``opt`` (``opt_mutations.py``): the lit tests' inputs mutated, through
  ``torch2mlir-opt`` with the pipelines their RUN lines name;
- ``opinfo`` (``opinfo_perturbations.py``): PyTorch's OpInfo samples
  perturbed (odd and zero-size shapes, non-contiguous and channels-last
  inputs, extreme values), through ``torch2mlir.compile``, compared with
  eager.

Cases run in batches in child processes, so a crash (a signal: an LLVM
assertion's SIGABRT, a SIGSEGV, a SIGFPE) is recorded against the case that
was running and the batch goes on in a new child. Every case's record is
its seed, the model, the mutation and the outcome (see
``onnx_mutations.py``); the summary counts outcomes, and every crash,
untyped exception or wrong value is printed with the command that reruns
it alone::

    python test/fuzz/run.py --cases 500 --seed 0            # 500 of each fuzzer
    python test/fuzz/run.py --fuzzer opt --case 1234        # one case, in this process

Exit status: 1 if any case crashed, raised an untyped exception or returned
a wrong value; 0 otherwise.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FAILURES = ("crash", "untyped", "wrong")
#: fuzzer name -> the module (in this directory) whose run_case it calls.
FUZZERS = {
    "onnx": "onnx_mutations",
    "opt": "opt_mutations",
    "opinfo": "opinfo_perturbations",
}


def _run_case(fuzzer: str):
    import importlib

    return importlib.import_module(FUZZERS[fuzzer]).run_case


def _worker(fuzzer: str, seeds: list[int]) -> None:
    """Runs `seeds` in this process, one JSON line before and after each."""
    run_case = _run_case(fuzzer)
    for seed in seeds:
        print(json.dumps({"seed": seed, "outcome": "started"}), flush=True)
        print(json.dumps(run_case(seed)), flush=True)


def _run_batch(fuzzer: str, seeds: list[int], timeout: float) -> list[dict]:
    """The records of `seeds`, run in child processes until all are done."""
    records: list[dict] = []
    pending = list(seeds)
    while pending:
        command = [
            sys.executable,
            __file__,
            "--fuzzer",
            fuzzer,
            "--worker",
            *map(str, pending),
        ]
        try:
            child = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout, check=False
            )
            stdout, returncode, stderr = child.stdout, child.returncode, child.stderr
        except subprocess.TimeoutExpired as expired:
            stdout = (expired.stdout or b"").decode(errors="replace")
            returncode, stderr = "timeout", ""
        started = None
        for line in stdout.splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if record["outcome"] == "started":
                started = record["seed"]
            else:
                records.append({"fuzzer": fuzzer, **record})
                pending.remove(record["seed"])
                started = None
        if returncode == 0 and not pending:
            break
        # The child died (or hung) in case `started` (else before the first).
        victim = started if started is not None else pending[0]
        reason = f"signal {-returncode}" if isinstance(returncode, int) else returncode
        records.append(
            {
                "fuzzer": fuzzer,
                "seed": victim,
                "outcome": "crash",
                "detail": f"{reason}: {stderr.strip().splitlines()[-1:] or ''}"[:300],
            }
        )
        pending.remove(victim)
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--fuzzer",
        action="append",
        choices=sorted(FUZZERS),
        help="which fuzzer (repeatable; default: all three)",
    )
    parser.add_argument(
        "--cases", type=int, default=200, help="how many cases per fuzzer"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first case's seed")
    parser.add_argument("--batch", type=int, default=40, help="cases per child process")
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds per batch"
    )
    parser.add_argument("--case", type=int, help="run one case in this process")
    parser.add_argument("--json", type=Path, help="write every record here")
    parser.add_argument("--worker", type=int, nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    fuzzers = args.fuzzer or list(FUZZERS)
    sys.path.insert(0, str(HERE))
    if args.worker is not None:
        _worker(fuzzers[0], args.worker)
        return 0
    if args.case is not None:
        for fuzzer in fuzzers:
            print(
                json.dumps({"fuzzer": fuzzer, **_run_case(fuzzer)(args.case)}, indent=1)
            )
        return 0
    seeds = list(range(args.seed, args.seed + args.cases))
    records: list[dict] = []
    failed = False
    for fuzzer in fuzzers:
        start = time.perf_counter()
        mine: list[dict] = []
        for first in range(0, len(seeds), args.batch):
            mine += _run_batch(fuzzer, seeds[first : first + args.batch], args.timeout)
        counts = collections.Counter(record["outcome"] for record in mine)
        print(
            f"{fuzzer}: {len(mine)} tried in {time.perf_counter() - start:.0f} s: "
            + ", ".join(f"{counts[k]} {k}" for k in sorted(counts)),
            flush=True,
        )
        for record in sorted(mine, key=lambda r: r["seed"]):
            if record["outcome"] in FAILURES:
                print(
                    f"  {record['outcome']}: seed {record['seed']} "
                    f"({record.get('model', '?')}, {record.get('mutation', '?')}): "
                    f"{record['detail']}\n    rerun: python {os.path.relpath(__file__)} "
                    f"--fuzzer {fuzzer} --case {record['seed']}",
                    flush=True,
                )
        failed |= any(counts[k] for k in FAILURES)
        records += mine
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(records, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
