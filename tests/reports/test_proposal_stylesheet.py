"""The proposal's print stylesheet is parsed once per process, not on every layout, and again
when the file changes, its custom properties written out (reports.stylesheet); the proposal's
HTML names no stylesheet, yet is laid out with it."""

import os
import re
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from weasyprint.formatting_structure.boxes import LineBox, MarginBox

from reports.demo import demo_data
from reports.document import lay_out, render_html
from reports.fetcher import ProposalURLFetcher
from reports.stylesheet import custom_properties_written_out, proposal_stylesheet

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
    first = proposal_stylesheet()
    assert proposal_stylesheet() is first
    assert lay_out("<p>x</p>").pages[0].width == pytest.approx(148 * MM, abs=0.5)

    sheet.write_text("@page { size: A6 }")
    modified = sheet.stat().st_mtime_ns + 1_000_000_000
    os.utime(sheet, ns=(modified, modified))  # a later time even on a coarse file system clock
    assert proposal_stylesheet() is not first
    assert lay_out("<p>x</p>").pages[0].width == pytest.approx(105 * MM, abs=0.5)


def test_custom_properties_are_written_out_where_the_cascade_gives_their_root_value():
    css = (
        ":root { --accent: #1f5a8a; --rule: #d0d4d9 }\n"
        "h2 { border-bottom: 1.5pt solid var(--accent); color: var( --accent ) }\n"
        "@page { @top-left { color: var(--rule) } }"
    )
    written = custom_properties_written_out(css)
    assert "var(" not in written
    assert "h2 { border-bottom: 1.5pt solid #1f5a8a; color: #1f5a8a }" in written
    assert "@top-left { color: #d0d4d9 }" in written


def test_a_custom_property_set_outside_root_or_unknown_is_left_to_weasyprint():
    css = (
        ":root { --accent: #1f5a8a; --rule: grey }\n"
        ".callout { --accent: red; color: var(--accent) }\n"
        "td { color: var(--missing); border-color: var(--missing, var(--rule)) }"
    )
    written = custom_properties_written_out(css)
    assert ".callout { --accent: red; color: var(--accent) }" in written
    assert "td { color: var(--missing); border-color: var(--missing, grey) }" in written


def test_the_proposals_stylesheet_has_no_var_left_and_keeps_its_custom_properties():
    # the file stays the one place to rebrand; WeasyPrint gets the values written out
    source = (Path(settings.BASE_DIR) / "static" / "reports" / "proposal.css").read_text()
    assert "var(--accent)" in source
    # every property of :root is written out; what is left is the one set per chart
    # (.chart-figure's --chart-width, reports.chart_markup), which WeasyPrint resolves
    left = set(re.findall(r"var\((--[\w-]+)", custom_properties_written_out(source)))
    assert left == {"--chart-width"}
