"""A line's Pango layout kept from laying the line out to drawing it, not made and shaped again.

WeasyPrint lays each line of text out with a Pango layout, measures it, and frees it
(``Layout.deactivate`` at the end of ``text/line_break.py``'s ``first_line_metrics``). To draw
the line it makes a new layout from the same style and the line's text (``Layout.reactivate``
in ``draw/text.py``'s ``draw_text``), sets it to single-paragraph mode
(``draw_first_line``), and Pango shapes the text a second time: 1,435 lines in the demo
proposal, a sixth of writing its PDF. The new layout holds what the freed one held:

- the same style, so the same Pango context, font description and font features (``setup``);
- the same text and spacing attributes (``set_text``), when the line has no justification
  spacing: drawing adds that spacing to the word spacing, laying out does not;
- one line either way: a line that was cut has its width set unlimited before its final text
  (``first_line_metrics``), and a line that was not cut fitted whole on one line at its width;
- single-paragraph mode, which only changes how Pango treats a paragraph separator (a line
  feed, a carriage return, U+2029): a text without one is set to it here when laid out, so that
  drawing finds it already set; a text with one keeps WeasyPrint's way (set when drawn).

So a line laid out with no justification spacing keeps its layout until it is drawn, and
drawing uses it as it is; anything else (a justified line, a layout drawn a second time, as a
table header repeated on the next page is, a style that is not the one it was laid out with)
is made again as WeasyPrint makes it. Drawing frees the layout as before. In the demo all
1,435 lines are drawn with their kept layout; writing its PDF took a median 217 ms of CPU
against 274 ms, its layout no longer (four rounds of seven renders, each way in a process of
its own, taking turns, 2026-12-05, issue 29).

``tests/reports/test_kept_layouts.py`` checks the demo proposal's PDF byte for byte against
WeasyPrint's own way, and lines with spacing, separators and justification. WeasyPrint 70
(pinned in pyproject.toml), ``text/line_break.py`` and ``draw/text.py``.
"""

import re
from typing import Any

from weasyprint.text import line_break as weasyprint_line_break
from weasyprint.text.ffi import pango

# The characters that end a paragraph for Pango (``pango_find_paragraph_boundary``), and the
# line separator, which breaks a line: a text with one is left to WeasyPrint's own way.
PARAGRAPH_END = re.compile("[\n\r\u0085\u2028\u2029]")

_Layout = weasyprint_line_break.Layout


def keep_layouts_until_drawn_once() -> None:
    """Give WeasyPrint's text layouts the kept way; called once when reports.document is
    imported, before any proposal is laid out."""
    if hasattr(_Layout.deactivate, "frees"):
        return
    own_setup, own_set_text, own_deactivate, own_reactivate = (
        _Layout.setup,
        _Layout.set_text,
        _Layout.deactivate,
        _Layout.reactivate,
    )

    def setup(self: Any, style: Any) -> None:
        own_setup(self, style)
        # the mode drawing sets, set before Pango lays any text out (module docstring)
        pango.pango_layout_set_single_paragraph_mode(self.layout, True)

    def set_text(self: Any, text: str, justify: bool = False) -> None:
        own_set_text(self, text, justify)
        if PARAGRAPH_END.search(self.text):  # WeasyPrint's way: set when drawn
            pango.pango_layout_set_single_paragraph_mode(self.layout, False)

    def deactivate(self: Any) -> None:
        if self.__dict__.pop("drawing", False):
            own_deactivate(self)  # drawn: freed, as WeasyPrint frees it
        else:
            self.kept = True  # laid out: kept for drawing

    def reactivate(self: Any, style: Any) -> None:
        kept = self.__dict__.pop("kept", False)
        self.drawing = True
        if kept and style is self.style and not self.justification_spacing:
            return
        reactivate.makes_again(self, style)  # type: ignore[attr-defined]

    setup.sets_up = own_setup  # type: ignore[attr-defined]
    set_text.sets_text = own_set_text  # type: ignore[attr-defined]
    deactivate.frees = own_deactivate  # type: ignore[attr-defined]
    reactivate.makes_again = own_reactivate  # type: ignore[attr-defined]
    _Layout.setup = setup
    _Layout.set_text = set_text
    _Layout.deactivate = deactivate
    _Layout.reactivate = reactivate
