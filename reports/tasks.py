"""Celery task of the render step. Thin: takes a proposal id and calls the service."""

from celery import shared_task

from reports import services
from sizing.tasks import RETRY_OPTIONS


@shared_task(name=services.RENDER_TASK, **RETRY_OPTIONS)
def render_proposal_task(proposal_id: int) -> None:
    services.render_proposal(proposal_id=proposal_id)
