"""The proposal half of the pipeline: schedule, render and store a PDF for one Recommendation.

Rendering happens only inside the worker (``reports.tasks``). A duplicate or redelivered render
takes the row lock or finds the row done and does nothing; the PDF is written under a name fixed
by the proposal version, checked against the bytes rendered, and only then is the row marked done,
so a crash or a storage fault never leaves a zero-byte or half-written file marked as ready.
"""

import hashlib
import logging
from datetime import datetime

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from questionnaire.models import Submission
from reports import document
from reports.fetcher import BlockedResource
from reports.models import Proposal
from sizing.models import Recommendation
from sizing.pipeline import (
    MAX_ATTEMPTS,
    LockKind,
    describe_error,
    enqueue,
    fail_step,
    inject_test_fault,
    is_latest_version,
    row_lock,
    set_pipeline_status,
)
from staff.notifications import notify_proposal_ready

logger = logging.getLogger(__name__)

RENDER_TASK = "reports.render_proposal"
PDF_FILENAME = "proposal.pdf"


class StorageWriteError(OSError):
    """The stored file is not the PDF that was rendered (missing, empty or truncated)."""


def enqueue_render(*, proposal_id: int) -> bool:
    return enqueue(RENDER_TASK, row_id=proposal_id)


def schedule_proposal(*, recommendation: Recommendation) -> Proposal:
    """Create the pending Proposal for a sized Recommendation and enqueue its render after commit.

    Idempotent: one Proposal per Recommendation (a second call returns the existing one and only
    re-enqueues it if it is still pending).
    """
    with transaction.atomic():
        proposal, created = Proposal.objects.get_or_create(
            recommendation=recommendation,
            defaults={
                "submission_id": recommendation.submission_id,
                "version": recommendation.version,
                "engine_version": recommendation.engine_version,
            },
        )
        if created or proposal.status == Proposal.Status.PENDING:
            if _is_latest(proposal):
                set_pipeline_status(recommendation.submission, Submission.PipelineStatus.RENDERING)
            proposal_id = proposal.pk
            transaction.on_commit(lambda: enqueue_render(proposal_id=proposal_id), robust=True)
    return proposal


def render_proposal(*, proposal_id: int) -> None:
    """Render, store and checksum one proposal's PDF. Idempotent; safe to run twice at once.

    A blocked resource (the URL fetcher refused something) fails at once; any other error is
    re-raised for the task to retry with backoff until the row's attempt cap.
    """
    with row_lock(LockKind.PROPOSAL, proposal_id) as held:
        if not held:
            logger.info("proposal %s is being rendered by another worker", proposal_id)
            return
        proposal = _claim_proposal(proposal_id)
        if proposal is None:
            return
        try:
            inject_test_fault("render", proposal.submission.reference)
            rendered = document.render_pdf(recommendation=proposal.recommendation)
            inject_test_fault("store", proposal.submission.reference)
            name = _store_pdf(proposal, rendered.pdf)
        except BlockedResource as exc:
            fail_proposal(proposal, f"The proposal asked for a blocked resource: {exc}")
            return
        except Exception as exc:
            if proposal.attempts >= MAX_ATTEMPTS:
                fail_proposal(proposal, describe_error(exc, proposal.attempts))
                return
            _release_proposal(proposal, describe_error(exc, proposal.attempts))
            raise
        _finish_proposal(proposal, name=name, rendered=rendered)


def _claim_proposal(proposal_id: int) -> Proposal | None:
    with transaction.atomic():
        proposal = (
            Proposal.objects.select_for_update()
            .select_related("submission", "recommendation")
            .filter(pk=proposal_id)
            .first()
        )
        if proposal is None:
            logger.warning("proposal %s no longer exists", proposal_id)
            return None
        if proposal.status in (Proposal.Status.DONE, Proposal.Status.FAILED):
            return None
        if proposal.attempts >= MAX_ATTEMPTS:
            fail_proposal(
                proposal,
                proposal.error
                or f"Gave up after {proposal.attempts} attempts that never finished.",
            )
            return None
        proposal.attempts += 1
        proposal.status = Proposal.Status.RENDERING
        proposal.save(update_fields=["attempts", "status", "updated_at"])
        if _is_latest(proposal):
            set_pipeline_status(proposal.submission, Submission.PipelineStatus.RENDERING)
        return proposal


def _store_pdf(proposal: Proposal, pdf: bytes) -> str:
    """Write the PDF under its fixed name and check what landed; returns the storage name."""
    if not pdf:
        raise StorageWriteError("the renderer produced no bytes")
    storage = proposal.pdf.storage
    name = proposal.pdf.field.generate_filename(proposal, PDF_FILENAME)
    # Under the row lock nobody else writes this name: a leftover is from a crashed attempt.
    if storage.exists(name):
        storage.delete(name)
    try:
        saved = storage.save(name, ContentFile(pdf))
        if saved != name:
            raise StorageWriteError(f"storage stored {saved!r} instead of {name!r}")
        with storage.open(saved, "rb") as stored:
            written = stored.read()
        if written != pdf:
            raise StorageWriteError(
                f"stored file has {len(written)} bytes, rendered PDF has {len(pdf)}"
            )
    except Exception:
        _delete_quietly(storage, name)
        raise
    return name


def _delete_quietly(storage, name: str) -> None:
    try:
        if storage.exists(name):
            storage.delete(name)
    except Exception:
        logger.warning("could not remove the partial file %s", name, exc_info=True)


def _finish_proposal(proposal: Proposal, *, name: str, rendered: "document.RenderedPdf") -> None:
    with transaction.atomic():
        proposal.pdf.name = name
        proposal.sha256 = hashlib.sha256(rendered.pdf).hexdigest()
        proposal.size_bytes = len(rendered.pdf)
        proposal.page_count = rendered.page_count
        proposal.engine_version = proposal.recommendation.engine_version
        proposal.status = Proposal.Status.DONE
        proposal.error = ""
        proposal.finished_at = timezone.now()
        proposal.save()
        submission = proposal.submission
        if _is_latest(proposal):
            set_pipeline_status(submission, Submission.PipelineStatus.READY)
        transaction.on_commit(lambda: notify_proposal_ready(submission), robust=True)


def _is_latest(proposal: Proposal) -> bool:
    return is_latest_version(submission_id=proposal.submission_id, version=proposal.version)


def _release_proposal(proposal: Proposal, error: str) -> None:
    Proposal.objects.filter(pk=proposal.pk).update(
        status=Proposal.Status.PENDING, error=error, updated_at=timezone.now()
    )


def fail_proposal(proposal: Proposal, error: str) -> None:
    """Mark a Proposal failed for good, and its submission's pipeline; notify after commit."""
    fail_step(proposal, error)


def retry_failed_proposal(*, recommendation: Recommendation) -> Proposal | None:
    """Reset a failed proposal to pending with fresh attempts and enqueue it after commit."""
    with transaction.atomic():
        proposal = (
            Proposal.objects.select_for_update()
            .filter(recommendation=recommendation, status=Proposal.Status.FAILED)
            .first()
        )
        if proposal is None:
            return None
        proposal.status = Proposal.Status.PENDING
        proposal.attempts = 0
        proposal.error = ""
        proposal.finished_at = None
        proposal.save()
        proposal_id = proposal.pk
        transaction.on_commit(lambda: enqueue_render(proposal_id=proposal_id), robust=True)
    return proposal


def stale_proposal_ids(*, pending_cutoff: datetime, stuck_cutoff: datetime) -> list[int]:
    """Proposals pending since before ``pending_cutoff`` or rendering since before ``stuck_cutoff``."""
    pending = Proposal.objects.filter(status=Proposal.Status.PENDING, updated_at__lt=pending_cutoff)
    stuck = Proposal.objects.filter(status=Proposal.Status.RENDERING, updated_at__lt=stuck_cutoff)
    return sorted(
        set(pending.values_list("pk", flat=True)) | set(stuck.values_list("pk", flat=True))
    )
