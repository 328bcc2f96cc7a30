"""``TORCH2MLIR_CPU_CAPABILITY`` caps the runtime kernels' vector
instructions (refbackend.CPU_CAPABILITY_VARIABLE), as ``ATEN_CPU_CAPABILITY``
caps PyTorch's. Every level must give eager's results: on an AVX-512 CPU,
``avx2`` runs the AVX2 kernels (the wide direct convolution's 4 x 24 tiles,
the AVX2 direct rows) that only CPUs without AVX-512 run otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _has_avx512() -> bool:
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return " avx512f" in cpuinfo


def _run(level: str, *args: str) -> subprocess.CompletedProcess[str]:
    # The parent's import path, made absolute (the child runs in test/e2e).
    path = os.pathsep.join(str(Path(p).resolve()) for p in sys.path if p)
    env = dict(os.environ, TORCH2MLIR_CPU_CAPABILITY=level, PYTHONPATH=path)
    return subprocess.run(
        [sys.executable, *args],
        check=False,
        cwd=REPO / "test" / "e2e",
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.skipif(
    not _has_avx512(),
    reason="no AVX-512: the convolution tests in this process ran the AVX2 kernels",
)
def test_avx2_convolutions_match_eager() -> None:
    result = _run(
        "avx2",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "test_ops_nn.py",
        "-k",
        "test_wide_direct_convolutions or test_convolutions_in_im2col_blocks",
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert " passed" in result.stdout and " failed" not in result.stdout


def test_an_unknown_level_is_refused() -> None:
    child = (
        "from harness import import_torch2mlir\n"
        "import_torch2mlir()\n"
        "from torch2mlir.runtime import refbackend\n"
        "refbackend.load_runtime()\n"
    )
    result = _run("sse", "-c", child)
    assert result.returncode != 0
    assert (
        "TORCH2MLIR_CPU_CAPABILITY='sse': expected one of avx512, avx2, default"
        in result.stderr
    )
