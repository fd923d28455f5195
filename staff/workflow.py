"""The account managers' workflow: status transitions, assignment and notes, all audited.

Admin views, actions and tests call these functions, so a change made anywhere is
validated and recorded the same way.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from pipeline.notifications import ACCOUNT_MANAGERS
from questionnaire.models import Submission
from staff.models import AuditEvent, Note

Status = Submission.WorkflowStatus

# new → in review → proposal sent → won / lost / closed. A conversation can step back one
# stage, be closed early, and a finished one can be reopened for review.
TRANSITIONS: dict[str, frozenset[str]] = {
    Status.NEW: frozenset({Status.IN_REVIEW, Status.CLOSED}),
    Status.IN_REVIEW: frozenset({Status.NEW, Status.PROPOSAL_SENT, Status.CLOSED}),
    Status.PROPOSAL_SENT: frozenset({Status.IN_REVIEW, Status.WON, Status.LOST, Status.CLOSED}),
    Status.WON: frozenset({Status.IN_REVIEW, Status.CLOSED}),
    Status.LOST: frozenset({Status.IN_REVIEW, Status.CLOSED}),
    Status.CLOSED: frozenset({Status.IN_REVIEW}),
}
# A submission in one of these is finished; ``closed_at`` starts its retention clock.
FINISHED = frozenset({Status.WON, Status.LOST, Status.CLOSED})


def allowed_transitions(current: str) -> list[str]:
    """The statuses a submission in ``current`` may move to, in workflow order."""
    allowed = TRANSITIONS.get(current, frozenset())
    return [value for value in Status.values if value in allowed]


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


@transaction.atomic
def change_status(*, submission: Submission, status: str, user: AbstractBaseUser) -> bool:
    """Move a submission to ``status``; returns False when it already was there.

    Raises ``ValidationError`` for a move the workflow does not allow. Concurrent changes
    are serialised on the row, so two account managers cannot skip a stage between them.
    """
    locked = Submission.objects.select_for_update().get(pk=submission.pk)
    old = locked.status
    if status == old:
        return False
    if status not in TRANSITIONS.get(old, frozenset()):
        raise ValidationError(
            f"A submission that is “{Status(old).label}” cannot move to "
            f"“{Status(status).label if status in Status.values else status}”."
        )
    locked.status = status
    if status in FINISHED:
        locked.closed_at = locked.closed_at or timezone.now()
    else:
        locked.closed_at = None
    locked.save(update_fields=["status", "closed_at", "updated_at"])
    record(
        submission=locked,
        actor=user,
        action=AuditEvent.Action.STATUS,
        old=Status(old).label,
        new=Status(status).label,
    )
    submission.status, submission.closed_at = locked.status, locked.closed_at
    return True


@transaction.atomic
def assign(*, submission: Submission, assignee, user: AbstractBaseUser) -> bool:
    """Assign a submission to an account manager (or to nobody); returns False if unchanged."""
    if assignee is not None and not account_managers().filter(pk=assignee.pk).exists():
        raise ValidationError(f"{assignee} is not an active account manager.")
    locked = Submission.objects.select_for_update().get(pk=submission.pk)
    if locked.assignee_id == (assignee.pk if assignee else None):
        return False
    old = locked.assignee
    locked.assignee = assignee
    locked.save(update_fields=["assignee", "updated_at"])
    record(
        submission=locked,
        actor=user,
        action=AuditEvent.Action.ASSIGNED,
        old=_name(old),
        new=_name(assignee),
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


def _name(user) -> str:
    if user is None:
        return "nobody"
    return user.get_full_name() or user.get_username()
