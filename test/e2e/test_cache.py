"""The on-disk compile cache (torch2mlir.runtime.cache): what hits, what
must not, and that a hit runs the same numbers as a fresh compile.

The property the cache must keep: compiling a model that differs from an
earlier one in any way that changes its program (an attribute, a global, a
closure, a method, a submodule, a dtype, the training flag, the build)
computes what eager computes, never the earlier program."""

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
    ["attribute", "shape", "dtype", "options"],
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
    elif change == "options":
        kwargs = {"decompositions": "none"}
    compiled = torch2mlir.compile(model, args, **kwargs)
    assert compiled.cache != "program"
    with torch.no_grad():
        torch.testing.assert_close(compiled(*args), model(*args))


def test_a_flag_that_does_not_change_the_program_still_hits(cache_dir) -> None:
    # nn.Linear computes the same in train() and eval(): one program, so a
    # hit is right (the key is the program, not the model object).
    x = torch.randn(2, 4)
    torch2mlir.compile(Scale(2.0).eval(), (x,))
    model = Scale(2.0).train()
    compiled = torch2mlir.compile(model, (x,))
    assert compiled.cache == "program"
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))


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


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped byte"])
@pytest.mark.parametrize("kind", ["*.pt", "*.o"])
def test_damaged_entries_are_detected_and_recompiled(cache_dir, kind, damage) -> None:
    x = torch.randn(2, 4)
    torch2mlir.compile(Scale(2.0).eval(), (x,))
    entries = list(cache_dir.rglob(kind))
    assert entries
    for entry in entries:
        data = entry.read_bytes()
        if damage == "garbage":
            data = b"not a cache entry"
        elif damage == "truncated":
            data = data[: len(data) // 2]
        else:
            middle = len(data) // 2
            data = data[:middle] + bytes([data[middle] ^ 0x40]) + data[middle + 1 :]
        entry.write_bytes(data)
    if kind == "*.o":
        # Only the object is damaged: drop the program entries, which embed
        # their own copy of the machine code, so the object level is read.
        for entry in cache_dir.rglob("*.pt"):
            entry.unlink()
    model = Scale(2.0).eval()
    compiled = torch2mlir.compile(model, (x,))
    # A damaged program entry is a miss (the object level may still hit); a
    # damaged object is recompiled.
    assert compiled.cache == ("object" if kind == "*.pt" else "miss")
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))
    # The damaged files were replaced by good ones: the next compile hits.
    assert torch2mlir.compile(model, (x,)).cache == "program"


# --------------------------------------------------------------------------
# Pairs of models that differ in exactly one way: the second compile must
# match eager (the examples first).


class Mode(torch.nn.Module):
    def __init__(self, mode: str) -> None:
        super().__init__()
        self._mode = mode
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.lin(x)
        return torch.relu(y) if self._mode == "relu" else torch.tanh(y)


SCALE = 1.0


class Global(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * SCALE


def _closure(factor: float):
    class Closure(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * factor

    return Closure()


class Config:
    def __init__(self, shift: float) -> None:
        self.shift = shift


class WithConfig(torch.nn.Module):
    def __init__(self, config: Config) -> None:
        super().__init__()
        self._config = config

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self._config.shift


class Outer(torch.nn.Module):
    def __init__(self, inner: torch.nn.Module) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inner(x) + 1


def _pair(kind: str):
    """Two (model, args) that differ only in `kind`, built lazily so that a
    global or a method can change between the compiles."""
    x = torch.randn(3, 4)
    if kind == "private attribute":
        torch.manual_seed(0)
        first = Mode("relu").eval()
        torch.manual_seed(0)
        yield first, (x,)
        yield Mode("tanh").eval(), (x,)
    elif kind == "global":
        global SCALE
        SCALE = 1.0
        yield Global(), (x,)
        SCALE = 5.0
        try:
            yield Global(), (x,)
        finally:
            SCALE = 1.0
    elif kind == "closure":
        yield _closure(2.0), (x,)
        yield _closure(-3.0), (x,)
    elif kind == "config object":
        yield WithConfig(Config(1.0)), (x,)
        yield WithConfig(Config(7.0)), (x,)
    elif kind == "monkeypatched forward":
        yield Global(), (x,)
        model = Global()
        model.forward = lambda x: torch.sin(x)  # type: ignore[method-assign]
        yield model, (x,)
    elif kind == "submodule swapped":
        yield Outer(torch.nn.ReLU()), (x,)
        yield Outer(torch.nn.Sigmoid()), (x,)
    elif kind == "dtype":
        yield torch.nn.Linear(4, 2).eval(), (x,)
        yield torch.nn.Linear(4, 2).double().eval(), (x.double(),)
    elif kind == "training flag":
        torch.manual_seed(0)
        yield torch.nn.BatchNorm1d(4).eval(), (x,)
        yield torch.nn.BatchNorm1d(4).train(), (x,)
    elif kind == "build":
        yield Global(), (x,)
        # Another build of torch2mlir: another identity.
        cache._BUILD = "another build"
        yield Global(), (x,)


@pytest.mark.parametrize(
    "kind",
    [
        "private attribute",
        "global",
        "closure",
        "config object",
        "monkeypatched forward",
        "submodule swapped",
        "dtype",
        "training flag",
        "build",
    ],
)
def test_a_changed_model_never_gets_the_old_program(
    cache_dir, monkeypatch, kind
) -> None:
    monkeypatch.setattr(cache, "_BUILD", cache._build_identity())
    pairs = _pair(kind)
    model, args = next(pairs)
    first = torch2mlir.compile(model, args)
    assert first.cache == "miss"
    with torch.no_grad():
        torch.testing.assert_close(first(*args), model(*args))
    model, args = next(pairs)
    second = torch2mlir.compile(model, args)
    with torch.no_grad():
        expected = model(*args)
    torch.testing.assert_close(second(*args), expected)
    # The program differs, so its entry cannot be the first one's.
    assert second.cache != "program"
    pairs.close()


def test_the_same_program_hits_also_from_an_exported_program(cache_dir) -> None:
    x = torch.randn(3, 4)
    model = Scale(2.0).eval()
    prog = torch.export.export(model, (x,))
    assert torch2mlir.compile(prog, (x,)).cache == "miss"
    again = torch2mlir.compile(torch.export.export(model, (x,)), (x,))
    assert again.cache == "program"
    with torch.no_grad():
        torch.testing.assert_close(again(x), model(x))


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


class TopK(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        return x.topk(3, -1)


def test_outputs_without_a_serialized_pytree_form_compile_twice(cache_dir) -> None:
    # torch.return_types.topk has no serialized name in torch.utils._pytree:
    # the program is not kept (the machine code is), and both compiles run.
    x = torch.randn(4, 10)
    for expected_cache in ("miss", "object"):
        compiled = torch2mlir.compile(TopK(), (x,))
        assert compiled.cache == expected_cache
        values, indices = compiled(x)
        torch.testing.assert_close(values, x.topk(3, -1).values)
        torch.testing.assert_close(indices, x.topk(3, -1).indices)
