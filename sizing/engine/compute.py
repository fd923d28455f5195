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
"""

from __future__ import annotations

from .assumptions import value
from .inputs import ADAPTER_METHODS

# [FLOP/param/token] training: forward 2 (one multiply-add per weight) + backward 4 [2]_
FLOPS_PER_PARAM_TOKEN = 6.0


def attention_flops_per_token(layers: int, hidden: int, seq: int) -> float:
    """Attention-score FLOPs per token for training, ``12 L h s`` [FLOP/token] [1]_."""
    return 12.0 * layers * hidden * seq


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
) -> float:
    """Model FLOPs per training token [FLOP/token].

    ``6 N + 12 L h s`` [1]_ for full training; with LoRA/QLoRA the frozen
    weights need no weight gradients: ``4 N + 6 N_adapter + 12 L h s`` [3]_.

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
    """
    attn = attention_flops_per_token(layers, hidden, seq)
    if method in ADAPTER_METHODS:
        return (
            value("lora_flops_factor") * active_params
            + FLOPS_PER_PARAM_TOKEN * adapter_params
            + attn
        )
    return FLOPS_PER_PARAM_TOKEN * active_params + attn


def recompute_flops_per_token(
    active_params: float, layers: int, hidden: int, seq: int, recompute: str
) -> float:
    """Extra hardware FLOPs per token from activation recomputation [FLOP/token] [4]_.

    ``"full"`` repeats the forward pass (``2 N + 4 L h s``); ``"selective"``
    repeats the attention core (``4 L h s``); ``"none"`` adds nothing.
    """
    if recompute == "full":
        return 2.0 * active_params + 4.0 * layers * hidden * seq
    if recompute == "selective":
        return 4.0 * layers * hidden * seq
    return 0.0


def training_flops(per_token: float, tokens: float, epochs: float) -> float:
    """Model FLOPs of one run, ``per_token * tokens * epochs`` [FLOP] [2]_."""
    return per_token * tokens * epochs
