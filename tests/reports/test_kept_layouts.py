"""A line's Pango layout is kept from its layout to its drawing (reports.kept_layouts): a
proposal's PDF is byte for byte the one WeasyPrint's own way writes, most lines are drawn with
the layout they were laid out with, and each is freed once drawn."""

import pytest
from weasyprint.text import line_break as weasyprint_line_break

from reports.demo import demo_data
from reports.document import PDF_OPTIONS, lay_out, render_html

LAYOUT = weasyprint_line_break.Layout
KEPT_WAY = {
    "setup": LAYOUT.setup,
    "set_text": LAYOUT.set_text,
    "deactivate": LAYOUT.deactivate,
    "reactivate": LAYOUT.reactivate,
}
OWN_WAY = {
    "setup": LAYOUT.setup.sets_up,
    "set_text": LAYOUT.set_text.sets_text,
    "deactivate": LAYOUT.deactivate.frees,
    "reactivate": LAYOUT.reactivate.makes_again,
}

# Every way a line's drawing could differ from its layout: letter and word spacing, text cut
# over several lines, preserved line feeds and a paragraph separator, justified lines (drawn
# with extra word spacing), underlined and struck-through text (font metrics), right-to-left
# text, an SVG text, and a table whose header is drawn again on each page it runs over.
HTML = (
    '<html lang="en"><head><title>T</title><style>@page { size: A6 }</style></head><body>'
    '<p style="letter-spacing: 0.5pt">Letters spaced apart</p>'
    '<p style="word-spacing: 3pt">Words spaced apart over a line that is long enough to be cut '
    "over two or three lines of this small page</p>"
    '<p style="white-space: pre-wrap">First line\nsecond line\r\nthird\u2029fourth</p>'
    '<p style="white-space: pre">Kept    as\twritten</p>'
    '<p style="text-align: justify">A justified paragraph long enough to run over several lines '
    "so that each line but the last is stretched to the width of the page by word spacing</p>"
    "<p><u>Underlined</u> and <s>struck through</s> words</p>"
    '<p dir="rtl">مرحبا بالعالم</p>'
    '<svg width="120" height="30"><text x="5" y="20">Chart label</text></svg>'
    "<table><thead><tr><th>GPUs</th><th>Cost</th></tr></thead><tbody>"
    + "".join(f"<tr><td>{n}</td><td>€{n * 1000:,}</td></tr>" for n in range(1, 60))
    + "</tbody></table></body></html>"
)


@pytest.fixture
def weasyprints_own(monkeypatch):
    def use_own():
        for name, function in OWN_WAY.items():
            monkeypatch.setattr(LAYOUT, name, function)

    return use_own


@pytest.mark.parametrize("html", ["demo", HTML], ids=["demo proposal", "every kind of line"])
def test_the_pdf_is_byte_for_byte_the_one_weasyprints_own_way_writes(html, weasyprints_own):
    html = render_html(demo_data()) if html == "demo" else html
    kept = lay_out(html).write_pdf(**PDF_OPTIONS)
    weasyprints_own()
    assert lay_out(html).write_pdf(**PDF_OPTIONS) == kept


def _drawn(html: str, monkeypatch) -> tuple[list, list]:
    """Lay ``html`` out, then write it: the layouts drawn, in order, and those made again to be
    drawn (WeasyPrint's own ``reactivate``)."""
    document = lay_out(html)
    drawn: list = []
    made_again: list = []

    def reactivate(self, style):
        drawn.append(self)
        KEPT_WAY["reactivate"](self, style)

    def make_again(self, style):
        made_again.append(self)
        OWN_WAY["reactivate"](self, style)

    monkeypatch.setattr(LAYOUT, "reactivate", reactivate)
    monkeypatch.setattr(KEPT_WAY["reactivate"], "makes_again", make_again)
    document.write_pdf(**PDF_OPTIONS)
    return drawn, made_again


def test_most_lines_are_drawn_with_the_layout_they_were_laid_out_with(monkeypatch):
    drawn, made_again = _drawn(render_html(demo_data()), monkeypatch)
    assert len(drawn) > 1000
    assert len(made_again) < len(drawn) / 10
    # each is freed once drawn, as WeasyPrint frees it
    assert not any(hasattr(layout, "layout") for layout in drawn)


def test_a_justified_line_is_made_again_with_its_word_spacing(monkeypatch):
    _, made_again = _drawn(HTML, monkeypatch)
    assert made_again
    assert all(layout.justification_spacing for layout in made_again)


def test_a_layout_drawn_with_another_style_or_a_second_time_is_made_again(monkeypatch):
    """Neither happens in a proposal (every line of the demo is drawn once, with its own
    style), but WeasyPrint's drawing may ask for either."""
    boxes = [
        box
        for page in lay_out(HTML).pages
        for box in page._page_box.descendants()
        if type(box).__name__ == "TextBox"
    ]
    first = boxes[0]
    other_style = next(box.style for box in boxes if box.style is not first.style)
    made: list = []
    monkeypatch.setattr(
        LAYOUT, "setup", lambda self, style: made.append(style) or KEPT_WAY["setup"](self, style)
    )
    layout = first.pango_layout
    layout.reactivate(other_style)
    assert made == [other_style]
    layout.deactivate()
    assert not hasattr(layout, "layout")  # drawn: freed
    layout.reactivate(first.style)
    assert made == [other_style, first.style]
    assert layout.text == first.pango_layout.text and hasattr(layout, "layout")


def test_proposals_are_laid_out_the_kept_way():
    assert hasattr(LAYOUT.deactivate, "frees")
    assert LAYOUT.reactivate is KEPT_WAY["reactivate"]
