"""Model catalog: architectures of well-known models, and plausible shapes.

Each entry is copied from the model's published configuration (Hugging Face
``config.json`` or paper table, cited per entry).  A known name fills in the
architecture; a bare parameter count gets a plausible decoder shape from
:func:`shape_from_params`.

``max_context`` is the positions a model was trained for: the config's
``max_position_embeddings`` (``n_positions`` for GPT-2; GPT-3's ``n_ctx``, Table 2.1);
``None`` where the entry has none checked (T5's relative positions have no hard limit).

References
----------
.. [1] J. Kaplan et al., "Scaling Laws for Neural Language Models",
       arXiv 2001.08361 (2020): N ~= 12 * n_layer * d_model^2.
.. [2] Llama 2/3 Hugging Face configs (meta-llama/*, config.json).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .assumptions import whole
from .parameter_count import ModelShape


@dataclass(frozen=True)
class ModelSpec(ModelShape):
    """Architecture of one model: its shape (:class:`ModelShape`) and published counts.
    Parameters in [parameters]."""

    name: str
    family: str
    architecture: str  # "dense" | "moe"
    total_params: float
    active_params: float
    experts: int | None
    experts_per_token: int | None
    source: str
    aliases: tuple[str, ...] = ()
    max_context: int | None = None  # [tokens] positions it was trained for; None: not known
    # [nodes] node-limited routing: each token's experts lie on at most this many nodes
    # (DeepSeek-V3, arXiv 2412.19437, sec. 2.1.2: M = 4); None: routing sees every node
    routed_node_limit: int | None = None


def _m(
    name: str,
    family: str,
    total: float,
    layers: int,
    hidden: int,
    heads: int,
    kv: int,
    ffn: int,
    vocab: int,
    source: str,
    *,
    active: float | None = None,
    experts: int | None = None,
    top_k: int | None = None,
    aliases: tuple[str, ...] = (),
    context: int | None = None,
    node_limit: int | None = None,
) -> ModelSpec:
    return ModelSpec(
        name=name,
        family=family,
        architecture="moe" if experts else "dense",
        total_params=total,
        active_params=active if active is not None else total,
        layers=layers,
        hidden_size=hidden,
        attention_heads=heads,
        kv_heads=kv,
        ffn_hidden_size=ffn,
        vocab_size=vocab,
        experts=experts,
        experts_per_token=top_k,
        source=source,
        aliases=aliases,
        max_context=context,
        routed_node_limit=node_limit,
    )


_HF = "Hugging Face config.json of "
MODEL_CATALOG: tuple[ModelSpec, ...] = (
    _m(
        "GPT-2",
        "GPT-2",
        124e6,
        12,
        768,
        12,
        12,
        3072,
        50257,
        _HF + "openai-community/gpt2",
        aliases=("gpt2", "gpt-2 small", "gpt-2 124m"),
        context=1024,
    ),
    _m(
        "GPT-2 XL",
        "GPT-2",
        1.56e9,
        48,
        1600,
        25,
        25,
        6400,
        50257,
        _HF + "openai-community/gpt2-xl",
        aliases=("gpt2-xl", "gpt-2 1.5b"),
        context=1024,
    ),
    _m(
        "GPT-3 175B",
        "GPT-3",
        174.6e9,
        96,
        12288,
        96,
        96,
        49152,
        50257,
        "Brown et al., arXiv 2005.14165, Table 2.1",
        aliases=("gpt-3", "gpt3"),
        context=2048,
    ),
    _m(
        "BERT base",
        "BERT",
        110e6,
        12,
        768,
        12,
        12,
        3072,
        30522,
        _HF + "google-bert/bert-base-uncased",
        aliases=("bert-base", "bert"),
        context=512,
    ),
    _m(
        "BERT large",
        "BERT",
        340e6,
        24,
        1024,
        16,
        16,
        4096,
        30522,
        _HF + "google-bert/bert-large-uncased",
        aliases=("bert-large",),
        context=512,
    ),
    _m(
        "T5 base",
        "T5",
        223e6,
        24,
        768,
        12,
        12,
        3072,
        32128,
        _HF + "google-t5/t5-base (12 encoder + 12 decoder layers)",
        aliases=("t5-base",),
    ),
    _m(
        "T5 large",
        "T5",
        738e6,
        48,
        1024,
        16,
        16,
        4096,
        32128,
        _HF + "google-t5/t5-large (24 + 24 layers)",
        aliases=("t5-large",),
    ),
    _m(
        "Llama 2 7B",
        "Llama 2",
        6.74e9,
        32,
        4096,
        32,
        32,
        11008,
        32000,
        _HF + "meta-llama/Llama-2-7b-hf",
        aliases=("llama-2-7b", "llama2 7b"),
        context=4096,
    ),
    _m(
        "Llama 2 13B",
        "Llama 2",
        13.0e9,
        40,
        5120,
        40,
        40,
        13824,
        32000,
        _HF + "meta-llama/Llama-2-13b-hf",
        aliases=("llama-2-13b", "llama2 13b"),
        context=4096,
    ),
    _m(
        "Llama 2 70B",
        "Llama 2",
        68.98e9,
        80,
        8192,
        64,
        8,
        28672,
        32000,
        _HF + "meta-llama/Llama-2-70b-hf",
        aliases=("llama-2-70b", "llama2 70b"),
        context=4096,
    ),
    _m(
        "Llama 3 8B",
        "Llama 3",
        8.03e9,
        32,
        4096,
        32,
        8,
        14336,
        128256,
        _HF + "meta-llama/Meta-Llama-3-8B",
        aliases=("llama-3-8b", "meta-llama-3-8b", "llama3 8b"),
        context=8192,
    ),
    _m(
        "Llama 3 70B",
        "Llama 3",
        70.55e9,
        80,
        8192,
        64,
        8,
        28672,
        128256,
        _HF + "meta-llama/Meta-Llama-3-70B",
        aliases=("llama-3-70b", "meta-llama-3-70b", "llama3 70b"),
        context=8192,
    ),
    _m(
        "Llama 3.1 8B",
        "Llama 3.1",
        8.03e9,
        32,
        4096,
        32,
        8,
        14336,
        128256,
        _HF + "meta-llama/Llama-3.1-8B",
        aliases=("llama-3.1-8b", "meta-llama-3.1-8b", "llama 3.1 8b instruct"),
        context=131072,
    ),
    _m(
        "Llama 3.1 70B",
        "Llama 3.1",
        70.55e9,
        80,
        8192,
        64,
        8,
        28672,
        128256,
        _HF + "meta-llama/Llama-3.1-70B",
        aliases=("llama-3.1-70b", "meta-llama-3.1-70b"),
        context=131072,
    ),
    _m(
        "Llama 3.1 405B",
        "Llama 3.1",
        405.85e9,
        126,
        16384,
        128,
        8,
        53248,
        128256,
        _HF + "meta-llama/Llama-3.1-405B",
        aliases=("llama-3.1-405b", "llama 3 405b"),
        context=131072,
    ),
    _m(
        "Llama 3.2 1B",
        "Llama 3.2",
        1.24e9,
        16,
        2048,
        32,
        8,
        8192,
        128256,
        _HF + "meta-llama/Llama-3.2-1B",
        aliases=("llama-3.2-1b",),
        context=131072,
    ),
    _m(
        "Llama 3.2 3B",
        "Llama 3.2",
        3.21e9,
        28,
        3072,
        24,
        8,
        8192,
        128256,
        _HF + "meta-llama/Llama-3.2-3B",
        aliases=("llama-3.2-3b",),
        context=131072,
    ),
    _m(
        "LLaMA 7B",
        "LLaMA",
        6.74e9,
        32,
        4096,
        32,
        32,
        11008,
        32000,
        "Touvron et al., arXiv 2302.13971, Table 2",
        aliases=("llama 1 7b", "llama-7b"),
    ),
    _m(
        "LLaMA 13B",
        "LLaMA",
        13.0e9,
        40,
        5120,
        40,
        40,
        13824,
        32000,
        "Touvron et al., arXiv 2302.13971, Table 2",
        aliases=("llama 1 13b", "llama-13b"),
    ),
    _m(
        "LLaMA 33B",
        "LLaMA",
        32.5e9,
        60,
        6656,
        52,
        52,
        17920,
        32000,
        "Touvron et al., arXiv 2302.13971, Table 2",
        aliases=("llama 1 33b", "llama-33b", "llama 30b"),
    ),
    _m(
        "Mistral 7B",
        "Mistral",
        7.24e9,
        32,
        4096,
        32,
        8,
        14336,
        32000,
        _HF + "mistralai/Mistral-7B-v0.1",
        aliases=("mistral-7b", "mistral"),
        context=32768,
    ),
    _m(
        "Mixtral 8x7B",
        "Mixtral",
        46.7e9,
        32,
        4096,
        32,
        8,
        14336,
        32000,
        _HF + "mistralai/Mixtral-8x7B-v0.1",
        active=12.9e9,
        experts=8,
        top_k=2,
        aliases=("mixtral-8x7b", "mixtral"),
        context=32768,
    ),
    _m(
        "Mixtral 8x22B",
        "Mixtral",
        140.6e9,
        56,
        6144,
        48,
        8,
        16384,
        32768,
        _HF + "mistralai/Mixtral-8x22B-v0.1",
        active=39.1e9,
        experts=8,
        top_k=2,
        aliases=("mixtral-8x22b",),
        context=65536,
    ),
    _m(
        "Qwen2.5 0.5B",
        "Qwen2.5",
        0.49e9,
        24,
        896,
        14,
        2,
        4864,
        151936,
        _HF + "Qwen/Qwen2.5-0.5B",
        aliases=("qwen2.5-0.5b",),
    ),
    _m(
        "Qwen2.5 7B",
        "Qwen2.5",
        7.61e9,
        28,
        3584,
        28,
        4,
        18944,
        152064,
        _HF + "Qwen/Qwen2.5-7B",
        aliases=("qwen2.5-7b", "qwen 2.5 7b"),
    ),
    _m(
        "Qwen2.5 14B",
        "Qwen2.5",
        14.7e9,
        48,
        5120,
        40,
        8,
        13824,
        152064,
        _HF + "Qwen/Qwen2.5-14B",
        aliases=("qwen2.5-14b",),
    ),
    _m(
        "Qwen2.5 32B",
        "Qwen2.5",
        32.5e9,
        64,
        5120,
        40,
        8,
        27648,
        152064,
        _HF + "Qwen/Qwen2.5-32B",
        aliases=("qwen2.5-32b",),
    ),
    _m(
        "Qwen2.5 72B",
        "Qwen2.5",
        72.7e9,
        80,
        8192,
        64,
        8,
        29568,
        152064,
        _HF + "Qwen/Qwen2.5-72B",
        aliases=("qwen2.5-72b", "qwen 2.5 72b"),
    ),
    _m(
        "Gemma 2 2B",
        "Gemma 2",
        2.61e9,
        26,
        2304,
        8,
        4,
        9216,
        256000,
        _HF + "google/gemma-2-2b",
        aliases=("gemma-2-2b",),
        context=8192,
    ),
    _m(
        "Gemma 2 9B",
        "Gemma 2",
        9.24e9,
        42,
        3584,
        16,
        8,
        14336,
        256000,
        _HF + "google/gemma-2-9b",
        aliases=("gemma-2-9b",),
        context=8192,
    ),
    _m(
        "Gemma 2 27B",
        "Gemma 2",
        27.2e9,
        46,
        4608,
        32,
        16,
        36864,
        256000,
        _HF + "google/gemma-2-27b",
        aliases=("gemma-2-27b",),
        context=8192,
    ),
    _m(
        "DeepSeek-V2",
        "DeepSeek",
        236e9,
        60,
        5120,
        128,
        128,
        1536,
        102400,
        _HF + "deepseek-ai/DeepSeek-V2 (MLA; 160 routed experts, top-6, +2 shared)",
        active=21e9,
        experts=160,
        top_k=6,
        aliases=("deepseek v2",),
        context=163840,
    ),
    _m(
        "DeepSeek-V3",
        "DeepSeek",
        671e9,
        61,
        7168,
        128,
        128,
        2048,
        129280,
        _HF + "deepseek-ai/DeepSeek-V3 (MLA; 256 routed experts, top-8, +1 shared)",
        active=37e9,
        experts=256,
        top_k=8,
        aliases=("deepseek v3", "deepseek-v3-base"),
        context=163840,
        node_limit=4,  # DeepSeek-V3 report (arXiv 2412.19437), sec. 2.1.2 and 3.2.2
    ),
    _m(
        "Phi-3 mini",
        "Phi-3",
        3.82e9,
        32,
        3072,
        32,
        32,
        8192,
        32064,
        _HF + "microsoft/Phi-3-mini-4k-instruct",
        aliases=("phi-3-mini", "phi3 mini"),
        context=4096,
    ),
    _m(
        "Phi-3 medium",
        "Phi-3",
        14.0e9,
        40,
        5120,
        40,
        10,
        17920,
        32064,
        _HF + "microsoft/Phi-3-medium-4k-instruct",
        aliases=("phi-3-medium",),
        context=4096,
    ),
    _m(
        "Falcon 7B",
        "Falcon",
        7.22e9,
        32,
        4544,
        71,
        1,
        18176,
        65024,
        _HF + "tiiuae/falcon-7b",
        aliases=("falcon-7b",),
    ),
    _m(
        "Falcon 40B",
        "Falcon",
        41.8e9,
        60,
        8192,
        128,
        8,
        32768,
        65024,
        _HF + "tiiuae/falcon-40b",
        aliases=("falcon-40b",),
    ),
    _m(
        "Falcon 180B",
        "Falcon",
        179.5e9,
        80,
        14848,
        232,
        8,
        59392,
        65024,
        _HF + "tiiuae/falcon-180B",
        aliases=("falcon-180b",),
    ),
    _m(
        "OLMo 2 7B",
        "OLMo",
        7.30e9,
        32,
        4096,
        32,
        32,
        11008,
        100352,
        _HF + "allenai/OLMo-2-1124-7B",
        aliases=("olmo-2-7b", "olmo 7b", "olmo 3 7b"),
        context=4096,
    ),
    _m(
        "OLMo 2 13B",
        "OLMo",
        13.7e9,
        40,
        5120,
        40,
        40,
        13824,
        100352,
        _HF + "allenai/OLMo-2-1124-13B",
        aliases=("olmo-2-13b", "olmo 13b"),
        context=4096,
    ),
    _m(
        "MPT-7B",
        "MPT",
        6.65e9,
        32,
        4096,
        32,
        32,
        16384,
        50432,
        _HF + "mosaicml/mpt-7b",
        aliases=("mpt 7b",),
    ),
    _m(
        "MPT-30B",
        "MPT",
        29.95e9,
        48,
        7168,
        64,
        64,
        28672,
        50432,
        _HF + "mosaicml/mpt-30b",
        aliases=("mpt 30b",),
    ),
    _m(
        "JetMoE-8B",
        "JetMoE",
        8.52e9,
        24,
        2048,
        16,
        16,
        5632,
        32000,
        _HF + "jetmoe/jetmoe-8b (8 experts, top-2, MoA + MoE)",
        active=2.2e9,
        experts=8,
        top_k=2,
        aliases=("jetmoe",),
    ),
)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "", name.lower())


_INDEX: dict[str, ModelSpec] = {}
for _spec in MODEL_CATALOG:
    for _alias in (_spec.name, *_spec.aliases):
        _INDEX.setdefault(_key(_alias), _spec)


def find_model(name: str) -> ModelSpec | None:
    """The catalog entry for ``name`` (case, spaces and dashes ignored), or None."""
    return _INDEX.get(_key(name))


@dataclass(frozen=True)
class Shape:
    layers: int
    hidden_size: int
    attention_heads: int
    ffn_hidden_size: int


# Decoders wider than this keep a head count divisible by the largest tensor-parallel degree
# inside a node, as every published large decoder does [2]_.
_WIDE_DECODER_HIDDEN = 2048
_TENSOR_PARALLEL_HEADS = 8
_MIN_BODY_SHARE = 0.5  # the embeddings never take more than half the parameters
_FIXED_POINT_ITERATIONS = 20


def shape_from_params(params: float, vocab_size: int) -> Shape:
    """A plausible decoder shape for a parameter count.

    Solves ``N = 12 L h^2 + 2 V h`` with ``L = h / 128`` (Llama-2 7B's aspect
    ratio, assumption ``aspect_ratio``) [1]_ [2]_ for the number of layers, rounded to a whole layer, then solves
    the same equation for ``h`` with that ``L``, and rounds ``h`` to the nearest multiple of
    its attention heads (each head the same whole width). ``h`` is not rounded further on
    purpose: rounding it to a multiple of 128 would make results
    jump non-monotonically between neighbouring parameter counts (a larger model
    could come out faster), which the property tests forbid.

    Parameters
    ----------
    params : float
        Total parameters [parameters].
    vocab_size : int
        Vocabulary [tokens].

    Returns
    -------
    Shape
    """
    aspect_ratio = whole("aspect_ratio")
    head_dim = whole("head_dim")
    hidden = (params * aspect_ratio / 12.0) ** (1.0 / 3.0)
    for _ in range(_FIXED_POINT_ITERATIONS):  # fixed point including the embedding term
        body = max(params - 2.0 * vocab_size * hidden, params * _MIN_BODY_SHARE)
        hidden = (body * aspect_ratio / 12.0) ** (1.0 / 3.0)
    layers = max(1, int(round(hidden / aspect_ratio)))
    for _ in range(_FIXED_POINT_ITERATIONS):  # h for that whole number of layers
        body = max(params - 2.0 * vocab_size * hidden, params * _MIN_BODY_SHARE)
        hidden = (body / (12.0 * layers)) ** 0.5
    h = max(head_dim, int(round(hidden)))
    if h > _WIDE_DECODER_HIDDEN:
        heads = _TENSOR_PARALLEL_HEADS * max(1, round(h / (_TENSOR_PARALLEL_HEADS * head_dim)))
    else:  # a power of two, so tensor parallelism can split it (heads only matter for that)
        heads = 2 ** max(0, round(math.log2(max(1.0, h / head_dim))))
    # every head has the same whole width: a hidden size of 3,118 cannot be split into 24 heads
    # (a shape no model has); the nearest multiple of the heads moves h by under half a head
    h = heads * max(1, round(h / heads))
    return Shape(
        layers=layers,
        hidden_size=h,
        attention_heads=heads,
        ffn_hidden_size=whole("ffn_hidden_ratio") * h,
    )
