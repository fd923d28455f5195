"""The review page sizes each distinct engine input once, in the shared cache, without the other
accelerators it never shows; the pipeline sizes the sent answers in full, and every figure the
page shows is the proposal's. A changed answer, a new engine or a new day never reads an old
entry."""

import json
from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.test import Client

from pipeline import services
from pipeline.models import Recommendation
from questionnaire.models import Submission
from questionnaire.questions import DISCOVERY, get_question
from sizing import adapters, sized_once
from sizing.adapters import build_engine_input, size_answers
from sizing.stored_result import read_result
from sizing.words.rival import platform_lines, reads_alternatives
from tests.questionnaire.conftest import CONTACT, post_step, step_url, walk_to_review
from tests.staff.factories import example_answers

NOT_SURE_PRECISION = {"precision": {"not_sure": "on"}}
ASSUMED_PRECISION = "We will assume number precision: BF16; optimizer: AdamW."


@pytest.fixture
def sizings(monkeypatch) -> list[dict]:
    """Every engine run (the engine inputs it sized)."""
    calls: list[dict] = []
    engine = adapters.size_dict

    def counting(engine_input, **options):
        calls.append(engine_input)
        return engine(engine_input, **options)

    monkeypatch.setattr(adapters, "size_dict", counting)
    return calls


def with_notes(answers: dict, text: str) -> dict:
    return {slug: {**answer, "notes": text} for slug, answer in answers.items()}


def key_of(answers: dict, today: date, **options) -> str:
    return sized_once.sizing_key(build_engine_input(answers=answers, **options), today=today)


@pytest.mark.django_db
def test_the_review_page_sizes_once_for_the_same_answers(client, sizings):
    draft_id = walk_to_review(client, NOT_SURE_PRECISION)
    first = client.get(step_url(draft_id, "review")).content.decode()
    again = client.get(step_url(draft_id, "review")).content.decode()
    assert ASSUMED_PRECISION in first and ASSUMED_PRECISION in again
    assert len(sizings) == 1  # the second view reads the first one's sizing


# Question 14 left open: the contact's country places the hardware, so it changes the input.
PLACED_BY_CONTACT = {**NOT_SURE_PRECISION, "deployment": {"not_sure": "on"}}
SHORT_PATH = {DISCOVERY.slug: {**DISCOVERY.example.data, "setup_known": "no"}}


@pytest.mark.parametrize("path", [{}, SHORT_PATH], ids=["detailed path", "short path"])
@pytest.mark.django_db
def test_one_view_of_the_review_builds_and_sizes_the_answers_once_placed_by_the_contact(
    client, sizings, monkeypatch, path
):
    draft_id = walk_to_review(client, {**PLACED_BY_CONTACT, **path})
    builds = count_engine_input_builds(monkeypatch)
    keys: list[str] = []
    key_for = sized_once.sizing_key
    monkeypatch.setattr(
        sized_once, "sizing_key", lambda *a, **kw: keys.append(key_for(*a, **kw)) or keys[-1]
    )
    sizings.clear()
    page = client.get(step_url(draft_id, "review"))
    # what it assumes, what it decides for the set-up and the first estimate come from one
    # sizing of the answers as the pipeline sizes the sent ones: placed by the contact's country
    assert page.context["estimate"] is not None
    if path:  # the set-up left to us: what the engine chose
        left_to_us = [row for row in page.context["setup_rows"] if not row.kept]
        assert left_to_us and all(row.decided for row in left_to_us)
    else:
        assert ASSUMED_PRECISION in page.content.decode()
    assert [i["deployment"].get("country") for i in sizings] == [CONTACT["country"]]
    assert len(builds) == 1 and len(keys) == 1


def count_engine_input_builds(monkeypatch) -> list[dict]:
    """Every engine input built from answers from now on (each build starts one context)."""
    built: list[dict] = []
    context = adapters._Context

    def counting(answers, *args, **kwargs):
        built.append(answers)
        return context(answers, *args, **kwargs)

    monkeypatch.setattr(adapters, "_Context", counting)
    return built


@pytest.mark.django_db
def test_a_second_customer_unsure_of_the_same_things_reuses_the_sizing(sizings):
    counts = []
    for _ in range(2):
        client = Client()
        draft_id = walk_to_review(client, NOT_SURE_PRECISION)
        assert ASSUMED_PRECISION in client.get(step_url(draft_id, "review")).content.decode()
        counts.append(len(sizings))
    assert counts[0] >= 1 and counts[1] == counts[0]


@pytest.mark.django_db
def test_a_changed_answer_is_sized_again_and_shown_never_the_old_estimate(client, sizings):
    draft_id = walk_to_review(client)
    before = client.get(step_url(draft_id, "review")).context["estimate"]
    sized = len(sizings)
    post_step(client, draft_id, "precision", {"not_sure": "on"}, return_to="review")
    page = client.get(step_url(draft_id, "review"))
    assert len(sizings) > sized
    assert ASSUMED_PRECISION in page.content.decode()
    # changed back: the first sizing is found again, not run again
    count = len(sizings)
    post_step(client, draft_id, "precision", example_answers_data("precision"), return_to="review")
    assert client.get(step_url(draft_id, "review")).context["estimate"] == before
    assert len(sizings) == count


def example_answers_data(slug: str) -> dict:
    return dict(get_question(slug).example.data)


@pytest.fixture
def sized_in_full(monkeypatch) -> list[bool]:
    """Whether each engine run sized the other accelerators too."""
    full: list[bool] = []
    engine = adapters.size_dict

    def recording(engine_input, **options):
        full.append(options.get("alternatives", True))
        return engine(engine_input, **options)

    monkeypatch.setattr(adapters, "size_dict", recording)
    return full


@pytest.mark.django_db
def test_the_review_page_leaves_the_other_accelerators_unsized_and_the_pipeline_sizes_them(
    client, sized_in_full, django_capture_on_commit_callbacks
):
    draft_id = walk_to_review(client)
    page = client.get(step_url(draft_id, "review"))
    assert sized_in_full == [False]
    shown = page.context["estimate"]
    post_step(client, draft_id, "review", {})
    submission = Submission.objects.get(draft_id=draft_id)
    with django_capture_on_commit_callbacks(execute=False):
        services.start_pipeline(submission_id=submission.pk)
    recommendation = Recommendation.objects.get(submission=submission)
    with django_capture_on_commit_callbacks(execute=False):
        services.run_sizing(recommendation_id=recommendation.pk)
    recommendation.refresh_from_db()
    assert recommendation.status == Recommendation.Status.DONE
    assert sized_in_full == [False, True]  # the sent answers sized once, in full
    stored = recommendation.result
    assert stored["alternatives"] and not shown.result["alternatives"]
    # the result stored is the engine's for the sent answers, as stored (JSON: a tuple of the
    # engine's reads back as a list; PostgreSQL's jsonb keeps 1.27702e+21 as the integer it
    # equals, so numbers are compared as floats)
    fresh = size_answers(answers=submission.answers, contact_country=submission.country)
    assert as_stored(stored) == as_stored(fresh.result)
    assert as_stored(recommendation.engine_input) == as_stored(fresh.engine_input)
    assert recommendation.input_sources == fresh.sources
    # and every other figure of the page's sizing is the proposal's
    assert as_stored(without_alternatives(stored)) == as_stored(without_alternatives(shown.result))
    assert as_stored(recommendation.engine_input) == as_stored(shown.engine_input)


@pytest.mark.django_db
def test_a_plan_set_beside_an_nvidia_rival_is_sized_in_full_for_the_page(client, sized_in_full):
    # AMD only: no NVIDIA counterpart is sized, so the page's words read the alternatives
    software = {**get_question("software").example.data, "accelerator_vendor": "amd_only"}
    draft_id = walk_to_review(client, {"software": software})
    estimate = client.get(step_url(draft_id, "review")).context["estimate"]
    assert reads_alternatives(read_result(estimate.result))
    assert sized_in_full == [False, True]
    assert estimate.result["excluded_accelerators"]  # the full sizing is the one shown
    assert estimate.figures.platform == tuple(platform_lines(read_result(estimate.result)))


def without_alternatives(result: dict) -> dict:
    return {**result, "alternatives": [], "excluded_accelerators": []}


def test_text_the_engine_never_reads_shares_a_key_and_an_engine_input_does_not():
    today = date(2027, 3, 1)
    answers = example_answers()
    key = key_of(answers, today)
    assert key_of(with_notes(answers, "a note"), today) == key
    bigger = {**answers, "model": {**answers["model"], "total_params": 7e10}}
    assert bigger["model"] != answers["model"]
    assert key_of(bigger, today) != key
    assert key_of(answers, today, overrides={"model.total_params": 7e10}) != key


def test_the_key_names_the_engine_version_its_files_and_the_day(monkeypatch):
    today = date(2027, 3, 1)
    answers = example_answers()
    key = key_of(answers, today)
    digest = sized_once.engine_files_digest()
    assert key.startswith(f"sizing:{sized_once.ENGINE_VERSION}:{digest}:2027-03-01:")
    assert key_of(answers, today + timedelta(days=1)) != key
    monkeypatch.setattr(sized_once, "ENGINE_VERSION", "next-engine")
    assert key_of(answers, today) != key
    monkeypatch.undo()
    monkeypatch.setattr(sized_once, "engine_files_digest", lambda: "changed-code")
    assert key_of(answers, today) != key


@pytest.mark.django_db
def test_a_new_engine_version_never_serves_the_old_engines_sizing(client, sizings, monkeypatch):
    keys: list[str] = []
    key_for = sized_once.sizing_key
    monkeypatch.setattr(
        sized_once, "sizing_key", lambda *a, **kw: keys.append(key_for(*a, **kw)) or keys[-1]
    )
    draft_id = walk_to_review(client, NOT_SURE_PRECISION)
    client.get(step_url(draft_id, "review"))
    sized = len(sizings)
    # Make the stored sizing say something the engine never says: the page shows it...
    for key in set(keys):
        stored = cache.get(key)
        for item in stored.result["assumptions"]:
            if item["key"] == "training.precision":
                item["value"] = "STALE"
        cache.set(key, stored)
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "STALE" in page and len(sizings) == sized

    # ... until the engine's version changes: then it sizes again and never reads the old entry.
    monkeypatch.setattr(sized_once, "ENGINE_VERSION", "next-engine")
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "STALE" not in page and ASSUMED_PRECISION in page
    assert len(sizings) > sized


def as_stored(value: object) -> object:
    """A result as a JSON column returns it, with every number a float."""
    return json.loads(json.dumps(value), parse_int=float)
