"""The discovery sentence fills answers only after the customer checks them, as a file does."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from questionnaire.models import Draft
from questionnaire.paths import shows_step
from questionnaire.questions import QUESTIONS
from questionnaire.services import collect_answers
from sizing.public import size_answers
from tests.questionnaire.conftest import CONTACT, post_step, start, step_url
from tests.questionnaire.prefill.test_sentence import CUSTOMERS

pytestmark = pytest.mark.django_db

BANK = CUSTOMERS[6]


def check_url(draft_id) -> str:
    return reverse("questionnaire:fill_from_words_check", kwargs={"draft_id": draft_id})


def ticked(page: str) -> list[str]:
    """The answers the check page offers ticked, as a browser would post them."""
    return re.findall(r'name="answer" value="([^"]+)"[^>]*\bchecked\b', page)


def offered(page: str) -> list[str]:
    return re.findall(r'name="answer" value="([^"]+)"', page)


def post_discovery(client, draft_id, sentence: str, extra: dict | None = None, **more):
    data = {"use_case": sentence, **more}
    return post_step(client, draft_id, "discovery", data, **(extra or {}))


def choose(client, draft_id, answers: list[str], action: str = "use"):
    revision = Draft.objects.get(pk=draft_id).revision
    return client.post(
        check_url(draft_id),
        {"action": action, "choosing": "1", "answer": answers, "revision": revision},
    )


def begin(client, sentence: str = BANK, **more):
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    response = post_discovery(client, draft_id, sentence, **more)
    return draft_id, response


def test_the_sentence_leads_to_the_check_page_and_fills_nothing_before_use(client):
    draft_id, response = begin(client, setup_known="no")
    assert response["Location"] == check_url(draft_id)
    assert set(Draft.objects.get(pk=draft_id).step_data) == {"welcome", "discovery"}
    page = client.get(check_url(draft_id)).content.decode()
    assert "Check the answers from your words" in page
    assert "NVIDIA only" in page and "Your words “stay in Germany”" in page
    assert set(ticked(page)) == {
        "model-total_params",
        "method-method",
        "data-dataset_size",
        "data-dataset_unit",
        "timeline-runs_per_month",
        "software-accelerator_vendor",
        "deployment-data_residency",
        "deployment-dedicated",
    }


def test_use_fills_the_ticked_answers_and_marks_them_on_the_pages(client):
    draft_id, _ = begin(client, setup_known="no")
    page = client.get(check_url(draft_id)).content.decode()
    keep = [answer for answer in ticked(page) if answer != "deployment-dedicated"]
    response = choose(client, draft_id, keep)
    assert response["Location"] == step_url(draft_id, "model")  # on to question 1
    data = Draft.objects.get(pk=draft_id).step_data
    assert data["model"] == {"model-total_params": ["8B"]}
    assert data["method"]["method-method"] == ["lora"]
    assert data["software"]["software-accelerator_vendor"] == ["nvidia_only"]
    assert data["deployment"] == {"deployment-data_residency": ["Germany"]}  # unticked: not
    page = client.get(step_url(draft_id, "model")).content.decode()
    # the mark takes the place of the example under the label, while the answer holds 8B
    assert page.count('class="form-hint prefilled-note"') == 1
    assert (
        '<div class="form-hint prefilled-note" id="id_model-total_params-hint">From your words'
        in page
    )
    assert "For example 8B, 70 billion or 350M." not in page
    assert 'value="8B"' in page
    page = client.get(step_url(draft_id, "software")).content.decode()
    assert 'class="form-hint prefilled-note"' in page


def test_the_prefilled_answers_reach_the_review_marked_and_the_engine(client):
    draft_id, _ = begin(client, setup_known="no")
    choose(client, draft_id, ticked(client.get(check_url(draft_id)).content.decode()))
    draft = Draft.objects.get(pk=draft_id)
    for question in QUESTIONS:
        if shows_step(question.slug, draft.step_data):
            raw = Draft.objects.get(pk=draft_id).step_data.get(question.slug) or {}
            data = {k.removeprefix(f"{question.slug}-"): v for k, v in raw.items()}
            response = post_step(client, draft_id, question.slug, data or {"not_sure": "on"})
            assert response.status_code == 302, response.content.decode()[:3000]
    post_step(client, draft_id, "contact", CONTACT)
    review = client.get(step_url(draft_id, "review")).content.decode()
    assert review.count('class="prefilled-mark"') == 8
    assert review.count("(from your words)") == 8  # for screen readers
    assert '<p class="prefilled-legend" aria-hidden="true">✱ From your words</p>' in review
    assert CUSTOMERS[6] in review  # their project, quoted
    answers, missing = collect_answers(Draft.objects.get(pk=draft_id))
    assert not missing
    engine = size_answers(answers=answers).engine_input
    assert engine["hardware"]["vendors"] == ["nvidia"]
    assert engine["training"]["method"] == "lora"
    assert engine["data"]["tokens"] == 200e6
    assert engine["deployment"]["data_residency"] == "Germany"
    assert engine["deployment"]["dedicated_hardware"] is True


def test_a_changed_answer_is_no_longer_marked(client):
    draft_id, _ = begin(client)
    choose(client, draft_id, ticked(client.get(check_url(draft_id)).content.decode()))
    post_step(client, draft_id, "model", {"total_params": "7B"})
    page = client.get(step_url(draft_id, "model")).content.decode()
    assert "prefilled-note" not in page
    assert "For example 8B, 70 billion or 350M." in page


def test_skip_changes_nothing_and_the_same_sentence_is_not_offered_again(client):
    draft_id, _ = begin(client)
    response = client.post(check_url(draft_id), {"action": "cancel"})
    assert response["Location"] == step_url(draft_id, "model")
    assert set(Draft.objects.get(pk=draft_id).step_data) == {"welcome", "discovery"}
    response = post_discovery(client, draft_id, BANK)
    assert response["Location"] == step_url(draft_id, "model")
    response = post_discovery(client, draft_id, BANK + " Within 2 days.")
    assert response["Location"] == check_url(draft_id)


def test_an_answer_typed_before_is_offered_unticked_and_kept_unless_ticked(client):
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_discovery(client, draft_id, "")
    post_step(client, draft_id, "model", {"total_params": "7B"})
    response = post_discovery(client, draft_id, BANK, extra={"return_to": "review"})
    assert response["Location"] == check_url(draft_id)
    page = client.get(check_url(draft_id)).content.decode()
    assert "replaces your answer" in page
    assert "model-total_params" in offered(page) and "model-total_params" not in ticked(page)
    response = choose(client, draft_id, ticked(page))
    assert response["Location"] == step_url(draft_id, "review")  # where they came from
    assert Draft.objects.get(pk=draft_id).step_data["model"]["model-total_params"] == ["7B"]


def test_what_matters_most_is_never_replaced_by_the_sentence(client):
    sentence = CUSTOMERS[9]
    draft_id, _ = begin(client, sentence, constraint="budget")
    page = client.get(check_url(draft_id)).content.decode()
    assert "discovery-constraint" not in offered(page)
    draft_id, _ = begin(client, sentence)
    page = client.get(check_url(draft_id)).content.decode()
    assert "discovery-constraint" in ticked(page)


def test_a_sentence_that_answers_nothing_goes_straight_on(client):
    draft_id, response = begin(client, "A chatbot for our shop.")
    assert response["Location"] == step_url(draft_id, "model")
    assert client.get(check_url(draft_id))["Location"] == step_url(draft_id, "model")


def test_another_browser_cannot_open_the_check_page(client):
    draft_id, _ = begin(client)
    assert Client().get(check_url(draft_id)).status_code == 403
