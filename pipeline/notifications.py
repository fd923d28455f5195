"""Who hears of what, by email: one email per event (and version), through the outbox.

- The customer: the confirmation of their request, and the proposal when staff send it.
- The account manager who owns the submission (every account manager, and the shared inbox in
  ``ACCOUNT_MANAGER_EMAILS``, while nobody does): a new request, a version approved and ready
  to send, the customer opening the proposal.
- The engineers: a version that needs review, and a failed run (with the account managers).

Staff emails name the company, the model and the reference in the subject and link to the
admin; the answers themselves are only shown there. The emails are written with the event, in
its transaction, and sent after commit by a task (``pipeline.outbox``).
"""

import logging
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from pipeline.facts import facts, model_and_size
from pipeline.models import OutgoingEmail, Recommendation
from pipeline.outbox import queue_email, unique_addresses
from pipeline.versions import checked, customer_version, failed_step
from reports.proposal_check import CHECK_FAILED
from sizing.public import Figures, credited, figures_of, read_result

logger = logging.getLogger(__name__)

# The staff roles (groups, see staff 0002).
ACCOUNT_MANAGERS = "Account managers"
ENGINEERS = "Engineers"
# What the customer's confirmation promises; an engineer reviews within a working day and the
# account manager sends the approved proposal the next (docs/workflow.md).
PROPOSAL_EXPECTED_WITHIN = "two working days"

Kind = OutgoingEmail.Kind


def group_addresses(group: str) -> list[str]:
    """Active members' addresses of one staff role, in a stable order."""
    members = (
        get_user_model()
        .objects.filter(is_active=True, groups__name=group)
        .exclude(email="")
        .order_by("pk")
        .values_list("email", flat=True)
    )
    return unique_addresses(members)


def account_manager_addresses(submission) -> list[str]:
    """The assignee's address; every account manager's (and the shared inbox) while unassigned."""
    assignee = submission.assignee
    if assignee is not None and assignee.is_active and assignee.email:
        return [assignee.email.lower()]
    return unique_addresses([*settings.ACCOUNT_MANAGER_EMAILS, *group_addresses(ACCOUNT_MANAGERS)])


def staff_subject(what: str, submission, version: int | None = None) -> str:
    """E.g. "Needs review: Northwind Robotics · Llama 3.1 8B · TQ-2026-00012 v2"."""
    model = model_and_size(facts(submission)) or "model not given"
    reference = submission.reference + (f" v{version}" if version else "")
    return f"{what}: {submission.company} · {model} · {reference}"


def admin_link(submission) -> str:
    path = reverse("admin:questionnaire_submission_change", args=[submission.pk])
    return f"{settings.SITE_URL}{path}"


def _staff_email(kind: str, submission, *, key: str, to: list[str], what: str, **context):
    version = context.get("version")
    body = render_to_string(
        f"emails/staff_{kind}.txt",
        {"submission": submission, "admin_link": admin_link(submission), **context},
    )
    return queue_email(
        submission=submission,
        kind=kind,
        key=key,
        to=to,
        subject=staff_subject(what, submission, version),
        body=body,
        version=version,
    )


def customer_subject(what: str, submission) -> str:
    """E.g. "Your sizing request for Llama 3.1 70B: Example Insurance Group, TQ-2026-00012"."""
    model = model_and_size(facts(submission))
    about = f" for {model}" if model else ""
    return f"{what}{about}: {submission.company}, {submission.reference}"


def _customer_email(kind: str, submission, *, key: str, what: str, **context):
    """Both customer emails say "reply to this email": the answer reaches whoever owns the
    request (the assignee, else the account managers), not the sending address."""
    return queue_email(
        submission=submission,
        kind=kind,
        key=key,
        to=[submission.contact_email],
        reply_to=account_manager_addresses(submission),
        subject=customer_subject(what, submission),
        body=render_to_string(f"emails/customer_{kind}.txt", {"submission": submission, **context}),
        version=context.get("version"),
    )


def notify_submission_received(submission) -> None:
    """The customer's confirmation, and the account managers' notice of a new request."""
    _customer_email(
        Kind.CONFIRMATION,
        submission,
        key=f"confirmation:{submission.pk}",
        what="We received your sizing request",
        expected_within=PROPOSAL_EXPECTED_WITHIN,
    )
    _staff_email(
        Kind.RECEIVED,
        submission,
        key=f"received:{submission.pk}",
        to=account_manager_addresses(submission),
        what="New sizing request",
    )


def notify_needs_review(recommendation: Recommendation) -> None:
    """Engineers: a version's proposal is ready and waits for their review."""
    submission = recommendation.submission
    _staff_email(
        Kind.NEEDS_REVIEW,
        submission,
        key=f"needs_review:{submission.pk}:v{recommendation.version}",
        to=group_addresses(ENGINEERS),
        what="Needs review",
        version=recommendation.version,
    )


def notify_approved(recommendation: Recommendation, *, approver_name: str) -> None:
    """The account manager: a version is approved and can be sent."""
    submission = recommendation.submission
    _staff_email(
        Kind.APPROVED,
        submission,
        key=f"approved:{submission.pk}:v{recommendation.version}",
        to=account_manager_addresses(submission),
        what="Approved, ready to send",
        version=recommendation.version,
        approver_name=approver_name,
    )


def notify_viewed(submission, *, version: int, viewed_at: datetime) -> None:
    """The account manager: the customer opened the proposal they were sent."""
    _staff_email(
        Kind.VIEWED,
        submission,
        key=f"viewed:{submission.pk}:v{version}",
        to=account_manager_addresses(submission),
        what="Customer opened the proposal",
        version=version,
        viewed_at=timezone.localtime(viewed_at),
    )


def notify_pipeline_failed(submission) -> None:
    """The engineers and the staff who own the submission (the assignee, else every account
    manager): a run failed for good and the proposal needs a hand.

    The email says in plain words which proposal, what went wrong (the checker's findings, or
    the sizing's error, as stored on the submission), what the customer's page says meanwhile,
    and links to the submission's admin page through the site's configured address.
    """
    latest, step = failed_step(submission)
    version = latest.version if latest else None
    reason = (submission.pipeline_error or "").strip() or "No error was recorded."
    if step == "sizing":
        what = "Sizing failed"
        failed = "The sizing"
    elif reason.startswith(CHECK_FAILED):
        what = "Proposal failed its check"
        failed = "The proposal"
    else:
        what = "Proposal failed"
        failed = "The proposal"
    _staff_email(
        Kind.FAILED,
        submission,
        key=f"failed:{submission.pk}:v{version}",
        to=[*group_addresses(ENGINEERS), *account_manager_addresses(submission)],
        what=what,
        version=version,
        failed=failed,
        model=model_and_size(facts(submission)) or "model not given",
        reason=reason,
        # Whether the customer's page now says an engineer prepares it by hand (not for a
        # what-if re-run failing beside a first estimate or an approved version).
        customer_waits=customer_version(submission).stranded,
    )


def send_proposal_email(
    submission,
    *,
    version: int,
    link_key: str,
    url: str,
    note: str,
    sender_name: str,
    expires_at: datetime,
) -> None:
    """The customer: their approved proposal, a personal note and the expiring link, with who
    checked it, what changed from the first estimate and its headline figures (the status
    page's, from ``sizing.words``)."""
    recommendation = submission.recommendations.filter(version=version).first()
    approval = checked(recommendation) if recommendation is not None else None
    _customer_email(
        Kind.PROPOSAL,
        submission,
        key=f"proposal:{link_key}",
        what="Your training infrastructure proposal",
        version=version,
        url=url,
        note=note.strip(),
        sender_name=sender_name,
        expires_at=timezone.localtime(expires_at),
        model=model_and_size(facts(submission)),
        checked=approval.sentence if approval else "",
        figures=headline_figures(recommendation),
    )


def headline_figures(recommendation: Recommendation | None) -> Figures | None:
    """The figures the customer's status page shows for a version (``sizing.words.estimate``),
    None when the version holds no result."""
    if recommendation is None:
        return None
    result = read_result(recommendation.result)
    if result.wall_clock_days is None:  # not a finished sizing: nothing to state
        return None
    sources = recommendation.input_sources or {}
    return figures_of(credited(result, sources), sources)
