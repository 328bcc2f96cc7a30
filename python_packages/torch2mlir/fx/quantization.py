"""Quantized programs as integer arithmetic.

PT2E quantization (``torchao.quantization.pt2e``: ``prepare_pt2e`` then
``convert_pt2e``) leaves a float program in which each quantized
contraction reads dequantized integers::

    xq = quantize_per_tensor(x, sx, zx, ..., uint8)        # activations
    y  = conv2d(dequantize_per_tensor(xq, sx, zx, ...),
                dequantize_per_channel(wq, sw, 0, axis=0, ..., int8), bias)

Eager PyTorch runs it in float. :func:`fuse_quantized_contractions` turns
each such 2-D convolution (``aten.conv2d``/``aten.convolution``, ungrouped)
and matmul (``aten.linear``, ``aten.mm``/``aten.addmm`` of a transposed
weight) into an int8 x int8 -> int32 contraction, ``torch2mlir::int_conv2d``
or ``aten._int_mm``, followed by the float rescale (the accumulator times
``sx * sw``, plus the bias), which is what a quantized kernel computes (the
requantization of the next ``quantize_per_tensor`` then runs on its result,
fused by the backend). The integer sum is exact, where eager rounds the float
products: results agree within one quantization step of the next quantize.

Only what has an integer form is rewritten; the rest keeps eager's float
path (the (de)quantize ops then decompose to elementwise arithmetic with
PyTorch's own definitions, :data:`QUANTIZED_DECOMPOSITIONS`):

- activations per-tensor ``uint8`` or ``int8`` with a Python scale and zero
  point (``dequantize_per_tensor.default``); a ``uint8`` one is moved to
  ``int8`` (minus 128, its zero point too) as the int8 kernels take;
- weights ``int8``, per-tensor or per output channel (axis 0), with zero
  points that are 0 (symmetric, as the x86 and XNNPACK quantizers make
  them), known when the program is compiled (a weight, buffer or constant);
- float32 results (no ``out_dtype``).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch.fx
from torch._guards import detect_fake_mode
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.ao.quantization.fx import _decomposed

from . import quantized_ops  # noqa: F401 (registers torch.ops.torch2mlir)

__all__ = ["QUANTIZED_DECOMPOSITIONS", "fuse_quantized_contractions", "quantize_pt2e"]

aten = torch.ops.aten
qd = torch.ops.quantized_decomposed

#: The (de)quantize ops of ``quantized_decomposed`` that the integer rewrite
#: leaves, decomposed with PyTorch's own implementations (the functions
#: registered for them, ``torch/ao/quantization/fx/_decomposed.py``): the
#: float arithmetic eager runs, rounding half to even and saturating.
QUANTIZED_DECOMPOSITIONS: dict[torch._ops.OperatorBase, Callable[..., Any]] = {
    qd.quantize_per_tensor.default: _decomposed.quantize_per_tensor,
    qd.quantize_per_tensor.tensor: _decomposed.quantize_per_tensor_tensor,
    qd.quantize_per_tensor.tensor2: _decomposed.quantize_per_tensor_tensor2,
    qd.dequantize_per_tensor.default: _decomposed.dequantize_per_tensor,
    qd.dequantize_per_tensor.tensor: _decomposed.dequantize_per_tensor_tensor,
    qd.dequantize_per_tensor.tensor2: _decomposed.dequantize_per_tensor_tensor2,
    qd.quantize_per_channel.default: _decomposed.quantize_per_channel,
    qd.dequantize_per_channel.default: _decomposed.dequantize_per_channel,
}


def quantize_pt2e(
    model: torch.nn.Module,
    example_args: tuple[Any, ...],
    calibration: Sequence[tuple[Any, ...]],
) -> torch.nn.Module:
    """`model` quantized to int8 by PT2E, as torchao documents it: exported,
    ``prepare_pt2e`` with the x86 quantizer's default static config (uint8
    activations per tensor, int8 weights per output channel, symmetric),
    run on each `calibration` batch, then ``convert_pt2e``.

    Args:
        model: a module in eval mode.
        example_args: inputs to export with.
        calibration: batches of inputs the observers see.

    Returns:
        The converted ``GraphModule`` (float ops between ``quantized_decomposed``
        (de)quantize ops), which torch2mlir compiles to int8 kernels;
        ``.eval()`` works on it (``allow_exported_model_train_eval``).

    Raises:
        ImportError: torchao is not installed (it is in the test lock).
    """
    # torchao only when quantizing (a test dependency, not the package's).
    from torchao.quantization.pt2e import (  # noqa: PLC0415
        allow_exported_model_train_eval,
    )
    from torchao.quantization.pt2e.quantize_pt2e import (  # noqa: PLC0415
        convert_pt2e,
        prepare_pt2e,
    )
    from torchao.quantization.pt2e.quantizer import (  # noqa: PLC0415
        x86_inductor_quantizer as x86,
    )

    graph = torch.export.export(model, tuple(example_args)).module()
    quantizer = x86.X86InductorQuantizer()
    quantizer.set_global(x86.get_default_x86_inductor_quantization_config())
    prepared = prepare_pt2e(graph, quantizer)
    for args in calibration:
        prepared(*args)
    converted = convert_pt2e(prepared)
    # `.eval()` as on any module (an exported program refuses it otherwise).
    allow_exported_model_train_eval(converted)
    return converted


_TRANSPOSES = (aten.t.default, aten.permute.default, aten.transpose.int)


def fuse_quantized_contractions(
    prog: torch.export.ExportedProgram,
) -> torch.export.ExportedProgram:
    """Rewrites the quantized convolutions and matmuls of `prog` into
    integer contractions (see the module docstring for what qualifies).

    Args:
        prog: an exported program, decomposed or not; it is not modified.

    Returns:
        `prog` itself when nothing qualifies, else a new program (sharing
        `prog`'s weights) with the rewritten graph.
    """
    graph = prog.graph_module.graph
    if not any(node.target in _DEQUANTIZE for node in graph.nodes):
        return prog
    known = _known_tensors(prog)
    if not any(_match(node, known) for node in graph.nodes):
        return prog
    # The program's graph is left alone: rewrite a copy.
    module = torch.fx.GraphModule(prog.graph_module, _copy_graph(graph))
    mode = detect_fake_mode([n.meta["val"] for n in graph.nodes if "val" in n.meta])
    # Exported programs carry fake tensors; without them, a fresh mode.
    mode = mode if mode is not None else FakeTensorMode()
    renamed: dict[str, str] = {}
    for node in list(module.graph.nodes):
        match = _match(node, known)
        if match is not None:
            name = node.name
            renamed[name] = match.rewrite(_Emitter(module.graph, node, mode)).name
    module.graph.eliminate_dead_code()
    module.recompile()
    # A program output computed by a rewritten node has a new name.
    signature = copy.copy(prog.graph_signature)
    signature.output_specs = [
        dataclasses.replace(
            spec, arg=dataclasses.replace(spec.arg, name=renamed[spec.arg.name])
        )
        if getattr(spec.arg, "name", None) in renamed
        else spec
        for spec in signature.output_specs
    ]
    return prog._update(module, signature)


_DEQUANTIZE = (qd.dequantize_per_tensor.default, qd.dequantize_per_channel.default)


def _copy_graph(graph: torch.fx.Graph) -> torch.fx.Graph:
    """A copy of `graph` with the same node names (the graph signature names
    the placeholders and outputs) and metadata."""
    copy = torch.fx.Graph()
    copies: dict[torch.fx.Node, torch.fx.Node] = {}
    output = copy.graph_copy(graph, copies)
    copy.output(output)
    for node, new in copies.items():
        # graph_copy renames a node named after a builtin (`input`).
        new.name = node.name
    return copy


def _known_tensors(prog: torch.export.ExportedProgram) -> dict[str, torch.Tensor]:
    """The value of each placeholder that is a weight, buffer or constant."""
    sig = prog.graph_signature
    known = {}
    sources = {
        **sig.inputs_to_parameters,
        **sig.inputs_to_buffers,
        **sig.inputs_to_lifted_tensor_constants,
    }
    for name, target in sources.items():
        value = prog.state_dict.get(target, prog.constants.get(target))
        if isinstance(value, torch.Tensor):
            known[name] = value
    return known


def _activation(node: Any) -> tuple[torch.fx.Node, float, int, torch.dtype] | None:
    """(integers, scale, zero point, dtype) of a per-tensor dequantized
    uint8/int8 activation, or None."""
    if not isinstance(node, torch.fx.Node) or node.target is not _DEQUANTIZE[0]:
        return None
    args: Any = node.args
    q, scale, zero, _, _, dtype = args[:6]
    if dtype not in (torch.uint8, torch.int8) or node.kwargs.get("out_dtype") not in (
        None,
        torch.float32,
    ):
        return None
    if not isinstance(scale, float) or not isinstance(zero, int):
        return None
    return q, scale, zero, dtype


def _weight(
    node: Any, known: dict[str, torch.Tensor]
) -> tuple[torch.fx.Node, float | torch.fx.Node] | None:
    """(int8 integers, scale) of a symmetric int8 weight dequantized per
    tensor or per output channel (axis 0), or None. The scale is a float or
    the node of the per-channel scales."""
    if not isinstance(node, torch.fx.Node) or node.target not in _DEQUANTIZE:
        return None
    if node.kwargs.get("out_dtype") not in (None, torch.float32):
        return None
    args: Any = node.args
    if node.target is _DEQUANTIZE[0]:
        q, scale, zero, _, _, dtype = args[:6]
        if dtype != torch.int8 or zero != 0 or not isinstance(scale, float):
            return None
        return q, scale
    q, scales, zeros, axis, _, _, dtype = args[:7]
    if dtype != torch.int8 or axis != 0 or not isinstance(scales, torch.fx.Node):
        return None
    if zeros is not None:
        value = known.get(zeros.name) if isinstance(zeros, torch.fx.Node) else None
        if value is None or bool(value.ne(0).any()):
            return None
    return q, scales


class _Emitter:
    """Inserts nodes before `anchor`, each with the ``val`` (a fake tensor)
    and source location of `anchor`, as the importer needs."""

    def __init__(
        self, graph: torch.fx.Graph, anchor: torch.fx.Node, mode: FakeTensorMode
    ) -> None:
        self.graph = graph
        self.anchor = anchor
        self.mode = mode

    def __call__(self, target: Any, *args: Any, **kwargs: Any) -> torch.fx.Node:
        with self.graph.inserting_before(self.anchor):
            node = self.graph.call_function(target, args, kwargs)
        for key in ("stack_trace", "nn_module_stack", "source_fn_stack"):
            if key in self.anchor.meta:
                node.meta[key] = self.anchor.meta[key]
        fake_args, fake_kwargs = torch.fx.node.map_arg(
            (args, kwargs), lambda n: n.meta["val"]
        )
        with self.mode:
            node.meta["val"] = target(*fake_args, **fake_kwargs)
        return node


def _signed(
    emit: _Emitter, q: torch.fx.Node, zero: int, dtype: torch.dtype
) -> tuple[torch.fx.Node, int]:
    """The int8 form of a uint8 or int8 activation: (integers, zero point);
    uint8 moves down by 128, exactly (the kernels take int8 x int8)."""
    if dtype == torch.int8:
        return q, zero
    wide = emit(aten._to_copy.default, q, dtype=torch.int16)
    shifted = emit(aten.sub.Scalar, wide, 128)
    return emit(aten._to_copy.default, shifted, dtype=torch.int8), zero - 128


def _rescale(
    emit: _Emitter,
    acc: torch.fx.Node,
    activation_scale: float,
    weight_scale: float | torch.fx.Node,
    bias: Any,
    channel_shape: Sequence[int],
) -> torch.fx.Node:
    """acc (int32) as float32 times activation_scale * weight_scale (one per
    output channel, broadcast with `channel_shape`), plus `bias`."""
    out = emit(aten._to_copy.default, acc, dtype=torch.float32)
    if isinstance(weight_scale, float):
        out = emit(aten.mul.Scalar, out, activation_scale * weight_scale)
    else:
        scale = emit(aten.mul.Scalar, weight_scale, activation_scale)
        scale = emit(aten._to_copy.default, scale, dtype=torch.float32)
        out = emit(aten.mul.Tensor, out, emit(aten.view.default, scale, channel_shape))
    if isinstance(bias, torch.fx.Node):
        out = emit(aten.add.Tensor, out, emit(aten.view.default, bias, channel_shape))
    return out


@dataclasses.dataclass
class _Match:
    """A quantized contraction `node` and what its integer form needs."""

    node: torch.fx.Node
    kind: str  # "conv" or "matmul"
    activation: tuple[torch.fx.Node, float, int, torch.dtype]
    weight: tuple[torch.fx.Node, float | torch.fx.Node]
    bias: Any
    params: tuple[Any, ...] = ()  # conv: stride, padding, dilation

    def rewrite(self, emit: _Emitter) -> torch.fx.Node:
        """Inserts the integer form before `node` (through `emit`, whose
        anchor it is), replaces `node` by it and returns its result."""
        q, scale, zero, dtype = self.activation
        wq, weight_scale = self.weight
        xs, zs = _signed(emit, q, zero, dtype)
        if self.kind == "conv":
            acc = emit(
                torch.ops.torch2mlir.int_conv2d.default, xs, zs, wq, *self.params
            )
            out = _rescale(emit, acc, scale, weight_scale, self.bias, [1, -1, 1, 1])
        else:
            x_val = q.meta["val"]  # The integers have the activation's shape.
            features = x_val.shape[-1]
            rows = (
                xs if x_val.dim() == 2 else emit(aten.view.default, xs, [-1, features])
            )
            acc = emit(aten._int_mm.default, rows, emit(aten.t.default, wq))
            if zs:
                # sum_k (x - zs) w = sum_k x w - zs * sum_k w: the weight's row sums.
                wide = emit(aten._to_copy.default, wq, dtype=torch.int32)
                sums = emit(aten.sum.dim_IntList, wide, [1], False, dtype=torch.int32)
                acc = emit(aten.sub.Tensor, acc, emit(aten.mul.Scalar, sums, zs))
            out = _rescale(emit, acc, scale, weight_scale, self.bias, [-1])
            if x_val.dim() != 2:
                out = emit(aten.view.default, out, [*x_val.shape[:-1], -1])
        self.node.replace_all_uses_with(out)
        emit.graph.erase_node(self.node)
        return out


def _match(node: torch.fx.Node, known: dict[str, torch.Tensor]) -> _Match | None:
    """The quantized contraction `node` is, or None."""
    if node.op != "call_function":
        return None
    if node.target in (aten.conv2d.default, aten.convolution.default):
        return _match_conv(node, known)
    if node.target in (aten.linear.default, aten.mm.default, aten.addmm.default):
        return _match_matmul(node, known)
    return None


def _match_conv(node: torch.fx.Node, known: dict[str, torch.Tensor]) -> _Match | None:
    """A quantized 2-D, ungrouped convolution."""
    args: list[Any] = list(node.args)
    if node.target is aten.conv2d.default:
        defaults = [None, None, None, [1, 1], [0, 0], [1, 1], 1]
        args += defaults[len(args) :]
        x, w, bias, stride, padding, dilation, groups = args
        transposed = False
    else:
        x, w, bias, stride, padding, dilation, transposed, _, groups = args
    activation, weight = _activation(x), _weight(w, known)
    val = node.meta.get("val")
    if (
        activation is None
        or weight is None
        or transposed
        or groups != 1
        or not isinstance(val, torch.Tensor)
        or val.dim() != 4
        or not all(
            isinstance(v, list) and len(v) == 2 for v in (stride, padding, dilation)
        )
    ):
        return None
    return _Match(node, "conv", activation, weight, bias, (stride, padding, dilation))


def _match_matmul(node: torch.fx.Node, known: dict[str, torch.Tensor]) -> _Match | None:
    """A quantized linear, or matmul by a transposed weight."""
    args: Any = node.args
    if node.target is aten.linear.default:
        x, w = args[:2]
        bias = args[2] if len(args) > 2 else node.kwargs.get("bias")
    else:
        if node.target is aten.addmm.default:
            if node.kwargs or len(args) != 3:
                return None  # beta/alpha other than 1
            bias, x, rhs = args
        else:
            bias, (x, rhs) = None, args
        # mm(x, w.t()): the weight of a decomposed linear.
        if not isinstance(rhs, torch.fx.Node) or rhs.target not in _TRANSPOSES:
            return None
        rhs_args: Any = rhs.args
        if rhs.target is aten.permute.default and list(rhs_args[1]) != [1, 0]:
            return None
        w = rhs_args[0]
    activation, weight = _activation(x), _weight(w, known)
    x_val = x.meta.get("val") if isinstance(x, torch.fx.Node) else None
    if (
        activation is None
        or weight is None
        or not isinstance(x_val, torch.Tensor)
        or x_val.dim() < 2
        or w.meta["val"].dim() != 2
    ):
        return None
    return _Match(node, "matmul", activation, weight, bias)
