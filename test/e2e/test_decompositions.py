"""Ops that survive PyTorch's Core ATen table and that torch2mlir decomposes
(``torch2mlir/fx/decompositions.py``): each compiled with the default
``decompositions="core-aten"`` and compared with eager PyTorch; the random
ones (randint, rand_like, normal, uniform, exponential, multinomial, ...)
by their distribution: Kolmogorov-Smirnov distance to the exact CDF, moments
and chi-square counts, as in test_random.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from harness import Call, import_torch2mlir
from test_random import KS_BOUND, N, _ks_distance, _normal_cdf
from torch import nn

torch2mlir = import_torch2mlir()
aten = torch.ops.aten


def check(fn: Callable[..., Any] | nn.Module, *inputs: Any, **tol: float) -> None:
    """Compiles `fn`, runs it on `inputs` and compares with eager; then on
    inputs of the same shapes with other values (the op is computed, not
    folded)."""
    module = (fn if isinstance(fn, nn.Module) else Call(fn)).eval()
    compiled = torch2mlir.compile(module, inputs, cache=False)
    for args in (inputs, tuple(_other(x) for x in inputs)):
        with torch.no_grad():
            expected = module(*args)
        torch.testing.assert_close(
            compiled(*args), expected, equal_nan=True, check_stride=False, **tol
        )


def _other(x: Any) -> Any:
    if isinstance(x, torch.Tensor) and x.is_floating_point():
        return torch.randn_like(x) * 3
    return x


def randn(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.randn(*shape).to(dtype)


@pytest.fixture(autouse=True)
def _seed() -> None:
    torch.manual_seed(0)


# ---------------------------------------------------------------------------
# Deterministic ops, against eager


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: F.normalize(x, dim=-1),
        lambda x: x.norm(dim=1),
        lambda x: torch.linalg.vector_norm(x, ord=3, dim=(0, 1)),
        lambda x: torch.linalg.vector_norm(x, ord=float("inf")),
        lambda x: x.unfold(1, 3, 2),
        lambda x: torch.var_mean(x, dim=1, correction=0),
        lambda x: torch.exp2(x),
        lambda x: x.cumprod(1),
        lambda x: torch.logcumsumexp(x * 40, 1),
        lambda x: torch.kthvalue(x, 3, dim=1),
        lambda x: torch.kthvalue(x, 2, dim=0, keepdim=True),
    ],
    ids=[
        "normalize",
        "norm",
        "vector_norm_ord3",
        "vector_norm_inf",
        "unfold",
        "var_mean",
        "exp2",
        "cumprod",
        "logcumsumexp_wide_range",
        "kthvalue",
        "kthvalue_keepdim",
    ],
)
def test_unary(fn: Callable[..., Any]) -> None:
    check(fn, randn(5, 7))


def test_cosine_similarity() -> None:
    check(lambda a, b: F.cosine_similarity(a, b), randn(4, 6), randn(4, 6))


@pytest.mark.parametrize("op", [torch.fmax, torch.fmin])
def test_fmax_fmin_ignore_nan(op: Callable[..., Any]) -> None:
    nan = float("nan")
    a = torch.tensor([1.0, nan, 3.0, nan, -0.0])
    b = torch.tensor([2.0, 5.0, nan, nan, 0.0])
    check(op, a, b)
    check(op, torch.tensor([1, 5, -2]), torch.tensor([3.0, nan, -4.0]))
    check(op, torch.tensor([1, 5, -2]), torch.tensor([3, 1, -4]))


def test_exp2_of_integers() -> None:
    check(torch.exp2, torch.tensor([0, 1, 10, -3]))


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.float64, torch.float16, torch.int32]
)
def test_signbit(dtype: torch.dtype) -> None:
    if dtype.is_floating_point:
        x = torch.tensor(
            [1.0, -1.0, 0.0, -0.0, float("inf"), -float("inf")], dtype=dtype
        )
        x = torch.cat([x, -torch.tensor([float("nan")], dtype=dtype)])
    else:
        x = torch.tensor([3, -2, 0], dtype=dtype)
    check(torch.signbit, x)


def test_tril_triu_indices() -> None:
    check(lambda x: x + torch.tril_indices(4, 3, -1).sum(), randn(2))
    check(lambda x: x[tuple(torch.triu_indices(4, 4, 1))], randn(4, 4))


@pytest.mark.parametrize(
    ("shape", "out"),
    [((1, 3, 8, 8), (3, 3)), ((2, 3, 7, 5), (2, 4)), ((3, 6, 6), (6, 1))],
)
def test_adaptive_max_pool2d(shape: tuple[int, ...], out: tuple[int, int]) -> None:
    check(lambda x: F.adaptive_max_pool2d(x, out, return_indices=True), randn(*shape))


@pytest.mark.parametrize(
    ("shape", "out"),
    [((1, 2, 5, 7, 6), (2, 3, 4)), ((3, 4, 4, 9), (4, 1, 2))],
)
def test_adaptive_max_pool3d(shape: tuple[int, ...], out: tuple[int, int, int]) -> None:
    # Overlapping windows of unequal sizes along each dim; unbatched too.
    check(lambda x: F.adaptive_max_pool3d(x, out, return_indices=True), randn(*shape))
    ties = torch.randint(-2, 2, shape).double()  # the first maximum's index
    check(lambda x: F.adaptive_max_pool3d(x, out, return_indices=True), ties)


def test_adaptive_max_pool1d() -> None:
    check(lambda x: F.adaptive_max_pool1d(x, 4, return_indices=True), randn(2, 3, 10))


def test_adaptive_max_pool2d_float64_with_ties() -> None:
    x = torch.randint(-3, 3, (1, 2, 5, 5)).double()  # ties: the first maximum's index
    check(lambda t: F.adaptive_max_pool2d(t, 2, return_indices=True), x)


def test_bilinear() -> None:
    check(nn.Bilinear(6, 5, 3), randn(4, 6), randn(4, 5), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("beta", "alpha"), [(1, 1), (0.5, 2), (0, 1)])
def test_addbmm(beta: float, alpha: float) -> None:
    check(
        lambda m, a, b: torch.addbmm(m, a, b, beta=beta, alpha=alpha),
        randn(3, 5),
        randn(2, 3, 4),
        randn(2, 4, 5),
        rtol=1e-5,
        atol=1e-5,
    )


def test_conv_tbc() -> None:
    check(
        lambda x, w, b: torch.conv_tbc(x, w, b, 1),
        randn(7, 2, 3),
        randn(3, 3, 4),
        randn(4),
        rtol=1e-5,
        atol=1e-5,
    )


@pytest.mark.parametrize(
    ("bins", "low", "high"),
    [(5, -2.0, 2.0), (7, 0.0, 0.0), (4, 1.0, 1.0), (3, -0.5, 0.25)],
)
def test_histc(bins: int, low: float, high: float) -> None:
    x = torch.cat([randn(50), torch.tensor([-2.0, 2.0, 1.0, 0.0])])
    check(lambda t: torch.histc(t, bins=bins, min=low, max=high), x)


def test_rrelu_eval() -> None:
    check(nn.RReLU(0.1, 0.3).eval(), randn(4, 6))


def test_rrelu_training_slopes_lie_between_the_bounds() -> None:
    x = randn(256, 256)
    compiled = torch2mlir.compile(nn.RReLU(0.1, 0.3).train(), (x,), cache=False)
    y = compiled(x)
    negative = x < 0
    torch.testing.assert_close(y[~negative], x[~negative])
    slope = y[negative] / x[negative]
    assert slope.min().item() >= 0.1 - 1e-6 and slope.max().item() <= 0.3 + 1e-6
    assert _ks_distance((slope - 0.1) / 0.2, lambda t: t.clamp(0, 1)) < 3 * KS_BOUND


def test_prims() -> None:
    prims = torch.ops.prims
    x = randn(4, 6)
    check(lambda t: prims.sum(t, [1]), x)
    check(lambda t: prims.prod(t, [0, 1]), x)
    check(lambda t: prims.convert_element_type(t, torch.float64), x)
    check(lambda t: prims.collapse(t, 0, 1), x)
    check(
        lambda t: (
            t
            + prims.iota(
                6, start=2, step=3, dtype=torch.int64, device="cpu", requires_grad=False
            )
        ),
        x,
    )


# ---------------------------------------------------------------------------
# Random ops, by distribution


def _draw(fn: Callable[..., Any], *inputs: torch.Tensor) -> torch.Tensor:
    compiled = torch2mlir.compile(Call(fn), inputs, cache=False)
    return compiled(*inputs)


SIDE = 256  # N = SIDE * SIDE samples


def test_randint_is_uniform_on_its_range() -> None:
    x = torch.zeros(SIDE, SIDE, dtype=torch.int64)
    values = _draw(lambda t: t + torch.randint(-3, 7, (SIDE, SIDE)), x)
    assert values.dtype == torch.int64
    assert values.min().item() == -3 and values.max().item() == 6
    counts = torch.bincount(values.flatten() + 3, minlength=10).double()
    expected = N / 10
    chi2 = ((counts - expected) ** 2 / expected).sum().item()
    assert chi2 < 27.9  # chi-square, 9 degrees of freedom, alpha = 0.001


def test_randint_like_and_high_only() -> None:
    x = torch.zeros(SIDE, SIDE, dtype=torch.int32)
    values = _draw(
        lambda t: torch.randint_like(t, 5) + torch.randint(2, (SIDE, SIDE)), x
    )
    assert values.dtype == torch.int64 or values.dtype == torch.int32
    assert values.min().item() == 0 and values.max().item() == 5


@pytest.mark.parametrize("normal", [False, True])
def test_rand_like_randn_like(normal: bool) -> None:
    x = torch.zeros(SIDE, SIDE, dtype=torch.float64)
    factory = torch.randn_like if normal else torch.rand_like
    values = _draw(lambda t: factory(t), x)
    assert values.dtype == torch.float64
    cdf = _normal_cdf if normal else (lambda t: t.clamp(0, 1))
    assert _ks_distance(values, cdf) < KS_BOUND


def test_normal_overloads() -> None:
    mean = torch.full((SIDE, SIDE), 2.0)
    std = torch.full((SIDE, SIDE), 3.0)
    for fn in (
        lambda m, s: torch.normal(m, 3.0),
        lambda m, s: torch.normal(2.0, s),
        lambda m, s: torch.normal(m, s),
        lambda m, s: m * 0 + torch.normal(2.0, 3.0, (SIDE, SIDE)),
        lambda m, s: (m * 0).normal_(2.0, 3.0),
    ):
        values = _draw(fn, mean, std)
        assert _ks_distance((values - 2) / 3, _normal_cdf) < KS_BOUND


def test_uniform() -> None:
    x = torch.zeros(SIDE, SIDE)
    values = _draw(lambda t: t.clone().uniform_(-2.0, 6.0), x)
    assert values.min().item() >= -2 and values.max().item() < 6
    assert _ks_distance((values - -2.0) / 8, lambda t: t.clamp(0, 1)) < KS_BOUND


@pytest.mark.parametrize(
    ("method", "cdf"),
    [
        (
            lambda t: t.clone().exponential_(2.0),
            lambda x: 1 - torch.exp(-2 * x.clamp(min=0)),
        ),
        (
            lambda t: t.clone().cauchy_(1.0, 2.0),
            lambda x: 0.5 + torch.atan((x - 1) / 2) / math.pi,
        ),
        (
            lambda t: t.clone().log_normal_(0.5, 0.75),
            lambda x: _normal_cdf((torch.log(x.clamp(min=1e-300)) - 0.5) / 0.75),
        ),
    ],
    ids=["exponential", "cauchy", "log_normal"],
)
def test_continuous_distributions(
    method: Callable[..., Any], cdf: Callable[..., Any]
) -> None:
    values = _draw(method, torch.zeros(SIDE, SIDE, dtype=torch.float64))
    assert _ks_distance(values, cdf) < KS_BOUND


def test_geometric() -> None:
    p = 0.3
    values = _draw(lambda t: t.clone().geometric_(p), torch.zeros(SIDE, SIDE))
    assert values.min().item() >= 1
    # P(X = k) = (1 - p)^(k - 1) p for k >= 1; the first 8 values and the tail.
    counts = torch.bincount(values.flatten().long().clamp(max=9), minlength=10)[1:]
    expected = torch.tensor(
        [(1 - p) ** (k - 1) * p for k in range(1, 9)] + [(1 - p) ** 8]
    )
    expected = expected.double() * N
    chi2 = ((counts.double() - expected) ** 2 / expected).sum().item()
    assert chi2 < 26.1  # 8 degrees of freedom, alpha = 0.001


@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial(replacement: bool) -> None:
    weights = torch.tensor([1.0, 2.0, 3.0, 4.0, 0.0])
    rows = torch.stack([weights] * 4096)
    samples = _draw(lambda w: torch.multinomial(w, 2, replacement), rows)
    assert samples.shape == (4096, 2) and samples.dtype == torch.int64
    assert (samples != 4).all()  # zero weight: never drawn
    if not replacement:
        assert (samples[:, 0] != samples[:, 1]).all()
        first = samples[:, 0]
    else:
        first = samples.flatten()
    counts = torch.bincount(first, minlength=5)[:4].double()
    expected = weights[:4].double() / 10 * first.numel()
    chi2 = ((counts - expected) ** 2 / expected).sum().item()
    assert chi2 < 16.3  # 3 degrees of freedom, alpha = 0.001


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_logit_bounds_round_as_the_kernel_does(dtype: torch.dtype) -> None:
    # 1 - x cancels near x = 1 - eps: the clamp bounds must be the kernel's
    # (eps rounded to the dtype, then 1 - eps rounded) to the last bit.
    x = torch.linspace(0.0, 1.0, 2001).to(dtype)
    check(lambda t: torch.logit(t, 0.2), x)
    check(lambda t: torch.logit(t, 1e-3), x)
    check(torch.logit, x[1:-1])


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_instance_norm_half_matches_the_batch_norm_kernel(dtype: torch.dtype) -> None:
    """16-bit instance norm gives eager's bits: statistics in float32, kept
    in the input's dtype as PyTorch's batch-norm kernel keeps them (bfloat16
    also its sum of squared deviations and variance), output in float32
    rounded once."""
    module = nn.InstanceNorm1d(5, affine=True, eps=0.6).to(dtype).eval()
    with torch.no_grad():
        module.weight.normal_()
        module.bias.normal_()
    x = (torch.randn(5, 5, 5) * 3 + 5).to(dtype)
    compiled = torch2mlir.compile(module, (x,), cache=False)
    torch.testing.assert_close(compiled(x), module(x), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize(
    ("shape", "momentum", "eps"),
    [
        ((3, 2, 3, 4), -1.0, 0.5),  # OpInfo's sample: w*(x-mean)*invstd ~ -b
        ((2, 3, 33, 31), 0.1, 1e-5),  # 2046 per channel, not a bfloat16 number
        ((4, 5, 7), 0.3, 1e-3),
        ((6, 4), 0.1, 1e-5),
    ],
)
def test_training_batch_norm_rounds_as_the_kernel_does(
    dtype: torch.dtype, shape: tuple[int, ...], momentum: float, eps: float
) -> None:
    """Training batch norm of bfloat16 gives eager's bits: y and the updated
    running stats. PyTorch's CPU kernel keeps bfloat16 statistics in
    bfloat16 (the mean, the sum of squared deviations, the variance, invstd,
    each step of the running-stat update). float16 keeps only mean and
    invstd in float16; its float32 sums are added in an order that differs
    from ours, so it is held to float16's default tolerance. Large weights
    and biases make y cancel: one ulp of invstd shows as several of y."""
    generator = torch.Generator().manual_seed(7)
    channels = shape[1]

    def draw(*size: int, scale: float = 1.0, shift: float = 0.0) -> torch.Tensor:
        return (torch.randn(size, generator=generator) * scale + shift).to(dtype)

    x = draw(*shape, scale=6.0, shift=3.0)
    w, b = draw(channels, scale=5.0), draw(channels, scale=5.0)
    rm, rv = draw(channels), draw(channels, scale=0.2, shift=1.0)

    def fn(a, m, v, ww, bb):
        y = F.batch_norm(a, m, v, ww, bb, training=True, momentum=momentum, eps=eps)
        return y, m, v

    compiled = torch2mlir.compile(
        Call(fn), (x, rm.clone(), rv.clone(), w, b), cache=False
    )
    torch.testing.assert_close(
        compiled(x, rm.clone(), rv.clone(), w, b),
        fn(x, rm.clone(), rv.clone(), w, b),
        **({"rtol": 0, "atol": 0} if dtype == torch.bfloat16 else {}),
    )


@pytest.mark.parametrize(
    "fn",
    [
        lambda t: torch.sum(t, dim=0),
        lambda t: torch.sum(t, dim=[-1], keepdim=True),
        lambda t: torch.nansum(t, dim=-1),
        lambda t: torch.mean(t, dim=0),
        lambda t: torch.var_mean(t, dim=0, correction=0),
        lambda t: torch.std(t, dim=-1, correction=0),
        lambda t: torch.linalg.vector_norm(t, ord=6, dim=-1),
        lambda t: torch.logsumexp(t, dim=0),
        lambda t: torch.amax(t, dim=-1),
        lambda t: torch.prod(t, dim=0),
    ],
    ids=[
        "sum",
        "sum-keepdim",
        "nansum",
        "mean",
        "var_mean",
        "std",
        "vector_norm",
        "logsumexp",
        "amax",
        "prod",
    ],
)
def test_reductions_of_a_0d_tensor_over_dim_0_or_minus_1(fn) -> None:
    """Eager lets a 0-d tensor reduce over dim 0 or -1 (its one element);
    sum.dim_IntList's lowering and var_mean's decomposition refused it."""
    check(fn, torch.tensor(-2.5))


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    "fn",
    [
        torch.special.erfc,
        lambda x: torch.copysign(x, -x.flip(0)),
        lambda x: torch.copysign(x, -0.0),
        lambda x: torch.ldexp(x, torch.arange(x.shape[-1]) - 3),
        lambda x: torch.hypot(x * 1e30, x.flip(0) * 1e30),
        torch.angle,
        lambda x: torch.dist(x, x.flip(0), 3),
        lambda x: torch.cummax(x, 1),
        lambda x: torch.cummin(x, 0),
        torch.median,
        torch.nanmedian,
        lambda x: torch.median(x, 1),
        lambda x: torch.nanmedian(x, 0, keepdim=True),
        lambda x: torch.nonzero_static(x > 0, size=6),
        lambda x: torch.nonzero_static(x > 0, size=40, fill_value=-7),
    ],
    ids=[
        "erfc",
        "copysign",
        "copysign_scalar",
        "ldexp",
        "hypot_no_overflow",
        "angle",
        "dist",
        "cummax",
        "cummin",
        "median",
        "nanmedian",
        "median_dim",
        "nanmedian_dim",
        "nonzero_static_truncated",
        "nonzero_static_filled",
    ],
)
def test_more_unary(fn: Callable[..., Any]) -> None:
    x = randn(5, 7) * 3
    check(fn, x)
    special = torch.tensor([[1.0, NAN, -2.0, 0.0, -0.0, INF, -INF]] * 2)
    check(fn, torch.cat([x[:3], special]))


def test_cummax_ties_take_the_later_index() -> None:
    check(lambda t: torch.cummax(t, 0), torch.tensor([1, 3, 3, 2, 3, 5]))
    check(lambda t: torch.cummin(t, 0), torch.tensor([1.0, 1.0, NAN, 0.0, NAN]))


def test_addmv_half_rounds_once() -> None:
    # PyTorch's gemv adds beta * self in float32 before rounding: a product
    # of 70000 (inf in float16 alone) plus -60000 is 10000, not inf.
    half = torch.float16
    self, mat = torch.full((2,), -60000.0, dtype=half), torch.full((2, 4), 100.0)
    vec = torch.full((4,), 175.0, dtype=half)
    check(lambda s, m, v: torch.addmv(s, m, v), self, mat.to(half), vec)
    module = Call(lambda s, m, v: torch.addmv(s, m, v))
    compiled = torch2mlir.compile(module, (self, mat.to(half), vec), cache=False)
    assert compiled(self, mat.to(half), vec).tolist() == [10000.0, 10000.0]


def test_addmv_and_integer_scalars() -> None:
    check(
        lambda s, m, v: torch.addmv(s, m, v, beta=0.5, alpha=2),
        randn(5),
        randn(5, 4),
        randn(4),
    )
    ints = (
        torch.randint(-5, 5, (5,)),
        torch.randint(-5, 5, (5, 4)),
        torch.randint(-5, 5, (4,)),
    )
    check(lambda s, m, v: torch.addmv(s, m, v, beta=2, alpha=3), *ints)


@pytest.mark.parametrize("right", [False, True])
def test_bucketize_searchsorted(right: bool) -> None:
    boundaries = torch.tensor([-1.0, 0.0, 0.0, 2.0])
    x = torch.tensor([[-3.0, -1.0, 0.0, 1.0, 2.0, 9.0]])
    check(lambda t: torch.bucketize(t, boundaries, right=right), x)
    # The sorted sequences are constants: check() reruns with other inputs.
    rows = torch.sort(randn(3, 5), dim=1).values
    check(lambda v: torch.searchsorted(rows, v, right=right), randn(3, 4))
    # A sorter sorts the sequence it comes with (PyTorch leaves the result
    # undefined otherwise): computed from the unsorted input.
    check(
        lambda s, v: torch.searchsorted(
            s,
            v,
            sorter=torch.argsort(s),
            side="right" if right else "left",
            out_int32=True,
        ),
        randn(6),
        randn(5),
    )


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce(reduce: str, include_self: bool) -> None:
    index = torch.tensor([0, 2, 0, 1])
    check(
        lambda x, s: x.index_reduce(1, index, s, reduce, include_self=include_self),
        randn(3, 4),
        randn(3, 4),
    )


@pytest.mark.parametrize("accumulate", [False, True])
def test_put(accumulate: bool) -> None:
    # With accumulate, an index may repeat (its sources add up).
    index = (
        torch.tensor([[0, -1], [0, 3]])
        if accumulate
        else torch.tensor([[0, -1], [5, 3]])
    )
    check(lambda x, s: torch.put(x, index, s, accumulate), randn(2, 4), randn(2, 2))


def test_view_copies() -> None:
    x = randn(3, 4)
    check(lambda t: torch.ops.aten.view_copy(t, [4, 3]), x)
    check(lambda t: torch.ops.aten.view_copy.dtype(t, torch.int32), x)
    check(lambda t: torch.ops.aten.permute_copy(t, [1, 0]), x)
    check(lambda t: torch.ops.aten.narrow_copy(t, 1, 1, 2), x)
    check(lambda t: torch.ops.aten.unbind_copy(t, 1), x)
    check(lambda t: torch.ops.aten.as_strided_copy(t, [2, 2], [1, 4], 1), x)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (1, 1), (2, 0, 0)])
def test_det_and_slogdet(shape: tuple[int, ...], dtype: torch.dtype) -> None:
    # det, slogdet and logdet, and the LU factorization and pivots that
    # aten._linalg_det/_linalg_slogdet return beside them: LAPACK's getrf
    # of the transposed matrix, as eager.
    a = randn(*shape, dtype=dtype)
    check(torch.linalg.det, a)
    check(torch.linalg.slogdet, a)
    check(aten._linalg_det, a)
    check(aten._linalg_slogdet, a)
    if a.numel():
        check(torch.logdet, a @ a.mT + torch.eye(shape[-1], dtype=dtype))


def test_det_of_singular_matrices() -> None:
    # A zero pivot leaves its column unscaled: det 0, sign 0, log -inf. The
    # reference is the exact answer, not eager: on a CPU where its LAPACK
    # fuses the elimination's multiply-subtract (AVX512), eager's second
    # pivot of the first matrix is the residue 2/3 * 6 - 4 = -1.2e-7 (det
    # -1.8e-7, sign -1); where it does not, it is 0, as torch2mlir's is.
    singular = torch.tensor(
        [[[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]], [[0.0] * 3] * 3]
    )
    zeros = torch.zeros(2)

    def compiled(fn: Callable[..., Any]) -> Any:
        return torch2mlir.compile(Call(fn), (singular,), cache=False)(singular)

    torch.testing.assert_close(compiled(torch.linalg.det), zeros)
    sign, logabsdet = compiled(torch.linalg.slogdet)
    torch.testing.assert_close(sign, zeros)
    torch.testing.assert_close(logabsdet, torch.full((2,), -math.inf))
    det, lu, pivots = compiled(aten._linalg_det)
    torch.testing.assert_close(det, zeros)
    # LU of the transposed matrices (LAPACK's column-major view of the
    # row-major data, as eager's), with LAPACK's 1-based pivots.
    p, lower, upper = torch.lu_unpack(lu, pivots)
    torch.testing.assert_close(p @ lower @ upper, singular.mT)


@pytest.mark.parametrize(
    "grad_dtype, input_dtype",
    [
        (torch.int64, torch.float32),
        (torch.float32, torch.float32),
        (torch.int32, torch.float64),
    ],
)
def test_threshold_backward_promotes(
    grad_dtype: torch.dtype, input_dtype: torch.dtype
) -> None:
    # The result has the dtype grad and input promote to, as eager's kernel
    # (PyTorch's Python decomposition keeps the gradient's).
    grad = (torch.randn(3, 4) * 10).to(grad_dtype)
    x = torch.randn(3, 4, dtype=input_dtype)
    x[0, 0] = float("nan")
    module = Call(lambda g, t: aten.threshold_backward(g, t, 0.25))
    result = torch2mlir.compile(module, (grad, x), cache=False)(grad, x)
    expected = module(grad, x)
    assert result.dtype == expected.dtype
    torch.testing.assert_close(result, expected, equal_nan=True)


def check_against_float64(fn: Callable[..., Any], *inputs: torch.Tensor) -> None:
    """Compiles `fn`, runs it on `inputs` and compares with eager run on the
    inputs widened to float64, rounded to the result's dtype: for
    decompositions that compute in float64 and round once
    (torch2mlir/fx/special.py), where eager's float32 kernels are the less
    accurate side."""
    module = Call(fn)
    compiled = torch2mlir.compile(module, inputs, cache=False)
    actual = compiled(*inputs)
    expected = module(*(x.double() for x in inputs)).to(actual.dtype)
    torch.testing.assert_close(actual, expected, equal_nan=True)


_GAMMA_EDGES = [0.0, -0.0, -1.0, -2.5, 1.0, 2.0, 0.5, 1e-8, 7.99, 8.0, 30.5, 1e30]
_GAMMA_EDGES += [float("inf"), float("-inf"), float("nan")]


def _gamma_inputs(dtype: torch.dtype) -> torch.Tensor:
    """A grid over [-9, 40] (negative non-integers, the recurrences' shift
    boundary at 8) and the edge values: poles, zeros of lgamma, infinities."""
    grid = torch.linspace(-9.3, 40.0, 97, dtype=torch.float64)
    return torch.cat([grid, torch.tensor(_GAMMA_EDGES, dtype=torch.float64)]).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize(
    "fn",
    [
        torch.lgamma,
        torch.digamma,
        lambda x: torch.polygamma(1, x),
        lambda x: torch.polygamma(2, x),
        lambda x: torch.polygamma(4, x),
        lambda x: torch.mvlgamma(x.abs() + 2, 3),
    ],
    ids=["lgamma", "digamma", "polygamma1", "polygamma2", "polygamma4", "mvlgamma"],
)
def test_gamma_family(fn: Callable[..., Any], dtype: torch.dtype) -> None:
    # Computed in float64 and rounded once (torch2mlir/fx/special.py), so
    # compared with eager's float64 kernel rounded to the dtype: eager's
    # float32 kernels run in float32 (its trigamma is 5e-6 off near the
    # negative poles).
    x = _gamma_inputs(dtype)
    if fn is not torch.lgamma and fn is not torch.digamma:
        # polygamma at the negative integers: eager's float32 trigamma
        # gives sin(pi * x) rounding noise (1e15), not the pole.
        x = x[(x >= 0) | (x != torch.floor(x)) | x.isnan()]
    check_against_float64(fn, x)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_hurwitz_zeta(dtype: torch.dtype) -> None:
    s = torch.tensor([2.0, 2.0, 3.0, 0.5, 1.0, 3.0, 4.5, 10.0, 2.0, 6.0], dtype=dtype)
    q = torch.tensor(
        [0.0, -1.0, -2.5, 1.0, 1.0, float("inf"), 0.3, 2.0, 1e-3, -8.5], dtype=dtype
    )
    grid_s = torch.linspace(1.1, 12.0, 40, dtype=dtype)
    grid_q = torch.linspace(0.05, 25.0, 40, dtype=dtype)
    s, q = torch.cat([s, grid_s]), torch.cat([q, grid_q])
    check_against_float64(torch.special.zeta, s, q)
    module = Call(torch.special.zeta)
    # Integer inputs give float32, as eager.
    n, m = torch.tensor([2, 3, 4]), torch.tensor([1, 2, 3])
    result = torch2mlir.compile(module, (n, m), cache=False)(n, m)
    torch.testing.assert_close(result, module(n, m))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize(
    "fn",
    [
        torch.special.erfcx,
        torch.special.log_ndtr,
        torch.i0,
        torch.special.i0e,
        torch.special.i1,
        torch.special.i1e,
        torch.special.modified_bessel_i0,
        torch.special.modified_bessel_i1,
    ],
    ids=["erfcx", "log_ndtr", "i0", "i0e", "i1", "i1e", "bessel_i0", "bessel_i1"],
)
def test_erfcx_and_modified_bessel(fn: Callable[..., Any], dtype: torch.dtype) -> None:
    # Each side of the switches (erfcx's continued fraction from 3, the
    # Bessel asymptotic expansion from 30), overflow, infinities and NaN;
    # against eager in float64 rounded to the dtype, as test_gamma_family.
    grid = torch.linspace(-60.0, 60.0, 241, dtype=torch.float64)
    edges = [0.0, -0.0, 2.999, 3.0, 29.99, 30.0, -30.0, 95.0, 800.0, -800.0]
    edges += [float("inf"), float("-inf"), float("nan")]
    x = torch.cat([grid, torch.tensor(edges, dtype=torch.float64)]).to(dtype)
    check_against_float64(fn, x)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_erfinv(dtype: torch.dtype) -> None:
    # Both Newton branches (on erf up to 1/2, on erfc above), the tails next
    # to +-1, the poles, outside [-1, 1], signed zeros and NaN.
    grid = torch.linspace(-1.0, 1.0, 401, dtype=torch.float64)
    edges = [0.0, -0.0, 0.5, 0.50001, 1 - 1e-7, -1 + 1e-12, 1.5, -2.0, float("nan")]
    y = torch.cat([grid, torch.tensor(edges, dtype=torch.float64)]).to(dtype)
    check_against_float64(torch.erfinv, y)


_POLYNOMIALS = {
    name: getattr(torch.special, name)
    for name in (
        "chebyshev_polynomial_t",
        "chebyshev_polynomial_u",
        "chebyshev_polynomial_v",
        "chebyshev_polynomial_w",
        "shifted_chebyshev_polynomial_t",
        "shifted_chebyshev_polynomial_u",
        "shifted_chebyshev_polynomial_v",
        "shifted_chebyshev_polynomial_w",
        "hermite_polynomial_h",
        "hermite_polynomial_he",
        "laguerre_polynomial_l",
        "legendre_polynomial_p",
    )
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("name", sorted(_POLYNOMIALS))
def test_orthogonal_polynomials(name: str, dtype: torch.dtype) -> None:
    # Every (x, n) of a grid: x on both sides of +-1 and at the special
    # points (+-1, 0, 1/2 for the shifted ones), n from -2 (zero) through
    # the switch to the trigonometric forms (above 6 or 8) to 12, a
    # fractional n (truncated toward zero: -0.5 is degree 0) and NaN (degree
    # below 0: the result is 0); each element runs its own count of
    # recurrence steps.
    xs = [-2.5, -1.0, -0.97, -0.5, -0.3, 0.0, 1e-3, 0.2, 0.5, 0.7, 0.93, 1.0]
    xs += [1.5, 2.1, 3.0]
    ns = [float(k) for k in range(-2, 13)]
    ns += [2.7, 8.9, 15.0, -0.5, -0.99, float("nan")]
    x = torch.tensor(xs, dtype=dtype).repeat_interleave(len(ns))
    n = torch.tensor(ns, dtype=dtype).repeat(len(xs))
    fn = _POLYNOMIALS[name]
    check(fn, x, n, rtol=1e-5 if dtype == torch.float32 else 1e-12, atol=1e-5)
    # A NaN x gives NaN from degree 1 on. (Eager's scalar loop, which runs
    # on the elements after the last full vector, returns an uninitialized
    # value there; its vectorized loop gives NaN.)
    nan = torch.full((4,), math.nan, dtype=dtype)
    degrees = torch.tensor([0.0, 1.0, 5.0, 9.0], dtype=dtype)
    got = torch2mlir.compile(Call(fn), (nan, degrees), cache=False)(nan, degrees)
    assert got[0] == 1 and got[1:].isnan().all(), got


def test_orthogonal_polynomial_overloads() -> None:
    # An integer n promotes with a float x; a number for x or n; integer x
    # and n give float32, as eager. (float64 x: near a root, a float32
    # polynomial of degree 5 at |x| ~ 3 is all rounding noise.)
    x = torch.linspace(-1.2, 1.2, 25, dtype=torch.float64)
    n = torch.arange(25) % 9
    check(torch.special.chebyshev_polynomial_t, x, n)
    check(lambda x: torch.special.hermite_polynomial_h(x, 5), x)
    check(lambda n: torch.special.legendre_polynomial_p(0.25, n), n)
    check(lambda n: torch.special.shifted_chebyshev_polynomial_u(0.25, n), n)
    check(torch.special.laguerre_polynomial_l, torch.arange(-3, 4), torch.arange(7))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize(
    "fn",
    [
        torch.special.modified_bessel_k0,
        torch.special.modified_bessel_k1,
        torch.special.scaled_modified_bessel_k0,
        torch.special.scaled_modified_bessel_k1,
        torch.special.spherical_bessel_j0,
    ],
    ids=["k0", "k1", "k0e", "k1e", "spherical_j0"],
)
def test_bessel_k_and_spherical_j0(fn: Callable[..., Any], dtype: torch.dtype) -> None:
    # Both sides of the switch from the series to the integral at 2, a
    # tiny x (K_0 ~ -log x), large x (K underflows, the scaled ones do
    # not), 0, +-inf, negative x and NaN.
    grid = torch.linspace(-3.0, 60.0, 253, dtype=torch.float64)
    edges = [0.0, -0.0, 1e-30, 1.999, 2.0, 2.001, 700.0, 1e5]
    edges += [float("inf"), float("-inf"), float("nan")]
    x = torch.cat([grid, torch.tensor(edges, dtype=torch.float64)]).to(dtype)
    check_against_float64(fn, x)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_ndtri(dtype: torch.dtype) -> None:
    # The Newton steps on log erfc reach p = 1e-300 (x = -37.047); 0 and 1
    # give -+inf, outside [0, 1] NaN.
    grid = torch.linspace(0.0, 1.0, 201, dtype=torch.float64)
    edges = [1e-300, 1e-30, 1e-7, 0.5, 1 - 1e-12, -0.1, 1.1, float("nan")]
    p = torch.cat([grid, torch.tensor(edges, dtype=torch.float64)]).to(dtype)
    check_against_float64(torch.special.ndtri, p)


@pytest.mark.parametrize(
    ("fn", "order", "second_kind"),
    [
        (torch.special.bessel_j0, 0, False),
        (torch.special.bessel_j1, 1, False),
        (torch.special.bessel_y0, 0, True),
        (torch.special.bessel_y1, 1, True),
    ],
    ids=["j0", "j1", "y0", "y1"],
)
def test_bessel_j_and_y_against_mpmath(
    fn: Callable[..., Any], order: int, second_kind: bool
) -> None:
    # Eager's float64 kernels are off by up to 3e-7 near some zeros (J_0
    # near 5.52, against mpmath); the reference here is mpmath's. The
    # series up to 12, Hankel's expansion above, and the edges: Y is -inf
    # at 0 and NaN below, both NaN at +-inf.
    mpmath = pytest.importorskip("mpmath")
    grid = torch.linspace(-40.0, 40.0, 321, dtype=torch.float64)
    x = torch.cat([grid, torch.tensor([5.42152806599, 11.999, 12.0, 12.001, 1e4])])
    compiled = torch2mlir.compile(Call(fn), (x,), cache=False)
    got = compiled(x)
    bessel = mpmath.bessely if second_kind else mpmath.besselj
    want = torch.tensor(
        [
            math.nan if second_kind and v <= 0 else float(mpmath.re(bessel(order, v)))
            for v in x.tolist()
        ],
        dtype=torch.float64,
    )
    finite = torch.isfinite(want)
    torch.testing.assert_close(got[finite], want[finite], rtol=1e-9, atol=1e-12)
    edges = torch.tensor(
        [0.0, -1.0, math.inf, -math.inf, math.nan], dtype=torch.float64
    )
    got = torch2mlir.compile(Call(fn), (edges,), cache=False)(edges)
    torch.testing.assert_close(got, fn(edges), equal_nan=True)


@pytest.mark.parametrize(
    "dtype", [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8], ids=str
)
def test_gcd_lcm(dtype: torch.dtype) -> None:
    # Consecutive Fibonacci numbers take the most Euclid steps (Lame's
    # bound, to which the loop is unrolled); zeros, signs, broadcasting.
    info = torch.iinfo(dtype)
    fib = [1, 1]
    while fib[-1] + fib[-2] <= info.max:
        fib.append(fib[-1] + fib[-2])
    a = torch.tensor(fib[1:] + [0, 0, 12, 18, 7], dtype=torch.int64)
    b = torch.tensor(fib[:-1] + [0, 5, 8, 12, 7], dtype=torch.int64)
    if info.min < 0:
        a = torch.cat([a, torch.tensor([-4, 6, -9])])
        b = torch.cat([b, torch.tensor([6, -4, -6])])
    a, b = a.to(dtype), b.to(dtype)
    check(torch.gcd, a, b)
    # lcm's product wraps as C++'s int arithmetic does (in int for 8- and
    # 16-bit dtypes, so that abs comes before the wrap).
    check(torch.lcm, (a % 64).to(dtype), (b % 16).to(dtype))
    check(torch.gcd, a.reshape(-1, 1)[:4], b[:3])


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16], ids=str
)
def test_nextafter_and_frexp(dtype: torch.dtype) -> None:
    # Up and down from positive and negative values, from +-0 (the
    # smallest subnormal with the target's sign), to equal values, NaN,
    # infinities; frexp of subnormals, zeros (signs kept), inf and NaN.
    x = torch.tensor([1.0, 1.0, -1.0, -1.0, 0.0, -0.0, 2.5, math.nan, math.inf, 3.0])
    y = torch.tensor([2.0, 0.0, 0.0, -2.0, -1.0, 1.0, 2.5, 1.0, 0.0, math.nan])
    x, y = x.to(dtype), y.to(dtype)
    compiled = torch2mlir.compile(Call(torch.nextafter), (x, y), cache=False)
    torch.testing.assert_close(
        compiled(x, y), torch.nextafter(x, y), rtol=0, atol=0, equal_nan=True
    )
    tiny = torch.finfo(dtype).tiny
    values = [
        0.0,
        -0.0,
        1.0,
        -3.0,
        0.1,
        1e30,
        tiny,
        tiny / 4,
        -tiny / 64,
        math.inf,
        -math.inf,
        math.nan,
    ]
    v = torch.tensor(values, dtype=torch.float64).to(dtype)
    compiled = torch2mlir.compile(Call(torch.frexp), (v,), cache=False)
    mantissa, exponent = compiled(v)
    want_mantissa, want_exponent = torch.frexp(v)
    torch.testing.assert_close(mantissa, want_mantissa, rtol=0, atol=0, equal_nan=True)
    assert torch.equal(mantissa.signbit(), want_mantissa.signbit())
    assert torch.equal(exponent, want_exponent)


def test_shifts_by_numbers() -> None:
    # The number takes the tensor's dtype: 1 << x of int8, x >> 2, and the
    # operator forms.
    x = torch.tensor([0, 1, 5, 7, -3], dtype=torch.int8)
    check(lambda t: torch.bitwise_left_shift(1, t), x)
    check(lambda t: torch.bitwise_right_shift(t, 2), x)
    check(lambda t: (t << 1, t >> 1, t >> t.abs()), x)


def test_bicubic_uint8_is_refused() -> None:
    x = torch.randint(0, 256, (1, 1, 4, 4), dtype=torch.uint8)
    fn = Call(lambda t: F.interpolate(t, scale_factor=2, mode="bicubic"))
    with pytest.raises(
        torch2mlir.CompileError, match="upsample_bicubic2d of uint8.*Way out"
    ):
        torch2mlir.compile(fn, (x,), cache=False)
    y = torch.randn(1, 1, 4, 4)
    check(fn, y)


def test_airy_ai_against_mpmath() -> None:
    # Eager's float64 Ai is off by up to 3e-6 on [-2.6, -2.1] (against
    # mpmath), where it switches to its asymptotic form; the reference is
    # mpmath's. The series on [-6, 2], the K_1/3 integral above (underflow
    # to 0 by 700), the oscillating expansion below; NaN at +-inf.
    mpmath = pytest.importorskip("mpmath")
    x = torch.cat(
        [
            torch.linspace(-40.0, 40.0, 321, dtype=torch.float64),
            torch.tensor([-6.0001, -6.0, 1.999, 2.0, 2.001, 700.0, -1e4]),
        ]
    )
    got = torch2mlir.compile(Call(torch.special.airy_ai), (x,), cache=False)(x)
    want = torch.tensor(
        [float(mpmath.airyai(v)) for v in x.tolist()], dtype=torch.float64
    )
    torch.testing.assert_close(got, want, rtol=1e-9, atol=1e-12)
    edges = torch.tensor([math.inf, -math.inf, math.nan], dtype=torch.float64)
    got = torch2mlir.compile(Call(torch.special.airy_ai), (edges,), cache=False)(edges)
    assert got.isnan().all()


def test_batch_norm_with_update() -> None:
    # The in-place op updates the running statistics (buffers): the outputs,
    # the saved statistics and the buffers afterwards match eager.
    class Update(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("mean", torch.randn(4))
            self.register_buffer("var", torch.rand(4) + 0.5)

        def forward(self, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> Any:
            out = aten._batch_norm_with_update(x, w, b, self.mean, self.var, 0.3, 1e-3)
            return out[0], out[1], out[2]

    x, w, b = randn(3, 4, 5), randn(4), randn(4)
    eager, compiled_model = Update(), Update()
    compiled_model.load_state_dict(eager.state_dict())
    compiled = torch2mlir.compile(compiled_model, (x, w, b), cache=False)
    for got, want in zip(compiled(x, w, b), eager(x, w, b)):
        torch.testing.assert_close(got, want)
    torch.testing.assert_close(compiled_model.mean, eager.mean)
    torch.testing.assert_close(compiled_model.var, eager.var)


@pytest.mark.parametrize("dtype", [torch.int64, torch.float32, torch.uint8], ids=str)
def test_mode(dtype: torch.dtype) -> None:
    # Ties between values: the smallest; the index: its last occurrence;
    # -0.0 and 0.0 are one value; every dim, keepdim, a single element.
    x = torch.tensor([[3, 1, 3, 1, 2, 2, 5], [7, 7, 1, 1, 1, 7, 0], [4] * 7]).to(dtype)
    check(lambda t: torch.mode(t, 1), x)
    check(lambda t: torch.mode(t, 0, keepdim=True), x)
    check(lambda t: torch.mode(t), torch.randint(0, 3, (2, 4, 5)).to(dtype))
    check(lambda t: torch.mode(t, 0), x[:1, :1])
    if dtype.is_floating_point:
        check(lambda t: torch.mode(t, 1), torch.tensor([[-0.0, 0.0, 1.0, 0.0]]))


@pytest.mark.parametrize("op", [torch.argmax, torch.argmin])
def test_argmax_argmin_nan_ties_infinities(op: Callable[..., Any]) -> None:
    # Rows: ties (the first index wins), NaNs (the first NaN wins over every
    # number), all -inf / +inf (index 0), one long row of random values.
    inf, nan = math.inf, math.nan
    x = torch.tensor(
        [
            [1.0, 3.0, 3.0, -2.0, 1.0, -2.0],
            [1.0, nan, 5.0, nan, -9.0, 2.0],
            [-inf, -inf, -inf, -inf, -inf, -inf],
            [inf, inf, inf, inf, inf, inf],
            [0.0, -0.0, 0.0, -0.0, 0.0, -0.0],
            # -0.0 and 0.0 are one value: the first zero of either sign.
            [-1.0, -0.0, 0.0, -0.0, 0.0, -1.0],
        ]
    )
    for dim in (0, 1, -1):
        check(lambda t, d=dim: op(t, d), x)
        check(lambda t, d=dim: op(t, d, keepdim=True), x)
    check(lambda t: op(t), x)
    check(lambda t: op(t, 1), randn(64, 1000))
    check(lambda t: op(t), torch.tensor([[1.0, 2.0], [nan, 4.0]]))
    ints = torch.tensor([[3, 7, 7, -1], [-5, -5, 2, 2]], dtype=torch.int64)
    check(lambda t: op(t, 1), ints)
    check(lambda t: op(t, 0), ints.to(torch.uint8))
    check(lambda t: op(t, 1), torch.tensor([[1.0, 2.0, 2.0]], dtype=torch.float16))
