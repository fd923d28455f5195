"""Findings (medium, low): drafts were unlimited (3,587 new questionnaires in 20 s), "email me
a resume link" sent to any address without limit, and one wrong password each for many
usernames from one address was never throttled. Each now has a limit per client address (and
resume emails one per questionnaire), answered by a friendly page that keeps the answers.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from pipeline.models import OutgoingEmail
from questionnaire.models import Draft
from tests.questionnaire.conftest import post_step, start, step_url

pytestmark = pytest.mark.django_db


def test_new_questionnaires_are_limited_per_address_and_earlier_ones_stay_open(settings):
    settings.DRAFTS_PER_HOUR = 3
    client = Client(REMOTE_ADDR="203.0.113.40")
    first = start(client)
    post_step(client, first, "model", {"model_name": "Kept model"})
    for _ in range(2):
        start(client)
    refused = client.post(reverse("questionnaire:start"))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    page = refused.content.decode()
    assert "new questionnaires" in page and "Your answers so far are saved" in page
    assert Draft.objects.count() == 3
    # The customer's earlier questionnaire is untouched and still opens from this browser.
    response = client.get(step_url(first, "model"))
    assert response.status_code == 200 and 'value="Kept model"' in response.content.decode()
    # Another address is not affected.
    assert (
        Client(REMOTE_ADDR="203.0.113.41").post(reverse("questionnaire:start")).status_code == 302
    )


def ask_for_email(client, draft_id, email):
    return client.post(reverse("questionnaire:save", args=[draft_id]), {"email": email})


def resume_emails_queued() -> int:
    """Resume-link emails written to the outbox for the mailer (which sends each after commit)."""
    return OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.RESUME_LINK).count()


def test_resume_emails_are_limited_per_questionnaire_and_the_link_is_still_shown(settings):
    settings.RESUME_EMAILS_PER_DRAFT_PER_HOUR = 2
    settings.RESUME_EMAILS_PER_HOUR = 100
    client = Client(REMOTE_ADDR="203.0.113.50")
    draft_id = start(client)
    post_step(client, draft_id, "model", {"model_name": "Kept model"})
    for n in range(2):
        assert ask_for_email(client, draft_id, f"victim{n}@example.com").status_code == 200
    refused = ask_for_email(client, draft_id, "victim9@example.com")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    page = refused.content.decode()
    assert "did not send this one" in page
    assert re.search(r'class="resume-link"><a href="[^"]+#[^"]+"', page)
    assert resume_emails_queued() == 2
    assert Draft.objects.get(pk=draft_id).step_data["model"]["model-model_name"] == ["Kept model"]


def test_resume_emails_are_limited_per_address_across_questionnaires(settings):
    settings.RESUME_EMAILS_PER_DRAFT_PER_HOUR = 100
    settings.RESUME_EMAILS_PER_HOUR = 3
    client = Client(REMOTE_ADDR="203.0.113.51")
    statuses = [
        ask_for_email(client, start(client), f"victim{n}@example.com").status_code for n in range(5)
    ]
    assert statuses == [200, 200, 200, 429, 429]
    assert resume_emails_queued() == 3


def test_staff_login_attempts_are_limited_per_address_across_usernames(settings):
    settings.STAFF_LOGIN_ATTEMPTS_PER_HOUR = 5
    client = Client(REMOTE_ADDR="198.51.100.70")
    statuses = [
        client.post("/admin/login/", {"username": f"user{n}", "password": "guess"}).status_code
        for n in range(6)
    ]
    assert statuses[:5] == [200] * 5
    assert statuses[5] == 429
    refused = client.post("/admin/login/", {"username": "user99", "password": "guess"})
    assert "sign-in attempts" in refused.content.decode()
    other = Client(REMOTE_ADDR="198.51.100.71")
    assert other.post("/admin/login/", {"username": "x", "password": "y"}).status_code == 200
