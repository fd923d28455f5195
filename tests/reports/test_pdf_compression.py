"""The proposal's PDF streams are deflated at zlib's default level, not pydyf's slowest."""

import zlib

import pydyf

from reports.document import html_to_pdf
from reports.pdf_compression import PDF_DEFLATE_LEVEL
from tests.reports.conftest import pdf_text, squash

# A page's drawing commands repeat enough that the levels give different bytes.
CONTENT = b"\n".join(
    b"BT /F1 9.5 Tf %d 700 Td (Row %d of the cost table) Tj ET" % (i, i) for i in range(400)
)


def _deflated(level: int) -> bytes:
    squeezer = zlib.compressobj(level=level)
    return squeezer.compress(CONTENT) + squeezer.flush()


def test_pydyf_streams_are_deflated_at_the_proposal_level_once_reports_document_is_loaded():
    stream_data = pydyf.Stream([CONTENT], compress=True).data
    assert _deflated(PDF_DEFLATE_LEVEL) != _deflated(9)  # else this test could not tell
    assert _deflated(PDF_DEFLATE_LEVEL) in stream_data
    assert zlib.decompress(_deflated(PDF_DEFLATE_LEVEL)) == CONTENT


def test_a_proposal_written_at_that_level_reads_back_as_written():
    rendered = html_to_pdf("<html lang='en'><title>T</title><p>Three-year cost: $1.2M</p></html>")
    assert b"/FlateDecode" in rendered.pdf
    assert squash("Three-year cost: $1.2M") in squash(pdf_text(rendered.pdf))
