"""The customer's forms are laid out by django-crispy-forms (issue 31), and a radio question's
choice can be cleared (issue 26)."""

import re

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils.datastructures import MultiValueDict

from questionnaire.forms.steps import ContactForm
from questionnaire.layouts import (
    LAID_OUT_BLANK_FORMS,
    LAID_OUT_BLANK_FORMS_KEPT,
    PREFILLED,
    laid_out_fields,
)
from questionnaire.models import Draft
from questionnaire.paths import KEY_FIELDS
from questionnaire.questions import DISCOVERY, QUESTIONS, get_question
from tests.questionnaire.conftest import post_step, start, step_url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_form_laid_out_yet():
    """Each test starts as a new server process does: no blank form laid out yet."""
    LAID_OUT_BLANK_FORMS.clear()


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


# --- a form that holds no answer yet is laid out once per process (issue 29) ---------------------

CRISPY = Template("{% load crispy_forms_tags %}{% crispy form %}")


def _crispy(form, prefilled=None) -> str:
    """The form as ``{% crispy form %}`` lays it out on a page with these marks."""
    return CRISPY.render(Context({"form": form, PREFILLED: prefilled}))


def _blank(slug: str, key_fields: tuple[str, ...] = ()):
    form_class = ContactForm if slug == "contact" else get_question(slug).form_class
    form = form_class(prefix=slug)
    form.key_fields = key_fields
    return form


BLANK_PAGES = [
    *[(question.slug, ()) for question in [DISCOVERY, *QUESTIONS]],
    *[(slug, fields) for slug, fields in KEY_FIELDS.items()],  # the short path's pages
    ("contact", ()),
]


@pytest.mark.parametrize(("slug", "key_fields"), BLANK_PAGES, ids=lambda v: str(v))
def test_a_blank_form_is_laid_out_once_as_crispy_lays_it_out(slug, key_fields):
    first = laid_out_fields(_blank(slug, key_fields), None)
    again = laid_out_fields(_blank(slug, key_fields), None)
    assert again is first  # laid out once
    assert first == _crispy(_blank(slug, key_fields))
    assert "csrfmiddlewaretoken" not in first


def test_the_short_and_the_detailed_path_each_have_their_own_layout():
    detailed = laid_out_fields(_blank("model"), None)
    short = laid_out_fields(_blank("model", KEY_FIELDS["model"]), None)
    assert "More detail" in short and "More detail" not in detailed
    assert laid_out_fields(_blank("model"), None) == detailed == _crispy(_blank("model"))


def test_a_hint_the_wizard_words_for_this_customer_is_shown_to_them_only():
    plain = laid_out_fields(_blank("roadmap"), None)
    hinted = _blank("roadmap")
    hinted.fields["future_runs_per_month"].help_text = "Leave empty if still 4, as on question 5."
    html = laid_out_fields(hinted, None)
    assert "Leave empty if still 4" in html and "Leave empty if still 4" not in plain
    assert html == _crispy(hinted)
    assert laid_out_fields(_blank("roadmap"), None) == plain


def test_a_form_whose_choices_were_changed_is_laid_out_each_time():
    narrowed = _blank("model")
    narrowed.fields["architecture"].choices = [("dense", "Dense only")]
    html = laid_out_fields(narrowed, None)
    assert "Dense only" in html and html == _crispy(narrowed)
    assert not LAID_OUT_BLANK_FORMS
    assert "Dense only" not in laid_out_fields(_blank("model"), None)


def test_marks_of_filled_answers_are_part_of_the_layout():
    marks = {"notes": "From your words"}
    marked = laid_out_fields(_blank("model"), marks)
    assert "From your words" in marked and marked == _crispy(_blank("model"), marks)
    assert "From your words" not in laid_out_fields(_blank("model"), None)


def test_a_form_holding_answers_or_errors_is_laid_out_each_time():
    question = get_question("model")
    data = {"model-model_name": "Zebrafish <b>3</b>", "model-total_params": "many"}
    answered = question.form_class(data=data, prefix="model")
    html = laid_out_fields(answered, None)
    assert 'value="Zebrafish &lt;b&gt;3&lt;/b&gt;"' in html and answered.errors["total_params"]
    assert html == _crispy(question.form_class(data=data, prefix="model"))
    assert not LAID_OUT_BLANK_FORMS
    assert "Zebrafish" not in laid_out_fields(_blank("model"), None)


def test_a_page_bound_to_no_data_is_blank_too():
    # the discovery page before its first save: bound to nothing, so that it reads as answered
    def unsaved():
        return DISCOVERY.form_class(data=MultiValueDict(), prefix=DISCOVERY.slug)

    first = laid_out_fields(unsaved(), None)
    assert laid_out_fields(unsaved(), None) is first
    assert first == _crispy(unsaved())


def test_the_blank_layouts_kept_are_bounded():
    for runs in range(LAID_OUT_BLANK_FORMS_KEPT + 5):
        form = _blank("roadmap")
        form.fields["future_runs_per_month"].help_text = f"Leave empty if still {runs}."
        assert f"Leave empty if still {runs}." in laid_out_fields(form, None)
        assert len(LAID_OUT_BLANK_FORMS) <= LAID_OUT_BLANK_FORMS_KEPT


def _fields_part(page: str) -> str:
    return page[
        page.index('<button type="submit" hidden') : page.index('<div class="wizard-buttons">')
    ]


def test_two_customers_first_visits_share_the_fields_not_the_form_around_them():
    first, second = Client(), Client()
    pages = []
    for customer in (first, second):
        draft_id = start(customer)
        pages.append((draft_id, customer.get(step_url(draft_id, "batch"))))
    (first_id, first_page), (second_id, second_page) = pages
    assert "bootstrap5/whole_uni_form.html" in _templates(first_page)
    assert "bootstrap5/whole_uni_form.html" not in _templates(second_page)  # laid out once
    first_html, second_html = first_page.content.decode(), second_page.content.decode()
    assert _fields_part(first_html) == _fields_part(second_html)
    # each page's own token, and the management form of its own questionnaire
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    assert token.search(first_html)[1] != token.search(second_html)[1]
    assert f'name="questionnaire_{first_id.hex}-current_step" value="batch"' in first_html
    assert f'name="questionnaire_{second_id.hex}-current_step" value="batch"' in second_html
