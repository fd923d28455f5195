"""Machinery shared by the pipeline's steps (sizing, then rendering): row locks, the attempt cap,
fail-fast publishing and the submission's pipeline status.

Celery delivers at least once: with ``acks_late`` a task may run twice, even at the same time
(a redelivery while the first run is still going, or a sweeper re-queue). Each step therefore
takes a PostgreSQL session-level advisory lock keyed by (kind, row id) for as long as it works; a
second run that cannot take it simply stops. The lock dies with the connection, so a worker
killed mid-task never leaves it behind and the redelivered message can take it at once [1]_.

References
----------
.. [1] PostgreSQL 15 manual, "Advisory Locks" (explicit-locking.html#ADVISORY-LOCKS) and
       ``pg_try_advisory_lock(key1 int, key2 int)`` (functions-admin.html).
.. [2] Celery user guide, "Tasks: Retrying" and the FAQ "Should I use retry or acks_late?".
"""

import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from config.celery import app
from questionnaire.models import Submission
from sizing.models import Recommendation
from staff.notifications import notify_pipeline_failed

logger = logging.getLogger(__name__)

# A row is failed for good after this many runs that crashed or were killed [runs].
MAX_ATTEMPTS = 3
# Publishing must fail fast when the broker is down: a customer may be waiting for a page.
PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}


class LockKind(IntEnum):
    """The first key of the advisory lock: which table the second key (the row id) is from."""

    SIZING = 4101
    PROPOSAL = 4102


@contextmanager
def row_lock(kind: LockKind, row_id: int) -> Iterator[bool]:
    """Try to take the lock for one row; yields whether this process holds it.

    Other databases (the embedded SQLite default) run tasks in-process, one at a time, so
    there the lock is always granted.
    """
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [int(kind), int(row_id)])
        held = bool(cursor.fetchone()[0])
    try:
        yield held
    finally:
        if held:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [int(kind), int(row_id)])


def enqueue(task_name: str, *, row_id: int) -> bool:
    """Publish one task for one row id; never raises. Returns whether the message went out.

    A failure is only logged: the row stays pending and the sweeper publishes it again.
    """
    try:
        task_for(task_name).apply_async(
            args=[row_id], retry=True, retry_policy=PUBLISH_RETRY_POLICY
        )
    except Exception:
        logger.warning(
            "could not enqueue %s for row %s; the sweeper will re-queue it",
            task_name,
            row_id,
            exc_info=True,
        )
        return False
    return True


def task_for(task_name: str):
    """The registered task called ``task_name`` (so eager mode applies to it).

    The services name tasks instead of importing them (the task modules import the services).
    Outside a worker Celery only imports the apps' ``tasks`` modules when asked: ask once.
    """
    if task_name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[task_name]


def set_pipeline_status(submission: Submission, status: str, *, error: str = "") -> None:
    """Record where the submission's pipeline stands (on the row, and on the instance)."""
    now = timezone.now()
    Submission.objects.filter(pk=submission.pk).update(
        pipeline_status=status, pipeline_error=error, pipeline_updated_at=now
    )
    submission.pipeline_status = status
    submission.pipeline_error = error
    submission.pipeline_updated_at = now


def is_latest_version(*, submission_id: int, version: int) -> bool:
    """Whether ``version`` is the submission's newest Recommendation: only the newest version's
    progress is the submission's status (an older one finishing late must not overwrite it)."""
    from_newer = Recommendation.objects.filter(submission_id=submission_id, version__gt=version)
    return not from_newer.exists()


def fail_pipeline(*, submission: Submission, error: str) -> None:
    """Mark the submission's pipeline failed (shown to staff) and notify after commit."""
    with transaction.atomic():
        set_pipeline_status(submission, Submission.PipelineStatus.FAILED, error=error)
        transaction.on_commit(lambda: notify_pipeline_failed(submission), robust=True)


def fail_step(row: Recommendation | Any, error: str) -> None:
    """Mark one pipeline row (a Recommendation or a Proposal) failed for good, with its error;
    when it is the submission's newest version, fail the submission's pipeline too (which
    notifies staff after commit)."""
    model = type(row)
    now = timezone.now()
    with transaction.atomic():
        model.objects.filter(pk=row.pk).update(
            status=model.Status.FAILED, error=error, finished_at=now, updated_at=now
        )
        row.status = model.Status.FAILED
        row.error = error
        if is_latest_version(submission_id=row.submission_id, version=row.version):
            fail_pipeline(submission=row.submission, error=error)
    logger.error("%s %s failed: %s", model.__name__.lower(), row.pk, error)


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
