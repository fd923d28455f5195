"""The sizing half of the recommendation pipeline: schedule, run, re-run, retry and sweep.

The rows are the outbox. ``schedule_sizing`` writes a pending ``Recommendation`` inside the
caller's transaction and only *tries* to enqueue after commit; if the broker is down the commit
still stands and ``sweep_pipeline`` (celery beat) re-queues it later. Every step is idempotent and
counts its attempts on its row, so a redelivered or duplicated message does no harm and a
submission that keeps crashing ends as failed instead of looping.
"""

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from questionnaire.models import Draft, Submission
from reports import services as report_services
from reports.models import Proposal
from sizing import adapters
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

logger = logging.getLogger(__name__)

# Pending rows older than this are re-queued by the sweeper [s]; a just-scheduled row is left
# to its own message.
PENDING_GRACE_SECONDS = 120

SIZING_TASK = "sizing.run_sizing"
SWEEP_TASK = "sizing.sweep_pipeline"


class InvalidOverrides(ValueError):
    """Engineer overrides that the engine refuses; the message names each bad field."""


# --- enqueueing -------------------------------------------------------------------------------


def enqueue_sizing(*, recommendation_id: int) -> bool:
    return enqueue(SIZING_TASK, row_id=recommendation_id)


# --- scheduling -------------------------------------------------------------------------------


def schedule_sizing(
    *, submission: Submission, overrides: dict[str, Any] | None = None, user=None
) -> Recommendation:
    """Create the next pending Recommendation version and enqueue its sizing after commit.

    Call it inside the transaction that stores the submission (or the override): the row and
    the submission's pending status commit together, and the task is published only once they
    have. A broker outage is logged and left to the sweeper; it never undoes the commit.
    """
    with transaction.atomic():
        # Lock the submission so two schedules cannot pick the same version number.
        locked = Submission.objects.select_for_update().get(pk=submission.pk)
        last = locked.recommendations.aggregate(last=Max("version"))["last"] or 0
        recommendation = Recommendation.objects.create(
            submission=locked,
            version=last + 1,
            overrides=overrides or {},
            requested_by=user,
        )
        set_pipeline_status(locked, Submission.PipelineStatus.PENDING)
        submission.pipeline_status = locked.pipeline_status
        submission.pipeline_error = locked.pipeline_error
        submission.pipeline_updated_at = locked.pipeline_updated_at
        recommendation_id = recommendation.pk
        transaction.on_commit(
            lambda: enqueue_sizing(recommendation_id=recommendation_id), robust=True
        )
    return recommendation


def validate_overrides(*, submission: Submission, overrides: dict[str, Any]) -> dict[str, Any]:
    """Normalise engineer overrides to the engine's nested shape and check the engine takes them.

    Accepts nested (``{"model": {"total_params": 7e9}}``) or dotted (``{"model.total_params":
    7e9}``) keys. Raises ``InvalidOverrides`` naming the bad fields.
    """
    nested = adapters.nest_overrides(overrides)
    unknown = adapters.unknown_override_paths(nested)
    if unknown:
        raise InvalidOverrides("; ".join(f"{path}: not an engine input field" for path in unknown))
    built = adapters.build_engine_input(answers=submission.answers, overrides=nested)
    try:
        adapters.check_engine_input(built.engine_input)
    except adapters.InvalidInput as exc:
        raise InvalidOverrides(str(exc)) from exc
    return nested


def rerun_sizing(*, submission: Submission, overrides: dict[str, Any], user) -> Recommendation:
    """Size the submission again with an engineer's overrides, as a new version.

    Earlier versions and their proposals are kept; the new version gets its own proposal.
    """
    nested = validate_overrides(submission=submission, overrides=overrides)
    with transaction.atomic():
        return schedule_sizing(submission=submission, overrides=nested, user=user)


# --- the work ---------------------------------------------------------------------------------


def run_sizing(*, recommendation_id: int) -> None:
    """Run the engine for one Recommendation and schedule its proposal. Idempotent.

    A duplicate delivery finds the row done (or locked by the run in progress) and does nothing.
    Invalid input fails at once; any other error is re-raised for the task to retry with backoff
    until the row's attempt cap, when the row (and the submission's pipeline) is marked failed.
    """
    with row_lock(LockKind.SIZING, recommendation_id) as held:
        if not held:
            logger.info("recommendation %s is being sized by another worker", recommendation_id)
            return
        recommendation = _claim_recommendation(recommendation_id)
        if recommendation is None:
            return
        try:
            inject_test_fault("sizing", recommendation.submission.reference)
            built = adapters.build_engine_input(
                answers=recommendation.submission.answers, overrides=recommendation.overrides
            )
            result = adapters.run_engine(built.engine_input)
        except adapters.InvalidInput as exc:
            fail_recommendation(recommendation, f"The engine refused the input: {exc}")
            return
        except Exception as exc:
            if recommendation.attempts >= MAX_ATTEMPTS:
                fail_recommendation(recommendation, describe_error(exc, recommendation.attempts))
                return
            _release_recommendation(recommendation, describe_error(exc, recommendation.attempts))
            raise
        result["input_sources"] = built.sources
        _finish_recommendation(recommendation, built.engine_input, result)


def _claim_recommendation(recommendation_id: int) -> Recommendation | None:
    """Count this run on the row and mark it running; None when there is nothing to do."""
    with transaction.atomic():
        recommendation = (
            Recommendation.objects.select_for_update()
            .select_related("submission")
            .filter(pk=recommendation_id)
            .first()
        )
        if recommendation is None:
            logger.warning("recommendation %s no longer exists", recommendation_id)
            return None
        if recommendation.status == Recommendation.Status.DONE:
            # Sized already; make sure its proposal exists (a crash may have come in between).
            report_services.schedule_proposal(recommendation=recommendation)
            return None
        if recommendation.status == Recommendation.Status.FAILED:
            return None
        if recommendation.attempts >= MAX_ATTEMPTS:
            # Every earlier run died without recording an outcome (killed worker, OOM).
            fail_recommendation(
                recommendation,
                recommendation.error
                or f"Gave up after {recommendation.attempts} attempts that never finished.",
            )
            return None
        recommendation.attempts += 1
        recommendation.status = Recommendation.Status.RUNNING
        recommendation.save(update_fields=["attempts", "status", "updated_at"])
        if _is_latest(recommendation):
            set_pipeline_status(recommendation.submission, Submission.PipelineStatus.SIZING)
        return recommendation


def _is_latest(recommendation: Recommendation) -> bool:
    return is_latest_version(
        submission_id=recommendation.submission_id, version=recommendation.version
    )


def _release_recommendation(recommendation: Recommendation, error: str) -> None:
    """Record a transient error and hand the row back to the queue (pending) for the retry."""
    Recommendation.objects.filter(pk=recommendation.pk).update(
        status=Recommendation.Status.PENDING, error=error, updated_at=timezone.now()
    )


def _finish_recommendation(
    recommendation: Recommendation, engine_input: dict[str, Any], result: dict[str, Any]
) -> None:
    with transaction.atomic():
        recommendation.engine_input = engine_input
        recommendation.result = result
        recommendation.engine_version = str(result.get("engine_version", adapters.ENGINE_VERSION))
        recommendation.status = Recommendation.Status.DONE
        recommendation.error = ""
        recommendation.finished_at = timezone.now()
        recommendation.save()
        report_services.schedule_proposal(recommendation=recommendation)


def fail_recommendation(recommendation: Recommendation, error: str) -> None:
    """Mark a Recommendation failed for good, and its submission's pipeline; notify after commit."""
    fail_step(recommendation, error)


# --- retry and sweep --------------------------------------------------------------------------


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
            recommendation.status = Recommendation.Status.PENDING
            recommendation.attempts = 0
            recommendation.error = ""
            recommendation.finished_at = None
            recommendation.save()
            set_pipeline_status(submission, Submission.PipelineStatus.PENDING)
            recommendation_id = recommendation.pk
            transaction.on_commit(
                lambda: enqueue_sizing(recommendation_id=recommendation_id), robust=True
            )
            return recommendation
        if recommendation.status == Recommendation.Status.DONE:
            proposal = report_services.retry_failed_proposal(recommendation=recommendation)
            if proposal is not None:
                set_pipeline_status(submission, Submission.PipelineStatus.RENDERING)
            return proposal
    return None


def sweep_pipeline(*, older_than: timedelta | None = None) -> dict[str, int]:
    """Re-queue work that is pending, or running for longer than a task may run. Idempotent.

    Run by celery beat. Re-queuing work that is in fact still queued is harmless: each step is
    idempotent and takes a row lock. Returns how many rows of each kind were re-queued.
    """
    now = timezone.now()
    pending_cutoff = now - (older_than if older_than is not None else _pending_grace())
    stuck_cutoff = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    stale = Q(status=Recommendation.Status.PENDING, updated_at__lt=pending_cutoff) | Q(
        status=Recommendation.Status.RUNNING, updated_at__lt=stuck_cutoff
    )
    recommendation_ids = list(
        Recommendation.objects.filter(stale).order_by("pk").values_list("pk", flat=True)
    )
    for recommendation_id in recommendation_ids:
        enqueue_sizing(recommendation_id=recommendation_id)
    proposal_ids = report_services.stale_proposal_ids(
        pending_cutoff=pending_cutoff, stuck_cutoff=stuck_cutoff
    )
    for proposal_id in proposal_ids:
        report_services.enqueue_render(proposal_id=proposal_id)
    if recommendation_ids or proposal_ids:
        logger.info(
            "sweeper re-queued %d sizing and %d render tasks",
            len(recommendation_ids),
            len(proposal_ids),
        )
    return {"sizing": len(recommendation_ids), "render": len(proposal_ids)}


def _pending_grace() -> timedelta:
    return timedelta(seconds=PENDING_GRACE_SECONDS)


# --- comparing versions -----------------------------------------------------------------------


def describe_changes(previous: Recommendation, current: Recommendation) -> dict[str, Any]:
    """What changed between two versions: engine inputs, overrides, outputs and engine version.

    Returns ``{"inputs": [...], "overrides": [...], "outputs": [...], "engine_version":
    {"before", "after"} | None}``, each change ``{"field": "model.total_params", "before": …,
    "after": …}`` with dotted paths in the engine contract's vocabulary. Lists are compared
    whole; the pipeline's own bookkeeping (``input_sources``) is left out of outputs.
    """
    outputs_before = dict(previous.result or {})
    outputs_after = dict(current.result or {})
    for bookkeeping in ("input_sources", "engine_version"):
        outputs_before.pop(bookkeeping, None)
        outputs_after.pop(bookkeeping, None)
    engine_version = None
    if previous.engine_version != current.engine_version:
        engine_version = {"before": previous.engine_version, "after": current.engine_version}
    return {
        "inputs": _diff(previous.engine_input or {}, current.engine_input or {}),
        "overrides": _diff(previous.overrides or {}, current.overrides or {}),
        "outputs": _diff(outputs_before, outputs_after),
        "engine_version": engine_version,
    }


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def _diff(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    flat_before, flat_after = _flatten(before), _flatten(after)
    changes = []
    for field in sorted(flat_before.keys() | flat_after.keys()):
        old, new = flat_before.get(field), flat_after.get(field)
        if old != new:
            changes.append({"field": field, "before": old, "after": new})
    return changes


# --- housekeeping -----------------------------------------------------------------------------


def purge_expired_drafts_and_sessions() -> dict[str, int]:
    """Delete drafts untouched for DRAFT_RETENTION_DAYS and expired sessions (both hold answers)."""
    cutoff = timezone.now() - timedelta(days=settings.DRAFT_RETENTION_DAYS)
    drafts, _ = Draft.objects.filter(updated_at__lt=cutoff).delete()
    sessions, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return {"drafts": drafts, "sessions": sessions}
