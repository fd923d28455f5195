"""What the customer said about their model, method and deployment, in the engine's terms.

The answers are read through ``sizing.adapters`` (the one module that knows the questionnaire's
vocabulary), so these facts use the engine contract's terms. The staff list, filters and CSV
show them, and the emails name the model in their subjects.
"""

import logging
from dataclasses import dataclass

from pipeline.models import SubmissionFacts
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


def stored_facts(submission: Submission) -> Facts:
    """What was stored when the submission was saved (read from the answers if it was not)."""
    try:
        row = submission.facts
    except SubmissionFacts.DoesNotExist:
        return facts(submission)
    return Facts(
        model_name=row.model_name or None,
        total_params=row.total_params,
        architecture=row.architecture or None,
        method=row.method or None,
        deployment=row.deployment or None,
    )


def stored_columns(f: Facts) -> dict[str, object]:
    """The stored row: "" where the customer was not sure (None for the size)."""
    return {
        "model_name": f.model_name or "",
        "total_params": f.total_params,
        "architecture": f.architecture or "",
        "method": f.method or "",
        "deployment": f.deployment or "",
    }


def record_facts(submission: Submission) -> None:
    """Store what ``submission``'s answers say, for the staff list's filters and search: one
    insert-or-update (``update_or_create`` took six queries, two of them savepoints, inside the
    customer's sending; issue 29)."""
    record_facts_of_many([submission])


def record_facts_of_many(submissions: list[Submission]) -> None:
    """The same for many at once (a migration, a bulk import), in one query per 1,000."""
    rows = [SubmissionFacts(submission=s, **stored_columns(facts(s))) for s in submissions]
    SubmissionFacts.objects.bulk_create(
        rows,
        batch_size=1000,
        update_conflicts=True,
        unique_fields=["submission"],
        update_fields=list(stored_columns(Facts())),
    )


def record_facts_on_save(sender, instance: Submission, created: bool, update_fields=None, **kwargs):
    """``post_save`` of Submission: the facts follow the answers (pipeline/apps.py)."""
    if created or update_fields is None or "answers" in update_fields:
        record_facts(instance)
