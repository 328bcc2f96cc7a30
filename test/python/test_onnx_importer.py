"""The ONNX importer (torch2mlir.onnx) and the torch2mlir-import-onnx tool.

Models are built with ``onnx.helper`` here; the last test imports the ONNX
node conformance models (``onnx.backend.test.case``) and round-trips them all
through ``torch2mlir-opt``.
"""

from __future__ import annotations

import collections
import io
import os
import re
import subprocess
import sys
import time
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper

try:
    import torch2mlir
except ImportError as error:  # fail loudly: a test that cannot run is a defect
    raise ImportError(
        f"{error}; build first: nox -s build (PYTHONPATH=build/python_packages)"
    ) from error
from torch2mlir import InputError, ir
from torch2mlir.onnx import OnnxImporter, import_onnx, load_model, prepare_model
from torch2mlir.tools import import_onnx as cli

REPO = Path(__file__).resolve().parents[2]
OPT = (
    Path(os.environ.get("TORCH2MLIR_BUILD_DIR", REPO / "build"))
    / "bin"
    / "torch2mlir-opt"
)
# The built package (its .py files are symlinks into the sources: no resolve()).
PYTHONPATH = os.pathsep.join(
    [str(Path(torch2mlir.__file__).parents[1]), os.environ.get("PYTHONPATH", "")]
)


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto] = (),
    *,
    opset: int = 17,
    name: str = "g",
    domains: dict[str, int] | None = None,
    **kwargs: object,
) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    opsets = [helper.make_opsetid("", opset)]
    opsets += [helper.make_opsetid(d, v) for d, v in (domains or {}).items()]
    return helper.make_model(graph, opset_imports=opsets, **kwargs)


def _tensor(
    name: str, dtype: int, shape: list[int | str] | None
) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, dtype, shape)


def _add_relu() -> onnx.ModelProto:
    x = _tensor("X", TensorProto.FLOAT, ["N", 3])
    y = _tensor("Y", TensorProto.FLOAT, ["N", 3])
    w = numpy_helper.from_array(np.arange(3, dtype=np.float32), "W")
    return _model(
        [
            helper.make_node("Add", ["X", "W"], ["S"], name="add0"),
            helper.make_node("Relu", ["S"], ["Y"]),
        ],
        [x],
        [y],
        [w],
        producer_name="unit-test",
        producer_version="1.2",
    )


def _ops(block: ir.Block) -> list[ir.OpView]:
    return list(block.operations)


def _func(module: ir.Module) -> ir.OpView:
    return module.body.operations[0]


def _round_trip(path: Path) -> str:
    """torch2mlir-opt twice: the printed IR must be a fixed point."""
    once = subprocess.run(
        [str(OPT), str(path)], capture_output=True, text=True, check=True
    ).stdout
    again = path.with_suffix(".once.mlir")
    again.write_text(once)
    twice = subprocess.run(
        [str(OPT), str(again)], capture_output=True, text=True, check=True
    ).stdout
    assert once == twice
    return once


# --------------------------------------------------------------------------
# The IR convention


def test_add_relu_ir() -> None:
    text = str(import_onnx(_add_relu()))
    assert (
        "func.func @g(%arg0: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> "
        "attributes {torch.onnx_meta.ir_version = "
        f"{onnx.IR_VERSION} : si64, torch.onnx_meta.opset_version = 17 : si64, "
        'torch.onnx_meta.producer_name = "unit-test", '
        'torch.onnx_meta.producer_version = "1.2"}' in text
    )
    assert "opset_versions" not in text  # no other domain
    assert (
        "%0 = torch.vtensor.literal(dense<[0.000000e+00, 1.000000e+00, 2.000000e+00]>"
        " : tensor<3xf32>) : !torch.vtensor<[3],f32>" in text
    )
    assert (
        '%1 = torch.operator "onnx.Add"(%arg0, %0) : (!torch.vtensor<[?,3],f32>, '
        "!torch.vtensor<[3],f32>) -> !torch.vtensor<[?,3],f32>" in text
    )
    assert (
        '%2 = torch.operator "onnx.Relu"(%1) : (!torch.vtensor<[?,3],f32>) -> '
        "!torch.vtensor<[?,3],f32>" in text
    )
    assert "return %2 : !torch.vtensor<[?,3],f32>" in text


def test_locations_are_node_names() -> None:
    module = import_onnx(_add_relu())
    stream = io.StringIO()
    module.operation.print(file=stream, enable_debug_info=True)
    text = stream.getvalue()
    assert 'loc("add0")' in text
    assert 'loc("Relu_1")' in text  # unnamed: <OpType>_<index in its graph>


def test_model_is_not_modified_and_unnamed_graph_is_main() -> None:
    model = _add_relu()
    before = model.SerializeToString()
    import_onnx(model)
    assert model.SerializeToString() == before
    # The checker wants a graph name; the importer alone takes any graph.
    prepared = prepare_model(model)
    prepared.graph.name = ""
    assert "func.func @main(" in str(OnnxImporter(prepared).import_model())


@pytest.mark.parametrize(
    ("array", "expected"),
    [
        (np.array([[1, -2], [3, 2**40]], dtype=np.int64), "tensor<2x2xi64>"),
        (np.array([1.5, -0.25, 3e38], dtype=np.float32), "tensor<3xf32>"),
        (np.array([True, False, True, True, False], dtype=np.bool_), "tensor<5xi1>"),
        (np.array([0.5, -2.0, 65504.0], dtype=np.float16), "tensor<3xf16>"),
        (np.array([1, 255], dtype=np.uint8), "tensor<2xi8>"),
        (np.array(7, dtype=np.int32), "tensor<i32>"),
        (np.zeros((0, 3), dtype=np.float64), "tensor<0x3xf64>"),
    ],
)
def test_initializer_round_trip(array: np.ndarray, expected: str) -> None:
    tensor = numpy_helper.from_array(array, "C")
    dtype = tensor.data_type
    model = _model(
        [helper.make_node("Identity", ["C"], ["Y"])],
        [],
        [_tensor("Y", dtype, list(array.shape))],
        [tensor],
    )
    module = import_onnx(model)
    literal = _ops(_func(module).regions[0].blocks[0])[0]
    assert literal.operation.name == "torch.vtensor.literal"
    attr = ir.DenseElementsAttr(literal.attributes["value"])
    assert str(attr.type) == expected
    if array.dtype == np.uint8:  # stored signless: compare the bits
        np.testing.assert_array_equal(np.array(attr).view(np.uint8), array)
    else:
        np.testing.assert_array_equal(np.array(attr), array)


def test_bf16_and_complex_initializers() -> None:
    bf16 = helper.make_tensor("B", TensorProto.BFLOAT16, [2], [1.0, -2.5])
    c64 = numpy_helper.from_array(np.array([1 + 2j, 3 - 1j], dtype=np.complex64), "C")
    model = _model(
        [
            helper.make_node("Identity", ["B"], ["Y"]),
            helper.make_node("Identity", ["C"], ["Z"]),
        ],
        [],
        [
            _tensor("Y", TensorProto.BFLOAT16, [2]),
            _tensor("Z", TensorProto.COMPLEX64, [2]),
        ],
        [bf16, c64],
    )
    text = str(import_onnx(model))
    assert (
        "torch.vtensor.literal(dense<[1.000000e+00, -2.500000e+00]> : tensor<2xbf16>) "
        ": !torch.vtensor<[2],bf16>" in text
    )
    assert (
        "torch.vtensor.literal(dense<[(1.000000e+00,2.000000e+00), "
        "(3.000000e+00,-1.000000e+00)]> : tensor<2xcomplex<f32>>) : "
        "!torch.vtensor<[2],complex<f32>>" in text
    )


def test_unused_initializers_are_not_imported_and_input_initializers_are_not_arguments() -> (
    None
):
    x = _tensor("X", TensorProto.FLOAT, [3])
    w = numpy_helper.from_array(np.ones(3, dtype=np.float32), "W")
    unused = numpy_helper.from_array(np.ones(5, dtype=np.float32), "U")
    model = _model(
        [helper.make_node("Add", ["X", "W"], ["Y"])],
        [x, _tensor("W", TensorProto.FLOAT, [3])],  # W: an input with a default
        [_tensor("Y", TensorProto.FLOAT, [3])],
        [w, unused],
    )
    text = str(import_onnx(model))
    assert "func.func @g(%arg0: !torch.vtensor<[3],f32>) ->" in text
    assert text.count("torch.vtensor.literal") == 1


def test_attributes_of_every_kind() -> None:
    node = helper.make_node(
        "Everything",
        ["X"],
        ["Y"],
        domain="com.example",
        i=-3,
        f=0.5,
        s="nearest",
        ints=[1, -2, 3],
        floats=[2.0, 0.25],
        strings=["a", "bc"],
        t=numpy_helper.from_array(np.array([1, 2], dtype=np.int64)),
        t0=numpy_helper.from_array(np.array(4.0, dtype=np.float32)),
        tb=numpy_helper.from_array(np.array([True, False])),
    )
    node.attribute.append(
        helper.make_attribute("empty_ints", [], attr_type=onnx.AttributeProto.INTS)
    )
    model = _model(
        [node],
        [_tensor("X", TensorProto.FLOAT, [2])],
        [_tensor("Y", TensorProto.FLOAT, [2])],
        domains={"com.example": 3},
    )
    text = str(import_onnx(model))
    assert "torch.onnx_meta.opset_versions = {com.example = 3 : si64}" in text
    assert (
        '%0 = torch.operator "com.example.Everything"(%arg0) {'
        "torch.onnx.empty_ints = [], "
        "torch.onnx.f = 5.000000e-01 : f32, "
        "torch.onnx.floats = [2.000000e+00 : f32, 2.500000e-01 : f32], "
        "torch.onnx.i = -3 : si64, "
        "torch.onnx.ints = [1 : si64, -2 : si64, 3 : si64], "
        'torch.onnx.s = "nearest", '
        'torch.onnx.strings = ["a", "bc"], '
        "torch.onnx.t = dense<[1, 2]> : tensor<2xi64>, "
        "torch.onnx.t0 = dense<4.000000e+00> : tensor<f32>, "
        "torch.onnx.tb = dense<[true, false]> : tensor<2xi1>} : "
        "(!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>" in text
    )


@pytest.mark.parametrize(
    ("attribute", "kind"),
    [
        (
            helper.make_attribute(
                "sp",
                helper.make_sparse_tensor(
                    helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0]),
                    helper.make_tensor("i", TensorProto.INT64, [1], [0]),
                    [3],
                ),
            ),
            "SPARSE_TENSOR",
        ),
        (
            helper.make_attribute(
                "ty", helper.make_tensor_type_proto(TensorProto.FLOAT, [1])
            ),
            "TYPE_PROTO",
        ),
        (
            helper.make_attribute(
                "ts", [helper.make_tensor("a", TensorProto.FLOAT, [1], [1.0])]
            ),
            "TENSORS",
        ),
        (
            helper.make_attribute(
                "gs",
                [
                    helper.make_graph(
                        [helper.make_node("Identity", ["X"], ["Z"])],
                        "sub",
                        [],
                        [_tensor("Z", TensorProto.FLOAT, [2])],
                    )
                ],
            ),
            "GRAPHS",
        ),
    ],
)
def test_unsupported_attribute_kinds(attribute: onnx.AttributeProto, kind: str) -> None:
    node = helper.make_node("Odd", ["X"], ["Y"], domain="com.example", name="odd1")
    node.attribute.append(attribute)
    model = _model(
        [node],
        [_tensor("X", TensorProto.FLOAT, [2])],
        [_tensor("Y", TensorProto.FLOAT, [2])],
        domains={"com.example": 1},
    )
    with pytest.raises(InputError) as info:
        import_onnx(model)
    message = str(info.value)
    for part in ("'odd1'", "Odd", repr(attribute.name), kind, "not supported"):
        assert part in message


def _branch(name: str, value: float) -> onnx.GraphProto:
    return helper.make_graph(
        [
            helper.make_node(
                "Constant",
                [],
                [f"{name}_c"],
                value=numpy_helper.from_array(np.full(2, value, dtype=np.float32)),
            ),
            helper.make_node("Add", ["X", f"{name}_c"], [f"{name}_out"]),
        ],
        name,
        [],
        [_tensor(f"{name}_out", TensorProto.FLOAT, [2])],
    )


def test_if_regions_in_attribute_name_order() -> None:
    node = helper.make_node(
        "If",
        ["C"],
        ["Y"],
        then_branch=_branch("then", 1.0),
        else_branch=_branch("else", -1.0),
    )
    model = _model(
        [node],
        [_tensor("C", TensorProto.BOOL, []), _tensor("X", TensorProto.FLOAT, [2])],
        [_tensor("Y", TensorProto.FLOAT, [2])],
    )
    module = import_onnx(model)
    text = str(module)
    op = _ops(_func(module).regions[0].blocks[0])[0]
    assert op.attributes["name"].value == "onnx.If"
    assert len(op.regions) == 2
    # region 0 = else_branch, region 1 = then_branch (sorted attribute names)
    assert "dense<-1.000000e+00>" in str(op.regions[0].blocks[0].operations[0])
    assert "dense<1.000000e+00>" in str(op.regions[1].blocks[0].operations[0])
    assert (
        '%0 = torch.operator "onnx.If"(%arg0) : (!torch.vtensor<[],i1>) -> '
        "!torch.vtensor<[2],f32> {" in text
    )
    # the branches use the outer %arg1 (X) directly
    assert (
        'torch.operator "onnx.Add"(%arg1, %1) : (!torch.vtensor<[2],f32>, '
        "!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>" in text
    )
    assert text.count("torch.operator_terminator %2 : !torch.vtensor<[2],f32>") == 2
    assert "}, {" in text


def test_loop_body_block_arguments() -> None:
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Add", ["acc_in", "X"], ["acc_out"]),
            helper.make_node("Identity", ["acc_out"], ["scan_out"]),
        ],
        "body",
        [
            _tensor("iter", TensorProto.INT64, []),
            _tensor("cond_in", TensorProto.BOOL, []),
            _tensor("acc_in", TensorProto.FLOAT, [2]),
        ],
        [
            _tensor("cond_out", TensorProto.BOOL, []),
            _tensor("acc_out", TensorProto.FLOAT, [2]),
            _tensor("scan_out", TensorProto.FLOAT, [2]),
        ],
    )
    node = helper.make_node("Loop", ["N", "", "A0"], ["A", "S"], body=body, name="loop")
    model = _model(
        [node],
        [
            _tensor("N", TensorProto.INT64, []),
            _tensor("A0", TensorProto.FLOAT, [2]),
            _tensor("X", TensorProto.FLOAT, [2]),
        ],
        [
            _tensor("A", TensorProto.FLOAT, [2]),
            _tensor("S", TensorProto.FLOAT, [None, 2]),
        ],
    )
    text = str(import_onnx(model))
    assert "%none = torch.constant.none" in text
    assert (
        '%0:2 = torch.operator "onnx.Loop"(%arg0, %none, %arg1) : '
        "(!torch.vtensor<[],si64>, !torch.none, !torch.vtensor<[2],f32>) -> "
        "(!torch.vtensor<[2],f32>, !torch.vtensor<[?,2],f32>) {" in text
    )
    assert (
        "^bb0(%arg3: !torch.vtensor<[],si64>, %arg4: !torch.vtensor<[],i1>, "
        "%arg5: !torch.vtensor<[2],f32>):" in text
    )
    assert (
        "torch.operator_terminator %1, %2, %3 : !torch.vtensor<[],i1>, "
        "!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>" in text
    )


def test_missing_optional_inputs() -> None:
    lo = numpy_helper.from_array(np.array(0.0, dtype=np.float32), "lo")
    hi = numpy_helper.from_array(np.array(6.0, dtype=np.float32), "hi")
    model = _model(
        [
            helper.make_node("Clip", ["X", "", "hi"], ["A"]),  # min missing
            helper.make_node("Clip", ["A", "lo", ""], ["Y"]),  # trailing max missing
        ],
        [_tensor("X", TensorProto.FLOAT, [4])],
        [_tensor("Y", TensorProto.FLOAT, [4])],
        [lo, hi],
    )
    text = str(import_onnx(model))
    assert text.count("torch.constant.none") == 1
    assert (
        'torch.operator "onnx.Clip"(%arg0, %none, %1) : (!torch.vtensor<[4],f32>, '
        "!torch.none, !torch.vtensor<[],f32>) -> !torch.vtensor<[4],f32>" in text
    )
    assert (
        'torch.operator "onnx.Clip"(%2, %0) : (!torch.vtensor<[4],f32>, '
        "!torch.vtensor<[],f32>) -> !torch.vtensor<[4],f32>" in text
    )


def test_missing_optional_outputs_keep_their_place() -> None:
    model = _model(
        [helper.make_node("Dropout", ["X"], ["Y", ""])],
        [_tensor("X", TensorProto.FLOAT, [4])],
        [_tensor("Y", TensorProto.FLOAT, [4])],
    )
    text = str(import_onnx(model))
    assert (
        '%0:2 = torch.operator "onnx.Dropout"(%arg0) : (!torch.vtensor<[4],f32>) -> '
        "(!torch.vtensor<[4],f32>, !torch.vtensor)" in text
    )


def test_symbolic_and_unknown_types() -> None:
    model = _model(
        [
            helper.make_node("Shape", ["X"], ["S"]),
            helper.make_node("Unknown", ["X"], ["U"], domain="com.example"),
            helper.make_node("Unknown", ["U"], ["V"], domain="com.example"),
            helper.make_node("Concat", ["X", "V"], ["Y"], axis=0),
        ],
        [_tensor("X", TensorProto.FLOAT, ["batch", 3, None])],
        [
            _tensor("Y", TensorProto.FLOAT, [None, 3, None]),
            _tensor("S", TensorProto.INT64, [3]),
        ],
        domains={"com.example": 1},
    )
    # U: a dtype but no shape; V: nothing known
    model.graph.value_info.append(_tensor("U", TensorProto.FLOAT, None))
    text = str(import_onnx(model))
    assert "func.func @g(%arg0: !torch.vtensor<[?,3,?],f32>)" in text
    assert (
        '"onnx.Shape"(%arg0) : (!torch.vtensor<[?,3,?],f32>) -> '
        "!torch.vtensor<[3],si64>" in text
    )
    assert (
        '%1 = torch.operator "com.example.Unknown"(%arg0) : '
        "(!torch.vtensor<[?,3,?],f32>) -> !torch.vtensor<*,f32>" in text
    )
    assert (
        '%2 = torch.operator "com.example.Unknown"(%1) : (!torch.vtensor<*,f32>) -> '
        "!torch.vtensor\n" in text.replace(" \n", "\n")
    )


def test_sequence_and_optional_types() -> None:
    seq = helper.make_tensor_sequence_value_info("S", TensorProto.FLOAT, [2])
    opt = helper.make_value_info(
        "O",
        helper.make_optional_type_proto(
            helper.make_tensor_type_proto(TensorProto.INT64, [3])
        ),
    )
    model = _model(
        [
            helper.make_node("SequenceConstruct", ["X", "X"], ["S"]),
            helper.make_node("Optional", ["I"], ["O"]),
        ],
        [_tensor("X", TensorProto.FLOAT, [2]), _tensor("I", TensorProto.INT64, [3])],
        [seq, opt],
        opset=18,
    )
    text = str(import_onnx(model))
    assert (
        "-> (!torch.list<vtensor<[2],f32>>, !torch.optional<vtensor<[3],si64>>)" in text
    )


def test_shape_inference_types_intermediate_values() -> None:
    model = _model(
        [
            helper.make_node("Transpose", ["X"], ["T"], perm=[1, 0]),
            helper.make_node("MatMul", ["T", "X"], ["Y"]),
        ],
        [_tensor("X", TensorProto.FLOAT, [2, 5])],
        [_tensor("Y", TensorProto.FLOAT, [5, 5])],
    )
    text = str(import_onnx(model))
    assert "-> !torch.vtensor<[5,2],f32>" in text


def test_model_local_function_is_inlined() -> None:
    scale = helper.make_function(
        "local",
        "Scale",
        ["a"],
        ["b"],
        [
            helper.make_node("Constant", [], ["k"], value_float=3.0),
            helper.make_node("Mul", ["a", "k"], ["b"]),
        ],
        [helper.make_opsetid("", 17)],
    )
    leaky = helper.make_node("LeakyRelu", ["s"], ["t"], alpha=0.0)
    leaky.attribute[0].ref_attr_name = "slope"
    add_scaled = helper.make_function(
        "local",
        "AddScaled",
        ["x", "y"],
        ["z"],
        [
            helper.make_node("Scale", ["x"], ["s"], domain="local"),
            leaky,
            helper.make_node("Add", ["t", "y"], ["z"]),
        ],
        [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)],
    )
    add_scaled.attribute_proto.append(helper.make_attribute("slope", 0.25))
    x = _tensor("X", TensorProto.FLOAT, [2, 3])

    def build(**attrs: float) -> onnx.ModelProto:
        return _model(
            [
                helper.make_node(
                    "AddScaled", ["X", "X"], ["M"], domain="local", name="call", **attrs
                ),
                helper.make_node("Neg", ["M"], ["Y"]),
            ],
            [x],
            [_tensor("Y", TensorProto.FLOAT, [2, 3])],
            domains={"local": 1},
            functions=[add_scaled, scale],
        )

    # fold=False: the graph as inlined (folding would fold the Constant).
    text = str(import_onnx(build(), fold=False))
    assert "local." not in text  # no call remains
    assert (
        'torch.operator "onnx.Constant"() {torch.onnx.value_float = 3.000000e+00 : f32}'
        in text
    )
    assert '"onnx.Mul"(%arg0, %0)' in text
    assert "torch.onnx.alpha = 2.500000e-01 : f32" in text  # the default
    assert '"onnx.Add"(%2, %arg0)' in text
    assert (
        '"onnx.Neg"(%3) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32>'
        in text
    )
    text = str(import_onnx(build(slope=0.5), fold=False))
    assert "torch.onnx.alpha = 5.000000e-01 : f32" in text  # the call's value


def test_function_body_may_import_its_own_domains() -> None:
    function = helper.make_function(
        "local",
        "F",
        ["x"],
        ["y"],
        [helper.make_node("Gelu", ["x"], ["y"], domain="com.microsoft")],
        [helper.make_opsetid("com.microsoft", 1)],
    )
    model = _model(
        [helper.make_node("F", ["X"], ["Y"], domain="local")],
        [_tensor("X", TensorProto.FLOAT, [2])],
        [_tensor("Y", TensorProto.FLOAT, [2])],
        domains={"local": 1},
        functions=[function],
    )
    text = str(import_onnx(model))
    assert '"com.microsoft.Gelu"(%arg0)' in text
    assert "com.microsoft = 1 : si64" in text


def test_sparse_initializer_becomes_a_dense_literal() -> None:
    sparse = helper.make_sparse_tensor(
        numpy_helper.from_array(np.array([5.0, 7.0], dtype=np.float32), "S"),
        numpy_helper.from_array(np.array([1, 4], dtype=np.int64)),
        [2, 3],
    )
    graph = helper.make_graph(
        [helper.make_node("Identity", ["S"], ["Y"])],
        "g",
        [],
        [_tensor("Y", TensorProto.FLOAT, [2, 3])],
        sparse_initializer=[sparse],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    module = import_onnx(model)
    literal = _ops(_func(module).regions[0].blocks[0])[0]
    np.testing.assert_array_equal(
        np.array(ir.DenseElementsAttr(literal.attributes["value"])),
        [[0, 5, 0], [0, 7, 0]],
    )


def test_custom_domain_is_kept() -> None:
    model = _model(
        [helper.make_node("FusedGelu", ["X"], ["Y"], domain="com.microsoft")],
        [_tensor("X", TensorProto.FLOAT, [4])],
        [_tensor("Y", TensorProto.FLOAT, [4])],
        domains={"com.microsoft": 1},
    )
    text = str(import_onnx(model))
    assert '"com.microsoft.FusedGelu"(%arg0)' in text
    assert "torch.onnx_meta.opset_versions = {com.microsoft = 1 : si64}" in text


def test_expand_functions() -> None:
    model = _model(
        [
            helper.make_node("HardSwish", ["X"], ["H"]),
            helper.make_node("LayerNormalization", ["H", "W"], ["Y"]),
        ],
        [_tensor("X", TensorProto.FLOAT, [2, 3])],
        [_tensor("Y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.ones(3, dtype=np.float32), "W")],
    )
    kept = str(import_onnx(model))
    assert '"onnx.HardSwish"' in kept and '"onnx.LayerNormalization"' in kept
    expanded = str(import_onnx(model, expand_functions=True))
    assert '"onnx.HardSwish"' not in expanded
    assert '"onnx.LayerNormalization"' not in expanded  # context-dependent body
    assert '"onnx.HardSigmoid"(%arg0)' in expanded
    assert "-> !torch.vtensor<[2,1],f32>" in expanded  # typed by shape inference


def test_calls_inside_subgraphs_are_expanded() -> None:
    double = helper.make_function(
        "local",
        "Double",
        ["x"],
        ["y"],
        [helper.make_node("Add", ["x", "x"], ["y"])],
        [helper.make_opsetid("", 17)],
    )

    def branch(name: str) -> onnx.GraphProto:
        return helper.make_graph(
            [
                helper.make_node("Double", ["X"], [f"{name}_d"], domain="local"),
                helper.make_node("HardSwish", [f"{name}_d"], [f"{name}_out"]),
            ],
            name,
            [],
            [_tensor(f"{name}_out", TensorProto.FLOAT, [2])],
        )

    model = _model(
        [
            helper.make_node(
                "If", ["C"], ["Y"], then_branch=branch("t"), else_branch=branch("e")
            )
        ],
        [_tensor("C", TensorProto.BOOL, []), _tensor("X", TensorProto.FLOAT, [2])],
        [_tensor("Y", TensorProto.FLOAT, [2])],
        domains={"local": 1},
        functions=[double],
    )
    text = str(import_onnx(model, expand_functions=True))
    assert text.count('"onnx.Add"(%arg1, %arg1)') == 2
    assert text.count('"onnx.HardSigmoid"(%1)') == 2
    assert "local.Double" not in text and "onnx.HardSwish" not in text


def test_opset_conversion() -> None:
    model = _model(
        [helper.make_node("Unsqueeze", ["X"], ["Y"], axes=[0])],
        [_tensor("X", TensorProto.FLOAT, [3])],
        [_tensor("Y", TensorProto.FLOAT, [1, 3])],
        opset=11,
    )
    text = str(import_onnx(model))
    assert "torch.onnx_meta.opset_version = 11 : si64" in text
    assert "torch.onnx.axes = [0 : si64]" in text
    text = str(import_onnx(model, opset_version=17))
    assert "torch.onnx_meta.opset_version = 17 : si64" in text
    assert "torch.onnx.axes" not in text  # opset 13 made axes an input
    assert re.search(r'"onnx.Unsqueeze"\(%arg0, %\w+\)', text)


def test_opset_conversion_failure_is_an_input_error() -> None:
    with pytest.raises(InputError, match="cannot convert to opset 1"):
        import_onnx(_add_relu(), opset_version=1)


def test_external_data(tmp_path: Path) -> None:
    weights = np.arange(12, dtype=np.float32).reshape(3, 4)
    model = _model(
        [helper.make_node("MatMul", ["X", "W"], ["Y"])],
        [_tensor("X", TensorProto.FLOAT, [2, 3])],
        [_tensor("Y", TensorProto.FLOAT, [2, 4])],
        [numpy_helper.from_array(weights, "W")],
    )
    path = tmp_path / "model.onnx"
    onnx.save_model(
        model,
        str(path),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="weights.bin",
        size_threshold=0,
    )
    assert (tmp_path / "weights.bin").exists()
    module = import_onnx(path)
    literal = _ops(_func(module).regions[0].blocks[0])[0]
    np.testing.assert_array_equal(
        np.array(ir.DenseElementsAttr(literal.attributes["value"])), weights
    )
    loaded = load_model(path)
    np.testing.assert_array_equal(
        numpy_helper.to_array(loaded.graph.initializer[0]), weights
    )
    # data_dir: the model moved away from its data
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (tmp_path / "model.onnx").rename(moved / "model.onnx")
    import_onnx(moved / "model.onnx", data_dir=tmp_path)
    (tmp_path / "weights.bin").unlink()
    with pytest.raises(InputError) as info:
        import_onnx(moved / "model.onnx", data_dir=tmp_path)
    assert "'W'" in str(info.value)
    assert str(tmp_path / "weights.bin") in str(info.value)


def test_truncated_file(tmp_path: Path) -> None:
    data = _add_relu().SerializeToString()
    path = tmp_path / "cut.onnx"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=f"not an ONNX model: {re.escape(str(path))}"):
        import_onnx(path)
    path.write_bytes(b"")
    with pytest.raises(InputError, match="not an ONNX model"):
        import_onnx(path)
    with pytest.raises(InputError, match="cannot read"):
        import_onnx(tmp_path / "absent.onnx")


def test_dangling_value() -> None:
    model = _model(
        [helper.make_node("Add", ["X", "Nowhere"], ["Y"], name="add7")],
        [_tensor("X", TensorProto.FLOAT, [2])],
        [_tensor("Y", TensorProto.FLOAT, [2])],
    )
    # the checker finds it first ...
    with pytest.raises(InputError, match="Nowhere.*add7|add7.*Nowhere"):
        import_onnx(model)
    # ... and the importer itself names the node and the value
    with pytest.raises(
        InputError, match=r"node 'add7' \(Add\): input 'Nowhere' is not produced"
    ):
        OnnxImporter(model).import_model()


def test_unknown_domain() -> None:
    model = _model(
        [helper.make_node("Foo", ["X"], ["Y"], domain="com.nobody", name="foo")],
        [_tensor("X", TensorProto.FLOAT, [2])],
        [_tensor("Y", TensorProto.FLOAT, [2])],
    )
    with pytest.raises(InputError, match="'foo' \\(Foo\\) is in domain 'com.nobody'"):
        import_onnx(model)


@pytest.mark.parametrize("dtype", [TensorProto.STRING, TensorProto.FLOAT4E2M1])
def test_unsupported_element_types(dtype: int) -> None:
    """The importer has no torch dtype for these (compile_onnx runs string
    nodes on the host, around the import)."""
    model = _model(
        [helper.make_node("Identity", ["X"], ["Y"])],
        [_tensor("X", dtype, [2])],
        [_tensor("Y", dtype, [2])],
        opset=21,
    )
    name = TensorProto.DataType.Name(dtype)
    with pytest.raises(InputError, match=f"graph input 'X': element type {name}"):
        import_onnx(model)


def test_checker_failure_is_an_input_error() -> None:
    model = _add_relu()
    model.graph.node[0].op_type = "NoSuchOp"
    with pytest.raises(InputError, match="invalid ONNX model: .*NoSuchOp"):
        import_onnx(model)


# --------------------------------------------------------------------------
# The CLI


def _run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = cli.main(list(argv))
        except SystemExit as exit_:  # argparse
            status = exit_.code
    return status, out.getvalue(), err.getvalue()


def test_cli_writes_a_file_that_round_trips(tmp_path: Path) -> None:
    model_path = tmp_path / "m.onnx"
    onnx.save_model(_add_relu(), str(model_path))
    out = tmp_path / "m.mlir"
    status, stdout, stderr = _run_cli(str(model_path), "-o", str(out), "--keep-temps")
    assert (status, stdout, stderr) == (0, "", "")
    assert (tmp_path / "m.mlir.inferred.onnx").exists()
    once = _round_trip(out)
    assert 'torch.operator "onnx.Add"' in once
    # stdout, with locations
    status, stdout, _ = _run_cli(str(model_path), "--debug-info")
    assert status == 0 and 'loc("add0")' in stdout


def test_cli_help_and_usage() -> None:
    status, stdout, _ = _run_cli("--help")
    assert status == 0 and "torch2mlir-import-onnx" in stdout
    status, _, stderr = _run_cli()
    assert status == 2 and "usage:" in stderr


def test_cli_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07\x12\xff\xff")
    status, stdout, stderr = _run_cli(str(bad), "-o", str(tmp_path / "bad.mlir"))
    assert status == 1 and stdout == ""
    assert stderr.startswith(f"torch2mlir-import-onnx: error: not an ONNX model: {bad}")
    assert stderr.count("\n") == 1
    assert not (tmp_path / "bad.mlir").exists()


def test_cli_as_module(tmp_path: Path) -> None:
    model_path = tmp_path / "m.onnx"
    onnx.save_model(_add_relu(), str(model_path))
    result = subprocess.run(
        [sys.executable, "-m", "torch2mlir.tools.import_onnx", str(model_path)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": PYTHONPATH},
    )
    assert result.returncode == 0, result.stderr
    assert "func.func @g(" in result.stdout
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "torch2mlir.tools.import_onnx",
            str(tmp_path / "no.onnx"),
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": PYTHONPATH},
    )
    assert result.returncode == 1
    assert result.stderr.startswith("torch2mlir-import-onnx: error: cannot read")


# --------------------------------------------------------------------------
# The ONNX node conformance models

#: Element types with no torch dtype: models that use them are out of scope.
_EXOTIC = {
    TensorProto.STRING,
    TensorProto.FLOAT8E4M3FN,
    TensorProto.FLOAT8E4M3FNUZ,
    TensorProto.FLOAT8E5M2,
    TensorProto.FLOAT8E5M2FNUZ,
    TensorProto.FLOAT8E8M0,
    TensorProto.FLOAT4E2M1,
    TensorProto.UINT4,
    TensorProto.INT4,
    *(getattr(TensorProto, n) for n in ("UINT2", "INT2") if hasattr(TensorProto, n)),
}


def _element_types(model: onnx.ModelProto) -> set[int]:
    found: set[int] = set()

    def visit_type(type_proto: onnx.TypeProto) -> None:
        kind = type_proto.WhichOneof("value")
        if kind == "tensor_type":
            found.add(type_proto.tensor_type.elem_type)
        elif kind == "sequence_type":
            visit_type(type_proto.sequence_type.elem_type)
        elif kind == "optional_type":
            visit_type(type_proto.optional_type.elem_type)

    def visit_graph(graph: onnx.GraphProto) -> None:
        for info in (*graph.input, *graph.output, *graph.value_info):
            visit_type(info.type)
        found.update(t.data_type for t in graph.initializer)
        for node in graph.node:
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.TENSOR:
                    found.add(attr.t.data_type)
                elif attr.type == onnx.AttributeProto.GRAPH:
                    visit_graph(attr.g)
                elif attr.type == onnx.AttributeProto.INT and attr.name in (
                    "to",
                    "dtype",
                ):
                    found.add(attr.i)

    visit_graph(model.graph)
    return found


def test_conformance_models_import_and_round_trip(tmp_path: Path) -> None:
    from onnx.backend.test.case.node import collect_testcases

    start = time.monotonic()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    assert len(cases) > 1000
    failures: dict[str, str] = {}
    out_of_scope: set[str] = set()
    chunks: list[tuple[str, str]] = []
    for case in cases:
        if _element_types(case.model) & _EXOTIC:
            out_of_scope.add(case.name)
        model_path = tmp_path / f"{case.name}.onnx"
        model_path.write_bytes(case.model.SerializeToString())
        mlir_path = tmp_path / f"{case.name}.mlir"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            status, _, stderr = _run_cli(str(model_path), "-o", str(mlir_path))
        if status != 0:
            failures[case.name] = stderr.strip().removeprefix(
                "torch2mlir-import-onnx: error: "
            )
        else:
            chunks.append((case.name, mlir_path.read_text()))

    # One torch2mlir-opt run over all modules (--split-input-file), twice.
    combined = tmp_path / "all.mlir"
    combined.write_text("\n// -----\n".join(text for _, text in chunks))
    first = subprocess.run(
        [str(OPT), "--split-input-file", str(combined)],
        capture_output=True,
        text=True,
        check=False,
    )
    bad_lines = sorted(
        {
            int(n)
            for n in re.findall(rf"{re.escape(str(combined))}:(\d+):", first.stderr)
        }
    )
    starts, line = [], 1
    for name, text in chunks:
        starts.append((line, name))
        line += text.count("\n") + 2  # the separator line and its newline
    for bad in bad_lines:
        owner = max((s for s in starts if s[0] <= bad), key=lambda s: s[0])[1]
        failures.setdefault(owner, f"torch2mlir-opt rejects line {bad}")
    assert first.returncode == 0 or failures, first.stderr[:2000]
    if first.returncode == 0:
        again = tmp_path / "again.mlir"
        again.write_text(first.stdout)
        second = subprocess.run(
            [str(OPT), "--split-input-file", str(again)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert second.stdout == first.stdout

    reasons = collections.Counter(
        re.sub(r"'[^']*'", "'…'", reason.split(": ", 1)[-1])
        for reason in failures.values()
    )
    in_scope = [c.name for c in cases if c.name not in out_of_scope]
    imported = [n for n in in_scope if n not in failures]
    rate = len(imported) / len(in_scope)
    print(
        f"\n{len(cases)} conformance models, {len(out_of_scope)} with STRING/float8/"
        f"sub-byte types; imported and round-tripped {len(imported)}/{len(in_scope)} "
        f"of the others ({rate:.1%}) in {time.monotonic() - start:.0f} s.\n"
        "Failures by reason (all models):"
    )
    for reason, count in reasons.most_common():
        print(f"  {count:4d}  {reason}")
    print("Failed models without STRING/float8/sub-byte types:")
    print("  " + ", ".join(sorted(set(failures) - out_of_scope)))
    assert rate >= 0.95


def _reshape_by_shape_model() -> onnx.ModelProto:
    """Conv with weights, then a reshape whose target shape is computed from
    the input's shape (Shape -> Gather -> Concat): folding makes it static."""
    weight = numpy_helper.from_array(
        np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype(np.float32), "w"
    )
    return _model(
        [
            helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
            helper.make_node("Shape", ["c"], ["s"]),
            helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
            helper.make_node("Concat", ["n", "minus_one"], ["target"], axis=0),
            helper.make_node("Reshape", ["c", "target"], ["y"]),
        ],
        [_tensor("x", TensorProto.FLOAT, [2, 3, 8, 8])],
        [_tensor("y", TensorProto.FLOAT, [2, 256])],
        [
            weight,
            numpy_helper.from_array(np.array([0], dtype=np.int64), "zero"),
            numpy_helper.from_array(np.array([-1], dtype=np.int64), "minus_one"),
        ],
    )


def test_the_cli_output_lowered_is_what_compile_onnx_compiles(tmp_path: Path) -> None:
    """One preparation: torch2mlir-import-onnx, lowered by torch2mlir-opt's
    ONNX pipeline, gives the module compile_onnx runs (weights kept as
    literals here, so the texts compare whole)."""
    from torch2mlir.compiler.onnx import ONNX_PIPELINE, import_onnx_program

    model = _reshape_by_shape_model()
    model_path = tmp_path / "m.onnx"
    onnx.save_model(model, str(model_path))
    imported = tmp_path / "m.mlir"
    assert cli.main([str(model_path), "-o", str(imported)]) == 0
    lowered = subprocess.run(
        [str(OPT), str(imported), f"--{ONNX_PIPELINE}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    program = import_onnx_program(model_path, min_weight_elements=2**62)
    assert str(program.module).strip() == lowered.strip()
    # The shape computation was folded: a static reshape, no Shape op left.
    assert "onnx.Shape" not in imported.read_text()
    assert "!torch.vtensor<[2,256],f32>" in lowered
