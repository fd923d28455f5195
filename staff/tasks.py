"""Scheduled staff housekeeping. Tasks call a service and nothing else."""

from celery import shared_task

from staff.retention import purge_closed_submissions


@shared_task(name="staff.purge_closed_submissions")
def purge_closed_submissions_task() -> int:
    """Delete closed submissions past the retention period (idempotent)."""
    return purge_closed_submissions().submissions
