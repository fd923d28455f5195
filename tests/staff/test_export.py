"""CSV export: one row per submission, labelled like the PDF, with cost, history and notes."""

import csv
import io

import pytest
from django.test import Client

from questionnaire.questions import answered_questions
from sizing.stored_result import read_result
from sizing.words.cost import money_of
from staff import workflow
from staff.export import FIXED_COLUMNS, export_csv, safe_cell
from staff.models import AuditEvent
from tests.staff.factories import (
    example_answers,
    make_proposal,
    make_ready_submission,
    make_recommendation,
    make_submission,
    make_user,
    sign_in,
    sized_fields,
)

pytestmark = pytest.mark.django_db


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_one_row_per_submission_labelled_like_the_pdf_with_cost_history_and_notes(engineer):
    bob = make_user("Account managers", first_name="Bob", last_name="Tester")
    first = make_submission(company="Acme Research", assignee=bob, pipeline_status="ready")
    recommendation = make_recommendation(first, **sized_fields())
    make_proposal(recommendation)
    workflow.approve_version(submission=first, recommendation=recommendation, user=engineer)
    workflow.add_note(submission=first, text="Wants on-prem quotes too.", user=bob)
    second = make_submission()
    table = rows(export_csv([first, second]))

    assert [r["Reference"] for r in table] == [first.reference, second.reference]
    header = list(table[0])
    assert header[: len(FIXED_COLUMNS)] == FIXED_COLUMNS
    expected = {
        f"{q.number}. {q.title}: {line.label}": line.text
        for q in answered_questions(example_answers())
        for line in q.lines
    }
    assert header[len(FIXED_COLUMNS) :] == list(expected)
    assert {k: table[0][k] for k in expected} == expected
    assert "1. Your model: Model name" in header
    assert not [name for name in header if "_" in name]  # no raw keys

    row = table[0]
    result = read_result(recommendation.result)
    assert row["Company"] == "Acme Research"
    assert row["Assignee"] == "Bob Tester"
    assert row["Status"] == "Approved, ready to send"
    assert row["Recommended cluster"] == f"{result.gpus} × {result.accelerator_name}"
    assert row["Recommended cost"].startswith(result.money(result.recommended_cost.net_usd))
    assert "Waiting for engineer review → Approved, ready to send" in row["Status history"]
    assert row["Notes"].endswith("Bob Tester: Wants on-prem quotes too.")
    assert table[1]["Recommended cluster"] == "" and table[1]["Approved"] == "no"


def test_cells_that_would_run_as_formulas_are_defused():
    submission = make_submission(company='=HYPERLINK("http://x")', contact_name="@SUM(A1)")
    row = rows(export_csv([submission]))[0]
    assert row["Company"] == '\'=HYPERLINK("http://x")'
    assert row["Contact"] == "'@SUM(A1)"
    assert safe_cell("-12.5") == "-12.5"
    assert safe_cell("-1+cmd|' /C calc'!A0").startswith("'")


def test_the_admin_action_downloads_the_csv_and_records_the_export(account_manager):
    submission, _, _ = make_ready_submission()
    client = Client()
    sign_in(client, account_manager)
    response = client.post(
        "/admin/questionnaire/submission/",
        {"action": "export_as_csv", "_selected_action": [submission.pk]},
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "no-store" in response["Cache-Control"]
    assert rows(response.content.decode())[0]["Reference"] == submission.reference
    assert AuditEvent.objects.filter(
        action=AuditEvent.Action.EXPORTED, actor=account_manager
    ).exists()


def test_answer_columns_follow_the_question_registry_not_the_first_row():
    """Issue 28: a first submission that answered only question 3 put question 3's columns
    before question 1's; the columns follow the registry whatever the rows' order."""
    answers = example_answers()
    only_data = make_submission(answers={"data": answers["data"]})
    everything = make_submission()
    header = list(rows(export_csv([only_data, everything]))[0])
    answer_header = header[len(FIXED_COLUMNS) :]
    expected = [
        f"{q.heading}: {line.label}" for q in answered_questions(answers) for line in q.lines
    ]
    assert [name for name in answer_header if name in expected] == expected
    assert answer_header.index("1. Your model: Model name") < answer_header.index(
        next(name for name in answer_header if name.startswith("3. "))
    )


def test_cost_is_exported_as_numbers_with_its_currency(engineer):
    submission = make_submission(pipeline_status="ready")
    recommendation = make_recommendation(submission, **sized_fields())
    make_proposal(recommendation)
    workflow.approve_version(submission=submission, recommendation=recommendation, user=engineer)
    row = rows(export_csv([submission]))[0]
    result = read_result(recommendation.result)
    best, money = result.recommended_cost, money_of(result)
    assert row["Cost"] == str(round(money.local(best.net_usd)))
    assert row["Cost low"] == str(round(money.local(best.low_usd)))
    assert row["Cost high"] == str(round(money.local(best.high_usd)))
    assert float(row["Cost low"]) <= float(row["Cost"]) <= float(row["Cost high"])
    assert row["Currency"] == money.currency  # the proposal's own currency
    assert row["Cost years"] == "3"
    assert row["Recommended cost"].startswith(money(best.net_usd))  # words stay
