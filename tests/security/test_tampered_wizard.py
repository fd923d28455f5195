"""Tampered wizard management data, other people's questionnaires and missing CSRF tokens.

Whatever is forged, the answer is a 4xx or the page again, never a 500, and no answer already
given (in this questionnaire or another one) changes.
"""

from __future__ import annotations

import logging
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from questionnaire.models import Draft, Submission
from tests.security.conftest import (
    count,
    html,
    management_key,
    post_raw,
    post_step,
    prefill,
    start,
    step_pairs,
    step_url,
)

pytestmark = pytest.mark.django_db

CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
EXAMPLE_MODEL = {"model_name": "Llama 3.1 8B", "total_params": "8B", "notes": "tampered?"}

# Each names something other than the page it is posted to: always a 400 that changes nothing.
FORGED_STEP_NAMES = {
    "unknown": "bogus",
    "empty": "",
    "path": "../../admin",
    "markup": "<script>alert(1)</script>",
    "long": "x" * 5000,
    "done-name": "submit",
    "url-name-of-another-page": "confirmation",
    "case": "MODEL",
    "whitespace": " model ",
}


def _unchanged(draft_id, before) -> None:
    assert Draft.objects.get(pk=draft_id).step_data == before


@pytest.mark.parametrize("forged", list(FORGED_STEP_NAMES.values()), ids=list(FORGED_STEP_NAMES))
def test_a_forged_current_step_is_refused_without_a_crash(client, forged):
    draft_id = start(client)
    before = prefill(draft_id, except_step="model")
    count("tampered management data")
    pairs = step_pairs(draft_id, "model", EXAMPLE_MODEL, current_step=forged)
    response = post_raw(client, step_url(draft_id, "model"), pairs)
    assert response.status_code == 400, response.status_code
    assert "your saved answers are as they were" in html(response)
    after = Draft.objects.get(pk=draft_id).step_data
    assert {slug: after.get(slug) for slug in before} == before
    assert not Submission.objects.exists()


@pytest.mark.parametrize(
    "claimed",
    ["data", "contact", "review", "welcome"],
)
def test_a_current_step_naming_another_page_loses_nothing_and_sends_nothing(client, claimed):
    draft_id = start(client)
    before = prefill(draft_id, except_step="model")
    count("tampered management data")
    response = post_step(client, draft_id, "model", EXAMPLE_MODEL, current_step=claimed)
    assert response.status_code == 400, response.status_code
    after = Draft.objects.get(pk=draft_id).step_data
    assert {slug: after.get(slug) for slug in before} == before
    # Without contact details nothing can be sent, whatever the management form claims.
    assert not Submission.objects.exists()


def test_the_management_field_of_another_questionnaire_is_a_400(client):
    mine, theirs = start(client), start(Client())
    mine_before, theirs_before = prefill(mine), prefill(theirs)
    count("tampered management data")
    pairs = [(management_key(theirs), "model"), ("model-notes", "overwrite?")]
    response = post_raw(client, step_url(mine, "model"), pairs)
    assert response.status_code == 400
    _unchanged(mine, mine_before)
    _unchanged(theirs, theirs_before)


def test_no_management_field_at_all_is_a_400(client):
    draft_id = start(client)
    before = prefill(draft_id)
    count("tampered management data")
    response = post_raw(client, step_url(draft_id, "model"), [("model-notes", "x")])
    assert response.status_code == 400
    _unchanged(draft_id, before)


def test_two_current_step_values_are_not_a_crash(client):
    draft_id = start(client)
    count("tampered management data")
    pairs = [(management_key(draft_id), "model"), (management_key(draft_id), "bogus")]
    response = post_raw(client, step_url(draft_id, "model"), pairs + [("model-notes", "x")])
    assert response.status_code in (200, 302, 400)


@pytest.mark.parametrize("goto", ["bogus", "review", "submit", "", "model\x1b"])
def test_a_forged_goto_step_is_not_a_crash(client, goto):
    draft_id = start(client)
    before = prefill(draft_id, except_step="model")
    count("tampered management data")
    pairs = step_pairs(draft_id, "model", EXAMPLE_MODEL) + [("wizard_goto_step", goto)]
    response = post_raw(client, step_url(draft_id, "model"), pairs)
    assert response.status_code in (200, 302)
    after = Draft.objects.get(pk=draft_id).step_data
    assert {slug: after.get(slug) for slug in before} == before
    assert not Submission.objects.exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_another_customers_questionnaire_cannot_be_opened_or_changed(client, method):
    theirs = start(Client())
    before = prefill(theirs)
    count("tampered management data")
    if method == "get":
        response = client.get(step_url(theirs, "model"))
    else:
        response = post_step(client, theirs, "model", EXAMPLE_MODEL)
    assert response.status_code == 403
    _unchanged(theirs, before)


@pytest.mark.parametrize(
    "path",
    [
        "/q/not-a-uuid/model/",
        f"/q/{uuid.uuid4()}/model/",
        "/q/{mine}/bogus/",
        "/q/{mine}/submit/",
        "/q/{mine}/%3Cscript%3E/",
    ],
)
def test_unknown_questionnaires_and_steps_in_the_url_are_not_a_crash(client, path):
    mine = start(client)
    before = prefill(mine)
    url = path.format(mine=mine)
    count("tampered management data", 2)
    assert client.get(url).status_code in (302, 400, 404)
    response = post_raw(client, url, step_pairs(mine, "model", {"notes": "x"}))
    assert response.status_code in (200, 302, 400, 404)
    after = Draft.objects.get(pk=mine).step_data
    assert {slug: after[slug] for slug in before if slug != "model"} == {
        slug: data for slug, data in before.items() if slug != "model"
    }


# --- CSRF (checklist test 12: the 403 and the django.security.csrf warning) -----------------------


@pytest.fixture
def strict_client() -> Client:
    return Client(enforce_csrf_checks=True)


def _token(client: Client, url: str) -> str:
    match = CSRF_RE.search(html(client.get(url)))
    assert match, url
    return match.group(1)


def _started_with_csrf(client: Client) -> uuid.UUID:
    token = _token(client, reverse("questionnaire:home"))
    response = client.post(reverse("questionnaire:start"), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    return uuid.UUID(response["Location"].split("/")[2])


def _assert_csrf_refused(response, caplog) -> None:
    assert response.status_code == 403
    assert any(
        record.name == "django.security.csrf" and record.levelno == logging.WARNING
        for record in caplog.records
    )


def test_start_without_a_csrf_token_is_refused(strict_client, caplog):
    count("CSRF forgery")
    response = strict_client.post(reverse("questionnaire:start"))
    _assert_csrf_refused(response, caplog)
    assert not Draft.objects.exists()


@pytest.mark.parametrize("forgery", ["missing", "wrong-64", "other-session", "evil-origin"])
def test_a_step_without_a_valid_csrf_token_is_refused_and_changes_nothing(
    strict_client, caplog, forgery
):
    draft_id = _started_with_csrf(strict_client)
    before = prefill(draft_id, except_step="model")
    count("CSRF forgery")
    pairs = step_pairs(draft_id, "model", EXAMPLE_MODEL)
    extra = {}
    if forgery == "wrong-64":
        pairs.append(("csrfmiddlewaretoken", "A" * 64))
    elif forgery == "other-session":
        pairs.append(("csrfmiddlewaretoken", _token(Client(), reverse("questionnaire:home"))))
    elif forgery == "evil-origin":
        pairs.append(("csrfmiddlewaretoken", _token(strict_client, step_url(draft_id, "model"))))
        extra["HTTP_ORIGIN"] = "https://evil.example"
    response = post_raw(strict_client, step_url(draft_id, "model"), pairs, **extra)
    _assert_csrf_refused(response, caplog)
    _unchanged(draft_id, before)


def test_a_step_with_its_csrf_token_is_accepted(strict_client):
    """The control for the CSRF tests: the same post with the page's token goes through."""
    draft_id = _started_with_csrf(strict_client)
    token = _token(strict_client, step_url(draft_id, "model"))
    pairs = step_pairs(draft_id, "model", EXAMPLE_MODEL) + [("csrfmiddlewaretoken", token)]
    response = post_raw(strict_client, step_url(draft_id, "model"), pairs)
    assert response.status_code == 302
