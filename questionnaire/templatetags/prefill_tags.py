"""The "Fill from a file you already have" button on the questions a file can answer."""

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
