"""The proposal opens with the discovery page and, on the short path, the set-up we chose."""

from __future__ import annotations

import datetime
import re

from questionnaire.paths import recommended_answer
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, get_question
from reports.demo import demo_answers, demo_data
from reports.document import render_html

TODAY = datetime.date(2026, 12, 1)


def _discovery(**changes: str) -> dict:
    form = DISCOVERY.form_class(data={**DISCOVERY.example.data, **changes})
    assert form.is_valid(), form.errors
    return form.to_answer()


def _opening(answers: dict) -> str:
    html = render_html(demo_data(answers=answers, today=TODAY))
    summary = html[html.index('id="summary"') :]
    return re.sub(r"\s+", " ", summary[: summary.index("summary-box")])


def test_the_summary_opens_with_the_use_case_who_decides_the_constraint_and_success():
    answers = {**demo_answers(), DISCOVERY.slug: _discovery(setup_known="yes")}
    opening = _opening(answers)
    for text in (
        "Your project",
        "Fine-tune an open 70B model on 2 billion tokens of clinical notes",
        "Our chief medical information officer",
        "Where the data is kept",
        "Summaries our doctors trust, in use by June",
    ):
        assert text in opening
    assert "The training set-up we chose for you" not in opening


def test_the_summary_opens_by_quoting_the_project_in_their_words():
    sentence = (
        "NVIDIA only. LoRA adapters on an 8B model, 200 million tokens, retrained every week."
    )
    answers = {**demo_answers(), DISCOVERY.slug: _discovery(use_case=sentence)}
    opening = _opening(answers)
    quoted = opening.index(f'In your words: <q class="verbatim">{sentence}</q>')
    assert quoted < opening.index("discovery-facts")  # first, before the other parts
    assert opening.count(sentence) == 1


def test_the_short_path_says_what_we_chose_and_why():
    # not sure who knows the set-up: each choice in the opening (told that no one knows it,
    # the opening points to "What we assumed" instead: test_delegated_setup.py)
    answers = {**demo_answers(), DISCOVERY.slug: _discovery(setup_known="not_sure")}
    for slug in EXPERT_SLUGS:
        answers[slug] = recommended_answer(get_question(slug))
    opening = _opening(answers)
    assert "The training set-up we chose for you" in opening
    assert "Number precision: BF16 — the usual choice" in opening
    assert "Fastest plan that fits" in opening


def test_hardware_already_owned_is_asked_in_the_opening():
    answers = {**demo_answers(), DISCOVERY.slug: _discovery(constraint="hardware_owned")}
    assert "We will ask you: Which accelerators and servers do you already own" in _opening(answers)


def test_answers_from_before_the_discovery_page_open_as_before():
    assert 'id="project"' not in render_html(demo_data(answers=demo_answers(), today=TODAY))


def test_an_empty_discovery_page_opens_with_the_recommendation_not_a_reproach():
    # every submission whose customer skipped the optional page (all four demo customers, who
    # wrote paragraphs on the questions themselves) opened "You did not tell us about your
    # project yet; our engineer will ask"
    empty = _discovery(
        use_case="", decider="", runs_training="", constraint="", success="", setup_known=""
    )
    html = render_html(demo_data(answers={**demo_answers(), DISCOVERY.slug: empty}, today=TODAY))
    assert "did not tell us about your project" not in html
    assert 'id="project"' not in html


def test_without_a_discovery_page_the_summary_restates_the_project_from_the_answers():
    # the summary of every demo customer (no discovery page, paragraphs on the questions)
    # opened straight with the recommendation, or once "You did not tell us about your project"
    opening = _opening(demo_answers())
    assert "Your project, as your answers describe it:" in opening
    assert (
        "Continued pre-training of Llama 3.1 70B on 400 billion tokens of text, each run within "
        "21 days." in opening
    )
    assert "did not tell us" not in opening


def test_a_discovery_sentence_is_quoted_rather_than_restated():
    answers = {**demo_answers(), DISCOVERY.slug: _discovery(setup_known="yes")}
    opening = _opening(answers)
    assert "Fine-tune an open 70B model on 2 billion tokens of clinical notes" in opening
    assert "as your answers describe it" not in opening
