"""The proposal on screen is the PDF's own body, and the review and confirmation pages' charts
are the proposal's own charts (issue 28, "On screen too")."""

from django.template.loader import render_to_string

from reports.demo import demo_data
from reports.document import build_context, proposal_context, render_html
from reports.on_screen import estimate_charts
from sizing.public import read_result


def test_the_web_body_is_the_body_of_the_pdf_word_for_word():
    data = demo_data(scenario="sovereign-eu")
    context = proposal_context(data)
    body = render_to_string("reports/_proposal_body.html", context)
    printed = render_to_string("reports/_proposal_body.html", {**context, "printed": True})
    pdf_html = render_html(data)
    assert printed in pdf_html
    # nothing of the proposal lives outside the shared body but the document's head
    assert pdf_html.index(printed) < 600 and len(pdf_html) - len(printed) < 800
    assert 'id="glossary"' in body  # the glossary too, worked out once for both
    # the charts alone differ: printed, their labels are HTML text over the SVG (issue 29)
    charts = [s["chart"] for s in context["sections"] if s.get("chart")] + [
        context["cost"]["chart"]
    ]
    assert len(charts) == 3 and all(chart.printed() in printed for chart in charts)
    for chart in charts:
        printed = printed.replace(chart.printed(), chart)
    assert printed == body


def test_the_estimate_charts_are_the_proposals_timeline_and_cost_charts():
    data = demo_data()
    context = build_context(data)
    charts = estimate_charts(data.result, data.engine_input)
    compute = next(s for s in context["sections"] if s["key"] == "compute")
    assert charts.timeline and charts.timeline == compute["chart"]
    assert charts.cost and charts.cost == context["cost"]["chart"]
    assert "<title>Wall-clock days against number of accelerators</title>" in charts.timeline
    assert read_result(data.result).recommended_cost is not None


def test_no_result_draws_no_chart():
    charts = estimate_charts({}, {})
    assert not charts and charts.timeline == "" and charts.cost == ""
