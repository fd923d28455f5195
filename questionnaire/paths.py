"""Two paths through the questionnaire: the detailed set-up questions, or "recommend for me".

The discovery page asks whether someone on the team knows the training set-up. If not (or not
sure), the expert questions (``Question.expert``) are skipped — the wizard's ``condition_dict``
reads this from the draft's raw data, never from cleaned data of another step (formtools #277)
— and each is sent as "recommend for me": every part empty and "not sure" ticked, so the engine
decides and lists what it chose. Whatever the customer typed on those pages stays in the draft:
switching back to the detailed path shows it again.

A customer who answered set-up questions on the detailed path and then switched to "no" or "not
sure" keeps those answers (``setup_answer``): they told us something we would otherwise guess,
and switching path to skip the remaining pages must not silently throw it away. The review page
lists each kept answer as theirs, beside what we choose for the rest.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cache
from typing import Any

from questionnaire.forms.base import QuestionForm
from questionnaire.forms.discovery import SETUP_RECOMMEND
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, QUESTIONS, Question, get_question

_SETUP_FIELD = "setup_known"
# "No" and "not sure yet" both take the short path: the customer can switch later.
_RECOMMENDING = (SETUP_RECOMMEND, "not_sure")

__all__ = [
    "EXPERT_SLUGS",
    "FOLDED_ON_DETAILED_PATH",
    "KEY_FIELDS",
    "SHORT_PATH_COUNT",
    "key_fields",
    "kept_setup_answer",
    "setup_answer",
    "question_numbers",
    "recommended_answer",
    "customer_numbers",
    "delegated_slugs",
    "recommends_setup",
    "recommends_setup_in_draft",
    "setup_unsure",
    "setup_unknown",
]


def recommends_setup(answers: Mapping[str, Any] | None) -> bool:
    """Whether stored answers took the short path (the engine decides the set-up)."""
    discovery = (answers or {}).get(DISCOVERY.slug) or {}
    return isinstance(discovery, dict) and discovery.get(_SETUP_FIELD) in _RECOMMENDING


def setup_unsure(answers: Mapping[str, Any] | None) -> bool:
    """Whether the customer answered "not sure yet" to "does someone know the set-up?" (so a
    proposal must not say "you told us no one knows it")."""
    discovery = (answers or {}).get(DISCOVERY.slug) or {}
    return isinstance(discovery, dict) and discovery.get(_SETUP_FIELD) == "not_sure"


def setup_unknown(answers: Mapping[str, Any] | None) -> bool:
    """Whether the customer told us no one on the team knows the training set-up ("no"): their
    proposal speaks in plain words, the engineering terms left to the tables an engineer reads
    ("What we assumed" and the appendices)."""
    discovery = (answers or {}).get(DISCOVERY.slug) or {}
    return isinstance(discovery, dict) and discovery.get(_SETUP_FIELD) == SETUP_RECOMMEND


def delegated_slugs(answers: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The set-up questions these answers left to us without the customer seeing them: on the
    short path every expert question whose stored answer is ours (``recommended_answer``), not
    one the customer gave before switching path (``setup_answer``); none on the detailed path."""
    if not recommends_setup(answers):
        return ()
    return tuple(
        slug
        for slug in EXPERT_SLUGS
        if (answers or {}).get(slug) in (None, recommended_answer(get_question(slug)))
    )


def skipped_slugs(answers: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The set-up questions the short path did not show (numbered on neither path's pages):
    every expert question there, whether its answer is ours or kept from the detailed path."""
    return EXPERT_SLUGS if recommends_setup(answers) else ()


def recommends_setup_in_draft(step_data: Mapping[str, Any] | None) -> bool:
    """The same from a draft's raw step data (``{"discovery": {"discovery-setup_known": [...]}}``)."""
    raw = (step_data or {}).get(DISCOVERY.slug) or {}
    values = raw.get(f"{DISCOVERY.slug}-{_SETUP_FIELD}") or []
    return bool(values) and values[-1] in _RECOMMENDING


def shows_step(step: str, step_data: Mapping[str, Any] | None) -> bool:
    """Whether the wizard asks this step: expert questions only on the detailed path."""
    return step not in EXPERT_SLUGS or not recommends_setup_in_draft(step_data)


# How many questions the short path asks ("recommend for me" skips the set-up questions).
SHORT_PATH_COUNT = sum(1 for question in QUESTIONS if not question.expert)


def question_numbers(step_data: Mapping[str, Any] | None) -> dict[str, int]:
    """Each asked question's number as the customer sees it on this draft's path.

    The registry's numbers (1 to 15) on the detailed path; 1 to 9 on the short path, the same
    numbers the pages count with ("Question 4 of 9"), so the review page, its error summary and
    every "question N" agree with them. A skipped set-up question has no number.
    """
    asked = [question for question in QUESTIONS if shows_step(question.slug, step_data)]
    return {question.slug: position for position, question in enumerate(asked, start=1)}


def customer_numbers(answers: Mapping[str, Any] | None) -> dict[str, int]:
    """Each question's number as the customer saw it, from stored answers: the same numbers
    as ``question_numbers`` gave their draft (1 to 9 on the short path); a set-up question
    the short path skipped has none."""
    skipped = skipped_slugs(answers)
    asked = [question for question in QUESTIONS if question.slug not in skipped]
    return {question.slug: position for position, question in enumerate(asked, start=1)}


# On the short path each question the customer still sees shows its main parts; the rest (and
# the note) fold into a closed "More detail (optional)", opened when one of them holds an
# answer or an error. Each question's parts not named here are left to the engine when empty.
KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "model": ("model_name", "total_params"),
    "method": ("method",),
    "data": ("dataset_size", "dataset_unit"),
    # the runs a month now: question 15 asks for those later only where they differ
    "timeline": ("run_time_hours", "deadline", "runs_per_month"),
    # the heading asks about both: "How many teams ..., and how many jobs ...?"
    "teams": ("teams", "concurrent_jobs"),
    # a rule of one maker changes the answer, so the short path asks it; the software folds away
    "software": ("accelerator_vendor",),
    "resilience": ("max_lost_hours",),
    # where the data must stay, whether shared cloud capacity there will do ("yours alone") and
    # an air-gap each rule options out, so the short path asks them all (issue 26)
    "deployment": (
        "location",
        "data_residency",
        "dedicated",
        "internet",
        "owned",
        "power_kw",
        "budget_usd",
    ),
    "roadmap": ("future_runs_per_month", "budget_years"),
}


# On the detailed path every part shows but these few, which fit only some projects and whose
# empty answer has a stated default: they fold with the note into the same "More detail", opened
# when one of them holds an answer or an error (issue 26: the detailed path within 20 minutes).
FOLDED_ON_DETAILED_PATH: dict[str, tuple[str, ...]] = {
    "model": ("active_params", "experts", "experts_per_token"),  # a mixture of experts only
    "data": ("sample_size_gb",),  # the disk size of images, audio or video
    "batch": ("max_global_batch",),
    "software": ("preferred_accelerator",),  # "leave empty to let us choose"
    "network": ("nvlink_needed",),
    "preprocessing": ("ram_working_set_gb",),
}


def key_fields(step: str, step_data: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The parts a question page shows unfolded; the rest and the note fold away. Empty for a
    page that is no question."""
    if recommends_setup_in_draft(step_data):
        return KEY_FIELDS.get(step, ())
    question = next((q for q in QUESTIONS if q.slug == step), None)
    if question is None:
        return ()
    folded = FOLDED_ON_DETAILED_PATH.get(step, ())
    return tuple(name for name in question.form_class.answer_field_names() if name not in folded)


def recommended_answer(question: Question) -> dict[str, Any]:
    """The stored answer of a skipped expert question: nothing given, "not sure" ticked."""
    return copy.deepcopy(_recommended_answer(question.form_class))


@cache
def _recommended_answer(form_class: type[QuestionForm]) -> dict[str, Any]:
    """Fixed by the question's form: validated once per process, not on every look (the review
    page and the send ask for each set-up question's, some more than once; issue 29)."""
    form = form_class(data={"not_sure": "on"})
    if not form.is_valid():  # pragma: no cover - every question accepts "not sure"
        raise ValueError(f"{form_class.__name__} refuses a not-sure answer: {form.errors}")
    return form.to_answer()


def kept_setup_answer(
    question: Question, page_answer: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The customer's own answer to a set-up question: ``page_answer``, the valid answer of the
    page they filled on the detailed path (None when the draft holds none, or not a valid one),
    when it says more than "not sure"; else None."""
    if not question.expert or page_answer is None:
        return None
    return None if page_answer == recommended_answer(question) else page_answer


def setup_answer(question: Question, page_answer: dict[str, Any] | None) -> dict[str, Any]:
    """The stored answer of a set-up question the short path skipped: the customer's own when
    they gave one before switching path (``kept_setup_answer``), else "recommend for me"."""
    return kept_setup_answer(question, page_answer) or recommended_answer(question)
