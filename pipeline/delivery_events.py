"""What the email service tells us after sending: bounces and complaints mark the outbox row.

With an email service behind django-anymail (``EMAIL_BACKEND``), the service posts each
delivery event to anymail's tracking webhook (``/email/anymail/<service>/tracking/``, behind
``ANYMAIL_WEBHOOK_SECRET``), and anymail sends its ``tracking`` signal with the event in one
shape whatever the service. A hard bounce, a rejection or a spam complaint marks the email's
row, with the reason, so staff see on the submission's page that the customer never got it.
Delivered, opened and deferred events change nothing.

A signal, because that is anymail's interface; the receiver only finds the row and records.
https://anymail.dev/en/stable/sending/tracking/
"""

import logging

from django.db.models import Q
from django.utils import timezone

from pipeline.models import OutgoingEmail

logger = logging.getLogger(__name__)

Status = OutgoingEmail.Status

# anymail's normalised event types -> the row's status.
MARKING_EVENTS = {
    "bounced": Status.BOUNCED,
    "rejected": Status.BOUNCED,
    "failed": Status.BOUNCED,
    "complained": Status.COMPLAINED,
}


def record_delivery_event(*, event, esp_name: str = "") -> OutgoingEmail | None:
    """Mark the outbox row an anymail tracking event names; None when it names none of ours
    or is not a bounce or complaint."""
    status = MARKING_EVENTS.get(str(event.event_type))
    if status is None:
        return None
    outbox_id = str((event.metadata or {}).get("outbox_id", ""))
    names_row = Q(message_id=str(event.message_id)) if event.message_id is not None else Q()
    if outbox_id.isdigit():
        names_row |= Q(pk=int(outbox_id))
    if not names_row:
        return None
    email = OutgoingEmail.objects.filter(names_row).order_by("pk").first()
    if email is None:
        logger.info("%s event %s names no email of ours", esp_name, event.event_type)
        return None
    reason = _reason(event, esp_name)
    OutgoingEmail.objects.filter(pk=email.pk).update(
        status=status, error=reason, updated_at=timezone.now()
    )
    logger.warning("email %s %s: %s", email.key, status, reason)
    email.refresh_from_db()
    return email


def _reason(event, esp_name: str) -> str:
    """E.g. "Bounced for sam@example.com (bounced): The server was unable to deliver your
    message (Postmark)"."""
    who = event.recipient or "the recipient"
    reason = (
        f"Marked as spam by {who}" if event.event_type == "complained" else f"Bounced for {who}"
    )
    if event.reject_reason:
        reason += f" ({event.reject_reason})"
    detail = " ".join(str(part) for part in (event.description, event.mta_response) if part)
    if detail:
        reason += f": {detail}"
    if esp_name:
        reason += f" ({esp_name})"
    return reason[:2000]


def on_tracking_event(sender, event, esp_name: str = "", **kwargs) -> None:
    """anymail's ``tracking`` signal receiver (connected in ``pipeline.apps``)."""
    record_delivery_event(event=event, esp_name=esp_name)
