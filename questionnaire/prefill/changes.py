"""What filling from a file would change: checked by the questions' own forms, merged with the
customer's answers, and shown in the words of the review page.

A value the question's form refuses (a micro-batch of 0, a sequence length of 10 billion) is
refused here with the form's own message and left out. A value that makes the customer's other
answers to that question contradictory is refused too, so "Use these answers" never turns a
question that was fine into one that needs fixing. The merge keeps everything else the customer
typed; checkboxes gain the file's choices, notes gain the file's line, and a question answered
"not sure yet" as a whole stops being unsure when the file answers it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.datastructures import MultiValueDict

from questionnaire.fields import NOT_SURE, AnswerFieldMixin, CheckboxesAnswerField
from questionnaire.forms.base import QuestionForm
from questionnaire.models import Draft
from questionnaire.paths import question_numbers
from questionnaire.prefill.found import FoundValue
from questionnaire.questions import PAGES, Question, get_question, plain
from sizing.public import (
    find_model,
    format_count,
)

StepData = dict[str, list[str]]
NOTES, UNSURE = "notes", "not_sure"
YES, NO = "Yes", "No"


@dataclass(frozen=True)
class Change:
    """One answer the file fills: its label, the answer before (empty if none) and after."""

    label: str
    before: str
    after: str
    source: str
    merges: bool = False  # checkboxes and notes: the file adds to the answer, never replaces it
    field: str = ""  # the form field it fills; none for "not sure" given up as a consequence

    @property
    def adds(self) -> bool:
        return self.merges and bool(self.before) and not self.same

    @property
    def same(self) -> bool:
        return self.before == self.after

    @property
    def from_setting(self) -> bool:
        """True when ``source`` names a setting of the file, False when it is a sentence."""
        return not self.source[:1].isupper()


@dataclass(frozen=True)
class QuestionChanges:
    number: int | None  # as numbered on the customer's path; none for a skipped question
    title: str
    slug: str
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class RefusedValue:
    """A value from the file that the question's form does not accept, and why."""

    question: str
    label: str
    value: str
    message: str


@dataclass(frozen=True)
class PrefillChanges:
    """What "Use these answers" would change in a draft: the answers by question, the values
    the questions refuse, and each step's posted data after the merge. (Not the PDF proposal,
    ``pipeline.models.Proposal``: nothing here is sent to anyone.)"""

    questions: tuple[QuestionChanges, ...]
    refused: tuple[RefusedValue, ...]
    step_data: dict[str, StepData] = field(repr=False)
    warnings: tuple[str, ...] = ()

    @property
    def changes_anything(self) -> bool:
        return any(not c.same for question in self.questions for c in question.changes)


def prefill_changes(values: Iterable[FoundValue], draft: Draft) -> PrefillChanges:
    """The answers ``values`` would fill in ``draft``, question by question, in page order."""
    by_slug: dict[str, list[FoundValue]] = {}
    for value in values:
        by_slug.setdefault(value.slug, []).append(value)
    questions: list[QuestionChanges] = []
    refused: list[RefusedValue] = []
    step_data: dict[str, StepData] = {}
    numbers = question_numbers(draft.step_data)
    # the discovery page too: a sentence's "as fast as we can" answers what matters most
    for question in PAGES:
        old = draft.step_data.get(question.slug) or {}
        found = [
            v
            for v in by_slug.get(question.slug, [])
            if _is_field(question, v.field) and not (v.guessed and _typed(old, question.slug, v))
        ]
        if not found:
            continue
        result = _question_changes(question, found, old, numbers.get(question.slug))
        refused.extend(result.refused)
        if result.changes:
            questions.append(result.changes)
            step_data[question.slug] = result.step_data
    warnings = _name_and_size_disagree(step_data.get("model"))
    return PrefillChanges(tuple(questions), tuple(refused), step_data, warnings)


# Within this share a size is the named model's, rounded (the engine's own tolerance).
_SAME_SIZE = 0.05


def _name_and_size_disagree(model: StepData | None) -> tuple[str, ...]:
    """A word when the model question would name a known model of another size."""
    form = _bind_raw(get_question("model").form_class, "model", model or {})
    if not model or not form.is_valid():
        return ()
    answer = form.to_answer()
    spec = find_model(answer.get("model_name") or "")
    total = answer.get("total_params")
    if spec is None or not total or abs(total / spec.total_params - 1) <= _SAME_SIZE:
        return ()
    return (
        f"Question 1 would name {spec.name}, which has {format_count(spec.total_params, short=True)} "
        f"parameters, but give {format_count(total, short=True)}. We size with the number of parameters: "
        "check the model name on question 1 afterwards.",
    )


@dataclass
class _QuestionResult:
    changes: QuestionChanges | None = None
    refused: list[RefusedValue] = field(default_factory=list)
    step_data: StepData = field(default_factory=dict)


def _is_field(question: Question, name: str) -> bool:
    return name in question.form_class.answer_field_names() or name == NOTES


def _question_changes(
    question: Question, found: list[FoundValue], old: StepData, number: int | None
) -> _QuestionResult:
    slug, form_class = question.slug, question.form_class
    result = _QuestionResult()
    title = plain(question.title)
    merged = {v.field: _merged(form_class, slug, v, old) for v in found}
    # 1. the file's values alone, through the form: refused with the form's own message
    alone = _bind(form_class, slug, merged)
    if not alone.is_valid():
        for name in list(merged):
            if name in alone.errors:
                result.refused.append(_refusal(title, form_class, name, merged.pop(name), alone))
    if not merged:
        return result
    # 2. with the customer's other answers: a new contradiction refuses the file's values
    new = {**old, **{_key(slug, name): values for name, values in merged.items()}}
    new.pop(_key(slug, UNSURE), None)
    before_errors = set(_bind_raw(form_class, slug, old).errors) if old else set()
    conflicts = [n for n in _bind_raw(form_class, slug, new).errors if n not in before_errors]
    if conflicts:
        whole = _bind_raw(form_class, slug, new)
        message = str(whole.errors[conflicts[0]][0])
        for name, values in merged.items():
            result.refused.append(
                RefusedValue(title, _label(form_class, name), ", ".join(values), message)
            )
        return result
    after = _bind(form_class, slug, merged)
    after.is_valid()
    sources = {v.field: v.source for v in found}
    changes = [
        Change(
            _label(form_class, name),
            _shown(form_class, slug, old, name),
            _text(after, name),
            sources[name],
            merges=name == NOTES or isinstance(form_class.base_fields[name], CheckboxesAnswerField),
            field=name,
        )
        for name in form_class.answer_field_names() + [NOTES]
        if name in merged
    ]
    if old.get(_key(slug, UNSURE)):
        label = str(form_class.base_fields[UNSURE].label)
        changes.append(Change(label, YES, NO, "The answers above answer this question"))
    result.changes = QuestionChanges(number, title, slug, tuple(changes))
    result.step_data = new
    return result


def _typed(old: StepData, slug: str, value: FoundValue) -> bool:
    """Whether the customer already typed an answer to the part ``value`` fills."""
    return any(v.strip() for v in old.get(_key(slug, value.field), []))


def _key(slug: str, name: str) -> str:
    return f"{slug}-{name}"


def _merged(
    form_class: type[QuestionForm], slug: str, value: FoundValue, old: StepData
) -> list[str]:
    """The posted values of one field after the merge."""
    before = [v for v in old.get(_key(slug, value.field), []) if v.strip()]
    if isinstance(form_class.base_fields.get(value.field), CheckboxesAnswerField):
        kept = [v for v in before if v != NOT_SURE]
        return list(dict.fromkeys([*kept, *value.value]))
    if value.field == NOTES and before and str(value.value) not in before[0]:
        return [f"{before[0]}\n{value.value}"]
    return [str(value.value)] if isinstance(value.value, str) else list(value.value)


def _bind(form_class: type[QuestionForm], slug: str, values: dict[str, list[str]]) -> QuestionForm:
    return _bind_raw(form_class, slug, {_key(slug, name): v for name, v in values.items()})


def _bind_raw(form_class: type[QuestionForm], slug: str, raw: StepData) -> QuestionForm:
    return form_class(data=MultiValueDict(raw), prefix=slug)


def _label(form_class: type[QuestionForm], name: str) -> str:
    return str(form_class.base_fields[name].label).replace(" (optional)", "")


def _refusal(
    title: str, form_class: type[QuestionForm], name: str, values: list[str], form: QuestionForm
) -> RefusedValue:
    return RefusedValue(
        title, _label(form_class, name), ", ".join(values), " ".join(form.errors[name])
    )


def _text(form: QuestionForm, name: str) -> str:
    """A field as the review page shows it, from a valid bound form."""
    answer: dict[str, Any] = form.to_answer()
    if name == NOTES:
        return str(answer.get(NOTES) or "")
    field = form.fields[name]
    assert isinstance(field, AnswerFieldMixin)
    shown = field.answer_text(name, answer)
    return shown[0] if shown else ""


def _shown(form_class: type[QuestionForm], slug: str, old: StepData, name: str) -> str:
    """The customer's answer to one field before the file: as the review shows it when the
    question is valid, else exactly as typed."""
    if not old:
        return ""
    form = _bind_raw(form_class, slug, old)
    if form.is_valid():
        return _text(form, name)
    return ", ".join(v for v in old.get(_key(slug, name), []) if v.strip())
