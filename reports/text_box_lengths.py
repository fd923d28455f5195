"""A text box's used lengths worked out once per style and containing block, not once per line.

WeasyPrint lays a paragraph out line by line, and for every piece of text it tries on a line
(``layout/inline.py``, ``split_inline_level``) it resolves the text box's margins, paddings,
widths, heights and border widths from its style against its containing block
(``layout/percent.py``, ``resolve_percentages``): 18 lengths, each read through the style's
lazily computed values. The demo proposal resolves 1,638 text boxes this way, with only 298
different styles and containing blocks among them; it was a tenth of a demo render's CPU
(py-spy, 2026-12-05, issue 29).

For a text box those lengths depend on nothing but its style and its containing block's width
and height (``resolve_percentages`` reads no other state of a text box: its border widths are
set by nothing else, border-collapse being for table cells), and every piece of one text shares
its style (``TextBox.copy_with_text``). So the lengths are kept per (style, width, height) and
copied onto the next text box that asks. Every other box goes through WeasyPrint's own function.
The PDF is byte for byte the same (``tests/reports/test_text_box_lengths.py`` checks both the
lengths, box by box, and the demo's PDF). WeasyPrint 70 (pinned in pyproject.toml).
"""

from collections.abc import Callable
from typing import Any

from weasyprint.formatting_structure.boxes import Box, TextBox
from weasyprint.layout import inline as weasyprint_inline
from weasyprint.layout import percent as weasyprint_percent

# The attributes resolve_percentages sets (percent.py); box-sizing adjusts some of them after.
RESOLVED = (
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
    "border_top_width",
    "border_right_width",
    "border_bottom_width",
    "border_left_width",
)

# One proposal's text boxes have a few hundred distinct (style, width, height); emptied when
# full so a long-lived worker never grows it without end.
_MOST_KEPT = 4096

Resolver = Callable[[Box, Any], None]


def text_box_resolver(resolve: Resolver) -> Resolver:
    """``resolve`` (WeasyPrint's ``resolve_percentages``), remembering a text box's lengths."""
    kept: dict[tuple[int, float | str, float | str], tuple[Any, dict[str, Any]]] = {}

    def resolve_percentages(box: Box, containing_block: Any) -> None:
        if type(box) is not TextBox:
            resolve(box, containing_block)
            return
        if isinstance(containing_block, Box):
            width, height = containing_block.width, containing_block.height
        else:
            width, height = containing_block
        key = (id(box.style), width, height)
        found = kept.get(key)
        # the style is kept with its lengths, so its id cannot be reused while they are kept
        if found is not None and found[0] is box.style:
            box.__dict__.update(found[1])
            return
        resolve(box, containing_block)
        if len(kept) >= _MOST_KEPT:
            kept.clear()
        kept[key] = (box.style, {name: box.__dict__[name] for name in RESOLVED})

    resolve_percentages.kept = kept  # type: ignore[attr-defined]
    return resolve_percentages


def resolve_text_box_lengths_once() -> None:
    """Give WeasyPrint's inline layout, where text boxes are resolved, the remembering resolver;
    called once when reports.document is imported, before any proposal is laid out."""
    if getattr(weasyprint_inline.resolve_percentages, "kept", None) is None:
        weasyprint_inline.resolve_percentages = text_box_resolver(
            weasyprint_percent.resolve_percentages
        )
