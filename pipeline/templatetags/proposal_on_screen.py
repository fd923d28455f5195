"""The customer's status page, beyond its status line: the address of their proposal on screen
and the charts of the version they may see.

The questionnaire's confirmation template loads this library by name, as it loads
``sizing_summary``; both follow the approval gate (``pipeline.versions.customer_version``).
"""

from typing import Any

from django import template
from django.urls import reverse

from pipeline.versions import customer_proposal, customer_version_for
from reports.on_screen import estimate_charts

register = template.Library()


@register.simple_tag(takes_context=True)
def proposal_on_screen(context, submission) -> dict[str, Any]:
    """``{"url", "charts"}``: the web version's address once the proposal the customer may see
    is finished ("" before), and the timeline and cost charts of that version's sizing."""
    shown = customer_version_for(context.get("request"), submission)
    recommendation = shown.recommendation
    proposal = customer_proposal(submission, shown)
    return {
        "url": reverse("proposals:customer_web", args=[submission.draft_id])
        if proposal is not None and submission.draft_id
        else "",
        "charts": estimate_charts(recommendation.result, recommendation.engine_input or {})
        if recommendation is not None and recommendation.result
        else None,
    }
