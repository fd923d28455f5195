"""The base of every question form: "not sure yet", "anything else", and the stored answer."""

from __future__ import annotations

from typing import Any

from django import forms

from questionnaire.fields import NOT_SURE, AnswerFieldMixin, LongTextAnswerField, QuantityField
from questionnaire.layouts import LaidOut, question_layout

# The question-level box, the page's one "not sure" control: the message names the box by its
# label, and the error summary links to it.
# (the welcome page's word: "“Not sure yet” is always fine"; each part has no such choice of its own)
NOT_SURE_QUESTION_LABEL = "Not sure yet"
NOT_ANSWERED_MESSAGE = (
    f"Answer at least one part of this question, or tick “{NOT_SURE_QUESTION_LABEL}”."
)


class QuestionForm(LaidOut, forms.Form):
    """One question page. Subclasses declare the structured fields; these two come last."""

    not_sure = forms.BooleanField(
        required=False,
        label=NOT_SURE_QUESTION_LABEL,
        # the page's one "not sure" (issue 26): it covers every part left empty, so a customer
        # who knows some parts answers those and ticks it for the rest
        help_text="We assume what you leave empty and say so.",
    )
    notes = LongTextAnswerField(
        label="Anything else about this? (optional)",
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        names = self.answer_field_names()
        self.order_fields([*names, "not_sure", "notes"])
        # The parts the page shows unfolded on the short path (the wizard sets them).
        self.key_fields: tuple[str, ...] = ()

    def layout_items(self) -> list:
        return question_layout(self, self.answer_field_names(), self.key_fields)

    @classmethod
    def answer_field_names(cls) -> list[str]:
        """The structured fields, in page order (without ``not_sure`` and ``notes``)."""
        return [name for name in cls.base_fields if name not in ("not_sure", "notes")]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        self._fill_units_from_text(cleaned)
        answered = any(
            self.fields[name].answer_items(name, cleaned[name])
            != self.fields[name].answer_items(name, None)
            for name in self.answer_field_names()
            if name in cleaned
        )
        nothing_given = not (answered or cleaned.get("notes") or cleaned.get("not_sure"))
        # Only when the page has no other error: an invalid field already says what to fix.
        if nothing_given and not self.errors:
            self.add_error("not_sure", NOT_ANSWERED_MESSAGE)
        return cleaned

    def _fill_units_from_text(self, cleaned: dict[str, Any]) -> None:
        """Let "1.2T tokens" answer the unit question below it, and catch contradictions."""
        for name, field in self.fields.items():
            if not isinstance(field, QuantityField) or not field.unit_field:
                continue
            quantity = cleaned.get(name)
            written = getattr(quantity, "unit", None)
            chosen = cleaned.get(field.unit_field)
            if not written:
                if getattr(quantity, "value", None) is not None and chosen in (None, ""):
                    # "2 billion" alone could be tokens or documents: a factor of a thousand
                    labels = [
                        label
                        for value, label in self.fields[field.unit_field].choices
                        if value != NOT_SURE
                    ]
                    self.add_error(
                        field.unit_field,
                        f"Choose what “{quantity.text}” counts ({_either(labels)}), or write "
                        f"it with its unit, for example “{quantity.text} "
                        f"{labels[0].split(' (')[0].lower()}”.",
                    )
                continue
            if chosen in (None, "", "not_sure"):
                cleaned[field.unit_field] = written
            elif chosen != written:
                labels = dict(self.fields[field.unit_field].choices)
                self.add_error(
                    name,
                    f"You wrote {written} here but chose “{labels.get(chosen, chosen)}” below. "
                    "Change one of them so they match.",
                )

    def to_answer(self) -> dict[str, Any]:
        """The stored answer: JSON-native values keyed by field name (see questions.py)."""
        answer: dict[str, Any] = {}
        for name in self.answer_field_names():
            field = self.fields[name]
            assert isinstance(field, AnswerFieldMixin)
            answer.update(field.answer_items(name, self.cleaned_data.get(name)))
        answer["not_sure"] = bool(self.cleaned_data.get("not_sure"))
        answer["notes"] = self.cleaned_data.get("notes") or ""
        return answer


def _either(labels: list[str]) -> str:
    """``a, b or c``, each label without its bracketed examples and in lower case."""
    short = [label.split(" (")[0].lower() for label in labels]
    return ", ".join(short[:-1]) + " or " + short[-1] if len(short) > 1 else "".join(short)
