"""The "Fill from a file you already have" button on the questions a file can answer, and the
mark beside an answer filled from the customer's file or sentence."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

# The questions a config.json or a training recipe answers best (it may fill others too).
QUESTIONS_WITH_FILE_LINK = frozenset({"model", "method", "precision", "batch", "parallelism"})


@register.inclusion_tag("questionnaire/_fill_from_file_link.html")
def fill_from_file_link(draft: Any, question: Any) -> dict[str, bool]:
    """A submit button, not a link: the wizard saves the page first (``FILL_FROM_FILE``)."""
    shown = draft is not None and question is not None
    return {"show": shown and question.slug in QUESTIONS_WITH_FILE_LINK}


@register.simple_tag(takes_context=True)
def prefill_note(context: Any, key: str, marks_name: str = "prefilled") -> str:
    """The mark of the answer ``key`` (a field's name, or a review line's label) in the context's
    ``marks_name`` (``{key: words}``); "" on a page without marks."""
    marks = context.get(marks_name)
    if marks_name == "row":  # the review page: the row's own marks
        marks = getattr(marks, "prefilled", None)
    return str(marks.get(key, "")) if isinstance(marks, dict) else ""
