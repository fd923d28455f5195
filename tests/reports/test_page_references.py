"""The PDF's page references are kept until a page is added (reports.page_references): each
read is what pydyf's own property gives, and a proposal's PDF is byte for byte the same."""

import pydyf

from reports import page_references
from reports.demo import demo_data
from reports.document import PDF_OPTIONS, lay_out, render_html

OWN = page_references._OWN


def test_each_read_is_pydyfs_own_as_pages_are_added():
    pdf = pydyf.PDF()
    assert pdf.page_references == OWN.fget(pdf) == ()
    first = pdf.page_references
    for count in range(1, 4):
        pdf.add_page(pydyf.Dictionary({"Type": "/Page"}))
        assert pdf.page_references == OWN.fget(pdf)
        assert len(pdf.page_references) == count
    assert pdf.page_references is pdf.page_references  # kept between pages
    assert first == ()


def test_the_demo_proposal_is_byte_for_byte_the_pdf_pydyfs_own_property_writes(monkeypatch):
    html = render_html(demo_data())
    kept = lay_out(html).write_pdf(**PDF_OPTIONS)
    monkeypatch.setattr(pydyf.PDF, "page_references", OWN)
    assert lay_out(html).write_pdf(**PDF_OPTIONS) == kept


def test_proposals_are_written_with_the_kept_references():
    assert pydyf.PDF.page_references is not OWN
