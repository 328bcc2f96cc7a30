"""Transformer models from Hugging Face ``transformers``, small configs, random weights.

Everything is built offline from a config (no hub downloads): the weights
come from ``transformers``' own initialization under a fixed seed, restored
afterwards so PyTorch's global random state is left as it was.

Each factory returns a :class:`HiddenStates` wrapper whose ``forward(input_ids)``
takes an int64 ``[batch, seq]`` tensor of token ids and returns the float32
``[batch, seq, hidden]`` last hidden state (the base model, no task head):
a single tensor, which is what torch2mlir.compile and the benchmarks compare.
The vision transformer (:func:`vit`) takes float32 ``[batch, 3, H, W]``
images instead (``forward(pixel_values)``) and returns ``[batch, patches + 1,
hidden]``.

``transformers`` is a test dependency (build_tools/requirements/test.in); the
import happens inside the factories so the package imports without it.
"""

from __future__ import annotations

from typing import Any

import torch

#: Token-id range of the small configs (the vocabulary size).
VOCAB = 8192


class HiddenStates(torch.nn.Module):
    """``model(**{input_name: x}).last_hidden_state`` as a module of one
    tensor: token ids (``input_ids``, the default) or images
    (``pixel_values``)."""

    def __init__(self, model: torch.nn.Module, input_name: str = "input_ids") -> None:
        super().__init__()
        self.model = model
        self.input_name = input_name

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(**{self.input_name: x}).last_hidden_state


def _build(
    model_class: Any,
    config: Any,
    seed: int,
    input_name: str = "input_ids",
    **kwargs: Any,
) -> HiddenStates:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = model_class(config, **kwargs)
    return HiddenStates(model, input_name).eval()


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
    *,
    layers: int = 4,
    hidden: int = 256,
    heads: int = 4,
    seed: int = 0,
    attention: str = "eager",
) -> HiddenStates:
    """A GPT-2 decoder (``transformers.GPT2Model``: causal mask, GELU-tanh,
    Conv1D projections; 4 layers, hidden 256, 4 heads by default).

    Args:
        attention: transformers' ``attn_implementation``: ``"eager"`` (the
            benchmarks' GPT-2: matmul, mask, softmax, matmul as separate
            ops) or ``"sdpa"`` (transformers' default:
            ``aten.scaled_dot_product_attention``, which torch2mlir
            decomposes itself; PyTorch's own decomposition of it fails on
            GPT-2 in torch 2.13).
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
    config._attn_implementation = attention
    return _build(transformers.GPT2Model, config, seed)


def t5(
    *, layers: int = 2, hidden: int = 256, heads: int = 4, seed: int = 0
) -> HiddenStates:
    """A T5 v1.1-style encoder (``transformers.T5EncoderModel``: RMS layer
    norms without bias, relative position buckets shared by the layers,
    gated-GELU feed-forward of 4x, no attention scaling; 2 layers, hidden
    256, 4 heads of 64 by default).

    Uses ``attn_implementation="eager"``, like :func:`gpt2`.
    """
    import transformers

    config = transformers.T5Config(
        vocab_size=VOCAB,
        d_model=hidden,
        d_kv=hidden // heads,
        d_ff=4 * hidden,
        num_layers=layers,
        num_heads=heads,
        feed_forward_proj="gated-gelu",
        is_encoder_decoder=False,
    )
    config._attn_implementation = "eager"
    return _build(transformers.T5EncoderModel, config, seed)


def vit(
    *,
    layers: int = 2,
    hidden: int = 256,
    heads: int = 4,
    image_size: int = 64,
    patch_size: int = 8,
    seed: int = 0,
) -> HiddenStates:
    """A vision transformer (``transformers.ViTModel`` without the pooler:
    a strided convolution cuts ``image_size`` x ``image_size`` images into
    patches, a class token and learned position embeddings are added, then
    pre-norm encoder layers with GELU; 2 layers, hidden 256, 4 heads, 64x64
    images of 8x8 patches by default, so 65 tokens).

    Its input is float32 ``[batch, 3, image_size, image_size]``
    (:func:`images`). Uses ``attn_implementation="eager"``, like :func:`gpt2`.
    """
    import transformers

    config = transformers.ViTConfig(
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=4 * hidden,
        image_size=image_size,
        patch_size=patch_size,
    )
    config._attn_implementation = "eager"
    return _build(
        transformers.ViTModel,
        config,
        seed,
        "pixel_values",
        add_pooling_layer=False,
    )


def llama(
    *,
    layers: int = 2,
    hidden: int = 256,
    heads: int = 4,
    kv_heads: int = 2,
    seed: int = 0,
) -> HiddenStates:
    """A LLaMA-style decoder (``transformers.LlamaModel``: RMSNorm, rotary
    position embeddings, causal mask, grouped-query attention with
    ``kv_heads`` key/value heads, SwiGLU feed-forward of 688 = ~8/3 x 256;
    2 layers, hidden 256, 4 heads by default).

    Uses ``attn_implementation="eager"``, like :func:`gpt2`.
    """
    import transformers

    config = transformers.LlamaConfig(
        vocab_size=VOCAB,
        hidden_size=hidden,
        intermediate_size=(8 * hidden // 3 + 15) // 16 * 16,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        max_position_embeddings=512,
        bos_token_id=VOCAB - 2,
        eos_token_id=VOCAB - 1,
    )
    config._attn_implementation = "eager"
    return _build(transformers.LlamaModel, config, seed)


class DecoderStep(torch.nn.Module):
    """One generation step of a decoder with a key/value cache, as tensors.

    ``forward(input_ids, keys, values)``: int64 ``[batch, 1]`` ids of the
    new token; float32 ``keys``/``values`` ``[layers, batch, kv_heads, past,
    head_dim]``, the cache of the ``past`` tokens before it. Returns the
    float32 ``[batch, 1, hidden]`` hidden state of the new token and the
    cache grown by it (``[layers, batch, kv_heads, past + 1, head_dim]``
    each): what a generation loop calls once per token. The cache travels
    as transformers' ``DynamicCache``, built from and flattened back to
    plain tensors.
    """

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(
        self, input_ids: torch.Tensor, keys: torch.Tensor, values: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        import transformers

        cache = transformers.DynamicCache()
        for layer in range(keys.shape[0]):
            cache.update(keys[layer], values[layer], layer)
        out = self.model(input_ids=input_ids, past_key_values=cache, use_cache=True)
        grown = out.past_key_values.layers
        return (
            out.last_hidden_state,
            torch.stack([grown[layer].keys for layer in range(keys.shape[0])]),
            torch.stack([grown[layer].values for layer in range(keys.shape[0])]),
        )


def llama_step(
    *,
    batch: int = 1,
    past: int = 255,
    layers: int = 4,
    hidden: int = 256,
    heads: int = 4,
    kv_heads: int = 2,
    seed: int = 0,
) -> tuple[DecoderStep, tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """A decode step of the :func:`llama` decoder (4 layers here) with a
    ``past``-token key/value cache, and its inputs: ``(model, (input_ids
    [batch, 1], keys, values))`` with the cache ``[layers, batch, kv_heads,
    past, hidden // heads]`` drawn from a fixed seed (see
    :class:`DecoderStep`)."""
    model = DecoderStep(
        llama(
            layers=layers, hidden=hidden, heads=heads, kv_heads=kv_heads, seed=seed
        ).model
    ).eval()
    generator = torch.Generator().manual_seed(seed + 1)
    shape = (layers, batch, kv_heads, past, hidden // heads)
    keys = torch.randn(shape, generator=generator)
    values = torch.randn(shape, generator=generator)
    return model, (token_ids(batch, 1, seed=seed), keys, values)


def mixtral(
    *,
    layers: int = 2,
    hidden: int = 128,
    heads: int = 4,
    kv_heads: int = 2,
    experts: int = 4,
    top_k: int = 2,
    seed: int = 0,
) -> HiddenStates:
    """A mixture-of-experts decoder (``transformers.MixtralModel``: a
    LLaMA-style decoder whose feed-forward is a router that picks the
    ``top_k`` of ``experts`` SwiGLU experts per token, softmax-weighted;
    2 layers, hidden 128, 4 experts, top-2 by default).

    Uses ``attn_implementation="eager"``, like :func:`gpt2`, and
    transformers' default experts implementation (tokens sorted by expert,
    then a grouped matmul: ``transformers::grouped_mm_fallback`` on the
    CPU, which torch2mlir decomposes).
    """
    import transformers

    config = transformers.MixtralConfig(
        vocab_size=VOCAB,
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        num_local_experts=experts,
        num_experts_per_tok=top_k,
        max_position_embeddings=512,
        bos_token_id=VOCAB - 2,
        eos_token_id=VOCAB - 1,
    )
    config._attn_implementation = "eager"
    return _build(transformers.MixtralModel, config, seed)


def images(batch: int, size: int = 64, *, seed: int = 0) -> torch.Tensor:
    """float32 ``[batch, 3, size, size]`` standard-normal images, from a fixed seed."""
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(batch, 3, size, size, generator=generator)


def token_ids(batch: int, seq: int, *, seed: int = 0) -> torch.Tensor:
    """int64 ``[batch, seq]`` token ids in ``[0, VOCAB)``, from a fixed seed."""
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(0, VOCAB, (batch, seq), generator=generator)
