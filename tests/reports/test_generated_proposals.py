"""Generated proposals, every time (issue 28): answers drawn from the whole answer space the
questionnaire accepts, and every public customer story, each rendered through the real render
path (``reports.document.render_data``: the HTML, the laid-out PDF and the proposal checker),
with no finding that would block the pipeline.

The answer space is read from the question registry (``questionnaire.questions``): every field
of every question, each radio and checkbox choice, each number from the field's own bounds
(the smallest and largest the form accepts, and between them), "not sure" for a whole
question, and the discovery page's short path, where the expert questions are left to us.
Answers a form rejects fall back to that question's registry example, so every drawn example
is a questionnaire a customer could submit.

A proposal takes about a second to render, so the draw is small (``max_examples``) and
derandomized: CI renders the same examples every run, and a failure names its answers.
"""

import math
from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from questionnaire.fields import (
    CheckboxesAnswerField,
    QuantityField,
    RadioAnswerField,
    TextAnswerField,
)
from questionnaire.paths import recommended_answer
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, QUESTIONS, Question
from reports.demo import SCENARIOS, demo_answers, demo_data
from reports.document import render_data
from tests.reports.customer_stories import STORIES

TODAY = date(2026, 12, 2)
pytestmark = pytest.mark.proposals

# How a number is typed: the unit its stored value is in, from the field name (the registry's
# convention, questionnaire.questions); counts and parameters are bare numbers.
_UNITS = (
    ("_gb_per_s", "GB/s"),
    ("_gbps", "Gb/s"),
    ("_hours", "hours"),
    ("_gb", "GB"),
    ("_pct", "%"),
)


def _typed(value: float, name: str, whole: bool) -> str:
    """``value`` (in the field's base unit) as a customer would type it: "70000000000",
    "0.5 hours", "25 %"."""
    if whole:
        text = str(max(1, round(value)))
    elif value == int(value):
        text = str(int(value))
    else:
        text = f"{value:.4g}" if "e" not in f"{value:.4g}" else f"{value:.6f}".rstrip("0")
    unit = next((u for suffix, u in _UNITS if name.endswith(suffix)), "")
    if text == "1" and unit == "hours":
        unit = "hour"  # as people write it: the proposal quotes what they typed
    return f"{text} {unit}".strip()


def _number(name: str, field: QuantityField) -> st.SearchStrategy[str]:
    """A number the field accepts: its extremes, or any value between them (log-uniform)."""
    low = field.minimum or (1.0 if field.whole else 0.01)
    high = field.maximum or low * 1e6
    between = st.floats(math.log10(low), math.log10(high)).map(lambda e: 10**e)
    extremes = [low, high] + ([0.0] if field.allow_zero else [])
    return st.one_of(st.sampled_from(extremes), between).map(lambda v: _typed(v, name, field.whole))


def _choice_keys(field: Any) -> list[str]:
    return [str(key) for key, _label in field.choices if key]


@st.composite
def _question_data(draw: st.DrawFn, question: Question) -> dict[str, Any]:
    """Form data for one question: "not sure" for all of it, the example, or each field drawn
    (empty, or a value the field's own bounds and choices allow)."""
    mode = draw(st.sampled_from(["drawn", "drawn", "drawn", "not sure", "example"]))
    if mode == "not sure":
        return {"not_sure": "on"}
    if mode == "example":
        return dict(question.example.data)
    data: dict[str, Any] = {}
    for name, field in question.form_class().fields.items():
        if name in ("not_sure", "notes"):
            continue
        if isinstance(field, QuantityField):
            value = draw(st.one_of(st.just(""), _number(name, field)))
        elif isinstance(field, CheckboxesAnswerField):
            value = draw(st.lists(st.sampled_from(_choice_keys(field)), max_size=3, unique=True))
        elif isinstance(field, RadioAnswerField):
            value = draw(st.sampled_from(["", *_choice_keys(field)]))
        elif isinstance(field, TextAnswerField):
            value = draw(st.sampled_from(["", str(question.example.data.get(name, ""))]))
        else:  # a date
            value = ""
        if value not in ("", []):
            data[name] = value
    return data


def _answer(question: Question, data: dict[str, Any]) -> dict[str, Any]:
    """The stored answer of ``data``, or of the registry's example when the form rejects it."""
    form = question.form_class(data=data)
    if not form.is_valid():
        form = question.form_class(data=question.example.data)
        assert form.is_valid(), form.errors
    return form.to_answer()


def answers_of(form_data: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Stored answers as the wizard stores them: the discovery page when answered, and on the
    short path (set-up not known) the expert questions left to us ("recommend for me")."""
    answers = {q.slug: _answer(q, form_data.get(q.slug, q.example.data)) for q in QUESTIONS}
    if "discovery" in form_data:
        answers["discovery"] = _answer(DISCOVERY, form_data["discovery"])
        if answers["discovery"].get("setup_known") in ("no", "not_sure"):
            for question in QUESTIONS:
                if question.slug in EXPERT_SLUGS:
                    answers[question.slug] = recommended_answer(question)
    return answers


@st.composite
def questionnaires(draw: st.DrawFn) -> dict[str, dict[str, Any]]:
    form_data = {q.slug: draw(_question_data(q)) for q in QUESTIONS}
    if draw(st.booleans()):
        form_data["discovery"] = draw(_question_data(DISCOVERY))
    return form_data


def _findings(answers: dict[str, Any]) -> list[str]:
    return [str(f) for f in render_data(demo_data(answers=answers, today=TODAY)).findings]


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI is deterministic
    database=None,
    phases=[Phase.explicit, Phase.generate],  # a whole proposal per example: report, not shrink
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
@given(questionnaires())
def test_a_proposal_for_any_answers_the_questionnaire_accepts_has_no_blocking_finding(form_data):
    assert _findings(answers_of(form_data)) == []


def test_not_sure_everywhere_has_no_blocking_finding():
    everything_unsure = {q.slug: {"not_sure": "on"} for q in QUESTIONS}
    everything_unsure["discovery"] = {"setup_known": "not_sure"}
    assert _findings(answers_of(everything_unsure)) == []


@pytest.mark.parametrize("story", list(STORIES))
def test_each_public_customer_story_has_no_blocking_finding(story):
    assert _findings(answers_of(STORIES[story])) == []


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_each_demo_scenario_has_no_blocking_finding(scenario):
    assert _findings(demo_answers(scenario)) == []
