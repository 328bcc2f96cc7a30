"""Import an ONNX ``ModelProto`` into the ``torch`` dialect.

The importer only translates (DESIGN.md, "Importers"): every ONNX node
becomes ``torch.operator "onnx.<OpType>"`` (``"<domain>.<OpType>"`` outside
the default domain) carrying the node's attributes as ``torch.onnx.<name>``
attributes and its subgraphs as regions; initializers become
``torch.vtensor.literal`` ops. What the ops mean at a given opset version is
the business of the C++ pass ``convert-torch-onnx-to-torch``, which reads the
opset versions from the ``torch.onnx_meta.*`` attributes of the function.

Two steps, both usable alone:

- :func:`prepare_model` — the ``ModelProto`` work done with the ``onnx``
  package: load external data, check, convert the opset version, inline
  model-local functions (and, on request, the function bodies of standard
  ops), infer shapes.
- :class:`OnnxImporter` — the prepared model to MLIR.

:func:`import_onnx` does both.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
from google.protobuf.message import DecodeError
from onnx import (
    AttributeProto,
    FunctionProto,
    GraphProto,
    ModelProto,
    NodeProto,
    TensorProto,
    TypeProto,
    numpy_helper,
)
from onnx.external_data_helper import (
    ExternalDataInfo,
    load_external_data_for_tensor,
    uses_external_data,
)

from .. import ir
from ..dialects import func as func_d
from ..errors import CompileError, InputError
from .fold import fold_constants, shapes_from_users

__all__ = [
    "ONNX_DTYPE_TO_MLIR",
    "OnnxImporter",
    "import_onnx",
    "load_model",
    "prepare_model",
]

#: ONNX ``TensorProto.DataType`` -> the dtype spelled in
#: ``!torch.vtensor<[...],dtype>``. Element types not listed here (STRING,
#: FLOAT4E2M1) are rejected with an :class:`InputError`. Should the torch dialect of a build reject one of
#: the listed spellings, that is reported as an :class:`InputError` naming
#: the value.
ONNX_DTYPE_TO_MLIR: dict[int, str] = {
    TensorProto.FLOAT: "f32",
    TensorProto.DOUBLE: "f64",
    TensorProto.FLOAT16: "f16",
    TensorProto.BFLOAT16: "bf16",
    TensorProto.INT8: "si8",
    TensorProto.INT16: "si16",
    TensorProto.INT32: "si32",
    TensorProto.INT64: "si64",
    TensorProto.UINT8: "ui8",
    TensorProto.UINT16: "ui16",
    TensorProto.UINT32: "ui32",
    TensorProto.UINT64: "ui64",
    TensorProto.BOOL: "i1",
    TensorProto.COMPLEX64: "complex<f32>",
    TensorProto.COMPLEX128: "complex<f64>",
    # Storage types (ONNX spec, "Float stored in 8 bits" and "4 bit integer
    # types"): one element per byte in memory, as ml_dtypes holds them.
    TensorProto.FLOAT8E4M3FN: "f8E4M3FN",
    TensorProto.FLOAT8E5M2: "f8E5M2",
    TensorProto.FLOAT8E4M3FNUZ: "f8E4M3FNUZ",
    TensorProto.FLOAT8E5M2FNUZ: "f8E5M2FNUZ",
    TensorProto.FLOAT8E8M0: "f8E8M0FNU",
    TensorProto.INT4: "si4",
    TensorProto.UINT4: "ui4",
    TensorProto.INT2: "si2",
    TensorProto.UINT2: "ui2",
}

#: The ONNX storage types whose numpy (ml_dtypes) arrays the importer reads
#: as bytes (one element per byte).
_BYTE_STORED_TYPES = {
    TensorProto.FLOAT8E4M3FN,
    TensorProto.FLOAT8E5M2,
    TensorProto.FLOAT8E4M3FNUZ,
    TensorProto.FLOAT8E5M2FNUZ,
    TensorProto.FLOAT8E8M0,
    TensorProto.INT4,
    TensorProto.UINT4,
    TensorProto.INT2,
    TensorProto.UINT2,
}

#: The type of a value nothing is known about (no rank, no dtype).
UNKNOWN_TENSOR = "!torch.vtensor"

#: Protobuf cannot serialize a message of 2 GiB or more, and the ONNX checker,
#: version converter and shape inference all work on serialized models.
_PROTOBUF_LIMIT = 2**31 - 1

_DEFAULT_DOMAINS = ("", "ai.onnx")


def _domain_key(domain: str) -> str:
    """``"ai.onnx"`` and ``""`` name the same (default) domain."""
    return "" if domain in _DEFAULT_DOMAINS else domain


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


def _dtype_name(code: int) -> str:
    try:
        return TensorProto.DataType.Name(code)
    except ValueError:
        return f"data type {code}"


# --------------------------------------------------------------------------
# Walking a model


def _subgraphs(node: NodeProto) -> Iterator[GraphProto]:
    for attr in node.attribute:
        if attr.type == AttributeProto.GRAPH:
            yield attr.g
        elif attr.type == AttributeProto.GRAPHS:
            yield from attr.graphs


def _graphs(graph: GraphProto) -> Iterator[GraphProto]:
    """`graph` and every subgraph nested in it, outermost first."""
    yield graph
    for node in graph.node:
        for sub in _subgraphs(node):
            yield from _graphs(sub)


def _all_nodes(model: ModelProto) -> Iterator[NodeProto]:
    for graph in _graphs(model.graph):
        yield from graph.node
    for function in model.functions:
        for node in function.node:
            yield node
            for sub in _subgraphs(node):
                for graph in _graphs(sub):
                    yield from graph.node


def _all_tensors(model: ModelProto) -> Iterator[TensorProto]:
    """Every TensorProto of the model that may keep its data in a file."""
    graphs = list(_graphs(model.graph))
    for function in model.functions:
        for node in function.node:
            for sub in _subgraphs(node):
                graphs.extend(_graphs(sub))
    for graph in graphs:
        yield from graph.initializer
        for sparse in graph.sparse_initializer:
            yield sparse.values
            yield sparse.indices
    for node in _all_nodes(model):
        for attr in node.attribute:
            if attr.type == AttributeProto.TENSOR:
                yield attr.t
            elif attr.type == AttributeProto.TENSORS:
                yield from attr.tensors
            elif attr.type == AttributeProto.SPARSE_TENSOR:
                yield attr.sparse_tensor.values
                yield attr.sparse_tensor.indices


def _value_names(model: ModelProto) -> set[str]:
    """Every value name the model mentions (to make fresh names)."""
    names: set[str] = set()
    graphs = list(_graphs(model.graph))
    for graph in graphs:
        names.update(v.name for v in graph.input)
        names.update(v.name for v in graph.output)
        names.update(v.name for v in graph.value_info)
        names.update(t.name for t in graph.initializer)
        names.update(s.values.name for s in graph.sparse_initializer)
    for node in _all_nodes(model):
        names.update(node.input)
        names.update(node.output)
    return names


def _type_table(model: ModelProto) -> dict[str, TypeProto]:
    """Value name -> TypeProto over the whole model (inner graphs last)."""
    table: dict[str, TypeProto] = {}
    for graph in _graphs(model.graph):
        for tensor in graph.initializer:
            table[tensor.name] = onnx.helper.make_tensor_type_proto(
                tensor.data_type, list(tensor.dims)
            )
        for info in (*graph.value_info, *graph.input, *graph.output):
            if info.HasField("type"):
                table[info.name] = info.type
    return table


# --------------------------------------------------------------------------
# Reading models and their external data


def _read_model(path: str | os.PathLike) -> ModelProto:
    """Parse the ``ModelProto`` in `path`, without its external data."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise InputError(
            f"cannot read ONNX model {os.fspath(path)}: {error.strerror or error}"
        ) from None
    model = ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError) as error:
        reason = _one_line(error) or "the protobuf does not parse"
        raise InputError(f"not an ONNX model: {os.fspath(path)}: {reason}") from None
    if not model.HasField("graph") or model.ir_version == 0:
        raise InputError(
            f"not an ONNX model: {os.fspath(path)}: no graph or no IR version "
            f"(read {len(data)} bytes)"
        )
    return model


def _load_external_data(model: ModelProto, base_dir: str | os.PathLike) -> None:
    """Read every tensor's external data into the model (ONNX spec,
    "External Tensor Data"): `location` is relative to `base_dir`."""
    for tensor in _all_tensors(model):
        if not uses_external_data(tensor):
            continue
        info = ExternalDataInfo(tensor)
        path = os.path.join(os.fspath(base_dir), info.location)
        try:
            load_external_data_for_tensor(tensor, os.fspath(base_dir))
        except Exception as error:  # noqa: BLE001 - onnx raises several kinds
            reason = (
                error.strerror
                if isinstance(error, OSError) and error.strerror
                else _one_line(error)
            )
            raise InputError(
                f"tensor {tensor.name!r}: cannot read its external data from "
                f"{path}: {reason}"
            ) from None
        tensor.data_location = TensorProto.DEFAULT
        del tensor.external_data[:]


def load_model(
    path: str | os.PathLike, data_dir: str | os.PathLike | None = None
) -> ModelProto:
    """Read an ONNX model file together with its external data.

    Args:
        path: the ``.onnx`` file (a serialized ``ModelProto``).
        data_dir: where the external data files are (the ``location`` of each
            tensor is relative to it); by default the directory of `path`.

    Returns:
        The ``ModelProto`` with every tensor's data inside it.

    Raises:
        InputError: the file cannot be read or is not an ONNX model
            ("not an ONNX model: <path>: <reason>"), or an external data file
            is missing or short (the message names the tensor and the file).
    """
    model = _read_model(path)
    _load_external_data(model, data_dir or (Path(path).parent or Path(".")))
    return model


# --------------------------------------------------------------------------
# Function expansion (ONNX spec, "Functions")


def _fresh(base: str, taken: set[str]) -> str:
    name, k = base, 0
    while name in taken:
        k += 1
        name = f"{base}_{k}"
    taken.add(name)
    return name


class _FunctionExpander:
    """Replaces calls of functions by their bodies, in place.

    A call of a model-local function (``ModelProto.functions``) and, when
    asked, of a standard op that the ONNX schema defines as a function is
    replaced by the function's nodes: formal inputs and outputs are renamed
    to the call's actual values, every other value and node gets a fresh
    prefix, and attributes that refer to the call's attributes
    (``ref_attr_name``) take the call's value or the declared default.
    Calls nested in subgraphs and in function bodies are expanded too.
    """

    MAX_DEPTH = 64

    def __init__(
        self,
        model: ModelProto,
        *,
        local: bool,
        standard: bool,
        types: dict[str, TypeProto] | None = None,
    ) -> None:
        self.model = model
        self.local = (
            {(_domain_key(f.domain), f.name, f.overload): f for f in model.functions}
            if local
            else {}
        )
        self.standard = standard
        self.types = types or {}
        self.opsets = {_domain_key(o.domain): o.version for o in model.opset_import}
        self.taken = _value_names(model)
        self.taken.update(n.name for n in _all_nodes(model))
        self.expanded = 0

    def run(self) -> None:
        self._expand_graph(self.model.graph, 0)
        if self.local:
            del self.model.functions[:]

    def _expand_graph(self, graph: GraphProto, depth: int) -> None:
        nodes: list[NodeProto] = []
        changed = False
        for node in graph.node:
            changed |= self._expand_into(node, nodes, depth)
        if changed:
            del graph.node[:]
            graph.node.extend(nodes)

    def _expand_into(self, node: NodeProto, out: list[NodeProto], depth: int) -> bool:
        body = self._body(node)
        if body is None:
            for sub in _subgraphs(node):
                self._expand_graph(sub, depth)
            out.append(node)
            return False
        if depth >= self.MAX_DEPTH:
            raise InputError(
                f"node {node.name!r} ({node.op_type}): functions nested more than "
                f"{self.MAX_DEPTH} deep (a recursive function?)"
            )
        function, defaults = body
        self.expanded += 1
        for inner in self._instantiate(node, function, defaults):
            self._expand_into(inner, out, depth + 1)
        return True

    # -- finding a body ---------------------------------------------------

    def _body(
        self, node: NodeProto
    ) -> tuple[FunctionProto, dict[str, AttributeProto]] | None:
        key = (_domain_key(node.domain), node.op_type, node.overload)
        function = self.local.get(key)
        if function is not None:
            return function, {a.name: a for a in function.attribute_proto}
        if self.standard:
            return self._standard_body(node)
        return None

    def _standard_body(
        self, node: NodeProto
    ) -> tuple[FunctionProto, dict[str, AttributeProto]] | None:
        domain = _domain_key(node.domain)
        version = self.opsets.get(domain)
        if version is None:
            return None
        try:
            schema = onnx.defs.get_schema(node.op_type, version, domain)
        except onnx.defs.SchemaError:
            return None
        defaults = {
            name: attr.default_value
            for name, attr in schema.attributes.items()
            if attr.default_value.type != AttributeProto.UNDEFINED
        }
        body: bytes | None = None
        # The `type: ignore`s below: onnx's stub of OpSchema
        # (onnx_cpp2py_export/defs.pyi) lacks these members of the binding.
        try:
            plain = [v for v in schema.function_opset_versions if v <= version]  # type: ignore[attr-defined]
            dependent = [
                v
                for v in schema.context_dependent_function_opset_versions  # type: ignore[attr-defined]
                if v <= version
            ]
            if plain:
                body = schema.get_function_with_opset_version(max(plain))  # type: ignore[attr-defined]
            elif dependent:
                input_types = []
                for name in node.input:
                    type_proto = self.types.get(name) if name else TypeProto()
                    if type_proto is None:
                        return None  # the builder needs every input's type
                    input_types.append(type_proto.SerializeToString())
                call = NodeProto()
                call.CopyFrom(node)
                present = {a.name for a in call.attribute}
                call.attribute.extend(
                    a for n, a in defaults.items() if n not in present
                )
                body = schema.get_context_dependent_function_with_opset_version(  # type: ignore[attr-defined]
                    max(dependent), call.SerializeToString(), input_types
                )
        except Exception:  # noqa: BLE001 - best effort: keep the op
            return None
        if not body:
            return None
        function = FunctionProto()
        function.ParseFromString(body)
        if not function.node:
            return None
        return function, defaults

    # -- instantiating a body ---------------------------------------------

    def _instantiate(
        self,
        call: NodeProto,
        function: FunctionProto,
        defaults: dict[str, AttributeProto],
    ) -> list[NodeProto]:
        stem = call.name or f"{call.op_type}"
        prefix = _fresh(f"{stem}/{function.name}", self.taken) + "/"
        renames: dict[str, str] = {}
        for i, formal in enumerate(function.input):
            renames[formal] = call.input[i] if i < len(call.input) else ""
        for i, formal in enumerate(function.output):
            if i < len(call.output) and call.output[i]:
                renames[formal] = call.output[i]
        call_attrs = {a.name: a for a in call.attribute}

        def rename(name: str) -> str:
            if not name:
                return ""
            if name not in renames:
                renames[name] = _fresh(prefix + name, self.taken)
            return renames[name]

        def bind(node: NodeProto) -> None:
            for i, name in enumerate(node.input):
                node.input[i] = rename(name)
            for i, name in enumerate(node.output):
                node.output[i] = rename(name)
            node.name = _fresh(prefix + (node.name or node.op_type), self.taken)
            attrs: list[AttributeProto] = []
            for attr in node.attribute:
                if attr.ref_attr_name:
                    source = call_attrs.get(attr.ref_attr_name) or defaults.get(
                        attr.ref_attr_name
                    )
                    if source is None:
                        continue  # unset and no default: the attribute is absent
                    bound = AttributeProto()
                    bound.CopyFrom(source)
                    bound.name = attr.name
                    attr = bound
                if attr.type == AttributeProto.GRAPH:
                    bind_graph(attr.g)
                elif attr.type == AttributeProto.GRAPHS:
                    for graph in attr.graphs:
                        bind_graph(graph)
                attrs.append(attr)
            del node.attribute[:]
            node.attribute.extend(attrs)

        def bind_graph(graph: GraphProto) -> None:
            for info in (*graph.input, *graph.output, *graph.value_info):
                info.name = rename(info.name)
            for tensor in graph.initializer:
                tensor.name = rename(tensor.name)
            for sparse in graph.sparse_initializer:
                sparse.values.name = rename(sparse.values.name)
            for node in graph.node:
                bind(node)

        # Domains the body uses that the model does not import yet.
        for opset in function.opset_import:
            domain = _domain_key(opset.domain)
            if domain not in self.opsets:
                self.model.opset_import.append(
                    onnx.helper.make_opsetid(opset.domain, opset.version)
                )
                self.opsets[domain] = opset.version

        nodes = []
        for body_node in function.node:
            node = NodeProto()
            node.CopyFrom(body_node)
            bind(node)
            nodes.append(node)
        return nodes


# --------------------------------------------------------------------------
# Preparing a model


def _check(model: ModelProto, what: str) -> None:
    """The ONNX checker (ONNX spec, "Model Semantics"); full_check=False."""
    if model.ByteSize() > _PROTOBUF_LIMIT:
        warnings.warn(
            f"{what}: larger than 2 GiB; not checked with onnx.checker",
            stacklevel=3,
        )
        return
    try:
        onnx.checker.check_model(model, full_check=False)
    except Exception as error:  # noqa: BLE001 - ValidationError and friends
        raise InputError(f"{what}: invalid ONNX model: {_one_line(error)}") from None


#: The largest dim a declared type may have (the sizes of the tensors the
#: RefBackend passes are 64-bit, but no real model declares a dim this large,
#: and shape inference or folding would allocate it).
_MAX_DIM = 2**31 - 1


def _check_sizes(model: ModelProto, what: str) -> None:
    """No declared dim (graph inputs, outputs, value_info) or initializer
    dim is larger than :data:`_MAX_DIM`."""
    graph = model.graph
    for info in (*graph.input, *graph.output, *graph.value_info):
        for dim in info.type.tensor_type.shape.dim:
            if dim.HasField("dim_value") and dim.dim_value > _MAX_DIM:
                raise InputError(
                    f"{what}: {info.name!r} declares a dim of {dim.dim_value}, "
                    f"larger than any tensor can have here (at most {_MAX_DIM})"
                )
    for tensor in graph.initializer:
        if any(d > _MAX_DIM for d in tensor.dims):
            raise InputError(
                f"{what}: initializer {tensor.name!r} has dims {list(tensor.dims)}, "
                f"larger than any tensor can have here (at most {_MAX_DIM})"
            )


def _check_domains(model: ModelProto, what: str) -> None:
    """Every node's domain is imported: by the model, or for the nodes of a
    function, by the model or the function (ONNX spec, "Operator Sets")."""
    imported = {_domain_key(o.domain) for o in model.opset_import}

    def check(nodes: Iterator[NodeProto], domains: set[str]) -> None:
        for node in nodes:
            if _domain_key(node.domain) not in domains:
                raise InputError(
                    f"{what}: node {node.name!r} ({node.op_type}) is in domain "
                    f"{node.domain!r}, which the model does not import "
                    f"(opset_import has {sorted(domains)})"
                )
            for sub in _subgraphs(node):
                check(iter(sub.node), domains)

    check(iter(model.graph.node), imported)
    for function in model.functions:
        own = imported | {_domain_key(o.domain) for o in function.opset_import}
        check(iter(function.node), own)


#: What ONNX shape inference says when a declared type (a graph output, a
#: value_info) contradicts what the node computes.
_CONTRADICTION = re.compile(
    r"Inferred elem type differs from existing elem type"
    r"|Inferred shape and existing shape differ"
)


def _describe_type(type_proto: TypeProto) -> str:
    tensor = type_proto.tensor_type
    dims = ", ".join(
        str(d.dim_value) if d.HasField("dim_value") else (d.dim_param or "?")
        for d in tensor.shape.dim
    )
    return f"{_dtype_name(tensor.elem_type)} [{dims}]"


def _contradicted_declaration(model: ModelProto, data_prop: bool) -> str | None:
    """Which declared type contradicts the computed one: the types ONNX
    infers with the declarations removed, compared with each graph output
    and value_info of the main graph; None if none is found that way."""
    bare = ModelProto()
    bare.CopyFrom(model)
    del bare.graph.value_info[:]
    for output in bare.graph.output:
        output.type.Clear()
    try:
        inferred = onnx.shape_inference.infer_shapes(
            bare, check_type=False, strict_mode=False, data_prop=data_prop
        )
    except Exception:  # noqa: BLE001 - best effort, for the message only
        return None
    computed = {v.name: v.type for v in inferred.graph.value_info}
    computed.update((v.name, v.type) for v in inferred.graph.output)
    declared = [("graph output", v) for v in model.graph.output]
    declared += [("value_info", v) for v in model.graph.value_info]
    for kind, info in declared:
        have, want = computed.get(info.name), info.type
        if have is None or not (
            have.HasField("tensor_type") and want.HasField("tensor_type")
        ):
            continue
        h, w = have.tensor_type, want.tensor_type
        differs = bool(h.elem_type and w.elem_type and h.elem_type != w.elem_type)
        if h.HasField("shape") and w.HasField("shape"):
            if len(h.shape.dim) != len(w.shape.dim):
                differs = True
            for a, b in zip(h.shape.dim, w.shape.dim):
                if a.HasField("dim_value") and b.HasField("dim_value"):
                    differs |= a.dim_value != b.dim_value
        if differs:
            return (
                f"{kind} {info.name!r} is declared {_describe_type(want)}, "
                f"its node computes {_describe_type(have)}"
            )
    return None


def _infer_shapes(model: ModelProto, data_prop: bool, what: str) -> ModelProto:
    """ONNX shape inference (ONNX spec, "Shape Inference"); on failure, the
    model as it is, with a warning.

    Declared types are checked, not trusted: a graph output or value_info
    whose element type or static size contradicts what its node computes
    is an InputError (strict inference finds it); any other inference
    failure falls back to the lenient mode.
    """
    if model.ByteSize() > _PROTOBUF_LIMIT:
        warnings.warn(
            f"{what}: larger than 2 GiB; imported without shape inference "
            "(result types may be unknown)",
            stacklevel=3,
        )
        return model
    try:
        return onnx.shape_inference.infer_shapes(
            model, check_type=True, strict_mode=True, data_prop=data_prop
        )
    except Exception as error:  # noqa: BLE001 - InferenceError and friends
        message = _one_line(error)
        if _CONTRADICTION.search(message):
            detail = _contradicted_declaration(model, data_prop) or message
            raise InputError(
                f"{what}: a declared type contradicts what the graph computes: "
                f"{detail}. Way out: correct (or remove) that graph output or "
                "value_info declaration"
            ) from None
    try:
        return onnx.shape_inference.infer_shapes(
            model, check_type=False, strict_mode=False, data_prop=data_prop
        )
    except Exception as error:  # noqa: BLE001 - best effort
        warnings.warn(
            f"{what}: shape inference failed, imported without it "
            f"(result types may be unknown): {_one_line(error)}",
            stacklevel=3,
        )
        return model


def prepare_model(
    model: ModelProto | str | os.PathLike,
    *,
    opset_version: int | None = None,
    data_dir: str | os.PathLike | None = None,
    data_prop: bool = True,
    expand_functions: bool = False,
    fold: bool = True,
) -> ModelProto:
    """The ``ModelProto`` that :class:`OnnxImporter` imports: one
    preparation for :func:`import_onnx`, ``torch2mlir-import-onnx`` and
    ``torch2mlir.compile_onnx``.

    In order: read the file, check that every node's domain is imported,
    load the external data, run the checker, convert to `opset_version`,
    inline model-local functions, infer shapes (declared types checked),
    with `expand_functions` expand the standard ops that have function
    bodies (then infer shapes again), and with `fold` fold the constant
    shape computations and refine shapes from their users
    (:mod:`torch2mlir.onnx.fold`: shape values become initializers, so
    ``Reshape``/``Expand``/``Range`` get static result types). See
    :func:`import_onnx` for the arguments and errors. A ``ModelProto`` given
    by the caller is not modified.
    """
    if isinstance(model, ModelProto):
        what = f"model {model.graph.name or '(unnamed)'}"
        base_dir = data_dir or "."
        source = model
        model = ModelProto()
        model.CopyFrom(source)
    else:
        what = os.fspath(model)
        base_dir = data_dir or (Path(model).parent or Path("."))
        model = _read_model(model)
    _check_domains(model, what)
    _check_sizes(model, what)
    _load_external_data(model, base_dir)
    _check(model, what)
    if opset_version is not None:
        try:
            model = onnx.version_converter.convert_version(model, opset_version)
        except Exception as error:  # noqa: BLE001 - the converter's own errors
            raise InputError(
                f"{what}: cannot convert to opset {opset_version}: {_one_line(error)}"
            ) from None
    if model.functions:
        _FunctionExpander(model, local=True, standard=False).run()
    model = _infer_shapes(model, data_prop, what)
    if expand_functions:
        expander = _FunctionExpander(
            model, local=False, standard=True, types=_type_table(model)
        )
        expander.run()
        if expander.expanded:
            model = _infer_shapes(model, data_prop, what)
    if fold:
        model = shapes_from_users(fold_constants(model))
    return model


# --------------------------------------------------------------------------
# The importer


class _Scope:
    """The values of one graph (the main graph or a subgraph)."""

    __slots__ = ("block", "none", "parent", "types", "values")

    def __init__(
        self, graph: GraphProto, block: ir.Block, parent: _Scope | None
    ) -> None:
        self.block = block
        self.parent = parent
        self.none: ir.Value | None = None
        self.values: dict[str, ir.Value] = {}
        self.types: dict[str, TypeProto] = {}
        for info in (*graph.value_info, *graph.input, *graph.output):
            if info.HasField("type"):
                self.types[info.name] = info.type

    def lookup(self, name: str) -> ir.Value | None:
        scope: _Scope | None = self
        while scope is not None:
            value = scope.values.get(name)
            if value is not None:
                return value
            scope = scope.parent
        return None

    def type_of(self, name: str) -> TypeProto | None:
        scope: _Scope | None = self
        while scope is not None:
            type_proto = scope.types.get(name)
            if type_proto is not None:
                return type_proto
            scope = scope.parent
        return None


class OnnxImporter:
    """Imports one prepared ``ModelProto`` (see :func:`prepare_model`).

    Types are parsed once per distinct spelling. Subclass and override
    :meth:`literal` or :meth:`location_of` to change how initializers are
    materialized or how nodes are located.
    """

    __slots__ = ("_types", "_used", "context", "model", "module")

    def __init__(self, model: ModelProto, context: ir.Context | None = None) -> None:
        self.model = model
        self.context = context or ir.Context()
        with self.context, ir.Location.unknown():
            self.module = ir.Module.create()
        self._types: dict[str, ir.Type] = {}
        self._used: set[str] = set()

    # -- types ------------------------------------------------------------

    def type(self, spelling: str, what: str) -> ir.Type:
        """The MLIR type spelled `spelling` (cached); `what` names the value."""
        cached = self._types.get(spelling)
        if cached is None:
            try:
                cached = ir.Type.parse(spelling, self.context)
            except ir.MLIRError as error:
                reason = "; ".join(str(d.message) for d in error.error_diagnostics)
                raise InputError(
                    f"{what}: the type {spelling} is not supported by the torch "
                    f"dialect: {reason or error}"
                ) from None
            self._types[spelling] = cached
        return cached

    def dtype_spelling(self, code: int, what: str) -> str:
        """The torch dtype of an ONNX element type (``unk`` if undefined)."""
        if code == TensorProto.UNDEFINED:
            return "unk"
        spelling = ONNX_DTYPE_TO_MLIR.get(code)
        if spelling is None:
            raise InputError(
                f"{what}: element type {_dtype_name(code)} is not supported "
                "(it has no torch dtype)"
            )
        probe = f"!torch.vtensor<[],{spelling}>"
        if probe not in self._types:
            try:
                self._types[probe] = ir.Type.parse(probe, self.context)
            except ir.MLIRError:
                raise InputError(
                    f"{what}: element type {_dtype_name(code)} is not supported "
                    f"(the torch dialect of this build has no {spelling} dtype)"
                ) from None
        return spelling

    def type_spelling(self, type_proto: TypeProto | None, what: str) -> str:
        """``!torch.vtensor<[d0,...],dtype>`` and friends for an ONNX type.

        Unknown dims are ``?``; an unknown rank is ``*`` (and with an unknown
        dtype too, the bare ``!torch.vtensor``); sequences are
        ``!torch.list<...>``, optionals ``!torch.optional<...>``.
        """
        return "!torch." + self._inner_spelling(type_proto, what)

    def _inner_spelling(self, type_proto: TypeProto | None, what: str) -> str:
        if type_proto is None:
            return "vtensor"
        kind = type_proto.WhichOneof("value")
        if kind is None:
            return "vtensor"
        if kind == "tensor_type":
            tensor = type_proto.tensor_type
            dtype = self.dtype_spelling(tensor.elem_type, what)
            if not tensor.HasField("shape"):
                return "vtensor" if dtype == "unk" else f"vtensor<*,{dtype}>"
            sizes = ",".join(
                str(d.dim_value)
                if d.HasField("dim_value") and d.dim_value >= 0
                else "?"
                for d in tensor.shape.dim
            )
            return f"vtensor<[{sizes}],{dtype}>"
        if kind == "sequence_type":
            return f"list<{self._inner_spelling(type_proto.sequence_type.elem_type, what)}>"
        if kind == "optional_type":
            return f"optional<{self._inner_spelling(type_proto.optional_type.elem_type, what)}>"
        raise InputError(f"{what}: ONNX {kind} values are not supported")

    def value_type(self, name: str, scope: _Scope, what: str) -> ir.Type:
        spelling = self.type_spelling(scope.type_of(name), what)
        return self.type(spelling, what)

    # -- locations --------------------------------------------------------

    def location_of(self, node: NodeProto, index: int) -> ir.Location:
        """``loc("<node name>")``, or ``loc("<OpType>_<index>")`` for an
        unnamed node (`index`: its position in its graph)."""
        return ir.Location.name(
            node.name or f"{node.op_type}_{index}", context=self.context
        )

    # -- literals and attributes ------------------------------------------

    def dense_attr(self, tensor: TensorProto, what: str) -> ir.DenseElementsAttr:
        """The data of `tensor` as a ``DenseElementsAttr`` (one buffer copy;
        integer types signless, bool as i1)."""
        self.dtype_spelling(tensor.data_type, what)  # rejects what we cannot hold
        if tensor.data_type == TensorProto.UNDEFINED:
            raise InputError(f"{what}: tensor without an element type")
        try:
            array = numpy_helper.to_array(tensor)
        except Exception as error:  # noqa: BLE001 - malformed tensor data
            raise InputError(
                f"{what}: cannot read the tensor data: {_one_line(error)}"
            ) from None
        if not array.flags.c_contiguous:
            array = array.copy(order="C")  # (np.ascontiguousarray makes 0-d 1-d)
        return self._dense_from_array(array, tensor.data_type)

    def _dense_from_array(self, array: np.ndarray, code: int) -> ir.DenseElementsAttr:
        shape = list(array.shape)
        with ir.Location.unknown(self.context):
            if code == TensorProto.BOOL:
                return ir.DenseElementsAttr.get(
                    np.packbits(array.astype(np.bool_, copy=False), bitorder="little"),
                    type=ir.IntegerType.get_signless(1),
                    shape=shape,
                )
            if code == TensorProto.BFLOAT16:
                return ir.DenseElementsAttr.get(
                    array.view(np.uint16), type=ir.BF16Type.get(), shape=shape
                )
            if code in _BYTE_STORED_TYPES:
                # The dtype's spelling, integers signless (si4 -> i4).
                spelling = ONNX_DTYPE_TO_MLIR[code]
                element = ir.Type.parse(spelling.lstrip("su"))
                if not isinstance(element, ir.IntegerType):
                    return ir.DenseElementsAttr.get(
                        array.view(np.uint8), type=element, shape=shape
                    )
                # Sub-byte integers: MLIR keeps each in a byte too, but the
                # buffer protocol path wants whole bytes; spell the values.
                values = array.astype(np.int64).reshape(-1).tolist()
                tensor_type = ir.RankedTensorType.get(shape, element)
                return ir.DenseElementsAttr.get(
                    [ir.IntegerAttr.get(tensor_type.element_type, v) for v in values],
                    type=tensor_type,
                )
            if code in (TensorProto.COMPLEX64, TensorProto.COMPLEX128):
                part = np.float32 if code == TensorProto.COMPLEX64 else np.float64
                part_type = (
                    ir.F32Type.get()
                    if code == TensorProto.COMPLEX64
                    else ir.F64Type.get()
                )
                return ir.DenseElementsAttr.get(
                    array.reshape(-1).view(part),
                    type=ir.ComplexType.get(part_type),
                    shape=shape,
                )
            return ir.DenseElementsAttr.get(array)

    def literal(self, tensor: TensorProto, what: str) -> ir.Value:
        """A ``torch.vtensor.literal`` holding a copy of `tensor`'s data."""
        attr = self.dense_attr(tensor, what)
        dtype = self.dtype_spelling(tensor.data_type, what)
        sizes = ",".join(str(d) for d in tensor.dims)
        result_type = self.type(f"!torch.vtensor<[{sizes}],{dtype}>", what)
        with ir.Location.name(tensor.name or what, context=self.context):
            op = ir.Operation.create(
                "torch.vtensor.literal",
                results=[result_type],
                attributes={"value": attr},
            )
        return op.result

    def _sparse_as_dense(
        self, sparse: onnx.SparseTensorProto, what: str
    ) -> TensorProto:
        values = numpy_helper.to_array(sparse.values)
        indices = numpy_helper.to_array(sparse.indices).astype(np.int64)
        dense = np.zeros(list(sparse.dims), dtype=values.dtype)
        if indices.ndim <= 1:
            dense.reshape(-1)[indices] = values
        else:
            dense[tuple(indices.T)] = values
        tensor = numpy_helper.from_array(dense, sparse.values.name)
        tensor.data_type = sparse.values.data_type
        return tensor

    def attribute(
        self, attr: AttributeProto, node: NodeProto, what: str
    ) -> ir.Attribute:
        """An ONNX attribute (not a graph) as an MLIR attribute."""
        kind = attr.type
        si64 = ir.IntegerType.get_signed(64, self.context)
        f32 = ir.F32Type.get(self.context)
        try:
            if kind == AttributeProto.INT:
                return ir.IntegerAttr.get(si64, attr.i)
            if kind == AttributeProto.FLOAT:
                return ir.FloatAttr.get(f32, attr.f)
            if kind == AttributeProto.STRING:
                return ir.StringAttr.get(attr.s.decode("utf-8"), self.context)
            if kind == AttributeProto.INTS:
                return ir.ArrayAttr.get(
                    [ir.IntegerAttr.get(si64, v) for v in attr.ints]
                )
            if kind == AttributeProto.FLOATS:
                return ir.ArrayAttr.get([ir.FloatAttr.get(f32, v) for v in attr.floats])
            if kind == AttributeProto.STRINGS:
                return ir.ArrayAttr.get(
                    [
                        ir.StringAttr.get(s.decode("utf-8"), self.context)
                        for s in attr.strings
                    ]
                )
            if kind == AttributeProto.TENSOR:
                return self.dense_attr(attr.t, f"{what}, attribute {attr.name!r}")
        except UnicodeDecodeError:
            raise InputError(
                f"{what}: attribute {attr.name!r} is not valid UTF-8"
            ) from None
        raise InputError(
            f"{what}: attribute {attr.name!r} of type "
            f"{AttributeProto.AttributeType.Name(kind)} is not supported"
        )

    # -- graphs -----------------------------------------------------------

    def _import_graph(self, graph: GraphProto, scope: _Scope) -> list[ir.Value]:
        """The initializers and nodes of `graph` into `scope.block`; returns
        the values of the graph's outputs."""
        with ir.InsertionPoint(scope.block):
            for tensor in graph.initializer:
                if tensor.name in self._used:
                    scope.values[tensor.name] = self.literal(
                        tensor, f"initializer {tensor.name!r}"
                    )
            for sparse in graph.sparse_initializer:
                name = sparse.values.name
                if name in self._used:
                    what = f"sparse initializer {name!r}"
                    scope.values[name] = self.literal(
                        self._sparse_as_dense(sparse, what), what
                    )
            for index, node in enumerate(graph.node):
                self._import_node(node, index, scope)
        outputs = []
        for info in graph.output:
            value = scope.lookup(info.name)
            if value is None:
                raise InputError(
                    f"graph {graph.name or '(unnamed)'!r}: output {info.name!r} is not "
                    "produced by any node, initializer or input"
                )
            outputs.append(value)
        return outputs

    def _none(self, scope: _Scope) -> ir.Value:
        if scope.none is None:
            with (
                ir.InsertionPoint.at_block_begin(scope.block),
                ir.Location.unknown(self.context),
            ):
                scope.none = ir.Operation.create(
                    "torch.constant.none", results=[self.type("!torch.none", "none")]
                ).result
        return scope.none

    def op_name(self, node: NodeProto) -> str:
        domain = _domain_key(node.domain)
        return f"{domain or 'onnx'}.{node.op_type}"

    def _import_node(self, node: NodeProto, index: int, scope: _Scope) -> None:
        what = f"node {node.name or f'{node.op_type}_{index}'!r} ({node.op_type})"
        names = list(node.input)
        while names and not names[-1]:
            names.pop()  # trailing missing optional inputs
        operands = []
        for name in names:
            if not name:
                operands.append(self._none(scope))
                continue
            value = scope.lookup(name)
            if value is None:
                raise InputError(
                    f"{what}: input {name!r} is not produced by any node, initializer "
                    "or graph input before it (nor by an enclosing graph)"
                )
            operands.append(value)
        attributes: dict[str, ir.Attribute] = {
            "name": ir.StringAttr.get(self.op_name(node), self.context)
        }
        graphs: list[tuple[str, GraphProto]] = []
        for attr in node.attribute:
            if attr.ref_attr_name:
                raise InputError(
                    f"{what}: attribute {attr.name!r} refers to {attr.ref_attr_name!r} "
                    "outside of a function"
                )
            if attr.type == AttributeProto.GRAPH:
                graphs.append((attr.name, attr.g))
            else:
                attributes[f"torch.onnx.{attr.name}"] = self.attribute(attr, node, what)
        graphs.sort(key=lambda item: item[0])
        results = [
            self.value_type(name, scope, f"{what}, output {name!r}")
            if name
            else self.type(UNKNOWN_TENSOR, what)
            for name in node.output
        ]
        with self.location_of(node, index):
            op = ir.Operation.create(
                "torch.operator",
                results=results,
                operands=operands,
                attributes=attributes,
                regions=len(graphs),
            )
        for region, (_, graph) in zip(op.regions, graphs):
            self._import_region(region, graph, scope, what)
        for name, result in zip(node.output, op.results):
            if name:
                scope.values[name] = result

    def _import_region(
        self, region: ir.Region, graph: GraphProto, parent: _Scope, what: str
    ) -> None:
        inner = _Scope(graph, None, parent)
        arg_types = [
            self.value_type(info.name, inner, f"{what}, subgraph input {info.name!r}")
            for info in graph.input
        ]
        inner.block = region.blocks.append(*arg_types)
        for info, arg in zip(graph.input, inner.block.arguments):
            inner.values[info.name] = arg
        outputs = self._import_graph(graph, inner)
        with ir.InsertionPoint(inner.block), ir.Location.unknown(self.context):
            ir.Operation.create("torch.operator_terminator", operands=outputs)

    # -- the model --------------------------------------------------------

    def _metadata(self) -> dict[str, ir.Attribute]:
        si64 = ir.IntegerType.get_signed(64, self.context)
        attrs: dict[str, ir.Attribute] = {
            "torch.onnx_meta.ir_version": ir.IntegerAttr.get(
                si64, self.model.ir_version
            ),
        }
        others: dict[str, ir.Attribute] = {}
        for opset in self.model.opset_import:
            domain = _domain_key(opset.domain)
            if domain:
                others[domain] = ir.IntegerAttr.get(si64, opset.version)
            else:
                attrs["torch.onnx_meta.opset_version"] = ir.IntegerAttr.get(
                    si64, opset.version
                )
        if others:
            attrs["torch.onnx_meta.opset_versions"] = ir.DictAttr.get(
                dict(sorted(others.items())), self.context
            )
        attrs["torch.onnx_meta.producer_name"] = ir.StringAttr.get(
            self.model.producer_name, self.context
        )
        attrs["torch.onnx_meta.producer_version"] = ir.StringAttr.get(
            self.model.producer_version, self.context
        )
        return attrs

    def import_model(self) -> ir.Module:
        """The model's main graph as one public ``func.func``."""
        graph = self.model.graph
        self._used = set()
        for sub in _graphs(graph):
            self._used.update(o.name for o in sub.output)
            for node in sub.node:
                self._used.update(node.input)
        initialized = {t.name for t in graph.initializer}
        initialized.update(s.values.name for s in graph.sparse_initializer)
        inputs = [info for info in graph.input if info.name not in initialized]
        with self.context, ir.Location.unknown():
            scope = _Scope(graph, None, None)
            input_types = [
                self.value_type(info.name, scope, f"graph input {info.name!r}")
                for info in inputs
            ]
            with ir.InsertionPoint(self.module.body):
                func = func_d.FuncOp(graph.name or "main", (input_types, []))
            for name, attr in self._metadata().items():
                func.attributes[name] = attr
            scope.block = func.add_entry_block()
            for info, arg in zip(inputs, scope.block.arguments):
                scope.values[info.name] = arg
            outputs = self._import_graph(graph, scope)
            with ir.InsertionPoint(scope.block):
                func_d.ReturnOp(outputs)
            # The results are typed after the returned values, which may be
            # more or less precise than the declared graph outputs.
            func.attributes["function_type"] = ir.TypeAttr.get(
                ir.FunctionType.get(input_types, [v.type for v in outputs])
            )
            try:
                self.module.operation.verify()
            except ir.MLIRError as error:
                diagnostics = [str(d) for d in error.error_diagnostics]
                raise CompileError(
                    f"graph {graph.name or '(unnamed)'!r}: the imported IR does not "
                    f"verify: {'; '.join(diagnostics) or error}",
                    diagnostics,
                ) from None
        return self.module


def import_onnx(
    model: ModelProto | str | os.PathLike,
    *,
    opset_version: int | None = None,
    data_dir: str | os.PathLike | None = None,
    data_prop: bool = True,
    expand_functions: bool = False,
    fold: bool = True,
    context: ir.Context | None = None,
) -> ir.Module:
    """Imports an ONNX model into the ``torch`` dialect (raw, as imported).

    Args:
        model: a ``onnx.ModelProto``, or the path of a ``.onnx`` file.
        opset_version: convert the model to this version of the default
            ONNX opset first (``onnx.version_converter``; ONNX spec,
            "Versioning"). None keeps the model's own version.
        data_dir: where tensors stored as external data are (ONNX spec,
            "External Tensor Data": ``location`` is relative to it); by
            default the model file's directory, or the working directory
            for a ``ModelProto``.
        data_prop: let shape inference propagate the values of small shape
            tensors (``onnx.shape_inference.infer_shapes(data_prop=...)``),
            which gives static sizes after ``Shape``/``Reshape`` chains.
        expand_functions: replace the standard ops that the ONNX schema
            defines as functions (ONNX spec, "Functions"; e.g. ``HardSwish``,
            ``LayerNormalization``, and since opset 18 even ``Relu``) by their
            function bodies, at the body for the model's opset version. Best
            effort: an op whose body cannot be had (a context-dependent
            function whose input types are unknown) is kept. Model-local
            functions are always inlined.
        fold: fold constant shape computations into initializers first
            (:func:`prepare_model`); what ``compile_onnx`` compiles.
        context: the MLIR context to use (a new one by default).

    Returns:
        A ``builtin.module`` with one public ``func.func`` named after the
        graph (``main`` if unnamed): arguments are the graph inputs that are
        not initializers, results the graph outputs, each node one
        ``torch.operator "onnx.<OpType>"`` (``"<domain>.<OpType>"`` outside
        the default domain) with attributes ``torch.onnx.<name>`` and
        subgraph attributes as regions (in attribute-name order, each ending
        in ``torch.operator_terminator``), initializers
        ``torch.vtensor.literal``, a missing optional input
        ``torch.constant.none``. The function carries
        ``torch.onnx_meta.{ir_version, opset_version, opset_versions,
        producer_name, producer_version}``. Types come from ONNX shape
        inference (ONNX spec, "Shape Inference"); what it cannot tell is
        ``?`` (a dim), ``*`` (a rank), ``unk`` (a dtype), and a value with
        nothing known is the bare ``!torch.vtensor``.

    Raises:
        InputError: the file cannot be read or is not an ONNX model, the
            ONNX checker rejects it (ONNX spec, "Model Semantics"), an
            external data file is missing, the version conversion fails, a
            node uses a domain the model does not import or a value nothing
            produces, or the model uses something torch2mlir does not
            support (STRING or FLOAT4E2M1 element types, map/sparse types,
            sparse-tensor, type or tensor-list attributes). The message
            names the value, node or attribute.
    """
    prepared = prepare_model(
        model,
        opset_version=opset_version,
        data_dir=data_dir,
        data_prop=data_prop,
        expand_functions=expand_functions,
        fold=fold,
    )
    return OnnxImporter(prepared, context).import_model()
