"""Figures for the staff overview page: where submissions stand and what needs attention."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count
from django.utils import timezone

from questionnaire.models import Submission
from staff.workflow import FINISHED


@dataclass(frozen=True)
class StatusCount:
    value: str
    label: str
    count: int


@dataclass(frozen=True)
class Overview:
    by_workflow: list[StatusCount]
    by_pipeline: list[StatusCount]
    week_start: datetime
    this_week: list[Submission]
    failures: list[Submission]
    unassigned_new: int


def _counts(field: str, choices) -> list[StatusCount]:
    found = dict(Submission.objects.values_list(field).annotate(n=Count("pk")).order_by())
    return [StatusCount(value, label, found.get(value, 0)) for value, label in choices]


def start_of_week(now: datetime) -> datetime:
    """Monday 00:00 of the current week, in the site's time zone."""
    local = timezone.localtime(now)
    monday = local - timedelta(days=local.weekday())
    return monday.replace(hour=0, minute=0, second=0, microsecond=0)


def build_overview(*, now: datetime | None = None, limit: int = 50) -> Overview:
    now = now or timezone.now()
    week_start = start_of_week(now)
    base = Submission.objects.select_related("assignee")
    return Overview(
        by_workflow=_counts("status", Submission.WorkflowStatus.choices),
        by_pipeline=_counts("pipeline_status", Submission.PipelineStatus.choices),
        week_start=week_start,
        this_week=list(base.filter(submitted_at__gte=week_start).order_by("-submitted_at")[:limit]),
        failures=list(
            base.filter(pipeline_status=Submission.PipelineStatus.FAILED)
            .exclude(status__in=FINISHED)
            .order_by("pipeline_updated_at")[:limit]
        ),
        unassigned_new=Submission.objects.filter(
            status=Submission.WorkflowStatus.NEW, assignee__isnull=True
        ).count(),
    )
