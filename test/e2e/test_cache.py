"""The on-disk compile cache (torch2mlir.runtime.cache): what hits, what
must not, and that a hit runs the same numbers as a fresh compile."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
import torch
import torch2mlir
from torch2mlir.runtime import cache


class Scale(torch.nn.Module):
    def __init__(self, factor: float) -> None:
        super().__init__()
        self.factor = factor
        self.linear = torch.nn.Linear(4, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.linear(x)) * self.factor


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH2MLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TORCH2MLIR_CACHE", raising=False)
    return tmp_path


def test_program_hit_binds_the_new_weights(cache_dir) -> None:
    x = torch.randn(2, 4)
    first = Scale(2.0).eval()
    assert torch2mlir.compile(first, (x,)).cache == "miss"
    # Same structure, other weights: a hit, computing with the new weights.
    second = Scale(2.0).eval()
    compiled = torch2mlir.compile(second, (x,))
    assert compiled.cache == "program"
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), second(x))


@pytest.mark.parametrize(
    "change",
    ["attribute", "shape", "dtype", "training", "options"],
)
def test_what_changes_the_program_key(cache_dir, change) -> None:
    x = torch.randn(2, 4)
    torch2mlir.compile(Scale(2.0).eval(), (x,))
    model, args, kwargs = Scale(2.0).eval(), (x,), {}
    if change == "attribute":
        model = Scale(3.0).eval()
    elif change == "shape":
        args = (torch.randn(5, 4),)
    elif change == "dtype":
        model = model.double()
        args = (x.double(),)
    elif change == "training":
        model.linear.train()
    elif change == "options":
        kwargs = {"decompositions": "none"}
    compiled = torch2mlir.compile(model, args, **kwargs)
    assert compiled.cache != "program"
    with torch.no_grad():
        torch.testing.assert_close(compiled(*args), model(*args))


def test_lambdas_of_one_scope_are_told_apart(cache_dir) -> None:
    class Fn(torch.nn.Module):
        def __init__(self, fn) -> None:
            super().__init__()
            self.fn = fn

        def forward(self, x):
            return self.fn(x)

    x = torch.randn(3)
    fns = [lambda x: x + 1, lambda x: x * 2]
    for fn in fns:
        compiled = torch2mlir.compile(Fn(fn), (x,))
        assert compiled.cache == "miss"
        torch.testing.assert_close(compiled(x), fn(x))


def test_torch_nn_classes_are_told_apart(cache_dir) -> None:
    # Same attributes (dim=1), same shapes: only the class differs.
    x = torch.randn(3, 5)
    for module in (torch.nn.Softmax(dim=1), torch.nn.LogSoftmax(dim=1)):
        compiled = torch2mlir.compile(module, (x,))
        assert compiled.cache == "miss"
        torch.testing.assert_close(compiled(x), module(x))


def test_disabled_and_cleared(cache_dir, monkeypatch) -> None:
    x = torch.randn(2, 4)
    torch2mlir.compile(Scale(2.0).eval(), (x,))
    assert torch2mlir.compile(Scale(2.0).eval(), (x,), cache=False).cache == "off"
    monkeypatch.setenv("TORCH2MLIR_CACHE", "0")
    assert torch2mlir.compile(Scale(2.0).eval(), (x,)).cache == "off"
    monkeypatch.delenv("TORCH2MLIR_CACHE")
    assert cache.clear_cache() > 0
    assert not any(cache_dir.rglob("*.o"))
    assert torch2mlir.compile(Scale(2.0).eval(), (x,)).cache == "miss"


def test_corrupt_entries_are_misses(cache_dir) -> None:
    x = torch.randn(2, 4)
    torch2mlir.compile(Scale(2.0).eval(), (x,))
    for entry in cache_dir.rglob("*.pt"):
        entry.write_bytes(b"not a torch file")
    model = Scale(2.0).eval()
    compiled = torch2mlir.compile(model, (x,))
    assert compiled.cache == "object"  # the program entry was unreadable
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))


def test_a_new_process_hits(cache_dir) -> None:
    script = textwrap.dedent(
        """
        import torch, torch2mlir
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh()).eval()
        x = torch.randn(4, 8)
        compiled = torch2mlir.compile(model, (x,))
        with torch.no_grad():
            torch.testing.assert_close(compiled(x), model(x))
        print(compiled.cache)
        """
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout.split()[-1]
        for _ in range(2)
    ]
    assert runs == ["miss", "program"]
