"""Celery tasks of the pipeline. Thin: each takes an id and calls one service.

Retries: an error the service re-raises (anything but a refusal or the attempt cap) is retried
with exponential backoff and jitter; the attempt count on the row is the real cap.
"""

from celery import shared_task

from pipeline import outbox, services
from pipeline.steps import MAX_ATTEMPTS, RENDERING, SIZING
from questionnaire.services import RESUME_LINK_TASK, START_PIPELINE_TASK

# Backoff for retried tasks [s]: 2, 4, 8 … with full jitter, capped at retry_backoff_max.
RETRY_OPTIONS = {
    "autoretry_for": (Exception,),
    "retry_backoff": 2,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    # One more than the row's cap, so the run that reaches the cap is the one that records it.
    "max_retries": MAX_ATTEMPTS + 1,
}


@shared_task(name=START_PIPELINE_TASK, **RETRY_OPTIONS)
def start_pipeline_task(submission_id: int) -> None:
    services.start_pipeline(submission_id=submission_id)


@shared_task(name=SIZING.task_name, **RETRY_OPTIONS)
def run_sizing_task(recommendation_id: int) -> None:
    services.run_sizing(recommendation_id=recommendation_id)


@shared_task(name=RENDERING.task_name, **RETRY_OPTIONS)
def render_proposal_task(proposal_id: int) -> None:
    services.render_proposal(proposal_id=proposal_id)


@shared_task(name=services.CHECKED_RENDER_TASK, **RETRY_OPTIONS)
def render_checked_proposal_task(proposal_id: int) -> None:
    services.render_checked_proposal(proposal_id=proposal_id)


@shared_task(name=services.SWEEP_TASK)
def sweep_pipeline_task() -> None:
    services.sweep_pipeline()


# Email retries: the row's attempt count is the cap (outbox.MAX_EMAIL_ATTEMPTS).
EMAIL_RETRY_OPTIONS = {**RETRY_OPTIONS, "max_retries": outbox.MAX_EMAIL_ATTEMPTS + 1}


@shared_task(name=outbox.SEND_EMAIL_TASK, **EMAIL_RETRY_OPTIONS)
def deliver_email_task(email_id: int) -> None:
    outbox.deliver_email(email_id=email_id)


@shared_task(name=RESUME_LINK_TASK, **EMAIL_RETRY_OPTIONS)
def queue_resume_link_task(draft_id: str, link: str) -> None:
    """The link is an argument, not a row: the draft stores only its hash."""
    outbox.queue_resume_link(draft_id=draft_id, link=link)
