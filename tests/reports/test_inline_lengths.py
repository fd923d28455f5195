"""The used lengths of a line's boxes are remembered per style and containing block
(reports.inline_lengths): each box gets exactly the lengths WeasyPrint's own function gives
it, and a proposal's PDF is byte for byte the same."""

import pytest
from weasyprint.formatting_structure.boxes import TextBox
from weasyprint.layout import inline as weasyprint_inline
from weasyprint.layout import percent as weasyprint_percent

from reports import per_style
from reports.demo import demo_data
from reports.document import PDF_OPTIONS, lay_out, render_html
from reports.inline_lengths import RESOLVED, remembering_resolver

# Text in margins, paddings, percentages of the column, and a table with collapsed borders whose
# cell holds a bordered span split over lines (its pieces lose the borders where they are cut):
# every way a box of a line is given a containing block and borders in a proposal.
HTML = (
    '<html lang="en"><head><title>T</title>'
    '<link rel="stylesheet" href="/static/reports/proposal.css"></head><body>'
    '<h2>Cost</h2><p style="padding: 5% 2%; margin: 3pt 10%">Eight <strong>servers of eight '
    "accelerators each</strong> run the job in about forty days, <em>with a range</em> of "
    "thirty to fifty-five days on the measured speed of similar runs.</p>"
    '<div style="width: 40%"><p>A narrow column whose text wraps over several lines, again '
    "and again, to give its text boxes a second containing block.</p></div>"
    "<table><tr><th>GPUs</th><td>64 across eight servers, <span style='border: 2pt solid; "
    "padding: 1pt 3%'>each with its own network card and two spare cards kept on the shelf"
    "</span> in case one fails</td></tr><tr><th>Storage</th><td>120 TB</td></tr></table></body></html>"
)


@pytest.fixture
def every_box_checked(monkeypatch):
    """Lay out with a resolver that also resolves a copy of each box with WeasyPrint's own
    function, and collect any length that differs."""
    own = weasyprint_percent.resolve_percentages
    remembering = remembering_resolver(own)
    differences: list[tuple[str, str, object, object]] = []
    checked = []

    def resolve_and_compare(box, containing_block):
        copy = box.copy()
        own(copy, containing_block)
        remembering(box, containing_block)
        checked.append(box)
        for name in RESOLVED:
            if getattr(box, name) != getattr(copy, name):
                differences.append((repr(box), name, getattr(box, name), getattr(copy, name)))

    monkeypatch.setattr(weasyprint_inline, "resolve_percentages", resolve_and_compare)
    return checked, differences, remembering


def test_every_box_of_the_demo_proposals_lines_gets_weasyprints_own_lengths(every_box_checked):
    checked, differences, remembering = every_box_checked
    lay_out(render_html(demo_data()))
    assert len(checked) > 2000  # the demo resolves some 2,800 boxes of its lines
    assert {type(box).__name__ for box in checked} >= {"TextBox", "InlineBox", "LineBox"}
    assert len(remembering.kept) < len(checked) / 5  # most were remembered, not worked out
    assert differences == []


def test_boxes_in_paddings_percentages_and_collapsed_tables_get_weasyprints_own_lengths(
    every_box_checked,
):
    checked, differences, _ = every_box_checked
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
    monkeypatch.setattr(per_style, "MOST_KEPT", 3)
    resolver = remembering_resolver(weasyprint_percent.resolve_percentages)
    document = lay_out(HTML)
    boxes = [box for page in document.pages for box in page._page_box.descendants()]
    text_boxes = [box for box in boxes if type(box) is TextBox]
    for width in range(10):
        resolver(text_boxes[0], (100.0 + width, "auto"))
    assert 1 <= len(resolver.kept) <= 3


def _bordered_span(document):
    boxes = [box for page in document.pages for box in page._page_box.descendants()]
    return next(
        box
        for box in boxes
        if type(box).__name__ == "InlineBox" and box.style["border_left_width"] > 0
    )


@pytest.mark.parametrize("collapse", [True, False])
def test_a_remembered_box_keeps_borders_it_already_has_only_where_borders_collapse(collapse):
    """Where borders collapse WeasyPrint leaves a box's border widths as they are (a piece of a
    span cut at a line's end has lost its left border); elsewhere it sets the style's."""
    own = weasyprint_percent.resolve_percentages
    span = _bordered_span(lay_out(HTML))
    span.style = span.style.copy()
    span.style["border_collapse"] = "collapse" if collapse else "separate"
    resolver = remembering_resolver(own)
    containing_block = (300.0, "auto")
    resolver(span.copy(), containing_block)  # worked out, then remembered
    cut = span.copy()
    cut.border_left_width = 0
    expected = cut.copy()
    own(expected, containing_block)
    resolver(cut, containing_block)
    assert len(resolver.kept) == 1
    assert {name: getattr(cut, name) for name in RESOLVED} == {
        name: getattr(expected, name) for name in RESOLVED
    }
    assert (cut.border_left_width == 0) is collapse
