"""A chart prints its labels as HTML text over its SVG (issue 29: WeasyPrint draws SVG text a
glyph at a time), each exactly where the SVG would draw it, and stays SVG on screen."""

from __future__ import annotations

import copy

import pytest
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

from reports import chart_markup, charts
from reports.chart_markup import CHART_LABEL_CLASS, Chart, Label, number
from reports.document import lay_out

# The demo's deadline chart: start-, middle- and end-anchored labels, one bold, one in red.
TIMELINE = charts.timeline_chart(
    [(64, 90.0), (128, 46.0), (256, 24.0), (320, 20.8), (512, 13.5), (1024, 7.0)],
    deadline_days=21,
    recommended_gpus=320,
)


def _laid_out(chart: Chart, section_class: str):
    """(the SVG's box, each printed label's text box) of ``chart`` laid out as the proposal
    prints it, in a section of ``section_class``."""
    html = (
        "<html lang='en'><head><meta charset='utf-8'>"
        "<link rel='stylesheet' href='/static/reports/proposal.css'></head><body>"
        f"<section class='{section_class}'><figure class='chart-figure'>{chart.printed()}</figure>"
        "</section></body></html>"
    )
    svg, texts = None, []

    def walk(box, in_label: bool) -> None:
        nonlocal svg
        element = getattr(box, "element", None)
        classes = (element.get("class") or "").split() if hasattr(element, "get") else []
        if "chart" in classes:
            svg = box
        in_label = in_label or CHART_LABEL_CLASS in classes
        if in_label and hasattr(box, "text"):
            texts.append(box)
        for child in getattr(box, "children", ()):
            walk(child, in_label)

    walk(lay_out(html).pages[0]._page_box, False)
    return svg, texts


@pytest.mark.parametrize("section_class", ["chapter", "chapter area"])  # full width and 56 %
@pytest.mark.parametrize(
    "chart",
    [
        TIMELINE,
        charts.memory_chart({"weights": 35.0, "optimizer": 2.6}, usable_gb=76.0),
        charts.cost_range_chart(
            [
                charts.RangeBar("Buy, in a rented data centre (colocation)", 9e6, 7e6, 12e6),
                charts.RangeBar("Buy", 8e6, 6e6, 11e6, "recommended"),
                charts.RangeBar("Shared cloud", 5e6, 4e6, 6e6, "ruled_out"),
            ],
            currency="EUR",
        ),
    ],
    ids=["timeline", "memory", "cost"],
)
def test_each_printed_label_sits_where_the_svg_draws_it(chart, section_class):
    svg, texts = _laid_out(chart, section_class)
    labels = [part for part in chart.parts if isinstance(part, Label)]
    assert [box.text for box in texts] == [label.text for label in labels]
    scale = svg.width / chart.width  # [px per chart unit]
    assert svg.height == pytest.approx(chart.height * scale)
    for label, box in zip(labels, texts, strict=True):
        left, right = box.position_x, box.position_x + box.width
        at = {"start": left, "middle": (left + right) / 2, "end": right}[label.anchor]
        where = f"{label.text!r} ({label.anchor})"
        assert at == pytest.approx(svg.position_x + label.x * scale, abs=0.1), where
        baseline = box.position_y + box.baseline
        assert baseline == pytest.approx(svg.position_y + label.y * scale, abs=0.1), where
        assert box.style["font_size"] == pytest.approx(label.size * scale)
        assert box.style["font_weight"] == (700 if label.weight == "bold" else 400), where


def test_a_printed_label_keeps_its_colour():
    _svg, texts = _laid_out(TIMELINE, "chapter")
    colours = {box.text.split(":")[0]: box.style["color"] for box in texts}
    hexes = {
        word: "#{:02x}{:02x}{:02x}".format(*(round(c * 255) for c in colour[:3]))
        for word, colour in colours.items()
    }
    assert hexes["deadline"] == "#b3261e"
    assert hexes["recommended"] == "#1d1d1f"
    assert hexes["number of accelerators"] == "#5f6368"


def test_on_screen_a_chart_is_one_svg_with_its_labels_as_svg_text():
    # the site's Content-Security-Policy refuses style attributes: no HTML label on screen
    assert TIMELINE.startswith("<svg") and "style=" not in TIMELINE
    assert TIMELINE.count("<text ") == sum(isinstance(p, Label) for p in TIMELINE.parts)
    assert "<title>Wall-clock days against number of accelerators</title>" in TIMELINE


def test_printed_the_svg_keeps_its_title_and_the_labels_are_marked_aria_hidden():
    printed = TIMELINE.printed()
    svg = printed[printed.index("<svg") : printed.index("</svg>")]
    assert 'role="img"' in svg and "<title>Wall-clock days against" in svg
    assert "<text" not in svg
    # for HTML readers; WeasyPrint 70 tags them in the PDF after the figure (pdf/tags.py)
    assert printed.count('aria-hidden="true"') == 1


def test_a_label_escapes_what_it_is_given():
    chart = Chart(100, 20, "t & <b>", [Label(5, 12, "<script>x</script>")])
    for markup in (str(chart), chart.printed()):
        assert "<script>" not in markup and "&lt;script&gt;" in markup
        assert "t &amp; &lt;b&gt;" in markup


def test_a_chart_copies_like_the_string_it_is():
    # SafeString's own reduction would call Chart(markup) and fail: a deep-copied or cached
    # template context holds charts
    copied = copy.deepcopy(TIMELINE)
    assert copied == TIMELINE and copied.printed() == TIMELINE.printed()


@pytest.mark.parametrize(
    "values",
    [
        (12, 3.5, -0.25, True, 1e-7, float("inf")),
        ("plain", "<b>bold</b> & “quotes” \"double\" 'single'", "", "éà ✱"),
        (SafeString("<path d='M0 0'/>"), "a < b", 640),
        (number(12.3456), number(-0.5), number(3.0)),
        (gettext_lazy("Cost"), Label(1, 2, "x & y").svg()),
    ],
)
def test_markup_is_format_html_for_every_kind_of_value(values):
    template = "<g " + " ".join(f'a{i}="{{}}"' for i in range(len(values))) + "/>"
    made = chart_markup.markup(template, *values)
    assert made == format_html(template, *values)
    assert isinstance(made, SafeString)
