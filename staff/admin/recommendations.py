"""Recommendation versions in the admin: read-only, with what changed between versions."""

import json

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from pipeline.models import Recommendation
from pipeline.versions import describe_changes, previous_version
from staff.admin.read_only import ReadOnlyMixin
from staff.summary import recommended_cluster

_MAX_CHANGES_SHOWN = 6
# The outputs a reviewer looks at first; other changed outputs are only counted.
HEADLINE_OUTPUTS = (
    "cluster.accelerator",
    "cluster.gpus",
    "cluster.nodes",
    "timeline.wall_clock_days",
    "compute.gpu_hours",
    "memory.per_gpu_gb",
    "memory.fits",
    "storage.checkpoint_size_gb",
)


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "…"


def change_summary(recommendation: Recommendation) -> str:
    """A few lines: inputs changed, then how many outputs changed and the first of them."""
    previous = previous_version(recommendation)
    if previous is None:
        return "First version"
    changes = describe_changes(previous, recommendation)
    rows = []
    for change in changes["inputs"][:_MAX_CHANGES_SHOWN]:
        rows.append(
            (f"Input {change['field']}", f"{_short(change['before'])} → {_short(change['after'])}")
        )
    outputs = {change["field"]: change for change in changes["outputs"]}
    headline = [outputs[name] for name in HEADLINE_OUTPUTS if name in outputs]
    for change in headline:
        rows.append(
            (f"Output {change['field']}", f"{_short(change['before'])} → {_short(change['after'])}")
        )
    if len(outputs) > len(headline):
        more = len(outputs) - len(headline)
        rows.append(("", f"and {more} other output{'s' if more > 1 else ''} changed"))
    if changes.get("engine_version"):
        ev = changes["engine_version"]
        rows.append(("Engine", f"{ev['before']} → {ev['after']}"))
    if not rows:
        return f"Same as v{previous.version}"
    body = format_html_join("", "<li><strong>{}</strong> {}</li>", rows)
    return format_html('<ul class="what-changed">{}</ul>', body)


def _pretty(value) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, sort_keys=True, default=str))


class RecommendationReadOnly(ReadOnlyMixin):
    """Versions are written by the pipeline only; staff compare them and read their figures."""

    @admin.display(description="Recommended")
    def recommended(self, obj: Recommendation) -> str:
        return recommended_cluster(obj) or "—"

    @admin.display(description="Overrides")
    def overrides_shown(self, obj: Recommendation) -> str:
        if not obj.overrides:
            return "none"
        pairs = []
        for section, values in obj.overrides.items():
            if isinstance(values, dict):
                pairs += [(f"{section}.{k}", _short(v)) for k, v in values.items()]
            else:
                pairs.append((section, _short(values)))
        return format_html_join(", ", "{}={}", pairs)

    @admin.display(description="What changed")
    def what_changed(self, obj: Recommendation) -> str:
        return change_summary(obj)


class RecommendationInline(RecommendationReadOnly, admin.TabularInline):
    model = Recommendation
    verbose_name_plural = "Recommendation versions"
    fields = [
        "version",
        "status",
        "recommended",
        "overrides_shown",
        "what_changed",
        "requested_by",
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
        "recommended",
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
        "recommended",
        "what_changed",
        "overrides_shown",
        "engine_version",
        "requested_by",
        "created_at",
        "finished_at",
        "attempts",
        "error",
        "engine_input_shown",
        "result_shown",
    ]
    readonly_fields = fields

    @admin.display(description="Engine input")
    def engine_input_shown(self, obj: Recommendation) -> str:
        return _pretty(obj.engine_input)

    @admin.display(description="Result, assumptions and warnings")
    def result_shown(self, obj: Recommendation) -> str:
        return _pretty(obj.result)
