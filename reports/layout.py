"""How full each laid-out page of a proposal is: the layout test's measure of a near-empty page.

A page "almost blank" (a summary's last three lines alone on page 3, a method table's last rows
alone on the last page) reads as a mistake. WeasyPrint's laid-out pages say where every line,
picture and chart ends; the share of the page's content area down to the lowest of them is its
fill.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from weasyprint.formatting_structure import boxes


def _lowest(box: Any) -> float:
    """The bottom of the lowest line, picture or table row in a box [CSS px]; 0 for none."""
    if isinstance(box, boxes.LineBox | boxes.ReplacedBox | boxes.TableRowBox):
        return float(box.position_y + box.margin_height())
    return max((_lowest(child) for child in getattr(box, "children", ())), default=0.0)


def page_fill(pages: Sequence[Any]) -> list[float]:
    """Each page's fill: the share of its content area from the top down to the lowest thing
    laid out on it (0 an empty page, 1 a full one); the running header and footer (the page's
    margin boxes) do not count."""
    fills = []
    for page in pages:
        page_box = page._page_box  # WeasyPrint 70 (pinned): the laid-out tree of the page
        top, height = page_box.content_box_y(), page_box.height
        lowest = max(
            (
                _lowest(child)
                for child in page_box.children
                if not isinstance(child, boxes.MarginBox)
            ),
            default=top,
        )
        fills.append(max(0.0, min(1.0, (lowest - top) / height)) if height else 0.0)
    return fills
