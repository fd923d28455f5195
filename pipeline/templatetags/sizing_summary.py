"""The customer's view of their submission on the confirmation page: where it stands, and the
figures they may see.

The questionnaire's confirmation template loads this library by name: the customer's page shows
the pipeline's progress without the questionnaire importing the pipeline. It follows the
approval gate (``pipeline.versions.customer_version``): the first estimate, marked preliminary,
until an engineer approves a version; then only the version approved last. An engineer's what-if
re-run, its progress and its failures never show here.
"""

from typing import Any

from django import template

from pipeline.models import Recommendation
from pipeline.versions import checked, customer_version_for
from questionnaire.models import Submission
from sizing.public import (
    backing,
    credited,
    figures_of,
    read_result,
)

register = template.Library()

Status = Submission.WorkflowStatus
# Statuses in which the customer has been sent a proposal.
SENT = frozenset({Status.PROPOSAL_SENT, Status.VIEWED, Status.WON, Status.LOST})
FIRST_RUN_WORDS = {
    Recommendation.Status.PENDING: "Waiting for sizing",
    Recommendation.Status.RUNNING: "Sizing",
}


# What the customer reads while nothing approved can reach them on its own (``stranded``).
BY_HAND = "An engineer is preparing your proposal by hand"


@register.simple_tag(takes_context=True)
def customer_status(context, submission) -> dict[str, Any]:
    """``{"label", "working", "by_hand"}``: the status line the customer reads.

    ``working``: the page waits for the pipeline (it refreshes itself); ``by_hand``: the first
    version cannot reach the customer on its own (its sizing or its proposal failed), so an
    engineer prepares it and the customer is told they will be emailed, never "ready".
    """
    shown = customer_version_for(context.get("request"), submission)
    first = shown.first
    if not shown.preliminary:
        label = (
            "Proposal sent to you"
            if submission.status in SENT
            else "Checked by our engineer; we are preparing to send your proposal"
        )
        return {"label": label, "working": False, "by_hand": False}
    if shown.stranded:
        return {"label": BY_HAND, "working": False, "by_hand": True}
    if first is None or first.status in FIRST_RUN_WORDS:
        return {
            "label": FIRST_RUN_WORDS.get(first.status if first else "", "Waiting for sizing"),
            "working": True,
            "by_hand": False,
        }
    if shown.writing:
        return {
            "label": "First estimate ready; we are writing your proposal",
            "working": True,
            "by_hand": False,
        }
    return {
        "label": "First estimate ready; an engineer checks it",
        "working": False,
        "by_hand": False,
    }


@register.simple_tag(takes_context=True)
def sizing_summary(context, submission) -> dict[str, Any] | None:
    """Headline figures of the version the customer may see, or None while there is none."""
    shown = customer_version_for(context.get("request"), submission)
    recommendation = shown.recommendation
    if recommendation is None or not recommendation.result:
        return None
    # the review page's figures, from the one room (sizing.words.estimate.figures_of), so
    # the count, the time and the cost do not change on sending; who set each value comes
    # from the version's recorded input sources (an engineer's override is said as such)
    result = credited(read_result(recommendation.result), recommendation.input_sources)
    approval = None if shown.preliminary else checked(recommendation)
    return {
        "preliminary": shown.preliminary,
        # who checked it and when, and what changed from the first estimate (one sentence)
        "checked": approval.sentence if approval else "",
        "version": recommendation.version,
        "figures": figures_of(result, recommendation.input_sources or {}),
        "backing": backing(result),
    }
