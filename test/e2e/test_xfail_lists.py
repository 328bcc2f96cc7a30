"""The expected-failure lists name real cases and give reasons."""

from __future__ import annotations

import pytest
from cases import all_cases
from harness import CONFIGS, XFAIL_DIR, load_xfails, xfail_path


def test_every_config_has_a_list() -> None:
    # (onnx-conformance.toml is the ONNX node suite's, see onnx_conformance.py;
    # opinfo.toml the OpInfo harness's, see opinfo.py and test_opinfo.py)
    files = {path.stem for path in XFAIL_DIR.glob("*.toml")} - {
        "onnx-conformance",
        "opinfo",
    }
    assert files == set(CONFIGS), (
        f"xfail files {sorted(files)} do not match the configs {list(CONFIGS)}"
    )


@pytest.mark.parametrize("config", CONFIGS)
def test_entries_name_registered_cases(config: str) -> None:
    unknown = sorted(set(load_xfails(config)) - set(all_cases()))
    assert not unknown, f"{xfail_path(config)} lists cases that do not exist: {unknown}"
