"""Which questionnaires this browser may open.

A signed cookie lists the drafts this browser started or resumed with a private link. It holds
ids only, never answers (those are in the database), and outlives the session on purpose: when
a session expires mid-way the customer keeps going from the saved draft instead of starting over.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

COOKIE_NAME = "tq_drafts"
_SALT = "questionnaire.access"
# Enough for someone who starts over a few times; the oldest ids drop off first.
_MAX_DRAFTS = 10


def draft_ids(request: HttpRequest) -> list[str]:
    try:
        value = request.get_signed_cookie(COOKIE_NAME, default="", salt=_SALT)
    except signing.BadSignature:
        return []
    return [part for part in value.split(",") if part]


def may_open(request: HttpRequest, draft_id: uuid.UUID) -> bool:
    return str(draft_id) in draft_ids(request)


def grant(request: HttpRequest, response: HttpResponse, draft_id: uuid.UUID) -> None:
    ids = [i for i in draft_ids(request) if i != str(draft_id)] + [str(draft_id)]
    response.set_signed_cookie(
        COOKIE_NAME,
        ",".join(ids[-_MAX_DRAFTS:]),
        salt=_SALT,
        max_age=settings.RESUME_LINK_DAYS * 24 * 3600,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
