"""float8 matrix products as float32 GEMMs.

float8 tensors are storage dtypes in torch2mlir, as on PyTorch's CPU: the
values convert exactly to float32 (``refbackend-expand-small-floats``), and
the products run as float32 matrix products. ``aten._scaled_mm`` and
``aten._scaled_mm_v2`` (the float8 GEMMs of ``torch._scaled_mm`` and
torchao's float8 training) decompose into what PyTorch's CPU kernel
computes (``_scaled_mm_out_cpu_emulated``, ATen ``native/Blas.cpp``):
``(float(a) * scale_a) @ (float(b) * scale_b) + bias``, divided by
``scale_result`` for a float8 result, rounded once to ``out_dtype`` as
``.to(out_dtype)`` rounds (saturating for float8_e4m3fn). On CPUs with AMX,
eager runs oneDNN's float8 GEMM instead, which overflows to NaN: results
beyond the float8 range then differ from eager's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

__all__ = ["FLOAT8_DECOMPOSITIONS"]

aten = torch.ops.aten

#: torch.nn.functional's ``ScalingType`` (tensor-wise, row-wise) and
#: ``SwizzleType.NO_SWIZZLE`` values in ``_scaled_mm_v2``'s int lists.
_TENSOR_WISE, _ROW_WISE, _NO_SWIZZLE = 0, 1, 0

_FLOAT8 = (
    torch.float8_e4m3fn,
    torch.float8_e5m2,
    torch.float8_e4m3fnuz,
    torch.float8_e5m2fnuz,
)


def _scaled_product(
    a: torch.Tensor,
    b: torch.Tensor,
    scale_a: torch.Tensor,
    scale_b: torch.Tensor,
    bias: torch.Tensor | None,
    scale_result: torch.Tensor | None,
    out_dtype: torch.dtype | None,
) -> torch.Tensor:
    """The scaled float32 product of float8 `a` [M, K] and `b` [K, N]; the
    scales broadcast against them (a 0-d/[1] scale, or [M, 1] and [1, N]
    row-wise ones)."""
    out_dtype = out_dtype or a.dtype
    a32 = aten.mul.Tensor(aten._to_copy.default(a, dtype=torch.float32), scale_a)
    b32 = aten.mul.Tensor(aten._to_copy.default(b, dtype=torch.float32), scale_b)
    out = aten.mm.default(a32, b32)
    if bias is not None:
        out = aten.add.Tensor(out, bias)
    if scale_result is not None and out_dtype in _FLOAT8:
        out = aten.div.Tensor(out, scale_result)
    return aten._to_copy.default(out, dtype=out_dtype)


def _scaled_mm(
    self: torch.Tensor,
    mat2: torch.Tensor,
    scale_a: torch.Tensor,
    scale_b: torch.Tensor,
    bias: torch.Tensor | None = None,
    scale_result: torch.Tensor | None = None,
    out_dtype: torch.dtype | None = None,
    use_fast_accum: bool = False,
) -> torch.Tensor:
    """``aten._scaled_mm``: self [M, K] and mat2 [K, N] float8, per-tensor
    (0-d) or row-wise ([M, 1], [1, N]) float32 scales; ``use_fast_accum``
    changes nothing on the CPU."""
    del use_fast_accum
    return _scaled_product(self, mat2, scale_a, scale_b, bias, scale_result, out_dtype)


def _scaled_mm_v2(
    self: torch.Tensor,
    mat2: torch.Tensor,
    scale_a: list[torch.Tensor],
    recipe_a: list[int],
    swizzle_a: list[int],
    scale_b: list[torch.Tensor],
    recipe_b: list[int],
    swizzle_b: list[int],
    bias: torch.Tensor | None = None,
    out_dtype: torch.dtype | None = None,
    contraction_dim: list[int] | tuple[int, ...] = (),
    use_fast_accum: bool = False,
) -> Any:
    """``aten._scaled_mm_v2`` with one tensor-wise or row-wise scale per
    operand, unswizzled, contracting the last dim of ``self`` with the first
    of ``mat2``; other recipes (block-wise, MX) are left to fail as ops
    torch2mlir does not define."""
    del use_fast_accum
    plain = (
        len(scale_a) == len(scale_b) == 1
        and list(recipe_a) in ([_TENSOR_WISE], [_ROW_WISE])
        and list(recipe_b) in ([_TENSOR_WISE], [_ROW_WISE])
        and list(swizzle_a) == list(swizzle_b) == [_NO_SWIZZLE]
        and not contraction_dim
    )
    if not plain:
        return NotImplemented
    return _scaled_product(self, mat2, scale_a[0], scale_b[0], bias, None, out_dtype)


#: The float8 GEMMs, decomposed before import.
FLOAT8_DECOMPOSITIONS: dict[torch._ops.OperatorBase, Callable[..., Any]] = {
    aten._scaled_mm.default: _scaled_mm,
    aten._scaled_mm_v2.default: _scaled_mm_v2,
}
