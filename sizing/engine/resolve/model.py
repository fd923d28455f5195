"""Resolve the model answers: size, shape and experts.

Each figure comes from the customer's answer, else the model catalog
(:mod:`sizing.engine.models`), else a plausible decoder shape for the
parameter count.  Defaults are sourced in :mod:`sizing.engine.assumptions`.

References
----------
.. [1] Touvron et al., Llama 2, arXiv 2307.09288 (2023): 7B, 32k-token vocabulary.
.. [2] J. Kaplan et al., arXiv 2001.08361 (2020): decoder shapes.
.. [3] Jiang et al., Mixtral of Experts, arXiv 2401.04088 (2024): 8 experts, top-2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..assumptions import value, whole
from ..inputs import ModelInput
from ..models import ModelSpec, find_model, shape_from_params
from ..parameter_count import ModelShape
from ..provenance import AnswerRecorder
from ..units import BILLION


@dataclass(frozen=True)
class ResolvedModel(ModelShape):
    """The model sized: its shape (:class:`ModelShape`) and its counts, each from the answers,
    the catalog or our assumption."""

    name: str
    in_catalog: bool
    architecture: str  # "dense" | "moe"
    total_params: float  # [parameters]
    active_params: float  # [parameters per token]
    experts: int
    experts_per_token: int
    max_context: int | None  # [tokens] the catalog model's trained context; None: not known
    routed_node_limit: int  # [nodes] the catalog model's node-limited routing; 0: none


# The model sized when the customer names neither a model nor a size: its size is the
# assumption ``default_total_params`` (Llama 2's 7B) and its shape the catalog's [1]_.
DEFAULT_MODEL = "Llama 2 7B"

# A size within this share of a catalog model's is that model's size, rounded ("141B" for
# Mixtral 8x22B's 140.6B); further off, it is a variant of its own (its active share estimated).
_SAME_MODEL_SIZE = 0.05


def resolve_model(answers: ModelInput, rec: AnswerRecorder) -> ResolvedModel:
    """The model: the answers, else the catalog entry, else generated [1]_ [2]_."""
    spec = find_model(answers.name) if answers.name else None
    default_params = value("default_total_params")
    # a value the customer did not give comes from the catalog entry of the model they named
    # (provided by the catalog, not by them), else from our usual assumption
    catalog = "model catalog: " + spec.source if spec else ""
    total_params = rec.take(
        "model.total_params",
        answers.total_params,
        spec.total_params if spec else default_params,
        unit="parameters",
        why="sets the memory and the compute",
        question=None if spec else "Which model (or at least how many parameters) will you train?",
        source=catalog
        or f"our usual assumption: a {default_params / BILLION:g}B decoder [Llama 2]",
    )
    vocab_size = rec.take(
        "model.vocab_size",
        answers.vocab_size,
        spec.vocab_size if spec else whole("default_vocab_size"),
        unit="tokens",
        why="sets the size of the input and output layers",
        source=catalog or "our usual assumption",
    )
    shape = _shape(answers, spec or _default_model(answers), total_params, vocab_size, rec)
    experts, experts_per_token, architecture = _experts(answers, spec, rec)
    active_params = _active_params(
        answers, spec, total_params, architecture, experts, experts_per_token, rec
    )
    if spec:
        name = spec.name
    else:
        name = answers.name or f"{total_params / BILLION:.3g}B {architecture} model"
    return ResolvedModel(
        name=name,
        in_catalog=spec is not None,
        architecture=architecture,
        total_params=float(total_params),
        active_params=float(active_params),
        layers=int(shape.layers),
        hidden_size=int(shape.hidden_size),
        attention_heads=int(shape.attention_heads),
        kv_heads=int(shape.kv_heads),
        ffn_hidden_size=int(shape.ffn_hidden_size),
        vocab_size=int(vocab_size),
        experts=int(experts),
        experts_per_token=int(experts_per_token),
        max_context=spec.max_context if spec else None,
        routed_node_limit=(spec.routed_node_limit or 0) if spec else 0,
    )


def _default_model(answers: ModelInput) -> ModelSpec | None:
    """The catalog's default model when the customer gave no model and no size, else None."""
    if answers.name or answers.total_params:
        return None
    return find_model(DEFAULT_MODEL)


def _shape(
    answers: ModelInput,
    spec: ModelSpec | None,
    total_params: float,
    vocab_size: int,
    rec: AnswerRecorder,
) -> ModelShape:
    """Each shape figure from the answers, else the catalog (``spec``: the named model, or
    the default one), else a plausible decoder."""
    generated = shape_from_params(total_params, vocab_size)
    layers = answers.layers or (spec.layers if spec else generated.layers)
    hidden_size = answers.hidden_size or (spec.hidden_size if spec else generated.hidden_size)
    if answers.hidden_size:  # heads follow the customer's width, not the generated one
        generated_heads = _heads_dividing(hidden_size, hidden_size / whole("head_dim"))
    else:
        generated_heads = generated.attention_heads
    attention_heads = answers.attention_heads or (spec.attention_heads if spec else generated_heads)
    if answers.attention_heads and not answers.hidden_size and not spec:
        # the customer's heads with a generated width: the width is a whole number of heads
        hidden_size = attention_heads * max(1, round(hidden_size / attention_heads))
    kv_heads = answers.kv_heads or (spec.kv_heads if spec else attention_heads)
    ffn_hidden_size = answers.ffn_hidden_size or (
        spec.ffn_hidden_size if spec else whole("ffn_hidden_ratio") * hidden_size
    )
    shape = ModelShape(
        layers=layers,
        hidden_size=hidden_size,
        attention_heads=attention_heads,
        kv_heads=kv_heads,
        ffn_hidden_size=ffn_hidden_size,
        vocab_size=vocab_size,
    )
    if spec and not answers.name:  # the default model's shape
        source = f"model catalog, {spec.name} (the model assumed): {spec.source}"
    elif spec:
        source = "model catalog: " + spec.source
    else:
        source = "plausible shape for the parameter count [Kaplan 2020]"
    for key in ("layers", "hidden_size", "attention_heads", "kv_heads", "ffn_hidden_size"):
        rec.record(
            f"model.{key}",
            getattr(shape, key),
            unit="-",
            given=bool(getattr(answers, key)),
            source=source,
            why="sets the memory of each layer and how the model can be split",
        )
    return shape


def _heads_dividing(hidden_size: int, near: float) -> int:
    """The number of attention heads nearest ``near`` that splits ``hidden_size`` into heads of
    one whole width (a customer's hidden size is kept, so the heads must fit it)."""
    divisors = {
        d
        for n in range(1, math.isqrt(hidden_size) + 1)
        if hidden_size % n == 0
        for d in (n, hidden_size // n)
    }
    return min(divisors, key=lambda n: (abs(n - near), n))


def _experts(
    answers: ModelInput, spec: ModelSpec | None, rec: AnswerRecorder
) -> tuple[int, int, str]:
    """Experts, experts per token and the architecture they imply [3]_.

    A dense model has one expert (its MLP) that every token uses.
    """
    experts = answers.experts or (spec.experts if spec else None) or 1
    per_token = answers.experts_per_token or (spec.experts_per_token if spec else None)
    if per_token is None:
        per_token = whole("moe_default_experts_per_token") if experts > 1 else 1
    architecture = answers.architecture or ("moe" if experts > 1 else "dense")
    if architecture == "moe" and experts == 1:
        experts = whole("moe_default_experts")
        per_token = whole("moe_default_experts_per_token")
        rec.ask("How many experts does the MoE model have, and how many per token?")
    return experts, per_token, architecture


def _active_params(
    answers: ModelInput,
    spec: ModelSpec | None,
    total_params: float,
    architecture: str,
    experts: int,
    experts_per_token: int,
    rec: AnswerRecorder,
) -> float:
    """Parameters used per token [parameters]: given, from the catalog, or estimated.

    An MoE estimate shares ``s`` of the parameters and routes each token to
    ``k`` of ``E`` experts: ``N_active = N (s + (1 - s) k / E)``.
    """
    catalog_active = None
    if spec is not None:
        # the catalog's model with its size rounded ("141B" for 140.6B): its own active share
        same_size = abs(total_params / spec.total_params - 1.0) <= _SAME_MODEL_SIZE
        if answers.total_params is None or same_size:
            catalog_active = spec.active_params * total_params / spec.total_params
    active_params = answers.active_params or catalog_active
    if active_params is None:
        if architecture == "dense":
            active_params = total_params
        else:
            shared = value("moe_shared_param_share")
            active_params = total_params * (shared + (1.0 - shared) * experts_per_token / experts)
            rec.ask("How many parameters are active per token?")
    rec.record(
        "model.active_params",
        active_params,
        unit="parameters",
        given=bool(answers.active_params),
        source="the model catalog, or estimated from the shared and per-expert parameters",
        why="sets the compute",
    )
    return active_params
