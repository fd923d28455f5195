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
        model = str(name) if name else f"a model of {describe_value('model.total_params', params)}"
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
