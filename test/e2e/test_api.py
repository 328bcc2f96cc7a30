"""The contract of `torch2mlir.compile` beyond numerics: output structure,
timings, reuse of a compiled module, inputs left alone, strided inputs."""

from __future__ import annotations

import pytest
import torch
from harness import DECOMPOSITION_CONFIGS, import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()


class TwoOutputs(nn.Module):
    def forward(
        self, x: torch.Tensor, y: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return x + y, (x * y).sum(1)


class SameTwice(nn.Module):
    def forward(
        self, x: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        y = x + 1
        return y, x * 2, y


@pytest.mark.parametrize("shape", [(), (3,), (2, 5)])
def test_the_same_value_returned_twice(shape: tuple[int, ...]) -> None:
    """Each output is its own tensor, also when the program returns one
    value twice (it crashed in buffer-results-to-out-params for static
    shapes)."""
    x = torch.randn(shape)
    first, second, third = torch2mlir.compile(SameTwice(), (x,))(x)
    torch.testing.assert_close(first, x + 1)
    torch.testing.assert_close(second, x * 2)
    torch.testing.assert_close(third, x + 1)
    assert first.data_ptr() != third.data_ptr()


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
def test_tuple_output(config: str) -> None:
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    compiled = torch2mlir.compile(TwoOutputs(), (x, y), decompositions=config)
    result = compiled(x, y)
    assert isinstance(result, tuple) and len(result) == 2
    torch.testing.assert_close(result[0], x + y)
    torch.testing.assert_close(result[1], (x * y).sum(1))


def test_single_output_is_a_tensor() -> None:
    x = torch.randn(2, 3)
    result = torch2mlir.compile(nn.ReLU(), (x,))(x)
    assert isinstance(result, torch.Tensor)


def test_timings() -> None:
    x = torch.randn(2, 3)
    compiled = torch2mlir.compile(nn.ReLU(), (x,))
    assert set(compiled.timings) >= {"export", "import", "lowering", "jit"}, (
        compiled.timings
    )
    for phase, seconds in compiled.timings.items():
        assert isinstance(seconds, float) and seconds >= 0.0, (phase, seconds)


def test_repeated_calls_with_new_inputs() -> None:
    model = nn.Linear(4, 3).eval()
    compiled = torch2mlir.compile(model, (torch.randn(2, 4),))
    with torch.no_grad():
        for _ in range(3):
            x = torch.randn(2, 4)
            torch.testing.assert_close(compiled(x), model(x))


def test_outputs_do_not_alias_each_other_across_calls() -> None:
    compiled = torch2mlir.compile(nn.ReLU(), (torch.randn(5),))
    first = compiled(torch.ones(5))
    second = compiled(torch.full((5,), 2.0))
    torch.testing.assert_close(first, torch.ones(5))
    torch.testing.assert_close(second, torch.full((5,), 2.0))


def test_inputs_are_not_modified() -> None:
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    x_before, y_before = x.clone(), y.clone()
    torch2mlir.compile(TwoOutputs(), (x, y))(x, y)
    assert torch.equal(x, x_before) and torch.equal(y, y_before)


def test_non_contiguous_input() -> None:
    # The runtime must honor strides (or copy): a transposed view and a slice.
    model = TwoOutputs()
    compiled = torch2mlir.compile(model, (torch.randn(3, 4), torch.randn(3, 4)))
    x = torch.randn(4, 3).t()
    y = torch.randn(3, 8)[:, ::2]
    assert not x.is_contiguous() and not y.is_contiguous()
    expected = model(x, y)
    actual = compiled(x, y)
    torch.testing.assert_close(actual[0], expected[0])
    torch.testing.assert_close(actual[1], expected[1])


def test_calls_from_several_threads_at_once() -> None:
    """A static signature's calls reuse memref descriptors (a pool of frames,
    one taken per call): threads calling one compiled module at once, each
    with its own inputs, must each get their own result. The compiled code
    runs with the GIL released, so the calls overlap."""
    import threading

    model = TwoOutputs()
    compiled = torch2mlir.compile(model, (torch.randn(64, 256), torch.randn(64, 256)))
    failures: list[str] = []

    def work(seed: int) -> None:
        generator = torch.Generator().manual_seed(seed)
        for _ in range(50):
            x = torch.randn(64, 256, generator=generator)
            y = torch.randn(64, 256, generator=generator)
            total, product = compiled(x, y)
            if not torch.equal(total, x + y) or not torch.allclose(
                product, (x * y).sum(1), rtol=1e-5, atol=1e-5
            ):
                failures.append(f"thread {seed}: a result of other inputs")

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures


def test_a_call_that_overlaps_another_keeps_its_descriptors() -> None:
    """The deterministic form of the test above: while one call's function
    runs, another call on the same module (as from another thread) must
    not rewrite the descriptors the first one passed."""
    import ctypes

    compiled = torch2mlir.compile(nn.ReLU(), (torch.randn(8),))
    static = compiled._runner._static
    assert static is not None, "a static signature takes the static call path"
    outer, inner = torch.randn(8), torch.randn(8)
    compiled(outer)  # a frame in the pool, to be taken by the next call
    seen: list[int] = []

    def outer_function(x_address: int, out_address: int) -> None:
        static.run(lambda *addresses: None, (inner,))
        # The first field of a memref descriptor is its allocated pointer.
        seen.append(ctypes.c_void_p.from_address(x_address).value or 0)

    static.run(outer_function, (outer,))
    assert seen == [outer.data_ptr()]


def test_arguments_the_static_call_path_does_not_take() -> None:
    """Only plain contiguous CPU tensors of the compiled shape and dtype take
    the static call path; a Parameter, a non-contiguous view, a NumPy array
    and a size-1 dim with an odd stride are read correctly the general way,
    and a wrong shape or dtype is still an InputError."""
    import numpy as np

    compiled = torch2mlir.compile(TwoOutputs(), (torch.randn(3, 4), torch.randn(3, 4)))
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    want = TwoOutputs()(x, y)
    for args in [
        (nn.Parameter(x.clone()), y),
        (x.t().contiguous().t(), y),
        (x.numpy(), np.ascontiguousarray(y.numpy())),
    ]:
        got = compiled(*args)
        torch.testing.assert_close(got[0], want[0])
        torch.testing.assert_close(got[1], want[1])
    row = torch.randn(1, 4)
    odd = torch.empty_strided((1, 4), (100, 1)).copy_(row)
    model = nn.ReLU()
    relu = torch2mlir.compile(model, (row,))
    torch.testing.assert_close(relu(odd), model(row))
    with pytest.raises(torch2mlir.InputError, match="expected shape"):
        compiled(torch.randn(3, 5), y)
    with pytest.raises(torch2mlir.InputError, match="expected dtype"):
        compiled(x.double(), y)


@pytest.mark.parametrize("decompositions", ["core-aten", "none"])
def test_an_exported_program_compiles_without_exporting_again(
    decompositions: str,
) -> None:
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    linear = nn.Linear(4, 2)
    prog = torch.export.export(linear, (x,))
    if decompositions == "none":
        prog = torch2mlir.fx.export(linear, (x,))  # decomposed already
    compiled = torch2mlir.compile(prog, (x,), decompositions=decompositions)
    assert compiled.cache != "program"  # not keyed by module: never a program hit
    torch.testing.assert_close(compiled(y), linear(y).detach())
    with pytest.raises(ValueError, match="dynamic_shapes"):
        torch2mlir.compile(prog, (x,), dynamic_shapes=({0: torch.export.Dim("b")},))


def test_auto_decompositions_lower_defined_ops_directly() -> None:
    from torch2mlir.compiler import _defines_every_op
    from torch2mlir.fx import export

    class Narrow(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.narrow(x, 1, 1, 2) * 2

    class InPlace(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = x * 2
            y.add_(1)
            return y

    x = torch.randn(3, 4)
    mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).eval()
    assert _defines_every_op(export(mlp, (x,), decompositions="none"))
    # aten.narrow has no torch dialect op; an in-place op needs PyTorch's
    # functionalization: both take the Core ATen table.
    assert not _defines_every_op(export(Narrow(), (x,), decompositions="none"))
    assert not _defines_every_op(export(InPlace(), (x,), decompositions="none"))
    for model in (mlp, Narrow(), InPlace()):
        with torch.no_grad():
            expected = model(x)
        auto = torch2mlir.compile(model, (x,), cache=False)
        core = torch2mlir.compile(model, (x,), decompositions="core-aten", cache=False)
        torch.testing.assert_close(auto(x), expected)
        torch.testing.assert_close(core(x), expected)


def test_a_symbol_that_does_not_resolve_is_named() -> None:
    """Code calling a function that neither the process nor the runtime
    defines fails to link with a CompileError naming the symbol (it read
    "no function main" before: the JIT links at the first lookup)."""
    from torch2mlir import ir
    from torch2mlir.runtime.refbackend import RefBackendModule

    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(
            """
            llvm.func @torch2mlir_test_no_such_function()
            llvm.func @_mlir_ciface_main() {
              llvm.call @torch2mlir_test_no_such_function() : () -> ()
              llvm.return
            }
            """
        )
        with pytest.raises(torch2mlir.CompileError) as info:
            RefBackendModule(module, "main", [], [], cache=False)
    message = str(info.value)
    assert "torch2mlir_test_no_such_function" in message, message
    assert "@main" in message, message


class TrainingBatchNorm(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.norm = nn.BatchNorm2d(4, momentum=0.3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.norm(self.conv(x)))


def test_training_batch_norm_updates_its_running_stats() -> None:
    """In training mode the compiled model updates BatchNorm's buffers at
    every call, as eager does (the export's BUFFER_MUTATION outputs)."""
    import copy

    torch.manual_seed(0)
    eager = TrainingBatchNorm().train()
    model = copy.deepcopy(eager)
    first = torch.randn(2, 3, 8, 8)
    compiled = torch2mlir.compile(model, (first,), cache=False)
    for x in (first, torch.randn(2, 3, 8, 8) * 3 + 1):
        torch.testing.assert_close(compiled(x), eager(x))
        for name in ("running_mean", "running_var", "num_batches_tracked"):
            torch.testing.assert_close(
                getattr(model.norm, name), getattr(eager.norm, name), msg=name
            )
    assert int(model.norm.num_batches_tracked) == 2


class AccumulatesIntoATransposedBuffer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        # A non-contiguous buffer: the compiled code reads a contiguous copy.
        self.register_buffer("total", torch.zeros(4, 3).t())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.total.add_(x)
        return self.total * 2


def test_a_non_contiguous_buffer_is_updated() -> None:
    eager = AccumulatesIntoATransposedBuffer()
    model = AccumulatesIntoATransposedBuffer()
    assert not model.total.is_contiguous()
    compiled = torch2mlir.compile(model, (torch.randn(3, 4),), cache=False)
    for _ in range(2):
        x = torch.randn(3, 4)
        torch.testing.assert_close(compiled(x), eager(x))
        torch.testing.assert_close(model.total, eager.total)


class AddsToItsInput(nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        y.mul_(2)
        return x + y


def test_an_input_mutated_in_place_is_updated() -> None:
    x, y = torch.randn(3), torch.randn(3)
    compiled = torch2mlir.compile(AddsToItsInput(), (x, y.clone()), cache=False)
    expected_y = y * 2
    result = compiled(x, y)
    torch.testing.assert_close(y, expected_y)
    torch.testing.assert_close(result, x + expected_y)


def test_export_and_import_returns_mutated_inputs_last() -> None:
    from torch2mlir import export_and_import

    module = export_and_import(AddsToItsInput(), torch.randn(3), torch.randn(3))
    text = str(module)
    signature = next(line for line in text.splitlines() if "func.func @main" in line)
    assert signature.count("!torch.vtensor<[3],f32>") == 4, signature


def test_a_buffer_update_without_state_is_refused() -> None:
    from torch2mlir import export_and_import

    with pytest.raises(torch2mlir.CompileError) as info:
        export_and_import(TrainingBatchNorm().train(), torch.randn(2, 3, 8, 8))
    message = str(info.value)
    assert "norm.running_mean" in message and "eval" in message, message


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
def test_compiling_prints_no_pytorch_internal_warning(config: str) -> None:
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch2mlir.compile(
            nn.Linear(3, 2), (torch.randn(2, 3),), decompositions=config, cache=False
        )
    leaf_spec = [w for w in caught if "LeafSpec" in str(w.message)]
    assert not leaf_spec, [str(w.message) for w in leaf_spec]
