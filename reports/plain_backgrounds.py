"""Boxes with nothing to paint behind them: decided once per style, not once per box.

Before a page is drawn WeasyPrint looks at every box on it for a background to lay out
(``layout/background.py``, ``layout_box_backgrounds``): it resolves the box's four corner
radii, then reads its border image, mask, visibility, background images and colour and box
shadow, and for most boxes finds nothing to paint (``background`` None). A demo proposal has
about 4,500 boxes and only a few dozen backgrounds (headings' rules are borders, not
backgrounds).

Whether a box has nothing to paint is a matter of its style alone: no border image, no mask,
no box shadow, square corners, and either hidden or with a transparent colour and no image. So
it is decided once per style object (reports.per_style); such
a box gets what WeasyPrint gives it, square corners and no background, and its children are
looked at as before. Every other box, and the page itself, goes through WeasyPrint's own
function. ``tests/reports/test_plain_backgrounds.py`` compares every box's background and
corners with WeasyPrint's own and the demo's PDF byte for byte. WeasyPrint 70 (pinned in
pyproject.toml).
"""

from collections.abc import Callable
from typing import Any

from weasyprint.draw.color import get_color
from weasyprint.layout import background as weasyprint_background

from reports.per_style import per_style

CORNERS = ("top_left", "top_right", "bottom_right", "bottom_left")
SQUARE = (0, 0)


def paints_nothing(style: Any) -> bool:
    """Whether a box of ``style`` has no background, border image or mask to lay out and
    square corners (``layout_box_backgrounds``' early return, and every corner radius 0)."""
    if style["border_image_source"][0] != "none" or style["mask_border_source"][0] != "none":
        return False
    if style["box_shadow"]:
        return False
    if not all((0, "px") in style[f"border_{corner}_radius"] for corner in CORNERS):
        return False
    if style["visibility"] == "hidden":
        return True
    # an image by URL is fetched (it may fail, and then paints nothing): left to WeasyPrint
    no_image = all(kind != "url" and not value for kind, value in style["background_image"])
    return no_image and get_color(style, "background_color").alpha == 0


def remembering_backgrounds(lay_out: Callable[..., None]) -> Callable[..., None]:
    """``lay_out`` (WeasyPrint's ``layout_box_backgrounds``), with boxes that paint nothing
    handled here, decided once per style."""
    plain = per_style(paints_nothing)

    def layout_box_backgrounds(
        page: Any,
        box: Any,
        get_image_from_uri: Any,
        layout_children: bool = True,
        style: Any = None,
    ) -> None:
        if style is not None or box is page or not plain(box.style):
            lay_out(page, box, get_image_from_uri, layout_children, style)
            return
        for corner in CORNERS:
            setattr(box, f"border_{corner}_radius", SQUARE)
        if layout_children:
            for child in box.all_children():
                layout_box_backgrounds(page, child, get_image_from_uri)
        box.background = None

    layout_box_backgrounds.decided = plain.kept  # type: ignore[attr-defined]
    layout_box_backgrounds.lays_out = lay_out  # type: ignore[attr-defined]
    return layout_box_backgrounds


def remember_plain_backgrounds_once() -> None:
    """Give WeasyPrint's background layout the per-style decision; called once when
    reports.document is imported, before any proposal is laid out. WeasyPrint's own function
    looks at a box's children through the module's name, so they are decided here too."""
    if not hasattr(weasyprint_background.layout_box_backgrounds, "decided"):
        weasyprint_background.layout_box_backgrounds = remembering_backgrounds(
            weasyprint_background.layout_box_backgrounds
        )
