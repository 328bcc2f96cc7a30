"""torch2mlir's own integer contraction ops, as PyTorch custom ops.

PyTorch has an int8 x int8 -> int32 matmul (``aten._int_mm``) but no integer
convolution. :mod:`torch2mlir.fx.quantization` rewrites the quantized
convolutions of a program into ``torch2mlir::int_conv2d``; the torch dialect
defines it (``torch.torch2mlir.int_conv2d``, generated from the schema below
by build_tools/torch_ods_gen.py, which loads this file by path: it imports
only torch) and TorchToLinalg lowers it to ``linalg.conv_2d_nchw_fchw_q``.

The eager implementation is the reference the e2e tests compare with: exact,
as the products and sums of 8-bit integers are exact in float64 (below 2**53).
"""

from __future__ import annotations

import torch

__all__ = ["int_conv2d"]


@torch.library.custom_op("torch2mlir::int_conv2d", mutates_args=())
def int_conv2d(
    input: torch.Tensor,
    input_zero_point: int,
    weight: torch.Tensor,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
) -> torch.Tensor:
    """The 2-D convolution sum((input - input_zero_point) * weight), in int32.

    Args:
        input: [N, C, H, W] int8.
        input_zero_point: the integer `input` holds for 0 (-128..127); the
            padding is filled with it, so padded positions contribute 0.
        weight: [F, C, KH, KW] int8 (symmetric: zero point 0).
        stride, padding, dilation: two ints each, as ``aten.convolution``'s.

    Returns:
        [N, F, OH, OW] int32, with OH = (H + 2 * padding[0] - dilation[0] *
        (KH - 1) - 1) // stride[0] + 1 (and OW likewise), as in PyTorch's
        ``torch.nn.functional.conv2d``.

    Raises:
        ValueError: `input` or `weight` is not a 4-D int8 tensor.
    """
    _check(input, weight)
    pad = (padding[1], padding[1], padding[0], padding[0])
    wide = torch.nn.functional.pad(
        input.to(torch.float64), pad, value=float(input_zero_point)
    )
    out = torch.nn.functional.conv2d(
        wide - input_zero_point,
        weight.to(torch.float64),
        stride=stride,
        dilation=dilation,
    )
    return out.to(torch.int32)


@int_conv2d.register_fake
def _int_conv2d_fake(
    input: torch.Tensor,
    input_zero_point: int,
    weight: torch.Tensor,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
) -> torch.Tensor:
    _check(input, weight)
    sizes = [input.shape[0], weight.shape[0]]
    for d in range(2):
        extent = dilation[d] * (weight.shape[2 + d] - 1) + 1
        sizes.append((input.shape[2 + d] + 2 * padding[d] - extent) // stride[d] + 1)
    return input.new_empty(sizes, dtype=torch.int32)


def _check(input: torch.Tensor, weight: torch.Tensor) -> None:
    if input.dim() != 4 or weight.dim() != 4:
        raise ValueError("torch2mlir::int_conv2d takes 4-D input and weight")
    if input.dtype != torch.int8 or weight.dtype != torch.int8:
        raise ValueError(
            f"torch2mlir::int_conv2d takes int8 input and weight, not "
            f"{input.dtype} and {weight.dtype}"
        )
