"""The Celery tasks and schedule: thin, retrying, registered, and the in-process default."""

import pytest
from django.db import transaction

from config.celery import app, publish
from pipeline.models import Proposal
from pipeline.steps import MAX_ATTEMPTS
from pipeline.tasks import render_proposal_task, run_sizing_task, start_pipeline_task
from questionnaire.services import START_PIPELINE_TASK
from tests.reports.factories import make_submission


def test_every_scheduled_beat_task_is_a_registered_task():
    app.loader.import_default_modules()  # what a worker does: import every app's tasks module
    for entry in app.conf.beat_schedule.values():
        assert entry["task"] in app.tasks, entry["task"]
    assert app.conf.beat_schedule["sweep-pipeline"]["schedule"] <= 60


@pytest.mark.parametrize(
    "task", [start_pipeline_task, run_sizing_task, render_proposal_task]
)
def test_pipeline_tasks_retry_with_backoff_and_jitter_beyond_the_row_cap(task):
    assert task.autoretry_for == (Exception,)
    assert task.retry_backoff and task.retry_jitter
    assert task.max_retries == MAX_ATTEMPTS + 1  # the attempt count on the row is the real cap


def test_celery_is_configured_for_at_least_once_delivery():
    conf = app.conf
    assert conf.task_acks_late and conf.task_reject_on_worker_lost
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_serializer == "json" and conf.accept_content == ["json"]
    assert conf.broker_transport_options["visibility_timeout"] >= 3 * conf.task_time_limit
    assert conf.task_soft_time_limit < conf.task_time_limit


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_whole_pipeline_runs_in_process(settings):
    assert app.conf.task_always_eager  # no CELERY_BROKER_URL in the test environment
    with transaction.atomic():
        submission = make_submission()
        transaction.on_commit(lambda: publish(START_PIPELINE_TASK, submission.pk))
    submission.refresh_from_db()
    assert submission.pipeline_status == "ready", submission.pipeline_error
    proposal = Proposal.objects.get(submission=submission)
    assert proposal.status == "done" and proposal.size_bytes > 0
