"""The parts of a question page written without a template per part (issue 29): the text boxes
(``questionnaire/widget_html.py``) and the glossary tooltips (``glossify``) give the same HTML
as the templates they stand for; a question's intro is laid out once per process, its tooltips
numbered in page order."""

import itertools
import re

import pytest
from django.forms.renderers import DjangoTemplates
from django.template.loader import render_to_string
from django.utils.html import conditional_escape

from questionnaire.forms.steps import ContactForm
from questionnaire.glossary import GLOSSARY
from questionnaire.questions import DISCOVERY, QUESTIONS, TERM_MARK
from questionnaire.templatetags.questionnaire_tags import (
    glossary_term,
    glossify,
    question_intro,
    widget,
)
from questionnaire.views import ResumeLinkForm
from questionnaire.widget_html import WidgetRenderer

FORMS = [(q.slug, q.form_class) for q in [DISCOVERY, *QUESTIONS]] + [
    ("contact", ContactForm),
    ("resume", ResumeLinkForm),
]
MARKUP = "<b>\"bold\"</b> & 'quoted' 12"


def _bound(form_class, prefix: str, renderer, data: dict | None):
    if data is None:
        return form_class(prefix=prefix, renderer=renderer)
    posted = {f"{prefix}-{name}": value for name, value in data.items()}
    form = form_class(data=posted, prefix=prefix, renderer=renderer)
    form.is_valid()  # the errors, as a page shown again after a POST has them
    return form


def _data(form_class, example: dict | None) -> dict:
    """Every field given ``MARKUP``, then the example's own values over it."""
    return {name: MARKUP for name in form_class.base_fields} | (example or {})


@pytest.mark.parametrize(("prefix", "form_class"), FORMS, ids=[name for name, _ in FORMS])
@pytest.mark.parametrize("state", ["empty", "markup", "example"])
def test_every_field_renders_as_djangos_templates_render_it(prefix, form_class, state):
    question = next((q for q in [DISCOVERY, *QUESTIONS] if q.slug == prefix), None)
    example = question.example.data if question and question.example else {}
    data = {"empty": None, "markup": _data(form_class, None), "example": example}[state]
    ours = _bound(form_class, prefix, WidgetRenderer(), data)
    djangos = _bound(form_class, prefix, DjangoTemplates(), data)
    assert ours.renderer.__class__ is WidgetRenderer
    for name in form_class.base_fields:
        # as the field templates show it (hint and error linked), and as Django's own str()
        assert widget(ours[name]) == widget(djangos[name]), name
        assert str(ours[name]) == str(djangos[name]), name


def test_a_question_form_uses_the_widget_renderer():
    assert isinstance(QUESTIONS[0].form_class().renderer, WidgetRenderer)


def _tip_ids(html: str) -> list[str]:
    return re.findall(r'id="(tip-[a-z0-9-]+)"', html)


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.slug)
def test_a_question_intro_numbers_its_tooltips_in_page_order(question):
    html = question_intro(question)
    texts = (question.text, question.why_it_matters, question.in_simple_terms)
    marks = [match for text in texts for match in TERM_MARK.finditer(text)]
    ids = _tip_ids(html)
    # one tooltip per mark, numbered 1, 2, ... down the page: unique on the page, and the same
    # on every customer's page, so the intro is laid out once
    assert ids == [
        f"tip-{(mark.group(2) or mark.group(1)).strip()}-{number}"
        for number, mark in enumerate(marks, start=1)
    ]
    for tip_id in ids:
        assert html.count(f'"{tip_id}"') == 3  # aria-controls, aria-describedby, id
    # each text escaped and each term's tooltip template rendered with its id, as before
    numbers = iter(ids)
    for text in texts:
        assert _rendered_one_by_one(text, [next(numbers) for _ in TERM_MARK.finditer(text)]) in html
    assert html.startswith(f'<span class="question-caption">{question.title}</span>')
    for term in question.glossary_terms:
        assert f"<dt>{GLOSSARY[term].name}</dt>" in html


def test_a_question_intro_is_laid_out_once():
    question = QUESTIONS[0]
    first = question_intro(question)
    assert question_intro(question) is first


def _rendered_one_by_one(text: str, ids: list[str]) -> str:
    parts, position = [], 0
    for match, tip_id in zip(TERM_MARK.finditer(text), ids, strict=True):
        parts.append(str(conditional_escape(text[position : match.start()])))
        words, key = match.group(1), (match.group(2) or match.group(1)).strip()
        term = glossary_term(key, words, tip_id)
        parts.append(render_to_string("questionnaire/_term.html", term).strip())
        position = match.end()
    parts.append(str(conditional_escape(text[position:])))
    return "".join(parts)


def test_glossify_escapes_the_text_around_the_terms():
    html = glossify("<b>fast</b> [[nodes|node]] & more", itertools.count(7))
    assert html.startswith('&lt;b&gt;fast&lt;/b&gt; <span class="term">')
    assert 'id="tip-node-7"' in html
    assert html.endswith("</span></span> &amp; more")
