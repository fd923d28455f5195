"""The "check your answers" page: every answer, what needs attention, and Change links."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils import timezone
from django.utils.datastructures import MultiValueDict

from questionnaire.answers import NOT_ANSWERED, NOTES_LABEL, AnswerLine
from questionnaire.forms.base import NOT_SURE_QUESTION_LABEL
from questionnaire.forms.steps import ContactForm
from questionnaire.models import Draft
from questionnaire.paths import (
    kept_setup_answer,
    question_numbers,
    recommends_setup_in_draft,
    setup_answer,
    setup_unknown,
)
from questionnaire.prefill.marks import MARK_WORDS, prefilled_fields
from questionnaire.questions import (
    DISCOVERY,
    EXPERT_SLUGS,
    PAGES,
    Question,
    answered_question,
    get_question,
)
from questionnaire.roles import Feeds
from questionnaire.services import question_form
from sizing.public import (
    Decision,
    FirstEstimate,
    InvalidInput,
    SizedAnswers,
    build_engine_input,
    constraint_effects,
    discovery_questions,
    estimate_of,
    plain_decision,
    setup_decisions,
    size_answers_once,
    unsure_assumptions,
)

# Sizing the answers for the page takes tens of milliseconds of CPU, most of the page's cost, and
# the same answers come back often: the customer returns here after each "Change", and customers
# who are unsure of the same things share an engine input. Each distinct input is sized once and
# kept in the shared cache (``sizing.sized_once``); the assumptions, the set-up decisions and the
# first estimate are read from that one sizing.


@dataclass(frozen=True)
class ReviewRow:
    question: Question
    title: str
    lines: list[AnswerLine]
    change_url: str
    problem: str  # empty when the answer is fine
    assumed: tuple[str, ...] = ()  # what we will assume where the customer is not sure
    # On the short path: a set-up question left to us, and what the engine chose and why.
    recommended: bool = False
    # On the short path: a set-up question the customer answered on the detailed path before
    # switching; their answer is kept and used (``lines``), not replaced by ours.
    kept: bool = False
    decided: tuple[Decision, ...] = ()
    number: int | None = None  # as numbered on the customer's path; none for the discovery
    # Labels of "not sure" parts that what matters most (the discovery page) decides instead
    # of a typical value: the page says so next to them, not "we will assume a typical value".
    set_by_project: tuple[str, ...] = ()
    # The lines filled from the customer's file or sentence, still as filled: {label: mark}.
    prefilled: dict[str, str] = field(default_factory=dict)

    @property
    def not_answered(self) -> bool:
        """Nothing given at all: the single "Not answered" line."""
        return [line.text for line in self.lines] == [NOT_ANSWERED]

    @property
    def has_what(self) -> bool:
        """Some decision names a value (not only a reason about the plan)."""
        return any(decision.what for decision in self.decided)


def _prefilled_lines(draft: Draft, question: Question) -> dict[str, str]:
    """The review lines (by label) filled from the customer's file or sentence and unchanged."""
    labels = {
        name: str(form_field.label) for name, form_field in question.form_class.base_fields.items()
    }
    labels["notes"] = NOTES_LABEL
    return {
        labels[name]: MARK_WORDS[source]
        for name, source in prefilled_fields(draft, question.slug).items()
        if name in labels
    }


def _title(question: Question, *, plain: bool) -> str:
    return (question.plain_title or question.title) if plain else question.title


def review_rows(draft: Draft, *, step_url: Callable[[str], str]) -> dict[str, Any]:
    rows: list[ReviewRow] = []
    answers: dict[str, dict[str, Any]] = {}
    recommend = recommends_setup_in_draft(draft.step_data)
    switch_url = f"{step_url(DISCOVERY.slug)}?change=1#discovery-setup-known"
    for question in PAGES:
        form = question_form(question.slug, question.form_class, draft)
        change_url = f"{step_url(question.slug)}?change=1"
        title = answered_question(question, None).title
        if question.expert and recommend:
            answers[question.slug] = setup_answer(question, draft.step_data)
            kept = kept_setup_answer(question, draft.step_data) is not None
            lines = answered_question(question, answers[question.slug]).lines if kept else []
            rows.append(
                ReviewRow(question, title, lines, change_url, "", recommended=True, kept=kept)
            )
            continue
        if form is None and question is DISCOVERY:
            form = question.form_class(data=MultiValueDict(), prefix=question.slug)
        if form is None:
            rows.append(
                ReviewRow(
                    question,
                    title,
                    [],
                    change_url,
                    f"Not answered yet. Answer it or tick “{NOT_SURE_QUESTION_LABEL}”.",
                )
            )
        elif not form.is_valid():
            first = next(iter(form.errors.values()))[0]
            rows.append(
                ReviewRow(
                    question, title, answered_question(question, {}).lines, change_url, str(first)
                )
            )
        else:
            answers[question.slug] = form.to_answer()
            lines = answered_question(question, answers[question.slug]).lines
            rows.append(
                ReviewRow(
                    question,
                    title,
                    lines,
                    change_url,
                    "",
                    prefilled=_prefilled_lines(draft, question),
                )
            )
    assumed = assumed_on_review(answers)
    decided = decided_on_review(answers) if recommend else {}
    numbers = question_numbers(draft.step_data)
    by_project = _set_by_project(answers)
    rows = [
        replace(
            row,
            assumed=tuple(assumed.get(row.question.slug, ())),
            decided=tuple(decided.get(row.question.slug, ())),
            number=numbers.get(row.question.slug),
            set_by_project=_labels_feeding(row.question, by_project),
        )
        if not row.problem
        else replace(row, number=numbers.get(row.question.slug))
        for row in rows
    ]
    marks = sorted({mark for row in rows for mark in row.prefilled.values()}, reverse=True)
    discovery_row, *rows = rows
    setup_rows = [row for row in rows if row.recommended]
    plain = setup_unknown(answers)  # no one on their team knows the set-up: its titles plainly
    if plain:
        setup_rows = [replace(row, title=_title(row.question, plain=True)) for row in setup_rows]
    rows = [row for row in rows if not row.recommended]
    contact_raw = draft.step_data.get("contact")
    contact_form = (
        ContactForm(data=MultiValueDict(contact_raw), prefix="contact") if contact_raw else None
    )
    contact_lines: list[AnswerLine] = []
    contact_problem = "Not given yet."
    country = ""  # the contact's country places a customer whose answers name no place
    if contact_form is not None and contact_form.is_valid():
        contact_problem = ""
        country = str(contact_form.cleaned_data.get("country") or "")
        for name, field in contact_form.fields.items():
            if name == "consent":
                continue
            value = contact_form.cleaned_data.get(name)
            contact_lines.append(
                AnswerLine(str(field.label).replace(" (optional)", ""), value or "—")
            )
    elif contact_form is not None:
        contact_problem = str(next(iter(contact_form.errors.values()))[0])
    attention = [row for row in (discovery_row, *rows) if row.problem]
    return {
        "discovery_row": discovery_row,
        # "✱ From your words": the key to the answers marked ✱, once above them
        "prefilled_legend": " or ".join(marks),
        "recommend_setup": recommend,
        "switch_path_url": switch_url,
        # the path is said once, under the project, with the link to switch it
        "path_label": str(DISCOVERY.form_class.base_fields["setup_known"].label),
        # named, not numbered: on the short path they have no number
        "expert_titles": _in_words([_title(q, plain=plain).lower() for q in PAGES if q.expert]),
        "constraint_effects": constraint_effects(answers),
        "discovery_questions": discovery_questions(answers),
        "setup_rows": setup_rows,
        "rows": rows,
        "attention": attention,
        "contact_lines": contact_lines,
        "contact_problem": contact_problem,
        "contact_change_url": f"{step_url('contact')}?change=1",
        **(_estimate_context(answers, step_url, numbers, country) if not attention else {}),
        "ready_to_send": not attention and not contact_problem,
    }


def _estimate_context(
    answers: dict[str, Any],
    step_url: Callable[[str], str],
    numbers: dict[str, int],
    country: str = "",
) -> dict[str, Any]:
    """The first estimate, the answer that set it and the link to change that answer."""
    estimate = estimate_on_review(answers, contact_country=country)
    if estimate is None:
        return {}
    context: dict[str, Any] = {"estimate": estimate}
    if estimate.question:
        question = get_question(estimate.question)
        context["estimate_question"] = question
        context["estimate_number"] = numbers.get(question.slug)
        context["estimate_change_url"] = f"{step_url(question.slug)}?change=1"
    return context


def estimate_on_review(
    answers: dict[str, Any], *, contact_country: str = ""
) -> FirstEstimate | None:
    """The first estimate of ``answers``, placed by the contact's country as the pipeline places
    them (which may set the currency); sized once per distinct input (``size_answers_once``),
    and that sizing is the one the pipeline reuses when these answers are sent."""
    try:
        sized = _sized(answers, contact_country=contact_country)
    except InvalidInput:
        return None
    return estimate_of(sized)


def _set_by_project(answers: dict[str, Any]) -> frozenset[str]:
    """Engine inputs left open on their own question and set by the discovery page's answer
    (the same inputs whose effect ``constraint_effects`` puts into words)."""
    if DISCOVERY.slug not in answers:
        return frozenset()
    built = build_engine_input(answers=answers)
    return frozenset(
        path
        for path, slug in built.question_of.items()
        if slug == DISCOVERY.slug and built.sources.get(path) == "derived"
    )


def _labels_feeding(question: Question, paths: frozenset[str]) -> tuple[str, ...]:
    """The labels of ``question``'s parts that feed one of ``paths``."""
    if not paths or question is DISCOVERY:
        return ()
    return tuple(
        str(field.label)
        for field in question.form_class.base_fields.values()
        if isinstance(getattr(field, "does", None), Feeds) and paths & set(field.does.inputs)
    )


def _in_words(items: list[str]) -> str:
    """``["3", "6", "8"]`` → "3, 6 and 8"."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def decided_on_review(answers: dict[str, Any]) -> dict[str, list[Decision]]:
    """What the engine will choose for each set-up question left to it, from the same sizing as
    :func:`assumed_on_review`."""
    try:
        sized = _sized(answers)
    except InvalidInput:
        return {}
    decided = setup_decisions(sized.result, sized.sources, sized.question_of, EXPERT_SLUGS)
    if not setup_unknown(answers):
        return decided
    # no one on the customer's team knows the set-up: each choice in plain words
    return {slug: [plain_decision(d) for d in decisions] for slug, decisions in decided.items()}


def assumed_on_review(answers: dict[str, Any]) -> dict[str, list[str]]:
    """What the engine will assume for each "not sure" answer, sized once per distinct input."""
    try:
        sized = _sized(answers)
    except InvalidInput:
        return {}
    return unsure_assumptions(sized)


def _sized(answers: dict[str, Any], *, contact_country: str = "") -> SizedAnswers:
    """The review page's sizing of ``answers``: the pipeline's day (``timezone.localdate``), so
    the sent answers' first sizing is this one, reused."""
    return size_answers_once(
        answers=answers, today=timezone.localdate(), contact_country=contact_country
    )
