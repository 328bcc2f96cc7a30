#!/usr/bin/env python3
"""List the ATen ops that the e2e cases reach the compiler with, per config.

For every case: run it eagerly, `torch.export.export` it, and for config
"core-aten" also `run_decompositions()`; collect the `call_function`
targets of the graph. Prints one block per family (or per case with
--per-case). Needs only torch; the model cases also need the torch2mlir
package (PYTHONPATH=build/python_packages) and are skipped without it.

Usage:
    python test/e2e/exported_ops.py [--per-case] [--case NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import defaultdict
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import all_cases
from harness import DECOMPOSITION_CONFIGS as CONFIGS


def exported_ops(
    module: torch.nn.Module, inputs: tuple[torch.Tensor, ...], config: str
) -> set[str]:
    program = torch.export.export(module, inputs)
    if config == "core-aten":
        program = program.run_decompositions()
    return {
        str(node.target) for node in program.graph.nodes if node.op == "call_function"
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--per-case",
        action="store_true",
        help="one block per case instead of per family",
    )
    parser.add_argument(
        "--case", action="append", default=[], help="only these cases (repeatable)"
    )
    args = parser.parse_args()
    warnings.filterwarnings("ignore", category=FutureWarning)

    cases = all_cases()
    unknown = set(args.case) - set(cases)
    if unknown:
        parser.error(f"unknown cases: {sorted(unknown)}")
    selected = [c for c in cases.values() if not args.case or c.name in args.case]

    groups: dict[str, dict[str, set[str]]] = defaultdict(
        lambda: {config: set() for config in CONFIGS}
    )
    for case in selected:
        try:
            module = case.build_module()
        except ImportError as error:
            print(f"skipped {case.name}: {error}", file=sys.stderr)
            continue
        inputs = case.build_inputs()
        with torch.no_grad():
            module(*inputs)
        group = (
            case.name
            if args.per_case
            else case.module_factory.__module__.removeprefix("cases.")
        )
        for config in CONFIGS:
            groups[group][config] |= exported_ops(module, inputs, config)

    for group, by_config in groups.items():
        print(f"== {group}")
        for config in CONFIGS:
            print(f"  {config}: {' '.join(sorted(by_config[config]))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
