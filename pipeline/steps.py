"""The one state machine of a pipeline step (a Recommendation or a Proposal row).

pending → (claimed) working → done, or back to pending for a retry, or failed for good at the
attempt cap. Sizing and rendering differ only in the work they do and in what follows when they
finish; both go through :func:`run_step`.

Celery delivers at least once: with ``acks_late`` a task may run twice, even at the same time
(a redelivery while the first run is still going, or a sweeper re-queue). Each step therefore
takes a PostgreSQL session-level advisory lock keyed by (kind, row id) for as long as it works; a
second run that cannot take it simply stops. The lock dies with the connection, so a worker
killed mid-task never leaves it behind and the redelivered message can take it at once [1]_.
The attempt count on the row, not Celery's retry count, is the real cap [2]_.

References
----------
.. [1] PostgreSQL 15 manual, "Advisory Locks" (explicit-locking.html#ADVISORY-LOCKS) and
       ``pg_try_advisory_lock(key1 int, key2 int)`` (functions-admin.html).
.. [2] Celery user guide, "Tasks: Retrying" and the FAQ "Should I use retry or acks_late?".
"""

import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from config.celery import publish
from pipeline.models import PipelineStep, Proposal, Recommendation
from pipeline.notifications import notify_pipeline_failed
from questionnaire.models import Submission

logger = logging.getLogger(__name__)

# A row is failed for good after this many runs that crashed or were killed [runs].
MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class Step:
    """One kind of step: its rows, its lock key, its task and the submission's status meanwhile."""

    model: type[Recommendation] | type[Proposal]
    lock_key: int  # first key of the advisory lock; the row id is the second
    task_name: str
    working_status: str  # Submission.PipelineStatus while a row of this kind works


SIZING = Step(Recommendation, 4101, "pipeline.run_sizing", "sizing")
RENDERING = Step(Proposal, 4102, "pipeline.render_proposal", "rendering")


@dataclass(frozen=True)
class Outcome:
    """What a finished piece of work stores on its row, and what follows inside the same commit."""

    fields: dict[str, Any]
    then: Callable[[PipelineStep], None] | None = None


class Refusal(Exception):
    """Work that can never succeed (invalid input, a blocked resource): fail at once, no retry.

    Its message is stored on the row for staff.
    """


def enqueue(step: Step, row_id: int) -> bool:
    """Publish the step's task for one row; a broker outage is left to the sweeper."""
    return publish(step.task_name, row_id)


def enqueue_after_commit(step: Step, row_id: int) -> None:
    transaction.on_commit(lambda: enqueue(step, row_id), robust=True)


@contextmanager
def row_lock(step: Step, row_id: int) -> Iterator[bool]:
    """Try to take the lock for one row; yields whether this process holds it.

    Other databases (the embedded SQLite default) run tasks in-process, one at a time, so
    there the lock is always granted.
    """
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [step.lock_key, int(row_id)])
        held = bool(cursor.fetchone()[0])
    try:
        yield held
    finally:
        if held:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [step.lock_key, int(row_id)])


def run_step(
    step: Step,
    row_id: int,
    *,
    work: Callable[[Any], Outcome],
    when_done: Callable[[Any], None] | None = None,
) -> None:
    """Claim one row, do its work, and finish, release or fail it. Idempotent.

    A duplicate delivery finds the row done (``when_done`` may then repair what should have
    followed), failed, or locked by the run in progress, and does nothing else. ``work`` raising
    :class:`Refusal` fails the row at once; any other error is re-raised for the task to retry
    with backoff until the row's attempt cap, when the row and the submission are marked failed.
    """
    with row_lock(step, row_id) as held:
        if not held:
            logger.info("%s %s is being worked on by another worker", step.model.__name__, row_id)
            return
        row = _claim(step, row_id, when_done=when_done)
        if row is None:
            return
        try:
            outcome = work(row)
        except Refusal as refusal:
            fail_step(row, str(refusal))
            return
        except Exception as exc:
            error = describe_error(exc, row.attempts)
            if row.attempts >= MAX_ATTEMPTS:
                fail_step(row, error)
                return
            _release(row, error)
            raise
        _finish(row, outcome)


def _claim(step: Step, row_id: int, *, when_done: Callable[[Any], None] | None) -> Any:
    """Count this run on the row and mark it working; None when there is nothing to do."""
    model = step.model
    with transaction.atomic():
        row = model.objects.select_for_update().select_related("submission").filter(pk=row_id)
        row = row.first()
        if row is None:
            logger.warning("%s %s no longer exists", model.__name__, row_id)
            return None
        if row.status == model.Status.DONE:
            if when_done is not None:
                when_done(row)
            return None
        if row.status == model.Status.FAILED:
            return None
        if row.attempts >= MAX_ATTEMPTS:
            # Every earlier run died without recording an outcome (killed worker, OOM).
            fail_step(
                row, row.error or f"Gave up after {row.attempts} attempts that never finished."
            )
            return None
        row.attempts += 1
        row.status = model.WORKING
        row.save(update_fields=["attempts", "status", "updated_at"])
        if is_latest(row):
            set_pipeline_status(row.submission, step.working_status)
        return row


def _release(row: Any, error: str) -> None:
    """Record a transient error and hand the row back to the queue (pending) for the retry."""
    type(row).objects.filter(pk=row.pk).update(
        status=type(row).Status.PENDING, error=error, updated_at=timezone.now()
    )


def _finish(row: Any, outcome: Outcome) -> None:
    with transaction.atomic():
        for name, value in outcome.fields.items():
            setattr(row, name, value)
        row.status = type(row).Status.DONE
        row.error = ""
        row.finished_at = timezone.now()
        row.save()
        if outcome.then is not None:
            outcome.then(row)


def fail_step(row: Any, error: str) -> None:
    """Mark one row failed for good, with its error; when it is the submission's newest version,
    fail the submission's pipeline too (whose email to staff goes out after commit)."""
    model = type(row)
    now = timezone.now()
    with transaction.atomic():
        model.objects.filter(pk=row.pk).update(
            status=model.Status.FAILED, error=error, finished_at=now, updated_at=now
        )
        row.status = model.Status.FAILED
        row.error = error
        if is_latest(row):
            submission = row.submission
            set_pipeline_status(submission, Submission.PipelineStatus.FAILED, error=error)
            notify_pipeline_failed(submission)
    logger.error("%s %s failed: %s", model.__name__.lower(), row.pk, error)


def reset_for_retry(step: Step, row: Any) -> None:
    """Give a failed row fresh attempts and publish it again after commit."""
    row.status = type(row).Status.PENDING
    row.attempts = 0
    row.error = ""
    row.finished_at = None
    row.save()
    enqueue_after_commit(step, row.pk)


def stale_row_ids(step: Step, *, pending_before: datetime, working_before: datetime) -> list[int]:
    """Rows pending since before ``pending_before`` or working since before ``working_before``."""
    model = step.model
    stale = Q(status=model.Status.PENDING, updated_at__lt=pending_before) | Q(
        status=model.WORKING, updated_at__lt=working_before
    )
    return list(model.objects.filter(stale).order_by("pk").values_list("pk", flat=True))


def set_pipeline_status(submission: Submission, status: str, *, error: str = "") -> None:
    """Record where the submission's pipeline stands (on the row, and on the instance)."""
    now = timezone.now()
    Submission.objects.filter(pk=submission.pk).update(
        pipeline_status=status, pipeline_error=error, pipeline_updated_at=now
    )
    submission.pipeline_status = status
    submission.pipeline_error = error
    submission.pipeline_updated_at = now


def is_latest(row: Any) -> bool:
    """Whether the row belongs to the submission's newest Recommendation: only the newest
    version's progress is the submission's status (an older one finishing late must not
    overwrite it)."""
    newer = Recommendation.objects.filter(submission_id=row.submission_id, version__gt=row.version)
    return not newer.exists()


def describe_error(exc: BaseException, attempt: int) -> str:
    """The error text stored on a row for staff: which attempt, and what went wrong."""
    return f"Attempt {attempt} of {MAX_ATTEMPTS}: {type(exc).__name__}: {exc}"[:2000]


def inject_test_fault(stage: str, reference: str) -> None:
    """TEST-ONLY fault injection for the worker integration tests in tests/pipeline/.

    Reads ``PIPELINE_TEST_FAULTS``, which no deployment sets (it is not in .env.example). A
    comma-separated list of ``kind:stage:target`` where target is a submission reference or ``*``:
    ``crash:render:TQ-2026-00001`` raises on every attempt; ``sleep:render:*:3`` sleeps 3 s
    (so a test can kill the worker mid-render).
    """
    spec = os.environ.get("PIPELINE_TEST_FAULTS")
    if not spec:
        return
    for fault in spec.split(","):
        kind, fault_stage, target, seconds = (fault.split(":") + ["", "", "", "3"])[:4]
        if fault_stage != stage or target not in ("*", reference):
            continue
        if kind == "crash":
            raise RuntimeError(f"injected test fault in {stage} for {reference}")
        if kind == "sleep":
            time.sleep(float(seconds))
