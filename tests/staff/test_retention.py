"""Closed submissions past the retention period go, with their drafts and PDF files."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from pipeline.models import Proposal
from questionnaire.models import Draft, Submission
from staff.models import DeletionRecord
from staff.retention import purge_closed_submissions
from staff.tasks import purge_closed_submissions_task
from tests.staff.factories import make_ready_submission, sign_in

pytestmark = pytest.mark.django_db


def closed(days_ago: int, **fields):
    submission, _, proposal = make_ready_submission(
        status="closed", closed_at=timezone.now() - timedelta(days=days_ago), **fields
    )
    return submission, proposal


def test_retention_deletes_old_closed_submissions_with_their_files(
    settings, django_capture_on_commit_callbacks
):
    settings.CLOSED_SUBMISSION_RETENTION_DAYS = 30
    draft = Draft.objects.create(step_data={"model": {"model_name": "secret"}})
    old, old_proposal = closed(31, draft=draft)
    storage, name = old_proposal.pdf.storage, old_proposal.pdf.name
    assert storage.exists(name)
    recent, recent_proposal = closed(5)
    open_one = make_ready_submission()[0]

    with django_capture_on_commit_callbacks(execute=True):
        result = purge_closed_submissions()

    assert (result.submissions, result.files) == (1, 1)
    assert not Submission.objects.filter(pk=old.pk).exists()
    assert not Proposal.objects.filter(pk=old_proposal.pk).exists()
    assert not Draft.objects.filter(pk=draft.pk).exists()
    assert not storage.exists(name)
    assert recent_proposal.pdf.storage.exists(recent_proposal.pdf.name)
    assert Submission.objects.filter(pk__in=[recent.pk, open_one.pk]).count() == 2
    record = DeletionRecord.objects.get()
    assert (record.reference, record.reason, record.files_deleted) == (
        old.reference,
        "retention",
        1,
    )


def test_the_purge_is_idempotent_and_the_task_calls_it(
    settings, django_capture_on_commit_callbacks
):
    settings.CLOSED_SUBMISSION_RETENTION_DAYS = 30
    closed(40)
    with django_capture_on_commit_callbacks(execute=True):
        assert purge_closed_submissions_task() == 1
    assert purge_closed_submissions_task() == 0


def test_a_rolled_back_delete_keeps_the_file(settings, django_capture_on_commit_callbacks):
    settings.CLOSED_SUBMISSION_RETENTION_DAYS = 30
    _, proposal = closed(40)
    with django_capture_on_commit_callbacks(execute=False):
        purge_closed_submissions()  # the commit never happens here
    assert proposal.pdf.storage.exists(proposal.pdf.name)


def test_the_command_has_a_dry_run(settings, capsys):
    settings.CLOSED_SUBMISSION_RETENTION_DAYS = 30
    submission, _ = closed(40)
    call_command("purge_closed_submissions", "--dry-run")
    assert submission.reference in capsys.readouterr().out
    assert Submission.objects.filter(pk=submission.pk).exists()


def test_deleting_in_the_admin_removes_the_files_too(superuser, django_capture_on_commit_callbacks):
    submission, _, proposal = make_ready_submission()
    storage, name = proposal.pdf.storage, proposal.pdf.name
    client = Client()
    sign_in(client, superuser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/admin/questionnaire/submission/",
            {"action": "delete_selected", "_selected_action": [submission.pk], "post": "yes"},
        )
    assert response.status_code == 302
    assert not Submission.objects.exists()
    assert not storage.exists(name)
    assert DeletionRecord.objects.get().deleted_by == superuser
