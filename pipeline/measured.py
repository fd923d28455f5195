"""Measured reality on a submission: the verification kit's figures before buying, and the
actual runs after training (issue 30).

A measurement of a catalog accelerator re-sizes the submission as a new version (the earlier
ones are kept): from then on every sizing takes the latest such measurement
(``HardwareMeasurement.latest_engine_section``), so an engineer's re-run keeps it too. An actual run is recorded
against the version the customer had; the admin's chart and the calibration report read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db import transaction

from pipeline.kit_file import KitResults
from pipeline.models import ActualRun, HardwareMeasurement, Recommendation, WhoRecorded
from pipeline.services import schedule_sizing
from pipeline.versions import customer_version
from questionnaire.models import Submission
from reports.charts import EstimateActual, estimate_actual_chart
from sizing.public import against_estimate, read_result


def record_measurement(
    *, submission: Submission, results: KitResults, file_name: str, user=None
) -> tuple[HardwareMeasurement, Recommendation | None]:
    """Keep the kit's figures and, when they are of a catalog accelerator, size the submission
    again with them (a new version, after commit). Returns the row and that version (None:
    measured on a CPU or an accelerator we do not list, so the estimate stays as it was)."""
    with transaction.atomic():
        measurement = HardwareMeasurement.objects.create(
            submission=submission,
            recorded_by=WhoRecorded.STAFF if user is not None else WhoRecorded.CUSTOMER,
            recorded_by_user=user,
            file_name=file_name[:100],
            accelerator_name=results.accelerator_name,
            accelerator=results.accelerator,
            accelerators_per_node=results.accelerators_per_node,
            nodes=results.nodes,
            profile=results.profile,
            measured_at=results.measured_at,
            results=results.results,
        )
        if measurement.engine_section() is None:
            return measurement, None
        last = submission.recommendations.first()
        version = schedule_sizing(
            submission=submission, overrides=last.overrides if last else {}, user=user
        )
    return measurement, version


def compared_version(submission: Submission) -> Recommendation | None:
    """The version an actual run is judged against: the one the customer may see."""
    return customer_version(submission).recommendation or submission.recommendations.first()


def record_actual_run(*, submission: Submission, figures: dict[str, Any], user=None) -> ActualRun:
    """Record what happened when the customer trained, against the version they had."""
    return ActualRun.objects.create(
        submission=submission,
        recommendation=compared_version(submission),
        recorded_by=WhoRecorded.STAFF if user is not None else WhoRecorded.CUSTOMER,
        recorded_by_user=user,
        **figures,
    )


def estimate_actual_points(runs: Iterable[ActualRun]) -> list[EstimateActual]:
    """Each actual run beside the accelerator-hours (and range) of the version it is judged by;
    a run without a sized version is left out."""
    return [
        EstimateActual(
            label=run.submission.reference,
            estimated=result.gpu_hours,
            actual=run.gpu_hours,
            low=low,
            high=high,
        )
        for run, _, result, (low, high) in _judged(runs)
    ]


def _judged(
    runs: Iterable[ActualRun],
) -> Iterator[tuple[ActualRun, Recommendation, Any, tuple[float | None, float | None]]]:
    """Each run with the version it is judged by, that version's result and its range of
    accelerator-hours; a run without a sized version is left out."""
    for run in runs:
        recommendation = run.recommendation or compared_version(run.submission)
        result = read_result(recommendation.result if recommendation is not None else None)
        if recommendation is None or result.gpu_hours is None:
            continue
        yield run, recommendation, result, (result.gpu_hours_range or (None, None))


def estimate_actual_figure(runs: Iterable[ActualRun], *, title: str) -> dict[str, Any]:
    """The chart of ``runs`` and one line of words per run, for the admin."""
    points = estimate_actual_points(runs)
    return {
        "chart": estimate_actual_chart(points, title=title),
        "lines": [
            (
                point.label,
                against_estimate(
                    point.actual,
                    point.estimated,
                    (point.low, point.high) if point.low and point.high else None,
                ).words,
            )
            for point in points
        ],
    }


# The demo actual (load_demo): a run a little slower than estimated, as most are (the published
# runs' median error, docs/calibration.md), on the estimate's own cluster. Marked ``demo``.
DEMO_SLOWER_BY = 1.15  # [x] actual over estimated accelerator-hours
DEMO_INTERRUPTIONS = 2
DEMO_NOTE = "Demo figures made up by load_demo to show the chart and the report: not a real run."


def record_demo_actual(submission: Submission) -> ActualRun | None:
    """A made-up actual run for a demo submission, once (None before it is sized)."""
    existing = ActualRun.objects.filter(submission=submission, demo=True).first()
    recommendation = compared_version(submission)
    result = read_result(recommendation.result if recommendation is not None else None)
    if existing is not None or result.gpu_hours is None or not result.wall_clock_days:
        return existing
    return ActualRun.objects.create(
        submission=submission,
        recommendation=recommendation,
        recorded_by=WhoRecorded.STAFF,
        accelerator=result.accelerator,
        accelerators=result.gpus or 1,
        days=round(result.wall_clock_days * DEMO_SLOWER_BY, 1),
        gpu_hours=round(result.gpu_hours * DEMO_SLOWER_BY),
        tokens=float(recommendation.engine_input.get("data", {}).get("tokens") or 0) or 1.0,
        interruptions=DEMO_INTERRUPTIONS,
        notes=DEMO_NOTE,
        demo=True,
    )


def actual_runs_export(runs: Iterable[ActualRun]) -> list[dict[str, Any]]:
    """Each actual run beside its estimate, as plain data for the calibration report
    (``benchmarks/calibration.py --actuals``): references and figures, no customer's name."""
    rows = []
    for run, recommendation, result, (low, high) in _judged(runs):
        rows.append(
            {
                "reference": run.submission.reference,
                "demo": run.demo,
                "engine_version": recommendation.engine_version,
                "estimated_accelerator": result.accelerator,
                "estimated_gpus": result.gpus,
                "estimated_gpu_hours": result.gpu_hours,
                "estimated_gpu_hours_low": low,
                "estimated_gpu_hours_high": high,
                "accelerator": run.accelerator,
                "accelerators": run.accelerators,
                "days": run.days,
                "gpu_hours": run.gpu_hours,
                "tokens": run.tokens,
                "interruptions": run.interruptions,
                "mfu": run.mfu,
            }
        )
    return rows
