"""Deleting submissions for good: their answers, draft, versions, notes and PDF files.

Used by the admin's delete action and by the scheduled retention task, so both leave
nothing behind. Files are removed after the database commit: a rolled-back delete never
loses a PDF, and a file that fails to go is logged (by name, never by content) for a
later sweep rather than failing the delete.
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from pipeline.models import Proposal
from questionnaire.models import Draft, Submission
from staff.models import DeletionRecord

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PurgeResult:
    submissions: int
    files: int


def retention_cutoff(now: datetime | None = None) -> datetime:
    """Submissions closed before this moment are past the retention period."""
    return (now or timezone.now()) - timedelta(days=settings.CLOSED_SUBMISSION_RETENTION_DAYS)


def expired_submissions(now: datetime | None = None):
    """Finished (won, lost or closed) submissions whose retention period has passed."""
    return Submission.objects.filter(closed_at__isnull=False, closed_at__lt=retention_cutoff(now))


def delete_submission(*, submission: Submission, user=None, reason: str) -> int:
    """Delete one submission with everything that belongs to it; returns the files removed."""
    proposals = Proposal.objects.filter(submission=submission)
    files = [(p.pdf.storage, p.pdf.name) for p in proposals if p.pdf]
    with transaction.atomic():
        draft_id = submission.draft_id
        reference = submission.reference
        submission.delete()  # cascades: recommendations, proposals, notes, audit, downloads
        if draft_id:
            # The draft holds the same answers as the submission.
            Draft.objects.filter(pk=draft_id).delete()
        record = DeletionRecord.objects.create(
            reference=reference, reason=reason, deleted_by=user, files_deleted=len(files)
        )
        transaction.on_commit(lambda: _delete_files(files, record.reference))
    return len(files)


def purge_closed_submissions(*, now: datetime | None = None) -> PurgeResult:
    """Delete every submission past its retention period; safe to run again at any time."""
    count = files = 0
    for submission in expired_submissions(now).iterator():
        files += delete_submission(submission=submission, reason=DeletionRecord.Reason.RETENTION)
        count += 1
    if count:
        logger.info("retention: deleted %d closed submissions and %d files", count, files)
    return PurgeResult(submissions=count, files=files)


def _delete_files(files, reference: str) -> None:
    for storage, name in files:
        try:
            storage.delete(name)
        except Exception:
            logger.exception("could not delete proposal file %s of %s", name, reference)
