"""Offering the answers the discovery sentence gives, after the discovery page is posted.

The wizard asks :func:`offer_sentence_answers` once the page is saved: when the sentence would
fill or change an answer, what it found waits in the session (as a file's findings do) and the
customer is sent to the check page, where they use all, untick some, or skip. Each sentence is
offered once per session, so coming back to the page and continuing does not ask again.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from questionnaire.models import Draft
from questionnaire.prefill.changes import prefill_changes
from questionnaire.prefill.sentence import FORMAT_NAME, read_sentence
from questionnaire.questions import DISCOVERY

WORDS_PENDING_KEY = "fill_from_words_{}"
_OFFERED_KEY = "fill_from_words_offered_{}"
_SENTENCE_FIELD = f"{DISCOVERY.slug}-use_case"
# The sentence is quoted on the check page; the field keeps at most this many characters.
SENTENCE_SHOWN = 500


def sentence_of(draft: Draft) -> str:
    """The discovery sentence as the draft holds it (what was typed, valid or not)."""
    values = ((draft.step_data or {}).get(DISCOVERY.slug) or {}).get(_SENTENCE_FIELD) or []
    return str(values[-1]).strip() if values else ""


def offer_sentence_answers(request: HttpRequest, draft: Draft, *, next_step: str) -> str | None:
    """The check page's URL when the sentence would change an answer not yet offered to this
    customer; None to go on to ``next_step`` at once."""
    sentence = sentence_of(draft)
    if not sentence:
        return None
    digest = hashlib.sha256(sentence.encode()).hexdigest()[:16]
    offered = _OFFERED_KEY.format(draft.pk)
    if request.session.get(offered) == digest:
        return None
    request.session[offered] = digest
    found = read_sentence(sentence)
    if not prefill_changes(found.values, draft).changes_anything:
        return None
    request.session[WORDS_PENDING_KEY.format(draft.pk)] = _pending(
        sentence, found.values, next_step
    )
    return reverse("questionnaire:fill_from_words_check", kwargs={"draft_id": draft.pk})


def _pending(sentence: str, values: Any, next_step: str) -> dict[str, Any]:
    """What waits in the session for the customer's decision, in the shape of a file's."""
    return {
        "kind": "words",
        "format": FORMAT_NAME,
        "file": "",
        "sentence": sentence[:SENTENCE_SHOWN],
        "values": [[v.slug, v.field, v.value, v.source, v.guessed] for v in values],
        "ignored": [],
        "ignored_more": 0,
        "remarks": [],
        "back": next_step,
    }
