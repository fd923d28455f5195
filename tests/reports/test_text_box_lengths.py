"""A text box's used lengths are remembered per style and containing block
(reports.text_box_lengths): each text box gets exactly the lengths WeasyPrint's own function
gives it, and a proposal's PDF is byte for byte the same."""

import pytest
from weasyprint.formatting_structure.boxes import TextBox
from weasyprint.layout import inline as weasyprint_inline
from weasyprint.layout import percent as weasyprint_percent

from reports import text_box_lengths
from reports.demo import demo_data
from reports.document import PDF_OPTIONS, lay_out, render_html
from reports.text_box_lengths import RESOLVED, text_box_resolver

# Text in margins, paddings, percentages of the column, a table with collapsed borders and a
# span split over lines: every way a text box is given a containing block in a proposal.
HTML = (
    '<html lang="en"><head><title>T</title>'
    '<link rel="stylesheet" href="/static/reports/proposal.css"></head><body>'
    '<h2>Cost</h2><p style="padding: 5% 2%; margin: 3pt 10%">Eight <strong>servers of eight '
    "accelerators each</strong> run the job in about forty days, <em>with a range</em> of "
    "thirty to fifty-five days on the measured speed of similar runs.</p>"
    '<div style="width: 40%"><p>A narrow column whose text wraps over several lines, again '
    "and again, to give its text boxes a second containing block.</p></div>"
    "<table><tr><th>GPUs</th><td>64 across eight servers, each with its own network card"
    "</td></tr><tr><th>Storage</th><td>120 TB</td></tr></table></body></html>"
)


@pytest.fixture
def every_text_box_checked(monkeypatch):
    """Lay out with a resolver that also resolves a copy of each text box with WeasyPrint's own
    function, and collect any length that differs."""
    own = weasyprint_percent.resolve_percentages
    remembering = text_box_resolver(own)
    differences: list[tuple[str, str, object, object]] = []
    checked = []

    def resolve_and_compare(box, containing_block):
        if type(box) is not TextBox:
            remembering(box, containing_block)
            return
        copy = box.copy()
        own(copy, containing_block)
        remembering(box, containing_block)
        checked.append(box)
        for name in RESOLVED:
            if getattr(box, name) != getattr(copy, name):
                differences.append((box.text, name, getattr(box, name), getattr(copy, name)))

    monkeypatch.setattr(weasyprint_inline, "resolve_percentages", resolve_and_compare)
    return checked, differences, remembering


def test_every_text_box_of_the_demo_proposal_gets_weasyprints_own_lengths(every_text_box_checked):
    checked, differences, remembering = every_text_box_checked
    lay_out(render_html(demo_data()))
    assert len(checked) > 1000  # the demo tries some 1,600 pieces of text
    assert len(remembering.kept) < len(checked) / 5  # most were remembered, not worked out
    assert differences == []


def test_text_in_paddings_percentages_and_tables_gets_weasyprints_own_lengths(
    every_text_box_checked,
):
    checked, differences, _ = every_text_box_checked
    lay_out(HTML)
    assert len({(id(box.style), box.width) for box in checked}) > 3
    assert differences == []


def test_the_demo_proposal_is_byte_for_byte_the_pdf_weasyprints_own_function_writes(
    monkeypatch,
):
    html = render_html(demo_data())
    remembered = lay_out(html).write_pdf(**PDF_OPTIONS)
    monkeypatch.setattr(
        weasyprint_inline, "resolve_percentages", weasyprint_percent.resolve_percentages
    )
    assert lay_out(html).write_pdf(**PDF_OPTIONS) == remembered


def test_the_proposal_layout_uses_the_remembering_resolver():
    assert weasyprint_inline.resolve_percentages is not weasyprint_percent.resolve_percentages
    assert hasattr(weasyprint_inline.resolve_percentages, "kept")


def test_what_is_remembered_is_emptied_when_full(monkeypatch):
    monkeypatch.setattr(text_box_lengths, "_MOST_KEPT", 3)
    resolver = text_box_resolver(weasyprint_percent.resolve_percentages)
    document = lay_out(HTML)
    boxes = [box for page in document.pages for box in page._page_box.descendants()]
    text_boxes = [box for box in boxes if type(box) is TextBox]
    for width in range(10):
        resolver(text_boxes[0], (100.0 + width, "auto"))
    assert 1 <= len(resolver.kept) <= 3
