"""End-to-end test cases, one module per op family.

`all_cases()` imports every family module (which registers its cases with
`@register_case`) and returns the registry.
"""

from __future__ import annotations

import importlib

from cases.registry import Case, Fn, register_case, registered_cases

FAMILIES = (
    "matmul",
    "shape",
    "elementwise",
    "conv",
    "norm",
    "pooling",
    "reduction",
    "softmax",
    "concat",
    "comparison",
    "slicing",
    "indexing",
    "creation",
    "models",
)


def all_cases() -> dict[str, Case]:
    """Every registered case, by name, grouped by family in `FAMILIES` order."""
    for family in FAMILIES:
        importlib.import_module(f"cases.{family}")
    return registered_cases()


__all__ = ["FAMILIES", "Case", "Fn", "all_cases", "register_case"]
