"""Who hears of what: one email per event and version, through the outbox and a task.

Staff emails go to the assignee (every account manager and the shared inbox while nobody is
assigned), engineers hear of versions to review; subjects name company, model and reference;
bodies link to the admin and never carry the answers. Mail lands in Django's test outbox: the
tasks run in-process here (eager), after commit.
"""

import pytest
from django.core import mail

from pipeline import outbox
from pipeline.models import OutgoingEmail
from pipeline.notifications import (
    notify_approved,
    notify_needs_review,
    notify_pipeline_failed,
    notify_submission_received,
    notify_viewed,
)
from questionnaire.questions import QUESTIONS
from tests.staff.factories import (
    example_answers,
    make_email,
    make_recommendation,
    make_submission,
    make_user,
)

pytestmark = pytest.mark.django_db


def answer_texts() -> set[str]:
    texts = set()
    for question in QUESTIONS:
        for line in question.answer_lines(example_answers()[question.slug]):
            if len(line.text) >= 4 and line.text != "Llama 3.1 8B":  # the model is in subjects
                texts.add(line.text)
    return texts


@pytest.fixture
def people(settings):
    settings.ACCOUNT_MANAGER_EMAILS = ["sales@example.com"]
    settings.SITE_URL = "https://sizing.example.com"
    return {
        "amy": make_user("Account managers", username="amy", email="amy@example.com"),
        "bob": make_user("Account managers", username="bob", email="bob@example.com"),
        "erin": make_user("Engineers", username="erin", email="erin@example.com"),
    }


def sent(kind: str) -> list:
    """The messages of one kind that reached the test outbox."""
    subjects = set(OutgoingEmail.objects.filter(kind=kind).values_list("subject", flat=True))
    return [m for m in mail.outbox if m.subject in subjects]


def test_a_new_request_goes_to_every_account_manager_while_unassigned_and_confirms_to_the_customer(
    people, django_capture_on_commit_callbacks
):
    submission = make_submission(company="Secret Robotics GmbH", contact_email="cto@secret.example")
    with django_capture_on_commit_callbacks(execute=True):
        notify_submission_received(submission)

    [staff] = sent(OutgoingEmail.Kind.RECEIVED)
    assert sorted(staff.to) == ["amy@example.com", "bob@example.com", "sales@example.com"]
    assert staff.subject == (
        f"New sizing request: Secret Robotics GmbH · Llama 3.1 8B · {submission.reference}"
    )
    link = f"https://sizing.example.com/admin/questionnaire/submission/{submission.pk}/change/"
    assert link in staff.body
    for text in answer_texts():
        assert text not in staff.body, text

    [customer] = sent(OutgoingEmail.Kind.CONFIRMATION)
    assert customer.to == ["cto@secret.example"]
    assert customer.subject == (
        f"We received your sizing request for Llama 3.1 8B: Secret Robotics GmbH, "
        f"{submission.reference}"
    )
    assert submission.reference in customer.body
    assert "What happens next" in customer.body
    assert "two working days" in customer.body
    assert "/admin/" not in customer.body


def test_an_assigned_submission_emails_only_its_account_manager(
    people, django_capture_on_commit_callbacks
):
    submission = make_submission(assignee=people["bob"])
    recommendation = make_recommendation(submission)
    with django_capture_on_commit_callbacks(execute=True):
        notify_approved(recommendation, approver_name="Erin Engineer")
        notify_viewed(submission, version=1, viewed_at=recommendation.finished_at)
    assert [m.to for m in mail.outbox] == [["bob@example.com"], ["bob@example.com"]]
    assert "Erin Engineer approved version 1" in mail.outbox[0].body
    assert mail.outbox[1].subject.startswith("Customer opened the proposal: ")


def test_needs_review_goes_to_the_engineers_once_per_version(
    people, django_capture_on_commit_callbacks
):
    submission = make_submission()
    first = make_recommendation(submission)
    with django_capture_on_commit_callbacks(execute=True):
        notify_needs_review(first)
        notify_needs_review(first)  # a redelivered render: no second email
    second = make_recommendation(submission)
    with django_capture_on_commit_callbacks(execute=True):
        notify_needs_review(second)
    assert [(m.to, m.subject[-3:]) for m in mail.outbox] == [
        (["erin@example.com"], " v1"),
        (["erin@example.com"], " v2"),
    ]
    assert OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.NEEDS_REVIEW).count() == 2


def test_a_failure_tells_the_engineers_and_the_account_managers(
    people, django_capture_on_commit_callbacks
):
    submission = make_submission()
    make_recommendation(submission, status="failed")
    with django_capture_on_commit_callbacks(execute=True):
        notify_pipeline_failed(submission)
    [message] = mail.outbox
    assert set(message.to) == {
        "erin@example.com",
        "amy@example.com",
        "bob@example.com",
        "sales@example.com",
    }
    assert message.subject.startswith("Sizing failed: ")


def test_the_email_is_published_only_after_commit(people, django_capture_on_commit_callbacks):
    submission = make_submission()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notify_submission_received(submission)
    assert OutgoingEmail.objects.filter(submission=submission).count() == 2
    assert mail.outbox == [] and len(callbacks) == 2


def test_a_company_name_with_a_line_break_cannot_add_a_header(people):
    submission = make_submission(company="Evil\r\nBcc: victim@example.com")
    notify_submission_received(submission)
    email = OutgoingEmail.objects.get(kind=OutgoingEmail.Kind.RECEIVED)
    assert "\n" not in email.subject and "\r" not in email.subject


def test_no_recipients_means_no_email(settings):
    settings.ACCOUNT_MANAGER_EMAILS = []
    notify_needs_review(make_recommendation(make_submission()))
    assert not OutgoingEmail.objects.exists()


def test_recipients_are_deduplicated_and_inactive_users_left_out(settings):
    from pipeline.notifications import account_manager_addresses

    settings.ACCOUNT_MANAGER_EMAILS = ["Amy@example.com"]
    make_user("Account managers", username="amy", email="amy@example.com")
    make_user("Account managers", username="gone", email="gone@example.com", is_active=False)
    assert account_manager_addresses(make_submission()) == ["amy@example.com"]


def test_a_mail_outage_is_retried_then_marked_failed_and_kept(settings, people, caplog):
    settings.EMAIL_BACKEND = "tests.pipeline.test_notifications.BrokenBackend"
    BrokenBackend.attempts = 0
    submission = make_submission()
    notify_needs_review(make_recommendation(submission))
    email = OutgoingEmail.objects.get()
    for attempt in range(1, outbox.MAX_EMAIL_ATTEMPTS):
        with pytest.raises(ConnectionRefusedError):
            outbox.deliver_email(email_id=email.pk)  # the task retries it with backoff
        email.refresh_from_db()
        assert (email.status, email.attempts) == ("pending", attempt)
        assert "smtp down" in email.error
    outbox.deliver_email(email_id=email.pk)  # the last attempt records the failure
    email.refresh_from_db()
    assert (email.status, email.attempts) == ("failed", outbox.MAX_EMAIL_ATTEMPTS)
    assert BrokenBackend.attempts == outbox.MAX_EMAIL_ATTEMPTS
    outbox.deliver_email(email_id=email.pk)  # a late duplicate delivery does nothing
    assert BrokenBackend.attempts == outbox.MAX_EMAIL_ATTEMPTS

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert outbox.retry_email(email=email)
    outbox.deliver_email(email_id=email.pk)
    email.refresh_from_db()
    assert email.status == "sent" and len(mail.outbox) == 1


def test_a_sent_email_is_never_sent_again(people):
    notify_needs_review(make_recommendation(make_submission()))
    email = OutgoingEmail.objects.get()
    outbox.deliver_email(email_id=email.pk)
    outbox.deliver_email(email_id=email.pk)
    assert len(mail.outbox) == 1
    assert not outbox.retry_email(email=email)


class BrokenBackend:
    """An SMTP server that refuses every connection; counts how often it was tried."""

    attempts = 0

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        type(self).attempts += 1
        raise ConnectionRefusedError("smtp down")


def test_the_sweeper_publishes_emails_whose_message_was_lost(people, published, settings):
    from datetime import timedelta

    from django.utils import timezone

    from pipeline.services import sweep_pipeline

    notify_needs_review(make_recommendation(make_submission()))
    lost = OutgoingEmail.objects.get()
    long_ago = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 120)
    OutgoingEmail.objects.filter(pk=lost.pk).update(updated_at=long_ago)
    stuck = make_email(lost.submission, key="stuck", status="sending")
    OutgoingEmail.objects.filter(pk=stuck.pk).update(updated_at=long_ago)
    fresh = make_email(lost.submission, key="fresh")
    assert sweep_pipeline()["email"] == 2
    assert [args for args in published if args[0] == outbox.SEND_EMAIL_TASK] == [
        (outbox.SEND_EMAIL_TASK, lost.pk),
        (outbox.SEND_EMAIL_TASK, stuck.pk),
    ]
    stuck.refresh_from_db()
    assert stuck.status == "pending"  # its worker died mid-send: it may go out again
    fresh.refresh_from_db()
    assert fresh.status == "pending"
