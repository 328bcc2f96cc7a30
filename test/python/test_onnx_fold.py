"""torch2mlir.onnx.fold: shape computations on static shapes become constants;
static shapes flow back from shape-preserving users."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from torch2mlir.onnx.fold import fold_constants, shapes_from_users


def _flatten_model(ir_version: int = 8) -> onnx.ModelProto:
    """x[2,3,4] -> Reshape(x, Concat(Gather(Shape(x), 0), [-1]))."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus_one"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["y"]),
    ]
    inits = [
        numpy_helper.from_array(np.array(0, dtype=np.int64), "zero"),
        numpy_helper.from_array(np.array([0], dtype=np.int64), "axes"),
        numpy_helper.from_array(np.array([-1], dtype=np.int64), "minus_one"),
    ]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])]
    if ir_version < 4:  # initializers listed as inputs, as old exporters did
        inputs += [
            helper.make_tensor_value_info(t.name, t.data_type, list(t.dims))
            for t in inits
        ]
    graph = helper.make_graph(
        nodes,
        "flatten",
        inputs,
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = ir_version
    return onnx.shape_inference.infer_shapes(model)


def test_shape_chain_folds_to_a_constant_and_the_result_gets_static() -> None:
    model = fold_constants(_flatten_model())
    assert [n.op_type for n in model.graph.node] == ["Reshape"]
    shape = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    np.testing.assert_array_equal(shape["shape"], [2, -1])
    (y,) = model.graph.output
    assert [d.dim_value for d in y.type.tensor_type.shape.dim] == [2, 12]


def test_dropped_initializers_are_not_left_as_graph_inputs() -> None:
    model = fold_constants(_flatten_model(ir_version=3))
    assert [i.name for i in model.graph.input] == ["x"]


def test_dynamic_shapes_do_not_fold() -> None:
    model = _flatten_model()
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "batch"
    model = fold_constants(onnx.shape_inference.infer_shapes(model))
    assert "Shape" in [n.op_type for n in model.graph.node]


def _reduce_then_cast_model(out_shape: list[int | str]) -> onnx.ModelProto:
    """ReduceSum over run-time axes, then Cast and Sqrt to the output."""
    nodes = [
        helper.make_node("ReduceSum", ["x", "axes"], ["r"], keepdims=1),
        helper.make_node("Cast", ["r"], ["c"], to=TensorProto.DOUBLE),
        helper.make_node("Sqrt", ["c"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "reduce",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 2, 2]),
            helper.make_tensor_value_info("axes", TensorProto.INT64, [1]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, out_shape)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return onnx.shape_inference.infer_shapes(model)


def _shapes(model: onnx.ModelProto) -> dict[str, tuple[int, list[int]]]:
    return {
        v.name: (
            v.type.tensor_type.elem_type,
            [d.dim_value for d in v.type.tensor_type.shape.dim],
        )
        for v in model.graph.value_info
        if v.type.tensor_type.HasField("shape")
    }


def test_static_shapes_flow_back_through_casts_and_unary_ops() -> None:
    model = _reduce_then_cast_model([3, 1, 2])
    assert "r" not in _shapes(model)  # inference cannot know the axes
    shapes = _shapes(shapes_from_users(model))
    # The element types stay the values' own; the sizes are the output's.
    assert shapes["r"] == (TensorProto.FLOAT, [3, 1, 2])
    assert shapes["c"] == (TensorProto.DOUBLE, [3, 1, 2])


def test_dynamic_user_shapes_do_not_flow_back() -> None:
    model = shapes_from_users(_reduce_then_cast_model(["n", 1, 2]))
    assert "r" not in _shapes(model)


def test_folding_never_evaluates_a_huge_output() -> None:
    """ConstantOfShape of a constant shape of 2**40 elements: not evaluated
    (it used to allocate 4 TiB; the process was killed)."""
    graph = helper.make_graph(
        [
            helper.make_node("ConstantOfShape", ["s"], ["c"]),
            helper.make_node("Add", ["x", "c"], ["y"]),
        ],
        "huge",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(np.array([2**40], dtype=np.int64), "s")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    folded = fold_constants(model)
    assert [n.op_type for n in folded.graph.node] == ["ConstantOfShape", "Add"]
