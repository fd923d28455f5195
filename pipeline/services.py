"""The pipeline's business actions: start, size, render, re-run, retry and sweep.

The rows are the outbox. Every schedule writes a pending row inside the caller's transaction and
only *tries* to publish after commit; if the broker is down the commit still stands and
``sweep_pipeline`` (celery beat) publishes it later. The state machine of one row lives in
``pipeline.steps``; this module says what each step does and what follows it.
"""

import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from config.celery import publish
from config.queue_depth import queue_of, waiting_messages
from pipeline.models import HardwareMeasurement, OutgoingEmail, Proposal, Recommendation
from pipeline.notifications import notify_needs_review, notify_submission_received
from pipeline.outbox import SEND_EMAIL_TASK, stale_email_ids
from pipeline.steps import (
    RENDERING,
    SIZING,
    Outcome,
    Refusal,
    enqueue_after_commit,
    inject_test_fault,
    is_latest,
    reset_for_retry,
    run_step,
    set_pipeline_status,
    stale_row_ids,
)
from pipeline.versions import checked
from questionnaire.models import Submission
from questionnaire.services import START_PIPELINE_TASK
from reports import document
from reports.fetcher import BlockedResource
from reports.proposal_check import describe_findings
from sizing.public import (
    InvalidInput,
    build_engine_input,
    check_engine_input,
    nest_overrides,
    size_answers_once,
    unknown_override_paths,
)

logger = logging.getLogger(__name__)

SWEEP_TASK = "pipeline.sweep_pipeline"
CHECKED_RENDER_TASK = "pipeline.render_checked_proposal"
PDF_FILENAME = "proposal.pdf"
# An approved version's PDF, its cover saying who checked it (``render_checked_proposal``).
CHECKED_PDF_FILENAME = "proposal-checked.pdf"
# Pending rows older than this are re-queued by the sweeper [s]; a just-scheduled row is left
# to its own message.
PENDING_GRACE_SECONDS = 120


class InvalidOverrides(ValueError):
    """Engineer overrides that the engine refuses; the message names each bad field."""


class StorageWriteError(OSError):
    """The stored file is not the PDF that was rendered (missing, empty or truncated)."""


# --- starting -----------------------------------------------------------------------------------


def start_pipeline(*, submission_id: int) -> Recommendation | None:
    """The first sizing of a new submission, and its emails (customer, account managers). Idempotent.

    The questionnaire publishes this by name when a submission commits; a second delivery (or
    the sweeper) finds the first version already there and does nothing.
    """
    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None:
            logger.warning("submission %s no longer exists", submission_id)
            return None
        if submission.recommendations.exists():
            return None
        recommendation = schedule_sizing(submission=submission)
        notify_submission_received(submission)
    return recommendation


def schedule_sizing(
    *, submission: Submission, overrides: dict[str, Any] | None = None, user=None
) -> Recommendation:
    """Create the next pending Recommendation version and publish its sizing after commit."""
    with transaction.atomic():
        # Lock the submission so two schedules cannot pick the same version number.
        locked = Submission.objects.select_for_update().get(pk=submission.pk)
        last = locked.recommendations.aggregate(last=Max("version"))["last"] or 0
        recommendation = Recommendation.objects.create(
            submission=locked, version=last + 1, overrides=overrides or {}, requested_by=user
        )
        set_pipeline_status(submission, Submission.PipelineStatus.PENDING)
        enqueue_after_commit(SIZING, recommendation.pk)
    return recommendation


def validate_overrides(*, submission: Submission, overrides: dict[str, Any]) -> dict[str, Any]:
    """Normalise engineer overrides to the engine's nested shape and check the engine takes them.

    Accepts nested (``{"model": {"total_params": 7e9}}``) or dotted (``{"model.total_params":
    7e9}``) keys. Raises ``InvalidOverrides`` naming the bad fields.
    """
    nested = nest_overrides(overrides)
    unknown = unknown_override_paths(nested)
    if unknown:
        raise InvalidOverrides("; ".join(f"{path}: not an engine input field" for path in unknown))
    built = build_engine_input(answers=submission.answers, overrides=nested)
    try:
        check_engine_input(built.engine_input)
    except InvalidInput as exc:
        raise InvalidOverrides(str(exc)) from exc
    return nested


def rerun_sizing(*, submission: Submission, overrides: dict[str, Any], user) -> Recommendation:
    """Size the submission again with an engineer's overrides, as a new version.

    Earlier versions and their proposals are kept; the new version gets its own proposal.
    """
    nested = validate_overrides(submission=submission, overrides=overrides)
    return schedule_sizing(submission=submission, overrides=nested, user=user)


# --- sizing -------------------------------------------------------------------------------------


def run_sizing(*, recommendation_id: int) -> None:
    """Run the engine for one Recommendation, then schedule its proposal. Idempotent."""
    run_step(SIZING, recommendation_id, work=_size, when_done=schedule_proposal)


def _size(recommendation: Recommendation) -> Outcome:
    inject_test_fault("sizing", recommendation.submission.reference)
    try:
        # Sized in full once per input and day (a retry reuses it); the review page sized the
        # same answers without the other accelerators, which it never shows, under a key of its
        # own. A what-if re-run's overrides are part of its input, and so of its key.
        sized = size_answers_once(
            answers=recommendation.submission.answers,
            overrides=recommendation.overrides,
            today=timezone.localdate(),
            contact_country=recommendation.submission.country,
            measured=HardwareMeasurement.latest_engine_section(recommendation.submission),
        )
    except InvalidInput as exc:
        raise Refusal(f"The engine refused the input: {exc}") from exc
    return Outcome(
        fields={
            "engine_input": sized.engine_input,
            "result": sized.result,
            "input_sources": sized.sources,
            "engine_version": sized.engine_version,
        },
        then=schedule_proposal,
    )


# --- the proposal -------------------------------------------------------------------------------


def schedule_proposal(recommendation: Recommendation) -> Proposal:
    """Create the pending Proposal for a sized Recommendation and publish its render after commit.

    Idempotent: one Proposal per Recommendation (a second call returns the existing one and only
    publishes it again if it is still pending).
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
            if is_latest(proposal):
                set_pipeline_status(recommendation.submission, Submission.PipelineStatus.RENDERING)
            enqueue_after_commit(RENDERING, proposal.pk)
    return proposal


def render_proposal(*, proposal_id: int) -> None:
    """Render, store and checksum one proposal's PDF. Idempotent; safe to run twice at once.

    The PDF is written under a name fixed by the version and checked against the bytes
    rendered before the row is marked done, so a crash or a storage fault never leaves a
    zero-byte or half-written file marked as ready.
    """
    run_step(RENDERING, proposal_id, work=_render)


def _render(proposal: Proposal) -> Outcome:
    reference = proposal.submission.reference
    inject_test_fault("render", reference)
    recommendation = proposal.recommendation
    # the submission was read with the claimed row, under its lock: not read a second time
    recommendation.submission = proposal.submission
    try:
        rendered = document.render_data(proposal_data(recommendation))
    except BlockedResource as exc:
        raise Refusal(f"The proposal asked for a blocked resource: {exc}") from exc
    if rendered.findings:
        # The same answers render the same proposal: a retry would find the same, so the row
        # fails at once with the findings for staff (who re-run it once the wording is fixed).
        raise Refusal(describe_findings(rendered.findings))
    inject_test_fault("store", reference)
    name = _store_pdf(proposal, rendered.pdf)
    return Outcome(
        fields={
            "pdf": name,
            "sha256": hashlib.sha256(rendered.pdf).hexdigest(),
            "size_bytes": len(rendered.pdf),
            "page_count": rendered.page_count,
            "engine_version": recommendation.engine_version,
        },
        then=_proposal_ready,
    )


def _proposal_ready(proposal: Proposal) -> None:
    submission = proposal.submission
    if is_latest(proposal):
        set_pipeline_status(submission, Submission.PipelineStatus.READY)
    if not proposal.recommendation.is_approved:
        notify_needs_review(proposal.recommendation)


def schedule_checked_proposal(recommendation: Recommendation) -> None:
    """After an approval commits, write the approved version's PDF again with its cover saying
    who checked it and what changed from the first estimate (``render_checked_proposal``)."""
    proposal = Proposal.objects.filter(
        recommendation=recommendation, status=Proposal.Status.DONE
    ).first()
    if proposal is not None:
        transaction.on_commit(lambda: publish(CHECKED_RENDER_TASK, proposal.pk), robust=True)


def render_checked_proposal(*, proposal_id: int) -> bool:
    """Render an approved version's proposal again, now saying who checked it, and put it in
    place of the PDF written before the approval. Idempotent; returns whether it swapped.

    The proposal stays "done" with the PDF it has throughout, so sending and the customer's
    link never wait on this: the new file is written under its own name, checked like any
    proposal, and swapped in under the row lock. A finding keeps the earlier PDF (logged).
    """
    proposal = Proposal.objects.select_related("recommendation").filter(pk=proposal_id).first()
    if proposal is None or not proposal.recommendation.is_approved:
        return False
    rendered = document.render_data(proposal_data(proposal.recommendation))
    if rendered.findings:
        logger.warning(
            "checked proposal %s kept its earlier PDF: %s",
            proposal_id,
            describe_findings(rendered.findings),
        )
        return False
    name = _store_pdf(proposal, rendered.pdf, filename=CHECKED_PDF_FILENAME)
    with transaction.atomic():
        row = Proposal.objects.select_for_update().get(pk=proposal_id)
        if row.status != Proposal.Status.DONE:
            return False
        old = row.pdf.name
        row.pdf.name = name
        row.sha256 = hashlib.sha256(rendered.pdf).hexdigest()
        row.size_bytes = len(rendered.pdf)
        row.page_count = rendered.page_count
        row.save(update_fields=["pdf", "sha256", "size_bytes", "page_count", "updated_at"])
    if old and old != name:
        _delete_quietly(row.pdf.storage, old)
    return True


def proposal_data(recommendation: Recommendation) -> document.ProposalData:
    """Everything the proposal of one sized version shows, as plain data."""
    submission = recommendation.submission
    approval = checked(recommendation)
    return document.ProposalData(
        reference=submission.reference,
        company=submission.company,
        contact_name=submission.contact_name,
        contact_role=submission.contact_role,
        issued_on=timezone.localdate(recommendation.finished_at or timezone.now()),
        version=recommendation.version,
        answers=submission.answers or {},
        engine_input=recommendation.engine_input or {},
        result=recommendation.result or {},
        input_sources=recommendation.input_sources or {},
        engine_version=recommendation.engine_version,
        overrides=recommendation.overrides or {},
        checked=approval.sentence if approval else "",
    )


def _store_pdf(proposal: Proposal, pdf: bytes, *, filename: str = PDF_FILENAME) -> str:
    """Write the PDF under its fixed name and check what landed; returns the storage name."""
    if not pdf:
        raise StorageWriteError("the renderer produced no bytes")
    storage = proposal.pdf.storage
    name = proposal.pdf.field.generate_filename(proposal, filename)
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


# --- retry and sweep ----------------------------------------------------------------------------


def retry_failed(*, submission: Submission) -> Recommendation | Proposal | None:
    """Give a failed pipeline a fresh set of attempts (staff action). Returns the row retried.

    The latest failed Recommendation is reset to pending; if sizing succeeded but its proposal
    failed, only the proposal is rendered again. Nothing to retry: None.
    """
    with transaction.atomic():
        recommendation = (
            Recommendation.objects.select_for_update()
            .filter(submission=submission)
            .order_by("-version")
            .first()
        )
        if recommendation is None:
            return None
        if recommendation.status == Recommendation.Status.FAILED:
            reset_for_retry(SIZING, recommendation)
            set_pipeline_status(submission, Submission.PipelineStatus.PENDING)
            return recommendation
        if recommendation.status != Recommendation.Status.DONE:
            return None
        proposal = retry_failed_proposal(recommendation=recommendation)
        if proposal is not None:
            set_pipeline_status(submission, Submission.PipelineStatus.RENDERING)
        return proposal


def retry_failed_proposal(*, recommendation: Recommendation) -> Proposal | None:
    """Reset a failed proposal to pending with fresh attempts and publish it after commit."""
    with transaction.atomic():
        proposal = (
            Proposal.objects.select_for_update()
            .filter(recommendation=recommendation, status=Proposal.Status.FAILED)
            .first()
        )
        if proposal is not None:
            reset_for_retry(RENDERING, proposal)
    return proposal


def sweep_pipeline(*, older_than: timedelta | None = None) -> dict[str, int]:
    """Publish again work and emails that are pending, or working for longer than a task may run.
    Idempotent.

    Run by celery beat. A pending row is re-published after ``PENDING_GRACE_SECONDS`` when its
    queue is empty, since its message cannot be waiting there (lost with a Redis restart, or
    never published while the broker was down). While its queue holds a backlog the row is
    most likely waiting in it: it is re-published only once it has waited longer than the
    broker's visibility timeout, and re-publishing restarts that wait, so a long backlog does
    not grow by a duplicate of every waiting row each minute. Returns how many of each kind
    were published.
    """
    now = timezone.now()
    waiting = waiting_messages() or {}

    def pending_before(task_name: str) -> datetime:
        if older_than is not None:
            return now - older_than
        if waiting.get(queue_of(task_name), 0):
            return now - timedelta(
                seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
            )
        return now - _pending_grace()

    working_before = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    # A start is cheap and idempotent; it has no row of its own to mark as re-published.
    unstarted = list(
        Submission.objects.filter(
            pipeline_status=Submission.PipelineStatus.PENDING,
            recommendations__isnull=True,
            submitted_at__lt=pending_before(START_PIPELINE_TASK),
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for submission_id in unstarted:
        publish(START_PIPELINE_TASK, submission_id)
    counts = {"start": len(unstarted)}
    for step, kind in ((SIZING, "sizing"), (RENDERING, "render")):
        row_ids = stale_row_ids(
            step, pending_before=pending_before(step.task_name), working_before=working_before
        )
        republish(step.model, step.task_name, row_ids)
        counts[kind] = len(row_ids)
    email_ids = stale_email_ids(
        pending_before=pending_before(SEND_EMAIL_TASK), sending_before=working_before
    )
    republish(OutgoingEmail, SEND_EMAIL_TASK, email_ids)
    counts["email"] = len(email_ids)
    if any(counts.values()):
        logger.info("sweeper re-queued %s", counts)
    return counts


def republish(model, task_name: str, row_ids: list[int]) -> None:
    """Publish each row's task again and restart its wait: the next sweep leaves it alone until
    it is stale again."""
    published = [row_id for row_id in row_ids if publish(task_name, row_id)]
    model.objects.filter(pk__in=published, status=model.Status.PENDING).update(
        updated_at=timezone.now()
    )


def _pending_grace() -> timedelta:
    return timedelta(seconds=PENDING_GRACE_SECONDS)
