"""The short on-screen summary of a submission's latest finished sizing (confirmation page).

The questionnaire's confirmation template loads this library by name: the customer's page shows
the pipeline's progress without the questionnaire importing the pipeline.
"""

from typing import Any

from django import template

from pipeline.versions import latest_finished
from reports.document import headline
from sizing.engine.numbers import format_number
from sizing.results import read_result

register = template.Library()


@register.simple_tag
def sizing_summary(submission) -> dict[str, Any] | None:
    """Headline figures of the latest finished Recommendation, or None while there is none."""
    recommendation = latest_finished(submission)
    if recommendation is None or not recommendation.result:
        return None
    figures = headline(read_result(recommendation.result))
    return {
        "accelerator": figures["accelerator"],
        "gpus": format_number(figures["gpus"]),
        "nodes": format_number(figures["nodes"]),
        "days": figures["days_text"],
        "days_range": figures["days_range_text"],
        "gpus_needed": figures["gpus_needed_text"],
        "backing": figures["backing_text"],
        "cost_option": figures["cost_option"],
        "cost_total": figures["cost_total_text"],
        "cost_low": figures["cost_low_text"],
        "cost_high": figures["cost_high_text"],
        "years": figures["years"],
    }
