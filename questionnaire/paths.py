"""Two paths through the questionnaire: the detailed set-up questions, or "recommend for me".

The discovery page asks whether someone on the team knows the training set-up. If not (or not
sure), the expert questions (``Question.expert``) are skipped — the wizard's ``condition_dict``
reads this from the draft's raw data, never from cleaned data of another step (formtools #277)
— and each is sent as "recommend for me": every part empty and "not sure" ticked, so the engine
decides and lists what it chose. Whatever the customer typed on those pages stays in the draft:
switching back to the detailed path shows it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from questionnaire.forms.discovery import SETUP_RECOMMEND
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, Question

_SETUP_FIELD = "setup_known"
# "No" and "not sure yet" both take the short path: the customer can switch later.
_RECOMMENDING = (SETUP_RECOMMEND, "not_sure")

__all__ = [
    "EXPERT_SLUGS",
    "KEY_FIELDS",
    "key_fields",
    "recommended_answer",
    "recommends_setup",
    "recommends_setup_in_draft",
]


def recommends_setup(answers: Mapping[str, Any] | None) -> bool:
    """Whether stored answers took the short path (the engine decides the set-up)."""
    discovery = (answers or {}).get(DISCOVERY.slug) or {}
    return isinstance(discovery, dict) and discovery.get(_SETUP_FIELD) in _RECOMMENDING


def recommends_setup_in_draft(step_data: Mapping[str, Any] | None) -> bool:
    """The same from a draft's raw step data (``{"discovery": {"discovery-setup_known": [...]}}``)."""
    raw = (step_data or {}).get(DISCOVERY.slug) or {}
    values = raw.get(f"{DISCOVERY.slug}-{_SETUP_FIELD}") or []
    return bool(values) and values[-1] in _RECOMMENDING


def shows_step(step: str, step_data: Mapping[str, Any] | None) -> bool:
    """Whether the wizard asks this step: expert questions only on the detailed path."""
    return step not in EXPERT_SLUGS or not recommends_setup_in_draft(step_data)


# On the short path each question the customer still sees shows its main parts; the rest (and
# the note) fold into a closed "More detail (optional)", opened when one of them holds an
# answer or an error. Each question's parts not named here are left to the engine when empty.
KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "model": ("model_name", "total_params"),
    "method": ("method",),
    "data": ("dataset_size", "dataset_unit"),
    "timeline": ("run_time_hours", "deadline"),
    "teams": ("concurrent_jobs",),
    "resilience": ("max_lost_hours",),
    "deployment": ("location", "data_residency"),
    "roadmap": ("future_runs_per_month", "budget_years"),
}


def key_fields(step: str, step_data: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The parts a question page shows unfolded: all (empty) on the detailed path."""
    return KEY_FIELDS.get(step, ()) if recommends_setup_in_draft(step_data) else ()


def recommended_answer(question: Question) -> dict[str, Any]:
    """The stored answer of a skipped expert question: nothing given, "not sure" ticked."""
    form = question.form_class(data={"not_sure": "on"})
    if not form.is_valid():  # pragma: no cover - every question accepts "not sure"
        raise ValueError(f"{question.slug} refuses a not-sure answer: {form.errors}")
    return form.to_answer()
