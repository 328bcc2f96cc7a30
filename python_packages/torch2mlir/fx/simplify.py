"""Rewrites that keep a freshly exported inference program within the ops
torch2mlir defines, so that ``compile(..., decompositions="auto")`` can
import it as exported instead of re-tracing it through PyTorch's Core ATen
table (which costs 1-2 s on a transformer).

``torch.export`` (training IR, non-strict) leaves a few forms in models'
programs that the torch dialect does not define but that are plain
rewrites of ops it does:

- ``aten.lift_fresh_copy(c)`` of a constant made by ``torch.tensor(...)``,
  and ``aten.detach_`` of the copy: the value of `c`;
- ``aten.split.Tensor(x, n, dim)``: one ``aten.slice.Tensor`` per element
  taken, when ``x.shape[dim]`` is static;
- ``aten.unbind.int(x, dim)``: one ``aten.select.int`` per element;
- ``aten.stack(ts, dim)``: ``aten.cat`` of ``aten.unsqueeze(t, dim)``;
- ``aten.to.dtype_layout(x, dtype=...)`` and ``aten.to.device(x, "cpu",
  dtype)`` on strided CPU tensors: ``aten._to_copy(x, dtype=...)``;
- ``higher_order.wrap_with_set_grad_enabled(enabled, body, *args)``
  (a ``torch.no_grad()`` region, e.g. a rotary embedding): `body`'s nodes,
  inlined (grad mode does not change forward values).

The rewrites are value-preserving in a functional program, so they run
only when the program mutates nothing but through ``detach_`` (which
changes no value).
"""

from __future__ import annotations

import operator
from typing import Any

import torch
import torch.fx

aten = torch.ops.aten

__all__ = ["simplify_exported_program"]

_IDENTITIES = (aten.lift_fresh_copy.default, aten.detach_.default)


def _wrap_with_set_grad_enabled() -> Any:
    return getattr(torch.ops.higher_order, "wrap_with_set_grad_enabled", None)


def _static_dim(node: Any, dim: int) -> int | None:
    val = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
    if not isinstance(val, torch.Tensor) or not -val.dim() <= dim < val.dim():
        return None
    size = val.shape[dim]
    return size if isinstance(size, int) else None


def _arg(node: torch.fx.Node, index: int, name: str, default: Any) -> Any:
    if index < len(node.args):
        return node.args[index]
    return node.kwargs.get(name, default)


def _split(graph: torch.fx.Graph, node: torch.fx.Node) -> bool:
    """``split.Tensor(x, n, dim)``: one ``slice.Tensor`` per element taken
    (the table's form too; slices fuse into their consumers)."""
    source, size, dim = node.args[0], node.args[1], _arg(node, 2, "dim", 0)
    extent = _static_dim(source, dim)
    if (
        extent is None
        or not isinstance(size, int)
        or size <= 0
        or not all(
            user.target is operator.getitem and isinstance(user.args[1], int)
            for user in node.users
        )
    ):
        return False
    for user in list(node.users):
        start = user.args[1] * size
        user.target = aten.slice.Tensor
        user.args, user.kwargs = (source, dim, start, min(start + size, extent), 1), {}
    graph.erase_node(node)
    return True


def _unbind(graph: torch.fx.Graph, node: torch.fx.Node) -> bool:
    source, dim = node.args[0], _arg(node, 1, "dim", 0)
    if _static_dim(source, dim) is None or not all(
        user.target is operator.getitem and isinstance(user.args[1], int)
        for user in node.users
    ):
        return False
    for user in list(node.users):
        user.target = aten.select.int
        user.args, user.kwargs = (source, dim, user.args[1]), {}
    graph.erase_node(node)
    return True


def _stack(graph: torch.fx.Graph, node: torch.fx.Node) -> bool:
    tensors, dim = node.args[0], _arg(node, 1, "dim", 0)
    vals = [
        t.meta.get("val") if isinstance(t, torch.fx.Node) else None for t in tensors
    ]
    if not vals or not all(isinstance(v, torch.Tensor) for v in vals):
        return False
    rank = vals[0].dim()
    if not -(rank + 1) <= dim <= rank:
        return False
    dim = dim % (rank + 1)
    unsqueezed = []
    with graph.inserting_before(node):
        for tensor, val in zip(tensors, vals):
            new = graph.call_function(aten.unsqueeze.default, (tensor, dim))
            new.meta.update(node.meta)
            new.meta["val"] = val.unsqueeze(dim)
            unsqueezed.append(new)
    node.target = aten.cat.default
    node.args, node.kwargs = (unsqueezed, dim), {}
    return True


def _to_dtype_layout(graph: torch.fx.Graph, node: torch.fx.Node) -> bool:
    """``to.dtype_layout(x, *, dtype, layout, device, ...)`` and
    ``to.device(x, device, dtype, ...)`` on the CPU: ``_to_copy``."""
    kwargs = dict(node.kwargs)
    if node.target is aten.to.device:
        names = ("device", "dtype", "non_blocking", "copy", "memory_format")
        kwargs.update(zip(names, node.args[1:]))
    elif len(node.args) != 1:
        return False
    device = kwargs.pop("device", None)
    if kwargs.pop("layout", None) not in (None, torch.strided):
        return False
    if device is not None and torch.device(device).type != "cpu":
        return False
    if kwargs.pop("memory_format", None) not in (None, torch.preserve_format):
        return False
    kwargs.pop("pin_memory", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("copy", None)
    dtype = kwargs.pop("dtype", None)
    if kwargs:
        return False
    node.target = aten._to_copy.default
    node.args = (node.args[0],)
    node.kwargs = {"dtype": dtype} if dtype is not None else {}
    return True


def _inline_grad_region(
    root: torch.fx.GraphModule, graph: torch.fx.Graph, node: torch.fx.Node
) -> bool:
    body_node = node.args[1]
    if not isinstance(body_node, torch.fx.Node) or body_node.op != "get_attr":
        return False
    body = getattr(root, str(body_node.target), None)
    if not isinstance(body, torch.fx.GraphModule):
        return False
    inner = list(body.graph.nodes)
    if any(n.op not in ("placeholder", "call_function", "output") for n in inner):
        return False
    if not all(user.target is operator.getitem for user in node.users):
        return False
    placeholders = [n for n in inner if n.op == "placeholder"]
    operands = node.args[2:]
    outputs = inner[-1].args[0] if inner and inner[-1].op == "output" else None
    if (
        len(placeholders) != len(operands)
        or not isinstance(outputs, (tuple, list))
        or not all(
            isinstance(user.args[1], int)
            and user.args[1] < len(outputs)
            and isinstance(outputs[user.args[1]], torch.fx.Node)
            for user in node.users
        )
    ):
        return False
    env: dict[torch.fx.Node, Any] = dict(zip(placeholders, operands))
    with graph.inserting_before(node):
        for n in inner:
            if n.op == "call_function":
                env[n] = graph.node_copy(n, lambda a: env[a])
    for user in list(node.users):
        user.replace_all_uses_with(env[outputs[user.args[1]]])
        graph.erase_node(user)
    graph.erase_node(node)
    if not body_node.users:
        graph.erase_node(body_node)
    return True


def _rewrite_once(root: torch.fx.GraphModule, graph: torch.fx.Graph) -> int:
    hop = _wrap_with_set_grad_enabled()
    count = 0
    for node in list(graph.nodes):
        if node.op != "call_function":
            continue
        target = node.target
        done = False
        if target in _IDENTITIES and isinstance(node.args[0], torch.fx.Node):
            node.replace_all_uses_with(node.args[0])
            graph.erase_node(node)
            done = True
        elif target is aten.split.Tensor:
            done = _split(graph, node)
        elif target is aten.unbind.int:
            done = _unbind(graph, node)
        elif target is aten.stack.default:
            done = _stack(graph, node)
        elif target in (aten.to.dtype_layout, aten.to.device):
            done = _to_dtype_layout(graph, node)
        elif hop is not None and target is hop:
            done = _inline_grad_region(root, graph, node)
        count += done
    return count


def simplify_exported_program(prog: torch.export.ExportedProgram) -> int:
    """Applies the module's rewrites to `prog`'s graph, in place.

    Args:
        prog: a program just made by ``torch.export.export``, owned by the
            caller (its graph changes).

    Returns:
        The number of nodes rewritten (0 when the program mutates a value
        other than through ``detach_``: it is left as it is).
    """
    graph = prog.graph_module.graph
    for node in graph.nodes:
        target = node.target
        if (
            node.op == "call_function"
            and isinstance(target, torch._ops.OpOverload)
            and target._schema.is_mutable
            and target is not aten.detach_.default
        ):
            return 0
    count = 0
    while True:  # inlined regions may hold more forms to rewrite
        done = _rewrite_once(prog.graph_module, graph)
        count += done
        if not done:
            break
    if count:
        graph.lint()
        prog.graph_module.recompile()
    return count
