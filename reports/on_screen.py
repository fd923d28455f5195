"""The proposal on screen: the same body, context and charts as the PDF, in the site's layout.

The web version renders ``reports/_proposal_body.html`` with :func:`reports.document.
proposal_context`, the PDF's own template and context, inside ``reports/web_proposal.html``
(the site's ``base.html``, its stylesheets and Content-Security-Policy). Nothing here calls
WeasyPrint, so no URL on the page ever reaches its fetcher (``reports.fetcher``); the charts are
the PDF's inline SVG (``reports.charts``), which the policy allows (no script, no style
attribute).

The review and confirmation pages show two of those charts for one sizing
(:func:`estimate_charts`): one run's time against the number of accelerators, and the cost of
each option.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from reports.cost_page import cost_chart
from reports.document import timeline_chart_of
from sizing.public import read_result


@dataclass(frozen=True)
class EstimateCharts:
    """Two charts of one sizing, as inline SVG ("" when the result has nothing to draw)."""

    timeline: SafeString
    cost: SafeString

    def __bool__(self) -> bool:
        return bool(self.timeline or self.cost)


def estimate_charts(result: Mapping[str, Any], engine_input: Mapping[str, Any]) -> EstimateCharts:
    """The timeline and cost charts of a stored engine result, drawn as the proposal draws them."""
    if not result:
        return EstimateCharts(SafeString(""), SafeString(""))
    stored = read_result(dict(result))
    return EstimateCharts(
        timeline=timeline_chart_of(stored, dict(engine_input)),
        cost=cost_chart(stored),
    )
