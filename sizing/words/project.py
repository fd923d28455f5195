"""The customer's project in one sentence, restated from the answers that describe it.

The summary of a proposal opens with the project: in the customer's own words when they wrote
them on the discovery page (``templates/reports/_discovery.html``), else restated here from what
they answered (the method, the model, the data and the time for a run), so no summary opens
without saying what it is about, or as if they had told us nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sizing.engine.numbers import format_days
from sizing.engine.vocabulary import describe_value

# Who set a value for it to be the customer's (provenance: their answer, or worked out from it).
_THEIRS = ("customer", "derived")
_ADAPTERS = ("lora", "qlora")


def project_from_answers(engine_input: Mapping[str, Any], sources: Mapping[str, str]) -> str:
    """ "Continued pre-training of Llama 3.1 70B on 400 billion tokens of text, each run within
    21 days": only the parts the customer gave; "" when they gave none of them."""

    def theirs(path: str) -> Any:
        section, _, name = path.partition(".")
        if sources.get(path) not in _THEIRS:
            return None
        return (engine_input.get(section) or {}).get(name)

    method = theirs("training.method")
    name, params = theirs("model.name"), theirs("model.total_params")
    tokens, samples = theirs("data.tokens"), theirs("data.samples")
    modality = theirs("data.modality")
    days = theirs("schedule.deadline_days")
    words = describe_value("training.method", method) if method else "training"
    if method in _ADAPTERS:  # "LoRA fine-tuning of Llama 3.1 8B", not "LoRA of"
        words += " fine-tuning"
    parts = [words]
    if name or params:
        model = (
            _in_sentence(str(name))
            if name
            else f"a model of {describe_value('model.total_params', params)}"
        )
        parts.append(f"of {model}")
    if tokens or samples:
        data = describe_value("data.tokens", tokens) if tokens else ""
        data = data or describe_value("data.samples", samples)
        kind = describe_value("data.modality", modality).lower() if modality else ""
        parts.append(f"on {data}" + (f" of {kind}" if kind else ""))
    if days:
        parts.append(f"each run within {format_days(float(days))}")
    if len(parts) == 1:
        return ""
    sentence = " ".join(parts[:3]) + (", " + parts[3] if len(parts) > 3 else "")
    return sentence[:1].upper() + sentence[1:]


# Words that open a description of a model rather than its name ("Our own 7B decoder").
_DESCRIBING = ("our", "my", "their", "the", "a", "an")


def _in_sentence(name: str) -> str:
    """A model's name as it reads inside the sentence: a name stays as written ("Llama 3.1
    8B", "Mixtral 8x7B"); a description typed as a sentence of its own does not keep its
    capital or go without an article ("of Our own 7B decoder" reads "of our own 7B decoder",
    "of Video diffusion transformer" "of a video diffusion transformer", "of 30B mixture of
    experts" "of a 30B mixture of experts")."""
    first = name.split()[0] if name.split() else ""
    lowered = name[:1].lower() + name[1:]
    if first.lower() in _DESCRIBING:
        return lowered
    if name[:1].isdigit():
        return f"a {name}"
    plain_words = " " in name and name[1:] == name[1:].lower()
    if plain_words and not any(c.isdigit() for c in name):
        return f"a {lowered}"
    return name
