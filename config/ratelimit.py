"""Fixed-window rate limits per client address, kept in Django's cache.

The client is identified by :func:`config.client_address.client_address`: the socket address,
or behind a configured trusted proxy the address that proxy put in ``X-Forwarded-For``. A header
sent by the client itself never selects the bucket, so a spoofed one cannot reset a count.

The cache must be shared by all web processes for the limit to hold across them: configure
``CACHE_URL`` (Redis) in production; the in-process default is for a single-process dev server.
"""

import math
import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from config.client_address import client_address


@dataclass(frozen=True)
class RateLimit:
    scope: str
    max_requests: int
    window_seconds: int


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    retry_after_seconds: int


def hit(
    limit: RateLimit, request: HttpRequest, *, subject: str = "", now: float | None = None
) -> RateDecision:
    """Count one request against ``limit`` and say whether it is allowed.

    The count is per client address, or per ``subject`` when given (a questionnaire's id, to
    bound what one questionnaire can do from any number of addresses).
    """
    now = time.time() if now is None else now
    window_start = int(now // limit.window_seconds) * limit.window_seconds
    key = f"ratelimit:{limit.scope}:{subject or client_address(request)}:{window_start}"
    # add() is atomic: it only creates the counter if it is absent, then incr() is atomic too.
    cache.add(key, 0, timeout=limit.window_seconds + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # the key expired between add() and incr()
        cache.add(key, 1, timeout=limit.window_seconds + 5)
        count = 1
    retry_after = max(1, math.ceil(window_start + limit.window_seconds - now))
    return RateDecision(allowed=count <= limit.max_requests, retry_after_seconds=retry_after)


def too_many_requests(
    request: HttpRequest, decision: RateDecision, *, context: dict[str, Any] | None = None
) -> HttpResponse:
    """The friendly 429 page; ``context`` may set ``what`` (what was refused), ``continue_url``
    and ``staff`` (a sign-in page: no talk of saved answers)."""
    body = render_to_string(
        "429.html",
        {"retry_after_minutes": math.ceil(decision.retry_after_seconds / 60), **(context or {})},
        request,
    )
    response = HttpResponse(body, status=429)
    response["Retry-After"] = str(decision.retry_after_seconds)
    return response
