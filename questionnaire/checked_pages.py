"""Each page's stored data checked once: its stored answer, or the first thing to fix.

Checking a page means binding its form to the draft's raw data and validating it: about a third of
a millisecond of CPU a page, sixteen pages on every view of the review page and again on every
send (issue 29). What a page's check gives depends only on the page, its raw data, the day
(a deadline must not have passed) and the code that checks it, so each distinct check is kept
in the shared cache (Redis with ``CACHE_URL``: every web process on every host reuses it), keyed
by a hash of all four: the review page reads every page's check in one look-up, the send reads
the same checks, and a question's page that has just validated what it is about to store
(``remember_valid_page``) leaves its check there for them. Any change of a page's raw data is a
new key, so a check is never stale; a changed form (new code, a new Django) never meets an old
entry.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import django
from django.conf import settings
from django.core.cache import cache as shared_cache
from django.utils.datastructures import MultiValueDict

from config.code_digest import files_digest
from questionnaire.forms.base import QuestionForm
from questionnaire.questions import DISCOVERY, Question

# A customer checks their answers, changes one, comes back and sends them within hours; a new
# day is a new key anyway [s].
CHECK_CACHE_SECONDS = 6 * 60 * 60

StepData = Mapping[str, Any]
_PROJECT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class CheckedPage:
    """One visited page's check: ``answer`` when valid, else the first error's message."""

    answer: dict[str, Any] | None
    problem: str = ""


def checked_pages(step_data: StepData, questions: Iterable[Question]) -> dict[str, CheckedPage]:
    """The check of each of ``questions`` the draft holds data for (the discovery page always:
    never visited, it reads as every part left empty), in the order given; a page never visited
    is absent. Each check is the page's form bound to its raw data and validated, or that
    check kept from before (one cache look-up for them all)."""
    today = datetime.date.today()
    raws: dict[str, tuple[Question, Mapping[str, list[str]]]] = {}
    for question in questions:
        raw = step_data.get(question.slug)
        if raw is None and question is DISCOVERY:
            raw = {}
        if raw is not None:
            raws[question.slug] = (question, raw)
    keys = {slug: _check_key(slug, raw, today) for slug, (_, raw) in raws.items()}
    kept = shared_cache.get_many(list(keys.values()))
    checks: dict[str, CheckedPage] = {}
    made: dict[str, CheckedPage] = {}
    for slug, (question, raw) in raws.items():
        check = kept.get(keys[slug])
        if check is None:
            check = _check(question, raw)
            if datetime.date.today() == today:  # not checked across midnight: keep it
                made[keys[slug]] = check
        checks[slug] = check
    if made:
        shared_cache.set_many(made, CHECK_CACHE_SECONDS)
    return checks


def remember_valid_page(step: str, raw: Mapping[str, list[str]], form: QuestionForm) -> None:
    """Keep the check of ``form``, just validated and valid, as the check of the raw data stored
    for ``step``, when the form read exactly that data (stored data differs from a post where a
    character was made storable, and then it is checked again from the draft)."""
    today = datetime.date.today()
    data = form.data
    if not isinstance(data, MultiValueDict) or not form.is_bound or form.errors:
        return
    if any(data.getlist(name) != values for name, values in raw.items()):
        return
    check = CheckedPage(answer=form.to_answer())
    shared_cache.set(_check_key(step, raw, today), check, CHECK_CACHE_SECONDS)


def _check(question: Question, raw: Mapping[str, list[str]]) -> CheckedPage:
    form = question.form_class(data=MultiValueDict(raw), prefix=question.slug)
    if not form.is_valid():
        return CheckedPage(answer=None, problem=str(next(iter(form.errors.values()))[0]))
    return CheckedPage(answer=form.to_answer())


def _check_key(slug: str, raw: Mapping[str, list[str]], today: datetime.date) -> str:
    canonical = json.dumps(raw, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode()).hexdigest()
    return f"checked-page:{_checking_code()}:{today.isoformat()}:{slug}:{digest}"


@cache
def _checking_code() -> str:
    """A short digest of all the code a check runs: every file of the questionnaire (its forms,
    fields and quantities) and of sizing (the forms' choices and the readers some fields call,
    down to the engine's tables), with the Django version (its fields' own checks and messages)
    and the language of the messages; read once per process."""
    return files_digest(
        _PROJECT / "questionnaire",
        _PROJECT / "sizing",
        seed=f"{django.__version__}:{settings.LANGUAGE_CODE}",
    )
