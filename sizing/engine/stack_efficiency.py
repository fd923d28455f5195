"""Who trains, and with what: the efficiency prior of the customer's training software.

The same model on the same cluster trains at different speeds under different software: the
published runs of Megatron-LM and NeMo, of PyTorch FSDP stacks (MosaicML's llm-foundry,
TinyLlama's lit-gpt) and of the other teams in ``tests/sizing/data/published_runs.json`` sit at
different distances from the efficiency model.  The customer's answer to question 8 (the
frameworks they train with) names a **software family** (:func:`stack_family`); the family's
factor multiplies the utilisation of every plan (``eff_stack_<family>`` in
:mod:`sizing.engine.assumptions`, :func:`stack_factor`).

Each factor is measured, not chosen: ``benchmarks/calibration.py`` takes, for the family, the
median over its published sources of each source's median ``log2(published speed / modelled
speed)``, leaving out the source being predicted (so the cross-validated figures never see their
own run).  A family measured on fewer than :data:`MIN_SOURCES` sources has no factor of its own
and takes the typical one.  With no answer (or an answer that names no family) the factor is
that of the **typical published run**: the same median over every development source, whoever
trained it, not that of the best-tuned stack [1]_.

References
----------
.. [1] ``docs/calibration.md``, "An efficiency that knows who trains": the rows of each family,
       their sources and dates, and the factors measured by leave-one-source-out
       cross-validation.
"""

from __future__ import annotations

from collections.abc import Iterable

from .assumptions import value

TYPICAL = "typical"
MEGATRON = "megatron"
PYTORCH = "pytorch"
DEEPSPEED = "deepspeed"
HUGGINGFACE = "huggingface"
FAMILIES: tuple[str, ...] = (MEGATRON, PYTORCH, DEEPSPEED, HUGGINGFACE)
# A family whose factor rests on fewer published sources than this takes the typical factor
# (the same floor as a range slice: docs/calibration.md).
MIN_SOURCES = 3

# Question 8's framework answers (as validation stores them) -> family, in order of precedence:
# the outer trainer decides how the work is laid out, so Hugging Face's Trainer driving
# DeepSpeed is the Hugging Face family, and Megatron-DeepSpeed (BLOOM) the Megatron one.
_PRECEDENCE: tuple[tuple[str, frozenset[str]], ...] = (
    (HUGGINGFACE, frozenset({"huggingface"})),
    (MEGATRON, frozenset({"megatron", "megatron-lm", "nemo"})),
    (DEEPSPEED, frozenset({"deepspeed"})),
    (PYTORCH, frozenset({"pytorch"})),
)


def stack_family(frameworks: Iterable[str] | None) -> str:
    """The software family of the customer's framework answer; :data:`TYPICAL` without one.

    JAX, TensorFlow and "something else" name no family measured on published runs, so they
    take the typical factor too.
    """
    answered = {name.lower() for name in frameworks or ()}
    for family, names in _PRECEDENCE:
        if answered & names:
            return family
    return TYPICAL


def stack_factor(family: str) -> float:
    """The share of the modelled utilisation that ``family`` reaches [-] (``eff_stack_<family>``)."""
    return value(f"eff_stack_{family}")
