"""Actual runs against their estimates (issue 30): the demo actual of load_demo, the export the
calibration report reads, and the chart of estimate against actual."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from pipeline.measured import (
    DEMO_SLOWER_BY,
    actual_runs_export,
    estimate_actual_figure,
    record_actual_run,
)
from pipeline.models import ActualRun
from questionnaire.demo import SCENARIOS
from sizing.public import read_result
from tests.staff.factories import make_recommendation, make_submission, sized_fields

pytestmark = pytest.mark.django_db


def _sized_submission(**fields):
    submission = make_submission(**fields)
    make_recommendation(submission, **sized_fields("h100-sxm"))
    return submission


def test_the_demo_actual_is_a_marked_run_a_little_slower_than_its_estimate_and_made_once():
    submission = _sized_submission(contact_email=SCENARIOS[0].contact.email)
    call_command("load_demo_actuals")
    call_command("load_demo_actuals")
    run = ActualRun.objects.get()
    estimate = read_result(submission.recommendations.get().result)
    assert run.demo and "not a real run" in run.notes
    assert run.gpu_hours == round(estimate.gpu_hours * DEMO_SLOWER_BY)
    assert run.accelerator == estimate.accelerator


def test_the_export_puts_each_run_beside_its_estimate_and_range(tmp_path):
    submission = _sized_submission()
    record_actual_run(
        submission=submission,
        figures={
            "accelerator": "h100-sxm",
            "accelerators": 8,
            "days": 2.0,
            "gpu_hours": 400.0,
            "tokens": 1e10,
            "interruptions": 1,
            "mfu": 0.38,
            "notes": "",
        },
    )
    output = tmp_path / "actual_runs.json"
    call_command("export_actual_runs", output=output)
    (row,) = json.loads(output.read_text())["actual_runs"]
    estimate = read_result(submission.recommendations.get().result)
    assert row["reference"] == submission.reference and row["demo"] is False
    assert row["estimated_gpu_hours"] == estimate.gpu_hours
    assert [row["estimated_gpu_hours_low"], row["estimated_gpu_hours_high"]] == list(
        estimate.gpu_hours_range
    )
    assert row["gpu_hours"] == 400.0 and row["mfu"] == 0.38
    assert "Ada" not in output.read_text()  # no customer's name leaves the database


def test_the_chart_draws_every_run_and_marks_one_outside_its_range_in_red():
    submission = _sized_submission()
    estimate = read_result(submission.recommendations.get().result)
    low, high = estimate.gpu_hours_range
    for hours in (estimate.gpu_hours, high * 3):
        ActualRun.objects.create(
            submission=submission,
            recommendation=submission.recommendations.get(),
            recorded_by="staff",
            accelerator="h100-sxm",
            accelerators=8,
            days=1,
            gpu_hours=hours,
            tokens=1e10,
        )
    figure = estimate_actual_figure(ActualRun.objects.all(), title="All runs")
    chart = str(figure["chart"])
    assert chart.startswith("<svg") and "<title>All runs</title>" in chart
    assert chart.count("<circle") == 2 and chart.count('fill="#b3261e"') == 1
    assert [w.endswith("within the range we gave.") for _, w in figure["lines"]].count(True) == 1
    assert len(actual_runs_export(ActualRun.objects.all())) == 2
