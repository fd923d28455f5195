"""Status transitions, assignment and notes: validated, and recorded in the audit trail."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from questionnaire.models import Submission
from staff import workflow
from staff.models import AuditEvent, Note
from tests.staff.factories import make_ready_submission, make_submission, make_user

pytestmark = pytest.mark.django_db
Status = Submission.WorkflowStatus


def test_a_status_change_records_who_changed_what_and_when(account_manager):
    submission = make_submission()
    assert workflow.change_status(
        submission=submission, status=Status.IN_REVIEW, user=account_manager
    )
    event = AuditEvent.objects.get(submission=submission)
    assert (event.actor, event.action) == (account_manager, AuditEvent.Action.STATUS)
    assert (event.old_value, event.new_value) == ("New", "In review")
    assert event.created_at is not None
    submission.refresh_from_db()
    assert submission.status == Status.IN_REVIEW


def test_the_workflow_refuses_to_skip_a_stage(account_manager):
    submission = make_submission()
    with pytest.raises(ValidationError):
        workflow.change_status(submission=submission, status=Status.WON, user=account_manager)
    assert not AuditEvent.objects.exists()


def test_finishing_starts_the_retention_clock_and_reopening_stops_it(account_manager):
    submission = make_submission()
    for status in (Status.IN_REVIEW, Status.PROPOSAL_SENT, Status.LOST):
        workflow.change_status(submission=submission, status=status, user=account_manager)
    submission.refresh_from_db()
    assert submission.closed_at is not None
    workflow.change_status(submission=submission, status=Status.IN_REVIEW, user=account_manager)
    submission.refresh_from_db()
    assert submission.closed_at is None
    assert AuditEvent.objects.filter(action=AuditEvent.Action.STATUS).count() == 4


def test_only_account_managers_can_be_assigned(account_manager, engineer):
    submission = make_submission()
    with pytest.raises(ValidationError):
        workflow.assign(submission=submission, assignee=engineer, user=account_manager)
    assert workflow.assign(submission=submission, assignee=account_manager, user=account_manager)
    event = AuditEvent.objects.get(action=AuditEvent.Action.ASSIGNED)
    assert event.old_value == "nobody"
    assert event.new_value == account_manager.username


def test_an_account_manager_moves_a_submission_in_the_admin_and_the_trail_shows_it(
    account_manager,
):
    submission, _, _ = make_ready_submission()
    colleague = make_user("Account managers", username="colleague", first_name="Cleo")
    client = Client()
    client.force_login(account_manager)
    data = {"status": "in_review", "assignee": str(colleague.pk)}
    for prefix in ("recommendations", "proposals", "notes", "audit_events"):
        data |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}
    url = f"/admin/questionnaire/submission/{submission.pk}/change/"
    response = client.post(url, data)
    assert response.status_code == 302
    submission.refresh_from_db()
    assert (submission.status, submission.assignee) == ("in_review", colleague)
    page = client.get(url).content.decode()
    assert "Audit trail" in page
    assert "Workflow status changed" in page and "Assignee changed" in page
    assert "Cleo" in page


def test_the_change_form_only_offers_allowed_next_steps(account_manager):
    submission = make_submission()
    client = Client()
    client.force_login(account_manager)
    page = client.get(f"/admin/questionnaire/submission/{submission.pk}/change/").content.decode()
    assert 'value="in_review"' in page
    assert 'value="won"' not in page


def test_a_note_is_stamped_with_its_author_and_time_and_shown(account_manager):
    submission = make_submission()
    client = Client()
    client.force_login(account_manager)
    response = client.post(
        f"/admin/questionnaire/submission/{submission.pk}/note/",
        {"text": "Customer prefers on-prem; call back Monday."},
    )
    assert response.status_code == 302
    note = Note.objects.get()
    assert note.author == account_manager and note.created_at is not None
    assert AuditEvent.objects.filter(action=AuditEvent.Action.NOTE).exists()
    page = client.get(f"/admin/questionnaire/submission/{submission.pk}/change/").content.decode()
    assert "call back Monday" in page


def test_an_empty_note_is_refused(account_manager):
    submission = make_submission()
    with pytest.raises(ValidationError):
        workflow.add_note(submission=submission, text="   ", user=account_manager)
    assert not Note.objects.exists()


def test_answers_are_shown_under_their_question_titles_with_not_sure_marked(engineer):
    from questionnaire.questions import QUESTIONS

    answers = dict(make_submission().answers)
    answers[QUESTIONS[0].slug] = {"not_sure": True}
    submission = make_submission(answers=answers)
    client = Client()
    client.force_login(engineer)
    page = client.get(f"/admin/questionnaire/submission/{submission.pk}/change/").content.decode()
    for question in QUESTIONS:
        assert f"{question.number}. {question.title}" in page
    assert "not-sure-badge" in page


def test_customer_text_is_escaped_in_the_admin(engineer):
    submission = make_submission(company="<script>alert(1)</script>")
    client = Client()
    client.force_login(engineer)
    for url in (
        "/admin/questionnaire/submission/",
        f"/admin/questionnaire/submission/{submission.pk}/change/",
    ):
        page = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
