"""Template helpers: glossary tooltips and accessible form widgets."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

from django import template
from django.forms import BaseForm, BoundField, Select
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from questionnaire.glossary import GLOSSARY
from questionnaire.layouts import PREFILLED, laid_out_fields
from questionnaire.questions import TERM_MARK, Question, get_question

register = template.Library()


@register.inclusion_tag("questionnaire/_term.html")
def glossary_term(key: str, words: str, tip_id: str) -> dict[str, object]:
    """One glossary term as a tooltip: hover, focus or tap shows it; a link works without JS."""
    term = GLOSSARY[key]
    return {"term": term, "words": words or term.name, "tip_id": tip_id}


@register.simple_tag
def question_intro(question: Question) -> SafeString:
    """A question page's heading and its "More about this", with their glossary tooltips.

    They are the registry's words, the same for every customer, so each question's is laid out
    once per process (issue 29). Their tooltips' ids are numbered in page order, not drawn at
    random for each page as they were: the same on every page, and still unique on it."""
    return _question_intro(question.slug)


@functools.cache
def _question_intro(slug: str) -> SafeString:
    question = get_question(slug)
    # The tooltips are numbered in page order: the intro holds every tooltip of the page, so
    # each id is unique on it, and the same on every page of this question.
    tip_numbers = itertools.count(1)
    return render_to_string(
        "questionnaire/_question_intro.html",
        {
            "question": question,
            "text": glossify(question.text, tip_numbers),
            "why_it_matters": glossify(question.why_it_matters, tip_numbers),
            "in_simple_terms": glossify(question.in_simple_terms, tip_numbers),
            "terms_on_page": [GLOSSARY[key] for key in question.glossary_terms],
        },
    )


def glossify(text: str, tip_numbers: Iterator[int]) -> SafeString:
    """Escape ``text`` and turn each ``[[words|key]]`` mark into a glossary tooltip, whose id
    takes the next of ``tip_numbers`` (the page's count of its tooltips)."""
    parts: list[str] = []
    position = 0
    for match in TERM_MARK.finditer(text):
        words, key = match.group(1), (match.group(2) or match.group(1)).strip()
        term = glossary_term(key, words, tip_id=f"tip-{key}-{next(tip_numbers)}")
        parts.append(str(conditional_escape(text[position : match.start()])))
        parts.append(render_to_string("questionnaire/_term.html", term).strip())
        position = match.end()
    parts.append(str(conditional_escape(text[position:])))
    return mark_safe("".join(parts))  # noqa: S308 - the text escaped, the tooltips a template


@register.simple_tag(name="laid_out_fields", takes_context=True)
def laid_out_fields_tag(context: template.Context, form: BaseForm) -> SafeString:
    """The form's fields as ``{% crispy form %}`` lays them out, with the page's marks of the
    answers filled from a file or sentence; a form that holds no answer yet is laid out once
    per process (``layouts.laid_out_fields``)."""
    return laid_out_fields(form, context.get(PREFILLED))


def _ids(field: BoundField) -> list[str]:
    ids = []
    if field.help_text:
        ids.append(f"{field.auto_id}-hint")
    if field.errors:
        ids.append(f"{field.auto_id}-error")
    return ids


@register.filter
def describedby(field: BoundField) -> str:
    """Ids of the hint and error of a field, for ``aria-describedby``."""
    return " ".join(_ids(field))


@register.filter
def widget(field: BoundField) -> SafeString:
    """The field's input with its hint and error linked, and marked invalid when it is."""
    attrs: dict[str, str] = {}
    ids = _ids(field)
    if ids:
        attrs["aria-describedby"] = " ".join(ids)
    if field.errors:
        attrs["aria-invalid"] = "true"
    # Bootstrap draws a list's arrow only on ``form-select``
    css = ["form-select" if isinstance(field.field.widget, Select) else "form-control"]
    width = getattr(field.field, "width", "long")
    css.append(f"input-{width}")
    if field.errors:
        css.append("is-invalid")
    attrs["class"] = " ".join(css)
    suggestions = getattr(field.field, "suggestions", ())
    if suggestions:
        attrs["list"] = f"{field.auto_id}-suggestions"
        attrs["autocomplete"] = "off"
    return field.as_widget(attrs=attrs)


@register.filter
def first_input_id(field: BoundField) -> str:
    """Where an error summary link should land: the field, or the first option of a group."""
    if getattr(field.field, "render_as", "") in ("radios", "checkboxes"):
        return f"{field.auto_id}_0"
    return field.auto_id
