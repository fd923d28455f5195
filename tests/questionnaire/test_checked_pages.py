"""Each page's stored data is checked once and the check reused (questionnaire/checked_pages.py):
by the review page, on every view, and by the send; a question's page leaves the check it just
made of what it stores. A page changed since is checked again, and a bad answer still shows its
error on the review page."""

import pytest
from django.core.cache import cache
from django.utils.datastructures import MultiValueDict

from questionnaire import checked_pages
from questionnaire.models import Draft, Submission
from questionnaire.paths import recommended_answer
from questionnaire.questions import DISCOVERY, PAGES, QUESTIONS, get_question
from tests.questionnaire.conftest import post_step, step_url, walk_to_review

BAD_SIZE = "We did not understand “lots of”."


@pytest.fixture
def checks(monkeypatch) -> list[str]:
    """The slugs of the pages validated from their stored data (not read from the cache)."""
    made: list[str] = []
    check = checked_pages._check

    def counting(question, raw):
        made.append(question.slug)
        return check(question, raw)

    monkeypatch.setattr(checked_pages, "_check", counting)
    return made


def validated(draft: Draft) -> dict[str, dict | None]:
    """Each page's answer as its form gives it from the draft (None when not valid)."""
    answers: dict[str, dict | None] = {}
    for question in PAGES:
        raw = draft.step_data.get(question.slug, {})
        form = question.form_class(data=MultiValueDict(raw), prefix=question.slug)
        answers[question.slug] = form.to_answer() if form.is_valid() else None
    return answers


def send(client, draft_id):
    management = f"questionnaire_{draft_id.hex}-current_step"
    return client.post(step_url(draft_id, "review"), {management: "review"})


@pytest.mark.django_db
def test_the_review_and_the_send_check_no_page_the_wizard_just_checked(client, checks):
    answers = {DISCOVERY.slug: dict(DISCOVERY.example.data, setup_known="yes")}
    draft_id = walk_to_review(client, answers)
    checks.clear()
    page = client.get(step_url(draft_id, "review"))
    assert page.context["ready_to_send"]
    assert send(client, draft_id)["Location"].endswith("/confirmation/")
    assert checks == []
    submission = Submission.objects.get(draft_id=draft_id)
    assert submission.answers == validated(Draft.objects.get(pk=draft_id))


@pytest.mark.django_db
def test_the_review_page_checks_each_page_once_and_its_next_views_none(client, checks):
    draft_id = walk_to_review(client)
    cache.clear()  # as after the check has expired
    checks.clear()
    first = client.get(step_url(draft_id, "review")).content
    assert sorted(checks) == sorted(question.slug for question in PAGES)
    checks.clear()
    assert client.get(step_url(draft_id, "review")).content.count(b"<section") == first.count(
        b"<section"
    )
    assert checks == []


@pytest.mark.django_db
def test_a_page_changed_since_its_check_is_checked_again_and_shows_its_error(client, checks):
    draft_id = walk_to_review(client)
    client.get(step_url(draft_id, "review"))
    draft = Draft.objects.get(pk=draft_id)
    draft.step_data = {**draft.step_data, "model": {"model-total_params": ["lots of"]}}
    draft.save()
    checks.clear()
    for _ in range(2):  # checked once, then its check (an error) read back
        page = client.get(step_url(draft_id, "review"))
        assert BAD_SIZE in page.content.decode()
        assert [row.question.slug for row in page.context["attention"]] == ["model"]
    assert checks == ["model"]
    response = send(client, draft_id)
    assert response["Location"] == step_url(draft_id, "model")
    assert not Submission.objects.filter(draft_id=draft_id).exists()


@pytest.mark.django_db
def test_a_page_posted_as_it_is_not_stored_leaves_no_check(client):
    model = get_question("model")
    form = model.form_class(data=MultiValueDict({"model-model_name": ["Llama"]}), prefix="model")
    assert form.is_valid()
    stored = {"model-model_name": ["Mistral"]}
    checked_pages.remember_valid_page("model", stored, form)
    check = checked_pages.checked_pages({"model": stored}, [model])["model"]
    assert check.answer is not None and check.answer["model_name"] == "Mistral"


@pytest.mark.django_db
def test_an_invalid_post_leaves_no_check_and_the_review_shows_its_error(client, checks):
    draft_id = walk_to_review(client)
    response = post_step(client, draft_id, "model", {"total_params": "lots of"})
    assert response.status_code == 200  # the page again, with its error
    checks.clear()
    page = client.get(step_url(draft_id, "review"))
    assert BAD_SIZE in page.content.decode()
    assert checks == ["model"]


def test_each_look_at_a_recommended_answer_is_a_copy_of_its_own():
    question = QUESTIONS[2]
    assert question.expert
    recommended_answer(question)["not_sure"] = False
    assert recommended_answer(question)["not_sure"] is True
