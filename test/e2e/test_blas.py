"""The BLAS of the runtime kernels (refbackend.blas_library): MKL when the
``mkl`` package is installed (the test lock has it), else OpenBLAS, else
the kernels' own loops; ``TORCH2MLIR_BLAS`` picks one. Under the default
(auto), OpenBLAS takes the large GEMMs on CPUs other than Intel's
(refbackend.large_gemm_library). Every choice must
give eager's results for matmuls, batched matmuls (MKL's batched GEMM,
any batch layout), small GEMMs of a transposed B (the runtime's own
tiles on AVX2 CPUs) and convolutions, with and without the zero fill the
kernels overwrite."""

from __future__ import annotations

import importlib.metadata
import subprocess
import textwrap
from pathlib import Path

import pytest
from harness import cpu_info, run_child

CHILD = textwrap.dedent(
    """
    import torch
    from torch import nn
    from harness import import_torch2mlir
    torch2mlir = import_torch2mlir()
    from torch2mlir.runtime import refbackend

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 16, 3, padding=1)
            self.grouped = nn.Conv2d(16, 16, 3, groups=4)
            self.fc = nn.Linear(16 * 6 * 6, 10)
            self.small = nn.Linear(37, 10)
            self.bias = nn.Parameter(torch.randn(11))

        def forward(self, x, a, b, c, d, e, f, g):
            y = self.grouped(torch.relu(self.conv(x)))
            # Batched: row-major, transposed (a batch of column-major
            # matrices), broadcast (batch stride 0), float64, and one
            # written into an intermediate buffer (added to afterwards).
            bt = b.transpose(1, 2).contiguous().transpose(1, 2)
            return (
                self.fc(y.flatten(1)),
                torch.bmm(a, b),
                a[0] @ b[0].t().t(),
                torch.bmm(a, bt),
                torch.bmm(a, b[:1].expand(3, -1, -1)),
                torch.bmm(a.double(), b.double()),
                torch.bmm(a, b) + 1.0,
                # At least 32 in each of m, n and k: the large-GEMM BLAS
                # where there is one (refbackend.large_gemm_library), as
                # float32 and float64, and transposed.
                c @ d,
                c.double() @ d.double(),
                d.t() @ c.t(),
                # 49 x 33 x 80 (a ResNet's last stage has 49 positions),
                # B a column slice.
                e @ d[:, :33],
                # At most 8 rows and B transposed: the runtime's own tiles on
                # AVX2 CPUs (smallGemmAvx2), 1 to 8 rows, k = 37 and 33
                # (tails of 5 and 1), 10 and 11 columns (tails of 1 and 2),
                # with a bias, A a column slice (lda 37), B a view of g.
                self.small(f),
                self.small(f[:3]),
                self.small(f[:1]),
                f[:, :33] @ g.t(),
                torch.relu(f[:5, :33] @ g.t()) + 1.0,
                # addmm with beta = alpha = 1 accumulates into its
                # broadcast self: the tiles add to C (`accumulate`). The
                # scaled form overwrites C and scales afterwards.
                torch.addmm(self.bias, f[:, :33], g.t()),
                torch.addmm(torch.relu(f[:3, :11]), f[:3, :33], g.t()),
                torch.addmm(self.bias, f[:2, :33], g.t(), beta=0.5, alpha=2.0),
            )

    torch.manual_seed(0)
    net = Net().eval()
    args = (
        torch.randn(2, 3, 8, 8),
        torch.randn(3, 33, 17),
        torch.randn(3, 17, 65),
        torch.randn(96, 80),
        torch.randn(80, 72),
        torch.randn(49, 80),
        torch.randn(8, 37),
        torch.randn(11, 33),
    )
    compiled = torch2mlir.compile(net, args, cache=False)
    with torch.no_grad():
        want = net(*args)
    for _ in range(2):
        for got, expected in zip(compiled(*args), want):
            torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)
    print("BLAS", refbackend.blas_library())
    print("LARGE", refbackend.large_gemm_library())
    """
)


def _run(choice: str) -> subprocess.CompletedProcess[str]:
    return run_child({"TORCH2MLIR_BLAS": choice}, "-c", CHILD)


def _installed(distribution: str) -> bool:
    try:
        importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.parametrize(
    ("choice", "library"),
    [
        ("auto", "libmkl_rt" if _installed("mkl") else "libscipy_openblas"),
        ("mkl", "libmkl_rt"),
        ("openblas", "libscipy_openblas"),
        ("none", "None"),
    ],
)
def test_each_blas_matches_eager(choice: str, library: str) -> None:
    if choice == "mkl" and not _installed("mkl"):
        pytest.skip("the mkl package is not installed")
    result = _run(choice)
    assert result.returncode == 0, result.stderr[-3000:]
    (line,) = [x for x in result.stdout.splitlines() if x.startswith("BLAS ")]
    assert Path(line.split(" ", 1)[1]).name.startswith(library), line
    # MKL runs its generic code path on other CPUs than Intel's: under
    # auto, OpenBLAS takes the large GEMMs there.
    (line,) = [x for x in result.stdout.splitlines() if x.startswith("LARGE ")]
    split = (
        choice == "auto" and library == "libmkl_rt" and "GenuineIntel" not in cpu_info()
    )
    large = "libscipy_openblas" if split else "None"
    assert Path(line.split(" ", 1)[1]).name.startswith(large), line


def test_an_unknown_choice_is_refused() -> None:
    result = _run("atlas")
    assert result.returncode != 0
    assert "TORCH2MLIR_BLAS='atlas': expected one of auto, mkl, openblas, none" in (
        result.stderr
    )
