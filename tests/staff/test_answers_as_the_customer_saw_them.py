"""A submission's staff page numbers the questions as the customer saw them, says which ones
the short path never showed, and names the use case in the customer's words (fresh reader
finding B8)."""

import pytest
from django.test import Client

from questionnaire.paths import recommended_answer
from questionnaire.questions import EXPERT_SLUGS, get_question
from sizing.adapters import size_answers
from staff.summary import staff_questions, summarise
from tests.staff.factories import (
    example_answers,
    make_ready_submission,
    make_recommendation,
    make_submission,
    sign_in,
)

pytestmark = pytest.mark.django_db
LIST = "/admin/questionnaire/submission/"


def _short_path_answers() -> dict:
    answers = dict(example_answers())
    answers["discovery"] = {
        "use_case": "A chatbot that answers staff questions from our internal documents",
        "setup_known": "not_sure",
        "constraint": "not_sure",
    }
    for slug in EXPERT_SLUGS:
        answers[slug] = recommended_answer(get_question(slug))
    return answers


def test_the_short_path_is_numbered_as_the_customer_saw_it():
    rows = {row.heading.split(" (")[0]: row for row in staff_questions(_short_path_answers())}
    data = next(row for heading, row in rows.items() if heading.endswith("Your training data"))
    assert data.heading.startswith("3 of 9. ")
    assert "(question 4 in the full list)" in data.heading
    assert any(heading == "1 of 9. Your model" for heading in rows)


def test_a_set_up_question_never_shown_is_not_a_not_sure_answer():
    rows = staff_questions(_short_path_answers())
    precision = next(row for row in rows if "Number format" in row.heading)
    assert precision.delegated and not precision.not_sure
    assert [(line.label, line.text) for line in precision.lines] == [
        ("Not asked (short path)", "we chose it for them")
    ]


def test_a_set_up_answer_kept_from_the_detailed_path_shows_as_the_customers():
    # issue 26: switching to the short path keeps set-up answers already given; the staff page
    # headed one "None of 9" (no number on the short path)
    answers = _short_path_answers()
    answers["precision"] = dict(example_answers())["precision"]
    rows = staff_questions(answers)
    precision = next(row for row in rows if "Number format" in row.heading)
    assert not precision.delegated
    assert "None" not in precision.heading
    assert "answered before switching to the short path" in precision.heading
    batch = next(row for row in rows if "batch" in row.heading)
    assert batch.delegated


def test_the_detailed_path_keeps_the_registry_numbers():
    answers = dict(example_answers())
    rows = staff_questions(answers)
    assert any(row.heading == "4. Your training data" for row in rows)
    assert not any(row.delegated for row in rows)


def test_the_panel_shows_the_use_case_typed_and_the_model_apart(engineer):
    submission = make_submission(answers=_short_path_answers())
    client = Client()
    sign_in(client, engineer)
    page = client.get(f"{LIST}{submission.pk}/change/").content.decode()
    panel = page[page.index('id="summary"') : page.index('class="staff-panels"')]
    assert "A chatbot that answers staff questions from our internal documents" in panel
    assert "Model and method" in panel
    assert "Not asked (short path)" in page


def test_versions_are_named_by_the_reference():
    submission, recommendation, proposal = make_ready_submission()
    assert (
        str(recommendation)
        == f"Recommendation v{recommendation.version} for {submission.reference}"
    )
    assert str(proposal) == f"Proposal v{proposal.version} for {submission.reference}"


def test_set_up_questions_left_to_us_are_listed_for_the_engineer():
    answers = _short_path_answers()
    submission = make_submission(answers=answers)
    sized = size_answers(answers=answers)
    make_recommendation(submission, result=sized.result, engine_input=sized.engine_input)
    settle = summarise(submission).settle
    assert "Which precision (BF16 is assumed)?" in settle
    assert "What global batch size?" in settle
