"""A style's line height and font description worked out once, not once per line.

Laying out a line, WeasyPrint asks for the line height and baseline of each box's style
(``text/line_break.py``, ``strut``: 3,400 times for the demo proposal) and builds a Pango font
description for every piece of text it shapes (``get_font_description``, from ``Layout.setup``:
3,300 times, drawing included). Both depend on the style alone:

- ``strut`` keeps its answers in the font configuration under a key it builds from 16 of the
  style's values as a string, each time it is asked; the same style always gives the same key,
  so the answer is remembered per style and the key is not built again;
- a font description is made from the style's font family, style, stretch, weight, size,
  variant and variations, and Pango copies it into each layout that takes it
  (``pango_layout_set_font_description``), so one per style serves every layout of that style.

Remembered per style object (reports.per_style). With these kept the
demo's render took a median 0.94 s of CPU against 1.00 s (six rounds of nine renders, taking
turns, 2026-12-05, issue 29). ``tests/reports/test_line_fonts.py`` checks each answer against
WeasyPrint's own and the demo's PDF byte for byte. WeasyPrint 70 (pinned in pyproject.toml).
"""

from weasyprint.layout import inline as weasyprint_inline
from weasyprint.text import line_break as weasyprint_line_break

from reports.per_style import per_style


def remember_line_fonts_once() -> None:
    """Give WeasyPrint's inline layout the remembered line heights, and its text layouts the
    remembered font descriptions; called once when reports.document is imported, before any
    proposal is laid out."""
    if not hasattr(weasyprint_inline.strut, "kept"):
        weasyprint_inline.strut = per_style(weasyprint_line_break.strut)
    if not hasattr(weasyprint_line_break.get_font_description, "kept"):
        weasyprint_line_break.get_font_description = per_style(
            weasyprint_line_break.get_font_description
        )
