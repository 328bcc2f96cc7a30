"""torch2mlir.onnx.fold: shape computations on static shapes become constants."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from torch2mlir.onnx.fold import fold_constants


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
