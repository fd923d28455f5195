"""Which answers were filled from the customer's file or sentence, for the pages to mark them.

Saved when the customer confirms the check page (``services.fill_confirmed_answers``) with the
posted values filled; an answer is marked only while it still holds them, so an answer the
customer has since changed is theirs again, unmarked.
"""

from __future__ import annotations

from questionnaire.models import Draft

WORDS, FILE = "words", "file"
# What each mark says next to the answer, on the question page and the review page.
MARK_WORDS = {
    WORDS: "Read from your words on the first page. Check it.",
    FILE: "Read from your file. Check it.",
}
REVIEW_WORDS = {WORDS: "Read from your words", FILE: "Read from your file"}


def prefilled_fields(draft: Draft, slug: str) -> dict[str, str]:
    """``{field: WORDS or FILE}`` for the answers of ``slug`` still as they were filled."""
    marks = (draft.prefilled or {}).get(slug) or {}
    raw = (draft.step_data or {}).get(slug) or {}
    return {
        field: mark["from"]
        for field, mark in marks.items()
        if isinstance(mark, dict)
        and mark.get("from") in MARK_WORDS
        and raw.get(f"{slug}-{field}") == mark.get("values")
    }
