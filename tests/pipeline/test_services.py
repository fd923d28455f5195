"""pipeline/services.py: starting, scheduling, sizing, re-running, retrying and sweeping.

The services are tested directly, with publishing recorded instead of sent; the real worker and
broker are exercised in tests/pipeline/.
"""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from config import celery
from pipeline import services, steps, versions
from pipeline.models import Proposal, Recommendation
from questionnaire.models import Submission
from questionnaire.services import START_PIPELINE_TASK
from tests.reports.factories import make_submission

SIZING_TASK = steps.SIZING.task_name
RENDER_TASK = steps.RENDERING.task_name

pytestmark = pytest.mark.django_db


def test_schedule_sizing_creates_pending_v1_and_enqueues_only_after_commit(
    published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        recommendation = services.schedule_sizing(submission=submission)
        assert published == []  # nothing leaves before the commit
    assert len(callbacks) == 1
    assert published == [(SIZING_TASK, recommendation.pk)]
    recommendation.refresh_from_db()
    assert (recommendation.version, recommendation.status) == (1, Recommendation.Status.PENDING)
    assert Submission.objects.get(pk=submission.pk).pipeline_status == "pending"


def test_each_schedule_is_the_next_version(published):
    submission = make_submission()
    first = services.schedule_sizing(submission=submission)
    second = services.schedule_sizing(submission=submission)
    assert (first.version, second.version) == (1, 2)


def test_broker_down_at_submit_keeps_the_commit_and_the_row_pending(
    monkeypatch, django_capture_on_commit_callbacks
):
    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    warnings: list[str] = []
    monkeypatch.setattr(celery.registered_task(SIZING_TASK), "apply_async", refuse)
    monkeypatch.setattr(celery.logger, "warning", lambda msg, *a, **k: warnings.append(msg % a))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        submission = make_submission()
        recommendation = services.schedule_sizing(submission=submission)
    assert Recommendation.objects.get(pk=recommendation.pk).status == "pending"
    assert Submission.objects.filter(pk=submission.pk).exists()
    assert warnings == [
        f"could not publish pipeline.run_sizing({recommendation.pk},); "
        "the sweeper will re-queue it"
    ]


def test_run_sizing_stores_input_result_and_engine_version_then_schedules_the_proposal(
    published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    recommendation = services.schedule_sizing(submission=submission)
    with django_capture_on_commit_callbacks(execute=True):
        services.run_sizing(recommendation_id=recommendation.pk)
    recommendation.refresh_from_db()
    assert recommendation.status == Recommendation.Status.DONE
    assert recommendation.attempts == 1
    assert recommendation.engine_input["model"]["total_params"] == 70e9
    assert recommendation.result["cluster"]["gpus"] > 0
    assert recommendation.input_sources["model.total_params"] == "customer"
    assert "input_sources" not in recommendation.result
    assert recommendation.engine_version == recommendation.result["engine_version"]
    proposal = Proposal.objects.get(recommendation=recommendation)
    assert (proposal.version, proposal.status) == (1, Proposal.Status.PENDING)
    assert (RENDER_TASK, proposal.pk) in published
    assert Submission.objects.get(pk=submission.pk).pipeline_status == "rendering"


def test_run_sizing_twice_does_the_work_once(published):
    recommendation = services.schedule_sizing(submission=make_submission())
    services.run_sizing(recommendation_id=recommendation.pk)
    services.run_sizing(recommendation_id=recommendation.pk)
    recommendation.refresh_from_db()
    assert recommendation.attempts == 1
    assert Proposal.objects.filter(recommendation=recommendation).count() == 1


def test_input_the_engine_refuses_fails_at_once_and_notifies(
    published, notified, django_capture_on_commit_callbacks
):
    submission = make_submission()
    recommendation = services.schedule_sizing(
        submission=submission, overrides={"model": {"total_params": -7}}
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.run_sizing(recommendation_id=recommendation.pk)
    recommendation.refresh_from_db()
    assert recommendation.status == Recommendation.Status.FAILED
    assert recommendation.attempts == 1
    assert "model.total_params" in recommendation.error
    submission.refresh_from_db()
    assert submission.pipeline_status == "failed"
    assert "model.total_params" in submission.pipeline_error
    assert notified == [("failed", submission.reference)]


def test_a_crash_is_retried_until_the_attempt_cap_then_fails_for_good(
    published, notified, monkeypatch, django_capture_on_commit_callbacks
):
    def crash(engine_input, **options):
        raise RuntimeError("engine blew up")

    monkeypatch.setattr("sizing.adapters.size_dict", crash)
    submission = make_submission()
    recommendation = services.schedule_sizing(submission=submission)
    for attempt in range(1, steps.MAX_ATTEMPTS):
        with pytest.raises(RuntimeError):
            services.run_sizing(recommendation_id=recommendation.pk)
        recommendation.refresh_from_db()
        assert (recommendation.status, recommendation.attempts) == ("pending", attempt)
        assert "engine blew up" in recommendation.error
    with django_capture_on_commit_callbacks(execute=True):
        services.run_sizing(recommendation_id=recommendation.pk)  # the last one does not raise
    recommendation.refresh_from_db()
    assert (recommendation.status, recommendation.attempts) == ("failed", steps.MAX_ATTEMPTS)
    assert notified == [("failed", submission.reference)]
    services.run_sizing(recommendation_id=recommendation.pk)  # a late redelivery: nothing
    recommendation.refresh_from_db()
    assert recommendation.attempts == steps.MAX_ATTEMPTS


def test_runs_killed_before_recording_anything_end_failed_at_the_cap(published, notified):
    recommendation = services.schedule_sizing(submission=make_submission())
    Recommendation.objects.filter(pk=recommendation.pk).update(
        status="running", attempts=steps.MAX_ATTEMPTS
    )
    services.run_sizing(recommendation_id=recommendation.pk)
    recommendation.refresh_from_db()
    assert recommendation.status == "failed"
    assert "never finished" in recommendation.error


def test_rerun_keeps_the_previous_version_and_records_who_and_what(published, django_user_model):
    engineer = django_user_model.objects.create_user("engineer", password="x" * 20)
    submission = make_submission()
    first = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=first.pk)
    second = services.rerun_sizing(
        submission=submission, overrides={"hardware.accelerator": "a100-80gb"}, user=engineer
    )
    services.run_sizing(recommendation_id=second.pk)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.version, second.version) == (1, 2)
    assert first.status == second.status == "done"
    assert second.overrides == {"hardware": {"accelerator": "a100-80gb"}}
    assert second.requested_by == engineer
    assert second.engine_input["hardware"]["accelerator"] == "a100-80gb"
    assert Proposal.objects.filter(submission=submission).count() == 2


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"model.colour": "red"}, "model.colour: not an engine input field"),
        ({"model.total_params": -7}, "model.total_params"),
        ({"hardware.accelerator": "abacus"}, "hardware.accelerator"),
    ],
)
def test_rerun_with_bad_overrides_is_refused_without_a_new_version(published, overrides, message):
    submission = make_submission()
    services.schedule_sizing(submission=submission)
    with pytest.raises(services.InvalidOverrides, match=message.replace(".", r"\.")):
        services.rerun_sizing(submission=submission, overrides=overrides, user=None)
    assert submission.recommendations.count() == 1


def test_retry_failed_gives_fresh_attempts_and_enqueues(
    published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    recommendation = services.schedule_sizing(submission=submission)
    Recommendation.objects.filter(pk=recommendation.pk).update(
        status="failed", attempts=3, error="boom"
    )
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        retried = services.retry_failed(submission=submission)
    assert retried.pk == recommendation.pk
    recommendation.refresh_from_db()
    assert (recommendation.status, recommendation.attempts, recommendation.error) == (
        "pending",
        0,
        "",
    )
    assert published == [(SIZING_TASK, recommendation.pk)]


def test_retry_failed_rerenders_only_the_failed_proposal(
    published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    recommendation = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=recommendation.pk)
    proposal = Proposal.objects.get(recommendation=recommendation)
    Proposal.objects.filter(pk=proposal.pk).update(status="failed", attempts=3, error="disk")
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        retried = services.retry_failed(submission=submission)
    assert retried == proposal
    assert published == [(RENDER_TASK, proposal.pk)]
    assert Recommendation.objects.get(pk=recommendation.pk).attempts == 1


def test_nothing_to_retry_returns_none(published):
    submission = make_submission()
    services.run_sizing(recommendation_id=services.schedule_sizing(submission=submission).pk)
    assert services.retry_failed(submission=submission) is None


def test_describe_changes_lists_changed_inputs_overrides_and_outputs(published):
    submission = make_submission()
    first = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=first.pk)
    second = services.rerun_sizing(
        submission=submission, overrides={"model": {"total_params": 8e9}}, user=None
    )
    services.run_sizing(recommendation_id=second.pk)
    first.refresh_from_db()
    second.refresh_from_db()
    changes = versions.describe_changes(first, second)
    assert {"field": "model.total_params", "before": 70e9, "after": 8e9} in changes["inputs"]
    assert changes["overrides"] == [{"field": "model.total_params", "before": None, "after": 8e9}]
    changed_outputs = {change["field"] for change in changes["outputs"]}
    assert "compute.training_flops" in changed_outputs
    assert changes["engine_version"] is None
    assert versions.describe_changes(first, first)["outputs"] == []


def test_sweeper_requeues_old_pending_and_stuck_rows_only(published, settings):
    old = services.schedule_sizing(submission=make_submission())
    fresh = services.schedule_sizing(submission=make_submission())
    stuck = services.schedule_sizing(submission=make_submission())
    services.run_sizing(recommendation_id=stuck.pk)
    proposal = Proposal.objects.get(recommendation=stuck)
    long_ago = timezone.now() - timedelta(hours=1)
    Recommendation.objects.filter(pk=old.pk).update(updated_at=long_ago)
    Proposal.objects.filter(pk=proposal.pk).update(status="rendering", updated_at=long_ago)
    published.clear()
    counts = services.sweep_pipeline()
    assert counts == {"start": 0, "sizing": 1, "render": 1, "email": 0}
    assert (SIZING_TASK, old.pk) in published
    assert (SIZING_TASK, fresh.pk) not in published
    assert (RENDER_TASK, proposal.pk) in published


def test_start_sizes_a_new_submission_once_and_tells_the_account_managers(
    published, notified, django_capture_on_commit_callbacks
):
    submission = make_submission()
    with django_capture_on_commit_callbacks(execute=True):
        first = services.start_pipeline(submission_id=submission.pk)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.start_pipeline(submission_id=submission.pk)  # a redelivery
    assert first.version == 1
    assert again is None
    assert list(submission.recommendations.values_list("version", flat=True)) == [1]
    assert published == [(SIZING_TASK, first.pk)]
    assert notified == [("received", submission.reference)]


def test_sweeper_starts_a_submission_whose_start_message_was_lost(published):
    lost = make_submission()
    just_in = make_submission()
    Submission.objects.filter(pk=lost.pk).update(submitted_at=timezone.now() - timedelta(hours=1))
    counts = services.sweep_pipeline()
    assert counts["start"] == 1
    assert (START_PIPELINE_TASK, lost.pk) in published
    assert (START_PIPELINE_TASK, just_in.pk) not in published
