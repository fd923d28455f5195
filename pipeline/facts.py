"""What the customer said about their model, method and deployment, in the engine's terms.

The answers are read through ``sizing.adapters`` (the one module that knows the questionnaire's
vocabulary), so these facts use the engine contract's terms. The staff list, filters and CSV
show them, and the emails name the model in their subjects.
"""

import logging
from dataclasses import dataclass

from questionnaire.models import Submission
from sizing.public import (
    build_engine_input,
    format_count,
)

logger = logging.getLogger(__name__)

# Size bands for the list filter, by total parameters: (key, label, low, high).
SIZE_BANDS = [
    ("lt1b", "under 1B", 0.0, 1e9),
    ("1-10b", "1B to 10B", 1e9, 10e9),
    ("10-100b", "10B to 100B", 10e9, 100e9),
    ("100b+", "100B and more", 100e9, float("inf")),
]


@dataclass(frozen=True)
class Facts:
    model_name: str | None = None
    total_params: float | None = None
    architecture: str | None = None
    method: str | None = None
    deployment: str | None = None

    @property
    def size_band(self) -> str | None:
        if self.total_params is None:
            return None
        for key, _label, low, high in SIZE_BANDS:
            if low <= self.total_params < high:
                return key
        return None


def facts(submission: Submission) -> Facts:
    """What the customer said about the model, method and deployment (None: not sure)."""
    try:
        engine_input = build_engine_input(answers=submission.answers).engine_input
    except Exception:  # a malformed old answer must not break the staff list
        logger.exception("could not read the answers of submission %s", submission.pk)
        return Facts()
    model = engine_input.get("model") or {}
    params = model.get("total_params")
    return Facts(
        model_name=model.get("name"),
        total_params=float(params) if isinstance(params, int | float) else None,
        architecture=model.get("architecture"),
        method=(engine_input.get("training") or {}).get("method"),
        deployment=(engine_input.get("deployment") or {}).get("location"),
    )


def model_and_size(f: Facts) -> str:
    """E.g. "Llama 3.1 8B", "custom · 13B", "Mixtral 8x7B · 46.7B · MoE"."""
    size = "" if f.total_params is None else format_count(f.total_params, short=True)
    name = f.model_name or ""
    # Model names usually carry their size ("Llama 3.1 8B"); do not say it twice.
    if size and size.lower() in name.lower().replace(" ", ""):
        size = ""
    parts = [p for p in (name, size) if p]
    if f.architecture == "moe":
        parts.append("MoE")
    return " · ".join(parts)
