"""The runtime's caching allocator (compiler/lib/RefBackend/Runtime/
Allocator.cpp): the buffers of compiled code and of its kernels come from
it, large freed blocks are kept and handed out again, so a steady state of
calls maps no new memory; results that the code allocates are freed through
it when torch drops them."""

from __future__ import annotations

import torch
from harness import import_torch2mlir
from torch import nn

torch2mlir = import_torch2mlir()
from torch2mlir.runtime import refbackend


class Temporaries(nn.Module):
    """Two large intermediates (1 MiB each for [512, 512] float32) and a
    convolution (its im2col columns are kernel scratch)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3)

    def forward(self, x: torch.Tensor, image: torch.Tensor):
        y = torch.tanh(x) * 2.0
        z = torch.softmax(y, dim=-1) + y
        return z.sum(dim=0), self.conv(image)


def test_steady_state_reuses_cached_blocks() -> None:
    torch.manual_seed(0)
    model = Temporaries().eval()
    args = (torch.randn(512, 512), torch.randn(2, 4, 96, 96))
    compiled = torch2mlir.compile(model, args, cache=False)
    refbackend.release_cached_buffers()
    assert refbackend.cached_bytes() == 0
    with torch.no_grad():
        expected = model(*args)
    first = compiled(*args)
    after_first = refbackend.cached_bytes()
    assert after_first >= 512 * 512 * 4, "the large temporaries were not kept"
    for _ in range(20):
        got = compiled(*args)
    # Every later call found its blocks in the cache: nothing new was kept.
    assert refbackend.cached_bytes() == after_first
    for result in (first, got):
        for a, b in zip(result, expected):
            torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)
    refbackend.release_cached_buffers()
    assert refbackend.cached_bytes() == 0


class Positives(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nonzero(x > 0)


def test_code_allocated_results_return_to_the_cache() -> None:
    # nonzero's result size depends on the data: the code allocates it.
    compiled = torch2mlir.compile(Positives(), (torch.randn(256, 256),), cache=False)
    x = torch.ones(256, 256)
    refbackend.release_cached_buffers()
    result = compiled(x)
    torch.testing.assert_close(result, torch.nonzero(x > 0))
    held = refbackend.cached_bytes()
    # [65536, 2] int64: 1 MiB, held by the tensor until it is dropped.
    del result
    assert refbackend.cached_bytes() >= held + 65536 * 2 * 8
    refbackend.release_cached_buffers()
