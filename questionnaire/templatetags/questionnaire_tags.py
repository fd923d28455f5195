"""Template helpers: glossary tooltips and accessible form widgets."""

from __future__ import annotations

import functools
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


# Stands for a tooltip's id in a glossified text laid out once (a private-use character: no
# escaping changes it and no registry text holds it).
_TIP_ID = "\ue000"


@register.simple_tag
def glossify(text: str) -> SafeString:
    """Escape ``text`` and turn each ``[[words|key]]`` mark into a glossary tooltip.

    The registry's texts are few and fixed, so each is escaped and laid out once per process
    (``_glossified``); a page only puts a new id into each tooltip, so two tooltips of the
    same term on one page never share an id.
    """
    parts: list[str] = []
    for escaped, key, term in _glossified(text):
        parts.append(escaped)
        if term:
            parts.append(f"tip-{key}-{uuid.uuid4().hex[:8]}".join(term))
    return mark_safe("".join(parts))  # noqa: S308 - every piece was escaped or is a template


@functools.lru_cache(maxsize=512)
def _glossified(text: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """``text`` as (escaped text, term key, the term's tooltip split where its id goes), the
    last piece without a term."""
    pieces = []
    position = 0
    for match in TERM_MARK.finditer(text):
        words, key = match.group(1), (match.group(2) or match.group(1)).strip()
        term = {**glossary_term(key, words), "tip_id": _TIP_ID}
        tooltip = render_to_string("questionnaire/_term.html", term).strip()
        escaped = str(conditional_escape(text[position : match.start()]))
        pieces.append((escaped, key, tuple(tooltip.split(_TIP_ID))))
        position = match.end()
    pieces.append((str(conditional_escape(text[position:])), "", ()))
    return tuple(pieces)


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
