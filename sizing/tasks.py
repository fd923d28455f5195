"""Celery tasks of the sizing step and the sweeper. Thin: each takes an id and calls a service.

Retries: an error the service re-raises (anything but invalid input or the attempt cap) is
retried with exponential backoff and jitter; the attempt count on the row is the real cap.
"""

from celery import shared_task

from sizing import services
from sizing.pipeline import MAX_ATTEMPTS

# Backoff for retried tasks [s]: 2, 4, 8 … with full jitter, capped at retry_backoff_max.
RETRY_OPTIONS = {
    "autoretry_for": (Exception,),
    "retry_backoff": 2,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    # One more than the row's cap, so the run that reaches the cap is the one that records it.
    "max_retries": MAX_ATTEMPTS + 1,
}


@shared_task(name=services.SIZING_TASK, **RETRY_OPTIONS)
def run_sizing_task(recommendation_id: int) -> None:
    services.run_sizing(recommendation_id=recommendation_id)


@shared_task(name=services.SWEEP_TASK)
def sweep_pipeline_task() -> None:
    services.sweep_pipeline()


@shared_task(name="sizing.purge_expired_drafts_and_sessions")
def purge_expired_drafts_and_sessions_task() -> None:
    services.purge_expired_drafts_and_sessions()
