"""ONNX string tensors, run on the host around the compiled program.

torch2mlir compiles tensor programs; a string tensor (ONNX ``STRING``) has no
element type in MLIR or in the torch dialect. A model whose graph touches
strings is split: the nodes with a string input or output (the string ops,
``ai.onnx.ml.LabelEncoder``, and ops that move or compare strings) run on
the host, on numpy object arrays of ``str`` (what ``onnx.numpy_helper``
and onnxruntime use), either before the compiled part (a *prologue*:
tokens to ids) or after it (an *epilogue*: class ids to labels); every other
node is compiled as usual. A string node that needs a compiled result and
feeds another compiled node (strings in the middle of the computation) is
refused.

The host kernels follow the ONNX operator specifications of opset 20
(StringConcat, StringSplit, RegexFullMatch), 10 (StringNormalizer), the
``ai.onnx.ml`` LabelEncoder (opsets 2 and 4), and the data-movement and
comparison ops below on strings; ``RegexFullMatch`` patterns are RE2 syntax
in the specification and run with Python's ``re``, which agrees on the
common subset (character classes, groups, alternation, anchors, bounded
repetition).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ..errors import CompileError, InputError

__all__ = ["HOST_KERNELS", "StringStages", "split_string_stages", "touches_strings"]

#: Ops that produce or consume strings whatever their value types say
#: (before shape inference has typed every value).
_STRING_OPS = {
    "StringConcat",
    "StringSplit",
    "StringNormalizer",
    "RegexFullMatch",
    "LabelEncoder",
}


def _attributes(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _strings(array: Any) -> np.ndarray:
    """An object array of ``str`` (bytes decoded as UTF-8)."""
    array = np.asarray(array, dtype=object)
    flat = [_text(v) for v in array.reshape(-1)]
    return np.array(flat + [None], dtype=object)[:-1].reshape(array.shape)


def _elementwise(fn: Callable[..., Any], out: type, *arrays: np.ndarray) -> np.ndarray:
    """`fn` on each element (numpy broadcasting), as an array of `out`."""
    broadcast = np.broadcast(*arrays)
    result: np.ndarray = np.empty(broadcast.shape, dtype=out)
    flat = result.reshape(-1)
    for i, values in enumerate(broadcast):
        flat[i] = fn(*values)
    return result


def _string_concat(
    node: onnx.NodeProto, x: np.ndarray, y: np.ndarray
) -> list[np.ndarray]:
    """StringConcat: x + y elementwise, broadcasting."""
    return [_elementwise(lambda a, b: a + b, object, _strings(x), _strings(y))]


def _regex_full_match(node: onnx.NodeProto, x: np.ndarray) -> list[np.ndarray]:
    """RegexFullMatch(pattern): whether each whole string matches."""
    pattern = re.compile(_text(_attributes(node).get("pattern", b"")))
    return [_elementwise(lambda s: pattern.fullmatch(s) is not None, bool, _strings(x))]


def _string_split(node: onnx.NodeProto, x: np.ndarray) -> list[np.ndarray]:
    """StringSplit(delimiter, maxsplit) -> (Y, Z): each string's pieces along
    a new last dim, padded with "" to the longest; Z their counts. Without a
    delimiter (or an empty one), runs of whitespace separate and leading or
    trailing whitespace gives no piece."""
    attributes = _attributes(node)
    delimiter = _text(attributes.get("delimiter", b"")) or None
    maxsplit = int(attributes.get("maxsplit", -1))
    pieces = [s.split(delimiter, maxsplit) for s in _strings(x).reshape(-1)]
    width = max((len(p) for p in pieces), default=0)
    y = np.full((len(pieces), width), "", dtype=object)
    for i, parts in enumerate(pieces):
        y[i, : len(parts)] = parts
    counts = np.array([len(p) for p in pieces], dtype=np.int64)
    return [y.reshape(*x.shape, width), counts.reshape(x.shape)]


def _string_normalizer(node: onnx.NodeProto, x: np.ndarray) -> list[np.ndarray]:
    """StringNormalizer: drops the stopwords (compared case-insensitively
    unless is_case_sensitive), then changes case (LOWER/UPPER/NONE). Input
    [C] or [1, C]; if nothing is left, the output is one empty string."""
    attributes = _attributes(node)
    action = _text(attributes.get("case_change_action", b"NONE"))
    sensitive = bool(attributes.get("is_case_sensitive", 0))
    stopwords = {_text(w) for w in attributes.get("stopwords", [])}
    strings = _strings(x)
    if strings.ndim not in (1, 2) or (strings.ndim == 2 and strings.shape[0] != 1):
        raise InputError(
            f"StringNormalizer node {node.name!r}: the input must be [C] or [1, C], "
            f"got shape {list(strings.shape)}"
        )
    if not sensitive:
        stopwords = {w.lower() for w in stopwords}
    kept = [
        s
        for s in strings.reshape(-1)
        if (s if sensitive else s.lower()) not in stopwords
    ]
    if action == "LOWER":
        kept = [s.lower() for s in kept]
    elif action == "UPPER":
        kept = [s.upper() for s in kept]
    kept = kept or [""]
    out = np.array(kept + [None], dtype=object)[:-1]
    return [out.reshape(1, -1) if strings.ndim == 2 else out]


def _tensor_attribute(value: Any) -> np.ndarray | None:
    if isinstance(value, TensorProto):
        array = numpy_helper.to_array(value)
        return _strings(array) if value.data_type == TensorProto.STRING else array
    return None


def _label_encoder(node: onnx.NodeProto, x: np.ndarray) -> list[np.ndarray]:
    """ai.onnx.ml LabelEncoder: each element looked up in keys_* -> values_*
    (or keys_tensor -> values_tensor), default_* where it is not a key."""
    attributes = _attributes(node)

    def pick(kind: str) -> tuple[np.ndarray | None, Any]:
        tensor = _tensor_attribute(attributes.get(f"{kind}_tensor"))
        if tensor is not None:
            return tensor.reshape(-1), tensor.dtype
        if f"{kind}_strings" in attributes:
            return _strings(attributes[f"{kind}_strings"]), object
        if f"{kind}_int64s" in attributes:
            return np.array(attributes[f"{kind}_int64s"], dtype=np.int64), np.int64
        if f"{kind}_floats" in attributes:
            return np.array(attributes[f"{kind}_floats"], dtype=np.float32), np.float32
        return None, None

    keys, _ = pick("keys")
    values, out_dtype = pick("values")
    if keys is None or values is None or len(keys) != len(values):
        raise InputError(
            f"LabelEncoder node {node.name!r}: needs keys and values of one length"
        )
    default_tensor = _tensor_attribute(attributes.get("default_tensor"))
    if default_tensor is not None:
        default = default_tensor.reshape(-1)[0]
    elif out_dtype is object:
        default = _text(attributes.get("default_string", b"_Unused"))
    elif out_dtype == np.int64:
        default = int(attributes.get("default_int64", -1))
    else:
        default = float(attributes.get("default_float", -0.0))
    table = {
        k.item() if isinstance(k, np.generic) else k: v for k, v in zip(keys, values)
    }
    source = _strings(x) if x.dtype == object else x
    result = np.empty(source.shape, dtype=out_dtype)
    flat = result.reshape(-1)
    for i, key in enumerate(source.reshape(-1)):
        key = key.item() if isinstance(key, np.generic) else key
        flat[i] = table.get(key, default)
    return [result]


def _equal(node: onnx.NodeProto, a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """Equal on strings: elementwise, broadcasting."""
    return [_elementwise(lambda p, q: p == q, bool, _strings(a), _strings(b))]


def _ints(value: np.ndarray) -> list[int]:
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _reshape(
    node: onnx.NodeProto, x: np.ndarray, shape: np.ndarray
) -> list[np.ndarray]:
    """Reshape: 0 copies the input's dim (allowzero=0), -1 is inferred."""
    sizes = _ints(shape)
    if not _attributes(node).get("allowzero", 0):
        sizes = [x.shape[i] if s == 0 else s for i, s in enumerate(sizes)]
    return [x.reshape(sizes)]


def _axes(node: onnx.NodeProto, axes: np.ndarray | None) -> list[int] | None:
    if axes is not None:
        return _ints(axes)
    attribute = _attributes(node).get("axes")
    return list(attribute) if attribute is not None else None


def _squeeze(
    node: onnx.NodeProto, x: np.ndarray, axes: np.ndarray | None = None
) -> list[np.ndarray]:
    chosen = _axes(node, axes)
    return [np.squeeze(x, axis=tuple(chosen)) if chosen else np.squeeze(x)]


def _unsqueeze(
    node: onnx.NodeProto, x: np.ndarray, axes: np.ndarray | None = None
) -> list[np.ndarray]:
    chosen = _axes(node, axes) or []
    rank = x.ndim + len(chosen)
    return [np.expand_dims(x, tuple(sorted(a % rank for a in chosen)))]


#: op type -> host kernel(node, *inputs) -> outputs. Absent optional inputs
#: are not passed.
HOST_KERNELS: dict[str, Callable[..., list[np.ndarray]]] = {
    "StringConcat": _string_concat,
    "RegexFullMatch": _regex_full_match,
    "StringSplit": _string_split,
    "StringNormalizer": _string_normalizer,
    "LabelEncoder": _label_encoder,
    "Equal": _equal,
    "Identity": lambda node, x: [x],
    "Reshape": _reshape,
    "Flatten": lambda node, x: [
        x.reshape(int(np.prod(x.shape[: _attributes(node).get("axis", 1)])), -1)
    ],
    "Transpose": lambda node, x: [np.transpose(x, _attributes(node).get("perm"))],
    "Squeeze": _squeeze,
    "Unsqueeze": _unsqueeze,
    "Concat": lambda node, *xs: [np.concatenate(xs, axis=_attributes(node)["axis"])],
    "Gather": lambda node, x, i: [np.take(x, i, axis=_attributes(node).get("axis", 0))],
    "Expand": lambda node, x, shape: [
        np.broadcast_to(x, np.broadcast_shapes(x.shape, tuple(_ints(shape)))).copy()
    ],
}


def _is_string(value_type: onnx.TypeProto | None) -> bool:
    return (
        value_type is not None
        and value_type.WhichOneof("value") == "tensor_type"
        and value_type.tensor_type.elem_type == TensorProto.STRING
    )


def touches_strings(model: onnx.ModelProto) -> bool:
    """Whether the graph has a string input, output or initializer, or a
    string op: a cheap test before shape inference."""
    graph = model.graph
    infos = [*graph.input, *graph.output, *graph.value_info]
    return (
        any(_is_string(info.type) for info in infos)
        or any(t.data_type == TensorProto.STRING for t in graph.initializer)
        or any(node.op_type in _STRING_OPS for node in graph.node)
    )


@dataclass
class StringStages:
    """A model split around its string nodes.

    Attributes:
        prologue, epilogue: the host nodes before and after the compiled
            part, in graph order.
        compiled: the numeric part as a model (None when nothing is
            compiled), whose inputs and outputs are named as in the graph.
        constants: initializers and Constant outputs the host nodes read.
        inputs, outputs: the graph's input and output names.
    """

    prologue: list[onnx.NodeProto]
    epilogue: list[onnx.NodeProto]
    compiled: onnx.ModelProto | None
    constants: dict[str, np.ndarray] = field(default_factory=dict)
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)

    def run_host(self, nodes: list[onnx.NodeProto], values: dict[str, Any]) -> None:
        """Runs host `nodes` in order, reading and adding to `values`."""
        for node in nodes:
            kernel = HOST_KERNELS[node.op_type]
            args = [values[name] for name in node.input if name]
            for name, result in zip(node.output, kernel(node, *args)):
                values[name] = result


def _constant_value(node: onnx.NodeProto) -> np.ndarray | None:
    for attribute in node.attribute:
        if attribute.name == "value" and attribute.type == onnx.AttributeProto.TENSOR:
            return numpy_helper.to_array(attribute.t)
    return None


def split_string_stages(prepared: onnx.ModelProto) -> StringStages:
    """Splits a shape-inferred model into host string stages and the compiled
    numeric part.

    Raises:
        CompileError: a string node has no host kernel, a string node sits
            between compiled nodes, or a value crossing into the compiled
            part has no inferred type.
    """
    graph = prepared.graph
    types: dict[str, onnx.TypeProto] = {}
    for info in [*graph.input, *graph.output, *graph.value_info]:
        types[info.name] = info.type
    constants: dict[str, np.ndarray] = {}
    for tensor in graph.initializer:
        array = numpy_helper.to_array(tensor)
        constants[tensor.name] = (
            _strings(array) if tensor.data_type == TensorProto.STRING else array
        )
        types.setdefault(
            tensor.name, helper.make_tensor_type_proto(tensor.data_type, tensor.dims)
        )
    for node in graph.node:
        if node.op_type == "Constant" and node.domain in ("", "ai.onnx"):
            value = _constant_value(node)
            if value is not None:
                constants[node.output[0]] = value

    def is_host(node: onnx.NodeProto) -> bool:
        if node.op_type in _STRING_OPS:
            return True
        names = [n for n in [*node.input, *node.output] if n]
        return any(_is_string(types.get(n)) for n in names)

    producer: dict[str, int] = {}
    for index, node in enumerate(graph.node):
        for name in node.output:
            producer[name] = index
    host = [is_host(node) for node in graph.node]
    for index, node in enumerate(graph.node):
        if host[index] and node.op_type not in HOST_KERNELS:
            raise CompileError(
                f"node {node.name or index!r} ({node.op_type}) takes or makes "
                "string tensors, which torch2mlir runs on the host only for "
                f"{', '.join(sorted(HOST_KERNELS))}; way out: move the string "
                "processing out of the model"
            )
    # after_compiled[i]: node i depends on a compiled (non-Constant) node.
    after_compiled = [False] * len(graph.node)
    for index, node in enumerate(graph.node):
        for name in node.input:
            source = producer.get(name)
            if source is None:
                continue
            source_node = graph.node[source]
            compiled_source = not host[source] and source_node.op_type != "Constant"
            if compiled_source or after_compiled[source]:
                after_compiled[index] = True
    prologue = [
        n for i, n in enumerate(graph.node) if host[i] and not after_compiled[i]
    ]
    epilogue = [n for i, n in enumerate(graph.node) if host[i] and after_compiled[i]]
    epilogue_outputs = {name for node in epilogue for name in node.output}
    compiled_nodes = [n for i, n in enumerate(graph.node) if not host[i]]
    for node in compiled_nodes:
        late = [name for name in node.input if name in epilogue_outputs]
        if late:
            raise CompileError(
                f"node {node.name!r} ({node.op_type}) reads {late[0]!r}, made by "
                "string ops that themselves read compiled results: torch2mlir runs "
                "string ops only before or after the compiled part; way out: "
                "move the string processing to the model's inputs or outputs"
            )

    stages = StringStages(
        prologue=prologue,
        epilogue=epilogue,
        compiled=None,
        constants=constants,
        inputs=[
            i.name
            for i in graph.input
            if i.name not in {t.name for t in graph.initializer}
        ],
        outputs=[o.name for o in graph.output],
    )
    real_compiled = [n for n in compiled_nodes if n.op_type != "Constant"]
    if not real_compiled:
        return stages

    made_by_compiled = {name for node in compiled_nodes for name in node.output}
    needed_by_compiled = {
        name for node in compiled_nodes for name in node.input if name
    }
    host_reads = {name for node in epilogue for name in node.input if name}
    initializer_names = {t.name for t in graph.initializer}

    def value_info(name: str) -> onnx.ValueInfoProto:
        value_type = types.get(name)
        if value_type is None:
            raise CompileError(
                f"value {name!r} crosses between the host string ops and the "
                "compiled part, and shape inference gave it no type"
            )
        result = onnx.ValueInfoProto(name=name)
        result.type.CopyFrom(value_type)
        return result

    sub_inputs = [
        name
        for name in dict.fromkeys(
            [i.name for i in graph.input if i.name not in initializer_names]
            + [name for node in prologue for name in node.output]
        )
        if name in needed_by_compiled and not _is_string(types.get(name))
    ]
    sub_outputs = list(
        dict.fromkeys(
            [o.name for o in graph.output if o.name in made_by_compiled]
            + [name for name in host_reads if name in made_by_compiled]
        )
    )
    sub_graph = helper.make_graph(
        compiled_nodes,
        graph.name,
        [value_info(name) for name in sub_inputs],
        [value_info(name) for name in sub_outputs],
        [t for t in graph.initializer if t.data_type != TensorProto.STRING],
    )
    sub_model = helper.make_model(
        sub_graph,
        opset_imports=list(prepared.opset_import),
        ir_version=prepared.ir_version,
    )
    sub_model.functions.extend(prepared.functions)
    stages.compiled = sub_model
    return stages
