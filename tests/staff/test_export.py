"""CSV export: one row per submission, answers flattened by question slug, formulas defused."""

import csv
import io

import pytest
from django.test import Client

from questionnaire.questions import QUESTIONS
from staff.export import FIXED_COLUMNS, export_csv, safe_cell
from staff.models import AuditEvent
from tests.staff.factories import example_answers, make_ready_submission, make_submission

pytestmark = pytest.mark.django_db


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_one_row_per_submission_with_every_answer_by_slug():
    first, _, _ = make_ready_submission(company="Acme Research")
    second = make_submission()
    table = rows(export_csv([first, second]))
    assert [r["reference"] for r in table] == [first.reference, second.reference]
    header = list(table[0])
    assert header[: len(FIXED_COLUMNS)] == FIXED_COLUMNS
    expected = {}
    for question in QUESTIONS:
        expected |= question.flatten(example_answers()[question.slug])
    assert header[len(FIXED_COLUMNS) :] == list(expected)
    assert {k: table[0][k] for k in expected} == expected
    assert table[0]["company"] == "Acme Research"
    assert table[0]["recommended_cluster"] == "16 × NVIDIA A100 SXM4 80GB"
    assert table[1]["recommended_cluster"] == ""


def test_cells_that_would_run_as_formulas_are_defused():
    submission = make_submission(company='=HYPERLINK("http://x")', contact_name="@SUM(A1)")
    row = rows(export_csv([submission]))[0]
    assert row["company"] == '\'=HYPERLINK("http://x")'
    assert row["contact_name"] == "'@SUM(A1)"
    assert safe_cell("-12.5") == "-12.5"
    assert safe_cell("-1+cmd|' /C calc'!A0").startswith("'")


def test_the_admin_action_downloads_the_csv_and_records_the_export(account_manager):
    submission, _, _ = make_ready_submission()
    client = Client()
    client.force_login(account_manager)
    response = client.post(
        "/admin/questionnaire/submission/",
        {"action": "export_as_csv", "_selected_action": [submission.pk]},
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "no-store" in response["Cache-Control"]
    assert rows(response.content.decode())[0]["reference"] == submission.reference
    assert AuditEvent.objects.filter(
        action=AuditEvent.Action.EXPORTED, actor=account_manager
    ).exists()
