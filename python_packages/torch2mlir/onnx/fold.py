"""Constant folding of ONNX shape computations, before import.

Exported and function-expanded ONNX graphs compute shapes at run time:
``Shape -> Gather -> Concat -> Reshape``, ``Shape -> Range``,
``Shape -> ConstantOfShape -> Expand``. When the input shapes are static,
those values are constants, and ONNX shape inference alone does not always
see through them, which leaves ``?`` sizes that the static lowerings cannot
take. :func:`fold_constants` evaluates such nodes once at compile time with
ONNX's reference implementation (``onnx.reference``: the semantics are the
spec's by construction), replaces them by initializers, and infers shapes
again, until nothing more folds.

:func:`shapes_from_users` fills in the other direction: a value whose
shape inference could not see (a reduction over axes computed at run time)
has the static shape of a shape-preserving unary op's result that uses it.

Only small results are folded (shape-like values; ``max_elements``), only
deterministic ops of the default domain without subgraphs, and only in the
main graph.
"""

from __future__ import annotations

import warnings

import numpy as np
import onnx
from onnx import ModelProto, numpy_helper
from onnx.reference import ReferenceEvaluator

__all__ = ["fold_constants", "shapes_from_users"]

# Default-domain ops that are pure functions of their inputs (no randomness,
# no subgraphs) and cheap on small tensors.
_FOLDABLE = frozenset(
    [
        "Abs",
        "Add",
        "And",
        "Cast",
        "CastLike",
        "Ceil",
        "Concat",
        "Constant",
        "ConstantOfShape",
        "Div",
        "Equal",
        "Expand",
        "Flatten",
        "Floor",
        "Gather",
        "GatherElements",
        "Greater",
        "GreaterOrEqual",
        "Identity",
        "Less",
        "LessOrEqual",
        "Max",
        "Min",
        "Mod",
        "Mul",
        "Neg",
        "Not",
        "Or",
        "Range",
        "ReduceMax",
        "ReduceMin",
        "ReduceProd",
        "ReduceSum",
        "Reshape",
        "Shape",
        "Sign",
        "Size",
        "Slice",
        "Split",
        "Squeeze",
        "Sub",
        "Sum",
        "Tile",
        "Transpose",
        "Unsqueeze",
        "Where",
        "Xor",
    ]
)


def _static_shape(type_proto: onnx.TypeProto | None) -> list[int] | None:
    if type_proto is None or type_proto.WhichOneof("value") != "tensor_type":
        return None
    tensor = type_proto.tensor_type
    if not tensor.HasField("shape"):
        return None
    if not all(d.HasField("dim_value") for d in tensor.shape.dim):
        return None
    return [d.dim_value for d in tensor.shape.dim]


def _fold_once(model: ModelProto, max_elements: int) -> bool:
    """Folds what can be folded now; whether anything changed."""
    graph = model.graph
    opset = next(
        (o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None
    )
    if opset is None:
        return False
    known: dict[str, np.ndarray] = {
        t.name: numpy_helper.to_array(t) for t in graph.initializer
    }
    types = {v.name: v.type for v in [*graph.input, *graph.value_info, *graph.output]}
    graph_outputs = {o.name for o in graph.output}
    kept = []
    changed = False
    for node in graph.node:
        folded = None
        if (
            node.domain in ("", "ai.onnx")
            and node.op_type in _FOLDABLE
            and not any(a.type in (5, 10) for a in node.attribute)  # GRAPH(S)
            and not any(o in graph_outputs for o in node.output)
        ):
            folded = _evaluate(node, known, types, opset, max_elements)
        if folded is None:
            kept.append(node)
            continue
        for name, value in zip(node.output, folded):
            known[name] = value
            graph.initializer.append(numpy_helper.from_array(value, name))
        changed = True
    if changed:
        del graph.node[:]
        graph.node.extend(kept)
        used = {i for n in graph.node for i in n.input} | graph_outputs
        used |= {i for n in graph.node for a in n.attribute for i in _captures(a)}
        dropped = {t.name for t in graph.initializer if t.name not in used}
        keep_inits = [t for t in graph.initializer if t.name in used]
        del graph.initializer[:]
        graph.initializer.extend(keep_inits)
        # Before IR version 4, initializers are also listed as graph inputs:
        # a dropped one must not become an input the caller has to feed.
        inputs = [v for v in graph.input if v.name not in dropped]
        del graph.input[:]
        graph.input.extend(inputs)
        # Folded values are no longer computed: their value_info would lie
        # about where they come from only in name; drop it, inference redoes it.
        inits = {t.name for t in graph.initializer}
        infos = [v for v in graph.value_info if v.name not in inits]
        del graph.value_info[:]
        graph.value_info.extend(infos)
    return changed


def _captures(attribute: onnx.AttributeProto) -> set[str]:
    """Names a subgraph attribute reads from the enclosing scope (all of its
    node inputs, a superset that is enough to keep initializers alive)."""
    graphs = [attribute.g] if attribute.type == 5 else list(attribute.graphs)
    names: set[str] = set()
    for g in graphs:
        for n in g.node:
            names.update(n.input)
            for a in n.attribute:
                names |= _captures(a)
    return names


def _output_size_bound(
    node: onnx.NodeProto, known: dict[str, np.ndarray]
) -> int | None:
    """An upper bound of the elements of the node's outputs, computed before
    evaluating it: ops whose output size is an input's *values*
    (ConstantOfShape, Expand, Range, Tile) are bounded by those values, the
    others by their inputs' sizes broadcast together; None if it cannot be
    told."""
    values = [known[name] for name in node.input if name]
    if not values:
        return 1
    try:
        if node.op_type == "ConstantOfShape":
            return int(np.prod(values[0].astype(np.float64)))
        if node.op_type == "Expand":
            shape = np.broadcast_shapes(
                values[0].shape, tuple(int(d) for d in values[1])
            )
            return int(np.prod(shape, dtype=np.float64))
        if node.op_type == "Range":
            start, limit, delta = (float(v) for v in values)
            return max(0, int(np.ceil((limit - start) / delta))) if delta else None
        if node.op_type == "Tile":
            return int(values[0].size * np.prod(values[1].astype(np.float64)))
    except (ValueError, TypeError, OverflowError, IndexError):
        return None
    # Other ops: at most their inputs together, or broadcast together.
    total = sum(v.size for v in values)
    try:
        broadcast = np.broadcast_shapes(*(v.shape for v in values))
        total = max(total, int(np.prod(broadcast, dtype=np.float64)))
    except ValueError:
        pass
    return total


def _evaluate(
    node: onnx.NodeProto,
    known: dict[str, np.ndarray],
    types: dict[str, onnx.TypeProto],
    opset: int,
    max_elements: int,
) -> list[np.ndarray] | None:
    """The node's outputs if all its inputs are known (or, for Shape and
    Size, statically shaped) and the outputs are small; else None."""
    if node.op_type in ("Shape", "Size"):
        shape = _static_shape(types.get(node.input[0]))
        if shape is None and node.input[0] in known:
            shape = list(known[node.input[0]].shape)
        if shape is None:
            return None
        if node.op_type == "Size":
            return [np.array(int(np.prod(shape)), dtype=np.int64)]
        rank = len(shape)
        attrs = {a.name: a.i for a in node.attribute}
        start, end = attrs.get("start", 0), attrs.get("end", rank)
        start = min(max(start + rank if start < 0 else start, 0), rank)
        end = min(max(end + rank if end < 0 else end, 0), rank)
        return [np.array(shape[start:end], dtype=np.int64)]
    inputs = [name for name in node.input if name]
    if not all(name in known for name in inputs):
        return None
    if any(known[name].size > max_elements for name in inputs):
        return None
    bound = _output_size_bound(node, known)
    if bound is None or bound > max_elements:
        return None  # (a huge declared size must not be allocated here)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            evaluator = ReferenceEvaluator(node, opsets={"": opset})
            feeds = {name: known[name] for name in inputs}
            outputs = evaluator.run(None, feeds)
    except Exception:  # noqa: BLE001 - leave it to the lowering
        return None
    arrays = [np.asarray(o) for o in outputs]
    if any(a.size > max_elements or a.dtype == object for a in arrays):
        return None
    return arrays


def fold_constants(
    model: ModelProto, *, max_elements: int = 4096, rounds: int = 8
) -> ModelProto:
    """`model` with its small constant computations folded (in place).

    Args:
        model: a model whose shapes have been inferred (``value_info``).
        max_elements: fold only when every input and output has at most
            this many elements.
        rounds: fold-then-infer rounds at most.

    Returns:
        The model, with folded nodes replaced by initializers and shapes
        inferred again.
    """
    for _ in range(rounds):
        if not _fold_once(model, max_elements):
            break
        try:
            model = onnx.shape_inference.infer_shapes(
                model, check_type=False, strict_mode=False, data_prop=True
            )
        except Exception:  # noqa: BLE001 - keep what folded
            break
    return model


# Default-domain ops whose first output has the shape of their first input
# (elementwise unary ops and casts).
_SAME_SHAPE = frozenset(
    [
        "Abs",
        "Acos",
        "Asin",
        "Atan",
        "Cast",
        "CastLike",
        "Ceil",
        "Cos",
        "Cosh",
        "Erf",
        "Exp",
        "Floor",
        "Identity",
        "IsInf",
        "IsNaN",
        "Log",
        "Neg",
        "Not",
        "Reciprocal",
        "Relu",
        "Round",
        "Sigmoid",
        "Sign",
        "Sin",
        "Sinh",
        "Softplus",
        "Softsign",
        "Sqrt",
        "Tan",
        "Tanh",
    ]
)


def shapes_from_users(model: ModelProto) -> ModelProto:
    """`model` with the static shapes of its main graph's values refined
    backwards (in place): when shape inference left a value's shape unknown
    or partial, and a shape-preserving unary op (:data:`_SAME_SHAPE`) of the
    default domain reads it and has a static result shape, the value has
    that shape too. The element type is kept.

    Example: ``ReduceSum(x, axes)`` with axes computed at run time, then
    ``Sqrt`` to a graph output of type ``float[3,2,1]``: the ReduceSum
    result is ``float[3,2,1]``.
    """
    graph = model.graph
    infos = {v.name: v for v in [*graph.input, *graph.value_info, *graph.output]}
    changed = True
    while changed:
        changed = False
        for node in reversed(graph.node):
            if node.domain not in ("", "ai.onnx") or node.op_type not in _SAME_SHAPE:
                continue
            if not node.input or not node.output:
                continue
            source, result = node.input[0], node.output[0]
            shape = _static_shape(infos[result].type) if result in infos else None
            if shape is None or not source:
                continue
            info = infos.get(source)
            if info is None or info.type.WhichOneof("value") != "tensor_type":
                continue
            if _static_shape(info.type) is not None:
                continue
            tensor = info.type.tensor_type
            if tensor.HasField("shape") and len(tensor.shape.dim) != len(shape):
                continue  # contradicts inference: leave it to the lowering
            tensor.ClearField("shape")
            for size in shape:
                tensor.shape.dim.add().dim_value = size
            changed = True
    return model
