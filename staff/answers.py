"""The customer's answers as staff see them, in registry order (never a second list)."""

from dataclasses import dataclass
from typing import Any

from questionnaire.models import Submission
from questionnaire.questions import QUESTIONS


@dataclass(frozen=True)
class AnsweredQuestion:
    number: int
    title: str
    lines: list  # questionnaire.answers.AnswerLine
    not_sure: bool


def answered_questions(submission: Submission) -> list[AnsweredQuestion]:
    """Each of the fifteen questions with the customer's answer lines."""
    answers: dict[str, Any] = submission.answers or {}
    result = []
    for question in QUESTIONS:
        lines = question.answer_lines(answers.get(question.slug))
        result.append(
            AnsweredQuestion(
                number=question.number,
                title=question.title,
                lines=lines,
                not_sure=any(line.not_sure for line in lines),
            )
        )
    return result


def answer_columns(submission: Submission) -> dict[str, str]:
    """All answers flattened to ``<slug>.<item>`` text columns, in registry order."""
    answers: dict[str, Any] = submission.answers or {}
    columns: dict[str, str] = {}
    for question in QUESTIONS:
        columns.update(question.flatten(answers.get(question.slug)))
    return columns
