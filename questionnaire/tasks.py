"""Scheduled questionnaire housekeeping. Tasks call a service and nothing else."""

from celery import shared_task

from questionnaire.services import purge_expired_drafts_and_sessions


@shared_task(name="questionnaire.purge_expired_drafts_and_sessions")
def purge_expired_drafts_and_sessions_task() -> None:
    purge_expired_drafts_and_sessions()
