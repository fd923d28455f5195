"""Sending an approved proposal to the customer, and the customer opening it.

Sending is the only way a submission becomes "Proposal sent": it makes an expiring, revocable
link (``staff.sharing``) and queues the email with the account manager's personal note, in one
transaction. The customer opening the link records "viewed" once per link and tells the
account manager.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from pipeline.models import Proposal, Recommendation
from pipeline.notifications import notify_viewed, send_proposal_email
from pipeline.versions import latest_approved
from questionnaire.models import Submission
from staff.models import AuditEvent, ShareLink
from staff.sharing import create_share_link, share_url
from staff.workflow import FINISHED, Status, full_name, locked, move, record

NOTE_MAX_CHARS = 2000


def send_proposal(
    *, submission: Submission, recommendation: Recommendation, user, note: str
) -> ShareLink:
    """Email the customer the approved ``recommendation``'s proposal with a personal note.

    Raises ``ValidationError`` when the version is not the approved one, its PDF is not ready,
    the note is too long, or the submission is finished.
    """
    note = note.strip()
    if len(note) > NOTE_MAX_CHARS:
        raise ValidationError(f"The note is {len(note)} characters; at most {NOTE_MAX_CHARS}.")
    with transaction.atomic():
        row = locked(submission)
        if row.status in FINISHED:
            raise ValidationError(
                f"This submission is “{row.get_status_display()}”: reopen it before sending."
            )
        approved = latest_approved(row)
        if approved is None or approved.pk != recommendation.pk:
            raise ValidationError(
                f"Version {recommendation.version} is not the approved version; an engineer "
                "approves a version before it can be sent."
            )
        proposal = (
            Proposal.objects.filter(recommendation=approved, status=Proposal.Status.DONE)
            .exclude(pdf="")
            .first()
        )
        if proposal is None:
            raise ValidationError(f"The PDF of version {approved.version} is not ready.")
        link = create_share_link(proposal=proposal, user=user, sent_to=row.contact_email, note=note)
        record(
            submission=row,
            actor=user,
            action=AuditEvent.Action.SENT,
            new=f"v{approved.version} to {row.contact_email}",
            detail=note,
        )
        move(row, Status.PROPOSAL_SENT, user=user, detail=f"v{approved.version} sent")
        send_proposal_email(
            row,
            version=approved.version,
            link_key=f"link{link.pk}",
            url=share_url(link),
            note=note,
            sender_name=full_name(user),
            expires_at=link.expires_at,
        )
    submission.status, submission.closed_at = row.status, row.closed_at
    return link


def record_view(*, link: ShareLink) -> bool:
    """The customer opened a link: remember when (once per link) and tell the account manager.

    The submission becomes "viewed" when this is the link it was last sent with. Returns whether
    this was the link's first opening.
    """
    now = timezone.now()
    with transaction.atomic():
        first = ShareLink.objects.filter(pk=link.pk, first_viewed_at__isnull=True).update(
            first_viewed_at=now
        )
        if not first:
            return False
        link.first_viewed_at = now
        row = locked(link.proposal.submission)
        version = link.proposal.version
        record(
            submission=row,
            actor=None,
            action=AuditEvent.Action.VIEWED,
            new=f"v{version}",
            detail=f"link sent to {link.sent_to}" if link.sent_to else "link made by hand",
        )
        last_sent = ShareLink.objects.filter(proposal__submission=row).exclude(sent_to="").first()
        if row.status == Status.PROPOSAL_SENT and last_sent is not None and last_sent.pk == link.pk:
            move(row, Status.VIEWED, user=None, detail=f"v{version} opened by the customer")
        notify_viewed(row, version=version, viewed_at=now)
    return True
