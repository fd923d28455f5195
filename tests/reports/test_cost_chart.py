"""The cost chart draws an option the customer's rules exclude apart from the choices, marked
so: customer 6 (data in Germany, hardware theirs alone) read the shared-cloud bars beside the
recommendation as if they were options."""

import re

from reports import charts
from reports.cost_page import cost_chart
from reports.demo import demo_data
from sizing.public import read_result
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of


def _labels(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def _heights(svg: str) -> dict[str, float]:
    """Each label's height on the chart [px from the top]."""
    return {
        text: float(y) for y, text in re.findall(r'<text x="[^"]*" y="([^"]*)"[^>]*>([^<]*)<', svg)
    }


def test_an_excluded_option_is_drawn_below_a_heading_as_an_outline_marked_excluded():
    svg = str(
        charts.cost_range_chart(
            [
                charts.RangeBar("Shared cloud", 10.0, 5.0, 20.0, "ruled_out"),
                charts.RangeBar("Buy", 100.0, 80.0, 130.0, "recommended"),
                charts.RangeBar("Colocation", 120.0, 90.0, 150.0),
            ]
        )
    )
    labels, at = _labels(svg), _heights(svg)
    heading = next(at[label] for label in labels if label.startswith("Excluded by your"))
    assert at["Buy"] < at["Colocation"] < heading < at["Shared cloud"]
    assert "$10, excluded" in labels
    assert svg.count('fill="none"') == 1  # the excluded one is an outline, not a bar


def test_the_banks_chart_marks_every_shared_cloud_option_excluded():
    result = read_result(
        demo_data(answers=answers_of(STORIES["6 Frankfurt bank adapters"]), today=TODAY).result
    )
    ruled_out = [o for o in result.all_cost_options if o.ruled_out_by and o.total_usd]
    assert ruled_out
    labels = _labels(str(cost_chart(result)))
    assert len([label for label in labels if label.endswith(", excluded")]) == len(ruled_out)
    assert any(label.startswith("Excluded by your rules") for label in labels)
