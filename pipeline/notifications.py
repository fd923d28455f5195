"""Emails to account managers. They carry the reference and a link, never the answers.

Recipients are the active members of the "Account managers" group with an email address,
plus any address in ``ACCOUNT_MANAGER_EMAILS`` (a shared sales inbox). The backend is the
console unless SMTP is configured (``EMAIL_BACKEND`` and friends in ``.env.example``).

These run after commit from the pipeline's own steps (a submission received, a proposal ready, a
step failed); a mail outage is logged and never fails the customer's submission or a step.
"""

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.urls import reverse

logger = logging.getLogger(__name__)

# The staff role that hears of new requests and finished proposals (a group, see staff 0002).
ACCOUNT_MANAGERS = "Account managers"


def _admin_link(submission) -> str:
    path = reverse("admin:questionnaire_submission_change", args=[submission.pk])
    return f"{settings.SITE_URL}{path}"


def recipients() -> list[str]:
    """Account managers' addresses, de-duplicated, in a stable order."""
    members = (
        get_user_model()
        .objects.filter(is_active=True, groups__name=ACCOUNT_MANAGERS)
        .exclude(email="")
        .values_list("email", flat=True)
    )
    seen: dict[str, None] = {}
    for address in [*settings.ACCOUNT_MANAGER_EMAILS, *members]:
        seen.setdefault(address.strip().lower(), None)
    return [address for address in seen if address]


def _send(submission, subject: str, first_line: str) -> None:
    try:
        to = recipients()
        if not to:
            logger.info("no account manager addresses; not sending %r", subject)
            return
        body = (
            f"{first_line}\n\n"
            f"Open it in the staff admin (login required): {_admin_link(submission)}\n\n"
            "The customer's answers are only shown there, never in email.\n"
        )
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, to)
    except Exception:
        logger.exception("could not send notification %r", subject)


def notify_submission_received(submission) -> None:
    _send(
        submission,
        f"New sizing request {submission.reference}",
        f"A new sizing request {submission.reference} has arrived.",
    )


def notify_proposal_ready(submission) -> None:
    _send(
        submission,
        f"Proposal ready for {submission.reference}",
        f"The proposal for {submission.reference} is ready for review.",
    )


def notify_pipeline_failed(submission) -> None:
    _send(
        submission,
        f"Sizing failed for {submission.reference}",
        f"The sizing or proposal for {submission.reference} failed and needs attention.",
    )
