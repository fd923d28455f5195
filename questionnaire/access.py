"""Which questionnaires this browser may open.

A signed cookie lists the drafts this browser started or resumed with a private link. It holds
ids only, never answers (those are in the database), and outlives the session on purpose: when
a session expires mid-way the customer keeps going from the saved draft instead of starting over.

Two things bound what the cookie grants:

* its signature carries a timestamp, and a value older than ``RESUME_LINK_DAYS`` is refused on
  the server (the browser's ``max_age`` alone could be replayed from a copied cookie);
* each entry is stamped with the draft's resume-link generation (a prefix of the stored token
  hash). Issuing a new link changes it, so the browsers that used the old link lose access;
  the browser that asked for the new link is granted again.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

from questionnaire.models import Draft

COOKIE_NAME = "tq_drafts"
_SALT = "questionnaire.access"
# Enough for someone who starts over a few times; the oldest ids drop off first.
_MAX_DRAFTS = 10
_STAMP_LENGTH = 16


def _max_age_seconds() -> int:
    return settings.RESUME_LINK_DAYS * 24 * 3600


def _stamp(draft: Draft) -> str:
    return draft.resume_token_hash[:_STAMP_LENGTH]


def _entries(request: HttpRequest) -> dict[str, str]:
    """``{draft id: stamp}`` from a valid, unexpired cookie; empty otherwise."""
    try:
        value = request.get_signed_cookie(
            COOKIE_NAME, default="", salt=_SALT, max_age=_max_age_seconds()
        )
    except signing.BadSignature:  # includes SignatureExpired
        return {}
    entries: dict[str, str] = {}
    for part in value.split(","):
        draft_id, _, stamp = part.partition(":")
        if draft_id:
            entries[draft_id] = stamp
    return entries


def open_drafts(request: HttpRequest, drafts: Iterable[Draft]) -> list[Draft]:
    """Those of ``drafts`` this browser may still open."""
    entries = _entries(request)
    return [d for d in drafts if entries.get(str(d.pk)) == _stamp(d)]


def draft_ids(request: HttpRequest) -> list[str]:
    """Ids this browser holds (still to be checked against the drafts with open_drafts)."""
    return list(_entries(request))


def may_open(request: HttpRequest, draft: Draft) -> bool:
    return bool(open_drafts(request, [draft]))


def grant(request: HttpRequest, response: HttpResponse, draft: Draft) -> None:
    entries = {k: v for k, v in _entries(request).items() if k != str(draft.pk)}
    entries[str(draft.pk)] = _stamp(draft)
    kept = list(entries.items())[-_MAX_DRAFTS:]
    response.set_signed_cookie(
        COOKIE_NAME,
        ",".join(f"{draft_id}:{stamp}" for draft_id, stamp in kept),
        salt=_SALT,
        max_age=_max_age_seconds(),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
