"""Business actions of the questionnaire: saving drafts, resume links and submitting.

The wizard, the demo loader and the tests all go through these functions, so a demo submission
is stored exactly like a real one.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.datastructures import MultiValueDict

from config.celery import publish
from questionnaire.checked_pages import checked_pages
from questionnaire.draft_rows import merge_step
from questionnaire.models import Draft, ReferenceCounter, Submission
from questionnaire.paths import recommends_setup_in_draft, setup_answer
from questionnaire.questions import PAGES, SCHEMA_VERSION

logger = logging.getLogger(__name__)

StepData = dict[str, list[str]]
_QUESTION_FORMS = {question.slug: question.form_class for question in PAGES}

# What a new submission queues, by name: the pipeline (which imports this app, never the other
# way) registers the task and does the sizing, the proposal and the staff email.
START_PIPELINE_TASK = "pipeline.start_pipeline"
# The resume-link email, written to the pipeline's outbox and sent by its mailer.
RESUME_LINK_TASK = "pipeline.queue_resume_link"


@dataclass(frozen=True)
class Contact:
    name: str
    email: str
    company: str
    role: str = ""
    country: str = ""


class IncompleteAnswers(ValueError):
    """Some questions still need attention; ``slugs`` lists them in order."""

    def __init__(self, slugs: list[str]):
        super().__init__(f"questions needing attention: {', '.join(slugs)}")
        self.slugs = slugs


# --- drafts ------------------------------------------------------------------------------------


def start_draft() -> Draft:
    return Draft.objects.create()


def save_step(
    *,
    draft: Draft,
    step: str,
    data: Mapping[str, Any],
    current_step: str,
    form_class: type[forms.Form] | None = None,
) -> Draft:
    """Store one step's raw posted data (valid or not) and where the customer is.

    Raw data, not cleaned data: what the customer typed must come back exactly, even when it was
    not valid yet (Back, "save and come back later", an expired session). Only the fields that
    ``form_class`` (by default the question's form) defines are kept: anything else posted is
    dropped and counted in a log line, so a forged post cannot grow a draft without bound. The
    row is locked so two tabs saving different steps at once cannot overwrite each other's step.
    """
    raw = posted_step_data(draft=draft, step=step, data=data, form_class=form_class)
    return write_step(draft=draft, step=step, raw=raw, current_step=current_step)


def posted_step_data(
    *,
    draft: Draft,
    step: str,
    data: Mapping[str, Any],
    form_class: type[forms.Form] | None = None,
) -> StepData:
    """What :func:`save_step` keeps of a post: the step's raw data, only the fields that
    ``form_class`` (by default the question's form) defines; anything else is dropped and
    counted in a log line."""
    if form_class is None and step in _QUESTION_FORMS:
        form_class = _QUESTION_FORMS[step]
    raw = _raw_step_data(step, data)
    if form_class is not None:
        known = posted_field_names(form_class, step)
        dropped = [key for key in raw if key not in known]
        if dropped:
            logger.warning(
                "dropped %d unknown field(s) posted to step %s of draft %s",
                len(dropped),
                step,
                draft.pk,
            )
            raw = {key: values for key, values in raw.items() if key in known}
    return raw


def write_step(*, draft: Draft, step: str, raw: StepData, current_step: str) -> Draft:
    """Write one step's kept data (:func:`posted_step_data`) and where the customer is, in one
    statement that merges the step into the row as stored, so two tabs saving different steps at
    once cannot overwrite each other's step; the draft as written."""
    return merge_step(draft_id=draft.pk, step=step, raw=raw, current_step=current_step)


def set_current_step(*, draft: Draft, step: str) -> None:
    Draft.objects.filter(pk=draft.pk).update(current_step=step, updated_at=timezone.now())


def _raw_step_data(step: str, data: Mapping[str, Any]) -> StepData:
    """Keep only this step's own fields (``<step>-<field>``): never the CSRF token."""
    if isinstance(data, MultiValueDict):
        items = data.lists()
    else:
        items = (
            (key, value if isinstance(value, list) else [value]) for key, value in data.items()
        )
    prefix = f"{step}-"
    return {
        key: [_storable(str(v)) for v in values] for key, values in items if key.startswith(prefix)
    }


@functools.cache
def posted_field_names(form_class: type[forms.Form], step: str) -> frozenset[str]:
    """The names under which a browser posts ``form_class``'s fields on ``step``.

    Fixed by the form's class (its fields and widgets) and the step: worked out once per process
    rather than by building the form twice on every POST (the wizard's "anything typed?" and
    ``save_step``'s filter; issue 29).
    """
    form = form_class(prefix=step)
    names: set[str] = set()
    for name, field in form.fields.items():
        posted = form.add_prefix(name)
        widget = field.widget
        if isinstance(widget, forms.MultiWidget):
            names.update(posted + suffix for suffix in widget.widgets_names)
        else:
            names.add(posted)
    return frozenset(names)


def _storable(text: str) -> str:
    """PostgreSQL's jsonb cannot hold U+0000. The form refuses a NUL with a message next to the
    field anyway; the saved copy keeps everything else and marks the spot with U+FFFD."""
    return text.replace("\x00", "\ufffd")


def step_data_from_answer_data(step: str, data: Mapping[str, Any]) -> StepData:
    """Form data without prefixes (like a question's example) in the wizard's stored shape."""
    return {
        f"{step}-{key}": [str(v) for v in (value if isinstance(value, list) else [value])]
        for key, value in data.items()
    }


def collect_answers(draft: Draft) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The answers of every question, and the slugs that are missing or invalid.

    The discovery page is optional (never visited: every part empty). On the short path the
    expert questions are "recommend for me", or the customer's own answer where they gave one
    before switching to it (``questionnaire/paths.setup_answer``).
    """
    answers: dict[str, dict[str, Any]] = {}
    attention: list[str] = []
    recommend = recommends_setup_in_draft(draft.step_data)
    # each page checked as the review page checked it, most often that same check (issue 29)
    checks = checked_pages(draft.step_data, PAGES)
    for question in PAGES:
        check = checks.get(question.slug)
        answer = check.answer if check else None
        if question.expert and recommend:
            answers[question.slug] = setup_answer(question, answer)
            continue
        if answer is None:
            attention.append(question.slug)
            continue
        answers[question.slug] = answer
    return answers, attention


# --- resume links ------------------------------------------------------------------------------


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_resume_token(*, draft: Draft) -> str:
    """A new private token for this draft (the previous one stops working); only its hash is
    stored, so a copy of the database cannot be used to open anyone's answers."""
    token = secrets.token_urlsafe(32)
    draft.resume_token_hash = _hash_token(token)
    draft.resume_token_expires_at = timezone.now() + timedelta(days=settings.RESUME_LINK_DAYS)
    draft.save(update_fields=["resume_token_hash", "resume_token_expires_at", "updated_at"])
    return token


def email_resume_link(*, draft: Draft, email: str, link: str) -> bool:
    """Hand the link to the mailer, by name; the request never waits for a mail server.

    False when the queue is unreachable (the link is also shown on the page). The address is
    saved first, outside any transaction (the view holds none), so the mailer finds it.
    """
    if draft.email != email:
        draft.email = email
        draft.save(update_fields=["email", "updated_at"])
    return publish(RESUME_LINK_TASK, str(draft.pk), link)


def find_draft_by_token(token: str) -> tuple[Draft | None, bool]:
    """(draft, expired) for a resume token; (None, False) when unknown."""
    if not token:
        return None, False
    draft = Draft.objects.filter(resume_token_hash=_hash_token(token)).first()
    if draft is None:
        return None, False
    expires = draft.resume_token_expires_at
    return draft, expires is None or expires <= timezone.now()


def spend_resume_token(*, draft: Draft) -> None:
    """Make the draft's resume token worthless: one that travelled in a URL may sit in an
    access log. The stored hash becomes that of a token nobody holds, a new link generation
    (questionnaire.access): never the empty one of a draft that had no link yet, which would
    re-admit the browsers the first link revoked."""
    draft.resume_token_hash = _hash_token(secrets.token_urlsafe(32))
    draft.save(update_fields=["resume_token_hash", "updated_at"])


# --- submitting --------------------------------------------------------------------------------


def next_reference() -> str:
    """The next human-readable reference of this year, like ``TQ-2026-00042``.

    Must run inside a transaction: the counter row stays locked until it commits, so two
    submissions can never draw the same number.
    """
    year = timezone.now().year
    # One query reads and locks the year's row (the first of a year inserts it, locked until
    # commit: a concurrent first insert waits, fails on the key, and then reads it locked).
    counter, _ = ReferenceCounter.objects.select_for_update().get_or_create(year=year)
    counter.last_number += 1
    counter.save(update_fields=["last_number"])
    return f"TQ-{year}-{counter.last_number:05d}"


def submission_of(draft: Draft) -> Submission | None:
    """The draft's submission, read from the row loaded with it; None while not sent."""
    try:
        return draft.submission
    except Draft.submission.RelatedObjectDoesNotExist:
        return None


def submit_answers(*, draft: Draft, contact: Contact) -> Submission:
    """Turn a complete draft into its one Submission and queue the pipeline after commit.

    Idempotent: a double click, a refresh or a replay returns the submission made the first
    time. Raises :class:`IncompleteAnswers` when a question is missing or invalid.
    """
    try:
        with transaction.atomic():
            # Locking the draft serialises concurrent submits of the same questionnaire; its
            # submission, if any, comes in the same query (a LEFT JOIN; only the draft locked).
            locked = (
                Draft.objects.select_for_update(of=("self",))
                .select_related("submission")
                .get(pk=draft.pk)
            )
            existing = submission_of(locked)
            if existing is not None:
                return existing
            answers, attention = collect_answers(locked)
            if attention:
                raise IncompleteAnswers(attention)
            submission = Submission.objects.create(
                reference=next_reference(),
                draft=locked,
                contact_name=contact.name,
                contact_email=contact.email,
                company=contact.company,
                contact_role=contact.role,
                country=contact.country,
                privacy_consent_at=timezone.now(),
                answers=answers,
                schema_version=SCHEMA_VERSION,
                pipeline_status=Submission.PipelineStatus.PENDING,
            )
            submission_id = submission.pk
            # A broker outage is only logged: the submission stays pending and the pipeline's
            # sweeper starts it later, so the customer's commit never depends on the broker.
            transaction.on_commit(lambda: publish(START_PIPELINE_TASK, submission_id), robust=True)
    except IntegrityError:
        # The one-to-one draft link is the last line of defence against a duplicate.
        existing = Submission.objects.filter(draft_id=draft.pk).first()
        if existing is None:
            raise
        return existing
    return submission


# --- housekeeping ------------------------------------------------------------------------------


def purge_expired_drafts_and_sessions() -> dict[str, int]:
    """Delete drafts untouched for DRAFT_RETENTION_DAYS and expired sessions (both hold answers)."""
    cutoff = timezone.now() - timedelta(days=settings.DRAFT_RETENTION_DAYS)
    drafts, _ = Draft.objects.filter(updated_at__lt=cutoff).delete()
    sessions, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return {"drafts": drafts, "sessions": sessions}
