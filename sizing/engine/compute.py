"""Training FLOPs: per token, per run, model vs hardware work.

References
----------
.. [1] Chowdhery et al., PaLM, arXiv 2204.02311 (2022), appendix B:
       model FLOPs per token = 6 N + 12 L H Q T  (H Q = hidden size h, T = sequence).
.. [2] Kaplan et al., arXiv 2001.08361 (2020): C = 6 N D.
.. [3] Hu et al., LoRA, arXiv 2106.09685 (2021).
.. [5] Hugging Face PEFT docs, LoraConfig ``target_modules="all-linear"`` (all linear
       layers but the output head; on Mixtral each expert's w1, w2, w3 and the router gate).
.. [4] Korthikanti et al., arXiv 2205.05198 (2022), sec. 5: recomputation
       adds one forward pass (hardware FLOPs, not model FLOPs).
.. [6] Dao, FlashAttention-2, arXiv 2307.08691 (2023), sec. 4.1: attention's forward is
       ``4 s^2 d`` FLOPs per head, and "with causal mask, we divide this number by 2 to
       account for the fact that approximately only half of the entries are calculated";
       the causal kernels skip the masked blocks (Dao-AILab/flash-attention benchmarks count
       FLOPs the same way).
.. [7] Decoder language models attend causally (Radford et al., GPT-2, 2019; Touvron et al.,
       Llama, arXiv 2302.13971); image, video and audio encoders attend both ways: ViT
       (Dosovitskiy et al., arXiv 2010.11929), DiT (Peebles and Xie, arXiv 2212.09748),
       Whisper's encoder (Radford et al., arXiv 2212.04356).

Convention
----------
Model FLOPs count the attention a causal mask leaves, ``6 L h s`` a token for a decoder
(half of PaLM's ``12 L h s``, which counts every query against every key) [6]_: they are the
work the kernels do, so the time and the engine's MFU follow them.  Published utilisation
figures mostly count attention in full (PaLM app. B; Megatron-LM's ``72 B s L h^2 (1 + s/6h
+ V/12hL)``, Narayanan et al. 2021 eq. 3); ``benchmarks/calibration.py`` converts them
(:func:`attention_flops_per_token` with ``causal=False``) before comparing.
"""

from __future__ import annotations

from .assumptions import value
from .inputs import ADAPTER_METHODS

# [FLOP/param/token] training: forward 2 (one multiply-add per weight) + backward 4 [2]_
FLOPS_PER_PARAM_TOKEN = 6.0


# [-] share of a sequence's keys a query attends to on average under a causal mask [6]_
CAUSAL_KEYS_SHARE = 0.5
# [FLOP/token/layer/key/hidden] scores Q K^T and values A V, 2 FLOPs per multiply-add,
# forward 4 and backward 8 [1]_
ATTENTION_FLOPS_PER_KEY = 12.0
# [-] of those in the forward pass, which recomputation repeats [4]_
ATTENTION_FORWARD_SHARE = 1.0 / 3.0


def attends_causally(modality: str | None) -> bool:
    """Whether the model's attention is causal (a decoder of text or of mixed tokens) [7]_."""
    return modality not in ("image", "video", "audio")


def attended_keys(seq: float, causal: bool = True) -> float:
    """Keys a query attends to on average [tokens] [6]_: ``s / 2`` causal, ``s`` both ways."""
    return seq * CAUSAL_KEYS_SHARE if causal else float(seq)


def attention_flops_per_token(layers: int, hidden: int, seq: int, causal: bool = True) -> float:
    """Attention-score FLOPs per token for training [FLOP/token] [1]_ [6]_.

    ``12 L h k`` for ``k`` keys attended (:func:`attended_keys`): ``6 L h s`` under a
    causal mask, PaLM's ``12 L h s`` when every query sees every key.  Llama 3.1 8B
    (32 layers, h 4,096) at 131,072 tokens: 1.03e11 causal against 2.06e11 in full, next
    to ``6 N`` = 4.8e10.
    """
    return ATTENTION_FLOPS_PER_KEY * layers * hidden * attended_keys(seq, causal)


def lora_params(
    layers: int,
    hidden: int,
    heads: int,
    kv_heads: int,
    ffn: int,
    rank: int,
    *,
    experts: float = 1,
    router_experts: int = 0,
) -> float:
    """Trainable LoRA parameters with adapters on every linear layer [parameters] [3]_ [5]_.

    Each adapted ``d_in x d_out`` matrix adds ``r (d_in + d_out)``; per layer
    q, k, v, o and the three SwiGLU projections of each of ``experts`` MLPs (an MoE
    layer: every expert's, ``ffn`` being one expert's width), plus the router
    (``h x router_experts``) when there is one: PEFT's ``target_modules="all-linear"``
    adapts every linear layer but the output head [5]_.  Pass the experts a token
    uses as ``experts`` for the adapters' compute, all of them for their memory.
    """
    kv_dim = hidden * kv_heads / heads
    attention = 2 * (hidden + hidden) + 2 * (hidden + kv_dim)
    mlp = 3 * (hidden + ffn) * experts
    router = hidden + router_experts if router_experts else 0
    return layers * (attention + mlp + router) * rank


def flops_per_token(
    active_params: float,
    layers: int,
    hidden: int,
    seq: int,
    method: str,
    adapter_params: float = 0.0,
    causal: bool = True,
) -> float:
    """Model FLOPs per training token [FLOP/token].

    ``6 N + A`` [1]_ for full training; with LoRA/QLoRA the frozen
    weights need no weight gradients: ``4 N + 6 N_adapter + A`` [3]_, with ``A`` the
    attention scores' :func:`attention_flops_per_token` (``6 L h s`` causal).

    Parameters
    ----------
    active_params : float
        Parameters used per token [parameters] (MoE: active).
    layers, hidden, seq : int
        Layers, hidden size, sequence length [tokens].
    method : str
        Training method.
    adapter_params : float
        Trainable adapter parameters (LoRA/QLoRA) [parameters].
    causal : bool
        Causal attention (a decoder) [7]_.
    """
    attn = attention_flops_per_token(layers, hidden, seq, causal)
    if method in ADAPTER_METHODS:
        return (
            value("lora_flops_factor") * active_params
            + FLOPS_PER_PARAM_TOKEN * adapter_params
            + attn
        )
    return FLOPS_PER_PARAM_TOKEN * active_params + attn


def recompute_flops_per_token(
    active_params: float,
    layers: int,
    hidden: int,
    seq: int,
    recompute: str,
    causal: bool = True,
) -> float:
    """Extra hardware FLOPs per token from activation recomputation [FLOP/token] [4]_.

    ``"full"`` repeats the forward pass (``2 N`` and a third of the attention's
    FLOPs: ``2 L h s`` causal, ``4 L h s`` in full); ``"selective"`` repeats the
    attention core (that third alone); ``"none"`` adds nothing.
    """
    if recompute not in ("full", "selective"):
        return 0.0
    attention = ATTENTION_FORWARD_SHARE * attention_flops_per_token(layers, hidden, seq, causal)
    if recompute == "full":
        return 2.0 * active_params + attention
    return attention


def training_flops(per_token: float, tokens: float, epochs: float) -> float:
    """Model FLOPs of one run, ``per_token * tokens * epochs`` [FLOP] [2]_."""
    return per_token * tokens * epochs
