"""Every wizard page, fuzzed: any post is accepted as a sane answer or refused field by field.

The pages come from the question registry (the discovery page, the fifteen questions) plus the
contact page, so a new question is fuzzed without a change here. Each field gets values of its
own kind (a choice, a quantity as people write it, a date, text) mixed with hostile ones: huge
and unicode digits, superscripts, fullwidth digits, NaN, Infinity, 1e400, -0, dates that are
none, very long strings, NUL characters and lone surrogates (sent as bytes that are not UTF-8).

Two layers. The forms (many posts): a valid form gives an answer the review page can show and
sane numbers; an invalid one has a message on each refused field. The pages (fewer posts,
through the wizard view): never a server error, what was typed is saved exactly, the other
pages' answers are untouched. The counts are printed at the end of the run.
"""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.core.cache import cache
from django.utils.datastructures import MultiValueDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from questionnaire.answers import answer_lines
from questionnaire.fields import (
    CheckboxesAnswerField,
    DateAnswerField,
    QuantityField,
    RadioAnswerField,
)
from questionnaire.forms.base import QuestionForm
from questionnaire.forms.steps import ContactForm
from questionnaire.models import Draft
from questionnaire.questions import DISCOVERY, QUESTIONS
from tests.security.conftest import as_saved, count, post_raw, prefill, start, step_pairs, step_url
from tests.security.hostile import quantity_is_sane
from tests.security.hostile_documents import DATES, DIGIT_LOOKALIKES, KNOWN_TRAPS, TEXT_TRAPS

# Fixed so the run takes the same few seconds in CI: about 2 ms a form, 60 ms a page.
FORMS_PER_PAGE = 100
POSTS_PER_PAGE = 5

PAGES: list[tuple[str, type[forms.Form]]] = [
    (DISCOVERY.slug, DISCOVERY.form_class),
    *((question.slug, question.form_class) for question in QUESTIONS),
    ("contact", ContactForm),
]

_HOSTILE = st.one_of(
    st.sampled_from(KNOWN_TRAPS + DIGIT_LOOKALIKES + DATES + TEXT_TRAPS),
    st.sampled_from(["NaN", "inf", "-Infinity", "1e400", "1e-400", "-0", "0x1F", "1,2,3"]),
    st.text(max_size=40),
    st.integers(min_value=61, max_value=3000).map(lambda n: "7" * n),
)
# A number as people write it, in any script, with the words and units the questions take.
_NUMBER = st.one_of(
    st.integers(min_value=-10, max_value=10**15).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(st.characters(categories=("Nd", "No")), min_size=1, max_size=6),
)
_UNIT = st.sampled_from(
    [
        "",
        "B",
        " billion",
        "M",
        "k",
        "T",
        " TB",
        " GiB",
        " days",
        "h",
        " weeks",
        " %",
        "G",
        " Gb/s",
        " GB/s",
        " tokens",
        " samples",
        " documents",
        "BB",
        " per cent",
        "²",
    ]
)
_HEDGE = st.sampled_from(["", "about ", "~", "up to ", "≈ "])
_QUANTITY = st.one_of(
    st.tuples(_HEDGE, _NUMBER, _UNIT).map("".join),
    st.sampled_from(["70B", "7.5 billion", "4k", "2 TB", "3 days", "400G", "30 %", "not sure"]),
)
_DATE = st.one_of(
    st.dates().map(lambda day: day.isoformat()),
    st.dates().map(lambda day: day.strftime("%d/%m/%Y")),
    st.sampled_from(DATES),
)


def _own_kind(field: forms.Field) -> st.SearchStrategy[Any]:
    """Values of the field's own kind: its choices, quantities and dates as people write
    them (in any script, with or without a unit), text."""
    if isinstance(field, CheckboxesAnswerField):
        keys = [key for key, _ in field.choices]
        return st.lists(st.sampled_from(keys), max_size=4)
    if isinstance(field, RadioAnswerField):
        return st.sampled_from([key for key, _ in field.choices])
    if isinstance(field, QuantityField):
        return _QUANTITY
    if isinstance(field, DateAnswerField):
        return _DATE
    if isinstance(field, forms.BooleanField):
        return st.sampled_from(["on", ""])
    if isinstance(field, forms.EmailField):
        return st.emails()
    return st.text(max_size=300)


def page_data(form_class: type[forms.Form]) -> st.SearchStrategy[dict[str, Any]]:
    """Some of the page's fields: on half the pages each has a value of its kind, on the
    other half a value of its kind or a hostile one (one hostile field refuses the page)."""
    fields = form_class.base_fields.items()
    return st.one_of(
        st.fixed_dictionaries({}, optional={name: _own_kind(field) for name, field in fields}),
        st.fixed_dictionaries(
            {}, optional={name: st.one_of(_own_kind(field), _HOSTILE) for name, field in fields}
        ),
    )


def _as_lists(data: dict[str, Any]) -> dict[str, list[str]]:
    return {name: value if isinstance(value, list) else [value] for name, value in data.items()}


def _received(data: dict[str, Any]) -> dict[str, list[str]]:
    """As Django hands the form a posted value: lone surrogates arrive as U+FFFD."""
    return {
        name: [v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for v in values]
        for name, values in _as_lists(data).items()
    }


# --- the forms ---------------------------------------------------------------------------------


def _check_form(form_class: type[forms.Form], step: str, data: dict[str, Any]) -> str:
    posted = {f"{step}-{name}": values for name, values in _received(data).items()}
    form = form_class(data=MultiValueDict(posted), prefix=step)
    if not form.is_valid():
        for name, messages in form.errors.items():
            assert messages and all(str(message).strip() for message in messages), name
        return "refused, a message on each refused field"
    if isinstance(form, QuestionForm):
        answer = form.to_answer()
        for name, field in form.fields.items():
            if isinstance(field, QuantityField):
                assert quantity_is_sane(field, answer.get(name)), (name, answer.get(name))
        assert answer_lines(form_class, answer)  # the review page can show it
    return "accepted"


@pytest.mark.parametrize(("step", "form_class"), PAGES, ids=[step for step, _ in PAGES])
def test_any_post_to_a_page_is_a_sane_answer_or_refused_with_messages(step, form_class):
    @settings(max_examples=FORMS_PER_PAGE, deadline=None)
    @given(data=page_data(form_class))
    def check(data: dict[str, Any]) -> None:
        count(f"wizard page fuzz (forms): {_check_form(form_class, step, data)}")

    check()


# --- the pages ---------------------------------------------------------------------------------


@pytest.mark.django_db
@settings(
    max_examples=POSTS_PER_PAGE * len(PAGES),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(page=st.sampled_from(PAGES), data=st.data())
def test_any_post_to_a_page_is_never_a_server_error_and_loses_nothing(client, page, data):
    step, form_class = page
    posted = data.draw(page_data(form_class))
    cache.clear()  # the limit on new questionnaires counts per hour
    draft_id = start(client)
    before = prefill(draft_id, except_step=step)

    response = post_raw(client, step_url(draft_id, step), step_pairs(draft_id, step, posted))

    assert response.status_code in (200, 302), response.status_code
    after = Draft.objects.get(pk=draft_id).step_data
    for other, answers in before.items():
        if other != step:
            assert after.get(other) == answers, f"answers to {other} changed"
    saved = after.get(step)
    typed = {name: values for name, values in _as_lists(posted).items() if values}
    if saved is None:  # an untouched question page stays "not visited"
        assert not any(value.strip() for values in typed.values() for value in values)
    else:
        assert saved == {f"{step}-{name}": [as_saved(v) for v in vs] for name, vs in typed.items()}
    moved_on = response.status_code == 302
    count(f"wizard page fuzz (pages): {'next page' if moved_on else 'page says what to fix'}")
