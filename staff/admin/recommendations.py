"""Recommendation versions in the admin: read-only, with what changed between versions."""

import json

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from pipeline.models import Recommendation
from pipeline.versions import previous_version
from sizing.public import (
    describe_value,
    input_term,
    noun_for,
)
from staff.admin.read_only import ReadOnlyMixin
from staff.diff import diff_versions
from staff.summary import recommended_cluster, recommended_cost
from staff.version_changes import version_changes
from staff.workflow import full_name


def _compared_with(recommendation: Recommendation) -> Recommendation | str:
    """The version to compare with, or why there is none ("First version")."""
    previous = previous_version(recommendation)
    if previous is None:
        return "First version"
    if recommendation.status != Recommendation.Status.DONE:
        return f"Not finished yet ({recommendation.get_status_display().lower()})"
    return previous


def change_summary(recommendation: Recommendation) -> str:
    """What changed from the previous version, in words: cost, accelerators and days first."""
    previous = _compared_with(recommendation)
    if isinstance(previous, str):
        return previous
    diff = diff_versions(previous, recommendation)
    rows = [(c.label, c.before, c.after) for c in diff.figures]
    if diff.inputs:
        rows += [(f"Input: {c.label}", c.before, c.after) for c in diff.inputs]
    if diff.engine:
        rows.append((diff.engine.label, diff.engine.before, diff.engine.after))
    if not rows and not diff.other_outputs:
        return f"Same as v{previous.version}"
    body = format_html_join("", '<tr><th scope="row">{}</th><td>{}</td><td>{}</td></tr>', rows)
    more = ""
    if diff.other_outputs:
        more = format_html(
            '<p class="what-changed-more">and {} other {} changed: '
            '<a href="{}#every-change">every change on the version {} page</a></p>',
            diff.other_outputs,
            noun_for(diff.other_outputs, "detail"),
            version_page(recommendation),
            recommendation.version,
        )
    return format_html(
        '<table class="what-changed"><thead><tr><th scope="col">What</th>'
        '<th scope="col">v{}</th><th scope="col">v{}</th></tr></thead><tbody>{}</tbody></table>{}',
        previous.version,
        recommendation.version,
        body,
        more,
    )


def version_page(recommendation: Recommendation) -> str:
    return reverse("admin:pipeline_recommendation_change", args=[recommendation.pk])


def every_change(recommendation: Recommendation) -> str:
    """Every figure that changed from the previous version, old → new in words, by section
    (``staff.version_changes``)."""
    previous = _compared_with(recommendation)
    if isinstance(previous, str):
        return previous
    groups = version_changes(previous, recommendation)
    if not groups:
        return f"Same as v{previous.version}"
    head = format_html(
        '<thead><tr><th scope="col">What</th><th scope="col">v{}</th>'
        '<th scope="col"></th><th scope="col">v{}</th></tr></thead>',
        previous.version,
        recommendation.version,
    )
    sections = format_html_join(
        "",
        '<h3>{}</h3><table class="every-change">{}<tbody>{}</tbody></table>',
        (
            (
                group.title,
                head,
                format_html_join(
                    "",
                    '<tr><th scope="row">{}</th><td>{}</td><td aria-hidden="true">→</td>'
                    "<td>{}</td></tr>",
                    ((c.label, c.before, c.after) for c in group.changes),
                ),
            )
            for group in groups
        ),
    )
    return format_html('<div id="every-change">{}</div>', sections)


def _pretty(value, what: str) -> str:
    """Raw JSON, folded away: the words above are what staff read."""
    return format_html(
        "<details><summary>{} as the engine wrote it (JSON)</summary><pre>{}</pre></details>",
        what,
        json.dumps(value, indent=2, sort_keys=True, default=str),
    )


class RecommendationReadOnly(ReadOnlyMixin):
    """Versions are written by the pipeline only; staff compare them and read their figures."""

    @admin.display(description="Recommended")
    def recommended(self, obj: Recommendation) -> str:
        return recommended_cluster(obj) or "—"

    @admin.display(description="Cost")
    def cost(self, obj: Recommendation) -> str:
        return recommended_cost(obj, short=True) or "—"

    @admin.display(description="Approved")
    def approval(self, obj: Recommendation) -> str:
        if not obj.is_approved:
            return "not approved"
        who = full_name(obj.approved_by) if obj.approved_by else "before the approval gate"
        return f"{obj.approved_at:%Y-%m-%d %H:%M} by {who}"

    @admin.display(description="Requested by")
    def requester(self, obj: Recommendation) -> str:
        return full_name(obj.requested_by) if obj.requested_by else "the customer's submission"

    @admin.display(description="Overrides")
    def overrides_shown(self, obj: Recommendation) -> str:
        if not obj.overrides:
            return "none"
        pairs = []
        for section, values in obj.overrides.items():
            items = values.items() if isinstance(values, dict) else [("", values)]
            for name, value in items:
                path = f"{section}.{name}" if name else section
                pairs.append((input_term(path).label, describe_value(path, value)))
        return format_html_join("; ", "{}: {}", pairs)

    @admin.display(description="What changed")
    def what_changed(self, obj: Recommendation) -> str:
        return change_summary(obj)


class RecommendationInline(RecommendationReadOnly, admin.TabularInline):
    model = Recommendation
    verbose_name_plural = "Recommendation versions"
    fields = [
        "version",
        "status",
        "approval",
        "recommended",
        "cost",
        "what_changed",
        "overrides_shown",
        "requester",
        "created_at",
        "error",
    ]
    readonly_fields = fields
    extra = 0
    ordering = ["-version"]


@admin.register(Recommendation)
class RecommendationAdmin(RecommendationReadOnly, admin.ModelAdmin):
    list_display = [
        "__str__",
        "submission",
        "status",
        "approval",
        "recommended",
        "cost",
        "engine_version",
        "created_at",
    ]
    list_filter = ["status"]
    search_fields = ["submission__reference"]
    list_select_related = ["submission"]
    fields = [
        "submission",
        "version",
        "status",
        "approval",
        "recommended",
        "cost",
        "what_changed",
        "every_change_shown",
        "overrides_shown",
        "engine_version",
        "requester",
        "created_at",
        "finished_at",
        "attempts",
        "error",
        "engine_input_shown",
        "result_shown",
    ]
    readonly_fields = fields

    @admin.display(description="Every change from the previous version")
    def every_change_shown(self, obj: Recommendation) -> str:
        return every_change(obj)

    @admin.display(description="Engine input")
    def engine_input_shown(self, obj: Recommendation) -> str:
        return _pretty(obj.engine_input, "Engine input")

    @admin.display(description="Result, assumptions and warnings")
    def result_shown(self, obj: Recommendation) -> str:
        return _pretty(obj.result, "Result")
