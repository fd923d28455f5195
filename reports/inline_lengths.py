"""The used lengths of a line's boxes worked out once per style and containing block, not once
per line.

WeasyPrint lays a paragraph out line by line. For every line box, and every piece of text or
inline element it tries on a line (``layout/inline.py``: ``iter_line_boxes``,
``split_inline_level``), it resolves the box's margins, paddings, widths, heights and border
widths from its style against its containing block (``layout/percent.py``,
``resolve_percentages``): 18 lengths, each read through the style's lazily computed values.
The demo proposal resolves 2,958 boxes this way (1,638 pieces of text, 1,113 line boxes, 201
inline elements), with only 367 different styles and containing blocks among them. Keeping
their lengths took the demo's render from a median 1.105 s to 1.000 s of CPU (five rounds of
nine renders, taking turns; 1.045 s when only pieces of text were kept), though only 2 % of
its instructions (callgrind): what it saves is mostly the reads of styles spread over memory
(2026-12-05, issue 29).

What ``resolve_percentages`` sets depends on the box's style and its containing block's width
and height, and on nothing else of the box but two things:
- its border widths, which it leaves alone where borders collapse and the box already has
  them (a table cell's collapsed borders): those are then left alone here too;
- with ``box-sizing`` other than ``content-box`` it takes the borders off the width, so such
  boxes (none in a proposal) and page boxes (their vertical margins read the height) are
  resolved by WeasyPrint itself.
Every piece of one text and every line of one element share its style (``Box.copy``). So the
lengths are kept per (style, width, height) and copied onto the next box that asks, until the
proposal is written (reports.per_style).
``tests/reports/test_inline_lengths.py`` checks each box's lengths against WeasyPrint's own
function and the demo's PDF byte for byte. WeasyPrint 70 (pinned in pyproject.toml).
"""

from collections.abc import Callable
from typing import Any

from weasyprint.formatting_structure.boxes import Box, PageBox
from weasyprint.layout import inline as weasyprint_inline
from weasyprint.layout import percent as weasyprint_percent

from reports import per_style

# What resolve_percentages sets besides the border widths (percent.py).
LENGTHS = (
    "margin_top",
    "margin_right",
    "margin_bottom",
    "margin_left",
    "padding_top",
    "padding_right",
    "padding_bottom",
    "padding_left",
    "width",
    "min_width",
    "max_width",
    "height",
    "min_height",
    "max_height",
)
BORDER_WIDTHS = (
    "border_top_width",
    "border_right_width",
    "border_bottom_width",
    "border_left_width",
)
RESOLVED = LENGTHS + BORDER_WIDTHS

Resolver = Callable[[Box, Any], None]


class _Kept:
    """One style's lengths in one containing block; the style is held so that its id is not
    reused while they are kept."""

    __slots__ = ("style", "lengths", "borders", "collapse")

    def __init__(self, style: Any, box: Box) -> None:
        self.style = style
        self.lengths = {name: box.__dict__[name] for name in LENGTHS}
        # the style's own border widths: those a box takes unless its borders collapsed
        self.borders = {name: style[name] for name in BORDER_WIDTHS}
        self.collapse = style["border_collapse"] == "collapse"


def remembering_resolver(resolve: Resolver) -> Resolver:
    """``resolve`` (WeasyPrint's ``resolve_percentages``), remembering each style's lengths."""
    # per (style, width, height): a few hundred in a proposal; emptied with the others
    # (reports.per_style)
    kept = per_style.kept_store()

    def resolve_percentages(box: Box, containing_block: Any) -> None:
        style = box.style
        if isinstance(box, PageBox) or style["box_sizing"] != "content-box":
            resolve(box, containing_block)
            return
        if isinstance(containing_block, Box):
            width, height = containing_block.width, containing_block.height
        else:
            width, height = containing_block
        key = (id(style), width, height)
        found = kept.get(key)
        if found is None or found.style is not style:
            resolve(box, containing_block)
            if len(kept) >= per_style.MOST_KEPT:
                kept.clear()
            kept[key] = _Kept(style, box)
            return
        attributes = box.__dict__
        attributes.update(found.lengths)
        if not found.collapse:
            attributes.update(found.borders)
            return
        for name, value in found.borders.items():
            attributes.setdefault(name, value)

    resolve_percentages.kept = kept  # type: ignore[attr-defined]
    return resolve_percentages


def resolve_inline_lengths_once() -> None:
    """Give WeasyPrint's inline layout the remembering resolver; called once when
    reports.document is imported, before any proposal is laid out."""
    if getattr(weasyprint_inline.resolve_percentages, "kept", None) is None:
        weasyprint_inline.resolve_percentages = remembering_resolver(
            weasyprint_percent.resolve_percentages
        )
