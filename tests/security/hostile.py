"""The hostile values, by kind, and what each kind of form field must do with them."""

from __future__ import annotations

import math
from typing import Any

from django import forms

from questionnaire.fields import (
    CheckboxesAnswerField,
    DateAnswerField,
    QuantityField,
    RadioAnswerField,
)
from questionnaire.forms.steps import ContactForm
from questionnaire.questions import QUESTIONS
from tests.security.conftest import as_received

GARBAGE_NUMBERS = {
    "minus-one": "-1",
    "zero": "0",
    "minus-zero": "-0",
    "1e400": "1e400",
    "1e-400": "1e-400",
    "nan": "NaN",
    "inf": "inf",
    "minus-inf": "-Infinity",
    "arabic-indic-three": "٣",
    "fullwidth-twelve": "１２",
    "vulgar-half": "½",
    "list": "1,2,3",
    "double-suffix": "70BB",
    "hex": "0x1F",
    "59-digits": "9" * 59,
    "5000-digits": "9" * 5000,
}
CONTROL_CHARACTERS = {
    "nul": "\x00",
    "nul-inside": "7\x00B",
    "ansi-escape": "\x1b[31mred\x1b[0m",
    "rtl-override": "\u202eexe.gnp",
    "lone-surrogate": "\ud800x\udfff",
    "crlf": "first\r\nsecond",
    "bom-zero-width": "\ufeff\u200b",
    "del-backspace": "\x7f\x08",
    "astral-emoji": "𝟘🙂",
}
MARKUP = {
    "script": "<script>alert(1)</script>",
    "img-onerror": "<img src=x onerror=alert(1)>",
    "attribute-breakout": '"><svg onload=alert(1)>',
    "template-variable": "{{ 7*7 }}",
    "template-tag": "{% debug %}",
    "glossary-mark": "[[moe]] [[x|<b>y</b>]]",
    "sql": "'; DROP TABLE questionnaire_submission; --",
    "csv-formula": '=HYPERLINK("http://x")',
}
HOSTILE: dict[str, str] = {**GARBAGE_NUMBERS, **CONTROL_CHARACTERS, **MARKUP}
# Markup that must never reach a page unescaped.
# The payloads as they would read unescaped ('"><svg onload', not '"><svg': the estimate's own
# charts are inline SVG after a class attribute).
DANGEROUS_MARKUP = ("<script>alert(1)</script>", "<img src=x onerror", '"><svg onload', "<b>y</b>")

# (step, form class) for every page with fields: the fifteen questions and the contact page.
FIELD_STEPS: list[tuple[str, type[forms.Form]]] = [
    *((question.slug, question.form_class) for question in QUESTIONS),
    ("contact", ContactForm),
]


def field_must_refuse(field: forms.Field, value: str) -> bool | None:
    """Whether this field must refuse ``value``; None when either outcome is fine.

    Set out independently of the forms' code: choices, dates and e-mail addresses never match
    garbage; text is refused only when too long or holding a NUL; a tick box takes anything.
    """
    received = as_received(value)
    if isinstance(field, RadioAnswerField | CheckboxesAnswerField | DateAnswerField):
        return True
    if isinstance(field, forms.EmailField):
        return True
    if isinstance(field, forms.BooleanField):
        return False
    if isinstance(field, QuantityField):
        return None  # either a clear error or a sane number: see quantity_is_sane
    if isinstance(field, forms.CharField) and getattr(field, "reads", ""):
        return None  # read as something (owned accelerators): garbage gets a clear message
    if isinstance(field, forms.CharField):
        text = received.strip()
        too_long = field.max_length is not None and len(text) > field.max_length
        return too_long or "\x00" in text or (field.required and not text)
    raise AssertionError(f"no expectation for {type(field).__name__}")


def quantity_is_sane(field: QuantityField, stored: Any) -> bool:
    """An accepted number is finite, not negative, within the field's maximum and whole if
    the field wants whole numbers."""
    if stored is None:
        return True
    value = float(stored)
    if not math.isfinite(value) or value < 0 or value > (field.maximum or math.inf):
        return False
    if value == 0 and not field.allow_zero:
        return False
    return not field.whole or value == int(value)


def form_data_with(form_class: type[forms.Form], value: str) -> dict[str, Any]:
    """Every field of the form set to ``value`` (a list for multi-choice fields)."""
    return {
        name: [value] if isinstance(field, forms.MultipleChoiceField) else value
        for name, field in form_class.base_fields.items()
    }
