"""Decompositions of the Core ATen backward ops that PyTorch's tables keep
whole, so that training graphs (the joint forward + backward graph of
``torch._functorch.aot_autograd.aot_export_module(..., trace_joint=True)``)
lower like any other program.

Each follows the gradient of the forward op as PyTorch defines it
(``tools/autograd/derivatives.yaml``): the gradients of a convolution are
convolutions, those of a max pool a scatter-add at the saved indices, those
of an average pool a transposed convolution with a kernel of ones (adaptive:
a product with the windows' weight matrices). The
e2e tests (``test/e2e/test_training.py``) compare them with eager autograd.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import torch

aten = torch.ops.aten

__all__ = ["BACKWARD_DECOMPOSITIONS"]


def _convolution_backward(
    grad_output: torch.Tensor,
    input: torch.Tensor,
    weight: torch.Tensor,
    bias_sizes: Sequence[int] | None,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
    output_mask: Sequence[bool],
) -> Any:
    """``aten.convolution_backward`` of an N-d convolution:
    (grad_input, grad_weight, grad_bias), each None unless `output_mask`
    asks for it.

    - grad_input is the transposed convolution of `grad_output` with
      `weight`; its output_padding restores the input sizes that the
      strided forward dropped.
    - grad_weight correlates the input with `grad_output`: the batch becomes
      the channels (input as [C/groups, groups * N, ...], gradient as
      [groups * O/groups, N, ...]), the forward's dilation the stride and its
      stride the dilation; the result, [C/groups, O, K'...] with K' >= K,
      is permuted to [O, C/groups, ...] and cut to the kernel size.
    - grad_bias sums `grad_output` over every dim but the channels.

    A transposed convolution's gradients are a convolution and the weight
    gradient of the convolution it is the adjoint of.
    """
    spatial = weight.dim() - 2
    stride, padding, dilation = list(stride), list(padding), list(dilation)
    if transposed:
        # y = convT(x, w) is the adjoint of z = conv(y, w) (the weight,
        # [C_x, C_y/groups, K...], read as a convolution from y's channels
        # to x's): grad_x = conv(grad_y, w), and <grad_y, convT(x, w)> =
        # <conv(grad_y, w), x> makes grad_w the weight gradient of that
        # convolution with input grad_y and output gradient x.
        # With an output_padding of at least the stride (allowed when the
        # dilation is larger), that convolution has more positions than x:
        # x gets zeros there, and grad_x loses them.
        flat = [0] * spatial
        conv_sizes = [
            (
                grad_output.shape[2 + i]
                + 2 * padding[i]
                - dilation[i] * (weight.shape[2 + i] - 1)
                - 1
            )
            // stride[i]
            + 1
            for i in range(spatial)
        ]
        grad_input = grad_weight = grad_bias = None
        if output_mask[0]:
            grad_input = aten.convolution.default(
                grad_output,
                weight,
                None,
                stride,
                padding,
                dilation,
                False,
                flat,
                groups,
            )
            for i in range(spatial):
                grad_input = aten.slice.Tensor(grad_input, 2 + i, 0, input.shape[2 + i])
        if output_mask[1]:
            edges: list[int] = []
            for i in reversed(range(spatial)):
                edges += [0, max(0, conv_sizes[i] - input.shape[2 + i])]
            padded_input = aten.constant_pad_nd.default(input, edges, 0.0)
            _, grad_weight, _ = _convolution_backward(
                padded_input,
                grad_output,
                weight,
                None,
                stride,
                padding,
                dilation,
                False,
                flat,
                groups,
                [False, True, False],
            )
        if output_mask[2]:
            grad_bias = aten.sum.dim_IntList(
                grad_output, [0, *range(2, grad_output.dim())]
            )
        return grad_input, grad_weight, grad_bias
    grad_input = grad_weight = grad_bias = None
    if output_mask[2]:
        grad_bias = aten.sum.dim_IntList(grad_output, [0, *range(2, grad_output.dim())])
    if output_mask[0]:
        restored = [
            input.shape[2 + i]
            - (
                (grad_output.shape[2 + i] - 1) * stride[i]
                - 2 * padding[i]
                + dilation[i] * (weight.shape[2 + i] - 1)
                + 1
            )
            for i in range(spatial)
        ]
        grad_input = aten.convolution.default(
            grad_output, weight, None, stride, padding, dilation, True, restored, groups
        )
    if output_mask[1]:
        n, channels = input.shape[0], input.shape[1]
        out_channels = weight.shape[0]
        per_group, out_per_group = channels // groups, out_channels // groups
        trailing = list(range(3, 3 + spatial))
        x = aten.view.default(input, [n, groups, per_group, *input.shape[2:]])
        x = aten.permute.default(x, [2, 1, 0, *trailing])
        x = aten.reshape.default(x, [per_group, groups * n, *input.shape[2:]])
        g = aten.view.default(
            grad_output, [n, groups, out_per_group, *grad_output.shape[2:]]
        )
        g = aten.permute.default(g, [1, 2, 0, *trailing])
        g = aten.reshape.default(g, [out_channels, n, *grad_output.shape[2:]])
        correlated = aten.convolution.default(
            x, g, None, dilation, padding, stride, False, [0] * spatial, groups
        )
        grad_weight = aten.permute.default(correlated, [1, 0, *range(2, 2 + spatial)])
        for i in range(spatial):
            grad_weight = aten.slice.Tensor(grad_weight, 2 + i, 0, weight.shape[2 + i])
        grad_weight = aten.clone.default(
            grad_weight, memory_format=torch.contiguous_format
        )
    return grad_input, grad_weight, grad_bias


def _max_pool_backward(spatial: int) -> Any:
    def decomposition(
        grad_output: torch.Tensor,
        self: torch.Tensor,
        kernel_size: Sequence[int],
        stride: Sequence[int],
        padding: Sequence[int],
        dilation: Sequence[int],
        ceil_mode: bool,
        indices: torch.Tensor,
    ) -> torch.Tensor:
        leading = list(self.shape[: self.dim() - spatial])
        flat = math.prod(self.shape[self.dim() - spatial :])
        zeros = aten.zeros.default(
            [*leading, flat], dtype=grad_output.dtype, device=grad_output.device
        )
        grad = aten.scatter_add.default(
            zeros,
            -1,
            aten.reshape.default(indices, [*leading, -1]),
            aten.reshape.default(grad_output, [*leading, -1]),
        )
        return aten.view.default(grad, list(self.shape))

    decomposition.__doc__ = f"""``aten.max_pool{spatial}d_with_indices_backward``:
        each window's gradient added at the input position its max came
        from (`indices`, flat over the last {spatial} dims, as the forward
        saved them); overlapping windows add up."""
    return decomposition


def _attention_scores(
    query: torch.Tensor,
    key: torch.Tensor,
    is_causal: bool,
    attn_mask: torch.Tensor | None,
    scale: float | None,
) -> torch.Tensor:
    """q @ k^T * scale (default 1/sqrt(head size)) [B, H, L, S], with the
    causal mask (key j <= query i) and `attn_mask` (bool: kept where True;
    float: added) applied, as ``scaled_dot_product_attention`` defines."""
    length, source = query.shape[-2], key.shape[-2]
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    scores = aten.mul.Scalar(
        aten.matmul.default(query, aten.transpose.int(key, -2, -1)), scale
    )
    if is_causal:
        keep = aten.tril.default(
            aten.ones.default([length, source], dtype=torch.bool, device=query.device)
        )
        scores = aten.where.ScalarOther(keep, scores, -math.inf)
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = aten.where.ScalarOther(attn_mask, scores, -math.inf)
        else:
            scores = aten.add.Tensor(scores, attn_mask)
    return scores


def _heads_last(x: torch.Tensor) -> torch.Tensor:
    """`x` [B, H, L, D] laid out as the CPU attention kernels lay out their
    outputs, [B, L, H, D] in memory, so that the views a graph takes of
    them (merging H and D after a transpose) stay valid."""
    laid_out = aten.clone.default(
        aten.transpose.int(x, 1, 2), memory_format=torch.contiguous_format
    )
    return aten.transpose.int(laid_out, 1, 2)


def _flash_attention_for_cpu(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    *,
    attn_mask: torch.Tensor | None = None,
    scale: float | None = None,
) -> Any:
    """``aten._scaled_dot_product_flash_attention_for_cpu`` (what
    ``scaled_dot_product_attention`` becomes in a joint graph):
    (output [B, H, L, Dv], logsumexp [B, H, L]) of softmax(q @ k^T * scale
    + mask) @ v, the causal mask keeping key j <= query i. The output is laid
    out as the CPU kernel lays it, [B, L, H, Dv] in memory, so that the
    graph's later views of it stay valid; the backward op reads logsumexp.
    Dropout, and dtypes other than float32/float64 (whose kernel keeps
    float32 statistics), are left to the op (NotImplemented)."""
    if dropout_p != 0.0 or query.dtype not in (torch.float32, torch.float64):
        return NotImplemented
    scores = _attention_scores(query, key, is_causal, attn_mask, scale)
    logsumexp = aten.logsumexp.default(scores, [-1], False)
    probs = aten.exp.default(
        aten.sub.Tensor(scores, aten.unsqueeze.default(logsumexp, -1))
    )
    return _heads_last(aten.matmul.default(probs, value)), logsumexp


def _flash_attention_for_cpu_backward(
    grad_out: torch.Tensor,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    out: torch.Tensor,
    logsumexp: torch.Tensor,
    dropout_p: float,
    is_causal: bool,
    *,
    attn_mask: torch.Tensor | None = None,
    scale: float | None = None,
) -> Any:
    """``aten._scaled_dot_product_flash_attention_for_cpu_backward``: the
    gradients (dq, dk, dv) of attention, the probabilities recomputed from
    the saved logsumexp (P = exp(S - lse)):
    dv = P^T @ dO; dS = P * (dO @ v^T - rowsum(dO * O)); dq = dS @ k *
    scale; dk = dS^T @ q * scale. Masked positions have P = 0, hence no
    gradient. Same limits as the forward (no dropout, float32/float64)."""
    if dropout_p != 0.0 or query.dtype not in (torch.float32, torch.float64):
        return NotImplemented
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    scores = _attention_scores(query, key, is_causal, attn_mask, scale)
    probs = aten.exp.default(
        aten.sub.Tensor(scores, aten.unsqueeze.default(logsumexp, -1))
    )
    grad_value = aten.matmul.default(aten.transpose.int(probs, -2, -1), grad_out)
    grad_probs = aten.matmul.default(grad_out, aten.transpose.int(value, -2, -1))
    row = aten.sum.dim_IntList(aten.mul.Tensor(grad_out, out), [-1], True)
    grad_scores = aten.mul.Tensor(probs, aten.sub.Tensor(grad_probs, row))
    grad_query = aten.mul.Scalar(aten.matmul.default(grad_scores, key), scale)
    grad_key = aten.mul.Scalar(
        aten.matmul.default(aten.transpose.int(grad_scores, -2, -1), query), scale
    )
    return _heads_last(grad_query), _heads_last(grad_key), _heads_last(grad_value)


def _expand(values: Sequence[int], dims: int) -> list[int]:
    """A pooling parameter of one value per spatial dim (one value: all)."""
    values = list(values)
    return values * dims if len(values) == 1 else values


def _avg_pool_backward(dims: int) -> Any:
    """``aten.avg_pool{2,3}d_backward``: each output's gradient divided by
    its window's divisor, then spread back over the window.

    The divisor is `divisor_override`, else the number of the window's
    elements inside the padded input (`count_include_pad`) or inside the
    input: a sum pooling of ones (padded with ones by `padding`, pooled
    without padding, in the first case), cut to the output's sizes, so
    ceil_mode's windows that overhang the end count what they cover, as
    PyTorch's kernel counts. The spreading is the transposed depthwise
    convolution of those quotients with a kernel of ones (stride `stride`,
    no padding), cut at `padding` from the start to the input's sizes (and
    padded with zeros at the end where no window reaches).
    """
    pool = {2: aten.avg_pool2d.default, 3: aten.avg_pool3d.default}[dims]

    def decomposition(
        grad_output: torch.Tensor,
        self: torch.Tensor,
        kernel_size: Sequence[int],
        stride: Sequence[int],
        padding: Sequence[int],
        ceil_mode: bool,
        count_include_pad: bool,
        divisor_override: int | None = None,
    ) -> torch.Tensor:
        if self.numel() == 0:
            return aten.zeros_like.default(self)
        kernel = _expand(kernel_size, dims)
        step = _expand(stride or kernel_size, dims)
        pad = _expand(padding, dims)
        unbatched = self.dim() == dims + 1
        if unbatched:
            grad_output = aten.unsqueeze.default(grad_output, 0)
            self = aten.unsqueeze.default(self, 0)
        out_sizes = list(grad_output.shape[2:])
        if divisor_override:
            scaled = aten.div.Scalar(grad_output, divisor_override)
        else:
            ones = aten.ones_like.default(self)
            if count_include_pad:
                edges = [p for p in reversed(pad) for _ in range(2)]
                ones = aten.constant_pad_nd.default(ones, edges, 1.0)
                counts = pool(ones, kernel, step, [0] * dims, ceil_mode, True, 1)
            else:
                counts = pool(ones, kernel, step, pad, ceil_mode, False, 1)
            for dim, size in enumerate(out_sizes):
                counts = aten.slice.Tensor(counts, dim + 2, 0, size)
            scaled = aten.div.Tensor(grad_output, counts)
        channels = self.shape[1]
        weight = aten.ones.default(
            [channels, 1, *kernel], dtype=grad_output.dtype, device=grad_output.device
        )
        spread = aten.convolution.default(
            scaled,
            weight,
            None,
            step,
            [0] * dims,
            [1] * dims,
            True,
            [0] * dims,
            channels,
        )
        for dim, (size, p) in enumerate(zip(self.shape[2:], pad)):
            have = spread.shape[dim + 2]
            if have < p + size:
                edges = [0, 0] * (dims - 1 - dim) + [0, p + size - have]
                spread = aten.constant_pad_nd.default(spread, edges, 0.0)
            spread = aten.slice.Tensor(spread, dim + 2, p, p + size)
        return aten.squeeze.dim(spread, 0) if unbatched else spread

    return decomposition


def _adaptive_avg_pool_backward(dims: int) -> Any:
    """``aten._adaptive_avg_pool{2,3}d_backward``: along each spatial dim,
    output o averages the inputs [floor(o I / O), ceil((o + 1) I / O)), so
    the gradient is a product with the [O, I] matrix of those windows'
    weights (1 / window length inside the window), built from the static
    sizes in the program, one dim at a time."""

    def decomposition(grad_output: torch.Tensor, self: torch.Tensor) -> torch.Tensor:
        grad = grad_output
        first = grad.dim() - dims
        for dim in range(dims):
            axis = first + dim
            size_in, size_out = self.shape[axis], grad.shape[axis]
            o = aten.arange.default(size_out, dtype=torch.int64)
            i = aten.arange.default(size_in, dtype=torch.int64)
            start = aten.floor_divide.default(aten.mul.Scalar(o, size_in), size_out)
            end = aten.floor_divide.default(
                aten.add.Scalar(aten.mul.Scalar(o, size_in), size_in + size_out - 1),
                size_out,
            )
            inside = aten.logical_and.default(
                aten.ge.Tensor(
                    aten.unsqueeze.default(i, 0), aten.unsqueeze.default(start, 1)
                ),
                aten.lt.Tensor(
                    aten.unsqueeze.default(i, 0), aten.unsqueeze.default(end, 1)
                ),
            )
            length = aten._to_copy.default(
                aten.sub.Tensor(end, start), dtype=grad.dtype
            )
            weights = aten.div.Tensor(
                aten._to_copy.default(inside, dtype=grad.dtype),
                aten.unsqueeze.default(length, 1),
            )
            # grad [..., O, ...] -> [..., I, ...]: the dim moved last, times
            # weights [O, I], moved back.
            moved = aten.movedim.int(grad, axis, -1)
            grad = aten.movedim.int(aten.matmul.default(moved, weights), -1, axis)
        return grad

    return decomposition


def _distance_terms(
    diff: torch.Tensor, dist: torch.Tensor, p: float
) -> torch.Tensor | None:
    """d dist / d x1 for each difference `diff` = x1 - x2 (last dim the
    coordinates) of a p-norm distance `dist` (broadcast against it), as
    PyTorch's CPU kernel defines it (``DistanceOpsKernel.cpp``): 0 for p = 0
    and where dist = 0; sign(diff) for p = 1; sign(diff) |diff|^(p-1) /
    dist^(p-1) for p < 2 (0 where diff = 0 and p < 1); diff / dist for p =
    2; sign(diff) where |diff| = dist for p = inf; diff |diff|^(p-2) /
    dist^(p-1) otherwise. None for p = 0 (no gradient)."""
    if p == 0:
        return None
    sign = aten.sign.default(diff)
    if p == 1:
        return sign
    zero_dist = aten.eq.Scalar(dist, 0.0)
    safe = aten.where.self(zero_dist, aten.ones_like.default(dist), dist)
    if math.isinf(p):
        at_max = aten.eq.Tensor(aten.abs.default(diff), dist)
        return aten.mul.Tensor(sign, aten._to_copy.default(at_max, dtype=diff.dtype))
    if p == 2:
        term = aten.div.Tensor(diff, safe)
    elif p < 2:
        term = aten.div.Tensor(
            aten.mul.Tensor(
                sign, aten.pow.Tensor_Scalar(aten.abs.default(diff), p - 1)
            ),
            aten.pow.Tensor_Scalar(safe, p - 1),
        )
        if p < 1:
            flat = aten.eq.Scalar(diff, 0.0)
            term = aten.where.self(flat, aten.zeros_like.default(term), term)
    else:
        term = aten.div.Tensor(
            aten.mul.Tensor(
                diff, aten.pow.Tensor_Scalar(aten.abs.default(diff), p - 2)
            ),
            aten.pow.Tensor_Scalar(safe, p - 1),
        )
    return aten.where.self(zero_dist, aten.zeros_like.default(term), term)


def _cdist_backward(
    grad: torch.Tensor,
    x1: torch.Tensor,
    x2: torch.Tensor,
    p: float,
    cdist: torch.Tensor,
) -> torch.Tensor:
    """``aten._cdist_backward``: the gradient for x1 [..., P, M] of
    cdist(x1, x2 [..., R, M]) [..., P, R]: sum over R of grad times
    :func:`_distance_terms` of x1_i - x2_j, with the broadcast batch dims
    (x2's gradient is this op with the operands swapped)."""
    if x1.numel() == 0 or x2.numel() == 0:
        return aten.zeros_like.default(x1)  # as eager: x1's own sizes
    diff = aten.sub.Tensor(
        aten.unsqueeze.default(x1, -2), aten.unsqueeze.default(x2, -3)
    )
    terms = _distance_terms(diff, aten.unsqueeze.default(cdist, -1), p)
    if terms is None:
        terms = aten.zeros_like.default(diff)
    weighted = aten.mul.Tensor(terms, aten.unsqueeze.default(grad, -1))
    # [..., P, M], the batch dims broadcast as the forward's (as eager's).
    return aten.sum.dim_IntList(weighted, [-2])


def _pdist_backward(
    grad: torch.Tensor, self: torch.Tensor, p: float, pdist: torch.Tensor
) -> torch.Tensor:
    """``aten._pdist_backward``: the distances of the pairs i < j of the rows
    of `self` [N, M] (row-major) become symmetric [N, N] matrices of grad and
    distance, and the gradient is :func:`_cdist_backward`'s of self with
    itself (each pair's term is odd in x_i - x_j, so row j gets the
    opposite of row i's)."""
    n = self.shape[0]
    if n < 2:
        return aten.zeros_like.default(self)
    pairs = aten.triu_indices.default(n, n, 1)
    rows, cols = aten.select.int(pairs, 0, 0), aten.select.int(pairs, 0, 1)

    def symmetric(values: torch.Tensor) -> torch.Tensor:
        full = aten.zeros.default([n, n], dtype=values.dtype)
        full = aten.index_put.default(full, [rows, cols], values)
        return aten.add.Tensor(full, aten.t.default(full))

    return _cdist_backward(symmetric(grad), self, self, p, symmetric(pdist))


def _masked_scatter_backward(
    grad_output: torch.Tensor, mask: torch.Tensor, sizes: Sequence[int]
) -> torch.Tensor:
    """``aten.masked_scatter_backward``: the gradient of masked_scatter's
    `source` (sizes `sizes`): the k-th masked element of `grad_output` (row
    order) at source position k, zeros past the masked count. Each masked
    element's position is its rank among the masked ones (a cumulative sum
    of the mask); the others go to one extra slot, dropped."""
    total = math.prod(sizes)
    grad = aten.reshape.default(grad_output, [-1])
    flat_mask = aten.reshape.default(
        aten.expand.default(mask, list(grad_output.shape)), [-1]
    )
    rank = aten.sub.Scalar(aten.cumsum.default(flat_mask, 0, dtype=torch.int64), 1)
    slot = aten.where.self(flat_mask, rank, aten.full_like.default(rank, total))
    slot = aten.clamp.default(slot, None, total)
    values = aten.where.self(flat_mask, grad, aten.zeros_like.default(grad))
    out = aten.zeros.default([total + 1], dtype=grad.dtype)
    out = aten.scatter_add.default(out, 0, slot, values)
    return aten.reshape.default(aten.slice.Tensor(out, 0, 0, total), list(sizes))


def _bag_of_each_index(indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """The bag of each index: how many offsets are at or before it, minus
    one (eager's forward leaves offset2bag empty on some paths)."""
    positions = aten.arange.default(indices.shape[0], dtype=offsets.dtype)
    started = aten.le.Tensor(
        aten.unsqueeze.default(offsets, 0), aten.unsqueeze.default(positions, 1)
    )
    return aten.sub.Scalar(aten.sum.dim_IntList(started, [1]), 1)


def _embedding_bag_backward(
    grad: torch.Tensor,
    indices: torch.Tensor,
    offsets: torch.Tensor,
    offset2bag: torch.Tensor,
    bag_size: torch.Tensor,
    maximum_indices: torch.Tensor,
    num_weights: int,
    scale_grad_by_freq: bool,
    mode: int,
    sparse: bool,
    per_sample_weights: torch.Tensor | None,
    padding_idx: int = -1,
) -> Any:
    """``aten._embedding_bag_backward`` (dense): the weight's gradient
    [num_weights, D]. Sum (mode 0) and mean (mode 1): each index's row gets
    its bag's gradient, times its per-sample weight, divided by the bag's
    size for mean; max (mode 2): each bag's gradient goes to the row that
    held the maximum of each column. With scale_grad_by_freq, each row's
    gradient is divided by how often its index occurs; `padding_idx` gets
    none."""
    if sparse:
        return NotImplemented
    width = grad.shape[1]
    if mode == 2:
        rows = aten.reshape.default(maximum_indices, [-1])
        values = aten.reshape.default(grad, [-1, 1])
        columns = aten.repeat.default(
            aten.arange.default(width, dtype=torch.int64), [grad.shape[0]]
        )
        flat = aten.add.Tensor(aten.mul.Scalar(rows, width), columns)
        out = aten.zeros.default([num_weights * width], dtype=grad.dtype)
        out = aten.index_put.default(
            out, [flat], aten.reshape.default(values, [-1]), True
        )
        return aten.reshape.default(out, [num_weights, width])
    bag = _bag_of_each_index(indices, offsets)
    rows = aten.index_select.default(grad, 0, bag)
    if mode == 1:
        sizes = aten.index_select.default(bag_size, 0, bag)
        sizes = aten.clamp.default(aten._to_copy.default(sizes, dtype=grad.dtype), 1)
        rows = aten.div.Tensor(rows, aten.unsqueeze.default(sizes, 1))
    if per_sample_weights is not None:
        rows = aten.mul.Tensor(rows, aten.unsqueeze.default(per_sample_weights, 1))
    if scale_grad_by_freq:
        ones = aten.ones_like.default(indices)
        counts = aten.zeros.default([num_weights], dtype=indices.dtype)
        counts = aten.index_put.default(counts, [indices], ones, True)
        freq = aten.index_select.default(counts, 0, indices)
        rows = aten.div.Tensor(
            rows,
            aten.unsqueeze.default(aten._to_copy.default(freq, dtype=grad.dtype), 1),
        )
    if padding_idx >= 0:
        padded = aten.unsqueeze.default(aten.eq.Scalar(indices, padding_idx), 1)
        rows = aten.where.self(padded, aten.zeros_like.default(rows), rows)
    out = aten.zeros.default([num_weights, width], dtype=grad.dtype)
    return aten.index_put.default(out, [indices], rows, True)


def _embedding_bag_per_sample_weights_backward(
    grad: torch.Tensor,
    weight: torch.Tensor,
    indices: torch.Tensor,
    offsets: torch.Tensor,
    offset2bag: torch.Tensor,
    mode: int,
    padding_idx: int = -1,
) -> Any:
    """``aten._embedding_bag_per_sample_weights_backward`` (mode sum, the
    only one with per-sample weights): for index i of bag b, the dot product
    of the bag's gradient with the embedding row it read; 0 for
    `padding_idx`."""
    if mode != 0:
        return NotImplemented
    bag = _bag_of_each_index(indices, offsets)
    rows = aten.index_select.default(weight, 0, indices)
    bags = aten.index_select.default(grad, 0, bag)
    result = aten.sum.dim_IntList(aten.mul.Tensor(rows, bags), [1])
    if padding_idx >= 0:
        padded = aten.eq.Scalar(indices, padding_idx)
        result = aten.where.self(padded, aten.zeros_like.default(result), result)
    return result


#: Backward op (and forward op of a joint graph) -> decomposition.
BACKWARD_DECOMPOSITIONS: dict[Any, Any] = {
    aten._scaled_dot_product_flash_attention_for_cpu.default: _flash_attention_for_cpu,
    aten._scaled_dot_product_flash_attention_for_cpu_backward.default: (
        _flash_attention_for_cpu_backward
    ),
    aten.convolution_backward.default: _convolution_backward,
    aten.max_pool2d_with_indices_backward.default: _max_pool_backward(2),
    aten.max_pool3d_with_indices_backward.default: _max_pool_backward(3),
    aten.avg_pool2d_backward.default: _avg_pool_backward(2),
    aten.avg_pool3d_backward.default: _avg_pool_backward(3),
    aten._adaptive_avg_pool2d_backward.default: _adaptive_avg_pool_backward(2),
    aten._adaptive_avg_pool3d_backward.default: _adaptive_avg_pool_backward(3),
    aten._cdist_backward.default: _cdist_backward,
    aten._pdist_backward.default: _pdist_backward,
    aten.masked_scatter_backward.default: _masked_scatter_backward,
    aten._embedding_bag_backward.default: _embedding_bag_backward,
    aten._embedding_bag_per_sample_weights_backward.default: (
        _embedding_bag_per_sample_weights_backward
    ),
}
