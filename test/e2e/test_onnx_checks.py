"""ONNX models are checked, not trusted: declared types that contradict the
computation, malformed initializers and inputs whose run-time sizes
contradict what the compiled code assumes are InputErrors, never a
reinterpretation, a wrong value or a read outside a buffer."""

from __future__ import annotations

import numpy as np
import pytest
from harness import import_torch2mlir
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

torch2mlir = import_torch2mlir()


def _model(nodes, inputs, outputs, initializers=(), opset: int = 17):
    graph = helper.make_graph(
        nodes, "checks", inputs, outputs, initializer=list(initializers)
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _reshape_model():
    """x: [N, 3, 4] reshaped to a constant [2, 12]: only N = 2 is valid."""
    return _model(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 12])],
        [helper.make_tensor("shape", TensorProto.INT64, [2], [2, 12])],
    )


@pytest.mark.parametrize("batch", [1, 3, 5])
def test_a_run_time_size_the_code_cannot_use_is_an_input_error(batch: int) -> None:
    model = _reshape_model()
    compiled = torch2mlir.compile_onnx(model)
    x = np.random.default_rng(0).random((batch, 3, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="cannot reshape"):
        ReferenceEvaluator(model).run(None, {"x": x})
    with pytest.raises(torch2mlir.InputError, match=r"reshaped to \[2, 12\]"):
        compiled(x)
    # The valid size still runs, after a failed call too.
    good = np.random.default_rng(1).random((2, 3, 4), dtype=np.float32)
    np.testing.assert_array_equal(compiled(good)[0], good.reshape(2, 12))


def test_a_declared_output_dtype_is_checked() -> None:
    model = _model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, [2, 3])],
    )
    with pytest.raises(torch2mlir.InputError) as info:
        torch2mlir.compile_onnx(model)
    message = str(info.value)
    assert "graph output 'y' is declared INT32 [2, 3]" in message, message
    assert "computes FLOAT [2, 3]" in message, message


def test_a_declared_output_shape_is_checked() -> None:
    model = _model(
        [
            helper.make_node(
                "MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[100, 1]
            )
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 9, 9])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 8, 8])],
    )
    with pytest.raises(torch2mlir.InputError) as info:
        torch2mlir.compile_onnx(model)
    message = str(info.value)
    assert "graph output 'y' is declared FLOAT [1, 1, 8, 8]" in message, message
    assert "computes FLOAT [1, 1, 1, 8]" in message, message


def test_a_declared_value_info_is_checked() -> None:
    model = _model(
        [
            helper.make_node("Add", ["x", "x"], ["t"]),
            helper.make_node("Relu", ["t"], ["y"]),
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    model.graph.value_info.append(
        helper.make_tensor_value_info("t", TensorProto.FLOAT, [3, 2])
    )
    with pytest.raises(torch2mlir.InputError, match="value_info 't' is declared"):
        torch2mlir.compile_onnx(model)


@pytest.mark.parametrize(
    "bad",
    ["dims disagree with data", "unknown data_type"],
)
def test_malformed_initializers_are_input_errors(bad: str) -> None:
    weight = helper.make_tensor("w", TensorProto.FLOAT, [2, 3], [1.0] * 6)
    if bad == "dims disagree with data":
        weight.dims[:] = [4, 3]
    else:
        weight.data_type = 99
    model = _model(
        [helper.make_node("Add", ["x", "w"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [weight],
    )
    with pytest.raises(torch2mlir.InputError):
        torch2mlir.compile_onnx(model)


def _relu():
    return torch2mlir.compile_onnx(
        _model(
            [helper.make_node("Relu", ["x"], ["y"])],
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 3])],
        )
    )


def test_non_contiguous_arrays_are_read_as_their_values() -> None:
    compiled = _relu()
    x = np.random.default_rng(0).standard_normal((3, 4), dtype=np.float32)
    for view in (x.T, np.flip(x, 0).T, np.asfortranarray(x.T)):
        np.testing.assert_array_equal(compiled(view)[0], np.maximum(view, 0))


@pytest.mark.parametrize(
    "value, expected",
    [
        ([[0.0] * 3] * 4, "expected a numpy array"),
        (np.full((4, 3), "a", dtype=object), "numpy dtype object"),
        (np.zeros((4, 3), dtype=np.float64), "expected dtype"),
    ],
    ids=["list", "object array", "float64"],
)
def test_inputs_that_are_not_the_declared_arrays(value, expected: str) -> None:
    with pytest.raises(torch2mlir.InputError, match=expected):
        _relu()(value)


def test_run_time_axes_are_checked_against_the_static_sizes() -> None:
    """ReduceMax with its axes a graph input: the static sizes say which dim
    it reduces ([3,2,2] -> [3,1,2]: dim 1); other axes at run time would give
    another shape, so they are an InputError, not the wrong reduction."""
    model = _model(
        [helper.make_node("ReduceMax", ["x", "axes"], ["y"], keepdims=1)],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2, 2]),
            helper.make_tensor_value_info("axes", TensorProto.INT64, [1]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 1, 2])],
        opset=18,
    )
    compiled = torch2mlir.compile_onnx(model)
    x = np.random.default_rng(0).standard_normal((3, 2, 2)).astype(np.float32)
    for axes in ([1], [-2]):
        got = compiled(x, np.array(axes, dtype=np.int64))[0]
        np.testing.assert_array_equal(got, x.max(axis=1, keepdims=True))
    with pytest.raises(torch2mlir.InputError, match="run-time axes of this Reduce"):
        compiled(x, np.array([0], dtype=np.int64))


def test_a_huge_declared_dim_is_an_input_error() -> None:
    """A dim of 2**40 is refused before shape inference or folding could
    allocate it (a fuzz case was killed for its memory)."""
    model = _model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2**40])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2**40])],
    )
    with pytest.raises(torch2mlir.InputError, match="declares a dim of 1099511627776"):
        torch2mlir.compile_onnx(model)


def _int64(name: str, shape) -> object:
    return helper.make_tensor_value_info(name, TensorProto.INT64, shape)


def _float(name: str, shape) -> object:
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


#: Models whose result sizes come from an int64 graph input while their
#: declared output sizes are static: (nodes, the int64 input's shape, the
#: float input's shape, the declared output, values the declaration
#: agrees with, values it contradicts). The fuzzer's random int64 inputs
#: made each of them return a result of the declared size computed from
#: other sizes (issue #19, item 4).
_SIZES_FROM_DATA = {
    "TopK": (
        [helper.make_node("TopK", ["x", "v"], ["y", "i"])],
        [1],
        [2, 5],
        [2, 3],
        [3],
        [2],
    ),
    "ConstantOfShape": (
        [helper.make_node("ConstantOfShape", ["v"], ["y"])],
        ["n"],
        None,
        [4, 3],
        [4, 3],
        [3, 4],
    ),
    "Reshape": (
        [helper.make_node("Reshape", ["x", "v"], ["y"])],
        [2],
        [2, 3, 4],
        [2, 12],
        [-1, 12],
        [4, 6],
    ),
    "Unsqueeze": (
        [helper.make_node("Unsqueeze", ["x", "v"], ["y"])],
        [1],
        [3, 4, 5],
        [3, 1, 4, 5],
        [-3],
        [2],
    ),
    "ReduceSum": (
        [helper.make_node("ReduceSum", ["x", "v"], ["y"], keepdims=1)],
        ["k"],
        [3, 2, 2],
        [3, 1, 2],
        [1],
        [0],
    ),
    "Slice": (
        [helper.make_node("Slice", ["x", "v", "ends"], ["y"])],
        [1],
        [10],
        [3],
        [7],
        [5],
    ),
    "Pad": (
        [helper.make_node("Pad", ["x", "v"], ["y"])],
        [4],
        [2, 2],
        [4, 5],
        [1, 2, 1, 1],
        [0, 0, 1, 1],
    ),
    "AffineGrid": (
        # size [N, C, H, W]: C is not read (7 agrees as well as 1).
        [helper.make_node("AffineGrid", ["x", "v"], ["y"])],
        [4],
        [2, 2, 3],
        [2, 4, 5, 2],
        [2, 7, 4, 5],
        [2, 1, 3, 5],
    ),
    "Resize": (
        [helper.make_node("Resize", ["x", "", "", "v"], ["y"], mode="nearest")],
        [4],
        [1, 1, 2, 2],
        [1, 1, 4, 4],
        [1, 1, 4, 4],
        [1, 1, 4, 3],
    ),
}


@pytest.mark.parametrize("op", sorted(_SIZES_FROM_DATA))
def test_sizes_from_data_are_checked_against_the_declaration(op: str) -> None:
    nodes, v_shape, x_shape, y_shape, agrees, contradicts = _SIZES_FROM_DATA[op]
    inputs = ([_float("x", x_shape)] if x_shape else []) + [_int64("v", v_shape)]
    outputs = [_float("y", y_shape)]
    if op == "TopK":
        outputs.append(_int64("i", y_shape))
    initializers = []
    if op == "Slice":
        initializers.append(helper.make_tensor("ends", TensorProto.INT64, [1], [10]))
    model = _model(nodes, inputs, outputs, initializers, opset=20)
    compiled = torch2mlir.compile_onnx(model)
    rng = np.random.default_rng(0)
    x = [rng.random(x_shape, dtype=np.float32)] if x_shape else []
    reference = ReferenceEvaluator(model)
    names = ["x", "v"] if x_shape else ["v"]
    good = [*x, np.array(agrees, dtype=np.int64)]
    for got, want in zip(compiled(*good), reference.run(None, dict(zip(names, good)))):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    bad = [*x, np.array(contradicts, dtype=np.int64)]
    # The reference computes another size than the declared one ...
    computed = reference.run(None, dict(zip(names, bad)))[0]
    assert list(np.shape(computed)) != y_shape
    # ... which the compiled program refuses to fake.
    with pytest.raises(torch2mlir.InputError, match="at run time"):
        compiled(*bad)


def test_a_gather_elements_index_larger_than_the_data_is_refused() -> None:
    # Indices [2, 5] along axis 0 of data [3, n]: the index reads data at its
    # own position along dim 1, so n >= 5 must hold (a fuzz case with n = 0
    # crashed with SIGSEGV). Static sizes fail to compile; a run-time n is
    # checked at call time.
    def model(n):
        return _model(
            [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=0)],
            [
                helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, n]),
                helper.make_tensor_value_info("i", TensorProto.INT64, [2, 5]),
            ],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])],
        )

    index = np.array([[0, 2, 1, 0, 2], [1, 1, 0, 2, 2]], dtype=np.int64)
    with pytest.raises(torch2mlir.CompileError, match="larger than the input"):
        torch2mlir.compile_onnx(model(4))
    compiled = torch2mlir.compile_onnx(model("n"))
    x = np.arange(18, dtype=np.float32).reshape(3, 6)
    # y[a, b] = x[index[a, b], b] (ONNX's reference wants equal sizes).
    want = np.take_along_axis(x[:, :5], index, axis=0)
    np.testing.assert_array_equal(compiled(x, index)[0], want)
    with pytest.raises(
        torch2mlir.InputError, match="larger than the input along dim 1"
    ):
        compiled(np.zeros((3, 4), dtype=np.float32), index)


def test_a_boolean_attribute_other_than_0_or_1_is_refused() -> None:
    # keepdims=-1: ONNX's reference keeps the dim, the declared [2, 4] drops
    # it; neither is the spec's (0 or 1), so the model is refused.
    model = _model(
        [helper.make_node("ArgMax", ["x"], ["y"], axis=1, keepdims=-1)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [2, 4])],
    )
    with pytest.raises(torch2mlir.CompileError, match="keepdims .*must be 0 or 1"):
        torch2mlir.compile_onnx(model)


def test_declared_sizes_that_the_data_decides_are_checked() -> None:
    # NonZero's count, EyeLike's and a no-op Reduce's run-time input sizes
    # against the declared result sizes the compiled code is built for.
    nonzero = _model(
        [helper.make_node("NonZero", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.BOOL, [2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [2, 3])],
    )
    compiled = torch2mlir.compile_onnx(nonzero)
    three = np.array([[True, False], [True, True]])
    np.testing.assert_array_equal(compiled(three)[0], np.array(np.nonzero(three)))
    with pytest.raises(torch2mlir.InputError, match="count of nonzero elements"):
        compiled(np.array([[True, False], [False, True]]))

    eyelike = _model(
        [helper.make_node("EyeLike", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.INT32, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, [4, 4])],
    )
    compiled = torch2mlir.compile_onnx(eyelike)
    np.testing.assert_array_equal(
        compiled(np.zeros((4, 4), np.int32))[0], np.eye(4, dtype=np.int32)
    )
    with pytest.raises(torch2mlir.InputError, match="EyeLike node's input"):
        compiled(np.zeros((2, 4), np.int32))

    noop = _model(
        [helper.make_node("ReduceSum", ["x", "axes"], ["y"], noop_with_empty_axes=1)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2])],
        [helper.make_tensor("axes", TensorProto.INT64, [0], [])],
        opset=18,
    )
    compiled = torch2mlir.compile_onnx(noop)
    x = np.ones((3, 2), np.float32)
    np.testing.assert_array_equal(compiled(x)[0], x)
    with pytest.raises(torch2mlir.InputError, match="Reduce node's input"):
        compiled(np.ones((2, 2), np.float32))


def test_a_declared_reduce_rank_that_contradicts_keepdims_is_refused() -> None:
    # Empty axes given as a graph input: ONNX's shape inference cannot see
    # them, so the lowering checks the declared rank (4) against keepdims'
    # (3).
    model = _model(
        [helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=1)],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2, 2]),
            helper.make_tensor_value_info("axes", TensorProto.INT64, [0]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 1, 1])],
        opset=18,
    )
    with pytest.raises(torch2mlir.CompileError, match="declared result sizes"):
        torch2mlir.compile_onnx(model)


def test_repeated_scatter_indices_without_a_reduction_are_an_input_error() -> None:
    # ScatterElements (reduction="none") forbids repeated indices; the
    # lowering combined them by summing, a value no ordering gives.
    model = _model(
        [helper.make_node("ScatterElements", ["x", "i", "u"], ["y"], axis=1)],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 5]),
            helper.make_tensor_value_info("i", TensorProto.INT64, [1, 2]),
            helper.make_tensor_value_info("u", TensorProto.FLOAT, [1, 2]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])],
    )
    compiled = torch2mlir.compile_onnx(model)
    x, u = np.zeros((1, 5), np.float32), np.array([[1.0, 2.0]], np.float32)
    unique = np.array([[3, 0]])
    want = ReferenceEvaluator(model).run(None, {"x": x, "i": unique, "u": u})[0]
    np.testing.assert_array_equal(compiled(x, unique, u)[0], want)
    with pytest.raises(torch2mlir.InputError, match="name a position twice"):
        compiled(x, np.array([[0, 0]]), u)
