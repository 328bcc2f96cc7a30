"""Code generation on several threads (``TORCH2MLIR_COMPILE_THREADS``): a
large module is split into the entry function and its loop bodies, each
partition optimized and compiled on a thread of its own, and the objects
travel in one blob (magic ``T2MOBJS1``). The code must compute exactly what
the one-thread object computes, survive the compile cache, and refuse a
malformed blob with a message."""

from __future__ import annotations

import pytest
import torch
from harness import import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()
from torch2mlir._mlir_libs import _torch2mlir
from torch2mlir.runtime import refbackend

MAGIC = b"T2MOBJS1"
ELF = b"\x7fELF"


class Layers(nn.Module):
    """Enough distinct loop bodies (norms, GELU, softmax) and entry code to
    be split for two threads."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Linear(64, 64), nn.LayerNorm(64), nn.GELU())
            for _ in range(6)
        )

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        for i, block in enumerate(self.blocks):
            x = block(x) + x * (0.5 + 0.1 * i)
        return x.softmax(-1), x.sum(0)


def _compile(monkeypatch, threads: str, **options):
    monkeypatch.setenv(refbackend.COMPILE_THREADS_VARIABLE, threads)
    model = Layers().eval()
    x = torch.randn(16, 64)
    return model, x, torch2mlir.compile(model, (x,), **options)


def test_partitioned_object_computes_what_one_object_computes(monkeypatch) -> None:
    model, x, one = _compile(monkeypatch, "1", cache=False)
    _, _, two = _compile(monkeypatch, "2", cache=False)
    assert one._runner.object_code.startswith(ELF)
    assert two._runner.object_code.startswith(MAGIC)
    for args in ((x,), (torch.randn(16, 64) * 3,)):
        with torch.no_grad():
            expected = model(*args)
        got_one, got_two = one(*args), two(*args)
        for a, b, e in zip(got_one, got_two, expected):
            assert torch.equal(a, b)
            torch.testing.assert_close(b, e)


def test_partitioned_object_from_the_cache(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("TORCH2MLIR_CACHE_DIR", str(tmp_path))
    model, x, first = _compile(monkeypatch, "2")
    _, _, second = _compile(monkeypatch, "2")
    assert first.cache == "miss"
    assert second.cache != "miss"
    assert second._runner.object_code == first._runner.object_code
    with torch.no_grad():
        expected = model(x)
    for got, e in zip(second(x), expected):
        torch.testing.assert_close(got, e)


def test_small_module_stays_one_object(monkeypatch) -> None:
    monkeypatch.setenv(refbackend.COMPILE_THREADS_VARIABLE, "8")
    model = nn.Linear(8, 4).eval()
    compiled = torch2mlir.compile(model, (torch.randn(2, 8),), cache=False)
    assert compiled._runner.object_code.startswith(ELF)


@pytest.mark.parametrize("value", ["0", "-2", "two", ""])
def test_bad_thread_count_is_refused(monkeypatch, value: str) -> None:
    monkeypatch.setenv(refbackend.COMPILE_THREADS_VARIABLE, value)
    with pytest.raises(ValueError, match="TORCH2MLIR_COMPILE_THREADS"):
        refbackend.compile_threads()


def test_malformed_blob_is_refused(monkeypatch) -> None:
    _, _, two = _compile(monkeypatch, "2", cache=False)
    blob = two._runner.object_code
    with pytest.raises(RuntimeError, match="malformed object code"):
        _torch2mlir.ObjectJit(blob[: len(MAGIC) + 12], [])
