"""Which answers were filled from the customer's file or sentence, for the pages to mark them.

Saved when the customer confirms the check page (``services.fill_confirmed_answers``) with the
posted values filled; an answer is marked only while it still holds them, so an answer the
customer has since changed is theirs again, unmarked.
"""

from __future__ import annotations

from questionnaire.models import Draft

WORDS, FILE = "words", "file"
# What each mark says: under the answer's label on its question page (in place of the example,
# which the answer itself now shows), and after it on the review page. Short on purpose: the
# non-expert path promises a read of at most 1,500 words (tests/e2e/test_non_expert_path.py).
MARK_WORDS = {WORDS: "From your words", FILE: "From your file"}


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
