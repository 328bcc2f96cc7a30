"""Transformer models from Hugging Face ``transformers``, small configs, random weights.

Everything is built offline from a config (no hub downloads): the weights
come from ``transformers``' own initialization under a fixed seed, restored
afterwards so PyTorch's global random state is left as it was.

Each factory returns a :class:`HiddenStates` wrapper whose ``forward(input_ids)``
takes an int64 ``[batch, seq]`` tensor of token ids and returns the float32
``[batch, seq, hidden]`` last hidden state (the base model, no task head):
a single tensor, which is what torch2mlir.compile and the benchmarks compare.

``transformers`` is a test dependency (build_tools/requirements/test.in); the
import happens inside the factories so the package imports without it.
"""

from __future__ import annotations

from typing import Any

import torch

#: Token-id range of the small configs (the vocabulary size).
VOCAB = 8192


class HiddenStates(torch.nn.Module):
    """``model(input_ids=ids).last_hidden_state`` as a module of one tensor."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=input_ids).last_hidden_state


def _build(model_class: Any, config: Any, seed: int) -> HiddenStates:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = model_class(config)
    return HiddenStates(model).eval()


def bert(
    *, layers: int = 4, hidden: int = 256, heads: int = 4, seed: int = 0
) -> HiddenStates:
    """A BERT encoder (``transformers.BertModel``; BERT-mini sized by default:
    4 layers, hidden 256, 4 heads, FFN 4x), scaled-dot-product attention."""
    import transformers

    config = transformers.BertConfig(
        vocab_size=VOCAB,
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=4 * hidden,
        max_position_embeddings=512,
    )
    return _build(transformers.BertModel, config, seed)


def gpt2(
    *, layers: int = 4, hidden: int = 256, heads: int = 4, seed: int = 0
) -> HiddenStates:
    """A GPT-2 decoder (``transformers.GPT2Model``: causal mask, GELU-tanh,
    Conv1D projections; 4 layers, hidden 256, 4 heads by default).

    Uses ``attn_implementation="eager"``: with the "sdpa" attention,
    ``ExportedProgram.run_decompositions()`` of torch 2.13.0 fails on GPT-2
    (it derives non-viewable strides for the attention output and raises
    "Cannot view a tensor ..."), in PyTorch, before torch2mlir sees the graph.
    """
    import transformers

    config = transformers.GPT2Config(
        vocab_size=VOCAB,
        n_embd=hidden,
        n_layer=layers,
        n_head=heads,
        n_positions=512,
        bos_token_id=VOCAB - 1,
        eos_token_id=VOCAB - 1,
    )
    config._attn_implementation = "eager"
    return _build(transformers.GPT2Model, config, seed)


def token_ids(batch: int, seq: int, *, seed: int = 0) -> torch.Tensor:
    """int64 ``[batch, seq]`` token ids in ``[0, VOCAB)``, from a fixed seed."""
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(0, VOCAB, (batch, seq), generator=generator)
