"""Measured reality on a submission: the verification kit's figures before buying, and the
actual runs after training (issue 30).

A measurement of a catalog accelerator re-sizes the submission as a new version (the earlier
ones are kept): from then on every sizing takes the latest such measurement
(``HardwareMeasurement.latest_engine_section``), so an engineer's re-run keeps it too. An actual run is recorded
against the version the customer had; the admin's chart and the calibration report read it.
"""

from __future__ import annotations

from collections.abc import Iterable
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
    points = []
    for run in runs:
        recommendation = run.recommendation
        result = read_result(recommendation.result if recommendation is not None else None)
        if result.gpu_hours is None:
            continue
        low, high = result.gpu_hours_range or (None, None)
        points.append(
            EstimateActual(
                label=run.submission.reference,
                estimated=result.gpu_hours,
                actual=run.gpu_hours,
                low=low,
                high=high,
            )
        )
    return points


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
