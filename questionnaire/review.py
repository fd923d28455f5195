"""The "check your answers" page: every answer, what needs attention, and Change links."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils import timezone
from django.utils.datastructures import MultiValueDict

from questionnaire.answers import NOT_ANSWERED, NOTES_LABEL, AnswerLine
from questionnaire.checked_pages import checked_pages
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
    AnsweredQuestion,
    Question,
    answered_question,
    get_question,
)
from questionnaire.roles import Feeds
from sizing.public import (
    BuiltInput,
    Decision,
    FirstEstimate,
    InvalidInput,
    SizedAnswers,
    build_engine_input,
    constraint_effects,
    discovery_questions,
    estimate_of,
    plain_decision,
    read_result,
    reads_alternatives,
    setup_decisions,
    size_built_once,
    unsure_assumptions,
)

# Sizing the answers for the page takes tens of milliseconds of CPU, most of the page's cost, and
# the same answers come back often: the customer returns here after each "Change", and customers
# who are unsure of the same things share an engine input. Each distinct input is sized once and
# kept in the shared cache (``sizing.sized_once``). One view of the page builds the engine input
# once, placed by the contact's country as the pipeline places the sent answers, and reads all
# it shows from that input and its one sizing: the assumptions, the set-up decisions, the first
# estimate and what the discovery page's answer set (issue 29: the page sized twice, and said
# what it assumed from a sizing the proposal would not use).


# Beside a "not sure" line: what decides it instead of the customer's answer.
SET_BY_PROJECT = "Set by what matters most to you, under “About your project” above."
TYPICAL_FOR_THE_REST = (
    "Apart from the rule above, we will assume typical values, shown in your proposal."
)
TYPICAL_VALUE = "We will assume a typical value and show it in your proposal."


@dataclass(frozen=True)
class ShownLine:
    """One line of a review row as the page shows it (``ReviewRow.shown_lines``)."""

    label: str
    text: str
    not_sure: bool
    prefilled: str  # the mark's words when filled from the customer's file or words, else ""
    unsure_words: str  # what happens where the customer is not sure, else ""


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
    def shown_lines(self) -> list[ShownLine]:
        """The row's lines as the page shows them: each with its mark when filled from the
        customer's file or words, and what happens where the customer is not sure."""
        return [
            ShownLine(
                line.label,
                line.text,
                line.not_sure,
                self.prefilled.get(line.label, ""),
                self._unsure_words(line),
            )
            for line in self.lines
        ]

    def _unsure_words(self, line: AnswerLine) -> str:
        if line.not_sure and line.label in self.set_by_project:
            return SET_BY_PROJECT
        if line.whole and self.set_by_project:
            return TYPICAL_FOR_THE_REST
        if line.not_sure and not self.assumed:
            return TYPICAL_VALUE
        return ""

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
    checks = checked_pages(draft.step_data, PAGES)
    for question in PAGES:
        check = checks.get(question.slug)
        change_url = f"{step_url(question.slug)}?change=1"
        title = AnsweredQuestion(question, []).title  # the title alone: no lines to build
        if question.expert and recommend:
            kept = kept_setup_answer(question, check.answer if check else None)
            answers[question.slug] = setup_answer(question, kept)
            lines = answered_question(question, kept).lines if kept else []
            rows.append(
                ReviewRow(question, title, lines, change_url, "", recommended=True, kept=bool(kept))
            )
            continue
        if check is None:
            rows.append(
                ReviewRow(
                    question,
                    title,
                    [],
                    change_url,
                    f"Not answered yet. Answer it or tick “{NOT_SURE_QUESTION_LABEL}”.",
                )
            )
        elif check.answer is None:
            rows.append(
                ReviewRow(
                    question,
                    title,
                    answered_question(question, {}).lines,
                    change_url,
                    check.problem,
                )
            )
        else:
            answers[question.slug] = check.answer
            lines = answered_question(question, check.answer).lines
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
    contact_lines, contact_problem, country = _contact(draft)
    sizing = review_sizing(answers, contact_country=country)
    assumed = assumed_on_review(sizing)
    decided = decided_on_review(answers, sizing) if recommend else {}
    numbers = question_numbers(draft.step_data)
    by_project = _set_by_project(answers, sizing.built)
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
        "constraint_effects": constraint_effects(answers, built=sizing.built),
        "discovery_questions": discovery_questions(answers),
        "setup_rows": setup_rows,
        "rows": rows,
        "attention": attention,
        "contact_lines": contact_lines,
        "contact_problem": contact_problem,
        "contact_change_url": f"{step_url('contact')}?change=1",
        **(_estimate_context(sizing, step_url, numbers) if not attention else {}),
        "ready_to_send": not attention and not contact_problem,
    }


def _contact(draft: Draft) -> tuple[list[AnswerLine], str, str]:
    """The contact details' lines, their problem ("" when fine) and the contact's country ("" when
    not given yet: it places a customer whose answers name no place)."""
    contact_raw = draft.step_data.get("contact")
    if not contact_raw:
        return [], "Not given yet.", ""
    contact_form = ContactForm(data=MultiValueDict(contact_raw), prefix="contact")
    if not contact_form.is_valid():
        return [], str(next(iter(contact_form.errors.values()))[0]), ""
    lines = [
        AnswerLine(
            str(field.label).replace(" (optional)", ""), contact_form.cleaned_data.get(name) or "—"
        )
        for name, field in contact_form.fields.items()
        if name != "consent"
    ]
    return lines, "", str(contact_form.cleaned_data.get("country") or "")


@dataclass(frozen=True)
class ReviewSizing:
    """The review page's one sizing of the answers: the engine input built from them, placed by
    the contact's country as the pipeline places them, and its sizing (without the other
    accelerators unless its words read them: :func:`review_sizing`); ``sized`` is None when the
    engine refuses the input."""

    built: BuiltInput
    sized: SizedAnswers | None


def review_sizing(answers: dict[str, Any], *, contact_country: str = "") -> ReviewSizing:
    """Build the engine input of ``answers`` once and size it once per distinct input
    (``size_built_once``), on the pipeline's day (``timezone.localdate``).

    The page shows none of the other accelerators the proposal compares, so they are left
    unsized (a third of a sizing, issue 29), unless its words read them (``reads_alternatives``:
    a non-NVIDIA plan set beside its NVIDIA rival); every figure it shows is the proposal's."""
    today = timezone.localdate()
    built = build_engine_input(answers=answers, today=today, contact_country=contact_country)
    try:
        sized = size_built_once(built, today=today, alternatives=False)
        if reads_alternatives(read_result(sized.result)):
            sized = size_built_once(built, today=today)
    except InvalidInput:
        sized = None
    return ReviewSizing(built, sized)


def _estimate_context(
    sizing: ReviewSizing,
    step_url: Callable[[str], str],
    numbers: dict[str, int],
) -> dict[str, Any]:
    """The first estimate, the answer that set it and the link to change that answer."""
    if sizing.sized is None:
        return {}
    estimate = estimate_of(sizing.sized)
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
    """The first estimate of ``answers`` as the review page shows it (``review_sizing``: placed
    by the contact's country, which may set the currency)."""
    sized = review_sizing(answers, contact_country=contact_country).sized
    return None if sized is None else estimate_of(sized)


def _set_by_project(answers: dict[str, Any], built: BuiltInput) -> frozenset[str]:
    """Engine inputs left open on their own question and set by the discovery page's answer
    (the same inputs whose effect ``constraint_effects`` puts into words)."""
    if DISCOVERY.slug not in answers:
        return frozenset()
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


def decided_on_review(answers: dict[str, Any], sizing: ReviewSizing) -> dict[str, list[Decision]]:
    """What the engine will choose for each set-up question left to it, from the review's one
    sizing (the one :func:`assumed_on_review` reads)."""
    sized = sizing.sized
    if sized is None:
        return {}
    decided = setup_decisions(sized.result, sized.sources, sized.question_of, EXPERT_SLUGS)
    if not setup_unknown(answers):
        return decided
    # no one on the customer's team knows the set-up: each choice in plain words
    return {slug: [plain_decision(d) for d in decisions] for slug, decisions in decided.items()}


def assumed_on_review(sizing: ReviewSizing) -> dict[str, list[str]]:
    """What the engine will assume for each "not sure" answer, from the review's one sizing."""
    return {} if sizing.sized is None else unsure_assumptions(sizing.sized)
