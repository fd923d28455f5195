"""The "check your answers" page: every answer, what needs attention, and Change links."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.utils.datastructures import MultiValueDict

from questionnaire.answers import AnswerLine
from questionnaire.forms.steps import ContactForm
from questionnaire.models import Draft
from questionnaire.questions import QUESTIONS, Question, answered_question
from questionnaire.services import question_form
from sizing.adapters import assumed_for_unsure_answers


@dataclass(frozen=True)
class ReviewRow:
    question: Question
    title: str
    lines: list[AnswerLine]
    change_url: str
    problem: str  # empty when the answer is fine
    assumed: tuple[str, ...] = ()  # what we will assume where the customer is not sure


def review_rows(draft: Draft, *, step_url: Callable[[str], str]) -> dict[str, Any]:
    rows: list[ReviewRow] = []
    answers: dict[str, dict[str, Any]] = {}
    for question in QUESTIONS:
        form = question_form(question.slug, question.form_class, draft)
        change_url = f"{step_url(question.slug)}?change=1"
        title = answered_question(question, None).title
        if form is None:
            rows.append(
                ReviewRow(
                    question,
                    title,
                    [],
                    change_url,
                    "Not answered yet. Answer it or choose “Not sure yet”.",
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
            rows.append(ReviewRow(question, title, lines, change_url, ""))
    assumed = assumed_for_unsure_answers(answers)
    rows = [
        replace(row, assumed=tuple(assumed.get(row.question.slug, ()))) if not row.problem else row
        for row in rows
    ]
    contact_raw = draft.step_data.get("contact")
    contact_form = (
        ContactForm(data=MultiValueDict(contact_raw), prefix="contact") if contact_raw else None
    )
    contact_lines: list[AnswerLine] = []
    contact_problem = "Not given yet."
    if contact_form is not None and contact_form.is_valid():
        contact_problem = ""
        for name, field in contact_form.fields.items():
            if name == "consent":
                continue
            value = contact_form.cleaned_data.get(name)
            contact_lines.append(
                AnswerLine(str(field.label).replace(" (optional)", ""), value or "—")
            )
    elif contact_form is not None:
        contact_problem = str(next(iter(contact_form.errors.values()))[0])
    attention = [row for row in rows if row.problem]
    return {
        "rows": rows,
        "attention": attention,
        "contact_lines": contact_lines,
        "contact_problem": contact_problem,
        "contact_change_url": f"{step_url('contact')}?change=1",
        "ready_to_send": not attention and not contact_problem,
    }
