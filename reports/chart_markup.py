"""A chart's markup: its shapes in SVG, its words and numbers drawn one of two ways.

On screen (the web proposal, the review and confirmation pages, the calibration report) a chart
is one inline SVG whose labels are SVG ``<text>``: the browser scales them with the drawing, and
the site's Content-Security-Policy (``style-src 'self'``) would refuse the ``style`` attribute
that places an HTML label.

In the PDF (:meth:`Chart.printed`) the same shapes stay SVG but each label is an HTML element
placed over them. WeasyPrint draws SVG text one glyph at a time (a text run per letter): the
demo proposal's 48 chart labels cost it about 20 ms of layout and 40 ms of writing the PDF
(issue 29), where HTML text is laid out and written as a line. The label keeps its place, size,
weight and colour: its box is put where SVG would put its baseline and anchor, in the chart's
own units (``static/reports/proposal.css``, ``.chart-canvas``, sets one unit's length).

Every value goes in with :func:`markup`, which escapes it as ``format_html`` does: nothing a
customer typed can become markup even if it reached a label.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeData, SafeString, mark_safe

WARNING = "#b3261e"
# The stylesheet's --ink, --muted and --warning: the colour of each kind of label.
TEXT_COLOURS = {"label": "#1d1d1f", "axis-title": "#5f6368", "deadline": WARNING}
# A printed label's class: the proposal checker reads such an element as a chart label.
CHART_LABEL_CLASS = "chart-label"

# Where a line of DejaVu Sans set at ``line-height: 1`` has its baseline, from the top of its
# box [em]: half the leading (1 less ascent 0.928 and descent 0.236, over two) plus the ascent,
# from the font's hhea table as Pango reads it (0.846: WeasyPrint 70's line box for the font).
BASELINE_EM = 0.846


def markup(template: str, *values: object) -> SafeString:
    """``format_html`` for a chart's many small elements, without its cost per value: the
    review page's two charts put some 600 values into their markup (issue 29). Markup and
    numbers go in as they are (no character of a number needs escaping); anything else is
    escaped exactly as ``format_html`` escapes it (``html.escape``, quotes included)."""
    return mark_safe(  # noqa: S308 - every value is escaped or markup already
        template.format(
            *(
                value if isinstance(value, SafeData | int | float) else html.escape(str(value))
                for value in values
            )
        )
    )


def number(value: float) -> str:
    """A coordinate as SVG and CSS take it: two decimals at most, no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def join(parts: Iterable[SafeString]) -> SafeString:
    return mark_safe("".join(parts))  # noqa: S308 - every part comes from markup


@dataclass(frozen=True)
class Label:
    """One word or number on a chart: ``x``, ``y`` [chart units] are its baseline at its
    ``anchor`` (SVG's text-anchor: "start", "middle" or "end"); ``size`` [chart units]."""

    x: float
    y: float
    text: str
    anchor: str = "middle"
    size: int = 11
    kind: str = "label"  # a key of TEXT_COLOURS
    weight: str = "normal"

    def svg(self) -> SafeString:
        return markup(
            '<text x="{}" y="{}" text-anchor="{}" font-size="{}" font-weight="{}" fill="{}" '
            'font-family="DejaVu Sans, sans-serif">{}</text>',
            number(self.x),
            number(self.y),
            self.anchor,
            self.size,
            self.weight,
            TEXT_COLOURS.get(self.kind, TEXT_COLOURS["label"]),
            self.text,
        )

    def html(self, width: int) -> SafeString:
        """The label as an HTML element over a chart ``width`` [chart units] wide: a line as
        wide as the chart, aligned at its anchor, moved to its place (relative positioning, in
        ems of its own size: its box's top is its baseline less :data:`BASELINE_EM`)."""
        left = {"start": self.x, "middle": self.x - width / 2, "end": self.x - width}
        return markup(
            '<span class="{} {} {} {}" style="font-size: {}em; top: {}em; left: {}em">{}</span>',
            CHART_LABEL_CLASS,
            self.kind,
            self.weight,
            self.anchor,
            self.size,
            number(self.y / self.size - BASELINE_EM),
            number(left[self.anchor] / self.size),
            self.text,
        )


class Chart(SafeString):
    """A chart as markup: on screen its SVG (the string itself, labels as SVG text), in print
    :meth:`printed`. ``parts`` are drawn in order: shapes (SVG markup) and :class:`Label`\\ s."""

    width: int
    height: int
    title: str
    parts: tuple[SafeString | Label, ...]

    def __new__(
        cls, width: int, height: int, title: str, parts: Iterable[SafeString | Label]
    ) -> Chart:
        parts = tuple(parts)
        body = join(p.svg() if isinstance(p, Label) else p for p in parts)
        chart = super().__new__(cls, _svg(width, height, title, body))
        chart.width, chart.height, chart.title, chart.parts = width, height, title, parts
        return chart

    def __reduce__(self) -> tuple[Any, ...]:
        return (Chart, (self.width, self.height, self.title, self.parts))

    def printed(self) -> SafeString:
        """The chart for WeasyPrint: its shapes as SVG (one figure, its title the alternative
        text) with the labels as HTML text over it, in a box of the SVG's size."""
        shapes = join(p for p in self.parts if not isinstance(p, Label))
        labels = join(p.html(self.width) for p in self.parts if isinstance(p, Label))
        return markup(
            '<div class="chart-canvas" style="font-size: calc(var(--chart-width) / {})">{}'
            '<div class="chart-labels" aria-hidden="true">{}</div></div>',
            self.width,
            _svg(self.width, self.height, self.title, shapes),
            labels,
        )


def _svg(width: int, height: int, title: str, body: SafeString) -> SafeString:
    return markup(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {} {}" '
        'width="{}" height="{}" role="img" aria-label="{}"><title>{}</title>{}</svg>',
        width,
        height,
        width,
        height,
        title,
        title,
        body,
    )
