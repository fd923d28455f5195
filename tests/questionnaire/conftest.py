"""Helpers to drive the wizard with the test client, the way a browser posts it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from questionnaire.questions import DISCOVERY, QUESTIONS

CONTACT = {
    "name": "Dana Example",
    "email": "dana@insurer.example",
    "company": "Example Insurance Group",
    "role": "Head of claims analytics",
    "country": "Germany",
    "consent": "on",
}


def step_url(draft_id: uuid.UUID | str, step: str) -> str:
    return reverse("questionnaire:step", kwargs={"draft_id": draft_id, "step": step})


def prefixed(step: str, data: dict[str, Any]) -> dict[str, Any]:
    return {f"{step}-{key}": value for key, value in data.items()}


def post_step(
    client: Client, draft_id: uuid.UUID | str, step: str, data: dict[str, Any], **extra: Any
):
    """Post one step as the wizard's own form would (management form included)."""
    payload = {
        f"questionnaire_{uuid.UUID(str(draft_id)).hex}-current_step": step,
        **prefixed(step, data),
        **extra,
    }
    return client.post(step_url(draft_id, step), payload)


def past_sentence_check(client: Client, response: Any) -> Any:
    """Skip the check page of the discovery sentence's answers (``questionnaire/prefill/
    words.py``), for tests about something else: the answers stay as the test posts them."""
    if response.status_code == 302 and response["Location"].endswith("/your-words/check/"):
        return client.post(response["Location"], {"action": "cancel"})
    return response


def start(client: Client) -> uuid.UUID:
    response = client.post(reverse("questionnaire:start"))
    assert response.status_code == 302
    return uuid.UUID(response["Location"].split("/")[2])


def walk_to_review(client: Client, answers: dict[str, dict[str, Any]] | None = None) -> uuid.UUID:
    """Start and answer every step (question examples unless given), ending on the review.

    The discovery page is left empty unless ``answers`` holds it: the detailed path."""
    draft_id = start(client)
    response = post_step(client, draft_id, "welcome", {})
    assert response["Location"] == step_url(draft_id, DISCOVERY.slug)
    response = post_step(client, draft_id, DISCOVERY.slug, (answers or {}).get(DISCOVERY.slug, {}))
    response = past_sentence_check(client, response)
    assert response["Location"] == step_url(draft_id, QUESTIONS[0].slug)
    for question in QUESTIONS:
        data = (answers or {}).get(question.slug, question.example.data)
        response = post_step(client, draft_id, question.slug, data)
        assert response.status_code == 302, response.content.decode()[:2000]
    response = post_step(client, draft_id, "contact", CONTACT)
    assert response["Location"] == step_url(draft_id, "review")
    return draft_id


@pytest.fixture
def client() -> Client:
    return Client()
