"""Findings (low): the draft-access cookie never expired on the server (a value signed 400 days
ago still worked), a new resume link left every browser that used the old one with access, and
resume tokens appeared in access logs (``GET /q/resume/<token>/``).
"""

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.core import signing
from django.test import Client
from django.urls import NoReverseMatch, reverse

from questionnaire.access import COOKIE_NAME
from tests.questionnaire.conftest import post_step, start, step_url

SALT = "questionnaire.access"  # as in questionnaire/access.py

pytestmark = pytest.mark.django_db


def ask_for_link(client, draft_id) -> str:
    response = client.post(reverse("questionnaire:save", args=[draft_id]), {"email": ""})
    return re.search(r'class="resume-link"><a href="([^"]+)"', response.content.decode()).group(1)


def open_link(client, link):
    token = link.split("#", 1)[1]
    return client.post(reverse("questionnaire:resume"), {"token": token})


def test_a_draft_cookie_signed_long_ago_no_longer_opens_the_draft(settings):
    client = Client()
    draft_id = start(client)
    value = client.cookies[COOKIE_NAME].value
    assert client.get(step_url(draft_id, "model")).status_code == 200

    # The same cookie content, signed 400 days ago (as a copied or stolen cookie would be).
    signer = signing.get_cookie_signer(salt=signing._cookie_signer_salt(COOKIE_NAME, SALT))
    unsigned = signer.unsign(value)
    long_ago = signing.time.time() - timedelta(days=400).total_seconds()
    with mock.patch("django.core.signing.time.time", return_value=long_ago):
        old = signer.sign(unsigned)
    replay = Client()
    replay.cookies[COOKIE_NAME] = old
    assert replay.get(step_url(draft_id, "model")).status_code == 403


def test_a_new_resume_link_revokes_the_browsers_that_used_the_old_one():
    owner = Client()
    draft_id = start(owner)
    post_step(owner, draft_id, "model", {"model_name": "Private model"})
    other_device = Client()
    assert open_link(other_device, ask_for_link(owner, draft_id)).status_code == 302
    assert other_device.get(step_url(draft_id, "model")).status_code == 200

    ask_for_link(owner, draft_id)  # e.g. the owner noticed the first link was forwarded
    assert other_device.get(step_url(draft_id, "model")).status_code == 403
    page = owner.get(step_url(draft_id, "model"))
    assert page.status_code == 200 and 'value="Private model"' in page.content.decode()


def test_resume_tokens_never_travel_in_a_url_path_or_query():
    client = Client()
    draft_id = start(client)
    link = ask_for_link(client, draft_id)
    path, _, token = link.replace("http://127.0.0.1:8000", "").partition("#")
    assert len(token) >= 40 and token not in path
    with pytest.raises(NoReverseMatch):
        reverse("questionnaire:resume", kwargs={"token": token})
    # The resume page itself carries no token; it posts the one after "#".
    page = Client().get(path)
    assert page.status_code == 200 and "data-resume-form" in page.content.decode()
    assert open_link(Client(), link)["Location"] == step_url(draft_id, "welcome")


def test_a_link_of_the_old_shape_opens_once_and_its_logged_token_opens_nothing():
    """Links emailed before tokens moved after "#" carry them in the path, so the token may
    sit in an access log: it is spent as the link is used (nothing lost for the customer)."""
    client = Client()
    draft_id = start(client)
    token = ask_for_link(client, draft_id).partition("#")[2]
    assert Client().get(f"/q/resume/{token}/")["Location"] == step_url(draft_id, "welcome")
    assert Client().get(f"/q/resume/{token}/").status_code == 404


def test_a_link_of_the_old_shape_keeps_its_user_in_and_revoked_browsers_out():
    """Finding (low, issue 25): spending the token emptied the draft's link generation, so the
    browser that used the link was locked out at once and every browser holding the first,
    empty generation (revoked when the first link was issued) was let in again."""
    owner = Client()
    draft_id = start(owner)
    post_step(owner, draft_id, "model", {"model_name": "Private model"})
    copied = Client()  # the cookie of the first generation, kept (a shared computer, a copy)
    copied.cookies[COOKIE_NAME] = owner.cookies[COOKIE_NAME].value
    token = ask_for_link(owner, draft_id).partition("#")[2]
    assert copied.get(step_url(draft_id, "model")).status_code == 403

    laptop = Client()
    assert laptop.get(f"/q/resume/{token}/").status_code == 302
    page = laptop.get(step_url(draft_id, "model"))
    assert page.status_code == 200 and 'value="Private model"' in page.content.decode()
    assert copied.get(step_url(draft_id, "model")).status_code == 403
    assert Client().get(f"/q/resume/{token}/").status_code == 404
