"""List filters: whose work it is ("assigned to me", "waiting for my review", the assignee by
name), and what the customer said.

What the customer said is read from their answers once, when the submission is saved, into
``pipeline.SubmissionFacts`` (``pipeline.facts``); these filters ask the database for it. Reading
every submission's answers in Python took 8 to 19 s per filter at 10,000 submissions
(benchmarks/admin_filters.py).
"""

from django.contrib import admin
from django.db.models import OuterRef, Q, QuerySet, Subquery

from pipeline.facts import SIZE_BANDS
from pipeline.models import Recommendation
from questionnaire.models import Submission
from sizing.public import (
    VALUES,
)
from staff.workflow import APPROVE_PERMISSION, FINISHED, account_managers, full_name

METHODS = list(VALUES["training.method"].items())
ARCHITECTURES = list(VALUES["model.architecture"].items())
DEPLOYMENTS = list(VALUES["deployment.location"].items())
NOT_SURE = ("not_sure", "Not sure / not answered")


def not_said(column: str) -> Q:
    """Not sure, not answered, or answers that could not be read (no facts row)."""
    if column == "total_params":
        return Q(facts__total_params__isnull=True)
    return Q(**{f"facts__{column}": ""}) | Q(facts__isnull=True)


class _FactFilter(admin.SimpleListFilter):
    attribute = ""
    options: list[tuple[str, str]] = []

    def lookups(self, request, model_admin):
        return [*self.options, NOT_SURE]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        if value == NOT_SURE[0]:
            return queryset.filter(not_said(self.attribute))
        return queryset.filter(self.said(value))

    def said(self, value: str) -> Q:
        return Q(**{f"facts__{self.attribute}": value})


class MethodFilter(_FactFilter):
    title = "training method"
    parameter_name = "method"
    attribute = "method"
    options = METHODS


class ArchitectureFilter(_FactFilter):
    title = "dense or MoE"
    parameter_name = "architecture"
    attribute = "architecture"
    options = ARCHITECTURES


class SizeBandFilter(_FactFilter):
    title = "model size"
    parameter_name = "size"
    attribute = "total_params"
    options = [(key, label) for key, label, _low, _high in SIZE_BANDS]

    def said(self, value: str) -> Q:
        bands = {key: (low, high) for key, _label, low, high in SIZE_BANDS}
        if value not in bands:
            return Q(pk__in=[])
        low, high = bands[value]
        within = Q(facts__total_params__gte=low)
        return within & Q(facts__total_params__lt=high) if high != float("inf") else within


class DeploymentFilter(_FactFilter):
    title = "deployment preference"
    parameter_name = "deployment"
    attribute = "deployment"
    options = DEPLOYMENTS


def label(options: list[tuple[str, str]], value: str | None) -> str:
    return dict(options).get(value or "", value or "")


class AssignedToMeFilter(admin.SimpleListFilter):
    title = "assignment"
    parameter_name = "mine"

    def lookups(self, request, model_admin):
        return [("assigned", "Assigned to me"), ("unassigned", "Nobody assigned")]

    def queryset(self, request, queryset):
        if self.value() == "assigned":
            return queryset.filter(assignee=request.user)
        if self.value() == "unassigned":
            return queryset.filter(assignee__isnull=True)
        return queryset


def waiting_for_review(queryset: QuerySet) -> QuerySet:
    """Open submissions whose newest version is finished, with its PDF, and not approved."""
    newest = Recommendation.objects.filter(submission=OuterRef("pk")).order_by("-version")
    return (
        queryset.annotate(newest_approved_at=Subquery(newest.values("approved_at")[:1]))
        .filter(pipeline_status=Submission.PipelineStatus.READY, newest_approved_at__isnull=True)
        .exclude(status__in=FINISHED)
    )


def needing_a_hand(queryset: QuerySet) -> QuerySet:
    """Open submissions whose newest run failed for good (its sizing, its proposal's render or
    the proposal's check): nothing reaches the customer until an engineer steps in."""
    return queryset.filter(pipeline_status=Submission.PipelineStatus.FAILED).exclude(
        status__in=FINISHED
    )


class NeedsAHandFilter(admin.SimpleListFilter):
    """Proposals that need a hand: the failed runs of open submissions (also listed, with their
    reasons, on the staff overview)."""

    title = "needs a hand"
    parameter_name = "needs_hand"

    def lookups(self, request, model_admin):
        return [("yes", "Proposals that need a hand")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return needing_a_hand(queryset)
        return queryset


class WaitingForMyReviewFilter(admin.SimpleListFilter):
    """Engineers' queue; shown to those who may approve a version."""

    title = "review"
    parameter_name = "review"

    def lookups(self, request, model_admin):
        if not request.user.has_perm(APPROVE_PERMISSION):
            return []
        return [("waiting", "Waiting for my review")]

    def queryset(self, request, queryset):
        if self.value() == "waiting":
            return waiting_for_review(queryset)
        return queryset


class AssigneeFilter(admin.SimpleListFilter):
    """The account managers by full name (Django's own filter would show user names)."""

    title = "assignee"
    parameter_name = "assignee"

    def lookups(self, request, model_admin):
        return [(str(user.pk), full_name(user)) for user in account_managers()]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(assignee_id=int(value))
        return queryset
