"""Emails to account managers. They carry a link to the admin, never the customer's answers."""

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse

logger = logging.getLogger(__name__)


def _admin_link(submission) -> str:
    path = reverse("admin:questionnaire_submission_change", args=[submission.pk])
    return f"{settings.SITE_URL}{path}"


def _send(subject: str, body: str) -> None:
    recipients = settings.ACCOUNT_MANAGER_EMAILS
    if not recipients:
        logger.info("no ACCOUNT_MANAGER_EMAILS configured; not sending %r", subject)
        return
    # A mail outage must never fail the customer's submission or the pipeline.
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, recipients)
    except Exception:
        logger.exception("could not send notification %r", subject)


def notify_submission_received(submission) -> None:
    _send(
        f"New sizing request {submission.reference}",
        f"A new sizing request {submission.reference} has arrived.\n\n"
        f"Open it: {_admin_link(submission)}\n",
    )


def notify_proposal_ready(submission) -> None:
    _send(
        f"Proposal ready for {submission.reference}",
        f"The proposal for {submission.reference} is ready.\n\nOpen it: {_admin_link(submission)}\n",
    )


def notify_pipeline_failed(submission) -> None:
    _send(
        f"Sizing failed for {submission.reference}",
        f"The sizing or proposal for {submission.reference} failed and needs attention.\n\n"
        f"Open it: {_admin_link(submission)}\n",
    )
