"""The workflow: each step an action with its own permission and audit entry, never a free edit.

submitted → engineer review (approve as is, or adjust and re-run) → approved → sent → viewed →
won, lost or closed. Emails land in Django's test outbox (tasks run in-process, after commit).
"""

from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client

from pipeline.models import OutgoingEmail
from pipeline.versions import customer_version
from questionnaire.models import Submission
from staff import pipeline_actions, sending, workflow
from staff.models import AuditEvent, Note, ShareLink
from tests.staff.factories import (
    make_proposal,
    make_ready_submission,
    make_recommendation,
    make_submission,
    make_user,
    sign_in,
)

pytestmark = pytest.mark.django_db
Status = Submission.WorkflowStatus
CHANGE = "/admin/questionnaire/submission/{}/change/"


@pytest.fixture
def bob(db):
    return make_user(
        "Account managers",
        username="bob.am",
        first_name="Bob",
        last_name="Tester",
        email="bob@example.com",
    )


def audit(submission) -> list[tuple[str, str, str]]:
    return [
        (e.action, e.old_value, e.new_value)
        for e in AuditEvent.objects.filter(submission=submission).order_by("created_at", "id")
    ]


def link_path(email) -> str:
    url = next(line for line in email.body.splitlines() if "/proposals/shared/" in line)
    return urlsplit(url.strip()).path


def test_an_engineer_approves_a_version_and_the_assignee_hears_once(
    engineer, bob, django_capture_on_commit_callbacks
):
    submission, recommendation, _ = make_ready_submission(assignee=bob)
    with django_capture_on_commit_callbacks(execute=True):
        workflow.approve_version(
            submission=submission, recommendation=recommendation, user=engineer
        )
    submission.refresh_from_db()
    recommendation.refresh_from_db()
    assert submission.status == Status.APPROVED
    assert (recommendation.approved_by, recommendation.approved_at is not None) == (engineer, True)
    assert audit(submission) == [
        ("approved", "", "v1"),
        ("status", "Waiting for engineer review", "Approved, ready to send"),
    ]
    [email] = mail.outbox
    assert email.to == ["bob@example.com"]
    assert email.subject.startswith(f"Approved, ready to send: {submission.company} · ")
    with pytest.raises(ValidationError, match="already the approved version"):
        workflow.approve_version(
            submission=submission, recommendation=recommendation, user=engineer
        )


def test_a_version_without_its_pdf_cannot_be_approved(engineer):
    submission = make_submission()
    unfinished = make_recommendation(submission)
    make_proposal(unfinished, status="rendering", with_file=False)
    with pytest.raises(ValidationError, match="no finished proposal"):
        workflow.approve_version(submission=submission, recommendation=unfinished, user=engineer)
    assert not AuditEvent.objects.exists()


def test_a_what_if_rerun_stays_internal_until_approved(engineer, published):
    submission, first, _ = make_ready_submission()
    pipeline_actions.rerun_with_overrides(
        submission=submission, overrides={"hardware.accelerator": "h100-sxm"}, user=engineer
    )
    submission.refresh_from_db()
    assert submission.status == Status.IN_REVIEW
    second = submission.recommendations.get(version=2)
    second.status, second.result = "done", {"cluster": {"accelerator": "h100-sxm", "gpus": 8}}
    second.save()
    make_proposal(second)
    shown = customer_version(submission)
    assert (shown.recommendation, shown.preliminary) == (first, True)
    workflow.approve_version(submission=submission, recommendation=second, user=engineer)
    shown = customer_version(submission)
    assert (shown.recommendation, shown.preliminary) == (second, False)


def test_sending_is_the_only_way_to_sent_and_emails_the_customer_a_link_and_note(
    engineer, bob, django_capture_on_commit_callbacks
):
    submission, recommendation, _ = make_ready_submission(contact_email="dana@insurer.example")
    with pytest.raises(ValidationError, match="not the approved version"):
        sending.send_proposal(
            submission=submission, recommendation=recommendation, user=bob, note="Hi"
        )
    workflow.approve_version(submission=submission, recommendation=recommendation, user=engineer)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        link = sending.send_proposal(
            submission=submission,
            recommendation=recommendation,
            user=bob,
            note="Dear Dana, as promised on the call: here is the sizing.",
        )
    submission.refresh_from_db()
    assert submission.status == Status.PROPOSAL_SENT
    assert (link.sent_to, link.created_by) == ("dana@insurer.example", bob)
    [email] = [m for m in mail.outbox if m.to == ["dana@insurer.example"]]
    assert "as promised on the call" in email.body
    assert f"{submission.reference}, version 1" in email.body
    assert email.body.rstrip().endswith("Training infrastructure sizing")
    assert "Bob Tester" in email.body
    assert link_path(email).startswith("/proposals/shared/")
    assert ("sent", "", "v1 to dana@insurer.example") in audit(submission)


def test_opening_the_link_records_viewed_once_and_tells_the_account_manager(
    engineer, bob, django_capture_on_commit_callbacks
):
    submission, recommendation, _ = make_ready_submission(assignee=bob)
    workflow.approve_version(submission=submission, recommendation=recommendation, user=engineer)
    with django_capture_on_commit_callbacks(execute=True):
        sending.send_proposal(
            submission=submission, recommendation=recommendation, user=bob, note=""
        )
    path = link_path(mail.outbox[-1])
    customer = Client()
    with django_capture_on_commit_callbacks(execute=True):
        page = customer.get(path)
        customer.get(path)
        customer.get(f"{path}proposal.pdf")
    assert page.status_code == 200
    submission.refresh_from_db()
    assert submission.status == Status.VIEWED
    assert [a for a in audit(submission) if a[0] == "viewed"] == [("viewed", "", "v1")]
    assert ShareLink.objects.get().first_viewed_at is not None
    viewed = OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.VIEWED)
    assert [e.to for e in viewed] == [["bob@example.com"]]
    staff = Client()
    sign_in(staff, bob)
    page = staff.get(CHANGE.format(submission.pk)).content.decode()
    assert "Viewed by the customer" in page


def test_outcomes_follow_the_workflow_and_start_the_retention_clock(account_manager, engineer):
    submission, recommendation, _ = make_ready_submission()
    with pytest.raises(ValidationError, match="cannot be"):
        workflow.record_outcome(submission=submission, outcome="won", user=account_manager)
    workflow.approve_version(submission=submission, recommendation=recommendation, user=engineer)
    sending.send_proposal(
        submission=submission, recommendation=recommendation, user=account_manager, note=""
    )
    workflow.record_outcome(submission=submission, outcome="lost", user=account_manager)
    submission.refresh_from_db()
    assert submission.status == Status.LOST and submission.closed_at is not None
    with pytest.raises(ValidationError, match="reopen it"):
        sending.send_proposal(
            submission=submission, recommendation=recommendation, user=account_manager, note=""
        )
    workflow.record_outcome(submission=submission, outcome="reopen", user=account_manager)
    submission.refresh_from_db()
    assert (submission.status, submission.closed_at) == (Status.APPROVED, None)


def test_the_status_cannot_be_edited_in_the_form(bob):
    submission, _, _ = make_ready_submission()
    client = Client()
    sign_in(client, bob)
    data = {"status": "won", "assignee": str(bob.pk)}
    for prefix in ("recommendations", "proposals", "notes", "audit_events"):
        data |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}
    assert client.post(CHANGE.format(submission.pk), data).status_code == 302
    submission.refresh_from_db()
    assert (submission.status, submission.assignee) == (Status.NEW, bob)
    assert audit(submission) == [("assigned", "nobody", "Bob Tester")]


def test_the_assignee_picker_and_the_trail_show_full_names(bob):
    submission = make_submission()
    client = Client()
    sign_in(client, bob)
    page = client.get(CHANGE.format(submission.pk)).content.decode()
    assert f'<option value="{bob.pk}">Bob Tester</option>' in page
    assert "bob.am</option>" not in page


def test_only_account_managers_can_be_assigned(account_manager, engineer):
    submission = make_submission()
    with pytest.raises(ValidationError):
        workflow.assign(submission=submission, assignee=engineer, user=account_manager)
    assert workflow.assign(submission=submission, assignee=account_manager, user=account_manager)


def test_the_buttons_offered_follow_the_role_and_the_step(account_manager, engineer):
    submission, recommendation, _ = make_ready_submission()
    pages = {}
    for user in (account_manager, engineer):
        client = Client()
        sign_in(client, user)
        pages[user] = client.get(CHANGE.format(submission.pk)).content.decode()
    assert "Approve version 1 as it is" in pages[engineer]
    assert "Approve version" not in pages[account_manager]
    assert "Send version" not in pages[account_manager]  # nothing approved yet
    workflow.approve_version(submission=submission, recommendation=recommendation, user=engineer)
    client = Client()
    sign_in(client, account_manager)
    page = client.get(CHANGE.format(submission.pk)).content.decode()
    assert "Send version 1 to the customer" in page
    assert "Mark won" not in page  # not sent yet
    assert "Close without an outcome" in page


def test_a_note_is_stamped_with_its_author_and_time_and_shown(account_manager):
    submission = make_submission()
    client = Client()
    sign_in(client, account_manager)
    response = client.post(
        f"/admin/questionnaire/submission/{submission.pk}/note/",
        {"text": "Customer prefers on-prem; call back Monday."},
    )
    assert response.status_code == 302
    note = Note.objects.get()
    assert note.author == account_manager and note.created_at is not None
    assert AuditEvent.objects.filter(action=AuditEvent.Action.NOTE).exists()
    page = client.get(CHANGE.format(submission.pk)).content.decode()
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
    sign_in(client, engineer)
    page = client.get(CHANGE.format(submission.pk)).content.decode()
    for question in QUESTIONS:
        assert f"{question.number}. {question.title}" in page
    assert "not-sure-badge" in page


def test_customer_text_is_escaped_in_the_admin(engineer):
    submission = make_submission(company="<script>alert(1)</script>")
    client = Client()
    sign_in(client, engineer)
    for url in ("/admin/questionnaire/submission/", CHANGE.format(submission.pk)):
        page = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
