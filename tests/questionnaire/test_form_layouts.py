"""The customer's forms are laid out by django-crispy-forms (issue 31), and a radio question's
choice can be cleared (issue 26)."""

import pytest
from django.urls import reverse

from questionnaire.models import Draft
from questionnaire.questions import DISCOVERY, QUESTIONS
from tests.questionnaire.conftest import post_step, start, step_url

pytestmark = pytest.mark.django_db


def _templates(response) -> set[str]:
    return {template.name for template in response.templates}


@pytest.mark.parametrize("question", [DISCOVERY, *QUESTIONS], ids=lambda q: q.slug)
def test_each_question_form_lays_out_every_field_once(question):
    form = question.form_class(prefix=question.slug)
    laid_out = [pointer.name for pointer in form.helper.layout.get_field_names()]
    assert sorted(laid_out) == sorted(form.fields)
    assert form.helper.form_tag is False  # the wizard's page holds the form and its buttons


def test_a_question_page_is_rendered_by_the_bootstrap_5_pack_through_our_field_templates(client):
    draft_id = start(client)
    response = client.get(step_url(draft_id, "model"))
    used = _templates(response)
    assert "bootstrap5/whole_uni_form.html" in used
    assert {"bootstrap5/answer/radios.html", "bootstrap5/answer/text.html"} <= used
    assert "bootstrap5/answer/checkbox.html" in used  # the question's "not sure" box


@pytest.mark.parametrize(
    "url_name", ["questionnaire:save", "questionnaire:fill_from_file", "questionnaire:resume"]
)
def test_the_pages_around_the_questions_are_rendered_by_crispy(client, url_name):
    draft_id = start(client)
    args = [] if url_name == "questionnaire:resume" else [draft_id]
    response = client.get(reverse(url_name, args=args))
    assert response.status_code == 200
    assert "bootstrap5/whole_uni_form.html" in _templates(response)


def test_the_contact_page_puts_the_privacy_notice_right_before_the_consent(client):
    draft_id = start(client)
    response = client.get(step_url(draft_id, "contact"))
    page = response.content.decode()
    assert "bootstrap5/whole_uni_form.html" in _templates(response)
    notice = page.index('class="privacy-notice"')
    assert page.index('name="contact-country"') < notice < page.index('name="contact-consent"')


def test_an_optional_radio_question_offers_to_clear_its_answer(client):
    draft_id = start(client)
    page = client.get(step_url(draft_id, "model")).content.decode()
    assert (
        '<button type="submit" class="btn btn-link btn-sm clear-answer" name="clear_answer" '
        'value="model-architecture" formnovalidate data-clear-answer>Clear this answer'
    ) in page


def test_clear_this_answer_without_javascript_empties_the_choice_and_keeps_the_rest(client):
    draft_id = start(client)
    post_step(client, draft_id, "model", {"model_name": "Our own 7B", "architecture": "moe"})
    response = post_step(
        client,
        draft_id,
        "model",
        {"model_name": "Our own 7B", "architecture": "moe"},
        clear_answer="model-architecture",
    )
    assert response.status_code == 302
    assert response["Location"] == f"{step_url(draft_id, 'model')}#id_model-architecture_0"
    stored = Draft.objects.get(pk=draft_id).step_data["model"]
    assert "model-architecture" not in stored
    assert stored["model-model_name"] == ["Our own 7B"]
    page = client.get(response["Location"]).content.decode()
    assert 'value="moe" id="id_model-architecture_1" checked' not in page
    assert 'value="moe" id="id_model-architecture_1"' in page
    assert 'value="Our own 7B"' in page


def test_clear_this_answer_ignores_a_field_that_is_no_radio_of_the_page(client):
    draft_id = start(client)
    response = post_step(
        client, draft_id, "model", {"model_name": "Our own 7B"}, clear_answer="model-model_name"
    )
    # not a radio: the page is saved and checked as usual, and goes on to the next question
    assert response.status_code == 302
    assert "#id_model" not in response["Location"]
    assert Draft.objects.get(pk=draft_id).step_data["model"]["model-model_name"] == ["Our own 7B"]


def test_clear_this_answer_keeps_the_way_back_to_the_review_page(client):
    draft_id = start(client)
    response = post_step(
        client,
        draft_id,
        "model",
        {"architecture": "dense"},
        clear_answer="model-architecture",
        return_to="review",
    )
    assert response["Location"] == f"{step_url(draft_id, 'model')}?change=1#id_model-architecture_0"
