"""Showing a stored answer to people: the review page, admin, PDF and CSV all use this."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from questionnaire.fields import NOT_SURE_LABEL, AnswerFieldMixin

if TYPE_CHECKING:
    from questionnaire.forms.base import QuestionForm

NOT_ANSWERED = "Not answered"
# The label of a question's own "not sure" line: the whole question, or the parts left empty.
WHOLE_QUESTION = "Whole question"
REST_OF_QUESTION = "Other parts"
NOTES_LABEL = "Anything else"  # the line of a question's notes


@dataclass(frozen=True)
class AnswerLine:
    """One row of a summary: the field's label, what the customer gave, and whether unsure."""

    label: str
    text: str
    not_sure: bool = False
    whole: bool = False  # the question's own "not sure" (or "not answered"), not one part


def answer_lines(form_class: type[QuestionForm], answer: dict[str, Any] | None) -> list[AnswerLine]:
    """Every answered part of a question, then "not sure" and the notes when given.

    An empty or missing answer gives a single "Not answered" line, so a summary never hides a
    question.
    """
    answer = answer or {}
    lines: list[AnswerLine] = []
    for name in form_class.answer_field_names():
        field = form_class.base_fields[name]
        assert isinstance(field, AnswerFieldMixin)
        shown = field.answer_text(name, answer)
        if shown is not None:
            lines.append(AnswerLine(str(field.label), shown[0], shown[1]))
    if answer.get("not_sure"):
        # after parts the customer answered, the tick covers only the parts left empty
        label = REST_OF_QUESTION if lines else WHOLE_QUESTION
        lines.append(AnswerLine(label, NOT_SURE_LABEL, True, whole=True))
    if answer.get("notes"):
        lines.append(AnswerLine(NOTES_LABEL, str(answer["notes"])))
    if not lines:
        lines.append(AnswerLine(WHOLE_QUESTION, NOT_ANSWERED, True, whole=True))
    return lines


def line_labels(form_class: type[QuestionForm]) -> list[str]:
    """Every label :func:`answer_lines` can give for one question, in the order it gives them."""
    fields = [str(form_class.base_fields[name].label) for name in form_class.answer_field_names()]
    return [*fields, REST_OF_QUESTION, WHOLE_QUESTION, NOTES_LABEL]


def flatten(
    slug: str, form_class: type[QuestionForm], answer: dict[str, Any] | None
) -> dict[str, str]:
    """One text column per stored item, named ``<slug>.<item>``, for a CSV export.

    Numbers are written as the customer typed them (the ``_text`` item) next to the value we
    read from them; lists are joined with ``; ``.
    """
    answer = answer or {}
    columns: dict[str, str] = {}
    for name in form_class.answer_field_names():
        field = form_class.base_fields[name]
        assert isinstance(field, AnswerFieldMixin)
        for key, empty in field.answer_items(name, None).items():
            value = answer.get(key, empty)
            if isinstance(value, list):
                text = "; ".join(str(item) for item in value)
            elif value is None:
                text = ""
            else:
                text = str(value)
            columns[f"{slug}.{key}"] = text
    columns[f"{slug}.not_sure"] = "yes" if answer.get("not_sure") else ""
    columns[f"{slug}.notes"] = str(answer.get("notes") or "")
    return columns
