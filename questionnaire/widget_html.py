"""The customer's text boxes written in Python: the same HTML as Django's widget templates.

A question page shows up to a dozen text, number and long-text boxes. Django renders each
through its widget templates (``django/forms/widgets/text.html`` includes ``input.html``, which
includes ``attrs.html``): three template renders per box, about half of the CPU of the page's
fields (issue 29, docs/load-results.md). ``WidgetRenderer`` writes those few templates'
output directly, escaped exactly as the templates escape it, and leaves every other template
(lists, choices, error lists) to Django's own renderer. ``tests/questionnaire/test_widget_html.py``
renders every field of every form both ways and compares them.
"""

from __future__ import annotations

from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeData, mark_safe

# Django's widget templates that are only ``{% include "django/forms/widgets/input.html" %}``.
INPUT_TEMPLATES = frozenset(
    f"django/forms/widgets/{kind}.html"
    for kind in ("text", "number", "email", "url", "date", "search", "tel", "hidden")
)
TEXTAREA_TEMPLATE = "django/forms/widgets/textarea.html"


def _value(value: Any) -> str:
    """``{{ value|stringformat:'s' }}`` with autoescaping: kept as it is only if already safe."""
    return str(value) if isinstance(value, SafeData) else escape(str(value))


def _attrs(attrs: dict[str, Any]) -> str:
    """``django/forms/widgets/attrs.html``: ``True`` as a bare name, ``False`` left out."""
    parts = []
    for name, value in attrs.items():
        if value is False:
            continue
        parts.append(f" {conditional_escape(name)}")
        if value is not True:
            parts.append(f'="{_value(value)}"')
    return "".join(parts)


def input_html(widget: dict[str, Any]) -> str:
    """``django/forms/widgets/input.html`` for the widget context ``widget``."""
    value = "" if widget["value"] is None else f' value="{_value(widget["value"])}"'
    return (
        f'<input type="{conditional_escape(widget["type"])}" '
        f'name="{conditional_escape(widget["name"])}"{value}{_attrs(widget["attrs"])}>'
    )


def textarea_html(widget: dict[str, Any]) -> str:
    """``django/forms/widgets/textarea.html`` for the widget context ``widget``."""
    value = conditional_escape(widget["value"]) if widget["value"] else ""
    return (
        f'<textarea name="{conditional_escape(widget["name"])}"{_attrs(widget["attrs"])}>\n'
        f"{value}</textarea>"
    )


class WidgetRenderer(DjangoTemplates):
    """Django's default form renderer, with the text boxes written in Python.

    The renderer strips what a template renders; these functions write no outer whitespace.
    """

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if template_name in INPUT_TEMPLATES:
            return mark_safe(input_html(context["widget"]))  # noqa: S308 - escaped above
        if template_name == TEXTAREA_TEMPLATE:
            return mark_safe(textarea_html(context["widget"]))  # noqa: S308 - escaped above
        return super().render(template_name, context, request=request)


WIDGET_RENDERER = WidgetRenderer()
