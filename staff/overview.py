"""Figures for the staff overview page: where submissions stand and what needs attention."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count
from django.utils import timezone

from pipeline.measured import estimate_actual_figure
from pipeline.models import ActualRun
from pipeline.versions import failed_step
from questionnaire.models import Submission
from staff.filters import needing_a_hand

# Lines of a stored error the overview shows (a checker's findings are one a line).
REASON_LINES = 6
# The newest actual runs the chart of estimate against actual shows (a few a month is many).
ACTUAL_RUNS_SHOWN = 500


@dataclass(frozen=True)
class StatusCount:
    value: str
    label: str
    count: int


@dataclass(frozen=True)
class NeedsAHand:
    """One proposal that needs a hand: which version, which step failed, and why (the stored
    error's first lines, in the checker's or the engine's words)."""

    submission: Submission
    version: int | None
    step: str  # "Sizing" or "Proposal"
    reason: list[str]
    more_lines: int


@dataclass(frozen=True)
class Overview:
    by_workflow: list[StatusCount]
    by_pipeline: list[StatusCount]
    week_start: datetime
    this_week: list[Submission]
    failures: list[Submission]
    needs_a_hand: list[NeedsAHand]
    unassigned_new: int
    # every recorded actual run against its estimate: {"chart", "lines"} (pipeline.measured)
    estimate_actual: dict


def _counts(field: str, choices) -> list[StatusCount]:
    found = dict(Submission.objects.values_list(field).annotate(n=Count("pk")).order_by())
    return [StatusCount(value, label, found.get(value, 0)) for value, label in choices]


def start_of_week(now: datetime) -> datetime:
    """Monday 00:00 of the current week, in the site's time zone."""
    local = timezone.localtime(now)
    monday = local - timedelta(days=local.weekday())
    return monday.replace(hour=0, minute=0, second=0, microsecond=0)


def needs_a_hand(submission: Submission) -> NeedsAHand:
    latest, step = failed_step(submission)
    lines = [line for line in submission.pipeline_error.splitlines() if line.strip()]
    lines = lines or ["No error was recorded."]
    return NeedsAHand(
        submission=submission,
        version=latest.version if latest else None,
        step=step.capitalize(),
        reason=lines[:REASON_LINES],
        more_lines=max(0, len(lines) - REASON_LINES),
    )


def build_overview(*, now: datetime | None = None, limit: int = 50) -> Overview:
    now = now or timezone.now()
    week_start = start_of_week(now)
    base = Submission.objects.select_related("assignee")
    failures = list(needing_a_hand(base).order_by("pipeline_updated_at")[:limit])
    return Overview(
        by_workflow=_counts("status", Submission.WorkflowStatus.choices),
        by_pipeline=_counts("pipeline_status", Submission.PipelineStatus.choices),
        week_start=week_start,
        this_week=list(base.filter(submitted_at__gte=week_start).order_by("-submitted_at")[:limit]),
        failures=failures,
        needs_a_hand=[needs_a_hand(submission) for submission in failures],
        unassigned_new=Submission.objects.filter(
            status=Submission.WorkflowStatus.NEW, assignee__isnull=True
        ).count(),
        estimate_actual=estimate_actual_figure(
            ActualRun.objects.select_related("submission", "recommendation")[:ACTUAL_RUNS_SHOWN],
            title="Every recorded training run: actual against estimated accelerator-hours",
        ),
    )
