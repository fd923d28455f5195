"""The review page sizes each distinct engine input once, in the shared cache; a new engine
version or a new day never reads an old entry."""

from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.test import Client

from questionnaire import review
from sizing.adapters import assumed_for_unsure_answers
from tests.questionnaire.conftest import step_url, walk_to_review
from tests.staff.factories import example_answers

NOT_SURE_PRECISION = {"precision": {"not_sure": "on"}}
ASSUMED_PRECISION = "We will assume number precision: BF16; optimizer: AdamW."


@pytest.fixture
def sizings(monkeypatch) -> list[dict]:
    """Every sizing the review page runs (the answers it sized)."""
    calls: list[dict] = []

    def counting(answers):
        calls.append(answers)
        return assumed_for_unsure_answers(answers)

    monkeypatch.setattr(review, "assumed_for_unsure_answers", counting)
    return calls


def with_notes(answers: dict, text: str) -> dict:
    return {slug: {**answer, "notes": text} for slug, answer in answers.items()}


@pytest.mark.django_db
def test_the_review_page_sizes_once_for_the_same_answers(client, sizings):
    draft_id = walk_to_review(client, NOT_SURE_PRECISION)
    first = client.get(step_url(draft_id, "review")).content.decode()
    again = client.get(step_url(draft_id, "review")).content.decode()
    assert ASSUMED_PRECISION in first and ASSUMED_PRECISION in again
    assert len(sizings) == 1


@pytest.mark.django_db
def test_a_second_customer_unsure_of_the_same_things_reuses_the_sizing(sizings):
    for _ in range(2):
        client = Client()
        draft_id = walk_to_review(client, NOT_SURE_PRECISION)
        assert ASSUMED_PRECISION in client.get(step_url(draft_id, "review")).content.decode()
    assert len(sizings) == 1


def test_text_the_engine_never_reads_shares_a_key_and_an_engine_input_does_not():
    today = date(2027, 3, 1)
    answers = example_answers()
    key = review.review_sizing_key(answers, today=today)
    assert review.review_sizing_key(with_notes(answers, "a note"), today=today) == key
    bigger = {**answers, "model": {**answers["model"], "total_params": 7e10}}
    assert bigger["model"] != answers["model"]
    assert review.review_sizing_key(bigger, today=today) != key


def test_the_key_names_the_engine_version_and_the_day(monkeypatch):
    today = date(2027, 3, 1)
    answers = example_answers()
    key = review.review_sizing_key(answers, today=today)
    assert key.startswith(f"review-sizing:{review.ENGINE_VERSION}:2027-03-01:")
    assert review.review_sizing_key(answers, today=today + timedelta(days=1)) != key
    monkeypatch.setattr(review, "ENGINE_VERSION", "next-engine")
    assert review.review_sizing_key(answers, today=today) != key


@pytest.mark.django_db
def test_a_new_engine_version_never_serves_the_old_engines_sizing(client, sizings, monkeypatch):
    keys: list[str] = []
    key_of = review.review_sizing_key
    monkeypatch.setattr(
        review, "review_sizing_key", lambda *a, **kw: keys.append(key_of(*a, **kw)) or keys[-1]
    )
    draft_id = walk_to_review(client, NOT_SURE_PRECISION)
    client.get(step_url(draft_id, "review"))
    assert len(sizings) == 1
    # Make the stored entry say something the engine never says: the page shows the entry...
    cache.set(keys[-1], {"precision": ["STALE ASSUMPTION"]})
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "STALE ASSUMPTION" in page and len(sizings) == 1

    # ... until the engine's version changes: then it sizes again and never reads the old entry.
    monkeypatch.setattr(review, "ENGINE_VERSION", "next-engine")
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "STALE ASSUMPTION" not in page and ASSUMED_PRECISION in page
    assert len(sizings) == 2
