"""Random ops: rand, randn, randperm and native_dropout (dropout in training).

Their numbers come from a counter-based generator (SplitMix64 at the element
index, under a key per op execution; see TorchToLinalg/Random.cpp), not from
eager PyTorch's mt19937 stream, so these tests check distributions, not
values: Kolmogorov-Smirnov distances against the uniform and normal CDFs,
moments, chi-square counts, and the exact relations between dropout's
output, mask and input. The seed of each call is drawn from PyTorch's
default generator, so every test seeds it and is deterministic.
"""

from __future__ import annotations

import math

import pytest
import torch
from harness import import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()

#: Samples per distribution test; the KS bound below is for this many.
N = 1 << 16
#: Kolmogorov-Smirnov critical distance at alpha = 0.001.
KS_BOUND = 1.95 / math.sqrt(N)


def _ks_distance(samples: torch.Tensor, cdf) -> float:
    """sup |F_n(x) - F(x)| of the samples against the CDF `cdf`."""
    x, _ = samples.double().flatten().sort()
    n = x.numel()
    f = cdf(x)
    above = torch.arange(1, n + 1, dtype=torch.float64) / n - f
    below = f - torch.arange(0, n, dtype=torch.float64) / n
    return max(above.max().item(), below.max().item())


def _normal_cdf(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * (1 + torch.erf(x / math.sqrt(2)))


def _as_list(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


class Rand(nn.Module):
    def __init__(self, dtype: torch.dtype, normal: bool = False) -> None:
        super().__init__()
        self.dtype, self.normal = dtype, normal

    def forward(self, x: torch.Tensor):
        factory = torch.randn if self.normal else torch.rand
        return factory(256, 256, dtype=self.dtype) + x


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16]
)
def test_rand_is_uniform(dtype: torch.dtype) -> None:
    torch.manual_seed(0)
    x = torch.zeros((), dtype=dtype)
    compiled = torch2mlir.compile(Rand(dtype), (x,), cache=False)
    (u,) = _as_list(compiled(x))
    assert u.dtype == dtype and u.shape == (256, 256)
    assert u.min().item() >= 0 and u.max().item() < 1
    # The narrow types have 2^8 (bf16) or 2^11 (f16) values in [0, 1): the
    # empirical CDF is a staircase with steps up to that resolution.
    resolution = {torch.float16: 2.0**-11, torch.bfloat16: 2.0**-8}.get(dtype, 0)
    assert _ks_distance(u, lambda t: t.clamp(0, 1)) < KS_BOUND + resolution
    assert abs(u.double().mean().item() - 0.5) < 5 * math.sqrt(1 / 12 / N)
    assert abs(u.double().var().item() - 1 / 12) < 2e-3


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_randn_is_normal(dtype: torch.dtype) -> None:
    torch.manual_seed(1)
    x = torch.zeros((), dtype=dtype)
    compiled = torch2mlir.compile(Rand(dtype, normal=True), (x,), cache=False)
    (z,) = _as_list(compiled(x))
    assert z.dtype == dtype and torch.isfinite(z).all()
    assert _ks_distance(z, _normal_cdf) < KS_BOUND
    assert abs(z.double().mean().item()) < 5 / math.sqrt(N)
    assert abs(z.double().std().item() - 1) < 0.02
    # Tails: the fraction beyond 3 sigma is 0.27%.
    beyond = (z.abs() > 3).double().mean().item()
    assert 0.0015 < beyond < 0.004


def test_calls_draw_new_numbers_and_follow_manual_seed() -> None:
    x = torch.zeros(())
    compiled = torch2mlir.compile(Rand(torch.float32), (x,), cache=False)
    torch.manual_seed(123)
    (first,) = _as_list(compiled(x))
    (second,) = _as_list(compiled(x))
    assert not torch.equal(first, second)
    torch.manual_seed(123)
    (again,) = _as_list(compiled(x))
    torch.testing.assert_close(again, first, rtol=0, atol=0)


class TwoDraws(nn.Module):
    def forward(self, x: torch.Tensor):
        return torch.rand(N, dtype=x.dtype) + x, torch.rand(N, dtype=x.dtype) + x


def test_two_ops_in_one_program_are_independent() -> None:
    torch.manual_seed(2)
    x = torch.zeros(())
    a, b = _as_list(torch2mlir.compile(TwoDraws(), (x,), cache=False)(x))
    assert not torch.equal(a, b)
    correlation = torch.corrcoef(torch.stack([a, b]).double())[0, 1].item()
    assert abs(correlation) < 5 / math.sqrt(N)


class RandLike(nn.Module):
    def forward(self, x: torch.Tensor):
        return torch.rand(x.shape[0], 8) + 0 * x


def test_rand_with_a_dynamic_size() -> None:
    torch.manual_seed(3)
    batch = torch.export.Dim("batch", min=1, max=4096)
    x = torch.zeros(16, 8)
    compiled = torch2mlir.compile(
        RandLike(), (x,), dynamic_shapes=({0: batch},), cache=False
    )
    for rows in (1, 5, 4096):
        (u,) = _as_list(compiled(torch.zeros(rows, 8)))
        assert u.shape == (rows, 8)
        assert u.min().item() >= 0 and u.max().item() < 1
    assert abs(u.double().mean().item() - 0.5) < 5 * math.sqrt(1 / 12 / u.numel())


class Randperm(nn.Module):
    def __init__(self, n: int, dtype: torch.dtype) -> None:
        super().__init__()
        self.n, self.dtype = n, dtype

    def forward(self, x: torch.Tensor):
        return torch.randperm(self.n, dtype=self.dtype) + x


@pytest.mark.parametrize(
    ("n", "dtype"),
    [
        (1, torch.int64),
        (2, torch.int64),
        (1000, torch.int64),
        (257, torch.int32),
        (100, torch.float32),
    ],
)
def test_randperm_is_a_permutation(n: int, dtype: torch.dtype) -> None:
    torch.manual_seed(4)
    x = torch.zeros((), dtype=dtype)
    compiled = torch2mlir.compile(Randperm(n, dtype), (x,), cache=False)
    (p,) = _as_list(compiled(x))
    assert p.dtype == dtype and p.shape == (n,)
    torch.testing.assert_close(p.sort().values, torch.arange(n, dtype=dtype))
    if n > 2:
        (q,) = _as_list(compiled(x))
        assert not torch.equal(p, q)


def test_randperm_is_uniform() -> None:
    """Where element 0 lands, over 3000 shuffles of 6: chi-square with 5
    degrees of freedom below its 0.001 critical value (20.5)."""
    torch.manual_seed(5)
    x = torch.zeros((), dtype=torch.int64)
    compiled = torch2mlir.compile(Randperm(6, torch.int64), (x,), cache=False)
    counts = torch.zeros(6)
    calls = 3000
    for _ in range(calls):
        (p,) = _as_list(compiled(x))
        counts[(p == 0).nonzero().item()] += 1
    expected = calls / 6
    chi2 = ((counts - expected) ** 2 / expected).sum().item()
    assert chi2 < 20.5, counts


class Dropout(nn.Module):
    def __init__(self, p: float, train: bool | None) -> None:
        super().__init__()
        self.p, self.train_ = p, train

    def forward(self, x: torch.Tensor):
        return torch.ops.aten.native_dropout(x, self.p, self.train_)


@pytest.mark.parametrize("p", [0.0, 0.2, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_native_dropout_in_training(p: float, dtype: torch.dtype) -> None:
    torch.manual_seed(6)
    x = torch.randn(128, 512, dtype=dtype)
    compiled = torch2mlir.compile(Dropout(p, True), (x,), cache=False)
    output, mask = _as_list(compiled(x))
    assert mask.dtype == torch.bool and output.dtype == dtype
    kept = mask.double().mean().item()
    assert abs(kept - (1 - p)) < 5 * math.sqrt(p * (1 - p) / x.numel()) + 1e-12
    # PyTorch's CPU kernel: output = input * mask * scale, scale = 1/(1-p)
    # (0 when p = 1).
    scale = 0.0 if p == 1 else 1 / (1 - p)
    torch.testing.assert_close(output, x * mask.to(dtype) * scale)


@pytest.mark.parametrize("train", [False, None])
def test_native_dropout_train_flag(train: bool | None) -> None:
    torch.manual_seed(7)
    x = torch.randn(64, 64)
    compiled = torch2mlir.compile(Dropout(0.5, train), (x,), cache=False)
    output, mask = _as_list(compiled(x))
    eager_output, eager_mask = torch.ops.aten.native_dropout(x, 0.5, train)
    if train is False:  # evaluation: identity, everything kept
        torch.testing.assert_close(output, eager_output, rtol=0, atol=0)
        assert mask.all() and eager_mask.all()
    else:  # None means training, as in eager
        assert abs(mask.double().mean().item() - 0.5) < 0.05
        assert 0.45 < eager_mask.double().mean().item() < 0.55


class TrainingMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(256, 256)
        self.drop = nn.Dropout(0.25)

    def forward(self, x: torch.Tensor):
        return self.drop(torch.relu(self.fc(x)))


def test_nn_dropout_in_training_mode() -> None:
    torch.manual_seed(8)
    model = TrainingMLP().train()
    x = torch.randn(64, 256)
    (y,) = _as_list(torch2mlir.compile(model, (x,), cache=False)(x))
    hidden = torch.relu(model.fc(x))
    # Every element is dropped (0) or scaled by 1/(1-p).
    kept = y != 0
    torch.testing.assert_close(y[kept], hidden[kept] / 0.75)
    fraction = kept.double().mean().item() / (hidden != 0).double().mean().item()
    assert abs(fraction - 0.75) < 0.03
