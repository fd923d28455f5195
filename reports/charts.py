"""Server-side charts for the proposal: small, hand-written SVG (vector in the PDF, no JavaScript).

Each function takes plain numbers from the engine's result and returns a
:class:`~reports.chart_markup.Chart`: SVG markup on screen, its labels as HTML text over the
SVG in the PDF (``Chart.printed``). Every value is put in with ``chart_markup.markup``, which
escapes it as ``format_html`` does, so nothing a customer typed can become markup even if it
reached a label.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe

from reports.chart_markup import WARNING, Chart, Label, markup, number
from sizing.public import (
    currency_sign,
    format_count,
    format_days,
    format_money_short,
    format_quantity,
    noun_for,
)

WIDTH, HEIGHT = 640, 300
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 70, 20, 24, 50
# One palette for every chart; the stylesheet uses the same accent colour.
PALETTE = ("#1f5a8a", "#e07b39", "#5a9e6f", "#8a5aa8", "#c9a227", "#888888")
ACCENT = PALETTE[0]


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    colour: str = ACCENT


OFF_CHART_FACTOR = 3.0  # [x] the timeline chart shows times up to this many deadlines


def _short(value: float) -> str:
    """A chart label: 1234 → "1,234", 0.5 → "0.5", 2.5e6 → "2.5M" (the one count formatter)."""
    return format_count(value, short=True)


def _text(
    x: float,
    y: float,
    text: str,
    *,
    anchor: str = "middle",
    size: int = 11,
    cls: str = "label",
    weight: str = "normal",
) -> Label:
    return Label(x, y, text, anchor=anchor, size=size, kind=cls, weight=weight)


def _line(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    *,
    colour: str = "#999",
    width: float = 1,
    dash: str = "",
) -> SafeString:
    return markup(
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}" '
        'stroke-dasharray="{}"/>',
        number(x1),
        number(y1),
        number(x2),
        number(y2),
        colour,
        number(width),
        dash or "none",
    )


def _rect(
    x: float, y: float, w: float, h: float, colour: str, *, outline: bool = False
) -> SafeString:
    """A filled bar, or with ``outline`` a dashed outline: a figure shown for comparison,
    not an option."""
    paint = (
        markup('fill="none" stroke="{}" stroke-dasharray="3 2"', colour)
        if outline
        else (markup('fill="{}"', colour))
    )
    return markup(
        '<rect x="{}" y="{}" width="{}" height="{}" {}/>',
        number(x),
        number(y),
        number(max(w, 0)),
        number(max(h, 0)),
        paint,
    )


# The average advance of a DejaVu Sans glyph, as a share of the font size, with a margin: the
# width a label is given when it is placed (tests/reports/test_layout.py measures the real one).
_GLYPH_EM = 0.62
_EDGE = 4  # [px] a label keeps this far from the chart's edge


def _fit(x: float, text: str, size: int, width: float, low: float = _EDGE) -> tuple[float, str]:
    """(x, text-anchor) that keeps a label centred on ``x`` between ``low`` and the chart's
    right edge: anchored at the edge it would cross ("ecommended: 10.2 hours" lost its first
    letter at the left edge)."""
    half = len(text) * size * _GLYPH_EM / 2
    if x - half < low:
        return low, "start"
    if x + half > width - _EDGE:
        return width - _EDGE, "end"
    return x, "middle"


def _wrap(text: str, width: float, size: int) -> list[str]:
    """A label in at most two lines of ``width`` [px]: "Buy, in a rented data centre
    (colocation)" no longer runs off the chart's left edge."""
    fits = int(width / (size * _GLYPH_EM))
    if len(text) <= fits:
        return [text]
    cut = text.rfind(" ", 0, fits + 1)
    if cut <= 0:
        return [text[: fits - 1] + "…"]
    rest = text[cut + 1 :]
    return [text[:cut], rest if len(rest) <= fits else rest[: fits - 1] + "…"]


def _box(x: float, y: float, anchor: str, text: str, size: int) -> tuple[float, ...]:
    """The box a label takes (left, top, right, bottom) [px], by the width :func:`_fit` uses."""
    width = len(text) * size * _GLYPH_EM
    left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    return left, y - size, left + width, y + size * 0.3


def _curve_boxes(
    points: Sequence[tuple[float, float]], step: float = 4.0
) -> list[tuple[float, ...]]:
    """Small boxes along the line through ``points`` (x, y), every ``step`` px or closer, so that
    :func:`_place` keeps labels off it as it keeps them off each other."""
    boxes: list[tuple[float, ...]] = []
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        pieces = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        for i in range(pieces + 1):
            x, y = x0 + (x1 - x0) * i / pieces, y0 + (y1 - y0) * i / pieces
            boxes.append((x - 1, y - 1, x + 1, y + 1))
    return boxes


def _place(
    spots: Sequence[tuple[float, float, str]],
    text: str,
    size: int,
    taken: list[tuple[float, ...]],
) -> tuple[float, float, str]:
    """The first of ``spots`` (x, y, anchor) where the label overlaps no label already placed
    (``taken``, to which it is added); the first spot when every one overlaps."""
    for x, y, anchor in spots:
        box = _box(x, y, anchor, text, size)
        if box[1] >= 0 and all(
            box[2] <= o[0] or o[2] <= box[0] or box[3] <= o[1] or o[3] <= box[1] for o in taken
        ):
            taken.append(box)
            return x, y, anchor
    x, y, anchor = spots[0]
    taken.append(_box(x, y, anchor, text, size))
    return x, y, anchor


# The time axis in the unit its labels use: hours below two days, minutes below two hours
# (as format_days writes them), so "recommended: 10.2 hours" never sits on an axis of days.
_TIME_UNITS = ((2 / 24, "minutes", 24 * 60), (2.0, "hours", 24.0), (math.inf, "days", 1.0))


def _time_unit(days: float) -> tuple[str, float]:
    """(unit, per day) of a time axis whose labelled times reach ``days``."""
    return next((unit, per_day) for below, unit, per_day in _TIME_UNITS if days < below)


def _in_unit(days: float, unit: str, per_day: float) -> str:
    """A time on the chart in the axis's own unit: "10.2 hours" on an axis of hours."""
    if unit == "days" or (unit == "minutes" and days * per_day < 1):
        return format_days(days)  # "under a minute", never "0.347 minutes"
    return format_quantity(days * per_day, unit)


def _nice_ceiling(value: float) -> float:
    """The next "round" axis maximum above value (1, 2, 2.5, 5, 10 × a power of ten)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= value:
            return step * power
    return 10 * power


def axis_scale(top: float, ticks: int = 5) -> tuple[float, float]:
    """(axis maximum, tick step) for values up to ``top``: a round step near a ``ticks``-th of
    the top plus a margin, and the axis ending at the first step past it, so the largest bar
    or whisker fills most of the width (not the next power of ten's round number)."""
    step = _nice_ceiling(top * 1.05 / ticks)
    return step * math.ceil(top * 1.05 / step), step


def _y_axis(
    top: float, plot_h: float, y_max: float, x0: float, x1: float, unit: str
) -> list[SafeString | Label]:
    parts: list[SafeString | Label] = []
    for i in range(5):
        value = y_max * i / 4
        y = top + plot_h - plot_h * i / 4
        parts.append(_line(x0, y, x1, y, colour="#e3e3e3"))
        parts.append(_text(x0 - 6, y + 4, _short(value), anchor="end", size=10))
    # the unit above the axis, where a word of any length fits ("minutes" at the side was cut)
    parts.append(_text(_EDGE, top - 10, unit, size=10, anchor="start", cls="axis-title"))
    return parts


# --- the four charts --------------------------------------------------------------------------


def timeline_chart(
    points: Sequence[tuple[float, float]],
    *,
    deadline_days: float | None,
    recommended_gpus: float | None,
) -> SafeString:
    """Wall-clock days [d] against number of accelerators (log scale), deadline dashed."""
    points = sorted((g, d) for g, d in points if g and g > 0 and d is not None and d >= 0)
    if not points:
        return mark_safe("")
    # Small clusters can take years; drawn to scale, they squash the deadline and the
    # recommended run onto the axis. Points past three times the larger of the two are left out.
    focus = max(
        [deadline_days or 0.0]
        + [d for g, d in points if recommended_gpus and g == recommended_gpus]
    )
    off_chart = 0
    if focus > 0:
        shown = [(g, d) for g, d in points if d <= focus * OFF_CHART_FACTOR]
        if len(shown) >= 2:
            off_chart, points = len(points) - len(shown), shown
    left, top = MARGIN_LEFT, MARGIN_TOP
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    g_min, g_max = points[0][0], points[-1][0]
    log_min, log_max = math.log2(g_min), math.log2(g_max)
    span = (log_max - log_min) or 1.0
    # the axis counts in the unit of the times it labels (the recommended run and the deadline)
    unit, per_day = _time_unit(focus or max(d for _, d in points))
    y_max = _nice_ceiling(max([d for _, d in points] + [deadline_days or 0]) * per_day * 1.05)
    y_max /= per_day  # [d]: the round maximum in the axis's unit, back in days

    def x_of(gpus: float) -> float:
        return left + plot_w * ((math.log2(gpus) - log_min) / span if log_max > log_min else 0.5)

    def y_of(days: float) -> float:
        return top + plot_h - plot_h * min(days, y_max) / y_max

    parts = _y_axis(top, plot_h, y_max * per_day, left, left + plot_w, unit)
    parts.append(_line(left, top + plot_h, left + plot_w, top + plot_h, colour="#555"))
    path = " ".join(
        f"{'M' if i == 0 else 'L'}{number(x_of(g))},{number(y_of(d))}"
        for i, (g, d) in enumerate(points)
    )
    parts.append(markup('<path d="{}" fill="none" stroke="{}" stroke-width="2"/>', path, ACCENT))
    labelled: list[float] = []
    ordered = sorted(points, key=lambda point: point[0] != recommended_gpus)
    for gpus, _days in ordered:  # the recommended count first, then any that do not collide
        if all(abs(x_of(gpus) - x) >= 30 for x in labelled):
            x, anchor = _fit(x_of(gpus), _short(gpus), 10, WIDTH)
            parts.append(_text(x, top + plot_h + 16, _short(gpus), anchor=anchor, size=10))
            labelled.append(x_of(gpus))
    for gpus, days in points:
        recommended = recommended_gpus is not None and gpus == recommended_gpus
        parts.append(
            markup(
                '<circle cx="{}" cy="{}" r="{}" fill="{}"/>',
                number(x_of(gpus)),
                number(y_of(days)),
                5 if recommended else 3,
                PALETTE[1] if recommended else ACCENT,
            )
        )
    # the labels in the plot, each where it overlaps none placed before it: the recommended
    # run's (above its point, below it, or beside it), the deadline's (at either end of its
    # line, above or below it) and the note of sizes left off
    taken: list[tuple[float, ...]] = []
    if deadline_days:  # the deadline's line: no label is printed across it
        taken.append((left, y_of(deadline_days) - 1.5, left + plot_w, y_of(deadline_days) + 1.5))
    # nor across the curve: readers saw "recommended: 20.8 days" written over it
    taken += _curve_boxes([(x_of(g), y_of(d)) for g, d in points])
    rec = next(((g, d) for g, d in points if g == recommended_gpus), None)
    if rec is not None:
        label = f"recommended: {_in_unit(rec[1], unit, per_day)}"
        x, anchor = _fit(x_of(rec[0]), label, 10, WIDTH, low=left + 2)  # right of the axis
        y = y_of(rec[1])
        right, left_of = x_of(rec[0]) + 9, x_of(rec[0]) - 9
        # above the point; then above and to its right or below and to its left, where the
        # curve falls away (more accelerators never take longer), clear of the deadline's line
        # when it runs just above the point; then below it and beside it
        spots = [(x, y - 10, anchor)]
        spots += [(right, y - rise, "start") for rise in (8, 20, 32)]
        spots += [(left_of, y + 18, "end"), (x, y + 18, anchor), (right, y + 4, "start")]
        x, y, anchor = _place(spots, label, 10, taken)
        parts.append(_text(x, y, label, anchor=anchor, size=10, weight="bold"))
    if deadline_days:
        y = y_of(deadline_days)
        parts.append(_line(left, y, left + plot_w, y, colour=WARNING, width=1.5, dash="6 4"))
        label = f"deadline: {_in_unit(deadline_days, unit, per_day)}"
        ends = ((left + 4, "start"), (left + plot_w - 4, "end"))
        spots = [(x, y + dy, anchor) for dy in (-5, 13) for x, anchor in ends]
        x, y, anchor = _place(spots, label, 10, taken)
        parts.append(_text(x, y, label, anchor=anchor, size=10, cls="deadline"))
    if off_chart:
        label = (
            f"{off_chart} smaller {noun_for(off_chart, 'size')}, slower than "
            f"{_in_unit(focus * OFF_CHART_FACTOR, unit, per_day)}, left off"
        )
        x, y, anchor = _place(
            [(left + plot_w, top + 10, "end"), (left + plot_w, top + plot_h - 6, "end")],
            label,
            9,
            taken,
        )
        parts.append(_text(x, y, label, anchor=anchor, size=9))
    parts.append(
        _text(left + plot_w / 2, HEIGHT - 10, "number of accelerators", size=10, cls="axis-title")
    )
    return Chart(WIDTH, HEIGHT, "Wall-clock days against number of accelerators", parts)


def memory_chart(breakdown_gb: dict[str, float], *, usable_gb: float | None) -> SafeString:
    """Memory per accelerator [GB] stacked by component, against the usable memory."""
    items = [(k, float(v)) for k, v in breakdown_gb.items() if v is not None and float(v) > 0]
    if not items:
        return mark_safe("")
    height = 150
    left, top, plot_w, bar_h = 20, 30, WIDTH - 40, 40
    total = sum(v for _, v in items)
    x_max = _nice_ceiling(max(total, usable_gb or 0) * 1.05)
    scale = plot_w / x_max
    parts: list[SafeString | Label] = []
    x = left
    for i, (_name, value) in enumerate(items):
        colour = PALETTE[i % len(PALETTE)]
        parts.append(_rect(x, top, value * scale, bar_h, colour))
        x += value * scale
    for i in range(5):
        value = x_max * i / 4
        gx = left + plot_w * i / 4
        parts.append(_line(gx, top + bar_h, gx, top + bar_h + 4, colour="#555"))
        # in the unit that keeps it readable: "500 TB", not "500,000 GB"
        tick = format_quantity(float(f"{value:.3g}"), "GB")
        x, anchor = _fit(gx, tick, 10, WIDTH)
        parts.append(_text(x, top + bar_h + 16, tick, anchor=anchor, size=10))
    if usable_gb:
        ux = left + usable_gb * scale
        parts.append(_line(ux, top - 12, ux, top + bar_h + 4, colour=WARNING, width=2, dash="5 3"))
        usable = f"usable {format_quantity(float(f'{usable_gb:.3g}'), 'GB')}"
        x, anchor = _fit(ux, usable, 10, WIDTH)
        parts.append(_text(x, top - 16, usable, anchor=anchor, size=10, cls="deadline"))
    legend_y = top + bar_h + 44
    lx = left
    for i, (name, value) in enumerate(items):
        label = f"{name.replace('_', ' ')} {format_quantity(float(f'{value:.3g}'), 'GB')}"
        wide = 24 + 10 * _GLYPH_EM * len(label)
        if lx > left and lx + wide > WIDTH - _EDGE:  # the legend wraps rather than run off
            lx, legend_y = left, legend_y + 16
        parts.append(_rect(lx, legend_y - 9, 10, 10, PALETTE[i % len(PALETTE)]))
        parts.append(_text(lx + 14, legend_y, label, anchor="start", size=10))
        lx += wide
    height = max(height, int(legend_y) + 10)
    return Chart(WIDTH, height, "Memory per accelerator by component", parts)


@dataclass(frozen=True)
class RangeBar:
    """One cost option: its total and likely range [USD]; ``state`` "recommended",
    "ruled_out" (by the customer's rules) or ""."""

    label: str
    total: float | None
    low: float | None
    high: float | None
    state: str = ""


_RANGE_COLOURS = {"recommended": ACCENT, "ruled_out": "#8a8a8a", "": "#8fb3d1"}


def cost_range_chart(rows: Sequence[RangeBar], *, currency: str = "USD") -> SafeString:
    """Each option's total [``currency``, already converted] as a bar with its likely range as
    a whisker; the recommended one in the accent colour. Options the customer's rules exclude
    are drawn below the others under their own heading, as grey outlines marked "excluded", so
    none reads as a choice beside the recommendation (the bank's shared-cloud bars once did)."""
    rows = [r for r in rows if r.total is not None]
    if not rows:
        return mark_safe("")
    allowed = [r for r in rows if r.state != "ruled_out"]
    excluded = [r for r in rows if r.state == "ruled_out"]
    row_h, label_w, heading_h = 30, 250, 22 if excluded else 0
    height = MARGIN_TOP + row_h * len(rows) + heading_h + 34
    plot_w = WIDTH - label_w - 70
    top_value = max(max(r.high or 0.0, r.total or 0.0) for r in rows)
    x_max, step = axis_scale(top_value)
    parts: list[SafeString | Label] = []
    placed = [(MARGIN_TOP + i * row_h, row) for i, row in enumerate(allowed)]
    start = MARGIN_TOP + row_h * len(allowed) + heading_h
    placed += [(start + i * row_h, row) for i, row in enumerate(excluded)]
    for y, row in placed:
        total = row.total or 0.0
        out = row.state == "ruled_out"
        if out and row is excluded[0]:  # the heading, read between the choices and the rest
            parts.append(
                _text(
                    _EDGE,
                    y - heading_h + 15,
                    "Excluded by your rules (what each would cost, for comparison):",
                    anchor="start",
                    size=10,
                    cls="axis-title",
                )
            )
        weight = "bold" if row.state == "recommended" else "normal"
        cls = "axis-title" if out else "label"
        for k, line in enumerate(lines := _wrap(row.label, label_w - 8 - _EDGE, 10)):
            line_y = y + 15 + (k - (len(lines) - 1) / 2) * 11
            parts.append(
                _text(label_w - 8, line_y, line, anchor="end", size=10, weight=weight, cls=cls)
            )
        width = plot_w * total / x_max
        parts.append(
            _rect(label_w, y + 4, width, row_h - 12, _RANGE_COLOURS[row.state], outline=out)
        )
        if row.low is not None and row.high is not None and not out:
            x0, x1 = label_w + plot_w * row.low / x_max, label_w + plot_w * row.high / x_max
            parts.append(_line(x0, y + 10, x1, y + 10, colour="#333", width=1.5))
            parts.append(_line(x0, y + 5, x0, y + 15, colour="#333", width=1.5))
            parts.append(_line(x1, y + 5, x1, y + 15, colour="#333", width=1.5))
        end = label_w + plot_w * (total if out else max(total, row.high or 0.0)) / x_max
        label = format_money_short(total, currency=currency)  # as the table beside it rounds it
        if out:
            label += ", excluded"
        parts.append(_text(end + 6, y + 15, label, anchor="start", size=10, weight=weight, cls=cls))
    axis_y = MARGIN_TOP + row_h * len(rows) + heading_h
    parts.append(_line(label_w, axis_y, label_w + plot_w, axis_y, colour="#555"))
    for k in range(round(x_max / step) + 1):
        value = step * k
        gx = label_w + plot_w * value / x_max
        parts.append(_line(gx, axis_y, gx, axis_y + 4, colour="#555"))
        parts.append(_text(gx, axis_y + 16, f"{currency_sign(currency)}{_short(value)}", size=10))
    return Chart(
        WIDTH, height, "Total of each option over the horizon, with its likely range", parts
    )


def bar_chart(bars: Sequence[Bar], *, unit: str, title: str) -> SafeString:
    """Horizontal bars with values, e.g. storage throughput needs [GB/s]."""
    bars = [b for b in bars if b.value is not None and b.value >= 0]
    if not bars:
        return mark_safe("")
    row_h, label_w = 34, 230
    height = MARGIN_TOP + row_h * len(bars) + 20
    plot_w = WIDTH - label_w - 90
    x_max, _step = axis_scale(max(b.value for b in bars))
    parts: list[SafeString | Label] = []
    for i, bar in enumerate(bars):
        y = MARGIN_TOP + i * row_h
        w = plot_w * bar.value / x_max
        parts.append(_text(label_w - 8, y + 16, bar.label, anchor="end", size=11))
        parts.append(_rect(label_w, y + 4, w, row_h - 12, bar.colour))
        parts.append(
            _text(
                label_w + w + 6,
                y + 16,
                f"{_short(bar.value)} {unit}",
                anchor="start",
                size=11,
                weight="bold",
            )
        )
    return Chart(WIDTH, height, title, parts)


@dataclass(frozen=True)
class EstimateActual:
    """One actual run beside its estimate [accelerator-hours]; ``low``/``high``: the estimate's
    range, None when it gave none."""

    label: str
    estimated: float
    actual: float
    low: float | None = None
    high: float | None = None

    @property
    def within(self) -> bool | None:
        if self.low is None or self.high is None:
            return None
        return self.low <= self.actual <= self.high


def estimate_actual_chart(points: Sequence[EstimateActual], *, title: str) -> SafeString:
    """Actual accelerator-hours against the estimate, both on log scales: each run a dot (red
    outside the range we gave), the range a vertical bar, the dashed diagonal where they agree."""
    points = [p for p in points if p.estimated > 0 and p.actual > 0]
    if not points:
        return mark_safe("")
    values = [v for p in points for v in (p.estimated, p.actual, p.low, p.high) if v]
    low_decade = math.floor(math.log10(min(values)))
    high_decade = max(low_decade + 1, math.ceil(math.log10(max(values))))
    size = 360
    plot = size - MARGIN_TOP - MARGIN_BOTTOM
    x0, y0 = MARGIN_LEFT, MARGIN_TOP + plot

    def at(value: float) -> float:
        return plot * (math.log10(value) - low_decade) / (high_decade - low_decade)

    parts: list[SafeString | Label] = [
        _line(x0, y0, x0 + plot, y0, colour="#666"),
        _line(x0, y0, x0, y0 - plot, colour="#666"),
        _line(x0, y0, x0 + plot, y0 - plot, colour="#999", dash="4 3"),
    ]
    for decade in range(low_decade, high_decade + 1):
        offset, label = at(10.0**decade), _short(10.0**decade)
        parts.append(_text(x0 + offset, y0 + 16, label, size=10, cls="axis-title"))
        parts.append(_text(x0 - 6, y0 - offset + 4, label, anchor="end", size=10, cls="axis-title"))
    parts.append(_text(x0 + plot / 2, y0 + 36, "Estimated accelerator-hours", cls="axis-title"))
    parts.append(
        _text(
            x0 - 40, MARGIN_TOP - 10, "Actual accelerator-hours", anchor="start", cls="axis-title"
        )
    )
    for point in points:
        x = x0 + at(point.estimated)
        if point.low and point.high:
            parts.append(
                _line(x, y0 - at(point.low), x, y0 - at(point.high), colour="#bbb", width=3)
            )
        colour = WARNING if point.within is False else ACCENT
        y = y0 - at(point.actual)
        parts.append(
            markup('<circle cx="{}" cy="{}" r="5" fill="{}"/>', number(x), number(y), colour)
        )
        if len(points) <= 12:
            parts.append(_text(x + 8, y + 4, point.label, anchor="start", size=10))
    return Chart(size + 140, size, title, parts)
