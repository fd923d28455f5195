"""Template helpers: glossary tooltips and accessible form widgets."""

from __future__ import annotations

import uuid

from django import template
from django.forms import BoundField, Select
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from questionnaire.glossary import GLOSSARY
from questionnaire.questions import TERM_MARK

register = template.Library()


@register.inclusion_tag("questionnaire/_term.html")
def glossary_term(key: str, words: str = "") -> dict[str, object]:
    """One glossary term as a tooltip: hover, focus or tap shows it; a link works without JS."""
    term = GLOSSARY[key]
    return {
        "term": term,
        "words": words or term.name,
        "tip_id": f"tip-{key}-{uuid.uuid4().hex[:8]}",
    }


@register.simple_tag
def glossify(text: str) -> SafeString:
    """Escape ``text`` and turn each ``[[words|key]]`` mark into a glossary tooltip."""
    parts: list[str] = []
    position = 0
    for match in TERM_MARK.finditer(text):
        parts.append(str(conditional_escape(text[position : match.start()])))
        words, key = match.group(1), (match.group(2) or match.group(1)).strip()
        parts.append(
            render_to_string("questionnaire/_term.html", glossary_term(key, words)).strip()
        )
        position = match.end()
    parts.append(str(conditional_escape(text[position:])))
    return mark_safe("".join(parts))  # noqa: S308 - every piece was escaped or is a template


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
