"""The review page's charts of the first estimate, drawn by the proposal's own chart code.

The questionnaire's review template loads this library by name (imports point down: the
questionnaire never imports ``reports``), as the confirmation page loads the pipeline's.
"""

from collections.abc import Mapping
from typing import Any

from django import template

from reports.on_screen import EstimateCharts
from reports.on_screen import estimate_charts as charts_of

register = template.Library()


@register.simple_tag
def estimate_charts(result: Mapping[str, Any], engine_input: Mapping[str, Any]) -> EstimateCharts:
    """``{% estimate_charts estimate.result estimate.engine_input as charts %}``"""
    return charts_of(result or {}, engine_input or {})
