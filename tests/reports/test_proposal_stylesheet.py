"""The proposal's print stylesheet is parsed once per process, not on every layout, and parsed
again when the file changes (reports.document._proposal_stylesheet); the proposal's HTML names
no stylesheet, yet is laid out with it."""

import os
from datetime import date

import pytest
from weasyprint.formatting_structure.boxes import LineBox, MarginBox

from reports.demo import demo_data
from reports.document import _proposal_stylesheet, lay_out, render_html
from reports.fetcher import ProposalURLFetcher

MM = 96 / 25.4  # CSS pixels per millimetre: WeasyPrint's page sizes are in CSS pixels


def test_the_demo_names_no_stylesheet_and_is_laid_out_with_the_proposals():
    html = render_html(demo_data(today=date(2026, 12, 2)))
    assert "<link" not in html
    page = lay_out(html).pages[0]
    # A4 with the stylesheet's margins (17 mm at the top, 16 mm at the sides), not WeasyPrint's
    assert (page.width, page.height) == pytest.approx((210 * MM, 297 * MM), abs=0.5)
    assert page._page_box.margin_top == pytest.approx(17 * MM)
    assert page._page_box.margin_left == pytest.approx(16 * MM)


def test_each_running_header_and_footer_stays_on_one_line_in_its_margin_box():
    # The left margin boxes have fixed widths (so WeasyPrint does not measure their texts on
    # every page): a text grown past its box would wrap onto a second line.
    pages = lay_out(render_html(demo_data(today=date(2026, 12, 2)))).pages
    margin_boxes = [
        box for page in pages for box in page._page_box.children if isinstance(box, MarginBox)
    ]
    assert {box.at_keyword for box in margin_boxes} == {
        "@top-left",
        "@top-right",
        "@bottom-left",
        "@bottom-right",
    }
    for box in margin_boxes:
        lines = [child for child in box.descendants() if isinstance(child, LineBox)]
        assert len(lines) == 1, (box.at_keyword, box.width)


def test_the_stylesheet_is_parsed_once_and_again_when_the_file_changes(tmp_path, monkeypatch):
    sheet = tmp_path / "proposal.css"
    sheet.write_text("@page { size: A5 }")
    monkeypatch.setattr(ProposalURLFetcher, "static_file", staticmethod(lambda url: sheet))
    first = _proposal_stylesheet()
    assert _proposal_stylesheet() is first
    assert lay_out("<p>x</p>").pages[0].width == pytest.approx(148 * MM, abs=0.5)

    sheet.write_text("@page { size: A6 }")
    modified = sheet.stat().st_mtime_ns + 1_000_000_000
    os.utime(sheet, ns=(modified, modified))  # a later time even on a coarse file system clock
    assert _proposal_stylesheet() is not first
    assert lay_out("<p>x</p>").pages[0].width == pytest.approx(105 * MM, abs=0.5)
