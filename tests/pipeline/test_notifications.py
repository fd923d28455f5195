"""Account managers hear about arrivals, ready proposals and failures: a link, never answers."""

import pytest
from django.core import mail

from pipeline.notifications import (
    notify_pipeline_failed,
    notify_proposal_ready,
    notify_submission_received,
    recipients,
)
from questionnaire.questions import QUESTIONS
from tests.staff.factories import example_answers, make_submission, make_user

pytestmark = pytest.mark.django_db


def answer_texts() -> set[str]:
    texts = set()
    for question in QUESTIONS:
        for line in question.answer_lines(example_answers()[question.slug]):
            if len(line.text) >= 4:
                texts.add(line.text)
    return texts


@pytest.mark.parametrize(
    "notify", [notify_submission_received, notify_proposal_ready, notify_pipeline_failed]
)
def test_each_email_goes_to_account_managers_with_a_link_and_no_answers(settings, notify):
    settings.ACCOUNT_MANAGER_EMAILS = ["sales@example.com"]
    settings.SITE_URL = "https://sizing.example.com"
    make_user("Account managers", username="amy", email="amy@example.com")
    make_user("Engineers", username="eng", email="eng@example.com")
    submission = make_submission(company="Secret Robotics GmbH", contact_email="cto@secret.example")

    notify(submission)

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert sorted(message.to) == ["amy@example.com", "sales@example.com"]
    assert submission.reference in message.subject
    link = f"https://sizing.example.com/admin/questionnaire/submission/{submission.pk}/change/"
    assert link in message.body
    whole = message.subject + message.body
    for text in answer_texts():
        assert text not in whole, text
    assert "Secret Robotics" not in whole and "cto@secret.example" not in whole


def test_no_recipients_means_no_email(settings):
    settings.ACCOUNT_MANAGER_EMAILS = []
    notify_submission_received(make_submission())
    assert mail.outbox == []


def test_a_mail_outage_never_breaks_the_caller(settings, caplog):
    settings.ACCOUNT_MANAGER_EMAILS = ["sales@example.com"]
    settings.EMAIL_BACKEND = "tests.pipeline.test_notifications.BrokenBackend"
    BrokenBackend.attempts = 0
    submission = make_submission()
    notify_pipeline_failed(submission)  # returns normally: the outage is only logged
    assert BrokenBackend.attempts == 1
    logged = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.getMessage() for r in logged] == [
        f"could not send notification 'Sizing failed for {submission.reference}'"
    ]
    assert "smtp down" in logged[0].exc_text


def test_recipients_are_deduplicated_and_inactive_users_left_out(settings):
    settings.ACCOUNT_MANAGER_EMAILS = ["Amy@example.com"]
    make_user("Account managers", username="amy", email="amy@example.com")
    make_user("Account managers", username="gone", email="gone@example.com", is_active=False)
    assert recipients() == ["amy@example.com"]


class BrokenBackend:
    """An SMTP server that refuses every connection; counts how often it was tried."""

    attempts = 0

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        type(self).attempts += 1
        raise ConnectionRefusedError("smtp down")
