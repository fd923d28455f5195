"""Save and come back later: a private link, emailed when we know an address."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from questionnaire.models import Draft
from questionnaire.wizard import RESUMED_MESSAGE
from tests.questionnaire.conftest import post_step, start, step_url

pytestmark = pytest.mark.django_db


def ask_for_link(client, draft_id, email=""):
    response = client.post(reverse("questionnaire:save", args=[draft_id]), {"email": email})
    assert response.status_code == 200
    return re.search(r'class="resume-link"><a href="([^"]+)"', response.content.decode()).group(1)


def open_link(client, link, **kwargs):
    """What the resume page does: post the token that follows ``#`` in the link."""
    path, token = link.replace("http://127.0.0.1:8000", "").split("#")
    assert path == reverse("questionnaire:resume")
    return client.post(path, {"token": token}, **kwargs)


def test_save_and_come_back_later_keeps_the_page_and_offers_a_link(client):
    draft_id = start(client)
    response = post_step(
        client,
        draft_id,
        "model",
        {"model_name": "Half typed", "total_params": "7"},
        save_for_later="1",
    )
    assert response["Location"] == reverse("questionnaire:save", args=[draft_id])
    assert Draft.objects.get(pk=draft_id).step_data["model"]["model-model_name"] == ["Half typed"]
    page = client.get(response["Location"]).content.decode()
    assert "Get my link" in page and "30 days" in page


def test_a_resume_link_opens_the_draft_in_another_browser_and_is_emailed(
    client, django_capture_on_commit_callbacks
):
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, "model", {"model_name": "Mixtral 8x7B"})
    with django_capture_on_commit_callbacks(execute=True):  # the mailer's outbox row commits
        link = ask_for_link(client, draft_id, "sam@example.com")
    token = link.split("#", 1)[1]

    draft = Draft.objects.get(pk=draft_id)
    assert draft.resume_token_hash and token not in draft.resume_token_hash
    assert timedelta(days=29) < draft.resume_token_expires_at - timezone.now() <= timedelta(days=30)
    assert len(mail.outbox) == 1 and link in mail.outbox[0].body
    assert mail.outbox[0].to == ["sam@example.com"]

    other_device = Client()
    response = open_link(other_device, link, follow=True)
    assert response.redirect_chain[-1][0] == step_url(draft_id, "method")
    assert RESUMED_MESSAGE in response.content.decode()
    page = other_device.get(step_url(draft_id, "model")).content.decode()
    assert 'value="Mixtral 8x7B"' in page


def test_without_an_email_the_link_is_only_shown(client):
    draft_id = start(client)
    assert ask_for_link(client, draft_id)
    assert mail.outbox == []


def test_an_expired_link_says_so_and_an_unknown_one_is_not_found(client):
    draft_id = start(client)
    link = ask_for_link(client, draft_id)
    Draft.objects.filter(pk=draft_id).update(
        resume_token_expires_at=timezone.now() - timedelta(seconds=1)
    )
    expired = open_link(Client(), link)
    assert expired.status_code == 410 and "This link has expired" in expired.content.decode()
    unknown = open_link(Client(), link.split("#")[0] + "#not-a-real-token")
    assert unknown.status_code == 404


def test_a_new_link_replaces_the_old_one(client):
    draft_id = start(client)
    old = ask_for_link(client, draft_id)
    ask_for_link(client, draft_id)
    assert open_link(Client(), old).status_code == 404


def test_a_link_emailed_before_tokens_moved_after_the_hash_still_opens_the_questionnaire(client):
    """Nothing lost: links already in customers' mailboxes carry the token in the path."""
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, "model", {"model_name": "Mixtral 8x7B"})
    token = ask_for_link(client, draft_id).split("#", 1)[1]
    response = Client().get(f"/q/resume/{token}/", follow=True)
    assert response.redirect_chain[-1][0] == step_url(draft_id, "method")
    assert Client().get("/q/resume/not-a-token/").status_code == 404
