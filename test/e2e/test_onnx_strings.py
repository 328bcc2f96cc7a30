"""ONNX models with string tensors: the string nodes run on the host before
and after the compiled numeric part (``torch2mlir.onnx.strings``), compared
with the ONNX reference implementation (``onnx.reference``).

ONNX's own node cases of the string ops (StringConcat, StringSplit,
StringNormalizer, RegexFullMatch, LabelEncoder, Equal) run in
``test_onnx_conformance.py``; these tests cover the split itself: tokens to
ids, a compiled computation, ids back to labels.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from harness import import_torch2mlir
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

torch2mlir = import_torch2mlir()

OPSETS = [helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.ml", 4)]
LABELS = ["cat", "dog", "bird"]


def classifier() -> onnx.ModelProto:
    """words [N] -> ids (LabelEncoder) -> one-hot scores -> MatMul -> ArgMax
    -> labels (LabelEncoder int -> string), plus the scores, and the words
    normalized (a host node that only reads inputs)."""
    weights = np.arange(12, dtype=np.float32).reshape(4, 3) % 5 - 2.0
    nodes = [
        helper.make_node(
            "LabelEncoder",
            ["words"],
            ["ids"],
            domain="ai.onnx.ml",
            keys_strings=["a", "b", "c"],
            values_int64s=[0, 1, 2],
            default_int64=3,
        ),
        helper.make_node("OneHot", ["ids", "depth", "off_on"], ["hot"], axis=-1),
        helper.make_node("MatMul", ["hot", "weights"], ["scores"]),
        helper.make_node("ArgMax", ["scores"], ["best"], axis=1, keepdims=0),
        helper.make_node(
            "LabelEncoder",
            ["best"],
            ["labels"],
            domain="ai.onnx.ml",
            keys_int64s=[0, 1, 2],
            values_strings=LABELS,
        ),
        helper.make_node(
            "StringNormalizer",
            ["words"],
            ["upper"],
            case_change_action="UPPER",
            stopwords=["c"],
        ),
    ]
    graph = helper.make_graph(
        nodes,
        "classifier",
        [helper.make_tensor_value_info("words", TensorProto.STRING, [5])],
        [
            helper.make_tensor_value_info("labels", TensorProto.STRING, [5]),
            helper.make_tensor_value_info("scores", TensorProto.FLOAT, [5, 3]),
            helper.make_tensor_value_info("upper", TensorProto.STRING, ["n"]),
        ],
        [
            helper.make_tensor("depth", TensorProto.INT64, [], [4]),
            helper.make_tensor("off_on", TensorProto.FLOAT, [2], [0.0, 1.0]),
            helper.make_tensor(
                "weights", TensorProto.FLOAT, [4, 3], weights.reshape(-1)
            ),
        ],
    )
    return helper.make_model(graph, opset_imports=OPSETS)


def test_strings_around_a_compiled_part() -> None:
    model = classifier()
    compiled = torch2mlir.compile_onnx(model)
    assert compiled.compiled is not None  # the numeric part is compiled
    assert [n.op_type for n in compiled.stages.prologue] == [
        "LabelEncoder",
        "StringNormalizer",
    ]
    assert [n.op_type for n in compiled.stages.epilogue] == ["LabelEncoder"]
    reference = ReferenceEvaluator(model)
    for words in (["a", "b", "c", "zz", "a"], ["c", "c", "b", "a", "q"]):
        feed = np.array(words, dtype=object)
        got = compiled(feed)
        want = reference.run(None, {"words": feed})
        assert got[0].dtype == object and list(got[0]) == list(want[0])
        np.testing.assert_allclose(got[1], want[1])
        assert list(got[2]) == list(want[2])


def test_string_graph_without_compiled_part() -> None:
    """Only host nodes: nothing is compiled."""
    graph = helper.make_graph(
        [
            helper.make_node("StringConcat", ["x", "suffix"], ["y"]),
            helper.make_node("Reshape", ["y", "shape"], ["z"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.STRING, [2, 2])],
        [helper.make_tensor_value_info("z", TensorProto.STRING, [4])],
        [
            helper.make_tensor("suffix", TensorProto.STRING, [1], [b"!"]),
            helper.make_tensor("shape", TensorProto.INT64, [1], [4]),
        ],
    )
    model = helper.make_model(graph, opset_imports=OPSETS)
    compiled = torch2mlir.compile_onnx(model)
    assert compiled.compiled is None
    (z,) = compiled(np.array([["a", "b"], ["c", "d"]], dtype=object))
    assert list(z) == ["a!", "b!", "c!", "d!"]


def test_strings_between_compiled_ops_are_refused() -> None:
    """A string node that reads a compiled result and feeds a compiled node
    cannot run on the host before or after the compiled part."""
    nodes = [
        helper.make_node("Abs", ["x"], ["a"]),
        helper.make_node("Cast", ["a"], ["i"], to=TensorProto.INT64),
        helper.make_node(
            "LabelEncoder",
            ["i"],
            ["s"],
            domain="ai.onnx.ml",
            keys_int64s=[1],
            values_strings=["one"],
        ),
        helper.make_node(
            "LabelEncoder",
            ["s"],
            ["j"],
            domain="ai.onnx.ml",
            keys_strings=["one"],
            values_int64s=[1],
        ),
        helper.make_node("Neg", ["j"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [3])],
    )
    model = helper.make_model(graph, opset_imports=OPSETS)
    with pytest.raises(torch2mlir.CompileError, match="only before or after"):
        torch2mlir.compile_onnx(model)


def test_string_op_without_host_kernel_is_refused() -> None:
    graph = helper.make_graph(
        [helper.make_node("Pad", ["x", "pads"], ["y"], mode="constant")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.STRING, [2])],
        [helper.make_tensor_value_info("y", TensorProto.STRING, [4])],
        [helper.make_tensor("pads", TensorProto.INT64, [2], [1, 1])],
    )
    model = helper.make_model(graph, opset_imports=OPSETS)
    with pytest.raises(torch2mlir.CompileError, match="Pad.*string tensors"):
        torch2mlir.compile_onnx(model)
