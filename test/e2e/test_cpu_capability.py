"""``TORCH2MLIR_CPU_CAPABILITY`` caps the runtime kernels' vector
instructions (refbackend.CPU_CAPABILITY_VARIABLE), as ``ATEN_CPU_CAPABILITY``
caps PyTorch's. Every level must give eager's results: on an AVX-512 CPU,
``avx2`` runs the AVX2 convolution kernels that only CPUs without AVX-512
run otherwise (the wide direct convolution's 4 x 24 tiles, the implicit
GEMM's 16 x 6 tiles, the stride-2 im2col copies)."""

from __future__ import annotations

import subprocess

import pytest
from harness import cpu_info, run_child


def _has_avx512() -> bool:
    return " avx512f" in cpu_info()


def _run(level: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_child({"TORCH2MLIR_CPU_CAPABILITY": level}, *args, timeout=900)


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
        "test_wide_direct_convolutions or test_convolutions_in_im2col_blocks"
        " or test_implicit_gemm_convolutions",
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
