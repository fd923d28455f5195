"""Parameters of a decoder from its shape: the count a model card publishes.

The catalog (:mod:`sizing.engine.models`) holds published totals; this module counts the same
totals from the figures of a configuration file, for a model the catalog does not know. The
count is exact for the weight matrices, embeddings and normalisation scales; biases (a few
hundred thousand parameters where a model has them) are left out.

References
----------
.. [1] Touvron et al., Llama 2, arXiv 2307.09288 (2023), sec. 2.2: grouped-query attention,
       SwiGLU feed-forward of three ``h x f`` matrices, RMSNorm before attention and MLP.
.. [2] Jiang et al., Mixtral of Experts, arXiv 2401.04088 (2024), sec. 2: ``E`` experts per
       layer, each a SwiGLU MLP, a router of ``h x E``, ``k`` experts per token.
.. [3] Qwen Team, Qwen1.5-MoE (2024): one shared expert beside the routed ones.
.. [4] Radford et al., GPT-2 (2019): a plain two-matrix MLP and embeddings shared with the
       output layer.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

# Matrices of one feed-forward block: gate, up and down (SwiGLU) [1]_, or up and down [4]_.
GATED_MLP_MATRICES = 3
PLAIN_MLP_MATRICES = 2
# Normalisation scales of one layer: before attention and before the MLP [1]_.
NORMS_PER_LAYER = 2


@dataclass(frozen=True)
class ModelShape:
    """The six figures of a decoder's shape, defined once: the catalog's models
    (:class:`~sizing.engine.models.ModelSpec`) and a configuration file's decoder
    (:class:`DecoderShape`) both have them; the customer's answer
    (:class:`~sizing.engine.inputs.ModelInput`) names the same fields, each optional.

    Sizes are counts of numbers per vector [-]; ``vocab_size`` in [tokens].
    """

    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    ffn_hidden_size: int
    vocab_size: int


@dataclass(frozen=True)
class DecoderShape(ModelShape):
    """A decoder's shape with what counting its parameters needs beyond the six figures.

    A dense model has ``experts=1``; an MoE model replaces the MLP of ``layers - dense_layers``
    layers by ``experts`` routed experts of width ``expert_ffn_hidden_size`` (plus shared ones).
    """

    head_dim: int | None = None  # None: hidden_size / attention_heads
    gated_mlp: bool = True
    tied_embeddings: bool = False
    experts: int = 1
    experts_per_token: int = 1
    expert_ffn_hidden_size: int | None = None  # None: ffn_hidden_size
    shared_expert_ffn_hidden_size: int = 0  # all shared experts together
    dense_layers: int = 0  # leading layers with a dense MLP in an MoE model


@dataclass(frozen=True)
class ParameterCount:
    total_params: float  # [parameters]
    active_params: float  # [parameters per token]


def count_parameters(shape: DecoderShape) -> ParameterCount:
    """Total parameters, and those one token uses, of a decoder [parameters] [1]_ [2]_.

    Per layer, attention is ``2 h (n d) + 2 h (g d)`` (queries and output over ``n`` heads, keys
    and values over ``g`` key-value heads of width ``d``), a feed-forward block is ``m h f``
    (``m`` = 3 gated, 2 plain) and the norms ``2 h``. An MoE layer holds ``E`` expert blocks,
    the shared block and a router ``h E``; a token uses ``k`` of the experts. Embeddings are
    ``V h``, twice when the output layer is not tied to them [4]_, plus the final norm ``h``::

        N = L (attention + 2 h) + L_dense m h f + L_moe (E m h f_e + m h f_s + h E) + V h (1|2) + h

    Parameters
    ----------
    shape : DecoderShape
        The configuration's figures.

    Returns
    -------
    ParameterCount
        ``total_params`` and ``active_params`` [parameters]; equal for a dense model. Never
        raises for positive finite figures: a count beyond the largest float is infinite.
        :func:`sizing.engine.validation.check_shape` says whether the figures are a model's.
    """
    # Whole numbers throughout: Python's integers cannot overflow, so even a shape no model has
    # is counted exactly and only the final conversion to a float has to be bounded.
    h, heads = int(shape.hidden_size), int(shape.attention_heads)
    layers, experts = int(shape.layers), int(shape.experts)
    ffn = int(shape.ffn_hidden_size)
    head_dim = int(shape.head_dim or h // heads)
    attention = 2 * h * heads * head_dim + 2 * h * int(shape.kv_heads) * head_dim
    matrices = GATED_MLP_MATRICES if shape.gated_mlp else PLAIN_MLP_MATRICES
    per_layer = attention + NORMS_PER_LAYER * h
    embeddings = int(shape.vocab_size) * h * (1 if shape.tied_embeddings else 2) + h
    if experts <= 1:
        total = layers * (per_layer + matrices * h * ffn) + embeddings
        return ParameterCount(_as_float(total), _as_float(total))
    expert = matrices * h * int(shape.expert_ffn_hidden_size or ffn)
    shared = matrices * h * int(shape.shared_expert_ffn_hidden_size) + h * experts
    dense_layers = min(int(shape.dense_layers), layers)
    moe_layers = layers - dense_layers
    common = (
        layers * per_layer + dense_layers * matrices * h * ffn + moe_layers * shared + embeddings
    )
    total = common + moe_layers * experts * expert
    active = common + moe_layers * min(int(shape.experts_per_token), experts) * expert
    return ParameterCount(_as_float(total), _as_float(active))


def _as_float(count: int) -> float:
    """``count`` [parameters] as a float, infinite past the largest one (where ``float()``
    raises ``OverflowError``): a shape that large is no model's, and
    :func:`sizing.engine.validation.check_shape` refuses it before it is counted."""
    if abs(count) > sys.float_info.max:
        return math.inf if count > 0 else -math.inf
    return float(count)
