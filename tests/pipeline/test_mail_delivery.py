"""Mail that reaches a person: sent by the mailer, answered to the right people, bounces seen.

- The resume link is queued by name from the web request and sent by the mailer through the
  outbox; the request never talks to a mail server, and the outbox keeps no working link.
- Both customer emails say "reply to this email": the reply goes to the assignee, else to the
  account managers.
- Through django-anymail (its test backend here), a sent email keeps the service's message id,
  and the service's bounce or complaint webhook (Postmark's shape, with the webhook secret)
  marks the row, with the reason, on the submission's admin page.
"""

import base64
import json
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from pipeline import outbox, tasks
from pipeline.models import OutgoingEmail
from pipeline.notifications import notify_submission_received, send_proposal_email
from questionnaire import services as questionnaire_services
from questionnaire.models import Draft
from tests.questionnaire.conftest import start
from tests.staff.factories import make_submission, make_user, sign_in

pytestmark = pytest.mark.django_db

Status = OutgoingEmail.Status
WEBHOOK_SECRET = "postmark:a-long-webhook-password"


@pytest.fixture
def account_managers(settings):
    settings.ACCOUNT_MANAGER_EMAILS = ["sales@example.com"]
    return [
        make_user("Account managers", username="amy", email="amy@example.com"),
        make_user("Account managers", username="bob", email="bob@example.com"),
    ]


@pytest.fixture
def email_service(settings):
    """django-anymail's test backend: a message sent through it gets a service message id."""
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    settings.ANYMAIL = {"WEBHOOK_SECRET": WEBHOOK_SECRET}


def ask_for_link(client, draft_id, email):
    response = client.post(reverse("questionnaire:save", args=[draft_id]), {"email": email})
    assert response.status_code == 200
    page = response.content.decode()
    return re.search(r'class="resume-link"><a href="([^"]+)"', page).group(1), page


def test_the_resume_link_leaves_the_request_by_name_and_the_mailer_sends_it(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    published = []
    monkeypatch.setattr(
        questionnaire_services, "publish", lambda name, *args: published.append((name, args)) or 1
    )
    draft_id = start(client)

    link, page = ask_for_link(client, draft_id, "sam@example.com")

    assert mail.outbox == [], "the web request sent mail itself"
    assert published == [(questionnaire_services.RESUME_LINK_TASK, (str(draft_id), link))]
    assert "We have also sent it to sam@example.com" in page
    with django_capture_on_commit_callbacks(execute=True):
        tasks.queue_resume_link_task(*published[0][1])  # what the mailer runs
    [message] = mail.outbox
    assert message.to == ["sam@example.com"] and link in message.body
    row = OutgoingEmail.objects.get(draft_id=draft_id)
    assert (row.kind, row.status, row.submission) == (
        OutgoingEmail.Kind.RESUME_LINK,
        Status.SENT,
        None,
    )
    assert link.split("#")[1] not in row.body, "the outbox kept a working link"

    with django_capture_on_commit_callbacks(execute=True):
        tasks.queue_resume_link_task(*published[0][1])  # the same message delivered twice
    assert len(mail.outbox) == 1


def test_the_page_does_not_claim_an_email_it_could_not_queue(client, monkeypatch):
    monkeypatch.setattr(questionnaire_services, "publish", lambda name, *args: False)
    draft_id = start(client)
    link, page = ask_for_link(client, draft_id, "sam@example.com")
    assert link and "We have also sent it" not in page
    assert Draft.objects.get(pk=draft_id).email == "sam@example.com"


@pytest.mark.parametrize("assigned", [True, False])
def test_both_customer_emails_send_replies_to_whoever_owns_the_request(
    assigned, account_managers, django_capture_on_commit_callbacks
):
    amy = account_managers[0]
    submission = make_submission(assignee=amy if assigned else None)
    with django_capture_on_commit_callbacks(execute=True):
        notify_submission_received(submission)
        send_proposal_email(
            submission,
            version=1,
            link_key="k1",
            url="https://sizing.example.com/p/x",
            note="",
            sender_name="Amy",
            expires_at=timezone.now() + timedelta(days=7),
        )
    owners = (
        ["amy@example.com"]
        if assigned
        else ["sales@example.com", "amy@example.com", "bob@example.com"]
    )
    customer_mail = [m for m in mail.outbox if m.to == [submission.contact_email]]
    assert len(customer_mail) == 2
    for message in customer_mail:
        assert "reply to this email" in message.body
        assert message.reply_to == owners
    staff_mail = [m for m in mail.outbox if m.to != [submission.contact_email]]
    assert staff_mail and all(m.reply_to == [] for m in staff_mail)


def sent_confirmation(submission, capture) -> OutgoingEmail:
    with capture(execute=True):
        notify_submission_received(submission)
    row = OutgoingEmail.objects.get(submission=submission, kind=OutgoingEmail.Kind.CONFIRMATION)
    assert row.status == Status.SENT
    return row


def post_postmark_event(client, payload, *, secret=WEBHOOK_SECRET):
    return client.post(
        "/email/anymail/postmark/tracking/",
        data=json.dumps(payload),
        content_type="application/json",
        HTTP_AUTHORIZATION="Basic " + base64.b64encode(secret.encode()).decode(),
        secure=True,
    )


def bounce(message_id: str, email: str) -> dict:
    return {
        "RecordType": "Bounce",
        "ID": 4323372036854775807,
        "Type": "HardBounce",
        "MessageID": message_id,
        "Description": "The server was unable to deliver your message (ex: unknown user).",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "Email": email,
        "BouncedAt": "2026-12-04T10:00:00Z",
    }


def test_a_bounce_webhook_marks_the_email_and_staff_see_why(
    client, email_service, account_managers, django_capture_on_commit_callbacks
):
    submission = make_submission(contact_email="cto@gone.example")
    row = sent_confirmation(submission, django_capture_on_commit_callbacks)
    assert row.message_id != "", "the service's message id was not kept"

    response = post_postmark_event(client, bounce(row.message_id, "cto@gone.example"))

    assert response.status_code == 200
    row.refresh_from_db()
    assert row.status == Status.BOUNCED
    assert "cto@gone.example" in row.error and "does not exist" in row.error
    staff = make_user("Account managers", username="sam", email="sam@example.com")
    sign_in(client, staff)
    page = client.get(
        reverse("admin:questionnaire_submission_change", args=[submission.pk]), secure=True
    ).content.decode()
    assert "Bounced" in page and "cto@gone.example" in page


def test_a_spam_complaint_is_recorded_as_such(
    client, email_service, django_capture_on_commit_callbacks
):
    row = sent_confirmation(make_submission(), django_capture_on_commit_callbacks)
    complaint = {
        "RecordType": "SpamComplaint",
        "Type": "SpamComplaint",
        "MessageID": row.message_id,
        "Email": row.to[0],
        "BouncedAt": "2026-12-04T10:00:00Z",
    }
    assert post_postmark_event(client, complaint).status_code == 200
    row.refresh_from_db()
    assert row.status == Status.COMPLAINED and "Marked as spam" in row.error


def test_a_webhook_without_the_secret_changes_nothing(
    client, email_service, django_capture_on_commit_callbacks
):
    row = sent_confirmation(make_submission(), django_capture_on_commit_callbacks)
    response = post_postmark_event(
        client, bounce(row.message_id, row.to[0]), secret="postmark:guess"
    )
    assert response.status_code == 400
    row.refresh_from_db()
    assert row.status == Status.SENT


def test_without_a_configured_secret_every_webhook_post_is_refused(
    client, settings, django_capture_on_commit_callbacks
):
    """The settings' default: a random secret, so an unset ANYMAIL_WEBHOOK_SECRET is not open."""
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    assert settings.ANYMAIL["WEBHOOK_SECRET"].startswith("closed:")
    row = sent_confirmation(make_submission(), django_capture_on_commit_callbacks)
    for secret in ("", ":", "closed:"):
        response = post_postmark_event(client, bounce(row.message_id, row.to[0]), secret=secret)
        assert response.status_code == 400
    row.refresh_from_db()
    assert row.status == Status.SENT


def test_a_delivered_event_or_a_stranger_message_id_leaves_every_row_alone(
    client, email_service, django_capture_on_commit_callbacks
):
    row = sent_confirmation(make_submission(), django_capture_on_commit_callbacks)
    delivered = {
        "RecordType": "Delivery",
        "MessageID": row.message_id,
        "Recipient": row.to[0],
        "DeliveredAt": "2026-12-04T10:00:00Z",
    }
    assert post_postmark_event(client, delivered).status_code == 200
    assert post_postmark_event(client, bounce("not-ours-123", "x@example.com")).status_code == 200
    row.refresh_from_db()
    assert row.status == Status.SENT


def test_a_failed_resume_link_is_not_retried_from_the_admin(django_capture_on_commit_callbacks):
    """Its body, which held the link, is gone: the customer asks for a new link instead."""
    draft = Draft.objects.create(email="sam@example.com")
    row = OutgoingEmail.objects.create(
        draft=draft,
        kind=OutgoingEmail.Kind.RESUME_LINK,
        key="resume_link:x",
        to=["sam@example.com"],
        subject="s",
        body=outbox.LINK_REMOVED,
        status=Status.FAILED,
    )
    assert outbox.retry_email(email=row) is False
