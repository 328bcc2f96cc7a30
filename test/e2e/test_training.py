"""Training graphs: the joint forward + backward graph of a loss
(``torch._functorch.aot_autograd.aot_export_module(..., trace_joint=True)``)
compiled like any program, its loss, gradients and updated buffers
compared with the same graph run eagerly, and that graph's gradients with
``torch.autograd.grad`` on the model (so the comparison is with autograd,
not only with the exported graph).

The backward ops PyTorch's tables keep whole (``convolution_backward``,
``max_pool{2,3}d_with_indices_backward``, ``avg_pool{2,3}d_backward``,
``_adaptive_avg_pool{2,3}d_backward``, ``_cdist_backward``,
``_pdist_backward``, the CPU flash-attention backward)
are decomposed by ``torch2mlir.fx.backward``; each is also checked alone,
over strides, padding, dilation, groups, spatial ranks and masks.

Tolerances: float32 with rtol 1e-4 / atol 1e-5. The gradients are sums in
an order PyTorch's kernels (oneDNN) do not document: the relative
differences measured are at most 1.5e-5 (ResNet-18), 1.7e-6 (BERT).
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
from harness import Call, import_torch2mlir
from torch import nn
from torch._functorch.aot_autograd import aot_export_module

torch2mlir = import_torch2mlir()
aten = torch.ops.aten

RTOL, ATOL = 1e-4, 1e-5


class Loss(nn.Module):
    """The scalar loss of `net` on its inputs (`loss_fn(net, *inputs)`)."""

    def __init__(self, net: nn.Module, loss_fn: Any) -> None:
        super().__init__()
        self.net = net
        self.loss_fn = loss_fn

    def forward(self, *inputs: torch.Tensor) -> tuple[torch.Tensor]:
        return (self.loss_fn(self.net, *inputs),)


def check_joint(
    model: Loss, inputs: tuple[torch.Tensor, ...], *, updated_buffers: int = 0
) -> None:
    """Compiles the joint graph of `model` (train mode) and compares every
    output (the `updated_buffers` buffer updates, loss, gradients) with the
    graph run eagerly, and the gradients with autograd's."""
    graph, signature = aot_export_module(
        model, inputs, trace_joint=True, output_loss_index=0
    )
    params = [p.detach() for p in model.parameters()]
    buffers = [b.detach().clone() for b in model.buffers()]
    args = (*params, *buffers, *inputs)
    expected = graph(*[a.clone() for a in args])
    compiled = torch2mlir.compile(graph, args)
    actual = compiled(*[a.clone() for a in args])
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected, strict=True):
        torch.testing.assert_close(got, want, rtol=RTOL, atol=ATOL)
    # The exported graph's gradients are autograd's.
    loss = model(*inputs)[0]
    grads = torch.autograd.grad(loss, list(model.parameters()))
    joint_grads = actual[-len(grads) :]
    for got, want in zip(joint_grads, grads, strict=True):
        torch.testing.assert_close(got, want, rtol=RTOL, atol=ATOL)
    assert len(signature.buffers_to_mutate) == updated_buffers


def cross_entropy(net: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(net(x), y)


def test_mlp_joint_graph() -> None:
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
    check_joint(Loss(net, cross_entropy).train(), (x, y))


def test_resnet18_joint_graph() -> None:
    """Training-mode batch norm (running stats updated), convolution and
    max-pool backward. 48x48 inputs, batch 4: the last stage's batch norm
    sees 16 values per channel (a batch of 2 at 1x1 would normalize 2
    values, where float32 rounding differences are amplified without
    bound)."""
    from torch2mlir.models.resnet import resnet18

    net = resnet18(num_classes=10)
    torch.manual_seed(0)
    x, y = torch.randn(4, 3, 48, 48), torch.randint(0, 10, (4,))
    # Each of the 20 batch norms updates running_mean, running_var and
    # num_batches_tracked.
    check_joint(Loss(net, cross_entropy).train(), (x, y), updated_buffers=60)


def test_bert_joint_graph() -> None:
    """Attention (the CPU flash-attention forward and backward), layer
    norm, GELU, embedding and tanh (pooler) backward. Dropout is off so the
    gradients are deterministic."""
    pytest.importorskip("transformers")
    from torch2mlir.models.transformer import bert, token_ids

    net = bert(layers=2, hidden=64, heads=2).model
    for module in net.modules():
        if isinstance(module, nn.Dropout):
            module.p = 0.0

    def loss(model: nn.Module, ids: torch.Tensor) -> torch.Tensor:
        out = model(input_ids=ids)
        return out.last_hidden_state.square().mean() + out.pooler_output.mean()

    check_joint(Loss(net, loss).train(), (token_ids(2, 16),))


def check_op(fn: Any, *inputs: torch.Tensor) -> None:
    """`fn` (a backward ATen op with constant arguments) compiled and
    compared with eager."""
    expected = fn(*inputs)
    actual = torch2mlir.compile(Call(fn), inputs)(*inputs)
    for got, want in zip(actual, expected, strict=True):
        if want is None:
            assert got is None
        else:
            torch.testing.assert_close(got, want, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize(
    "spatial, stride, padding, dilation, groups",
    [
        (2, 1, 1, 1, 1),
        (2, 2, 1, 1, 1),  # the strided forward drops a row: output_padding
        (2, 2, 0, 2, 2),
        (2, 1, 2, 1, 4),  # depthwise
        (1, 3, 1, 1, 1),
        (3, 2, 1, 1, 1),
    ],
)
def test_convolution_backward(
    spatial: int, stride: int, padding: int, dilation: int, groups: int
) -> None:
    torch.manual_seed(0)
    size = [9, 8, 7][:spatial]
    x = torch.randn(2, 4, *size)
    w = torch.randn(8, 4 // groups, *[3] * spatial)
    out = aten.convolution(
        x,
        w,
        None,
        [stride] * spatial,
        [padding] * spatial,
        [dilation] * spatial,
        False,
        [0] * spatial,
        groups,
    )
    grad = torch.randn_like(out)

    def backward(g: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> Any:
        return aten.convolution_backward(
            g,
            a,
            b,
            [8],
            [stride] * spatial,
            [padding] * spatial,
            [dilation] * spatial,
            False,
            [0] * spatial,
            groups,
            [True, True, True],
        )

    check_op(backward, grad, x, w)


def test_convolution_backward_mask() -> None:
    """Only the gradients `output_mask` asks for are computed."""
    torch.manual_seed(0)
    x, w = torch.randn(1, 3, 6, 6), torch.randn(5, 3, 3, 3)
    grad = torch.randn(1, 5, 4, 4)

    def weight_only(g: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> Any:
        _, grad_weight, _ = aten.convolution_backward(
            g,
            a,
            b,
            None,
            [1, 1],
            [0, 0],
            [1, 1],
            False,
            [0, 0],
            1,
            [False, True, False],
        )
        return (grad_weight,)

    check_op(weight_only, grad, x, w)


@pytest.mark.parametrize("spatial", [2, 3])
def test_max_pool_with_indices_backward(spatial: int) -> None:
    """Overlapping windows (kernel 3, stride 2) add their gradients."""
    torch.manual_seed(0)
    x = torch.randn(2, 3, *[9] * spatial)
    pool = (
        aten.max_pool2d_with_indices if spatial == 2 else aten.max_pool3d_with_indices
    )
    backward_op = (
        aten.max_pool2d_with_indices_backward
        if spatial == 2
        else aten.max_pool3d_with_indices_backward
    )
    out, indices = pool(x, [3] * spatial, [2] * spatial, [1] * spatial)
    grad = torch.randn_like(out)

    def backward(g: torch.Tensor, a: torch.Tensor, i: torch.Tensor) -> Any:
        return (
            backward_op(
                g,
                a,
                [3] * spatial,
                [2] * spatial,
                [1] * spatial,
                [1] * spatial,
                False,
                i,
            ),
        )

    check_op(backward, grad, x, indices)


@pytest.mark.parametrize(
    ("spatial", "kernel", "stride", "padding", "ceil_mode", "include_pad", "divisor"),
    [
        (2, 3, 2, 1, False, True, None),
        (2, 3, 2, 1, True, False, None),
        (2, 2, 3, 0, True, True, None),
        (2, 3, 1, 1, False, True, 5),
        (3, 2, 2, 1, True, True, None),
        (3, 3, 2, 0, False, False, None),
    ],
)
def test_avg_pool_backward(
    spatial: int,
    kernel: int,
    stride: int,
    padding: int,
    ceil_mode: bool,
    include_pad: bool,
    divisor: int | None,
) -> None:
    """avg_pool{2,3}d_backward: the divisor of each window (clipped at the
    padded input, or at the input without count_include_pad, or the
    override), ceil_mode's overhanging last windows, strides larger than
    the kernel (inputs no window reads get 0)."""
    torch.manual_seed(0)
    x = torch.randn(2, 3, *[9, 8, 7][:spatial])
    pool = aten.avg_pool2d if spatial == 2 else aten.avg_pool3d
    backward_op = aten.avg_pool2d_backward if spatial == 2 else aten.avg_pool3d_backward
    args = ([kernel] * spatial, [stride] * spatial, [padding] * spatial)
    out = pool(x, *args, ceil_mode, include_pad, divisor)
    grad = torch.randn_like(out)

    def backward(g: torch.Tensor, a: torch.Tensor) -> Any:
        return (backward_op(g, a, *args, ceil_mode, include_pad, divisor),)

    check_op(backward, grad, x)


@pytest.mark.parametrize(
    ("spatial", "sizes", "out"),
    [(2, [9, 7], [4, 3]), (2, [5, 5], [7, 2]), (3, [6, 5, 4], [3, 2, 4])],
)
def test_adaptive_avg_pool_backward(
    spatial: int, sizes: list[int], out: list[int]
) -> None:
    """_adaptive_avg_pool{2,3}d_backward, windows overlapping (out not
    dividing in) and outputs larger than inputs."""
    torch.manual_seed(0)
    x = torch.randn(2, 3, *sizes)
    grad = torch.randn(2, 3, *out)
    backward_op = (
        aten._adaptive_avg_pool2d_backward
        if spatial == 2
        else aten._adaptive_avg_pool3d_backward
    )
    check_op(lambda g, a: (backward_op(g, a),), grad, x)


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, float("inf")])
def test_cdist_and_pdist_backward(p: float) -> None:
    """_cdist_backward (broadcast batch dims, a repeated point: distance 0)
    and _pdist_backward, for each of PyTorch's p-norm cases."""
    torch.manual_seed(0)
    x1, x2 = torch.randn(2, 4, 3), torch.randn(1, 5, 3)
    x2[0, 0] = x1[0, 1]  # a zero distance
    dist = torch.cdist(x1, x2, p)
    grad = torch.randn_like(dist)
    check_op(
        lambda g, a, b, d: (aten._cdist_backward(g, a, b, p, d),), grad, x1, x2, dist
    )
    rows = torch.randn(5, 3)
    pair_dist = torch.pdist(rows, p)
    pair_grad = torch.randn_like(pair_dist)
    check_op(
        lambda g, a, d: (aten._pdist_backward(g, a, p, d),), pair_grad, rows, pair_dist
    )


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("mask", [None, "float"])
def test_flash_attention_backward(causal: bool, mask: str | None) -> None:
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 3, 5, 4) for _ in range(3))
    # The CPU kernel takes a float mask (of the query's dtype) only.
    attn_mask = torch.randn(5, 5) if mask == "float" else None
    if causal and attn_mask is not None:
        pytest.skip("PyTorch's kernel takes either a mask or is_causal")
    out, _ = aten._scaled_dot_product_flash_attention_for_cpu(
        q, k, v, 0.0, causal, attn_mask=attn_mask
    )
    grad = torch.randn_like(out)

    def both(*ts: torch.Tensor) -> Any:
        g, a, b, c = ts[:4]
        m = ts[4] if len(ts) > 4 else None
        o, l = aten._scaled_dot_product_flash_attention_for_cpu(
            a, b, c, 0.0, causal, attn_mask=m
        )
        return (o, l) + tuple(
            aten._scaled_dot_product_flash_attention_for_cpu_backward(
                g, a, b, c, o, l, 0.0, causal, attn_mask=m
            )
        )

    inputs = (grad, q, k, v) + ((attn_mask,) if attn_mask is not None else ())
    check_op(both, *inputs)
