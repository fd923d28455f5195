"""The parts of a question page written without a template per part (issue 29): the text boxes
(``questionnaire/widget_html.py``) and the glossary tooltips laid out once per text
(``glossify``) give the same HTML as the templates they stand for."""

import re

import pytest
from django.forms.renderers import DjangoTemplates
from django.template.loader import render_to_string
from django.utils.html import conditional_escape

from questionnaire.forms.steps import ContactForm
from questionnaire.questions import DISCOVERY, QUESTIONS, TERM_MARK
from questionnaire.templatetags.questionnaire_tags import glossary_term, glossify, widget
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
def test_a_glossified_text_is_the_term_template_with_a_fresh_id_each_time(question):
    text = question.why_it_matters
    first, second = glossify(text), glossify(text)
    ids = _tip_ids(first)
    assert len(ids) == len(TERM_MARK.findall(text))
    assert not set(ids) & set(_tip_ids(second))  # a new id on every page
    assert len(set(ids)) == len(ids)
    # the text escaped and each term's tooltip template rendered with its id, as before
    assert first == _rendered_one_by_one(text, ids)
    for tip_id in ids:
        assert first.count(f'"{tip_id}"') == 3  # aria-controls, aria-describedby, id


def _rendered_one_by_one(text: str, ids: list[str]) -> str:
    parts, position = [], 0
    for match, tip_id in zip(TERM_MARK.finditer(text), ids, strict=True):
        parts.append(str(conditional_escape(text[position : match.start()])))
        words, key = match.group(1), (match.group(2) or match.group(1)).strip()
        term = {**glossary_term(key, words), "tip_id": tip_id}
        parts.append(render_to_string("questionnaire/_term.html", term).strip())
        position = match.end()
    parts.append(str(conditional_escape(text[position:])))
    return "".join(parts)


def test_glossify_escapes_the_text_around_the_terms():
    html = glossify("<b>fast</b> [[nodes|node]] & more")
    assert html.startswith('&lt;b&gt;fast&lt;/b&gt; <span class="term">')
    assert html.endswith("</span></span> &amp; more")
