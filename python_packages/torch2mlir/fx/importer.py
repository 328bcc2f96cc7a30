"""Import a ``torch.export.ExportedProgram`` into the ``torch`` dialect.

The importer only translates: every FX ``call_function`` node becomes the
ATen op of the same name (``torch.aten.<op>.<overload>``), typed from the
node's metadata (``node.meta["val"]``), or ``torch.operator "<op>"`` when
the dialect has no definition for it. Parameters, buffers and constants
become ``torch.vtensor.literal`` ops whose payload is copied from the
tensor's buffer in one piece (no per-element Python). Semantics (type
promotion, decompositions, lowering) are the C++ passes' business.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import torch
import torch.fx
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, OutputKind
from torch.multiprocessing.reductions import StorageWeakRef

from .. import ir
from ..dialects import func as func_d
from ..errors import CompileError
from ..program import TORCH_DTYPE_TO_MLIR

__all__ = ["TORCH_DTYPE_TO_MLIR", "FxImporter", "import_exported_program"]

#: torch dtype -> the integer PyTorch uses for it in schemas (c10::ScalarType).
_SCALAR_TYPE_CODES: dict[torch.dtype, int] = {
    torch.uint8: 0,
    torch.int8: 1,
    torch.int16: 2,
    torch.int32: 3,
    torch.int64: 4,
    torch.float16: 5,
    torch.float32: 6,
    torch.float64: 7,
    torch.complex64: 9,
    torch.complex128: 10,
    torch.bool: 11,
    torch.bfloat16: 15,
    torch.float8_e5m2: 23,
    torch.float8_e4m3fn: 24,
    torch.float8_e5m2fnuz: 25,
    torch.float8_e4m3fnuz: 26,
    torch.uint2: 31,  # type: ignore[attr-defined]
    torch.uint4: 33,  # type: ignore[attr-defined]
    torch.int2: 38,  # type: ignore[attr-defined]
    torch.int4: 40,  # type: ignore[attr-defined]
    torch.float8_e8m0fnu: 44,
}

_LAYOUT_CODES = {torch.strided: 0}
_MEMORY_FORMAT_CODES = {
    torch.contiguous_format: 0,
    torch.preserve_format: 1,
    torch.channels_last: 2,
    torch.channels_last_3d: 3,
}

#: Nodes that only check, at run time, facts the static types already carry;
#: they have no result and are not imported.
_ASSERTION_OPS = {
    "aten::_assert_tensor_metadata",
    "aten::_assert_scalar",
    "aten::_assert_async",
    "aten::sym_constrain_range",
    "aten::sym_constrain_range_for_size",
}

#: Python arithmetic on symbolic sizes (torch.SymInt) in exported graphs,
#: as the torch dialect's int ops.
_SYMINT_OPS = {
    operator.add: "torch.aten.add.int",
    operator.sub: "torch.aten.sub.int",
    operator.mul: "torch.aten.mul.int",
    operator.floordiv: "torch.aten.floordiv.int",
    operator.neg: "torch.aten.neg.int",
}

#: Comparisons of symbolic sizes: torch.export emits them for its run-time
#: assertions on data-dependent sizes (``u0 >= 0`` after ``aten.nonzero``),
#: which are not imported; neither are they.
_SYMINT_COMPARISONS = {
    operator.ge,
    operator.le,
    operator.gt,
    operator.lt,
    operator.eq,
    operator.ne,
}

#: ATen ops imported as another op of the same signature
#: (``_local_scalar_dense`` is what ``Tensor.item()`` traces to).
_ALIASES = {
    "aten.sym_size.int": "aten.size.int",
    "aten._local_scalar_dense": "aten.item",
}


def aten_op_name(target: torch._ops.OpOverload) -> str:
    """The name an ATen overload has in the torch dialect, without the
    ``torch.`` prefix: ``aten.add.Tensor``, ``aten.relu`` (the ``default``
    overload is left out), with :data:`_ALIASES` applied."""
    name = target._schema.name.replace("::", ".")
    if target._overloadname != "default":
        name += "." + target._overloadname
    return _ALIASES.get(name, name)


def imported_op_name(target: Any, context: ir.Context) -> str | None:
    """What an FX ``call_function`` target imports as: the registered torch
    dialect op (``torch.aten.add.Tensor``), ``""`` for the nodes that are not
    imported (``getitem``, run-time assertions), or None when the importer
    would emit an opaque ``torch.operator`` (an op torch2mlir does not define)
    or cannot import it at all."""
    if target is operator.getitem or target in _SYMINT_COMPARISONS:
        return ""
    if target in _SYMINT_OPS:
        return _SYMINT_OPS[target]
    if not isinstance(target, torch._ops.OpOverload):
        return None
    if target._schema.name in _ASSERTION_OPS:
        return ""
    op_name = "torch." + aten_op_name(target)
    return op_name if context.is_registered_operation(op_name) else None


_TORCH_DIR = torch.__file__.rsplit("/", 1)[0]
_FRAME = re.compile(r'File "([^"]+)", line (\d+)')


#: The Python scalar values a program takes or returns (symbolic or not).
_SCALARS = (bool, int, float, torch.SymBool, torch.SymInt, torch.SymFloat)


def _output_kind(out: Any) -> str:
    """``tensor``; ``int``, ``float`` or ``bool`` for a scalar computed by
    the program; ``constant`` for a value the program returns as is."""
    if not isinstance(out, torch.fx.Node):
        return "constant"
    val = out.meta.get("val")
    if isinstance(val, (bool, torch.SymBool)):
        return "bool"
    if isinstance(val, (int, torch.SymInt)):
        return "int"
    if isinstance(val, (float, torch.SymFloat)):
        return "float"
    return "tensor"


#: The 0-d tensor dtype that carries each torch scalar type.
_SCALAR_TENSOR_DTYPES = {
    "!torch.int": torch.int64,
    "!torch.float": torch.float64,
    "!torch.bool": torch.bool,
}

#: Ops defined on their input's storage (its strides and offset).
_AS_STRIDED_OPS = {
    torch.ops.aten.as_strided.default,
    torch.ops.aten.as_strided_copy.default,
}


def _storage_of(value: Any) -> Any:
    try:
        return StorageWeakRef(value.untyped_storage())
    except (AttributeError, NotImplementedError, RuntimeError):
        return None


def _storage_base(node: torch.fx.Node) -> torch.fx.Node:
    """The node whose value owns the storage of `node`'s value: up the
    chain of views (each node whose first tensor argument shares the
    storage, as the exported program's fake values record it)."""
    storage = _storage_of(node.meta.get("val"))
    current = node
    while storage is not None and current.op == "call_function":
        first = current.args[0] if current.args else None
        if current.target is operator.getitem and isinstance(first, torch.fx.Node):
            first = first.args[0] if first.args else None  # split -> its input
        if not isinstance(first, torch.fx.Node):
            break
        if _storage_of(first.meta.get("val")) != storage:
            break
        current = first
    return current


def _is_row_major(value: torch.Tensor) -> bool:
    """Whether `value` is its storage read row-major from its offset
    (size-1 dims may have any stride)."""
    expected = 1
    for size, stride in reversed(list(zip(value.shape, value.stride()))):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return value.storage_offset() == 0


def _storage_order(shape: list[int], strides: list[int]) -> list[int] | None:
    """The permutation of dims that lays a dense tensor out row-major in its
    storage (largest stride first; size-1 dims, whose strides do not
    matter, last); None when the strides overlap or leave gaps."""
    perm = sorted(range(len(shape)), key=lambda d: -strides[d] if shape[d] != 1 else 0)
    if 0 in shape:
        return perm
    expected = 1
    for d in reversed(perm):
        if shape[d] != 1 and strides[d] != expected:
            return None
        expected *= shape[d]
    return perm


class FxImporter:
    """Imports one ExportedProgram into a fresh ``builtin.module``.

    Types are built once per distinct spelling (``ir.Type.parse`` is cached)
    and scalar constants once per function. Subclass and override
    :meth:`import_literal` or :meth:`location_of` to change how weights are
    materialized or how nodes are located.
    """

    __slots__ = (
        "_block",
        "_constants",
        "_types",
        "_values",
        "argument_nodes",
        "context",
        "layout_inputs",
        "module",
        "mutated_arguments",
        "output_kinds",
        "parameter_sources",
        "parameters",
        "result_nodes",
    )

    def __init__(self, context: ir.Context | None = None) -> None:
        self.context = context or ir.Context()
        with self.context, ir.Location.unknown():
            self.module = ir.Module.create()
        self._types: dict[str, ir.Type] = {}
        self._values: dict[torch.fx.Node, ir.Value | tuple[ir.Value, ...]] = {}
        self._constants: dict[tuple[str, Any], ir.Value] = {}
        self._block: ir.Block | None = None
        self.parameters: list[torch.Tensor] = []
        #: Per entry of `parameters`: its fully qualified name in the module
        #: (``"layer1.0.conv1.weight"``) and whether it is a lifted constant
        #: (a tensor the program created, which the module does not hold).
        self.parameter_sources: list[tuple[str, bool]] = []
        #: The state the program updates in place (a training-mode
        #: BatchNorm's running stats, an ``x.add_(1)`` on an input): per
        #: trailing function result after the user outputs, the position of
        #: the function argument whose new value it is. The caller copies
        #: each result into that argument's tensor after a call, as eager
        #: PyTorch would have updated it.
        self.mutated_arguments: list[int] = []
        #: User inputs whose strides the program reads (as_strided of their
        #: storage), by placeholder name: calls must pass those strides.
        self.layout_inputs: dict[str, tuple[int, ...]] = {}
        #: Per user output of the last import: its kind (``tensor``,
        #: ``int``, ``float``, ``bool``, ``constant``) and, for a constant,
        #: its value (see :meth:`import_program`).
        self.output_kinds: list[tuple[str, Any]] = []
        #: The nodes behind the function's arguments and results, in order
        #: (of the last import).
        self.argument_nodes: list[torch.fx.Node] = []
        self.result_nodes: list[Any] = []

    # -- types ------------------------------------------------------------

    def type(self, spelling: str) -> ir.Type:
        """The MLIR type spelled `spelling` (cached)."""
        cached = self._types.get(spelling)
        if cached is None:
            cached = self._types[spelling] = ir.Type.parse(spelling, self.context)
        return cached

    def tensor_type(self, shape: Any, dtype: torch.dtype) -> ir.Type:
        """``!torch.vtensor<[sizes],dtype>``; symbolic sizes become ``?``."""
        try:
            element = TORCH_DTYPE_TO_MLIR[dtype]
        except KeyError:
            raise CompileError(
                f"unsupported dtype {dtype}: torch2mlir supports "
                f"{', '.join(str(d) for d in TORCH_DTYPE_TO_MLIR)}"
            ) from None
        sizes = ",".join(str(s) if isinstance(s, int) else "?" for s in shape)
        return self.type(f"!torch.vtensor<[{sizes}],{element}>")

    def value_type(self, val: Any, what: str) -> ir.Type:
        """The torch type of an FX value (``node.meta["val"]``)."""
        if isinstance(val, torch.Tensor):
            return self.tensor_type(val.shape, val.dtype)
        if isinstance(val, (bool, torch.SymBool)):
            return self.type("!torch.bool")
        if isinstance(val, (int, torch.SymInt)):
            return self.type("!torch.int")
        if isinstance(val, (float, torch.SymFloat)):
            return self.type("!torch.float")
        if val is None:
            return self.type("!torch.none")
        raise CompileError(
            f"{what}: cannot type a value of Python type {type(val).__name__}"
        )

    # -- locations --------------------------------------------------------

    @staticmethod
    def frame_of(node: torch.fx.Node) -> tuple[str, int] | None:
        """(file, line) of the innermost frame of the node's stack trace
        outside PyTorch, or None when the trace has none."""
        trace = node.meta.get("stack_trace") or ""
        best = None
        for filename, line in _FRAME.findall(trace):
            if not filename.startswith(_TORCH_DIR):
                best = (filename, int(line))
        return best

    def location_of(self, node: torch.fx.Node) -> ir.Location:
        """The innermost frame of the node's stack trace outside PyTorch."""
        best = self.frame_of(node)
        if best is None:
            return ir.Location.name(node.name, context=self.context)
        return ir.Location.name(
            node.name,
            childLoc=ir.Location.file(best[0], best[1], 0, context=self.context),
        )

    # -- values -----------------------------------------------------------

    def _create(
        self,
        name: str,
        results: list[ir.Type],
        operands: list[ir.Value],
        attributes: dict[str, ir.Attribute] | None = None,
    ) -> ir.Operation:
        return ir.Operation.create(
            name, results=results, operands=operands, attributes=attributes or {}
        )

    def constant(self, value: Any, what: str) -> ir.Value:
        """A torch scalar constant (cached per function)."""
        key = (
            type(value).__name__,
            value if not isinstance(value, float) else repr(value),
        )
        cached = self._constants.get(key)
        if cached is not None:
            return cached
        with ir.InsertionPoint.at_block_begin(self._block), ir.Location.unknown():
            if value is None:
                op = self._create("torch.constant.none", [self.type("!torch.none")], [])
            elif isinstance(value, bool):
                op = self._create(
                    "torch.constant.bool",
                    [self.type("!torch.bool")],
                    [],
                    {"value": ir.BoolAttr.get(value)},
                )
            elif isinstance(value, int):
                op = self._create(
                    "torch.constant.int",
                    [self.type("!torch.int")],
                    [],
                    {
                        "value": ir.IntegerAttr.get(
                            ir.IntegerType.get_signless(64), value
                        )
                    },
                )
            elif isinstance(value, float):
                op = self._create(
                    "torch.constant.float",
                    [self.type("!torch.float")],
                    [],
                    {"value": ir.FloatAttr.get_f64(value)},
                )
            elif isinstance(value, str):
                op = self._create(
                    "torch.constant.str",
                    [self.type("!torch.str")],
                    [],
                    {"value": ir.StringAttr.get(value)},
                )
            elif isinstance(value, torch.device):
                op = self._create(
                    "torch.constant.device",
                    [self.type("!torch.Device")],
                    [],
                    {"value": ir.StringAttr.get(str(value))},
                )
            else:
                way_out = (
                    "; way out: multiply by a complex tensor (torch.tensor(z))"
                    if isinstance(value, complex)
                    else ""
                )
                raise CompileError(
                    f"{what}: cannot import a constant of type "
                    f"{type(value).__name__}{way_out}"
                )
        result = op.result
        self._constants[key] = result
        return result

    def import_literal(self, tensor: torch.Tensor, what: str) -> ir.Value:
        """A ``torch.vtensor.literal`` holding a copy of `tensor`'s data.

        The data moves through the buffer protocol in one copy; integer
        dtypes are stored as signless integers of the same width, complex
        ones as their (real, imaginary) float pairs.
        """
        tensor = tensor.detach().cpu().contiguous()
        result_type = self.tensor_type(tensor.shape, tensor.dtype)
        if tensor.dtype == torch.bfloat16:
            array = tensor.view(torch.int16).numpy()
            element = ir.BF16Type.get(self.context)
        elif tensor.dtype.is_floating_point and tensor.dtype.itemsize == 1:
            # float8: the bytes, typed with the dtype's MLIR spelling.
            array = tensor.view(torch.uint8).numpy()
            element = ir.Type.parse(TORCH_DTYPE_TO_MLIR[tensor.dtype], self.context)
        elif tensor.dtype.is_complex:
            array = torch.view_as_real(tensor).numpy()
            element = ir.ComplexType.get(
                ir.F32Type.get(self.context)
                if tensor.dtype == torch.complex64
                else ir.F64Type.get(self.context)
            )
        else:
            array = tensor.numpy()
            element = None
        with ir.Location.unknown(self.context):
            shaped = (
                ir.RankedTensorType.get(list(tensor.shape), element)
                if element
                else None
            )
            if array.dtype == np.bool_:
                attr = ir.DenseElementsAttr.get(
                    np.packbits(array, bitorder="little"),
                    type=ir.IntegerType.get_signless(1),
                    shape=list(array.shape),
                )
            elif shaped is not None:
                attr = ir.DenseElementsAttr.get(array, type=shaped)
            else:
                attr = ir.DenseElementsAttr.get(array)
            op = self._create(
                "torch.vtensor.literal", [result_type], [], {"value": attr}
            )
        return op.result

    def _literal_from_python(self, value: Any, what: str) -> ir.Value:
        """A Python number where the schema wants a Tensor: a 0-d literal
        (complex128 for a Python complex, as PyTorch wraps it)."""
        dtype = (
            torch.float64
            if isinstance(value, float)
            else torch.complex128
            if isinstance(value, complex)
            else (torch.bool if isinstance(value, bool) else torch.int64)
        )
        with ir.InsertionPoint.at_block_begin(self._block):
            return self.import_literal(torch.tensor(value, dtype=dtype), what)

    def scalar_tensor(self, scalar: ir.Value, what: str) -> ir.Value:
        """A ``!torch.int``/``float``/``bool`` value as a 0-d tensor (si64,
        f64, i1): ``aten.scalar_tensor`` with that dtype."""
        dtype = _SCALAR_TENSOR_DTYPES[str(scalar.type)]
        none = self.constant(None, what)
        return self._create(
            "torch.aten.scalar_tensor",
            [self.tensor_type((), dtype)],
            [scalar, self.constant(_SCALAR_TYPE_CODES[dtype], what), none, none, none],
        ).result

    def list_value(self, items: list[ir.Value], element_type: ir.Type) -> ir.Value:
        list_type = self.type(f"!torch.list<{element_type}>")
        return self._create("torch.prim.ListConstruct", [list_type], items).result

    def _argument(self, value: Any, jit_type: torch._C.JitType, what: str) -> ir.Value:
        """The torch value of one op argument, typed after the schema."""
        kind = jit_type.kind()
        if kind == "OptionalType":
            if value is None:
                return self.constant(None, what)
            return self._argument(value, jit_type.getElementType(), what)
        if isinstance(value, torch.fx.Node):
            mapped = self._values.get(value)
            if mapped is None or isinstance(mapped, tuple):
                raise CompileError(f"{what}: operand {value.name} has no single value")
            if kind == "TensorType" and str(mapped.type) in _SCALAR_TENSOR_DTYPES:
                # A symbolic scalar (``x * n.item()``) where the schema wants
                # a tensor: a 0-d tensor of it, as PyTorch wraps numbers.
                return self.scalar_tensor(mapped, what)
            return mapped
        if kind == "ListType":
            element_jit = jit_type.getElementType()
            items = [self._argument(v, element_jit, what) for v in value]
            element_kind = element_jit.kind()
            if element_kind == "TensorType":
                element_type = self.type("!torch.vtensor")
            elif element_kind == "OptionalType":
                element_type = self.type("!torch.optional<vtensor>")
            elif element_kind in ("IntType", "SymIntType"):
                element_type = self.type("!torch.int")
            elif element_kind == "FloatType":
                element_type = self.type("!torch.float")
            elif element_kind == "BoolType":
                element_type = self.type("!torch.bool")
            else:
                element_type = items[0].type if items else self.type("!torch.int")
            return self.list_value(items, element_type)
        if kind == "TensorType":
            if isinstance(value, (int, float, bool, complex)):
                return self._literal_from_python(value, what)
            if isinstance(value, torch.Tensor):
                with ir.InsertionPoint.at_block_begin(self._block):
                    return self.import_literal(value, what)
        if isinstance(value, torch.dtype):
            if value not in _SCALAR_TYPE_CODES:
                raise CompileError(
                    f"{what}: unsupported dtype argument {value}: torch2mlir "
                    f"supports {', '.join(str(d) for d in TORCH_DTYPE_TO_MLIR)}; "
                    "way out: compute in one of those dtypes"
                )
            return self.constant(_SCALAR_TYPE_CODES[value], what)
        if isinstance(value, torch.layout):
            return self.constant(_LAYOUT_CODES.get(value, 0), what)
        if isinstance(value, torch.memory_format):
            return self.constant(_MEMORY_FORMAT_CODES[value], what)
        if (
            kind == "FloatType"
            and isinstance(value, int)
            and not isinstance(value, bool)
        ):
            value = float(value)
        return self.constant(value, what)

    # -- nodes ------------------------------------------------------------

    def import_call(self, node: torch.fx.Node) -> None:
        target = node.target
        if target is operator.getitem:
            source, index = cast("tuple[torch.fx.Node, int]", node.args)
            self._values[node] = self._values[source][index]
            return
        if target in _SYMINT_COMPARISONS:
            # Only run-time assertions use them; a use elsewhere fails as
            # an operand without a value.
            return
        if target in _SYMINT_OPS:
            with self.location_of(node):
                operands = [
                    self._argument(arg, torch._C.IntType.get(), node.name)
                    for arg in node.args
                ]
                self._values[node] = self._create(
                    _SYMINT_OPS[target], [self.type("!torch.int")], operands
                ).result
            return
        if not isinstance(target, torch._ops.OpOverload):
            raise CompileError(
                f"node {node.name}: cannot import a call to {target!r} (not an ATen op); "
                "way out: export with torch.export so that the graph holds ATen ops"
            )
        schema = target._schema
        if schema.name in _ASSERTION_OPS:
            return
        frame = self.frame_of(node)
        where = f"{frame[0]}:{frame[1]}: " if frame else ""
        what = f"{where}{schema.name}.{target._overloadname} ({node.name})"
        if target in _AS_STRIDED_OPS and self._import_as_strided(node, what):
            return
        name = aten_op_name(target)
        with self.location_of(node):
            operands = []
            for index, arg in enumerate(schema.arguments):
                if index < len(node.args):
                    value = node.args[index]
                elif arg.name in node.kwargs:
                    value = node.kwargs[arg.name]
                elif arg.has_default_value():
                    value = arg.default_value
                else:
                    raise CompileError(f"{what}: missing argument {arg.name}")
                operands.append(self._argument(value, arg.type, what))
            val = node.meta.get("val")
            vals = list(val) if isinstance(val, (tuple, list)) else [val]
            if not schema.returns:
                vals = []
            result_types = [self.value_type(v, what) for v in vals]
            op_name = f"torch.{name}"
            returns_list = (
                len(schema.returns) == 1 and schema.returns[0].type.kind() == "ListType"
            )
            if self.context.is_registered_operation(op_name) and returns_list:
                # A list result (split_with_sizes -> Tensor[]): the op makes
                # the list, prim.ListUnpack gives its typed elements.
                list_type = self.type("!torch.list<vtensor>")
                made = self._create(op_name, [list_type], operands).result
                op = self._create("torch.prim.ListUnpack", result_types, [made])
            elif self.context.is_registered_operation(op_name):
                op = self._create(op_name, result_types, operands)
            else:
                op = self._create(
                    "torch.operator",
                    result_types,
                    operands,
                    {"name": ir.StringAttr.get(name)},
                )
        results = tuple(op.results)
        self._values[node] = (
            results
            if isinstance(val, (tuple, list))
            else (results[0] if results else None)
        )

    # -- as_strided -------------------------------------------------------

    def _import_as_strided(self, node: torch.fx.Node, what: str) -> bool:
        """Imports ``as_strided(x, size, stride, offset)`` as PyTorch defines
        it: on the *storage* of `x`, which a view shares with its base. The
        program has values, not storage; the storage is rebuilt from the base
        (the first producer up the chain of views, whose strides the
        exported program records) as the base permuted into storage order,
        read row-major. Returns False when `x` is laid out as its own
        row-major storage (the plain import is then right).

        Raises:
            CompileError: the base's storage cannot be rebuilt (overlapping
                or gapped strides, or symbolic sizes).
        """
        source = node.args[0]
        if not isinstance(source, torch.fx.Node):
            return False
        base = _storage_base(source)
        base_val, source_val = base.meta.get("val"), source.meta.get("val")
        if not isinstance(base_val, torch.Tensor) or not isinstance(
            source_val, torch.Tensor
        ):
            return False
        if base is source and _is_row_major(source_val):
            return False
        shape, strides = base_val.shape, base_val.stride()
        if not all(
            isinstance(v, int) for v in (*shape, *strides, base_val.storage_offset())
        ):
            raise CompileError(
                f"{what}: as_strided reads the storage of a view whose base has "
                "symbolic sizes, which torch2mlir cannot rebuild; way out: "
                "export with static sizes, or index with slicing ops instead "
                "of as_strided"
            )
        perm = _storage_order(list(shape), list(strides))
        if perm is None:
            raise CompileError(
                f"{what}: as_strided reads the storage of a tensor whose strides "
                f"{tuple(strides)} (shape {tuple(shape)}) overlap or leave gaps, "
                "which a value-semantic program cannot rebuild; way out: call "
                ".contiguous() before as_strided"
            )
        size, stride = node.args[1], node.args[2]
        offset = (
            node.args[3] if len(node.args) > 3 else node.kwargs.get("storage_offset")
        )
        if offset is None:
            offset = source_val.storage_offset()
        if not isinstance(offset, int):
            return False
        offset -= base_val.storage_offset()
        if base.op == "placeholder":
            self.layout_inputs[base.name] = tuple(strides)
        int_type = self.type("!torch.int")
        with self.location_of(node):
            value = self._values[base]
            if perm != list(range(len(perm))):
                permuted = self.tensor_type([shape[d] for d in perm], base_val.dtype)
                dims = self.list_value([self.constant(d, what) for d in perm], int_type)
                value = self._create(
                    "torch.aten.permute", [permuted], [value, dims]
                ).result
            operands = [
                value,
                self._argument(size, torch._C.ListType.ofInts(), what),
                self._argument(stride, torch._C.ListType.ofInts(), what),
                self.constant(offset, what),
            ]
            result_type = self.value_type(node.meta["val"], what)
            name = "torch." + aten_op_name(cast(torch._ops.OpOverload, node.target))
            op = self._create(name, [result_type], operands)
        self._values[node] = op.result
        return True

    def import_program(
        self,
        prog: ExportedProgram,
        func_name: str = "main",
        *,
        params_as_arguments: bool = False,
        scalar_results_as_tensors: bool = False,
    ) -> ir.Module:
        """Imports `prog` as ``func.func @<func_name>`` and returns the module.

        With `params_as_arguments`, parameters, buffers and constant tensors
        become trailing function arguments instead of literals, and
        :attr:`parameters` lists the tensors to pass for them (in order).
        The RefBackend uses this to keep weights out of the generated code.

        Python-scalar inputs (``int``, ``float``, ``bool``, symbolic or not)
        are ``!torch.int``/``!torch.float``/``!torch.bool`` arguments, as in
        torch-mlir. Scalar outputs are results of those types, and constant
        outputs ``torch.constant.*`` results; with
        `scalar_results_as_tensors` (the RefBackend's ABI has tensors only)
        a scalar output is a 0-d tensor (si64, f64, i1) and a constant one
        no result at all. :attr:`output_kinds` says which is which.
        """
        graph = prog.graph_module.graph
        signature = prog.graph_signature
        user_inputs: list[torch.fx.Node] = []
        literal_inputs: dict[torch.fx.Node, torch.Tensor] = {}
        sources: dict[torch.fx.Node, tuple[str, bool]] = {}
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        for node, spec in zip(placeholders, signature.input_specs):
            if spec.kind == InputKind.USER_INPUT:
                if not isinstance(node.meta.get("val"), (torch.Tensor, *_SCALARS)):
                    raise CompileError(
                        f"input {spec.arg.name}: only tensor and int/float/bool "
                        f"inputs are supported, got {type(node.meta.get('val')).__name__}"
                    )
                user_inputs.append(node)
            elif spec.kind in (
                InputKind.PARAMETER,
                InputKind.BUFFER,
                InputKind.CONSTANT_TENSOR,
            ):
                source = (
                    prog.state_dict
                    if spec.target in prog.state_dict
                    else prog.constants
                )
                literal_inputs[node] = source[spec.target]
                sources[node] = (spec.target, source is not prog.state_dict)
            else:
                raise CompileError(
                    f"input {spec.arg.name}: unsupported input kind {spec.kind.name}"
                )
        output_node = next(n for n in graph.nodes if n.op == "output")
        outputs = list(output_node.args[0])
        user_outputs, mutations = [], []
        for out, spec in zip(outputs, signature.output_specs):
            if spec.kind == OutputKind.USER_OUTPUT:
                user_outputs.append(out)
            elif spec.kind == OutputKind.USER_INPUT_MUTATION or (
                spec.kind in (OutputKind.BUFFER_MUTATION, OutputKind.PARAMETER_MUTATION)
                and params_as_arguments
            ):
                mutations.append((out, spec.target))
            else:
                raise CompileError(
                    f"the program updates {spec.target or 'its state'} "
                    f"({spec.kind.name}), which this import cannot carry; way "
                    "out: torch2mlir.compile keeps buffers and parameters as "
                    "updatable state, or export the model in eval mode "
                    "(model.eval())"
                )

        if params_as_arguments:
            used = {
                node: t
                for node, t in literal_inputs.items()
                if node.users
                or any(sources[node][0] == target for _, target in mutations)
            }
            user_inputs = user_inputs + list(used)
            self.parameters = [t.detach() for t in used.values()]
            self.parameter_sources = [sources[node] for node in used]
            literal_inputs = {}
        # The argument each mutation result updates: a user input by its
        # placeholder name, a buffer by its qualified name.
        argument_of = {node.name: i for i, node in enumerate(user_inputs)}
        for i, node in enumerate(user_inputs):
            if node in sources:
                argument_of[sources[node][0]] = i
        self.mutated_arguments = [argument_of[target] for _, target in mutations]
        user_outputs = user_outputs + [out for out, _ in mutations]
        self.argument_nodes = list(user_inputs)
        self.output_kinds = [
            (_output_kind(out), None if isinstance(out, torch.fx.Node) else out)
            for out in user_outputs[: len(user_outputs) - len(mutations)]
        ]
        if scalar_results_as_tensors:
            user_outputs = [o for o in user_outputs if isinstance(o, torch.fx.Node)]
        self.result_nodes = list(user_outputs)
        with self.context, ir.Location.unknown():
            input_types = [self.value_type(n.meta["val"], n.name) for n in user_inputs]
            output_types = []
            for out in user_outputs:
                val = out.meta.get("val") if isinstance(out, torch.fx.Node) else out
                if scalar_results_as_tensors and not isinstance(val, torch.Tensor):
                    dtype = _SCALAR_TENSOR_DTYPES[str(self.value_type(val, "output"))]
                    output_types.append(self.tensor_type((), dtype))
                else:
                    output_types.append(self.value_type(val, "output"))
            with ir.InsertionPoint(self.module.body):
                func = func_d.FuncOp(func_name, (input_types, output_types))
            self._block = func.add_entry_block()
            self._constants.clear()
            for node, arg in zip(user_inputs, self._block.arguments):
                self._values[node] = arg
            with ir.InsertionPoint(self._block):
                for node, tensor in literal_inputs.items():
                    if node.users:
                        self._values[node] = self.import_literal(tensor, node.name)
                for node in graph.nodes:
                    if node.op == "call_function":
                        self.import_call(node)
                    elif node.op == "get_attr":
                        self._values[node] = self.import_literal(
                            getattr(prog.graph_module, node.target), node.name
                        )
                returned = []
                for out in user_outputs:
                    if not isinstance(out, torch.fx.Node):
                        returned.append(self.constant(out, "output"))
                        continue
                    value = self._values.get(out)
                    if value is None or isinstance(value, tuple):
                        raise CompileError(f"output {out}: not a single value")
                    if (
                        scalar_results_as_tensors
                        and str(value.type) in _SCALAR_TENSOR_DTYPES
                    ):
                        value = self.scalar_tensor(value, "output")
                    returned.append(value)
                func_d.ReturnOp(returned)
        return self.module


def import_exported_program(
    prog: ExportedProgram,
    *,
    func_name: str = "main",
    context: ir.Context | None = None,
    importer: Callable[[ir.Context | None], FxImporter] = FxImporter,
) -> ir.Module:
    """Imports an ExportedProgram into the ``torch`` dialect (raw, as imported).

    Args:
        prog: the program, as returned by ``torch.export.export`` (with or
            without ``run_decompositions``). User inputs must be tensors.
        func_name: the name of the ``func.func`` to create.
        context: the MLIR context to use (a new one by default).
        importer: the importer class (a hook for subclasses).

    Returns:
        A ``builtin.module`` with one function whose arguments and results are
        ``!torch.vtensor<[sizes],dtype>`` (static sizes; ``?`` for symbolic).

    Raises:
        CompileError: an input or output that is not a tensor, a dtype with
            no MLIR spelling, a program that updates a buffer (its new
            value would be lost with the buffer imported as a literal).

    A program that updates its inputs in place (``x.add_(1)``) returns their
    new values after its outputs, in the order of
    ``FxImporter.mutated_arguments``.
    """
    return importer(context).import_program(prog, func_name)
