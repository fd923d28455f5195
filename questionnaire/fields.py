"""Form fields that know how to store and show one part of an answer.

Each field turns its cleaned value into JSON-native answer items (``answer_items``) and turns a
stored answer back into text for people (``answer_text``), so the review page, the admin, the
PDF and the CSV export all show an answer the same way. ``render_as`` picks the field template
in ``templates/questionnaire/fields/``. Every field is optional: "not sure yet" is always valid.
"""

from __future__ import annotations

import datetime
from typing import Any

from django import forms

from questionnaire.quantities import Kind, Quantity, QuantityError, describe, parse_quantity
from questionnaire.roles import Role

NOT_SURE = "not_sure"
NOT_SURE_LABEL = "Not sure yet"
YES_NO = (("yes", "Yes"), ("no", "No"))


class AnswerFieldMixin:
    render_as = "text"
    width = "long"
    does: Role | None = None  # what the answer does (questionnaire/roles.py)

    def __init__(self, *args: Any, does: Role | None = None, **kwargs: Any):
        self.does = does
        super().__init__(*args, **kwargs)

    def answer_items(self, name: str, value: Any) -> dict[str, Any]:
        return {name: value if value is not None else ""}

    def answer_text(self, name: str, answer: dict[str, Any]) -> tuple[str, bool] | None:
        """(text, not_sure) for this field of a stored answer, or None when left empty."""
        value = answer.get(name)
        if value in (None, "", []):
            return None
        return str(value), False


class TextAnswerField(AnswerFieldMixin, forms.CharField):
    """Free text. ``suggestions`` become a ``<datalist>`` (for example model names)."""

    def __init__(
        self,
        *,
        suggestions: tuple[str, ...] = (),
        width: str = "long",
        reads: str = "",
        **kwargs: Any,
    ):
        kwargs.setdefault("max_length", 500)
        super().__init__(required=False, **kwargs)
        self.suggestions = suggestions
        self.width = width
        # what the text is read as ("accelerators and a count"): words that cannot be read so
        # are refused with a message saying what to write, never kept as if understood
        self.reads = reads

    def answer_items(self, name: str, value: Any) -> dict[str, Any]:
        return {name: value or ""}


class LongTextAnswerField(TextAnswerField):
    render_as = "textarea"

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("max_length", 2000)
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        super().__init__(**kwargs)


class QuantityField(AnswerFieldMixin, forms.CharField):
    """A number as people write it (``70B``, ``2 TB``, ``3 days``).

    Stored as two items: ``<name>`` is the value in the kind's base unit (or ``None`` when empty
    or "not sure"), ``<name>_text`` is exactly what was typed. ``unit_field`` names a sibling
    radio field that the text can fill in (``1.2T tokens`` answers "tokens").
    """

    def __init__(
        self,
        *,
        kind: Kind,
        what: str,
        default_unit: str = "",
        allow_zero: bool = False,
        maximum: float | None = None,
        whole: bool = False,
        unit_field: str | None = None,
        width: str = "medium",
        minimum: float | None = None,
        **kwargs: Any,
    ):
        kwargs.setdefault("max_length", 60)
        super().__init__(required=False, **kwargs)
        self.kind, self.what, self.default_unit = kind, what, default_unit
        self.allow_zero, self.maximum, self.whole = allow_zero, maximum, whole
        self.minimum = minimum
        self.unit_field = unit_field
        self.width = width

    def clean(self, value: Any) -> Quantity:
        text = super().clean(value)
        try:
            return parse_quantity(
                text,
                self.kind,
                default_unit=self.default_unit,
                what=self.what,
                allow_zero=self.allow_zero,
                maximum=self.maximum,
                whole=self.whole,
                minimum=self.minimum,
            )
        except QuantityError as error:
            raise forms.ValidationError(str(error), code="quantity") from error

    def answer_items(self, name: str, value: Any) -> dict[str, Any]:
        quantity = value if isinstance(value, Quantity) else Quantity("", None)
        return {name: quantity.value, f"{name}_text": quantity.text}

    def answer_text(self, name: str, answer: dict[str, Any]) -> tuple[str, bool] | None:
        text = str(answer.get(f"{name}_text") or "").strip()
        value = answer.get(name)
        if not text:
            return None
        if value is None:
            return text, True
        understood = describe(float(value), self.kind)
        if self.unit_field:  # the unit is another part's answer: "2 TB" is 2,000 GB
            unit = str(answer.get(self.unit_field) or "")
            understood += f" {_UNIT_WORDS.get(unit, unit)}".rstrip()
        # Only say how we read it when that changes the digits ("4k" is 4,096; "90 min" is
        # 1.5 hours); "8B" or "2 TB" need no echo. A bare number takes the unit we read it in
        # ("25" is 25 %).
        if _digits(understood) == _digits(text):
            bare = not any(c.isalpha() or c == "%" for c in text)
            return (understood if bare else text), False
        return f"{text} (read as {understood})", False


class ChoicesCopiedAsPairsMixin:
    """Each form copies its fields from its class's; Django's ChoiceField deep-copies its
    choices for that, pair by pair, on every page (issue 29: a third of copying a question's
    fields). A form gets its own list of the same (value, label) pairs here: the pairs are
    tuples of strings, which nothing changes, and the list can be changed or replaced."""

    _choices: list[Any]

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        copied = forms.Field.__deepcopy__(self, memo)  # type: ignore[arg-type]
        copied._choices = list(self._choices)
        return copied


class RadioAnswerField(AnswerFieldMixin, ChoicesCopiedAsPairsMixin, forms.ChoiceField):
    """One choice from a list, with "Not sure yet" as its own last option."""

    render_as = "radios"

    def __init__(self, *, choices: tuple[tuple[str, str], ...], not_sure: bool = True, **kwargs):
        all_choices = list(choices) + ([(NOT_SURE, NOT_SURE_LABEL)] if not_sure else [])
        super().__init__(required=False, choices=all_choices, widget=forms.RadioSelect, **kwargs)
        self.has_not_sure = not_sure

    def answer_text(self, name: str, answer: dict[str, Any]) -> tuple[str, bool] | None:
        value = answer.get(name)
        if not value:
            return None
        labels = dict(self.choices)
        return str(labels.get(value, value)), value == NOT_SURE


class YesNoField(RadioAnswerField):
    def __init__(self, **kwargs: Any):
        super().__init__(choices=YES_NO, **kwargs)


class CheckboxesAnswerField(AnswerFieldMixin, ChoicesCopiedAsPairsMixin, forms.MultipleChoiceField):
    """Any number of choices, or "Not sure yet" alone; stored as a list of values in the order
    of the choices (``["not_sure"]`` when not sure)."""

    render_as = "checkboxes"

    def __init__(
        self, *, choices: tuple[tuple[str, str], ...], not_sure: bool = True, **kwargs: Any
    ):
        all_choices = list(choices) + ([(NOT_SURE, NOT_SURE_LABEL)] if not_sure else [])
        super().__init__(
            required=False, choices=all_choices, widget=forms.CheckboxSelectMultiple, **kwargs
        )

    def clean(self, value: Any) -> list[str]:
        chosen = set(super().clean(value))
        if NOT_SURE in chosen and len(chosen) > 1:
            raise forms.ValidationError(
                f"“{NOT_SURE_LABEL}” cannot go with other choices: untick it, or untick the others."
            )
        return [key for key, _ in self.choices if key in chosen]

    def answer_items(self, name: str, value: Any) -> dict[str, Any]:
        return {name: list(value or [])}

    def answer_text(self, name: str, answer: dict[str, Any]) -> tuple[str, bool] | None:
        values = answer.get(name) or []
        if not values:
            return None
        if values == [NOT_SURE]:
            return NOT_SURE_LABEL, True
        labels = dict(self.choices)
        return ", ".join(str(labels.get(value, value)) for value in values), False


class DateAnswerField(AnswerFieldMixin, forms.DateField):
    """A calendar date, stored as ``YYYY-MM-DD``."""

    render_as = "text"
    width = "short"

    def __init__(self, *, future_only: bool = False, **kwargs: Any):
        super().__init__(
            required=False,
            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            input_formats=["%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%d %B %Y", "%d %b %Y"],
            **kwargs,
        )
        self.future_only = future_only

    def clean(self, value: Any) -> Any:
        date = super().clean(value)
        if self.future_only and isinstance(date, datetime.date) and date < datetime.date.today():
            raise forms.ValidationError(
                f"{date:%d %B %Y} has already passed. Give a date from today on, or leave it "
                "empty if you are not sure yet."
            )
        return date

    def answer_items(self, name: str, value: Any) -> dict[str, Any]:
        return {name: value.isoformat() if isinstance(value, datetime.date) else ""}

    def answer_text(self, name: str, answer: dict[str, Any]) -> tuple[str, bool] | None:
        value = answer.get(name)
        if not value:
            return None
        return datetime.date.fromisoformat(value).strftime("%-d %B %Y"), False


# A unit part's stored choice as a unit after a number ("2,000 GB", "400,000 samples").
_UNIT_WORDS = {"gb": "GB"}


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit() or ch == ".").strip(".")
