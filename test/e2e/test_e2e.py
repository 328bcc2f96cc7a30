"""Compile every case with every config, run it, and compare with eager PyTorch.

Expected failures are data: `xfail/<config>.toml` maps a case name to the
reason. They are strict, so a case that starts to pass fails the run until
its entry is removed.
"""

from __future__ import annotations

import pytest
import torch
from cases import Case, all_cases
from harness import (
    CONFIG_OPTIONS,
    CONFIGS,
    assert_outputs_match,
    import_torch2mlir,
    load_xfails,
)

torch2mlir = import_torch2mlir()

CASES = all_cases()


def _params() -> list[object]:
    params = []
    for config in CONFIGS:
        xfails = load_xfails(config)
        for case in CASES.values():
            marks = []
            if case.name in xfails:
                marks.append(pytest.mark.xfail(strict=True, reason=xfails[case.name]))
            params.append(
                pytest.param(case, config, id=f"{case.name}-{config}", marks=marks)
            )
    return params


@pytest.mark.parametrize(("case", "config"), _params())
def test_e2e(case: Case, config: str) -> None:
    model = case.build_module()
    inputs = case.build_inputs()
    eager_inputs = [t.clone() for t in inputs]
    with torch.no_grad():
        expected = model(*eager_inputs)

    compiled = torch2mlir.compile(model, inputs, **CONFIG_OPTIONS[config])
    given = [t.clone() for t in inputs]
    actual = compiled(*given)

    assert_outputs_match(case, expected, actual)
    # The caller's tensors hold afterwards what eager leaves in them: the
    # same values unless the program mutates its inputs.
    assert_outputs_match(case, tuple(eager_inputs), tuple(given))
