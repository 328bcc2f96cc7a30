"""Errors that reach the user name what was wrong and where.

- Calling a compiled module with inputs that do not match the example inputs
  raises `torch2mlir.InputError` naming the argument, what was expected and
  what was given.
- Compiling a program with an op that the compiler does not lower raises
  `torch2mlir.CompileError` naming the op and the Python source line.

The messages are matched loosely (a shape may read `[3, 5]`, `(3, 5)` or
`3x5`; a dtype `float32` or `f32`), so that wording can change freely.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import torch
from harness import DECOMPOSITION_CONFIGS, import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()

THIS_FILE = Path(__file__).name


def names_argument(message: str, index: int, name: str) -> bool:
    """Whether `message` identifies the argument by `name` or by `index`."""
    if re.search(rf"\b{re.escape(name)}\b", message):
        return True
    by_index = rf"(\b(arg|args|argument|input|inputs|operand)\s*(#|no\.?|number)?\s*\[?{index}\]?|#{index})(?!\d)"
    return re.search(by_index, message, re.IGNORECASE) is not None


def mentions_shape(message: str, shape: tuple[int, ...]) -> bool:
    """Whether `message` spells `shape` as `[3, 5]`, `(3, 5)`, `3x5`, `[6]`, `(6,)`, `<6x`..."""
    if len(shape) == 1:
        (size,) = shape
        return re.search(rf"[\[(]\s*{size}\s*,?\s*[\])]|<{size}x", message) is not None
    body = r"\s*[,x×]\s*".join(str(d) for d in shape)
    not_after_a_dim = r"(?<![\d.])(?<!\d,)(?<!\d, )(?<!\dx)"
    return (
        re.search(rf"{not_after_a_dim}{body}(?![\d.]|\s*[,x×]\s*\d)", message)
        is not None
    )


def mentions_dtype(message: str, dtype: torch.dtype) -> bool:
    """Whether `message` names `dtype` the torch way (`float32`) or the MLIR way (`f32`)."""
    spellings = {
        torch.float32: ("float32", "f32"),
        torch.float64: ("float64", "f64"),
        torch.int64: ("int64", "si64", "i64"),
    }[dtype]
    # `f32` may follow the shape in MLIR's `tensor<3x5xf32>`.
    return any(
        re.search(rf"(?:(?<=\dx)|(?<![a-z0-9])){s}(?![0-9])", message)
        for s in spellings
    )


def mentions_count(message: str, count: int) -> bool:
    return re.search(rf"(?<![\d.\[(x]){count}(?![\d\]x])", message) is not None


# Wrong inputs.


class MatMulPlusOne(nn.Module):
    def forward(self, lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
        return torch.mm(lhs, rhs) + 1


LHS_SHAPE = (2, 3)
RHS_SHAPE = (3, 5)


@pytest.fixture(scope="module")
def compiled() -> Callable[..., object]:
    return torch2mlir.compile(
        MatMulPlusOne(), (torch.randn(*LHS_SHAPE), torch.randn(*RHS_SHAPE))
    )


def test_error_classes() -> None:
    assert issubclass(torch2mlir.InputError, torch2mlir.Torch2MlirError)
    assert issubclass(torch2mlir.CompileError, torch2mlir.Torch2MlirError)
    assert issubclass(torch2mlir.Torch2MlirError, Exception)


def test_wrong_shape(compiled: Callable[..., object]) -> None:
    with pytest.raises(torch2mlir.InputError) as info:
        compiled(torch.randn(*LHS_SHAPE), torch.randn(3, 6))
    message = str(info.value)
    assert names_argument(message, 1, "rhs"), message
    assert mentions_shape(message, RHS_SHAPE), f"expected shape missing: {message}"
    assert mentions_shape(message, (3, 6)), f"given shape missing: {message}"


def test_wrong_rank(compiled: Callable[..., object]) -> None:
    with pytest.raises(torch2mlir.InputError) as info:
        compiled(torch.randn(6), torch.randn(*RHS_SHAPE))
    message = str(info.value)
    assert names_argument(message, 0, "lhs"), message
    assert mentions_shape(message, LHS_SHAPE), f"expected shape missing: {message}"
    assert mentions_shape(message, (6,)), f"given shape missing: {message}"


@pytest.mark.parametrize("given", [torch.float64, torch.int64], ids=str)
def test_wrong_dtype(compiled: Callable[..., object], given: torch.dtype) -> None:
    with pytest.raises(torch2mlir.InputError) as info:
        compiled(torch.randn(*LHS_SHAPE), torch.ones(*RHS_SHAPE, dtype=given))
    message = str(info.value)
    assert names_argument(message, 1, "rhs"), message
    assert mentions_dtype(message, torch.float32), f"expected dtype missing: {message}"
    assert mentions_dtype(message, given), f"given dtype missing: {message}"


@pytest.mark.parametrize("count", [0, 1, 3])
def test_wrong_number_of_arguments(compiled: Callable[..., object], count: int) -> None:
    args = [torch.randn(*LHS_SHAPE), torch.randn(*RHS_SHAPE), torch.randn(*RHS_SHAPE)][
        :count
    ]
    with pytest.raises(torch2mlir.InputError) as info:
        compiled(*args)
    message = str(info.value)
    assert mentions_count(message, 2), f"expected count missing: {message}"
    assert mentions_count(message, count), f"given count missing: {message}"


def test_not_a_tensor(compiled: Callable[..., object]) -> None:
    with pytest.raises(torch2mlir.InputError) as info:
        compiled(torch.randn(*LHS_SHAPE), [[0.0] * 5] * 3)
    assert names_argument(str(info.value), 1, "rhs"), str(info.value)


def test_still_usable_after_an_input_error(compiled: Callable[..., object]) -> None:
    lhs, rhs = torch.randn(*LHS_SHAPE), torch.randn(*RHS_SHAPE)
    with pytest.raises(torch2mlir.InputError):
        compiled(lhs, rhs.double())
    torch.testing.assert_close(compiled(lhs, rhs), torch.mm(lhs, rhs) + 1)


# Tensors whose memory the compiled code cannot read: refused before any
# pointer reaches it (a meta tensor's null data pointer used to segfault).


def _unreadable_inputs() -> dict[str, Callable[[], torch.Tensor]]:
    from torch.testing._internal.two_tensor import TwoTensor

    rhs = torch.randn(*RHS_SHAPE)
    return {
        "meta": lambda: rhs.to("meta"),
        "sparse_coo": lambda: rhs.to_sparse(),
        "sparse_csr": lambda: rhs.to_sparse_csr(),
        "quantized": lambda: torch.quantize_per_tensor(rhs, 0.1, 0, torch.qint8),
        "nested": lambda: torch.nested.nested_tensor([rhs[0], rhs[1]]),
        "dispatch subclass": lambda: TwoTensor(rhs, rhs.clone()),
    }


@pytest.mark.parametrize(
    "kind",
    ["meta", "sparse_coo", "sparse_csr", "quantized", "nested", "dispatch subclass"],
)
def test_unreadable_tensors_are_refused(
    compiled: Callable[..., object], kind: str
) -> None:
    value = _unreadable_inputs()[kind]()
    with pytest.raises(torch2mlir.InputError) as info:
        compiled(torch.randn(*LHS_SHAPE), value)
    message = str(info.value)
    assert names_argument(message, 1, "rhs"), message
    advice = {
        "meta": "meta tensor has no data",
        "sparse_coo": "to_dense()",
        "sparse_csr": "to_dense()",
        "quantized": "dequantize()",
        "nested": "to_padded_tensor",
        "dispatch subclass": "plain torch.Tensor",
    }[kind]
    assert advice in message, message
    # And the module still works.
    lhs, rhs = torch.randn(*LHS_SHAPE), torch.randn(*RHS_SHAPE)
    torch.testing.assert_close(compiled(lhs, rhs), torch.mm(lhs, rhs) + 1)


def test_negative_views_are_read_as_their_values(
    compiled: Callable[..., object],
) -> None:
    # A negative view shares memory with its base and negates lazily: the
    # compiled code must see -rhs, not rhs.
    lhs, rhs = torch.randn(*LHS_SHAPE), torch.randn(*RHS_SHAPE)
    view = torch._neg_view(rhs)
    assert view.is_neg()
    torch.testing.assert_close(compiled(lhs, view), torch.mm(lhs, -rhs) + 1)


def test_weights_on_meta_are_refused_at_compile_time() -> None:
    model = torch.nn.Linear(4, 3, device="meta")
    with pytest.raises(torch2mlir.InputError, match="meta tensor has no data"):
        torch2mlir.compile(model, (torch.randn(2, 4, device="meta"),), cache=False)


# Ops that the compiler does not lower.


def source_line(function: Callable[..., object], marker: str) -> int:
    """The line number in this file of the only line of `function` containing `marker`."""
    lines, first = inspect.getsourcelines(function)
    hits = [first + offset for offset, line in enumerate(lines) if marker in line]
    assert len(hits) == 1, (
        f"{marker!r} occurs {len(hits)} times in {function.__qualname__}"
    )
    return hits[0]


# `igammac` and `igamma` stand for any op torch2mlir does not define; when one
# gets a lowering, pick another op that still has none.


class UsesIgammac(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x * 2
        z = torch.igammac(y, y)
        return z + 1


class UsesIgamma(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(torch.igamma(x.abs(), x.abs()))


class IgammacInside(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.igammac(x, x) * 3


class CallsIgammacInside(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.inner = IgammacInside()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inner(x + 1) - 1


class CastsToPackedFloat4(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.to(torch.float4_e2m1fn_x2).to(torch.float32)


UNSUPPORTED = {
    # name: (module class, op name in the message, method and marker of the offending line)
    "igammac": (
        UsesIgammac,
        "aten.igammac",
        UsesIgammac.forward,
        "torch.igammac(",
    ),
    "igamma": (
        UsesIgamma,
        "aten.igamma",
        UsesIgamma.forward,
        "torch.igamma(",
    ),
    "igammac_in_submodule": (
        CallsIgammacInside,
        "aten.igammac",
        IgammacInside.forward,
        "torch.igammac(",
    ),
    # A dtype argument torch2mlir has no type for (not a KeyError).
    "packed_float4_cast": (
        CastsToPackedFloat4,
        "float4_e2m1fn_x2",
        CastsToPackedFloat4.forward,
        "torch.float4_e2m1fn_x2",
    ),
}


@pytest.mark.parametrize("config", DECOMPOSITION_CONFIGS)
@pytest.mark.parametrize("program", list(UNSUPPORTED))
def test_unsupported_op(program: str, config: str) -> None:
    module_class, op_name, method, marker = UNSUPPORTED[program]
    with pytest.raises(torch2mlir.CompileError) as info:
        torch2mlir.compile(module_class(), (torch.randn(3, 4),), decompositions=config)
    message = str(info.value)
    assert op_name in message, f"op {op_name} missing: {message}"
    location = f"{THIS_FILE}:{source_line(method, marker)}"
    assert location in message, f"source location {location} missing: {message}"


def test_unknown_decompositions_value() -> None:
    with pytest.raises((ValueError, torch2mlir.Torch2MlirError)) as info:
        torch2mlir.compile(
            MatMulPlusOne(),
            (torch.randn(*LHS_SHAPE), torch.randn(*RHS_SHAPE)),
            decompositions="all",
        )
    assert "all" in str(info.value), str(info.value)


# The inputs passed the other API's way: compile takes one tuple of inputs,
# export_and_import separate arguments. The error says so, and the way out
# it gives works.


def test_compile_refuses_one_tensor_for_the_inputs_tuple() -> None:
    model, x = nn.Linear(4, 3).eval(), torch.randn(2, 4)
    with pytest.raises(TypeError) as info:
        torch2mlir.compile(model, x, cache=False)
    message = str(info.value)
    assert "[2, 4]" in message and "compile(model, (x,))" in message, message
    compiled = torch2mlir.compile(model, (x,), cache=False)
    torch.testing.assert_close(compiled(x), model(x), rtol=1e-5, atol=1e-6)


def test_export_and_import_says_how_to_unpack_a_tuple_of_inputs() -> None:
    from torch2mlir import export_and_import

    model, x = nn.Linear(4, 3).eval(), torch.randn(2, 4)
    with pytest.raises(torch2mlir.CompileError) as info:
        export_and_import(model, (x,))
    message = str(info.value)
    assert "argument 0 is a tuple of 1 tensor" in message, message
    assert "export_and_import(model, *inputs)" in message, message
    assert "func.func @main" in str(export_and_import(model, *(x,)))


class TakesAPair(nn.Module):
    def forward(self, pair: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        return pair[0] * pair[1]


def test_export_and_import_still_takes_a_tuple_argument() -> None:
    # A tuple is a valid input of a forward that takes one: no hint, no error.
    from torch2mlir import export_and_import

    module = export_and_import(TakesAPair(), (torch.randn(3), torch.randn(3)))
    assert "func.func @main" in str(module)


# The way out that an unsupported-op error gives is followed, and works.

_LIBRARY = torch.library.Library("t2m_errors", "DEF")
_LIBRARY.define("double_it(Tensor x) -> Tensor")


@torch.library.impl(_LIBRARY, "double_it", "CompositeExplicitAutograd")
def _double_it(x: torch.Tensor) -> torch.Tensor:
    return x * 2


@torch.library.register_fake("t2m_errors::double_it")
def _double_it_fake(x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)


class UsesCustomOp(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.t2m_errors.double_it(x) + 1


def test_the_advice_for_an_unsupported_op_works() -> None:
    from torch2mlir import export_and_import

    x = torch.randn(3, 4)
    with pytest.raises(torch2mlir.CompileError) as info:
        torch2mlir.compile(UsesCustomOp(), (x,), cache=False)
    message = str(info.value)
    assert "t2m_errors.double_it" in message, message
    # The advice names parameters that exist...
    assert "torch2mlir.compile(model, args, decompositions=table)" in message, message
    assert "export_and_import(model, *args, decompositions=table)" in message, message
    assert "decompositions" in inspect.signature(torch2mlir.compile).parameters
    assert "decompositions" in inspect.signature(export_and_import).parameters
    # ... and following it compiles the model.
    table = torch.export.default_decompositions()
    table[torch.ops.t2m_errors.double_it.default] = lambda x: x * 2
    compiled = torch2mlir.compile(UsesCustomOp(), (x,), decompositions=table)
    torch.testing.assert_close(compiled(x), x * 2 + 1)
    module = export_and_import(
        UsesCustomOp(), x, decompositions=table, output_type="linalg-on-tensors"
    )
    assert "t2m_errors" not in str(module)


# Integer division: the CPU traps (SIGFPE) on a zero divisor and on
# INT_MIN / -1; compiled code never does.


class IntegerDivide(nn.Module):
    def __init__(self, mode: str | None) -> None:
        super().__init__()
        self.mode = mode

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.div(x, y, rounding_mode=self.mode)


@pytest.mark.parametrize("mode", ["trunc", "floor"])
@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8])
def test_integer_division_by_zero_is_an_input_error(mode: str, dtype) -> None:
    x = torch.tensor([7, 9, 4], dtype=dtype)
    y = torch.tensor([2, 3, 1], dtype=dtype)
    compiled = torch2mlir.compile(IntegerDivide(mode), (x, y), cache=False)
    torch.testing.assert_close(compiled(x, y), torch.div(x, y, rounding_mode=mode))
    zero = torch.tensor([2, 0, 1], dtype=dtype)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.div(x, zero, rounding_mode=mode)
    with pytest.raises(torch2mlir.InputError, match="integer division by zero"):
        compiled(x, zero)
    # Still usable.
    torch.testing.assert_close(compiled(x, y), torch.div(x, y, rounding_mode=mode))


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_int_min_divided_by_minus_one_wraps(mode: str) -> None:
    low = torch.iinfo(torch.int64).min
    x = torch.tensor([low, low + 1, 5], dtype=torch.int64)
    y = torch.tensor([-1, -1, -1], dtype=torch.int64)
    compiled = torch2mlir.compile(IntegerDivide(mode), (x, y), cache=False)
    # (Eager PyTorch itself traps here.) x / -1 = -x, wrapping in 64 bits.
    wrapped = [(-v + 2**63) % 2**64 - 2**63 for v in x.tolist()]
    assert compiled(x, y).tolist() == wrapped
