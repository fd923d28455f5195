"""No near-empty page, and no chart label cut off, in any story's proposal.

Walked proposals had page 3 almost blank (a summary a few lines over its page, then a forced
break), a last page 21 % full (a few rows of the method's table) and a chart label cut to
"ecommended: 10.2 hours" on an axis of days.
"""

from __future__ import annotations

import html as entities
import re

import pytest
from django.template.loader import render_to_string
from PIL import ImageFont
from weasyprint import HTML

from reports.document import BASE_URL, LAST_PAGE_MIN_FILL, proposal_context, render_data
from reports.fetcher import ProposalURLFetcher
from reports.layout import page_fill
from tests.reports.stories import STORIES, story_data

# Every page but the cover holds at least this much; the last one at least LAST_PAGE_MIN_FILL.
MIN_FILL = 0.35
MAX_PAGES = 14

FONTS = {
    "normal": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
}


@pytest.fixture(scope="module", params=STORIES, ids=lambda s: s or "demo")
def rendered(request):
    return request.param, render_data(story_data(request.param))


def test_no_page_is_almost_empty(rendered):
    story, pdf = rendered
    fills = pdf.page_fill
    assert len(fills) == pdf.page_count <= MAX_PAGES
    body = fills[1:-1]  # the cover is a page of its own by design
    thin = [(number, f"{fill:.0%}") for number, fill in enumerate(body, start=2) if fill < MIN_FILL]
    assert not thin, f"{story or 'demo'}: pages under {MIN_FILL:.0%} full: {thin}"
    assert fills[-1] >= LAST_PAGE_MIN_FILL, f"last page {fills[-1]:.0%} full"
    assert not pdf.findings


@pytest.mark.parametrize("rendered", [""], indirect=True, ids=["demo"])
def test_the_demo_proposal_is_laid_out_once(rendered):
    # Its first layout ran onto a 15th page 17 % full, so every demo render (the pipeline
    # benchmark's, each "send" of the demo answers) laid it out twice: half of a render's time.
    _story, pdf = rendered
    assert pdf.layouts == 1, f"{pdf.page_count} pages, the last {pdf.page_fill[-1]:.0%} full"


def test_page_fill_reads_a_near_empty_page():
    two = "<p>one line</p><p style='break-before: page'>" + "<br>".join(["x"] * 40) + "</p>"
    pages = HTML(string=two, base_url=BASE_URL, url_fetcher=ProposalURLFetcher()).render().pages
    first, second = page_fill(pages)
    assert first < 0.05 < 0.5 < second


_SVG = re.compile(r'<svg[^>]*viewBox="0 0 (\d+) (\d+)"[^>]*>(.*?)</svg>', re.S)
_TEXT = re.compile(
    r'<text x="([\d.-]+)" y="([\d.-]+)" text-anchor="(\w+)" font-size="(\d+)" '
    r'font-weight="(\w+)"[^>]*>(.*?)</text>',
    re.S,
)


def _charts(story: str) -> list[tuple[str, str, str]]:
    """(width, height, body) of each chart of a story's proposal, as SVG: the labels' places as
    the chart code decided them (the PDF prints the same places as HTML text over the SVG:
    tests/reports/test_chart_markup.py)."""
    body = render_to_string("reports/_proposal_body.html", proposal_context(story_data(story)))
    return _SVG.findall(body)


def _boxes(body: str) -> list[tuple[str, float, float, float, float]]:
    """Each label of a chart with its measured box (text, left, top, right, bottom)."""
    found = []
    for x, y, anchor, size, weight, text in _TEXT.findall(body):
        text = entities.unescape(text)
        font = ImageFont.truetype(FONTS[weight], int(size))
        width = font.getlength(text)
        left = float(x) - {"start": 0, "middle": width / 2, "end": width}[anchor]
        ascent, descent = font.getmetrics()
        found.append((text, left, float(y) - ascent, left + width, float(y) + descent))
    return found


def _overlapping(body: str) -> list[str]:
    """Each pair of labels of one chart whose glyphs overlap ("recommended: 10.5 hours" was
    printed over "deadline: 12 hours")."""
    labels = [b for b in _boxes(body) if b[0].strip()]
    pairs = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            # a pixel of the descent may touch the next line's ascent: 2 px of tolerance
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] - 2 and b[2] < a[4] - 2:
                pairs.append(f"{a[0]!r} over {b[0]!r}")
    return pairs


def _outside(svg_width: int, svg_height: int, body: str) -> list[str]:
    """Each label of one chart whose measured glyphs leave the chart's viewBox."""
    return [
        f"{text!r} at x {left:.0f}–{right:.0f} of {svg_width}"
        for text, left, top, right, bottom in _boxes(body)
        if left < 0 or right > svg_width or top < 0 or bottom > svg_height
    ]


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s or "demo")
def test_every_chart_label_stays_inside_its_chart(story):
    charts = _charts(story)
    assert charts
    outside = [label for w, h, body in charts for label in _outside(int(w), int(h), body)]
    assert not outside, outside


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s or "demo")
def test_no_two_chart_labels_overlap(story):
    overlapping = [pair for _w, _h, body in _charts(story) for pair in _overlapping(body)]
    assert not overlapping, overlapping


@pytest.mark.parametrize("story", ["lora-one-node", "insurance"])
def test_a_time_axis_counts_in_the_unit_of_its_labels(story):
    # a run of hours: "recommended: 10.2 hours" sat on an axis of days
    chart = next(body for _w, _h, body in _charts(story) if "recommended:" in body)
    labels = [entities.unescape(t[-1]) for t in _TEXT.findall(chart)]
    recommended = next(label for label in labels if label.startswith("recommended:"))
    assert recommended.endswith("hours")
    assert "hours" in labels and "days" not in labels
