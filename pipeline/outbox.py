"""The email outbox: every email is a row written with the event it tells about, then sent by a task.

``queue_email`` writes the row inside the caller's transaction and publishes ``send_email`` after
commit, so an email never goes out for an event that rolled back, and a web request never waits
for SMTP. The row's ``key`` names the event (and version), so the same event never queues a
second email. ``deliver_email`` claims a pending row, sends it through Django's email framework
(SMTP, or an email service's API through django-anymail: ``EMAIL_BACKEND``) and records the
outcome; an error is retried with backoff by the task until the row's attempt cap, when the row
is marked failed and shows as such in the admin. The sweeper publishes rows whose message was
lost. The service's bounce and complaint webhooks mark the row later (``delivery_events``).

A resume link is the one email asked for before any submission exists: the questionnaire
publishes it by name with the draft's id and the link (``queue_resume_link``), since the link
is also shown on the page and only its hash is stored on the draft. Its body is emptied once
sent or given up, so the outbox never keeps a working link.
"""

import hashlib
import logging
from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.utils import timezone

from config.celery import publish
from pipeline.models import OutgoingEmail
from questionnaire.models import Draft

logger = logging.getLogger(__name__)

SEND_EMAIL_TASK = "pipeline.deliver_email"
# An email is failed for good after this many attempts [attempts]; with the task's backoff
# (2, 4, 8, 16 s … with jitter) that covers a mail server restart of about a minute.
MAX_EMAIL_ATTEMPTS = 5

Status = OutgoingEmail.Status
Kind = OutgoingEmail.Kind
# What stands in a resume email's body once it is sent: the link in it opened the answers.
LINK_REMOVED = "[Removed once sent: it held the customer's private link.]"


def unique_addresses(addresses) -> list[str]:
    """Addresses lower-cased and de-duplicated, in their first order; blanks dropped."""
    seen: dict[str, None] = {}
    for address in addresses:
        cleaned = (address or "").strip().lower()
        if cleaned:
            seen.setdefault(cleaned, None)
    return list(seen)


def queue_email(
    *,
    submission=None,
    draft: Draft | None = None,
    kind: str,
    key: str,
    to: list[str],
    subject: str,
    body: str,
    version: int | None = None,
    reply_to: list[str] | None = None,
) -> OutgoingEmail | None:
    """Write the email for one event and send it after commit; None if already queued or no one
    to send it to. Never raises: an email must not undo the event it tells about."""
    recipients = unique_addresses(to)
    if not recipients:
        logger.info("no recipients for %s; not sending %r", key, subject)
        return None
    try:
        with transaction.atomic():
            email, created = OutgoingEmail.objects.get_or_create(
                key=key,
                defaults={
                    "submission": submission,
                    "draft": draft,
                    "kind": kind,
                    "version": version,
                    "to": recipients,
                    "reply_to": unique_addresses(reply_to or []),
                    # One line: customer text (a company name) never adds a header.
                    "subject": " ".join(subject.split())[:300],
                    "body": body,
                },
            )
    except Exception:
        logger.exception("could not queue the email %s", key)
        return None
    if not created:
        return None
    transaction.on_commit(lambda: publish(SEND_EMAIL_TASK, email.pk), robust=True)
    return email


def deliver_email(*, email_id: int) -> None:
    """Send one queued email. Idempotent: a sent, failed or already-claimed row is left alone.

    Raises the sending error for the task to retry, until the attempt cap marks the row failed.
    """
    now = timezone.now()
    claimed = OutgoingEmail.objects.filter(pk=email_id, status=Status.PENDING).update(
        status=Status.SENDING, attempts=F("attempts") + 1, updated_at=now
    )
    if not claimed:
        return
    email = OutgoingEmail.objects.get(pk=email_id)
    message = EmailMessage(
        email.subject,
        email.body,
        settings.DEFAULT_FROM_EMAIL,
        email.to,
        reply_to=email.reply_to or None,
    )
    # Sent back by an email service's webhooks (anymail's metadata; SMTP ignores it).
    message.metadata = {"outbox_id": str(email.pk)}  # type: ignore[attr-defined]
    # A resume link's body is emptied once it leaves or is given up on.
    forget_link = {"body": LINK_REMOVED} if email.kind == Kind.RESUME_LINK else {}
    try:
        message.send()
    except Exception as exc:
        error = f"Attempt {email.attempts} of {MAX_EMAIL_ATTEMPTS}: {type(exc).__name__}: {exc}"
        if email.attempts >= MAX_EMAIL_ATTEMPTS:
            _set(email, Status.FAILED, error=error[:2000], **forget_link)
            logger.error("email %s failed for good: %s", email.key, error)
            return
        _set(email, Status.PENDING, error=error[:2000])
        raise
    _set(
        email,
        Status.SENT,
        error="",
        sent_at=timezone.now(),
        message_id=_service_message_id(message)[:200],
        **forget_link,
    )


def _service_message_id(message: EmailMessage) -> str:
    """The email service's id for a message anymail sent (its webhooks name it); "" over SMTP."""
    status = getattr(message, "anymail_status", None)
    message_id = getattr(status, "message_id", None)
    return "" if message_id is None else str(message_id)


def queue_resume_link(*, draft_id: str, link: str) -> OutgoingEmail | None:
    """The customer's link to continue their questionnaire, to the address saved on the draft.

    Idempotent: the same link (a second delivery of the task's message) queues one email.
    """
    draft = Draft.objects.filter(pk=draft_id).first()
    if draft is None or not draft.email:
        logger.info("draft %s is gone or has no address; no resume link sent", draft_id)
        return None
    link_hash = hashlib.sha256(link.encode()).hexdigest()[:16]
    return queue_email(
        draft=draft,
        kind=Kind.RESUME_LINK,
        key=f"resume_link:{draft.pk}:{link_hash}",
        to=[draft.email],
        subject="Your link to continue the questionnaire",
        body=render_to_string(
            "emails/customer_resume_link.txt",
            {"link": link, "days": settings.RESUME_LINK_DAYS},
        ),
    )


def retry_email(*, email: OutgoingEmail) -> bool:
    """Give a failed email fresh attempts and send it after commit; False if it had not failed
    (or is a resume link)."""
    # A resume link's body was emptied: the customer asks for a new link on the page instead.
    failed = OutgoingEmail.objects.filter(pk=email.pk, status=Status.FAILED)
    updated = failed.exclude(kind=Kind.RESUME_LINK).update(
        status=Status.PENDING, attempts=0, error="", updated_at=timezone.now()
    )
    if updated:
        transaction.on_commit(lambda: publish(SEND_EMAIL_TASK, email.pk), robust=True)
    return bool(updated)


def stale_email_ids(*, pending_before: datetime, sending_before: datetime) -> list[int]:
    """Emails pending since before ``pending_before``, or claimed by a worker that died (sending
    since before ``sending_before``: those go back to pending, and may go out twice)."""
    abandoned = Q(status=Status.SENDING, updated_at__lt=sending_before)
    stale = Q(status=Status.PENDING, updated_at__lt=pending_before) | abandoned
    ids = list(OutgoingEmail.objects.filter(stale).order_by("pk").values_list("pk", flat=True))
    OutgoingEmail.objects.filter(abandoned).update(status=Status.PENDING)
    return ids


def _set(email: OutgoingEmail, status: str, **fields) -> None:
    OutgoingEmail.objects.filter(pk=email.pk).update(
        status=status, updated_at=timezone.now(), **fields
    )
