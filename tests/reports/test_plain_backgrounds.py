"""Boxes that paint nothing are decided once per style (reports.plain_backgrounds): every box
gets the background and corners WeasyPrint's own function gives it, and a proposal's PDF is
byte for byte the same."""

import pytest
from weasyprint.layout import background as weasyprint_background

from reports import per_style as per_style_module
from reports.demo import demo_data
from reports.document import PDF_OPTIONS, lay_out, render_html
from reports.plain_backgrounds import CORNERS, paints_nothing, remembering_backgrounds

OWN = weasyprint_background.layout_box_backgrounds.lays_out

# A coloured box, a rounded one, a shadow, a hidden one and a gradient beside plain text: every
# way a style paints something, or nothing (an image by URL never reaches a proposal: the
# fetcher refuses it, reports.fetcher).
HTML = (
    '<html lang="en"><head><title>T</title>'
    '<link rel="stylesheet" href="/static/reports/proposal.css"></head><body>'
    '<p>Plain text</p><p style="background: #eef">A coloured box</p>'
    '<p style="border: 1pt solid; border-radius: 3pt">A rounded box</p>'
    '<p style="box-shadow: 2pt 2pt 2pt #888">A shadow</p>'
    '<p style="visibility: hidden; background: red">Hidden</p>'
    '<p style="background-image: linear-gradient(#fff, #000)">A gradient</p>'
    "<table><tr><th>GPUs</th><td>64</td></tr></table></body></html>"
)


def _painted(document) -> list[tuple[str, object, tuple]]:
    """What each box of each page was given, in order."""
    return [
        (
            type(box).__name__,
            None if box.background is None else (box.background.color, len(box.background.layers)),
            tuple(getattr(box, f"border_{corner}_radius") for corner in CORNERS),
        )
        for page in document.pages
        for box in page._page_box.descendants()
        if hasattr(box, "background")
    ]


@pytest.fixture
def weasyprints_own(monkeypatch):
    def use_own():
        monkeypatch.setattr(weasyprint_background, "layout_box_backgrounds", OWN)

    return use_own


@pytest.mark.parametrize("html", ["demo", HTML], ids=["demo proposal", "every kind of style"])
def test_every_box_gets_the_background_and_corners_weasyprint_gives_it(html, weasyprints_own):
    html = render_html(demo_data()) if html == "demo" else html
    remembered = _painted(lay_out(html))
    weasyprints_own()
    own = _painted(lay_out(html))
    assert remembered == own
    assert sum(painted is None for _, painted, _ in own) > sum(
        painted is not None for _, painted, _ in own
    )


def test_the_demo_proposal_is_byte_for_byte_the_pdf_weasyprints_own_function_writes(
    weasyprints_own,
):
    html = render_html(demo_data())
    remembered = lay_out(html).write_pdf(**PDF_OPTIONS)
    weasyprints_own()
    assert lay_out(html).write_pdf(**PDF_OPTIONS) == remembered


def test_only_styles_that_paint_nothing_are_decided_here():
    document = lay_out(HTML)
    styles = {
        box.element.get("style") or "": box.style
        for page in document.pages
        for box in page._page_box.descendants()
        if type(box).__name__ == "BlockBox" and box.element_tag == "p"
    }
    plain = {text for text, style in styles.items() if paints_nothing(style)}
    assert plain == {"", "visibility: hidden; background: red"}


def test_the_proposal_layout_decides_per_style_and_forgets_when_full(monkeypatch):
    assert hasattr(weasyprint_background.layout_box_backgrounds, "decided")
    monkeypatch.setattr(per_style_module, "MOST_KEPT", 3)
    layout = remembering_backgrounds(OWN)
    monkeypatch.setattr(weasyprint_background, "layout_box_backgrounds", layout)
    lay_out(HTML)
    assert 1 <= len(layout.decided) <= 3
