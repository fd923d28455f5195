"""The "Fill from a file you already have" link on the questions a file can answer."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

register = template.Library()

# The questions a config.json or a training recipe answers best (it may fill others too).
QUESTIONS_WITH_FILE_LINK = frozenset({"model", "method", "precision", "batch", "parallelism"})


@register.inclusion_tag("questionnaire/_fill_from_file_link.html")
def fill_from_file_link(draft: Any, question: Any) -> dict[str, str]:
    if draft is None or question is None or question.slug not in QUESTIONS_WITH_FILE_LINK:
        return {"url": ""}
    url = reverse("questionnaire:fill_from_file", kwargs={"draft_id": draft.pk})
    return {"url": f"{url}?from={question.slug}"}
