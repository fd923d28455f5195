"""The staff workflow: every step is an action with its own permission and audit entry.

submitted (waiting for engineer review) → in engineer review → approved → sent → viewed → won,
lost or closed. Engineers approve a version (as it is, or after adjusting and re-running);
account managers (or engineers) send an approved version (``staff.sending``); the customer
opening it records "viewed"; account managers record the outcome. Nobody edits the status
itself. Admin views, actions and tests call these functions, so a step taken anywhere is
validated and recorded the same way. docs/workflow.md has the whole picture.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from pipeline.models import Proposal, Recommendation
from pipeline.notifications import ACCOUNT_MANAGERS, notify_approved
from pipeline.people import full_name
from pipeline.services import schedule_checked_proposal  # staff pages and emails name people alike
from pipeline.versions import latest_approved
from questionnaire.models import Submission
from staff.models import AuditEvent, Note

Status = Submission.WorkflowStatus

# A submission in one of these is finished; ``closed_at`` starts its retention clock.
FINISHED = frozenset({Status.WON, Status.LOST, Status.CLOSED})
# Statuses in which the customer holds a proposal we sent.
WITH_THE_CUSTOMER = frozenset({Status.PROPOSAL_SENT, Status.VIEWED})
# Waiting for an engineer: nothing approved yet.
AWAITING_REVIEW = frozenset({Status.NEW, Status.IN_REVIEW})

APPROVE_PERMISSION = "staff.approve_version"
SEND_PERMISSION = "staff.send_proposal"
OUTCOME_PERMISSION = "staff.record_outcome"


@dataclass(frozen=True)
class OutcomeStep:
    """An account manager's step that ends (or reopens) the conversation."""

    key: str
    label: str
    allowed_from: frozenset[str]


OUTCOMES = {
    "won": OutcomeStep("won", "Mark won", WITH_THE_CUSTOMER),
    "lost": OutcomeStep("lost", "Mark lost", WITH_THE_CUSTOMER),
    "close": OutcomeStep("close", "Close without an outcome", frozenset(Status.values) - FINISHED),
    "reopen": OutcomeStep("reopen", "Reopen", FINISHED),
}


def account_managers():
    """Active users who can be assigned a submission."""
    return (
        get_user_model()
        .objects.filter(is_active=True, is_staff=True, groups__name=ACCOUNT_MANAGERS)
        .distinct()
        .order_by("first_name", "last_name", "username")
    )


def record(
    *, submission: Submission, actor, action: str, old: str = "", new: str = "", detail: str = ""
) -> AuditEvent:
    """Append one event to a submission's audit trail."""
    return AuditEvent.objects.create(
        submission=submission,
        actor=actor,
        action=action,
        old_value=str(old)[:200],
        new_value=str(new)[:200],
        detail=detail,
    )


def locked(submission: Submission) -> Submission:
    """The submission's row, locked until the transaction ends (steps are serialised on it)."""
    return Submission.objects.select_for_update().get(pk=submission.pk)


def move(row: Submission, status: str, *, user, detail: str = "") -> bool:
    """Set a locked row's status and record it; False when it already was there.

    Only the actions of this module and ``staff.sending`` call this.
    """
    old = row.status
    if status == old:
        return False
    row.status = status
    row.closed_at = (row.closed_at or timezone.now()) if status in FINISHED else None
    row.save(update_fields=["status", "closed_at", "updated_at"])
    record(
        submission=row,
        actor=user,
        action=AuditEvent.Action.STATUS,
        old=Status(old).label,
        new=Status(status).label,
        detail=detail,
    )
    return True


def _refresh(submission: Submission, row: Submission) -> None:
    submission.status, submission.closed_at = row.status, row.closed_at


def approve_version(
    *, submission: Submission, recommendation: Recommendation, user: AbstractBaseUser
) -> None:
    """An engineer approves one version: it becomes what the customer sees and can be sent.

    Raises ``ValidationError`` for a version that is not finished (with its proposal), already
    the approved one, or a submission that is finished (reopen it first).
    """
    if recommendation.submission_id != submission.pk:
        raise ValidationError("That version belongs to another submission.")
    with transaction.atomic():
        row = locked(submission)
        if row.status in FINISHED:
            raise ValidationError(
                f"This submission is “{row.get_status_display()}”: reopen it before approving."
            )
        version = Recommendation.objects.select_for_update().get(pk=recommendation.pk)
        if (
            version.status != Recommendation.Status.DONE
            or not Proposal.objects.filter(recommendation=version, status=Proposal.Status.DONE)
            .exclude(pdf="")
            .exists()
        ):
            raise ValidationError(
                f"Version {version.version} has no finished proposal yet; approve it once "
                "its PDF is written."
            )
        current = latest_approved(row)
        if current is not None and current.pk == version.pk:
            raise ValidationError(f"Version {version.version} is already the approved version.")
        version.approved_at, version.approved_by = timezone.now(), user
        version.save(update_fields=["approved_at", "approved_by", "updated_at"])
        record(
            submission=row,
            actor=user,
            action=AuditEvent.Action.APPROVED,
            old=f"v{current.version}" if current else "",
            new=f"v{version.version}",
        )
        move(row, Status.APPROVED, user=user, detail=f"v{version.version} approved")
        notify_approved(version, approver_name=full_name(user))
        # the PDF's cover says who checked it once the approval commits
        schedule_checked_proposal(version)
    recommendation.approved_at, recommendation.approved_by = version.approved_at, user
    _refresh(submission, row)


def start_review(*, submission: Submission, user: AbstractBaseUser) -> None:
    """An engineer adjusted and re-ran a submission nobody had approved: it is in review."""
    with transaction.atomic():
        row = locked(submission)
        if row.status == Status.NEW:
            move(row, Status.IN_REVIEW, user=user, detail="adjusted and re-run")
    _refresh(submission, row)


def record_outcome(*, submission: Submission, outcome: str, user: AbstractBaseUser) -> None:
    """Mark won, lost or closed, or reopen; ``ValidationError`` for a step not allowed now."""
    step = OUTCOMES.get(outcome)
    if step is None:
        raise ValidationError(f"“{outcome}” is not a workflow step.")
    with transaction.atomic():
        row = locked(submission)
        if row.status not in step.allowed_from:
            raise ValidationError(
                f"A submission that is “{row.get_status_display()}” cannot be "
                f"“{step.label.lower()}”."
            )
        move(row, _outcome_status(row, outcome), user=user)
    _refresh(submission, row)


def _outcome_status(row: Submission, outcome: str) -> str:
    if outcome == "won":
        return Status.WON
    if outcome == "lost":
        return Status.LOST
    if outcome == "close":
        return Status.CLOSED
    # Reopened: back to sending an approved version, or to review when none was approved.
    return Status.APPROVED if latest_approved(row) is not None else Status.NEW


def outcome_steps(submission: Submission, user) -> list[OutcomeStep]:
    """The outcome steps ``user`` may take on ``submission`` now, in a stable order."""
    if not user.has_perm(OUTCOME_PERMISSION):
        return []
    return [step for step in OUTCOMES.values() if submission.status in step.allowed_from]


@transaction.atomic
def assign(*, submission: Submission, assignee, user: AbstractBaseUser) -> bool:
    """Assign a submission to an account manager (or to nobody); returns False if unchanged."""
    if assignee is not None and not account_managers().filter(pk=assignee.pk).exists():
        raise ValidationError(f"{full_name(assignee)} is not an active account manager.")
    row = locked(submission)
    if row.assignee_id == (assignee.pk if assignee else None):
        return False
    old = row.assignee
    row.assignee = assignee
    row.save(update_fields=["assignee", "updated_at"])
    record(
        submission=row,
        actor=user,
        action=AuditEvent.Action.ASSIGNED,
        old=full_name(old),
        new=full_name(assignee),
    )
    submission.assignee = assignee
    return True


def add_note(*, submission: Submission, text: str, user: AbstractBaseUser) -> Note:
    """Add an internal note, authored by ``user`` and timestamped now."""
    text = text.strip()
    if not text:
        raise ValidationError("A note cannot be empty.")
    with transaction.atomic():
        note = Note.objects.create(submission=submission, author=user, text=text)
        record(submission=submission, actor=user, action=AuditEvent.Action.NOTE)
    return note
