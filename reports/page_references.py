"""The PDF's page references worked out once per page added, not once per structure element.

Writing a tagged PDF (PDF/UA-1, ``reports.document.PDF_OPTIONS``), WeasyPrint names the page of
each of the proposal's 3,000 structure elements by ``pdf.page_references[page_number]``
(``weasyprint/pdf/tags.py``). pydyf builds that tuple anew on each read, one
``b"N 0 R"`` per page from the page tree's ``Kids`` (pydyf 0.13, ``PDF.page_references``):
42,000 strings for the 14 pages of the demo, 1.6 % of its render. The references change only
when a page is added (``PDF.add_page``, which extends ``Kids`` by three items and never alters
what is there), so the tuple is kept with the length of ``Kids`` it was built from and built
again only when that length changes. ``tests/reports/test_page_references.py`` checks it
against pydyf's own and the demo's PDF byte for byte.
"""

from typing import Any

import pydyf

_OWN = pydyf.PDF.page_references


def _page_references(pdf: Any) -> tuple[bytes, ...]:
    kids = len(pdf.pages["Kids"])
    kept = pdf.__dict__.get("_kept_page_references")
    if kept is None or kept[0] != kids:
        kept = (kids, _OWN.fget(pdf))
        pdf.__dict__["_kept_page_references"] = kept
    return kept[1]


def keep_page_references_once() -> None:
    """Give pydyf's PDF the kept page references; called once when reports.document is
    imported, before any PDF is written."""
    if pydyf.PDF.page_references is _OWN:
        pydyf.PDF.page_references = property(_page_references)  # type: ignore[method-assign]
