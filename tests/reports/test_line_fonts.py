"""A style's line height and font description are remembered per style (reports.line_fonts):
each is what WeasyPrint's own function gives for that style, and a proposal's PDF is byte for
byte the same."""

import pytest
from weasyprint.layout import inline as weasyprint_inline
from weasyprint.text import line_break as weasyprint_line_break
from weasyprint.text.ffi import ffi, pango

from reports.demo import demo_data
from reports.document import PDF_OPTIONS, lay_out, render_html
from reports.per_style import per_style

OWN_STRUT = weasyprint_inline.strut.works_out
OWN_FONT_DESCRIPTION = weasyprint_line_break.get_font_description.works_out


def _described(description) -> str:
    return ffi.string(pango.pango_font_description_to_string(description)).decode()


@pytest.fixture
def every_answer_checked(monkeypatch):
    """Lay out with remembering functions that also ask WeasyPrint's own for each style, and
    collect any answer that differs."""
    struts, descriptions = per_style(OWN_STRUT), per_style(OWN_FONT_DESCRIPTION)
    differences: list[tuple[str, object, object]] = []
    asked: list[str] = []

    def strut(style):
        asked.append("strut")
        if struts(style) != OWN_STRUT(style):
            differences.append(("strut", struts(style), OWN_STRUT(style)))
        return struts(style)

    def font_description(style):
        asked.append("font")
        kept, own = _described(descriptions(style)), _described(OWN_FONT_DESCRIPTION(style))
        if kept != own:
            differences.append(("font", kept, own))
        return descriptions(style)

    monkeypatch.setattr(weasyprint_inline, "strut", strut)
    monkeypatch.setattr(weasyprint_line_break, "get_font_description", font_description)
    return asked, differences, struts, descriptions


def test_every_line_height_and_font_of_the_demo_proposal_is_weasyprints_own(
    every_answer_checked,
):
    asked, differences, struts, descriptions = every_answer_checked
    document = lay_out(render_html(demo_data()))
    document.write_pdf(**PDF_OPTIONS)  # drawing shapes every line again
    assert asked.count("strut") > 1000 and asked.count("font") > 1000
    # most were remembered, not worked out again
    assert len(struts.kept) < asked.count("strut") / 5
    assert len(descriptions.kept) < asked.count("font") / 5
    assert differences == []


def test_different_fonts_and_sizes_get_their_own_answers(every_answer_checked):
    _, differences, struts, descriptions = every_answer_checked
    lay_out(
        '<html lang="en"><title>T</title><body>'
        "<h1>Cost</h1><p>Eight <strong>servers</strong>, <em>with spares</em>, "
        '<span style="font-size: 7pt; line-height: 1.1">in small print</span></p>'
        '<p style="font-family: monospace">64 GPUs</p></body></html>'
    )
    assert len({_described(d) for _style, d in descriptions.kept.values()}) >= 4
    assert len({answer for _style, answer in struts.kept.values()}) >= 3
    assert differences == []


def test_the_demo_proposal_is_byte_for_byte_the_pdf_weasyprints_own_functions_write(
    monkeypatch,
):
    html = render_html(demo_data())
    remembered = lay_out(html).write_pdf(**PDF_OPTIONS)
    monkeypatch.setattr(weasyprint_inline, "strut", OWN_STRUT)
    monkeypatch.setattr(weasyprint_line_break, "get_font_description", OWN_FONT_DESCRIPTION)
    assert lay_out(html).write_pdf(**PDF_OPTIONS) == remembered


def test_the_proposal_layout_uses_the_remembered_answers():
    assert weasyprint_inline.strut is not weasyprint_line_break.strut
    assert hasattr(weasyprint_inline.strut, "kept")
    assert hasattr(weasyprint_line_break.get_font_description, "kept")
