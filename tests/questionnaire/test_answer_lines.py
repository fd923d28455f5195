"""Answers told back as the customer gave them, with the unit we read them in (fresh reader
findings B4 and B6: "2 TB (read as 2,000)", a growth of "25" without %, "Answer: Not sure
yet" after real answers, "we will assume a typical value" without naming it)."""

from __future__ import annotations

from questionnaire.answers import answer_lines
from questionnaire.questions import get_question
from sizing.adapters import assumed_for_unsure_answers


def _lines(slug: str, **data: str) -> dict[str, str]:
    form = get_question(slug).form_class(data=data)
    assert form.is_valid(), form.errors
    return {line.label: line.text for line in answer_lines(type(form), form.to_answer())}


def test_a_storage_size_says_the_unit_it_was_read_in():
    lines = _lines("data", dataset_size="2 TB", dataset_unit="gb")
    assert lines["Size of your training data"] == "2 TB (read as 2,000 GB)"


def test_a_bare_percentage_keeps_its_percent_sign():
    lines = _lines("roadmap", annual_growth_pct="25")
    assert lines["Growth in training work per year"] == "25 %"


def test_a_not_sure_tick_after_answered_parts_names_the_other_parts():
    lines = _lines("teams", teams="1", not_sure="on")
    assert lines["Other parts"] == "Not sure yet"
    assert "Answer" not in lines


def test_a_question_not_sure_as_a_whole_says_so():
    assert _lines("precision", not_sure="on") == {"Whole question": "Not sure yet"}


def test_not_sure_where_the_hardware_runs_names_what_we_assume():
    assumed = assumed_for_unsure_answers({"deployment": {"location": "not_sure", "not_sure": True}})
    assert any(
        item.startswith("where the hardware runs: the cheapest place")
        for item in assumed["deployment"]
    )
