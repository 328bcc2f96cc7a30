"""float8 and sub-byte storage dtypes, compiled and compared with eager
PyTorch bit for bit (NaN against NaN whatever its payload).

float8 values live in memory as bytes and convert through
``refbackend-expand-small-floats`` (integer math on the bits); PyTorch's
casts are the reference: ``float8_e4m3fn`` saturates at +-448, the others
overflow to infinity (``e5m2``) or NaN (the ``fnuz`` formats), and
``float8_e8m0fnu`` rounds to the nearest power of two, ties up. The values
cover every binade the formats reach, their subnormals, the rounding ties
and the overflow thresholds. ONNX's int4/uint4 tensors (one element per
byte, as ``ml_dtypes`` stores them) round-trip through ``compile_onnx``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from harness import import_torch2mlir
from test_decompositions import Call

torch2mlir = import_torch2mlir()

FLOAT8 = [
    torch.float8_e4m3fn,
    torch.float8_e5m2,
    torch.float8_e4m3fnuz,
    torch.float8_e5m2fnuz,
    torch.float8_e8m0fnu,
]
WIDE = [torch.float32, torch.float16, torch.bfloat16, torch.float64]


def _names(dtypes: list[torch.dtype]) -> list[str]:
    return [str(d).removeprefix("torch.") for d in dtypes]


def assert_same_bits(got: torch.Tensor, want: torch.Tensor) -> None:
    """Equal dtypes, shapes and bits, except that any NaN matches any NaN."""
    assert got.dtype == want.dtype and got.shape == want.shape
    nan_got, nan_want = got.float().isnan(), want.float().isnan()
    assert torch.equal(nan_got, nan_want)
    width = torch.uint8 if got.element_size() == 1 else torch.int16
    if got.element_size() > 2:
        width = torch.int32 if got.element_size() == 4 else torch.int64
    bits_got, bits_want = got.view(width)[~nan_got], want.view(width)[~nan_want]
    bad = bits_got != bits_want
    assert not bad.any(), (
        f"{int(bad.sum())} values differ, e.g. {bits_got[bad][:4].tolist()} "
        f"vs eager {bits_want[bad][:4].tolist()}"
    )


def compile_and_run(fn: Any, *inputs: torch.Tensor) -> Any:
    return torch2mlir.compile(Call(fn), inputs, cache=False)(*inputs)


def _values() -> torch.Tensor:
    """Random values over 2^-30 .. 2^20 (subnormals to overflow of every
    format), the thresholds and ties, zeros, infinities and NaN."""
    generator = torch.Generator().manual_seed(0)
    scale = torch.exp2(torch.randint(-30, 20, (4000,), generator=generator).float())
    specials = [0.0, -0.0, float("inf"), -float("inf"), float("nan")]
    edges = [448, 464, 465, 480, 240, 248, 249, 57344, 61440, 61439, 2**-9, 3 * 2**-10]
    edges += [1.0625, 1.1875, 1.5, 3.0, 2.0**-127, 1.5 * 2.0**-127, 3e38]
    tail = torch.tensor(specials + edges + [-v for v in edges])
    return torch.cat([torch.randn(4000, generator=generator) * scale, tail])


@pytest.mark.parametrize("source", WIDE, ids=_names(WIDE))
@pytest.mark.parametrize("dtype", FLOAT8, ids=_names(FLOAT8))
def test_cast_to_float8(dtype: torch.dtype, source: torch.dtype) -> None:
    x = _values().to(source)
    assert_same_bits(compile_and_run(lambda v: v.to(dtype), x), x.to(dtype))


@pytest.mark.parametrize("target", WIDE, ids=_names(WIDE))
@pytest.mark.parametrize("dtype", FLOAT8, ids=_names(FLOAT8))
def test_every_code_decodes(dtype: torch.dtype, target: torch.dtype) -> None:
    codes = torch.arange(256, dtype=torch.uint8).view(dtype)
    assert_same_bits(compile_and_run(lambda v: v.to(target), codes), codes.to(target))


@pytest.mark.parametrize("dtype", FLOAT8[:4], ids=_names(FLOAT8[:4]))
def test_integer_and_bool_conversions(dtype: torch.dtype) -> None:
    ints = torch.arange(-600, 600, 7, dtype=torch.int32)

    def convert(i: torch.Tensor) -> tuple[torch.Tensor, ...]:
        f8 = i.to(dtype)
        return f8, f8.to(torch.int64), f8.to(torch.bool), (i > 0).to(dtype)

    for got, want in zip(compile_and_run(convert, ints), convert(ints)):
        assert_same_bits(got, want)


@pytest.mark.parametrize("dtype", FLOAT8, ids=_names(FLOAT8))
def test_data_movement(dtype: torch.dtype) -> None:
    """Ops that only move float8 values: views, concatenation, gathers,
    selection, constants baked into the program."""
    x = torch.randn(4, 6).to(dtype)
    index = torch.tensor([3, 0, 2])
    constant = torch.linspace(-3, 3, 6).to(dtype)

    def move(v: torch.Tensor, i: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return (
            v.t().reshape(3, 8),
            torch.cat([v, v[:1]]),
            v.index_select(0, i),
            torch.where(v.float() > 0, v, constant),
            v[:, ::2].transpose(0, 1),
        )

    for got, want in zip(compile_and_run(move, x, index), move(x, index)):
        assert_same_bits(got, want)


@pytest.mark.parametrize("dtype", FLOAT8[:4], ids=_names(FLOAT8[:4]))
def test_eye(dtype: torch.dtype) -> None:
    assert_same_bits(
        compile_and_run(lambda: torch.eye(5, 3, dtype=dtype)),
        torch.eye(5, 3, dtype=dtype),
    )


@pytest.mark.parametrize(
    ("a_dtype", "b_dtype", "out_dtype", "rowwise"),
    [
        (torch.float8_e4m3fn, torch.float8_e5m2, torch.bfloat16, False),
        (torch.float8_e5m2, torch.float8_e4m3fn, torch.float32, True),
        (torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e4m3fn, False),
    ],
)
def test_scaled_mm(
    a_dtype: torch.dtype, b_dtype: torch.dtype, out_dtype: torch.dtype, rowwise: bool
) -> None:
    """torch._scaled_mm: the float32 product of the scaled float8 operands,
    plus the bias, rounded once to out_dtype (mixed operand dtypes: eager's
    portable kernel)."""
    generator = torch.Generator().manual_seed(1)
    a = torch.randn(16, 32, generator=generator).to(a_dtype)
    b = torch.randn(24, 32, generator=generator).to(b_dtype).t()
    scale_a = torch.rand(16, 1) + 0.5 if rowwise else torch.tensor(0.75)
    scale_b = torch.rand(1, 24) + 0.5 if rowwise else torch.tensor(1.25)
    bias = None if out_dtype in FLOAT8 else torch.randn(24).to(out_dtype)

    def product(
        a: torch.Tensor, b: torch.Tensor, sa: torch.Tensor, sb: torch.Tensor
    ) -> Any:
        return torch._scaled_mm(a, b, sa, sb, bias=bias, out_dtype=out_dtype)

    got = compile_and_run(product, a, b, scale_a, scale_b)
    want = product(a, b, scale_a, scale_b)
    if out_dtype in FLOAT8:
        assert_same_bits(got, want)
    else:
        torch.testing.assert_close(got, want)


@pytest.mark.parametrize("name", ["INT4", "UINT4", "INT2", "UINT2"])
def test_onnx_sub_byte_integers_round_trip(name: str) -> None:
    """int4/uint4/int2/uint2 inputs and outputs (ml_dtypes arrays) through
    Reshape and a Cast to int8: every value of the type, negatives
    sign-extended."""
    import ml_dtypes
    from onnx import TensorProto, helper

    element = getattr(TensorProto, name)
    bits = int(name[-1])
    signed = not name.startswith("U")
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1)) if signed else (0, 2**bits)
    values = np.arange(low, high).astype(getattr(ml_dtypes, name.lower()))
    values = np.tile(values, 4)[:12].reshape(3, 4)
    graph = helper.make_graph(
        [
            helper.make_node("Reshape", ["x", "shape"], ["y"]),
            helper.make_node("Cast", ["y"], ["z"], to=TensorProto.INT8),
        ],
        "g",
        [helper.make_tensor_value_info("x", element, [3, 4])],
        [
            helper.make_tensor_value_info("y", element, [2, 6]),
            helper.make_tensor_value_info("z", TensorProto.INT8, [2, 6]),
        ],
        [helper.make_tensor("shape", TensorProto.INT64, [2], [2, 6])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    y, z = torch2mlir.compile_onnx(model)(values)
    assert y.dtype == values.dtype
    np.testing.assert_array_equal(
        y.astype(np.int8), values.reshape(2, 6).astype(np.int8)
    )
    np.testing.assert_array_equal(z, values.reshape(2, 6).astype(np.int8))
