"""Finished questionnaires are limited per client address (429 + Retry-After beyond it)."""

import pytest
from django.core.cache import cache
from django.test import Client

from questionnaire.models import Draft, Submission
from tests.questionnaire.conftest import post_step, walk_to_review

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_per_hour(settings):
    settings.SUBMISSIONS_PER_HOUR = 2
    cache.clear()
    yield
    cache.clear()


def submit_from(address: str, **headers: str):
    client = Client(REMOTE_ADDR=address, **headers)
    draft_id = walk_to_review(client)
    return draft_id, post_step(client, draft_id, "review", {})


def test_submissions_beyond_the_limit_get_429_and_keep_their_answers():
    for _ in range(2):
        _, response = submit_from("203.0.113.9")
        assert response.status_code == 302
    draft_id, refused = submit_from("203.0.113.9")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert "Your answers so far are saved" in refused.content.decode()
    assert Submission.objects.count() == 2
    draft = Draft.objects.get(pk=draft_id)
    assert not draft.is_submitted
    assert draft.step_data["model"]["model-model_name"] == ["Llama 3.1 8B"]


def test_a_spoofed_forwarded_for_header_does_not_reset_the_limit():
    for _ in range(2):
        submit_from("203.0.113.9")
    _, refused = submit_from("203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert refused.status_code == 429


def test_other_clients_are_not_affected():
    for _ in range(3):
        submit_from("203.0.113.9")
    _, response = submit_from("203.0.113.10")
    assert response.status_code == 302
