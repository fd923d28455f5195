"""The short on-screen summary of a submission's latest finished sizing (confirmation page)."""

from typing import Any

from django import template

from reports.document import headline
from reports.figures import money, number
from sizing.models import Recommendation

register = template.Library()


@register.simple_tag
def sizing_summary(submission) -> dict[str, Any] | None:
    """Headline figures of the latest finished Recommendation, or None while there is none."""
    recommendation = (
        Recommendation.objects.filter(submission=submission, status=Recommendation.Status.DONE)
        .order_by("-version")
        .only("result", "version")
        .first()
    )
    if recommendation is None or not recommendation.result:
        return None
    figures = headline(recommendation.result)
    days = figures["wall_clock_days"]
    return {
        "accelerator": figures["accelerator"],
        "gpus": number(figures["gpus"]),
        "nodes": number(figures["nodes"]),
        "days": f"{days:.1f}" if isinstance(days, int | float) else "—",
        "cost_low": money(figures["cost_low"]) if figures["cost_low"] is not None else "",
        "cost_high": money(figures["cost_high"]) if figures["cost_high"] is not None else "",
        "years": figures["years"],
    }
