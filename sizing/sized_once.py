"""Answers sized once per distinct engine input, and the sizing reused wherever the same input
comes back: the review page on every view, and the pipeline's sizing of the sent answers on a
retry. The review page sizes without the other accelerators the proposal compares (it shows
none of them: a third of a sizing saved where a customer waits, issue 29), so the pipeline
sizes the sent answers in full once, in the background; every figure the page shows is the
same in both (``tests/questionnaire/test_review_sizing_cache.py``).

The key is a hash of all that a sizing reads: the engine input built from the answers, where
each field came from and which question it answers (so notes and other text the engine never
sees do not split it), the day (the engine sizes from today's date), the engine version, and a
digest of the engine's own files (so a changed engine never reads an entry of the old one, even
before its version is bumped). Any change of an answer the engine reads is a new key, so a page
can never show a stale estimate; an answer changed back finds its sizing again. Sizings live in
the shared cache (Redis with ``CACHE_URL``: every web process and worker on every host reuses
them) for :data:`SIZING_CACHE_SECONDS`.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from django.core.cache import cache as shared_cache

from config.code_digest import files_digest
from sizing import engine
from sizing.adapters import (
    ENGINE_VERSION,
    BuiltInput,
    SizedAnswers,
    build_engine_input,
    size_built,
)

# A customer checks their answers, changes one, comes back, and sends them within hours; the
# pipeline sizes the sent answers within seconds. A new day is a new key anyway [s].
SIZING_CACHE_SECONDS = 6 * 60 * 60


def size_answers_once(
    *,
    answers: dict[str, Any],
    overrides: dict[str, Any] | None = None,
    today: date,
    contact_country: str = "",
    measured: dict[str, Any] | None = None,
) -> SizedAnswers:
    """:func:`sizing.adapters.size_answers`, run once per distinct input and then reused.

    ``measured`` (the verification kit's section) is part of the engine input, so of the key.

    Raises ``InvalidInput`` as ``size_answers`` does (a refusal is not kept: it is an
    engineer's override, sized again when corrected).
    """
    built = build_engine_input(
        answers=answers,
        overrides=overrides,
        today=today,
        contact_country=contact_country,
        measured=measured,
    )
    return size_built_once(built, today=today)


def size_built_once(built: BuiltInput, *, today: date, alternatives: bool = True) -> SizedAnswers:
    """:func:`size_answers_once` of an engine input already built from the answers (with
    ``today`` and the contact's country): for a page that reads the built input as well (the
    review page), so it is built, hashed and looked up once per request; ``alternatives=False``
    sizes it without the other accelerators (``engine.core.size``), under a key of its own."""
    key = sizing_key(built, today=today, alternatives=alternatives)
    sized = shared_cache.get(key)
    if sized is None:
        sized = size_built(built, today=today, alternatives=alternatives)
        shared_cache.set(key, sized, SIZING_CACHE_SECONDS)
    return sized


def sizing_key(built: BuiltInput, *, today: date, alternatives: bool = True) -> str:
    """The cache key of one sizing of ``built`` on ``today``; the engine version, its files'
    digest and the day are in clear, so a new engine or a new day never meets an old entry. A
    sizing without the other accelerators has a key of its own: a full one never reads it."""
    canonical = json.dumps(
        [built.engine_input, built.sources, built.question_of],
        sort_keys=True,
        separators=(",", ":"),
        # A value JSON cannot hold is written with its type, so it never shares a key with a
        # string of the same text.
        default=lambda value: f"{type(value).__qualname__}:{value}",
    )
    digest = hashlib.sha256(canonical.encode()).hexdigest()
    lean = "" if alternatives else ":without-alternatives"
    return f"sizing:{ENGINE_VERSION}:{engine_files_digest()}:{today.isoformat()}:{digest}{lean}"


@cache
def engine_files_digest() -> str:
    """A short digest of every file of the engine (its code and its tables), read once per
    process."""
    return files_digest(Path(engine.__file__).parent)
